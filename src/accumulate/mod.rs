//! L4: deltas → owned final responses; [`PartialJson`] for live tool arguments. May depend on: json, alloc, memchr.

mod partial;

pub use partial::{repair_partial_json, PartialJson};

pub mod anthropic;
pub mod chat;
mod dialect;
pub use anthropic::MessageAccumulator;
pub use chat::ChatAccumulator;
pub use dialect::{AssembleError, AssembleErrorKind, StreamStatus};
