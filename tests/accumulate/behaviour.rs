//! The Responses accumulator on hand-written streams: one per item kind,
//! events out of order, gaps in the sequence numbers, truncation, failures,
//! limits and the live snapshot. Every expected value is written out here
//! by hand, from the API reference's item shapes.

use serde_json::{json, Value as J};
use ssekit::accumulate::{
    AccumulateErrorKind, AnomalyKind, FinalResponse, Outcome, ResponsesAccumulator,
    ResponsesAccumulatorConfig,
};
use ssekit::responses::ResponsesEvent;

/// Feeds each event's data (one JSON text per entry; a `sequence_number`
/// is added from the entry's position unless it has one or is `[DONE]`).
fn feed(acc: &mut ResponsesAccumulator, events: &[J]) {
    for e in events {
        let text = e.to_string();
        let event = ResponsesEvent::parse(&text).expect("test events decode");
        acc.feed(&event).expect("within the limits");
    }
}

/// Numbers the events 0, 1, 2, … in the order given.
fn numbered(events: Vec<J>) -> Vec<J> {
    events
        .into_iter()
        .enumerate()
        .map(|(i, mut e)| {
            e["sequence_number"] = json!(i);
            e
        })
        .collect()
}

fn run(events: &[J]) -> FinalResponse {
    let mut acc = ResponsesAccumulator::new();
    feed(&mut acc, events);
    acc.finish()
}

fn json_of(r: &FinalResponse) -> J {
    serde_json::from_str(&r.json().to_string()).unwrap()
}

/// The `id` of each item of the final `output`, in order.
fn output_ids(r: &FinalResponse) -> Vec<String> {
    json_of(r)["output"]
        .as_array()
        .unwrap()
        .iter()
        .map(|it| it["id"].as_str().unwrap().to_string())
        .collect()
}

fn created() -> J {
    json!({"type": "response.created", "response": {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}})
}

fn completed() -> J {
    json!({"type": "response.completed", "response": {"id": "resp_1", "object": "response", "status": "completed",
        "usage": {"input_tokens": 5, "output_tokens": 7, "total_tokens": 12}}})
}

fn added(i: u64, item: J) -> J {
    json!({"type": "response.output_item.added", "output_index": i, "item": item})
}

fn done(i: u64, item: J) -> J {
    json!({"type": "response.output_item.done", "output_index": i, "item": item})
}

fn kinds(r: &FinalResponse) -> Vec<AnomalyKind> {
    r.anomalies().iter().map(|f| f.kind.clone()).collect()
}

