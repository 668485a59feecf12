//! [`Lazy`]: a nested object validated but not decoded, for the rare large
//! payloads of an event (the response object of the lifecycle events, the
//! item of `output_item.*`, …), so that the event enum stays the size of a
//! delta.

use core::fmt;
use core::marker::PhantomData;

use super::{wrong_type, DecodeError, Field, FieldValue, Fields, Sealed};
use crate::json::{ObjectView, RawJson, Value};

/// A JSON object of view `T`, validated but not decoded: it is decoded when
/// read, with [`get`](Self::get), as a [`List`](super::List) decodes its
/// elements when iterated.
///
/// The event that holds it checked that the value is a valid JSON object;
/// a field inside it of the wrong kind surfaces when it is read, as the
/// same [`DecodeError`] (its offset in the event's data) that decoding the
/// whole event at once would give, except that the event type is not
/// named; [`ResponsesEvent::validate`](crate::responses::ResponsesEvent::validate)
/// reads every lazy payload of an event and names it.
///
/// As a [`Fields`] value it is the decoded view: a visitor sees `T`'s
/// fields (none when `T` does not decode; [`Fields::decode_error`] tells).
/// Equality compares the object's text.
pub struct Lazy<'a, T> {
    object: ObjectView<'a>,
    base: &'a str,
    _view: PhantomData<fn() -> T>,
}

impl<'a, T> Lazy<'a, T> {
    /// The object's JSON text, braces included, as in the input.
    #[inline]
    pub fn raw(&self) -> RawJson<'a> {
        self.object.as_raw_json()
    }

    /// The object, to read members the view does not model.
    #[inline]
    pub fn object(&self) -> ObjectView<'a> {
        self.object
    }
}

impl<'a, T: Field<'a>> Lazy<'a, T> {
    /// Decodes the view: one pass over the object's text, no allocation.
    /// Each call decodes again.
    ///
    /// # Errors
    ///
    /// The [`DecodeError`] of a field of the wrong kind (or a required one
    /// missing) inside the object.
    #[inline]
    pub fn get(&self) -> Result<T, DecodeError> {
        T::from_value(Value::Object(self.object), self.base)
    }
}

impl<T> Clone for Lazy<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Lazy<'_, T> {}

impl<T> PartialEq for Lazy<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.raw() == other.raw()
    }
}

impl<T> fmt::Debug for Lazy<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Lazy({})", self.raw())
    }
}

impl<T> Sealed for Lazy<'_, T> {}
impl<'a, T: Field<'a> + Fields<'a>> Field<'a> for Lazy<'a, T> {
    /// Checks that the value is an object (anything else is
    /// [`WrongType`](super::DecodeErrorKind::WrongType) now, as for an eager
    /// view); its members are decoded by [`get`](Lazy::get).
    #[inline]
    fn from_value(value: Value<'a>, base: &'a str) -> Result<Self, DecodeError> {
        match value {
            Value::Object(object) => Ok(Self {
                object,
                base,
                _view: PhantomData,
            }),
            _ => Err(wrong_type(base, &value)),
        }
    }
    #[inline]
    fn field_value(&self) -> FieldValue<'a, '_> {
        FieldValue::Object(self)
    }
    fn fallback() -> Self {
        Self {
            object: ObjectView::EMPTY,
            base: "",
            _view: PhantomData,
        }
    }
    #[inline]
    fn check(&self) -> Result<(), DecodeError> {
        self.get().map(drop)
    }
}

impl<'a, T: Field<'a> + Fields<'a>> Fields<'a> for Lazy<'a, T> {
    fn field_names(&self) -> &'static [&'static str] {
        self.get().map_or(&[], |view| view.field_names())
    }
    fn for_each_field(&self, f: &mut dyn FnMut(&'static str, FieldValue<'a, '_>)) {
        if let Ok(view) = self.get() {
            view.for_each_field(f);
        }
    }
    fn decode_error(&self) -> Option<DecodeError> {
        self.get().err()
    }
}
