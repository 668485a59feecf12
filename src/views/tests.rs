//! The one-pass decoder against independent readings of the same text.
//!
//! * Nested views and list elements are decoded in the pass that validates
//!   them (`Field::from_nested`). The two-pass decoder (validate, then walk
//!   the validated members: `Field::from_value`) must read the same views
//!   and fail with the same errors.
//! * Invalid JSON always fails with the validator's error, at its offset,
//!   in every dialect, even when a field of the wrong kind comes first.
//! * The key patterns match exactly the keys they were made from.

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use proptest::prelude::*;

use super::{DecodeError, DecodeErrorKind, Field};
use crate::anthropic::AnthropicEvent;
use crate::chat::{ChatChunk, ChatEvent, ChoiceDelta};
use crate::json::tests::{arb_soup, mutate};
use crate::json::{JsonError, Value};
use crate::responses::ResponsesEvent;

/// Chunks with every nested view of the Chat dialect: the delta, tool call
/// fragments and their functions, log probabilities, usage with details.
const CHAT: &[&str] = &[
    r#"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","system_fingerprint":"fp_1","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi \"there\"\n"},"logprobs":null,"finish_reason":null}]}"#,
    r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\":"}},{"index":1,"function":{"arguments":"1}"}}]},"finish_reason":null},{"index":1,"delta":{"reasoning_content":"think"},"logprobs":{"content":[{"token":"a","logprob":-0.5,"bytes":[97],"top_logprobs":[{"token":"b","logprob":-1.5,"bytes":[98]}]}]}}]}"#,
    r#"{"id":"c","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":2,"total_tokens":13,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":1}}}"#,
    r#"{ "id" : "c" , "choices" : [ { "index" : 0 , "delta" : { "content" : [ { "type" : "thinking" , "thinking" : [ { "type" : "text" , "text" : "x" } ] } ] } } ] }"#,
    r#"{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop","content_filter_results":{"hate":{"filtered":false}}}],"prompt_filter_results":[{"prompt_index":0}]}"#,
];

/// Events of the other dialects with nested views and lists of views.
const OTHERS: &[&str] = &[
    r#"{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi","logprobs":[{"token":"Hi","logprob":-0.1,"bytes":[72,105],"top_logprobs":[{"token":"Hey","logprob":-2.0,"bytes":[72]}]}]}"#,
    r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[],"stop_reason":null,"usage":{"input_tokens":25,"output_tokens":1,"cache_creation":{"ephemeral_5m_input_tokens":0}}}}"#,
    r#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":15}}"#,
];

/// The chunk read by the two-pass decoder, its choices as well.
fn two_pass(
    text: &str,
) -> Result<(ChatChunk<'_>, Vec<Result<ChoiceDelta<'_>, DecodeError>>), DecodeError> {
    let value = Value::parse(text).map_err(DecodeError::json)?;
    let chunk = ChatChunk::from_value(value, text)?;
    let choices = chunk
        .choices
        .as_raw_json()
        .value()
        .as_array()
        .map(|a| a.iter().map(|v| ChoiceDelta::from_value(v, text)).collect())
        .unwrap_or_default();
    Ok((chunk, choices))
}

/// The error invalid JSON must give: the validator's.
fn validator_error(text: &str) -> Option<JsonError> {
    crate::json::validate_text(text).err()
}

