//! Perft against the published counts in `tests/data/draughts.perft` (copied from the shared test data; its header
//! names the sources). Debug builds skip counts above 2,000,000; the deep counts are `#[ignore]`d: run them with
//! `cargo test --release -p parlor-draughts -- --ignored`.
#![allow(clippy::unwrap_used)]

use parlor_draughts::{DraughtsVariant, Duplicates, Position, perft_with};

const DATA: &str = include_str!("data/draughts.perft");

struct Case {
    id: String,
    variant: Option<DraughtsVariant>,
    fen: String,
    dups: Duplicates,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    for line in DATA
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, value) = line.split_once(' ').unwrap();
        match key {
            "id" => out.push(Case {
                id: value.to_owned(),
                variant: None,
                fen: String::new(),
                dups: Duplicates::Drop,
                counts: Vec::new(),
            }),
            "variant" => out.last_mut().unwrap().variant = value.parse().ok(), // brazilian: not ours
            "fen" => out.last_mut().unwrap().fen = value.to_owned(),
            "dups" => {
                out.last_mut().unwrap().dups = if value == "keep" {
                    Duplicates::Keep
                } else {
                    Duplicates::Drop
                }
            }
            "perft" => {
                let (d, n) = value.split_once(' ').unwrap();
                out.last_mut()
                    .unwrap()
                    .counts
                    .push((d.parse().unwrap(), n.parse().unwrap()));
            }
            other => panic!("unknown key {other}"),
        }
    }
    out
}

/// Runs every count of `min..=max` nodes; returns how many were checked.
fn run(min: u64, max: u64) -> usize {
    let mut checked = 0;
    for case in cases() {
        let Some(variant) = case.variant else { continue };
        let pos = Position::from_fen(variant, &case.fen).unwrap();
        for &(depth, nodes) in &case.counts {
            if nodes < min || nodes > max {
                continue;
            }
            assert_eq!(
                perft_with(&pos, depth, case.dups),
                nodes,
                "{} depth {depth}",
                case.id
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_matches_published_counts() {
    let limit = if cfg!(debug_assertions) {
        2_000_000
    } else {
        50_000_000
    };
    assert!(run(0, limit) > 80);
}

#[test]
fn every_variant_and_the_extra_international_positions_are_covered() {
    let ids: Vec<String> = cases()
        .into_iter()
        .filter(|c| c.variant.is_some())
        .map(|c| c.id)
        .collect();
    for id in [
        "english-start-drop",
        "russian-start-drop",
        "pool-start-drop",
        "international-start-drop",
        "international-woldouby",
        "international-random178",
        "international-all-kings",
        "international-almost-promotion",
        "international-front-rows",
    ] {
        assert!(ids.iter().any(|i| i == id), "{id} missing");
    }
}

/// The start positions to depth 10 and beyond (English 12, Russian and Pool 12, International 10): minutes in
/// debug, about 30 s in release.
#[test]
#[ignore]
fn perft_deep() {
    let limit = if cfg!(debug_assertions) {
        2_000_000
    } else {
        50_000_000
    };
    assert!(run(limit + 1, 600_000_000) > 10);
}

#[test]
fn start_positions_match_the_fen_of_the_data() {
    for variant in DraughtsVariant::ALL {
        let case = cases()
            .into_iter()
            .find(|c| c.variant == Some(variant) && c.id.ends_with("start-drop"))
            .unwrap();
        assert_eq!(
            Position::start(variant),
            Position::from_fen(variant, &case.fen).unwrap()
        );
        assert_eq!(Position::start(variant).to_fen(), case.fen);
    }
}
