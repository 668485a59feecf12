//! Partial JSON: the best-effort value of a JSON text that is still arriving.
//!
//! One resumable, non-recursive scanner ([`PartialJson`]) with the same
//! grammar, error kinds and error offsets as the JSON layer's validator. It
//! keeps two buffers: `out`, the *committed* text (a prefix of the input,
//! from the value's first byte to the last point where the text so far is
//! a complete value once closed) followed by the closing tail; and
//! `pending`, the input after the commit point that is not shown yet (a
//! comma, a key, a number, a half escape, whitespace). Every input byte is
//! stored once in `pending` at most and moved once into `out` at most, so a
//! stream costs its length, however it is cut.

use alloc::string::String;
use core::fmt;

use super::{finite, magnitude, JsonError, JsonErrorKind, MAX_DEPTH};

/// A reusable repairer of incomplete JSON: the best-effort value of the text
/// received so far, as a complete JSON text, for showing tool-call arguments
/// while they stream.
///
/// Feed it the argument deltas with [`feed`](Self::feed) and read
/// [`current`](Self::current) after each one, or repair a whole prefix at
/// once with [`repair`](Self::repair). When the text is over,
/// [`finish`](Self::finish) checks that it was complete.
///
/// # The repair
///
/// The repair is always `text[v..c]` followed by a tail made only of `"`,
/// `]` and `}`: `v` is where the value starts (leading whitespace is not
/// copied) and `c` is the *commit point*, the last place where the text is a
/// complete value once the open string, arrays and objects are closed. The
/// original spacing is kept: `{"location": "San` → `{"location": "San"}`.
/// The rules that place the commit point:
///
/// * **Strings** are shown as far as they go, closed with `"`, except for a
///   key (see objects). A dangling backslash and an incomplete `\uXXXX`
///   escape are left out. An escaped high surrogate (`\ud83d`) is held back
///   until its low half arrives, so a repair never ends a string in half a
///   surrogate pair. A surrogate escape that the input leaves unpaired, as
///   in `"\ud800x"`, is an error, as for the JSON layer and `serde_json`:
///   every repair is valid for `serde_json`.
/// * **Arrays and objects** are shown as soon as they open (`[` → `[]`,
///   `{` → `{}`) and closed innermost first. A trailing comma is dropped.
/// * **An object member** is shown only once its value has started: a member
///   whose key is incomplete, or that has no value yet, is dropped
///   (`{"a` → `{}`, `{"a": ` → `{}`, `{"a": 1, "b` → `{"a": 1}`); a member
///   whose value is a string, array or object that has only begun is shown
///   with the repaired value (`{"a": "x` → `{"a": "x"}`, `{"a": [` →
///   `{"a": []}`).
/// * **A number** is shown only once something follows it (a `,`, `]`, `}`
///   or whitespace), because until then more digits may come: `[1, 12` →
///   `[1]`, never `[1, 1]`. Showing a valid prefix of the digits instead
///   would show a value (`1`) that the final text contradicts (`12`).
/// * **`true`, `false`, `null`** are shown once complete; `tru` is dropped
///   like an unfinished number.
/// * **Nothing yet**: when no value has started (an empty or all-whitespace
///   text, or a top-level number or literal still being read),
///   [`current`](Self::current) is `None` rather than an invented value: a UI
///   renders its own placeholder (`unwrap_or("{}")`).
/// * **A complete text** repairs to itself without the surrounding
///   whitespace, except a top-level number, which is only known to be
///   complete at a trailing space or at [`finish`](Self::finish).
///
/// These rules make the repair *prefix-consistent*: for any prefixes
/// `p ≤ q` of a text, the repair of `p` approximates the repair of `q` and the
/// final value (scalars equal; a string a prefix of the final string; an
/// array a prefix of the final elements, all but its last equal and the last
/// approximating; an object a subset of the final members, all but at most
/// one equal and that one approximating). The UI never shows a value that it
/// must later take back, only values that grow.
///
/// # Errors
///
/// Text that no continuation can make valid (`{"a" 1`, `]`, `[1,]`, an
/// invalid escape, a control character in a string, nesting deeper than
/// [`MAX_DEPTH`]) fails with the [`JsonError`] the JSON layer's validator
/// reports for the same text: the same kind, at the same byte offset,
/// counted from the start of the whole text. The error is sticky: later
/// calls to [`feed`](Self::feed) and [`finish`](Self::finish) return it
/// until [`reset`](Self::reset); [`current`](Self::current) keeps the repair
/// of the text before the offending byte. A text that is merely incomplete
/// is never an error until [`finish`](Self::finish), which then fails with
/// [`JsonErrorKind::Eof`].
///
/// # Cost
///
/// [`feed`](Self::feed) costs O(`delta.len()` + depth): the new bytes are
/// scanned once, the scanner's state (container stack, position in a string,
/// escape or number) is kept between calls, and the closing tail (at most
/// [`MAX_DEPTH`] + 1 bytes) is rewritten. A stream of N deltas costs
/// O(total length + N × depth), not O(N × length). Nothing recurses.
/// The two internal buffers are reused: once they have grown to the size of
/// the texts being repaired (after [`reset`](Self::reset) too), no call
/// allocates; [`with_capacity`](Self::with_capacity) sizes them up front.
///
/// # Example: rendering function-call arguments as they stream
///
/// ```
/// use ssekit::json::partial::PartialJson;
/// use ssekit::json::ObjectView;
///
/// // `response.function_call_arguments.delta` event data, as they arrive.
/// let events = [
///     r#"{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{\"loc"}"#,
///     r#"{"type":"response.function_call_arguments.delta","output_index":0,"delta":"ation\": \"San"}"#,
///     r#"{"type":"response.function_call_arguments.delta","output_index":0,"delta":" Francisco\", \"unit\": \"c"}"#,
///     r#"{"type":"response.function_call_arguments.delta","output_index":0,"delta":"elsius\", \"days\": 1"}"#,
///     r#"{"type":"response.function_call_arguments.delta","output_index":0,"delta":"0}"}"#,
/// ];
///
/// let mut arguments = PartialJson::new();
/// let mut delta = String::new(); // reused
/// let mut shown = Vec::new();
/// for data in events {
///     let event = ObjectView::parse(data)?;
///     delta.clear();
///     event.get("delta").and_then(|d| d.as_json_str()).unwrap().unescape_into(&mut delta);
///     arguments.feed(&delta)?;
///     shown.push(arguments.current().unwrap_or("…").to_owned());
/// }
/// assert_eq!(shown, [
///     r#"{}"#, // the key is not complete yet
///     r#"{"location": "San"}"#,
///     r#"{"location": "San Francisco", "unit": "c"}"#,
///     r#"{"location": "San Francisco", "unit": "celsius"}"#, // `"days": 1` may be 10…
///     r#"{"location": "San Francisco", "unit": "celsius", "days": 10}"#, // …and it was
/// ]);
/// // At `response.function_call_arguments.done`: the arguments are complete.
/// assert_eq!(arguments.finish()?, r#"{"location": "San Francisco", "unit": "celsius", "days": 10}"#);
/// # Ok::<(), ssekit::json::JsonError>(())
/// ```
#[derive(Clone, Default)]
pub struct PartialJson {
    /// The committed text, from the value's first byte, then the closing tail.
    out: String,
    /// Length of the committed part of `out`.
    committed: usize,
    /// Input after the commit point, not shown (yet).
    pending: String,
    /// The open containers, innermost in bit 0: 1 for an object.
    stack: u128,
    depth: usize,
    state: State,
    /// Bytes pushed so far: the offset of the next byte.
    offset: usize,
    /// The first error, returned again until `reset`.
    error: Option<JsonError>,
    /// Offset of the first byte of the number being read (see `number_fits`).
    num_start: usize,
}

