//! Writing JSON string literals: the one piece of JSON output the writers need.

use alloc::string::String;

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
    crate::json::push_json_str(out, s);
}
