//! `AnthropicAccumulator` against an independent reference.
//!
//! The reference (below, [`reference`]) reads each event's data with
//! `serde_json::Value`, collects each content block's start and deltas by
//! index, and joins them itself: text and thinking concatenated, citations
//! appended, signatures joined, `input_json_delta` fragments concatenated
//! and parsed by serde_json, the usage of `message_start` updated member by
//! member by `message_delta`. The accumulator's `to_json()` (and, with the
//! `serde` feature, its `Serialize`) must equal the reference's message field
//! by field, for every Anthropic stream of the corpus
//! (`../shared/corpus/*-anthropic-*.sse`) and for hand-written streams:
//! parallel tool uses, faults of order, truncation, error events, limits.
//!
//! The reference follows the stream's lifecycle as the API defines it:
//! blocks in the order they start; a delta or stop of a block not started
//! (or already stopped), a second start of an index, and everything after
//! `message_stop` or an `error` event are faults and change nothing; a
//! thinking block with neither text nor signature is not written.

use crate::corpus;
use crate::json_diff;

use std::collections::BTreeMap;

use json_diff::{diff, frames};
use serde_json::{json, Map, Value as J};
use ssekit::accumulate::anthropic::Message;
use ssekit::accumulate::{AccumulateErrorKind, AnthropicAccumulator, Outcome};
use ssekit::turn::TurnErrorKind;
use ssekit::Frame;

struct Expected {
    json: J,
    status: Outcome,
    error: Option<J>,
    /// Per block, in start order: the final text, for the snapshot checks.
    texts: Vec<String>,
}

#[derive(Default)]
struct RefBlock {
    start: Option<Map<String, J>>,
    deltas: Vec<J>,
    stopped: bool,
}

fn append(block: &mut Map<String, J>, key: &str, s: &str) {
    let old = block
        .get(key)
        .and_then(J::as_str)
        .unwrap_or_default()
        .to_owned();
    block.insert(key.to_owned(), J::String(old + s));
}

/// Builds one block from its start and its deltas, in the order they came.
fn build(block: &RefBlock) -> J {
    let mut out = block.start.clone().expect("a block has its start");
    let mut input = String::new();
    let mut has_input = false;
    for d in &block.deltas {
        match d["type"].as_str().unwrap() {
            "text_delta" => append(&mut out, "text", d["text"].as_str().unwrap()),
            "thinking_delta" => append(&mut out, "thinking", d["thinking"].as_str().unwrap()),
            "signature_delta" => append(&mut out, "signature", d["signature"].as_str().unwrap()),
            "citations_delta" => {
                let list = out.entry("citations").or_insert(J::Null);
                if !list.is_array() {
                    *list = json!([]);
                }
                list.as_array_mut().unwrap().push(d["citation"].clone());
            }
            "input_json_delta" => {
                has_input = true;
                input.push_str(d["partial_json"].as_str().unwrap());
            }
            "compaction_delta" => {
                if let Some(c) = d.get("content").and_then(J::as_str) {
                    append(&mut out, "content", c);
                }
                if let Some(c) = d.get("encrypted_content").and_then(J::as_str) {
                    append(&mut out, "encrypted_content", c);
                }
            }
            other => panic!("the reference does not know {other}"),
        }
    }
    if has_input && !input.trim().is_empty() {
        let value: J = serde_json::from_str(&input).expect("complete input is JSON");
        out.insert("input".into(), value);
    }
    J::Object(out)
}

/// Whether the block is written: a thinking block with neither text nor
/// signature, and a redacted one without data, are not.
fn written(block: &J) -> bool {
    let empty = |k: &str| block.get(k).and_then(J::as_str).unwrap_or("").is_empty();
    match block["type"].as_str() {
        Some("thinking") => !(empty("thinking") && empty("signature")),
        Some("redacted_thinking") => !empty("data"),
        _ => true,
    }
}

