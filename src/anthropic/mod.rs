//! Typed, borrowing views of Anthropic Messages stream events
//! (`POST /v1/messages` with `stream: true`).
//!
//! [`AnthropicEvent`] has one variant per event type: `message_start`,
//! `content_block_start`, `content_block_delta`, `content_block_stop`,
//! `message_delta`, `message_stop`, `ping` and `error`, each holding a view
//! struct ([`MessageStart`], [`ContentBlockDelta`], …). Any other type
//! decodes to [`AnthropicEvent::Unknown`] with its raw JSON, never to an error
//! (Anthropic's versioning policy allows new event types).
//!
//! # Decoding
//!
//! Every frame of a Messages stream has an `event:` line, and the data's
//! `type` repeats it. [`AnthropicEvent::from_frame`] picks the view from the
//! event name when there is one (and checks it against the data's `type`),
//! else from the `type`
//! member; [`AnthropicEvent::parse`] reads the data alone. Either way the data
//! is decoded in one pass that validates the JSON and fills the view,
//! allocating nothing.
//!
//! Views borrow from the data: strings are
//! [`JsonStr`], numbers are typed, nested objects are
//! views ([`Message`], [`Usage`], [`MessageDeltaBody`], [`ApiError`]),
//! content blocks, deltas and citations are enums of views
//! ([`ContentBlock`], [`BlockDelta`], [`Citation`]) whose unknown types
//! decode to their `Other { ty, raw }` variant, arrays are lazy [`List`]s,
//! and what the views do not model (tool inputs, tool results) is kept as
//! [`RawJson`]. An event's own fields (`index`, `delta`, `message`, …) and a
//! delta's text are required; the fields of nested objects are optional.
//! A JSON `null` counts as absent; unknown members are ignored.
//!
//! Data that does not fit follows the crate's one rule (see
//! [`DecodeError`]): data that is not a JSON object is a [`DecodeError`];
//! an object that does not fit its type (a required field missing, a field
//! of the wrong kind, a `type` that disagrees with the event name) is
//! [`AnthropicEvent::Unknown`] with its raw JSON and the error
//! ([`AnthropicEvent::decode_error`]), not an error.
//!
//! Every view implements [`Fields`], so generic
//! code can visit every field of an event without allocating.
//!
//! With the `serde` feature, [`AnthropicEvent`] and the views implement serde's
//! borrowed `Deserialize` (through serde_json's `raw_value`, as for the
//! [Responses events](crate::responses#serde)), and [`OwnedAnthropicEvent`]
//! deserializes from any deserializer.
//!
//! # Example
//!
//! ```
//! use ssekit::anthropic::{BlockDelta, AnthropicEvent};
//! use ssekit::{Bytes, Parser};
//!
//! let mut parser = Parser::new();
//! parser.feed(Bytes::from_static(
//!     b"event: content_block_delta\n\
//!       data: {\"type\":\"content_block_delta\",\"index\":0,\
//!       \"delta\":{\"type\":\"text_delta\",\"text\":\"Hi \\\"you\\\"\"}}\n\n\
//!       event: ping\ndata: {\"type\": \"ping\"}\n\n",
//! ));
//! let mut text = String::new();
//! while let Some(frame) = parser.next_frame()? {
//!     match AnthropicEvent::from_frame(&frame)? {
//!         AnthropicEvent::ContentBlockDelta(d) => {
//!             assert_eq!(d.index, 0);
//!             if let BlockDelta::Text(t) = d.delta {
//!                 t.text.unescape_into(&mut text);
//!             }
//!         }
//!         AnthropicEvent::Ping(_) => {}
//!         other => panic!("unexpected {}", other.ty()),
//!     }
//! }
//! assert_eq!(text, "Hi \"you\"");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod blocks;
mod events;
mod message;
mod owned;
#[cfg(feature = "serde")]
mod serde;

pub use crate::views::{DecodeError, DecodeErrorKind};
pub use crate::views::{List, ListIter, Owned, ViewFamily};
pub use blocks::*;
pub use events::*;
pub use message::*;
pub use owned::OwnedAnthropicEvent;

use crate::frame::Frame;
use crate::json::{JsonStr, ObjectScanner, RawJson, Value};
use crate::views::trim_json_ws;
use crate::views::{FieldValue, Fields};