#[test]
fn message_with_text_annotations_logprobs_and_refusal_out_of_order() {
    let msg = json!({"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress", "content": []});
    let lp = |t: &str, l: f64| json!({"token": t, "logprob": l, "top_logprobs": []});
    let text = |ci: u64, d: &str, lps: J| json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": ci, "delta": d, "logprobs": lps});
    let ann = |ai: u64, url: &str| {
        json!({"type": "response.output_text.annotation.added", "item_id": "msg_1", "output_index": 0, "content_index": 0, "annotation_index": ai,
        "annotation": {"type": "url_citation", "url": url, "start_index": 0, "end_index": 2, "title": "t"}})
    };
    let events = numbered(vec![
        created(),
        added(0, msg),
        json!({"type": "response.content_part.added", "item_id": "msg_1", "output_index": 0, "content_index": 0,
            "part": {"type": "output_text", "text": "", "annotations": [], "logprobs": []}}),
        text(0, "Hel", json!([lp("Hel", -0.5)])),
        // The refusal part's events arrive before its content_part.added.
        json!({"type": "response.refusal.delta", "item_id": "msg_1", "output_index": 0, "content_index": 1, "delta": "No"}),
        text(
            0,
            "lo \"x\"\n",
            json!([lp("lo", -0.25), lp(" \"x\"\n", -1.0)]),
        ),
        ann(1, "https://b"),
        json!({"type": "response.content_part.added", "item_id": "msg_1", "output_index": 0, "content_index": 1, "part": {"type": "refusal", "refusal": ""}}),
        json!({"type": "response.refusal.delta", "item_id": "msg_1", "output_index": 0, "content_index": 1, "delta": "pe."}),
        ann(0, "https://a"),
        json!({"type": "response.output_text.done", "item_id": "msg_1", "output_index": 0, "content_index": 0, "text": "Hello \"x\"\n"}),
        json!({"type": "response.refusal.done", "item_id": "msg_1", "output_index": 0, "content_index": 1, "refusal": "Nope."}),
        completed(),
    ]);
    let mut acc = ResponsesAccumulator::new();
    feed(&mut acc, &events[..6]);
    let item = acc.item(0).unwrap();
    assert_eq!(item.part_text(0), Some("Hello \"x\"\n"));
    assert_eq!(item.part_text(1), Some("No"));
    assert_eq!(item.part_type(1), Some("refusal"));
    assert_eq!(acc.output_text(), "Hello \"x\"\n");
    feed(&mut acc, &events[6..]);
    let r = acc.finish();
    assert_eq!(r.outcome(), Outcome::Completed);
    assert!(r.anomalies().is_empty(), "{:?}", r.anomalies());
    assert_eq!(
        json_of(&r)["output"],
        json!([{
            "type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress",
            "content": [
                {"type": "output_text", "text": "Hello \"x\"\n",
                 "annotations": [
                    {"type": "url_citation", "url": "https://a", "start_index": 0, "end_index": 2, "title": "t"},
                    {"type": "url_citation", "url": "https://b", "start_index": 0, "end_index": 2, "title": "t"}],
                 "logprobs": [lp("Hel", -0.5), lp("lo", -0.25), lp(" \"x\"\n", -1.0)]},
                {"type": "refusal", "refusal": "Nope."}
            ]
        }])
    );
    assert_eq!(
        r.usage().map(ToString::to_string).as_deref(),
        Some(r#"{"input_tokens":5,"output_tokens":7,"total_tokens":12}"#)
    );
    assert_eq!(r.output_text(), "Hello \"x\"\n");
    assert_eq!(r.sequence().first, Some(0));
    assert_eq!(r.sequence().last, Some(12));
    assert_eq!(r.sequence().numbered, 13);
}

#[test]
fn function_call_arguments_and_their_live_value() {
    let item = json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "", "status": "in_progress"});
    let delta = |d: &str| json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": d});
    let events = numbered(vec![
        created(),
        added(0, item),
        delta("{\"location\": "),
        delta("\"San"),
        delta(" Francisco\", \"days\": 1"),
        delta("0}"),
        json!({"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0, "arguments": "{\"location\": \"San Francisco\", \"days\": 10}"}),
        done(
            0,
            json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
            "arguments": "{\"location\": \"San Francisco\", \"days\": 10}", "status": "completed"}),
        ),
        completed(),
    ]);
    let mut acc = ResponsesAccumulator::new();
    let mut shown = Vec::new();
    for e in &events {
        feed(&mut acc, std::slice::from_ref(e));
        if let Some(it) = acc.item(0) {
            shown.push(it.partial_arguments().unwrap().map(str::to_owned));
        }
    }
    let want: Vec<Option<&str>> = vec![
        None,
        Some("{}"),
        Some(r#"{"location": "San"}"#),
        Some(r#"{"location": "San Francisco"}"#),
        Some(r#"{"location": "San Francisco", "days": 10}"#),
        Some(r#"{"location": "San Francisco", "days": 10}"#),
        Some(r#"{"location": "San Francisco", "days": 10}"#),
        Some(r#"{"location": "San Francisco", "days": 10}"#),
    ];
    assert_eq!(shown.iter().map(Option::as_deref).collect::<Vec<_>>(), want);
    assert_eq!(acc.item(0).unwrap().name(), Some("get_weather"));
    assert_eq!(acc.item(0).unwrap().call_id(), Some("call_1"));
    let r = acc.finish();
    assert!(r.anomalies().is_empty(), "{:?}", r.anomalies());
    assert_eq!(
        json_of(&r)["output"][0],
        json!({"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
               "arguments": "{\"location\": \"San Francisco\", \"days\": 10}", "status": "completed"})
    );
}

#[test]
fn custom_tool_call_input_is_free_text() {
    let events = numbered(vec![
        created(),
        added(
            0,
            json!({"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1", "name": "grammar", "input": ""}),
        ),
        json!({"type": "response.custom_tool_call_input.delta", "item_id": "ctc_1", "output_index": 0, "delta": "SELECT *"}),
        json!({"type": "response.custom_tool_call_input.delta", "item_id": "ctc_1", "output_index": 0, "delta": " FROM t"}),
    ]);
    let mut acc = ResponsesAccumulator::new();
    feed(&mut acc, &events);
    let it = acc.item(0).unwrap();
    assert_eq!(it.arguments(), Some("SELECT * FROM t"));
    // Not JSON: the live value is an error, not a guess.
    assert!(it.partial_arguments().is_err());
    feed(
        &mut acc,
        &[
            json!({"type": "response.custom_tool_call_input.done", "item_id": "ctc_1", "output_index": 0, "input": "SELECT * FROM t"}),
            completed(),
        ],
    );
    let r = acc.finish();
    assert_eq!(
        json_of(&r)["output"][0],
        json!({"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_1", "name": "grammar", "input": "SELECT * FROM t"})
    );
}

#[test]
fn reasoning_summary_parts_by_summary_index_and_reasoning_text() {
    let sum = |si: u64, d: &str| json!({"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "output_index": 0, "summary_index": si, "delta": d});
    let events = numbered(vec![
        created(),
        added(0, json!({"type": "reasoning", "id": "rs_1", "summary": []})),
        // Summary part 1 streams before part 0.
        sum(1, "Second"),
        sum(0, "First"),
        sum(1, " part"),
        json!({"type": "response.reasoning_summary_part.done", "item_id": "rs_1", "output_index": 0, "summary_index": 1, "part": {"type": "summary_text", "text": "Second part"}}),
        json!({"type": "response.reasoning_text.delta", "item_id": "rs_1", "output_index": 0, "content_index": 0, "delta": "thinking"}),
        json!({"type": "response.reasoning_summary_text.done", "item_id": "rs_1", "output_index": 0, "summary_index": 0, "text": "First"}),
        done(
            0,
            json!({"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAA", "summary": [
            {"type": "summary_text", "text": "First"}, {"type": "summary_text", "text": "Second part"}]}),
        ),
        completed(),
    ]);
    let r = run(&events);
    assert!(r.anomalies().is_empty(), "{:?}", r.anomalies());
    assert_eq!(
        json_of(&r)["output"][0],
        json!({"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAA",
            "summary": [{"type": "summary_text", "text": "First"}, {"type": "summary_text", "text": "Second part"}],
            "content": [{"type": "reasoning_text", "text": "thinking"}]})
    );
}

#[test]
fn web_and_file_search_status_from_progress_events_then_the_item() {
    let ws = |ty: &str| json!({"type": ty, "item_id": "ws_1", "output_index": 0});
    let mut acc = ResponsesAccumulator::new();
    feed(
        &mut acc,
        &numbered(vec![
            created(),
            added(
                0,
                json!({"type": "web_search_call", "id": "ws_1", "status": "in_progress"}),
            ),
            ws("response.web_search_call.in_progress"),
            ws("response.web_search_call.searching"),
        ]),
    );
    assert_eq!(acc.item(0).unwrap().status(), Some("searching"));
    feed(
        &mut acc,
        &[
            done(
                0,
                json!({"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}}),
            ),
            // A late progress event does not undo the item's final status.
            ws("response.web_search_call.searching"),
            added(
                1,
                json!({"type": "file_search_call", "id": "fs_1", "status": "in_progress", "queries": []}),
            ),
            json!({"type": "response.file_search_call.searching", "item_id": "fs_1", "output_index": 1}),
        ],
    );
    let r = acc.finish();
    assert_eq!(r.outcome(), Outcome::Truncated);
    assert_eq!(
        json_of(&r)["output"],
        json!([
            {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}},
            {"type": "file_search_call", "id": "fs_1", "status": "searching", "queries": []}
        ])
    );
}

#[test]
fn code_interpreter_code_from_deltas_outputs_from_the_item() {
    let ci = |ty: &str| json!({"type": ty, "item_id": "ci_1", "output_index": 0});
    let code = |d: &str| json!({"type": "response.code_interpreter_call_code.delta", "item_id": "ci_1", "output_index": 0, "delta": d});
    let events = numbered(vec![
        created(),
        added(
            0,
            json!({"type": "code_interpreter_call", "id": "ci_1", "status": "in_progress", "container_id": "c", "code": "", "outputs": null}),
        ),
        ci("response.code_interpreter_call.in_progress"),
        code("print("),
        code("1)\n"),
        json!({"type": "response.code_interpreter_call_code.done", "item_id": "ci_1", "output_index": 0, "code": "print(1)\n"}),
        ci("response.code_interpreter_call.interpreting"),
        ci("response.code_interpreter_call.completed"),
        done(
            0,
            json!({"type": "code_interpreter_call", "id": "ci_1", "status": "completed", "container_id": "c", "code": "print(1)\n", "outputs": [{"type": "logs", "logs": "1\n"}]}),
        ),
        completed(),
    ]);
    let mut acc = ResponsesAccumulator::new();
    feed(&mut acc, &events[..7]);
    assert_eq!(acc.item(0).unwrap().arguments(), Some("print(1)\n"));
    assert_eq!(acc.item(0).unwrap().status(), Some("interpreting"));
    feed(&mut acc, &events[7..]);
    let r = acc.finish();
    assert!(r.anomalies().is_empty(), "{:?}", r.anomalies());
    assert_eq!(
        json_of(&r)["output"][0],
        json!({"type": "code_interpreter_call", "id": "ci_1", "status": "completed", "container_id": "c", "code": "print(1)\n", "outputs": [{"type": "logs", "logs": "1\n"}]})
    );
}

#[test]
fn image_generation_partial_images_by_index_and_the_result() {
    let partial = |i: u64, b: &str| json!({"type": "response.image_generation_call.partial_image", "item_id": "ig_1", "output_index": 0, "partial_image_index": i, "partial_image_b64": b});
    let mut acc = ResponsesAccumulator::new();
    feed(
        &mut acc,
        &numbered(vec![
            created(),
            added(
                0,
                json!({"type": "image_generation_call", "id": "ig_1", "status": "in_progress"}),
            ),
            json!({"type": "response.image_generation_call.generating", "item_id": "ig_1", "output_index": 0}),
            partial(1, "BBBB"),
            partial(0, "AAAA"),
        ]),
    );
    let it = acc.item(0).unwrap();
    assert_eq!(
        it.partial_images().collect::<Vec<_>>(),
        [(0, "AAAA"), (1, "BBBB")]
    );
    assert_eq!(it.status(), Some("generating"));
    feed(
        &mut acc,
        &[
            done(
                0,
                json!({"type": "image_generation_call", "id": "ig_1", "status": "completed", "result": "CCCC", "size": "1024x1024"}),
            ),
            completed(),
        ],
    );
    let r = acc.finish();
    assert_eq!(
        json_of(&r)["output"][0],
        json!({"type": "image_generation_call", "id": "ig_1", "status": "completed", "result": "CCCC", "size": "1024x1024"})
    );
}

#[test]
fn mcp_list_tools_and_a_failed_mcp_call() {
    let events = numbered(vec![
        created(),
        added(
            0,
            json!({"type": "mcp_list_tools", "id": "mcpl_1", "server_label": "s", "tools": []}),
        ),
        json!({"type": "response.mcp_list_tools.in_progress", "item_id": "mcpl_1", "output_index": 0}),
        json!({"type": "response.mcp_list_tools.completed", "item_id": "mcpl_1", "output_index": 0}),
        done(
            0,
            json!({"type": "mcp_list_tools", "id": "mcpl_1", "server_label": "s", "tools": [{"name": "roll", "input_schema": {}}]}),
        ),
        added(
            1,
            json!({"type": "mcp_call", "id": "mcp_1", "server_label": "s", "name": "roll", "arguments": "", "status": "in_progress"}),
        ),
        json!({"type": "response.mcp_call_arguments.delta", "item_id": "mcp_1", "output_index": 1, "delta": "{\"dice\":"}),
        json!({"type": "response.mcp_call_arguments.delta", "item_id": "mcp_1", "output_index": 1, "delta": "\"2d6\"}"}),
        json!({"type": "response.mcp_call_arguments.done", "item_id": "mcp_1", "output_index": 1, "arguments": "{\"dice\":\"2d6\"}"}),
        json!({"type": "response.mcp_call.failed", "item_id": "mcp_1", "output_index": 1}),
        completed(),
    ]);
    let mut acc = ResponsesAccumulator::new();
    feed(&mut acc, &events);
    assert_eq!(
        acc.item(1).unwrap().partial_arguments(),
        Ok(Some(r#"{"dice":"2d6"}"#))
    );
    let r = acc.finish();
    assert!(r.anomalies().is_empty(), "{:?}", r.anomalies());
    assert_eq!(
        json_of(&r)["output"],
        json!([
            // The API's mcp_list_tools has no status: none is added.
            {"type": "mcp_list_tools", "id": "mcpl_1", "server_label": "s", "tools": [{"name": "roll", "input_schema": {}}]},
            {"type": "mcp_call", "id": "mcp_1", "server_label": "s", "name": "roll", "arguments": "{\"dice\":\"2d6\"}", "status": "failed"}
        ])
    );
}

#[test]
fn shell_commands_and_apply_patch_diff() {
    let cmd = |ty: &str, ci: u64, k: &str, v: &str| json!({"type": ty, "output_index": 0, "command_index": ci, k: v});
    let diff = |d: &str| json!({"type": "response.apply_patch_call_operation_diff.delta", "item_id": "apc_1", "output_index": 1, "delta": d});
    let events = numbered(vec![
        created(),
        added(
            0,
            json!({"type": "shell_call", "id": "sh_1", "call_id": "call_1", "status": "in_progress", "action": {"commands": [], "timeout_ms": null}}),
        ),
        cmd("response.shell_call_command.added", 1, "command", ""),
        cmd("response.shell_call_command.delta", 1, "delta", "pwd"),
        cmd("response.shell_call_command.added", 0, "command", ""),
        cmd("response.shell_call_command.delta", 0, "delta", "ls"),
        cmd("response.shell_call_command.delta", 0, "delta", " -a"),
        cmd("response.shell_call_command.done", 0, "command", "ls -a"),
        added(
            1,
            json!({"type": "apply_patch_call", "id": "apc_1", "call_id": "call_2", "status": "in_progress",
            "operation": {"type": "create_file", "path": "a.md", "diff": ""}}),
        ),
        diff("+hello\n"),
        diff("+world\n"),
        json!({"type": "response.apply_patch_call_operation_diff.done", "item_id": "apc_1", "output_index": 1, "diff": "+hello\n+world\n"}),
        completed(),
    ]);
    let mut acc = ResponsesAccumulator::new();
    feed(&mut acc, &events);
    assert_eq!(
        acc.item(0).unwrap().commands().collect::<Vec<_>>(),
        ["ls -a", "pwd"]
    );
    let r = acc.finish();
    assert!(r.anomalies().is_empty(), "{:?}", r.anomalies());
    assert_eq!(
        json_of(&r)["output"],
        json!([
            {"type": "shell_call", "id": "sh_1", "call_id": "call_1", "status": "in_progress", "action": {"commands": ["ls -a", "pwd"], "timeout_ms": null}},
            {"type": "apply_patch_call", "id": "apc_1", "call_id": "call_2", "status": "in_progress",
             "operation": {"type": "create_file", "path": "a.md", "diff": "+hello\n+world\n"}}
        ])
    );
}

#[test]
fn items_are_ordered_by_output_index_not_arrival() {
    let events = numbered(vec![
        created(),
        added(
            1,
            json!({"type": "message", "id": "msg_b", "role": "assistant", "content": []}),
        ),
        json!({"type": "response.output_text.delta", "item_id": "msg_b", "output_index": 1, "content_index": 0, "delta": "B"}),
        added(
            0,
            json!({"type": "message", "id": "msg_a", "role": "assistant", "content": []}),
        ),
        json!({"type": "response.output_text.delta", "item_id": "msg_a", "output_index": 0, "content_index": 0, "delta": "A"}),
        completed(),
    ]);
    let r = run(&events);
    let out = json_of(&r)["output"].clone();
    assert_eq!(out[0]["id"], "msg_a");
    assert_eq!(out[1]["id"], "msg_b");
    assert_eq!(r.output_text(), "AB");
}

#[test]
fn events_before_their_item_are_kept_and_reported() {
    let events = numbered(vec![
        created(),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "early "}),
        added(
            0,
            json!({"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress", "content": []}),
        ),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "bird"}),
        completed(),
    ]);
    let r = run(&events);
    assert_eq!(
        kinds(&r),
        [AnomalyKind::EventBeforeItem { output_index: 0 }]
    );
    assert_eq!(r.anomalies()[0].sequence_number, Some(1));
    assert_eq!(r.output_text(), "early bird");
    assert_eq!(json_of(&r)["output"][0]["role"], "assistant");
}

#[test]
fn sequence_gaps_and_regressions_are_findings_not_failures() {
    let mut events = numbered(vec![
        created(),
        added(
            0,
            json!({"type": "message", "id": "msg_1", "role": "assistant", "content": []}),
        ),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "a"}),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "b"}),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "c"}),
        completed(),
    ]);
    events[3]["sequence_number"] = json!(7); // 2, then 7: 3..=6 missing
    events[4]["sequence_number"] = json!(5); // then back to 5
    events[5]["sequence_number"] = json!(6);
    let r = run(&events);
    assert_eq!(r.outcome(), Outcome::Completed);
    assert_eq!(
        kinds(&r),
        [
            AnomalyKind::SequenceGap {
                expected: 3,
                found: 7
            },
            AnomalyKind::SequenceRegression {
                previous: 7,
                found: 5
            },
        ]
    );
    assert_eq!(r.sequence().missing, 4);
    // An event without a number after numbered ones; `[DONE]` is exempt.
    let mut unnumbered = events.clone();
    unnumbered[2]
        .as_object_mut()
        .unwrap()
        .remove("sequence_number");
    let r = run(&unnumbered);
    assert_eq!(kinds(&r)[0], AnomalyKind::MissingSequenceNumber);
    assert_eq!(r.anomalies()[0].event_index, 2);
    assert_eq!(r.sequence().unnumbered, 1);
    assert_eq!(r.sequence().regressions, 1);
    assert_eq!(r.output_text(), "abc");
}

