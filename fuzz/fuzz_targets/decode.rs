//! Fuzz target `decode`: typed decoding of arbitrary event data in the four
//! dialects (Responses, Chat Completions, Anthropic Messages, Gemini).
//!
//! * Nothing panics: `parse`, `parse_named` (with a fuzzer-chosen event
//!   name), `from_frame`, the owned forms, and a full walk of every field,
//!   nested view and lazy array of whatever decodes.
//! * Differential, wherever `serde_json` reads the data as a value (the last
//!   of duplicate keys wins in both): every field a view exposes equals `serde_json`'s value
//!   for that key (strings unescaped, numbers, booleans, raw JSON, nested
//!   views and arrays element by element), and every field the view could
//!   expose but does not is absent or `null`. The event type and
//!   `sequence_number` agree with the data's `type` and `sequence_number`.
//!
//! Input layout: byte 0 picks the SSE event name for `parse_named`; the
//! rest, decoded as UTF-8 with replacement, is the data.
#![no_main]

use std::collections::BTreeSet;

use libfuzzer_sys::fuzz_target;
use serde_json::Value as J;
use ssekit::anthropic::AnthropicEvent;
use ssekit::chat::ChatEvent;
use ssekit::gemini::GeminiEvent;
use ssekit::responses::{FieldValue, Fields, ResponsesEvent};
use ssekit::Frame;

/// Reads every field of a view, recursively (the no-panic half).
fn touch(view: &dyn Fields<'_>) {
    let _ = view.field_names();
    view.for_each_field(&mut |_, v| touch_value(v));
}

fn touch_value(v: FieldValue<'_, '_>) {
    match v {
        FieldValue::Str(s) => {
            let _ = s.unescape();
        }
        FieldValue::Raw(r) => {
            let _ = r.value();
        }
        FieldValue::Object(o) => touch(o),
        FieldValue::Array(a) => a.for_each_element(&mut |e| {
            if let Ok(v) = e {
                touch_value(v);
            }
        }),
        _ => {}
    }
}

/// Compares every field of `view` with the JSON object `json`.
fn diff_view(view: &dyn Fields<'_>, json: &J, path: &str) {
    diff_fields(view, json, path, false);
}

/// As `diff_view`; `named`: the view's type may come from the SSE event
/// name, so a top-level `type` absent from the data is not a difference.
fn diff_fields(view: &dyn Fields<'_>, json: &J, path: &str, named: bool) {
    let obj = json
        .as_object()
        .unwrap_or_else(|| panic!("{path}: view of a non-object {json}"));
    let mut seen = BTreeSet::new();
    view.for_each_field(&mut |name, value| {
        seen.insert(name);
        if named && name == "type" && obj.get("type").is_none() {
            return;
        }
        let at = format!("{path}.{name}");
        match obj.get(name) {
            Some(j) if !j.is_null() => diff_value(value, j, &at),
            _ => panic!("{at}: exposed {value:?} but absent or null in JSON"),
        }
    });
    for name in view.field_names() {
        if !seen.contains(name) {
            assert!(
                obj.get(*name).is_none_or(J::is_null),
                "{path}.{name}: in JSON but not exposed: {json}"
            );
        }
    }
}

fn diff_value(value: FieldValue<'_, '_>, j: &J, at: &str) {
    let ok = match value {
        FieldValue::Str(s) => j.as_str() == Some(&*s.unescape()),
        FieldValue::U64(x) => j.as_u64() == Some(x),
        // serde_json reads `-0` as the float -0.0; the views as the integer 0.
        FieldValue::I64(x) => j.as_i64() == Some(x) || (x == 0 && j.as_f64() == Some(0.0)),
        FieldValue::F64(x) => j.as_f64() == Some(x),
        FieldValue::Bool(b) => j.as_bool() == Some(b),
        FieldValue::Raw(r) => serde_json::from_str::<J>(r.get()).ok().as_ref() == Some(j),
        FieldValue::Object(o) => {
            diff_view(o, j, at);
            true
        }
        FieldValue::Array(a) => {
            let arr = j
                .as_array()
                .unwrap_or_else(|| panic!("{at}: array view of {j}"));
            let mut i = 0;
            a.for_each_element(&mut |e| {
                let here = format!("{at}[{i}]");
                match (e, arr.get(i)) {
                    (Ok(v), Some(j)) => diff_value(v, j, &here),
                    // Lazy arrays decode elements when walked; one that does
                    // not fit its view is an error, not a wrong value.
                    (Err(_), Some(_)) => {}
                    (Err(e), None) => panic!("{here}: extra failing element: {e}"),
                    (Ok(_), None) => panic!("{here}: extra element"),
                }
                i += 1;
            });
            assert_eq!(i, arr.len(), "{at}: element count");
            true
        }
        other => panic!("{at}: unexpected {other:?}"),
    };
    assert!(ok, "{at}: view {value:?} != JSON {j}");
}