macro_rules! message_events {
    ($( $(#[$meta:meta])* $variant:ident($view:ident) = $ty:literal, )*) => {
        /// One event of an Anthropic Messages stream, decoded into a view
        /// that borrows from the event's data.
        ///
        /// See the [module docs](self) for how events are decoded.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum AnthropicEvent<'a> {
            $( $(#[$meta])* $variant($view<'a>), )*
            /// An event type this version does not model, or an object
            /// that does not fit the type it names: decoding passes both on
            /// rather than failing (see [`DecodeError`] for the rule).
            Unknown {
                /// The event's `type`, as in the input (the last one when
                /// there are several; empty when there is none or it is not
                /// a string).
                ty: JsonStr<'a>,
                /// The whole event, validated.
                raw: RawJson<'a>,
                /// `None` for a type this version does not model; for an
                /// object that does not fit, what did not: a missing field
                /// (`type` included), a field of the wrong kind, or
                /// [`DecodeErrorKind::TypeMismatch`] (a `type` that
                /// disagrees with the SSE event name).
                error: Option<DecodeError>,
            },
        }

        impl<'a> AnthropicEvent<'a> {
            /// The event types with their own variant.
            pub const TYPES: &'static [&'static str] = &[$($ty),*];

            /// The `&'static` form of a known event type.
            fn known(ty: &str) -> Option<&'static str> {
                match ty {
                    $( $ty => Some($ty), )*
                    _ => None,
                }
            }

            /// The JSON keys of the fields of a known event type's view
            /// (without `type`), or `None` for an unknown type.
            pub fn fields_of(ty: &str) -> Option<&'static [&'static str]> {
                match ty {
                    $( $ty => Some($view::FIELDS), )*
                    _ => None,
                }
            }

            /// Decodes the members of a known type's view.
            fn decode_known(
                ty: &str,
                members: &mut ObjectScanner<'a>,
                data: &'a str,
                expect: Option<&str>,
            ) -> Option<Result<Self, DecodeError>> {
                Some(match ty {
                    $(
                        $ty => $crate::views::decode::decode::<$view<'a>, _>(members, data, Some(trim_json_ws(data)), expect)
                            .map(Self::$variant)
                            .map_err(|e| e.with_event_type($ty)),
                    )*
                    _ => return None,
                })
            }

            /// The event type: a constant for the modeled variants; for
            /// [`Unknown`](Self::Unknown), the raw text of its `type`
            /// (escapes as they stand).
            pub fn ty(&self) -> &'a str {
                match self {
                    $( Self::$variant(_) => $ty, )*
                    Self::Unknown { ty, .. } => ty.raw(),
                }
            }

            /// The event's JSON text, as in the input.
            pub fn raw(&self) -> RawJson<'a> {
                match self {
                    $( Self::$variant(v) => v.raw(), )*
                    Self::Unknown { raw, .. } => *raw,
                }
            }

            /// What did not fit, for an [`Unknown`](Self::Unknown) that is
            /// an object that does not fit its type (see [`DecodeError`]
            /// for the rule); `None` for every other event, a type this
            /// version does not model included. The same as
            /// [`Fields::decode_error`].
            pub fn decode_error(&self) -> Option<DecodeError> {
                match self {
                    Self::Unknown { error, .. } => *error,
                    _ => None,
                }
            }

            strict_reading!(AnthropicEvent, "anthropic", r#"{"type":"content_block_stop","index":"0"}"#, validate);
        }

        impl<'a> Fields<'a> for AnthropicEvent<'a> {
            fn field_names(&self) -> &'static [&'static str] {
                match self {
                    $( Self::$variant(_) => $view::FIELDS, )*
                    Self::Unknown { .. } => &[],
                }
            }
            fn decode_error(&self) -> Option<DecodeError> {
                AnthropicEvent::decode_error(self)
            }
            fn for_each_field(&self, f: &mut dyn FnMut(&'static str, FieldValue<'a, '_>)) {
                match self {
                    $(
                        Self::$variant(v) => {
                            f("type", FieldValue::Str(JsonStr::new(concat!("\"", $ty, "\""), false)));
                            v.for_each_field(f);
                        }
                    )*
                    // An object that does not fit may have no string `type`
                    // (then `ty` is empty): none is made up for it.
                    Self::Unknown { ty, raw, error } => {
                        if error.is_none() || !ty.is_empty() || crate::views::has_string_type(*raw) {
                            f("type", FieldValue::Str(*ty));
                        }
                    }
                }
            }
        }
    };
}

message_events! {
    /// `message_start`
    MessageStart(MessageStart) = "message_start",
    /// `content_block_start`
    ContentBlockStart(ContentBlockStart) = "content_block_start",
    /// `content_block_delta`
    ContentBlockDelta(ContentBlockDelta) = "content_block_delta",
    /// `content_block_stop`
    ContentBlockStop(ContentBlockStop) = "content_block_stop",
    /// `message_delta`
    MessageDelta(MessageDelta) = "message_delta",
    /// `message_stop`
    MessageStop(MessageStop) = "message_stop",
    /// `ping`
    Ping(Ping) = "ping",
    /// `error`
    Error(ErrorEvent) = "error",
}

