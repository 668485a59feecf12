//! Issue 11, items 2 and 5: each dialect's view against `serde_json::Value`
//! on the same data, with the rules of `support/differential.rs` (the same
//! check the `differential` fuzz target runs):
//!
//! * the hand-written hostile cases of `support/differential-hostile.tsv`
//!   (duplicate and escaped `type` keys and values, nested `delta.type`,
//!   numbers at and beyond the `f64` range, lone surrogates);
//! * every event of every recorded stream of the corpus.
//!
//! The table tags each case with what it exercises (`pass`: agreed before
//! issue 11; `issue11`: duplicate and escaped types, numbers out of range;
//! `surrogate`: lone surrogate escapes); every tag must agree.

use crate::corpus;
use crate::differential;

use differential::{check, dialect_of_stream, Dialect};
use ssekit::anthropic::{BlockDelta, Citation, ContentBlock};
use ssekit::responses::{Annotation, ContentPart, OutputItem};
use ssekit::{Bytes, Parser};

/// One hand-written case: its status in the table, dialect, event name, data.
struct Case {
    line: usize,
    status: &'static str,
    dialect: Dialect,
    event: Option<&'static str>,
    data: &'static str,
}

/// The hostile cases (see the table's header for its columns).
fn hostile_cases() -> Vec<Case> {
    include_str!("../support/differential-hostile.tsv")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let cols: Vec<&str> = l.splitn(4, '\t').collect();
            let [status, dialect, event, data] = cols[..] else {
                panic!("line {}: not four columns: {l}", i + 1);
            };
            let dialect = match dialect {
                "responses" => Dialect::Responses,
                "chat" => Dialect::Chat,
                "anthropic" => Dialect::Anthropic,
                other => panic!("line {}: unknown dialect {other}", i + 1),
            };
            assert!(
                matches!(status, "pass" | "issue11" | "surrogate"),
                "line {}: unknown status {status}",
                i + 1
            );
            let event = (event != "-").then_some(event);
            Case {
                line: i + 1,
                status,
                dialect,
                event,
                data,
            }
        })
        .collect()
}

/// Checks the hostile cases of one status; every disagreement is listed.
fn check_hostile(status: &str) {
    let cases: Vec<Case> = hostile_cases()
        .into_iter()
        .filter(|c| c.status == status)
        .collect();
    assert!(!cases.is_empty(), "no {status} cases");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            check(c.dialect, c.event, c.data)
                .err()
                .map(|e| format!("line {}: {e}", c.line))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} {status} cases disagree with serde_json:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The hostile cases on which the views already agree with `serde_json`:
/// duplicate fields (last wins), escaped keys, `type` checked against the
/// SSE event name, numbers at the edge of the `f64` range, huge integers.
#[test]
fn hostile_cases_agree_with_serde_json() {
    check_hostile("pass");
}

/// Duplicate `type` members (the view must read the last, as `serde_json`
/// does), escaped type values (`"text_d\u0065lta"`, compared unescaped), at
/// the top level and in nested `delta`, `content_block`, `item` and `part`;
/// Chat's duplicate `error`; numbers out of `f64` range (`9e436`,
/// `-3.41e666`, `1.7976931348623159e308`), which `serde_json` rejects.
#[test]
fn hostile_cases_fixed_by_issue_11_items_2_and_5() {
    check_hostile("issue11");
}

/// Lone surrogate escapes (`"\ud800"`) in values and keys: rejected, as
/// `serde_json` rejects them.
#[test]
fn hostile_lone_surrogates_rejected_as_serde_json_does() {
    check_hostile("surrogate");
}

/// Every event of every corpus stream, decoded with its event name (if it
/// has one) and without: real data must agree everywhere.
#[test]
fn every_corpus_event_agrees_with_serde_json() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let mut events = 0;
    let mut failures = Vec::new();
    for (name, bytes) in corpus::sse_files(&dir) {
        let Some(dialect) = dialect_of_stream(&name) else {
            continue;
        };
        let mut parser = Parser::new();
        parser.feed(Bytes::from(bytes));
        let mut frames = Vec::new();
        while let Some(frame) = parser.next_frame().expect("frames") {
            frames.push(frame);
        }
        parser.finish().expect("finish");
        for (i, frame) in frames.iter().enumerate() {
            let event = frame.has_event_type().then(|| frame.event());
            for event in [event, None] {
                if let Err(e) = check(dialect, event, frame.data()) {
                    failures.push(format!("{name} #{i}: {e}"));
                }
            }
            events += 1;
        }
    }
    assert!(events > 1000, "only {events} events in {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Rule 6 tells an `Other` nested object by its empty field list: every
/// modeled variant of every tagged enum must have fields.
#[test]
fn every_tagged_variant_has_fields() {
    type FieldsOf = fn(&str) -> &'static [&'static str];
    let enums: [(&str, &[&str], FieldsOf); 6] = [
        ("OutputItem", OutputItem::TYPES, OutputItem::fields_of),
        ("ContentPart", ContentPart::TYPES, ContentPart::fields_of),
        ("Annotation", Annotation::TYPES, Annotation::fields_of),
        ("ContentBlock", ContentBlock::TYPES, ContentBlock::fields_of),
        ("BlockDelta", BlockDelta::TYPES, BlockDelta::fields_of),
        ("Citation", Citation::TYPES, Citation::fields_of),
    ];
    for (name, types, fields_of) in enums {
        for ty in types {
            assert!(!fields_of(ty).is_empty(), "{name}::{ty} has no fields");
        }
    }
}

