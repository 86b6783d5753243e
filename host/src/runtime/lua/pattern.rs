//! Luau's `string.find`, `string.match`, `string.gmatch` and `string.gsub`, ported to Rust so that their
//! pattern matching is charged to the strategy's budget.
//!
//! Luau runs a whole pattern match inside one C call. It does call the interrupt at each entry of its
//! recursive `match`, but not in its scanning loops (a repetition over a long subject, a bracket class of
//! a megabyte, a back-reference, a plain search), so one tick can stand for an unbounded amount of work.
//! Here the matcher is a faithful port of `lstrlib.cpp` (Luau 0.740) over bytes that counts its steps: one
//! per entry of `do_match` and per character a single-character class examines, one per character of a
//! `%b` scan, one per 8 bytes compared, copied or searched (a plain search costs about the subject's
//! length / 8). It charges a [`Meter`] every [`FLUSH_STEPS`] steps and once at the end; when the meter
//! fails, matching stops at once with the meter's error.
//!
//! [`install`] puts the four functions in the string table. Each is a small trusted Luau function
//! (chunk `=botbox.string`) around Rust functions: Luau raises its own errors as strings, which a
//! Rust callback cannot do (mlua wraps every error it returns in a userdata), so the Rust side returns
//! `false, message` and the Luau side calls `error(message, level)` at the level that gives the
//! caller's position, as Luau's `luaL_error` does. `gsub` with a function or a table calls
//! and indexes it from Luau, one match at a time, so the function's errors (of any type) and the table's
//! `__index` behave as with Luau's own `gsub`. The meter's error is returned by the Rust side as it is.

use std::fmt;
use std::rc::Rc;
use std::sync::LazyLock;

use mlua::{AnyUserData, Function, Lua, LuaString, MultiValue, Table, UserData, Value};

/// Luau's `LUAI_MAXCCALLS`: how deep `do_match` may recurse ("pattern too complex").
const MAX_CALLS: u32 = 200;
/// Luau's `LUA_MAXCAPTURES`.
const MAX_CAPTURES: usize = 32;
/// Luau's `MAXSSIZE`: the longest string.
const MAX_STRING: usize = 1 << 30;
const L_ESC: u8 = b'%';
/// A pattern with none of these is searched for as plain text by `find`.
const SPECIALS: &[u8] = b"^$*+?.([%-";
const CAP_UNFINISHED: isize = -1;
const CAP_POSITION: isize = -2;
/// Steps are charged to the meter in batches of at least this many, and once at the end of a call.
pub(crate) const FLUSH_STEPS: u64 = 1024;
/// A growing `gsub` result is checked against the state's memory each time it grows by this much.
const ROOM_STEP: usize = 64 << 10;

/// What pattern matching charges its work to.
pub(crate) trait Meter {
    type Error;
    /// Charges `steps` steps of work; an error stops the matching at once.
    fn charge(&mut self, steps: u64) -> Result<(), Self::Error>;
    /// Called as a `gsub` result grows past each [`ROOM_STEP`]: whether `len` bytes may be held.
    fn room(&mut self, len: usize) -> Result<(), Self::Error> {
        let _ = len;
        Ok(())
    }
}

impl<E, F: FnMut(u64) -> Result<(), E>> Meter for F {
    type Error = E;
    fn charge(&mut self, steps: u64) -> Result<(), E> {
        self(steps)
    }
}

/// An error of Luau's matcher, with Luau's own message as its `Display`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PatternError {
    EndsWithEscape,
    MissingBracket,
    MissingBalanceArguments,
    MissingFrontierBracket,
    /// A back-reference `%n` to a capture that does not exist or is not closed (`n` is 0 to 9).
    InvalidCaptureIndex(u8),
    /// A `)` with no open capture.
    InvalidPatternCapture,
    /// A match ended with a capture still open.
    UnfinishedCapture,
    /// A replacement `%n` beyond the pattern's captures.
    BadCaptureIndex,
    TooManyCaptures,
    TooComplex,
    /// A `%` in a replacement string followed by neither a digit nor `%`.
    BadReplacementEscape,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::EndsWithEscape => f.write_str("malformed pattern (ends with '%')"),
            PatternError::MissingBracket => f.write_str("malformed pattern (missing ']')"),
            PatternError::MissingBalanceArguments => {
                f.write_str("malformed pattern (missing arguments to '%b')")
            }
            PatternError::MissingFrontierBracket => {
                f.write_str("missing '[' after '%f' in pattern")
            }
            PatternError::InvalidCaptureIndex(n) => write!(f, "invalid capture index %{n}"),
            PatternError::InvalidPatternCapture => f.write_str("invalid pattern capture"),
            PatternError::UnfinishedCapture => f.write_str("unfinished capture"),
            PatternError::BadCaptureIndex => f.write_str("invalid capture index"),
            PatternError::TooManyCaptures => f.write_str("too many captures"),
            PatternError::TooComplex => f.write_str("pattern too complex"),
            PatternError::BadReplacementEscape => {
                f.write_str("invalid use of '%' in replacement string")
            }
        }
    }
}

/// Why a matching function failed: the pattern, or the meter (its own error).
#[derive(Debug)]
pub(crate) enum Error<E> {
    Pattern(PatternError),
    Meter(E),
}

/// One captured value: a span of the subject (0-based, end exclusive) or a position capture `()`
/// (1-based, as Luau returns it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cap {
    Span(usize, usize),
    Position(usize),
}

/// A successful match: its span (0-based, end exclusive) and its captures.
#[derive(Debug, Clone)]
pub(crate) struct Match {
    pub(crate) start: usize,
    pub(crate) end: usize,
    level: usize,
    capture: [(usize, isize); MAX_CAPTURES],
}

impl Match {
    /// How many values Luau returns for the captures: with `whole` (`match`, `gmatch`, `gsub`) the whole
    /// match stands for a pattern without captures; without it (`find`) only the captures count.
    pub(crate) fn count(&self, whole: bool) -> usize {
        if self.level == 0 && whole {
            1
        } else {
            self.level
        }
    }

    /// Capture `i` (0-based) as Luau's `push_onecapture` gives it.
    pub(crate) fn get(&self, i: usize) -> Result<Cap, PatternError> {
        one_capture(self.level, &self.capture, i, self.start, self.end)
    }
}

fn one_capture(
    level: usize,
    capture: &[(usize, isize)],
    i: usize,
    s: usize,
    e: usize,
) -> Result<Cap, PatternError> {
    if i >= level {
        if i == 0 {
            Ok(Cap::Span(s, e))
        } else {
            Err(PatternError::BadCaptureIndex)
        }
    } else {
        let (init, len) = capture[i];
        match len {
            CAP_UNFINISHED => Err(PatternError::UnfinishedCapture),
            CAP_POSITION => Ok(Cap::Position(init + 1)),
            len => Ok(Cap::Span(init, init + len.unsigned_abs())),
        }
    }
}

/// Why matching stopped early; a meter's error waits in [`Metering::failed`].
#[derive(Debug, Clone, Copy)]
enum Stop {
    Pattern(PatternError),
    Meter,
}

impl From<PatternError> for Stop {
    fn from(e: PatternError) -> Stop {
        Stop::Pattern(e)
    }
}

/// Counts steps locally and charges them to the meter in batches.
struct Metering<'m, M: Meter> {
    meter: &'m mut M,
    pending: u64,
    /// Bytes not yet charged (a step per 8).
    bytes: u64,
    failed: Option<M::Error>,
}

impl<'m, M: Meter> Metering<'m, M> {
    fn new(meter: &'m mut M) -> Self {
        Metering {
            meter,
            pending: 0,
            bytes: 0,
            failed: None,
        }
    }

    #[inline(always)]
    fn steps(&mut self, n: u64) -> Result<(), Stop> {
        self.pending += n;
        if self.pending >= FLUSH_STEPS {
            self.flush()
        } else {
            Ok(())
        }
    }

    /// Charges for `n` bytes searched, compared or copied: a step per 8.
    #[inline]
    fn bytes(&mut self, n: usize) -> Result<(), Stop> {
        self.bytes += n as u64;
        if self.bytes >= 8 {
            let steps = self.bytes / 8;
            self.bytes %= 8;
            self.steps(steps)
        } else {
            Ok(())
        }
    }

    #[inline(never)]
    fn flush(&mut self) -> Result<(), Stop> {
        let n = std::mem::take(&mut self.pending);
        if n == 0 {
            return Ok(());
        }
        self.meter.charge(n).map_err(|e| {
            self.failed = Some(e);
            Stop::Meter
        })
    }

    fn room(&mut self, len: usize) -> Result<(), Stop> {
        self.meter.room(len).map_err(|e| {
            self.failed = Some(e);
            Stop::Meter
        })
    }

    /// Ends a call: charges what is pending and turns a stop into its error (the meter's first).
    fn finish<T>(mut self, r: Result<T, Stop>) -> Result<T, Error<M::Error>> {
        let flushed = match r {
            Err(Stop::Meter) => Err(Stop::Meter),
            _ => self.flush(),
        };
        match (r, flushed) {
            (Ok(v), Ok(())) => Ok(v),
            (Err(Stop::Pattern(e)), Ok(())) => Err(Error::Pattern(e)),
            _ => Err(Error::Meter(
                self.failed
                    .take()
                    .expect("a meter stop keeps the meter's error"),
            )),
        }
    }
}

/// Luau's `MatchState`: the subject, the pattern (without a leading `^` anchor) and the captures.
struct MatchState<'a, 'm, M: Meter> {
    src: &'a [u8],
    pat: &'a [u8],
    /// Luau's `matchdepth`: recursion levels left.
    depth: u32,
    level: usize,
    capture: [(usize, isize); MAX_CAPTURES],
    metering: Metering<'m, M>,
}

impl<'a, 'm, M: Meter> MatchState<'a, 'm, M> {
    fn new(src: &'a [u8], pat: &'a [u8], meter: &'m mut M) -> Self {
        MatchState {
            src,
            pat,
            depth: MAX_CALLS,
            level: 0,
            capture: [(0, 0); MAX_CAPTURES],
            metering: Metering::new(meter),
        }
    }

