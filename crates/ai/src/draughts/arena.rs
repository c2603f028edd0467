//! Matches between draughts players (`parlor match --game draughts/<variant>`): our levels or a random mover,
//! from short random openings, each opening played twice with colours swapped, in parallel, with W/D/L and Elo.

use crate::arena::{ArenaError, GameRecord, LocalPlayer as Player, MatchConfig, Summary};
use crate::match_clock::Clocks;
use crate::rng::Rng;
use parlor_draughts::{DraughtsVariant, Game, Options, Position};
use parlor_game::{GameKind, Outcome, Rules, Seat};
use std::time::Instant;

/// Plies of a random opening: enough to give every pair of games its own position, few enough to stay balanced.
pub const OPENING_PLIES: usize = 3;

/// The random opening number `index` of a match (the same for both games of a pair).
pub fn opening(variant: DraughtsVariant, seed: u64, index: usize) -> Vec<String> {
    let mut rng = Rng::new(seed ^ (index as u64 + 1).wrapping_mul(0xA076_1D64_78BD_642F));
    let mut pos = Position::start(variant);
    let mut out = Vec::new();
    for _ in 0..OPENING_PLIES {
        let moves = pos.legal_moves();
        let Some(&m) = moves.get(rng.below(moves.len() as u64) as usize) else {
            break;
        };
        out.push(pos.move_notation(m));
        pos.play_unchecked(m);
    }
    out
}

/// Plays one game; returns the first seat's score, how it ended and the moves.
fn play_game(
    first: &mut Player,
    second: &mut Player,
    variant: DraughtsVariant,
    opening: &[String],
    cfg: &MatchConfig,
) -> Result<(f64, String, Vec<String>), ArenaError> {
    first.new_game()?;
    second.new_game()?;
    let mut game = Game::new(variant, Options::default());
    for m in opening {
        game.play(m)
            .map_err(|_| ArenaError::BadOpening(opening.join(" ")))?;
    }
    let mut moves = opening.to_vec();
    let mut clocks = Clocks::new(cfg.movetime, cfg.clock);
    while game.outcome().is_running() {
        if moves.len() >= cfg.max_plies {
            return Ok((0.5, "move limit".to_owned(), moves));
        }
        let seat = game.turn().unwrap_or(Seat::First);
        let player = if seat == Seat::First {
            &mut *first
        } else {
            &mut *second
        };
        let started = Instant::now();
        let wire = player.choose(&game, cfg.game, &moves, clocks.think(seat.index()))?;
        if !clocks.charge(seat.index(), started) {
            let score = if seat == Seat::First { 0.0 } else { 1.0 };
            return Ok((score, "time".to_owned(), moves));
        }
        if game.play(&wire).is_err() {
            let score = if seat == Seat::First { 0.0 } else { 1.0 };
            return Ok((score, format!("illegal move {wire}"), moves));
        }
        moves.push(wire);
    }
    Ok(match game.outcome() {
        Outcome::Decided(d) => (
            if d.winner() == Some(Seat::First) { 1.0 } else { 0.0 },
            format!("{:?}", d.reason),
            moves,
        ),
        Outcome::Drawn(r) => (0.5, format!("{r:?}"), moves),
        Outcome::Running => (0.5, "running".to_owned(), moves),
    })
}

/// Plays a draughts match, calling `progress` after each game.
///
/// # Errors
/// [`ArenaError`] when the game is not draughts, a player is not supported, or an engine fails.
pub fn run_match(
    cfg: &MatchConfig,
    mut progress: impl FnMut(&GameRecord, &Summary),
) -> Result<Summary, ArenaError> {
    let GameKind::Draughts(variant) = cfg.game else {
        return Err(ArenaError::Unsupported(cfg.game));
    };
    let mut summary = Summary::default();
    crate::arena::play_games(
        cfg.games,
        cfg.concurrency,
        |worker| {
            let seed = cfg.seed ^ (worker as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            Ok((
                Player::new(&cfg.a, cfg.game, seed)?,
                Player::new(&cfg.b, cfg.game, seed ^ 1)?,
            ))
        },
        |(a, b), index| {
            let open = opening(variant, cfg.seed, index / 2);
            let a_first = index % 2 == 0;
            let played = if a_first {
                play_game(a, b, variant, &open, cfg)?
            } else {
                play_game(b, a, variant, &open, cfg)?
            };
            Ok(GameRecord::of(index, open.join(" "), a_first, played))
        },
        |record| {
            summary.add(record.a_score);
            progress(&record, &summary);
        },
    )?;
    Ok(summary)
}

/// Plays a draughts match, printing each game to stderr and the summary to stdout (`parlor match`).
///
/// # Errors
/// As [`run_match`].
pub fn print_match(cfg: &MatchConfig, show_moves: bool) -> Result<Summary, ArenaError> {
    let (a, b) = (cfg.a.label(), cfg.b.label());
    println!(
        "{}: {a} vs {b}: {} games at {}",
        cfg.game,
        cfg.games,
        cfg.time_label()
    );
    let summary = run_match(cfg, |g, s| {
        let side = if g.a_first { "first" } else { "second" };
        eprintln!(
            "game {:>3} [{:<16}] A {side}: {} ({}, {} plies)  running: {s}",
            g.index + 1,
            g.opening,
            g.a_score,
            g.reason,
            g.plies
        );
        if show_moves {
            eprintln!("  moves: {}", g.moves.join(" "));
        }
    })?;
    println!("{}: {a} vs {b}: {summary}", cfg.game);
    Ok(summary)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Level;
    use crate::arena::PlayerSpec;
    use std::time::Duration;

    #[test]
    fn easy_beats_random_at_english_draughts() {
        let cfg = MatchConfig {
            game: GameKind::Draughts(DraughtsVariant::English),
            a: PlayerSpec::Level(Level::EASY, Vec::new()),
            b: PlayerSpec::Random,
            games: 2,
            movetime: Duration::from_millis(5),
            clock: None,
            concurrency: 2,
            seed: 3,
            max_plies: 300,
        };
        let s = run_match(&cfg, |_, _| {}).unwrap();
        assert_eq!(s.games(), 2);
        assert!(s.score() >= 0.5, "{s}");
    }
}
