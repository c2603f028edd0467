//! For tests of the text protocols (UCI, Hub): a session on its own thread, fed line by line like a GUI's pipe,
//! its output kept to read.

#![allow(clippy::unwrap_used)]

use std::io::{self, BufReader, Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Output shared with the test.
#[derive(Clone, Default)]
pub(crate) struct Shared(pub(crate) Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Input a test writes line by line while the session runs; it ends when the test's sender is dropped.
pub(crate) struct Pipe(Receiver<String>, Vec<u8>);

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.1.is_empty() {
            match self.0.recv() {
                Ok(line) => self.1 = format!("{line}\n").into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.1.len());
        buf[..n].copy_from_slice(&self.1[..n]);
        self.1.drain(..n);
        Ok(n)
    }
}

/// A session on its own thread: send lines, wait for output.
pub(crate) struct Gui {
    send: Option<Sender<String>>,
    out: Shared,
    session: Option<JoinHandle<()>>,
}

impl Gui {
    /// Starts `run` (a protocol's loop) on a pipe.
    pub(crate) fn start(run: fn(BufReader<Pipe>, Shared) -> io::Result<()>) -> Gui {
        let (send, receive) = channel();
        let out = Shared::default();
        let output = out.clone();
        let session =
            std::thread::spawn(move || run(BufReader::new(Pipe(receive, Vec::new())), output).unwrap());
        Gui {
            send: Some(send),
            out,
            session: Some(session),
        }
    }

    pub(crate) fn say(&self, line: &str) {
        if let Some(send) = &self.send {
            send.send(line.to_owned()).unwrap();
        }
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8(self.out.0.lock().unwrap().clone()).unwrap()
    }

    /// Waits up to `seconds` for `count` lines that start with `prefix`; the output so far.
    pub(crate) fn wait(&self, prefix: &str, count: usize, seconds: u64) -> String {
        let until = Instant::now() + Duration::from_secs(seconds);
        loop {
            let text = self.text();
            if text.lines().filter(|l| l.starts_with(prefix)).count() >= count {
                return text;
            }
            assert!(Instant::now() < until, "no {count} x {prefix} in:\n{text}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Ends the input (as a GUI closing the pipe) and waits for the session to end; its whole output.
    pub(crate) fn close(mut self) -> String {
        self.send = None;
        if let Some(session) = self.session.take() {
            session.join().unwrap();
        }
        self.text()
    }

    /// Says `quit` and waits for the session to end; its whole output.
    pub(crate) fn quit(self) -> String {
        self.say("quit");
        self.close()
    }
}
