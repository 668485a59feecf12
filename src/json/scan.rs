//! The two scanners behind the views: a strict validator, and a fast walker
//! for text the validator has already accepted.
//!
//! BE ADVISED: the views ([`Value`](super::Value), [`ObjectView`](super::ObjectView),
//! [`JsonStr`](super::JsonStr), …) are only ever built over spans that
//! [`validate_value`] accepted. That invariant is what lets every view method
//! be infallible and lets the walker (`string_end`, `container_end`,
//! `number_end`, `value_at`) skip all checks: it only looks for the bytes that
//! end things. The walker must still never panic or loop forever on text that
//! breaks the invariant (it clamps to the end of its input), because a bug
//! elsewhere must not turn into a panic here.
//!
//! Neither scanner recurses. The validator keeps the kind of each open
//! container in one bit of a `u128` (hence [`MAX_DEPTH`]); the walker only
//! counts brackets, since the text is known to be balanced.
//!
//! Strings are scanned eight bytes at a time (SWAR: `"`, `\` and, when
//! validating, control characters found in one word operation; the last
//! bytes of the input are read as a shifted word, never one at a time). The
//! input is a `&str`, so UTF-8 is not checked again. Past 64 bytes the scan
//! hands over to `memchr2` for `"` and `\`, and the validator checks the
//! skipped run for control characters with a branch-free loop that the
//! compiler vectorises. Only what follows a backslash, a control character
//! or the end of input leaves the inlined fast path.

use memchr::{memchr, memchr2};

use super::error::{JsonError, JsonErrorKind};

/// The deepest nesting of objects and arrays that the scanner accepts.
///
/// It equals `serde_json`'s default recursion limit (a text nested 128 deep
/// is rejected there too), so every text accepted here can also be handed to
/// `serde_json`. Nothing in this module recurses, so the limit guards
/// consumers that do, not this module's stack.
pub const MAX_DEPTH: usize = 127;

#[inline]
fn err<T>(kind: JsonErrorKind, offset: usize) -> Result<T, JsonError> {
    Err(JsonError::new(kind, offset))
}

/// Index of the first byte at or after `i` that is not JSON whitespace.
#[inline(always)]
pub(crate) fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(&c) = b.get(i) {
        if !matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
            break;
        }
        i += 1;
    }
    i
}

/// `src[a..z]`, or `""` if that is not a valid range: the walker's clamp.
#[inline(always)]
pub(crate) fn sub(src: &str, a: usize, z: usize) -> &str {
    src.get(a..z).unwrap_or_default()
}

// ---------------------------------------------------------------------------
// The validator.

/// Where a validated value lies, and for a string, whether it has escapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// For a string value, whether it holds escapes; otherwise false.
    pub(crate) escaped: bool,
}

/// Validates the whole of `src` as one JSON text (whitespace around the value
/// allowed) and returns the value's span.
pub(crate) fn validate(src: &str) -> Result<Span, JsonError> {
    let b = src.as_bytes();
    let span = validate_value(b, 0, MAX_DEPTH)?;
    let after = skip_ws(b, span.end);
    if after < b.len() {
        return err(JsonErrorKind::TrailingCharacters, after);
    }
    Ok(span)
}

