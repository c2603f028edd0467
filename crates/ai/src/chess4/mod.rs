//! The four-player chess CPU player: reads a [`Request`] (FEN4 start, wire moves), searches with best-reply
//! alpha-beta, answers a [`Choice`] in wire notation.
//!
//! - [`arena`]: matches between levels (`parlor match`).
//! - [`bench`]: node counts at fixed depth and the depth reached in one second (`parlor bench search`).
//! - [`eval`]: each seat's value (points, material, mobility, king safety, pieces left to be taken) and the
//!   root seat's view of it.
//! - `search`: best-reply alpha-beta with iterative deepening.
//!
//! # Eliminations that are not moves
//! A resignation or a timeout eliminates a seat without a move, which [`Request::moves`] cannot express. For a
//! game that had one, the caller sends the **current** position as `start` (FEN4 carries the eliminated seats,
//! the points, castling rights, en-passant windows and the side to move; `Rules::position_text` writes it) and
//! leaves `moves` empty. The engine then does not know the repetitions of the game before that position.

#[cfg(feature = "tools")]
pub mod arena;
#[cfg(feature = "tools")]
pub mod bench;
pub mod eval;
pub(crate) mod search;

use crate::clock::{Budget, Timer};
use crate::params::{self, LevelParams};
use crate::request::{AiError, Choice, Limit, Request, Score};
use crate::tt::Tt;
use parlor_chess4::{Game, Move, Options, Position};
use parlor_game::Rules;
use search::{History, Search};
use std::sync::Arc;
use std::time::Instant;

/// A position to search from and the positions of the game that led to it (for repetitions).
#[derive(Clone, Debug)]
pub struct Root {
    /// The position.
    pub pos: Position,
    /// Repetition keys (`Position::repetition_key`) of the positions since the last capture or pawn move, this
    /// one last.
    pub keys: Vec<u64>,
    /// The root moves to search (UCI-style `searchmoves`); empty for all.
    pub only: Vec<Move>,
}

impl Root {
    /// Searches only these root moves (wire notation).
    ///
    /// # Errors
    /// [`AiError::BadMove`] for a move that is not legal in the root.
    pub fn restrict(&mut self, wires: &[String]) -> Result<(), AiError> {
        let legal = self.pos.legal_moves();
        self.only = wires
            .iter()
            .enumerate()
            .map(|(index, wire)| {
                legal
                    .iter()
                    .copied()
                    .find(|&m| self.pos.move_notation(m) == wire.trim())
                    .ok_or_else(|| AiError::BadMove {
                        index,
                        wire: wire.clone(),
                        reason: "not a legal move here".to_owned(),
                    })
            })
            .collect::<Result<_, _>>()?;
        Ok(())
    }
}

/// The position to search from, after the start and the moves of a request.
///
/// # Errors
/// [`AiError::BadPosition`], [`AiError::BadMove`], or [`AiError::GameOver`] when the game has ended.
pub fn root(start: &str, moves: &[String]) -> Result<Root, AiError> {
    let (game, keys) = replay(start, moves)?;
    if !game.outcome().is_running() {
        return Err(AiError::GameOver);
    }
    Ok(Root {
        pos: game.position().clone(),
        keys,
        only: Vec::new(),
    })
}

/// The position after the start and the moves of a request, also when the game has ended there.
///
/// # Errors
/// [`AiError::BadPosition`], [`AiError::BadMove`].
pub fn position_at(start: &str, moves: &[String]) -> Result<Position, AiError> {
    Ok(replay(start, moves)?.0.position().clone())
}

/// The game of a request's start and moves, with the repetition keys since the last capture or pawn move.
fn replay(start: &str, moves: &[String]) -> Result<(Game, Vec<u64>), AiError> {
    let mut game = if start.trim().is_empty() || start.trim() == "startpos" {
        Game::new(Options::default())
    } else {
        Game::from_fen4(start.trim(), None).map_err(|e| AiError::BadPosition(e.to_string()))?
    };
    let mut keys = vec![game.position().repetition_key()];
    for (index, wire) in moves.iter().enumerate() {
        game.play(wire).map_err(|e| AiError::BadMove {
            index,
            wire: wire.clone(),
            reason: e.to_string(),
        })?;
        if game.position().halfmove_clock() == 0 {
            keys.clear();
        }
        keys.push(game.position().repetition_key());
    }
    Ok((game, keys))
}

/// A four-player engine that keeps its transposition table and history between moves.
#[derive(Debug)]
pub struct Chess4Engine {
    tt: Tt<Move>,
    history: Box<History>,
}

impl Default for Chess4Engine {
    fn default() -> Chess4Engine {
        Chess4Engine::new()
    }
}

impl Chess4Engine {
    /// An engine with an empty table of [`params::CHESS4_TT_ENTRIES`] entries.
    pub fn new() -> Chess4Engine {
        Chess4Engine {
            tt: Tt::new(params::CHESS4_TT_ENTRIES),
            history: Box::new([[0; 196]; 196]),
        }
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        *self.history = [[0; 196]; 196];
    }

