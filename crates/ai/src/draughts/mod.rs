//! The draughts CPU player, one engine for the four variants: reads a [`Request`] (PDN FEN start, PDN moves),
//! searches, answers a [`Choice`] in PDN.
//!
//! - [`arena`]: matches between levels, a random mover and outside engines (`parlor match`).
//! - [`bench`]: node counts at fixed depth and the depth reached in one second (`parlor bench search`).
//! - [`datagen`]: training positions for the networks from a teacher's games against itself.
//! - [`eval`]: the evaluation and the board geometry of each variant.
//! - [`hub`]: the Hub protocol of Scan (`parlor hub`, International draughts).
//! - [`hub_engine`]: an outside International draughts engine over Hub, as a `parlor match` opponent.
//! - [`nn`]: the networks that correct each variant's evaluation (hard).
//! - [`patterns`]: the learnt weights of formations of men that correct it further (hard).
//! - `search`: PVS and the capture search under the shared driver (`crate::driver`); where the level says so
//!   ([`crate::params::LevelParams::threats`]), the capture search also answers a threat to take.
//!
//! Capturing is mandatory unless the request says otherwise ([`Request::mandatory_capture`], a table option):
//! then the moves of the game may decline captures, and the search weighs declining them.

#[cfg(feature = "tools")]
pub mod arena;
#[cfg(feature = "tools")]
pub mod bench;
#[cfg(feature = "tools")]
pub mod datagen;
pub mod eval;
pub mod hub;
#[cfg(feature = "tools")]
pub mod hub_engine;
pub mod nn;
pub mod patterns;
pub(crate) mod search;

use crate::clock::{Budget, Timer};
use crate::params::{self, LevelParams};
use crate::request::{AiError, Choice, Limit, Request, Score};
use crate::tt::Tt;
use eval::{Geometry, evaluate};
use parlor_draughts::{DraughtsVariant, Move, Position};
use search::{History, Search};
use std::sync::Arc;
use std::time::Instant;

/// A position to search from and the hashes of the game that led to it (for repetitions).
#[derive(Clone, Debug)]
pub struct Root {
    /// The position.
    pub pos: Position,
    /// Hashes of the positions since the last capture or man move, this one last.
    pub keys: Vec<u64>,
}

impl Root {
    /// The position after `moves` (PDN) from `start` (PDN FEN; empty for the variant's start), with capturing
    /// mandatory or not.
    ///
    /// # Errors
    /// [`AiError::BadPosition`] or [`AiError::BadMove`].
    pub fn new(
        variant: DraughtsVariant,
        start: &str,
        moves: &[String],
        mandatory_capture: bool,
    ) -> Result<Root, AiError> {
        let pos = if start.trim().is_empty() || start.trim() == "startpos" {
            Position::start(variant)
        } else {
            Position::from_fen(variant, start.trim()).map_err(|e| AiError::BadPosition(e.to_string()))?
        };
        let mut pos = pos.with_mandatory_capture(mandatory_capture);
        let mut keys = vec![pos.hash()];
        for (index, wire) in moves.iter().enumerate() {
            let m = pos.parse_move(wire.trim()).map_err(|e| AiError::BadMove {
                index,
                wire: wire.clone(),
                reason: e.to_string(),
            })?;
            if m.is_capture() || pos.is_man_move(m) {
                keys.clear();
            }
            pos.play_unchecked(m);
            keys.push(pos.hash());
        }
        Ok(Root { pos, keys })
    }
}

/// A draughts engine that keeps its transposition table and history between the moves of a game.
#[derive(Debug)]
pub struct DraughtsEngine {
    tt: Tt<Move>,
    history: Box<History>,
    geometry: Vec<Geometry>,
}

impl Default for DraughtsEngine {
    fn default() -> DraughtsEngine {
        DraughtsEngine::new()
    }
}

impl DraughtsEngine {
    /// An engine with an empty table of [`params::DRAUGHTS_TT_ENTRIES`] entries.
    pub fn new() -> DraughtsEngine {
        DraughtsEngine {
            tt: Tt::new(params::DRAUGHTS_TT_ENTRIES),
            history: Box::new([[0; 51]; 51]),
            geometry: Vec::new(),
        }
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        *self.history = [[0; 51]; 51];
    }

