//! Unit tests of the rules: for each, a stream that breaks it; the baseline
//! stream, which every test starts from, breaks none.

use super::*;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;
use bytes::Bytes;
use serde_json::{json, Value as J};

/// A stream in the shape the API sends: a message with one output_text
/// part (text with quotes, newlines and non-ASCII), a reasoning item with a
/// summary part, a function call with argument deltas, and the terminal
/// response listing the three items.
fn baseline() -> Vec<J> {
    let msg = "msg_1";
    vec![
        json!({"type":"response.created","response":{"id":"resp_1","status":"in_progress","output":[]}}),
        json!({"type":"response.in_progress","response":{"id":"resp_1","status":"in_progress","output":[]}}),
        json!({"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}),
        json!({"type":"response.reasoning_summary_part.added","item_id":"rs_1","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}}),
        json!({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"Think"}),
        json!({"type":"response.reasoning_summary_text.done","item_id":"rs_1","output_index":0,"summary_index":0,"text":"Think"}),
        json!({"type":"response.reasoning_summary_part.done","item_id":"rs_1","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":"Think"}}),
        json!({"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}),
        json!({"type":"response.output_item.added","output_index":1,"item":{"id":msg,"type":"message","role":"assistant","content":[]}}),
        json!({"type":"response.content_part.added","item_id":msg,"output_index":1,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}}),
        json!({"type":"response.output_text.delta","item_id":msg,"output_index":1,"content_index":0,"delta":"Hi \"you\"\n"}),
        json!({"type":"response.output_text.delta","item_id":msg,"output_index":1,"content_index":0,"delta":"café ☕"}),
        json!({"type":"response.output_text.done","item_id":msg,"output_index":1,"content_index":0,"text":"Hi \"you\"\ncafé ☕"}),
        json!({"type":"response.content_part.done","item_id":msg,"output_index":1,"content_index":0,"part":{"type":"output_text","text":"Hi \"you\"\ncafé ☕","annotations":[]}}),
        json!({"type":"response.output_item.done","output_index":1,"item":{"id":msg,"type":"message","role":"assistant","content":[]}}),
        json!({"type":"response.output_item.added","output_index":2,"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"f","arguments":""}}),
        json!({"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":2,"delta":"{\"a\":"}),
        json!({"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":2,"delta":"1}"}),
        json!({"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":2,"arguments":"{\"a\":1}"}),
        json!({"type":"response.output_item.done","output_index":2,"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"f","arguments":"{\"a\":1}"}}),
        json!({"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[
            {"id":"rs_1","type":"reasoning"},{"id":msg,"type":"message"},{"id":"fc_1","type":"function_call"}]}}),
    ]
}

/// Index of the first event of this type in the baseline.
fn at(events: &[J], ty: &str) -> usize {
    events
        .iter()
        .position(|e| e["type"] == ty)
        .unwrap_or_else(|| panic!("no {ty}"))
}

/// Writes the events as a stream: `event:` the `type` (or `__event` when
/// given), `sequence_number` the position unless the event sets one (a JSON
/// null removes it); a JSON string is written as raw data.
fn stream(events: &[J]) -> String {
    let mut out = String::new();
    for (i, e) in events.iter().enumerate() {
        let mut e = e.clone();
        if let J::String(raw) = &e {
            out.push_str(&alloc::format!("data: {raw}\n\n"));
            continue;
        }
        let obj = e.as_object_mut().unwrap();
        let name = obj.remove("__event").or_else(|| obj.get("type").cloned());
        match obj.get("sequence_number") {
            None => {
                obj.insert("sequence_number".into(), json!(i));
            }
            Some(J::Null) => {
                obj.remove("sequence_number");
            }
            Some(_) => {}
        }
        if let Some(J::String(name)) = name {
            out.push_str(&alloc::format!("event: {name}\n"));
        }
        out.push_str(&alloc::format!(
            "data: {}\n\n",
            serde_json::to_string(&e).unwrap()
        ));
    }
    out
}

fn ids(events: &[J]) -> Vec<&'static str> {
    lint_bytes(ResponsesLinter::new(), stream(events).as_bytes())
        .iter()
        .map(|f| f.rule().id())
        .collect()
}

fn findings(events: &[J]) -> Vec<Finding> {
    lint_bytes(ResponsesLinter::new(), stream(events).as_bytes())
}

#[test]
fn baseline_is_clean() {
    assert_eq!(findings(&baseline()), []);
}

#[test]
fn findings_are_the_same_however_the_bytes_are_chunked() {
    let mut events = baseline();
    events.swap(10, 11); // out-of-order deltas: done-mismatch
    events.insert(3, J::String("{oops".into()));
    let text = stream(&events);
    let whole = lint_bytes(ResponsesLinter::new(), text.as_bytes());
    assert_eq!(whole.len(), 3, "{whole:?}");
    for size in [1, 2, 3, 7, 64] {
        let mut linter = StreamLinter::new();
        for chunk in text.as_bytes().chunks(size) {
            linter.feed(Bytes::copy_from_slice(chunk));
        }
        linter.finish();
        let chunked: Vec<Finding> = linter.drain().collect();
        assert_eq!(chunked, whole, "chunks of {size}");
    }
}

#[test]
fn offsets_are_where_each_block_begins() {
    let mut events = baseline();
    let d = at(&events, "response.output_text.delta");
    events[d]["item_id"] = json!("msg_x");
    // A BOM, blank lines and a comment before the first event.
    let text = alloc::format!("\u{feff}\n\r\n: hi\n\n{}", stream(&events));
    let found = lint_bytes(ResponsesLinter::new(), text.as_bytes());
    let unknown = found
        .iter()
        .find(|f| f.rule() == Rule::UnknownItem)
        .unwrap();
    let rest = &text[unknown.offset() as usize..];
    assert!(
        rest.starts_with("event: response.output_text.delta\ndata: {"),
        "{rest:.60}"
    );
    assert!(rest.contains("msg_x"));
    assert_eq!(unknown.sequence_number(), Some(d as u64));
    // With no findings before, the stream's first event would be at:
    let mut events = baseline();
    events.remove(0);
    let text = alloc::format!("\u{feff}\n\r\n{}", stream(&events));
    let found = lint_bytes(ResponsesLinter::new(), text.as_bytes());
    assert_eq!(found[0].rule(), Rule::CreatedNotFirst);
    assert_eq!(found[0].offset(), 6);
}

#[test]
fn sse_error_for_a_truncated_tail() {
    let text = stream(&baseline()) + "data: {\"type\"";
    let found = lint_bytes(ResponsesLinter::new(), text.as_bytes());
    let rules: Vec<_> = found.iter().map(|f| f.rule().id()).collect();
    assert_eq!(rules, ["sse-error"]);
    assert_eq!(found[0].offset(), stream(&baseline()).len() as u64);
}

#[test]
fn invalid_json_and_not_an_object() {
    let mut events = baseline();
    events.insert(2, J::String("{\"type\":".into()));
    events.insert(2, J::String("[1,2]".into()));
    // The two raw events take sequence numbers 2 and 3 in `stream`.
    assert_eq!(
        ids(&events),
        ["invalid-json", "invalid-json", "sequence-gap"]
    );
}

#[test]
fn missing_type() {
    let mut events = baseline();
    events[1].as_object_mut().unwrap().remove("type");
    assert_eq!(ids(&events), ["missing-type"]);
}

#[test]
fn event_name_mismatch_but_no_event_name_is_fine() {
    let mut events = baseline();
    events[1]["__event"] = json!("response.created");
    assert_eq!(ids(&events), ["event-name-mismatch"]);
    let data_only = stream(&baseline())
        .lines()
        .filter(|l| !l.starts_with("event:"))
        .map(|l| alloc::format!("{l}\n"))
        .collect::<String>();
    assert_eq!(lint_bytes(ResponsesLinter::new(), data_only.as_bytes()), []);
}

#[test]
fn invalid_event_for_a_missing_required_field() {
    let mut events = baseline();
    let d = at(&events, "response.function_call_arguments.done");
    events[d].as_object_mut().unwrap().remove("arguments");
    assert_eq!(ids(&events), ["invalid-event"]);
}

/// Issue 13: a field of the wrong kind inside a lazy payload (the item) is
/// still an invalid event, with the message of an eager decode.
#[test]
fn invalid_event_for_a_wrong_kind_inside_the_item() {
    let mut events = baseline();
    let d = at(&events, "response.output_item.done");
    events[d]["item"]["status"] = json!(5);
    let found = findings(&events);
    let rules: Vec<_> = found.iter().map(|f| f.rule().id()).collect();
    assert_eq!(rules, ["invalid-event"]);
    assert!(
        found[0].message().starts_with(
            "`response.output_item.done` does not decode: wrong type for field `status` at byte"
        ),
        "{}",
        found[0].message()
    );
    assert!(found[0]
        .message()
        .ends_with(" in response.output_item.done"));
}

#[test]
fn unknown_event_type_and_done_sentinel_are_information() {
    let mut events = baseline();
    events.insert(2, json!({"type":"response.future_thing"}));
    events.push(J::String("[DONE]".into()));
    let found = findings(&events);
    let rules: Vec<_> = found
        .iter()
        .map(|f| (f.rule().id(), f.severity()))
        .collect();
    assert_eq!(
        rules,
        [
            ("unknown-event-type", Severity::Info),
            ("done-sentinel", Severity::Info)
        ]
    );
    assert!(!has_errors(&found));
}

#[test]
fn missing_sequence_numbers() {
    // None at all: one warning.
    let none: Vec<J> = baseline()
        .into_iter()
        .map(|mut e| {
            e["sequence_number"] = J::Null;
            e
        })
        .collect();
    let found = findings(&none);
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].rule(), found[0].severity(), found[0].offset()),
        (Rule::MissingSequenceNumber, Severity::Warning, 0)
    );
    // One missing in a numbered stream: reported, and the gap it leaves.
    let mut events = baseline();
    events[5]["sequence_number"] = J::Null;
    assert_eq!(ids(&events), ["missing-sequence-number", "sequence-gap"]);
}