    /// Chooses a move for a request, the time budget counted from `start`, calling `report` after every
    /// completed iteration.
    ///
    /// # Errors
    /// [`AiError`] when the position or a move is bad, or the game is over.
    pub fn choose_since(
        &mut self,
        start: Instant,
        req: &Request,
        report: &mut dyn FnMut(&Choice),
    ) -> Result<Choice, AiError> {
        let mut root = root(&req.start, &req.moves)?;
        root.restrict(&req.search_moves)?;
        let lp = req.params.unwrap_or_else(|| params::chess4_level(req.level));
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
    /// [`AiError::GameOver`] when the seat to move has no legal move.
    pub fn search(
        &mut self,
        root: &Root,
        lp: LevelParams,
        limit: &Limit,
        timer: Timer,
        seed: Option<u64>,
        report: &mut dyn FnMut(&Choice),
    ) -> Result<Choice, AiError> {
        let pos = &root.pos;
        let mut moves: Vec<Move> = pos.legal_moves().to_vec();
        if !root.only.is_empty() {
            moves.retain(|m| root.only.contains(m));
        }
        if moves.is_empty() {
            return Err(AiError::GameOver);
        }
        let noise = crate::driver::level_root(&mut moves, &lp, seed);
        let root_seat = pos.turn();
        let mut search = Search::new(
            &mut self.tt,
            &mut self.history,
            timer,
            lp,
            root_seat,
            root.keys.clone(),
        );
        let to_choice = |depth: i32, score: i32, m: Move, nodes: u64, elapsed| {
            Choice::from_line(
                vec![pos.move_notation(m)],
                depth,
                Score::Cp(score),
                nodes,
                elapsed,
            )
        };
        let start = Instant::now();
        let best = search.run(pos, &moves, &noise, |it, nodes| {
            if let Some(&m) = it.pv.first() {
                report(&to_choice(it.depth, it.score, m, nodes, start.elapsed()));
            }
        });
        crate::driver::hold_until_stopped(limit, search.timer());
        let nodes = search.nodes;
        let elapsed = search.timer().elapsed();
        Ok(
            match best.and_then(|it| Some((it.depth, it.score, *it.pv.first()?))) {
                Some((depth, score, m)) => to_choice(depth, score, m, nodes, elapsed),
                None => {
                    let (m, score) = static_best(pos, &moves);
                    to_choice(0, score, m, nodes, elapsed)
                }
            },
        )
    }
}

/// A FEN4 with Red's king on h1 and Yellow's on g14, nothing else on ranks 1-3 and 12-14, `side` to move, and
/// ranks 11 down to 4 as given (FEN4 rows, the other kings among them).
#[cfg(test)]
pub(crate) fn sparse_fen4(side: char, middle: [&str; 8]) -> String {
    let corner = "x,x,x,8,x,x,x";
    let mut rows = vec!["x,x,x,3,yK,4,x,x,x", corner, corner];
    rows.extend(middle);
    rows.extend([corner, corner, "x,x,x,4,rK,3,x,x,x"]);
    format!("{side}-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-{}", rows.join("/"))
}

/// The legal move after which the evaluation is best for the mover (one ply, no search). `moves` is not empty.
fn static_best(pos: &Position, moves: &[Move]) -> (Move, i32) {
    let me = pos.turn();
    let mut best = (moves[0], -params::INFINITY);
    for &m in moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let score = if child.is_over() {
            eval::terminal(&child, me)
        } else {
            eval::evaluate(&child, me)
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

    #[test]
    fn answers_legal_moves_at_every_level() {
        for level in Level::ALL {
            let mut req = Request::new(
                GameKind::Chess4,
                level,
                Limit::MoveTime(Duration::from_millis(40)),
            );
            req.seed = Some(1);
            req.moves = vec!["h2-h4".to_owned()];
            let c = Chess4Engine::new()
                .choose_since(Instant::now(), &req, &mut |_| {})
                .unwrap();
            let mut game = Game::new(Options::default());
            game.play("h2-h4").unwrap();
            assert!(game.play(&c.wire).is_ok(), "{level}: {c:?}");
        }
    }

    /// The start position with other points and half-move clock (FEN4 fields 5 and 6).
    fn start_with(points: &str, halfmove: u32) -> String {
        let start = Game::new(Options::default()).position_text();
        let mut fields: Vec<String> = start.split('-').map(str::to_owned).collect();
        fields[4] = points.to_owned();
        fields[5] = halfmove.to_string();
        fields.join("-")
    }

    fn hard_at_depth(start: &str, moves: &[&str], depth: u32) -> Choice {
        let mut req = Request::new(GameKind::Chess4, Level::HARD, Limit::Depth(depth));
        req.start = start.to_owned();
        req.moves = moves.iter().map(|&m| m.to_owned()).collect();
        Chess4Engine::new()
            .choose_since(Instant::now(), &req, &mut |_| {})
            .unwrap()
    }

    fn cp(c: &Choice) -> i32 {
        match c.score {
            Score::Cp(s) => s,
            Score::Mate(_) => unreachable!("four-player scores are points"),
        }
    }

    /// Red leads by 30 points: a draw now (10 points to each live seat, and the game over) puts it first, which is
    /// worth far more than anything a short search sees otherwise (three places above, 3 x `CHESS4_PLACE`).
    const FIRST: i32 = 3 * params::CHESS4_PLACE;

    #[test]
    fn the_fifty_move_rule_ends_the_game_for_the_side_ahead() {
        // 199 plies without a capture or pawn move: Red's piece move is the 200th, 50 for each of four seats.
        let now = hard_at_depth(&start_with("30,0,0,0", 199), &[], 3);
        assert!(cp(&now) > FIRST, "{now:?}");
        let piece = now.wire.chars().next().is_some_and(|c| c.is_ascii_uppercase());
        assert!(piece, "a pawn move would reset the count: {now:?}");
        let later = hard_at_depth(&start_with("30,0,0,0", 0), &[], 3);
        assert!(cp(&later) < FIRST, "{later:?}");
    }

    #[test]
    fn a_repetition_of_the_game_is_a_draw_the_search_sees() {
        // Four knights out and back: the start again, Red to move; Nj1-i3 now repeats the position after it.
        let out_and_back = [
            "Nj1-i3", "Na5-c6", "Nj14-i12", "Nn5-l6", "Ni3-j1", "Nc6-a5", "Ni12-j14", "Nl6-n5",
        ];
        let start = start_with("30,0,0,0", 0);
        let again = hard_at_depth(&start, &out_and_back, 2);
        assert_eq!(again.wire, "Nj1-i3", "{again:?}");
        assert!(cp(&again) > FIRST, "{again:?}");
        // The same position without that history: no draw within reach.
        let fresh = hard_at_depth(&start, &[], 2);
        assert!(cp(&fresh) < FIRST, "{fresh:?}");
    }

    #[test]
    fn hard_moves_its_queen_away_from_the_seat_that_moves_last() {
        // Red's queen on h7, attacked by Green's knight on j8: Blue and Yellow move before Green does.
        let start = sparse_fen4(
            'R',
            ["14", "bK,13", "14", "9,gN,3,gK", "7,rQ,6", "14", "14", "14"],
        );
        let c = hard_at_depth(&start, &[], 2);
        assert!(c.wire.starts_with("Qh7-"), "{c:?}");
        let mut game = Game::from_fen4(&start, None).unwrap();
        game.play(&c.wire).unwrap();
        let green_takes = game
            .position()
            .moves_of(parlor_game::Seat::Fourth)
            .iter()
            .any(|&m| game.position().piece_at(m.to).is_some());
        assert!(!green_takes, "{c:?}");
    }

    #[test]
    fn a_glancing_level_takes_a_guarded_rook_with_its_queen_and_one_that_sees_captures_does_not() {
        // Red's queen on i7 can take Yellow's rook on i10, which Yellow's pawn on h11 guards.
        let start = sparse_fen4(
            'R',
            ["7,yP,6", "8,yR,5", "bK,13", "13,gK", "8,rQ,5", "14", "14", "14"],
        );
        let choose = |n: u8, seed: u64| {
            let level = Level::new(n).unwrap();
            let mut req = Request::new(
                GameKind::Chess4,
                level,
                Limit::MoveTime(Duration::from_millis(40)),
            );
            req.start = start.clone();
            req.seed = Some(seed);
            Chess4Engine::new()
                .choose_since(Instant::now(), &req, &mut |_| {})
                .unwrap()
                .wire
        };
        // Level 4 glances without noise or overlooked moves: it sees the rook it takes, not the pawn's answer.
        assert_eq!(choose(4, 1), "Qi7xi10");
        for seed in 1..=5 {
            let c = choose(6, seed);
            assert_ne!(c, "Qi7xi10", "level 6, seed {seed}");
        }
    }

    #[test]
    fn a_current_position_with_a_resigned_seat_is_accepted() {
        let mut game = Game::new(Options::default());
        game.play("h2-h4").unwrap();
        game.apply(parlor_game::GameEvent::Resign(parlor_game::Seat::Second))
            .unwrap();
        let mut req = Request::new(GameKind::Chess4, Level::MEDIUM, Limit::Depth(2));
        req.start = game.position_text();
        let c = Chess4Engine::new()
            .choose_since(Instant::now(), &req, &mut |_| {})
            .unwrap();
        // Yellow is to move: Blue resigned.
        assert!(game.play(&c.wire).is_ok(), "{c:?}");
        assert_eq!(
            game.history().last().map(|p| p.seat),
            Some(parlor_game::Seat::Third)
        );
    }
}
