//! An outside draughts engine over the Hub protocol, as an opponent in `parlor match` (`--b "hub:<command>"`), in
//! any variant the engine plays: International, or another it is told with a `variant` setting. Both versions of
//! the protocol are spoken, told apart by the engine's answer to `hub`: the second (Scan 3.x, `parlor hub`)
//! introduces itself with `id name=...`, the first (Scan 2.x) with `name ...`.
//!
//! | step | first version | second version |
//! |---|---|---|
//! | start | `hub` ... `wait`; `set <name> <value>`; `init` -> `ready` | `hub` ... `wait`; `set-param name=.. value=..`; `init` -> `ready` |
//! | a game | `new` | `new-game` |
//! | a move | `pos w<50 squares>`, `time <ms>`, `go` -> `move <move> [ponder]` | `pos pos=W<50 squares> moves="..."` (the start and the game's moves), `level move-time=<s>`, `go think` -> `done move=<move>` |
//! | on a game clock | `level 0 <ms left> <increment ms>` instead of `time` | `level time=<s left> inc=<s>` |
//!
//! Squares 1 to 50 (1 to 32 on the 8x8 boards) are written `w`/`b` for men, `W`/`B` for kings and `e` when
//! empty; a move is `from-to`, or `fromxto` then `x` and each captured square. For a variant other than
//! International the engine is first told `variant` (`set variant english`, `set-param name=variant
//! value=english`). The engine's program starts in its own folder (Scan reads its `scan.ini` and `data/` from
//! there).

use super::hub::{hub_move, parse_hub_move, parse_line};
use crate::engine_process::{EngineError, EngineProcess};
use crate::match_clock::Think;
use parlor_draughts::{Color, DraughtsVariant, Game, Options, Position};
use std::time::Duration;

/// Which version of the protocol the engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HubVersion {
    /// Scan 2.x: `pos w...`, `time <ms>`, `go` -> `move ...`.
    First,
    /// Scan 3.x and `parlor hub`: `pos pos=...`, `level move-time=`, `go think` -> `done move=...`.
    Second,
}

/// A running Hub engine.
pub struct HubEngine {
    process: EngineProcess,
    version: HubVersion,
    variant: DraughtsVariant,
}

impl HubEngine {
    /// Starts `command` (program and arguments, split on whitespace; the program starts in its own folder) for
    /// `variant`, sets `options` (name, value) and waits until it is ready.
    ///
    /// # Errors
    /// `EngineError` when it does not start or does not answer as the protocol says (an engine that does not
    /// play `variant` answers its setting with an error).
    pub fn start(
        command: &str,
        variant: DraughtsVariant,
        options: &[(String, String)],
    ) -> Result<HubEngine, EngineError> {
        let mut engine = HubEngine {
            process: EngineProcess::start(command, true)?,
            version: HubVersion::First,
            variant,
        };
        engine.process.send("hub")?;
        loop {
            let line = engine.process.line()?;
            if line.starts_with("id ") {
                engine.version = HubVersion::Second;
            }
            if line == "wait" {
                break;
            }
        }
        let variant_setting = (variant != DraughtsVariant::International)
            .then(|| ("variant".to_owned(), variant.name().to_owned()));
        for (name, value) in variant_setting.iter().chain(options) {
            let set = match engine.version {
                HubVersion::First => format!("set {name} {value}"),
                HubVersion::Second => format!("set-param name={name} value={value}"),
            };
            engine.process.send(&set)?;
        }
        engine.process.send("init")?;
        engine.until(|line| line == "ready")?;
        Ok(engine)
    }

    /// The protocol version the engine answered with.
    pub fn version(&self) -> HubVersion {
        self.version
    }

