//! The Anthropic Messages views against the recorded corpus
//! (`../shared/corpus/*-anthropic-*.sse`):
//!
//! * every event decodes from its frame (dispatched on the `event:` name,
//!   checked against `type`) and from its data alone, to the same value;
//! * no event of a known type decodes to `Unknown`, and no content block,
//!   delta or citation of a known type decodes to `Other`;
//! * differential: every field a view exposes equals what
//!   `serde_json::Value` gives for the same key, down through the message,
//!   usage, blocks, deltas and citations, and every field it declares but
//!   does not report is absent or `null` there.

use crate::dialects_common;

use std::collections::{BTreeMap, BTreeSet};

use dialects_common::{diff_view, streams};
use serde_json::Value as J;
use ssekit::anthropic::{AnthropicEvent, BlockDelta, Citation, ContentBlock};

#[test]
fn every_anthropic_event_decodes_typed_and_matches_serde_json() {
    let Some(streams) = streams("anthropic") else {
        return;
    };
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut kinds = BTreeSet::new();
    let mut values = 0;
    let mut failures = Vec::new();
    for (name, frames) in &streams {
        for (i, frame) in frames.iter().enumerate() {
            let at = format!("{name} #{i}");
            assert!(frame.has_event_type(), "{at}: no event name");
            let event = match AnthropicEvent::from_frame(frame) {
                Ok(event) => event,
                Err(e) => {
                    failures.push(format!("{at}: {e}"));
                    continue;
                }
            };
            assert_eq!(
                AnthropicEvent::parse(frame.data()).as_ref(),
                Ok(&event),
                "{at}"
            );
            let json: J = serde_json::from_str(frame.data()).expect("corpus data is JSON");
            let ty = json["type"].as_str().unwrap();
            assert_eq!(event.ty(), ty, "{at}");
            assert_eq!(frame.event(), ty, "{at}");
            assert_eq!(event.raw().get(), frame.data().trim(), "{at}");
            if AnthropicEvent::TYPES.contains(&ty)
                == matches!(event, AnthropicEvent::Unknown { .. })
            {
                failures.push(format!("{at}: {ty} decoded as {event:?}"));
            }
            *counts.entry(ty.to_owned()).or_default() += 1;
            match &event {
                AnthropicEvent::ContentBlockStart(s) => {
                    let block = s.content_block.ty();
                    if let ContentBlock::Other { .. } = s.content_block {
                        failures.push(format!("{at}: block {block} is Other"));
                    }
                    kinds.insert(format!("block {block}"));
                }
                AnthropicEvent::ContentBlockDelta(d) => {
                    let delta = d.delta.ty();
                    match &d.delta {
                        BlockDelta::Other { .. } => {
                            failures.push(format!("{at}: delta {delta} is Other"));
                        }
                        BlockDelta::Citations(c) => {
                            if let Citation::Other { .. } = c.citation {
                                failures.push(format!("{at}: citation is Other"));
                            }
                            kinds.insert(format!("citation {}", c.citation.ty()));
                        }
                        _ => {}
                    }
                    kinds.insert(format!("delta {delta}"));
                }
                _ => {}
            }
            assert_eq!(event.index(), json.get("index").and_then(J::as_u64), "{at}");
            values += diff_view(&event, &json, &at, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let total: usize = counts.values().sum();
    eprintln!(
        "{} streams, {total} events {counts:?}; {values} values compared; kinds {kinds:?}",
        streams.len()
    );
    for ty in [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
    ] {
        assert!(counts.contains_key(ty), "no {ty} in the corpus");
    }
    for kind in [
        "delta text_delta",
        "delta input_json_delta",
        "delta thinking_delta",
        "delta signature_delta",
        "delta citations_delta",
        "block text",
        "block thinking",
        "block redacted_thinking",
        "block tool_use",
        "block server_tool_use",
        "block web_search_tool_result",
    ] {
        assert!(kinds.contains(kind), "no {kind} in the corpus");
    }
    assert!(total > 1000, "{total}");
}
