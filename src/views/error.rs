//! The error type of the views, shared by every dialect.

use core::fmt;

use crate::json::{JsonError, JsonErrorKind};

/// What was wrong with an event, without where. See [`DecodeError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The data is not valid JSON.
    Json(JsonError),
    /// The data is valid JSON but not an object.
    NotAnObject,
    /// A field the event type requires is absent (or `null`).
    MissingField {
        /// The field's JSON key.
        field: &'static str,
    },
    /// A field holds a JSON value of the wrong kind (a string where a number
    /// belongs, an array where an object belongs, …).
    WrongType {
        /// The field's JSON key (for an element of an array, the array's).
        field: &'static str,
    },
    /// The SSE `event:` name and the data's `type` disagree.
    TypeMismatch,
}

/// An event that could not be decoded into its typed view: a
/// [`DecodeErrorKind`], the event type when it was known, and the byte
/// offset in the event's data where the problem was found.
///
/// # Data that does not fit: the rule, in every dialect
///
/// Errors are for data that is not a JSON object. An object is never an
/// error: when it does not fit, it is passed on as the dialect's `Unknown`
/// variant, with its raw text, so that streams from newer servers go on.
///
/// * **Not JSON, or not an object** (bad syntax, a number out of range, a
///   lone surrogate, an array, a string other than `[DONE]` where a dialect
///   has it): an error, [`DecodeErrorKind::Json`] or
///   [`DecodeErrorKind::NotAnObject`], at the offset where the validator
///   (and serde_json) finds it, even when a field of the wrong kind comes
///   before that point.
/// * **An object of a type this version does not know** (a new Responses or
///   Anthropic event type): `Unknown` with no error
///   ([`ResponsesEvent::Unknown`](crate::responses::ResponsesEvent::Unknown),
///   [`AnthropicEvent::Unknown`](crate::anthropic::AnthropicEvent::Unknown)).
///   Members a view does not model are ignored, in every dialect.
/// * **An object whose members do not fit** (a
///   `response.output_text.delta` without its `delta`, an Anthropic
///   `content_block_delta` whose `index` is a string, no string `type`, a
///   `type` that disagrees with the SSE event name, a Chat chunk whose
///   `created` is a string): `Unknown` with this error
///   ([`DecodeErrorKind::MissingField`], [`DecodeErrorKind::WrongType`] or
///   [`DecodeErrorKind::TypeMismatch`]), which every event type hands out
///   as `decode_error()` (also [`Fields::decode_error`](super::Fields::decode_error)).
///   Such an event is passed on, not passed over: the accumulators, linters
///   and bridges report it as this error, and the strict reading (`parse`
///   then `validate`, or `strict()`, in every dialect) fails with it. Its
///   `kind()` (Responses) is `EventKind::Unknown` even when its `ty()`
///   names a known type.
/// * **An element of a list that does not fit** (a choice without its
///   `index`), **or a lazy payload** (the `response` of a Responses
///   lifecycle event): an error for that element only, when the list is
///   iterated or the payload read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DecodeError {
    kind: DecodeErrorKind,
    event_type: &'static str,
    offset: usize,
}

impl DecodeError {
    #[cold]
    #[inline(never)]
    pub(crate) fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        Self {
            kind,
            event_type: "",
            offset,
        }
    }

    /// A JSON error (valid JSON that is not an object is `NotAnObject`); its offset is already relative to the event's data.
    #[cold]
    pub(crate) fn json(e: JsonError) -> Self {
        if e.kind() == JsonErrorKind::ExpectedObject {
            Self::new(DecodeErrorKind::NotAnObject, e.offset())
        } else {
            Self::new(DecodeErrorKind::Json(e), e.offset())
        }
    }

    /// Records the event type, unless one is already recorded.
    #[inline]
    pub(crate) fn with_event_type(mut self, ty: &'static str) -> Self {
        if self.event_type.is_empty() {
            self.event_type = ty;
        }
        self
    }

    /// Names the field of a wrong-typed value whose field was not yet known
    /// (an element decoded by its own type does not know its field).
    #[inline]
    pub(crate) fn in_field(mut self, field: &'static str) -> Self {
        if let DecodeErrorKind::WrongType { field: f @ "" } = &mut self.kind {
            *f = field;
        }
        self
    }

    /// What was wrong.
    pub fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The event type being decoded (from the SSE `event:` name or the data's
    /// `type`), or `""` when it was not known yet.
    pub fn event_type(&self) -> &'static str {
        self.event_type
    }

    /// Byte offset in the event's data: of the JSON error, of the wrong-typed
    /// value, or of the object that lacks a required field.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DecodeErrorKind::Json(e) => write!(f, "invalid json: {e}")?,
            DecodeErrorKind::NotAnObject => write!(f, "not a json object at byte {}", self.offset)?,
            DecodeErrorKind::MissingField { field } => {
                write!(f, "missing field `{field}` at byte {}", self.offset)?;
            }
            DecodeErrorKind::WrongType { field } => {
                write!(f, "wrong type for field `{field}` at byte {}", self.offset)?;
            }
            DecodeErrorKind::TypeMismatch => {
                write!(f, "event name and `type` differ at byte {}", self.offset)?;
            }
        }
        if !self.event_type.is_empty() {
            write!(f, " in {}", self.event_type)?;
        }
        Ok(())
    }
}

impl core::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.kind {
            DecodeErrorKind::Json(e) => Some(e),
            _ => None,
        }
    }
}
