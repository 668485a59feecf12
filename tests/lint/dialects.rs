//! The Chat Completions and Anthropic Messages linters: every recorded
//! stream of those dialects (and the hand-written ones in `tests/data`)
//! lints without errors, and each of their rules fires on a stream written
//! to break it, at the event's offset.

use crate::corpus;
use crate::{anthropic, chat};

use ssekit::lint::{lint_bytes, AnthropicLinter, ChatLinter, Finding, Rule, Severity};

fn errors(findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .filter(|f| f.severity() == Severity::Error)
        .map(ToString::to_string)
        .collect()
}

fn rules(findings: &[Finding]) -> Vec<(Rule, u64)> {
    findings.iter().map(|f| (f.rule(), f.offset())).collect()
}

#[test]
fn recorded_chat_and_anthropic_streams_lint_without_errors() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let mut seen = (0, 0);
    for (name, bytes) in corpus::sse_files(&dir) {
        let findings = if name.contains("-chat-") {
            seen.0 += 1;
            lint_bytes(ChatLinter::new(), &bytes)
        } else if name.contains("-anthropic-") {
            seen.1 += 1;
            lint_bytes(AnthropicLinter::new(), &bytes)
        } else {
            continue;
        };
        assert_eq!(errors(&findings), Vec::<String>::new(), "{name}");
    }
    eprintln!(
        "linted {} Chat and {} Anthropic recorded streams",
        seen.0, seen.1
    );
    assert!(seen.0 >= 10 && seen.1 >= 8, "{seen:?}");
}

#[test]
fn hand_written_chat_streams_lint_without_errors() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chat");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sse") {
            let bytes = std::fs::read(&path).unwrap();
            let findings = lint_bytes(ChatLinter::new(), &bytes);
            assert_eq!(errors(&findings), Vec::<String>::new(), "{path:?}");
            n += 1;
        }
    }
    assert!(n > 0);
}