fn check_chat(text: &str) -> Result<(), TestCaseError> {
    let one_pass = ChatEvent::parse(text);
    if let Some(e) = validator_error(text) {
        if text.trim() != "[DONE]" {
            let got = one_pass.expect_err("invalid JSON decoded");
            prop_assert_eq!(got.kind(), DecodeError::json(e).kind(), "{}", text);
            prop_assert_eq!(got.offset(), e.offset(), "{}", text);
        }
        return Ok(());
    }
    match (one_pass, two_pass(text)) {
        (Ok(ChatEvent::Chunk(chunk)), Ok((expected, choices))) => {
            prop_assert_eq!(&chunk, &expected);
            // `==` ignores where a view's text is: compare that too.
            prop_assert_eq!(chunk.raw().get(), expected.raw().get());
            prop_assert_eq!(
                chunk.usage.as_ref().map(|u| u.raw().get()),
                expected.usage.as_ref().map(|u| u.raw().get())
            );
            let got: Vec<_> = chunk.choices.iter().collect();
            for (a, b) in got.iter().zip(&choices) {
                if let (Ok(a), Ok(b)) = (a, b) {
                    prop_assert_eq!(a.raw().get(), b.raw().get());
                    prop_assert_eq!(
                        a.delta.as_ref().map(|d| d.raw().get()),
                        b.delta.as_ref().map(|d| d.raw().get())
                    );
                }
            }
            prop_assert_eq!(&got, &choices);
            check_head_list(&chunk, text)?;
        }
        // Valid JSON of an unexpected shape: the two-pass decoder's error.
        (Ok(ChatEvent::Unknown { raw, error }), Err(b)) => {
            prop_assert_eq!(raw.get(), text.trim());
            prop_assert_eq!(error, b, "{}", text);
        }
        (Ok(ChatEvent::Error(_)), _) => {
            // An error chunk: serde_json reads a non-null `error` too.
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            prop_assert!(!value["error"].is_null(), "{}", text);
        }
        (Ok(ChatEvent::Done), _) => {}
        (Ok(other), _) => prop_assert!(false, "{:?}", other),
        (Err(a), Err(b)) => prop_assert_eq!(a, b, "{}", text),
        (a, b) => prop_assert!(
            false,
            "one pass {:?}, two passes {:?}: {}",
            a,
            b.map(|c| c.0),
            text
        ),
    }
    Ok(())
}

/// A chunk's `choices` (a `HeadList`) against the lazy `List` over the same
/// text: the same elements and errors, in every way of iterating; the kept
/// element is the lazy list's first, decoded from the same text.
fn check_head_list<'a>(chunk: &ChatChunk<'a>, text: &str) -> Result<(), TestCaseError> {
    let choices = &chunk.choices;
    let lazy: Vec<_> = choices.as_list().iter().collect();
    let by_value: Vec<_> = choices.clone().into_iter().collect();
    let by_ref: Vec<_> = choices.into_iter().collect();
    prop_assert_eq!(&by_value, &lazy, "{}", text);
    prop_assert_eq!(&by_ref, &lazy, "{}", text);
    // `head` then `rest`: the same elements, the kept one borrowed.
    let lent: Vec<_> = choices
        .head()
        .map(|c| Ok(c.clone()))
        .into_iter()
        .chain(choices.rest())
        .collect();
    prop_assert_eq!(&lent, &lazy, "{}", text);
    prop_assert_eq!(choices.first(), lazy.first().cloned(), "{}", text);
    prop_assert_eq!(choices.len(), lazy.len(), "{}", text);
    prop_assert_eq!(choices.is_empty(), lazy.is_empty(), "{}", text);
    fn raw<'a>(r: &Result<ChoiceDelta<'a>, DecodeError>) -> Option<&'a str> {
        r.as_ref().ok().map(|c| c.raw().get())
    }
    for (a, b) in by_value.iter().zip(&lazy) {
        prop_assert_eq!(raw(a), raw(b), "{}", text);
    }
    if let Some(head) = choices.head() {
        prop_assert_eq!(
            lazy.first().map(raw),
            Some(Some(head.raw().get())),
            "{}",
            text
        );
    }
    // The visitor sees the same elements.
    let mut visited = 0;
    super::FieldElements::for_each_element(choices, &mut |e| {
        visited += 1;
        let _ = e;
    });
    prop_assert_eq!(visited, lazy.len(), "{}", text);
    Ok(())
}

fn check_others(text: &str) -> Result<(), TestCaseError> {
    if let Some(e) = validator_error(text) {
        for got in [
            ResponsesEvent::parse(text).map(|_| ()),
            AnthropicEvent::parse(text).map(|_| ()),
            AnthropicEvent::parse_named("message_start", text).map(|_| ()),
        ] {
            let got = got.expect_err("invalid JSON decoded");
            prop_assert_eq!(got.kind(), DecodeError::json(e).kind(), "{}", text);
            prop_assert_eq!(got.offset(), e.offset(), "{}", text);
        }
    }
    Ok(())
}

/// The same JSON pretty-printed, so that whitespace sits everywhere.
fn pretty(text: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    serde_json::to_string_pretty(&value).unwrap()
}