    /// Tells the engine a new game starts.
    ///
    /// # Errors
    /// `EngineError` when it cannot be written to.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        match self.version {
            HubVersion::First => self.process.send("new"),
            HubVersion::Second => self.process.send("new-game"),
        }
    }

    /// The engine's move (in our notation) for the position after `moves` (our notation) from the start of its
    /// variant, thinking `think`.
    ///
    /// # Errors
    /// `EngineError` when a move of ours does not replay, the engine reports an error or answers no move.
    pub fn choose(&mut self, moves: &[String], think: Think) -> Result<String, EngineError> {
        let mut game = Game::new(self.variant, Options::default());
        // The second version takes the start and the moves (the engine sees repetitions and the no-progress
        // count); the first, the position alone.
        let mut hub_moves = Vec::with_capacity(moves.len());
        for text in moves {
            let m = game
                .position()
                .parse_move(text)
                .map_err(|e| self.process.err(format!("move {text} does not replay: {e}")))?;
            hub_moves.push(hub_move(game.position(), m));
            game.play_move(m)
                .map_err(|e| self.process.err(format!("move {text} does not replay: {e}")))?;
        }
        let pos = *game.position();
        let setup = match self.version {
            HubVersion::First => format!("pos {}", hub_squares(&pos, self.version)),
            HubVersion::Second => {
                let start = Position::start(self.variant);
                let start = hub_squares(&start, self.version);
                if hub_moves.is_empty() {
                    format!("pos pos={start}")
                } else {
                    format!("pos pos={start} moves=\"{}\"", hub_moves.join(" "))
                }
            }
        };
        Ok(self.think(&pos, &setup, think)?.0)
    }

    /// The engine's move (in our notation) and its score (hundredths of a man for the side to move, from its last
    /// `info` line; `None` if it printed none, as when it has one move) for `pos` alone, thinking `movetime`: what
    /// a position is worth to the engine, without the game that led to it.
    ///
    /// # Errors
    /// `EngineError` when the engine reports an error or answers no move.
    pub fn analyse(
        &mut self,
        pos: &Position,
        movetime: Duration,
    ) -> Result<(String, Option<i32>), EngineError> {
        let setup = match self.version {
            HubVersion::First => format!("pos {}", hub_squares(pos, self.version)),
            HubVersion::Second => format!("pos pos={}", hub_squares(pos, self.version)),
        };
        self.think(pos, &setup, Think::Move(movetime))
    }

    /// Sends `setup` (the position), the time and `go`, then reads the engine's `info` lines and its move.
    fn think(
        &mut self,
        pos: &Position,
        setup: &str,
        think: Think,
    ) -> Result<(String, Option<i32>), EngineError> {
        self.process.send(setup)?;
        let level = match (self.version, think) {
            (HubVersion::First, Think::Move(time)) => format!("time {}", time.as_millis()),
            (HubVersion::First, Think::Clock { own, increment, .. }) => {
                format!("level 0 {} {}", own.as_millis(), increment.as_millis())
            }
            (HubVersion::Second, Think::Move(time)) => {
                format!("level move-time={:.3}", time.as_secs_f64())
            }
            (HubVersion::Second, Think::Clock { own, increment, .. }) => format!(
                "level time={:.3} inc={:.3}",
                own.as_secs_f64(),
                increment.as_secs_f64()
            ),
        };
        self.process.send(&level)?;
        match self.version {
            HubVersion::First => self.process.send("go")?,
            HubVersion::Second => self.process.send("go think")?,
        }
        let mut score = None;
        let answer = loop {
            let line = self.process.line()?;
            if line.starts_with("error") {
                return Err(self.process.err(line));
            }
            if line.starts_with("info") {
                score = info_score(&line, self.version).or(score);
            }
            let done = match self.version {
                HubVersion::First => line.starts_with("move "),
                HubVersion::Second => line.starts_with("done"),
            };
            if done {
                break line;
            }
        };
        let text = match self.version {
            HubVersion::First => answer.split_whitespace().nth(1).map(str::to_owned),
            HubVersion::Second => {
                let (_, args) = parse_line(&answer);
                args.into_iter().find(|(n, _)| n == "move").map(|(_, v)| v)
            }
        }
        .ok_or_else(|| self.process.err(format!("no move in `{answer}`")))?;
        // A move that is not legal goes back as the engine wrote it: the match refuses it and scores the game lost
        // for the engine, as it does a UCI engine's.
        let text = parse_hub_move(pos, &text).map_or(text, |m| pos.move_notation(m));
        Ok((text, score))
    }

    /// Reads lines until `wanted` accepts one; an `error` line ends the wait with that error.
    fn until(&mut self, wanted: impl Fn(&str) -> bool) -> Result<String, EngineError> {
        self.process.until(wanted, |line| line.starts_with("error"))
    }
}

/// The score of an `info` line: the third field in the first version (`info <depth> <selective depth> <score in
/// hundredths> <nodes> <seconds> ...`), `score=` in the second (in men).
fn info_score(line: &str, version: HubVersion) -> Option<i32> {
    match version {
        HubVersion::First => line.split_whitespace().nth(3)?.parse().ok(),
        HubVersion::Second => {
            let (_, args) = parse_line(line);
            let men: f64 = args.into_iter().find(|(n, _)| n == "score")?.1.parse().ok()?;
            Some((men * 100.0).round() as i32)
        }
    }
}

/// A position as Hub writes it: the side to move (`w` or `b` in the first version, `W` or `B` in the second), then
/// every square from 1 (50 on the International board, 32 on the 8x8 ones).
pub fn hub_squares(pos: &Position, version: HubVersion) -> String {
    let mut out = String::with_capacity(pos.square_count() as usize + 1);
    out.push(match (pos.side_to_move(), version) {
        (Color::White, HubVersion::First) => 'w',
        (Color::Black, HubVersion::First) => 'b',
        (Color::White, HubVersion::Second) => 'W',
        (Color::Black, HubVersion::Second) => 'B',
    });
    for sq in 1..=pos.square_count() {
        out.push(match pos.piece_at(sq) {
            Some(p) => match (p.color, p.king) {
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
                (Color::Black, false) => 'b',
                (Color::Black, true) => 'B',
            },
            None => 'e',
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_info_line_gives_its_score_in_either_version() {
        let first = "info 13 15.4 -2 435186 0.04 0.0 34-30 17-21 30-25";
        assert_eq!(info_score(first, HubVersion::First), Some(-2));
        let second = "info depth=12 score=1.25 nodes=1000 time=0.010 pv=\"32-28 19-23\"";
        assert_eq!(info_score(second, HubVersion::Second), Some(125));
        assert_eq!(info_score("info", HubVersion::First), None);
        assert_eq!(info_score("info depth=3", HubVersion::Second), None);
    }
}
