//! Work bounds, measured: each layer above the parser gets an adversarially
//! ordered input of n and of 4n events, and the instructions it executes
//! (counted by valgrind's cachegrind, so the figure does not depend on the
//! machine's load) must grow about 4×, not 16×.
//!
//! A `work_ratio_*` test re-runs its own test binary three times under
//! `valgrind --tool=cachegrind`, running only the probe test
//! ([`PROBE_TEST`]) with [`PROBE_ENV`] naming the layer and the size: once
//! with n, once with 4n, once with 0 (the fixed cost of starting the
//! process and the test harness, subtracted from both). The probe builds
//! the input and runs the layer over it; building is linear, so it cannot
//! hide a quadratic layer. Without the variable, the probe does nothing.
//!
//! Sizes are for a release build (`.ci/run` builds these tests through
//! `tests/hostile_release/`): each run takes a few seconds at most under
//! valgrind.

use std::fmt::Write as _;
use std::process::Command;

use bytes::Bytes;
use ssekit::accumulate::ResponsesAccumulator;
use ssekit::accumulate::{AnthropicAccumulator, ChatAccumulator, ResponsesAccumulatorConfig};
use ssekit::anthropic::AnthropicEvent;
use ssekit::chat::ChatEvent;
use ssekit::json::partial::PartialJson;
use ssekit::lint::{LintConfig, StreamLinter};
use ssekit::responses::writer::ResponsesWriter;
use ssekit::responses::ResponsesEvent;
use ssekit::{Parser, ParserConfig};

/// The environment variable that makes the probe run: `layer:n`.
pub(crate) const PROBE_ENV: &str = "SSEKIT_WORK_PROBE";
/// The name of the probe test in the test binary (`tests/hostile/layers.rs`,
/// a module of the `hostile` binaries: its name has the module's path, and
/// `--exact` needs it whole).
pub(crate) const PROBE_TEST: &str = "layers::work_probe";
/// The largest accepted ratio of the work for 4n to the work for n
/// (linear is 4, quadratic 16).
pub(crate) const MAX_RATIO: f64 = 5.0;

/// Runs the workload that [`PROBE_ENV`] names, if it is set.
pub(crate) fn probe() {
    let Ok(spec) = std::env::var(PROBE_ENV) else {
        return;
    };
    let (layer, n) = spec.split_once(':').expect("layer:n");
    let n: usize = n.parse().expect("n");
    let work = run(layer, n);
    // Printed so the work cannot be optimized away.
    println!("probe {layer} {n}: {work}");
}

/// Measures `layer` at n and 4n and checks the ratio.
pub(crate) fn check(layer: &str, n: usize) {
    let Some(base) = instructions(layer, 0) else {
        let msg = format!("SKIPPED work ratio of {layer}: valgrind is not installed");
        println!("{msg}");
        eprintln!("{msg}");
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{msg}, and CI=true: install valgrind"
        );
        return;
    };
    let small = instructions(layer, n).expect("valgrind ran once");
    let big = instructions(layer, 4 * n).expect("valgrind ran once");
    let (small, big) = (small.saturating_sub(base), big.saturating_sub(base));
    assert!(small > 0, "{layer}: no work measured above the fixed cost");
    let ratio = big as f64 / small as f64;
    println!(
        "work ratio {layer}: fixed {base} instructions; n = {n}: {small}; 4n = {}: {big}; \
         ratio {ratio:.2} (linear 4, quadratic 16)",
        4 * n
    );
    assert!(
        ratio <= MAX_RATIO,
        "{layer}: 4× the events cost {ratio:.2}× the instructions ({small} → {big}): superlinear"
    );
}

