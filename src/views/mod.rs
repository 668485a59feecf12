//! L3 (shared): the view machinery of every dialect ([`responses`],
//! [`chat`], [`anthropic`]): decoding one JSON value into a field type
//! ([`Field`]), visiting the fields a view exposes ([`Fields`],
//! [`FieldValue`]), lazy arrays of views ([`List`], and [`HeadList`], which
//! keeps its first element decoded), lazy objects
//! ([`Lazy`]), owned nested views
//! ([`Owned`]), the [`DecodeError`], and the `view!` / `tagged!` macros that
//! generate the views. Depends on `json` only; the dialects re-export what
//! they hand out.
//!
//! [`responses`]: crate::responses
//! [`chat`]: crate::chat
//! [`anthropic`]: crate::anthropic

#[macro_use]
mod macros;
pub(crate) mod decode;
mod error;
mod head_list;
mod lazy;
mod owned;
#[cfg(feature = "serde")]
pub(crate) mod serde;

pub use error::{DecodeError, DecodeErrorKind};
pub use head_list::{HeadList, HeadListIntoIter, HeadListIter};
pub use lazy::Lazy;
pub use owned::{Owned, ViewFamily};

use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;

use crate::json::{ArrayView, Elements, JsonStr, ObjectScanner, RawJson, Value};

/// Byte offset of `span` (a slice of `base`) in `base`.
#[inline]
pub(crate) fn offset_in(base: &str, span: &str) -> usize {
    (span.as_ptr() as usize).wrapping_sub(base.as_ptr() as usize)
}

/// The error to report for `data`: errors are for data that is not JSON
/// first. A field of the wrong kind (or a missing one) found before a JSON
/// error later in the text gives way to that JSON error, so that invalid
/// JSON always reports what the validator (and serde_json) finds.
#[cold]
#[inline(never)]
pub(crate) fn json_first(data: &str, e: DecodeError) -> DecodeError {
    match e.kind() {
        DecodeErrorKind::Json(_) | DecodeErrorKind::NotAnObject => e,
        _ => match crate::json::validate_text(data) {
            Err(json) => DecodeError::json(json).with_event_type(e.event_type()),
            Ok(()) => e,
        },
    }
}

/// What a decoder's failure on an event's `data` becomes under the crate's
/// rule for data that does not fit (see [`DecodeError`]): see [`unfit`].
pub(crate) enum Unfit<'a, E> {
    /// The object read again by its last `type`, which the decoder had not
    /// reached.
    Event(E),
    /// The parts of the dialect's `Unknown` variant.
    Unknown {
        ty: JsonStr<'a>,
        raw: RawJson<'a>,
        error: Option<DecodeError>,
    },
}

/// A decoder's failure `e` on `data` (decoded by the SSE event name `named`,
/// if given) under the crate's rule for data that does not fit (see
/// [`DecodeError`]): still an error when `data` is not a JSON object (the
/// JSON error first, as [`json_first`] reports it); otherwise the dialect's
/// `Unknown`, with the data's last `type` (empty when there is none or it is
/// not a string), its text without surrounding whitespace, and what did not
/// fit.
///
/// A decoder stops at the first field that does not fit, which may come
/// before a later `type` that says otherwise; that last `type` counts, as in
/// serde_json. With an event name, it is then a type mismatch at that
/// `type`; without one, the object is read again by it (`decode_by` gives
/// `None` for a type the dialect does not model: an `Unknown` without an
/// error).
#[cold]
#[inline(never)]
pub(crate) fn unfit<'a, E>(
    data: &'a str,
    e: DecodeError,
    named: Option<&'static str>,
    decode_by: impl FnOnce(JsonStr<'a>) -> Option<Result<E, DecodeError>>,
) -> Result<Unfit<'a, E>, DecodeError> {
    let mut error = json_first(data, e);
    if matches!(
        error.kind(),
        DecodeErrorKind::Json(_) | DecodeErrorKind::NotAnObject
    ) {
        return Err(error);
    }
    let last = last_type(data).ok().flatten();
    let raw = RawJson::new(trim_json_ws(data));
    let decoded = named.unwrap_or(error.event_type());
    let disputing = last.filter(|ty| !decoded.is_empty() && *ty != decoded);
    if let Some(ty) = disputing {
        match (named, decode_by(ty)) {
            (Some(name), _) => {
                let at = offset_in(data, ty.as_raw_json().get());
                error = DecodeError::new(DecodeErrorKind::TypeMismatch, at).with_event_type(name);
            }
            (None, Some(Ok(event))) => return Ok(Unfit::Event(event)),
            (None, Some(Err(again))) => error = again,
            (None, None) => {
                return Ok(Unfit::Unknown {
                    ty,
                    raw,
                    error: None,
                })
            }
        }
    }
    Ok(Unfit::Unknown {
        ty: last.unwrap_or_default(),
        raw,
        error: Some(error),
    })
}

