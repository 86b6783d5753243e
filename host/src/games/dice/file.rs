//! The dice file of `docs/dice.md`: a first line with the number n of dice, then one line per die
//! with its number of faces m followed by the m face values.
//!
//! ```text
//! 3
//! 6 1 2 3 4 5 6
//! 6 1 1 1 6 6 6
//! 4 1 2 3 4
//! ```
//!
//! Numbers are whole and not negative; faces may repeat, may be 0 and may exceed 6. Blank lines and
//! extra spaces or tabs are ignored. Every error names the line (counted from 1, blank lines included)
//! and says what is wrong there. Parsing is pure: the caller reads the file.

use super::die::Die;

/// What is wrong with a dice file, and on which line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    #[error("the file is empty: its first line should give the number of dice")]
    Empty,
    #[error("line {line}: {token:?} is not a whole number")]
    NotWholeNumber { line: usize, token: String },
    #[error("line {line}: {token} is negative; counts and faces are whole numbers from 0 up")]
    Negative { line: usize, token: String },
    #[error("line {line}: {token} is too large a number")]
    TooLarge { line: usize, token: String },
    #[error("line {line}: the first line should hold only the number of dice, not {count} numbers")]
    FirstLine { line: usize, count: usize },
    #[error("line {line}: comparing dice needs at least two, but the file announces {count}")]
    TooFewDice { line: usize, count: u64 },
    #[error("line {line}: a die with no faces (m = 0)")]
    EmptyDie { line: usize },
    #[error("line {line}: the die announces {announced} faces but lists {listed}")]
    FaceCount {
        line: usize,
        announced: u64,
        listed: usize,
    },
    #[error(
        "line {line}: the file ends after {found} of the {announced} dice its first line announces"
    )]
    MissingDice {
        line: usize,
        announced: u64,
        found: usize,
    },
    #[error("line {line}: a die beyond the {announced} the first line announces")]
    ExtraDice { line: usize, announced: u64 },
}

/// Parses a dice file's text into its dice, in file order.
pub fn parse(text: &str) -> Result<Vec<Die>, FileError> {
    let mut lines = numbered_lines(text);
    let (line, numbers) = lines.next().transpose()?.ok_or(FileError::Empty)?;
    let announced = match numbers[..] {
        [n] => n,
        _ => {
            let count = numbers.len();
            return Err(FileError::FirstLine { line, count });
        }
    };
    if announced < 2 {
        let count = announced;
        return Err(FileError::TooFewDice { line, count });
    }
    let mut dice = Vec::new();
    let mut last = line;
    for entry in lines {
        let (line, numbers) = entry?;
        if dice.len() as u64 == announced {
            return Err(FileError::ExtraDice { line, announced });
        }
        dice.push(die(line, &numbers)?);
        last = line;
    }
    if (dice.len() as u64) < announced {
        let found = dice.len();
        let line = last + 1;
        return Err(FileError::MissingDice {
            line,
            announced,
            found,
        });
    }
    Ok(dice)
}

/// The non-blank lines with their numbers (from 1) and their parsed numbers.
fn numbered_lines(text: &str) -> impl Iterator<Item = Result<(usize, Vec<u64>), FileError>> + '_ {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(line, l)| {
            let numbers = l.split_whitespace().map(|t| number(line, t));
            numbers.collect::<Result<Vec<_>, _>>().map(|n| (line, n))
        })
}

/// One die line: `m` and then `m` faces.
fn die(line: usize, numbers: &[u64]) -> Result<Die, FileError> {
    let (&announced, faces) = numbers
        .split_first()
        .expect("a non-blank line has a number");
    if announced == 0 {
        return Err(FileError::EmptyDie { line });
    }
    if faces.len() as u64 != announced {
        let listed = faces.len();
        return Err(FileError::FaceCount {
            line,
            announced,
            listed,
        });
    }
    Ok(Die::new(faces.to_vec()).expect("a die with faces"))
}