/// Validates one JSON value at `i` (after optional whitespace), with objects
/// and arrays nested at most `max_depth` deep, and returns its span. Bytes
/// after the value are not looked at.
pub(crate) fn validate_value(b: &[u8], i: usize, max_depth: usize) -> Result<Span, JsonError> {
    // Bit 0 of `stack` is the innermost open container: 1 for an object.
    let mut stack: u128 = 0;
    let mut depth = 0usize;
    let mut i = skip_ws(b, i);
    let start = i;
    let mut escaped = false;
    'value: loop {
        // `i` is at the first byte of a value.
        let Some(&c) = b.get(i) else {
            return err(JsonErrorKind::Eof, i);
        };
        match c {
            b'"' => {
                let (close, esc) = validate_string(b, i + 1)?;
                escaped = esc; // only kept when the string is the whole value
                i = close + 1;
            }
            b'{' | b'[' => {
                if depth == max_depth {
                    return err(JsonErrorKind::TooDeep, i);
                }
                let object = c == b'{';
                i = skip_ws(b, i + 1);
                let close = if object { b'}' } else { b']' };
                if b.get(i) == Some(&close) {
                    i += 1; // an empty container is a complete value
                } else {
                    stack = (stack << 1) | u128::from(object);
                    depth += 1;
                    if object {
                        i = validate_key(b, i)?;
                    }
                    continue 'value;
                }
            }
            b'-' | b'0'..=b'9' => i = validate_number(b, i, depth == 0)?,
            b't' => i = validate_literal(b, i, b"true")?,
            b'f' => i = validate_literal(b, i, b"false")?,
            b'n' => i = validate_literal(b, i, b"null")?,
            // A `]` where a value should be, inside an array, can only follow
            // a comma: `[]` was handled above.
            b']' if depth > 0 && stack & 1 == 0 => return err(JsonErrorKind::TrailingComma, i),
            _ => return err(JsonErrorKind::ExpectedValue, i),
        }
        // `i` is just past a complete value: close containers until one
        // continues with a comma.
        loop {
            if depth == 0 {
                let escaped = escaped && b.get(start) == Some(&b'"');
                return Ok(Span {
                    start,
                    end: i,
                    escaped,
                });
            }
            i = skip_ws(b, i);
            let object = stack & 1 == 1;
            match (b.get(i), object) {
                (Some(b','), _) => {
                    i = skip_ws(b, i + 1);
                    if object {
                        i = validate_key(b, i)?;
                    }
                    continue 'value;
                }
                (Some(b'}'), true) | (Some(b']'), false) => {
                    stack >>= 1;
                    depth -= 1;
                    i += 1;
                }
                (None, _) => return err(JsonErrorKind::Eof, i),
                (Some(_), true) => return err(JsonErrorKind::ExpectedCommaOrObjectEnd, i),
                (Some(_), false) => return err(JsonErrorKind::ExpectedCommaOrArrayEnd, i),
            }
        }
    }
}

/// Validates `"key"` `:` at `i` and returns the index of the member's value
/// (whitespace skipped).
#[inline]
fn validate_key(b: &[u8], i: usize) -> Result<usize, JsonError> {
    validate_member_key(b, i).map(|(_, _, value)| value)
}

/// Validates `"key"` `:` at `i`, the start of an object member. Returns the
/// index of the key's closing quote, whether the key has escapes, and the
/// index of the member's value (whitespace skipped).
#[inline(always)]
pub(crate) fn validate_member_key(b: &[u8], i: usize) -> Result<(usize, bool, usize), JsonError> {
    if b.get(i) != Some(&b'"') {
        return key_error(b, i);
    }
    let (close, escaped) = validate_string(b, i + 1)?;
    Ok((close, escaped, after_key(b, close)?))
}

/// Validates the `:` after a member key whose closing quote is at `close`,
/// and returns the index of the member's value (whitespace skipped).
#[inline(always)]
pub(crate) fn after_key(b: &[u8], close: usize) -> Result<usize, JsonError> {
    let mut j = close + 1;
    // Compact text has the colon right after the key.
    if b.get(j) != Some(&b':') {
        j = skip_ws(b, j);
        match b.get(j) {
            Some(b':') => {}
            Some(_) => return err(JsonErrorKind::ExpectedColon, j),
            None => return err(JsonErrorKind::Eof, j),
        }
    }
    Ok(skip_ws(b, j + 1))
}

/// The error for a member that does not start with a key.
#[cold]
pub(crate) fn key_error<T>(b: &[u8], i: usize) -> Result<T, JsonError> {
    match b.get(i) {
        // `{}` was handled by the caller, so a `}` here follows a comma.
        Some(b'}') => err(JsonErrorKind::TrailingComma, i),
        Some(_) => err(JsonErrorKind::ExpectedKey, i),
        None => err(JsonErrorKind::Eof, i),
    }
}

/// Validates the rest of a string whose opening quote is just before `i`.
/// Returns the index of the closing quote and whether there were escapes.
///
/// The common case (no escape before the closing quote) is inlined into the
/// caller; escapes, errors and the end of input go to [`string_rest`].
#[inline(always)]
pub(crate) fn validate_string(b: &[u8], i: usize) -> Result<(usize, bool), JsonError> {
    let k = find_special::<true>(b, i);
    if b.get(k) == Some(&b'"') {
        return Ok((k, false));
    }
    string_rest(b, k)
}

