//! L4: deltas → owned final responses, one accumulator per dialect.
//! Depends on: `json` (the scanner, the object writer, and
//! [`json::partial`](crate::json::partial) for live tool arguments),
//! `views`, the dialects (`responses`, with its order checker, `chat`,
//! `anthropic`, `gemini`) and `alloc`; never on `frame`.
//!
//! * [`ResponseAccumulator`]: the events of a Responses API stream → a
//!   [`FinalResponse`] in the API's Response shape ([`JsonValue`]), with
//!   live snapshots while it streams.
//! * [`ChatAccumulator`], [`MessageAccumulator`], [`GeminiAccumulator`]: the
//!   same for Chat Completions, Anthropic Messages and Gemini.

mod responses;
mod value;

/// Moved to [`json::partial`](crate::json::partial).
#[deprecated(note = "moved to `ssekit::json::partial::PartialJson`")]
pub type PartialJson = crate::json::partial::PartialJson;

/// Moved to [`json::partial`](crate::json::partial).
///
/// # Errors
///
/// As [`json::partial::repair_partial_json`](crate::json::partial::repair_partial_json).
#[deprecated(note = "moved to `ssekit::json::partial::repair_partial_json`")]
pub fn repair_partial_json(
    prefix: &str,
) -> Result<Option<alloc::string::String>, crate::json::JsonError> {
    crate::json::partial::repair_partial_json(prefix)
}

pub mod anthropic;
pub mod chat;
mod dialect;
mod error;
pub mod gemini;
pub use anthropic::{MessageAccumulator, MessageAccumulatorConfig};
pub use chat::{ChatAccumulator, ChatAccumulatorConfig};
pub use dialect::IndexOrder;
pub use error::{AccumulateError, AccumulateErrorKind, Outcome};
pub use gemini::{GeminiAccumulator, GeminiAccumulatorConfig, DEFAULT_MAX_CANDIDATES};
pub use responses::{
    AccumulatorConfig, FinalResponse, Finding, FindingKind, ItemSnapshot, ResponseAccumulator,
    SequenceInfo,
};
pub use value::JsonValue;
