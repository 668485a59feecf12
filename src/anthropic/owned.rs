//! The owned form of a [`AnthropicEvent`].

use core::fmt;

use bytes::Bytes;

use super::{AnthropicEvent, DecodeError};
use crate::frame::{validated_str, Frame};
use crate::json::{JsonStr, RawJson};

/// A [`AnthropicEvent`] that owns its data, for keeping events past the buffer
/// they came in (in a channel, a log, an accumulator).
///
/// It holds the data as [`Bytes`] (a shared handle to the frame's data when
/// made by [`from_frame`](Self::from_frame): no copy) and the event name it
/// was decoded by; [`get`](Self::get) decodes it again, one pass without
/// allocating, each time it is called.
///
/// ```
/// use ssekit::anthropic::OwnedAnthropicEvent;
/// use ssekit::Frame;
///
/// let frame = Frame::new(r#"{"type":"content_block_stop","index":2}"#);
/// let owned = OwnedAnthropicEvent::from_frame(&frame)?;
/// drop(frame);
/// assert_eq!(owned.get().index(), Some(2));
/// # Ok::<(), ssekit::anthropic::DecodeError>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct OwnedAnthropicEvent {
    data: Bytes,
    name: Option<&'static str>,
}

impl OwnedAnthropicEvent {
    /// Decodes a frame (see [`AnthropicEvent::from_frame`]) and keeps a handle
    /// to its data. Nothing is copied. An object that does not fit its type
    /// is kept (`get` gives its [`Unknown`](AnthropicEvent::Unknown)), as the
    /// crate's rule has it (see [`DecodeError`]).
    ///
    /// # Errors
    ///
    /// As [`AnthropicEvent::from_frame`].
    pub fn from_frame(frame: &Frame) -> Result<Self, DecodeError> {
        AnthropicEvent::from_frame(frame)?;
        // A known event name decides how the data decodes (and an `Unknown`
        // for a data `type` that disagrees with it stays one on `get`).
        let name = if frame.has_event_type() {
            AnthropicEvent::known(frame.event())
        } else {
            None
        };
        Ok(Self {
            data: frame.data_bytes().clone(),
            name,
        })
    }

    /// Decodes `data` (see [`AnthropicEvent::parse`]) and keeps a copy.
    ///
    /// # Errors
    ///
    /// As [`AnthropicEvent::parse`].
    pub fn parse(data: &str) -> Result<Self, DecodeError> {
        AnthropicEvent::parse(data).map(|e| e.to_owned())
    }

    /// The event, decoded again from the owned data (one pass, no
    /// allocation). The data decoded before, so it decodes again; should it
    /// not (it cannot), the result is `Unknown` with an empty type.
    pub fn get(&self) -> AnthropicEvent<'_> {
        let data = self.as_str();
        let event = match self.name {
            Some(name) => AnthropicEvent::parse_named(name, data),
            None => AnthropicEvent::parse(data),
        };
        event.unwrap_or(AnthropicEvent::Unknown {
            ty: JsonStr::default(),
            raw: RawJson::new("{}"),
            error: None,
        })
    }

    /// The owned data.
    pub fn as_str(&self) -> &str {
        validated_str(&self.data)
    }

    /// The owned data as a `Bytes` handle.
    pub fn data_bytes(&self) -> &Bytes {
        &self.data
    }
}

impl fmt::Debug for OwnedAnthropicEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OwnedAnthropicEvent({})", self.as_str())
    }
}

impl AnthropicEvent<'_> {
    /// Copies the event's JSON text into an [`OwnedAnthropicEvent`] that
    /// outlives the input. (To keep a frame's event without copying, use
    /// [`OwnedAnthropicEvent::from_frame`].) Its `get` gives this event
    /// back, an [`Unknown`](Self::Unknown) with its error included (the
    /// text is kept without the whitespace around it, so an error's offset
    /// counts from there).
    pub fn to_owned(&self) -> OwnedAnthropicEvent {
        // The type the event was decoded as: for an object that does not
        // fit, the one its error names (the SSE event name, if that decided).
        let ty = self.decode_error().map_or(self.ty(), |e| e.event_type());
        OwnedAnthropicEvent {
            data: Bytes::copy_from_slice(self.raw().get().as_bytes()),
            name: Self::known(ty),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for OwnedAnthropicEvent {
    /// The event's JSON as a value (`[DONE]` as the string `"[DONE]"`), for
    /// logging: `serde_json::to_string(&event)` gives its JSON back.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::json::serialize_json_text(self.as_str(), s)
    }
}