/// [`validate_string`] from `i`, the first `\\`, control character or end
/// of input in the string.
#[inline(never)]
fn string_rest(b: &[u8], mut i: usize) -> Result<(usize, bool), JsonError> {
    let mut escaped = false;
    loop {
        match b.get(i) {
            Some(b'"') => return Ok((i, escaped)),
            Some(b'\\') => {
                escaped = true;
                i = validate_escape(b, i)?;
            }
            Some(_) => return err(JsonErrorKind::ControlCharacter, i),
            None => return err(JsonErrorKind::Eof, b.len()),
        }
        i = find_special::<true>(b, i);
    }
}

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
const QUOTES: u64 = u64::from_le_bytes([b'"'; 8]);
const BACKSLASHES: u64 = u64::from_le_bytes([b'\\'; 8]);
const SPACES: u64 = u64::from_le_bytes([0x20; 8]);

/// High bit set in each byte of `x` that is `"` or `\\` or (with
/// `CONTROL`) below 0x20. Only the lowest set bit is exact (a borrow can flag
/// a byte above a match), which is all the callers use.
///
/// All three bytes are ASCII, so a byte with its high bit set never matches
/// (`& !x`); for the others, `(x ^ c) - 1` and `x - 0x20` borrow out of the
/// byte exactly when it equals `c` or is below 0x20.
#[inline(always)]
fn specials<const CONTROL: bool>(x: u64) -> u64 {
    let mut t = (x ^ QUOTES).wrapping_sub(ONES) | (x ^ BACKSLASHES).wrapping_sub(ONES);
    if CONTROL {
        t |= x.wrapping_sub(SPACES);
    }
    t & !x & HIGHS
}

/// The bytes from `j` (`j < b.len()`, fewer than eight left) as a
/// little-endian word, zero bytes (control characters) past the end.
#[inline(never)]
fn tail_word(b: &[u8], j: usize) -> u64 {
    let rest = b.get(j..).unwrap_or_default();
    match b.len().checked_sub(8).and_then(|s| b.get(s..)) {
        // The last eight bytes of the input, shifted so that byte `j` comes
        // first (zeros shift in at the top).
        Some(last) if !rest.is_empty() => {
            let last = u64::from_le_bytes(last.first_chunk::<8>().copied().unwrap_or_default());
            last >> (8 * (8 - rest.len()))
        }
        _ => {
            let mut w = [0u8; 8];
            w.iter_mut().zip(rest).for_each(|(w, &c)| *w = c);
            u64::from_le_bytes(w)
        }
    }
}

/// How many bytes of a string are examined eight at a time before the scan
/// hands over to `memchr2`: most strings in events (keys, ids, short deltas)
/// end within them, and for those a call into `memchr2` costs more than the
/// scan itself.
const SHORT_RUN: usize = 64;

/// Index of the first `"` or `\\` (or, with `VALIDATE`, control character)
/// at or after `i`, or `b.len()` if there is none.
#[inline(always)]
fn find_special<const VALIDATE: bool>(b: &[u8], i: usize) -> usize {
    let Some(rest) = b.get(i..) else {
        return b.len();
    };
    // Short runs: eight bytes at a time, quote, backslash and (when
    // validating) control characters found in one pass. The words are
    // split off the front of the run, so each step costs one length check.
    let short = rest.get(..SHORT_RUN).unwrap_or(rest);
    let mut words = short;
    let mut j = i;
    while let Some((word, after)) = words.split_first_chunk::<8>() {
        let m = specials::<VALIDATE>(u64::from_le_bytes(*word));
        if m != 0 {
            return j + (m.trailing_zeros() / 8) as usize;
        }
        j += 8;
        words = after;
    }
    if short.len() == SHORT_RUN {
        return find_long::<VALIDATE>(b, j);
    }
    if !words.is_empty() {
        // Fewer than eight bytes left in the input.
        let m = specials::<VALIDATE>(tail_word(b, j));
        if m != 0 {
            return (j + (m.trailing_zeros() / 8) as usize).min(b.len());
        }
    }
    b.len()
}

/// [`find_special`] for the rest of a long string: `memchr2`, then (when
/// validating) a vectorised check of the run for control characters.
#[inline(never)]
fn find_long<const VALIDATE: bool>(b: &[u8], j: usize) -> usize {
    let j = j.min(b.len());
    let rest = b.get(j..).unwrap_or_default();
    let n = memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
    if VALIDATE {
        let run = rest.get(..n).unwrap_or_default();
        // No early exit, so the loop vectorises; the position is only
        // looked for when there is one.
        if run.iter().fold(false, |any, &c| any | (c < 0x20)) {
            return j + run.iter().position(|&c| c < 0x20).unwrap_or(0);
        }
    }
    j + n
}