#[test]
fn sequence_not_increasing_and_gap() {
    let mut events = baseline();
    events[2]["sequence_number"] = json!(3);
    events[3]["sequence_number"] = json!(2);
    let found = findings(&events);
    let rules: Vec<_> = found
        .iter()
        .map(|f| (f.rule().id(), f.sequence_number()))
        .collect();
    assert_eq!(
        rules,
        [
            ("sequence-gap", Some(3)),
            ("sequence-not-increasing", Some(2))
        ]
    );
    let mut events = baseline();
    for (i, e) in events.iter_mut().enumerate().skip(4) {
        e["sequence_number"] = json!(i + 2);
    }
    assert_eq!(ids(&events), ["sequence-gap"]);
    assert_eq!(findings(&events)[0].severity(), Severity::Warning);
}

#[test]
fn created_not_first() {
    let mut events = baseline();
    events.remove(0);
    for (i, e) in events.iter_mut().enumerate() {
        e["sequence_number"] = json!(i + 1);
    }
    assert_eq!(ids(&events), ["created-not-first"]);
}

#[test]
fn missing_item_id() {
    let mut events = baseline();
    let d = at(&events, "response.output_text.delta");
    events[d].as_object_mut().unwrap().remove("item_id");
    // Found by output_index after the report, so nothing else breaks.
    assert_eq!(ids(&events), ["missing-item-id"]);
}

