//! Writing JSON string literals: the one piece of JSON output the writers,
//! the accumulators and the serde glue all need. One implementation, so the
//! escaping rules cannot drift apart.

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
pub(crate) fn push_json_str(out: &mut alloc::string::String, s: &str) {
    out.reserve(s.len() + 2);
    // Writing into a `String` never fails.
    let _ = write_json_str(out, s);
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
