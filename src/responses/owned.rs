//! Owned forms of the views, for keeping events past their buffer.

use core::fmt;
use core::marker::PhantomData;

use bytes::Bytes;

use super::error::DecodeError;
use super::field::Field;
use super::ResponseEvent;
use crate::frame::{validated_str, Frame};
use crate::json::{JsonStr, RawJson, Value};

/// A family of views: one view type at every lifetime. Implemented by the
/// `'static` instance of each nested view (`OutputItem<'static>`,
/// `Response<'static>`, …), so that [`Owned`] can name the view it hands out.
pub trait ViewFamily: 'static {
    /// The view borrowing from text that lives for `'a`.
    type View<'a>: Field<'a>;
}

/// A nested view that owns its JSON text: made by the views' `to_owned()`,
/// it outlives the input, and [`get`](Self::get) hands out the view again.
///
/// `get` decodes the text again each time it is called (one pass over the
/// view's text, no allocation). Cloning shares the text.
///
/// ```
/// use ssekit::responses::{OutputItem, ResponseEvent};
///
/// let kept = {
///     let data = String::from(r#"{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}}"#);
///     let ResponseEvent::OutputItemDone(done) = ResponseEvent::parse(&data)? else { panic!() };
///     done.item.to_owned()
/// }; // `data` is gone
/// let OutputItem::FunctionCall(call) = kept.get() else { panic!() };
/// assert_eq!(call.name.unwrap(), "f");
/// # Ok::<(), ssekit::responses::DecodeError>(())
/// ```
pub struct Owned<F: ViewFamily> {
    text: Bytes,
    _family: PhantomData<fn() -> F>,
}

impl<F: ViewFamily> Owned<F> {
    /// Keeps a copy of `text`, which a view of family `F` was decoded from.
    pub(crate) fn from_text(text: &str) -> Self {
        Self {
            text: Bytes::copy_from_slice(text.as_bytes()),
            _family: PhantomData,
        }
    }

    /// Decodes `text` as a view of family `F` and keeps a copy of it.
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] if `text` is not valid JSON or not such a view.
    pub fn parse(text: &str) -> Result<Self, DecodeError> {
        let value = Value::parse(text).map_err(DecodeError::json)?;
        <F::View<'_> as Field<'_>>::from_value(value, text)?;
        Ok(Self::from_text(value.as_raw_json().get()))
    }

    /// The view, decoded again from the owned text (one pass, no allocation).
    ///
    /// The text decoded before, so it decodes again; should it not (it
    /// cannot), the result is an empty view (all fields `None`, or `Other`).
    pub fn get(&self) -> F::View<'_> {
        let text = self.as_str();
        Value::parse(text)
            .ok()
            .and_then(|v| <F::View<'_> as Field<'_>>::from_value(v, text).ok())
            .unwrap_or_else(<F::View<'_> as Field<'_>>::fallback)
    }

    /// The owned JSON text.
    pub fn as_str(&self) -> &str {
        validated_str(&self.text)
    }
}

impl<F: ViewFamily> Clone for Owned<F> {
    fn clone(&self) -> Self {
        Self {
            text: self.text.clone(),
            _family: PhantomData,
        }
    }
}

impl<F: ViewFamily> PartialEq for Owned<F> {
    /// Compares the JSON text.
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl<F: ViewFamily> fmt::Debug for Owned<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Owned({})", self.as_str())
    }
}

/// A [`ResponseEvent`] that owns its data, for keeping events past the
/// buffer they came in (in a channel, a log, an accumulator).
///
/// It holds the event's JSON text as [`Bytes`] (a shared handle to the
/// frame's data when made by [`from_frame`](Self::from_frame): no copy) and
/// the event name it was decoded by; [`get`](Self::get) decodes it again,
/// one pass over the data without allocating, each time it is called.
///
/// ```
/// use ssekit::responses::{OwnedResponseEvent, ResponseEvent};
/// use ssekit::Frame;
///
/// let frame = Frame::new(r#"{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"Hi"}"#);
/// let owned = OwnedResponseEvent::from_frame(&frame)?;
/// drop(frame);
/// let ResponseEvent::OutputTextDelta(d) = owned.get() else { panic!() };
/// assert_eq!(d.delta, "Hi");
/// # Ok::<(), ssekit::responses::DecodeError>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct OwnedResponseEvent {
    data: Bytes,
    name: Option<&'static str>,
}

impl OwnedResponseEvent {
    /// Decodes a frame (see [`ResponseEvent::from_frame`]) and keeps a handle
    /// to its data. Nothing is copied.
    ///
    /// # Errors
    ///
    /// As [`ResponseEvent::from_frame`].
    pub fn from_frame(frame: &Frame) -> Result<Self, DecodeError> {
        let event = ResponseEvent::from_frame(frame)?;
        let name = match event {
            ResponseEvent::Unknown { .. } | ResponseEvent::Done => None,
            _ if frame.has_event_type() => Some(event.ty()),
            _ => None,
        };
        Ok(Self {
            data: frame.data_bytes().clone(),
            // `ty()` of a modeled variant is a constant; keep it `'static`.
            name: name.and_then(ResponseEvent::known),
        })
    }

    /// Decodes `data` (see [`ResponseEvent::parse`]) and keeps a copy.
    ///
    /// # Errors
    ///
    /// As [`ResponseEvent::parse`].
    pub fn parse(data: &str) -> Result<Self, DecodeError> {
        ResponseEvent::parse(data).map(|e| e.to_owned())
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
    pub fn get(&self) -> ResponseEvent<'_> {
        let data = self.as_str();
        let event = match self.name {
            Some(name) => ResponseEvent::parse_named(name, data),
            None => ResponseEvent::parse(data),
        };
        event.unwrap_or(ResponseEvent::Unknown {
            ty: JsonStr::default(),
            raw: RawJson::new("{}"),
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

impl fmt::Debug for OwnedResponseEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OwnedResponseEvent({})", self.as_str())
    }
}

impl ResponseEvent<'_> {
    /// Copies the event's JSON text into an [`OwnedResponseEvent`] that
    /// outlives the input. (To keep a frame's event without copying, use
    /// [`OwnedResponseEvent::from_frame`].)
    pub fn to_owned(&self) -> OwnedResponseEvent {
        let (text, name) = match self.raw() {
            None => ("[DONE]", None),
            Some(raw) => (raw.get(), Self::known(self.ty())),
        };
        OwnedResponseEvent {
            data: Bytes::copy_from_slice(text.as_bytes()),
            name,
        }
    }
}
