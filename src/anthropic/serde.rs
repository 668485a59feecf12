//! `serde::Deserialize` for [`AnthropicEvent`] and [`OwnedAnthropicEvent`] (feature `serde`); the
//! views' own impls and the helpers are in `views/serde.rs`.

use serde::de::{self, Deserializer};

use super::{AnthropicEvent, OwnedAnthropicEvent};
use crate::views::serde::{deserialize_borrowed, deserialize_text};

impl<'de: 'a, 'a> de::Deserialize<'de> for AnthropicEvent<'a> {
    /// Decodes the event from its raw JSON text, as [`AnthropicEvent::parse`] does:
    /// needs `serde_json` with `raw_value` over borrowed input, like the
    /// Responses events (see [`crate::responses`]).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_borrowed(d, AnthropicEvent::parse)
    }
}

impl<'de> de::Deserialize<'de> for OwnedAnthropicEvent {
    /// Decodes the event from any deserializer: the value is written out as
    /// JSON text and decoded with [`OwnedAnthropicEvent::parse`].
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = deserialize_text(d)?;
        OwnedAnthropicEvent::parse(&text).map_err(de::Error::custom)
    }
}