#[test]
fn the_samples_decode_alike_in_one_pass_and_two() {
    for text in CHAT {
        check_chat(text).unwrap();
        check_chat(&pretty(text)).unwrap();
        assert!(
            matches!(ChatEvent::parse(text), Ok(ChatEvent::Chunk(_))),
            "{text}"
        );
        for (k, _) in text.char_indices() {
            check_chat(&text[..k]).unwrap();
        }
    }
    for text in OTHERS {
        assert!(
            ResponsesEvent::parse(text).is_ok() || AnthropicEvent::parse(text).is_ok(),
            "{text}"
        );
        for (k, _) in text.char_indices() {
            check_others(&text[..k]).unwrap();
        }
    }
}

#[test]
fn a_wrong_kind_before_a_json_error_gives_way_to_it() {
    // `index` is a string (a wrong kind), then the text breaks off.
    for text in [
        r#"{"choices":[{"index":"0","delta":{}}],"id":tru}"#,
        r#"{"id":"c","choices":[{"index":0,"delta":{"content":5,"role":}}]}"#,
        r#"{"usage":{"prompt_tokens":"x"},"model":"m""#,
    ] {
        check_chat(text).unwrap();
        let e = ChatEvent::parse(text).unwrap_err();
        assert!(matches!(e.kind(), DecodeErrorKind::Json(_)), "{text}: {e}");
    }
    for text in [
        r#"{"type":"response.output_text.delta","sequence_number":"4","item_id":"m","output_index":0,"content_index":0,"delta":"x"]"#,
        r#"{"type":"message_delta","delta":{"stop_reason":7},"usage":{"output_tokens":1}"#,
    ] {
        check_others(text).unwrap();
    }
    // Valid JSON of the wrong kind is still a shape error, with the field.
    let e = ChatEvent::parse(r#"{"choices":[{"index":"0"}]}"#).unwrap();
    let ChatEvent::Chunk(chunk) = e else { panic!() };
    let first = chunk.choices.first().unwrap().unwrap_err();
    assert_eq!(first.kind(), DecodeErrorKind::WrongType { field: "index" });
    assert_eq!(first.offset(), 21);
}

#[test]
fn nesting_at_the_depth_limit_fails_as_the_validator_does() {
    let max = crate::json::MAX_DEPTH;
    // `usage` is a nested view at level 2; `x`, a member no view has, is
    // validated below it.
    chat_agrees_at_depths(r#"{"choices":[],"usage":{"x":@}}"#, max - 4..max);
}

/// For each depth, `template` with `@` replaced by that many nested empty
/// arrays: the one-pass decoder agrees with the two-pass reading and fails
/// exactly where the validator does.
fn chat_agrees_at_depths(template: &str, depths: core::ops::Range<usize>) {
    for extra in depths {
        let nested = format!("{}{}", "[".repeat(extra), "]".repeat(extra));
        let text = template.replace('@', &nested);
        check_chat(&text).unwrap();
        assert_eq!(
            ChatEvent::parse(&text).is_ok(),
            validator_error(&text).is_none(),
            "{extra}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn mutated_chunks_decode_alike_in_one_pass_and_two(
        which in 0..CHAT.len(),
        pretty_print in any::<bool>(),
        edits in prop::collection::vec((any::<usize>(), 0u8..3, arb_soup()), 0..4),
    ) {
        let text = if pretty_print { pretty(CHAT[which]) } else { CHAT[which].to_string() };
        check_chat(&mutate(text, edits))?;
    }

    #[test]
    fn mutated_events_fail_with_the_validators_error(
        which in 0..OTHERS.len(),
        edits in prop::collection::vec((any::<usize>(), 0u8..3, arb_soup()), 1..4),
    ) {
        check_others(&mutate(OTHERS[which].to_string(), edits))?;
    }
}

#[test]
fn key_patterns_match_exactly_their_key() {
    use crate::json::{KeyPattern, MemberSource, ObjectScanner};
    let names = [
        "",
        "a",
        "id",
        "type",
        "index",
        "object",
        "created",
        "item_id",
        "logprobs",
        "obfuscation",
        "content_index",
        "sequence_number",
        "system_fingerprint",
        "abcdefghijklmnop",
        "prompt_filter_results",
        "completion_tokens_details",
    ];
    let mut keys: Vec<String> = Vec::new();
    for name in names {
        keys.push(name.to_string());
        keys.push(format!("{name}x"));
        keys.push(format!("x{name}"));
        if !name.is_empty() {
            keys.push(name[..name.len() - 1].to_string());
            keys.push(format!("{}\\u0041", &name[..name.len() - 1]));
            keys.push(format!("{name}\\\""));
        }
    }
    for key in &keys {
        // Padding, so that a key word can be read.
        let text = format!(r#"{{"{key}":1                    }}"#);
        for name in names {
            let mut scanner = ObjectScanner::new(&text);
            scanner.start_member().unwrap().unwrap();
            let pattern = KeyPattern::new(name);
            let hit = scanner.key_word().is_some_and(|w| pattern.matches(w))
                && (!pattern.is_long() || scanner.key_tail_is(name.as_bytes()));
            assert_eq!(hit, key == name, "key {key:?}, name {name:?}");
        }
    }
}

/// `choices` as a `HeadList`: element 0 kept when it decodes, and the same
/// elements and errors as the lazy list otherwise.
#[test]
fn the_first_choice_is_kept_and_iterates_as_the_lazy_list_does() {
    let chunk = |text: &'static str| match ChatEvent::parse(text).unwrap() {
        ChatEvent::Chunk(c) => c,
        other => panic!("{other:?}"),
    };
    let cases: &[(&str, bool, usize)] = &[
        // (text, element 0 kept, elements)
        (
            r#"{"choices":[{"index":0,"delta":{"content":"a"}}]}"#,
            true,
            1,
        ),
        (
            r#"{"choices":[ {"index":0} , {"index":1,"delta":{}} ]}"#,
            true,
            2,
        ),
        (
            r#"{"choices":[{"index":0},{"index":"1"},{"index":2}]}"#,
            true,
            3,
        ),
        (r#"{"choices":[]}"#, false, 0),
        (r#"{"choices":[ ]}"#, false, 0),
        (r#"{"id":"c"}"#, false, 0),
        // Element 0 does not fit: an error when iterated, nothing kept.
        (r#"{"choices":[{"index":"0"},{"index":1}]}"#, false, 2),
        (r#"{"choices":[{"delta":{}}]}"#, false, 1),
        // Element 0 is not an object.
        (r#"{"choices":[null,{"index":1}]}"#, false, 2),
        (r#"{"choices":[7]}"#, false, 1),
    ];
    for &(text, kept, n) in cases {
        let c = chunk(text);
        assert_eq!(c.choices.head().is_some(), kept, "{text}");
        assert_eq!(c.choices.len(), n, "{text}");
        check_head_list(&c, text).unwrap();
        check_chat(text).unwrap();
    }
    // Element 0's error, at element 0, with its field and offset.
    let c = chunk(r#"{"choices":[{"index":"0"},{"index":1}]}"#);
    let mut it = c.choices.iter();
    let e = it.next().unwrap().unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::WrongType { field: "index" });
    assert_eq!(e.offset(), 21);
    assert_eq!(it.next().unwrap().unwrap().index, 1);
    assert!(it.next().is_none());
    // Invalid JSON after a kept-able element 0 fails as the validator does.
    for text in [
        r#"{"choices":[{"index":0},]}"#,
        r#"{"choices":[{"index":0} x]}"#,
        r#"{"choices":[{"index":0},{"index":1]}"#,
        r#"{"choices":[{"index":0}"#,
        r#"{"choices":[{"index":0,}]}"#,
    ] {
        check_chat(text).unwrap();
        assert!(ChatEvent::parse(text).is_err(), "{text}");
    }
}

/// A `choices` array at the depth limit: element 0 is kept only where the
/// validator accepts it, and the errors are the validator's.
#[test]
fn the_first_choice_at_the_depth_limit() {
    let max = crate::json::MAX_DEPTH;
    // `choices` (level 1) holds element 0 (level 2), whose `delta` (level 3)
    // holds `x` with `extra` more levels.
    chat_agrees_at_depths(
        r#"{"choices":[{"index":0,"delta":{"x":@}}]}"#,
        max - 5..max - 1,
    );
}

/// Each element is decoded once per iteration, and a chunk with many
/// choices decodes element 0 at most twice (once kept, or once tried and
/// once read by the validator): the work stays linear in the text.
#[test]
fn many_choices_iterate_each_once() {
    let mut text = String::from(r#"{"choices":["#);
    for i in 0..1000 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(r#"{{"index":{i},"delta":{{"content":"x"}}}}"#));
    }
    text.push_str("]}");
    let ChatEvent::Chunk(c) = ChatEvent::parse(&text).unwrap() else {
        panic!()
    };
    assert_eq!(c.choices.head().map(|h| h.index), Some(0));
    let indices: Vec<u64> = c.choices.iter().map(|c| c.unwrap().index).collect();
    assert_eq!(indices, (0..1000).collect::<Vec<u64>>());
    check_chat(&text).unwrap();
}

/// A repeated key: the last one wins, whole, as in `serde_json` (the
/// reference here). Fields are decoded in place in the view being built, so
/// a nested view or a kept first choice read a second time must start again
/// from nothing, and a required field read again as `null` is missing.
#[test]
fn a_repeated_key_replaces_the_first_reading_whole() {
    let text = r#"{"id":"a","choices":[{"index":0,"delta":{"role":"assistant","content":"a"},"delta":{"content":"b"},"finish_reason":"x","index":1}],"id":"b"}"#;
    let reference: serde_json::Value = serde_json::from_str(text).unwrap();
    let choice0 = &reference["choices"][0];
    let Ok(ChatEvent::Chunk(chunk)) = ChatEvent::parse(text) else {
        panic!("a chunk")
    };
    assert_eq!(chunk.id.map(|s| s.raw()), reference["id"].as_str());
    let choice = chunk.choices.first().unwrap().unwrap();
    assert_eq!(Some(choice.index), choice0["index"].as_u64());
    let delta = choice.delta.unwrap();
    assert!(choice0["delta"]["role"].is_null());
    assert_eq!(delta.role, None);
    assert_eq!(
        delta.content.and_then(|c| c.as_text()).map(|s| s.raw()),
        choice0["delta"]["content"].as_str()
    );

    // The kept first choice, read twice.
    let text = r#"{"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"x"}],"choices":[{"index":1}]}"#;
    let reference: serde_json::Value = serde_json::from_str(text).unwrap();
    let Ok(ChatEvent::Chunk(chunk)) = ChatEvent::parse(text) else {
        panic!("a chunk")
    };
    let choice = chunk.choices.first().unwrap().unwrap();
    assert_eq!(
        Some(choice.index),
        reference["choices"][0]["index"].as_u64()
    );
    assert!(reference["choices"][0]["delta"].is_null());
    assert!(choice.delta.is_none() && choice.finish_reason.is_none());
    assert_eq!(chunk.choices.iter().count(), 1);

    // A required nested view, read twice.
    let text = r#"{"error":{"message":"m","type":"t"},"error":{"message":"n"}}"#;
    let reference: serde_json::Value = serde_json::from_str(text).unwrap();
    let Ok(ChatEvent::Error(e)) = ChatEvent::parse(text) else {
        panic!("an error chunk")
    };
    assert_eq!(
        e.error.message.map(|s| s.raw()),
        reference["error"]["message"].as_str()
    );
    assert!(reference["error"]["type"].is_null());
    assert_eq!(e.error.ty, None);

    // A required nested view read twice in one pass, and read, then
    // `null`, then read again: the last reading alone counts.
    for text in [
        r#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":"x"},"delta":{"stop_reason":"max_tokens"}}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":"x"},"delta":null,"delta":{"stop_reason":"max_tokens"}}"#,
    ] {
        let reference: serde_json::Value = serde_json::from_str(text).unwrap();
        let Ok(AnthropicEvent::MessageDelta(m)) = AnthropicEvent::parse(text) else {
            panic!("a message_delta: {text}")
        };
        assert_eq!(
            m.delta.stop_reason.map(|s| s.raw()),
            reference["delta"]["stop_reason"].as_str()
        );
        assert!(reference["delta"]["stop_sequence"].is_null());
        assert_eq!(m.delta.stop_sequence, None, "{text}");
        assert_eq!(m.delta.raw().get(), r#"{"stop_reason":"max_tokens"}"#);
    }

    // A required field, then `null`: missing.
    let text = r#"{"index":0,"delta":{"content":"a"},"index":null}"#;
    let reference: serde_json::Value = serde_json::from_str(text).unwrap();
    assert!(reference["index"].is_null());
    let err = ChoiceDelta::from_value(Value::parse(text).unwrap(), text).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::MissingField { field: "index" });
}