/// Validates the escape whose backslash is at `i`; returns the index after it.
///
/// Surrogates must come in pairs, as `serde_json` requires: an escaped high
/// surrogate (`\ud83d`) must be followed at once by an escaped low one
/// (`\ude00`), which is validated with it; an unpaired half is
/// [`LoneSurrogate`](JsonErrorKind::LoneSurrogate) at its backslash.
#[inline]
fn validate_escape(b: &[u8], i: usize) -> Result<usize, JsonError> {
    match b.get(i + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 2),
        Some(b'u') => match hex4(b, i)? {
            0xD800..=0xDBFF => {
                // The low half must follow: `\u` and four hex digits.
                match (b.get(i + 6), b.get(i + 7)) {
                    (Some(b'\\'), Some(b'u')) => {}
                    (None, _) | (Some(b'\\'), None) => return err(JsonErrorKind::Eof, b.len()),
                    _ => return err(JsonErrorKind::LoneSurrogate, i),
                }
                match hex4(b, i + 6)? {
                    0xDC00..=0xDFFF => Ok(i + 12),
                    _ => err(JsonErrorKind::LoneSurrogate, i),
                }
            }
            0xDC00..=0xDFFF => err(JsonErrorKind::LoneSurrogate, i),
            _ => Ok(i + 6),
        },
        Some(_) => err(JsonErrorKind::InvalidEscape, i),
        None => err(JsonErrorKind::Eof, b.len()),
    }
}

/// The code unit of the `\uXXXX` escape whose backslash is at `i`.
#[inline]
fn hex4(b: &[u8], i: usize) -> Result<u16, JsonError> {
    let mut code = 0u16;
    for k in i + 2..i + 6 {
        match b.get(k).and_then(|&h| char::from(h).to_digit(16)) {
            // Four hex digits fit a u16; `v < 16`.
            Some(v) => code = (code << 4) | v as u16,
            None if k < b.len() => return err(JsonErrorKind::InvalidEscape, i),
            None => return err(JsonErrorKind::Eof, b.len()),
        }
    }
    Ok(code)
}

#[inline(always)]
fn skip_digits(b: &[u8], mut i: usize) -> usize {
    while let Some(c) = b.get(i) {
        if !c.is_ascii_digit() {
            break;
        }
        i += 1;
    }
    i
}

/// At least one digit at `i`, then any more; returns the index after them.
#[inline(always)]
fn expect_digits(b: &[u8], i: usize) -> Result<usize, JsonError> {
    match b.get(i) {
        Some(c) if c.is_ascii_digit() => Ok(skip_digits(b, i + 1)),
        Some(_) => err(JsonErrorKind::InvalidNumber, i),
        None => err(JsonErrorKind::Eof, i),
    }
}

/// Validates a number starting at `i` and returns the index after it:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, whose value is
/// finite as an `f64` (as `serde_json` requires: `1e400` is
/// [`NumberOutOfRange`](JsonErrorKind::NumberOutOfRange)).
///
/// The range is checked once the number is known to be complete: when a
/// byte follows it, or at the end of the input when `complete_at_end` (a
/// top-level number). A nested number cut by the end of the input may
/// still come back into range (`999…9` may go on as `999…9e-400`), and its
/// text is incomplete anyway: that is [`Eof`](JsonErrorKind::Eof) later.
#[inline(always)]
pub(crate) fn validate_number(
    b: &[u8],
    mut i: usize,
    complete_at_end: bool,
) -> Result<usize, JsonError> {
    let start = i;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    let int_start = i;
    match b.get(i) {
        Some(b'0') => {
            i += 1;
            if b.get(i).is_some_and(u8::is_ascii_digit) {
                return err(JsonErrorKind::InvalidNumber, i);
            }
        }
        _ => i = expect_digits(b, i)?,
    }
    let int_digits = i - int_start;
    if b.get(i) == Some(&b'.') {
        i = expect_digits(b, i + 1)?;
    }
    let mut exponent = false;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        exponent = true;
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = expect_digits(b, i)?;
    }
    // Below 10^308 without an exponent: no range check needed.
    if (exponent || int_digits > MAX_PLAIN_DIGITS)
        && (i < b.len() || complete_at_end)
        && !number_in_range(b.get(start..i).unwrap_or_default())
    {
        return err(JsonErrorKind::NumberOutOfRange, start);
    }
    Ok(i)
}

/// The most integer digits a number without an exponent may have and still
/// be below 10^308, so certainly finite as an `f64` (whose largest value is
/// about 1.8 × 10^308).
const MAX_PLAIN_DIGITS: usize = 308;

