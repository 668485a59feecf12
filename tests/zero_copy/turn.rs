//! The turn model's bridges allocate nothing per event in steady state, in
//! all 12 directions: after a warm-up of 3500 fragments (chosen so that the 1000 that follow cross no doubling of the kept text: 17.5 to 31.5 KB) (the Responses
//! writer keeps each item's text for its done events, and the Gemini writer
//! gathers a call's arguments until the call ends: both grow by doubling),
//! 1000 more fragments of text (with escapes), of reasoning and of tool
//! arguments are read and written with no allocation.

use crate::counting;

use ssekit::bridge::{translate, Bridge, BridgeConfig};
use ssekit::turn::Dialect;
use ssekit::{Bytes, Frame, Parser};

fn frames(body: &str) -> Vec<Frame> {
    let mut parser = Parser::new();
    parser.feed(Bytes::copy_from_slice(body.as_bytes()));
    let mut out = Vec::new();
    while let Some(frame) = parser.next_frame().expect("frames parse") {
        out.push(frame);
    }
    out
}

fn ev(ty: &str, data: &str) -> String {
    if ty.is_empty() {
        format!("data: {data}\n\n")
    } else {
        format!("event: {ty}\ndata: {data}\n\n")
    }
}

/// (what, the stream's start, the fragment repeated) for each source.
fn cases(from: Dialect) -> Vec<(&'static str, String, String)> {
    match from {
        Dialect::Chat => {
            let start = ev(
                "",
                r#"{"id":"c","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}"#,
            );
            vec![
                (
                    "text",
                    start.clone(),
                    ev(
                        "",
                        r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a \"q\"\n"}}]}"#,
                    ),
                ),
                (
                    "reasoning",
                    start.clone(),
                    ev(
                        "",
                        r#"{"id":"c","choices":[{"index":0,"delta":{"reasoning_content":"think "}}]}"#,
                    ),
                ),
                (
                    "arguments",
                    start
                        + &ev(
                            "",
                            r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":""}}]}}]}"#,
                        ),
                    ev(
                        "",
                        r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"x\":"}}]}}]}"#,
                    ),
                ),
            ]
        }
        Dialect::Anthropic => {
            let start = ev(
                "message_start",
                r#"{"type":"message_start","message":{"id":"msg_1","model":"c","usage":{"input_tokens":1,"output_tokens":1}}}"#,
            );
            let block = |b: &str| {
                ev(
                    "content_block_start",
                    &format!(r#"{{"type":"content_block_start","index":0,"content_block":{b}}}"#),
                )
            };
            let delta = |d: &str| {
                ev(
                    "content_block_delta",
                    &format!(r#"{{"type":"content_block_delta","index":0,"delta":{d}}}"#),
                )
            };
            vec![
                (
                    "text",
                    start.clone() + &block(r#"{"type":"text","text":""}"#),
                    delta(r#"{"type":"text_delta","text":"a \"q\"\n"}"#),
                ),
                (
                    "reasoning",
                    start.clone() + &block(r#"{"type":"thinking","thinking":"","signature":""}"#),
                    delta(r#"{"type":"thinking_delta","thinking":"think "}"#),
                ),
                (
                    "arguments",
                    start + &block(r#"{"type":"tool_use","id":"toolu_1","name":"f","input":{}}"#),
                    delta(r#"{"type":"input_json_delta","partial_json":"{\"x\":"}"#),
                ),
            ]
        }
        Dialect::Gemini => {
            // The Gemini API sends function calls whole; Vertex AI can
            // stream their arguments (`partialArgs`): a string continued
            // at its path is an arguments fragment.
            let part = |p: &str| {
                ev(
                    "",
                    &format!(
                        r#"{{"candidates":[{{"content":{{"parts":[{p}],"role":"model"}}}}],"responseId":"r","modelVersion":"g"}}"#
                    ),
                )
            };
            vec![
                ("text", String::new(), part(r#"{"text":"a \"q\"\n"}"#)),
                (
                    "reasoning",
                    String::new(),
                    part(r#"{"text":"think ","thought":true}"#),
                ),
                (
                    "arguments",
                    part(
                        r#"{"functionCall":{"name":"f","partialArgs":[{"jsonPath":"$.s","stringValue":"","willContinue":true}],"willContinue":true}}"#,
                    ),
                    part(
                        r#"{"functionCall":{"partialArgs":[{"jsonPath":"$.s","stringValue":"think ","willContinue":true}],"willContinue":true}}"#,
                    ),
                ),
            ]
        }
        _ => {
            let created = ev(
                "response.created",
                r#"{"type":"response.created","response":{"id":"resp_1","model":"m","created_at":1,"output":[]}}"#,
            );
            vec![
                (
                    "text",
                    created.clone()
                        + &ev(
                            "response.output_item.added",
                            r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","role":"assistant","content":[]}}"#,
                        ),
                    ev(
                        "response.output_text.delta",
                        r#"{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"a \"q\"\n"}"#,
                    ),
                ),
                (
                    "reasoning",
                    created.clone()
                        + &ev(
                            "response.output_item.added",
                            r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs","summary":[]}}"#,
                        ),
                    ev(
                        "response.reasoning_summary_text.delta",
                        r#"{"type":"response.reasoning_summary_text.delta","item_id":"rs","output_index":0,"summary_index":0,"delta":"think "}"#,
                    ),
                ),
                (
                    "arguments",
                    created
                        + &ev(
                            "response.output_item.added",
                            r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":""}}"#,
                        ),
                    ev(
                        "response.function_call_arguments.delta",
                        r#"{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"delta":"{\"x\":"}"#,
                    ),
                ),
            ]
        }
    }
}

#[test]
fn every_direction_allocates_nothing_per_fragment() {
    let (v, n) = counting::allocations(|| Vec::<u8>::with_capacity(16));
    assert_eq!((v.capacity() >= 16, n), (true, 1), "the counter counts");
    let mut bad = Vec::new();
    for from in Dialect::ALL {
        for to in Dialect::ALL {
            for (what, start, delta) in cases(from) {
                let mut b = translate(from, to, &BridgeConfig::default());
                for f in &frames(&(start + &delta.repeat(3500))) {
                    b.push_frame(f).unwrap();
                    drop(b.take());
                }
                let steady = frames(&delta.repeat(1000));
                let ((), allocs) = counting::allocations(|| {
                    for f in &steady {
                        b.push_frame(f).unwrap();
                        drop(b.take());
                    }
                });
                if allocs != 0 {
                    bad.push(format!(
                        "{from:?} → {to:?} {what}: {allocs} allocations over 1000 fragments"
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

/// `TurnAccumulator`, fed by each dialect's reader, allocates nothing per
/// fragment: only the one buffer of the fragments' kind grows, by
/// doubling, so 1000 fragments after the warm-up (growing it by less than
/// 2×) cost at most one allocation, not one each.
#[test]
fn turn_accumulator_allocates_amortised() {
    use ssekit::accumulate::TurnAccumulator;
    use ssekit::bridge::AnyReader;
    use ssekit::turn::TurnConfig;
    let mut bad = Vec::new();
    for from in Dialect::ALL {
        for (what, start, delta) in cases(from) {
            let mut reader = AnyReader::new(from, &TurnConfig::default());
            let mut acc = TurnAccumulator::new().from_dialect(from);
            for f in &frames(&(start + &delta.repeat(3500))) {
                acc.read(&mut reader, f).unwrap();
            }
            let steady = frames(&delta.repeat(1000));
            let ((), allocs) = counting::allocations(|| {
                for f in &steady {
                    acc.read(&mut reader, f).unwrap();
                }
            });
            if allocs > 1 {
                bad.push(format!(
                    "{from:?} {what}: {allocs} allocations over 1000 fragments"
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