    /// Chooses a move for a request, the time budget counted from `start`, calling `report` after every
    /// completed iteration.
    ///
    /// # Errors
    /// [`AiError`] when the position or a move is bad, the game is not draughts, or the game is over.
    pub fn choose_since(
        &mut self,
        start: Instant,
        req: &Request,
        report: &mut dyn FnMut(&Choice),
    ) -> Result<Choice, AiError> {
        let parlor_game::GameKind::Draughts(variant) = req.kind else {
            return Err(AiError::Unsupported(req.kind));
        };
        let root = Root::new(variant, &req.start, &req.moves, req.mandatory_capture)?;
        let lp = req
            .params
            .unwrap_or_else(|| params::draughts_level(variant, req.level));
        let timer = Timer::started_at(
            start,
            Budget::new(&req.limit, lp.time_permille),
            Arc::clone(&req.stop),
        );
        self.search(&root, lp, &req.limit, timer, req.seed, report)
    }

    /// Searches a root with a running timer.
    ///
    /// # Errors
    /// [`AiError::GameOver`] when the side to move has no legal move.
    pub fn search(
        &mut self,
        root: &Root,
        lp: LevelParams,
        limit: &Limit,
        timer: Timer,
        seed: Option<u64>,
        report: &mut dyn FnMut(&Choice),
    ) -> Result<Choice, AiError> {
        let variant = root.pos.variant();
        let mut moves = root.pos.legal_moves().to_vec();
        if moves.is_empty() {
            return Err(AiError::GameOver);
        }
        let gi = match self.geometry.iter().position(|g| g.variant == variant) {
            Some(i) => i,
            None => {
                self.geometry.push(Geometry::new(variant));
                self.geometry.len() - 1
            }
        };
        let geo = &self.geometry[gi];
        let noise = crate::driver::level_root(&mut moves, &lp, seed);
        let mut search = Search::new(&mut self.tt, &mut self.history, geo, timer, root.keys.clone(), lp);
        let to_choice = |depth: i32, score: i32, pv: &[Move], nodes: u64, elapsed| {
            let mut line = Vec::with_capacity(pv.len());
            let mut pos = root.pos;
            for &m in pv {
                if !pos.is_legal(m) {
                    break;
                }
                line.push(pos.move_notation(m));
                pos.play_unchecked(m);
            }
            Choice::from_line(line, depth, Score::from_internal(score), nodes, elapsed)
        };
        let start = Instant::now();
        let best = search.run(&root.pos, &moves, &noise, |it, nodes| {
            report(&to_choice(it.depth, it.score, &it.pv, nodes, start.elapsed()));
        });
        crate::driver::hold_until_stopped(limit, search.timer());
        let nodes = search.nodes;
        let elapsed = search.timer().elapsed();
        Ok(match best {
            Some(it) if !it.pv.is_empty() => to_choice(it.depth, it.score, &it.pv, nodes, elapsed),
            _ => {
                let (m, score) = static_best(&root.pos, &moves, geo);
                to_choice(0, score, &[m], nodes, elapsed)
            }
        })
    }
}

