//! `responses::writer::ResponsesWriter`, read back as a client reads it.
//!
//! Every stream the writer makes is parsed with the crate's `Parser`, each
//! event decoded with `ResponsesEvent::from_frame` (it must be its typed
//! variant, never `Unknown`), and the whole stream checked by an oracle
//! written here with `serde_json` alone: sequence numbers from 0 in steps
//! of 1, `event:` equal to `type`, every delta's `item_id` introduced by
//! `output_item.added` and its content part by `content_part.added`, done
//! texts equal to the concatenated deltas, every item done before exactly
//! one terminal event, which comes last and whose `output` lists the items
//! as their `output_item.done` gave them.
//!
//! A property test writes arbitrary text, argument and summary chunks
//! (quotes, backslashes, control characters, non-ASCII, emoji) and checks
//! that each comes back exactly, unescaped from the typed views.

use std::collections::HashMap;

use proptest::prelude::*;
use serde_json::{json, Value as J};
use ssekit::responses::writer::{ResponsesWriter, TokenUsage, WriterErrorKind};
use ssekit::responses::{ContentPart, OutputItem, ResponsesEvent};
use ssekit::{Bytes, Frame, Parser};

fn read_frames(wire: &[u8]) -> Vec<Frame> {
    let mut parser = Parser::new();
    parser.feed(Bytes::copy_from_slice(wire));
    let mut out = Vec::new();
    while let Some(frame) = parser.next_frame().expect("the writer's output parses") {
        out.push(frame);
    }
    parser.finish().expect("the stream ends between events");
    out
}

/// An item being followed by the oracle.
#[derive(Default)]
struct Item {
    index: u64,
    ty: String,
    /// Text or arguments by (content or summary) index, from the deltas.
    deltas: HashMap<u64, String>,
    /// Parts opened (`content_part.added`, `reasoning_summary_part.added`).
    parts: Vec<u64>,
    done: bool,
    /// The item as `output_item.added` gave it.
    added: J,
}

/// The lifecycle rules, checked with serde_json only. Returns the events'
/// JSON.
fn check_stream(frames: &[Frame]) -> Vec<J> {
    let mut items: HashMap<String, Item> = HashMap::new();
    let mut done_items: Vec<J> = Vec::new();
    let mut terminal = None;
    let mut out = Vec::new();
    for (n, frame) in frames.iter().enumerate() {
        let v: J = serde_json::from_str(frame.data()).expect("data is JSON");
        let ty = v["type"].as_str().expect("a string type");
        assert_eq!(frame.event(), ty, "event: equals type");
        assert_eq!(v["sequence_number"], json!(n), "sequence number of {ty}");
        assert!(terminal.is_none(), "{ty} after the terminal event");
        let item_id = v["item_id"].as_str().map(str::to_owned);
        let item = || -> String { item_id.clone().expect("an item_id") };
        match ty {
            "response.created" | "response.in_progress" => {
                assert!(n < 2, "{ty} at {n}");
                assert_eq!(v["response"]["status"], "in_progress");
                assert_eq!(v["response"]["output"], json!([]));
            }
            "response.output_item.added" => {
                // A whole item written as given may have no id.
                let id = v["item"]["id"]
                    .as_str()
                    .map_or_else(|| format!("#{}", v["output_index"]), str::to_owned);
                assert!(!items.contains_key(&id), "item {id} added twice");
                assert_eq!(v["output_index"], json!(items.len()));
                let ty = v["item"]["type"].as_str().unwrap().to_owned();
                let index = v["output_index"].as_u64().unwrap();
                items.insert(
                    id,
                    Item {
                        index,
                        ty,
                        added: v["item"].clone(),
                        ..Item::default()
                    },
                );
            }
            "response.content_part.added" | "response.reasoning_summary_part.added" => {
                let it = items.get_mut(&item()).expect("part of a known item");
                assert!(!it.done);
                let key = if ty == "response.content_part.added" {
                    "content_index"
                } else {
                    "summary_index"
                };
                let part = v[key].as_u64().unwrap();
                assert_eq!(part, it.parts.len() as u64);
                assert_eq!(v["output_index"], json!(it.index));
                it.parts.push(part);
                it.deltas.insert(part, String::new());
            }
            "response.output_text.delta"
            | "response.reasoning_summary_text.delta"
            | "response.function_call_arguments.delta" => {
                let it = items.get_mut(&item()).expect("delta of a known item");
                assert!(!it.done, "delta after done");
                assert_eq!(v["output_index"], json!(it.index));
                let part = match ty {
                    "response.output_text.delta" => v["content_index"].as_u64().unwrap(),
                    "response.reasoning_summary_text.delta" => v["summary_index"].as_u64().unwrap(),
                    _ => {
                        assert_eq!(it.ty, "function_call");
                        it.deltas.entry(0).or_default();
                        0
                    }
                };
                let text = it.deltas.get_mut(&part).expect("delta of an added part");
                text.push_str(v["delta"].as_str().unwrap());
            }
            "response.output_text.done"
            | "response.reasoning_summary_text.done"
            | "response.function_call_arguments.done" => {
                let it = &items[&item()];
                let (part, key) = match ty {
                    "response.output_text.done" => (v["content_index"].as_u64().unwrap(), "text"),
                    "response.reasoning_summary_text.done" => {
                        (v["summary_index"].as_u64().unwrap(), "text")
                    }
                    _ => (0, "arguments"),
                };
                let deltas = it.deltas.get(&part).map_or("", String::as_str);
                assert_eq!(v[key].as_str().unwrap(), deltas, "{ty}: done == deltas");
            }
            "response.content_part.done" | "response.reasoning_summary_part.done" => {
                let it = &items[&item()];
                let key = if ty == "response.content_part.done" {
                    "content_index"
                } else {
                    "summary_index"
                };
                let part = v[key].as_u64().unwrap();
                assert_eq!(v["part"]["text"].as_str().unwrap(), it.deltas[&part]);
            }
            "response.output_item.done" => {
                let id = v["item"]["id"]
                    .as_str()
                    .map_or_else(|| format!("#{}", v["output_index"]), str::to_owned);
                let it = items.get_mut(&id).expect("done of a known item");
                assert!(!it.done, "item done twice");
                assert_eq!(v["output_index"], json!(it.index));
                it.done = true;
                // The final item holds what the deltas wrote.
                match it.ty.as_str() {
                    "message" => assert_eq!(v["item"]["content"][0]["text"], json!(it.deltas[&0])),
                    "function_call" => assert_eq!(
                        v["item"]["arguments"],
                        json!(it.deltas.get(&0).cloned().unwrap_or_default())
                    ),
                    "reasoning" => {
                        for (i, part) in it.parts.iter().enumerate() {
                            assert_eq!(v["item"]["summary"][i]["text"], json!(it.deltas[part]));
                        }
                    }
                    // Written whole: done as added.
                    _ => assert_eq!(v["item"], it.added, "a whole item"),
                }
                done_items.push(v["item"].clone());
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                assert!(items.values().all(|it| it.done), "an item left open");
                assert_eq!(v["response"]["output"], J::Array(done_items.clone()));
                terminal = Some(n);
            }
            "error" | "keepalive" => {}
            other => panic!("unexpected event type {other}"),
        }
        out.push(v);
    }
    assert_eq!(terminal, Some(frames.len() - 1), "one terminal event, last");
    out
}

