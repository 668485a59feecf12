//! `ChatAccumulator` against an independent reference.
//!
//! The reference keeps what a Chat client keeps; where the accumulator's
//! reader refuses a fault of the stream (a tool call whose first fragment
//! has neither `id` nor name, content after a choice's `finish_reason` or
//! after `[DONE]`), the hand-written streams here do not commit it, and
//! the tests that do check the refusal itself.
//!
//! The reference (below, [`reference`]) reads each frame's data with
//! `serde_json::Value` and concatenates the deltas itself, keyed by choice
//! and tool call index; it then builds the `chat.completion` object the
//! accumulator documents. The accumulator's `to_json()` (and, with the
//! `serde` feature, its `Serialize`) must equal it field by field, for every
//! Chat Completions stream of the corpus (`../shared/corpus/*-chat-*.sse`)
//! and for hand-written streams: out-of-order indexes, several choices,
//! parallel tool calls, truncation, error chunks, limits, and random
//! interleavings (proptest).

use crate::corpus;
use crate::json_diff;

use std::collections::BTreeMap;

use json_diff::{diff, frames};
use proptest::prelude::*;
use serde_json::{json, Map, Value as J};
use ssekit::accumulate::{AccumulateErrorKind, ChatAccumulator, Outcome};
use ssekit::chat::ChatEvent;
use ssekit::turn::TurnErrorKind;
use ssekit::Frame;

#[derive(Default)]
struct RefCall {
    id: Option<String>,
    ty: Option<String>,
    name: Option<String>,
    arguments: String,
}

#[derive(Default)]
struct RefChoice {
    role: Option<String>,
    content: Option<String>,
    refusal: Option<String>,
    reasoning_content: Option<String>,
    reasoning: Option<String>,
    tool_calls: BTreeMap<u64, RefCall>,
    function_call: Option<(Option<String>, String)>,
    finish_reason: Option<String>,
    logprobs: Option<RefLogprobs>,
}

/// The content and refusal token lists.
type RefLogprobs = (Option<Vec<J>>, Option<Vec<J>>);

/// What the reference expects: the completion object and the status.
struct Expected {
    json: J,
    status: Outcome,
    error: Option<J>,
    contents: BTreeMap<u64, Option<String>>,
}

fn first_str(slot: &mut Option<String>, v: Option<&J>) {
    if slot.is_none() {
        if let Some(J::String(s)) = v {
            *slot = Some(s.clone());
        }
    }
}

fn concat(slot: &mut Option<String>, v: Option<&J>) {
    if let Some(J::String(s)) = v {
        slot.get_or_insert_with(String::new).push_str(s);
    }
}

fn str_or_null(s: &Option<String>) -> J {
    s.as_ref().map_or(J::Null, |s| J::String(s.clone()))
}