#[test]
fn unknown_item() {
    let mut events = baseline();
    let d = at(&events, "response.reasoning_summary_text.delta");
    events[d]["item_id"] = json!("rs_other");
    // The delta is lost, so the done event no longer matches.
    assert_eq!(ids(&events), ["unknown-item", "done-mismatch"]);
    let mut events = baseline();
    let d = at(&events, "response.output_item.done");
    events[d]["item"]["id"] = json!("rs_other");
    assert_eq!(ids(&events), ["unknown-item", "item-not-done"]);
}

#[test]
fn duplicate_item() {
    let mut events = baseline();
    let a = at(&events, "response.output_item.added");
    let again = events[a].clone();
    events.insert(a + 1, again);
    assert_eq!(ids(&events), ["duplicate-item"]);
}

#[test]
fn output_index_mismatch() {
    let mut events = baseline();
    let d = at(&events, "response.function_call_arguments.delta");
    events[d]["output_index"] = json!(0);
    assert_eq!(ids(&events), ["output-index-mismatch"]);
    // An item added at the wrong index; its events agree with it.
    let mut events = baseline();
    for e in &mut events {
        if e["output_index"] == 2 {
            e["output_index"] = json!(3);
        }
    }
    assert_eq!(ids(&events), ["output-index-mismatch"]);
}

