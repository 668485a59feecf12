//! L4: deltas → owned final responses, one accumulator per dialect.
//! Depends on: `json` (the scanner, the object writer, and
//! [`json::partial`](crate::json::partial) for live tool arguments),
//! `views`, the dialects (`responses`, with its order checker, `chat`,
//! `anthropic`, `gemini`) and `alloc`; never on `frame`.
//!
//! * [`ResponsesAccumulator`]: the events of a Responses API stream → a
//!   [`FinalResponse`] in the API's Response shape ([`JsonValue`]), with
//!   live snapshots while it streams.
//! * [`ChatAccumulator`], [`AnthropicAccumulator`], [`GeminiAccumulator`]: the
//!   same for Chat Completions, Anthropic Messages and Gemini.

mod responses;
mod value;

pub mod anthropic;
pub mod chat;
mod dialect;
mod error;
pub mod gemini;
pub use anthropic::{AnthropicAccumulator, AnthropicAccumulatorConfig};
pub use chat::{ChatAccumulator, ChatAccumulatorConfig};
pub use dialect::IndexOrder;
pub use error::{AccumulateError, AccumulateErrorKind, Outcome};
pub use gemini::{GeminiAccumulator, GeminiAccumulatorConfig, DEFAULT_MAX_CANDIDATES};
pub use responses::{
    Anomaly, AnomalyKind, FinalResponse, ItemSnapshot, ResponsesAccumulator,
    ResponsesAccumulatorConfig, SequenceInfo,
};
pub use value::JsonValue;