#[test]
fn a_stream_without_a_terminal_event_is_truncated() {
    let events = numbered(vec![
        created(),
        added(
            0,
            json!({"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress", "content": []}),
        ),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "Once upon"}),
    ]);
    let r = run(&events);
    assert_eq!(r.outcome(), Outcome::Truncated);
    assert!(r.is_truncated());
    assert_eq!(r.status(), Some("in_progress"));
    assert_eq!(
        json_of(&r),
        json!({"id": "resp_1", "object": "response", "status": "in_progress", "output": [
            {"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress",
             "content": [{"type": "output_text", "text": "Once upon", "annotations": []}]}]})
    );
    // Nothing at all: still a response, still truncated.
    let empty = ResponsesAccumulator::new().finish();
    assert_eq!(empty.outcome(), Outcome::Truncated);
    assert_eq!(
        empty.json().to_string(),
        r#"{"object":"response","output":[]}"#
    );
}

#[test]
fn an_error_event_without_a_terminal_event_fails_the_response() {
    let events = numbered(vec![
        created(),
        json!({"type": "error", "code": "server_error", "message": "boom", "param": null}),
    ]);
    let r = run(&events);
    assert_eq!(r.outcome(), Outcome::Failed);
    assert_eq!(kinds(&r), [AnomalyKind::ErrorEvent]);
    let j = json_of(&r);
    assert_eq!(j["status"], "failed");
    assert_eq!(
        j["error"],
        json!({"code": "server_error", "message": "boom"})
    );
    // The nested shape of the error event.
    let r = run(&[
        json!({"type": "error", "sequence_number": 1, "error": {"type": "invalid_request_error", "code": "x", "message": "m"}}),
    ]);
    assert_eq!(
        json_of(&r)["error"],
        json!({"type": "invalid_request_error", "code": "x", "message": "m"})
    );
}

