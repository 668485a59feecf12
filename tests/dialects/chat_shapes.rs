//! Issue 14: the Chat Completions shapes of OpenAI-compatible providers,
//! on the hand-written streams of `tests/data/chat` (one per shape). Every
//! frame decodes (no frame is lost), every field a view exposes equals
//! serde_json's value of it, and the accumulator rebuilds the content and
//! the reasoning from `reasoning_content`, `reasoning` and Mistral's
//! `thinking` parts, checked against a serde_json reference.

use crate::dialects_common;

use std::path::PathBuf;

use bytes::Bytes;
use serde_json::Value as J;
use ssekit::accumulate::{ChatAccumulator, Outcome};
use ssekit::chat::{ChatContent, ChatEvent, ContentPart};
use ssekit::{Frame, Parser};

fn streams() -> Vec<(String, Vec<Frame>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/chat");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sse") {
            let mut parser = Parser::new();
            parser.feed(Bytes::from(std::fs::read(&path).unwrap()));
            let mut frames = Vec::new();
            while let Some(f) = parser.next_frame().unwrap() {
                frames.push(f);
            }
            parser.finish().unwrap();
            out.push((
                path.file_name().unwrap().to_string_lossy().into_owned(),
                frames,
            ));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(out.len(), 6);
    out
}

#[test]
fn every_frame_decodes_and_equals_serde_json() {
    let mut values = 0;
    for (name, frames) in streams() {
        for (i, frame) in frames.iter().enumerate() {
            let event = ChatEvent::from_frame(frame).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
            if event.is_done() {
                continue;
            }
            let json: J = serde_json::from_str(frame.data()).unwrap();
            let mut failures = Vec::new();
            values += dialects_common::diff_view(&event, &json, &name, &mut failures);
            assert!(failures.is_empty(), "{name} #{i}: {failures:?}");
            if let ChatEvent::Chunk(c) = &event {
                for choice in &c.choices {
                    let choice = choice.unwrap();
                    let content = choice.delta.and_then(|d| d.content);
                    if let Some(ChatContent::Parts(parts)) = content {
                        for part in parts {
                            part.unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
                        }
                    }
                }
            }
        }
    }
    assert!(values > 200, "{values}");
}

