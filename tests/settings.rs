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