/// The reference: each data text decoded by serde_json, deltas joined here.
fn reference(datas: &[&str]) -> Expected {
    let mut message: Option<Map<String, J>> = None;
    let mut blocks: Vec<RefBlock> = Vec::new();
    let mut at: BTreeMap<u64, usize> = BTreeMap::new();
    let mut usage = Map::new();
    let (mut stop_reason, mut stop_sequence) = (None, None);
    let mut extra = Map::new(); // stop_details, container, context_management
    let (mut stopped, mut error) = (false, None);
    for data in datas {
        let v: J = serde_json::from_str(data).expect("test data is JSON");
        if stopped || error.is_some() {
            continue; // the reading ended
        }
        let open = |at: &BTreeMap<u64, usize>, blocks: &[RefBlock]| {
            at.get(&v["index"].as_u64().unwrap())
                .copied()
                .filter(|&i| !blocks[i].stopped)
        };
        match v["type"].as_str().unwrap() {
            "message_start" if message.is_none() => {
                let m = v["message"].as_object().unwrap().clone();
                if let Some(u) = m.get("usage").and_then(J::as_object) {
                    usage.extend(
                        u.iter()
                            .filter(|(_, v)| !v.is_null())
                            .map(|(k, v)| (k.clone(), v.clone())),
                    );
                }
                message = Some(m);
            }
            "content_block_start" => {
                let index = v["index"].as_u64().unwrap();
                if let std::collections::btree_map::Entry::Vacant(e) = at.entry(index) {
                    e.insert(blocks.len());
                    blocks.push(RefBlock {
                        start: Some(v["content_block"].as_object().unwrap().clone()),
                        ..RefBlock::default()
                    });
                }
            }
            "content_block_delta" => {
                if let Some(i) = open(&at, &blocks) {
                    blocks[i].deltas.push(v["delta"].clone());
                }
            }
            "content_block_stop" => {
                if let Some(i) = open(&at, &blocks) {
                    blocks[i].stopped = true;
                }
            }
            "message_delta" => {
                let d = &v["delta"];
                if !d["stop_reason"].is_null() {
                    stop_reason = Some(d["stop_reason"].clone());
                }
                if d.get("stop_sequence").is_some_and(|s| !s.is_null()) {
                    stop_sequence = Some(d["stop_sequence"].clone());
                }
                for key in ["stop_details", "container"] {
                    if let Some(x) = d.get(key).filter(|x| !x.is_null()) {
                        extra.insert(key.into(), x.clone());
                    }
                }
                if let Some(x) = v.get("context_management").filter(|x| !x.is_null()) {
                    extra.insert("context_management".into(), x.clone());
                }
                if let Some(u) = v.get("usage").and_then(J::as_object) {
                    usage.extend(
                        u.iter()
                            .filter(|(_, v)| !v.is_null())
                            .map(|(k, v)| (k.clone(), v.clone())),
                    );
                }
            }
            "message_stop" => {
                stopped = true;
                // Blocks still open end with the message.
                for b in &mut blocks {
                    b.stopped = true;
                }
            }
            "error" => error = Some(v["error"].clone()),
            _ => {}
        }
    }
    let status = if error.is_some() {
        Outcome::Failed
    } else if !stopped {
        Outcome::Truncated
    } else {
        match stop_reason.as_ref().and_then(J::as_str) {
            Some("max_tokens" | "model_context_window_exceeded" | "refusal") => Outcome::Incomplete,
            _ => Outcome::Completed,
        }
    };
    let texts = blocks
        .iter()
        .map(|b| {
            build(b)
                .get("text")
                .and_then(J::as_str)
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    // Without `message_start` only the content is compared (see `check`).
    let mut m = message.unwrap_or_default();
    m.insert(
        "content".into(),
        J::Array(blocks.iter().map(build).filter(written).collect()),
    );
    m.insert("stop_reason".into(), stop_reason.unwrap_or(J::Null));
    m.insert("stop_sequence".into(), stop_sequence.unwrap_or(J::Null));
    m.extend(extra);
    if !usage.is_empty() {
        m.insert("usage".into(), J::Object(usage));
    }
    Expected {
        json: J::Object(m),
        status,
        error,
        texts,
    }
}

/// The frames of a hand-written stream, one per data text.
fn frames_of(datas: &[&str]) -> Vec<Frame> {
    let frames = frames(&sse(datas));
    assert_eq!(frames.len(), datas.len());
    frames
}

/// Compares the accumulator with the reference; `clean`: the stream has no
/// fault, so no frame may be refused.
fn check(name: &str, datas: &[&str], clean: bool, failures: &mut Vec<String>) -> usize {
    let expected = reference(datas);
    let mut acc = AnthropicAccumulator::new();
    for (i, frame) in frames_of(datas).iter().enumerate() {
        if let Err(e) = acc.feed(frame) {
            if clean {
                failures.push(format!("{name} #{i}: {e}"));
            }
        }
        for block in acc.snapshot().content() {
            let fin = usize::try_from(block.index())
                .ok()
                .and_then(|i| expected.texts.get(i))
                .map_or("", String::as_str);
            if !fin.starts_with(block.text().unwrap_or_default()) {
                failures.push(format!("{name} #{i}: snapshot text is not a prefix"));
            }
            // Live input: always valid JSON once it has started.
            if let Some(p) = block.partial_input() {
                if serde_json::from_str::<J>(&p).is_err() {
                    failures.push(format!("{name} #{i}: partial input {p} is not JSON"));
                }
            }
        }
    }
    let message = acc.finish();
    if message.outcome() != expected.status {
        failures.push(format!(
            "{name}: status {} expected, got {}",
            expected.status,
            message.outcome()
        ));
    }
    let got_error = message
        .error()
        .map(|(ty, message)| json!({"type": ty, "message": message}));
    if got_error != expected.error {
        failures.push(format!(
            "{name}: error {:?} expected, got {got_error:?}",
            expected.error
        ));
    }
    let got: J = serde_json::from_str(&message.to_json())
        .unwrap_or_else(|e| panic!("{name}: to_json is not JSON: {e}"));
    let n = if message.saw_message_start() {
        diff(name, &expected.json, &got, failures)
    } else {
        // Without `message_start` the message is written as any turn is.
        diff(name, &expected.json["content"], &got["content"], failures)
    };
    #[cfg(feature = "serde")]
    {
        let via_serde = serde_json::to_value(&message).expect("serializes");
        diff(&format!("{name} (serde)"), &got, &via_serde, failures);
    }
    // The accessors agree with the JSON (every block here is written).
    let content = got["content"].as_array().unwrap();
    if content.len() != message.content().len() {
        failures.push(format!("{name}: a block is not written"));
    }
    for (block, json) in message.content().zip(content) {
        if let Some(input) = block.input() {
            let value: J = serde_json::from_str(input).unwrap();
            if json.get("input") != Some(&value) {
                failures.push(format!(
                    "{name}: block {} input accessor differs",
                    block.index()
                ));
            }
        }
        if block.text().map(J::from).as_ref() != json.get("text").filter(|_| block.text().is_some())
        {
            failures.push(format!(
                "{name}: block {} text accessor differs",
                block.index()
            ));
        }
        if json["type"] != block.ty() {
            failures.push(format!("{name}: block {} type differs", block.index()));
        }
    }
    n
}

fn check_ok(name: &str, datas: &[&str]) -> Message<'static> {
    check_with(name, datas, true)
}

fn check_with(name: &str, datas: &[&str], clean: bool) -> Message<'static> {
    let mut failures = Vec::new();
    check(name, datas, clean, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let mut acc = AnthropicAccumulator::new();
    for frame in frames_of(datas) {
        let _ = acc.feed(&frame);
    }
    acc.finish()
}

/// A hand-written stream, with `event:` lines, as the API sends it.
fn sse(datas: &[&str]) -> Vec<u8> {
    datas
        .iter()
        .map(|d| {
            let ty = serde_json::from_str::<J>(d).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_owned();
            format!("event: {ty}\ndata: {d}\n\n")
        })
        .collect::<String>()
        .into_bytes()
}

#[test]
fn every_corpus_anthropic_stream_assembles_as_the_reference_does() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let mut failures = Vec::new();
    let (mut streams, mut events, mut values, mut blocks) = (0, 0, 0, BTreeMap::new());
    for (name, bytes) in corpus::sse_files(&dir) {
        if !name.contains("-anthropic-") {
            continue;
        }
        let frames = frames(&bytes);
        let datas: Vec<&str> = frames.iter().map(|f| f.data()).collect();
        values += check(&name, &datas, true, &mut failures);
        streams += 1;
        events += datas.len();
        for b in reference(&datas).json["content"].as_array().unwrap() {
            *blocks
                .entry(b["type"].as_str().unwrap().to_owned())
                .or_insert(0) += 1;
        }
        assert_eq!(reference(&datas).status, Outcome::Completed, "{name}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{streams} anthropic streams, {events} events, {values} values compared; blocks {blocks:?}"
    );
    assert_eq!(streams, 9, "the corpus has 9 anthropic streams");
    for ty in [
        "text",
        "thinking",
        "redacted_thinking",
        "tool_use",
        "server_tool_use",
        "compaction",
    ] {
        assert!(blocks.contains_key(ty), "no {ty} block in the corpus");
    }
}

const START: &str = r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"cache_read_input_tokens":0,"output_tokens":1}}}"#;
const END: [&str; 2] = [
    r#"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":40}}"#,
    r#"{"type":"message_stop"}"#,
];

