//! Root-test helpers for a real `parlor serve` child process: start it on a database, read its address, keep its
//! standard output open, and SIGKILL it on drop.
#![allow(dead_code, clippy::unwrap_used)]

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, ChildStdout, Command, Stdio};

/// A running `parlor serve`, SIGKILLed on drop.
pub struct Serve {
    pub child: Child,
    pub addr: SocketAddr,
    /// The server's standard output, kept open so that its writes never fail.
    _stdout: BufReader<ChildStdout>,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `parlor serve` on port 0 with `database`; returns once it has said where it listens.
pub fn serve(database: &str) -> Serve {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parlor"));
    command.args(["serve", "--listen", "127.0.0.1:0", "--database", database]);
    spawn(command)
}

/// Starts `command`, a `parlor serve` on port 0 (perhaps behind a shell that sets limits first); returns once it
/// has said where it listens.
pub fn spawn(mut command: Command) -> Serve {
    let mut child = command
        .env("PARLOR_LOG", "warn")
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let addr = line.trim().rsplit("http://").next().unwrap().parse().unwrap();
    Serve {
        child,
        addr,
        _stdout: stdout,
    }
}

/// The wire notation of each move in a `legal` or `moves` list.
pub fn wires(list: &Value) -> Vec<String> {
    list.as_array()
        .map(|l| l.iter().map(|m| m["wire"].as_str().unwrap().to_owned()).collect())
        .unwrap_or_default()
}