#[test]
fn event_after_item_done() {
    let mut events = baseline();
    let d = at(&events, "response.output_item.done");
    let late = json!({"type":"response.reasoning_summary_part.added","item_id":"rs_1","output_index":0,"summary_index":1,"part":{"type":"summary_text","text":""}});
    events.insert(d + 1, late);
    assert_eq!(ids(&events), ["event-after-item-done"]);
    // A delta after its text's done event.
    let mut events = baseline();
    let d = at(&events, "response.function_call_arguments.done");
    let delta = events[d - 1].clone();
    events.insert(d + 1, delta);
    assert_eq!(ids(&events), ["event-after-item-done"]);
}

#[test]
fn part_not_added() {
    let mut events = baseline();
    let p = at(&events, "response.content_part.added");
    events.remove(p);
    // Once for the text (two deltas and a done), once for the part done.
    assert_eq!(ids(&events), ["part-not-added", "part-not-added"]);
    let mut events = baseline();
    let p = at(&events, "response.reasoning_summary_part.added");
    events[p]["summary_index"] = json!(1);
    let found = findings(&events);
    let rules: Vec<_> = found.iter().map(|f| f.rule().id()).collect();
    // The summary text is for part 0; part 1 is added and never done.
    assert_eq!(rules, ["part-not-added", "part-not-added", "item-not-done"]);
    assert!(
        found[0].message().contains("summary part 0"),
        "{}",
        found[0]
    );
}

#[test]
fn done_mismatch_compares_unescaped_text() {
    let mut events = baseline();
    let d = at(&events, "response.output_text.done");
    events[d]["text"] = json!("Hi \"you\"\ncafe ☕");
    let found = findings(&events);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].rule(), Rule::DoneMismatch);
    assert!(
        found[0].message().contains("from character 12"),
        "{}",
        found[0]
    );
    // The same text written with other escapes is equal.
    let mut events = baseline();
    let d = at(&events, "response.output_text.done");
    events[d] = J::String(
        r#"{"type":"response.output_text.done","item_id":"msg_1","output_index":1,"content_index":0,"text":"Hi \u0022you\"\u000acaf\u00e9 \u2615","sequence_number":12}"#
            .into(),
    );
    assert_eq!(ids(&events), [""; 0]);
    // A done event with text but no deltas.
    let mut events = baseline();
    events.retain(|e| e["type"] != "response.function_call_arguments.delta");
    for (i, e) in events.iter_mut().enumerate() {
        e["sequence_number"] = json!(i);
    }
    assert_eq!(ids(&events), ["done-mismatch"]);
}

#[test]
fn item_not_done() {
    let mut events = baseline();
    let d = at(&events, "response.function_call_arguments.done") + 1;
    events.remove(d);
    assert_eq!(ids(&events), ["item-not-done"]);
    let mut events = baseline();
    let p = at(&events, "response.content_part.done");
    events.remove(p);
    assert_eq!(ids(&events), ["item-not-done"]);
}

