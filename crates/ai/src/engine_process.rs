//! An outside engine's process for `parlor match`, spoken to line by line over its standard input and output (UCI
//! for chess, Hub for International draughts); told `quit` and waited for when dropped.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// An outside engine that could not be started or stopped answering as its protocol says.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("engine `{command}`: {reason}")]
pub struct EngineError {
    /// The command line.
    pub command: String,
    /// What went wrong.
    pub reason: String,
}

/// A running engine.
pub(crate) struct EngineProcess {
    command: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl EngineProcess {
    /// Starts `command` (program and arguments, split on whitespace). With `in_own_folder`, a program named with
    /// its folder starts in that folder (Scan reads its `scan.ini` and `data/` from there).
    ///
    /// # Errors
    /// [`EngineError`] when it cannot be started.
    pub(crate) fn start(command: &str, in_own_folder: bool) -> Result<EngineProcess, EngineError> {
        let err = |reason: String| EngineError {
            command: command.to_owned(),
            reason,
        };
        let mut parts = command.split_whitespace();
        let program = Path::new(parts.next().ok_or_else(|| err("empty command".to_owned()))?);
        let (program, folder) =
            if in_own_folder && program.parent().is_some_and(|p| !p.as_os_str().is_empty()) {
                let absolute =
                    std::fs::canonicalize(program).map_err(|e| err(format!("{}: {e}", program.display())))?;
                let folder = absolute.parent().map(Path::to_path_buf);
                (absolute, folder)
            } else {
                (program.to_path_buf(), None)
            };
        let mut run = Command::new(program);
        run.args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(folder) = folder {
            run.current_dir(folder);
        }
        let mut child = run.spawn().map_err(|e| err(e.to_string()))?;
        let stdin = child.stdin.take().ok_or_else(|| err("no stdin".to_owned()))?;
        let stdout = BufReader::new(child.stdout.take().ok_or_else(|| err("no stdout".to_owned()))?);
        Ok(EngineProcess {
            command: command.to_owned(),
            child,
            stdin,
            stdout,
        })
    }

    /// An error of this engine.
    pub(crate) fn err(&self, reason: String) -> EngineError {
        EngineError {
            command: self.command.clone(),
            reason,
        }
    }

    /// Writes one line.
    ///
    /// # Errors
    /// [`EngineError`] when the engine cannot be written to.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.err(format!("writing `{line}`: {e}")))
    }

    /// The next line, trimmed.
    ///
    /// # Errors
    /// [`EngineError`] when the engine closed its output.
    pub(crate) fn line(&mut self) -> Result<String, EngineError> {
        let mut line = String::new();
        let n = self
            .stdout
            .read_line(&mut line)
            .map_err(|e| self.err(e.to_string()))?;
        if n == 0 {
            return Err(self.err("closed its output".to_owned()));
        }
        Ok(line.trim().to_owned())
    }

    /// Reads lines until `wanted` accepts one (returned); a line `failed` accepts ends the wait as an error.
    ///
    /// # Errors
    /// [`EngineError`] with the failed line, or when the engine closed its output.
    pub(crate) fn until(
        &mut self,
        wanted: impl Fn(&str) -> bool,
        failed: impl Fn(&str) -> bool,
    ) -> Result<String, EngineError> {
        loop {
            let line = self.line()?;
            if wanted(&line) {
                return Ok(line);
            }
            if failed(&line) {
                return Err(self.err(line));
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // The engine exits on quit; reap it so no zombie stays behind.
        let _ = self.child.wait();
    }
}