/// The reference: each data text decoded by serde_json, deltas joined here.
fn reference(datas: &[&str]) -> Expected {
    let (mut id, mut model, mut fingerprint, mut tier, mut provider) =
        (None, None, None, None, None);
    let mut created: Option<u64> = None;
    let (mut usage, mut moderation, mut error) = (None, None, None);
    let mut done = false;
    let mut choices: BTreeMap<u64, RefChoice> = BTreeMap::new();
    for data in datas {
        if data.trim() == "[DONE]" {
            done = true;
            continue;
        }
        let v: J = serde_json::from_str(data).expect("test data is JSON");
        if v.get("error").is_some_and(|e| !e.is_null()) {
            error = Some(v["error"].clone());
            if v.get("usage").is_some_and(J::is_object) {
                usage = Some(v["usage"].clone());
            }
            continue;
        }
        first_str(&mut id, v.get("id"));
        first_str(&mut model, v.get("model"));
        first_str(&mut fingerprint, v.get("system_fingerprint"));
        first_str(&mut tier, v.get("service_tier"));
        first_str(&mut provider, v.get("provider"));
        if created.is_none() {
            created = v.get("created").and_then(J::as_u64);
        }
        if v.get("usage").is_some_and(|u| !u.is_null()) {
            usage = Some(v["usage"].clone());
        }
        if v.get("moderation").is_some_and(|m| !m.is_null()) {
            moderation = Some(v["moderation"].clone());
        }
        for c in v["choices"].as_array().expect("choices") {
            let choice = choices.entry(c["index"].as_u64().unwrap()).or_default();
            if let Some(d) = c.get("delta").filter(|d| d.is_object()) {
                first_str(&mut choice.role, d.get("role"));
                concat(&mut choice.content, d.get("content"));
                concat(&mut choice.refusal, d.get("refusal"));
                concat(&mut choice.reasoning_content, d.get("reasoning_content"));
                concat(&mut choice.reasoning, d.get("reasoning"));
                if let Some(f) = d.get("function_call").filter(|f| f.is_object()) {
                    let fc = choice.function_call.get_or_insert((None, String::new()));
                    first_str(&mut fc.0, f.get("name"));
                    if let Some(J::String(a)) = f.get("arguments") {
                        fc.1.push_str(a);
                    }
                }
                for t in d
                    .get("tool_calls")
                    .and_then(J::as_array)
                    .into_iter()
                    .flatten()
                {
                    let call = choice
                        .tool_calls
                        .entry(t["index"].as_u64().unwrap())
                        .or_default();
                    first_str(&mut call.id, t.get("id"));
                    first_str(&mut call.ty, t.get("type"));
                    if let Some(f) = t.get("function").filter(|f| f.is_object()) {
                        first_str(&mut call.name, f.get("name"));
                        if let Some(J::String(a)) = f.get("arguments") {
                            call.arguments.push_str(a);
                        }
                    }
                }
            }
            if let Some(J::String(r)) = c.get("finish_reason") {
                choice.finish_reason = Some(r.clone());
            }
            if let Some(lp) = c.get("logprobs").filter(|l| l.is_object()) {
                let kept = choice.logprobs.get_or_insert((None, None));
                if let Some(list) = lp.get("content").and_then(J::as_array) {
                    kept.0
                        .get_or_insert_with(Vec::new)
                        .extend(list.iter().cloned());
                }
                if let Some(list) = lp.get("refusal").and_then(J::as_array) {
                    kept.1
                        .get_or_insert_with(Vec::new)
                        .extend(list.iter().cloned());
                }
            }
        }
    }
    let status = if error.is_some() {
        Outcome::Failed
    } else if !done || choices.is_empty() || choices.values().any(|c| c.finish_reason.is_none()) {
        Outcome::Truncated
    } else if choices.values().any(|c| {
        matches!(
            c.finish_reason.as_deref(),
            Some("length" | "content_filter")
        )
    }) {
        // Stopped by a limit of the model.
        Outcome::Incomplete
    } else {
        Outcome::Completed
    };
    let contents = choices
        .iter()
        .map(|(i, c)| (*i, c.content.clone()))
        .collect();
    let choices: Vec<J> = choices
        .into_iter()
        .map(|(index, c)| {
            let mut message = Map::new();
            message.insert("role".into(), str_or_null(&c.role));
            message.insert("content".into(), str_or_null(&c.content));
            message.insert("refusal".into(), str_or_null(&c.refusal));
            if let Some(r) = &c.reasoning_content {
                message.insert("reasoning_content".into(), json!(r));
            }
            if let Some(r) = &c.reasoning {
                message.insert("reasoning".into(), json!(r));
            }
            if !c.tool_calls.is_empty() {
                let calls: Vec<J> = c
                    .tool_calls
                    .values()
                    .map(|t| {
                        json!({
                            "id": str_or_null(&t.id),
                            "type": str_or_null(&t.ty),
                            "function": {"name": str_or_null(&t.name), "arguments": t.arguments},
                        })
                    })
                    .collect();
                message.insert("tool_calls".into(), J::Array(calls));
            }
            if let Some((name, arguments)) = &c.function_call {
                message.insert(
                    "function_call".into(),
                    json!({"name": str_or_null(name), "arguments": arguments}),
                );
            }
            let logprobs = c.logprobs.map_or(J::Null, |(content, refusal)| {
                json!({
                    "content": content.map_or(J::Null, J::Array),
                    "refusal": refusal.map_or(J::Null, J::Array),
                })
            });
            json!({
                "index": index,
                "message": J::Object(message),
                "logprobs": logprobs,
                "finish_reason": str_or_null(&c.finish_reason),
            })
        })
        .collect();
    let mut object = Map::new();
    object.insert("id".into(), str_or_null(&id));
    object.insert("object".into(), json!("chat.completion"));
    object.insert("created".into(), created.map_or(J::Null, |c| json!(c)));
    object.insert("model".into(), str_or_null(&model));
    object.insert("choices".into(), J::Array(choices));
    for (key, value) in [
        ("usage", usage),
        ("service_tier", tier.map(J::String)),
        ("system_fingerprint", fingerprint.map(J::String)),
        ("provider", provider.map(J::String)),
        ("moderation", moderation),
    ] {
        if let Some(v) = value {
            object.insert(key.into(), v);
        }
    }
    Expected {
        json: J::Object(object),
        status,
        error,
        contents,
    }
}