/// Where the scanner is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Expecting a value; `]` may come instead just after `[` (`may_close`).
    Value { may_close: bool },
    /// Expecting a member's key; `}` may come instead just after `{`.
    Key { may_close: bool },
    /// In a key (not shown: the member is dropped until its value starts).
    /// `held`: the offset of an escaped high surrogate waiting for its low
    /// half.
    KeyStr { esc: Esc, held: Option<usize> },
    /// After a key, expecting `:`.
    Colon,
    /// In a string value (shown). `held`: the offset of an escaped high
    /// surrogate that waits, not shown, at the end of `pending` for its low
    /// half.
    Str { esc: Esc, held: Option<usize> },
    /// In a number (not shown until it ends).
    Number(Num),
    /// In `true`, `false` or `null`: the bytes still to come, and the
    /// offset of the first (where a misspelling is reported, as the JSON
    /// layer does).
    Literal { rest: &'static [u8], start: usize },
    /// After a complete value.
    After,
}

impl Default for State {
    fn default() -> Self {
        Self::Value { may_close: false }
    }
}

/// Where the scanner is in an escape sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Esc {
    /// Not in an escape.
    None,
    /// Just after the backslash at offset `at`.
    Backslash { at: usize },
    /// After `\u` (backslash at `at`) and `digits` hex digits, worth `code`.
    Unicode { at: usize, digits: u8, code: u16 },
}

/// What a complete escape does to the pairing of surrogates, as the JSON
/// layer's validator checks it: `held` is the offset of an escaped high
/// surrogate still waiting for its low half, `at` the offset of this
/// escape's backslash, `code` its code unit (for `\uXXXX`). Returns the new
/// `held`, or [`JsonErrorKind::LoneSurrogate`] at the unpaired half.
fn pair(held: Option<usize>, at: usize, code: Option<u16>) -> Result<Option<usize>, JsonError> {
    let lone = |at| Err(JsonError::new(JsonErrorKind::LoneSurrogate, at));
    match (held, code) {
        (None, Some(0xD800..=0xDBFF)) => Ok(Some(at)),
        (None, Some(0xDC00..=0xDFFF)) => lone(at),
        (None, _) => Ok(None),
        (Some(_), Some(0xDC00..=0xDFFF)) => Ok(None),
        (Some(h), _) => lone(h),
    }
}

/// What one byte did to an escape sequence.
enum EscStep {
    /// Still in it.
    More(Esc),
    /// It is complete; for `\uXXXX`, with its code unit.
    Done(Option<u16>),
    /// It is invalid: report at the backslash.
    Invalid(usize),
}

impl Esc {
    /// The offset of the escape's backslash (0 for `Esc::None`).
    fn at(self) -> usize {
        match self {
            Self::None => 0,
            Self::Backslash { at } | Self::Unicode { at, .. } => at,
        }
    }

    /// [`step`](Self::step) after an escaped high surrogate (`held`): only
    /// `\u` may follow its backslash, as the validator requires.
    fn step_paired(self, c: u8, held: Option<usize>) -> Result<EscStep, JsonError> {
        match (self, held) {
            (Self::Backslash { .. }, Some(h)) if c != b'u' => {
                Err(JsonError::new(JsonErrorKind::LoneSurrogate, h))
            }
            _ => Ok(self.step(c)),
        }
    }

    /// Advances the escape (not `Esc::None`) over byte `c`.
    fn step(self, c: u8) -> EscStep {
        match self {
            Self::None => EscStep::Done(None),
            Self::Backslash { at } => match c {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => EscStep::Done(None),
                b'u' => EscStep::More(Self::Unicode {
                    at,
                    digits: 0,
                    code: 0,
                }),
                _ => EscStep::Invalid(at),
            },
            Self::Unicode { at, digits, code } => {
                let Some(v) = char::from(c).to_digit(16) else {
                    return EscStep::Invalid(at);
                };
                // Four hex digits fit a u16; `v < 16`.
                let code = (code << 4) | v as u16;
                if digits == 3 {
                    EscStep::Done(Some(code))
                } else {
                    EscStep::More(Self::Unicode {
                        at,
                        digits: digits + 1,
                        code,
                    })
                }
            }
        }
    }
}

/// Where the scanner is in a number:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    E,
    ESign,
    Exp,
}

