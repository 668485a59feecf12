//! L4: deltas → owned final responses; [`PartialJson`] for live tool arguments. May depend on: json, responses, alloc, memchr.
//!
//! * [`ResponseAccumulator`]: the events of a Responses API stream → a
//!   [`FinalResponse`] in the API's Response shape ([`JsonValue`]), with
//!   live snapshots while it streams.
//! * [`PartialJson`]: the best-effort value of a JSON text still arriving.

mod partial;
mod responses;
mod value;

pub use partial::{repair_partial_json, PartialJson};

pub mod anthropic;
pub mod chat;
mod dialect;
mod error;
pub mod gemini;
pub use anthropic::MessageAccumulator;
pub use chat::ChatAccumulator;
pub use dialect::IndexOrder;
pub use error::{AccumulateError, AccumulateErrorKind, Outcome};
pub use gemini::{GeminiAccumulator, DEFAULT_MAX_CANDIDATES};
pub use responses::{
    AccumulatorConfig, FinalResponse, Finding, FindingKind, ItemSnapshot, ResponseAccumulator,
    SequenceInfo,
};
pub use value::JsonValue;
