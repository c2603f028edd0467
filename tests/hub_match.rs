//! `parlor match` against outside draughts engines over Hub, at a time per move or on a game clock: the second
//! version of the protocol with our own `parlor hub` as the engine (International), the first with Scan 2.0
//! (`PARLOR_TEST_SCAN` names its program, built from ../shared/anchors/scan-2.0), and English draughts with
//! rapid-draughts from npm (`PARLOR_TEST_RAPID_DRAUGHTS` names tools/engines/rapid-draughts-hub/hub.mjs); the
//! outside engines' tests are ignored unless asked for, as .ci/run does.
#![allow(clippy::unwrap_used)]

use std::process::Command;

const PARLOR: &str = env!("CARGO_BIN_EXE_parlor");

/// Runs `parlor match` with `args`; returns whether it succeeded, its output and its error output.
fn run_match(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(PARLOR).arg("match").args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The W, D and L of the summary line of a match of `games` games.
fn tally(stdout: &str, games: usize) -> [usize; 3] {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.contains(&format!("({games} games)")))
        .unwrap_or_else(|| panic!("no summary of {games} games in:\n{stdout}"));
    let number = |tag: &str| -> usize {
        let rest = &line[line.find(&format!(" {tag} ")).unwrap() + tag.len() + 2..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    [number("W"), number("D"), number("L")]
}

/// Two games of International draughts, one at a time: our `a` against `engine` with `options`, at 20 ms a move
/// or on the game clock `clock`.
fn two_international_games(
    a: &str,
    engine: &str,
    options: &[&str],
    clock: Option<&str>,
) -> (bool, String, String) {
    let mut args = vec!["--game", "draughts/international", "--a", a, "--b", engine];
    for option in options {
        args.extend(["--b-option", option]);
    }
    match clock {
        Some(clock) => args.extend(["--clock", clock]),
        None => args.extend(["--movetime", "20"]),
    }
    args.extend(["--games", "2", "--concurrency", "1"]);
    run_match(&args)
}

/// Two games against the Hub engine `engine` given `option`: both end by the rules, none by an illegal or
/// unreadable move.
fn two_games_against(a: &str, engine: &str, option: &str) {
    let (ok, stdout, stderr) = two_international_games(a, engine, &[option], None);
    assert!(ok, "{stdout}\n{stderr}");
    assert_eq!(tally(&stdout, 2).iter().sum::<usize>(), 2, "{stdout}");
    assert!(!stderr.contains("illegal"), "{stderr}");
}

#[test]
fn a_match_against_parlor_hub_speaks_the_second_version() {
    two_games_against("easy", &format!("hub:{PARLOR} hub"), "level=hard");
}

#[test]
fn a_hub_engine_is_refused_for_other_games_with_the_reason() {
    let engine = format!("hub:{PARLOR} hub");
    for game in ["chess", "chess4"] {
        let (ok, stdout, stderr) =
            run_match(&["--game", game, "--a", "easy", "--b", &engine, "--games", "2"]);
        assert!(!ok, "{game}: {stdout}");
        assert!(stderr.contains("plays draughts only"), "{game}: {stderr}");
    }
    // A variant the engine does not play: it answers the variant's setting with an error, which the match reports.
    let (ok, stdout, stderr) = run_match(&[
        "--game",
        "draughts/english",
        "--a",
        "easy",
        "--b",
        &engine,
        "--games",
        "2",
    ]);
    assert!(!ok, "{stdout}");
    assert!(
        stderr.contains("variant: normal (International draughts) only"),
        "{stderr}"
    );
}

#[test]
#[ignore = "needs Scan 2.0: set PARLOR_TEST_SCAN to its program and run with --ignored (.ci/run does)"]
fn a_match_against_scan_speaks_the_first_version() {
    let scan = std::env::var("PARLOR_TEST_SCAN").expect("PARLOR_TEST_SCAN must name Scan 2.0's program");
    two_games_against("hard", &format!("hub:{scan} hub"), "book=false");
}

#[test]
#[ignore = "needs node and tools/engines/rapid-draughts-hub's npm packages: set PARLOR_TEST_RAPID_DRAUGHTS to its \
            hub.mjs and run with --ignored (.ci/run does)"]
fn a_match_of_english_draughts_against_rapid_draughts() {
    let hub = std::env::var("PARLOR_TEST_RAPID_DRAUGHTS")
        .expect("PARLOR_TEST_RAPID_DRAUGHTS must name tools/engines/rapid-draughts-hub/hub.mjs");
    let engine = format!("hub:{hub}");
    let (ok, stdout, stderr) = run_match(&[
        "--game",
        "draughts/english",
        "--a",
        "medium",
        "--b",
        &engine,
        "--movetime",
        "20",
        "--games",
        "2",
        "--concurrency",
        "1",
    ]);
    assert!(ok, "{stdout}\n{stderr}");
    assert_eq!(tally(&stdout, 2).iter().sum::<usize>(), 2, "{stdout}");
    assert!(!stderr.contains("illegal"), "{stderr}");
}

#[test]
fn an_engine_that_answers_an_illegal_move_loses_that_game() {
    // An outside engine of the first version that always answers the same move, legal or not.
    let dir = std::env::temp_dir().join(format!("parlor-hub-fake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("fake.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    hub) echo 'name Fake'; echo wait ;;\n    \
         init) echo ready ;;\n    go) echo 'move 1-2' ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
    )
    .unwrap();
    let engine = format!("hub:sh {}", script.display());
    let (ok, stdout, stderr) = two_international_games("easy", &engine, &[], None);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(ok, "{stdout}\n{stderr}");
    assert_eq!(tally(&stdout, 2), [2, 0, 0], "{stdout}");
    assert!(stderr.contains("illegal move 1-2"), "{stderr}");
}