/// What one byte did to a number.
enum NumStep {
    More(Num),
    /// The byte is not part of the number, which is complete before it.
    End,
    /// The byte makes the number invalid.
    Invalid,
}

impl Num {
    fn step(self, c: u8) -> NumStep {
        use Num::*;
        let digit = c.is_ascii_digit();
        let exp = c == b'e' || c == b'E';
        match self {
            Minus if c == b'0' => NumStep::More(Zero),
            Minus | Dot | ESign if !digit => NumStep::Invalid,
            Minus => NumStep::More(Int),
            Dot => NumStep::More(Frac),
            ESign => NumStep::More(Exp),
            Zero if digit => NumStep::Invalid, // a leading zero
            Int if digit => NumStep::More(Int),
            Zero | Int if c == b'.' => NumStep::More(Dot),
            Zero | Int | Frac if exp => NumStep::More(E),
            Frac if digit => NumStep::More(Frac),
            E if c == b'+' || c == b'-' => NumStep::More(ESign),
            E if digit => NumStep::More(Exp),
            E => NumStep::Invalid,
            Exp if digit => NumStep::More(Exp),
            Zero | Int | Frac | Exp => NumStep::End,
        }
    }

    /// Whether the number read so far is a complete number.
    fn is_complete(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::Exp)
    }
}

#[inline]
fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\r' | b'\t')
}

/// Index of the first `"`, `\` or control character at or after `i`, or
/// `b.len()`.
#[inline]
fn string_run_end(b: &[u8], i: usize) -> usize {
    let rest = b.get(i..).unwrap_or_default();
    let run = memchr::memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
    let run_bytes = rest.get(..run).unwrap_or_default();
    // No early exit, so the check vectorises; the position is only looked
    // for when there is a control character.
    if run_bytes.iter().fold(false, |any, &c| any | (c < 0x20)) {
        return i + run_bytes.iter().position(|&c| c < 0x20).unwrap_or(run);
    }
    i + run
}

/// The delta being scanned and how much of it is stored already.
struct Delta<'d> {
    text: &'d str,
    /// Start of the part of `text` not yet stored in `out` or `pending`.
    stored: usize,
}

impl PartialJson {
    /// An empty repairer. Allocates nothing until text is pushed.
    pub const fn new() -> Self {
        Self {
            out: String::new(),
            committed: 0,
            pending: String::new(),
            stack: 0,
            depth: 0,
            state: State::Value { may_close: false },
            offset: 0,
            error: None,
            num_start: 0,
        }
    }

    /// An empty repairer with room for texts of up to `len` bytes: it will
    /// not allocate while repairing them, however they are pushed.
    ///
    /// (It holds at most the text and, for the closing tail, one byte per
    /// open container and one for an open string.)
    ///
    /// # Panics
    ///
    /// If `len` overflows `isize::MAX` bytes, as [`String::with_capacity`].
    pub fn with_capacity(len: usize) -> Self {
        let mut p = Self::new();
        p.out.reserve(len.saturating_add(MAX_DEPTH + 1));
        p.pending.reserve(len);
        p
    }

    /// Forgets the text, keeping the buffers' memory for the next one.
    pub fn reset(&mut self) {
        self.out.clear();
        self.committed = 0;
        self.pending.clear();
        self.stack = 0;
        self.depth = 0;
        self.state = State::default();
        self.offset = 0;
        self.error = None;
    }