/// Whether the last `type` member of the object `raw` is a string (an
/// `Unknown` that does not fit has an empty `ty` both when it is not and
/// when it is `""`).
#[cold]
pub(crate) fn has_string_type(raw: RawJson<'_>) -> bool {
    matches!(last_type(raw.get()), Ok(Some(_)))
}

/// Byte offset of `value`'s text in `base`.
#[inline]
pub(crate) fn value_offset(base: &str, value: &Value<'_>) -> usize {
    match value {
        // Their text is static, not a span of `base`; the caller refines.
        Value::Null | Value::Bool(_) => 0,
        _ => offset_in(base, value.as_raw_json().get()),
    }
}

/// A wrong-typed value, its field not yet named (see [`DecodeError::in_field`]).
#[cold]
pub(crate) fn wrong_type(base: &str, value: &Value<'_>) -> DecodeError {
    DecodeError::new(
        DecodeErrorKind::WrongType { field: "" },
        value_offset(base, value),
    )
}

mod private {
    pub trait Sealed {}
}
pub(crate) use private::Sealed;

/// A type a view's field can have: `JsonStr`, the integers, `f64`, `bool`,
/// [`RawJson`], a nested view or a [`List`] of them. Implemented by this
/// crate only (it is sealed).
pub trait Field<'a>: Sized + Sealed {
    /// Decodes one validated JSON value (never `null`: a `null` field counts
    /// as absent). `base` is the event's data, for error offsets.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::WrongType`] when the value has the wrong JSON kind,
    /// or the error of a nested view.
    #[doc(hidden)]
    fn from_value(value: Value<'a>, base: &'a str) -> Result<Self, DecodeError>;

    /// The value, for a [`Fields`] visitor.
    fn field_value(&self) -> FieldValue<'a, '_>;

    /// Whether the type is a view that decodes an object in the pass that
    /// validates it, through [`from_nested`](Self::from_nested).
    #[doc(hidden)]
    const NESTED: bool = false;

    /// Decodes the object `scanner` is at (its `{`), validating it as it
    /// goes, and walks the scanner to the object's end. Only called when
    /// [`NESTED`](Self::NESTED), which only the views set (their `view!`
    /// decoder overrides this); the default is the plain two-pass reading,
    /// validate the object, then [`from_value`](Self::from_value).
    #[doc(hidden)]
    #[inline]
    fn from_nested(scanner: &mut ObjectScanner<'a>, base: &'a str) -> Result<Self, DecodeError> {
        for member in scanner.by_ref() {
            member.map_err(DecodeError::json)?;
        }
        Self::from_value(Value::from_span(scanner.object_text()), base)
    }

    /// Whether the decoders should first offer the type the scanner of the
    /// object that holds it, at the member's value (see
    /// [`from_scanner`](Self::from_scanner)).
    #[doc(hidden)]
    const FROM_SCANNER: bool = false;

    /// Reads the member value `scanner` is at into `slot` (which holds the
    /// fallback value), validating it, when the type can do better than
    /// validating it first ([`HeadList`] decodes its first element in the
    /// same pass, in place); `false`, with nothing consumed and `slot` in
    /// any state, to leave it to [`from_value`](Self::from_value). Only
    /// called when [`FROM_SCANNER`](Self::FROM_SCANNER).
    #[doc(hidden)]
    #[inline]
    fn from_scanner(scanner: &mut ObjectScanner<'a>, base: &'a str, slot: &mut Self) -> bool {
        let _ = (scanner, base, slot);
        false
    }

    /// [`from_nested`](Self::from_nested) into `out`, which holds the
    /// fallback value: a view decodes its fields in place there, so that a
    /// large one is not moved on its way (and may leave part of what it
    /// read there on an error).
    #[doc(hidden)]
    #[inline]
    fn from_nested_in(
        scanner: &mut ObjectScanner<'a>,
        base: &'a str,
        out: &mut Self,
    ) -> Result<(), DecodeError> {
        *out = Self::from_nested(scanner, base)?;
        Ok(())
    }

    /// Whether the decoders should first try to read the value as a plain
    /// non-negative integer, in one pass (see [`from_u64`](Self::from_u64)).
    #[doc(hidden)]
    const FROM_U64: bool = false;

    /// The field from a non-negative integer of at most 19 digits, when
    /// [`FROM_U64`](Self::FROM_U64); the same as `from_value` on it.
    #[doc(hidden)]
    #[inline]
    fn from_u64(n: u64) -> Option<Self> {
        let _ = n;
        None
    }

    /// A value to return where decoding text that decoded before fails,
    /// which cannot happen (see [`Owned::get`](Owned::get)); also the value
    /// of an absent `dflt` field.
    #[doc(hidden)]
    fn fallback() -> Self;

    /// Whether this is the [`fallback`](Self::fallback) of an absent field,
    /// not a value decoded from text (only a [`List`] can tell).
    #[doc(hidden)]
    #[inline]
    fn is_fallback(&self) -> bool {
        false
    }

    /// Decodes what was left to decode when read (a [`Lazy`] payload) and
    /// reports its error; `Ok` for every eagerly decoded field.
    #[doc(hidden)]
    #[inline]
    fn check(&self) -> Result<(), DecodeError> {
        Ok(())
    }
}