/// The instructions the probe executes for `layer` at `n`, or `None` when
/// valgrind is missing.
fn instructions(layer: &str, n: usize) -> Option<u64> {
    let exe = std::env::current_exe().expect("the test binary");
    let out = match Command::new("valgrind")
        .args([
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
        ])
        .arg(&exe)
        .args([
            "--exact",
            PROBE_TEST,
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(PROBE_ENV, format!("{layer}:{n}"))
        .output()
    {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => panic!("valgrind: {e}"),
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the probe of {layer} at {n} failed:\n{}\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    // `==123== I   refs:      1,234,567` (older valgrind: `I refs:`).
    let line = stderr
        .lines()
        .find(|l| l.contains("I refs:") || l.contains("I   refs:"))
        .unwrap_or_else(|| panic!("no instruction count in valgrind's output:\n{stderr}"));
    let count = line.rsplit(':').next().unwrap_or_default();
    let digits: String = count.chars().filter(char::is_ascii_digit).collect();
    Some(digits.parse().expect("a count"))
}

/// Runs `layer` over its input of size `n`; returns a number that depends
/// on the whole result.
fn run(layer: &str, n: usize) -> usize {
    match layer {
        "chat" => chat(n),
        "anthropic" => anthropic(n),
        "responses" => responses(n),
        "lint" => lint(n),
        "writer" => writer(n),
        "views" => views(n),
        "long-line" => long_line(n),
        "partial" => partial(n),
        "bridge-chat" => bridge_chat(n),
        "bridge-anthropic" => bridge_anthropic(n),
        "bridge-to-chat" => bridge_to_chat(n),
        "gemini" => gemini(n),
        _ if layer.starts_with("turn-acc-") => turn_accumulator(layer, n),
        _ if layer.starts_with("turn-") => turn(layer, n),
        _ => panic!("unknown layer {layer}"),
    }
}

/// `data: {json}` blocks, one per event.
fn sse<'a>(out: &mut String, events: impl IntoIterator<Item = &'a str>) {
    for e in events {
        out.push_str("data: ");
        out.push_str(e);
        out.push_str("\n\n");
    }
}

/// Parses `body` (one chunk) and hands each frame to `f`.
fn frames(body: String, mut f: impl FnMut(&ssekit::Frame)) {
    let mut parser = Parser::with_config(
        ParserConfig::default()
            .with_max_line_len(1 << 30)
            .with_max_event_len(1 << 30),
    );
    parser.feed(Bytes::from(body));
    parser.finish().expect("the input ends with a blank line");
    while let Some(frame) = parser.next_frame().expect("frames") {
        f(&frame);
    }
}

/// Chat: choices in decreasing index order, then the tool calls of one
/// choice in decreasing index order.
fn chat(n: usize) -> usize {
    let mut body = String::new();
    let mut e = String::new();
    for i in (0..n).rev() {
        e.clear();
        write!(
            e,
            r#"{{"choices":[{{"index":{i},"delta":{{"content":"x"}}}}]}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
    }
    for i in (0..n).rev() {
        e.clear();
        write!(
            e,
            r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":{i},"id":"c","type":"function","function":{{"name":"f","arguments":"{{}}"}}}}]}}}}]}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
    }
    sse(&mut body, ["[DONE]"]);
    let config = ssekit::accumulate::ChatAccumulatorConfig::DEFAULT
        .with_max_choices(usize::MAX)
        .with_max_tool_calls(usize::MAX);
    let mut acc = ChatAccumulator::with_config(config);
    frames(body, |f| {
        // `[DONE]` before the choices' finish_reason is reported (each
        // choice was cut): the work is what is measured.
        let _ = acc.feed(f);
    });
    acc.finish().to_json().len()
}

/// Anthropic: content blocks started, filled and stopped in decreasing
/// index order; a usage with n members, then n `message_delta`s.
fn anthropic(n: usize) -> usize {
    let mut body = String::new();
    let mut e = String::new();
    sse(
        &mut body,
        [
            r#"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"c","content":[],"usage":{"input_tokens":1}}}"#,
        ],
    );
    for i in (0..n).rev() {
        e.clear();
        write!(
            e,
            r#"{{"type":"content_block_start","index":{i},"content_block":{{"type":"text","text":""}}}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
        e.clear();
        write!(
            e,
            r#"{{"type":"content_block_delta","index":{i},"delta":{{"type":"text_delta","text":"x"}}}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
    }
    for i in (0..n).rev() {
        e.clear();
        write!(e, r#"{{"type":"content_block_stop","index":{i}}}"#).unwrap();
        sse(&mut body, [e.as_str()]);
    }
    e.clear();
    e.push_str(r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"#);
    for i in 0..n {
        write!(e, r#""k{i}":{i},"#).unwrap();
    }
    e.push_str(r#""output_tokens":0}}"#);
    sse(&mut body, [e.as_str()]);
    for i in 0..n {
        e.clear();
        write!(
            e,
            r#"{{"type":"message_delta","delta":{{}},"usage":{{"output_tokens":{i}}}}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
    }
    sse(&mut body, [r#"{"type":"message_stop"}"#]);
    let config =
        ssekit::accumulate::AnthropicAccumulatorConfig::DEFAULT.with_max_blocks(usize::MAX);
    let mut acc = AnthropicAccumulator::with_config(config);
    frames(body, |f| {
        acc.feed(f).unwrap();
    });
    acc.finish().to_json().len()
}

/// Responses: items added in decreasing `output_index` order, many content
/// parts on one item in decreasing `content_index` order, and a terminal
/// `output` listing n items the stream never sent.
fn responses(n: usize) -> usize {
    let mut body = String::new();
    let mut e = String::new();
    let mut seq = 0;
    let mut event = |body: &mut String, e: &mut String, json: &dyn Fn(&mut String, u64)| {
        e.clear();
        json(e, seq);
        seq += 1;
        sse(body, [e.as_str()]);
    };
    event(&mut body, &mut e, &|e, s| {
        write!(
            e,
            r#"{{"type":"response.created","sequence_number":{s},"response":{{"id":"r","status":"in_progress","output":[]}}}}"#
        )
        .unwrap();
    });
    for i in (0..n).rev() {
        event(&mut body, &mut e, &|e, s| {
            write!(
                e,
                r#"{{"type":"response.output_item.added","sequence_number":{s},"output_index":{i},"item":{{"type":"message","id":"m{i}","status":"in_progress","role":"assistant","content":[]}}}}"#
            )
            .unwrap();
        });
    }
    for j in (0..n).rev() {
        event(&mut body, &mut e, &|e, s| {
            write!(
                e,
                r#"{{"type":"response.content_part.added","sequence_number":{s},"item_id":"m0","output_index":0,"content_index":{j},"part":{{"type":"output_text","text":"","annotations":[]}}}}"#
            )
            .unwrap();
        });
        event(&mut body, &mut e, &|e, s| {
            write!(
                e,
                r#"{{"type":"response.output_text.delta","sequence_number":{s},"item_id":"m0","output_index":0,"content_index":{j},"delta":"x"}}"#
            )
            .unwrap();
        });
    }
    event(&mut body, &mut e, &|e, s| {
        write!(
            e,
            r#"{{"type":"response.completed","sequence_number":{s},"response":{{"id":"r","status":"completed","output":["#
        )
        .unwrap();
        for i in 0..n {
            if i > 0 {
                e.push(',');
            }
            write!(
                e,
                r#"{{"type":"message","id":"u{i}","status":"completed","content":[]}}"#
            )
            .unwrap();
        }
        e.push_str("]}}");
    });
    let mut config = ResponsesAccumulatorConfig::default();
    config.max_items = usize::MAX;
    config.max_parts = usize::MAX;
    let mut acc = ResponsesAccumulator::with_config(config);
    frames(body, |f| {
        let _ = acc.feed(&ResponsesEvent::from_frame(f).unwrap());
    });
    let response = acc.finish();
    response.json().to_string().len() + response.anomalies().len()
}

/// The linter: n items; n content parts on one item, each with a delta
/// and a done; then n deltas that name their item only by `output_index`,
/// in decreasing order; then n terminal events (each would compare its
/// `output` with all n items if later ones were compared too).
fn lint(n: usize) -> usize {
    let mut body = String::new();
    let mut seq = 0u64;
    // Each event's JSON, with its sequence number put in front.
    let mut push = |body: &mut String, json: &str| {
        let event = format!(r#"{{"sequence_number":{seq},{json}"#);
        seq += 1;
        sse(body, [event.as_str()]);
    };
    push(
        &mut body,
        r#""type":"response.created","response":{"id":"r","status":"in_progress","output":[]}}"#,
    );
    for i in 0..n {
        push(
            &mut body,
            &format!(
                r#""type":"response.output_item.added","output_index":{i},"item":{{"type":"message","id":"m{i}","status":"in_progress","role":"assistant","content":[]}}}}"#
            ),
        );
    }
    for j in 0..n {
        push(
            &mut body,
            &format!(
                r#""type":"response.content_part.added","item_id":"m0","output_index":0,"content_index":{j},"part":{{"type":"output_text","text":"","annotations":[]}}}}"#
            ),
        );
    }
    for j in (0..n).rev() {
        push(
            &mut body,
            &format!(
                r#""type":"response.output_text.delta","item_id":"m0","output_index":0,"content_index":{j},"delta":"x"}}"#
            ),
        );
        push(
            &mut body,
            &format!(
                r#""type":"response.output_text.done","item_id":"m0","output_index":0,"content_index":{j},"text":"x"}}"#
            ),
        );
        push(
            &mut body,
            &format!(
                r#""type":"response.content_part.done","item_id":"m0","output_index":0,"content_index":{j},"part":{{"type":"output_text","text":"x","annotations":[]}}}}"#
            ),
        );
    }
    for i in (1..n).rev() {
        push(
            &mut body,
            &format!(
                r#""type":"response.output_text.delta","output_index":{i},"content_index":0,"delta":"x"}}"#
            ),
        );
    }
    for _ in 0..n {
        push(
            &mut body,
            r#""type":"response.completed","response":{"id":"r","status":"completed","output":[]}}"#,
        );
    }
    let config = LintConfig::DEFAULT
        .with_max_items(usize::MAX)
        .with_max_parts(usize::MAX)
        .with_max_findings(16);
    let mut linter = StreamLinter::with_config(ParserConfig::default(), config);
    linter.feed(Bytes::from(body));
    linter.finish();
    linter.drain().count()
}

/// The Responses writer: n messages; one reasoning item with n summary
/// parts; n forwarded events.
fn writer(n: usize) -> usize {
    let mut w = ResponsesWriter::new("resp_1", "m", 0);
    let mut written = 0;
    let mut id = String::new();
    for i in 0..n {
        id.clear();
        write!(id, "msg_{i}").unwrap();
        w.start_message(&id).unwrap();
        w.text_delta("x").unwrap();
        w.finish_message().unwrap();
        written += w.take().len();
    }
    w.start_reasoning("rs_1").unwrap();
    for _ in 0..n {
        w.start_summary_part().unwrap();
        w.summary_delta("s").unwrap();
        w.finish_summary_part().unwrap();
        written += w.take().len();
    }
    w.finish_reasoning().unwrap();
    for _ in 0..n {
        w.forward(r#"{"type":"response.custom","a":1,"sequence_number":7}"#)
            .unwrap();
        written += w.take().len();
    }
    w.complete().unwrap();
    written + w.take().len()
}

/// Long data lines that arrive in many reads (the parser's line buffer and
/// its one-pass copy): a value of 64n + 1 characters whose first is not
/// ASCII (`é`), and one that is all ASCII, each fed in 64- and then
/// 100-byte reads.
fn long_line(n: usize) -> usize {
    let mut seen = 0;
    for first in ["é", "a"] {
        for read in [64, 100] {
            let mut line = format!("data: {first}");
            line.extend(std::iter::repeat_n('x', 64 * n));
            line.push_str("\n\n");
            let bytes = Bytes::from(line);
            let mut parser = Parser::new();
            for at in (0..bytes.len()).step_by(read) {
                parser.feed(bytes.slice(at..(at + read).min(bytes.len())));
                while let Some(frame) = parser.next_frame().expect("frames") {
                    seen += frame.data().len();
                }
            }
        }
    }
    assert_eq!(seen, 4 * (64 * n + 1) + 2 * ("é".len() - 1));
    seen
}

/// Parser and views: events fed 7 bytes at a time; one event of n `data:`
/// lines whose object has n unknown members before the known ones, decoded
/// by each dialect's view.
fn views(n: usize) -> usize {
    let mut body = String::new();
    let mut e = String::new();
    for i in 0..n {
        e.clear();
        write!(
            e,
            r#"{{"type":"response.output_text.delta","sequence_number":{i},"item_id":"m","output_index":0,"content_index":0,"delta":"x"}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
    }
    let mut big = String::from("data: {\n");
    for i in 0..n {
        writeln!(big, "data: \"k{i}\":[{i}],").unwrap();
    }
    big.push_str("data: \"type\":\"response.output_text.delta\",\"delta\":\"x\",\"index\":0,\"content_block\":{}}\n\n");
    for _ in 0..3 {
        body.push_str(&big);
    }
    let bytes = Bytes::from(body);
    let mut parser = Parser::new();
    let mut seen = 0;
    let mut dialect = 0;
    let mut drain = |parser: &mut Parser| {
        while let Some(frame) = parser.next_frame().expect("frames") {
            seen += frame.data().len();
            let ok = match dialect % 3 {
                0 => ResponsesEvent::from_frame(&frame).is_ok(),
                1 => ChatEvent::from_frame(&frame).is_ok(),
                _ => AnthropicEvent::from_frame(&frame).is_ok(),
            };
            if n > 0 && frame.data().len() > 1000 {
                dialect += 1;
            }
            seen += usize::from(ok);
        }
    };
    for at in (0..bytes.len()).step_by(7) {
        parser.feed(bytes.slice(at..bytes.len().min(at + 7)));
        drain(&mut parser);
    }
    parser.finish().expect("the input ends with a blank line");
    drain(&mut parser);
    seen
}

/// Partial JSON, pushed a byte at a time: a string of escaped surrogate
/// pairs (each high half held back until its low half comes), then a key
/// of them.
fn partial(n: usize) -> usize {
    let mut text = String::from(r#"{"a": ""#);
    for _ in 0..n {
        text.push_str(r"\ud83d\ude00");
    }
    text.push_str(r#"", ""#);
    for _ in 0..n {
        text.push_str(r"\ud83d\ude00");
    }
    text.push_str(r#"": [1]}"#);
    let mut p = PartialJson::new();
    let mut shown = 0;
    for i in 0..text.len() {
        p.feed(&text[i..=i]).unwrap();
        shown += p.current().map_or(0, str::len);
    }
    shown + p.finish().unwrap().len()
}

/// The bridges' limits, lifted so that all n items are bridged.
fn roomy() -> ssekit::bridge::BridgeConfig {
    ssekit::bridge::BridgeConfig::default()
        .with_max_items(usize::MAX)
        .with_max_kept_bytes(usize::MAX)
}

/// Chat → Responses: n tool calls started in decreasing index order, each
/// with an arguments fragment, then n reasoning / text alternations (2n
/// more items), `finish_reason`, `[DONE]`.
fn chat_upstream(n: usize) -> String {
    let mut body = String::new();
    let mut e = String::new();
    for i in (0..n).rev() {
        e.clear();
        write!(
            e,
            r#"{{"id":"c","choices":[{{"index":0,"delta":{{"tool_calls":[{{"index":{i},"id":"call{i}","function":{{"name":"f","arguments":"{{}}"}}}}]}}}}]}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
    }
    for _ in 0..n {
        sse(
            &mut body,
            [
                r#"{"choices":[{"index":0,"delta":{"reasoning_content":"r"}}]}"#,
                r#"{"choices":[{"index":0,"delta":{"content":"t"}}]}"#,
            ],
        );
    }
    sse(
        &mut body,
        [
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
            "[DONE]",
        ],
    );
    body
}

fn bridge_chat(n: usize) -> usize {
    use ssekit::bridge::{Bridge, ChatToResponses};
    let body = chat_upstream(n);
    let mut bridge = ChatToResponses::with_config(roomy());
    let mut out = 0;
    frames(body, |f| {
        bridge.push_frame(f).unwrap();
        out += bridge.take().len();
    });
    out
}

/// Anthropic → Responses: n blocks (text, thinking with a signature,
/// tool_use with input fragments, in turn) started, filled and stopped in
/// decreasing index order.
fn anthropic_upstream(n: usize) -> String {
    let mut body = String::new();
    let mut e = String::new();
    sse(
        &mut body,
        [r#"{"type":"message_start","message":{"id":"m","model":"c","usage":{"input_tokens":1}}}"#],
    );
    for i in (0..n).rev() {
        let (block, delta) = match i % 3 {
            0 => (
                r#"{"type":"text","text":""}"#,
                r#"{"type":"text_delta","text":"x"}"#,
            ),
            1 => (
                r#"{"type":"thinking","thinking":""}"#,
                r#"{"type":"signature_delta","signature":"s"}"#,
            ),
            _ => (
                r#"{"type":"tool_use","id":"t","name":"f","input":{}}"#,
                r#"{"type":"input_json_delta","partial_json":"{}"}"#,
            ),
        };
        e.clear();
        write!(
            e,
            r#"{{"type":"content_block_start","index":{i},"content_block":{block}}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
        e.clear();
        write!(
            e,
            r#"{{"type":"content_block_delta","index":{i},"delta":{delta}}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
        e.clear();
        write!(e, r#"{{"type":"content_block_stop","index":{i}}}"#).unwrap();
        sse(&mut body, [e.as_str()]);
    }
    sse(
        &mut body,
        [
            r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}"#,
            r#"{"type":"message_stop"}"#,
        ],
    );
    body
}

fn bridge_anthropic(n: usize) -> usize {
    use ssekit::bridge::{AnthropicToResponses, Bridge};
    let body = anthropic_upstream(n);
    let mut bridge = AnthropicToResponses::with_config(roomy());
    let mut out = 0;
    frames(body, |f| {
        bridge.push_frame(f).unwrap();
        out += bridge.take().len();
    });
    out
}

/// Responses → Chat: n function calls added in decreasing `output_index`,
/// then an arguments delta of each, then their done events, in the other
/// order.
fn responses_upstream(n: usize) -> String {
    let mut body = String::new();
    let mut e = String::new();
    sse(
        &mut body,
        [r#"{"type":"response.created","response":{"id":"r","model":"m"}}"#],
    );
    for i in (0..n).rev() {
        e.clear();
        write!(
            e,
            r#"{{"type":"response.output_item.added","output_index":{i},"item":{{"type":"function_call","id":"fc{i}","call_id":"c{i}","name":"f","arguments":""}}}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
    }
    for i in (0..n).rev() {
        e.clear();
        write!(
            e,
            r#"{{"type":"response.function_call_arguments.delta","item_id":"fc{i}","output_index":{i},"delta":"{{"}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
    }
    for i in 0..n {
        e.clear();
        write!(
            e,
            r#"{{"type":"response.function_call_arguments.done","item_id":"fc{i}","output_index":{i},"arguments":"{{}}"}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
    }
    sse(
        &mut body,
        [r#"{"type":"response.completed","response":{"id":"r","status":"completed"}}"#],
    );
    body
}

fn bridge_to_chat(n: usize) -> usize {
    use ssekit::bridge::{Bridge, ResponsesToChat};
    let body = responses_upstream(n);
    let mut bridge = ResponsesToChat::with_config(roomy());
    let mut out = 0;
    frames(body, |f| {
        bridge.push_frame(f).unwrap();
        out += bridge.take().len();
    });
    out
}

/// Gemini: n function calls, one per chunk, then n thought / text
/// alternations, then `finishReason`.
fn gemini_upstream(n: usize) -> String {
    let mut body = String::new();
    let mut e = String::new();
    for i in 0..n {
        e.clear();
        write!(
            e,
            r#"{{"candidates":[{{"content":{{"parts":[{{"functionCall":{{"name":"f{i}","args":{{"i":{i}}}}}}}],"role":"model"}}}}],"responseId":"r"}}"#
        )
        .unwrap();
        sse(&mut body, [e.as_str()]);
    }
    for _ in 0..n {
        sse(
            &mut body,
            [
                r#"{"candidates":[{"content":{"parts":[{"text":"r","thought":true}]}}]}"#,
                r#"{"candidates":[{"content":{"parts":[{"text":"t"}]}}]}"#,
            ],
        );
    }
    sse(
        &mut body,
        [r#"{"candidates":[{"content":{"parts":[]},"finishReason":"STOP"}]}"#],
    );
    body
}

/// The turn model's bridge `turn-{from}-{to}` over the adversarial input
/// of the source dialect (the bodies of the bridges above; Gemini's own):
/// the Chat input opens n tool calls at once, which a sequential target
/// (Anthropic, Responses) holds and replays.
fn turn(layer: &str, n: usize) -> usize {
    use ssekit::bridge::{translate, Bridge};
    use ssekit::turn::Dialect;
    let dialect = |s: &str| match s {
        "chat" => Dialect::Chat,
        "anthropic" => Dialect::Anthropic,
        "gemini" => Dialect::Gemini,
        "responses" => Dialect::Responses,
        _ => panic!("unknown dialect {s}"),
    };
    let mut parts = layer.trim_start_matches("turn-").split('-');
    let from = dialect(parts.next().expect("turn-from-to"));
    let to = dialect(parts.next().expect("turn-from-to"));
    let body = match from {
        Dialect::Chat => chat_upstream(n),
        Dialect::Anthropic => anthropic_upstream(n),
        Dialect::Gemini => gemini_upstream(n),
        _ => responses_upstream(n),
    };
    let mut config = roomy();
    config.max_items = usize::MAX;
    let mut bridge = translate(from, to, &config);
    let mut out = 0;
    frames(body, |f| {
        bridge.push_frame(f).unwrap();
        out += bridge.take().len();
    });
    bridge.finish().unwrap();
    out + bridge.take().len()
}

/// Gemini with streamed function-call arguments (Vertex AI): one call
/// whose string argument continues over n parts, then whose array gets n
/// elements one part each, then n calls of two parts each; then
/// [`gemini_upstream`].
fn gemini_streamed_upstream(n: usize) -> String {
    let mut body = String::new();
    let mut e = String::new();
    let part = |e: &mut String, call: &str| {
        e.clear();
        write!(
            e,
            r#"{{"candidates":[{{"content":{{"parts":[{{"functionCall":{call}}}],"role":"model"}}}}],"responseId":"r"}}"#
        )
        .unwrap();
    };
    part(
        &mut e,
        r#"{"name":"long","partialArgs":[{"jsonPath":"$.s","stringValue":"a","willContinue":true}],"willContinue":true}"#,
    );
    sse(&mut body, [e.as_str()]);
    for _ in 0..n {
        part(
            &mut e,
            r#"{"partialArgs":[{"jsonPath":"$.s","stringValue":"b","willContinue":true}],"willContinue":true}"#,
        );
        sse(&mut body, [e.as_str()]);
    }
    for i in 0..n {
        let call = format!(
            r#"{{"partialArgs":[{{"jsonPath":"$.a[{i}]","numberValue":{i}}}],"willContinue":true}}"#
        );
        part(&mut e, &call);
        sse(&mut body, [e.as_str()]);
    }
    part(&mut e, "{}");
    sse(&mut body, [e.as_str()]);
    for i in 0..n {
        let first = format!(
            r#"{{"name":"g{i}","partialArgs":[{{"jsonPath":"$.x","numberValue":{i}}}],"willContinue":true}}"#
        );
        part(&mut e, &first);
        sse(&mut body, [e.as_str()]);
        part(
            &mut e,
            r#"{"partialArgs":[{"jsonPath":"$.y","boolValue":true}]}"#,
        );
        sse(&mut body, [e.as_str()]);
    }
    body.push_str(&gemini_upstream(n));
    body
}

/// The Gemini accumulator over [`gemini_streamed_upstream`].
fn gemini(n: usize) -> usize {
    let config = ssekit::accumulate::GeminiAccumulatorConfig::DEFAULT.with_max_bytes(usize::MAX);
    let mut acc = ssekit::accumulate::GeminiAccumulator::with_config(config);
    frames(gemini_streamed_upstream(n), |f| acc.feed(f).unwrap());
    acc.finish().to_json().len()
}

/// `TurnAccumulator` fed by the reader of `turn-acc-{dialect}` over that
/// dialect's adversarial input (Gemini's with streamed arguments), its
/// answer rendered in its own dialect's shape.
fn turn_accumulator(layer: &str, n: usize) -> usize {
    use ssekit::accumulate::{TurnAccumulator, TurnAccumulatorConfig};
    use ssekit::bridge::AnyReader;
    use ssekit::turn::{Dialect, TurnConfig};
    let (dialect, body) = match layer.trim_start_matches("turn-acc-") {
        "chat" => (Dialect::Chat, chat_upstream(n)),
        "anthropic" => (Dialect::Anthropic, anthropic_upstream(n)),
        "gemini" => (Dialect::Gemini, gemini_streamed_upstream(n)),
        "responses" => (Dialect::Responses, responses_upstream(n)),
        other => panic!("unknown dialect {other}"),
    };
    let mut turn_config = TurnConfig::default();
    turn_config.max_items = usize::MAX;
    let mut reader = AnyReader::new(dialect, &turn_config);
    let config = TurnAccumulatorConfig::DEFAULT
        .with_max_items(usize::MAX)
        .with_max_bytes(usize::MAX);
    let mut acc = TurnAccumulator::with_config(config).from_dialect(dialect);
    frames(body, |f| acc.read(&mut reader, f).unwrap());
    acc.finish_reader(&mut reader).unwrap();
    acc.into_turn().to_json(dialect).len()
}
