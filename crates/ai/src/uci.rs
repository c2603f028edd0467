//! The UCI protocol (Universal Chess Interface, Stefan Meyer-Kahlen's 2004 specification) for our chess engine:
//! `parlor uci` lets any chess GUI or match tool play it.
//!
//! Supported: `uci`, `isready`, `ucinewgame`, `setoption name Level value easy|medium|hard`,
//! `position startpos|fen <fen> [moves ...]`, `go [wtime btime winc binc movestogo movetime depth infinite]`,
//! `stop`, `quit`. The search runs on its own thread so `stop` and `isready` are answered while it thinks.

use crate::request::{Choice, Clock, Level, Limit, Request};
use crate::{Engine, chess::Root};
use parlor_game::GameKind;
use shakmaty::{Color, Position as _};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

type Out<W> = Arc<Mutex<W>>;

fn say<W: Write>(out: &Out<W>, line: &str) {
    if let Ok(mut w) = out.lock() {
        // A closed output (the GUI went away) ends the session at the next read; nothing to do here.
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// A running search: its thread (which hands the engine back) and its stop flag.
struct Running {
    thread: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
}

/// The session state between commands.
struct Session<W: Write + Send + 'static> {
    out: Out<W>,
    engine: Option<Engine>,
    running: Option<Running>,
    start: String,
    moves: Vec<String>,
    level: Level,
}

impl<W: Write + Send + 'static> Session<W> {
    /// Waits for a running search to end (after `stop`, or on its own) and takes the engine back.
    fn finish(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.stop.store(true, Ordering::Relaxed);
            }
            self.engine = Some(r.thread.join().unwrap_or_default());
        }
    }

    fn position(&mut self, args: &[&str]) {
        let (start, rest) = match args.first() {
            Some(&"startpos") => (String::new(), &args[1..]),
            Some(&"fen") => {
                let end = args.iter().position(|a| *a == "moves").unwrap_or(args.len());
                (args[1..end].join(" "), &args[end..])
            }
            _ => {
                say(&self.out, "info string position: expected startpos or fen");
                return;
            }
        };
        self.start = start;
        self.moves = match rest.first() {
            Some(&"moves") => rest[1..].iter().map(|m| (*m).to_owned()).collect(),
            _ => Vec::new(),
        };
    }

    fn go(&mut self, args: &[&str]) {
        self.finish(true);
        let root = match Root::new(&self.start, &self.moves) {
            Ok(root) => root,
            Err(e) => {
                say(&self.out, &format!("info string {e}"));
                say(&self.out, "bestmove 0000");
                return;
            }
        };
        let white = root.pos.turn() == Color::White;
        let limit = parse_go(args, white);
        let stop = Arc::new(AtomicBool::new(false));
        let mut req = Request::new(GameKind::Chess, self.level, limit);
        req.start = self.start.clone();
        req.moves = self.moves.clone();
        req.stop = Arc::clone(&stop);
        let mut engine = self.engine.take().unwrap_or_default();
        let out = Arc::clone(&self.out);
        let thread = std::thread::spawn(move || {
            let mut report = |c: &Choice| say(&out, &info_line(c));
            match engine.choose_with(&req, &mut report) {
                Ok(c) => say(&out, &format!("bestmove {}", c.wire)),
                Err(e) => {
                    say(&out, &format!("info string {e}"));
                    say(&out, "bestmove 0000");
                }
            }
            engine
        });
        self.running = Some(Running { thread, stop });
    }
}

/// An `info` line for a completed iteration.
pub fn info_line(c: &Choice) -> String {
    let ms = c.elapsed.as_millis().max(1);
    format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        c.depth,
        c.score,
        c.nodes,
        u128::from(c.nodes) * 1000 / ms,
        c.elapsed.as_millis(),
        c.pv.join(" ")
    )
}

/// The limit of a `go` command for the side to move.
pub fn parse_go(args: &[&str], white: bool) -> Limit {
    let mut clock = Clock {
        remaining: Duration::ZERO,
        increment: Duration::ZERO,
        per_move_cap: None,
        moves_to_go: None,
    };
    let mut has_clock = false;
    let mut limit = None;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).and_then(|v| v.parse::<i64>().ok());
        let ms = value.map(|v| Duration::from_millis(v.max(0) as u64));
        match (args[i], ms) {
            ("wtime", Some(t)) if white => (clock.remaining, has_clock) = (t, true),
            ("btime", Some(t)) if !white => (clock.remaining, has_clock) = (t, true),
            ("winc", Some(t)) if white => clock.increment = t,
            ("binc", Some(t)) if !white => clock.increment = t,
            ("movestogo", Some(_)) => clock.moves_to_go = value.map(|v| v.clamp(1, 1000) as u32),
            ("movetime", Some(t)) => limit = Some(Limit::MoveTime(t)),
            ("depth", Some(_)) => limit = value.map(|d| Limit::Depth(d.clamp(1, 64) as u32)),
            ("infinite", _) => limit = Some(Limit::Infinite),
            _ => {}
        }
        i += 1;
    }
    limit.unwrap_or(if has_clock {
        Limit::Clock(clock)
    } else {
        Limit::Infinite
    })
}

/// Runs a UCI session until `quit` or the end of the input.
///
/// # Errors
/// An I/O error reading the input.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<()> {
    let mut s = Session {
        out: Arc::new(Mutex::new(output)),
        engine: Some(Engine::new()),
        running: None,
        start: String::new(),
        moves: Vec::new(),
        level: Level::Hard,
    };
    for line in input.lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            continue;
        };
        match cmd {
            "uci" => {
                say(&s.out, "id name Parlor");
                say(&s.out, "id author the Parlor contributors");
                say(
                    &s.out,
                    "option name Level type combo default hard var easy var medium var hard",
                );
                say(&s.out, "uciok");
            }
            "isready" => say(&s.out, "readyok"),
            "ucinewgame" => {
                s.finish(true);
                if let Some(e) = &mut s.engine {
                    e.new_game();
                }
            }
            "setoption" => {
                let text = args.join(" ");
                if let Some(rest) = text.strip_prefix("name Level value ") {
                    match rest.parse() {
                        Ok(level) => s.level = level,
                        Err(e) => say(&s.out, &format!("info string {e}")),
                    }
                }
            }
            "position" => {
                s.finish(true);
                s.position(args);
            }
            "go" => s.go(args),
            "stop" => s.finish(true),
            "quit" => break,
            _ => say(&s.out, &format!("info string unknown command {cmd}")),
        }
    }
    s.finish(true);
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_session_answers_and_moves() {
        let input = "uci\nisready\nsetoption name Level value medium\nposition startpos moves e2e4\n\
                     go depth 3\nisready\nposition fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo movetime 50\nquit\n";
        let out = Shared::default();
        run(input.as_bytes(), out.clone()).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains("uciok") && text.contains("readyok"), "{text}");
        assert_eq!(text.matches("bestmove").count(), 2, "{text}");
        assert!(text.contains("bestmove d1d8"), "{text}");
    }

    #[test]
    fn go_limits() {
        assert_eq!(
            parse_go(&["movetime", "100"], true),
            Limit::MoveTime(Duration::from_millis(100))
        );
        assert_eq!(parse_go(&["depth", "5"], false), Limit::Depth(5));
        assert_eq!(parse_go(&["infinite"], false), Limit::Infinite);
        let Limit::Clock(c) = parse_go(&["wtime", "1000", "btime", "2000", "binc", "10"], false) else {
            panic!("a clock");
        };
        assert_eq!(
            (c.remaining, c.increment),
            (Duration::from_millis(2000), Duration::from_millis(10))
        );
    }
}