/// The JSON text a view was decoded from. Ignored by `==`, so views compare
/// by their fields.
#[derive(Clone, Copy)]
pub(crate) struct Source<'a>(pub(crate) RawJson<'a>);

impl Source<'_> {
    /// The source of a view not decoded from text.
    pub(crate) const EMPTY: Source<'static> = Source(RawJson::new("{}"));
}

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

/// One field's value, as handed to a [`Fields::for_each_field`] visitor.
///
/// Numbers come typed as the view declares them; nested views and arrays
/// come as visitable references, so a visitor can walk a whole event
/// without allocating.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub enum FieldValue<'a, 'v> {
    /// A string, as in the input (see [`JsonStr`]).
    Str(JsonStr<'a>),
    /// An unsigned integer.
    U64(u64),
    /// A signed integer.
    I64(i64),
    /// A number with a fraction or exponent, or one declared as such.
    F64(f64),
    /// A boolean.
    Bool(bool),
    /// A value the views keep as raw JSON text.
    Raw(RawJson<'a>),
    /// A nested view (an object).
    Object(&'v dyn Fields<'a>),
    /// A lazy array of views or strings.
    Array(&'v dyn FieldElements<'a>),
}

impl fmt::Debug for FieldValue<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Str(s) => fmt::Debug::fmt(s, f),
            Self::U64(n) => write!(f, "U64({n})"),
            Self::I64(n) => write!(f, "I64({n})"),
            Self::F64(n) => write!(f, "F64({n})"),
            Self::Bool(b) => write!(f, "Bool({b})"),
            Self::Raw(r) => fmt::Debug::fmt(r, f),
            Self::Object(_) => f.write_str("Object(..)"),
            Self::Array(_) => f.write_str("Array(..)"),
        }
    }
}

/// A view whose fields can be visited: every event, item, part, annotation,
/// chunk, content block and nested object of the dialect modules.
///
/// This is how generic code (the differential tests, the CLI, a logger)
/// reads every field of a view without knowing its type.
pub trait Fields<'a> {
    /// The JSON keys this view exposes, in declaration order (without
    /// `type`, which the view's type or variant stands for).
    fn field_names(&self) -> &'static [&'static str];

    /// Calls `f` with each field that is present, in declaration order: the
    /// JSON key and the value. Absent fields (`None`) are skipped. Views
    /// with a `type` report it first, as `"type"`.
    fn for_each_field(&self, f: &mut dyn FnMut(&'static str, FieldValue<'a, '_>));

    /// For a lazily decoded view ([`Lazy`]) whose text does not decode: the
    /// error (its visitor then reports no fields); for an event that is an
    /// object that does not fit its type (the dialect's `Unknown` with an
    /// error), that error (its visitor reports its `type` if it is a string,
    /// for Responses and Anthropic, and nothing for Chat and Gemini).
    /// `None` for every other view.
    fn decode_error(&self) -> Option<DecodeError> {
        None
    }
}

/// The elements of a lazy array, for a [`Fields`] visitor.
pub trait FieldElements<'a> {
    /// Calls `f` with each element, decoded, in order.
    fn for_each_element(&self, f: &mut dyn FnMut(Result<FieldValue<'a, '_>, DecodeError>));
}

