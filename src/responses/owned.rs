//! [`OwnedResponsesEvent`]: an event that owns its data, for keeping it past
//! its buffer.

use core::fmt;

use bytes::Bytes;

use super::{DecodeError, ResponsesEvent};
use crate::frame::{validated_str, Frame};
use crate::json::{JsonStr, RawJson};

/// A [`ResponsesEvent`] that owns its data, for keeping events past the
/// buffer they came in (in a channel, a log, an accumulator).
///
/// It holds the event's JSON text as [`Bytes`] (a shared handle to the
/// frame's data when made by [`from_frame`](Self::from_frame): no copy) and
/// the event name it was decoded by; [`get`](Self::get) decodes it again,
/// one pass over the data without allocating, each time it is called.
///
/// ```
/// use ssekit::responses::{OwnedResponsesEvent, ResponsesEvent};
/// use ssekit::Frame;
///
/// let frame = Frame::new(r#"{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"Hi"}"#);
/// let owned = OwnedResponsesEvent::from_frame(&frame)?;
/// drop(frame);
/// let ResponsesEvent::OutputTextDelta(d) = owned.get() else { panic!() };
/// assert_eq!(d.delta, "Hi");
/// # Ok::<(), ssekit::responses::DecodeError>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct OwnedResponsesEvent {
    data: Bytes,
    name: Option<&'static str>,
}

impl OwnedResponsesEvent {
    /// Decodes a frame (see [`ResponsesEvent::from_frame`]) and keeps a
    /// handle to its data. Nothing is copied. As the crate's rule has it
    /// (see [`DecodeError`]), an object that does not fit is kept (`get`
    /// gives its [`Unknown`](ResponsesEvent::Unknown)), and so is one whose
    /// lazy payloads do not decode (`get().validate()` tells).
    ///
    /// # Errors
    ///
    /// As [`ResponsesEvent::from_frame`]: the data is not a JSON object.
    pub fn from_frame(frame: &Frame) -> Result<Self, DecodeError> {
        let event = ResponsesEvent::from_frame(frame)?;
        // A known event name decides how the data decodes (and an `Unknown`
        // for a data `type` that disagrees with it stays one on `get`).
        let name = match event {
            ResponsesEvent::Done => None,
            _ if frame.has_event_type() => ResponsesEvent::known(frame.event()),
            _ => None,
        };
        Ok(Self {
            data: frame.data_bytes().clone(),
            name,
        })
    }

    /// Decodes `data` (see [`ResponsesEvent::parse`]) and keeps a copy,
    /// whether it fits or not, as [`from_frame`](Self::from_frame) does.
    ///
    /// # Errors
    ///
    /// As [`ResponsesEvent::parse`]: the data is not a JSON object.
    pub fn parse(data: &str) -> Result<Self, DecodeError> {
        ResponsesEvent::parse(data).map(|e| e.to_owned())
    }

    /// Keeps a copy of the text of an event of the known type `name`.
    pub(crate) fn from_parts(text: &str, name: &'static str) -> Self {
        Self {
            data: Bytes::copy_from_slice(text.as_bytes()),
            name: Some(name),
        }
    }

    /// The event, decoded again from the owned data (one pass, no
    /// allocation).
    ///
    /// The data decoded before, so it decodes again; should it not (it
    /// cannot), the result is `Unknown` with an empty type.
    pub fn get(&self) -> ResponsesEvent<'_> {
        let data = self.as_str();
        let event = match self.name {
            Some(name) => ResponsesEvent::parse_named(name, data),
            None => ResponsesEvent::parse(data),
        };
        event.unwrap_or(ResponsesEvent::Unknown {
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

impl fmt::Debug for OwnedResponsesEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OwnedResponsesEvent({})", self.as_str())
    }
}

impl ResponsesEvent<'_> {
    /// Copies the event's JSON text into an [`OwnedResponsesEvent`] that
    /// outlives the input. (To keep a frame's event without copying, use
    /// [`OwnedResponsesEvent::from_frame`].) Its `get` gives this event
    /// back, an [`Unknown`](Self::Unknown) with its error included (the
    /// text is kept without the whitespace around it, so an error's offset
    /// counts from there).
    pub fn to_owned(&self) -> OwnedResponsesEvent {
        // The type the event was decoded as: for an object that does not
        // fit, the one its error names (the SSE event name, if that decided).
        let ty = self.decode_error().map_or(self.ty(), |e| e.event_type());
        let (text, name) = match self.raw() {
            None => ("[DONE]", None),
            Some(raw) => (raw.get(), Self::known(ty)),
        };
        OwnedResponsesEvent {
            data: Bytes::copy_from_slice(text.as_bytes()),
            name,
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for OwnedResponsesEvent {
    /// The event's JSON as a value (`[DONE]` as the string `"[DONE]"`), for
    /// logging: `serde_json::to_string(&event)` gives its JSON back.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::json::serialize_json_text(self.as_str(), s)
    }
}
