//! The serde path (feature `serde`) of the Chat Completions and Anthropic
//! Messages events gives what their `parse` path gives: borrowed events
//! through `serde_json::from_str` (with `raw_value`), nested in a caller's
//! struct, and the owned forms from any deserializer (`serde_json::Value`).
#![cfg(feature = "serde")]

use crate::dialects_common;

use serde::Deserialize;
use ssekit::anthropic::{AnthropicEvent, OwnedAnthropicEvent};
use ssekit::chat::{ChatEvent, OwnedChatEvent};

#[derive(Deserialize)]
struct ChatEnvelope<'a> {
    #[serde(borrow)]
    event: ChatEvent<'a>,
}

#[derive(Deserialize)]
struct MessageEnvelope<'a> {
    #[serde(borrow)]
    event: AnthropicEvent<'a>,
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
            let parsed = AnthropicEvent::parse(data).unwrap();
            let direct: AnthropicEvent<'_> =
                serde_json::from_str(data).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
            assert_eq!(direct, parsed, "{name} #{i}");
            let wrapped = format!(r#"{{"event":{data}}}"#);
            let env: MessageEnvelope<'_> = serde_json::from_str(&wrapped).unwrap();
            assert_eq!(env.event, parsed, "{name} #{i}");
            let value: serde_json::Value = serde_json::from_str(data).unwrap();
            let owned: OwnedAnthropicEvent = serde_json::from_value(value.clone()).unwrap();
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
    let err = AnthropicEvent::deserialize(&value).unwrap_err();
    assert!(!err.to_string().is_empty());
    let owned: OwnedAnthropicEvent = serde_json::from_value(value).unwrap();
    assert!(matches!(owned.get(), AnthropicEvent::Ping(_)));
}

/// Owned events serialize (feature `serde`) to the JSON they hold, so a
/// gateway can log them: for every event of every corpus stream of the four
/// dialects, `serde_json::to_value` of the owned event equals serde_json's
/// reading of the data (`[DONE]` as the string "[DONE]"); issue 15.
#[test]
fn owned_events_serialize_to_their_json() {
    use ssekit::gemini::OwnedGeminiEvent;
    use ssekit::responses::OwnedResponsesEvent;
    let mut n = 0;
    for dialect in ["chat", "anthropic", "responses", "gemini"] {
        let Some(streams) = dialects_common::streams(dialect) else {
            return;
        };
        for (name, frames) in &streams {
            for (i, frame) in frames.iter().enumerate() {
                let data = frame.data();
                let want: serde_json::Value = if data.trim() == "[DONE]" {
                    "[DONE]".into()
                } else {
                    serde_json::from_str(data).unwrap()
                };
                let got = match dialect {
                    "chat" => OwnedChatEvent::from_frame(frame).map(serde_json::to_value),
                    "anthropic" => OwnedAnthropicEvent::from_frame(frame).map(serde_json::to_value),
                    "responses" => OwnedResponsesEvent::from_frame(frame).map(serde_json::to_value),
                    _ => OwnedGeminiEvent::from_frame(frame).map(serde_json::to_value),
                };
                // Frames a dialect does not decode are not this test's concern.
                let Ok(got) = got else { continue };
                assert_eq!(got.unwrap(), want, "{name} #{i}");
                n += 1;
            }
        }
    }
    assert!(n > 1000, "{n} events");
}