    /// Repairs `prefix` from scratch: [`reset`](Self::reset), then
    /// [`feed`](Self::feed) it, then [`current`](Self::current).
    ///
    /// Costs O(`prefix.len()`); to follow a growing text, [`feed`](Self::feed)
    /// the new part instead of repairing every prefix.
    ///
    /// # Errors
    ///
    /// As [`feed`](Self::feed): the text is invalid, not merely incomplete.
    pub fn repair<'s>(&'s mut self, prefix: &str) -> Result<Option<&'s str>, JsonError> {
        self.reset();
        self.feed(prefix)?;
        Ok(self.current())
    }

    /// Appends the next piece of the text and updates the repair.
    ///
    /// Pieces may be cut anywhere (on `char` boundaries, as `&str` are):
    /// in a key, in an escape, between a surrogate pair's halves, in a number.
    ///
    /// # Errors
    ///
    /// The text so far is invalid, whatever may follow: the JSON layer's
    /// error for it, with the offset counted from the start of the whole
    /// text. Errors are sticky until [`reset`](Self::reset).
    pub fn feed(&mut self, delta: &str) -> Result<(), JsonError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        self.out.truncate(self.committed);
        let mut d = Delta {
            text: delta,
            stored: 0,
        };
        let scanned = self.scan(&mut d);
        match scanned {
            Ok(()) => {
                self.pending
                    .push_str(delta.get(d.stored..).unwrap_or_default());
                self.offset += delta.len();
            }
            Err(e) => self.error = Some(e),
        }
        self.close();
        scanned
    }

    /// The best-effort value of the text so far, as a complete JSON text
    /// (see the [rules](Self#the-repair)); `None` while no value has started.
    ///
    /// O(1): the repair is kept up to date by [`feed`](Self::feed).
    #[inline]
    pub fn current(&self) -> Option<&str> {
        if self.out.is_empty() {
            None
        } else {
            Some(&self.out)
        }
    }

    /// Whether the text so far is one complete JSON value (what
    /// [`finish`](Self::finish) would accept), in O(1).
    pub fn is_complete(&self) -> bool {
        self.error.is_none()
            && self.depth == 0
            && match self.state {
                State::After => true,
                State::Number(n) => n.is_complete(),
                _ => false,
            }
    }

    /// Ends the text: returns it, without surrounding whitespace, if it is
    /// one complete JSON value. A top-level number is complete here even
    /// without whitespace after it.
    ///
    /// # Errors
    ///
    /// [`JsonErrorKind::Eof`] at the length of the text if it is incomplete,
    /// or the sticky error of an earlier [`feed`](Self::feed).
    pub fn finish(&mut self) -> Result<&str, JsonError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        match self.state {
            State::After if self.depth == 0 => {}
            State::Number(n) if self.depth == 0 && n.is_complete() => {
                // Nothing else is stored: the number is the whole value.
                let text = self.pending.as_bytes();
                if magnitude(text.iter().copied()) > 308 && !finite(text) {
                    let e = JsonError::new(JsonErrorKind::NumberOutOfRange, self.num_start);
                    self.error = Some(e);
                    return Err(e);
                }
                self.out.truncate(self.committed);
                self.out.push_str(&self.pending);
                self.pending.clear();
                self.committed = self.out.len();
                self.state = State::After;
            }
            _ => return Err(JsonError::new(JsonErrorKind::Eof, self.offset)),
        }
        Ok(&self.out)
    }

    /// Moves everything stored but not shown, and `d`'s bytes up to `end`,
    /// into the shown text.
    fn commit(&mut self, d: &mut Delta<'_>, end: usize) {
        self.out.push_str(&self.pending);
        self.pending.clear();
        self.out
            .push_str(d.text.get(d.stored..end).unwrap_or_default());
        d.stored = end;
    }

    /// Drops what is stored but not shown, and `d`'s bytes up to `end`
    /// (whitespace around the top-level value).
    fn discard(&mut self, d: &mut Delta<'_>, end: usize) {
        self.pending.clear();
        d.stored = end;
    }

    /// Whether the number from offset `num_start` to `d.text[end]` (not
    /// included) is finite as an `f64`, as the JSON layer requires. Its
    /// bytes are the end of `pending` followed by `d.text[d.stored..end]`.
    fn number_fits(&self, d: &Delta<'_>, end: usize) -> bool {
        let here = d.text.get(d.stored..end).unwrap_or_default().as_bytes();
        let len = (self.offset + end).saturating_sub(self.num_start);
        let earlier = len.saturating_sub(here.len());
        let head = self
            .pending
            .as_bytes()
            .get(self.pending.len().saturating_sub(earlier)..)
            .unwrap_or_default();
        let here = here
            .get(here.len().saturating_sub(len)..)
            .unwrap_or_default();
        if magnitude(head.iter().chain(here).copied()) <= 308 {
            return true;
        }
        // Within a factor of ten of `f64::MAX` or past it: rare enough to copy.
        let mut text = alloc::vec::Vec::with_capacity(len);
        text.extend_from_slice(head);
        text.extend_from_slice(here);
        finite(&text)
    }

    /// Records the commit point and writes the closing tail after it.
    fn close(&mut self) {
        self.committed = self.out.len();
        if self.out.is_empty() {
            return;
        }
        if matches!(self.state, State::Str { .. }) {
            self.out.push('"');
        }
        for level in 0..self.depth {
            let object = (self.stack >> level) & 1 == 1;
            self.out.push(if object { '}' } else { ']' });
        }
    }

    fn in_object(&self) -> bool {
        self.stack & 1 == 1
    }

    /// Scans `d.text`, committing as values complete.
    fn scan(&mut self, d: &mut Delta<'_>) -> Result<(), JsonError> {
        let b = d.text.as_bytes();
        let base = self.offset;
        let fail = |kind, i: usize| Err(JsonError::new(kind, base + i));
        let mut i = 0;
        while let Some(&c) = b.get(i) {
            match self.state {
                State::Value { may_close } => {
                    if is_ws(c) {
                        if self.depth == 0 {
                            self.discard(d, i + 1);
                        }
                        i += 1;
                        continue;
                    }
                    match c {
                        b'"' => {
                            self.commit(d, i + 1);
                            self.state = State::Str {
                                esc: Esc::None,
                                held: None,
                            };
                        }
                        b'{' | b'[' => {
                            if self.depth == MAX_DEPTH {
                                return fail(JsonErrorKind::TooDeep, i);
                            }
                            let object = c == b'{';
                            self.stack = (self.stack << 1) | u128::from(object);
                            self.depth += 1;
                            self.commit(d, i + 1);
                            self.state = if object {
                                State::Key { may_close: true }
                            } else {
                                State::Value { may_close: true }
                            };
                        }
                        b'-' | b'0'..=b'9' => {
                            self.num_start = base + i;
                            self.state = State::Number(match c {
                                b'-' => Num::Minus,
                                b'0' => Num::Zero,
                                _ => Num::Int,
                            });
                        }
                        b't' | b'f' | b'n' => {
                            let rest: &'static [u8] = match c {
                                b't' => b"rue",
                                b'f' => b"alse",
                                _ => b"ull",
                            };
                            self.state = State::Literal {
                                rest,
                                start: base + i,
                            };
                        }
                        b']' if may_close => self.end_container(d, i),
                        b']' if self.depth > 0 && !self.in_object() => {
                            return fail(JsonErrorKind::TrailingComma, i);
                        }
                        _ => return fail(JsonErrorKind::ExpectedValue, i),
                    }
                    i += 1;
                }
                State::Key { may_close } => {
                    match c {
                        _ if is_ws(c) => {}
                        b'"' => {
                            self.state = State::KeyStr {
                                esc: Esc::None,
                                held: None,
                            }
                        }
                        b'}' if may_close => self.end_container(d, i),
                        b'}' => return fail(JsonErrorKind::TrailingComma, i),
                        _ => return fail(JsonErrorKind::ExpectedKey, i),
                    }
                    i += 1;
                }
                State::KeyStr {
                    esc: Esc::None,
                    held: Some(h),
                } => {
                    if c != b'\\' {
                        return Err(JsonError::new(JsonErrorKind::LoneSurrogate, h));
                    }
                    self.state = State::KeyStr {
                        esc: Esc::Backslash { at: base + i },
                        held: Some(h),
                    };
                    i += 1;
                }
                State::KeyStr {
                    esc: Esc::None,
                    held: None,
                } => {
                    let k = string_run_end(b, i);
                    match b.get(k) {
                        None => {}
                        Some(b'"') => self.state = State::Colon,
                        Some(b'\\') => {
                            self.state = State::KeyStr {
                                esc: Esc::Backslash { at: base + k },
                                held: None,
                            }
                        }
                        Some(_) => return fail(JsonErrorKind::ControlCharacter, k),
                    }
                    i = k + 1;
                }
                State::KeyStr { esc, held } => {
                    let held = match esc.step_paired(c, held)? {
                        EscStep::More(esc) => Some((esc, held)),
                        EscStep::Done(code) => Some((Esc::None, pair(held, esc.at(), code)?)),
                        EscStep::Invalid(at) => {
                            return Err(JsonError::new(JsonErrorKind::InvalidEscape, at))
                        }
                    };
                    if let Some((esc, held)) = held {
                        self.state = State::KeyStr { esc, held };
                    }
                    i += 1;
                }
                State::Colon => {
                    match c {
                        _ if is_ws(c) => {}
                        b':' => self.state = State::Value { may_close: false },
                        _ => return fail(JsonErrorKind::ExpectedColon, i),
                    }
                    i += 1;
                }
                State::Str {
                    esc: Esc::None,
                    held: Some(h),
                } => {
                    // Only the low half of the pair may follow.
                    if c != b'\\' {
                        return Err(JsonError::new(JsonErrorKind::LoneSurrogate, h));
                    }
                    self.state = State::Str {
                        esc: Esc::Backslash { at: base + i },
                        held: Some(h),
                    };
                    i += 1;
                }
                State::Str {
                    esc: Esc::None,
                    held: None,
                } => {
                    let k = string_run_end(b, i);
                    if k > i {
                        // Plain characters: shown at once.
                        self.commit(d, k);
                    }
                    match b.get(k) {
                        None => {}
                        Some(b'"') => {
                            self.commit(d, k + 1);
                            self.state = State::After;
                        }
                        Some(b'\\') => {
                            self.state = State::Str {
                                esc: Esc::Backslash { at: base + k },
                                held: None,
                            };
                        }
                        Some(_) => return fail(JsonErrorKind::ControlCharacter, k),
                    }
                    i = k + 1;
                }
                State::Str { esc, held } => {
                    match esc.step_paired(c, held)? {
                        EscStep::More(esc) => self.state = State::Str { esc, held },
                        EscStep::Done(code) => {
                            let held = pair(held, esc.at(), code)?;
                            if held.is_none() {
                                // A whole character (or pair): shown. A high
                                // surrogate waits, not shown, for its low half.
                                self.commit(d, i + 1);
                            }
                            self.state = State::Str {
                                esc: Esc::None,
                                held,
                            };
                        }
                        EscStep::Invalid(at) => {
                            return Err(JsonError::new(JsonErrorKind::InvalidEscape, at))
                        }
                    }
                    i += 1;
                }
                State::Number(n) => match n.step(c) {
                    NumStep::More(n) => {
                        self.state = State::Number(n);
                        i += 1;
                    }
                    NumStep::End => {
                        if !self.number_fits(d, i) {
                            return Err(JsonError::new(
                                JsonErrorKind::NumberOutOfRange,
                                self.num_start,
                            ));
                        }
                        // Shown now that it cannot grow; `c` is read again
                        // as what follows a value.
                        self.commit(d, i);
                        self.state = State::After;
                    }
                    NumStep::Invalid => return fail(JsonErrorKind::InvalidNumber, i),
                },
                State::Literal { rest, start } => {
                    match rest.split_first() {
                        Some((&want, rest)) if want == c => {
                            if rest.is_empty() {
                                self.commit(d, i + 1);
                                self.state = State::After;
                            } else {
                                self.state = State::Literal { rest, start };
                            }
                        }
                        _ => return Err(JsonError::new(JsonErrorKind::InvalidLiteral, start)),
                    }
                    i += 1;
                }
                State::After => {
                    if is_ws(c) {
                        if self.depth == 0 {
                            self.discard(d, i + 1);
                        }
                        i += 1;
                        continue;
                    }
                    let object = self.in_object();
                    match c {
                        _ if self.depth == 0 => {
                            return fail(JsonErrorKind::TrailingCharacters, i);
                        }
                        b',' if object => self.state = State::Key { may_close: false },
                        b',' => self.state = State::Value { may_close: false },
                        b'}' if object => self.end_container(d, i),
                        b']' if !object => self.end_container(d, i),
                        _ if object => return fail(JsonErrorKind::ExpectedCommaOrObjectEnd, i),
                        _ => return fail(JsonErrorKind::ExpectedCommaOrArrayEnd, i),
                    }
                    i += 1;
                }
            }
        }
        Ok(())
    }

    /// Closes the innermost container with the byte at `i`.
    fn end_container(&mut self, d: &mut Delta<'_>, i: usize) {
        self.stack >>= 1;
        self.depth = self.depth.saturating_sub(1);
        self.commit(d, i + 1);
        self.state = State::After;
    }
}