/// Accumulates `datas` (checking the snapshots against the reference's
/// final content as it goes) and compares the result with the reference.
/// Returns the number of values compared.
fn check(name: &str, datas: &[&str], failures: &mut Vec<String>) -> usize {
    let expected = reference(datas);
    let mut acc = ChatAccumulator::new();
    for (i, data) in datas.iter().enumerate() {
        ChatEvent::parse(data).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
        if let Err(e) = acc.feed(&Frame::new(*data)) {
            failures.push(format!("{name} #{i}: {e}"));
        }
        // Snapshots only grow towards the final text.
        for choice in acc.snapshot().choices() {
            let fin = expected.contents.get(&choice.index()).cloned().flatten();
            if let Some(now) = choice.content() {
                if !fin.as_deref().unwrap_or_default().starts_with(&*now) {
                    failures.push(format!("{name} #{i}: snapshot content is not a prefix"));
                }
            }
        }
    }
    let completion = acc.finish();
    if completion.outcome() != expected.status {
        failures.push(format!(
            "{name}: status {} expected, got {}",
            expected.status,
            completion.outcome()
        ));
    }
    let got_error = completion
        .error_json()
        .map(|e| serde_json::from_str::<J>(e).unwrap());
    if got_error != expected.error {
        failures.push(format!(
            "{name}: error {:?} expected, got {got_error:?}",
            expected.error
        ));
    }
    let text = completion.to_json();
    let got: J =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: to_json is not JSON: {e}"));
    let n = diff(name, &expected.json, &got, failures);
    #[cfg(feature = "serde")]
    {
        let via_serde = serde_json::to_value(&completion).expect("serializes");
        diff(&format!("{name} (serde)"), &got, &via_serde, failures);
    }
    // Complete arguments: the live repair ends at the same value.
    for choice in completion.choices() {
        for call in choice.tool_calls() {
            if let Ok(value) = serde_json::from_str::<J>(call.arguments()) {
                if value.is_object() || value.is_array() {
                    let partial: Option<J> = call
                        .partial_arguments()
                        .and_then(|p| serde_json::from_str(&p).ok());
                    if partial.as_ref() != Some(&value) {
                        failures.push(format!("{name}: partial arguments {partial:?} != {value}"));
                    }
                    assert!(call.arguments_complete());
                }
            }
        }
    }
    n
}

#[test]
fn every_corpus_chat_stream_assembles_as_the_reference_does() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let mut failures = Vec::new();
    let (mut streams, mut events, mut values) = (0, 0, 0);
    let mut statuses = BTreeMap::new();
    for (name, bytes) in corpus::sse_files(&dir) {
        if !name.contains("-chat-") {
            continue;
        }
        let frames = frames(&bytes);
        let datas: Vec<&str> = frames.iter().map(|f| f.data()).collect();
        values += check(&name, &datas, &mut failures);
        streams += 1;
        events += datas.len();
        let status = reference(&datas).status;
        *statuses.entry(status.as_str()).or_insert(0) += 1;
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{streams} chat streams, {events} events, {values} values compared; statuses {statuses:?}"
    );
    assert_eq!(streams, 12, "the corpus has 12 chat streams");
    assert!(values > 1000, "{values}");
}

