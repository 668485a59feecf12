//! Writing JSON text through any serde serializer (feature `serde`): for
//! the accumulators' results and the owned event forms, which keep their
//! JSON as text.

use super::Value;

/// Serializes validated JSON text through any serde serializer, value by
/// value: objects as maps (keys unescaped), arrays as sequences, integers as
/// `u64`/`i64` when they fit, other numbers as `f64`.
pub(crate) struct RawSer<'a>(pub(crate) Value<'a>);

impl serde::Serialize for RawSer<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self.0 {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(b),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    s.serialize_u64(u)
                } else if let Some(i) = n.as_i64() {
                    s.serialize_i64(i)
                } else {
                    match n.as_f64() {
                        Some(x) => s.serialize_f64(x),
                        None => Err(serde::ser::Error::custom("number out of range of f64")),
                    }
                }
            }
            Value::String(js) => s.serialize_str(&js.unescape()),
            Value::Object(o) => {
                let mut map = s.serialize_map(None)?;
                for (k, v) in o.members() {
                    map.serialize_entry(&*k.unescape(), &RawSer(v))?;
                }
                map.end()
            }
            Value::Array(a) => {
                let mut seq = s.serialize_seq(None)?;
                for v in a.iter() {
                    seq.serialize_element(&RawSer(v))?;
                }
                seq.end()
            }
        }
    }
}

/// Serializes JSON text through serde, value by value (see [`RawSer`]).
/// `[DONE]` (the end-of-stream marker some owned events hold) is written as
/// the string `"[DONE]"`; other text that is not JSON is an error.
pub(crate) fn serialize_json_text<S: serde::Serializer>(
    text: &str,
    s: S,
) -> Result<S::Ok, S::Error> {
    match Value::parse(text) {
        Ok(v) => serde::Serialize::serialize(&RawSer(v), s),
        Err(_) if text.trim() == "[DONE]" => s.serialize_str("[DONE]"),
        Err(e) => Err(serde::ser::Error::custom(e)),
    }
}