/// Decodes every frame to its typed variant (never `Unknown`), with the
/// sequence number the oracle saw.
fn typed(frames: &[Frame]) -> Vec<ResponsesEvent<'_>> {
    frames
        .iter()
        .enumerate()
        .map(|(n, f)| {
            let event = ResponsesEvent::from_frame(f).expect("decodes");
            assert!(
                !matches!(event, ResponsesEvent::Unknown { .. }),
                "{} is unknown",
                f.event()
            );
            assert_eq!(event.ty(), f.event());
            assert_eq!(event.sequence_number(), Some(n as u64));
            event
        })
        .collect()
}

/// A view's string, unescaped.
fn u(s: ssekit::json::JsonStr<'_>) -> String {
    s.unescape().into_owned()
}

fn types(events: &[ResponsesEvent<'_>]) -> Vec<String> {
    events.iter().map(|e| e.ty().to_owned()).collect()
}

#[test]
fn text_answer() {
    let mut w = ResponsesWriter::new("resp_1", "gpt-test", 1_767_225_600);
    w.start_message("msg_1").unwrap();
    for d in ["Hel", "lo \"", "wörld\"\n", "😀"] {
        w.text_delta(d).unwrap();
    }
    w.finish_message().unwrap();
    w.set_usage(TokenUsage::new(10, 4).with_cached_tokens(2));
    w.complete().unwrap();
    assert!(w.is_finished());
    let wire = w.take();
    assert!(w.buffered().is_empty());
    let frames = read_frames(&wire);
    check_stream(&frames);
    let events = typed(&frames);
    assert_eq!(
        types(&events),
        [
            "response.created",
            "response.in_progress",
            "response.output_item.added",
            "response.content_part.added",
            "response.output_text.delta",
            "response.output_text.delta",
            "response.output_text.delta",
            "response.output_text.delta",
            "response.output_text.done",
            "response.content_part.done",
            "response.output_item.done",
            "response.completed",
        ]
    );
    let ResponsesEvent::ResponseCreated(c) = &events[0] else {
        panic!()
    };
    let response = c.response.get().unwrap();
    assert_eq!(response.id.unwrap(), "resp_1");
    assert_eq!(response.model.unwrap(), "gpt-test");
    assert_eq!(response.status.unwrap(), "in_progress");
    assert_eq!(response.created_at, Some(1_767_225_600.0));
    let ResponsesEvent::OutputItemAdded(a) = &events[2] else {
        panic!()
    };
    assert_eq!(a.output_index, 0);
    let OutputItem::Message(m) = &a.item.get().unwrap() else {
        panic!("{:?}", a.item)
    };
    assert_eq!(
        (u(m.id.unwrap()), u(m.role.unwrap()), u(m.status.unwrap())),
        (
            "msg_1".to_owned(),
            "assistant".to_owned(),
            "in_progress".to_owned()
        )
    );
    assert!(m.content.unwrap().is_empty());
    let ResponsesEvent::ContentPartAdded(p) = &events[3] else {
        panic!()
    };
    assert_eq!(
        (u(p.item_id), p.output_index, p.content_index),
        ("msg_1".to_owned(), 0, 0)
    );
    assert!(matches!(&p.part.get().unwrap(), ContentPart::OutputText(t) if t.text.unwrap() == ""));
    let mut text = String::new();
    for e in &events[4..8] {
        let ResponsesEvent::OutputTextDelta(d) = e else {
            panic!()
        };
        assert_eq!(
            (u(d.item_id), d.output_index, d.content_index),
            ("msg_1".to_owned(), 0, 0)
        );
        assert!(d.logprobs.is_some());
        d.delta.unescape_into(&mut text);
    }
    assert_eq!(text, "Hello \"wörld\"\n😀");
    let ResponsesEvent::OutputTextDone(d) = &events[8] else {
        panic!()
    };
    assert_eq!(
        (u(d.item_id), u(d.text)),
        ("msg_1".to_owned(), text.to_owned())
    );
    let ResponsesEvent::ContentPartDone(p) = &events[9] else {
        panic!()
    };
    assert!(
        matches!(&p.part.get().unwrap(), ContentPart::OutputText(t) if t.text.unwrap() == text.as_str())
    );
    let ResponsesEvent::OutputItemDone(d) = &events[10] else {
        panic!()
    };
    let OutputItem::Message(m) = &d.item.get().unwrap() else {
        panic!()
    };
    assert_eq!(m.status.unwrap(), "completed");
    let ResponsesEvent::ResponseCompleted(c) = &events[11] else {
        panic!()
    };
    let response = c.response.get().unwrap();
    assert_eq!(response.status.unwrap(), "completed");
    assert_eq!(response.output.unwrap().len(), 1);
    let usage = response.usage.as_ref().expect("usage");
    assert_eq!(
        (usage.input_tokens, usage.output_tokens, usage.total_tokens),
        (Some(10), Some(4), Some(14))
    );
    assert_eq!(
        usage.input_tokens_details.as_ref().unwrap().cached_tokens,
        Some(2)
    );
}

#[test]
fn function_call() {
    let mut w = ResponsesWriter::new("resp_2", "m", 0);
    w.start_function_call("fc_1", "call_1", "get_weather")
        .unwrap();
    for d in ["{\"loc", "ation\":\"Paris", ", FR\"}"] {
        w.arguments_delta(d).unwrap();
    }
    w.finish_function_call().unwrap();
    w.complete().unwrap();
    let frames = read_frames(&w.take());
    check_stream(&frames);
    let events = typed(&frames);
    assert_eq!(
        types(&events),
        [
            "response.created",
            "response.in_progress",
            "response.output_item.added",
            "response.function_call_arguments.delta",
            "response.function_call_arguments.delta",
            "response.function_call_arguments.delta",
            "response.function_call_arguments.done",
            "response.output_item.done",
            "response.completed",
        ]
    );
    let ResponsesEvent::OutputItemAdded(a) = &events[2] else {
        panic!()
    };
    let OutputItem::FunctionCall(f) = &a.item.get().unwrap() else {
        panic!()
    };
    assert_eq!(
        (
            u(f.id.unwrap()),
            u(f.call_id.unwrap()),
            u(f.name.unwrap()),
            u(f.arguments.unwrap())
        ),
        (
            "fc_1".to_owned(),
            "call_1".to_owned(),
            "get_weather".to_owned(),
            String::new()
        )
    );
    let ResponsesEvent::FunctionCallArgumentsDelta(d) = &events[4] else {
        panic!()
    };
    assert_eq!(
        (u(d.item_id), d.output_index, u(d.delta)),
        ("fc_1".to_owned(), 0, "ation\":\"Paris".to_owned())
    );
    let ResponsesEvent::FunctionCallArgumentsDone(d) = &events[6] else {
        panic!()
    };
    let args = r#"{"location":"Paris, FR"}"#;
    assert_eq!(
        (u(d.item_id), u(d.name.unwrap()), u(d.arguments)),
        ("fc_1".to_owned(), "get_weather".to_owned(), args.to_owned())
    );
    let ResponsesEvent::OutputItemDone(d) = &events[7] else {
        panic!()
    };
    let OutputItem::FunctionCall(f) = &d.item.get().unwrap() else {
        panic!()
    };
    assert_eq!(
        (u(f.status.unwrap()), u(f.arguments.unwrap())),
        ("completed".to_owned(), args.to_owned())
    );
    // The arguments are JSON text the client can parse.
    let parsed: J = serde_json::from_str(&f.arguments.unwrap().unescape()).unwrap();
    assert_eq!(parsed, json!({"location": "Paris, FR"}));
}

#[test]
fn reasoning_summary_then_message() {
    let mut w = ResponsesWriter::new("resp_3", "o-test", 5);
    w.start_reasoning("rs_1").unwrap();
    w.summary_delta("**Plan**\n").unwrap(); // opens summary part 0
    w.summary_delta("think").unwrap();
    w.finish_summary_part().unwrap();
    w.summary_delta("more").unwrap(); // opens part 1
    w.start_summary_part().unwrap(); // finishes part 1, opens part 2 (empty)
    w.finish_reasoning().unwrap(); // finishes part 2
    w.start_message("msg_2").unwrap();
    w.text_delta("answer").unwrap();
    w.set_usage(TokenUsage::new(3, 30).with_reasoning_tokens(20));
    w.complete().unwrap(); // finishes the message
    let frames = read_frames(&w.take());
    let json = check_stream(&frames);
    let events = typed(&frames);
    assert_eq!(
        types(&events)[2..14],
        [
            "response.output_item.added",
            "response.reasoning_summary_part.added",
            "response.reasoning_summary_text.delta",
            "response.reasoning_summary_text.delta",
            "response.reasoning_summary_text.done",
            "response.reasoning_summary_part.done",
            "response.reasoning_summary_part.added",
            "response.reasoning_summary_text.delta",
            "response.reasoning_summary_text.done",
            "response.reasoning_summary_part.done",
            "response.reasoning_summary_part.added",
            "response.reasoning_summary_text.done",
        ]
    );
    let ResponsesEvent::ReasoningSummaryPartAdded(p) = &events[3] else {
        panic!()
    };
    assert_eq!(
        (u(p.item_id), p.output_index, p.summary_index),
        ("rs_1".to_owned(), 0, 0)
    );
    assert!(matches!(&p.part.get().unwrap(), ContentPart::SummaryText(t) if t.text.unwrap() == ""));
    let ResponsesEvent::ReasoningSummaryTextDelta(d) = &events[9] else {
        panic!()
    };
    assert_eq!(
        (u(d.item_id), d.summary_index, u(d.delta)),
        ("rs_1".to_owned(), 1, "more".to_owned())
    );
    let ResponsesEvent::ReasoningSummaryTextDone(d) = &events[6] else {
        panic!()
    };
    assert_eq!(
        (d.summary_index, u(d.text)),
        (0, "**Plan**\nthink".to_owned())
    );
    let ResponsesEvent::ReasoningSummaryPartDone(d) = &events[7] else {
        panic!()
    };
    assert!(
        matches!(&d.part.get().unwrap(), ContentPart::SummaryText(t) if t.text.unwrap() == "**Plan**\nthink")
    );
    let reasoning_done = &json[json
        .iter()
        .position(|v| v["type"] == "response.output_item.done")
        .unwrap()];
    assert_eq!(
        reasoning_done["item"],
        json!({"id": "rs_1", "type": "reasoning", "status": "completed", "summary": [
            {"type": "summary_text", "text": "**Plan**\nthink"},
            {"type": "summary_text", "text": "more"},
            {"type": "summary_text", "text": ""},
        ]})
    );
    let last = json.last().unwrap();
    assert_eq!(last["response"]["output"][1]["id"], "msg_2");
    assert_eq!(
        last["response"]["output"][1]["content"][0]["text"],
        "answer"
    );
    assert_eq!(
        last["response"]["usage"]["output_tokens_details"]["reasoning_tokens"],
        20
    );
    assert_eq!(last["response"]["usage"]["total_tokens"], 33);
}

#[test]
fn incomplete_ending_closes_the_open_item_as_incomplete() {
    let mut w = ResponsesWriter::new("resp_4", "m", 0);
    w.start_message("msg_1").unwrap();
    w.text_delta("cut sh").unwrap();
    w.incomplete("max_output_tokens").unwrap();
    let frames = read_frames(&w.take());
    let json = check_stream(&frames);
    let events = typed(&frames);
    let ResponsesEvent::ResponseIncomplete(r) = events.last().unwrap() else {
        panic!()
    };
    assert_eq!(r.response.get().unwrap().status.unwrap(), "incomplete");
    assert_eq!(
        r.response
            .get()
            .unwrap()
            .incomplete_details
            .as_ref()
            .unwrap()
            .reason
            .unwrap(),
        "max_output_tokens"
    );
    let done = &json[json.len() - 2];
    assert_eq!(done["type"], "response.output_item.done");
    assert_eq!(done["item"]["status"], "incomplete");
    assert_eq!(done["item"]["content"][0]["text"], "cut sh");
}

#[test]
fn error_event_then_failed() {
    let mut w = ResponsesWriter::new("resp_5", "m", 0);
    w.error_event(Some("insufficient_quota"), "You \"exceeded\" it", None)
        .unwrap();
    w.fail("insufficient_quota", "You \"exceeded\" it").unwrap();
    let frames = read_frames(&w.take());
    let json = check_stream(&frames);
    let events = typed(&frames);
    assert_eq!(
        types(&events),
        [
            "response.created",
            "response.in_progress",
            "error",
            "response.failed"
        ]
    );
    let ResponsesEvent::ErrorEvent(e) = &events[2] else {
        panic!()
    };
    assert_eq!(e.code().unwrap(), "insufficient_quota");
    assert_eq!(e.message().unwrap(), "You \"exceeded\" it");
    assert_eq!(e.param(), None);
    assert_eq!(json[2]["param"], J::Null, "param is written, as null");
    let ResponsesEvent::ResponseFailed(f) = &events[3] else {
        panic!()
    };
    assert_eq!(f.response.get().unwrap().status.unwrap(), "failed");
    let err = f.response.get().unwrap().error.unwrap();
    assert_eq!(
        (u(err.code.unwrap()), u(err.message.unwrap())),
        (
            "insufficient_quota".to_owned(),
            "You \"exceeded\" it".to_owned()
        )
    );
}

#[test]
fn keep_alive_and_heartbeat() {
    let mut w = ResponsesWriter::new("resp_6", "m", 0);
    w.keep_alive(); // before anything: a comment only
    assert_eq!(w.buffered(), b": keep-alive\n\n");
    assert_eq!(w.sequence_number(), 0);
    w.heartbeat().unwrap();
    w.start_message("msg_1").unwrap();
    w.keep_alive();
    w.text_delta("x").unwrap();
    w.complete().unwrap();
    w.keep_alive(); // after the end: still only a comment
    let wire = w.take();
    assert_eq!(
        wire.windows(14)
            .filter(|s| s == b": keep-alive\n\n")
            .count(),
        3
    );
    let frames = read_frames(&wire);
    check_stream(&frames);
    let events = typed(&frames);
    assert!(matches!(events[2], ResponsesEvent::Keepalive(_)));
}

#[test]
fn misuse_is_an_error_and_writes_nothing() {
    let mut w = ResponsesWriter::new("resp_7", "m", 0);
    let e = w.text_delta("x").unwrap_err();
    assert_eq!(
        (e.kind(), e.sequence_number()),
        (WriterErrorKind::NoOpenMessage, 0)
    );
    assert_eq!(e.to_string(), "no message item open at event 0");
    assert!(w.buffered().is_empty(), "not even response.created");
    assert_eq!(
        w.arguments_delta("x").unwrap_err().kind(),
        WriterErrorKind::NoOpenFunctionCall
    );
    assert_eq!(
        w.summary_delta("x").unwrap_err().kind(),
        WriterErrorKind::NoOpenReasoning
    );
    assert_eq!(
        w.finish_reasoning().unwrap_err().kind(),
        WriterErrorKind::NoOpenReasoning
    );
    w.start_function_call("fc", "c", "f").unwrap();
    let before = w.buffered().len();
    assert_eq!(
        w.finish_message().unwrap_err().kind(),
        WriterErrorKind::NoOpenMessage
    );
    assert_eq!(
        w.finish_summary_part().unwrap_err().kind(),
        WriterErrorKind::NoOpenSummaryPart
    );
    assert_eq!(w.buffered().len(), before);
    assert_eq!(
        w.start_message("fc").unwrap_err().kind(),
        WriterErrorKind::DuplicateItemId
    );
    assert_eq!(w.buffered().len(), before);
    // Starting another item finishes the open one.
    w.start_message("msg").unwrap();
    w.complete().unwrap();
    let n = w.sequence_number();
    for e in [
        w.start_message("m2").unwrap_err(),
        w.complete().unwrap_err(),
        w.fail("c", "m").unwrap_err(),
        w.heartbeat().unwrap_err(),
        w.forward(r#"{"type":"x"}"#).unwrap_err(),
    ] {
        assert_eq!(
            (e.kind(), e.sequence_number()),
            (WriterErrorKind::Finished, n)
        );
    }
    let frames = read_frames(&w.take());
    let json = check_stream(&frames);
    assert_eq!(json[3]["type"], "response.function_call_arguments.done");
    assert_eq!(json[4]["item"]["status"], "completed");
}

#[test]
fn the_kept_text_limit_refuses_and_writes_nothing() {
    // Each item id is counted twice as a JSON literal ("m1": 4 bytes), a
    // function call's call id and name once, every delta once.
    let mut w = ResponsesWriter::new("resp_8", "m", 0).with_max_kept_bytes(40);
    w.start_message("m1").unwrap(); // 8
    w.text_delta("0123456789").unwrap(); // 18
    let (seq, len) = (w.sequence_number(), w.buffered().len());
    let e = w.text_delta(&"x".repeat(23)).unwrap_err(); // 41 > 40
    assert_eq!(e.kind(), WriterErrorKind::LimitExceeded { limit: 40 });
    assert_eq!(e.sequence_number(), seq);
    assert_eq!(
        e.to_string(),
        format!("kept text over the limit of 40 bytes at event {seq}")
    );
    assert_eq!((w.sequence_number(), w.buffered().len()), (seq, len));
    assert_eq!(w.kept_bytes(), 18);
    w.text_delta(&"y".repeat(22)).unwrap(); // exactly 40
    assert_eq!(w.kept_bytes(), 40);
    // No room for another item: refused before the open message is finished.
    let len = w.buffered().len();
    let e = w.start_function_call("f", "c", "n").unwrap_err();
    assert_eq!(e.kind(), WriterErrorKind::LimitExceeded { limit: 40 });
    assert_eq!(w.buffered().len(), len, "the open message stays open");
    w.complete().unwrap();
    let frames = read_frames(&w.take());
    let json = check_stream(&frames);
    let done = json
        .iter()
        .find(|e| e["type"] == "response.output_text.done")
        .unwrap();
    assert_eq!(done["text"], format!("0123456789{}", "y".repeat(22)));

    // Arguments and summary deltas are counted the same way.
    let mut w = ResponsesWriter::new("resp_9", "m", 0).with_max_kept_bytes(20);
    w.start_function_call("f", "c", "n").unwrap(); // 3 + 3 + 3 + 3 = 12
    assert_eq!(w.kept_bytes(), 12);
    assert_eq!(
        w.arguments_delta("{\"ab\":12}").unwrap_err().kind(),
        WriterErrorKind::LimitExceeded { limit: 20 }
    );
    w.arguments_delta("{}").unwrap();
    w.start_reasoning("r").unwrap(); // 20
    let len = w.buffered().len();
    assert_eq!(
        w.summary_delta("s").unwrap_err().kind(),
        WriterErrorKind::LimitExceeded { limit: 20 }
    );
    assert_eq!(w.buffered().len(), len, "no summary part opened either");
    w.summary_delta("").unwrap();
    w.complete().unwrap();
    check_stream(&read_frames(&w.take()));
}

#[test]
fn forward_stamps_sequence_numbers_and_keeps_members() {
    let mut w = ResponsesWriter::new("resp_8", "m", 0);
    // Members after `type` keep their order and text; nested line breaks
    // (pretty-printed JSON) become several data lines.
    let event = "{\"item_id\":\"a\\u0041\", \"sequence_number\": 7, \"type\":\"response.output_text.delta\",\n\"x\":{\"y\":\n[1, 2]}}";
    // Only what is forwarded is written: no response.created of its own.
    assert_eq!(w.forward(event).unwrap(), 0);
    assert_eq!(w.forward(r#"{"type":"custom.event","n":null}"#).unwrap(), 1);
    w.heartbeat().unwrap(); // an injected heartbeat takes the next number
    let completed = r#"{"type":"response.completed","response":{}}"#;
    assert_eq!(w.forward(completed).unwrap(), 3);
    assert!(w.is_finished());
    let frames = read_frames(&w.take());
    assert_eq!(frames.len(), 4);
    assert_eq!(frames[0].event(), "response.output_text.delta");
    assert_eq!(
        frames[0].data(),
        "{\"type\":\"response.output_text.delta\",\"sequence_number\":0,\"item_id\":\"a\\u0041\",\"x\":{\"y\":\n[1, 2]}}"
    );
    let custom = r#"{"type":"custom.event","sequence_number":1,"n":null}"#;
    assert_eq!(frames[1].data(), custom);
    assert_eq!(
        frames[2].data(),
        r#"{"type":"keepalive","sequence_number":2}"#
    );
    assert_eq!(frames[3].event(), "response.completed");
    for (n, f) in frames.iter().enumerate() {
        let v: J = serde_json::from_str(f.data()).unwrap();
        assert_eq!(v["sequence_number"], json!(n));
        assert_eq!(v["type"], f.event());
    }

    let mut w = ResponsesWriter::new("r", "m", 0);
    let kind = |w: &mut ResponsesWriter, s: &str| w.forward(s).unwrap_err().kind();
    let invalid = WriterErrorKind::InvalidJson { offset: 8 };
    assert_eq!(kind(&mut w, "{\"type\":"), invalid);
    assert_eq!(kind(&mut w, "[1]"), WriterErrorKind::NotAnObject);
    assert_eq!(
        kind(&mut w, r#"{"delta":"x"}"#),
        WriterErrorKind::MissingType
    );
    assert_eq!(kind(&mut w, r#"{"type":""}"#), WriterErrorKind::MissingType);
    assert_eq!(kind(&mut w, r#"{"type":7}"#), WriterErrorKind::MissingType);
    let line_break = r#"{"type":"a\nb"}"#;
    assert_eq!(kind(&mut w, line_break), WriterErrorKind::TypeLineBreak);
    assert!(w.buffered().is_empty(), "nothing written");
    w.forward(r#"{"type":"a"}"#).unwrap();
    let e = w.forward("{]").unwrap_err();
    assert_eq!(e.sequence_number(), 1, "the number it would have had");
    assert_eq!(e.to_string(), "invalid json at byte 1 of event 1");
    // `event: a\ndata: {"type":"a","sequence_number":0}\n\n`: 49 bytes.
    assert_eq!(w.take().len(), 49, "only the good event was written");
    // An escaped type is unescaped for the event line, kept for the data.
    w.forward(r#"{"type":"response.\u0063reated"}"#).unwrap();
    let back = read_frames(&w.take());
    assert_eq!(back[0].event(), "response.created");
    let data = r#"{"type":"response.\u0063reated","sequence_number":1}"#;
    assert_eq!(back[0].data(), data);
}

/// An OpenRouter-style stream ends with `[DONE]` after the terminal event:
/// `forward` passes it on or drops it, as the writer was told, and the
/// stream is finished after it either way.
#[test]
fn forward_passes_or_drops_the_done_marker() {
    use ssekit::responses::writer::DoneMarker;
    use ssekit::responses::ResponsesEvent;

    let completed = r#"{"type":"response.completed","response":{"id":"r","status":"completed"}}"#;
    for marker in [DoneMarker::Forward, DoneMarker::Drop] {
        let mut w = ResponsesWriter::new("r", "m", 0).with_done_marker(marker);
        w.forward(r#"{"type":"response.created","response":{"id":"r"}}"#)
            .unwrap();
        assert_eq!(w.forward(completed).unwrap(), 1);
        // Accepted after the terminal event; it takes no sequence number.
        assert_eq!(w.forward(" [DONE]\n").unwrap(), 2, "{marker:?}");
        assert!(w.is_finished());
        let e = w.forward("[DONE]").unwrap_err();
        assert_eq!(e.kind(), WriterErrorKind::Finished, "only one [DONE]");
        assert_eq!(
            w.forward(r#"{"type":"x"}"#).unwrap_err().kind(),
            WriterErrorKind::Finished
        );
        let frames = read_frames(&w.take());
        let last = ResponsesEvent::from_frame(frames.last().unwrap()).unwrap();
        match marker {
            DoneMarker::Forward => {
                assert_eq!(frames.len(), 3);
                assert_eq!((frames[2].event(), frames[2].data()), ("message", "[DONE]"));
                assert!(matches!(last, ResponsesEvent::Done));
            }
            _ => {
                assert_eq!(frames.len(), 2);
                assert!(matches!(last, ResponsesEvent::ResponseCompleted(_)));
            }
        }
    }
    // Before any terminal event, `[DONE]` still ends the stream.
    let mut w = ResponsesWriter::new("r", "m", 0);
    w.forward("[DONE]").unwrap();
    assert!(w.is_finished());
    assert_eq!(&w.take()[..], b"data: [DONE]\n\n");
}

/// Text with everything that needs escaping, and what does not.
fn chunk() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("\"".to_owned()),
            Just("\\".to_owned()),
            Just("\\n".to_owned()),
            Just("\r\n".to_owned()),
            Just("\u{7f}".to_owned()),
            Just("\u{2028}".to_owned()),
            Just("😀👍🏽".to_owned()),
            "[\\x00-\\x1f]",
            "\\PC{0,4}",
            "[a-z ]{0,6}",
        ],
        0..6,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn chunks_round_trip_exactly(
        summary in prop::collection::vec(chunk(), 0..4),
        args in prop::collection::vec(chunk(), 0..4),
        text in prop::collection::vec(chunk(), 0..6),
        id in chunk(),
    ) {
        let (rs, fc, msg) = (format!("rs{id}"), format!("fc{id}"), format!("msg{id}"));
        let mut w = ResponsesWriter::new(&id, &id, 0);
        w.start_reasoning(&rs).unwrap();
        for c in &summary {
            w.summary_delta(c).unwrap();
        }
        w.start_function_call(&fc, &id, &id).unwrap();
        for c in &args {
            w.arguments_delta(c).unwrap();
        }
        w.start_message(&msg).unwrap();
        for c in &text {
            w.text_delta(c).unwrap();
        }
        w.complete().unwrap();
        let wire = w.take();
        let frames = read_frames(&wire);
        // Every event is one data line, sliced from the input without copying.
        prop_assert!(frames.iter().all(Frame::is_zero_copy));
        check_stream(&frames);
        let events = typed(&frames);
        let (mut got_summary, mut got_args, mut got_text) = (vec![], vec![], vec![]);
        let (mut done_summary, mut done_args, mut done_text) = (None, None, None);
        for e in &events {
            match e {
                ResponsesEvent::ReasoningSummaryTextDelta(d) => {
                    prop_assert_eq!(d.item_id.unescape(), rs.as_str());
                    got_summary.push(d.delta.unescape().into_owned());
                }
                ResponsesEvent::FunctionCallArgumentsDelta(d) => {
                    prop_assert_eq!(d.item_id.unescape(), fc.as_str());
                    got_args.push(d.delta.unescape().into_owned());
                }
                ResponsesEvent::OutputTextDelta(d) => {
                    prop_assert_eq!(d.item_id.unescape(), msg.as_str());
                    got_text.push(d.delta.unescape().into_owned());
                }
                ResponsesEvent::ReasoningSummaryTextDone(d) => done_summary = Some(d.text.unescape().into_owned()),
                ResponsesEvent::FunctionCallArgumentsDone(d) => {
                    prop_assert_eq!(d.name.unwrap().unescape(), id.as_str());
                    done_args = Some(d.arguments.unescape().into_owned());
                }
                ResponsesEvent::OutputTextDone(d) => done_text = Some(d.text.unescape().into_owned()),
                _ => {}
            }
        }
        prop_assert_eq!(&got_summary, &summary);
        prop_assert_eq!(&got_args, &args);
        prop_assert_eq!(&got_text, &text);
        prop_assert_eq!(done_summary, (!summary.is_empty()).then(|| summary.concat()));
        prop_assert_eq!(done_args, Some(args.concat()));
        prop_assert_eq!(done_text, Some(text.concat()));
        let ResponsesEvent::ResponseCompleted(c) = events.last().unwrap() else {
            panic!("last is not completed")
        };
        prop_assert_eq!(c.response.get().unwrap().id.unwrap().unescape(), id.as_str());
        prop_assert_eq!(c.response.get().unwrap().output.unwrap().len(), 3);
    }
}

#[test]
fn whole_items_written_as_given() {
    let mut w = ResponsesWriter::new("resp_1", "m", 0);
    w.start_message("msg_1").unwrap();
    w.text_delta("before").unwrap();
    let search = r#"{"type":"web_search_call","id":"ws_1","status":"completed","action":{"type":"search","query":"q \"x\""}}"#;
    w.item(search).unwrap();
    // No id: written all the same.
    w.item(r#" {"type":"mcp_list_tools","server_label":"s","tools":[]} "#)
        .unwrap();
    // Not items: typed errors, nothing written.
    let kind = |r: Result<(), ssekit::responses::writer::WriterError>| r.unwrap_err().kind();
    assert!(matches!(kind(w.item("[1]")), WriterErrorKind::NotAnObject));
    assert!(matches!(
        kind(w.item(r#"{"type":"x""#)),
        WriterErrorKind::InvalidJson { .. }
    ));
    assert!(matches!(
        kind(w.item(r#"{"id":"a"}"#)),
        WriterErrorKind::MissingType
    ));
    assert!(matches!(
        kind(w.item(r#"{"type":"web_search_call","id":"ws_1"}"#)),
        WriterErrorKind::DuplicateItemId
    ));
    w.complete().unwrap();
    let frames = read_frames(&w.take());
    let events = check_stream(&frames);
    let search: J = serde_json::from_str(search).unwrap();
    let done: Vec<&J> = events
        .iter()
        .filter(|e| e["type"] == "response.output_item.done")
        .map(|e| &e["item"])
        .collect();
    assert_eq!(done.len(), 3);
    assert_eq!(done[0]["content"][0]["text"], "before");
    assert_eq!(done[1], &search);
    assert_eq!(done[2]["type"], "mcp_list_tools");
    let output = &events.last().unwrap()["response"]["output"];
    assert_eq!(&output[1], &search);
    assert_eq!(output.as_array().unwrap().len(), 3);
}