/// The fuzz input layout round-trips, so the seeds say what the test says.
#[test]
fn fuzz_inputs_round_trip() {
    for c in hostile_cases() {
        let input = differential::encode_input(c.dialect, c.event, c.data);
        let (dialect, event, data) = differential::decode_input(&input).unwrap();
        assert_eq!(
            (dialect, event.as_deref(), data.as_str()),
            (c.dialect, c.event, c.data)
        );
    }
}

/// Issue 14: valid JSON is never an error. Objects that do not fit their type
/// (a field missing or of the wrong kind, no `type`, a `type` the SSE event
/// name contradicts) agree with serde_json under rules 7 and 8, on every
/// decode path; each of them is `Unknown` with an error, so the rules ran.
/// Objects nested to the JSON layer's depth limit and past it: an error only
/// where serde_json rejects them too.
#[test]
fn objects_that_do_not_fit_are_unknown_not_errors() {
    use ssekit::anthropic::AnthropicEvent;
    use ssekit::chat::ChatEvent;
    use ssekit::responses::ResponsesEvent;
    let cases = [
        (
            Dialect::Responses,
            None,
            r#"{"type":"response.output_text.delta"}"#,
        ),
        (
            Dialect::Responses,
            Some("response.output_text.delta"),
            r#"{"type":"response.output_text.done","item_id":"m","output_index":0,"content_index":0,"text":"t"}"#,
        ),
        (Dialect::Responses, None, r#"{"delta":"x"}"#),
        (Dialect::Responses, None, r#" {"type":7} "#),
        (
            Dialect::Responses,
            None,
            r#"{"type":"response.completed","response":[]}"#,
        ),
        (
            Dialect::Anthropic,
            None,
            r#"{"type":"content_block_stop","index":"0"}"#,
        ),
        (
            Dialect::Anthropic,
            Some("message_stop"),
            r#"{"type":"ping"}"#,
        ),
        (Dialect::Anthropic, None, r#"{"index":1}"#),
        (
            Dialect::Chat,
            None,
            r#"{"id":"c","created":"x","choices":[]}"#,
        ),
    ];
    for (dialect, event, data) in cases {
        check(dialect, event, data).unwrap_or_else(|e| panic!("{e}"));
        let unfit = match (dialect, event) {
            (Dialect::Responses, Some(name)) => ResponsesEvent::parse_named(name, data)
                .unwrap()
                .decode_error(),
            (Dialect::Responses, None) => ResponsesEvent::parse(data).unwrap().decode_error(),
            (Dialect::Anthropic, Some(name)) => AnthropicEvent::parse_named(name, data)
                .unwrap()
                .decode_error(),
            (Dialect::Anthropic, None) => AnthropicEvent::parse(data).unwrap().decode_error(),
            (Dialect::Chat, _) => ChatEvent::parse(data).unwrap().decode_error(),
        };
        assert!(
            unfit.is_some(),
            "{dialect:?} {data}: not Unknown with an error"
        );
    }
    for depth in [120, 126, 127, 128, 129, 200] {
        let data = format!(
            r#"{{"type":"response.output_text.delta","x":{}{}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        );
        for dialect in Dialect::ALL {
            check(dialect, None, &data).unwrap_or_else(|e| panic!("depth {depth}: {e:.300}"));
        }
    }
}

/// With an SSE event name, a first `type` that is not a string gives way to
/// the last one, as in serde_json (and as without a name): found by the
/// differential fuzz target's owned-form rule.
#[test]
fn a_named_event_is_read_by_its_last_type() {
    use ssekit::anthropic::AnthropicEvent;
    use ssekit::responses::ResponsesEvent;
    let data = r#"{"type":0,"item_id":"m","output_index":0,"content_index":0,"delta":"x","type":"response.output_text.delta"}"#;
    for event in [
        ResponsesEvent::parse(data).unwrap(),
        ResponsesEvent::parse_named("response.output_text.delta", data).unwrap(),
    ] {
        assert!(
            matches!(event, ResponsesEvent::OutputTextDelta(ref d) if d.delta == "x"),
            "{event:?}"
        );
    }
    let data = r#"{"type":0,"index":1,"type":"content_block_stop"}"#;
    for event in [
        AnthropicEvent::parse(data).unwrap(),
        AnthropicEvent::parse_named("content_block_stop", data).unwrap(),
    ] {
        assert_eq!(event.index(), Some(1), "{event:?}");
    }
    // A field that does not fit the first `type` comes before a last one
    // that says otherwise: the last one decides (found by a review).
    let data = r#"{"type":"content_block_stop","index":"x","type":"message_stop"}"#;
    let event = AnthropicEvent::parse(data).unwrap();
    assert!(matches!(event, AnthropicEvent::MessageStop(_)), "{event:?}");
    let data =
        r#"{"type":"response.output_text.delta","output_index":"x","type":"response.future"}"#;
    let event = ResponsesEvent::parse(data).unwrap();
    assert!(
        matches!(event, ResponsesEvent::Unknown { ty, error: None, .. } if ty == "response.future"),
        "{event:?}"
    );
    // With an event name, a last `type` that disagrees with it is a type
    // mismatch at that `type`, whatever came before it.
    for data in [
        r#"{"type":0,"type":"ping"}"#,
        r#"{"type":"message_stop","x":1,"type":"ping"}"#,
    ] {
        let event = AnthropicEvent::parse_named("message_stop", data).unwrap();
        let e = event.decode_error().unwrap();
        assert_eq!(
            e.kind(),
            ssekit::anthropic::DecodeErrorKind::TypeMismatch,
            "{data}"
        );
        assert_eq!(&data[e.offset()..], r#""ping"}"#, "{data}");
        check(Dialect::Anthropic, Some("message_stop"), data).unwrap_or_else(|e| panic!("{e}"));
    }
}