/// `data:` lines of a hand-written stream, through the parser.
fn sse(datas: &[&str]) -> Vec<u8> {
    datas
        .iter()
        .map(|d| format!("data: {d}\n\n"))
        .collect::<String>()
        .into_bytes()
}

fn accumulate(
    body: &[u8],
) -> (
    ssekit::accumulate::chat::ChatCompletion,
    Vec<AccumulateErrorKind>,
) {
    let mut acc = ChatAccumulator::new();
    let mut errors = Vec::new();
    for frame in frames(body) {
        if let Err(e) = acc.feed(&frame) {
            errors.push(e.kind());
        }
    }
    (acc.finish(), errors)
}

fn check_ok(name: &str, datas: &[&str]) {
    let mut failures = Vec::new();
    check(name, datas, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn out_of_order_choice_and_tool_call_indexes() {
    let datas = [
        r#"{"id":"c","choices":[{"index":2,"delta":{"role":"assistant","content":"tw"}}]}"#,
        r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"a1","type":"function","function":{"name":"g","arguments":"{\"b\":"}}]}}]}"#,
        r#"{"id":"c","choices":[{"index":1,"delta":{"content":"one"},"finish_reason":"stop"},{"index":2,"delta":{"content":"o"}}]}"#,
        r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a0","type":"function","function":{"name":"f","arguments":"[]"}},{"index":1,"function":{"arguments":" 2}"}}]},"finish_reason":"tool_calls"}]}"#,
        r#"{"id":"c","choices":[{"index":2,"finish_reason":"length"}]}"#,
        "[DONE]",
    ];
    check_ok("out-of-order", &datas);
    let (c, errors) = accumulate(&sse(&datas));
    assert!(errors.is_empty());
    assert_eq!(c.outcome(), Outcome::Incomplete); // choice 2: `length`
    let indexes: Vec<u64> = c.choices().map(|c| c.index()).collect();
    assert_eq!(indexes, [0, 1, 2]);
    assert_eq!(c.choice(2).unwrap().content().as_deref(), Some("two"));
    let calls: Vec<_> = c.choice(0).unwrap().tool_calls().collect();
    assert_eq!((calls[0].id(), calls[0].arguments()), (Some("a0"), "[]"));
    assert_eq!(
        (calls[1].id(), calls[1].arguments()),
        (Some("a1"), r#"{"b": 2}"#)
    );
}

