//! Perft from the shared four-player test data (tests/data/perft-4pc.txt, computed with obryanlouis/4pchess's
//! generator in Teams mode; see the comments in the file). Counts above a node limit run only with `--ignored`.
#![allow(clippy::unwrap_used)]

use parlor_chess4::Position;
use parlor_chess4::perft::perft;

const DATA: &str = include_str!("data/perft-4pc.txt");
const DEBUG_NODE_LIMIT: u64 = 200_000;

struct Case {
    id: String,
    fen4: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for line in DATA
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, value) = line.split_once(' ').unwrap();
        match key {
            "id" => cases.push(Case {
                id: value.to_owned(),
                fen4: String::new(),
                counts: Vec::new(),
            }),
            "fen4" => cases.last_mut().unwrap().fen4 = value.to_owned(),
            "perft" => {
                let (d, n) = value.split_once(' ').unwrap();
                cases
                    .last_mut()
                    .unwrap()
                    .counts
                    .push((d.parse().unwrap(), n.parse().unwrap()));
            }
            other => panic!("unknown line {other}"),
        }
    }
    assert_eq!(cases.len(), 2);
    cases
}

fn run(teams: bool, limit: u64) {
    for case in cases() {
        let mut pos = Position::from_fen4(&case.fen4).unwrap();
        pos.set_teams_legality(teams);
        for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= limit) {
            assert_eq!(
                perft(&pos, depth),
                expected,
                "{} depth {depth} teams={teams}",
                case.id
            );
        }
    }
}

#[test]
fn perft_free_for_all_matches_the_team_mode_counts_to_depth_4() {
    run(false, DEBUG_NODE_LIMIT);
}

#[test]
fn perft_teams_mode_matches_the_reference_to_depth_4() {
    run(true, DEBUG_NODE_LIMIT);
}

#[test]
fn start_position_perft_1_to_3() {
    let pos = Position::start();
    assert_eq!([1, 2, 3].map(|d| perft(&pos, d)), [20, 395, 7800]);
    assert_eq!(parlor_game::perft(&pos, 3), 7800);
}

/// Depths 5 and 6 (run in release: `cargo test --release -p parlor-chess4 -- --ignored`).
#[test]
#[ignore]
fn perft_deep_free_for_all_and_teams() {
    run(false, u64::MAX);
    run(true, u64::MAX);
}