impl fmt::Debug for PartialJson {
    /// The current repair and the text held back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PartialJson")
            .field("current", &self.current())
            .field("pending", &self.pending)
            .field("offset", &self.offset)
            .field("error", &self.error)
            .finish()
    }
}

/// Repairs `prefix`, an incomplete JSON text, into the complete JSON text of
/// its best-effort value; `None` while no value has started. See
/// [`PartialJson`] for the rules; to repair many texts, or a text as it
/// grows, reuse a [`PartialJson`] instead (this allocates the result).
///
/// ```
/// use ssekit::json::partial::repair_partial_json;
///
/// assert_eq!(repair_partial_json(r#"{"location": "San"#)?.as_deref(), Some(r#"{"location": "San"}"#));
/// assert_eq!(repair_partial_json(r#"[1, {"a": tr"#)?.as_deref(), Some("[1, {}]"));
/// assert_eq!(repair_partial_json(" ")?, None);
/// assert!(repair_partial_json(r#"{"a" 1"#).is_err());
/// # Ok::<(), ssekit::json::JsonError>(())
/// ```
///
/// # Errors
///
/// The text is invalid, not merely incomplete: the JSON layer's error for it.
pub fn repair_partial_json(prefix: &str) -> Result<Option<String>, JsonError> {
    let mut repairer = PartialJson::new();
    Ok(repairer.repair(prefix)?.map(String::from))
}

