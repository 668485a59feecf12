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
pub use anthropic::MessageAccumulator;
pub use chat::ChatAccumulator;
pub use dialect::{AssembleError, AssembleErrorKind, StreamStatus};
pub use responses::{
    AccumulateError, AccumulateErrorKind, AccumulatorConfig, FinalResponse, Finding, FindingKind,
    ItemSnapshot, Outcome, ResponseAccumulator, SequenceInfo,
};
pub use value::JsonValue;
