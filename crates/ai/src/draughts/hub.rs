//! The Hub protocol (version 2, Fabien Letouzey's protocol of the draughts engine Scan and the Hub GUI) for our
//! International draughts engine: `parlor hub`. The variant is International (`normal`; setting another is
//! answered with an error); the level is an engine parameter (`set-param name=level value=1..8|easy|medium|hard`).
//!
//! Positions are 51 characters (side to move, then squares 1-50: `w b W B e`); moves are `32-28` or, for a
//! capture, from, to and every captured square: `28x19x23`. We reply `info` after each iteration and `done
//! move=...`; `go ponder` and `go analyze` search like `go think` (the protocol allows an engine to answer at
//! any time). Every command is read and kept in order: `stop`, `ping` and `quit` act at once during a search;
//! any other command waits until the search has said `done`, so nothing sent just after `done` is lost. A `pos`
//! that is refused (a bad position or an illegal move) leaves no position: `go` then answers an error. `level`
//! takes `depth=`, `nodes=`, `move-time=`, `time=` (with `inc=`, `moves=`) and `infinite`, several at once
//! (whichever comes first). Scores are in pieces; a game won in `p` plies is `+(100 - p/100)` and a lost one
//! `-(100 - p/100)`, the convention of Scan's Hub mode.

use crate::Engine;
use crate::request::{Bounds, Choice, Clock, Level, Limit, Request, Score};
use parlor_draughts::{DraughtsVariant, Move, Position};
use parlor_game::GameKind;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Splits a Hub line into its command and `name=value` arguments (values may be double-quoted; a flag has an
/// empty value).
pub fn parse_line(line: &str) -> (String, Vec<(String, String)>) {
    let mut chars = line.trim().chars().peekable();
    let word = |stop_at_eq: bool, chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
        let mut out = String::new();
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek() == Some(&'"') {
            chars.next();
            for c in chars.by_ref() {
                if c == '"' {
                    break;
                }
                out.push(c);
            }
            return out;
        }
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || (stop_at_eq && c == '=') {
                break;
            }
            out.push(c);
            chars.next();
        }
        out
    };
    let command = word(false, &mut chars);
    let mut args = Vec::new();
    loop {
        let name = word(true, &mut chars);
        if name.is_empty() {
            break;
        }
        let value = if chars.peek() == Some(&'=') {
            chars.next();
            word(false, &mut chars)
        } else {
            String::new()
        };
        args.push((name, value));
    }
    (command, args)
}

fn arg<'a>(args: &'a [(String, String)], name: &str) -> Option<&'a str> {
    args.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
}

