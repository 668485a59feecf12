//! Writing JSON string literals: the one piece of JSON output the writers need.

use alloc::string::String;

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

/// Appends `s` to `out` as a JSON string literal, quotes included.
///
/// `"` and `\` are escaped, and so are the control characters U+0000 to
/// U+001F (as `\b`, `\t`, `\n`, `\f`, `\r`, or `\u00xx`); everything else,
/// non-ASCII included, is copied as it is. This is the same text
/// `serde_json::to_string` writes for a string, and it never contains a raw
/// line break, so an event written with it is one `data:` line.
///
/// ```
/// let mut out = String::new();
/// ssekit::encode::push_json_str(&mut out, "say \"hi\"\n\u{1}é");
/// assert_eq!(out, r#""say \"hi\"\n\u0001é""#);
/// ```
pub fn push_json_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc = ESCAPE[b as usize];
        if esc == 0 {
            continue;
        }
        // Escaped bytes are ASCII, so `start..i` lies on char boundaries.
        out.push_str(&s[start..i]);
        start = i + 1;
        out.push('\\');
        if esc == b'u' {
            out.push_str("u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xF)]));
        } else {
            out.push(char::from(esc));
        }
    }
    out.push_str(&s[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn appends() {
        let mut out = String::from("x");
        push_json_str(&mut out, "");
        push_json_str(&mut out, "\u{2028}😀");
        assert_eq!(out, "x\"\"\"\u{2028}😀\"");
    }

    proptest! {
        #[test]
        fn same_text_as_serde_json(s in any::<String>()) {
            prop_assert_eq!(lit(&s), serde_json::to_string(&s).unwrap());
        }

        #[test]
        fn reads_back_as_the_input(s in "(\\PC|[\\x00-\\x1f\"\\\\])*") {
            let back: String = serde_json::from_str(&lit(&s)).unwrap();
            prop_assert_eq!(back, s);
        }
    }
}