#[test]
fn missing_terminal_and_error_event() {
    let mut events = baseline();
    events.pop();
    let found = findings(&events);
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].rule(), found[0].severity()),
        (Rule::MissingTerminal, Severity::Error)
    );
    assert_eq!(found[0].offset(), stream(&events).len() as u64);
    // After an `error` event, only a warning: the client was told.
    events.push(json!({"type":"error","code":"server_error","message":"boom","param":null}));
    let found = findings(&events);
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].rule(), found[0].severity()),
        (Rule::MissingTerminal, Severity::Warning)
    );
    assert!(!has_errors(&found));
    // `error` then `response.failed`, as the API sends, is clean.
    events.push(json!({"type":"response.failed","response":{"id":"resp_1","status":"failed","output":[
        {"id":"rs_1","type":"reasoning"},{"id":"msg_1","type":"message"},{"id":"fc_1","type":"function_call"}],
        "error":{"code":"server_error","message":"boom"}}}));
    assert_eq!(ids(&events), [""; 0]);
}

#[test]
fn multiple_terminal_and_event_after_terminal() {
    let mut events = baseline();
    let last = events.last().unwrap().clone();
    events.push(last);
    assert_eq!(ids(&events), ["multiple-terminal"]);
    let mut events = baseline();
    events.push(json!({"type":"response.in_progress","response":{"id":"resp_1"}}));
    events.push(J::String("[DONE]".into()));
    assert_eq!(ids(&events), ["event-after-terminal", "done-sentinel"]);
}

#[test]
fn terminal_output_mismatch() {
    let mut events = baseline();
    let last = events.len() - 1;
    events[last]["response"]["output"]
        .as_array_mut()
        .unwrap()
        .pop();
    assert_eq!(ids(&events), ["terminal-output-mismatch"]);
    let mut events = baseline();
    events[last]["response"]["output"]
        .as_array_mut()
        .unwrap()
        .swap(0, 1);
    let found = findings(&events);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].message().contains("output[0] is message `msg_1`"),
        "{}",
        found[0]
    );
    assert!(found[0].message().contains("and 1 more"), "{}", found[0]);
    let mut events = baseline();
    events[last]["response"]
        .as_object_mut()
        .unwrap()
        .remove("output");
    let found = findings(&events);
    assert_eq!(
        found
            .iter()
            .map(|f| (f.rule(), f.severity()))
            .collect::<Vec<_>>(),
        [(Rule::TerminalOutputMismatch, Severity::Warning)]
    );
}

#[test]
fn response_id_mismatch() {
    let mut events = baseline();
    let last = events.len() - 1;
    events[last]["response"]["id"] = json!("resp_2");
    assert_eq!(ids(&events), ["response-id-mismatch"]);
}

fn lint_with(config: LintConfig, events: &[J]) -> Vec<Finding> {
    let mut linter = StreamLinter::with_config(crate::ParserConfig::DEFAULT, config);
    linter.feed(Bytes::from(stream(events)));
    linter.finish();
    linter.drain().collect()
}

