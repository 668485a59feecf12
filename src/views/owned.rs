//! [`Owned`]: a nested view that owns its text, for keeping it past its buffer.

use core::fmt;
use core::marker::PhantomData;

use bytes::Bytes;

use super::{DecodeError, Field};
use crate::frame::validated_str;
use crate::json::Value;

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
/// use ssekit::responses::{OutputItem, ResponsesEvent};
///
/// let kept = {
///     let data = String::from(r#"{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"}}"#);
///     let ResponsesEvent::OutputItemDone(done) = ResponsesEvent::parse(&data)? else { panic!() };
///     done.item.get()?.to_owned()
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

#[cfg(feature = "serde")]
impl<F: ViewFamily> serde::Serialize for Owned<F> {
    /// The view's JSON as a value, for logging.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        crate::json::serialize_json_text(self.as_str(), s)
    }
}
