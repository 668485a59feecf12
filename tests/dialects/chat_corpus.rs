//! The Chat Completions views against the recorded corpus
//! (`../shared/corpus/*-chat-*.sse`):
//!
//! * every frame decodes: `[DONE]` to `Done`, `{"error":…}` to `Error`,
//!   every other frame to `Chunk`, the same from the frame and the data;
//! * differential: every field a view exposes equals what
//!   `serde_json::Value` gives for the same key, down through choices,
//!   deltas, tool call fragments, log probabilities and usage, and every
//!   field it declares but does not report is absent or `null` there.

use crate::dialects_common;

use std::collections::BTreeSet;

use dialects_common::{diff_view, streams};
use serde_json::Value as J;
use ssekit::chat::ChatEvent;
use ssekit::responses::{FieldValue, Fields};

/// The names of the fields reported anywhere in a view, as dotted paths.
fn paths(view: &dyn Fields<'_>, prefix: &str, out: &mut BTreeSet<String>) {
    view.for_each_field(&mut |name, value| {
        let here = format!("{prefix}.{name}");
        match value {
            FieldValue::Object(o) => paths(o, &here, out),
            FieldValue::Array(a) => a.for_each_element(&mut |e| {
                if let Ok(FieldValue::Object(o)) = e {
                    paths(o, &format!("{here}[]"), out);
                }
            }),
            _ => {}
        }
        out.insert(here);
    });
}

#[test]
fn every_chat_frame_decodes_and_matches_serde_json() {
    let Some(streams) = streams("chat") else {
        return;
    };
    let (mut chunks, mut errors, mut done, mut values) = (0, 0, 0, 0);
    let mut seen = BTreeSet::new();
    let mut failures = Vec::new();
    for (name, frames) in &streams {
        for (i, frame) in frames.iter().enumerate() {
            let at = format!("{name} #{i}");
            let event = match ChatEvent::from_frame(frame) {
                Ok(event) => event,
                Err(e) => {
                    failures.push(format!("{at}: {e}"));
                    continue;
                }
            };
            assert_eq!(ChatEvent::parse(frame.data()).as_ref(), Ok(&event), "{at}");
            if frame.data().trim() == "[DONE]" {
                assert_eq!(event, ChatEvent::Done, "{at}");
                done += 1;
                continue;
            }
            let json: J = serde_json::from_str(frame.data()).expect("corpus data is JSON");
            let is_error = json.get("error").is_some_and(|e| !e.is_null());
            match &event {
                ChatEvent::Chunk(_) if !is_error => chunks += 1,
                ChatEvent::Error(_) if is_error => errors += 1,
                other => failures.push(format!("{at}: decoded as {other:?}")),
            }
            assert_eq!(
                event.raw().map(|r| r.get()),
                Some(frame.data().trim()),
                "{at}"
            );
            values += diff_view(&event, &json, &at, &mut failures);
            paths(&event, "", &mut seen);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} streams: {chunks} chunks, {errors} error chunks, {done} [DONE]; \
         {values} values compared; {} distinct field paths",
        streams.len(),
        seen.len()
    );
    // The corpus exercises the fields the issue names.
    for path in [
        ".choices[].delta.content",
        ".choices[].delta.refusal",
        ".choices[].delta.role",
        ".choices[].delta.reasoning_content",
        ".choices[].delta.reasoning",
        ".choices[].delta.reasoning_details",
        ".choices[].delta.tool_calls[].index",
        ".choices[].delta.tool_calls[].id",
        ".choices[].delta.tool_calls[].type",
        ".choices[].delta.tool_calls[].function.name",
        ".choices[].delta.tool_calls[].function.arguments",
        ".choices[].finish_reason",
        ".choices[].logprobs.content[].top_logprobs[].logprob",
        ".choices[].logprobs.refusal[].bytes",
        ".usage.prompt_tokens",
        ".usage.completion_tokens_details.reasoning_tokens",
        ".usage.prompt_tokens_details.cached_tokens",
        ".error.message",
        ".error.code",
        ".moderation",
        ".system_fingerprint",
        ".service_tier",
    ] {
        assert!(seen.contains(path), "{path} never decoded");
    }
    assert!(
        chunks > 500 && errors >= 1 && done >= 5,
        "{chunks} {errors} {done}"
    );
}