/// Blocks started out of index order (read past: the API numbers them in
/// order) are kept in the order they started; parallel tool uses take
/// their fragments interleaved.
#[test]
fn blocks_in_start_order_and_parallel_tool_uses() {
    let datas = [
        START,
        r#"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_b","name":"time","input":{}}}"#,
        r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_a","name":"weather","input":{}}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": "}}"#,
        r#"{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"tz\": \"UTC\"}"}}"#,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me check \u00e9 \"both\".\n"}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"Paris\", \"days\": [1, 2]}"}}"#,
        r#"{"type":"content_block_stop","index":2}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"ping"}"#,
        r#"{"type":"content_block_stop","index":1}"#,
        END[0],
        END[1],
    ];
    let m = check_ok("start-order", &datas);
    assert_eq!(m.outcome(), Outcome::Completed);
    let ids: Vec<String> = m
        .content()
        .take(2)
        .map(|b| b.id().unwrap().into_owned())
        .collect();
    assert_eq!(ids, ["toolu_b", "toolu_a"]);
    assert_eq!(
        m.block(2).unwrap().text(),
        Some("Let me check é \"both\".\n")
    );
    assert_eq!(
        m.block(1).unwrap().input(),
        Some(r#"{"city": "Paris", "days": [1, 2]}"#)
    );
    assert_eq!(m.block(0).unwrap().input(), Some(r#"{"tz": "UTC"}"#));
    assert_eq!(m.stop_reason(), Some("tool_use"));
    let usage = m.usage().unwrap();
    let usage = usage.get();
    assert_eq!(
        (usage.input_tokens, usage.output_tokens),
        (Some(12), Some(40))
    );
}

/// Faults of the lifecycle are refused at their event, with the reader's
/// kind, and change nothing; the reading goes on.
#[test]
fn lifecycle_faults_are_refused_and_change_nothing() {
    let datas = [
        START,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"early"}}"#,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"again"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"late"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        END[0],
        END[1],
        r#"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"after"}}"#,
    ];
    let mut acc = AnthropicAccumulator::new();
    let errors: Vec<(u64, AccumulateErrorKind)> = frames_of(&datas)
        .iter()
        .filter_map(|f| acc.feed(f).err())
        .map(|e| (e.event_index(), e.kind()))
        .collect();
    let s = AccumulateErrorKind::Stream;
    assert_eq!(
        errors,
        [
            (1, s(TurnErrorKind::UnknownIndex { index: 0 })),
            (3, s(TurnErrorKind::DuplicateIndex { index: 0 })),
            (6, s(TurnErrorKind::IndexClosed { index: 0 })),
            (7, s(TurnErrorKind::DuplicateEnd { index: 0 })),
            (10, s(TurnErrorKind::ContentAfterFinish)),
        ]
    );
    let m = check_with("faults", &datas, false);
    assert_eq!(m.outcome(), Outcome::Completed);
    assert_eq!(m.content().len(), 1);
    assert_eq!(m.block(0).unwrap().text(), Some("ok"));
}

#[test]
fn thinking_signature_citations_and_redacted_thinking() {
    let citation = r#"{"type":"char_location","cited_text":"x","document_index":0,"document_title":null,"start_char_index":0,"end_char_index":1}"#;
    let d1 = format!(
        r#"{{"type":"content_block_delta","index":2,"delta":{{"type":"citations_delta","citation":{citation}}}}}"#
    );
    let datas = [
        START,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hmm, "}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"yes."}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAh"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"EmwKAhgB"}}"#,
        r#"{"type":"content_block_stop","index":1}"#,
        r#"{"type":"content_block_start","index":2,"content_block":{"citations":[],"type":"text","text":""}}"#,
        &d1,
        r#"{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"cited"}}"#,
        r#"{"type":"content_block_stop","index":2}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}"#,
        END[1],
    ];
    let m = check_ok("thinking", &datas);
    assert_eq!(m.outcome(), Outcome::Completed);
    assert_eq!(m.block(0).unwrap().thinking(), Some("Hmm, yes."));
    assert_eq!(m.block(0).unwrap().signature(), Some("EqQBCgIYAh"));
    assert_eq!(m.block(1).unwrap().data().unwrap(), "EmwKAhgB");
    let citations: J = serde_json::from_str(m.block(2).unwrap().citations().unwrap()).unwrap();
    let one: J = serde_json::from_str(citation).unwrap();
    assert_eq!(citations, json!([one]));
}

