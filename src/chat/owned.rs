//! The owned form of a [`ChatEvent`].

use core::fmt;

use bytes::Bytes;

use super::{ChatEvent, DecodeError};
use crate::frame::{validated_str, Frame};

/// A [`ChatEvent`] that owns its data, for keeping chunks past the buffer
/// they came in (in a channel, a log, an accumulator).
///
/// It holds the data as [`Bytes`] (a shared handle to the frame's data when
/// made by [`from_frame`](Self::from_frame): no copy); [`get`](Self::get)
/// decodes it again, one pass without allocating, each time it is called.
///
/// ```
/// use ssekit::chat::{ChatEvent, OwnedChatEvent};
/// use ssekit::Frame;
///
/// let frame = Frame::new(r#"{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"}}]}"#);
/// let owned = OwnedChatEvent::from_frame(&frame)?;
/// drop(frame);
/// let ChatEvent::Chunk(chunk) = owned.get() else { panic!() };
/// assert_eq!(chunk.first_choice().unwrap()?.delta.unwrap().content.unwrap(), "Hi");
/// # Ok::<(), ssekit::chat::DecodeError>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct OwnedChatEvent {
    data: Bytes,
}

impl OwnedChatEvent {
    /// Decodes a frame (see [`ChatEvent::from_frame`]) and keeps a handle to
    /// its data. Nothing is copied.
    ///
    /// # Errors
    ///
    /// As [`ChatEvent::from_frame`].
    pub fn from_frame(frame: &Frame) -> Result<Self, DecodeError> {
        ChatEvent::from_frame(frame)?;
        Ok(Self {
            data: frame.data_bytes().clone(),
        })
    }

    /// Decodes `data` (see [`ChatEvent::parse`]) and keeps a copy.
    ///
    /// # Errors
    ///
    /// As [`ChatEvent::parse`].
    pub fn parse(data: &str) -> Result<Self, DecodeError> {
        ChatEvent::parse(data).map(|e| e.to_owned())
    }

    /// The event, decoded again from the owned data (one pass, no
    /// allocation). The data decoded before, so it decodes again; should it
    /// not (it cannot), the result is [`ChatEvent::Done`].
    pub fn get(&self) -> ChatEvent<'_> {
        ChatEvent::parse(self.as_str()).unwrap_or(ChatEvent::Done)
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

impl fmt::Debug for OwnedChatEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OwnedChatEvent({})", self.as_str())
    }
}

impl ChatEvent<'_> {
    /// Copies the event's JSON text into an [`OwnedChatEvent`] that outlives
    /// the input. (To keep a frame's event without copying, use
    /// [`OwnedChatEvent::from_frame`].)
    pub fn to_owned(&self) -> OwnedChatEvent {
        let text = self.raw().map_or("[DONE]", |r| r.get());
        OwnedChatEvent {
            data: Bytes::copy_from_slice(text.as_bytes()),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for OwnedChatEvent {
    /// The event's JSON as a value (`[DONE]` as the string `"[DONE]"`), for
    /// logging: `serde_json::to_string(&event)` gives its JSON back.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::json::serialize_json_text(self.as_str(), s)
    }
}
