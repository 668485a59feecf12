//! `GeminiAccumulator` against a reference written with serde_json, on the
//! corpus Gemini stream and the hand-written streams of `tests/data/gemini`:
//! the assembled `GenerateContentResponse` equals the reference's value, and
//! the outcome is the one the stream deserves. Then the limits, odd
//! shapes, and input orders that must not cost quadratic work.

use crate::dialects_common;

use std::path::PathBuf;

use bytes::Bytes;
use serde_json::{json, Map, Value as J};
use ssekit::accumulate::{AccumulateErrorKind, GeminiAccumulator, Outcome};
use ssekit::turn::{FinalItem, FinalItemKind};
use ssekit::Frame;

fn streams() -> Vec<(String, Vec<Frame>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/gemini");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sse") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            out.push((
                name,
                dialects_common::frames(Bytes::from(std::fs::read(&path).unwrap())),
            ));
        }
    }
    if let Some(corpus) = dialects_common::streams("gemini") {
        out.extend(corpus);
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// One candidate as the reference assembles it.
#[derive(Default)]
struct RefCandidate {
    role: Option<J>,
    parts: Vec<Map<String, J>>,
    /// Whether the last part is a text part still open for more text.
    open: bool,
    last: Map<String, J>,
    citation_sources: Vec<J>,
    citations: Vec<J>,
}

/// The reference: what a careful reader of the docs would assemble, with
/// serde_json values.
fn reference(frames: &[Frame]) -> (J, &'static str) {
    let mut candidates: std::collections::BTreeMap<u64, RefCandidate> = Default::default();
    let mut top = Map::new();
    let (mut first_of, mut error) = (Map::new(), false);
    for frame in frames {
        let chunk: J = serde_json::from_str(frame.data()).unwrap();
        if chunk.get("error").is_some_and(|e| !e.is_null()) {
            error = true;
            continue;
        }
        for key in ["modelVersion", "responseId", "createTime"] {
            if let Some(v) = chunk.get(key).filter(|v| !v.is_null()) {
                first_of.entry(key).or_insert_with(|| v.clone());
            }
        }
        for key in ["promptFeedback", "usageMetadata"] {
            if let Some(v) = chunk.get(key).filter(|v| !v.is_null()) {
                top.insert(key.into(), v.clone());
            }
        }
        for c in chunk["candidates"].as_array().into_iter().flatten() {
            let index = c.get("index").and_then(J::as_u64).unwrap_or(0);
            let rc = candidates.entry(index).or_default();
            if let Some(content) = c.get("content") {
                if rc.role.is_none() {
                    rc.role = content.get("role").cloned();
                }
                for p in content["parts"].as_array().into_iter().flatten() {
                    let p = p.as_object().unwrap();
                    let signature = p.get("thoughtSignature").cloned();
                    let thought = p.get("thought") == Some(&J::Bool(true));
                    if let Some(text) = p.get("text").and_then(J::as_str) {
                        let last = rc.parts.last_mut().filter(|l| {
                            rc.open && (l.get("thought") == Some(&J::Bool(true))) == thought
                        });
                        match last {
                            Some(last) => {
                                let joined = last["text"].as_str().unwrap().to_owned() + text;
                                last.insert("text".into(), joined.into());
                                if let Some(s) = signature {
                                    last.insert("thoughtSignature".into(), s);
                                }
                            }
                            None => {
                                let mut part = Map::new();
                                part.insert("text".into(), text.into());
                                if thought {
                                    part.insert("thought".into(), true.into());
                                }
                                if let Some(s) = signature {
                                    part.insert("thoughtSignature".into(), s);
                                }
                                rc.parts.push(part);
                            }
                        }
                        rc.open = !rc.parts.last().unwrap().contains_key("thoughtSignature");
                    } else if let Some(s) = signature.filter(|_| {
                        rc.open && p.keys().all(|k| k == "thoughtSignature" || k == "thought")
                    }) {
                        let last = rc.parts.last_mut().unwrap();
                        last.insert("thoughtSignature".into(), s);
                        rc.open = false;
                    } else {
                        rc.parts.push(p.clone());
                        rc.open = false;
                    }
                }
            }
            for key in [
                "finishReason",
                "finishMessage",
                "safetyRatings",
                "groundingMetadata",
                "groundingAttributions",
                "urlContextMetadata",
                "logprobsResult",
                "avgLogprobs",
                "tokenCount",
            ] {
                if let Some(v) = c.get(key).filter(|v| !v.is_null()) {
                    rc.last.insert(key.into(), v.clone());
                }
            }
            if let Some(m) = c.get("citationMetadata") {
                for (key, list) in [
                    ("citationSources", &mut rc.citation_sources),
                    ("citations", &mut rc.citations),
                ] {
                    list.extend(m[key].as_array().into_iter().flatten().cloned());
                }
            }
        }
    }
    let blocked = candidates.is_empty()
        && top
            .get("promptFeedback")
            .is_some_and(|f| f.get("blockReason").is_some_and(|r| !r.is_null()));
    let finished = !candidates.is_empty()
        && candidates
            .values()
            .all(|c| c.last.contains_key("finishReason"));
    // Stopped by a limit of the model: at max tokens or by a filter.
    let limited = candidates.values().any(|c| {
        matches!(
            c.last.get("finishReason").and_then(J::as_str),
            Some(
                "MAX_TOKENS"
                    | "SAFETY"
                    | "RECITATION"
                    | "BLOCKLIST"
                    | "PROHIBITED_CONTENT"
                    | "SPII"
                    | "IMAGE_SAFETY"
            )
        )
    });
    let outcome = if error {
        "failed"
    } else if finished && limited {
        "incomplete"
    } else if blocked || finished {
        "completed"
    } else {
        "truncated"
    };
    let mut out = Map::new();
    if !candidates.is_empty() {
        let list: Vec<J> = candidates
            .into_iter()
            .map(|(index, rc)| {
                let mut c = rc.last;
                let mut content = Map::new();
                content.insert(
                    "parts".into(),
                    J::Array(rc.parts.into_iter().map(J::Object).collect()),
                );
                if let Some(role) = rc.role {
                    content.insert("role".into(), role);
                }
                c.insert("content".into(), J::Object(content));
                let mut m = Map::new();
                if !rc.citation_sources.is_empty() {
                    m.insert("citationSources".into(), J::Array(rc.citation_sources));
                }
                if !rc.citations.is_empty() {
                    m.insert("citations".into(), J::Array(rc.citations));
                }
                if !m.is_empty() {
                    c.insert("citationMetadata".into(), J::Object(m));
                }
                c.insert("index".into(), index.into());
                J::Object(c)
            })
            .collect();
        out.insert("candidates".into(), J::Array(list));
    }
    out.extend(top);
    out.extend(first_of.into_iter().map(|(k, v)| (k.to_owned(), v)));
    (J::Object(out), outcome)
}

#[test]
fn every_stream_assembles_as_the_reference_does() {
    let streams = streams();
    assert!(streams.len() >= 8);
    for (name, frames) in &streams {
        let mut acc = GeminiAccumulator::new();
        for (i, frame) in frames.iter().enumerate() {
            acc.feed(frame)
                .unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
        }
        assert_eq!(acc.events() as usize, frames.len(), "{name}");
        let response = acc.finish();
        let got: J = serde_json::from_str(&response.to_json())
            .unwrap_or_else(|e| panic!("{name}: {e}: {}", response.to_json()));
        let (want, outcome) = reference(frames);
        assert_eq!(got, want, "{name}");
        assert_eq!(response.outcome().as_str(), outcome, "{name}");
    }
}

/// The text of each candidate equals its text parts concatenated, read
/// straight from serde_json (no merging rule involved).
#[test]
fn candidate_text_is_the_concatenation_of_its_text_parts() {
    for (name, frames) in streams() {
        let mut acc = GeminiAccumulator::new();
        let mut texts: std::collections::BTreeMap<u64, (String, String)> = Default::default();
        for frame in &frames {
            acc.feed(frame).unwrap();
            let chunk: J = serde_json::from_str(frame.data()).unwrap();
            for c in chunk["candidates"].as_array().into_iter().flatten() {
                let slot = texts.entry(c["index"].as_u64().unwrap_or(0)).or_default();
                for p in c["content"]["parts"].as_array().into_iter().flatten() {
                    if let Some(t) = p["text"].as_str() {
                        if p["thought"] == J::Bool(true) {
                            slot.1.push_str(t);
                        } else {
                            slot.0.push_str(t);
                        }
                    }
                }
            }
        }
        let response = acc.finish();
        assert_eq!(response.candidates().len(), texts.len(), "{name}");
        for (index, (text, thoughts)) in texts {
            let c = response.candidate(index).unwrap();
            assert_eq!(c.text(), text, "{name} candidate {index}");
            assert_eq!(c.thoughts(), thoughts, "{name} candidate {index}");
        }
    }
}

fn run(
    acc: &mut GeminiAccumulator,
    chunks: &[&str],
) -> Vec<Result<(), ssekit::accumulate::AccumulateError>> {
    chunks.iter().map(|c| acc.feed(&Frame::new(*c))).collect()
}

#[test]
fn the_corpus_stream_gives_paris_and_the_last_usage() {
    let Some(streams) = dialects_common::streams("gemini") else {
        return;
    };
    let mut acc = GeminiAccumulator::new();
    for frame in &streams[0].1 {
        acc.feed(frame).unwrap();
    }
    let r = acc.finish();
    assert_eq!(r.outcome(), Outcome::Completed);
    let c = r.candidate(0).unwrap();
    assert_eq!(c.text(), "The capital of France is Paris.\n");
    assert_eq!(c.parts().len(), 1);
    assert_eq!(c.finish_reason(), Some("STOP"));
    let usage = r.usage().unwrap();
    let usage = usage.get();
    assert_eq!(
        (usage.prompt_token_count, usage.total_token_count),
        (Some(13), Some(21))
    );
    assert_eq!(r.model_version(), Some("gemini-2.0-flash-exp"));
}

#[test]
fn function_calls_code_and_signatures_are_kept_in_place() {
    let streams = streams();
    let get = |n: &str| {
        streams
            .iter()
            .find(|(name, _)| name == n)
            .unwrap()
            .1
            .clone()
    };
    let mut acc = GeminiAccumulator::new();
    for frame in &get("thinking-function-call.sse") {
        acc.feed(frame).unwrap();
    }
    let r = acc.finish();
    let parts = r.candidate(0).unwrap().parts();
    assert_eq!(parts.len(), 3);
    assert_eq!(parts[0].kind(), &FinalItemKind::Reasoning);
    let FinalItemKind::ToolCall { name, .. } = parts[2].kind() else {
        panic!("{:?}", parts[2]);
    };
    assert_eq!(name.as_deref(), Some("get_weather"));
    assert_eq!(
        parts[2].arguments(),
        r#"{"city": "Paris","unit": "celsius"}"#
    );
    assert_eq!(parts[2].signature(), "CiQBcsjafD0Gf2vYbX==");

    let mut acc = GeminiAccumulator::new();
    for frame in &get("signatures.sse") {
        acc.feed(frame).unwrap();
    }
    let r = acc.finish();
    let parts = r.candidate(0).unwrap().parts();
    let shape: Vec<(String, &str)> = parts.iter().map(|p| (text(p), p.signature())).collect();
    assert_eq!(
        shape,
        [
            ("Thinking about it".to_owned(), ""),
            ("Answer part one, part two".to_owned(), "U2lnMQ=="),
            (" and more".to_owned(), "U2lnMg=="),
            ("".to_owned(), "U2lnMw=="),
        ]
    );
    assert_eq!(r.outcome(), Outcome::Incomplete); // `MAX_TOKENS`
}

/// A part's text: its answer text, or its thoughts.
fn text(p: &FinalItem) -> String {
    let mut s = p.text();
    s.extend(p.reasoning_parts().map(|(_, t)| t));
    s
}

#[test]
fn blocked_prompts_complete_and_errors_fail() {
    let mut blocked = GeminiAccumulator::new();
    run(
        &mut blocked,
        &[r#"{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":3}}"#],
    );
    let r = blocked.finish();
    assert_eq!(r.outcome(), Outcome::Completed);
    assert_eq!(r.block_reason().as_deref(), Some("SAFETY"));
    assert_eq!(
        r.to_json(),
        r#"{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":3}}"#
    );

    let mut failed = GeminiAccumulator::new();
    run(
        &mut failed,
        &[
            r#"{"candidates":[{"content":{"parts":[{"text":"a"}]},"finishReason":"STOP"}]}"#,
            r#"{"error":{"code":500,"message":"internal","status":"INTERNAL"}}"#,
        ],
    );
    let r = failed.finish();
    assert_eq!(r.outcome(), Outcome::Failed);
    assert_eq!(r.error().unwrap().get().code, Some(500));

    let mut empty = GeminiAccumulator::new();
    assert_eq!(empty.snapshot().outcome(), Outcome::InProgress);
    run(&mut empty, &[r#"{"usageMetadata":{"promptTokenCount":3}}"#]);
    assert_eq!(empty.finish().outcome(), Outcome::Truncated);
}

#[test]
fn unexpected_shapes_and_bad_elements_are_reported_and_the_rest_kept() {
    let mut acc = GeminiAccumulator::new();
    let r = run(
        &mut acc,
        &[
            r#"{"candidates":{"oops":1}}"#,
            r#"{"candidates":[7,{"index":2,"content":{"parts":[{"text":5},{"text":"ok"}]},"finishReason":"STOP"}]}"#,
        ],
    );
    assert!(matches!(
        r[0].unwrap_err().kind(),
        AccumulateErrorKind::Decode(_)
    ));
    assert!(matches!(
        r[1].unwrap_err().kind(),
        AccumulateErrorKind::Decode(_)
    ));
    let done = acc.finish();
    assert_eq!(done.candidate(2).unwrap().text(), "ok");
    assert_eq!(done.outcome(), Outcome::Completed);
}

#[test]
fn the_memory_limit_drops_data_and_truncates() {
    let big = "x".repeat(1500);
    let chunk = format!(r#"{{"candidates":[{{"content":{{"parts":[{{"text":"{big}"}}]}}}}]}}"#);
    let last = r#"{"candidates":[{"content":{"parts":[{"text":"y"}]},"finishReason":"STOP"}]}"#;
    // Room for the first chunk and 500 bytes more: not for the second.
    let mut probe = GeminiAccumulator::new();
    run(&mut probe, &[&chunk]);
    let limit = probe.used_bytes() + 500;
    let mut acc = GeminiAccumulator::with_config(
        ssekit::accumulate::GeminiAccumulatorConfig::DEFAULT.with_max_bytes(limit),
    );
    let r = run(&mut acc, &[&chunk, &chunk, last]);
    assert!(r[0].is_ok());
    assert_eq!(
        r[1].unwrap_err().kind(),
        AccumulateErrorKind::TooManyBytes { limit }
    );
    assert!(r[2].is_ok());
    assert!(acc.used_bytes() <= limit);
    let done = acc.finish();
    assert!(done.limit_exceeded());
    assert_eq!(done.outcome(), Outcome::Truncated);
    assert_eq!(done.candidate(0).unwrap().text().len(), 1501);
}

#[test]
fn sparse_indexes_cost_memory_and_are_bounded() {
    let mut acc = GeminiAccumulator::with_config(
        ssekit::accumulate::GeminiAccumulatorConfig::DEFAULT.with_max_bytes(4096),
    );
    let mut errors = 0;
    for i in 0..1000u64 {
        let c = format!(r#"{{"candidates":[{{"index":{}}}]}}"#, u64::MAX - i * 7919);
        errors += usize::from(acc.feed(&Frame::new(c)).is_err());
    }
    let n = acc.snapshot().candidates().len();
    assert!(n > 0 && n < 100, "{n} candidates kept");
    assert_eq!(errors, 1000 - n);
}

/// Candidates in descending, interleaved order and thousands of parts: a
/// map by index and appends only, so this stays linear (a `Vec::insert` in
/// the middle would make it quadratic and slow in debug builds).
#[test]
fn any_input_order_is_linear() {
    // Past the default count limit, on purpose: this is about work.
    let config =
        ssekit::accumulate::GeminiAccumulatorConfig::DEFAULT.with_max_candidates(usize::MAX);
    let mut acc = GeminiAccumulator::with_config(config);
    let n = 20_000u64;
    for i in (0..n).rev() {
        let c = format!(
            r#"{{"candidates":[{{"index":{i},"content":{{"parts":[{{"text":"a"}},{{"functionCall":{{"name":"f","args":{{}}}}}}]}}}},{{"index":{},"content":{{"parts":[{{"text":"b"}}]}},"finishReason":"STOP"}}]}}"#,
            n - 1 - i
        );
        acc.feed(&Frame::new(c)).unwrap();
    }
    let r = acc.finish();
    assert_eq!(r.candidates().len(), n as usize);
    assert_eq!(
        r.candidates().map(|c| c.index()).collect::<Vec<_>>(),
        (0..n).collect::<Vec<_>>()
    );
    assert_eq!(r.outcome(), Outcome::Completed);
    // Candidate 5 got its "b" early (as the second candidate of a chunk),
    // then "a", which joins it, then the call.
    let c = r.candidate(5).unwrap();
    assert_eq!(c.parts().len(), 2);
    assert_eq!(c.text(), "ba");
}

#[test]
fn the_result_round_trips_through_serde_json() {
    let mut acc = GeminiAccumulator::new();
    run(&mut acc, &[json!({"candidates":[{"content":{"parts":[{"text":"é\"\n"}],"role":"model"},"avgLogprobs":-0.25,"finishReason":"STOP"}]}).to_string().as_str()]);
    let r = acc.finish();
    let v: J = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(v["candidates"][0]["content"]["parts"][0]["text"], "é\"\n");
    assert_eq!(v["candidates"][0]["avgLogprobs"], -0.25);
    #[cfg(feature = "serde")]
    assert_eq!(serde_json::to_value(&r).unwrap(), v);
}

#[test]
fn the_accumulator_and_its_result_are_send_and_sync() {
    fn check<T: Send + Sync + Clone + std::fmt::Debug>() {}
    check::<GeminiAccumulator>();
    check::<ssekit::accumulate::gemini::GeminiResponse>();
}

#[test]
fn candidates_past_the_count_limit_are_dropped_and_the_response_is_truncated() {
    assert_eq!(
        GeminiAccumulator::new().config().max_candidates,
        ssekit::accumulate::DEFAULT_MAX_CANDIDATES
    );
    let config = ssekit::accumulate::GeminiAccumulatorConfig::DEFAULT.with_max_candidates(2);
    let mut acc = GeminiAccumulator::with_config(config);
    assert_eq!(acc.config().max_candidates, 2);
    let mut results = Vec::new();
    for index in [0, 1, 2, 1] {
        let data = format!(
            r#"{{"candidates":[{{"index":{index},"content":{{"parts":[{{"text":"c{index}"}}]}},"finishReason":"STOP"}}]}}"#
        );
        results.push(acc.feed(&Frame::new(data)));
    }
    assert!(results[0].is_ok() && results[1].is_ok() && results[3].is_ok());
    let e = results[2].unwrap_err();
    assert_eq!(e.kind(), AccumulateErrorKind::TooManyChoices { limit: 2 });
    assert_eq!(e.event_index(), 2);
    let done = acc.finish();
    assert_eq!(done.outcome(), Outcome::Truncated);
    let texts: Vec<String> = done.candidates().map(|c| c.text()).collect();
    assert_eq!(texts, ["c0", "c1c1"]);
}

/// Feeds the `data` of each chunk; the result of each feed.
fn feed_all(acc: &mut GeminiAccumulator, chunks: &[&str]) -> Vec<Result<(), AccumulateErrorKind>> {
    chunks
        .iter()
        .map(|d| acc.feed(&Frame::new(*d)).map_err(|e| e.kind()))
        .collect()
}

#[test]
fn streamed_function_call_arguments_make_one_call() {
    // Vertex AI's streamed arguments: the call named on its first part,
    // values at JSON paths, a string continued at the same path, an empty
    // `functionCall` ending it; then a call in one piece.
    let chunks = [
        r#"{"candidates":[{"content":{"parts":[{"text":"Checking."}],"role":"model"}}],"responseId":"r"}"#,
        r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","partialArgs":[{"jsonPath":"$.location","stringValue":"San Fra","willContinue":true}],"willContinue":true},"thoughtSignature":"c2ln"}],"role":"model"}}]}"#,
        r#"{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.location","stringValue":"ncisco, \"CA\""},{"jsonPath":"$.days","numberValue":3}],"willContinue":true}}],"role":"model"}}]}"#,
        r#"{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.units[0]","stringValue":"C"},{"jsonPath":"$.units[1]","stringValue":"F"}],"willContinue":true}}],"role":"model"}}]}"#,
        r#"{"candidates":[{"content":{"parts":[{"functionCall":{}},{"functionCall":{"name":"ping","partialArgs":[{"jsonPath":"$.ok","boolValue":true}]}}],"role":"model"},"finishReason":"STOP"}]}"#,
    ];
    let mut acc = GeminiAccumulator::new();
    // While the first call streams, the snapshot shows it closed where it
    // stands (a number at the end of the text so far may yet grow: it is
    // left out until the text goes on).
    let results = feed_all(&mut acc, &chunks[..3]);
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let v: J = serde_json::from_str(&acc.snapshot().to_json()).unwrap();
    assert_eq!(
        v["candidates"][0]["content"]["parts"][1],
        json!({"functionCall": {"name": "get_weather", "args": {"location": "San Francisco, \"CA\""}}, "thoughtSignature": "c2ln"})
    );
    let results = feed_all(&mut acc, &chunks[3..4]);
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let v: J = serde_json::from_str(&acc.snapshot().to_json()).unwrap();
    assert_eq!(
        v["candidates"][0]["content"]["parts"][1],
        json!({"functionCall": {"name": "get_weather", "args": {"location": "San Francisco, \"CA\"", "days": 3, "units": ["C", "F"]}}, "thoughtSignature": "c2ln"})
    );
    let results = feed_all(&mut acc, &chunks[4..]);
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let r = acc.finish();
    assert_eq!(r.outcome(), Outcome::Completed);
    let v: J = serde_json::from_str(&r.to_json()).unwrap();
    // By hand.
    assert_eq!(
        v["candidates"][0]["content"]["parts"],
        json!([
            {"text": "Checking."},
            {"functionCall": {"name": "get_weather", "args": {"location": "San Francisco, \"CA\"", "days": 3, "units": ["C", "F"]}}, "thoughtSignature": "c2ln"},
            {"functionCall": {"name": "ping", "args": {"ok": true}}}
        ])
    );
    let parts = r.candidate(0).unwrap().parts();
    assert_eq!(
        parts[1].arguments(),
        r#"{"location":"San Francisco, \"CA\"","days":3,"units":["C","F"]}"#
    );
    assert_eq!(parts[1].signature(), "c2ln");
    assert_eq!(parts[2].arguments(), r#"{"ok":true}"#);
}

#[test]
fn streamed_function_call_arguments_cut_or_out_of_order() {
    let start = r#"{"candidates":[{"content":{"parts":[{"functionCall":{"id":"c1","name":"f","args":{"a":1},"partialArgs":[{"jsonPath":"$.b[0]","numberValue":1}],"willContinue":true}}],"role":"model"}}]}"#;
    let skip = r#"{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.b[2]","numberValue":3},{"jsonPath":"$.b[1]","numberValue":2}],"willContinue":true}}],"role":"model"},"finishReason":"STOP"}]}"#;
    let mut acc = GeminiAccumulator::new();
    let results = feed_all(&mut acc, &[start, skip]);
    assert!(results[0].is_ok());
    // Index 2 before 1: dropped and reported; index 1 is kept.
    assert_eq!(
        results[1],
        Err(AccumulateErrorKind::Stream(
            ssekit::turn::TurnErrorKind::InvalidArguments
        )),
    );
    // The stream ends with the call still streaming: closed at finish.
    let r = acc.finish();
    let v: J = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(
        v["candidates"][0]["content"]["parts"][0],
        json!({"functionCall":{"id":"c1","name":"f","args":{"a":1,"b":[1,2]}}})
    );
}

#[test]
fn streamed_function_call_arguments_over_the_memory_limit_are_left_out() {
    let first = r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","partialArgs":[{"jsonPath":"$.a","stringValue":"x","willContinue":true}],"willContinue":true}}],"role":"model"}}]}"#;
    let long = "y".repeat(200);
    let second = format!(
        r#"{{"candidates":[{{"content":{{"parts":[{{"functionCall":{{"partialArgs":[{{"jsonPath":"$.a","stringValue":"{long}"}}],"willContinue":true}}}}],"role":"model"}}}}]}}"#
    );
    let last = r#"{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.b","numberValue":2}]}}],"role":"model"},"finishReason":"STOP"}]}"#;
    // Room for the first part and a little more, not for the long piece.
    let mut probe = GeminiAccumulator::new();
    assert!(feed_all(&mut probe, &[first])[0].is_ok());
    let limit = probe.used_bytes() + 50;
    let mut acc = GeminiAccumulator::with_config(
        ssekit::accumulate::GeminiAccumulatorConfig::DEFAULT.with_max_bytes(limit),
    );
    let results = feed_all(&mut acc, &[first, &second, last]);
    assert!(results[0].is_ok(), "{results:?}");
    assert_eq!(results[1], Err(AccumulateErrorKind::TooManyBytes { limit }));
    assert!(acc.used_bytes() <= limit);
    // The refused piece leaves the arguments' text no JSON object: the
    // call is written without them, never with a value cut short.
    let r = acc.finish();
    assert_eq!(r.outcome(), Outcome::Truncated);
    let v: J = serde_json::from_str(&r.to_json()).unwrap();
    let part = &v["candidates"][0]["content"]["parts"][0];
    assert_eq!(
        part,
        &json!({"functionCall":{"name":"f"}}),
        "{}",
        r.to_json()
    );
}