#[test]
fn multiple_choices_and_parallel_tool_calls() {
    let datas = [
        r#"{"id":"c","model":"m","created":5,"choices":[{"index":0,"delta":{"role":"assistant","content":""}},{"index":1,"delta":{"role":"assistant","content":""}}]}"#,
        r#"{"id":"c","choices":[{"index":0,"delta":{"content":"Hé \"q\"\n"}},{"index":1,"delta":{"tool_calls":[{"index":0,"id":"x","type":"function","function":{"name":"a","arguments":""}},{"index":1,"id":"y","type":"function","function":{"name":"b","arguments":""}}]}}]}"#,
        r#"{"id":"c","choices":[{"index":1,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"k\": \"\\u00e9"}},{"index":1,"function":{"arguments":"[1"}}]}}]}"#,
        r#"{"id":"c","choices":[{"index":1,"delta":{"tool_calls":[{"index":1,"function":{"arguments":", 2]"}},{"index":0,"function":{"arguments":"\"}"}}]},"finish_reason":"tool_calls"},{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
        r#"{"id":"c","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}"#,
        "[DONE]",
    ];
    check_ok("parallel", &datas);
    let (c, _) = accumulate(&sse(&datas));
    assert_eq!(c.outcome(), Outcome::Completed);
    assert_eq!(
        c.choice(0).unwrap().content().as_deref(),
        Some("Hé \"q\"\n")
    );
    let calls: Vec<_> = c.choice(1).unwrap().tool_calls().collect();
    assert_eq!(calls[0].arguments(), r#"{"k": "\u00e9"}"#);
    assert_eq!(
        calls[0].partial_arguments().as_deref(),
        Some(r#"{"k": "\u00e9"}"#)
    );
    assert_eq!(calls[1].arguments(), "[1, 2]");
    assert_eq!(c.usage().unwrap().output, Some(2));
    assert_eq!(
        c.usage_json(),
        Some(r#"{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}"#)
    );
}

#[test]
fn cut_streams_are_truncated_never_completed() {
    let full = [
        r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a"}}]}"#,
        r#"{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
        r#"{"id":"c","choices":[],"usage":{"total_tokens":1}}"#,
        "[DONE]",
    ];
    for cut in 0..full.len() {
        check_ok(&format!("cut at {cut}"), &full[..cut]);
        let (c, _) = accumulate(&sse(&full[..cut]));
        assert_eq!(c.outcome(), Outcome::Truncated, "cut at {cut}");
        assert!(c.is_truncated());
    }
    // [DONE] without a finish reason is truncated too.
    let (c, _) = accumulate(&sse(&[full[0], full[3]]));
    assert_eq!(c.outcome(), Outcome::Truncated);
    let (c, _) = accumulate(&sse(&full));
    assert_eq!(c.outcome(), Outcome::Completed);
}

#[test]
fn error_chunk_is_recorded_and_fails_the_stream() {
    let datas = [
        r#"{"id":"c","choices":[{"index":0,"delta":{"content":"par"}}]}"#,
        r#"{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}"#,
    ];
    check_ok("error", &datas);
    let (c, _) = accumulate(&sse(&datas));
    assert_eq!(c.outcome(), Outcome::Failed);
    // The code is null: the type stands for it.
    assert_eq!(
        c.error(),
        Some((Some("server_error"), Some("The server had an error")))
    );
    assert_eq!(c.choice(0).unwrap().content().as_deref(), Some("par"));
}

#[test]
fn memory_limit_is_a_typed_error_and_truncates() {
    let big = "x".repeat(1000);
    let chunk = format!(r#"{{"choices":[{{"index":0,"delta":{{"content":"{big}"}}}}]}}"#);
    let mut acc = ChatAccumulator::with_config(
        ssekit::accumulate::ChatAccumulatorConfig::DEFAULT.with_max_bytes(4096),
    );
    let mut limited = 0;
    for _ in 0..10 {
        if let Err(e) = acc.feed(&Frame::new(chunk.as_str())) {
            assert!(matches!(
                e.kind(),
                AccumulateErrorKind::TooManyBytes { limit: 4096 }
            ));
            limited += 1;
        }
        assert!(acc.used_bytes() <= acc.config().max_bytes);
    }
    assert!(limited >= 6, "{limited}");
    let content_len = acc.snapshot().choice(0).unwrap().content().unwrap().len();
    assert!(
        content_len <= 4096 && content_len % 1000 == 0,
        "{content_len}"
    );
    // `[DONE]` before the choice's finish_reason: the reader says so.
    let e = acc.feed(&Frame::new("[DONE]")).unwrap_err();
    assert_eq!(
        e.kind(),
        AccumulateErrorKind::Stream(TurnErrorKind::Truncated)
    );
    let c = acc.finish();
    assert!(c.limit_exceeded());
    assert_eq!(c.outcome(), Outcome::Truncated);
    // Sparse indexes cost memory too.
    let mut acc = ChatAccumulator::with_config(
        ssekit::accumulate::ChatAccumulatorConfig::DEFAULT.with_max_bytes(100_000),
    );
    let mut refused = 0;
    for i in 0..10_000u64 {
        let e = format!(
            r#"{{"choices":[{{"index":{i},"delta":{{"tool_calls":[{{"index":{i},"id":"c"}}]}}}}]}}"#
        );
        refused += usize::from(acc.feed(&Frame::new(e)).is_err());
    }
    assert!(refused > 9000, "{refused}");
    assert!(acc.used_bytes() <= 100_000);
}

#[derive(Debug, Clone)]
struct Plan {
    /// Per choice: content fragments, and per tool call argument fragments.
    choices: Vec<(Vec<String>, Vec<Vec<String>>)>,
    /// Which choice's next chunk goes next (taken modulo what is left).
    order: Vec<usize>,
    done: bool,
}

fn fragments(text: String, cuts: Vec<usize>) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut points: Vec<usize> = cuts.into_iter().map(|c| c % (chars.len() + 1)).collect();
    points.sort_unstable();
    points.dedup();
    let mut out = Vec::new();
    let mut last = 0;
    for p in points.into_iter().chain([chars.len()]) {
        out.push(chars[last..p].iter().collect());
        last = p;
    }
    out
}

fn arb_text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zé\"\\\\\n {}:,😀]{0,24}").unwrap()
}

fn arb_plan() -> impl Strategy<Value = Plan> {
    let choice = (
        (arb_text(), prop::collection::vec(any::<usize>(), 0..5))
            .prop_map(|(t, c)| fragments(t, c)),
        prop::collection::vec(
            (arb_text(), prop::collection::vec(any::<usize>(), 0..4))
                .prop_map(|(t, c)| fragments(t, c)),
            0..3,
        ),
    );
    (
        prop::collection::vec(choice, 1..4),
        prop::collection::vec(any::<usize>(), 0..64),
        any::<bool>(),
    )
        .prop_map(|(choices, order, done)| Plan {
            choices,
            order,
            done,
        })
}

/// The chunks of a plan: each choice's fragments in order (content, then
/// each tool call's), the choices interleaved as `order` says, tool calls
/// of one choice interleaved too.
fn chunks(plan: &Plan) -> Vec<String> {
    let mut queues: Vec<Vec<String>> = plan
        .choices
        .iter()
        .enumerate()
        .map(|(i, (content, calls))| {
            let mut q: Vec<String> = content
                .iter()
                .map(|c| json!({"choices": [{"index": i, "delta": {"content": c}}]}).to_string())
                .collect();
            let longest = calls.iter().map(Vec::len).max().unwrap_or(0);
            for step in 0..longest {
                for (t, args) in calls.iter().enumerate().rev() {
                    if let Some(a) = args.get(step) {
                        let mut call = json!({"index": t, "function": {"arguments": a}});
                        if step == 0 {
                            call["id"] = json!(format!("call_{i}_{t}"));
                            call["function"]["name"] = json!("f");
                        }
                        q.push(
                            json!({"choices": [{"index": i, "delta": {"tool_calls": [call]}}]})
                                .to_string(),
                        );
                    }
                }
            }
            q.push(
                json!({"choices": [{"index": i, "delta": {}, "finish_reason": "stop"}]})
                    .to_string(),
            );
            q.reverse();
            q
        })
        .collect();
    let mut out = Vec::new();
    let mut order = plan.order.iter().cycle();
    while queues.iter().any(|q| !q.is_empty()) {
        let live: Vec<usize> = (0..queues.len())
            .filter(|&i| !queues[i].is_empty())
            .collect();
        let pick = live[order.next().copied().unwrap_or(0) % live.len()];
        out.push(queues[pick].pop().unwrap());
    }
    if plan.done {
        out.push("[DONE]".to_owned());
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// However the choices' chunks interleave and however the texts are cut,
    /// the result is the reference's.
    #[test]
    fn interleavings_assemble_as_the_reference(plan in arb_plan()) {
        let chunks = chunks(&plan);
        let datas: Vec<&str> = chunks.iter().map(String::as_str).collect();
        let mut failures = Vec::new();
        check("plan", &datas, &mut failures);
        prop_assert!(failures.is_empty(), "{}", failures.join("\n"));
        let (c, _) = accumulate(&sse(&datas));
        for (i, (content, calls)) in plan.choices.iter().enumerate() {
            let choice = c.choice(i as u64).unwrap();
            prop_assert_eq!(choice.content().unwrap_or_default(), content.concat());
            for (t, args) in calls.iter().enumerate() {
                prop_assert_eq!(choice.tool_call(t as u64).unwrap().arguments(), args.concat());
            }
        }
        let status = if plan.done { Outcome::Completed } else { Outcome::Truncated };
        prop_assert_eq!(c.outcome(), status);
    }
}

mod hostile {
    //! Any chunks, with any indexes and odd values: no panic, JSON out,
    //! memory within the limit.
    use super::*;

    fn text() -> impl Strategy<Value = String> {
        proptest::string::string_regex("[a-z\"\\\\\n é😀{}:,]{0,10}").unwrap()
    }

    fn val() -> impl Strategy<Value = J> {
        prop_oneof![
            Just(J::Null),
            text().prop_map(J::String),
            Just(json!(7)),
            Just(json!([]))
        ]
    }

    fn arb_chunk() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("[DONE]".to_owned()),
            Just(r#"{"error":{"message":"m"}}"#.to_owned()),
            (0u64..4, 0u64..3, val(), val(), val(), val(), prop::option::of(text())).prop_map(
                |(i, t, content, args, reason, id, refusal)| {
                    json!({"id": id, "choices": [{"index": i, "delta": {"content": content, "refusal": refusal,
                        "tool_calls": [{"index": t, "id": "c", "function": {"arguments": args}}]},
                        "finish_reason": reason,
                        "logprobs": {"content": [{"token": "a", "logprob": -1.5}]}}],
                        "usage": null})
                    .to_string()
                }
            ),
        ]
    }

    proptest! {
        #[test]
        fn any_chunk_sequence_gives_json_and_stays_in_bounds(
            chunks in prop::collection::vec(arb_chunk(), 0..30),
            max in prop_oneof![Just(usize::MAX), 0usize..3000],
        ) {
            let mut acc = ChatAccumulator::with_config(ssekit::accumulate::ChatAccumulatorConfig::DEFAULT.with_max_bytes(max));
            let (mut saw_error, mut ended) = (false, false);
            for c in &chunks {
                // An error chunk after `[DONE]` comes after the end: refused.
                if let Ok(event) = ChatEvent::parse(c) {
                    saw_error |= matches!(event, ChatEvent::Error(_)) && !ended;
                    ended |= matches!(event, ChatEvent::Done);
                }
                let _ = acc.feed(&Frame::new(c.as_str()));
                prop_assert!(acc.used_bytes() <= max);
            }
            let c = acc.finish();
            let json: J = serde_json::from_str(&c.to_json()).map_err(|e| TestCaseError::fail(format!("{e}: {}", c.to_json())))?;
            prop_assert_eq!(json["choices"].as_array().unwrap().len(), c.choices().len());
            prop_assert_eq!(c.outcome() == Outcome::Failed, saw_error);
            if c.outcome() == Outcome::Completed {
                prop_assert!(c.saw_done() && !c.limit_exceeded());
            }
        }
    }
}

/// Issue 14: a chunk of an unexpected shape is `ChatEvent::Unknown`; the
/// accumulator counts it, reports its decode error and keeps nothing of
/// it, and the chunks around it still assemble.
#[test]
fn a_chunk_of_an_unexpected_shape_is_counted_and_reported() {
    let mut acc = ChatAccumulator::new();
    let good = r#"{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"}}]}"#;
    let odd =
        r#"{"id":"c","created":"yesterday","choices":[{"index":0,"delta":{"content":"lost"}}]}"#;
    acc.feed(&Frame::new(good)).unwrap();
    let event = ChatEvent::parse(odd).unwrap();
    assert!(matches!(event, ChatEvent::Unknown { .. }), "{event:?}");
    let e = acc.feed(&Frame::new(odd)).unwrap_err();
    assert!(matches!(e.kind(), AccumulateErrorKind::Decode(_)), "{e}");
    assert_eq!(e.event_index(), 1);
    acc.feed(&Frame::new(good)).unwrap();
    let c = acc.finish();
    assert_eq!(c.unknown_chunks(), 1);
    assert_eq!(c.chunks(), 2);
    assert_eq!(c.choice(0).unwrap().content().as_deref(), Some("HiHi"));
}