#[test]
fn on_a_clock_the_engine_is_told_its_time_and_an_engine_out_of_time_loses() {
    // An outside engine of the first version that writes down what it is told and answers after 400 ms.
    let dir = std::env::temp_dir().join(format!("parlor-hub-slow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("slow.sh");
    let heard = dir.join("heard.txt");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nwhile read -r line; do\n  echo \"$line\" >> {}\n  case \"$line\" in\n    \
             hub) echo 'name Slow'; echo wait ;;\n    init) echo ready ;;\n    go) sleep 0.4; echo 'move 1-2' ;;\n    \
             quit) exit 0 ;;\n  esac\ndone\n",
            heard.display()
        ),
    )
    .unwrap();
    let engine = format!("hub:sh {}", script.display());
    let (ok, stdout, stderr) = two_international_games("easy", &engine, &[], Some("0.3+0"));
    let heard = std::fs::read_to_string(&heard).unwrap_or_default();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(ok, "{stdout}\n{stderr}");
    assert!(stdout.contains("a clock of 0.3 s + 0 s"), "{stdout}");
    assert_eq!(tally(&stdout, 2), [2, 0, 0], "{stdout}");
    assert!(stderr.contains("(time,"), "{stderr}");
    assert!(!stderr.contains("illegal"), "{stderr}");
    // Its whole clock at its first move (whichever colour it has, no move of it has been charged yet).
    assert!(heard.lines().any(|l| l == "level 0 300 0"), "{heard}");
    assert!(!heard.lines().any(|l| l.starts_with("time ")), "{heard}");
}

#[test]
fn parlor_hub_plays_on_a_clock() {
    let engine = format!("hub:{PARLOR} hub");
    let (ok, stdout, stderr) = two_international_games("easy", &engine, &["level=medium"], Some("1+0.02"));
    assert!(ok, "{stdout}\n{stderr}");
    assert_eq!(tally(&stdout, 2).iter().sum::<usize>(), 2, "{stdout}");
    assert!(!stderr.contains("illegal"), "{stderr}");
}

#[test]
fn a_four_player_match_on_a_clock_is_refused_with_the_reason() {
    let (ok, stdout, stderr) = run_match(&[
        "--game", "chess4", "--a", "easy", "--b", "easy", "--games", "4", "--clock", "10+0",
    ]);
    assert!(!ok, "{stdout}");
    assert!(
        stderr.contains("a match on a game clock is for chess and draughts"),
        "{stderr}"
    );
    let (ok, _, stderr) = run_match(&["--game", "chess", "--a", "easy", "--b", "easy", "--clock", "ten"]);
    assert!(!ok);
    assert!(stderr.contains("--clock `ten`"), "{stderr}");
}

/// An outside engine's score of a position alone: far ahead for the side to move, and its move legal there.
fn scores_a_position_alone(command: &str, options: &[(String, String)]) {
    use parlor_ai::draughts::hub_engine::HubEngine;
    use parlor_draughts::{DraughtsVariant, Position};
    let mut engine = HubEngine::start(command, DraughtsVariant::International, options).unwrap();
    for fen in [
        "W:W31,32,33,34,35,36,37,38:B3,9",
        "B:W44,45:B12,13,14,15,16,17,18,19",
    ] {
        let pos = Position::from_fen(DraughtsVariant::International, fen).unwrap();
        let (text, score) = engine
            .analyse(&pos, std::time::Duration::from_millis(50))
            .unwrap();
        assert!(pos.parse_move(&text).is_ok(), "{fen}: {text}");
        let score = score.unwrap_or_else(|| panic!("{fen}: no score"));
        assert!(score > 300, "{fen}: {score}");
    }
}

#[test]
fn parlor_hub_scores_a_position_alone() {
    scores_a_position_alone(&format!("{PARLOR} hub"), &[]);
}

#[test]
#[ignore = "needs Scan 2.0: set PARLOR_TEST_SCAN to its program and run with --ignored (.ci/run does)"]
fn scan_scores_a_position_alone() {
    let scan = std::env::var("PARLOR_TEST_SCAN").expect("PARLOR_TEST_SCAN must name Scan 2.0's program");
    scores_a_position_alone(&format!("{scan} hub"), &[("book".to_owned(), "false".to_owned())]);
}
