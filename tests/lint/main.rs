//! The stream linter: recorded streams, every rule broken on purpose, and the writer's output linting clean.
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

#[path = "../support/corpus.rs"]
mod corpus;

mod corpus_streams;
mod dialects;
mod gemini;
mod mutations;
mod props;
mod writer_output;

/// `data: <json>` blocks, one per line of `events` (a Chat stream).
fn chat(events: &[&str]) -> String {
    events.iter().map(|e| format!("data: {e}\n\n")).collect()
}

/// `event: <type>` / `data: <json>` blocks, the type read from the JSON
/// (an Anthropic stream).
fn anthropic(events: &[&str]) -> String {
    events
        .iter()
        .map(|e| {
            let v: serde_json::Value = serde_json::from_str(e).unwrap();
            format!("event: {}\ndata: {e}\n\n", v["type"].as_str().unwrap())
        })
        .collect()
}