    /// The pattern byte at `i`, and 0 at its end, as C reads the terminating NUL.
    #[inline(always)]
    fn p(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    fn class_end(&self, p: usize) -> Result<usize, PatternError> {
        let plen = self.pat.len();
        let c = self.p(p);
        let mut p = p + 1;
        match c {
            L_ESC => {
                if p >= plen {
                    Err(PatternError::EndsWithEscape)
                } else {
                    Ok(p + 1)
                }
            }
            b'[' => {
                if self.p(p) == b'^' {
                    p += 1;
                }
                loop {
                    // look for a `]'
                    if p >= plen {
                        return Err(PatternError::MissingBracket);
                    }
                    let c = self.pat[p];
                    p += 1;
                    if c == L_ESC && p < plen {
                        p += 1; // skip escapes (e.g. `%]')
                    }
                    if self.p(p) == b']' {
                        return Ok(p + 1);
                    }
                }
            }
            _ => Ok(p),
        }
    }

    #[inline]
    fn single_match(&mut self, s: usize, p: usize, ep: usize) -> Result<bool, Stop> {
        self.metering.steps(1)?;
        let Some(&c) = self.src.get(s) else {
            return Ok(false);
        };
        Ok(match self.pat[p] {
            b'.' => true,
            L_ESC => match_class(c, self.p(p + 1)),
            b'[' => {
                self.metering.bytes(ep - p)?;
                match_bracket_class(self.pat, c, p, ep - 1)
            }
            pc => pc == c,
        })
    }

    fn match_balance(&mut self, s: usize, p: usize) -> Result<Option<usize>, Stop> {
        if p + 1 >= self.pat.len() {
            return Err(PatternError::MissingBalanceArguments.into());
        }
        if self.src.get(s) != Some(&self.pat[p]) {
            return Ok(None);
        }
        let (b, e) = (self.pat[p], self.pat[p + 1]);
        let mut cont = 1u32;
        for i in s + 1..self.src.len() {
            self.metering.steps(1)?;
            let c = self.src[i];
            if c == e {
                cont -= 1;
                if cont == 0 {
                    return Ok(Some(i + 1));
                }
            } else if c == b {
                cont += 1;
            }
        }
        Ok(None) // string ends out of balance
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>, Stop> {
        let mut i = 0;
        while self.single_match(s + i, p, ep)? {
            i += 1;
        }
        // keeps trying to match with the maximum repetitions
        loop {
            if let Some(res) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(res));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    fn min_expand(&mut self, mut s: usize, p: usize, ep: usize) -> Result<Option<usize>, Stop> {
        loop {
            if let Some(res) = self.do_match(s, ep + 1)? {
                return Ok(Some(res));
            } else if self.single_match(s, p, ep)? {
                s += 1; // try with one more repetition
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: isize) -> Result<Option<usize>, Stop> {
        let level = self.level;
        if level >= MAX_CAPTURES {
            return Err(PatternError::TooManyCaptures.into());
        }
        self.capture[level] = (s, what);
        self.level = level + 1;
        let res = self.do_match(s, p)?;
        if res.is_none() {
            self.level -= 1; // undo capture
        }
        Ok(res)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>, Stop> {
        let l = (0..self.level)
            .rev()
            .find(|&l| self.capture[l].1 == CAP_UNFINISHED)
            .ok_or(PatternError::InvalidPatternCapture)?;
        self.capture[l].1 = (s - self.capture[l].0) as isize; // close capture
        let res = self.do_match(s, p)?;
        if res.is_none() {
            self.capture[l].1 = CAP_UNFINISHED; // undo capture
        }
        Ok(res)
    }

    fn match_capture(&mut self, s: usize, digit: u8) -> Result<Option<usize>, Stop> {
        let l = usize::from(digit.wrapping_sub(b'1'));
        if digit < b'1' || l >= self.level || self.capture[l].1 == CAP_UNFINISHED {
            return Err(PatternError::InvalidCaptureIndex(digit - b'0').into());
        }
        let (init, len) = self.capture[l];
        // A position capture's length, read as a size_t, is never available: no match.
        let Ok(len) = usize::try_from(len) else {
            return Ok(None);
        };
        if self.src.len() - s < len {
            return Ok(None);
        }
        let same = common_prefix(&self.src[init..init + len], &self.src[s..s + len]);
        self.metering.bytes(same + 1)?;
        Ok((same == len).then_some(s + len))
    }

    fn do_match(&mut self, s: usize, p: usize) -> Result<Option<usize>, Stop> {
        if self.depth == 0 {
            return Err(PatternError::TooComplex.into());
        }
        self.depth -= 1;
        let res = self.match_here(s, p);
        self.depth += 1;
        res
    }

    /// The body of Luau's `match`, its tail calls (`goto init`) as a loop.
    fn match_here(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>, Stop> {
        let plen = self.pat.len();
        loop {
            self.metering.steps(1)?;
            if p == plen {
                return Ok(Some(s)); // end of pattern
            }
            match self.pat[p] {
                b'(' => {
                    return if self.p(p + 1) == b')' {
                        self.start_capture(s, p + 2, CAP_POSITION)
                    } else {
                        self.start_capture(s, p + 1, CAP_UNFINISHED)
                    };
                }
                b')' => return self.end_capture(s, p + 1),
                b'$' if p + 1 == plen => {
                    return Ok((s == self.src.len()).then_some(s));
                }
                L_ESC if self.p(p + 1) == b'b' => match self.match_balance(s, p + 2)? {
                    Some(e) => {
                        s = e;
                        p += 4;
                    }
                    None => return Ok(None),
                },
                L_ESC if self.p(p + 1) == b'f' => {
                    p += 2;
                    if self.p(p) != b'[' {
                        return Err(PatternError::MissingFrontierBracket.into());
                    }
                    let ep = self.class_end(p)?;
                    self.metering.bytes(2 * (ep - p))?;
                    let previous = if s == 0 { 0 } else { self.src[s - 1] };
                    let current = self.src.get(s).copied().unwrap_or(0);
                    if !match_bracket_class(self.pat, previous, p, ep - 1)
                        && match_bracket_class(self.pat, current, p, ep - 1)
                    {
                        p = ep;
                    } else {
                        return Ok(None);
                    }
                }
                L_ESC if self.p(p + 1).is_ascii_digit() => {
                    match self.match_capture(s, self.pat[p + 1])? {
                        Some(e) => {
                            s = e;
                            p += 2;
                        }
                        None => return Ok(None),
                    }
                }
                _ => {
                    // pattern class plus optional suffix
                    let ep = self.class_end(p)?;
                    let suffix = self.p(ep);
                    if !self.single_match(s, p, ep)? {
                        if suffix == b'*' || suffix == b'?' || suffix == b'-' {
                            p = ep + 1; // accept empty
                        } else {
                            return Ok(None); // '+' or no suffix
                        }
                    } else {
                        match suffix {
                            b'?' => {
                                if let Some(res) = self.do_match(s + 1, ep + 1)? {
                                    return Ok(Some(res));
                                }
                                p = ep + 1;
                            }
                            b'+' => return self.max_expand(s + 1, p, ep),
                            b'*' => return self.max_expand(s, p, ep),
                            b'-' => return self.min_expand(s, p, ep),
                            _ => {
                                s += 1;
                                p = ep;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Tries the pattern at `s` with no captures yet (Luau's `reprepstate` then `match`).
    fn match_at(&mut self, s: usize) -> Result<Option<usize>, Stop> {
        self.level = 0;
        self.do_match(s, 0)
    }

    /// The match just found, charged for the bytes its values will copy.
    fn take_match(&mut self, s: usize, e: usize, whole: bool) -> Result<Match, Stop> {
        let level = self.level;
        let copied = if level == 0 {
            if whole { e - s } else { 0 }
        } else {
            self.capture[..level]
                .iter()
                .map(|&(_, len)| usize::try_from(len).unwrap_or(0))
                .sum()
        };
        self.metering.bytes(copied)?;
        let mut capture = [(0, 0); MAX_CAPTURES];
        capture[..level].copy_from_slice(&self.capture[..level]);
        Ok(Match {
            start: s,
            end: e,
            level,
            capture,
        })
    }

    fn finish<T>(self, r: Result<T, Stop>) -> Result<T, Error<M::Error>> {
        self.metering.finish(r)
    }
}

/// C's `isalpha`, `isdigit`, ... in the "C" locale, for Luau's `match_class`.
fn match_class(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c < 0x20 || c == 0x7f,
        b'd' => c.is_ascii_digit(),
        b'g' => (0x21..=0x7e).contains(&c),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => c == b' ' || (0x09..=0x0d).contains(&c),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0, // deprecated option
        _ => return cl == c,
    };
    if cl.is_ascii_lowercase() { res } else { !res }
}

/// Whether `c` is in the class `[...]` from `p` (its `[`) to `ec` (its `]`).
fn match_bracket_class(pat: &[u8], c: u8, mut p: usize, ec: usize) -> bool {
    let at = |i: usize| pat.get(i).copied().unwrap_or(0);
    let mut sig = true;
    if at(p + 1) == b'^' {
        sig = false;
        p += 1; // skip the `^'
    }
    loop {
        p += 1;
        if p >= ec {
            return !sig;
        }
        if pat[p] == L_ESC {
            p += 1;
            if match_class(c, at(p)) {
                return sig;
            }
        } else if at(p + 1) == b'-' && p + 2 < ec {
            p += 2;
            if pat[p - 2] <= c && c <= pat[p] {
                return sig;
            }
        } else if pat[p] == c {
            return sig;
        }
    }
}

/// How many leading bytes `a` and `b` (of the same length) share.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 16 <= n && a[i..i + 16] == b[i..i + 16] {
        i += 16;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// Luau's `lmemfind`: where `needle` first occurs in `hay`.
fn mem_find<M: Meter>(
    hay: &[u8],
    needle: &[u8],
    metering: &mut Metering<'_, M>,
) -> Result<Option<usize>, Stop> {
    let Some((&first, rest)) = needle.split_first() else {
        return Ok(Some(0)); // empty strings are everywhere
    };
    if needle.len() > hay.len() {
        return Ok(None);
    }
    let starts = hay.len() - rest.len(); // `needle' cannot start after that
    let mut base = 0;
    while base < starts {
        let Some(offset) = hay[base..starts].iter().position(|&b| b == first) else {
            metering.bytes(starts - base)?;
            return Ok(None);
        };
        let at = base + offset;
        let same = common_prefix(&hay[at + 1..at + 1 + rest.len()], rest);
        metering.bytes(offset + 1 + same)?;
        if same == rest.len() {
            return Ok(Some(at));
        }
        base = at + 1;
    }
    Ok(None)
}

/// Luau's `posrelat`: a position counted back from the end when negative, at least 0.
fn posrelat(pos: i32, len: usize) -> i64 {
    let mut pos = i64::from(pos);
    if pos < 0 {
        pos += len as i64 + 1;
    }
    pos.max(0)
}

/// Luau's `str_find_aux` once its arguments are read: `find` (`find` true) or `match` of `pat` in `src`
/// from `init` (the raw argument, 1-based, negative from the end); `plain` is `find`'s 4th argument.
/// `None` is Luau's `nil`.
pub(crate) fn find<M: Meter>(
    src: &[u8],
    pat: &[u8],
    init: i32,
    plain: bool,
    find: bool,
    meter: &mut M,
) -> Result<Option<Match>, Error<M::Error>> {
    let ls = src.len();
    let init = match posrelat(init, ls) {
        0 => 1,
        i if i > ls as i64 + 1 => return Ok(None), // start after string's end: cannot find anything
        i => i,
    };
    let s1 = (init - 1) as usize;
    if find && plain {
        return plain_find(src, pat, s1, 0, meter);
    }
    // `nospecials`: a scan of the pattern, charged to whichever search follows.
    if find && !pat.iter().any(|c| SPECIALS.contains(c)) {
        return plain_find(src, pat, s1, pat.len(), meter);
    }
    let anchor = pat.first() == Some(&b'^');
    let pat = if anchor { &pat[1..] } else { pat };
    let mut ms = MatchState::new(src, pat, meter);
    let r = (|| {
        if find {
            ms.metering.bytes(pat.len())?; // the `nospecials` scan
        }
        let mut s1 = s1;
        loop {
            if let Some(e) = ms.match_at(s1)? {
                return ms.take_match(s1, e, !find).map(Some);
            }
            if s1 >= ls || anchor {
                return Ok(None);
            }
            s1 += 1;
        }
    })();
    ms.finish(r)
}

fn plain_find<M: Meter>(
    src: &[u8],
    pat: &[u8],
    s1: usize,
    scanned: usize,
    meter: &mut M,
) -> Result<Option<Match>, Error<M::Error>> {
    let mut metering = Metering::new(meter);
    let r = metering
        .bytes(scanned)
        .and_then(|()| mem_find(&src[s1..], pat, &mut metering));
    let r = r.map(|at| {
        at.map(|at| Match {
            start: s1 + at,
            end: s1 + at + pat.len(),
            level: 0,
            capture: [(0, 0); MAX_CAPTURES],
        })
    });
    metering.finish(r)
}

/// One call of Luau's `gmatch` iterator (`gmatch_aux`): the next match of `pat` in `src` from `pos`
/// (0-based) and where the next call starts. The pattern is used as it is: a leading `^` is a literal.
pub(crate) fn gmatch_step<M: Meter>(
    src: &[u8],
    pat: &[u8],
    pos: usize,
    meter: &mut M,
) -> Result<Option<(usize, Match)>, Error<M::Error>> {
    let mut ms = MatchState::new(src, pat, meter);
    let r = (|| {
        for s in pos..=src.len() {
            if let Some(e) = ms.match_at(s)? {
                // an empty match goes at least one position on
                let next = if e == s { e + 1 } else { e };
                return ms.take_match(s, e, true).map(|m| Some((next, m)));
            }
        }
        Ok(None)
    })();
    ms.finish(r)
}

/// A growing `gsub` result, checked against the meter's room as it grows.
#[derive(Debug, Default)]
struct Out {
    buf: Vec<u8>,
    /// The length past which the room is checked next.
    mark: usize,
}

impl Out {
    fn new() -> Out {
        Out {
            buf: Vec::new(),
            mark: ROOM_STEP,
        }
    }

    #[inline]
    fn extend<M: Meter>(
        &mut self,
        bytes: &[u8],
        metering: &mut Metering<'_, M>,
    ) -> Result<(), Stop> {
        metering.bytes(bytes.len())?;
        self.buf.extend_from_slice(bytes);
        self.check(metering)
    }

    #[inline]
    fn push<M: Meter>(&mut self, byte: u8, metering: &mut Metering<'_, M>) -> Result<(), Stop> {
        self.buf.push(byte);
        self.check(metering)
    }

    #[inline]
    fn check<M: Meter>(&mut self, metering: &mut Metering<'_, M>) -> Result<(), Stop> {
        if self.buf.len() > self.mark {
            metering.room(self.buf.len())?;
            self.mark = self.buf.len() + ROOM_STEP;
        }
        Ok(())
    }
}

/// Luau's `add_s`: appends the replacement string `repl` for the match `s..e` (`%0` to `%9`, `%%`).
fn add_s<M: Meter>(
    out: &mut Out,
    src: &[u8],
    repl: &[u8],
    level: usize,
    capture: &[(usize, isize)],
    (s, e): (usize, usize),
    metering: &mut Metering<'_, M>,
) -> Result<(), Stop> {
    metering.bytes(repl.len())?;
    let mut i = 0;
    while i < repl.len() {
        if repl[i] != L_ESC {
            let run = repl[i..]
                .iter()
                .position(|&c| c == L_ESC)
                .unwrap_or(repl.len() - i);
            out.extend(&repl[i..i + run], metering)?;
            i += run;
            continue;
        }
        i += 1; // skip ESC
        let d = repl.get(i).copied().unwrap_or(0);
        if !d.is_ascii_digit() {
            if d != L_ESC {
                return Err(PatternError::BadReplacementEscape.into());
            }
            out.push(d, metering)?;
        } else if d == b'0' {
            out.extend(&src[s..e], metering)?;
        } else {
            match one_capture(level, capture, usize::from(d - b'1'), s, e)? {
                Cap::Span(a, b) => out.extend(&src[a..b], metering)?,
                Cap::Position(at) => out.extend(decimal(at, &mut [0; 20]), metering)?,
            }
        }
        i += 1;
    }
    Ok(())
}

/// `n` in decimal, written into `buf`.
fn decimal(mut n: usize, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

/// Luau's `str_gsub` with a replacement string (`repl`; a number converted to a string) once its
/// arguments are read: the result and the number of matches. `max` is the 4th argument (Luau's default
/// is the subject's length + 1).
pub(crate) fn gsub<M: Meter>(
    src: &[u8],
    pat: &[u8],
    repl: &[u8],
    max: i32,
    meter: &mut M,
) -> Result<(Vec<u8>, i32), Error<M::Error>> {
    let anchor = pat.first() == Some(&b'^');
    let pat = if anchor { &pat[1..] } else { pat };
    let mut ms = MatchState::new(src, pat, meter);
    let mut out = Out::new();
    let r = (|| {
        let (mut s, mut n) = (0, 0);
        while n < max {
            let e = ms.match_at(s)?;
            if let Some(e) = e {
                n += 1;
                add_s(
                    &mut out,
                    src,
                    repl,
                    ms.level,
                    &ms.capture,
                    (s, e),
                    &mut ms.metering,
                )?;
            }
            match e {
                Some(e) if e > s => s = e, // non empty match: skip it
                _ if s < src.len() => {
                    out.push(src[s], &mut ms.metering)?;
                    s += 1;
                }
                _ => break,
            }
            if anchor {
                break;
            }
        }
        out.extend(&src[s..], &mut ms.metering)?;
        Ok(n)
    })();
    let n = ms.finish(r)?;
    Ok((out.buf, n))
}

/// `gsub` one match at a time, for a replacement function or table that is called or indexed between
/// the steps: [`Gsub::next`] appends the previous match's replacement and finds the next match (copying
/// what it passes over); once it says there are no more, [`Gsub::finish`] gives the result.
#[derive(Debug)]
pub(crate) struct Gsub {
    pos: usize,
    n: i32,
    max: i32,
    anchor: bool,
    /// The match waiting for its replacement.
    last: Option<(usize, usize)>,
    done: bool,
    out: Out,
}

impl Gsub {
    /// For the pattern `pat` (the whole argument, anchor included) and the maximum count `max`.
    pub(crate) fn new(pat: &[u8], max: i32) -> Gsub {
        Gsub {
            pos: 0,
            n: 0,
            max,
            anchor: pat.first() == Some(&b'^'),
            last: None,
            done: false,
            out: Out::new(),
        }
    }

    /// Appends `replacement` for the previous match, if any (`None` keeps the match itself, as Luau
    /// keeps the original text for `nil` and `false`), then finds the next match of `pat` (the same as
    /// given to [`Gsub::new`]) in `src`: `None` at the end.
    pub(crate) fn next<M: Meter>(
        &mut self,
        src: &[u8],
        pat: &[u8],
        replacement: Option<&[u8]>,
        meter: &mut M,
    ) -> Result<Option<Match>, Error<M::Error>> {
        if self.done {
            return Ok(None);
        }
        let pat = if self.anchor { &pat[1..] } else { pat };
        let mut ms = MatchState::new(src, pat, meter);
        let r = self
            .put(src, replacement, &mut ms.metering)
            .and_then(|()| self.next_in(&mut ms));
        ms.finish(r)
    }

    fn put<M: Meter>(
        &mut self,
        src: &[u8],
        replacement: Option<&[u8]>,
        metering: &mut Metering<'_, M>,
    ) -> Result<(), Stop> {
        match (replacement, self.last) {
            (_, None) => Ok(()),
            (Some(bytes), Some(_)) => self.out.extend(bytes, metering),
            (None, Some((s, e))) => self.out.extend(&src[s..e], metering),
        }
    }

    fn next_in<M: Meter>(&mut self, ms: &mut MatchState<'_, '_, M>) -> Result<Option<Match>, Stop> {
        let src = ms.src;
        if let Some((_, e)) = self.last.take()
            && !self.advance(src, Some(e), &mut ms.metering)?
        {
            return self.end(src, &mut ms.metering);
        }
        while self.n < self.max {
            match ms.match_at(self.pos)? {
                Some(e) => {
                    self.n += 1;
                    self.last = Some((self.pos, e));
                    return ms.take_match(self.pos, e, true).map(Some);
                }
                None => {
                    if !self.advance(src, None, &mut ms.metering)? {
                        break;
                    }
                }
            }
        }
        self.end(src, &mut ms.metering)
    }

    /// Moves past the match that ended at `e` (or past no match): whether to go on.
    fn advance<M: Meter>(
        &mut self,
        src: &[u8],
        e: Option<usize>,
        metering: &mut Metering<'_, M>,
    ) -> Result<bool, Stop> {
        match e {
            Some(e) if e > self.pos => self.pos = e, // non empty match: skip it
            _ if self.pos < src.len() => {
                self.out.push(src[self.pos], metering)?;
                self.pos += 1;
            }
            _ => return Ok(false),
        }
        Ok(!self.anchor)
    }

    fn end<M: Meter>(
        &mut self,
        src: &[u8],
        metering: &mut Metering<'_, M>,
    ) -> Result<Option<Match>, Stop> {
        self.done = true;
        self.out.extend(&src[self.pos..], metering)?;
        Ok(None)
    }

    /// The result and the number of matches.
    pub(crate) fn finish(self) -> (Vec<u8>, i32) {
        (self.out.buf, self.n)
    }
}

// ------------------------------------------------------------------------------------------------
// The Lua side.

/// The trusted Luau side of the four functions: it raises the errors the Rust side reports as
/// `false, message`, and drives `gsub` with a function or a table.
const SHIM: &str = r#"
local find_, match_, gmatch_args, gmatch_next, gsub_, gsub_next, error = ...
-- `select` stays a global: Luau's compiler makes `select('#', ...)` a fast built-in call (the globals
-- are read-only once the sandbox is closed).

-- Luau's C functions raise at the position of their caller (`luaL_where(L, 1)`): `error(m, 2)` from
-- the function the strategy called, `error(m, 3)` from a helper that function called (Luau has no tail
-- calls, so the frames stay). The argument count tells a missing argument from a nil one.

local function results(first, ...)
  if first == false then error((...), 3) end
  return first, ...
end

local function find(...)
  return results(find_(select('#', ...), ...))
end

local function match(...)
  return results(match_(select('#', ...), ...))
end

local function gmatch(...)
  local s, p = gmatch_args(select('#', ...), ...)
  if s == false then error(p, 2) end
  local pos = 0
  local function step(next, ...)
    if next == nil then return end
    if next == false then error((...), 3) end
    pos = next
    return ...
  end
  return function()
    return step(gmatch_next(s, p, pos))
  end
end

-- `gsub_next(state, value)` appends `value`, the replacement of the previous match, then finds the
-- next one: `true, captures...`, or `nil, result, count` at the end.
local function call(f, more, ...)
  if more then return true, (f(...)) end
  if more == false then error((...), 3) end
  return false, ...
end

local function index(t, more, key, n)
  if more then return true, t[key] end
  if more == false then error(key, 3) end
  return false, key, n
end

local function gsub(...)
  local mode, state, repl = gsub_(select('#', ...), ...)
  if mode == 0 then return state, repl end
  if mode == false then error(state, 2) end
  local go, value, n
  if mode == 1 then
    go, value = call(repl, gsub_next(state, nil))
    while go do go, value, n = call(repl, gsub_next(state, value)) end
  else
    go, value = index(repl, gsub_next(state, nil))
    while go do go, value, n = index(repl, gsub_next(state, value)) end
  end
  return value, n
end

return find, match, gmatch, gsub
"#;

/// The meter `install` is given.
type LuaMeterFn = Rc<dyn Fn(u64) -> mlua::Result<()>>;

/// Replaces `find`, `match`, `gmatch` and `gsub` in `string_lib` (raw sets: call it before the sandbox
/// makes the table read-only) by metered ports with Luau's behaviour; `meter(steps)` is charged as they
/// work, and its error ends the call as it is.
pub(crate) fn install(lua: &Lua, string_lib: &Table, meter: LuaMeterFn) -> mlua::Result<()> {
    let glue = Rc::new(Glue {
        meter,
        type_of: lua.globals().raw_get::<Option<Function>>("typeof")?,
    });
    let library = |f: fn(&Lua, &Glue, Args) -> Result<MultiValue, Fail>, name: &'static str| {
        let glue = glue.clone();
        lua.create_function(move |lua, (count, a, b, c, d): ArgValues| {
            let args = Args {
                lua,
                glue: &glue,
                name,
                count: usize::try_from(count).unwrap_or(0),
                values: [a, b, c, d],
            };
            raising(lua, f(lua, &glue, args))
        })
    };
    let next = {
        let glue = glue.clone();
        lua.create_function(move |lua, (s, p, pos): (LuaString, LuaString, i64)| {
            raising(lua, gmatch_next(lua, &glue, &s, &p, pos))
        })?
    };
    let step = {
        let glue = glue.clone();
        lua.create_function(move |lua, (state, value): (AnyUserData, Value)| {
            raising(lua, gsub_next(lua, &glue, &state, value))
        })?
    };
    let globals = lua.globals();
    static SHIM_CODE: LazyLock<Vec<u8>> = LazyLock::new(|| super::compile_trusted(SHIM));
    let (find, match_, gmatch, gsub): (Function, Function, Function, Function) =
        super::load_trusted(lua, "=botbox.string", &SHIM_CODE)?.call((
            library(|lua, g, args| find_or_match(lua, g, args, true), "find")?,
            library(|lua, g, args| find_or_match(lua, g, args, false), "match")?,
            library(gmatch_args, "gmatch")?,
            next,
            library(gsub_start, "gsub")?,
            step,
            globals.raw_get::<Function>("error")?,
        ))?;
    string_lib.raw_set("find", find)?;
    string_lib.raw_set("match", match_)?;
    string_lib.raw_set("gmatch", gmatch)?;
    string_lib.raw_set("gsub", gsub)?;
    Ok(())
}

/// What the trusted side passes a library function: the argument count and the first four.
type ArgValues = (i32, Value, Value, Value, Value);

struct Glue {
    meter: LuaMeterFn,
    /// Luau's `typeof`, for the type names of userdata in argument errors.
    type_of: Option<Function>,
}

/// How a Rust side fails: with a Luau error message the Luau side raises, or with the host's error.
enum Fail {
    Raise(String),
    Host(mlua::Error),
}

impl From<mlua::Error> for Fail {
    fn from(e: mlua::Error) -> Fail {
        Fail::Host(e)
    }
}

impl From<Error<Fail>> for Fail {
    fn from(e: Error<Fail>) -> Fail {
        match e {
            Error::Pattern(e) => Fail::Raise(e.to_string()),
            Error::Meter(f) => f,
        }
    }
}

impl From<PatternError> for Fail {
    fn from(e: PatternError) -> Fail {
        Fail::Raise(e.to_string())
    }
}

fn raising(lua: &Lua, r: Result<MultiValue, Fail>) -> mlua::Result<MultiValue> {
    match r {
        Ok(values) => Ok(values),
        Err(Fail::Raise(message)) => Ok(MultiValue::from_vec(vec![
            Value::Boolean(false),
            Value::String(lua.create_string(&message)?),
        ])),
        Err(Fail::Host(e)) => Err(e),
    }
}

/// The glue's meter: the host's, and the state's memory for a growing `gsub` result.
struct LuaMeter<'a> {
    lua: &'a Lua,
    meter: &'a dyn Fn(u64) -> mlua::Result<()>,
}

impl<'a> LuaMeter<'a> {
    fn new(lua: &'a Lua, glue: &'a Glue) -> Self {
        LuaMeter {
            lua,
            meter: &*glue.meter,
        }
    }
}

impl Meter for LuaMeter<'_> {
    type Error = Fail;

    fn charge(&mut self, steps: u64) -> Result<(), Fail> {
        (self.meter)(steps).map_err(Fail::Host)
    }

    /// The result would become a Lua string: Luau builds it in the state's memory, under its limit.
    fn room(&mut self, len: usize) -> Result<(), Fail> {
        // mlua reads the limit only by setting it; it is set back at once.
        let left = match self.lua.set_memory_limit(0) {
            Ok(0) => MAX_STRING,
            Ok(limit) => {
                self.lua.set_memory_limit(limit)?;
                limit.saturating_sub(self.lua.used_memory())
            }
            Err(_) => MAX_STRING,
        };
        if len > left.min(MAX_STRING) {
            Err(Fail::Raise("not enough memory".into()))
        } else {
            Ok(())
        }
    }
}

/// A library function's arguments, checked as Luau's `luaL_check*` functions check them.
struct Args<'a> {
    lua: &'a Lua,
    glue: &'a Glue,
    name: &'static str,
    /// How many arguments the call had (a missing argument is not a nil one).
    count: usize,
    values: [Value; 4],
}

impl Args<'_> {
    fn get(&self, i: usize) -> Option<&Value> {
        if i <= self.count {
            self.values.get(i - 1)
        } else {
            None
        }
    }

    /// `luaL_checklstring`: a string, or a number converted as Luau converts it.
    fn string(&self, i: usize) -> Result<LuaString, Fail> {
        match self.get(i) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(v @ (Value::Integer(_) | Value::Number(_))) => {
                match self.lua.coerce_string(v.clone())? {
                    Some(s) => Ok(s),
                    None => Err(self.type_error(i, "string")),
                }
            }
            _ => Err(self.type_error(i, "string")),
        }
    }

    /// `luaL_optinteger`: `default` for none or nil; a number or a numeric string, converted to a C
    /// `int` as Luau converts it.
    fn opt_int(&self, i: usize, default: i32) -> Result<i32, Fail> {
        match self.get(i) {
            None | Some(Value::Nil) => Ok(default),
            Some(Value::Integer(n)) => Ok(i32::try_from(*n).unwrap_or_else(|_| c_int(*n as f64))),
            Some(Value::Number(n)) => Ok(c_int(*n)),
            Some(v @ Value::String(_)) => match self.lua.coerce_number(v.clone())? {
                Some(n) => Ok(c_int(n)),
                None => Err(self.type_error(i, "number")),
            },
            Some(_) => Err(self.type_error(i, "number")),
        }
    }

    /// `lua_toboolean`.
    fn truthy(&self, i: usize) -> bool {
        !matches!(self.get(i), None | Some(Value::Nil | Value::Boolean(false)))
    }

    /// Luau's `luaL_typeerror` message.
    fn type_error(&self, i: usize, expected: &str) -> Fail {
        let name = self.name;
        Fail::Raise(match self.get(i) {
            Some(v) => format!(
                "invalid argument #{i} to '{name}' ({expected} expected, got {})",
                self.glue.object_type_name(v)
            ),
            None => format!("missing argument #{i} to '{name}' ({expected} expected)"),
        })
    }
}

impl Glue {
    /// Luau's `luaT_objtypename` (a userdata's `__type` counts).
    fn object_type_name(&self, v: &Value) -> String {
        match v {
            Value::UserData(_) | Value::LightUserData(_) | Value::Other(..) => {
                if let Some(Ok(name)) = self.type_of.as_ref().map(|f| f.call::<String>(v.clone())) {
                    return name;
                }
                type_name(v).to_string()
            }
            _ => type_name(v).to_string(),
        }
    }
}

/// Luau's `lua_typename` of a value's type.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Nil => "nil",
        Value::Boolean(_) => "boolean",
        Value::LightUserData(_) | Value::UserData(_) | Value::Error(_) => "userdata",
        Value::Integer(_) | Value::Number(_) => "number",
        Value::Vector(_) => "vector",
        Value::String(_) => "string",
        Value::Table(_) => "table",
        Value::Function(_) => "function",
        Value::Thread(_) => "thread",
        Value::Buffer(_) => "buffer",
        other => other.type_name(),
    }
}

/// C's `(int)d` on this machine: x86 gives `INT_MIN` for NaN and out-of-range values; elsewhere (as
/// on ARM) the conversion saturates, as Rust's does.
fn c_int(d: f64) -> i32 {
    let t = d.trunc();
    if t >= f64::from(i32::MIN) && t <= f64::from(i32::MAX) {
        t as i32
    } else if cfg!(any(target_arch = "x86", target_arch = "x86_64")) {
        i32::MIN
    } else {
        d as i32
    }
}

fn capture_value(lua: &Lua, src: &[u8], cap: Cap) -> mlua::Result<Value> {
    Ok(match cap {
        Cap::Span(a, b) => Value::String(lua.create_string(&src[a..b])?),
        Cap::Position(at) => Value::Integer(at as i64),
    })
}

/// Pushes the match's capture values (`whole`: see [`Match::count`]) after `values`.
fn push_captures(
    lua: &Lua,
    src: &[u8],
    m: &Match,
    whole: bool,
    mut values: Vec<Value>,
) -> Result<MultiValue, Fail> {
    let count = m.count(whole);
    values.reserve(count);
    for i in 0..count {
        values.push(capture_value(lua, src, m.get(i)?)?);
    }
    Ok(MultiValue::from_vec(values))
}

fn find_or_match(lua: &Lua, glue: &Glue, a: Args, find: bool) -> Result<MultiValue, Fail> {
    let s = a.string(1)?;
    let p = a.string(2)?;
    let init = a.opt_int(3, 1)?;
    let plain = find && a.truthy(4);
    let src = s.as_bytes();
    let found = self::find(
        &src,
        &p.as_bytes(),
        init,
        plain,
        find,
        &mut LuaMeter::new(lua, glue),
    )?;
    let Some(m) = found else {
        return Ok(MultiValue::from_vec(vec![Value::Nil]));
    };
    let values = if find {
        let mut values = Vec::with_capacity(2 + m.count(false));
        values.push(Value::Integer(m.start as i64 + 1));
        values.push(Value::Integer(m.end as i64));
        values
    } else {
        Vec::new()
    };
    push_captures(lua, &src, &m, !find, values)
}

fn gmatch_args(_lua: &Lua, _glue: &Glue, a: Args) -> Result<MultiValue, Fail> {
    let s = a.string(1)?;
    let p = a.string(2)?;
    Ok(MultiValue::from_vec(vec![
        Value::String(s),
        Value::String(p),
    ]))
}

/// `gmatch_next(s, p, pos)` from the trusted side: nothing at the end, else the next start and the
/// captures.
fn gmatch_next(
    lua: &Lua,
    glue: &Glue,
    s: &LuaString,
    p: &LuaString,
    pos: i64,
) -> Result<MultiValue, Fail> {
    let src = s.as_bytes();
    let pos = usize::try_from(pos).unwrap_or(0);
    match gmatch_step(&src, &p.as_bytes(), pos, &mut LuaMeter::new(lua, glue))? {
        None => Ok(MultiValue::new()),
        Some((next, m)) => {
            let mut values = Vec::with_capacity(1 + m.count(true));
            values.push(Value::Integer(next as i64));
            push_captures(lua, &src, &m, true, values)
        }
    }
}

/// A `gsub` with a replacement function or table, between its steps.
struct GsubState {
    src: LuaString,
    pat: LuaString,
    table: bool,
    /// `None` once finished.
    cursor: Option<Gsub>,
}

impl UserData for GsubState {}

/// `gsub(s, pattern, repl, n)`: `0, result, count` when done here (a replacement string), `1, state,
/// function` or `2, state, table` for the trusted side to go on with.
fn gsub_start(lua: &Lua, glue: &Glue, a: Args) -> Result<MultiValue, Fail> {
    let s = a.string(1)?;
    let p = a.string(2)?;
    let repl = a.get(3).cloned();
    let max = a.opt_int(4, (s.as_bytes().len() as i32).wrapping_add(1))?;
    let mode = match &repl {
        Some(Value::String(_) | Value::Integer(_) | Value::Number(_)) => 0,
        Some(Value::Function(_)) => 1,
        Some(Value::Table(_)) => 2,
        _ => return Err(a.type_error(3, "string/function/table")),
    };
    if mode == 0 {
        let repl = a.string(3)?;
        let (out, n) = gsub(
            &s.as_bytes(),
            &p.as_bytes(),
            &repl.as_bytes(),
            max,
            &mut LuaMeter::new(lua, glue),
        )?;
        return Ok(MultiValue::from_vec(vec![
            Value::Integer(0),
            Value::String(lua.create_string(&out)?),
            Value::Integer(i64::from(n)),
        ]));
    }
    let cursor = Gsub::new(&p.as_bytes(), max);
    let state = lua.create_userdata(GsubState {
        src: s,
        pat: p,
        table: mode == 2,
        cursor: Some(cursor),
    })?;
    Ok(MultiValue::from_vec(vec![
        Value::Integer(mode),
        Value::UserData(state),
        repl.unwrap_or(Value::Nil),
    ]))
}

/// `gsub_next(state, value)`: appends `value` as the replacement of the previous match (Luau's
/// `add_value`), then finds the next match: `true` and the values for the replacement (all the
/// captures for a function, the first for a table), or `nil, result, count` at the end.
fn gsub_next(
    lua: &Lua,
    glue: &Glue,
    state: &AnyUserData,
    value: Value,
) -> Result<MultiValue, Fail> {
    let mut state = state.borrow_mut::<GsubState>()?;
    let state = &mut *state;
    let Some(cursor) = state.cursor.as_mut() else {
        return Err(Fail::Host(mlua::Error::runtime(
            "gsub: stepped after its end",
        )));
    };
    // The first step has no previous match: its value is nil.
    let text = match value {
        Value::Nil | Value::Boolean(false) => None, // keep the original text
        Value::String(s) => Some(s),
        v @ (Value::Integer(_) | Value::Number(_)) => lua.coerce_string(v)?,
        other => {
            return Err(Fail::Raise(format!(
                "invalid replacement value (a {})",
                type_name(&other)
            )));
        }
    };
    let bytes = text.as_ref().map(LuaString::as_bytes);
    let src = state.src.as_bytes();
    let found = cursor.next(
        &src,
        &state.pat.as_bytes(),
        bytes.as_deref(),
        &mut LuaMeter::new(lua, glue),
    )?;
    match found {
        Some(m) if state.table => {
            let key = capture_value(lua, &src, m.get(0)?)?;
            Ok(MultiValue::from_vec(vec![Value::Boolean(true), key]))
        }
        Some(m) => {
            let mut values = Vec::with_capacity(1 + m.count(true));
            values.push(Value::Boolean(true));
            push_captures(lua, &src, &m, true, values)
        }
        None => {
            let (out, n) = state.cursor.take().map(Gsub::finish).unwrap_or_default();
            Ok(MultiValue::from_vec(vec![
                Value::Nil,
                Value::String(lua.create_string(&out)?),
                Value::Integer(i64::from(n)),
            ]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::time::{Duration, Instant};

    /// Serialises a call's results (`pcall`'s included) the same way in both states.
    const HELPERS: &str = r#"
local function show(v)
  local t = type(v)
  if t == "string" then return "s:" .. string.format("%q", v) end
  if t == "number" or t == "boolean" or t == "nil" then return t .. ":" .. tostring(v) end
  return t
end
function show_all(...)
  local t, parts = {...}, {}
  for i = 1, select('#', ...) do parts[i] = show(t[i]) end
  return select('#', ...) .. "[" .. table.concat(parts, ",") .. "]"
end
function run(f)
  return show_all(pcall(f))
end
function collect(it)
  local out = {}
  for _ = 1, 200 do
    local r = show_all(it())
    out[#out + 1] = r
    if r == "0[]" then break end
  end
  return table.concat(out, ";")
end
"#;

    /// Every call is run in a state with Luau's own functions and in one with ours; the serialised
    /// results (error messages included) must be the same.
    const CASES: &[&str] = &[
        // find: positions, init, plain
        r#"string.find("hello world", "o")"#,
        r#"string.find("hello world", "o", 6)"#,
        r#"string.find("hello world", "o", -3)"#,
        r#"string.find("hello world", "o", -100)"#,
        r#"string.find("hello world", "o", 0)"#,
        r#"string.find("hello", "l", 5)"#,
        r#"string.find("hello", "", 6)"#,
        r#"string.find("hello", "", 7)"#,
        r#"string.find("hello", "", 100)"#,
        r#"string.find("hello", "", -1)"#,
        r#"string.find("", "")"#,
        r#"string.find("", "a")"#,
        r#"string.find("", "^$")"#,
        r#"string.find("hello", "l+")"#,
        r#"string.find("hello", "(l+)")"#,
        r#"string.find("hello", "()ll()")"#,
        r#"string.find("hello", "h(.)(.)")"#,
        r#"string.find("a.b", ".", 1, true)"#,
        r#"string.find("a.b", "%.", 1)"#,
        r#"string.find("a+b", "+", 1, true)"#,
        r#"string.find("a+b", "a+b")"#,
        r#"string.find("a+b", "a+b", 1, true)"#,
        r#"string.find("a+b", "+b", 1, 1)"#,
        r#"string.find("a+b", "+b", 1, false)"#,
        r#"string.find("a+b", "+b", nil, "yes")"#,
        r#"string.find("abc", "b", 1e10)"#,
        r#"string.find("abc", "b", -1e10)"#,
        r#"string.find("abc", "b", math.huge)"#,
        r#"string.find("abc", "b", -math.huge)"#,
        r#"string.find("abc", "b", 0/0)"#,
        r#"string.find("abc", "b", 2.7)"#,
        r#"string.find("abc", "b", -2.7)"#,
        r#"string.find("abc", "b", 2^31)"#,
        r#"string.find("abc", "b", 2^31 - 1)"#,
        r#"string.find("abc", "b", -2^31)"#,
        r#"string.find("abc", "b", "2")"#,
        r#"string.find("abc", "b", "0x2")"#,
        r#"string.find("abc", "b", " 2 ")"#,
        r#"string.find("abc", "b", "x")"#,
        r#"string.find("abc", "b", {})"#,
        r#"string.find("abc", "b", true)"#,
        r#"string.find("abc", "b", nil, nil)"#,
        r#"string.find(12345, 3)"#,
        r#"string.find(123.5, "%.")"#,
        r#"string.find(1e100, "e")"#,
        r#"string.find(-0.0, "0")"#,
        r#"string.find(0.1, "1")"#,
        r#"string.find(2^53, 2)"#,
        r#"string.find()"#,
        r#"string.find("a")"#,
        r#"string.find(nil, "a")"#,
        r#"string.find("a", nil)"#,
        r#"string.find({}, "a")"#,
        r#"string.find("a", print)"#,
        r#"string.find("a", "a", 1, nil, "extra")"#,
        r#"string.find("a\0b\0c", "\0")"#,
        r#"string.find("a\0b\0c", "b\0c")"#,
        r#"string.find("a\0b\0c", "b\0c", 1, true)"#,
        r#"string.find("a\0b\0c", "%z")"#,
        r#"string.find("a\0b\0c", "[%z]", 3)"#,
        r#"string.find("a\0b", "[\0]")"#,
        r#"string.find("a\0.", "\0.")"#,
        r#"string.find("\200\201\255", "\201")"#,
        r#"string.find("\200\201\255", "[\200-\210]+")"#,
        r#"string.find("\200\201\255", "%a")"#,
        r#"string.find("\200abc\255", "%W+")"#,
        r#"string.find("caf\195\169", "\195\169")"#,
        r#"("hello"):find("l")"#,
        r#"("hello"):find("(h)(e)")"#,
        r#"(function() local s = "x=1" return s:find("=") end)()"#,
        r#"string.find("abc", "b", 3)"#,
        r#"string.find("abc", "b()", 2)"#,
        r#"string.find("aXb", "%u")"#,
        r#"string.find(string.rep("x", 10000) .. "y", "y", 1, true)"#,
        r#"string.find(string.rep("ab", 500) .. "abc", "abc")"#,
        r#"string.find("abc", "[a-")"#,
        r#"string.find("abc", "[%a-z]+")"#,
        r#"string.find("a-c", "[a%-c]+")"#,
        r#"string.find(string.rep("a", 1000), "a-b")"#,
        r#"string.find(string.rep("a", 100) .. "b", ".-b")"#,
        r#"string.find("abc", "(")"#,
        // anchors
        r#"string.find("hello", "^h")"#,
        r#"string.find("hello", "^e")"#,
        r#"string.find("hello", "^e", 2)"#,
        r#"string.find("hello", "o$")"#,
        r#"string.find("hello", "l$")"#,
        r#"string.find("hel$lo", "l$l")"#,
        r#"string.find("hello", "^hello$")"#,
        r#"string.find("a^b", "a^b")"#,
        r#"string.find("hello", "$")"#,
        r#"string.find("hello", "^")"#,
        r#"string.find("hello", "^", 3)"#,
        r#"string.match("hello", "^(h)")"#,
        r#"string.match("x", "^^x")"#,
        r#"string.match("^x", "^^x")"#,
        r#"string.match("a$", "a$$")"#,
        // match: classes, sets, repetitions
        r#"string.match("hello world", "%w+")"#,
        r#"string.match("hello world", "(%w+) (%w+)")"#,
        r#"string.match("key = value", "(%w+)%s*=%s*(%w+)")"#,
        r#"string.match("hello", "()")"#,
        r#"string.match("hello", "()", 3)"#,
        r#"string.match("hello", "(h)()")"#,
        r#"string.match("hello", ".-(l+)(.*)")"#,
        r#"string.match("  trim  ", "^%s*(.-)%s*$")"#,
        r#"string.match("2024-01-15", "(%d+)-(%d+)-(%d+)")"#,
        r#"string.match("abc", "b", 10)"#,
        r#"string.match("abc", "", 4)"#,
        r#"string.match("abc", "", 5)"#,
        r#"string.match("abc", "b", -1)"#,
        r#"string.match("abc", "((a)(b))")"#,
        r#"string.match("abc", "a*")"#,
        r#"string.match("aaa", "a-b")"#,
        r#"string.match("aaab", "a-b")"#,
        r#"string.match("aaa", "^a-$")"#,
        r#"string.match("abc", "a?b?c?d?")"#,
        r#"string.match("ac", "ab?c")"#,
        r#"string.match("abc", "[a-c]+")"#,
        r#"string.match("abc-", "[a-]+")"#,
        r#"string.match("a-z", "[%a-]+")"#,
        r#"string.match("]]", "[]]+")"#,
        r#"string.match("^^ab", "[^^]+")"#,
        r#"string.match("a]b", "[^]]+")"#,
        r#"string.match("hello there", "[^%s]+")"#,
        r#"string.match("x y", "[%s]")"#,
        r#"string.match("ABCdef", "%u+")"#,
        r#"string.match("ABCdef", "%l+")"#,
        r#"string.match("ABC def", "%U+")"#,
        r#"string.match("a1b2", "%d")"#,
        r#"string.match("a1b2", "%D+")"#,
        r#"string.match("0xFFg", "%x+", 3)"#,
        r#"string.match("0xFFg", "%X+", 3)"#,
        r#"string.match("a,b;c", "%p")"#,
        r#"string.match("a,b;c", "%P+")"#,
        r#"string.match("\t\n\v\f\r x", "%s+")"#,
        r#"string.match("\t\n\v\f\r x", "%S+")"#,
        r#"string.match("\1\2\127x", "%c+")"#,
        r#"string.match("\1\2\127x", "%C+")"#,
        r#"string.match(" a b", "%g+")"#,
        r#"string.match("a_b1", "%w+")"#,
        r#"string.match("a_b1", "[%w_]+")"#,
        r#"string.match("abc", "%y")"#,
        r#"string.match("yes", "%y")"#,
        r#"string.match("YES", "%Y")"#,
        r#"string.match("a\0b", "%Z+")"#,
        r#"string.match("a.b", "%.")"#,
        r#"string.match("a%b", "%%")"#,
        r#"string.match("(x)", "%(x%)")"#,
        r#"string.match("hello", ".-")"#,
        r#"string.match("hello", ".-$")"#,
        r#"string.match("hello", "(.-)l")"#,
        r#"string.match("hello", "(.*)l")"#,
        r#"string.match("hello", "(h?)(e?)(x?)")"#,
        r#"string.match("key:value:more", "^(.-):(.*)$")"#,
        r#"string.match("\200\255abc", "[\128-\255]+")"#,
        r#"string.match("\255", "[^\255]")"#,
        r#"("abc"):match("(b)")"#,
        // malformed patterns and capture errors
        r#"string.match("abc", "%")"#,
        r#"string.match("abc", "a%")"#,
        r#"string.match("abc", "[a")"#,
        r#"string.match("abc", "[a%")"#,
        r#"string.match("abc", "[a%]")"#,
        r#"string.match("abc", "[]")"#,
        r#"string.match("abc", "[^]")"#,
        r#"string.match("abc", "[")"#,
        r#"string.match("abc", "[^")"#,
        r#"string.match("abc", "(")"#,
        r#"string.match("abc", "a(")"#,
        r#"string.match("abc", ")")"#,
        r#"string.match("abc", "a)")"#,
        r#"string.match("xyz", "a)")"#,
        r#"string.match("abc", "(()")"#,
        r#"string.match("abc", "%1")"#,
        r#"string.match("abc", "(a)%2")"#,
        r#"string.match("abc", "(a%1)")"#,
        r#"string.match("abc", "%0")"#,
        r#"string.match("abc", "(a)%9")"#,
        r#"string.match("aa", "(a)%1")"#,
        r#"string.match("abab", "(ab)%1")"#,
        r#"string.match("xabab", "(ab)%1")"#,
        r#"string.match("a", "()%1")"#,
        r#"string.match("hello", "(l)%1")"#,
        r#"string.match("hello", "((l)%2)")"#,
        r#"string.match(string.rep("a", 300), string.rep("a?", 300))"#,
        r#"string.match(string.rep("a", 150), string.rep("a?", 150))"#,
        r#"string.match(string.rep("a", 198), string.rep("a?", 198))"#,
        r#"string.match(string.rep("a", 199), string.rep("a?", 199))"#,
        r#"string.match(string.rep("a", 200), string.rep("a?", 200))"#,
        r#"string.match(string.rep("a", 20), string.rep("(a)", 20))"#,
        r#"string.match("aaa", string.rep("(a*)", 10))"#,
        r#"string.match("a", string.rep("(", 32) .. "a" .. string.rep(")", 32))"#,
        r#"string.match("a", string.rep("(", 33) .. "a" .. string.rep(")", 33))"#,
        r#"string.match("a", string.rep("()", 33))"#,
        r#"string.find("a", string.rep("()", 32))"#,
        // %b
        r#"string.match("f(a(b)c)d", "%b()")"#,
        r#"string.match("f(a(b)c", "%b()")"#,
        r#"string.match("((a)", "%b()")"#,
        r#"string.match("x", "%b")"#,
        r#"string.match("x", "%bx")"#,
        r#"string.match("[[x]]", "%b[]")"#,
        r#"string.match("aXbXc", "%bXX")"#,
        r#"string.match("<<a>>+", "%b<>+")"#,
        r#"string.find("if (a and (b or c)) then", "%b()")"#,
        r#"string.gsub("(a)(b)((c))", "%b()", "<>")"#,
        // %f
        r#"string.gsub("THE (quick) fox", "%f[%a]%a+", "X")"#,
        r#"string.find("hello world", "%f[%w]%w+", 2)"#,
        r#"string.match("hello", "%f[%l]")"#,
        r#"string.find("hello", "%f[%z]")"#,
        r#"string.find("hello", "%f[^%z]")"#,
        r#"string.find("a\0b", "%f[%z]")"#,
        r#"string.match("abc", "%f")"#,
        r#"string.match("abc", "%fa")"#,
        r#"string.match("abc", "%f[a")"#,
        r#"string.gsub("hello world from lua", "%f[%w]%w+%f[%W]", "<%0>")"#,
        r#"string.gsub("abc", "%f[%w]", "|")"#,
        // gmatch
        r#"collect(string.gmatch("hello world from lua", "%a+"))"#,
        r#"collect(string.gmatch("a=1, b=2", "(%w+)=(%w+)"))"#,
        r#"collect(string.gmatch("abc", ""))"#,
        r#"collect(string.gmatch("abc", "a*"))"#,
        r#"collect(string.gmatch("aaa", "a-"))"#,
        r#"collect(string.gmatch("^a^a", "^a"))"#,
        r#"collect(string.gmatch("abc", "()"))"#,
        r#"collect(string.gmatch("abc", "(.)()"))"#,
        r#"collect(string.gmatch("", ""))"#,
        r#"collect(string.gmatch("", "x"))"#,
        r#"collect(string.gmatch("abc", "%"))"#,
        r#"collect(string.gmatch("abc", "x%"))"#,
        r#"collect(string.gmatch(123, "%d"))"#,
        r#"collect(string.gmatch(12, 1))"#,
        r#"string.gmatch(nil, "x")"#,
        r#"string.gmatch("x")"#,
        r#"string.gmatch()"#,
        r#"string.gmatch("x", {})"#,
        r#"type(string.gmatch("x", "y"))"#,
        r#"collect(("a,b,,c"):gmatch("([^,]*)"))"#,
        r#"collect(string.gmatch("a\0b\0", "[^%z]+"))"#,
        r#"collect(string.gmatch("x$y$", "%$"))"#,
        r#"collect(string.gmatch("abcabc", "b$"))"#,
        r#"collect(string.gmatch("ab", "b$"))"#,
        r#"collect(string.gmatch("abc", "(a)(b)(c)"))"#,
        r#"collect(string.gmatch("hello", "(l)(l?)"))"#,
        r#"collect(string.gmatch("abc", "(a"))"#,
        r#"collect(string.gmatch("\200\201x\202", "[\128-\255]"))"#,
        r#"(function() local r = {} for a in ("one two"):gmatch("%a+") do r[#r + 1] = a end return table.concat(r, "|") end)()"#,
        r#"(function() local r = {} for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do r[#r + 1] = k .. v end return table.concat(r, " ") end)()"#,
        r#"(function() local it = string.gmatch("ab", ".") it() it() return it(), it() end)()"#,
        r#"(function() local it = string.gmatch("ab", ".") return it(1, 2), it("x") end)()"#,
        // gsub: string replacement, counts
        r#"string.gsub("hello world", "o", "0")"#,
        r#"string.gsub("hello world", "o", "0", 1)"#,
        r#"string.gsub("hello world", "o", "0", 0)"#,
        r#"string.gsub("hello world", "o", "0", -1)"#,
        r#"string.gsub("hello world", "o", "0", 1e10)"#,
        r#"string.gsub("hello world", "o", "0", "1")"#,
        r#"string.gsub("hello world", "o", "0", "x")"#,
        r#"string.gsub("hello", "l", "L", 1.9)"#,
        r#"string.gsub("hello world", "(o)", "[%1]")"#,
        r#"string.gsub("hello world", "o", "[%0]")"#,
        r#"string.gsub("hello world", "o", "[%1]")"#,
        r#"string.gsub("hello world", "o", "[%2]")"#,
        r#"string.gsub("hello world", "(o)", "[%2]")"#,
        r#"string.gsub("hello", "l", "%%")"#,
        r#"string.gsub("hello", "l", "%")"#,
        r#"string.gsub("hello", "l", "%x")"#,
        r#"string.gsub("hello", "l", "a%")"#,
        r#"string.gsub("hello", "l", "%\0")"#,
        r#"string.gsub("hello", "()l", "%1")"#,
        r#"string.gsub("hello", "", "-")"#,
        r#"string.gsub("hello", "", "-", 3)"#,
        r#"string.gsub("hello", "x*", "-")"#,
        r#"string.gsub("hello", "l*", "-")"#,
        r#"string.gsub("hello", "^h", "H")"#,
        r#"string.gsub("hello", "^", ">")"#,
        r#"string.gsub("hello", "$", "<")"#,
        r#"string.gsub("hello", "^l", "L")"#,
        r#"string.gsub("abc", "^", "-", 5)"#,
        r#"string.gsub("", "", "x")"#,
        r#"string.gsub("", "x", "y")"#,
        r#"string.gsub("hello world", "(%w+) (%w+)", "%2 %1")"#,
        r#"string.gsub("abc", "%w", "%0%0")"#,
        r#"string.gsub("abc", "b", "%0%0%0", 1)"#,
        r#"string.gsub("a\0b", "%z", "0")"#,
        r#"string.gsub("a\0b", "\0", "%%")"#,
        r#"string.gsub("a\0b", "", "\0")"#,
        r#"string.gsub(string.rep("ab", 10), "ab", "%0!")"#,
        r#"string.gsub("x = 1, y = 2", "(%w+) = (%w+)", "%2 = %1")"#,
        r#"string.gsub("abc", "(", "x")"#,
        r#"string.gsub("abc", "(", "%1")"#,
        r#"string.gsub("abc", "(b)(", "%1")"#,
        r#"string.gsub("abc", "(b)(", "%2")"#,
        r#"string.gsub("abc", "%", "x")"#,
        r#"string.gsub("abc", "b", 5)"#,
        r#"string.gsub("abc", "b", 5.5)"#,
        r#"string.gsub(123, 2, 9)"#,
        r#"string.gsub("abc", "b")"#,
        r#"string.gsub("abc", "b", nil)"#,
        r#"string.gsub("abc", "b", true)"#,
        r#"string.gsub("abc", "b", true, "x")"#,
        r#"string.gsub("abc")"#,
        r#"string.gsub()"#,
        r#"("abc"):gsub("b", "B")"#,
        r#"("abc"):gsub("b", "B", 0)"#,
        // gsub: tables
        r#"string.gsub("abc", ".", {a = 1, b = true})"#,
        r#"string.gsub("abc", ".", {a = 1, b = "B"})"#,
        r#"string.gsub("abc", "(.)", {a = "A"})"#,
        r#"string.gsub("abc", "()", {[1] = "one", [3] = "three"})"#,
        r#"string.gsub("abc", ".", {a = {}})"#,
        r#"string.gsub("abc", ".", {a = print})"#,
        r#"string.gsub("abc", ".", {a = false})"#,
        r#"string.gsub("abc", "%w", setmetatable({}, {__index = function(_, k) return k:upper() end}))"#,
        r#"string.gsub("ab", "%w", setmetatable({}, {__index = function() error("idx") end}))"#,
        r#"string.gsub("abc", "(b)(", {})"#,
        r#"string.gsub("abc", "((b)", {})"#,
        r#"string.gsub("abc", "b", {b = 2.5}, 1)"#,
        // gsub: functions
        r#"string.gsub("abc", "%w", function(c) return c:upper() end)"#,
        r#"string.gsub("abc", "%w", function(c) return nil end)"#,
        r#"string.gsub("abc", "%w", function(c) return false end)"#,
        r#"string.gsub("abc", "%w", function(c) return true end)"#,
        r#"string.gsub("abc", "%w", function(c) return 12.5 end)"#,
        r#"string.gsub("abc", "%w", function(c) return {} end)"#,
        r#"string.gsub("abc", "%w", function(c) end)"#,
        r#"string.gsub("abc", "%w", function(c) return "x", "y" end)"#,
        r#"string.gsub("abc", "(%w)(%w)", function(a, b) return b .. a end)"#,
        r#"string.gsub("abc", "()(%w)", function(p, c) return p .. c end)"#,
        r#"string.gsub("abc", "%w", function() error("boom") end)"#,
        r#"string.gsub("abc", "%w", function() error({}) end)"#,
        r#"string.gsub("abc", "%w", function() error("boom", 0) end)"#,
        r#"string.gsub("abc", "%w", function() error() end)"#,
        r#"string.gsub("abc", "%w", tostring)"#,
        r#"string.gsub("abc", "%w", function(...) return select('#', ...) end)"#,
        r#"string.gsub("abc", "", function(...) return "[" .. select('#', ...) .. "]" end)"#,
        r#"string.gsub("abc", "(b)(", function() return "x" end)"#,
        r#"string.gsub("hello", "l", function() return "L" end, 1)"#,
        r#"string.gsub("\200\255", ".", function(c) return string.byte(c) .. "," end)"#,
        r#"string.gsub("ab", "%w", function(c) return (string.gsub("xy", "%w", c)) end)"#,
        r#"string.gsub("abc", "%", function() return "x" end)"#,
        r#"(function() local log = {} local r, n = string.gsub("abc", "%w", function(c) log[#log + 1] = c end) return r, n, table.concat(log) end)()"#,
        r#"(function() local log = {} local ok = pcall(string.gsub, "abcd", "%w", function(c) log[#log + 1] = c if c == "c" then error("stop") end end) return ok, table.concat(log) end)()"#,
        r#"(function() local n = 0 local r = string.gsub(string.rep("a", 100), "a", function() n = n + 1 return n % 2 == 0 and "" or nil end) return r, n end)()"#,
        // number formatting of replacements; error positions; type names
        r#"string.gsub("x", "x", 1/3)"#,
        r#"string.gsub("x", "x", function() return 1e300 end)"#,
        r#"string.gsub("x", "x", {x = -0.0})"#,
        r#"string.gsub("xx", "()x", "%1")"#,
        r#"string.gsub("abc", "%w", "%1", 2)"#,
        r#"string.match(string.rep("a", 100000), ".-$") == string.rep("a", 100000)"#,
        "(function() local r = 0\n for w in string.gmatch(\"abc\", \"(\") do r = r + 1 end\n return r end)()",
        "(function()\n local s = \"abc\"\n return s:find(\"%\")\n end)()",
        "(function()\n return string.gsub(\"abc\", \"b\",\n function() return {} end)\n end)()",
        r#"("x"):find(nil)"#,
        r#"("x"):gsub("x")"#,
        r#"("x"):gmatch()"#,
        r#"string.find("abc", setmetatable({}, {__tostring = function() return "b" end}))"#,
        r#"string.find(newproxy(), "x")"#,
        r#"string.find(buffer.create(1), "x")"#,
        r#"string.find(coroutine.create(print), "x")"#,
        r#"string.gsub("x", "x", {x = newproxy()})"#,
        r#"string.gsub("x", "x", {x = coroutine.create(print)})"#,
        r#"string.find("abc", "b", newproxy())"#,
        // pcall directly on the library functions: the error value is Luau's string
        r#"pcall(string.find, "a", "%")"#,
        r#"pcall(string.gsub, "a", "a", {}, {})"#,
        r#"select(2, pcall(string.match)) .. "!""#,
    ];

    fn run_cases(lua: &Lua) -> Vec<String> {
        lua.load(HELPERS).exec().expect("the helpers load");
        CASES
            .iter()
            .map(|case| {
                lua.load(format!("return run(function() return {case} end)"))
                    .set_name("=case")
                    .eval::<String>()
                    .unwrap_or_else(|e| format!("host error: {e}"))
            })
            .collect()
    }

    /// A state with our functions; the meter adds to `count` and fails once it passes `limit`.
    fn ours(count: &Rc<Cell<u64>>, limit: u64) -> Lua {
        let lua = Lua::new();
        let string: Table = lua.globals().get("string").unwrap();
        let count = count.clone();
        install(
            &lua,
            &string,
            Rc::new(move |n| {
                count.set(count.get() + n);
                if count.get() > limit {
                    Err(mlua::Error::runtime("budget spent"))
                } else {
                    Ok(())
                }
            }),
        )
        .unwrap();
        lua
    }

    #[test]
    fn pattern_functions_behave_as_luau_does() {
        assert!(CASES.len() >= 150, "{} cases", CASES.len());
        let native = run_cases(&Lua::new());
        let count = Rc::new(Cell::new(0));
        let ported = run_cases(&ours(&count, u64::MAX));
        let mut differences = Vec::new();
        for ((case, n), p) in CASES.iter().zip(&native).zip(&ported) {
            if n != p {
                differences.push(format!("{case}\n  luau: {n}\n  ours: {p}"));
            }
        }
        assert!(
            differences.is_empty(),
            "{} of {} cases differ:\n{}",
            differences.len(),
            CASES.len(),
            differences.join("\n")
        );
        assert!(count.get() > 0);
    }

    /// The meter's own error, under mlua's callback wrapping.
    fn root(e: &mlua::Error) -> &mlua::Error {
        match e {
            mlua::Error::CallbackError { cause, .. } => root(cause),
            other => other,
        }
    }

    #[test]
    fn a_pathological_pattern_ends_with_the_meters_error() {
        let calls = [
            r#"string.find(string.rep("a", 5000), string.rep("a-", 30) .. "b")"#,
            r#"string.match(string.rep("a", 5000), string.rep("a*", 30) .. "b")"#,
            r#"string.find(string.rep("x", 100000), ".-.-.-y")"#,
            r#"for _ in string.gmatch(string.rep("x", 100000), ".-.-.-y") do end"#,
            r#"string.gsub(string.rep("x", 100000), ".-.-.-y", "z")"#,
            r#"string.gsub(string.rep("x", 100000), ".-.-.-y", function() end)"#,
            r#"string.find(string.rep("a", 1000000), "[" .. string.rep("b", 100000) .. "]x")"#,
            r#"string.find(string.rep("a", 1000000), string.rep("a", 100000) .. "b", 1, true)"#,
            r#"string.find(string.rep("a", 100000), "(" .. string.rep("a", 10000) .. ").-%1b")"#,
        ];
        for call in calls {
            let count = Rc::new(Cell::new(0));
            let lua = ours(&count, 1_000_000);
            let started = Instant::now();
            let e = lua.load(call).exec().expect_err(call);
            assert!(
                matches!(root(&e), mlua::Error::RuntimeError(m) if m == "budget spent"),
                "{call}: {e:?}"
            );
            // Unmetered, some of these run for minutes; metered, well under a second (the bound is
            // loose for a loaded machine).
            assert!(started.elapsed() < Duration::from_secs(20), "{call}");
            // Charged in batches: the meter failed within a batch of the limit, plus the largest
            // single charge here (a class or a comparison of 100,000 bytes: 12,500 steps).
            assert!(count.get() <= 1_000_000 + FLUSH_STEPS + 12_500, "{call}");
        }
    }

    #[test]
    fn a_meter_error_is_not_turned_into_a_string() {
        let count = Rc::new(Cell::new(0));
        let lua = ours(&count, 1_000);
        let (ok, kind): (bool, String) = lua
            .load(r#"local ok, e = pcall(string.find, string.rep("a", 5000), string.rep("a-", 30) .. "b") return ok, type(e)"#)
            .eval()
            .unwrap();
        assert!(!ok);
        assert_eq!(kind, "userdata");
    }

    #[test]
    fn a_plain_search_is_charged_about_a_step_per_8_bytes() {
        for len in [1 << 16, 1 << 20] {
            let count = Rc::new(Cell::new(0));
            let lua = ours(&count, u64::MAX);
            let found: Option<i64> = lua
                .load(format!(
                    r#"return (string.find(string.rep("a", {len}), "b", 1, true))"#
                ))
                .eval()
                .unwrap();
            assert_eq!(found, None);
            let steps = count.get();
            assert!(
                steps >= len / 8 && steps <= len / 8 + 16,
                "{len} bytes: {steps} steps"
            );
            // Without `plain`, a pattern without specials is searched the same way.
            count.set(0);
            lua.load(format!(r#"string.find(string.rep("a", {len}), "ab")"#))
                .exec()
                .unwrap();
            let steps = count.get();
            assert!(
                steps >= len / 8 && steps <= len / 4,
                "{len} bytes: {steps} steps"
            );
        }
    }

    #[test]
    fn the_core_charges_in_batches_and_at_the_end() {
        let mut charges = Vec::new();
        let mut meter = |n: u64| -> Result<(), ()> {
            charges.push(n);
            Ok(())
        };
        let src = vec![b'a'; 10_000];
        let m = find(&src, b"a*b", 1, false, true, &mut meter).unwrap();
        assert!(m.is_none());
        assert!(charges.len() > 1);
        assert!(
            charges[..charges.len() - 1]
                .iter()
                .all(|&n| n >= FLUSH_STEPS)
        );
        // Quadratic work, quadratic charge: 10,000 starts, each scanning the rest of the subject.
        let total: u64 = charges.iter().sum();
        assert!(total > 10_000 * 10_000 / 2, "{total}");

        let mut charges = 0;
        let mut meter = |n: u64| -> Result<(), &'static str> {
            charges += n;
            if charges > 5_000 { Err("stop") } else { Ok(()) }
        };
        match find(&src, b"a*b", 1, false, true, &mut meter) {
            Err(Error::Meter("stop")) => {}
            other => panic!("{other:?}"),
        }
        assert!(charges < 5_000 + 2 * FLUSH_STEPS);
    }

    #[test]
    fn the_core_matches_as_luau_does() {
        let mut free = |_: u64| -> Result<(), ()> { Ok(()) };
        let m = find(b"hello", b"(l+)()", 1, false, false, &mut free)
            .unwrap()
            .unwrap();
        assert_eq!((m.start, m.end), (2, 4));
        assert_eq!(m.get(0), Ok(Cap::Span(2, 4)));
        assert_eq!(m.get(1), Ok(Cap::Position(5)));
        match find(b"x", b"(", 1, false, false, &mut free) {
            Ok(Some(m)) => assert_eq!(m.get(0), Err(PatternError::UnfinishedCapture)),
            other => panic!("{other:?}"),
        }
        let (out, n) = gsub(b"hello world", b"(%w+)", b"<%1>", 100, &mut free).unwrap();
        assert_eq!((out.as_slice(), n), (&b"<hello> <world>"[..], 2));
        let mut at = 0;
        let mut words = Vec::new();
        while let Some((next, m)) = gmatch_step(b"a,b,,c", b"[^,]*", at, &mut free).unwrap() {
            words.push(&b"a,b,,c"[m.start..m.end]);
            at = next;
        }
        // Lua 5.1's empty matches after each non-empty one, as Luau has them.
        assert_eq!(words, [&b"a"[..], b"", b"b", b"", b"", b"c", b""]);
        match find(&[b'a'; 300], &b"a?".repeat(300), 1, false, false, &mut free) {
            Err(Error::Pattern(PatternError::TooComplex)) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_gsub_result_stays_within_the_memory_limit() {
        let call = r#"local ok, e = pcall(string.gsub, string.rep("a", 1000), "a", string.rep("b", 100000)) return ok, e"#;
        let count = Rc::new(Cell::new(0));
        for lua in [Lua::new(), ours(&count, u64::MAX)] {
            lua.set_memory_limit(lua.used_memory() + (16 << 20))
                .unwrap();
            let (ok, e): (bool, String) = lua.load(call).eval().unwrap();
            assert!(!ok);
            assert_eq!(e, "not enough memory");
        }
    }

    /// Luau 0.740 does call the interrupt at each entry of its recursive `match` (not in its scanning
    /// loops): the native functions are not entirely unmetered.
    #[test]
    fn native_luau_calls_the_interrupt_while_matching() {
        let lua = Lua::new();
        let ticks = Rc::new(Cell::new(0u64));
        let t = ticks.clone();
        lua.set_interrupt(move |_| {
            t.set(t.get() + 1);
            Ok(mlua::VmState::Continue)
        });
        lua.load(r#"string.find(string.rep("a", 40), string.rep("a-", 4) .. "b")"#)
            .exec()
            .unwrap();
        assert!(ticks.get() > 10_000, "{} interrupts", ticks.get());
    }
}
