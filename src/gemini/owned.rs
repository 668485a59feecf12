//! The owned form of a [`GeminiEvent`].

use core::fmt;

use bytes::Bytes;

use super::{DecodeError, GeminiEvent, GenerateContentResponse};
use crate::frame::{validated_str, Frame};
use crate::views::Field;

/// A [`GeminiEvent`] that owns its data, for keeping chunks past the buffer
/// they came in (in a channel, a log, an accumulator).
///
/// It holds the data as [`Bytes`] (a shared handle to the frame's data when
/// made by [`from_frame`](Self::from_frame): no copy); [`get`](Self::get)
/// decodes it again, one pass without allocating, each time it is called.
///
/// ```
/// use ssekit::gemini::{GeminiEvent, OwnedGeminiEvent};
/// use ssekit::Frame;
///
/// let frame = Frame::new(r#"{"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}"#);
/// let owned = OwnedGeminiEvent::from_frame(&frame)?;
/// drop(frame);
/// let GeminiEvent::Response(r) = owned.get() else { panic!() };
/// let part = r.candidates.unwrap().first().unwrap()?.content.unwrap().parts.unwrap().first().unwrap()?;
/// assert_eq!(part.text.unwrap(), "Hi");
/// # Ok::<(), ssekit::gemini::DecodeError>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct OwnedGeminiEvent {
    data: Bytes,
}

impl OwnedGeminiEvent {
    /// Decodes a frame (see [`GeminiEvent::from_frame`]) and keeps a handle
    /// to its data. Nothing is copied.
    ///
    /// # Errors
    ///
    /// As [`GeminiEvent::from_frame`].
    pub fn from_frame(frame: &Frame) -> Result<Self, DecodeError> {
        GeminiEvent::from_frame(frame)?;
        Ok(Self {
            data: frame.data_bytes().clone(),
        })
    }

    /// Decodes `data` (see [`GeminiEvent::parse`]) and keeps a copy.
    ///
    /// # Errors
    ///
    /// As [`GeminiEvent::parse`].
    pub fn parse(data: &str) -> Result<Self, DecodeError> {
        GeminiEvent::parse(data).map(|e| e.to_owned())
    }

    /// The event, decoded again from the owned data (one pass, no
    /// allocation). The data decoded before, so it decodes again; should it
    /// not (it cannot), the result is an empty [`GeminiEvent::Response`].
    pub fn get(&self) -> GeminiEvent<'_> {
        GeminiEvent::parse(self.as_str())
            .unwrap_or_else(|_| GeminiEvent::Response(GenerateContentResponse::fallback()))
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

impl fmt::Debug for OwnedGeminiEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OwnedGeminiEvent({})", self.as_str())
    }
}

impl GeminiEvent<'_> {
    /// Copies the event's JSON text into an [`OwnedGeminiEvent`] that
    /// outlives the input. (To keep a frame's event without copying, use
    /// [`OwnedGeminiEvent::from_frame`].)
    pub fn to_owned(&self) -> OwnedGeminiEvent {
        OwnedGeminiEvent {
            data: Bytes::copy_from_slice(self.raw().get().as_bytes()),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for OwnedGeminiEvent {
    /// The event's JSON as a value (`[DONE]` as the string `"[DONE]"`), for
    /// logging: `serde_json::to_string(&event)` gives its JSON back.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::json::serialize_json_text(self.as_str(), s)
    }
}