#[test]
fn limits_stop_checks_with_information_not_errors() {
    // Items: the second and third items are not tracked, and not reported.
    let found = lint_with(LintConfig::DEFAULT.with_max_items(1), &baseline());
    let rules: Vec<_> = found.iter().map(|f| f.rule().id()).collect();
    assert_eq!(rules, ["limit-reached", "limit-reached"], "{found:?}");
    assert!(!has_errors(&found));
    // Text. Kept: ids and types (rs_1 reasoning 13, msg_1 message 12,
    // fc_1 function_call 17 bytes) and open delta text. Under a 42-byte cap
    // the message's 18 bytes of text (13 + 12 + 18 = 43) and the call's 7
    // (42 + 7) do not fit, the summary's 5 do.
    let mut events = baseline();
    let d = at(&events, "response.reasoning_summary_text.done");
    events[d]["text"] = json!("Thinx");
    let found = lint_with(LintConfig::DEFAULT.with_max_text_bytes(42), &events);
    let got: Vec<_> = found
        .iter()
        .map(|f| (f.rule().id(), f.severity()))
        .collect();
    assert_eq!(
        got,
        [
            ("done-mismatch", Severity::Error),
            ("limit-reached", Severity::Info),
            ("limit-reached", Severity::Info)
        ],
        "{found:?}"
    );
    assert!(
        found[1]
            .message()
            .contains("output_text text of item msg_1"),
        "{}",
        found[1]
    );
    assert!(found[2]
        .message()
        .contains("function_call_arguments text of item fc_1"));
    // Ids count too: past 20 bytes, msg_1 and fc_1 are not tracked.
    let found = lint_with(LintConfig::DEFAULT.with_max_text_bytes(20), &baseline());
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found[0]
            .message()
            .contains("more than 20 bytes of ids and text"),
        "{}",
        found[0]
    );
    assert_eq!(found[1].rule(), Rule::LimitReached); // the output is not compared
                                                     // A huge id is cut short in messages.
    let mut events = baseline();
    let d = at(&events, "response.output_text.delta");
    events[d]["item_id"] = json!("x".repeat(100_000));
    let found = findings(&events);
    assert_eq!(found[0].rule(), Rule::UnknownItem);
    assert!(found[0].message().len() < 500 && found[0].message().ends_with('…'));
    // Parts.
    let found = lint_with(LintConfig::DEFAULT.with_max_parts(1), &baseline());
    assert!(
        found.iter().all(|f| f.rule() == Rule::LimitReached),
        "{found:?}"
    );
    // Findings: the rest are summarised with the worst severity.
    let mut events = baseline();
    for e in &mut events {
        e["__event"] = json!("x");
    }
    let found = lint_with(LintConfig::DEFAULT.with_max_findings(2), &events);
    assert_eq!(found.len(), 3);
    assert_eq!(
        (found[2].rule(), found[2].severity()),
        (Rule::LimitReached, Severity::Error)
    );
    assert!(
        found[2].message().starts_with("19 more finding(s)"),
        "{}",
        found[2]
    );
}

#[test]
fn linter_counts_and_frame_errors() {
    let mut linter = ResponsesLinter::new();
    let err = crate::FrameError::new(crate::FrameErrorKind::EventTooLarge { limit: 4 }, 9);
    linter.frame_error(&err);
    linter.finish();
    assert_eq!(linter.count(Severity::Error), 2);
    let found: Vec<_> = linter.drain().collect();
    assert_eq!(found[0].rule(), Rule::SseError);
    assert_eq!(found[0].offset(), 9);
    assert_eq!(found[1].rule(), Rule::MissingTerminal);
    assert_eq!(found[1].offset(), 9);
    assert!(found[0]
        .to_string()
        .contains("event data larger than 4 bytes at byte 9"));
    linter.finish();
    assert!(linter.next_finding().is_none());
}

#[test]
fn shell_command_events_are_matched_by_output_index() {
    let events = vec![
        json!({"type":"response.created","response":{"id":"r"}}),
        json!({"type":"response.output_item.added","output_index":0,"item":{"id":"sh_1","type":"shell_call"}}),
        json!({"type":"response.shell_call_command.added","output_index":0,"command_index":0,"command":""}),
        json!({"type":"response.shell_call_command.delta","output_index":0,"command_index":0,"delta":"ls"}),
        json!({"type":"response.shell_call_command.done","output_index":0,"command_index":0,"command":"ls"}),
        json!({"type":"response.output_item.done","output_index":0,"item":{"id":"sh_1","type":"shell_call"}}),
        json!({"type":"response.completed","response":{"id":"r","output":[{"id":"sh_1","type":"shell_call"}]}}),
    ];
    assert_eq!(ids(&events), [""; 0]);
    let mut bad = events.clone();
    bad[3]["output_index"] = json!(1);
    assert_eq!(ids(&bad), ["unknown-item", "done-mismatch"]);
    let mut bad = events;
    bad.remove(2);
    for (i, e) in bad.iter_mut().enumerate() {
        e["sequence_number"] = json!(i);
    }
    assert_eq!(ids(&bad), ["part-not-added"]);
}

