//! [`JsonValue`]: a small owned JSON tree that keeps the order of object
//! members and the exact text of numbers, for the assembled response.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use crate::json::{write_json_str, JsonError, Value};

/// An owned JSON value: the form of the assembled response and its items.
///
/// Objects keep their members in order (as a `Vec` of pairs: the API's
/// objects are small) and numbers keep their text, so a value read from the
/// stream is written back as it was, apart from whitespace and string
/// escapes. [`Display`](fmt::Display) writes compact JSON; with the `serde`
/// feature it implements `serde::Serialize` (numbers then go through
/// `u64` / `i64` / `f64`).
///
/// ```
/// use ssekit::accumulate::JsonValue;
///
/// let mut v = JsonValue::parse(r#"{"id": "fc_1", "n": 1.50, "tags": ["a\u0021"]}"#)?;
/// assert_eq!(v.get("id").and_then(JsonValue::as_str), Some("fc_1"));
/// v.set("arguments", JsonValue::from("{}"));
/// assert_eq!(v.to_string(), r#"{"id":"fc_1","n":1.50,"tags":["a!"],"arguments":"{}"}"#);
/// # Ok::<(), ssekit::json::JsonError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub enum JsonValue {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its JSON text.
    Number(String),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<JsonValue>),
    /// An object: its members in order.
    Object(Vec<(String, JsonValue)>),
}

impl JsonValue {
    /// Parses a JSON text.
    ///
    /// # Errors
    ///
    /// The [`JsonError`] of the crate's JSON layer for invalid text.
    pub fn parse(text: &str) -> Result<Self, JsonError> {
        Ok(Self::from_view(&Value::parse(text)?))
    }

    /// Copies a borrowed, already validated [`Value`] (recursively).
    pub fn from_view(value: &Value<'_>) -> Self {
        match value {
            Value::Null => Self::Null,
            Value::Bool(b) => Self::Bool(*b),
            Value::Number(n) => Self::Number(n.as_str().into()),
            Value::String(s) => Self::String(s.unescape().into_owned()),
            Value::Array(a) => Self::Array(a.iter().map(|v| Self::from_view(&v)).collect()),
            Value::Object(o) => Self::Object(
                o.members()
                    .map(|(k, v)| (k.unescape().into_owned(), Self::from_view(&v)))
                    .collect(),
            ),
        }
    }

    /// An empty object.
    pub fn object() -> Self {
        Self::Object(Vec::new())
    }

    /// The member `key` of an object (the last one, if it repeats).
    pub fn get(&self, key: &str) -> Option<&JsonValue> {
        match self {
            Self::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The member `key` of an object, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut JsonValue> {
        match self {
            Self::Object(members) => members
                .iter_mut()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets the member `key` of an object, in place when it exists, else at
    /// the end. A value that is not an object is first replaced by an empty
    /// object.
    pub fn set(&mut self, key: &str, value: JsonValue) {
        if !matches!(self, Self::Object(_)) {
            *self = Self::object();
        }
        if let Some(slot) = self.get_mut(key) {
            *slot = value;
        } else if let Self::Object(members) = self {
            members.push((key.into(), value));
        }
    }

    /// Whether an object has the member `key`.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The text of a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Self::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of an array.
    pub fn as_array(&self) -> Option<&[JsonValue]> {
        match self {
            Self::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The value of an integer number that fits a `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Self::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Self::Null)
    }

    /// Writes the value as compact JSON text.
    pub fn write_json(&self, out: &mut String) {
        // Writing to a `String` cannot fail.
        let _ = self.write_to(out);
    }

    fn write_to(&self, out: &mut impl fmt::Write) -> fmt::Result {
        match self {
            Self::Null => out.write_str("null"),
            Self::Bool(b) => out.write_str(if *b { "true" } else { "false" }),
            Self::Number(n) => out.write_str(n),
            Self::String(s) => write_json_str(out, s),
            Self::Array(a) => {
                out.write_char('[')?;
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.write_char(',')?;
                    }
                    v.write_to(out)?;
                }
                out.write_char(']')
            }
            Self::Object(members) => {
                out.write_char('{')?;
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.write_char(',')?;
                    }
                    write_json_str(out, k)?;
                    out.write_char(':')?;
                    v.write_to(out)?;
                }
                out.write_char('}')
            }
        }
    }
}

impl fmt::Display for JsonValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl From<&str> for JsonValue {
    fn from(s: &str) -> Self {
        Self::String(s.into())
    }
}

impl From<String> for JsonValue {
    fn from(s: String) -> Self {
        Self::String(s)
    }
}

impl From<u64> for JsonValue {
    fn from(n: u64) -> Self {
        let mut s = String::new();
        let _ = write!(s, "{n}");
        Self::Number(s)
    }
}

impl From<bool> for JsonValue {
    fn from(b: bool) -> Self {
        Self::Bool(b)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for JsonValue {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Self::Null => ser.serialize_unit(),
            Self::Bool(b) => ser.serialize_bool(*b),
            Self::Number(n) => {
                if let Ok(u) = n.parse::<u64>() {
                    ser.serialize_u64(u)
                } else if let Ok(i) = n.parse::<i64>() {
                    ser.serialize_i64(i)
                } else {
                    // Validated JSON numbers always parse as f64.
                    ser.serialize_f64(n.parse::<f64>().unwrap_or(f64::NAN))
                }
            }
            Self::String(s) => ser.serialize_str(s),
            Self::Array(a) => {
                let mut seq = ser.serialize_seq(Some(a.len()))?;
                for v in a {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Self::Object(members) => {
                let mut map = ser.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn round_trips_compact_text() {
        let text = r#"{"a":[1,-2.5e3,true,false,null],"b":{"c":"x\"y\\z\n\u0001é"}}"#;
        let v = JsonValue::parse(text).unwrap();
        assert_eq!(v.to_string(), text);
    }

    #[test]
    fn set_replaces_in_place_and_appends() {
        let mut v = JsonValue::parse(r#"{"a":1,"b":2}"#).unwrap();
        v.set("a", JsonValue::from("x"));
        v.set("c", JsonValue::Null);
        assert_eq!(v.to_string(), r#"{"a":"x","b":2,"c":null}"#);
        let mut n = JsonValue::Null;
        n.set("k", true.into());
        assert_eq!(n.to_string(), r#"{"k":true}"#);
    }
}
