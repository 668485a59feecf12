//! Zero-allocation JSON: a validating scanner and views that borrow from the
//! text, as `serde_json` reads it.
//!
//! The typed event views of the dialect layers are built from these: a
//! strict, non-recursive scanner over `&'a str` and views that borrow from
//! the scanned text.
//!
//! # The borrowing model
//!
//! * [`Value::parse`] (or [`ObjectView::parse`], [`ArrayView::parse`],
//!   [`RawJson::parse`], [`JsonStr::parse`], [`find_key`]) is the one
//!   fallible step. It validates the whole text in a single pass that
//!   neither recurses nor allocates, and rejects anything `serde_json` would
//!   reject (see *Differences from `serde_json`* below).
//! * What it returns borrows from the text and never copies it. Objects and
//!   arrays are spans ([`ObjectView`], [`ArrayView`]) walked lazily by
//!   iterators; nested ones are skipped over until asked for. Because the
//!   text is known to be valid, walking it cannot fail.
//! * Strings are [`JsonStr`]: the *escaped* text between the quotes. A
//!   string with no escapes is also available as a plain `&'a str` slice of
//!   the input ([`JsonStr::as_str`]); one with escapes (LLM text deltas are
//!   full of `\n` and `\"`) must be unescaped: into a `Cow` that borrows
//!   when it can ([`JsonStr::unescape`]), into a reused buffer
//!   ([`JsonStr::unescape_into`]), or on the fly (`Display`,
//!   [`JsonStr::chars`], and `==` against a `&str`, which allocate nothing).
//!   No API here hands out a bare `&str` for a string that may hold escapes.
//! * Any value can be kept as its raw text, [`RawJson`], to be passed on
//!   verbatim or parsed by another library later.
//! * A decoder that visits every member of an event can save the second pass
//!   with [`ObjectScanner`], which validates the object as it walks it and so
//!   yields `Result`s; the values it yields are validated views like any other.
//!
//! # Example
//!
//! ```
//! use ssekit::json::{ObjectView, Value};
//!
//! let data = r#"{"type":"response.output_text.delta","delta":"Hi \"you\"\n","output_index":0}"#;
//! let event = ObjectView::parse(data)?;
//!
//! // Dispatch on the type: a slice of `data`, since it has no escapes.
//! let ty = event.get("type").and_then(|v| v.as_json_str()).unwrap();
//! assert_eq!(ty.as_str(), Some("response.output_text.delta"));
//!
//! // Walk the members; nothing is allocated.
//! let mut text = String::new();
//! for (key, value) in event.members() {
//!     match (key.as_str(), value) {
//!         (Some("delta"), Value::String(delta)) => {
//!             assert!(delta.has_escapes());
//!             assert_eq!(delta.raw(), r#"Hi \"you\"\n"#); // as in the input
//!             assert_eq!(delta, "Hi \"you\"\n"); // compared unescaped
//!             delta.unescape_into(&mut text); // decoded into a reused buffer
//!         }
//!         (Some("output_index"), Value::Number(n)) => assert_eq!(n.as_u64(), Some(0)),
//!         _ => {}
//!     }
//! }
//! assert_eq!(text, "Hi \"you\"\n");
//! # Ok::<(), ssekit::json::JsonError>(())
//! ```
//!
//! # Cost
//!
//! Validation reads each byte once, in about the instructions per byte of
//! `serde_json` skipping the same text into `IgnoredAny`. Strings are passed
//! over eight bytes at a time for their first 32 bytes (keys, ids and most
//! deltas end within them) and with `memchr2` beyond. Walking a view reads its
//! text again, and each nested view walked reads its own text again, so a
//! full walk of a tree costs its size times its depth; typed events read one
//! or two levels. [`find_key`] validates and then stops at the first match.
//!
//! # Limits and differences from `serde_json`
//!
//! * Nesting is limited to [`MAX_DEPTH`] (127) levels of objects and arrays,
//!   the same as `serde_json`'s default recursion limit. Nothing in this
//!   module recurses; the limit protects consumers that do.
//! * Everything `serde_json` rejects is rejected here too, so every text
//!   this module accepts, `serde_json::Value` reads: an escaped UTF-16
//!   surrogate without its partner (`"\ud800"`) is
//!   [`JsonErrorKind::LoneSurrogate`], and a number too large for an `f64`
//!   (`1e400`) is [`JsonErrorKind::NumberOutOfRange`].
//! * Duplicate keys are kept, in order, when members are walked;
//!   [`ObjectView::get`] and [`find_key`] return the last, as
//!   `serde_json::Value` (and JavaScript, and Python) do. The typed views
//!   follow the same rule for every field, `type` included.
//!
//! Errors are a [`JsonError`]: a [`JsonErrorKind`] and the byte offset where
//! it was detected. A text that is merely cut short fails with
//! [`JsonErrorKind::Eof`] ([`JsonError::is_eof`]), never with another kind.

mod error;
mod members;
pub mod partial;
mod raw;
mod scan;
#[cfg(feature = "serde")]
mod ser;
mod string;
mod value;
mod write;

#[cfg(test)]
pub(crate) mod tests;

pub use error::{JsonError, JsonErrorKind};
pub use members::{find_key, ObjectScanner};
pub(crate) use members::{Key, KeyPattern, MemberSource, WatchKey};
pub use raw::{RawJson, RawNumber};
pub use scan::MAX_DEPTH;

/// Validates `src` as one JSON text; allocates nothing.
pub(crate) fn validate_text(src: &str) -> Result<(), JsonError> {
    scan::validate(src).map(|_| ())
}
pub(crate) use scan::{finite, magnitude};
#[cfg(feature = "serde")]
pub(crate) use ser::serialize_json_text;
pub use string::{Chars, JsonStr};
pub use value::{ArrayView, Elements, Members, ObjectView, Value};
pub(crate) use write::{
    decimal, push_compact, push_json_str, push_normalized, push_u64, write_json_str, write_merged,
    ObjectWriter,
};
