//! A server whose log pipe is closed (as `parlor serve 2>&1 | head -2` leaves it) still stops on SIGTERM: the
//! signal cancels before it logs, and a log line that cannot be written is dropped without killing the task.
#![allow(clippy::unwrap_used)]

#[path = "../crates/server/tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// How long a stopping server may take: it has no games to flush.
const STOP_WITHIN: Duration = Duration::from_secs(5);

/// The server process, killed if the test fails before it exits.
struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

#[test]
fn sigterm_stops_a_server_whose_log_pipe_is_closed() {
    let dir = common::tempdir::Dir::new();
    let database = format!("sqlite://{}/pipe.db?mode=rwc", dir.0.display());
    let (reader, writer) = std::io::pipe().unwrap();
    let mut serve = Serve(
        Command::new(env!("CARGO_BIN_EXE_parlor"))
            .args(["serve", "--listen", "127.0.0.1:0", "--database", &database])
            .env("PARLOR_LOG", "info")
            .env_remove("NO_COLOR")
            .stdout(writer.try_clone().unwrap())
            .stderr(writer)
            .spawn()
            .unwrap(),
    );
    let child = &mut serve.0;
    // Like `head -2`: read the address and the first log line (the server is up), then close the only reader.
    let mut reader = BufReader::new(reader);
    let mut address = String::new();
    reader.read_line(&mut address).unwrap();
    assert!(address.starts_with("Parlor is running at http://"), "{address}");
    // Log lines up to the one that says the server is up (a few come before it).
    let mut log = String::new();
    for _ in 0..10 {
        log.clear();
        reader.read_line(&mut log).unwrap();
        assert!(!log.contains('\x1b'), "colour codes on a pipe: {log:?}");
        if log.contains("parlor serving") {
            break;
        }
    }
    assert!(log.contains("parlor serving"), "{log}");
    drop(reader);
    let pid = child.id().to_string();
    let sigterm = || {
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        )
    };
    let started = Instant::now();
    let wait_until = |child: &mut Child, deadline: Duration| loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if started.elapsed() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    // SIGTERM, and once more after a second, as an operator would.
    sigterm();
    let mut status = wait_until(child, Duration::from_secs(1));
    if status.is_none() {
        sigterm();
        status = wait_until(child, STOP_WITHIN);
    }
    let Some(status) = status else {
        panic!("the server ignored SIGTERM twice for {STOP_WITHIN:?} with its log pipe closed");
    };
    assert!(status.success(), "{status:?}");
}
