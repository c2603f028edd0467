//! The Hub protocol (version 2, Fabien Letouzey's protocol of the draughts engine Scan and the Hub GUI) for our
//! International draughts engine: `parlor hub`. Hub speaks 10x10 only, so the variant is International
//! (`normal`); the level is an engine parameter (`set-param name=level value=easy|medium|hard`).
//!
//! Positions are 51 characters (side to move, then squares 1-50: `w b W B e`); moves are `32-28` or, for a
//! capture, from, to and every captured square: `28x19x23`. We reply `info` after each iteration and `done
//! move=...`; `go ponder` and `go analyze` search like `go think` (the protocol allows an engine to answer at
//! any time); `stop` and `ping` are read during the search.

use crate::Engine;
use crate::request::{Choice, Clock, Level, Limit, Request};
use parlor_draughts::{DraughtsVariant, Move, Position};
use parlor_game::GameKind;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
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
    start: String,
    moves: Vec<String>,
    limit: Limit,
}

fn limit_of(args: &[(String, String)]) -> Limit {
    let secs = |name: &str| {
        arg(args, name)
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0)
            .map(Duration::from_secs_f64)
    };
    if arg(args, "infinite").is_some() {
        Limit::Infinite
    } else if let Some(d) = arg(args, "depth").and_then(|v| v.parse().ok()) {
        Limit::Depth(d)
    } else if let Some(t) = secs("move-time") {
        Limit::MoveTime(t)
    } else if let Some(t) = secs("time") {
        Limit::Clock(Clock {
            remaining: t,
            increment: secs("inc").unwrap_or_default(),
            per_move_cap: None,
            moves_to_go: arg(args, "moves").and_then(|v| v.parse().ok()),
        })
    } else {
        Limit::MoveTime(Duration::from_secs(1))
    }
}

/// Runs the Hub loop on `input` and `output` until `quit` or the end of the input.
///
/// # Errors
/// An I/O error writing the output.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) -> std::io::Result<()> {
    let out = Arc::new(Mutex::new(output));
    let say = |line: &str| -> std::io::Result<()> {
        let mut o = out
            .lock()
            .map_err(|_| std::io::Error::other("output lock poisoned"))?;
        writeln!(o, "{line}")?;
        o.flush()
    };
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let engine = Arc::new(Mutex::new(Engine::new()));
    let mut state = State {
        level: Level::Hard,
        start: String::new(),
        moves: Vec::new(),
        limit: Limit::MoveTime(Duration::from_secs(1)),
    };
    while let Ok(line) = rx.recv() {
        let (command, args) = parse_line(&line);
        match command.as_str() {
            "hub" => {
                say("id name=Parlor version=0.1 author=\"Parlor authors\" country=\"\"")?;
                say("param name=variant value=normal type=enum values=\"normal\"")?;
                say("param name=level value=hard type=enum values=\"easy medium hard\"")?;
                say("wait")?;
            }
            "set-param" => {
                if arg(&args, "name") == Some("level")
                    && let Some(l) = arg(&args, "value").and_then(|v| v.parse().ok())
                {
                    state.level = l;
                }
            }
            "init" => say("ready")?,
            "ping" => say("pong")?,
            "new-game" => {
                if let Ok(mut e) = engine.lock() {
                    e.new_game();
                }
            }
            "pos" => {
                let fen = arg(&args, "pos").and_then(hub_to_fen);
                let parsed = fen.and_then(|fen| {
                    let mut pos = Position::from_fen(DraughtsVariant::International, &fen).ok()?;
                    let mut wires = Vec::new();
                    for text in arg(&args, "moves").unwrap_or("").split_whitespace() {
                        let m = parse_hub_move(&pos, text)?;
                        wires.push(pos.move_notation(m));
                        pos.play_unchecked(m);
                    }
                    Some((fen, wires))
                });
                match parsed {
                    Some((fen, wires)) => {
                        state.start = fen;
                        state.moves = wires;
                    }
                    None => say("error message=\"bad position or move\"")?,
                }
            }
            "level" => state.limit = limit_of(&args),
            "go" => {
                let stop = Arc::new(AtomicBool::new(false));
                let mut req = Request::new(
                    GameKind::Draughts(DraughtsVariant::International),
                    state.level,
                    state.limit,
                );
                req.start = state.start.clone();
                req.moves = state.moves.clone();
                req.stop = Arc::clone(&stop);
                let (engine, out) = (Arc::clone(&engine), Arc::clone(&out));
                let search = std::thread::spawn(move || {
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
                            let score = match c.score {
                                crate::Score::Cp(cp) => f64::from(cp) / 100.0,
                                crate::Score::Mate(n) => f64::from(n.signum()) * 19.0,
                            };
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
                // Commands during the search: stop, ping, ponder-hit.
                while !search.is_finished() {
                    match rx.recv_timeout(Duration::from_millis(2)) {
                        Ok(line) => match parse_line(&line).0.as_str() {
                            "stop" => stop.store(true, Ordering::Relaxed),
                            "ping" => say("pong")?,
                            "quit" => {
                                stop.store(true, Ordering::Relaxed);
                                let _ = search.join();
                                return Ok(());
                            }
                            _ => {}
                        },
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Err(mpsc::RecvTimeoutError::Disconnected) => {
                            stop.store(true, Ordering::Relaxed);
                            let _ = search.join();
                            return Ok(());
                        }
                    }
                }
                let _ = search.join();
            }
            "quit" => break,
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

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