/// The data's `type` and `sequence_number`, as serde_json reads them.
fn type_and_seq(j: &J) -> (Option<&str>, Option<u64>) {
    (
        j.get("type").and_then(J::as_str),
        j.get("sequence_number").and_then(J::as_u64),
    )
}

fn names() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = ResponsesEvent::TYPES.to_vec();
    v.extend([
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "ping",
        "error",
        "message",
        "",
        "unknown.event",
    ]);
    v
}

fuzz_target!(|input: &[u8]| {
    let Some((&pick, rest)) = input.split_first() else {
        return;
    };
    let names = names();
    let name = names[usize::from(pick) % names.len()];
    let data = String::from_utf8_lossy(rest);
    let data: &str = &data;
    let frame = Frame::new(data).with_event(name);

    // serde_json's reading (the last of duplicate keys wins, as in the views).
    let json = serde_json::from_str::<J>(data).ok();

    // Responses.
    let parsed = ResponsesEvent::parse(data);
    for ev in [
        &parsed,
        &ResponsesEvent::parse_named(name, data),
        &ResponsesEvent::from_frame(&frame),
    ] {
        match ev {
            Ok(ev) => {
                touch(ev);
                let _ = (ev.ty(), ev.sequence_number(), ev.raw());
                if let Some(j) = &json {
                    diff_fields(ev, j, "responses", true);
                    let (ty, seq) = type_and_seq(j);
                    assert_eq!(ev.sequence_number(), seq, "sequence_number of {data}");
                    if let Some(ty) = ty {
                        // Unknown events report their type's raw text.
                        let got = serde_json::from_str::<String>(&format!("\"{}\"", ev.ty()));
                        assert_eq!(got.ok().as_deref(), Some(ty), "type of {data}");
                    }
                }
            }
            Err(e) => {
                let _ = (e.to_string(), e.kind(), e.offset());
            }
        }
    }
    let _ = ssekit::responses::OwnedResponsesEvent::parse(data);

    // Chat Completions.
    match ChatEvent::parse(data) {
        Ok(ev) => {
            touch(&ev);
            if let Some(j) = &json {
                diff_view(&ev, j, "chat");
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    let _ = ssekit::chat::OwnedChatEvent::parse(data);

    // Anthropic Messages.
    for ev in [
        AnthropicEvent::parse(data),
        AnthropicEvent::parse_named(name, data),
        AnthropicEvent::from_frame(&frame),
    ] {
        match ev {
            Ok(ev) => {
                touch(&ev);
                if let Some(j) = &json {
                    diff_fields(&ev, j, "anthropic", true);
                    if let Some(ty) = type_and_seq(j).0 {
                        let got = serde_json::from_str::<String>(&format!("\"{}\"", ev.ty()));
                        assert_eq!(got.ok().as_deref(), Some(ty), "type of {data}");
                    }
                }
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    let _ = ssekit::anthropic::OwnedAnthropicEvent::parse(data);

    // Gemini: a chunk (or an error), or, for JSON of another shape, the
    // unknown event with its raw JSON, never a panic.
    for ev in [GeminiEvent::parse(data), GeminiEvent::from_frame(&frame)] {
        match ev {
            Ok(GeminiEvent::Response(chunk)) => {
                touch(&chunk);
                if let Some(j) = &json {
                    diff_view(&chunk, j, "gemini");
                }
            }
            Ok(other) => {
                let _ = format!("{other:?}");
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
    let _ = ssekit::gemini::OwnedGeminiEvent::parse(data);
});