#[test]
fn mistral_parts_read_as_text_and_thinking() {
    let data = r#"{"choices":[{"index":0,"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"Okay"}]},{"type":"text","text":"Hi \"x\""},{"type":"image_url","image_url":"u"}]}}]}"#;
    let ChatEvent::Chunk(c) = ChatEvent::parse(data).unwrap() else {
        panic!()
    };
    let content = c
        .first_choice()
        .unwrap()
        .unwrap()
        .delta
        .unwrap()
        .content
        .unwrap();
    assert_eq!(content.as_text(), None);
    let (mut text, mut thinking) = (String::new(), String::new());
    content.unescape_into(&mut text);
    content.thinking_into(&mut thinking);
    assert_eq!((text.as_str(), thinking.as_str()), ("Hi \"x\"", "Okay"));
    let kinds: Vec<&str> = content
        .as_parts()
        .unwrap()
        .iter()
        .map(|p| p.unwrap().ty())
        .collect();
    assert_eq!(kinds, ["thinking", "text", "image_url"]);
    assert!(matches!(
        content.as_parts().unwrap().iter().nth(2),
        Some(Ok(ContentPart::Other { .. }))
    ));
    // A plain string still compares as before.
    let ChatEvent::Chunk(c) =
        ChatEvent::parse(r#"{"choices":[{"index":0,"delta":{"content":"Hi"}}]}"#).unwrap()
    else {
        panic!()
    };
    assert_eq!(
        c.first_choice()
            .unwrap()
            .unwrap()
            .delta
            .unwrap()
            .content
            .unwrap(),
        "Hi"
    );
}

#[test]
fn chunks_without_choices_decode_with_an_empty_list() {
    for data in [
        r#"{"id":"c","model":"m","usage":null}"#,
        r#"{"id":"c"}"#,
        r#"{"id":"c","choices":null}"#,
    ] {
        let ChatEvent::Chunk(c) = ChatEvent::parse(data).unwrap() else {
            panic!("{data}")
        };
        assert!(
            c.choices.is_empty() && c.choices.iter().next().is_none(),
            "{data}"
        );
        assert!(c.first_choice().is_none());
    }
}

/// The reference: serde_json values, concatenated by choice index.
#[derive(Default, Debug, PartialEq)]
struct Texts {
    content: Option<String>,
    reasoning_content: Option<String>,
    reasoning: Option<String>,
}

fn reference(frames: &[Frame]) -> std::collections::BTreeMap<u64, Texts> {
    let mut out = std::collections::BTreeMap::<u64, Texts>::new();
    for frame in frames {
        let Ok(v) = serde_json::from_str::<J>(frame.data()) else {
            continue;
        };
        if v.get("error").is_some_and(|e| !e.is_null()) {
            continue;
        }
        for c in v["choices"].as_array().into_iter().flatten() {
            let t = out.entry(c["index"].as_u64().unwrap()).or_default();
            let d = &c["delta"];
            let push = |slot: &mut Option<String>, s: &J| {
                if let Some(s) = s.as_str() {
                    slot.get_or_insert_with(String::new).push_str(s);
                }
            };
            match &d["content"] {
                J::Array(parts) => {
                    for p in parts {
                        match p["type"].as_str() {
                            Some("text") => push(&mut t.content, &p["text"]),
                            Some("thinking") => {
                                for inner in p["thinking"].as_array().into_iter().flatten() {
                                    if inner["type"] == "text" {
                                        push(&mut t.reasoning_content, &inner["text"]);
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
                s => push(&mut t.content, s),
            }
            push(&mut t.reasoning_content, &d["reasoning_content"]);
            push(&mut t.reasoning, &d["reasoning"]);
        }
    }
    out
}

#[test]
fn the_accumulator_rebuilds_content_and_reasoning() {
    let mut seen_reasoning = 0;
    for (name, frames) in streams() {
        let mut acc = ChatAccumulator::new();
        for frame in &frames {
            acc.feed(frame).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        let done = acc.finish();
        let want = reference(&frames);
        let got: std::collections::BTreeMap<u64, Texts> = done
            .choices()
            .map(|c| {
                (
                    c.index(),
                    Texts {
                        content: c.content().map(|s| s.into_owned()),
                        reasoning_content: c.reasoning_content().map(|s| s.into_owned()),
                        reasoning: c.reasoning().map(|s| s.into_owned()),
                    },
                )
            })
            .collect();
        assert_eq!(got, want, "{name}");
        seen_reasoning += got
            .values()
            .filter(|t| t.reasoning.is_some() || t.reasoning_content.is_some())
            .count();
        let expected = if name.starts_with("error") {
            Outcome::Failed
        } else {
            Outcome::Completed
        };
        assert_eq!(done.outcome(), expected, "{name}");
        let json: J = serde_json::from_str(&done.to_json()).unwrap();
        assert!(json["choices"].is_array(), "{name}");
    }
    assert_eq!(
        seen_reasoning, 3,
        "deepseek, mistral and openrouter have reasoning"
    );
    // The values themselves, for the record.
    let s = streams();
    let frames = &s.iter().find(|(n, _)| n.starts_with("mistral")).unwrap().1;
    let mut acc = ChatAccumulator::new();
    for f in frames {
        acc.feed(f).unwrap();
    }
    let done = acc.finish();
    let c = done.choice(0).unwrap();
    assert_eq!(c.content().as_deref(), Some("2 + 2 = 4."));
    assert_eq!(
        c.reasoning_content().as_deref(),
        Some("Okay, the user asks for 2+2. That is \"4\".\n")
    );
}
