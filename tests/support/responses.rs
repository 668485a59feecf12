//! Helpers shared by the `responses_*` tests: the corpus streams and the
//! research inventory (both in `../shared` beside the crate). A binary that
//! declares this module declares `dialects_common` too.
#![allow(dead_code)]

use ssekit::Frame;

use crate::corpus;
use corpus::shared_dir;

/// The parsed research inventories of events and items
/// (`$SSEKIT_RESEARCH`, else `../shared/research`).
pub(crate) fn inventory() -> Option<(serde_json::Value, serde_json::Value)> {
    let dir = shared_dir("SSEKIT_RESEARCH", "research")?;
    let read = |name: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(dir.join(name)).expect("read inventory");
        serde_json::from_str(&text).expect("inventory is JSON")
    };
    Some((read("responses-events.json"), read("responses-items.json")))
}

/// Every Responses-dialect stream of the corpus (`*-responses-*.sse`), by
/// name, as frames.
pub(crate) fn responses_streams() -> Option<Vec<(String, Vec<Frame>)>> {
    crate::dialects_common::streams("responses")
}