impl<'a> AnthropicEvent<'a> {
    /// Decodes the data of one event, choosing the view by its `type`.
    ///
    /// A type with no variant decodes to [`Unknown`](Self::Unknown).
    /// Nothing is allocated.
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] when the data is not a JSON object. An object that
    /// has no string `type`, lacks a field its type requires or has a field
    /// of the wrong JSON kind is not an error but
    /// [`Unknown`](Self::Unknown), with the raw JSON and what did not fit
    /// (see [`DecodeError`] for the rule):
    ///
    /// ```
    /// use ssekit::anthropic::{DecodeErrorKind, AnthropicEvent};
    ///
    /// let event = AnthropicEvent::parse(r#"{"type":"content_block_stop","index":"0"}"#)?;
    /// let AnthropicEvent::Unknown { ty, error: Some(error), .. } = event else { panic!() };
    /// assert_eq!(ty, "content_block_stop");
    /// assert_eq!(error.kind(), DecodeErrorKind::WrongType { field: "index" });
    ///
    /// assert!(AnthropicEvent::parse(r#"{"type":"content_block_stop","index":0"#).is_err());
    /// # Ok::<(), ssekit::anthropic::DecodeError>(())
    /// ```
    pub fn parse(data: &'a str) -> Result<Self, DecodeError> {
        Self::parse_typed(data).or_else(|e| Self::unfit(data, e, None))
    }

    /// A decoder's failure on `data` (decoded as `named`, the known SSE
    /// event name, if given), under the rule of [`DecodeError`]:
    /// [`Unknown`](Self::Unknown) with the error when `data` is a JSON
    /// object, else the error. When the decoder stopped before a later
    /// `type` that disagrees, that `type` decides, as in serde_json: it is
    /// decoded by it (or, with an event name, it is a type mismatch).
    #[cold]
    fn unfit(
        data: &'a str,
        e: DecodeError,
        named: Option<&'static str>,
    ) -> Result<Self, DecodeError> {
        let decode_by = |ty| {
            let known = Self::known_json(ty)?;
            Self::decode_known(known, &mut ObjectScanner::new(data), data, None)
        };
        Ok(match crate::views::unfit(data, e, named, decode_by)? {
            crate::views::Unfit::Event(event) => event,
            crate::views::Unfit::Unknown { ty, raw, error } => Self::Unknown { ty, raw, error },
        })
    }

    /// [`parse`](Self::parse), but a shape error may come before a JSON
    /// error later in the text.
    fn parse_typed(data: &'a str) -> Result<Self, DecodeError> {
        let mut members = ObjectScanner::new(data);
        // Fast path: `type` first, as the API sends it. Then the view is
        // decoded from the rest of the same walk, which checks that any
        // later `type` member agrees.
        let mut first = true;
        let ty = loop {
            let Some(member) = members.next() else {
                return Err(DecodeError::new(
                    DecodeErrorKind::MissingField { field: "type" },
                    0,
                ));
            };
            let (key, value) = member.map_err(DecodeError::json)?;
            if key == "type" {
                match value {
                    Value::String(ty) => break ty,
                    _ => break JsonStr::default(), // the last `type` decides, below
                }
            }
            first = false;
        };
        let decoded = match Self::known_json(ty) {
            Some(known) if first => Self::decode_known(known, &mut members, data, Some(known)),
            // Members before `type` were skipped: walk again.
            Some(known) => {
                let mut again = ObjectScanner::new(data);
                Self::decode_known(known, &mut again, data, Some(known))
            }
            None => None,
        };
        let decoded = match decoded {
            Some(decoded) => decoded,
            None => {
                // Unknown (or not a string): validate the rest, and look for
                // a later `type` that says otherwise.
                if crate::views::first_type_stands(members, ty)? {
                    return Ok(Self::Unknown {
                        ty,
                        raw: RawJson::new(trim_json_ws(data)),
                        error: None,
                    });
                }
                Err(DecodeError::new(DecodeErrorKind::TypeMismatch, 0))
            }
        };
        match decoded {
            // Duplicate `type` members that disagree: the last one wins, as
            // in serde_json::Value, JavaScript and Python.
            Err(e) if crate::views::type_disputed(&e) => Self::parse_last_type(data),
            decoded => decoded,
        }
    }

    /// [`parse`](Self::parse) of an object whose `type` members disagree:
    /// decoded by the last one.
    #[cold]
    fn parse_last_type(data: &'a str) -> Result<Self, DecodeError> {
        let ty = crate::views::last_type(data)?.unwrap_or_default();
        if let Some(known) = Self::known_json(ty) {
            let mut members = ObjectScanner::new(data);
            if let Some(decoded) = Self::decode_known(known, &mut members, data, None) {
                return decoded;
            }
        }
        Ok(Self::Unknown {
            ty,
            raw: RawJson::new(trim_json_ws(data)),
            error: None,
        })
    }

    /// A known event type given as a JSON string, compared unescaped
    /// (`"message_st\u006fp"` is `message_stop`, as for every JSON reader).
    fn known_json(ty: JsonStr<'_>) -> Option<&'static str> {
        match ty.as_str() {
            Some(plain) => Self::known(plain),
            None => Self::TYPES.iter().copied().find(|known| ty == *known),
        }
    }

    /// Decodes an event given its SSE event name: when `event` is a known
    /// type, that view is decoded directly and the data's `type`, if
    /// present, must match it; otherwise this is [`parse`](Self::parse).
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse). When the name and the data's `type`
    /// differ, the event is [`Unknown`](Self::Unknown) with
    /// [`DecodeErrorKind::TypeMismatch`].
    pub fn parse_named(event: &str, data: &'a str) -> Result<Self, DecodeError> {
        Self::parse_named_typed(event, data).or_else(|e| Self::unfit(data, e, Self::known(event)))
    }

    /// [`parse_named`](Self::parse_named), but a shape error may come
    /// before a JSON error later in the text.
    fn parse_named_typed(event: &str, data: &'a str) -> Result<Self, DecodeError> {
        let Some(known) = Self::known(event) else {
            return Self::parse_typed(data);
        };
        let mut members = ObjectScanner::new(data);
        match Self::decode_known(known, &mut members, data, Some(known)) {
            // Every `type` must agree with the name, or at least the last
            // one (which is the one that counts, as in serde_json::Value).
            Some(Err(e)) if crate::views::type_disputed(&e) => {
                match crate::views::last_type(data)? {
                    Some(ty) if ty == known => {
                        let mut members = ObjectScanner::new(data);
                        Self::decode_known(known, &mut members, data, None).unwrap_or(Err(e))
                    }
                    _ => Err(e),
                }
            }
            Some(result) => result,
            None => Self::parse(data),
        }
    }

    /// Decodes a frame: by its event name when it has one (see
    /// [`parse_named`](Self::parse_named)), else by its data's `type`.
    ///
    /// # Errors
    ///
    /// As [`parse_named`](Self::parse_named).
    pub fn from_frame(frame: &'a Frame) -> Result<Self, DecodeError> {
        if frame.has_event_type() {
            Self::parse_named(frame.event(), frame.data())
        } else {
            Self::parse(frame.data())
        }
    }

    /// The content block index of `content_block_start`, `_delta` and
    /// `_stop`; `None` for the other events.
    pub fn index(&self) -> Option<u64> {
        match self {
            Self::ContentBlockStart(e) => Some(e.index),
            Self::ContentBlockDelta(e) => Some(e.index),
            Self::ContentBlockStop(e) => Some(e.index),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anthropic::BlockDelta;

    /// Issue 11, item 2: the last of duplicate `type` members wins, and type
    /// values are compared unescaped, at the top and in the nested
    /// `delta.type`, with or without an SSE event name.
    #[test]
    fn types_are_read_by_the_last_member_unescaped() {
        let delta =
            |d: &str| alloc::format!(r#"{{"type":"content_block_delta","index":0,"delta":{d}}}"#);
        for data in [
            delta(r#"{"type":"x","type":"text_delta","text":"hi"}"#),
            delta(r#"{"type":"text_d\u0065lta","text":"hi"}"#),
            delta(r#"{"\u0074ype":"text_delta","text":"hi"}"#),
            delta(r#"{"type":"text_delta","text":"no","text":"hi"}"#),
            r#"{"type":"ping","type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}"#.into(),
            r#"{"type":"content_block_d\u0065lta","index":0,"delta":{"type":"text_delta","text":"hi"}}"#.into(),
        ] {
            for named in [false, true] {
                let ev = if named {
                    AnthropicEvent::parse_named("content_block_delta", &data)
                } else {
                    AnthropicEvent::parse(&data)
                };
                let ev = ev.unwrap_or_else(|e| panic!("{data}: {e}"));
                let AnthropicEvent::ContentBlockDelta(d) = ev else {
                    panic!("{data}: {ev:?}")
                };
                let BlockDelta::Text(t) = d.delta else {
                    panic!("{data}: {:?}", d.delta)
                };
                assert_eq!(t.text, "hi", "{data}");
            }
        }
        // A later type that differs wins over the first.
        let data = delta(r#"{"type":"text_delta","text":"hi","type":"x.other"}"#);
        let AnthropicEvent::ContentBlockDelta(d) = AnthropicEvent::parse(&data).unwrap() else {
            panic!()
        };
        assert_eq!(d.delta.ty(), "x.other");
        let data = r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"},"type":"message_stop"}"#;
        assert!(matches!(
            AnthropicEvent::parse(data),
            Ok(AnthropicEvent::MessageStop(_))
        ));
    }
}