/// A Hub position (`W` or `B`, then 50 squares) as PDN FEN.
pub fn hub_to_fen(pos: &str) -> Option<String> {
    let mut chars = pos.chars();
    let turn = match chars.next()? {
        'W' => 'W',
        'B' => 'B',
        _ => return None,
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    let mut n = 0;
    for (i, c) in chars.enumerate() {
        let sq = i + 1;
        match c {
            'w' => white.push(sq.to_string()),
            'W' => white.push(format!("K{sq}")),
            'b' => black.push(sq.to_string()),
            'B' => black.push(format!("K{sq}")),
            'e' => {}
            _ => return None,
        }
        n = sq;
    }
    (n == 50).then(|| format!("{turn}:W{}:B{}", white.join(","), black.join(",")))
}

/// A move in Hub notation: `from-to`, or `fromxto` followed by `x` and each captured square.
pub fn hub_move(pos: &Position, m: Move) -> String {
    if m.is_capture() {
        let mut s = format!("{}x{}", pos.from_square(m), pos.to_square(m));
        for c in pos.captured_squares(m) {
            s.push_str(&format!("x{c}"));
        }
        s
    } else {
        format!("{}-{}", pos.from_square(m), pos.to_square(m))
    }
}

/// The legal move a Hub move names (from, to and the set of captured squares).
pub fn parse_hub_move(pos: &Position, text: &str) -> Option<Move> {
    let nums: Vec<u32> = text
        .split(['-', 'x'])
        .map(|t| t.trim().parse().ok())
        .collect::<Option<_>>()?;
    let (&from, rest) = nums.split_first()?;
    let (&to, captured) = rest.split_first()?;
    let mut captured = captured.to_vec();
    captured.sort_unstable();
    pos.legal_moves().iter().copied().find(|&m| {
        pos.from_square(m) == from
            && pos.to_square(m) == to
            && (captured.is_empty() || pos.captured_squares(m) == captured)
    })
}

/// The search settings between commands.
struct State {
    level: Level,
    /// The start (PDN FEN) and the moves since (wire notation); `None` after a refused `pos`.
    position: Option<(String, Vec<String>)>,
    limit: Limit,
}

/// The limit a `level` command sets: every form it gives, whichever comes first; one second a move when it gives
/// none.
fn limit_of(args: &[(String, String)]) -> Limit {
    let secs = |name: &str| {
        arg(args, name)
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(Duration::from_secs_f64)
    };
    if arg(args, "infinite").is_some() {
        return Limit::Infinite;
    }
    let bounds = Bounds {
        clock: secs("time").map(|remaining| Clock {
            remaining,
            increment: secs("inc").unwrap_or_default(),
            per_move_cap: None,
            moves_to_go: arg(args, "moves").and_then(|v| v.parse().ok()),
        }),
        time: secs("move-time"),
        depth: arg(args, "depth").and_then(|v| v.parse().ok()),
        nodes: arg(args, "nodes").and_then(|v| v.parse().ok()),
    };
    bounds.limit().unwrap_or(Limit::MoveTime(Duration::from_secs(1)))
}

/// A score as Hub reports it: pieces (our centi-units over 100); a game won or lost in `p` plies as
/// `±(100 - p/100)`, never nearer zero than 99 (Scan's convention, which GUIs and pydraughts read back as a win or a
/// loss in so many plies, not as a count of pieces).
fn hub_score(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => f64::from(cp) / 100.0,
        Score::Mate(n) => {
            // A win in n moves is 2n - 1 plies away; a loss in n moves, 2n.
            let plies = if n > 0 { 2 * n - 1 } else { -2 * n };
            f64::from(n.signum()) * (100.0 - f64::from(plies.min(100)) / 100.0)
        }
    }
}

/// A search on its own thread, and its stop flag.
struct Running {
    thread: JoinHandle<()>,
    stop: Arc<AtomicBool>,
}

impl Running {
    fn stop_and_wait(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
    }
}

