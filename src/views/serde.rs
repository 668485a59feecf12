//! `serde::Deserialize` for the views (feature `serde`).
//!
//! The borrowed views (`ResponsesEvent<'de>`, `OutputItem<'de>`, …) take the
//! value's raw JSON text from the deserializer, through `serde_json`'s
//! `RawValue` protocol, and decode it with this crate's own decoder: the
//! result is exactly what [`ResponsesEvent::parse`](crate::responses::ResponsesEvent::parse) gives, and borrows from
//! the deserializer's input. This needs `serde_json` with its `raw_value`
//! feature, and a borrowed input (`from_str`, `from_slice`); other
//! deserializers cannot hand out raw text, so they fail with a message that
//! says so.
//!
//! The owned forms ([`OwnedResponsesEvent`](crate::responses::OwnedResponsesEvent), [`Owned`]) deserialize from any
//! deserializer (`simd_json`, `serde_json::Value`, a reader, …): they take the
//! raw text when it is offered, and otherwise write the value out as JSON
//! text (one allocation for the text) and decode that.

use alloc::string::String;
use core::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{DecodeError, Field, Owned, ViewFamily};
use crate::json::{push_json_str, Value};

/// The name under which `serde_json` (feature `raw_value`) hands out a
/// value's raw text.
const RAW_TOKEN: &str = "$serde_json::private::RawValue";

const NEED_RAW: &str = "ssekit's borrowed views deserialize only from serde_json \
    (with its `raw_value` feature) over borrowed input; use the owned forms \
    (OwnedResponsesEvent, Owned) with other deserializers";

/// Whether a map key is the raw-value token.
struct IsRawToken;

impl<'de> Visitor<'de> for IsRawToken {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map key")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<bool, E> {
        Ok(v == RAW_TOKEN)
    }
}

impl<'de> DeserializeSeed<'de> for IsRawToken {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

/// Deserializes the raw JSON text of the next value, borrowed, and decodes it.
struct BorrowedRaw<F>(F);

impl<'de, T, F> Visitor<'de> for BorrowedRaw<F>
where
    F: FnOnce(&'de str) -> Result<T, DecodeError>,
{
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value's raw text")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        if map.next_key_seed(IsRawToken)? != Some(true) {
            return Err(de::Error::custom(NEED_RAW));
        }
        let raw = map.next_value_seed(BorrowedStr)?;
        (self.0)(raw).map_err(de::Error::custom)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, _: D) -> Result<T, D::Error> {
        Err(de::Error::custom(NEED_RAW))
    }
}

/// A string borrowed from the input; an owned or transient one is an error.
struct BorrowedStr;

impl<'de> Visitor<'de> for BorrowedStr {
    type Value = &'de str;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("raw JSON text borrowed from the input")
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<&'de str, E> {
        Ok(v)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<&'de str, E> {
        Err(de::Error::custom(NEED_RAW))
    }
}

impl<'de> DeserializeSeed<'de> for BorrowedStr {
    type Value = &'de str;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<&'de str, D::Error> {
        d.deserialize_str(self)
    }
}

/// Deserializes a borrowed view by decoding its raw text with `decode`.
pub(crate) fn deserialize_borrowed<'de, D, T>(
    d: D,
    decode: impl FnOnce(&'de str) -> Result<T, DecodeError>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    d.deserialize_newtype_struct(RAW_TOKEN, BorrowedRaw(decode))
}

/// Deserializes any value into its JSON text: the raw text when the
/// deserializer offers it, else the value written out.
struct AnyText;

impl<'de> Visitor<'de> for AnyText {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        let mut out = String::new();
        d.deserialize_any(WriteJson(&mut out))?;
        Ok(out)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<String, A::Error> {
        let mut out = String::new();
        let Some(first) = map.next_key::<KeyText>()? else {
            out.push_str("{}");
            return Ok(out);
        };
        if first.0 == RAW_TOKEN {
            // serde_json's raw text (borrowed or not).
            let raw: KeyText = map.next_value()?;
            return Ok(raw.0);
        }
        out.push('{');
        push_json_str(&mut out, &first.0);
        out.push(':');
        map.next_value_seed(WriteJson(&mut out))?;
        write_members(&mut out, map)?;
        Ok(out)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        let mut out = String::new();
        push_json_str(&mut out, v);
        Ok(out)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<String, A::Error> {
        let mut out = String::new();
        WriteJson(&mut out).visit_seq(seq)?;
        Ok(out)
    }
}

/// A string, borrowed or not, taken as an owned `String`.
struct KeyText(String);

impl<'de> de::Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = KeyText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<KeyText, E> {
                Ok(KeyText(v.into()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<KeyText, E> {
                Ok(KeyText(v))
            }
        }
        d.deserialize_string(V)
    }
}

/// Deserializes any value into a deserializer-independent JSON text.
pub(crate) fn deserialize_text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    d.deserialize_newtype_struct(RAW_TOKEN, AnyText)
}

fn write_members<'de, A: MapAccess<'de>>(out: &mut String, mut map: A) -> Result<(), A::Error> {
    while let Some(key) = map.next_key::<KeyText>()? {
        out.push(',');
        push_json_str(out, &key.0);
        out.push(':');
        map.next_value_seed(WriteJson(out))?;
    }
    out.push('}');
    Ok(())
}

/// Writes the value it visits as JSON text.
struct WriteJson<'o>(&'o mut String);

impl<'de> DeserializeSeed<'de> for WriteJson<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for WriteJson<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.0.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        let _ = write!(self.0, "{v}");
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        let _ = write!(self.0, "{v}");
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        if v.is_finite() {
            // `{:?}` is the shortest text that reads back as the same f64,
            // and always has a `.` or an exponent.
            let _ = write!(self.0, "{v:?}");
        } else {
            self.0.push_str("null");
        }
        Ok(())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        push_json_str(self.0, v);
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.push_str("null");
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.push('[');
        let mut first = true;
        loop {
            if !first {
                self.0.push(',');
            }
            if seq.next_element_seed(WriteJson(self.0))?.is_none() {
                if !first {
                    self.0.pop(); // the comma
                }
                break;
            }
            first = false;
        }
        self.0.push(']');
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        match map.next_key::<KeyText>()? {
            None => {
                self.0.push_str("{}");
                Ok(())
            }
            Some(key) => {
                self.0.push('{');
                push_json_str(self.0, &key.0);
                self.0.push(':');
                map.next_value_seed(WriteJson(self.0))?;
                write_members(self.0, map)
            }
        }
    }
}

impl<'de, F: ViewFamily> de::Deserialize<'de> for Owned<F> {
    /// Decodes the view from any deserializer (see the
    /// [`serde` section](crate::responses#serde) of the module docs).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = deserialize_text(d)?;
        Owned::<F>::parse(&text).map_err(de::Error::custom)
    }
}

/// Decodes a nested view from its raw text.
pub(crate) fn decode_nested<'a, T: Field<'a>>(raw: &'a str) -> Result<T, DecodeError> {
    T::from_value(Value::parse(raw).map_err(DecodeError::json)?, raw)
}
