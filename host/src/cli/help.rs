//! The examples under every `--help`, fitted to an 80-column terminal before clap sees them: a
//! command longer than a line is broken between its words with shell continuations (`\`), so it
//! can still be pasted; a comment that does not fit beside its command goes on its own line above
//! it; prose is wrapped between words under its own indentation. Clap would otherwise wrap these
//! lines wherever the terminal ends, in the middle of a command.

/// The widest line an example may take: an 80-column terminal, less a column of margin.
pub const WIDTH: usize = 79;

/// `command` and all its subcommands with their examples fitted to [`WIDTH`].
pub fn fit(command: clap::Command) -> clap::Command {
    let command = match command.get_after_help() {
        Some(text) => {
            let text = fit_text(&text.to_string(), WIDTH);
            command.after_help(text)
        }
        None => command,
    };
    let command = match command.get_after_long_help() {
        Some(text) => {
            let text = fit_text(&text.to_string(), WIDTH);
            command.after_long_help(text)
        }
        None => command,
    };
    command.mut_subcommands(fit)
}

/// Whether a line (trimmed) is a command of an example.
fn is_command(body: &str) -> bool {
    ["botbox ", "cargo ", "export ", "rustup "]
        .iter()
        .any(|c| body.starts_with(c))
}

/// The spaces a line starts with.
fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Every line of `text` fitted to `width` columns. A paragraph of prose (lines of one
/// indentation, or a `- ` item and its indented lines) with a line too long is wrapped again as a
/// whole; one that fits is kept as written.
pub fn fit_text(text: &str, width: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let (indent, body) = (indent_of(line), line.trim_start());
        if body.is_empty() {
            out.push(String::new());
            i += 1;
            continue;
        }
        if is_command(body) {
            // The command and the lines it continues onto.
            let mut end = i;
            while lines[end].trim_end().ends_with('\\') && end + 1 < lines.len() {
                end += 1;
            }
            for (k, part) in lines[i..=end].iter().enumerate() {
                if part.chars().count() <= width {
                    out.push(part.trim_end().to_string());
                } else {
                    let indent = if k == 0 { indent } else { indent_of(part) };
                    fit_command(part, indent, width, &mut out);
                }
            }
            i = end + 1;
            continue;
        }
        let item = body.starts_with("- ");
        let rest = if item { indent + 2 } else { indent };
        let mut end = i + 1;
        while end < lines.len() {
            let next = lines[end];
            let b = next.trim_start();
            if b.is_empty() || is_command(b) || indent_of(next) != rest || b.starts_with("- ") {
                break;
            }
            end += 1;
        }
        let paragraph = &lines[i..end];
        if paragraph.iter().all(|l| l.chars().count() <= width) {
            out.extend(paragraph.iter().map(|l| l.trim_end().to_string()));
        } else {
            let words: Vec<&str> = paragraph
                .iter()
                .flat_map(|l| l.split_whitespace())
                .collect();
            fit_prose(&words, indent, rest, width, &mut out);
        }
        i = end;
    }
    let mut fitted = out.join("\n");
    if text.ends_with('\n') {
        fitted.push('\n');
    }
    fitted
}

/// A command line (with perhaps a `# comment` after it) broken between its words.
fn fit_command(line: &str, indent: usize, width: usize, out: &mut Vec<String>) {
    let (command, comment) = split_comment(line.trim_start());
    let pad = " ".repeat(indent);
    if let Some(comment) = comment {
        let words: Vec<&str> = comment.split_whitespace().collect();
        fit_prose(&words, indent, indent + 2, width, out);
    }
    let command = command.trim_end();
    let (command, ends_continued) = match command.strip_suffix('\\') {
        Some(c) => (c.trim_end(), true),
        None => (command, false),
    };
    let words = words(command);
    let next_pad = " ".repeat(indent + 4);
    let mut current = pad.clone();
    let mut first = true;
    for word in words {
        if first {
            current.push_str(&word);
            first = false;
            continue;
        }
        // Room for the word and, if more follows, the continuation.
        if current.chars().count() + 1 + word.chars().count() + 2 <= width {
            current.push(' ');
            current.push_str(&word);
        } else {
            out.push(format!("{current} \\"));
            current = format!("{next_pad}{word}");
        }
    }
    if ends_continued {
        current.push_str(" \\");
    }
    out.push(current);
}

