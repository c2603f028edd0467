//! Training positions for the draughts networks: a teacher plays itself from random openings and each quiet
//! position of its games (the side to move has no capture) is kept with the teacher's score, as `fen;score` lines
//! (hundredths of a man for the side to move) that `examples/nn.rs` reads. The teacher is an outside engine over
//! Hub (`examples/draughts_datagen.rs`) or our own search at a fixed depth (`examples/draughts_selfplay.rs`).

use super::hub_engine::HubEngine;
use crate::engine_process::EngineError;
use crate::rng::Rng;
use parlor_draughts::{DraughtsVariant, Move, Position};
use std::io::Write;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// An engine that scores positions and picks moves.
pub trait Teacher {
    /// Why the engine did not answer.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Forgets the last game.
    ///
    /// # Errors
    /// When the engine cannot be told.
    fn new_game(&mut self) -> Result<(), Self::Error>;

    /// The best move (PDN) from `pos` and its score for the side to move (none if the engine gave none), given the
    /// hashes of the game since its last irreversible move, `pos`'s last.
    ///
    /// # Errors
    /// When the engine gives no move.
    fn analyse(&mut self, pos: &Position, keys: &[u64]) -> Result<(String, Option<i32>), Self::Error>;
}

/// An outside engine over Hub, thinking `movetime` a move.
pub struct HubTeacher {
    /// The engine.
    pub engine: HubEngine,
    /// Its time a move.
    pub movetime: Duration,
}

impl Teacher for HubTeacher {
    type Error = EngineError;

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.engine.new_game()
    }

    /// The engine keeps no game: it sees `pos` alone.
    fn analyse(&mut self, pos: &Position, _keys: &[u64]) -> Result<(String, Option<i32>), EngineError> {
        self.engine.analyse(pos, self.movetime)
    }
}

/// Why a run of [`run`] stopped before its time.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// A teacher could not start.
    #[error("the teacher did not start: {0}")]
    Teacher(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The positions could not be written.
    #[error("writing the positions: {0}")]
    Write(#[from] std::io::Error),
}

/// A uniformly random legal move, or `None` when there is none.
fn random_move(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize])
}

/// One game of `teacher` against itself from 4 to 9 random plies; the quiet positions and their scores. The game
/// ends when the side to move has no move, when a score passes 15 men, when a position comes a third time or the
/// variant's no-progress rule draws it, or after 200 plies. With `side` per mille, a position also gets a side
/// line: one or two random moves away from the game, scored too and kept if quiet. Such positions, with a man
/// left to be taken, are what a search visits and no good player reaches.
pub fn play_game(
    variant: DraughtsVariant,
    teacher: &mut impl Teacher,
    rng: &mut Rng,
    side: u64,
) -> Vec<String> {
    let mut lines = Vec::new();
    let mut pos = Position::start(variant);
    for _ in 0..4 + rng.below(6) {
        match random_move(&pos, rng) {
            Some(m) => pos.play_unchecked(m),
            None => return lines,
        }
    }
    if teacher.new_game().is_err() {
        return lines;
    }
    let no_progress = parlor_draughts::no_progress_plies(variant).map_or(usize::MAX, |n| n as usize);
    let mut keys = vec![pos.hash()];
    for _ in 0..200 {
        if pos.legal_moves().is_empty()
            || keys.len() > no_progress
            || keys.iter().filter(|&&k| k == pos.hash()).count() >= 3
        {
            break;
        }
        let Ok((text, score)) = teacher.analyse(&pos, &keys) else {
            break;
        };
        if let Some(score) = score {
            if !pos.has_capture() {
                lines.push(format!("{};{score}", pos.to_fen()));
            }
            if score.abs() > 1500 {
                break;
            }
        }
        if rng.below(1000) < side {
            let mut off = pos;
            let mut ok = true;
            for _ in 0..1 + u64::from(rng.below(10) < 3) {
                match random_move(&off, rng) {
                    Some(m) => off.play_unchecked(m),
                    None => ok = false,
                }
            }
            if ok
                && !off.has_capture()
                && !off.legal_moves().is_empty()
                && let Ok((_, Some(score))) = teacher.analyse(&off, &[off.hash()])
            {
                lines.push(format!("{};{score}", off.to_fen()));
            }
        }
        let Ok(m) = pos.parse_move(&text) else {
            break;
        };
        if m.is_capture() || pos.is_man_move(m) {
            keys.clear();
        }
        pos.play_unchecked(m);
        keys.push(pos.hash());
    }
    lines
}

/// Plays games on `threads` threads for `seconds`, each thread with the teacher `start(thread)` makes and its
/// own random openings from `seed`, and writes their positions to `out` as the games end. Returns the games and
/// the positions written.
///
/// # Errors
/// When a teacher cannot start or `out` cannot be written.
pub fn run<T: Teacher>(
    variant: DraughtsVariant,
    out: &mut impl Write,
    seconds: u64,
    threads: u64,
    seed: u64,
    side: u64,
    start: impl Fn(u64) -> Result<T, T::Error> + Send + Clone + 'static,
) -> Result<(u64, u64), DatagenError> {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (tx, rx) = mpsc::channel::<Result<Vec<String>, T::Error>>();
    for t in 0..threads {
        let (tx, start) = (tx.clone(), start.clone());
        std::thread::spawn(move || {
            let mut teacher = match start(t) {
                Ok(teacher) => teacher,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            let mut rng = Rng::new(seed.wrapping_mul(1000).wrapping_add(t));
            while Instant::now() < deadline {
                if tx
                    .send(Ok(play_game(variant, &mut teacher, &mut rng, side)))
                    .is_err()
                {
                    return;
                }
            }
        });
    }
    drop(tx);
    let (mut games, mut positions) = (0u64, 0u64);
    for lines in rx {
        let lines = lines.map_err(|e| DatagenError::Teacher(Box::new(e)))?;
        games += 1;
        positions += lines.len() as u64;
        for line in lines {
            writeln!(out, "{line}")?;
        }
        if games % 100 == 0 {
            out.flush()?;
            eprintln!("{games} games, {positions} positions");
        }
    }
    out.flush()?;
    Ok((games, positions))
}