#[test]
fn failed_and_incomplete_responses() {
    let failed = run(&numbered(vec![
        created(),
        json!({"type": "response.failed", "response": {"id": "resp_1", "status": "failed", "error": {"code": "server_error", "message": "m"}}}),
    ]));
    assert_eq!(failed.outcome(), Outcome::Failed);
    assert_eq!(
        failed.error().map(ToString::to_string).as_deref(),
        Some(r#"{"code":"server_error","message":"m"}"#)
    );
    let incomplete = run(&numbered(vec![
        created(),
        json!({"type": "response.incomplete", "response": {"id": "resp_1", "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}}}),
    ]));
    assert_eq!(incomplete.outcome(), Outcome::Incomplete);
    assert_eq!(incomplete.status(), Some("incomplete"));
    assert_eq!(
        incomplete
            .incomplete_details()
            .map(ToString::to_string)
            .as_deref(),
        Some(r#"{"reason":"max_output_tokens"}"#)
    );
}

#[test]
fn a_done_text_that_contradicts_the_deltas_wins_and_is_reported() {
    let events = numbered(vec![
        created(),
        added(
            0,
            json!({"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": ""}),
        ),
        json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "{\"a\":"}),
        json!({"type": "response.function_call_arguments.done", "item_id": "fc_1", "output_index": 0, "arguments": "{\"a\":1}"}),
        // Late: ignored.
        json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "2}"}),
        // An item whose arguments differ from the events: the events win.
        done(
            0,
            json!({"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": "{}"}),
        ),
        completed(),
        completed(),
    ]);
    let mut acc = ResponsesAccumulator::new();
    feed(&mut acc, &events[..4]);
    // The live value follows the done text.
    assert_eq!(
        acc.item(0).unwrap().partial_arguments(),
        Ok(Some(r#"{"a":1}"#))
    );
    feed(&mut acc, &events[4..]);
    let r = acc.finish();
    assert_eq!(
        kinds(&r),
        [
            AnomalyKind::DoneMismatch {
                output_index: 0,
                field: "arguments"
            },
            AnomalyKind::DeltaAfterDone { output_index: 0 },
            AnomalyKind::ItemMismatch {
                output_index: 0,
                field: "arguments"
            },
            AnomalyKind::EventAfterTerminal,
            AnomalyKind::SecondTerminal,
        ]
    );
    assert_eq!(json_of(&r)["output"][0]["arguments"], "{\"a\":1}");
}

#[test]
fn an_item_id_that_disagrees_with_the_item_is_reported() {
    let r = run(&numbered(vec![
        added(0, json!({"type": "message", "id": "msg_1", "content": []})),
        json!({"type": "response.output_text.delta", "item_id": "msg_2", "output_index": 0, "content_index": 0, "delta": "x"}),
        completed(),
    ]));
    assert_eq!(kinds(&r), [AnomalyKind::ItemIdMismatch { output_index: 0 }]);
    assert_eq!(json_of(&r)["output"][0]["id"], "msg_1");
}

#[test]
fn items_only_in_the_terminal_response_are_taken_from_it() {
    let r = run(&numbered(vec![
        created(),
        json!({"type": "response.completed", "response": {"id": "resp_1", "status": "completed", "output": [
            {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text", "text": "hi", "annotations": []}]}]}}),
    ]));
    assert_eq!(
        kinds(&r),
        [AnomalyKind::ItemNotStreamed { output_index: 0 }]
    );
    assert_eq!(r.output_text(), "hi");
}

#[test]
fn limits_are_typed_errors_and_sticky() {
    let delta = json!({"type": "response.output_text.delta", "item_id": "m", "output_index": 0, "content_index": 0, "delta": "0123456789"}).to_string();
    let delta = ResponsesEvent::parse(&delta).unwrap();
    let mut config = ResponsesAccumulatorConfig::default();
    config.max_bytes = 25;
    let mut acc = ResponsesAccumulator::with_config(config);
    acc.feed(&delta).unwrap();
    acc.feed(&delta).unwrap();
    let err = acc.feed(&delta).unwrap_err();
    assert_eq!(err.kind(), AccumulateErrorKind::TooManyBytes { limit: 25 });
    assert_eq!(err.event_index(), 2);
    assert_eq!(
        err.to_string(),
        "accumulated stream exceeds 25 bytes at event 2"
    );
    assert_eq!(acc.feed(&delta).unwrap_err(), err, "sticky");
    assert_eq!(
        acc.item(0).unwrap().part_text(0),
        Some("01234567890123456789")
    );
    let r = acc.finish();
    assert_eq!(r.limit_error(), Some(err));
    assert_eq!(r.output_text(), "01234567890123456789");

    let mut config = ResponsesAccumulatorConfig::default();
    config.max_items = 2;
    let mut acc = ResponsesAccumulator::with_config(config);
    for i in 0..3u64 {
        let e = json!({"type": "response.output_item.added", "output_index": i, "item": {"type": "message", "id": format!("m{i}")}}).to_string();
        let res = acc.feed(&ResponsesEvent::parse(&e).unwrap());
        assert_eq!(res.is_err(), i == 2);
    }
    assert_eq!(acc.items().len(), 2);

    let mut config = ResponsesAccumulatorConfig::default();
    config.max_parts = 1;
    let mut acc = ResponsesAccumulator::with_config(config);
    let part = |ci: u64| {
        json!({"type": "response.output_text.delta", "item_id": "m", "output_index": 0, "content_index": ci, "delta": "x"}).to_string()
    };
    acc.feed(&ResponsesEvent::parse(&part(0)).unwrap()).unwrap();
    let err = acc
        .feed(&ResponsesEvent::parse(&part(5)).unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), AccumulateErrorKind::TooManyParts { limit: 1 });
}

#[test]
fn findings_are_bounded() {
    let mut config = ResponsesAccumulatorConfig::default();
    config.max_anomalies = 2;
    let mut acc = ResponsesAccumulator::with_config(config);
    for n in [0u64, 10, 20, 30, 40] {
        let e = json!({"type": "keepalive", "sequence_number": n}).to_string();
        acc.feed(&ResponsesEvent::parse(&e).unwrap()).unwrap();
    }
    let r = acc.finish();
    assert_eq!(r.anomalies().len(), 2);
    assert_eq!(r.anomalies_dropped(), 2);
    assert_eq!(r.sequence().missing, 36);
}

#[cfg(feature = "serde")]
#[test]
fn serialize_gives_the_same_json_as_display() {
    let r = run(&numbered(vec![
        created(),
        added(
            0,
            json!({"type": "message", "id": "msg_1", "role": "assistant", "content": []}),
        ),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "é\u{1}\"", "logprobs": [{"token": "x", "logprob": -1.5e-3}]}),
        completed(),
    ]));
    let via_serde = serde_json::to_value(&r).unwrap();
    assert_eq!(via_serde, json_of(&r));
    assert_eq!(via_serde["output"][0]["content"][0]["text"], "é\u{1}\"");
}

#[test]
fn done_sentinel_needs_no_sequence_number() {
    let mut acc = ResponsesAccumulator::new();
    feed(&mut acc, &numbered(vec![created(), completed()]));
    acc.feed(&ResponsesEvent::parse("[DONE]").unwrap()).unwrap();
    let r = acc.finish();
    assert!(r.anomalies().is_empty(), "{:?}", r.anomalies());
    assert_eq!(r.sequence().unnumbered, 1);
    assert_eq!(r.outcome(), Outcome::Completed);
}

/// Found by the `accumulate` fuzz target: an `output_item.added` after the
/// item's `output_item.done` kept the old item object but still changed the
/// byte count, so a second one subtracted past zero (a panic in debug
/// builds, a wrapped count in release).
#[test]
fn added_after_done_keeps_the_byte_count_consistent() {
    let big = r#"{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"a long text, longer than the added item","annotations":[]}]}}"#;
    let small = r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","role":"assistant","content":[]}}"#;
    let mut acc = ResponsesAccumulator::new();
    acc.feed(&ResponsesEvent::parse(big).unwrap()).unwrap();
    let after_done = acc.bytes();
    for _ in 0..3 {
        acc.feed(&ResponsesEvent::parse(small).unwrap()).unwrap();
        // The done item is what is kept: the count does not move.
        assert_eq!(acc.bytes(), after_done);
    }
    let response = acc.finish();
    let output = response
        .json()
        .get("output")
        .and_then(|o| o.as_array())
        .unwrap();
    assert_eq!(
        output[0].get("status").and_then(|s| s.as_str()),
        Some("completed")
    );
}

/// Issue 11, item 3: an item at `output_index` u64::MAX and a terminal
/// `output` listing an unstreamed item whose position is taken: no overflow
/// (a panic in builds with overflow checks, as this test build has), and
/// both items in the output, the unstreamed one after.
#[test]
fn an_item_at_u64_max_and_an_unstreamed_item_do_not_overflow() {
    let fc = |id: &str| json!({"type": "function_call", "id": id, "call_id": "c", "name": "f", "arguments": "{}"});
    let mut terminal = completed();
    terminal["response"]["output"] = json!([fc("fc_new"), fc("fc_max")]);
    let events = numbered(vec![
        created(),
        added(0, fc("fc_0")),
        added(u64::MAX, fc("fc_max")),
        done(u64::MAX, fc("fc_max")),
        terminal,
    ]);
    let r = run(&events);
    let ids = output_ids(&r);
    // fc_0 is renamed fc_new at position 0 by the terminal output: a finding,
    // and fc_0 keeps its streamed id.
    assert_eq!(ids, ["fc_0", "fc_max"], "{:?}", kinds(&r));
    assert!(kinds(&r).contains(&AnomalyKind::ItemIdMismatch { output_index: 0 }));

    // Position 0 taken by an item whose own id is listed too: the
    // unstreamed one goes after the last, which is u64::MAX (saturated).
    let mut terminal = completed();
    terminal["response"]["output"] = json!([fc("fc_new"), fc("fc_0"), fc("fc_max")]);
    let events = numbered(vec![
        created(),
        added(0, fc("fc_0")),
        added(u64::MAX, fc("fc_max")),
        terminal,
    ]);
    let r = run(&events);
    let ids = output_ids(&r);
    assert_eq!(ids, ["fc_0", "fc_max", "fc_new"]);
    assert!(kinds(&r).contains(&AnomalyKind::ItemNotStreamed {
        output_index: u64::MAX
    }));
}

/// Issue 11, item 4: an item re-added with another type, and a second item
/// with an id already used, are findings (with the event's index), not
/// silence.
#[test]
fn a_retyped_item_and_a_reused_id_are_findings() {
    let events = numbered(vec![
        created(),
        added(
            0,
            json!({"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": ""}),
        ),
        json!({"type": "response.function_call_arguments.delta", "item_id": "fc_1", "output_index": 0, "delta": "{\"a\":1}"}),
        added(
            0,
            json!({"type": "message", "id": "fc_1", "role": "assistant", "content": []}),
        ),
        added(
            1,
            json!({"type": "message", "id": "fc_1", "role": "assistant", "content": []}),
        ),
        completed(),
    ]);
    let r = run(&events);
    let found: Vec<_> = r
        .anomalies()
        .iter()
        .map(|f| (f.kind.clone(), f.event_index))
        .collect();
    assert!(
        found.contains(&(AnomalyKind::ItemTypeChanged { output_index: 0 }, 3)),
        "{found:?}"
    );
    assert!(
        found.contains(&(
            AnomalyKind::DuplicateItemId {
                output_index: 1,
                other: 0
            },
            4
        )),
        "{found:?}"
    );
    // Both items stay in the output, as sent.
    assert_eq!(json_of(&r)["output"].as_array().unwrap().len(), 2);
}

/// A terminal response whose `output` lists more items than the
/// accumulator keeps is a typed error, not unbounded work in `finish`.
#[test]
fn a_terminal_output_longer_than_max_items_is_an_error() {
    let mut terminal = completed();
    terminal["response"]["output"] = J::Array(
        (0..5)
            .map(|i| json!({"type": "message", "id": format!("m{i}"), "content": []}))
            .collect(),
    );
    let mut config = ResponsesAccumulatorConfig::default();
    config.max_items = 4;
    let mut acc = ResponsesAccumulator::with_config(config);
    let text = terminal.to_string();
    let e = acc
        .feed(&ResponsesEvent::parse(&text).unwrap())
        .unwrap_err();
    assert_eq!(e.kind(), AccumulateErrorKind::TooManyItems { limit: 4 });
}

/// Issue 11, item 3: sequence numbers an attacker picks cannot overflow the
/// gap count. Since issue 13 a gap is measured from the highest number so
/// far (`responses::order`), so the count never exceeds the highest number:
/// climbing back to `max - 1` after a regression is no second gap.
#[test]
fn huge_sequence_gaps_saturate_the_count() {
    let max = u64::MAX;
    let mut events = Vec::new();
    for n in [0, max - 1, 0, max - 1, max] {
        let mut e = json!({"type": "keepalive"});
        e["sequence_number"] = json!(n);
        events.push(e);
    }
    let r = run(&events[..4]);
    let s = r.sequence();
    assert_eq!((s.missing, s.regressions, s.numbered), (max - 2, 1, 4));
    let s = run(&events).sequence();
    assert_eq!((s.missing, s.regressions, s.numbered), (max - 2, 1, 5));
}
