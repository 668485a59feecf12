//! L4: streamed deltas → owned final values; partial JSON for live tool arguments. May depend on: json, alloc.

mod partial;

pub use partial::{repair_partial_json, PartialJson};
