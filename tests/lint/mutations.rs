//! The Chat Completions and Anthropic rules that come from the readers'
//! faults: each broken on purpose in an otherwise clean stream, its rule,
//! severity and offset checked whole and fed in 1- and 7-byte chunks. An
//! offset is where the broken event's block begins, counted here from the
//! lengths of the blocks before it (the end of the stream for findings
//! about the end).

use crate::{anthropic, chat};
use ssekit::lint::{lint_bytes, AnthropicLinter, ChatLinter, FrameLinter, LintConfig};
use ssekit::lint::{Rule, Severity, StreamLinter};
use ssekit::{Bytes, ParserConfig};

type Found = Vec<(Rule, Severity, u64)>;

/// The findings of `linter()` on `stream`, whole and in chunks of 1 and 7
/// bytes: the same each way.
fn lint<L: FrameLinter>(linter: impl Fn() -> L, stream: &str) -> Found {
    let all = |findings: Vec<ssekit::lint::Finding>| -> Found {
        findings
            .iter()
            .map(|f| (f.rule(), f.severity(), f.offset()))
            .collect()
    };
    let whole = all(lint_bytes(linter(), stream.as_bytes()));
    for size in [1, 7] {
        let mut s = StreamLinter::with_linter(ParserConfig::DEFAULT, linter());
        for chunk in stream.as_bytes().chunks(size) {
            s.feed(Bytes::copy_from_slice(chunk));
        }
        s.finish();
        assert_eq!(all(s.drain().collect()), whole, "{size}-byte chunks");
    }
    whole
}

/// The offset of block `i`: the length of the blocks before it.
fn chat_at(events: &[&str], i: usize) -> u64 {
    chat(&events[..i]).len() as u64
}

const HI: &str = r#"{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"}}]}"#;
const STOP: &str = r#"{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#;
const CALL: &str = r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]}}]}"#;
const ARGS: &str = r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}"#;
const TWO: &str = r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a"}},{"index":1,"delta":{"content":"b"}}]}"#;
const STOP1: &str = r#"{"id":"c","choices":[{"index":1,"delta":{},"finish_reason":"stop"}]}"#;
const LATE1: &str = r#"{"id":"c","choices":[{"index":1,"delta":{"content":"late"}}]}"#;

fn chat_linter() -> ChatLinter {
    ChatLinter::new()
}

#[test]
fn chat_clean_streams_have_no_finding() {
    let clean = chat(&[HI, CALL, ARGS, STOP, "[DONE]"]);
    assert_eq!(lint(chat_linter, &clean), []);
    let two = chat(&[TWO, STOP, STOP1, "[DONE]"]);
    assert_eq!(lint(chat_linter, &two), []);
}