macro_rules! scalar_field {
    ($t:ty, $variant:ident, |$v:ident| $decode:expr, from_u64 = |$n:ident| $from:expr) => {
        scalar_field!(@impl $t, $variant, |$v| $decode, {
            const FROM_U64: bool = true;
            #[inline(always)]
            fn from_u64($n: u64) -> Option<Self> {
                $from
            }
        });
    };
    ($t:ty, $variant:ident, |$v:ident| $decode:expr) => {
        scalar_field!(@impl $t, $variant, |$v| $decode, {});
    };
    (@impl $t:ty, $variant:ident, |$v:ident| $decode:expr, { $($extra:tt)* }) => {
        impl Sealed for $t {}
        impl<'a> Field<'a> for $t {
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
            default_fallback!();
            $($extra)*
        }
    };
}

scalar_field!(u64, U64, |v| v.as_u64(), from_u64 = |n| Some(n));
scalar_field!(i64, I64, |v| v.as_i64());
scalar_field!(f64, F64, |v| v.as_f64());
scalar_field!(bool, Bool, |v| v.as_bool());

macro_rules! default_fallback {
    () => {
        #[inline]
        fn fallback() -> Self {
            Self::default()
        }
    };
}
pub(crate) use default_fallback;

impl Sealed for JsonStr<'_> {}
impl<'a> Field<'a> for JsonStr<'a> {
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
    default_fallback!();
}

impl Sealed for RawJson<'_> {}
impl<'a> Field<'a> for RawJson<'a> {
    #[inline]
    fn from_value(value: Value<'a>, _base: &'a str) -> Result<Self, DecodeError> {
        Ok(value.as_raw_json())
    }
    #[inline]
    fn field_value(&self) -> FieldValue<'a, '_> {
        FieldValue::Raw(*self)
    }
    fn fallback() -> Self {
        RawJson::new("null")
    }
}

/// A JSON array of `T`, validated but not decoded: its elements are decoded
/// one by one as they are iterated, without allocating.
///
/// Iteration yields `Result`s: an element of the wrong kind (a number in an
/// array of objects, a string where a count belongs) is an error for that
/// element only. Elements of unknown kinds (an output item of a new type) are
/// not errors: they decode to the `Other` variant of their enum.
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

impl<'a, T: Field<'a>> List<'a, T> {
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

impl<'a, T: Field<'a>> IntoIterator for List<'a, T> {
    type Item = Result<T, DecodeError>;
    type IntoIter = ListIter<'a, T>;
    fn into_iter(self) -> ListIter<'a, T> {
        self.iter()
    }
}

impl<'a, T: Field<'a>> IntoIterator for &List<'a, T> {
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

impl<'a, T: Field<'a>> Iterator for ListIter<'a, T> {
    type Item = Result<T, DecodeError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if T::NESTED {
            // An object element is decoded in one pass over its text, not
            // walked over and then walked again member by member.
            let array = self.elements.src();
            let start = offset_in(self.base, array);
            if start < self.base.len() {
                let i = self.elements.next_start()?;
                if array.as_bytes().get(i) == Some(&b'{') {
                    let mut scanner = ObjectScanner::nested_at(self.base, start + i);
                    let element = T::from_nested(&mut scanner, self.base);
                    if element.is_ok() {
                        self.elements.resume(scanner.position() - start);
                    } else {
                        // Stopped inside the element: walk over all of it.
                        self.elements.next();
                    }
                    return Some(element);
                }
            }
        }
        let value = self.elements.next()?;
        if value.is_null() {
            return Some(Err(wrong_type(self.base, &value)));
        }
        Some(T::from_value(value, self.base))
    }
}

impl<'a, T: Field<'a>> FusedIterator for ListIter<'a, T> {}

impl<T> Sealed for List<'_, T> {}
impl<'a, T: Field<'a>> Field<'a> for List<'a, T> {
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
    fn fallback() -> Self {
        Self {
            array: ArrayView::EMPTY,
            base: "",
            _elements: PhantomData,
        }
    }
    #[inline]
    fn is_fallback(&self) -> bool {
        // A decoded list's base is the data holding it, never empty.
        self.base.is_empty()
    }
}

