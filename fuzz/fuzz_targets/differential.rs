//! Fuzz target `differential` (issue 11, items 2 and 5): each dialect's
//! typed view against `serde_json::Value` on the same event data. Fails on
//! any disagreement on what both accept: the event `type` and nested types
//! (last duplicate member wins, escapes compared unescaped), ids, indexes
//! and delta text; on data the view accepts and `serde_json` rejects
//! (numbers out of `f64` range, lone surrogates); and on an `Unknown` whose
//! type `serde_json` reads as a known one. The rules live in
//! `tests/support/differential.rs`, shared with `tests/hostile/readers_agree.rs`.
//!
//! Input layout: byte 0 picks the dialect (0 Responses, 1 Chat, 2
//! Anthropic, modulo 3); then the SSE event name up to the first line feed
//! (empty: no event name; no line feed at all: no name and all the rest is
//! data); then the data, decoded as UTF-8 with replacement. Seeds:
//! `fuzz/seed-corpus.sh differential`.
//!
//! Triage: `SSEKIT_DIFF_IGNORE` (disagreement texts separated by `|`)
//! skips the disagreements whose message contains one of them, so a run can
//! look past the classes already known (for instance
//! `SSEKIT_DIFF_IGNORE='number out of range|reads `type`'`).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/differential.rs"]
mod differential;

fuzz_target!(|input: &[u8]| {
    let Some((dialect, event, data)) = differential::decode_input(input) else {
        return;
    };
    if let Err(disagreement) = differential::check(dialect, event.as_deref(), &data) {
        if !ignored()
            .iter()
            .any(|known| disagreement.contains(known.as_str()))
        {
            panic!("differential: {disagreement}");
        }
    }
});

/// The disagreement texts `SSEKIT_DIFF_IGNORE` names (none by default).
fn ignored() -> &'static [String] {
    static IGNORED: OnceLock<Vec<String>> = OnceLock::new();
    IGNORED.get_or_init(|| {
        std::env::var("SSEKIT_DIFF_IGNORE")
            .map(|v| {
                v.split('|')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    })
}
