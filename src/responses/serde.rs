//! `serde::Deserialize` for [`ResponsesEvent`] and [`OwnedResponsesEvent`]
//! (feature `serde`); the views' own impls and the helpers are in
//! `views/serde.rs`.

use serde::de::{self, Deserializer};

use super::{OwnedResponsesEvent, ResponsesEvent};
use crate::views::serde::{deserialize_borrowed, deserialize_text};

impl<'de: 'a, 'a> de::Deserialize<'de> for ResponsesEvent<'a> {
    /// Decodes the event from its raw JSON text, as [`ResponsesEvent::parse`]
    /// does: needs `serde_json` with `raw_value` over borrowed input (see
    /// the [`serde` section](super#serde) of the module docs).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_borrowed(d, ResponsesEvent::parse)
    }
}

impl<'de> de::Deserialize<'de> for OwnedResponsesEvent {
    /// Decodes the event from any deserializer (see the
    /// [`serde` section](super#serde) of the module docs).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = deserialize_text(d)?;
        OwnedResponsesEvent::parse(&text).map_err(de::Error::custom)
    }
}