/// Runs the Hub loop on `input` and `output` until `quit` or the end of the input.
///
/// # Errors
/// An I/O error reading the input or writing the output.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static) -> std::io::Result<()> {
    let out = Arc::new(Mutex::new(output));
    let say = |line: &str| -> std::io::Result<()> {
        let mut o = out
            .lock()
            .map_err(|_| std::io::Error::other("output lock poisoned"))?;
        writeln!(o, "{line}")?;
        o.flush()
    };
    let engine = Arc::new(Mutex::new(Engine::new()));
    let mut state = State {
        level: Level::HARD,
        position: Some((String::new(), Vec::new())),
        limit: Limit::MoveTime(Duration::from_secs(1)),
    };
    let mut running: Option<Running> = None;
    for line in input.lines() {
        let line = line?;
        let (command, args) = parse_line(&line);
        // Answered at once, also during a search.
        match command.as_str() {
            "stop" => {
                if let Some(r) = &running {
                    r.stop.store(true, Ordering::Relaxed);
                }
                continue;
            }
            "ping" => {
                say("pong")?;
                continue;
            }
            // Searches never wait for the move to be played, so a ponder hit changes nothing.
            "ponder-hit" | "" => continue,
            "quit" => break,
            _ => {}
        }
        // Anything else is for an idle engine: it waits for the search (which has said, or will say, `done`).
        if let Some(r) = running.take() {
            let _ = r.thread.join();
        }
        match command.as_str() {
            "hub" => {
                say("id name=Parlor version=0.1 author=\"Parlor authors\" country=\"\"")?;
                say("param name=variant value=normal type=enum values=\"normal\"")?;
                say("param name=level value=hard type=enum values=\"1 easy 3 4 medium 6 7 hard\"")?;
                say("wait")?;
            }
            "set-param" => match arg(&args, "name") {
                Some("level") => match arg(&args, "value").map(str::parse::<Level>) {
                    Some(Ok(level)) => state.level = level,
                    _ => say("error message=\"level: 1 to 8, easy, medium or hard\"")?,
                },
                Some("variant") if arg(&args, "value") != Some("normal") => {
                    say("error message=\"variant: normal (International draughts) only\"")?
                }
                _ => {}
            },
            "init" => say("ready")?,
            "new-game" => {
                if let Ok(mut e) = engine.lock() {
                    e.new_game();
                }
            }
            "pos" => {
                state.position = read_pos(&args);
                if state.position.is_none() {
                    say("error message=\"bad position or move; no position until the next pos\"")?;
                }
            }
            "level" => state.limit = limit_of(&args),
            "go" => {
                let Some((start, moves)) = state.position.clone() else {
                    say("error message=\"no position: the last pos was refused\"")?;
                    continue;
                };
                let stop = Arc::new(AtomicBool::new(false));
                let mut req = Request::new(
                    GameKind::Draughts(DraughtsVariant::International),
                    state.level,
                    state.limit,
                );
                req.start = start;
                req.moves = moves;
                req.stop = Arc::clone(&stop);
                let (engine, out) = (Arc::clone(&engine), Arc::clone(&out));
                let thread = std::thread::spawn(move || {
                    let root = crate::draughts::Root::new(
                        DraughtsVariant::International,
                        &req.start,
                        &req.moves,
                        req.mandatory_capture,
                    );
                    let print = |line: String| {
                        if let Ok(mut o) = out.lock() {
                            let _ = writeln!(o, "{line}");
                            let _ = o.flush();
                        }
                    };
                    let Ok(root) = root else {
                        print("error message=\"bad position\"".to_owned());
                        return;
                    };
                    let hub_line = |c: &Choice| -> Vec<String> {
                        let mut pos = root.pos;
                        let mut line = Vec::new();
                        for wire in &c.pv {
                            let Ok(m) = pos.parse_move(wire) else { break };
                            line.push(hub_move(&pos, m));
                            pos.play_unchecked(m);
                        }
                        line
                    };
                    let result = match engine.lock() {
                        Ok(mut e) => e.choose_with(&req, &mut |c| {
                            let score = hub_score(c.score);
                            print(format!(
                                "info depth={} score={score:.2} nodes={} time={:.3} pv=\"{}\"",
                                c.depth,
                                c.nodes,
                                c.elapsed.as_secs_f64(),
                                hub_line(c).join(" ")
                            ));
                        }),
                        Err(_) => return,
                    };
                    match result {
                        Ok(c) => {
                            let line = hub_line(&c);
                            let mut done = format!("done move={}", line.first().cloned().unwrap_or_default());
                            if let Some(p) = line.get(1) {
                                done.push_str(&format!(" ponder={p}"));
                            }
                            print(done);
                        }
                        Err(e) => print(format!("error message=\"{e}\"")),
                    }
                });
                running = Some(Running { thread, stop });
            }
            _ => say(&format!("error message=\"unknown command {command}\""))?,
        }
    }
    if let Some(r) = running.take() {
        r.stop_and_wait();
    }
    Ok(())
}