/// The legal move after which the evaluation is best for the mover (one ply, no search). `moves` is not empty.
fn static_best(pos: &Position, moves: &[Move], geo: &Geometry) -> (Move, i32) {
    let mut best = (moves[0], -params::INFINITY);
    for &m in moves {
        let mut child = *pos;
        child.play_unchecked(m);
        let score = if child.legal_moves().is_empty() {
            params::MATE - 1
        } else {
            -evaluate(&child, geo)
        };
        if score > best.1 {
            best = (m, score);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Level;
    use parlor_game::GameKind;
    use std::time::Duration;

    fn best(variant: DraughtsVariant, fen: &str, depth: u32) -> Choice {
        let mut req = Request::new(GameKind::Draughts(variant), Level::HARD, Limit::Depth(depth));
        req.start = fen.to_owned();
        DraughtsEngine::new()
            .choose_since(Instant::now(), &req, &mut |_| {})
            .unwrap()
    }

    #[test]
    fn takes_the_forced_capture_and_wins_a_won_ending() {
        // White to move must capture 22x15... only one capture: it is the move.
        let c = best(DraughtsVariant::English, "W:W22:B18,1", 4);
        assert_eq!(c.wire, "22x15");
        // Two kings against one in a corner: a win the search sees.
        let c = best(DraughtsVariant::English, "W:WK14,K19:BK32", 12);
        assert!(
            matches!(c.score, Score::Mate(n) if n > 0) || matches!(c.score, Score::Cp(s) if s > 100),
            "{c:?}"
        );
    }

    fn best_with_rule(fen: &str, depth: u32, mandatory_capture: bool) -> Choice {
        let mut req = Request::new(
            GameKind::Draughts(DraughtsVariant::English),
            Level::HARD,
            Limit::Depth(depth),
        );
        req.start = fen.to_owned();
        req.mandatory_capture = mandatory_capture;
        DraughtsEngine::new()
            .choose_since(Instant::now(), &req, &mut |_| {})
            .unwrap()
    }

    #[test]
    fn optional_capture_games_replay_and_losing_captures_are_declined() {
        let v = DraughtsVariant::English;
        // Black declines 15x22 with 12-16: a move only where capturing is optional.
        let moves = ["11-15", "22-18", "12-16"].map(String::from);
        assert!(matches!(
            Root::new(v, "", &moves, true),
            Err(AiError::BadMove { index: 2, .. })
        ));
        let root = Root::new(v, "", &moves, false).unwrap();
        assert!(!root.pos.is_capture_mandatory());
        let mut req = Request::new(GameKind::Draughts(v), Level::HARD, Limit::Depth(6));
        req.moves = moves.to_vec();
        req.mandatory_capture = false;
        let c = DraughtsEngine::new()
            .choose_since(Instant::now(), &req, &mut |_| {})
            .unwrap();
        assert!(root.pos.parse_move(&c.wire).is_ok(), "{c:?}");

        // White's only capture, 22x15, is retaken by the double jump 11x27 (over 15 and 23): forced, it loses a
        // man; optional, 23-19 keeps the material as it is.
        let fen = "W:W22,23,25:B1,8,11,14,18";
        let forced = best_with_rule(fen, 8, true);
        assert!(forced.wire.contains('x'), "{forced:?}");
        let free = best_with_rule(fen, 8, false);
        assert!(!free.wire.contains('x'), "{free:?}");
        let cp = |c: &Choice| match c.score {
            Score::Cp(s) => s,
            Score::Mate(n) => n.signum() * 100_000,
        };
        assert!(cp(&free) > cp(&forced) + 50, "{forced:?} {free:?}");
    }

    #[test]
    fn the_no_progress_rule_draws_a_won_ending_with_too_few_plies_left() {
        // Two kings against one: won, but no capture is possible in White's next move.
        let pos = Position::from_fen(DraughtsVariant::English, "W:WK14,K19:BK32").unwrap();
        let score = |quiet_plies: u64| {
            // The hashes of the game since the last capture or man move (made up: only their number counts here).
            let mut keys: Vec<u64> = (1..=quiet_plies)
                .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
                .collect();
            keys.push(pos.hash());
            let root = Root { pos, keys };
            let limit = Limit::Depth(10);
            let timer = Timer::started_at(
                Instant::now(),
                Budget::new(&limit, 1000),
                Arc::new(std::sync::atomic::AtomicBool::new(false)),
            );
            DraughtsEngine::new()
                .search(
                    &root,
                    params::draughts_level(root.pos.variant(), Level::HARD),
                    &limit,
                    timer,
                    Some(1),
                    &mut |_| {},
                )
                .unwrap()
                .score
        };
        let fresh = score(0);
        assert!(
            matches!(fresh, Score::Mate(n) if n > 0) || matches!(fresh, Score::Cp(s) if s > 100),
            "{fresh:?}"
        );
        // 38 quiet plies already: the 40th comes after Black's reply, a draw whatever White plays.
        assert_eq!(score(38), Score::Cp(0));
        // 20 quiet plies: twenty left, and the win is still there.
        assert!(matches!(score(20), Score::Mate(n) if n > 0) || matches!(score(20), Score::Cp(s) if s > 100));
    }

    #[test]
    fn every_variant_answers_a_legal_move_quickly() {
        for v in DraughtsVariant::ALL {
            for level in Level::ALL {
                let mut req = Request::new(
                    GameKind::Draughts(v),
                    level,
                    Limit::MoveTime(Duration::from_millis(30)),
                );
                req.seed = Some(3);
                let c = DraughtsEngine::new()
                    .choose_since(Instant::now(), &req, &mut |_| {})
                    .unwrap();
                let pos = Position::start(v);
                assert!(pos.parse_move(&c.wire).is_ok(), "{v} {level}: {c:?}");
            }
        }
    }

    #[test]
    fn bad_input_and_finished_games_get_typed_errors() {
        let v = DraughtsVariant::English;
        assert!(matches!(
            Root::new(v, "nonsense", &[], true),
            Err(AiError::BadPosition(_))
        ));
        assert!(matches!(
            Root::new(v, "", &["9-14".to_owned(), "9-13".to_owned()], true),
            Err(AiError::BadMove { index: 1, .. })
        ));
        let mut req = Request::new(GameKind::Draughts(v), Level::EASY, Limit::Depth(2));
        // White's only man (29, the corner) is blocked by 25 and cannot jump it (22 is taken).
        req.start = "W:W29:B22,25".to_owned();
        let r = DraughtsEngine::new().choose_since(Instant::now(), &req, &mut |_| {});
        assert_eq!(r, Err(AiError::GameOver));
    }
}
