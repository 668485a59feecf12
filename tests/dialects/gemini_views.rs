//! Gemini views on the corpus stream and on the hand-written streams of
//! `tests/data/gemini`: every frame decodes, every field a view exposes
//! equals serde_json's value of it, nothing is allocated while decoding and
//! walking a chunk, and the owned and (feature `serde`) serde paths give
//! what `parse` gives.

use crate::dialects_common;

use std::path::PathBuf;

use bytes::Bytes;
use ssekit::gemini::{GeminiEvent, OwnedGeminiEvent, PartKind};
use ssekit::Frame;

/// The hand-written streams, by name, as frames.
pub(crate) fn data_streams() -> Vec<(String, Vec<Frame>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/gemini");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/data/gemini") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sse") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.push((
                name,
                dialects_common::frames(Bytes::from(std::fs::read(&path).unwrap())),
            ));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 8, "{} streams", out.len());
    out
}

fn all_streams() -> Vec<(String, Vec<Frame>)> {
    let mut streams = data_streams();
    if let Some(corpus) = dialects_common::streams("gemini") {
        streams.extend(corpus);
    }
    streams
}

#[test]
fn every_frame_decodes_and_equals_serde_json() {
    let mut values = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for (name, frames) in all_streams() {
        for (i, frame) in frames.iter().enumerate() {
            let event =
                GeminiEvent::from_frame(frame).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
            assert!(
                !matches!(event, GeminiEvent::Unknown { .. }),
                "{name} #{i}: {event:?}"
            );
            let json: serde_json::Value = serde_json::from_str(frame.data()).unwrap();
            let mut failures = Vec::new();
            values += dialects_common::diff_view(&event, &json, &name, &mut failures);
            assert!(failures.is_empty(), "{name} #{i}: {failures:?}");
            if let GeminiEvent::Response(r) = &event {
                for c in r.candidates.into_iter().flatten() {
                    for p in c
                        .unwrap()
                        .content
                        .and_then(|c| c.parts)
                        .into_iter()
                        .flatten()
                    {
                        kinds.insert(format!("{:?}", p.unwrap().kind()));
                    }
                }
            }
        }
    }
    assert!(values > 300, "{values} values compared");
    for kind in [
        PartKind::Text,
        PartKind::Thought,
        PartKind::FunctionCall,
        PartKind::ExecutableCode,
        PartKind::CodeExecutionResult,
        PartKind::InlineData,
        PartKind::Other,
    ] {
        assert!(
            kinds.contains(&format!("{kind:?}")),
            "no {kind:?} part in the streams"
        );
    }
}

#[test]
fn the_corpus_stream_reads_as_the_recording_says() {
    let Some(streams) = dialects_common::streams("gemini") else {
        return;
    };
    let (_, frames) = &streams[0];
    assert_eq!(frames.len(), 3);
    let mut text = String::new();
    for frame in frames {
        let GeminiEvent::Response(r) = GeminiEvent::from_frame(frame).unwrap() else {
            panic!()
        };
        assert_eq!(r.model_version.unwrap(), "gemini-2.0-flash-exp");
        assert_eq!(r.response_id.unwrap(), "w1peaMz6INOvnvgPgYfPiQY");
        let c = r.candidates.unwrap().first().unwrap().unwrap();
        for p in c.content.unwrap().parts.unwrap() {
            p.unwrap().text.unwrap().unescape_into(&mut text);
        }
    }
    assert_eq!(text, "The capital of France is Paris.\n");
}

#[test]
fn owned_events_outlive_their_frames() {
    for (name, frames) in all_streams() {
        for frame in &frames {
            let parsed = GeminiEvent::from_frame(frame).unwrap();
            let shared = OwnedGeminiEvent::from_frame(frame).unwrap();
            let copied = parsed.to_owned();
            assert_eq!(shared.get(), parsed, "{name}");
            assert_eq!(copied.get(), parsed, "{name}");
            assert_eq!(OwnedGeminiEvent::parse(frame.data()).unwrap(), copied);
        }
    }
}

#[cfg(feature = "serde")]
#[test]
fn serde_paths_equal_the_parse_path() {
    #[derive(serde::Deserialize)]
    struct Envelope<'a> {
        #[serde(borrow)]
        event: GeminiEvent<'a>,
    }
    let mut n = 0;
    for (name, frames) in all_streams() {
        for (i, frame) in frames.iter().enumerate() {
            let data = frame.data();
            let parsed = GeminiEvent::parse(data).unwrap();
            let direct: GeminiEvent<'_> =
                serde_json::from_str(data).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
            assert_eq!(direct, parsed, "{name} #{i}");
            let wrapped = format!(r#"{{"event":{data}}}"#);
            let env: Envelope<'_> = serde_json::from_str(&wrapped).unwrap();
            assert_eq!(env.event, parsed, "{name} #{i}");
            let value: serde_json::Value = serde_json::from_str(data).unwrap();
            let owned: OwnedGeminiEvent = serde_json::from_value(value.clone()).unwrap();
            let mut failures = Vec::new();
            dialects_common::diff_view(&owned.get(), &value, &name, &mut failures);
            assert!(failures.is_empty(), "{name} #{i}: {failures:?}");
            n += 1;
        }
    }
    assert!(n >= 20, "{n} events");
}

#[test]
fn chunk_views_are_small() {
    // A chunk view is a handful of borrowed spans; no payload is copied.
    assert!(std::mem::size_of::<GeminiEvent<'_>>() <= 512);
}
