//! An outside International draughts engine over the Hub protocol, as an opponent in `parlor match`
//! (`--b "hub:<command>"`). Both versions of the protocol are spoken, told apart by the engine's answer to `hub`:
//! the second (Scan 3.x, `parlor hub`) introduces itself with `id name=...`, the first (Scan 2.x) with `name ...`.
//!
//! | step | first version | second version |
//! |---|---|---|
//! | start | `hub` ... `wait`; `set <name> <value>`; `init` -> `ready` | `hub` ... `wait`; `set-param name=.. value=..`; `init` -> `ready` |
//! | a game | `new` | `new-game` |
//! | a move | `pos w<50 squares>`, `time <ms>`, `go` -> `move <move> [ponder]` | `pos pos=W<50 squares> moves="..."` (the start and the game's moves), `level move-time=<s>`, `go think` -> `done move=<move>` |
//!
//! Squares 1 to 50 are written `w`/`b` for men, `W`/`B` for kings and `e` when empty; a move is `from-to`, or
//! `fromxto` then `x` and each captured square. The engine's program starts in its own folder (Scan reads its
//! `scan.ini` and `data/` from there).

use super::hub::{hub_move, parse_hub_move, parse_line};
use crate::arena::ArenaError;
use parlor_draughts::{Color, DraughtsVariant, Game, Options, Position};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
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
    command: String,
    version: HubVersion,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl HubEngine {
    /// Starts `command` (program and arguments, split on whitespace), sets `options` (name, value) and waits until
    /// it is ready.
    ///
    /// # Errors
    /// [`ArenaError::Engine`] when it does not start or does not answer as the protocol says.
    pub fn start(command: &str, options: &[(String, String)]) -> Result<HubEngine, ArenaError> {
        let err = |reason: String| ArenaError::Engine {
            command: command.to_owned(),
            reason,
        };
        let mut parts = command.split_whitespace();
        let program = Path::new(parts.next().ok_or_else(|| err("empty command".to_owned()))?);
        // A program named with its folder starts in that folder.
        let (program, folder) = if program.parent().is_some_and(|p| !p.as_os_str().is_empty()) {
            let absolute =
                std::fs::canonicalize(program).map_err(|e| err(format!("{}: {e}", program.display())))?;
            let folder = absolute.parent().map(Path::to_path_buf);
            (absolute, folder)
        } else {
            (program.to_path_buf(), None)
        };
        let mut run = Command::new(program);
        run.args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(folder) = folder {
            run.current_dir(folder);
        }
        let mut child = run.spawn().map_err(|e| err(e.to_string()))?;
        let stdin = child.stdin.take().ok_or_else(|| err("no stdin".to_owned()))?;
        let stdout = BufReader::new(child.stdout.take().ok_or_else(|| err("no stdout".to_owned()))?);
        let mut engine = HubEngine {
            command: command.to_owned(),
            version: HubVersion::First,
            child,
            stdin,
            stdout,
        };
        engine.send("hub")?;
        loop {
            let line = engine.line()?;
            if line.starts_with("id ") {
                engine.version = HubVersion::Second;
            }
            if line == "wait" {
                break;
            }
        }
        for (name, value) in options {
            let set = match engine.version {
                HubVersion::First => format!("set {name} {value}"),
                HubVersion::Second => format!("set-param name={name} value={value}"),
            };
            engine.send(&set)?;
        }
        engine.send("init")?;
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
    /// [`ArenaError::Engine`] when it cannot be written to.
    pub fn new_game(&mut self) -> Result<(), ArenaError> {
        match self.version {
            HubVersion::First => self.send("new"),
            HubVersion::Second => self.send("new-game"),
        }
    }

    /// The engine's move (in our notation) for the position after `moves` (our notation) from the start of
    /// International draughts, thinking `movetime`.
    ///
    /// # Errors
    /// [`ArenaError::Engine`] when a move of ours does not replay, the engine reports an error, or its move is not
    /// legal.
    pub fn choose(&mut self, moves: &[String], movetime: Duration) -> Result<String, ArenaError> {
        let mut game = Game::new(DraughtsVariant::International, Options::default());
        // The second version takes the start and the moves (the engine sees repetitions and the no-progress
        // count); the first, the position alone.
        let mut hub_moves = Vec::with_capacity(moves.len());
        for text in moves {
            let m = game
                .position()
                .parse_move(text)
                .map_err(|e| self.err(format!("move {text} does not replay: {e}")))?;
            hub_moves.push(hub_move(game.position(), m));
            game.play_move(m)
                .map_err(|e| self.err(format!("move {text} does not replay: {e}")))?;
        }
        let pos = game.position();
        match self.version {
            HubVersion::First => {
                self.send(&format!("pos {}", hub_squares(pos, self.version)))?;
                self.send(&format!("time {}", movetime.as_millis()))?;
                self.send("go")?;
            }
            HubVersion::Second => {
                let start = Position::start(DraughtsVariant::International);
                let start = hub_squares(&start, self.version);
                if hub_moves.is_empty() {
                    self.send(&format!("pos pos={start}"))?;
                } else {
                    self.send(&format!("pos pos={start} moves=\"{}\"", hub_moves.join(" ")))?;
                }
                self.send(&format!("level move-time={:.3}", movetime.as_secs_f64()))?;
                self.send("go think")?;
            }
        }
        let version = self.version;
        let answer = self.until(|line| match version {
            HubVersion::First => line.starts_with("move "),
            HubVersion::Second => line.starts_with("done"),
        })?;
        let text = match self.version {
            HubVersion::First => answer.split_whitespace().nth(1).map(str::to_owned),
            HubVersion::Second => {
                let (_, args) = parse_line(&answer);
                args.into_iter().find(|(n, _)| n == "move").map(|(_, v)| v)
            }
        }
        .ok_or_else(|| self.err(format!("no move in `{answer}`")))?;
        let m = parse_hub_move(pos, &text).ok_or_else(|| {
            let legal: Vec<String> = pos.legal_moves().iter().map(|&m| hub_move(pos, m)).collect();
            self.err(format!("illegal move {text} (legal: {})", legal.join(" ")))
        })?;
        Ok(pos.move_notation(m))
    }

    fn err(&self, reason: String) -> ArenaError {
        ArenaError::Engine {
            command: self.command.clone(),
            reason,
        }
    }

    fn send(&mut self, line: &str) -> Result<(), ArenaError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.err(format!("writing `{line}`: {e}")))
    }

    /// The next line, trimmed.
    fn line(&mut self) -> Result<String, ArenaError> {
        let mut line = String::new();
        let n = self
            .stdout
            .read_line(&mut line)
            .map_err(|e| self.err(e.to_string()))?;
        if n == 0 {
            return Err(self.err("closed its output".to_owned()));
        }
        Ok(line.trim().to_owned())
    }

    /// Reads lines until `wanted` accepts one (returned); an `error` line ends the wait with that error.
    fn until(&mut self, wanted: impl Fn(&str) -> bool) -> Result<String, ArenaError> {
        loop {
            let line = self.line()?;
            if wanted(&line) {
                return Ok(line);
            }
            if line.starts_with("error") {
                return Err(self.err(line));
            }
        }
    }
}

impl Drop for HubEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // The engine exits on quit; reap it so no zombie stays behind.
        let _ = self.child.wait();
    }
}

/// A position as Hub writes it: the side to move (`w` or `b` in the first version, `W` or `B` in the second), then
/// squares 1 to 50.
pub fn hub_squares(pos: &Position, version: HubVersion) -> String {
    let mut out = String::with_capacity(51);
    out.push(match (pos.side_to_move(), version) {
        (Color::White, HubVersion::First) => 'w',
        (Color::Black, HubVersion::First) => 'b',
        (Color::White, HubVersion::Second) => 'W',
        (Color::Black, HubVersion::Second) => 'B',
    });
    for sq in 1..=50 {
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
