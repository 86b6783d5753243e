//! Reading what an external program writes, on threads of their own: its standard output line by
//! line into a channel, which the host reads with a deadline, and its standard error into the capped
//! log. A pipe read cannot time out by itself; a thread that blocks on it and a channel that can
//! does.
//!
//! Neither reader ever holds an unbounded line: answers are cut off at [`MAX_LINE`], log lines at
//! the log's cap.

use std::io::{self, BufRead, BufReader};
use std::process::{ChildStderr, ChildStdout};
use std::sync::mpsc::{Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex};

use super::super::log::Log;

/// The longest answer line, in bytes (its newline not counted).
pub const MAX_LINE: usize = 1 << 20;
/// Answer lines waiting to be read: a program that floods its output blocks on the full pipe.
pub(super) const QUEUE: usize = 16;

/// One item of a program's standard output.
#[derive(Debug)]
pub(super) enum Output {
    /// A line, without its newline.
    Line(Vec<u8>),
    /// A line longer than [`MAX_LINE`]; the reader skips the rest of it.
    TooLong,
    /// End of file (or a read error): the program closed its output or exited.
    Closed,
}

/// What one read of a line gave.
#[derive(Debug, PartialEq, Eq)]
enum Got {
    Line(Vec<u8>),
    TooLong,
    Eof,
}

/// Reads one line of at most `cap` bytes, without its newline. A last line without a newline is
/// still a line. On [`Got::TooLong`] the rest of the line is left unread.
fn read_line(reader: &mut impl BufRead, cap: usize) -> io::Result<Got> {
    let mut line = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(if line.is_empty() {
                Got::Eof
            } else {
                Got::Line(line)
            });
        }
        let newline = buf.iter().position(|&b| b == b'\n');
        let take = newline.unwrap_or(buf.len());
        if line.len() + take > cap {
            reader.consume(take);
            return Ok(Got::TooLong);
        }
        line.extend_from_slice(&buf[..take]);
        reader.consume(take + usize::from(newline.is_some()));
        if newline.is_some() {
            return Ok(Got::Line(line));
        }
    }
}

/// Skips to just after the next newline (or to the end of the file).
fn skip_line(reader: &mut impl BufRead) -> io::Result<()> {
    reader.skip_until(b'\n').map(|_| ())
}

/// Reads `stdout` into `lines` until the end of the file, then sends [`Output::Closed`]. Stops early
/// when the host hangs up (the process was dropped).
pub(super) fn read_answers(stdout: ChildStdout, lines: SyncSender<Output>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let item = match read_line(&mut reader, MAX_LINE) {
            Ok(Got::Line(line)) => Output::Line(line),
            Ok(Got::TooLong) => Output::TooLong,
            Ok(Got::Eof) | Err(_) => Output::Closed,
        };
        let (closed, too_long) = (
            matches!(item, Output::Closed),
            matches!(item, Output::TooLong),
        );
        if lines.send(item).is_err() || closed {
            return;
        }
        if too_long && skip_line(&mut reader).is_err() {
            let _ = lines.send(Output::Closed);
            return;
        }
    }
}

/// A program's standard error as the host keeps it: the capped log, and the last line alone, which a
/// crash report quotes even when the log is full.
#[derive(Debug)]
pub(super) struct Stderr {
    pub log: Log,
    pub last: Option<String>,
}

/// Reads `stderr` into `shared` line by line until the end of the file; `done` is dropped then, so
/// the host can wait for the last words of a program that exited.
pub(super) fn read_log(
    stderr: ChildStderr,
    shared: Arc<Mutex<Stderr>>,
    cap: usize,
    done: Sender<()>,
) {
    let mut reader = BufReader::new(stderr);
    loop {
        let line = match read_line(&mut reader, cap) {
            Ok(Got::Line(line)) => String::from_utf8_lossy(&line).trim_end().to_string(),
            Ok(Got::TooLong) => match skip_line(&mut reader) {
                Ok(()) => format!("[a line longer than {cap} bytes, left out]"),
                Err(_) => break,
            },
            Ok(Got::Eof) | Err(_) => break,
        };
        let mut stderr = shared.lock().unwrap_or_else(|e| e.into_inner());
        stderr.last = Some(line.clone());
        stderr.log.push(line);
    }
    drop(done);
}

/// Waits for the standard-error reader to reach the end of the file, at most `wait`.
pub(super) fn wait_drained(done: &Receiver<()>, wait: std::time::Duration) {
    let _ = done.recv_timeout(wait);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<Got> {
        let mut reader = BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        loop {
            let read = read_line(&mut reader, cap).unwrap();
            if read == Got::TooLong {
                skip_line(&mut reader).unwrap();
            }
            if read == Got::Eof {
                return out;
            }
            out.push(read);
        }
    }

    #[test]
    fn lines_are_split_capped_and_the_last_may_lack_its_newline() {
        let line = |s: &str| Got::Line(s.as_bytes().to_vec());
        assert_eq!(
            lines(b"0 left\n1 right\n", 10),
            [line("0 left"), line("1 right")]
        );
        assert_eq!(lines(b"\nx", 10), [line(""), line("x")]);
        assert_eq!(
            lines(b"12345\n123456\n1", 5),
            [line("12345"), Got::TooLong, line("1")]
        );
        assert_eq!(lines(b"", 5), []);
    }
}
