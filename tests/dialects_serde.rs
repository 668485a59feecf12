//! The serde path (feature `serde`) of the Chat Completions and Anthropic
//! Messages events gives what their `parse` path gives: borrowed events
//! through `serde_json::from_str` (with `raw_value`), nested in a caller's
//! struct, and the owned forms from any deserializer (`serde_json::Value`).
#![cfg(feature = "serde")]

mod dialects_common;

use serde::Deserialize;
use ssekit::anthropic::{MessageEvent, OwnedMessageEvent};
use ssekit::chat::{ChatEvent, OwnedChatEvent};

#[derive(Deserialize)]
struct ChatEnvelope<'a> {
    #[serde(borrow)]
    event: ChatEvent<'a>,
}

#[derive(Deserialize)]
struct MessageEnvelope<'a> {
    #[serde(borrow)]
    event: MessageEvent<'a>,
}

#[test]
fn chat_events_through_serde_equal_the_parse_path() {
    let Some(streams) = dialects_common::streams("chat") else {
        return;
    };
    let mut n = 0;
    for (name, frames) in &streams {
        for (i, frame) in frames.iter().enumerate() {
            let data = frame.data();
            if data.trim() == "[DONE]" {
                continue;
            }
            let parsed = ChatEvent::parse(data).unwrap();
            let direct: ChatEvent<'_> =
                serde_json::from_str(data).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
            assert_eq!(direct, parsed, "{name} #{i}");
            let wrapped = format!(r#"{{"event":{data}}}"#);
            let env: ChatEnvelope<'_> = serde_json::from_str(&wrapped).unwrap();
            assert_eq!(env.event, parsed, "{name} #{i}");
            let value: serde_json::Value = serde_json::from_str(data).unwrap();
            let owned: OwnedChatEvent = serde_json::from_value(value.clone()).unwrap();
            // The owned form went through `Value` and back to text: compare
            // what it exposes with the JSON itself.
            let mut failures = Vec::new();
            dialects_common::diff_view(&owned.get(), &value, name, &mut failures);
            assert!(failures.is_empty(), "{name} #{i}: {failures:?}");
            n += 1;
        }
    }
    assert!(n > 1000, "{n} chat events");
}

#[test]
fn anthropic_events_through_serde_equal_the_parse_path() {
    let Some(streams) = dialects_common::streams("anthropic") else {
        return;
    };
    let mut n = 0;
    for (name, frames) in &streams {
        for (i, frame) in frames.iter().enumerate() {
            let data = frame.data();
            let parsed = MessageEvent::parse(data).unwrap();
            let direct: MessageEvent<'_> =
                serde_json::from_str(data).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
            assert_eq!(direct, parsed, "{name} #{i}");
            let wrapped = format!(r#"{{"event":{data}}}"#);
            let env: MessageEnvelope<'_> = serde_json::from_str(&wrapped).unwrap();
            assert_eq!(env.event, parsed, "{name} #{i}");
            let value: serde_json::Value = serde_json::from_str(data).unwrap();
            let owned: OwnedMessageEvent = serde_json::from_value(value.clone()).unwrap();
            let mut failures = Vec::new();
            dialects_common::diff_view(&owned.get(), &value, name, &mut failures);
            assert!(failures.is_empty(), "{name} #{i}: {failures:?}");
            n += 1;
        }
    }
    assert!(n > 1000, "{n} anthropic events");
}

#[test]
fn borrowed_events_need_raw_text() {
    // `serde_json::Value` offers no raw text: the borrowed view says so
    // instead of decoding something else.
    let value: serde_json::Value = serde_json::from_str(r#"{"type":"ping"}"#).unwrap();
    let err = MessageEvent::deserialize(&value).unwrap_err();
    assert!(!err.to_string().is_empty());
    let owned: OwnedMessageEvent = serde_json::from_value(value).unwrap();
    assert!(matches!(owned.get(), MessageEvent::Ping(_)));
}
