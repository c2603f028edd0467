//! The `parlor` binary refuses settings it cannot use, with a message that names them, instead of ignoring them.
#![allow(clippy::unwrap_used)]

use std::process::Command;

#[test]
fn a_bad_cpu_thread_count_stops_parlor_with_a_message() {
    for bad in ["0", "two", "-1"] {
        let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
            .args(["bench", "search", "--depth", "1"])
            .env("PARLOR_CPU_THREADS", bad)
            .env_remove("RUST_BACKTRACE")
            .env_remove("RUST_LIB_BACKTRACE")
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad:?} was accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("PARLOR_CPU_THREADS") && stderr.contains(&format!("{bad:?}")),
            "{bad:?}: {stderr}"
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(["bench", "search", "--depth", "1"])
        .env("PARLOR_CPU_THREADS", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Every environment variable the code reads is named in `parlor serve --help` (each flag's beside it, the
/// others under "Environment:"). The list comes from the source, so a new variable cannot be left out.
#[test]
fn help_names_every_environment_variable() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = vec![root.join("src")];
    for krate in std::fs::read_dir(root.join("crates")).unwrap() {
        sources.push(krate.unwrap().path().join("src"));
    }
    let mut read = std::collections::BTreeSet::new();
    while let Some(path) = sources.pop() {
        if path.is_dir() {
            sources.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for (at, _) in text.match_indices("PARLOR_") {
                let name: String = text[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                    .collect();
                // Test settings (PARLOR_TEST_POSTGRES) are not the program's.
                if !name.starts_with("PARLOR_TEST_") && name.len() > "PARLOR_".len() {
                    read.insert(name);
                }
            }
        }
    }
    assert!(
        read.contains("PARLOR_CPU_THREADS") && read.contains("PARLOR_LOG"),
        "{read:?}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for name in &read {
        assert!(
            help.contains(name.as_str()),
            "{name} is not in `parlor serve --help`:\n{help}"
        );
    }
    let out = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("PARLOR_CPU_THREADS"));
}

/// `parlor serve` on a free port with a database in memory.
fn serve_in_memory() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parlor"));
    command.args([
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--database",
        "sqlite::memory:",
    ]);
    command
}

/// A log filter that does not parse stops `parlor serve` with a message that names it; `json` writes each log
/// line as a JSON object on stderr, and nothing but the address on stdout.
#[test]
fn log_settings_are_checked_and_json_lines_are_json() {
    let out = serve_in_memory()
        .env("PARLOR_LOG", "info,[[[")
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("PARLOR_LOG"),
        "{out:?}"
    );

    let mut serve = serve_in_memory()
        .env("PARLOR_LOG", "info")
        .env("PARLOR_LOG_FORMAT", "json")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(serve.stderr.take().unwrap());
    let mut line = String::new();
    let mut serving = None;
    for _ in 0..20 {
        line.clear();
        if std::io::BufRead::read_line(&mut stderr, &mut line).unwrap() == 0 {
            break;
        }
        let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
        if v["fields"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("parlor serving"))
        {
            serving = Some(v);
            break;
        }
    }
    let _ = serve.kill();
    let _ = serve.wait();
    let serving = serving.unwrap_or_else(|| panic!("no 'parlor serving' line; last: {line:?}"));
    assert_eq!(serving["level"], "INFO", "{serving}");
}