/// The position a `pos` command sets (its start as PDN FEN, empty for the standard start when `pos=` is not
/// given, and its moves in wire notation), or `None` when the position or one of the moves is bad.
fn read_pos(args: &[(String, String)]) -> Option<(String, Vec<String>)> {
    let (fen, mut pos) = match arg(args, "pos") {
        Some(text) => {
            let fen = hub_to_fen(text)?;
            let pos = Position::from_fen(DraughtsVariant::International, &fen).ok()?;
            (fen, pos)
        }
        None => (String::new(), Position::start(DraughtsVariant::International)),
    };
    let mut wires = Vec::new();
    for text in arg(args, "moves").unwrap_or("").split_whitespace() {
        let m = parse_hub_move(&pos, text)?;
        wires.push(pos.move_notation(m));
        pos.play_unchecked(m);
    }
    Some((fen, wires))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::test_pipe::Gui;

    #[test]
    fn lines_positions_and_moves_read_as_hub_writes_them() {
        let (c, args) = parse_line("info depth=3 pv=\"32-28 17-22\" flag");
        assert_eq!(c, "info");
        assert_eq!(arg(&args, "pv"), Some("32-28 17-22"));
        assert_eq!(arg(&args, "flag"), Some(""));
        let start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
        let fen = hub_to_fen(start).unwrap();
        let pos = Position::from_fen(DraughtsVariant::International, &fen).unwrap();
        assert_eq!(pos, Position::start(DraughtsVariant::International));
        let m = parse_hub_move(&pos, "32-28").unwrap();
        assert_eq!(hub_move(&pos, m), "32-28");
    }

    const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    /// The moves of `done` lines, in order.
    fn done_moves(text: &str) -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("done"))
            .map(|l| arg(&parse_line(l).1, "move").unwrap_or("").to_owned())
            .collect()
    }

    fn legal_after(moves: &[&str], hub: &str) -> bool {
        let mut pos = Position::start(DraughtsVariant::International);
        for t in moves {
            let m = parse_hub_move(&pos, t).unwrap();
            pos.play_unchecked(m);
        }
        parse_hub_move(&pos, hub).is_some()
    }

    /// Commands sent in one write right after a search are all read, in order: the second search is of the
    /// second position; `stop` then `go` gives a second `done`.
    #[test]
    fn commands_after_done_and_after_stop_are_kept() {
        let gui = Gui::start(run);
        gui.say(&format!(
            "pos pos={START}\nlevel depth=2\ngo think\npos pos={START} moves=\"32-28\"\ngo think"
        ));
        let text = gui.wait("done", 2, 20);
        let moves = done_moves(&text);
        assert!(legal_after(&[], &moves[0]), "{text}");
        assert!(legal_after(&["32-28"], &moves[1]), "{text}");
        gui.say("level infinite\ngo think\nstop\nlevel depth=1\ngo think");
        let text = gui.wait("done", 4, 20);
        assert!(
            done_moves(&text)
                .iter()
                .skip(2)
                .all(|m| legal_after(&["32-28"], m)),
            "{text}"
        );
        gui.quit();
    }

    /// A refused `pos` leaves no position: `go` answers an error, not a move of the position before.
    #[test]
    fn a_refused_pos_leaves_no_position() {
        let gui = Gui::start(run);
        gui.say(&format!(
            "pos pos={START}\npos pos={START} moves=\"32-22\"\nlevel depth=1\ngo think\nping"
        ));
        let text = gui.wait("pong", 1, 20);
        assert_eq!(done_moves(&text).len(), 0, "{text}");
        assert_eq!(text.matches("error").count(), 2, "{text}");
        gui.quit();
    }

    /// `level nodes=` ends a search by itself (no `stop`); wins are reported as 99.xx pieces.
    #[test]
    fn a_node_level_ends_the_search_and_wins_read_as_wins() {
        let gui = Gui::start(run);
        gui.say("pos\nlevel nodes=3000\ngo think");
        gui.wait("done", 1, 20);
        gui.quit();
        assert_eq!(hub_score(Score::Cp(150)), 1.5);
        assert!((hub_score(Score::Mate(3)) - 99.95).abs() < 1e-9);
        assert!((hub_score(Score::Mate(-2)) + 99.96).abs() < 1e-9);
        assert_eq!(
            limit_of(&parse_line("level move-time=0.5 nodes=100").1),
            Limit::FirstOf(Bounds {
                time: Some(Duration::from_millis(500)),
                nodes: Some(100),
                ..Bounds::default()
            })
        );
    }

    #[test]
    fn a_search_answers_done_with_a_legal_move() {
        let input = "hub\nset-param name=level value=medium\ninit\npos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23\"\nlevel depth=3\ngo think\nquit\n";
        let buf = Arc::new(Mutex::new(Vec::new()));
        struct Sink(Arc<Mutex<Vec<u8>>>);
        impl Write for Sink {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        run(std::io::Cursor::new(input), Sink(Arc::clone(&buf))).unwrap();
        let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
        assert!(text.contains("wait") && text.contains("ready"), "{text}");
        let done = text.lines().find(|l| l.starts_with("done")).unwrap();
        let (_, args) = parse_line(done);
        let mut pos = Position::start(DraughtsVariant::International);
        for t in ["32-28", "19-23"] {
            let m = parse_hub_move(&pos, t).unwrap();
            pos.play_unchecked(m);
        }
        assert!(
            parse_hub_move(&pos, arg(&args, "move").unwrap()).is_some(),
            "{text}"
        );
    }
}