impl<'a, T: Field<'a>> FieldElements<'a> for List<'a, T> {
    fn for_each_element(&self, f: &mut dyn FnMut(Result<FieldValue<'a, '_>, DecodeError>)) {
        visit_elements(self.iter(), f);
    }
}

/// Hands each decoded element (or its error) to a visitor: the body of
/// [`FieldElements::for_each_element`] for [`List`] and [`HeadList`].
pub(super) fn visit_elements<'a, T: Field<'a>>(
    elements: ListIter<'a, T>,
    f: &mut dyn FnMut(Result<FieldValue<'a, '_>, DecodeError>),
) {
    for element in elements {
        match element {
            Ok(element) => f(Ok(element.field_value())),
            Err(e) => f(Err(e)),
        }
    }
}

/// The number of the field `name` in `names`, if it is one (for
/// compile-time checks and tables).
pub(crate) const fn find_field(names: &[&str], name: &str) -> Option<usize> {
    let mut i = 0;
    while i < names.len() {
        let a = names[i].as_bytes();
        let b = name.as_bytes();
        if a.len() == b.len() {
            let mut k = 0;
            while k < a.len() && a[k] == b[k] {
                k += 1;
            }
            if k == a.len() {
                return Some(i);
            }
        }
        i += 1;
    }
    None
}

/// Whether `name` is one of `names` (for compile-time checks).
pub(crate) const fn has_field(names: &[&str], name: &str) -> bool {
    find_field(names, name).is_some()
}

/// The member number of a field: its index in the view's `FIELDS`
/// (evaluated at compile time; every field's key is in `FIELDS`).
pub(crate) const fn field_number(names: &[&str], name: &str) -> usize {
    match find_field(names, name) {
        Some(i) => i,
        None => panic!("not a field of the view"),
    }
}

/// Finds the field name equal to an escaped key (`"\u0074ype"`): the slow
/// path of the decoders, taken only for keys that hold escapes.
#[cold]
pub(crate) fn match_escaped(key: JsonStr<'_>, names: &'static [&'static str]) -> &'static str {
    if key == "type" {
        return "type";
    }
    names.iter().copied().find(|n| key == *n).unwrap_or("")
}

/// The `type` of an object by the rule every JSON reader we agree with uses:
/// with duplicate members the last one wins (as in `serde_json::Value`,
/// JavaScript and Python). Validates the whole object. `Ok(None)` when it
/// has no `type`.
///
/// # Errors
///
/// The object is not valid JSON, or its last `type` is not a string.
pub(crate) fn last_type(data: &str) -> Result<Option<JsonStr<'_>>, DecodeError> {
    let mut last = None;
    for member in crate::json::ObjectScanner::new(data) {
        let (key, value) = member.map_err(DecodeError::json)?;
        if key == "type" {
            last = Some(value);
        }
    }
    match last {
        None => Ok(None),
        Some(Value::String(ty)) => Ok(Some(ty)),
        Some(value) => Err(wrong_type(data, &value).in_field("type")),
    }
}

/// Whether a decoder's error is about the object's `type` member (a value
/// other than the type decoded, or not a string): then the last `type`
/// decides, as in serde_json, and the object is read again by it.
#[inline]
pub(crate) fn type_disputed(e: &DecodeError) -> bool {
    matches!(
        e.kind(),
        DecodeErrorKind::TypeMismatch | DecodeErrorKind::WrongType { field: "type" }
    )
}

/// Validates the rest of an object whose first `type` was `ty` (empty when
/// it was not a string) and tells whether that `type` stands: no later
/// `type` member says otherwise (the last one wins, as in serde_json).
pub(crate) fn first_type_stands<'a>(
    rest: impl Iterator<Item = Result<(JsonStr<'a>, Value<'a>), crate::json::JsonError>>,
    ty: JsonStr<'_>,
) -> Result<bool, DecodeError> {
    let mut agrees = !ty.is_empty();
    for member in rest {
        let (key, value) = member.map_err(DecodeError::json)?;
        if key == "type" {
            agrees &= matches!(value, Value::String(v) if v == ty);
        }
    }
    Ok(agrees)
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

/// Trims JSON whitespace.
pub(crate) fn trim_json_ws(s: &str) -> &str {
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let b = s.as_bytes();
    let start = b.iter().position(|c| !ws(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !ws(c)).map_or(start, |i| i + 1);
    s.get(start..end).unwrap_or_default()
}

#[cfg(test)]
mod tests;