fn number(line: usize, token: &str) -> Result<u64, FileError> {
    let token_owned = || token.to_string();
    if let Ok(n) = token.parse::<u64>() {
        return Ok(n);
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match token.strip_prefix('-') {
        Some(rest) if digits(rest) => Err(FileError::Negative {
            line,
            token: token_owned(),
        }),
        _ if digits(token.trim_start_matches('+')) => Err(FileError::TooLarge {
            line,
            token: token_owned(),
        }),
        _ => Err(FileError::NotWholeNumber {
            line,
            token: token_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The competition's example, as in `docs/dice.md`.
    const WUERFEL0: &str = "6
6 1 2 3 4 5 6
6 1 1 1 6 6 6
4 1 2 3 4
10 0 1 2 3 4 5 6 7 8 9
12 1 2 3 4 5 6 7 8 9 10 11 12
20 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
";

    fn faces(text: &str) -> Vec<Vec<u64>> {
        let dice = parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        dice.iter().map(|d| d.faces().to_vec()).collect()
    }

    #[test]
    fn reads_the_competition_example() {
        let dice = faces(WUERFEL0);
        assert_eq!(dice.len(), 6);
        assert_eq!(dice[1], [1, 1, 1, 6, 6, 6]);
        assert_eq!(dice[3], (0..10).collect::<Vec<_>>());
        assert_eq!(dice[5].len(), 20);
    }

    #[test]
    fn accepts_blank_lines_spaces_tabs_and_crlf() {
        let cases: &[(&str, &[&[u64]])] = &[
            ("2\n1 0\n2 6 6\n", &[&[0], &[6, 6]]),
            ("\n 2 \r\n\n1\t7\r\n3  1 1  99\n\n", &[&[7], &[1, 1, 99]]),
            ("2\n1 0\n1 100000000000", &[&[0], &[100_000_000_000]]),
        ];
        for &(text, expected) in cases {
            assert_eq!(faces(text), expected, "{text:?}");
        }
    }

    fn check(text: &str, expected: FileError) {
        assert_eq!(parse(text).map(|d| d.len()), Err(expected), "{text:?}");
    }

    fn t(s: &str) -> String {
        s.to_string()
    }

    #[test]
    fn errors_name_the_line_and_the_fault() {
        use FileError::*;
        check("", Empty);
        check("\n  \n", Empty);
        check(
            "two\n",
            NotWholeNumber {
                line: 1,
                token: t("two"),
            },
        );
        check(
            "2\n6 1 2 3 4 5 6\n6 1 2 3.5 4 5 6\n",
            NotWholeNumber {
                line: 3,
                token: t("3.5"),
            },
        );
        check(
            "2\n1 6\n2 1 x\n",
            NotWholeNumber {
                line: 3,
                token: t("x"),
            },
        );
        check(
            "2\n1 6\n2 -1 6\n",
            Negative {
                line: 3,
                token: t("-1"),
            },
        );
        check(
            "-2\n",
            Negative {
                line: 1,
                token: t("-2"),
            },
        );
        check(
            "2\n1 6\n1 99999999999999999999\n",
            TooLarge {
                line: 3,
                token: t("99999999999999999999"),
            },
        );
        check("2 6\n", FirstLine { line: 1, count: 2 });
        check("1\n6 1 2 3 4 5 6\n", TooFewDice { line: 1, count: 1 });
        check("\n0\n", TooFewDice { line: 2, count: 0 });
        check("2\n0\n1 6\n", EmptyDie { line: 2 });
        check(
            "2\n6 1 2 3 4 5\n1 6\n",
            FaceCount {
                line: 2,
                announced: 6,
                listed: 5,
            },
        );
        check(
            "2\n1 6\n2 1 2 3\n",
            FaceCount {
                line: 3,
                announced: 2,
                listed: 3,
            },
        );
        check(
            "3\n1 6\n\n1 6\n",
            MissingDice {
                line: 5,
                announced: 3,
                found: 2,
            },
        );
        check(
            "2\n",
            MissingDice {
                line: 2,
                announced: 2,
                found: 0,
            },
        );
        check(
            "2\n1 6\n1 6\n\n1 6\n",
            ExtraDice {
                line: 5,
                announced: 2,
            },
        );
    }

    #[test]
    fn messages_say_what_is_wrong_where() {
        let err = parse("2\n6 1 2 3\n1 6\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: the die announces 6 faces but lists 3"
        );
        let err = parse("2\n1 6\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3: the file ends after 1 of the 2 dice its first line announces"
        );
    }
}