/// `words` wrapped at `width`: the first line under `first` spaces, the others under `rest`.
fn fit_prose(words: &[&str], first: usize, rest: usize, width: usize, out: &mut Vec<String>) {
    let mut current = " ".repeat(first);
    let mut empty = true;
    for word in words {
        if !empty && current.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::replace(&mut current, " ".repeat(rest)));
            empty = true;
        }
        if !empty {
            current.push(' ');
        }
        current.push_str(word);
        empty = false;
    }
    if !empty {
        out.push(current);
    }
}

/// A command and its trailing comment (`   # what it does`), if it has one outside quotes.
fn split_comment(line: &str) -> (&str, Option<&str>) {
    let mut quote = None;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match (quote, b) {
            (None, b'\'' | b'"') => quote = Some(b),
            (Some(q), _) if b == q => quote = None,
            (None, b'#') if i > 0 && bytes[i - 1] == b' ' => {
                return (&line[..i], Some(line[i..].trim_end()));
            }
            _ => {}
        }
    }
    (line, None)
}

/// A command's words, split at spaces outside quotes (a quoted argument stays one word).
fn words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut quote = None;
    for c in command.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                current.push(c);
            }
            (Some(q), _) if c == q => {
                quote = None;
                current.push(c);
            }
            (None, c) if c.is_whitespace() => {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
            }
            (_, c) => current.push(c),
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    // A flag and its value stay on one line (`--games 20`, not `--games \` and `20`).
    let mut joined: Vec<String> = Vec::with_capacity(words.len());
    for word in words {
        match joined.last_mut() {
            Some(flag)
                if flag.starts_with('-') && !flag.contains(' ') && !word.starts_with('-') =>
            {
                flag.push(' ');
                flag.push_str(&word);
            }
            _ => joined.push(word),
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_command_breaks_between_words_with_continuations() {
        let text = "Examples:\n  botbox match worms strategies/lua/worms/greedy.lua my_bot.wasm --map examples/worms/arena.txt --games 20\n";
        let fitted = fit_text(text, 60);
        let lines: Vec<&str> = fitted.lines().collect();
        assert_eq!(lines[0], "Examples:");
        assert!(lines.iter().all(|l| l.chars().count() <= 60), "{fitted}");
        assert!(lines[1].starts_with("  botbox match") && lines[1].ends_with(" \\"));
        assert!(
            lines.last().unwrap().starts_with("      ") && lines.last().unwrap().ends_with("20")
        );
        // The words are all there, in order.
        let joined: Vec<&str> = fitted
            .lines()
            .skip(1)
            .flat_map(|l| l.split_whitespace())
            .filter(|w| *w != "\\")
            .collect();
        assert_eq!(joined.join(" "), text.lines().nth(1).unwrap().trim());
    }

    #[test]
    fn a_comment_that_does_not_fit_goes_above_its_command_and_quotes_stay_whole() {
        let text = "  botbox league challenge hunter --against 'greedy bot' --games 10   # ten unrated games ahead of the ladder's\n";
        let fitted = fit_text(text, 50);
        let lines: Vec<&str> = fitted.lines().collect();
        assert!(lines[0].starts_with("  # ten unrated"), "{fitted}");
        assert!(fitted.contains("'greedy bot'"), "{fitted}");
        assert!(lines.iter().all(|l| l.chars().count() <= 50), "{fitted}");
        // A short line, or one already continued, is kept as it is.
        let short = "  botbox games\n  botbox tournament dice --players a.lua \\\n      b.lua\n";
        assert_eq!(fit_text(short, 79), short);
    }

    #[test]
    fn prose_wraps_under_its_own_indentation() {
        let text = "  Keys: space plays and pauses, the arrows step, Home and End jump, and the page can also open other files.\n";
        let fitted = fit_text(text, 40);
        assert!(
            fitted.lines().all(|l| l.starts_with("  ") && l.len() <= 40),
            "{fitted}"
        );
        // A paragraph broken by hand at 100 columns is wrapped again as a whole.
        let text = "The games alternate sides (the first strategy moves first in odd-numbered games). A fault\n(error, budget, garbage, illegal move) loses the game.\n\n- an item long enough to need wrapping at this width, it goes on\n  and on\n";
        let fitted = fit_text(text, 40);
        assert!(fitted.lines().all(|l| l.len() <= 40), "{fitted}");
        assert!(
            fitted.contains("A fault (error,") || fitted.contains("fault\n(error"),
            "{fitted}"
        );
        assert!(fitted.contains("\n\n- an item"), "{fitted}");
        assert!(fitted.lines().last().unwrap().starts_with("  "), "{fitted}");
    }
}
