//! The UCI protocol (Universal Chess Interface, Stefan Meyer-Kahlen's 2004 specification) for our chess engine:
//! `parlor uci` lets any chess GUI or match tool play it.
//!
//! Supported: `uci`, `isready`, `ucinewgame`, `setoption name Level value 1..8|easy|medium|hard`,
//! `position startpos|fen <fen> [moves ...]`, `go` with `wtime btime winc binc movestogo movetime depth nodes mate
//! searchmoves infinite ponder` (several limits: whichever comes first), `ponderhit`, `stop`, `quit`. The search
//! runs on its own thread so `stop` and `isready` are answered while it thinks. A `go` whose only limits are ones
//! it does not know is refused with an `info string` and `bestmove 0000`, never searched without end.

use crate::request::{Bounds, Choice, Clock, Level, Limit, Request};
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

/// A running search: its thread (which hands the engine back), its stop flag, and for a ponder search the limit
/// to search with once the move is played (`ponderhit`).
struct Running {
    thread: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    /// Raised before stopping a ponder search on `ponderhit`: its `bestmove` is not said.
    silent: Arc<AtomicBool>,
    ponder: Option<Go>,
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
        let go = parse_go(args, root.pos.turn() == Color::White);
        for word in &go.unknown {
            say(&self.out, &format!("info string go: ignored {word}"));
        }
        if go.limit == Limit::Infinite && !go.infinite && !go.ponder && !go.unknown.is_empty() {
            say(
                &self.out,
                "info string go: no limit this engine knows; nothing searched",
            );
            say(&self.out, "bestmove 0000");
            return;
        }
        if go.ponder {
            let search_moves = go.search_moves.clone();
            self.search(Limit::Infinite, &search_moves, Some(go));
        } else {
            let limit = if go.infinite { Limit::Infinite } else { go.limit };
            self.search(limit, &go.search_moves, None);
        }
    }

    /// `ponderhit`: the move pondered on was played; the search goes on with the `go` command's own limits,
    /// counted from now.
    fn ponderhit(&mut self) {
        let Some(go) = self.running.as_mut().and_then(|r| r.ponder.take()) else {
            return;
        };
        if let Some(r) = &self.running {
            r.silent.store(true, Ordering::Relaxed);
        }
        self.finish(true);
        let limit = if go.infinite { Limit::Infinite } else { go.limit };
        self.search(limit, &go.search_moves, None);
    }

    fn search(&mut self, limit: Limit, search_moves: &[String], ponder: Option<Go>) {
        let stop = Arc::new(AtomicBool::new(false));
        let silent = Arc::new(AtomicBool::new(false));
        let mut req = Request::new(GameKind::Chess, self.level, limit);
        req.start = self.start.clone();
        req.moves = self.moves.clone();
        req.search_moves = search_moves.to_vec();
        req.stop = Arc::clone(&stop);
        let mut engine = self.engine.take().unwrap_or_default();
        let (out, quiet) = (Arc::clone(&self.out), Arc::clone(&silent));
        let thread = std::thread::spawn(move || {
            let mut report = |c: &Choice| say(&out, &info_line(c));
            let result = engine.choose_with(&req, &mut report);
            if !quiet.load(Ordering::Relaxed) {
                match result {
                    Ok(c) => say(&out, &format!("bestmove {}", c.wire)),
                    Err(e) => {
                        say(&out, &format!("info string {e}"));
                        say(&out, "bestmove 0000");
                    }
                }
            }
            engine
        });
        self.running = Some(Running {
            thread,
            stop,
            silent,
            ponder,
        });
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

/// A `go` command, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Go {
    /// Its limits for the side to move: [`Limit::Infinite`] when it gives none.
    pub limit: Limit,
    /// `infinite`: search until `stop`, whatever the limits.
    pub infinite: bool,
    /// `ponder`: search until `ponderhit` (then with `limit`) or `stop`.
    pub ponder: bool,
    /// `searchmoves`: only these root moves (UCI); empty for all.
    pub search_moves: Vec<String>,
    /// Words it did not understand (an unknown limit, a limit without its number).
    pub unknown: Vec<String>,
}

