//! Crate-private machinery shared by the Chat Completions ([`chat`](crate::chat))
//! and Anthropic Messages ([`anthropic`](crate::anthropic)) views.
//!
//! This mirrors `responses/field.rs` and `responses/macros.rs`, whose
//! decoding trait is sealed inside a private module and so cannot be
//! implemented from here. Visiting is shared: every view of this module
//! implements [`responses::Fields`](crate::responses::Fields) and hands out
//! [`responses::FieldValue`](crate::responses::FieldValue)s, so one visitor
//! reads all three dialects. Errors are [`DecodeError`]s.
//!
//! To unify later: once `responses::Field` can be implemented crate-wide,
//! [`Decode`] becomes `Field`, [`List`] becomes `responses::List`, and the
//! `dview!` / `dtagged!` macros become `view!` / `tagged!`.

#[macro_use]
mod macros;

use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;

use crate::json::{ArrayView, Elements, JsonStr, RawJson, Value};
use crate::responses::{DecodeError, DecodeErrorKind, FieldElements, FieldValue};

/// Byte offset of `span` (a slice of `base`) in `base`.
#[inline]
pub(crate) fn offset_in(base: &str, span: &str) -> usize {
    (span.as_ptr() as usize).wrapping_sub(base.as_ptr() as usize)
}

/// A wrong-typed value, its field not yet named.
#[cold]
pub(crate) fn wrong_type(base: &str, value: &Value<'_>) -> DecodeError {
    let at = match value {
        Value::Null | Value::Bool(_) => 0,
        _ => offset_in(base, value.as_raw_json().get()),
    };
    DecodeError::new(DecodeErrorKind::WrongType { field: "" }, at)
}

/// Finds the field name equal to an escaped key (`"\u0074ype"`).
#[cold]
pub(crate) fn match_escaped(key: JsonStr<'_>, names: &'static [&'static str]) -> &'static str {
    if key == "type" {
        return "type";
    }
    names.iter().copied().find(|n| key == *n).unwrap_or("")
}

/// Trims JSON whitespace.
pub(crate) fn trim_json_ws(s: &str) -> &str {
    s.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))
}

/// A type a field of a Chat or Anthropic view can have: `JsonStr`, the
/// integers, `f64`, `bool`, [`RawJson`], a nested view or a [`List`] of
/// them. Implemented by this crate only (it cannot be named outside it).
pub trait Decode<'a>: Sized {
    /// Decodes one validated JSON value (never `null`). `base` is the
    /// event's data, for error offsets.
    #[doc(hidden)]
    fn from_value(value: Value<'a>, base: &'a str) -> Result<Self, DecodeError>;

    /// The value, for a [`Fields`](crate::responses::Fields) visitor.
    #[doc(hidden)]
    fn field_value(&self) -> FieldValue<'a, '_>;
}

macro_rules! scalar_decode {
    ($t:ty, $variant:ident, |$v:ident| $decode:expr) => {
        impl<'a> Decode<'a> for $t {
            #[inline]
            fn from_value($v: Value<'a>, base: &'a str) -> Result<Self, DecodeError> {
                match $decode {
                    Some(x) => Ok(x),
                    None => Err(wrong_type(base, &$v)),
                }
            }
            #[inline]
            fn field_value(&self) -> FieldValue<'a, '_> {
                FieldValue::$variant(*self)
            }
        }
    };
}

scalar_decode!(u64, U64, |v| v.as_u64());
scalar_decode!(i64, I64, |v| v.as_i64());
scalar_decode!(f64, F64, |v| v.as_f64());
scalar_decode!(bool, Bool, |v| v.as_bool());

impl<'a> Decode<'a> for JsonStr<'a> {
    #[inline]
    fn from_value(value: Value<'a>, base: &'a str) -> Result<Self, DecodeError> {
        match value {
            Value::String(s) => Ok(s),
            _ => Err(wrong_type(base, &value)),
        }
    }
    #[inline]
    fn field_value(&self) -> FieldValue<'a, '_> {
        FieldValue::Str(*self)
    }
}

impl<'a> Decode<'a> for RawJson<'a> {
    #[inline]
    fn from_value(value: Value<'a>, _base: &'a str) -> Result<Self, DecodeError> {
        Ok(value.as_raw_json())
    }
    #[inline]
    fn field_value(&self) -> FieldValue<'a, '_> {
        FieldValue::Raw(*self)
    }
}