#[test]
fn rule_table_in_the_docs_lists_every_rule() {
    let docs = include_str!("mod.rs");
    for rule in Rule::ALL {
        let row = alloc::format!("//! | `{}` | {} |", rule.id(), rule.default_severity());
        assert!(docs.contains(&row), "no row for {}", rule.id());
    }
    let rows = docs.lines().filter(|l| l.starts_with("//! | `")).count();
    assert_eq!(rows, Rule::ALL.len());
    let _ = "".to_string();
}

#[test]
fn a_failed_response_may_leave_items_open_with_warnings() {
    let mut events = baseline();
    let d = at(&events, "response.function_call_arguments.delta");
    events.truncate(d + 1);
    let failed = json!({"type":"response.failed","response":{"id":"resp_1","status":"failed","output":[],
        "error":{"code":"server_error","message":"boom"}}});
    events.push(failed);
    let found = findings(&events);
    let got: Vec<_> = found
        .iter()
        .map(|f| (f.rule().id(), f.severity()))
        .collect();
    assert_eq!(
        got,
        [
            ("item-not-done", Severity::Warning),
            ("terminal-output-mismatch", Severity::Warning)
        ]
    );
    assert!(!has_errors(&found));
    // The same end as `response.completed` is an error.
    let last = events.len() - 1;
    events[last]["type"] = json!("response.completed");
    let rules: Vec<_> = findings(&events).iter().map(|f| f.severity()).collect();
    assert_eq!(rules, [Severity::Error, Severity::Error]);
}

#[test]
fn an_added_event_without_item_still_takes_its_index() {
    let mut events = baseline();
    let a = at(&events, "response.output_item.added");
    events[a].as_object_mut().unwrap().remove("item");
    let rules = ids(&events);
    // The item's events are unknown, but the next items' indexes are right.
    assert_eq!(rules[0], "invalid-event");
    assert!(!rules.contains(&"output-index-mismatch"), "{rules:?}");
}

#[test]
fn a_block_begins_at_its_first_line_comments_and_all() {
    // Found by the fuzzer: a comment inside a block (after its data line)
    // moved the block's start for whole input but not byte by byte.
    let text = "data: {oops\n: keep-alive\n\n\n\r\n: c\nevent: x\r\ndata: {\"type\":\"y\"}\r\r\u{feff}x: 1\ndata: [1]\n\n";
    let whole = lint_bytes(ResponsesLinter::new(), text.as_bytes());
    let offsets: Vec<_> = whole.iter().map(|f| (f.rule().id(), f.offset())).collect();
    let second = text.find(": c").unwrap() as u64;
    let third = text.rfind('\u{feff}').unwrap() as u64; // not a BOM here: a line
    assert_eq!(
        offsets,
        [
            ("invalid-json", 0),
            ("missing-sequence-number", second),
            ("event-name-mismatch", second),
            ("unknown-event-type", second),
            ("created-not-first", second),
            ("invalid-json", third),
            ("missing-terminal", text.len() as u64)
        ]
    );
    for size in 1..8 {
        let mut linter = StreamLinter::new();
        for chunk in text.as_bytes().chunks(size) {
            linter.feed(Bytes::copy_from_slice(chunk));
        }
        linter.finish();
        assert_eq!(
            linter.drain().collect::<Vec<_>>(),
            whole,
            "chunks of {size}"
        );
    }
    // A BOM at the start is not part of the first line.
    let text = "\u{feff}\ndata: {oops\n\n";
    for size in 1..5 {
        let mut linter = StreamLinter::new();
        for chunk in text.as_bytes().chunks(size) {
            linter.feed(Bytes::copy_from_slice(chunk));
        }
        linter.finish();
        assert_eq!(
            linter.next_finding().unwrap().offset(),
            4,
            "chunks of {size}"
        );
    }
}

#[test]
fn linters_and_findings_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<ResponsesLinter>();
    check::<StreamLinter>();
    check::<Finding>();
}