/// The repair of `text` as far as it is a valid JSON prefix: the whole
/// text's when it is one, else that of the text before the first error
/// (what a live view of streamed tool arguments shows); `None` while no
/// value has started.
pub(crate) fn repair_valid_prefix(text: &str) -> Option<String> {
    let mut p = PartialJson::new();
    let _ = p.feed(text);
    p.current().map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Value;
    use alloc::format;
    use alloc::string::ToString;
    use alloc::vec::Vec;
    use JsonErrorKind::*;

    #[test]
    fn is_complete_agrees_with_the_validator_at_every_split() {
        let texts = [
            "",
            " ",
            "12",
            "12 ",
            "-",
            "1e",
            "1e5",
            "[1,",
            "[1]",
            "{}",
            " {} ",
            "{} x",
            "\"a\"",
            "\"a",
            "tru",
            "true",
            "null ",
            "{\"a\":[1,{\"b\":null}]}",
            "[[]",
            "0 1",
        ];
        for t in texts {
            for cut in 0..=t.len() {
                let mut p = PartialJson::new();
                let _ = p.feed(&t[..cut]).and_then(|()| p.feed(&t[cut..]));
                assert_eq!(
                    p.is_complete(),
                    Value::parse(t).is_ok(),
                    "{t:?} cut at {cut}"
                );
            }
        }
    }

    fn repair(text: &str) -> Result<Option<String>, JsonError> {
        repair_partial_json(text)
    }

    /// Pushes `text` in the pieces cut at `cuts` and returns the repair.
    fn pushed(text: &str, cuts: &[usize]) -> Result<Option<String>, JsonError> {
        let mut p = PartialJson::new();
        let mut at = 0;
        for &cut in cuts.iter().chain([&text.len()]) {
            p.feed(&text[at..cut])?;
            at = cut;
        }
        Ok(p.current().map(String::from))
    }

    /// Checks the repair of `text` against the JSON layer's validator, and
    /// that pushing it in any two pieces, or a char at a time, changes nothing.
    fn check_consistent(text: &str) {
        let whole = repair(text);
        match Value::parse(text) {
            Err(e) if !e.is_eof() => assert_eq!(whole, Err(e), "{text:?}"),
            Err(e) => {
                assert!(whole.is_ok(), "{text:?}: {whole:?}");
                let mut p = PartialJson::new();
                p.feed(text).unwrap();
                assert_eq!(p.finish(), Err(e), "{text:?}");
            }
            Ok(_) => {
                let trimmed = text.trim_matches([' ', '\n', '\r', '\t']);
                let mut p = PartialJson::new();
                p.feed(text).unwrap();
                assert_eq!(p.finish(), Ok(trimmed), "{text:?}");
                if !trimmed.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])
                    || text.ends_with(' ')
                {
                    assert_eq!(whole, Ok(Some(trimmed.to_string())), "{text:?}");
                }
            }
        }
        if let Ok(Some(r)) = &whole {
            assert!(Value::parse(r).is_ok(), "{text:?} → {r:?}");
        }
        for (cut, _) in text.char_indices().skip(1) {
            assert_eq!(pushed(text, &[cut]), whole, "{text:?} cut at {cut}");
        }
        let every: Vec<usize> = text.char_indices().map(|(i, _)| i).skip(1).collect();
        assert_eq!(pushed(text, &every), whole, "{text:?} a char at a time");
    }

    #[test]
    fn repairs() {
        let table: &[(&str, Option<&str>)] = &[
            // Nothing yet.
            ("", None),
            (" \n\t\r", None),
            ("-", None),
            ("12", None),
            ("1.", None),
            ("1e", None),
            ("-0.5e+1", None),
            ("tru", None),
            ("nul", None),
            ("fals", None),
            // The doc example, with the original spacing.
            (r#"{"location": "San"#, Some(r#"{"location": "San"}"#)),
            (r#"  {"location":"San"#, Some(r#"{"location":"San"}"#)),
            // Containers open at once and close innermost first.
            ("{", Some("{}")),
            ("[", Some("[]")),
            (" [ ", Some("[]")),
            ("{ ", Some("{}")),
            ("[[[", Some("[[[]]]")),
            (r#"{"a": [1, {"b": ["#, Some(r#"{"a": [1, {"b": []}]}"#)),
            (
                r#"{"a": [1, {"b": [2, "x"#,
                Some(r#"{"a": [1, {"b": [2, "x"]}]}"#),
            ),
            ("[[1, 2], [3", Some("[[1, 2], []]")),
            (r#"{"a": {"b": {"#, Some(r#"{"a": {"b": {}}}"#)),
            // Members without a value yet are dropped.
            (r#"{""#, Some("{}")),
            (r#"{"a"#, Some("{}")),
            (r#"{"a""#, Some("{}")),
            (r#"{"a" "#, Some("{}")),
            (r#"{"a":"#, Some("{}")),
            (r#"{"a": "#, Some("{}")),
            (r#"{"a": ""#, Some(r#"{"a": ""}"#)),
            (r#"{"a": 1"#, Some("{}")),
            (r#"{"a": 1 "#, Some(r#"{"a": 1}"#)),
            (r#"{"a": 1, "b"#, Some(r#"{"a": 1}"#)),
            (r#"{"a": 1, "b": t"#, Some(r#"{"a": 1}"#)),
            (r#"{"a": 1, "b": [tru"#, Some(r#"{"a": 1, "b": []}"#)),
            // Trailing commas are dropped.
            ("[1,", Some("[1]")),
            ("[1 , ", Some("[1]")),
            ("[[],", Some("[[]]")),
            (r#"{"a": 1,"#, Some(r#"{"a": 1}"#)),
            (r#"{"a": {}, "#, Some(r#"{"a": {}}"#)),
            // Numbers and literals at the cut.
            ("[1, 2", Some("[1]")),
            ("[1, 2,", Some("[1, 2]")),
            ("[1, 2]", Some("[1, 2]")),
            ("[-", Some("[]")),
            ("[1.", Some("[]")),
            ("[1.5", Some("[]")),
            ("[1e+", Some("[]")),
            ("[1e+5", Some("[]")),
            ("[1e+5\n", Some("[1e+5]")),
            ("[0", Some("[]")),
            ("[0]", Some("[0]")),
            ("12 ", Some("12")),
            ("[tru", Some("[]")),
            ("[true", Some("[true]")),
            ("[null, fals", Some("[null]")),
            (r#"{"a": false"#, Some(r#"{"a": false}"#)),
            ("true", Some("true")),
            (" null ", Some("null")),
            // Strings: dangling backslashes and escapes are left out.
            (r#"""#, Some(r#""""#)),
            (r#""ab"#, Some(r#""ab""#)),
            (r#""ab\"#, Some(r#""ab""#)),
            (r#""ab\\"#, Some(r#""ab\\""#)),
            (r#""ab\""#, Some(r#""ab\"""#)),
            (r#""ab\u"#, Some(r#""ab""#)),
            (r#""ab\u00"#, Some(r#""ab""#)),
            (r#""ab\u00e"#, Some(r#""ab""#)),
            (r#""ab\u00e9"#, Some(r#""ab\u00e9""#)),
            (r#""ab\n"#, Some(r#""ab\n""#)),
            ("\"é😀", Some("\"é😀\"")),
            // Surrogate pairs: the high half waits for the low half.
            (r#""\ud83d"#, Some(r#""""#)),
            (r#""x\ud83d\"#, Some(r#""x""#)),
            (r#""x\ud83d\u"#, Some(r#""x""#)),
            (r#""x\ud83d\ude0"#, Some(r#""x""#)),
            (r#""x\ud83d\ude00"#, Some(r#""x\ud83d\ude00""#)),
            (
                r#"["\uD83D\uDE00", "\uD83D"#,
                Some(r#"["\uD83D\uDE00", ""]"#),
            ),
            // Keys cut anywhere, escapes included.
            (r#"{"a\"#, Some("{}")),
            (r#"{"a\u00"#, Some("{}")),
            (r#"{"a\ud83d"#, Some("{}")),
            (r#"{"x": 1, "a\"b"#, Some(r#"{"x": 1}"#)),
            (r#"{"a\"b": "c"#, Some(r#"{"a\"b": "c"}"#)),
            // Complete texts repair to themselves, without outer whitespace.
            (
                " {\"a\": [1, 2.5e3, true, null, \"x\\ny\"], \"b\": {}} \n",
                Some("{\"a\": [1, 2.5e3, true, null, \"x\\ny\"], \"b\": {}}"),
            ),
            ("[ ]", Some("[ ]")),
            ("{ }", Some("{ }")),
            ("\"ab\" ", Some("\"ab\"")),
        ];
        for &(text, expected) in table {
            assert_eq!(repair(text), Ok(expected.map(String::from)), "{text:?}");
            check_consistent(text);
        }
    }

    #[test]
    fn rejects_as_the_json_layer_does() {
        let table: &[(&str, (JsonErrorKind, usize))] = &[
            (r#"{"a" 1"#, (ExpectedColon, 5)),
            ("]", (ExpectedValue, 0)),
            ("}", (ExpectedValue, 0)),
            (" ,", (ExpectedValue, 1)),
            ("\u{feff}1", (ExpectedValue, 0)),
            ("+1", (ExpectedValue, 0)),
            ("[,", (ExpectedValue, 1)),
            (r#"{"a":]"#, (ExpectedValue, 5)),
            (r#"{"a":}"#, (ExpectedValue, 5)),
            ("{,", (ExpectedKey, 1)),
            ("{1", (ExpectedKey, 1)),
            (r#"{"a":1,2"#, (ExpectedKey, 7)),
            ("[1,]", (TrailingComma, 3)),
            ("[1, ]", (TrailingComma, 4)),
            (r#"{"a":1,}"#, (TrailingComma, 7)),
            ("[1 2", (ExpectedCommaOrArrayEnd, 3)),
            ("[1}", (ExpectedCommaOrArrayEnd, 2)),
            ("[1x", (ExpectedCommaOrArrayEnd, 2)),
            (r#"{"a":1 "b""#, (ExpectedCommaOrObjectEnd, 7)),
            (r#"{"a":1]"#, (ExpectedCommaOrObjectEnd, 6)),
            ("1 2", (TrailingCharacters, 2)),
            ("{}}", (TrailingCharacters, 2)),
            ("0x1", (TrailingCharacters, 1)),
            ("truex", (TrailingCharacters, 4)),
            ("\"a\" \"b\"", (TrailingCharacters, 4)),
            ("nul1", (InvalidLiteral, 0)),
            ("[tx", (InvalidLiteral, 1)),
            ("[tru]", (InvalidLiteral, 1)),
            ("True", (ExpectedValue, 0)),
            ("01", (InvalidNumber, 1)),
            ("-01", (InvalidNumber, 2)),
            ("-a", (InvalidNumber, 1)),
            ("[-]", (InvalidNumber, 2)),
            ("[1.]", (InvalidNumber, 3)),
            ("1.e5", (InvalidNumber, 2)),
            ("1e+e", (InvalidNumber, 3)),
            (r#""\x"#, (InvalidEscape, 1)),
            (r#""ab\u12G"#, (InvalidEscape, 3)),
            (r#""\U0041"#, (InvalidEscape, 1)),
            (r#""\ud83d\x"#, (LoneSurrogate, 1)),
            (r#""\ud83d\u12x"#, (InvalidEscape, 7)),
            (r#"["ab\udc00"#, (LoneSurrogate, 4)),
            (r#"["\ud83d\u0041"#, (LoneSurrogate, 2)),
            (r#"["\ud83d\ud83d"#, (LoneSurrogate, 2)),
            (r#"{"\ud83d":1}"#, (LoneSurrogate, 2)),
            (r#"{"k\ud83dx"#, (LoneSurrogate, 3)),
            (r#"["\ud83d""#, (LoneSurrogate, 2)),
            ("[1e400,", (NumberOutOfRange, 1)),
            ("[-9e436 ", (NumberOutOfRange, 1)),
            (r#"{"a\x"#, (InvalidEscape, 3)),
            ("\"a\tb", (ControlCharacter, 2)),
            ("{\"a\nb", (ControlCharacter, 3)),
            ("\"\\n\0", (ControlCharacter, 3)),
        ];
        for &(text, (kind, offset)) in table {
            let e = JsonError::new(kind, offset);
            assert_eq!(repair(text), Err(e), "{text:?}");
            assert_eq!(Value::parse(text).map(|_| ()), Err(e), "{text:?}");
            check_consistent(text);
        }
    }

    #[test]
    fn errors_are_sticky_and_keep_the_last_repair() {
        let mut p = PartialJson::new();
        p.feed(r#"{"a": [1, 2, "#).unwrap();
        let e = p.feed("]}").unwrap_err();
        assert_eq!((e.kind(), e.offset()), (TrailingComma, 13));
        assert_eq!(p.current(), Some(r#"{"a": [1, 2]}"#));
        assert_eq!(p.feed("3]}"), Err(e));
        assert_eq!(p.finish(), Err(e));
        // Valid bytes before the error in the same piece are taken.
        p.reset();
        assert_eq!(
            p.feed(r#"["ab", "c"x"#).unwrap_err().kind(),
            ExpectedCommaOrArrayEnd
        );
        assert_eq!(p.current(), Some(r#"["ab", "c"]"#));
        p.reset();
        assert_eq!(p.feed("[1"), Ok(()));
        assert_eq!(p.current(), Some("[]"));
    }

    #[test]
    fn finish() {
        let mut p = PartialJson::new();
        assert_eq!(p.finish(), Err(JsonError::new(Eof, 0)));
        for (text, expected) in [
            ("12", Ok("12")),
            (" -0.5e+10 ", Ok("-0.5e+10")),
            ("1.", Err(JsonError::new(Eof, 2))),
            ("[1", Err(JsonError::new(Eof, 2))),
            (r#"{"a": "b"#, Err(JsonError::new(Eof, 8))),
            ("tru", Err(JsonError::new(Eof, 3))),
            (" true\n", Ok("true")),
            (r#"{"a": [1, 2]} "#, Ok(r#"{"a": [1, 2]}"#)),
        ] {
            p.reset();
            p.feed(text).unwrap();
            assert_eq!(p.finish(), expected, "{text:?}");
            assert_eq!(p.finish(), expected, "{text:?}, again");
            if let Ok(done) = expected {
                assert_eq!(p.current(), Some(done));
                // Only whitespace may follow.
                assert_eq!(p.feed("  "), Ok(()));
                assert_eq!(p.feed("1").unwrap_err().kind(), TrailingCharacters);
            }
        }
    }

    #[test]
    fn depth_is_limited_as_in_the_json_layer() {
        let ok = "[".repeat(MAX_DEPTH);
        assert_eq!(repair(&ok), Ok(Some(ok.clone() + &"]".repeat(MAX_DEPTH))));
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(repair(&deep), Err(JsonError::new(TooDeep, MAX_DEPTH)));
        let full = deep.clone() + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(repair(&full), Value::parse(&full).map(|_| None));
        let objects = r#"{"a":"#.repeat(MAX_DEPTH + 1);
        assert_eq!(
            repair(&objects),
            Err(JsonError::new(TooDeep, 5 * MAX_DEPTH))
        );
        // No recursion, and the error comes at once.
        let huge = "[".repeat(1 << 20);
        assert_eq!(repair(&huge), Err(JsonError::new(TooDeep, MAX_DEPTH)));
        let mut mixed = String::new();
        for level in 0..MAX_DEPTH {
            mixed.push_str(if level % 2 == 0 { r#"{"k": "# } else { "[1, " });
        }
        let repaired = repair(&mixed).unwrap().unwrap();
        assert!(Value::parse(&repaired).is_ok());
        assert!(repaired.ends_with("]}]}"), "{repaired}");
    }

    #[test]
    fn every_prefix_of_a_text_agrees_with_the_validator() {
        let texts = [
            r#" {"location": "San Francisco, CA", "unit": "celsius", "days": [1, 2.5, -3e-2, 0],
               "flags": {"a\"b\\": true, "\ud83d\ude00": null, "n": false}, "s": "\u00e9\n\t\/x"} "#,
            r#"[{"a": []}, [[], {}], "x\ud83d\ude00", 0.5E+7, 10]"#,
            "\"é😀\u{7f}\" ",
        ];
        for text in texts {
            for (cut, _) in text.char_indices().chain([(text.len(), ' ')]) {
                check_consistent(&text[..cut]);
            }
        }
    }

    #[test]
    fn a_stream_costs_its_length() {
        // 256 KiB pushed a byte at a time, the repair read after each byte:
        // quick when a push costs its length, hours if it rescanned or
        // copied the text so far.
        let mut text = String::from(r#"{"rows": ["#);
        while text.len() < 1 << 18 {
            text.push_str(r#"{"k\"": "v\n\u00e9", "n": [1.5, true]}, "#);
        }
        text.push_str(r#"null], "s": ""#);
        text.push_str(&"ab".repeat(1 << 16));
        text.push_str(r#""}"#);
        let mut p = PartialJson::new();
        let mut shown = 0;
        for (i, c) in text.char_indices() {
            p.feed(&text[i..i + c.len_utf8()]).unwrap();
            shown += usize::from(p.current().is_some());
        }
        assert_eq!(shown, text.len());
        assert_eq!(p.finish(), Ok(text.as_str()));
    }

    #[test]
    fn debug_shows_the_repair() {
        let mut p = PartialJson::new();
        p.feed("[1, 2").unwrap();
        let s = format!("{p:?}");
        assert!(s.contains(r#"current: Some("[1]")"#), "{s}");
        assert!(s.contains(r#"pending: ", 2""#), "{s}");
        assert_eq!(PartialJson::default().current(), None);
        assert!(JsonError::new(Eof, 0).to_string().contains("end of input"));
    }
}