/// Whether a number that matches the JSON grammar is finite as an `f64`:
/// what `serde_json` requires of every number it reads.
///
/// A cheap bound first (see [`magnitude`]); only a number that may reach
/// 10^308 is converted (correctly rounded, as `serde_json`'s
/// `float_roundtrip` does), which is linear in its length.
#[cold]
#[inline(never)]
pub(crate) fn number_in_range(text: &[u8]) -> bool {
    magnitude(text.iter().copied()) <= MAX_PLAIN_DIGITS as i64 || finite(text)
}

/// A bound on the decimal magnitude of a number that matches the JSON
/// grammar, given as its bytes: with `d` integer digits and exponent `e` it
/// is below 10^(d+e), so it is finite as an `f64` when `d + e <= 308`.
pub(crate) fn magnitude(mut bytes: impl Iterator<Item = u8>) -> i64 {
    let mut int_digits = 0i64;
    let mut c = bytes.next();
    if c == Some(b'-') {
        c = bytes.next();
    }
    while c.is_some_and(|d| d.is_ascii_digit()) {
        int_digits = int_digits.saturating_add(1);
        c = bytes.next();
    }
    // Skip the fraction, up to the exponent.
    while c.is_some_and(|d| d != b'e' && d != b'E') {
        c = bytes.next();
    }
    if c.is_none() {
        return int_digits;
    }
    let mut negative = false;
    let mut exponent = 0i64;
    for d in bytes {
        match d {
            b'-' => negative = true,
            b'+' => {}
            // Saturates far above any bound that matters.
            _ => exponent = (exponent * 10 + i64::from(d.wrapping_sub(b'0'))).min(1 << 40),
        }
    }
    if negative {
        int_digits - exponent
    } else {
        int_digits + exponent
    }
}

/// Whether the number (grammatical JSON) converts to a finite `f64`.
#[cold]
#[inline(never)]
pub(crate) fn finite(text: &[u8]) -> bool {
    core::str::from_utf8(text)
        .ok()
        .and_then(|t| t.parse::<f64>().ok())
        .is_some_and(f64::is_finite)
}

#[inline]
fn validate_literal(b: &[u8], i: usize, literal: &[u8]) -> Result<usize, JsonError> {
    let end = i + literal.len();
    if b.get(i..end) == Some(literal) {
        return Ok(end);
    }
    let rest = b.get(i..).unwrap_or_default();
    if rest.len() < literal.len() && literal.starts_with(rest) {
        err(JsonErrorKind::Eof, b.len())
    } else {
        err(JsonErrorKind::InvalidLiteral, i)
    }
}

// ---------------------------------------------------------------------------
// The walker, for validated text only.

/// Index of the closing quote of the string whose opening quote is just
/// before `i`, and whether the string holds escapes.
///
/// A string without escapes ends at the first `"` or `\` the fast scan
/// finds. Past the first backslash the walk no longer stops at each escape
/// (escape-dense text, such as JSON-encoded tool arguments, has one every
/// few bytes): it jumps from quote to quote with `memchr`, and a quote ends
/// the string when an even number of backslashes precedes it (in valid text
/// a backslash run inside a string pairs up into `\\` escapes, and only
/// an odd run's last backslash escapes the quote).
#[inline]
pub(crate) fn string_end(b: &[u8], i: usize) -> (usize, bool) {
    let k = find_special::<false>(b, i);
    match b.get(k) {
        Some(b'"') => (k, false),
        Some(_) => (escaped_string_end(b, i, k), true),
        None => (b.len(), false),
    }
}

/// [`string_end`] of a string that opened before `start` and holds a
/// backslash at `k`: the first quote after `k` preceded by an even run of
/// backslashes (not reaching back before `start`), or `b.len()`.
#[inline(never)]
fn escaped_string_end(b: &[u8], start: usize, k: usize) -> usize {
    let mut from = k;
    loop {
        let Some(n) = b.get(from..).and_then(|rest| memchr(b'"', rest)) else {
            return b.len();
        };
        let quote = from + n;
        let body = b.get(start..quote).unwrap_or_default();
        let run = body.iter().rev().take_while(|&&c| c == b'\\').count();
        if run % 2 == 0 {
            return quote;
        }
        from = quote + 1;
    }
}

/// Whether a validated string body holds escapes.
#[inline]
pub(crate) fn has_backslash(body: &str) -> bool {
    memchr(b'\\', body.as_bytes()).is_some()
}