/// The words that start a part of a `go` command (they end a `searchmoves` list).
const GO_WORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// Reads a `go` command's arguments for the side to move (`white`).
pub fn parse_go(args: &[&str], white: bool) -> Go {
    let mut clock = Clock {
        remaining: Duration::ZERO,
        increment: Duration::ZERO,
        per_move_cap: None,
        moves_to_go: None,
    };
    let mut has_clock = false;
    let mut bounds = Bounds::default();
    let mut go = Go {
        limit: Limit::Infinite,
        infinite: false,
        ponder: false,
        search_moves: Vec::new(),
        unknown: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        i += 1;
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while i < args.len() && !GO_WORDS.contains(&args[i]) {
                    go.search_moves.push(args[i].to_owned());
                    i += 1;
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "movetime" | "depth" | "nodes" | "mate" => {
                let Some(n) = args.get(i).and_then(|v| v.parse::<i64>().ok()) else {
                    go.unknown.push(format!("{word} (without a number)"));
                    continue;
                };
                i += 1;
                let ms = Duration::from_millis(n.max(0) as u64);
                match word {
                    "wtime" if white => (clock.remaining, has_clock) = (ms, true),
                    "btime" if !white => (clock.remaining, has_clock) = (ms, true),
                    "winc" if white => clock.increment = ms,
                    "binc" if !white => clock.increment = ms,
                    "movestogo" => clock.moves_to_go = Some(n.clamp(1, 1000) as u32),
                    "movetime" => bounds.time = Some(ms),
                    "depth" => bounds.depth = Some(n.clamp(1, 64) as u32),
                    "nodes" => bounds.nodes = Some(n.max(1) as u64),
                    // A mate in n moves is found by a search of 2n - 1 plies.
                    "mate" => {
                        let plies = (n.clamp(1, 32) * 2 - 1) as u32;
                        bounds.depth = Some(bounds.depth.map_or(plies, |d| d.min(plies)));
                    }
                    _ => {}
                }
            }
            _ => go.unknown.push(word.to_owned()),
        }
    }
    if has_clock {
        bounds.clock = Some(clock);
    }
    go.limit = bounds.limit().unwrap_or(Limit::Infinite);
    go
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
        level: Level::HARD,
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
                    "option name Level type combo default hard var 1 var easy var 3 var 4 var medium var 6 var 7 var hard",
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
            "ponderhit" => s.ponderhit(),
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
    use crate::test_pipe::{Gui, Shared};

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

    /// Each `go` form answers by itself, within its limit, with no `stop`: nodes, mate, depth with movetime,
    /// searchmoves; `isready` is answered during a search; a `go` of unknown limits only is refused at once.
    #[test]
    fn every_go_form_answers_by_itself() {
        let gui = Gui::start(run);
        gui.say("uci");
        gui.say("position startpos");
        gui.say("go nodes 3000");
        gui.wait("bestmove", 1, 10);
        gui.say("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        gui.say("go mate 1");
        let text = gui.wait("bestmove", 2, 10);
        assert!(text.contains("bestmove d1d8"), "{text}");
        gui.say("position startpos");
        gui.say("go depth 3 searchmoves a2a3");
        let text = gui.wait("bestmove", 3, 10);
        assert_eq!(
            text.lines().filter(|l| l.starts_with("bestmove")).nth(2),
            Some("bestmove a2a3")
        );
        gui.say("go wtime 60000 btime 60000 movetime 300 depth 30");
        gui.say("isready");
        let text = gui.wait("readyok", 1, 10);
        assert_eq!(
            text.matches("bestmove").count(),
            3,
            "readyok came during the search:\n{text}"
        );
        gui.wait("bestmove", 4, 10);
        gui.say("go frobnicate 7");
        let text = gui.wait("bestmove", 5, 10);
        assert!(text.contains("info string go: ignored frobnicate"), "{text}");
        assert!(text.trim_end().ends_with("bestmove 0000"), "{text}");
        gui.quit();
    }

    /// `go ponder` searches until `ponderhit`, then answers within the `go` command's own limit; one `bestmove`.
    #[test]
    fn ponder_waits_for_ponderhit() {
        let gui = Gui::start(run);
        gui.say("position startpos moves e2e4");
        gui.say("go ponder movetime 100");
        std::thread::sleep(Duration::from_millis(400));
        assert_eq!(gui.text().matches("bestmove").count(), 0, "{}", gui.text());
        gui.say("ponderhit");
        gui.wait("bestmove", 1, 10);
        std::thread::sleep(Duration::from_millis(200));
        let text = gui.quit();
        assert_eq!(text.matches("bestmove").count(), 1, "{text}");
    }

    #[test]
    fn go_limits() {
        let limit = |args: &[&str]| parse_go(args, false).limit;
        assert_eq!(
            limit(&["movetime", "100"]),
            Limit::MoveTime(Duration::from_millis(100))
        );
        assert_eq!(limit(&["depth", "5"]), Limit::Depth(5));
        assert!(parse_go(&["infinite"], false).infinite);
        assert_eq!(limit(&["mate", "2"]), Limit::Depth(3));
        assert_eq!(
            limit(&["nodes", "5000"]),
            Limit::FirstOf(Bounds {
                nodes: Some(5000),
                ..Bounds::default()
            })
        );
        assert_eq!(
            limit(&["movetime", "100", "depth", "8"]),
            Limit::FirstOf(Bounds {
                time: Some(Duration::from_millis(100)),
                depth: Some(8),
                ..Bounds::default()
            })
        );
        let go = parse_go(
            &["searchmoves", "e2e4", "d2d4", "movetime", "50", "frobnicate"],
            true,
        );
        assert_eq!(go.search_moves, ["e2e4", "d2d4"]);
        assert_eq!(go.limit, Limit::MoveTime(Duration::from_millis(50)));
        assert_eq!(go.unknown, ["frobnicate"]);
        assert_eq!(parse_go(&["depth"], true).unknown, ["depth (without a number)"]);
        let Limit::Clock(c) = limit(&["wtime", "1000", "btime", "2000", "binc", "10"]) else {
            panic!("a clock");
        };
        assert_eq!(
            (c.remaining, c.increment),
            (Duration::from_millis(2000), Duration::from_millis(10))
        );
    }
}