#[test]
fn cut_streams_are_truncated_never_completed() {
    let datas = [
        START,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"q\": \"abc"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"def\"}"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        END[0],
        END[1],
    ];
    for cut in 0..datas.len() {
        let mut failures = Vec::new();
        // The reference cannot parse an incomplete input: compare only where
        // the input is complete or absent.
        if cut != 3 {
            check(&format!("cut at {cut}"), &datas[..cut], true, &mut failures);
            assert!(failures.is_empty(), "{}", failures.join("\n"));
        }
        let mut acc = AnthropicAccumulator::new();
        for f in frames_of(&datas[..cut]) {
            acc.feed(&f).unwrap();
        }
        if cut == 3 {
            let live = acc.snapshot().block(0).unwrap().partial_input();
            assert_eq!(live.as_deref(), Some(r#"{"q": "abc"}"#));
        }
        let m = acc.finish();
        assert_eq!(m.outcome(), Outcome::Truncated, "cut at {cut}");
        if cut == 3 {
            // Never invalid JSON out: the best repair of the input so far.
            let json: J = serde_json::from_str(&m.to_json()).unwrap();
            assert_eq!(json["content"][0]["input"], json!({"q": "abc"}));
        }
    }
    assert_eq!(check_ok("whole", &datas).outcome(), Outcome::Completed);
}

#[test]
fn error_event_is_recorded_and_fails_the_stream() {
    let datas = [
        START,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}"#,
        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
    ];
    let m = check_ok("error", &datas);
    assert_eq!(m.outcome(), Outcome::Failed);
    assert_eq!(
        m.error(),
        Some((Some("overloaded_error"), Some("Overloaded")))
    );
    assert_eq!(m.block(0).unwrap().text(), Some("Hel"));
}

/// Tool input that is not valid JSON is kept as sent and reported by the
/// block (the stream itself is not at fault: no error at its stop).
#[test]
fn invalid_tool_input_is_kept_and_reported_by_the_block() {
    let mut acc = AnthropicAccumulator::new();
    for f in frames_of(&[
        START,
        r#"{"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#,
        r#"{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"a\": 1}}"}}"#,
        r#"{"type":"content_block_stop","index":3}"#,
    ]) {
        acc.feed(&f).unwrap();
    }
    // Index 3 skipped 0 to 2 (read past): the first block.
    let snap = acc.snapshot();
    let block = snap.block(0).unwrap();
    assert!(block.is_stopped());
    assert_eq!(block.input_json(), Some(r#"{"a": 1}}"#));
    assert_eq!(block.input(), None);
    let error = block.input_error().unwrap();
    assert_eq!(error.offset(), 8, "the second `}}`");
    assert!(!error.is_eof());
    // Written as the repair of the text before the error.
    let json: J = serde_json::from_str(&snap.to_json()).unwrap();
    assert_eq!(json["content"][0]["input"], json!({"a": 1}));
}

#[test]
fn memory_limit_is_a_typed_error_and_truncates() {
    let delta = format!(
        r#"{{"type":"content_block_delta","index":0,"delta":{{"type":"text_delta","text":"{}"}}}}"#,
        "y".repeat(1000)
    );
    let mut acc = AnthropicAccumulator::with_config(
        ssekit::accumulate::AnthropicAccumulatorConfig::DEFAULT.with_max_bytes(8192),
    );
    let open =
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#;
    for f in frames_of(&[START, open]) {
        acc.feed(&f).unwrap();
    }
    let delta = &frames_of(&[&delta])[0];
    let mut limited = 0;
    for _ in 0..20 {
        if let Err(e) = acc.feed(delta) {
            assert!(matches!(
                e.kind(),
                AccumulateErrorKind::TooManyBytes { limit: 8192 }
            ));
            limited += 1;
        }
        assert!(acc.used_bytes() <= 8192);
    }
    assert!(limited >= 12, "{limited}");
    for f in frames_of(&[r#"{"type":"content_block_stop","index":0}"#, END[0], END[1]]) {
        acc.feed(&f).unwrap();
    }
    let m = acc.finish();
    assert!(m.limit_exceeded());
    assert_eq!(m.outcome(), Outcome::Truncated);
    // Sparse block indexes cost memory too.
    let mut acc = AnthropicAccumulator::with_config(
        ssekit::accumulate::AnthropicAccumulatorConfig::DEFAULT.with_max_bytes(50_000),
    );
    let mut refused = 0;
    for i in 0..5_000u64 {
        let e = format!(
            r#"{{"type":"content_block_start","index":{},"content_block":{{"type":"text","text":""}}}}"#,
            i * 1_000_000_007
        );
        if let Err(e) = acc.feed(&frames_of(&[&e])[0]) {
            assert_eq!(
                e.kind(),
                AccumulateErrorKind::TooManyBytes { limit: 50_000 }
            );
            refused += 1;
        }
        assert!(acc.used_bytes() <= 50_000);
    }
    assert!(refused > 4000, "{refused}");
}

mod hostile {
    //! Any sequence of events, in any order, with broken tool input: no
    //! panic, JSON out, memory within the limit, and `Completed` only for
    //! what the docs allow.
    use super::*;
    use proptest::prelude::*;

    fn arb_text() -> impl Strategy<Value = String> {
        proptest::string::string_regex("[a-z\"\\\\\n é😀{}\\[\\]:,0-9]{0,12}").unwrap()
    }

    fn arb_event() -> impl Strategy<Value = String> {
        let index = 0u64..5;
        prop_oneof![
            Just(START.to_owned()),
            (index.clone(), prop::sample::select(vec![
                r#"{"type":"text","text":""}"#,
                r#"{"type":"text","text":"pre","citations":[]}"#,
                r#"{"type":"thinking","thinking":"","signature":""}"#,
                r#"{"type":"tool_use","id":"t","name":"f","input":{}}"#,
                r#"{"type":"server_tool_use","id":"s","name":"g","input":{"q":1}}"#,
                r#"{"type":"redacted_thinking","data":"xyz"}"#,
                r#"{"type":"compaction","content":null}"#,
                r#"{"type":"web_search_tool_result","tool_use_id":"s","content":[]}"#,
                r#"{"type":"future_block","x":[1,2]}"#,
            ]))
                .prop_map(|(i, b)| format!(r#"{{"type":"content_block_start","index":{i},"content_block":{b}}}"#)),
            (index.clone(), 0..7usize, arb_text()).prop_map(|(i, kind, text)| {
                let t = serde_json::to_string(&text).unwrap();
                let delta = match kind {
                    0 => format!(r#"{{"type":"text_delta","text":{t}}}"#),
                    1 | 2 => format!(r#"{{"type":"input_json_delta","partial_json":{t}}}"#),
                    3 => format!(r#"{{"type":"thinking_delta","thinking":{t}}}"#),
                    4 => format!(r#"{{"type":"signature_delta","signature":{t}}}"#),
                    5 => format!(r#"{{"type":"citations_delta","citation":{{"type":"char_location","cited_text":{t}}}}}"#),
                    _ => format!(r#"{{"type":"compaction_delta","content":{t}}}"#),
                };
                format!(r#"{{"type":"content_block_delta","index":{i},"delta":{delta}}}"#)
            }),
            index.prop_map(|i| format!(r#"{{"type":"content_block_stop","index":{i}}}"#)),
            Just(END[0].to_owned()),
            Just(END[1].to_owned()),
            Just(r#"{"type":"ping"}"#.to_owned()),
            Just(r#"{"type":"error","error":{"type":"api_error","message":"x"}}"#.to_owned()),
            Just(r#"{"type":"future_event","n":1}"#.to_owned()),
        ]
    }

    proptest! {
        #[test]
        fn any_event_sequence_gives_json_and_stays_in_bounds(
            events in prop::collection::vec(arb_event(), 0..40),
            max in prop_oneof![Just(usize::MAX), 0usize..4000],
        ) {
            let mut acc = AnthropicAccumulator::with_config(ssekit::accumulate::AnthropicAccumulatorConfig::DEFAULT.with_max_bytes(max));
            let mut saw_stop = false;
            let mut saw_error = false;
            for e in &events {
                let _ = acc.feed(&frames(format!("data: {e}\n\n").as_bytes())[0]);
                prop_assert!(acc.used_bytes() <= max);
                // The reading ends at the first `message_stop` or error.
                saw_error |= !saw_stop && e.contains(r#""type":"error""#);
                saw_stop |= !saw_error && e.contains("message_stop");
                // Snapshots are JSON too, and so is every live input.
                for block in acc.snapshot().content() {
                    if let Some(p) = block.partial_input() {
                        prop_assert!(serde_json::from_str::<J>(&p).is_ok(), "{}", p);
                    }
                }
            }
            let m = acc.finish();
            let json: J = serde_json::from_str(&m.to_json()).map_err(|e| TestCaseError::fail(format!("{e}: {}", m.to_json())))?;
            // Thinking blocks with nothing in them are not written.
            prop_assert!(json["content"].as_array().unwrap().len() <= m.content().len());
            if m.outcome() == Outcome::Completed {
                prop_assert!(saw_stop && !saw_error);
                prop_assert!(m.content().all(|b| b.is_stopped()));
            }
            prop_assert_eq!(m.outcome() == Outcome::Failed, saw_error);
        }
    }
}