/// Index just past the object or array that opens at `i`.
#[inline]
pub(crate) fn container_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => i = string_end(b, i + 1).0,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// Index just past the number that starts at `i`.
#[inline(always)]
pub(crate) fn number_end(b: &[u8], mut i: usize) -> usize {
    while matches!(
        b.get(i),
        Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
    ) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use JsonErrorKind::*;

    fn check(src: &str) -> Result<(usize, usize), (JsonErrorKind, usize)> {
        validate(src)
            .map(|s| (s.start, s.end))
            .map_err(|e| (e.kind(), e.offset()))
    }

    #[test]
    fn accepts() {
        let table: &[(&str, (usize, usize))] = &[
            ("0", (0, 1)),
            (" -0.5e+10 ", (1, 9)),
            ("1E2", (0, 3)),
            ("123456789012345678901234567890", (0, 30)),
            ("true", (0, 4)),
            ("\tfalse\r\n", (1, 6)),
            ("null", (0, 4)),
            ("\"\"", (0, 2)),
            (r#""a\"b\\c\/\b\f\n\r\t\u00e9\uD83D\uDE00""#, (0, 39)),
            (r#""\udbff\udfff""#, (0, 14)),
            ("1.7976931348623157e308", (0, 22)),
            ("1e-99999", (0, 8)),
            ("\"\u{7f}é😀\"", (0, 9)),
            ("[]", (0, 2)),
            ("[ ]", (0, 3)),
            ("{}", (0, 2)),
            ("{ }", (0, 3)),
            (r#"{"a":1,"a":2}"#, (0, 13)), // duplicate keys, as serde_json
            (
                r#" { "a" : [ 1 , { } , [ ] , "x" ] , "b" : null } "#,
                (1, 47),
            ),
            ("[[[[[]]]]]", (0, 10)),
        ];
        for &(src, span) in table {
            assert_eq!(check(src), Ok(span), "{src:?}");
        }
    }

    #[test]
    fn rejects() {
        let table: &[(&str, (JsonErrorKind, usize))] = &[
            ("", (Eof, 0)),
            ("   ", (Eof, 3)),
            ("[", (Eof, 1)),
            ("[1", (Eof, 2)),
            ("[1,", (Eof, 3)),
            ("{", (Eof, 1)),
            (r#"{"a""#, (Eof, 4)),
            (r#"{"a":"#, (Eof, 5)),
            (r#"{"a":1"#, (Eof, 6)),
            ("\"abc", (Eof, 4)),
            ("\"ab\\", (Eof, 4)),
            ("\"ab\\u12", (Eof, 7)),
            (r#""\ud800"#, (Eof, 7)),
            (r#""\ud800\"#, (Eof, 8)),
            (r#""\ud800\u"#, (Eof, 9)),
            (r#""\ud800\udc"#, (Eof, 11)),
            (r#""\ud800""#, (LoneSurrogate, 1)),
            (r#""\udfff""#, (LoneSurrogate, 1)),
            (r#""\ud800\t""#, (LoneSurrogate, 1)),
            (r#""\ud800\ud800\udc00""#, (LoneSurrogate, 1)),
            (r#""\ud800\uzzzz""#, (InvalidEscape, 7)),
            ("[1e309]", (NumberOutOfRange, 1)),
            ("-2e308", (NumberOutOfRange, 0)),
            ("tr", (Eof, 2)),
            ("-", (Eof, 1)),
            ("1.", (Eof, 2)),
            ("1e", (Eof, 2)),
            ("1e+", (Eof, 3)),
            ("x", (ExpectedValue, 0)),
            ("\u{feff}1", (ExpectedValue, 0)),
            ("+1", (ExpectedValue, 0)),
            (".5", (ExpectedValue, 0)),
            ("[,1]", (ExpectedValue, 1)),
            ("{,}", (ExpectedKey, 1)),
            ("{1:2}", (ExpectedKey, 1)),
            (r#"{"a" 1}"#, (ExpectedColon, 5)),
            (r#"{"a":1 "b":2}"#, (ExpectedCommaOrObjectEnd, 7)),
            (r#"{"a":1]"#, (ExpectedCommaOrObjectEnd, 6)),
            ("[1 2]", (ExpectedCommaOrArrayEnd, 3)),
            ("[1}", (ExpectedCommaOrArrayEnd, 2)),
            ("[1,]", (TrailingComma, 3)),
            (r#"{"a":1,}"#, (TrailingComma, 7)),
            (r#"{"a":]"#, (ExpectedValue, 5)),
            ("1 2", (TrailingCharacters, 2)),
            ("{}}", (TrailingCharacters, 2)),
            ("0x1", (TrailingCharacters, 1)),
            ("truex", (TrailingCharacters, 4)),
            ("nul1", (InvalidLiteral, 0)),
            ("fals", (Eof, 4)),
            ("True", (ExpectedValue, 0)),
            ("01", (InvalidNumber, 1)),
            ("-01", (InvalidNumber, 2)),
            ("-a", (InvalidNumber, 1)),
            ("1.e5", (InvalidNumber, 2)),
            ("1e+e", (InvalidNumber, 3)),
            (r#""\x""#, (InvalidEscape, 1)),
            (r#""\u12G4""#, (InvalidEscape, 1)),
            (r#""\U0041""#, (InvalidEscape, 1)),
            ("\"a\tb\"", (ControlCharacter, 2)),
            ("\"a\nb", (ControlCharacter, 2)),
            ("\"\\n\0\"", (ControlCharacter, 3)),
        ];
        for &(src, expected) in table {
            assert_eq!(check(src), Err(expected), "{src:?}");
        }
    }

    #[test]
    fn depth_limit_matches_serde_json() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(validate(&ok).is_ok());
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(check(&deep), Err((TooDeep, MAX_DEPTH)));
        let objects = r#"{"a":"#.repeat(MAX_DEPTH + 1) + "1" + &"}".repeat(MAX_DEPTH + 1);
        assert_eq!(check(&objects), Err((TooDeep, 5 * MAX_DEPTH)));
        // An empty container is a level too, as in serde_json.
        let leaf = "[".repeat(MAX_DEPTH) + "[]" + &"]".repeat(MAX_DEPTH);
        assert_eq!(check(&leaf), Err((TooDeep, MAX_DEPTH)));
    }

    #[test]
    fn deep_garbage_does_not_overflow_the_stack() {
        let deep = "[".repeat(1 << 20);
        assert_eq!(check(&deep), Err((TooDeep, MAX_DEPTH)));
        // The walker has no limit and no recursion either.
        let b = deep.as_bytes();
        assert_eq!(container_end(b, 0), b.len());
    }

    #[test]
    fn strings_are_scanned_right_at_every_offset() {
        // Around the eight-byte chunks, the short-run limit and the end of
        // the input, the first quote, backslash or control character wins.
        for len in 0..80 {
            let body = "é".repeat(len / 2) + &"a".repeat(len % 2);
            let text = alloc::format!("\"{body}\"");
            let b = text.as_bytes();
            assert_eq!(validate_string(b, 1), Ok((b.len() - 1, false)), "{len}");
            assert_eq!(string_end(b, 1), (b.len() - 1, false), "{len}");
            let text = alloc::format!("\"{body}\\n\"");
            let b = text.as_bytes();
            assert_eq!(validate_string(b, 1), Ok((b.len() - 1, true)), "{len}");
            assert_eq!(string_end(b, 1), (b.len() - 1, true), "{len}");
            let text = alloc::format!("\"{body}\u{1f}\"");
            assert_eq!(
                check(&text),
                Err((ControlCharacter, body.len() + 1)),
                "{len}"
            );
            let text = alloc::format!("\"{body}");
            assert_eq!(check(&text), Err((Eof, text.len())), "{len}");
            assert_eq!(string_end(text.as_bytes(), 1), (text.len(), false));
        }
    }

    /// The first `"`, `\\` or (validating) control byte, one at a time.
    fn naive_special(b: &[u8], i: usize, validate: bool) -> usize {
        (i..b.len())
            .find(|&k| b[k] == b'"' || b[k] == b'\\' || (validate && b[k] < 0x20))
            .unwrap_or(b.len())
    }

    #[test]
    fn word_scan_matches_a_byte_at_a_time_scan() {
        // Fillers next to the special bytes, and the special bytes with the
        // high bit set (UTF-8 continuation and lead bytes), which a word scan
        // must not confuse with them.
        let fillers: &[u8] = &[
            b'a', b' ', b'!', b'#', b'[', b']', 0x7f, 0x80, 0xa0, 0xa2, 0xdc, 0xc3, 0xff, 0x21,
        ];
        let specials: &[u8] = &[b'"', b'\\', 0x00, 0x01, 0x0a, 0x1f];
        for len in 0..=40 {
            for &fill in fillers {
                let mut b = alloc::vec![fill; len];
                for i in 0..=len.min(9) {
                    // No special byte at all.
                    assert_eq!(find_special::<true>(&b, i), len, "{len} {fill:#x} {i}");
                    assert_eq!(find_special::<false>(&b, i), len, "{len} {fill:#x} {i}");
                    for p in i..len {
                        for &sp in specials {
                            b[p] = sp;
                            // A second special byte further on must not win.
                            if p + 3 < len {
                                b[p + 3] = b'"';
                            }
                            for validate in [true, false] {
                                let got = if validate {
                                    find_special::<true>(&b, i)
                                } else {
                                    find_special::<false>(&b, i)
                                };
                                assert_eq!(
                                    got,
                                    naive_special(&b, i, validate),
                                    "len {len} fill {fill:#x} start {i} at {p} byte {sp:#x} {validate}"
                                );
                            }
                            b[p] = fill;
                            if p + 3 < len {
                                b[p + 3] = fill;
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn long_strings_hand_over_to_memchr_at_every_offset() {
        // Past `SHORT_RUN`, the scan continues with `memchr2`: a special byte
        // on either side of the hand-over, and a control byte before a quote.
        for p in 0..3 * SHORT_RUN {
            let mut b = alloc::vec![b'x'; 3 * SHORT_RUN + 5];
            b[p] = b'"';
            assert_eq!(find_special::<true>(&b, 0), p, "{p}");
            assert_eq!(string_end(&b, 0), (p, false), "{p}");
            b[p] = b'\\';
            assert_eq!(find_special::<false>(&b, 0), p, "{p}");
            b[p] = 0x1f;
            assert_eq!(find_special::<true>(&b, 0), p, "{p}");
            assert_eq!(find_special::<false>(&b, 0), b.len(), "{p}");
            assert_eq!(
                validate_string(&b, 0),
                Err(JsonError::new(ControlCharacter, p))
            );
        }
    }

    #[test]
    fn escapes_at_every_offset() {
        // `\\"` and `\\\\` at every position of strings around the word size:
        // the escaped quote is not the end, the flag is set, the end is right.
        for len in 0..24 {
            for p in 0..=len {
                for esc in [r#"\""#, r"\\", r"\n", r"\u00e9"] {
                    let body = "a".repeat(p) + esc + &"é".repeat((len - p) / 2);
                    let text = alloc::format!("\"{body}\"");
                    let b = text.as_bytes();
                    let close = b.len() - 1;
                    assert_eq!(validate_string(b, 1), Ok((close, true)), "{text}");
                    assert_eq!(string_end(b, 1), (close, true), "{text}");
                }
            }
        }
    }

    #[test]
    fn walker_finds_the_same_ends() {
        let table: &[&str] = &[
            r#""a\"b\\""#,
            r#"{"a}":"]","b":[{"c":"\\"}]}"#,
            "[1,[2,[3]],{}]",
        ];
        for src in table {
            let b = src.as_bytes();
            let end = validate(src).unwrap().end;
            let walked = if b[0] == b'"' {
                string_end(b, 1).0 + 1
            } else {
                container_end(b, 0)
            };
            assert_eq!(walked, end, "{src}");
        }
        assert_eq!(number_end(b"-1.5e+3,", 0), 7);
        assert_eq!(string_end(br#""a\"#, 1), (3, true)); // clamps, no panic
        assert_eq!(string_end(br#""a\""#, 1), (4, true)); // clamps, no panic
    }

    #[test]
    fn walker_finds_string_ends_through_any_escapes() {
        // Every sequence of up to six pieces (escaped quotes and
        // backslashes in runs of any length, other escapes, text), padded
        // so the first backslash falls at every word offset, then
        // followed by more JSON: the walker ends where the validator does.
        use alloc::string::String;
        const PIECES: [&str; 6] = ["a", r"\\", r#"\""#, r"\n", r"\u00e9", "é"];
        let mut src = String::new();
        for n in 0..=6u32 {
            for mut code in 0..PIECES.len().pow(n) {
                for pad in [0, 5, 63, 64, 70] {
                    src.clear();
                    src.push('"');
                    src.extend(core::iter::repeat_n('x', pad));
                    for _ in 0..n {
                        src.push_str(PIECES[code % PIECES.len()]);
                        code /= PIECES.len();
                    }
                    src.push_str(r#"","b\"":1"#);
                    let b = src.as_bytes();
                    let (close, escaped) = string_end(b, 1);
                    let body = &src[1..close];
                    assert_eq!(validate_string(b, 1).unwrap(), (close, escaped), "{src}");
                    assert_eq!(escaped, body.contains('\\'), "{src}");
                }
            }
        }
    }
}