#[test]
fn chat_rules_fire_at_the_broken_event() {
    use Rule::*;
    use Severity::*;
    // The sizes the offsets add up: `data: ` and `\n\n` around each JSON.
    assert_eq!(chat(&[HI]).len(), 6 + HI.len() + 2);
    assert_eq!(HI.len(), 59);
    assert_eq!(STOP.len(), 68);

    // A delta of choice 0 after its finish reason: at the third block,
    // 67 + 76 bytes in.
    let e = [HI, STOP, HI, "[DONE]"];
    assert_eq!(chat_at(&e, 2), 67 + 76);
    assert_eq!(
        lint(chat_linter, &chat(&e)),
        [(EventAfterItemDone, Error, 143)]
    );

    // The same for choice 1, which the turn's reader does not write.
    let e = [TWO, STOP1, LATE1, STOP, "[DONE]"];
    assert_eq!(
        lint(chat_linter, &chat(&e)),
        [(EventAfterItemDone, Error, chat_at(&e, 2))]
    );

    // Choice 1 never finishes: at the end of the stream.
    let e = [TWO, STOP, "[DONE]"];
    let s = chat(&e);
    assert_eq!(
        lint(chat_linter, &s),
        [(MissingFinishReason, Error, s.len() as u64)]
    );

    // A tool call whose first fragment has no id and no name.
    let e = [HI, ARGS, STOP, "[DONE]"];
    let found = lint_bytes(ChatLinter::new(), chat(&e).as_bytes());
    assert!(found[0].message().contains("`id` and `function.name`"));
    assert_eq!(
        lint(chat_linter, &chat(&e)),
        [(ToolCallWithoutId, Error, chat_at(&e, 1))]
    );

    // No [DONE]: a warning at the end; after an error chunk, information.
    let e = [HI, STOP];
    let s = chat(&e);
    assert_eq!(
        lint(chat_linter, &s),
        [(MissingTerminal, Warning, s.len() as u64)]
    );
    let e = [HI, r#"{"error":{"message":"overloaded","code":502}}"#];
    let s = chat(&e);
    assert_eq!(
        lint(chat_linter, &s),
        [(MissingTerminal, Info, s.len() as u64)]
    );

    // Events after [DONE]: a chunk, not JSON, a second [DONE].
    let e = [HI, STOP, "[DONE]", HI, "{oops", "[DONE]"];
    assert_eq!(
        lint(chat_linter, &chat(&e)),
        [
            (EventAfterTerminal, Error, chat_at(&e, 3)),
            (EventAfterTerminal, Error, chat_at(&e, 4)),
            (MultipleTerminal, Error, chat_at(&e, 5)),
        ]
    );

    // Chunks without a choice.
    let e = [r#"{"id":"c","choices":[]}"#, "[DONE]"];
    let s = chat(&e);
    assert_eq!(
        lint(chat_linter, &s),
        [(MissingFinishReason, Error, s.len() as u64)]
    );

    // A second choice that does not decode (no index), the first one read.
    let bad = r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a"}},{"delta":{}}]}"#;
    let e = [bad, STOP, "[DONE]"];
    assert_eq!(lint(chat_linter, &chat(&e)), [(InvalidEvent, Error, 0)]);

    // Limits: one choice tracked, one tool call; said once each stream.
    let one = || ChatLinter::with_config(LintConfig::DEFAULT.with_max_items(1));
    let e = [TWO, STOP, STOP1, "[DONE]"];
    assert_eq!(lint(one, &chat(&e)), [(LimitReached, Info, 0)]);
    let one_call = || ChatLinter::with_config(LintConfig::DEFAULT.with_max_parts(1));
    let second = r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_2","function":{"name":"g"}}]}}]}"#;
    let e = [CALL, second, second, STOP, "[DONE]"];
    assert_eq!(
        lint(one_call, &chat(&e)),
        [(LimitReached, Info, chat_at(&e, 1))]
    );
}

fn anthropic_at(events: &[&str], i: usize) -> u64 {
    anthropic(&events[..i]).len() as u64
}

const START: &str = r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m"}}"#;
const TEXT0: &str =
    r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#;
const HI0: &str =
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#;
const JSON0: &str = r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{"}}"#;
const JSON1: &str = r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{"}}"#;
const STOP0: &str = r#"{"type":"content_block_stop","index":0}"#;
const TOOL1: &str = r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#;
const STOP1_A: &str = r#"{"type":"content_block_stop","index":1}"#;
const TOOL2: &str = r#"{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}"#;
const REASON: &str =
    r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}"#;
const MSG_STOP: &str = r#"{"type":"message_stop"}"#;
const PING: &str = r#"{"type":"ping"}"#;
const ERROR: &str =
    r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;

fn anthropic_linter() -> AnthropicLinter {
    AnthropicLinter::new()
}

#[test]
fn anthropic_clean_stream_has_no_finding() {
    let s = anthropic(&[
        START, PING, TEXT0, HI0, STOP0, TOOL1, STOP1_A, REASON, MSG_STOP,
    ]);
    assert_eq!(lint(anthropic_linter, &s), []);
}

#[test]
fn anthropic_rules_fire_at_the_broken_event() {
    use Rule::*;
    use Severity::*;
    let l = anthropic_linter;
    // The sizes the offsets add up.
    assert_eq!(anthropic(&[START]).len(), 21 + 6 + START.len() + 2);
    assert_eq!(START.len(), 110);

    // Not message_start first: at 0.
    let e = [TEXT0, START, HI0, STOP0, REASON, MSG_STOP];
    assert_eq!(lint(l, &anthropic(&e)), [(MessageStartNotFirst, Error, 0)]);

    // message_start twice: the second, after the first block of 139 bytes.
    let e = [START, START, REASON, MSG_STOP];
    assert_eq!(anthropic_at(&e, 1), 139);
    assert_eq!(lint(l, &anthropic(&e)), [(DuplicateItem, Error, 139)]);

    // A delta for a block never started.
    let e = [START, HI0, REASON, MSG_STOP];
    assert_eq!(lint(l, &anthropic(&e)), [(UnknownItem, Error, 139)]);

    // A delta of the wrong kind; a delta after its block's stop; a second
    // stop; a block started twice.
    let e = [
        START, TEXT0, JSON0, STOP0, HI0, STOP0, TEXT0, REASON, MSG_STOP,
    ];
    assert_eq!(
        lint(l, &anthropic(&e)),
        [
            (DeltaTypeMismatch, Error, anthropic_at(&e, 2)),
            (EventAfterItemDone, Error, anthropic_at(&e, 4)),
            (DuplicateItem, Error, anthropic_at(&e, 5)),
            (DuplicateItem, Error, anthropic_at(&e, 6)),
        ]
    );

    // An index that skips: block 1 counts as started and stopped.
    let e = [START, TOOL2, STOP1_A, REASON, MSG_STOP];
    assert_eq!(
        lint(l, &anthropic(&e)),
        [
            (BlockIndexMismatch, Error, 139),
            (DuplicateItem, Error, anthropic_at(&e, 2)),
            (ItemNotDone, Error, anthropic_at(&e, 4)),
        ]
    );

    // No stop reason, a block open at message_stop; then a ping and a
    // second message_stop after it.
    let e = [START, TEXT0, MSG_STOP, PING, MSG_STOP];
    assert_eq!(
        lint(l, &anthropic(&e)),
        [
            (MissingStopReason, Warning, anthropic_at(&e, 2)),
            (ItemNotDone, Error, anthropic_at(&e, 2)),
            (EventAfterTerminal, Error, anthropic_at(&e, 3)),
            (MultipleTerminal, Error, anthropic_at(&e, 4)),
        ]
    );

    // Cut: an error at the end; after an error event, a warning, and the
    // stream read on past the error.
    let e = [START, TEXT0, HI0];
    let s = anthropic(&e);
    assert_eq!(lint(l, &s), [(MissingTerminal, Error, s.len() as u64)]);
    let e = [START, ERROR, HI0];
    let s = anthropic(&e);
    assert_eq!(
        lint(l, &s),
        [
            (UnknownItem, Error, anthropic_at(&e, 2)),
            (MissingTerminal, Warning, s.len() as u64),
        ]
    );

    // An event type this version does not know.
    let e = [START, r#"{"type":"future_event"}"#, REASON, MSG_STOP];
    assert_eq!(lint(l, &anthropic(&e)), [(UnknownEventType, Info, 139)]);

    // One block tracked: the second says so once, and its delta and stop
    // are not reported as unknown.
    let one = || AnthropicLinter::with_config(LintConfig::DEFAULT.with_max_items(1));
    let e = [START, TEXT0, STOP0, TOOL1, JSON1, STOP1_A, REASON, MSG_STOP];
    assert_eq!(
        lint(one, &anthropic(&e)),
        [(LimitReached, Info, anthropic_at(&e, 3))]
    );
}

// Responses: the order rules, whose faults the checked reader reports to
// the lint core. Blocks are `data: <json>\n\n` (no `event:` lines, which
// clients do not need); every event carries its `sequence_number`.

/// A clean one-message stream, by template: `{seq}` is the event's
/// sequence number.
const R_CREATED: &str =
    r#"{"type":"response.created","sequence_number":{seq},"response":{"id":"r","output":[]}}"#;
const R_ADDED: &str = r#"{"type":"response.output_item.added","sequence_number":{seq},"output_index":0,"item":{"id":"m","type":"message"}}"#;
const R_PART: &str = r#"{"type":"response.content_part.added","sequence_number":{seq},"item_id":"m","output_index":0,"content_index":0,"part":{"type":"output_text","text":""}}"#;
const R_DELTA: &str = r#"{"type":"response.output_text.delta","sequence_number":{seq},"item_id":"m","output_index":0,"content_index":0,"delta":"Hi"}"#;
const R_TEXT_DONE: &str = r#"{"type":"response.output_text.done","sequence_number":{seq},"item_id":"m","output_index":0,"content_index":0,"text":"Hi"}"#;
const R_PART_DONE: &str = r#"{"type":"response.content_part.done","sequence_number":{seq},"item_id":"m","output_index":0,"content_index":0,"part":{"type":"output_text","text":"Hi"}}"#;
const R_DONE: &str = r#"{"type":"response.output_item.done","sequence_number":{seq},"output_index":0,"item":{"id":"m","type":"message"}}"#;
const R_COMPLETED: &str = r#"{"type":"response.completed","sequence_number":{seq},"response":{"id":"r","output":[{"id":"m","type":"message"}]}}"#;
const R_FAILED: &str = r#"{"type":"response.failed","sequence_number":{seq},"response":{"id":"r","output":[{"id":"m","type":"message"}],"error":{"code":"server_error","message":"x"}}}"#;

const R_CLEAN: [&str; 8] = [
    R_CREATED,
    R_ADDED,
    R_PART,
    R_DELTA,
    R_TEXT_DONE,
    R_PART_DONE,
    R_DONE,
    R_COMPLETED,
];

/// The events with these sequence numbers, as blocks.
fn responses_blocks(events: &[&str], seqs: &[u64]) -> Vec<String> {
    assert_eq!(events.len(), seqs.len());
    events
        .iter()
        .zip(seqs)
        .map(|(e, s)| format!("data: {}\n\n", e.replace("{seq}", &s.to_string())))
        .collect()
}

/// The events numbered 0, 1, 2, … in order.
fn numbered(events: &[&str]) -> Vec<String> {
    let seqs: Vec<u64> = (0..events.len() as u64).collect();
    responses_blocks(events, &seqs)
}

/// The offset of block `i`: the length of the blocks before it.
fn block_at(blocks: &[String], i: usize) -> u64 {
    blocks[..i].iter().map(String::len).sum::<usize>() as u64
}

fn responses_linter() -> ssekit::lint::ResponsesLinter {
    ssekit::lint::ResponsesLinter::new()
}

fn lint_blocks(blocks: &[String]) -> Found {
    lint(responses_linter, &blocks.concat())
}

/// Lints the events numbered in order and checks that the findings are
/// `want`, each given with the index of the block it is at.
fn assert_at_blocks(events: &[&str], want: &[(Rule, Severity, usize)]) {
    let b = numbered(events);
    let want: Found = want
        .iter()
        .map(|&(rule, severity, i)| (rule, severity, block_at(&b, i)))
        .collect();
    assert_eq!(lint_blocks(&b), want);
}

#[test]
fn responses_clean_stream_has_no_finding() {
    assert_eq!(lint_blocks(&numbered(&R_CLEAN)), []);
}

#[test]
fn responses_sequence_rules_fire_at_the_broken_event() {
    use Rule::*;
    use Severity::*;
    // The block sizes the offsets add up, counted from the templates:
    // `data: ` (6) and `\n\n` (2) around each event, one digit of number.
    let b = numbered(&R_CLEAN);
    assert_eq!(b[0].len(), 6 + R_CREATED.len() - "{seq}".len() + 1 + 2);
    let (created, added, part) = (b[0].len() as u64, b[1].len() as u64, b[2].len() as u64);
    // 0, 1, 2, 4, …: the delta's number skips one.
    let gap = responses_blocks(&R_CLEAN, &[0, 1, 2, 4, 5, 6, 7, 8]);
    assert_eq!(block_at(&gap, 3), created + added + part);
    assert_eq!(
        lint_blocks(&gap),
        [(SequenceGap, Warning, created + added + part)]
    );
    // 0, 1, 2, 3, 2, …: the text done goes back; the next (4) follows the
    // highest, 3.
    let back = responses_blocks(&R_CLEAN, &[0, 1, 2, 3, 2, 4, 5, 6]);
    assert_eq!(
        lint_blocks(&back),
        [(SequenceNotIncreasing, Error, block_at(&back, 4))]
    );
}

#[test]
fn responses_item_rules_fire_at_the_broken_event() {
    use Rule::*;
    use Severity::*;
    // A delta for an item no `output_item.added` introduced: the unknown
    // item at the delta, and the text done then has a text but no delta.
    let other = R_DELTA.replace(r#""item_id":"m""#, r#""item_id":"x""#);
    let mut e = R_CLEAN;
    e[3] = &other;
    assert_at_blocks(&e, &[(UnknownItem, Error, 3), (DoneMismatch, Error, 4)]);
    // The item added twice: the second is the duplicate (not counted).
    let e = [
        R_CREATED,
        R_ADDED,
        R_ADDED,
        R_PART,
        R_DELTA,
        R_TEXT_DONE,
        R_PART_DONE,
        R_DONE,
        R_COMPLETED,
    ];
    assert_at_blocks(&e, &[(DuplicateItem, Error, 2)]);
    // A delta whose `output_index` is not its item's.
    let moved = R_DELTA.replace(r#""output_index":0"#, r#""output_index":1"#);
    let mut e = R_CLEAN;
    e[3] = &moved;
    assert_at_blocks(&e, &[(OutputIndexMismatch, Error, 3)]);
    // No `content_part.added`: the delta is the text's first event before
    // it (once per text), and the part's done names a part never added.
    let e = [
        R_CREATED,
        R_ADDED,
        R_DELTA,
        R_TEXT_DONE,
        R_PART_DONE,
        R_DONE,
        R_COMPLETED,
    ];
    assert_at_blocks(&e, &[(PartNotAdded, Error, 2), (PartNotAdded, Error, 4)]);
}

#[test]
fn responses_terminal_rules_fire_at_the_broken_event() {
    use Rule::*;
    use Severity::*;
    // An event after the terminal one, and a second terminal event.
    let mut e = R_CLEAN.to_vec();
    e.push(R_DELTA);
    assert_at_blocks(&e, &[(EventAfterTerminal, Error, 8)]);
    let mut e = R_CLEAN.to_vec();
    e.push(R_COMPLETED);
    assert_at_blocks(&e, &[(MultipleTerminal, Error, 8)]);
    // The item never done at `response.completed`: an error; at
    // `response.failed`, a warning.
    let e = [
        R_CREATED,
        R_ADDED,
        R_PART,
        R_DELTA,
        R_TEXT_DONE,
        R_PART_DONE,
        R_COMPLETED,
    ];
    assert_at_blocks(&e, &[(ItemNotDone, Error, 6)]);
    let mut e = e;
    e[6] = R_FAILED;
    assert_at_blocks(&e, &[(ItemNotDone, Warning, 6)]);
    // Cut before the terminal event: at the end of the stream.
    let b = numbered(&R_CLEAN[..7]);
    let end = b.concat().len() as u64;
    assert_eq!(lint_blocks(&b), [(MissingTerminal, Error, end)]);
}

#[test]
fn responses_a_stream_that_does_not_begin_with_created_is_reported_at_its_first_event() {
    // Resumed after `response.created`: a warning at the first block
    // (offset 0); the rest of the stream is clean.
    let b = numbered(&R_CLEAN[1..]);
    assert_eq!(
        lint_blocks(&b),
        [(Rule::CreatedNotFirst, Severity::Warning, 0)]
    );
    // Only the first event counts: a second `response.created` later is
    // no such fault.
    let mut e = R_CLEAN.to_vec();
    e.insert(1, R_CREATED);
    assert_eq!(lint_blocks(&numbered(&e)), []);
}
