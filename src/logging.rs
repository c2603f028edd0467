//! The server's log: to stderr, coloured only on a terminal, and written so that a failed write (a closed pipe,
//! a full disk) is dropped instead of panicking the task that logged.

use std::io::{IsTerminal, Write};

/// Sets up the global log for `parlor serve`: what `filter` lets through (tracing's `EnvFilter` syntax), lines on
/// stderr, as JSON objects when `json`, else text with ANSI colour only when
/// stderr is a terminal and `NO_COLOR` is unset or empty (<https://no-color.org>). stdout keeps only what scripts
/// read (the serving address).
///
/// # Errors
/// A filter that does not parse, named in the message.
pub fn init(filter: &str, json: bool) -> anyhow::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .map_err(|e| anyhow::anyhow!("--log / PARLOR_LOG {filter:?} is not a log filter: {e}"))?;
    let log = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| LossyStderr)
        // The subscriber reports its own write failures with `eprintln!`, which panics when stderr is the
        // broken pipe: a log line is never worth a task.
        .log_internal_errors(false);
    if json {
        log.json().init();
    } else {
        log.with_ansi(wants_colour(
            std::io::stderr().is_terminal(),
            std::env::var_os("NO_COLOR"),
        ))
        .init();
    }
    Ok(())
}

/// Colour when writing to a terminal and `NO_COLOR` is absent or empty.
fn wants_colour(terminal: bool, no_color: Option<std::ffi::OsString>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

/// Stderr that reports every write as done: a log line that cannot be written is lost, and the caller goes on.
struct LossyStderr;

impl Write for LossyStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = std::io::stderr().write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let _ = std::io::stderr().flush();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        assert!(wants_colour(true, None));
        assert!(wants_colour(true, Some("".into())));
        assert!(!wants_colour(true, Some("1".into())));
        assert!(!wants_colour(false, None));
    }
}