#[test]
fn chat_rules_fire_where_the_stream_breaks_them() {
    let start = r#"{"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}"#;
    let text = r#"{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"}}]}"#;
    let stop = r#"{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#;
    let nameless = r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"arguments":"{"}}]}}]}"#;
    let clean = chat(&[start, text, stop, "[DONE]"]);
    assert_eq!(rules(&lint_bytes(ChatLinter::new(), clean.as_bytes())), []);

    // A delta after the finish reason, then events after [DONE].
    let s = chat(&[start, stop, text, "[DONE]", text, "[DONE]"]);
    let at = |i: usize| chat(&[start, stop, text, "[DONE]", text][..i]).len() as u64;
    assert_eq!(
        rules(&lint_bytes(ChatLinter::new(), s.as_bytes())),
        [
            (Rule::EventAfterItemDone, at(2)),
            (Rule::EventAfterTerminal, at(4)),
            (Rule::MultipleTerminal, at(5)),
        ]
    );

    // A tool call without a name; a choice never finished; no [DONE].
    let s = chat(&[start, nameless]);
    let found = lint_bytes(ChatLinter::new(), s.as_bytes());
    assert_eq!(
        rules(&found),
        [
            (Rule::ToolCallWithoutId, chat(&[start]).len() as u64),
            (Rule::MissingFinishReason, s.len() as u64),
            (Rule::MissingTerminal, s.len() as u64),
        ]
    );
    assert!(
        found[0].message().contains("`function.name`"),
        "{}",
        found[0]
    );
    assert_eq!(found[2].severity(), Severity::Warning);

    // Not JSON, and a chunk whose choice lacks its index.
    let s = chat(&["{oops", r#"{"choices":[{"delta":{}}]}"#, stop, "[DONE]"]);
    assert_eq!(
        rules(&lint_bytes(ChatLinter::new(), s.as_bytes()))
            .into_iter()
            .map(|r| r.0)
            .collect::<Vec<_>>(),
        [Rule::InvalidJson, Rule::InvalidEvent]
    );

    // An error chunk: the missing finish reason and [DONE] are not errors.
    let s = chat(&[
        start,
        text,
        r#"{"error":{"message":"overloaded","code":502}}"#,
    ]);
    let found = lint_bytes(ChatLinter::new(), s.as_bytes());
    assert_eq!(errors(&found), Vec::<String>::new());
    assert_eq!(rules(&found), [(Rule::MissingTerminal, s.len() as u64)]);
}

const START: &str = r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m"}}"#;
const TEXT_START: &str =
    r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#;
const TEXT: &str =
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#;
const JSON_DELTA: &str = r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{"}}"#;
const STOP0: &str = r#"{"type":"content_block_stop","index":0}"#;
const TOOL_START2: &str = r#"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#;
const DELTA: &str =
    r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}"#;
const MSG_STOP: &str = r#"{"type":"message_stop"}"#;
const PING: &str = r#"{"type":"ping"}"#;

#[test]
fn anthropic_rules_fire_where_the_stream_breaks_them() {
    let clean = anthropic(&[START, PING, TEXT_START, TEXT, STOP0, DELTA, MSG_STOP]);
    assert_eq!(
        rules(&lint_bytes(AnthropicLinter::new(), clean.as_bytes())),
        []
    );

    let events = [
        TEXT_START, // not message_start first
        START,
        JSON_DELTA,  // wrong delta kind for a text block
        STOP0,       //
        TEXT,        // after its stop
        TOOL_START2, // skips index 1
        TEXT_START,  // index 0 again
        MSG_STOP,    // no stop reason; block 2 still open
        PING,        // after message_stop
        MSG_STOP,
    ];
    let s = anthropic(&events);
    let at = |i: usize| anthropic(&events[..i]).len() as u64;
    assert_eq!(
        rules(&lint_bytes(AnthropicLinter::new(), s.as_bytes())),
        [
            (Rule::MessageStartNotFirst, at(0)),
            (Rule::DeltaTypeMismatch, at(2)),
            (Rule::EventAfterItemDone, at(4)),
            (Rule::BlockIndexMismatch, at(5)),
            (Rule::DuplicateItem, at(6)),
            (Rule::MissingStopReason, at(7)),
            (Rule::ItemNotDone, at(7)),
            (Rule::EventAfterTerminal, at(8)),
            (Rule::MultipleTerminal, at(9)),
        ]
    );

    // A delta for a block never started; the stream cut before message_stop.
    let s = anthropic(&[START, TEXT]);
    assert_eq!(
        rules(&lint_bytes(AnthropicLinter::new(), s.as_bytes())),
        [
            (Rule::UnknownItem, anthropic(&[START]).len() as u64),
            (Rule::MissingTerminal, s.len() as u64),
        ]
    );

    // An event name that contradicts the data's type.
    let s = format!("event: ping\ndata: {START}\n\n");
    assert_eq!(
        rules(&lint_bytes(AnthropicLinter::new(), s.as_bytes()))[0].0,
        Rule::EventNameMismatch
    );

    // Objects that do not fit their type (they decode to `Unknown` with an
    // error, issue 14) are reported, not passed over as unknown types.
    let bad_index = r#"{"type":"content_block_stop","index":"0"}"#;
    let s = format!(
        "{}event: content_block_stop\ndata: {bad_index}\n\nevent: x\ndata: {{\"index\":1}}\n\n",
        anthropic(&[START, TEXT_START])
    );
    let at = anthropic(&[START, TEXT_START]).len() as u64;
    let found = rules(&lint_bytes(AnthropicLinter::new(), s.as_bytes()));
    assert_eq!(found[0], (Rule::InvalidEvent, at), "{found:?}");
    let second = at + format!("event: content_block_stop\ndata: {bad_index}\n\n").len() as u64;
    assert_eq!(found[1], (Rule::MissingType, second), "{found:?}");
}

#[test]
fn block_indexes_far_ahead_are_bounded() {
    // A start at index 10^12 does not make the linter fill 10^12 blocks.
    let far = r#"{"type":"content_block_start","index":1000000000000,"content_block":{"type":"text","text":""}}"#;
    let s = anthropic(&[START, far, far, DELTA, MSG_STOP]);
    let found = lint_bytes(AnthropicLinter::new(), s.as_bytes());
    assert!(found.iter().any(|f| f.rule() == Rule::BlockIndexMismatch));
    assert!(found.len() < 10, "{found:?}");
}