/// A JSON array of `T`, validated but not decoded: its elements are decoded
/// one by one as they are iterated, without allocating.
///
/// Iteration yields `Result`s: an element of the wrong kind is an error for
/// that element only. Elements of unknown kinds (a content block of a new
/// type) are not errors: they decode to the `Other` variant of their enum.
///
/// Equality compares the array's text.
pub struct List<'a, T> {
    array: ArrayView<'a>,
    base: &'a str,
    _elements: PhantomData<fn() -> T>,
}

impl<'a, T> List<'a, T> {
    /// The array's JSON text, brackets included.
    #[inline]
    pub fn as_raw_json(&self) -> RawJson<'a> {
        self.array.as_raw_json()
    }

    /// Whether the array is empty. O(1) for compact text.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.array.is_empty()
    }

    /// The number of elements (walks the array, decodes nothing).
    #[inline]
    pub fn len(&self) -> usize {
        self.array.iter().count()
    }
}

impl<'a, T: Decode<'a>> List<'a, T> {
    /// An iterator over the decoded elements.
    #[inline]
    pub fn iter(&self) -> ListIter<'a, T> {
        ListIter {
            elements: self.array.iter(),
            base: self.base,
            _elements: PhantomData,
        }
    }

    /// The first element, decoded.
    #[inline]
    pub fn first(&self) -> Option<Result<T, DecodeError>> {
        self.iter().next()
    }
}

impl<T> Clone for List<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for List<'_, T> {}

impl<T> PartialEq for List<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.array.as_raw_json() == other.array.as_raw_json()
    }
}

impl<T> fmt::Debug for List<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "List({})", self.array.as_raw_json())
    }
}

impl<'a, T: Decode<'a>> IntoIterator for List<'a, T> {
    type Item = Result<T, DecodeError>;
    type IntoIter = ListIter<'a, T>;
    fn into_iter(self) -> ListIter<'a, T> {
        self.iter()
    }
}

impl<'a, T: Decode<'a>> IntoIterator for &List<'a, T> {
    type Item = Result<T, DecodeError>;
    type IntoIter = ListIter<'a, T>;
    fn into_iter(self) -> ListIter<'a, T> {
        self.iter()
    }
}

/// Iterator over the decoded elements of a [`List`].
pub struct ListIter<'a, T> {
    elements: Elements<'a>,
    base: &'a str,
    _elements: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for ListIter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ListIter").finish_non_exhaustive()
    }
}

impl<T> Clone for ListIter<'_, T> {
    fn clone(&self) -> Self {
        Self {
            elements: self.elements.clone(),
            base: self.base,
            _elements: PhantomData,
        }
    }
}

impl<'a, T: Decode<'a>> Iterator for ListIter<'a, T> {
    type Item = Result<T, DecodeError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let value = self.elements.next()?;
        if value.is_null() {
            return Some(Err(wrong_type(self.base, &value)));
        }
        Some(T::from_value(value, self.base))
    }
}

impl<'a, T: Decode<'a>> FusedIterator for ListIter<'a, T> {}

impl<'a, T: Decode<'a>> Decode<'a> for List<'a, T> {
    #[inline]
    fn from_value(value: Value<'a>, base: &'a str) -> Result<Self, DecodeError> {
        match value {
            Value::Array(array) => Ok(Self {
                array,
                base,
                _elements: PhantomData,
            }),
            _ => Err(wrong_type(base, &value)),
        }
    }
    #[inline]
    fn field_value(&self) -> FieldValue<'a, '_> {
        FieldValue::Array(self)
    }
}

impl<'a, T: Decode<'a>> FieldElements<'a> for List<'a, T> {
    fn for_each_element(&self, f: &mut dyn FnMut(Result<FieldValue<'a, '_>, DecodeError>)) {
        for element in self.iter() {
            match element {
                Ok(element) => f(Ok(element.field_value())),
                Err(e) => f(Err(e)),
            }
        }
    }
}

/// Checks an object's `type` member against the type its view decodes.
pub(crate) fn check_type(expect: &str, value: Value<'_>, base: &str) -> Result<(), DecodeError> {
    match value {
        Value::String(ty) if ty == expect => Ok(()),
        Value::String(ty) => Err(DecodeError::new(
            DecodeErrorKind::TypeMismatch,
            offset_in(base, ty.as_raw_json().get()),
        )),
        _ => Err(wrong_type(base, &value).in_field("type")),
    }
}

/// The JSON text a view was decoded from. Ignored by `==`, so views compare
/// by their fields.
#[derive(Clone, Copy)]
pub(crate) struct Source<'a>(pub(crate) RawJson<'a>);

impl PartialEq for Source<'_> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for Source<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("..")
    }
}
