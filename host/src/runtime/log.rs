//! A strategy's log for one game: what it printed (Lua `print`, WASM `botbox.log`), capped in bytes so
//! a chatty or hostile strategy cannot fill the host's memory.

use super::fault::cap_message;

/// Log lines, at most `cap` bytes of them; past that one truncation notice and nothing more.
#[derive(Debug, Default)]
pub struct Log {
    lines: Vec<String>,
    bytes: usize,
    cap: usize,
    truncated: bool,
}

impl Log {
    pub fn new(cap: usize) -> Log {
        Log {
            cap,
            ..Log::default()
        }
    }

    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// How many lines so far (the truncation notice included).
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// Whether the log has reached its cap: nothing more is kept, so there is nothing to build.
    pub fn is_full(&self) -> bool {
        self.truncated
    }

    /// Adds a line, itself cut to [`super::fault::MAX_MESSAGE`] bytes.
    pub fn push(&mut self, line: String) {
        if self.truncated {
            return;
        }
        let line = cap_message(line);
        if self.bytes + line.len() > self.cap {
            self.truncated = true;
            self.lines
                .push(format!("[log truncated at {} bytes]", self.cap));
            return;
        }
        self.bytes += line.len();
        self.lines.push(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_stops_at_its_cap_with_one_notice() {
        let mut log = Log::new(10);
        log.push("12345".into());
        log.push("67890".into());
        log.push("x".into());
        log.push("y".into());
        assert_eq!(
            log.lines(),
            ["12345", "67890", "[log truncated at 10 bytes]"]
        );
    }
}
