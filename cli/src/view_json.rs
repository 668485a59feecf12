//! Writes a decoded view back out as JSON, from the view itself (through the
//! [`Fields`] visitor), never by echoing the input text: so a line of
//! `ssekit events` shows exactly what the view decoded.

use std::fmt;
use std::io::Write as _;

use ssekit::json::{JsonStr, RawJson};
use ssekit::responses::{DecodeError, FieldValue, Fields};

/// A reusable buffer for one output line.
#[derive(Default)]
pub(crate) struct Line {
    pub(crate) buf: Vec<u8>,
    /// Unescaped text of the string being written (reused).
    scratch: String,
}

impl Line {
    /// Starts a new line.
    pub(crate) fn clear(&mut self) {
        self.buf.clear();
    }

    /// Appends JSON text as it is (the caller vouches for it).
    pub(crate) fn raw(&mut self, json: &str) {
        self.buf.extend_from_slice(json.as_bytes());
    }

    /// Appends `s` as a JSON string.
    pub(crate) fn str(&mut self, s: &str) {
        // Writing to a `Vec` cannot fail, and a `&str` always serializes.
        let _ = serde_json::to_writer(&mut self.buf, s);
    }

    /// Appends the unescaped text of `s` as a JSON string.
    pub(crate) fn json_str(&mut self, s: JsonStr<'_>) {
        match s.as_str() {
            Some(plain) => self.str(plain),
            None => {
                let mut scratch = std::mem::take(&mut self.scratch);
                scratch.clear();
                s.unescape_into(&mut scratch);
                self.str(&scratch);
                self.scratch = scratch;
            }
        }
    }

    /// Appends a raw JSON value. Its text is valid JSON (the views validated
    /// it), so any CR or LF in it is whitespace between tokens (inside
    /// strings they must be escaped): it becomes a space, keeping the output
    /// one object per line.
    pub(crate) fn raw_json(&mut self, raw: RawJson<'_>) {
        let start = self.buf.len();
        self.raw(raw.get());
        for b in &mut self.buf[start..] {
            if matches!(*b, b'\n' | b'\r') {
                *b = b' ';
            }
        }
    }

    /// Appends `{`, every field of `view` as `"key":value`, and `}`.
    ///
    /// # Errors
    ///
    /// When an array element does not decode; the line is then incomplete
    /// and must be dropped.
    pub(crate) fn object(&mut self, view: &dyn Fields<'_>) -> Result<(), Unwritable> {
        self.buf.push(b'{');
        let mut result = Ok(());
        let mut first = true;
        view.for_each_field(&mut |name, value| {
            if result.is_err() {
                return;
            }
            if !first {
                self.buf.push(b',');
            }
            first = false;
            self.str(name);
            self.buf.push(b':');
            result = self.value(value);
        });
        result?;
        self.buf.push(b'}');
        Ok(())
    }

    /// Appends one value.
    pub(crate) fn value(&mut self, value: FieldValue<'_, '_>) -> Result<(), Unwritable> {
        match value {
            FieldValue::Str(s) => self.json_str(s),
            FieldValue::U64(n) => {
                let _ = write!(self.buf, "{n}");
            }
            FieldValue::I64(n) => {
                let _ = write!(self.buf, "{n}");
            }
            // Shortest text that parses back to the same `f64` (the views
            // only hold finite ones); always with a `.` or exponent.
            FieldValue::F64(x) => {
                let _ = serde_json::to_writer(&mut self.buf, &x);
            }
            FieldValue::Bool(b) => self.raw(if b { "true" } else { "false" }),
            FieldValue::Raw(r) => self.raw_json(r),
            FieldValue::Object(o) => return self.object(o),
            FieldValue::Array(a) => {
                self.buf.push(b'[');
                let mut result = Ok(());
                let mut first = true;
                a.for_each_element(&mut |element| {
                    if result.is_err() {
                        return;
                    }
                    if !first {
                        self.buf.push(b',');
                    }
                    first = false;
                    result = element
                        .map_err(Unwritable::Element)
                        .and_then(|v| self.value(v));
                });
                result?;
                self.buf.push(b']');
            }
            // A kind of value added to the views after this tool was
            // written: the line could not be faithful, so it is dropped.
            _ => return Err(Unwritable::NewKind),
        }
        Ok(())
    }
}

/// Why a view could not be written out.
#[derive(Debug)]
pub(crate) enum Unwritable {
    /// An array element did not decode.
    Element(DecodeError),
    /// A kind of [`FieldValue`] this tool does not know.
    NewKind,
}

impl fmt::Display for Unwritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Element(e) => write!(f, "array element: {e}"),
            Self::NewKind => f.write_str("a field of a kind this tool cannot write"),
        }
    }
}
