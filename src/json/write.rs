//! Writing JSON: string literals and objects member by member, for the
//! Responses writer, the accumulators and the serde glue. One
//! implementation, so the escaping rules and the member syntax cannot drift
//! apart.

use alloc::string::String;
use core::fmt;

/// The escape for each byte below 0x20, and for `"` and `\`; `0` for bytes
/// copied as they are. `u` means `\u00XX`.
const ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0A] = b'n';
    t[0x0C] = b'f';
    t[0x0D] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Writes `s` as a JSON string literal, quotes included: `"` and `\`
/// escaped, U+0000 to U+001F as `\b`, `\t`, `\n`, `\f`, `\r` or `\u00xx`,
/// everything else (non-ASCII included) as it is — the text
/// `serde_json::to_string` writes for a string. The output never holds a raw
/// line break.
pub(crate) fn write_json_str<W: fmt::Write + ?Sized>(out: &mut W, s: &str) -> fmt::Result {
    out.write_char('"')?;
    let mut start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        let esc = ESCAPE[usize::from(b)];
        if esc == 0 {
            continue;
        }
        // Escaped bytes are ASCII, so `start..i` lies on char boundaries.
        out.write_str(&s[start..i])?;
        start = i + 1;
        out.write_char('\\')?;
        if esc == b'u' {
            out.write_str("u00")?;
            out.write_char(char::from(HEX[usize::from(b >> 4)]))?;
            out.write_char(char::from(HEX[usize::from(b & 0xF)]))?;
        } else {
            out.write_char(char::from(esc))?;
        }
    }
    out.write_str(&s[start..])?;
    out.write_char('"')
}

/// [`write_json_str`] into a `String`, which cannot fail.
pub(crate) fn push_json_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    // Writing into a `String` never fails.
    let _ = write_json_str(out, s);
}

/// Writes one JSON object, member by member, into a `String`: the one JSON
/// object writer of the crate (the accumulators' final responses, the
/// Responses writer's events).
pub(crate) struct ObjectWriter<'o> {
    out: &'o mut String,
    first: bool,
}

impl<'o> ObjectWriter<'o> {
    /// Starts an object: writes `{`.
    pub(crate) fn new(out: &'o mut String) -> Self {
        out.push('{');
        Self { out, first: true }
    }

    /// Goes on with an object whose `{` and first member `out` already
    /// holds.
    #[inline]
    pub(crate) fn after_first(out: &'o mut String) -> Self {
        Self { out, first: false }
    }

    /// Starts a member whose key is already a JSON string literal; the
    /// caller writes the value into the returned string.
    pub(crate) fn raw_key(&mut self, quoted: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        self.out.push_str(quoted);
        self.out.push(':');
        self.out
    }

    /// Starts a member; the caller writes the value.
    #[inline]
    pub(crate) fn key(&mut self, key: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        if key.bytes().all(|b| ESCAPE[usize::from(b)] == 0) {
            // The common case, a key with nothing to escape: copied as it is.
            self.out.reserve(key.len() + 3);
            self.out.push('"');
            self.out.push_str(key);
            self.out.push_str("\":");
        } else {
            push_json_str(self.out, key);
            self.out.push(':');
        }
        self.out
    }

    /// Starts a member whose key has nothing to escape, as the literal
    /// keys of the Responses writer (checked in debug builds); the caller
    /// writes the value.
    #[inline]
    pub(crate) fn plain_key(&mut self, key: &'static str) -> &mut String {
        debug_assert!(key.bytes().all(|b| ESCAPE[usize::from(b)] == 0));
        self.out.push_str(if self.first { "\"" } else { ",\"" });
        self.first = false;
        self.out.push_str(key);
        self.out.push_str("\":");
        self.out
    }

    /// A member whose value is validated JSON text.
    #[inline]
    pub(crate) fn raw(&mut self, key: &str, json: &str) {
        self.key(key).push_str(json);
    }

    /// A string member.
    #[inline]
    pub(crate) fn str(&mut self, key: &str, value: &str) {
        let out = self.key(key);
        push_json_str(out, value);
    }

    /// A string member, `null` when absent.
    pub(crate) fn str_or_null(&mut self, key: &str, value: Option<&str>) {
        match value {
            Some(v) => self.str(key, v),
            None => self.raw(key, "null"),
        }
    }

    /// A string member, left out when absent.
    pub(crate) fn opt_str(&mut self, key: &str, value: Option<&str>) {
        if let Some(v) = value {
            self.str(key, v);
        }
    }

    /// A number member.
    #[inline]
    pub(crate) fn u64(&mut self, key: &str, value: u64) {
        let out = self.key(key);
        push_u64(out, value);
    }

    /// Ends the object: writes `}`.
    pub(crate) fn end(self) {
        self.out.push('}');
    }
}

/// Appends `n` in decimal.
pub(crate) fn push_u64(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    for &d in decimal(n, &mut digits) {
        out.push(char::from(d));
    }
}

/// The decimal digits of `n`, written at the end of `digits`.
#[inline]
pub(crate) fn decimal(n: u64, digits: &mut [u8; 20]) -> &[u8] {
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &digits[i..]
}

/// Appends validated JSON text without the whitespace between its tokens,
/// so on one line (pretty-printed Vertex AI chunks, kept or written back as
/// they came).
pub(crate) fn push_compact(out: &mut String, json: &str) {
    let (mut in_string, mut escaped) = (false, false);
    out.reserve(json.len());
    for c in json.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if matches!(c, ' ' | '\t' | '\n' | '\r') {
            continue;
        } else if c == '"' {
            in_string = true;
        }
        out.push(c);
    }
}

/// Appends a validated JSON value compactly, its strings and keys
/// unescaped and written again by [`write_json_str`], numbers as written:
/// the text an owned tree read from the same value writes
/// (`accumulate::JsonValue`), so that a value kept borrowed renders as one
/// kept owned. O(length of the value).
pub(crate) fn push_normalized(out: &mut String, value: &super::Value<'_>) {
    use super::Value;
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(n.as_str()),
        Value::String(s) => push_json_str(out, &s.unescape()),
        Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_normalized(out, &v);
            }
            out.push(']');
        }
        Value::Object(o) => {
            let mut w = ObjectWriter::new(out);
            for (k, v) in o.members() {
                push_normalized(w.key(&k.unescape()), &v);
            }
            w.end();
        }
    }
}

/// Writes the object `base` (validated JSON text of an object, or `None`
/// for `{}`) with its members named in `fields` replaced by the given JSON
/// texts (members whose field is `None` are copied as they are), then the
/// `fields` with a value that `base` lacks, in order.
pub(crate) fn write_merged(out: &mut String, base: Option<&str>, fields: &[(&str, Option<&str>)]) {
    let mut w = ObjectWriter::new(out);
    let mut written = [false; 16];
    debug_assert!(fields.len() <= written.len());
    if let Some(object) = base
        .and_then(|b| super::Value::parse(b).ok())
        .and_then(|v| v.as_object())
    {
        for (key, value) in object.members() {
            let replaced = fields
                .iter()
                .enumerate()
                .find(|(_, (name, _))| key == *name);
            match replaced {
                Some((i, (_, Some(json)))) => {
                    if let Some(done) = written.get_mut(i) {
                        *done = true;
                    }
                    w.raw_key(key.as_raw_json().get()).push_str(json);
                }
                _ => w
                    .raw_key(key.as_raw_json().get())
                    .push_str(value.as_raw_json().get()),
            }
        }
    }
    for (i, (name, json)) in fields.iter().enumerate() {
        if let (Some(json), false) = (json, written.get(i).copied().unwrap_or(false)) {
            w.raw(name, json);
        }
    }
    w.end();
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use proptest::prelude::*;

    fn lit(s: &str) -> String {
        let mut out = String::new();
        push_json_str(&mut out, s);
        out
    }

    #[test]
    fn every_byte_below_0x80_as_serde_json_writes_it() {
        for c in (0u8..0x80).map(char::from) {
            let s = alloc::format!("a{c}b");
            assert_eq!(lit(&s), serde_json::to_string(&s).unwrap(), "{c:?}");
        }
    }

    #[test]
    fn objects_member_by_member() {
        let mut out = String::new();
        let mut w = ObjectWriter::new(&mut out);
        w.str("a\n", "x\"");
        w.u64("n", u64::MAX);
        w.opt_str("skipped", None);
        w.str_or_null("null", None);
        w.end();
        let mut w = ObjectWriter::after_first(&mut out);
        w.raw("r", "[0]");
        assert_eq!(
            out,
            r#"{"a\n":"x\"","n":18446744073709551615,"null":null},"r":[0]"#
        );
    }

    #[test]
    fn normalized_as_an_owned_tree_writes() {
        let text = "{ \"a\\u0041\" : [1.50, -2e3, true, null, \"\\u00e9\\n\\/\"],\n \"b\": {} }";
        let mut out = String::new();
        push_normalized(&mut out, &crate::json::Value::parse(text).unwrap());
        // Checked by hand: keys and strings unescaped and escaped again
        // (`\/` is `/`, `\u00e9` is é), numbers as written, no whitespace.
        assert_eq!(out, "{\"aA\":[1.50,-2e3,true,null,\"é\\n/\"],\"b\":{}}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let w: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(v, w);
    }

    #[test]
    fn appends() {
        let mut out = String::from("x");
        push_json_str(&mut out, "");
        push_json_str(&mut out, "\u{2028}😀");
        assert_eq!(out, "x\"\"\"\u{2028}😀\"");
    }

    proptest! {
        #[test]
        fn same_as_serde_json(s in any::<String>()) {
            prop_assert_eq!(lit(&s), serde_json::to_string(&s).unwrap());
        }

        #[test]
        fn reads_back_as_the_input(s in "(\\PC|[\\x00-\\x1f\"\\\\])*") {
            let back: String = serde_json::from_str(&lit(&s)).unwrap();
            prop_assert_eq!(back, s);
        }
    }
}
