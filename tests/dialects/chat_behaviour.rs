//! Behaviour of the Chat Completions decoder on hand-written chunks: the
//! `[DONE]` sentinel, the error chunk in its shapes, tool call fragments,
//! the usage chunk, the non-standard reasoning fields, log probabilities,
//! errors and the owned form.

use ssekit::chat::{ChatEvent, DecodeErrorKind, OwnedChatEvent};
use ssekit::Frame;

fn chunk(data: &str) -> ssekit::chat::ChatChunk<'_> {
    match ChatEvent::parse(data) {
        Ok(ChatEvent::Chunk(c)) => c,
        other => panic!("{other:?}"),
    }
}

#[test]
fn done_sentinel() {
    for data in ["[DONE]", " [DONE]\n", "\t[DONE] "] {
        let event = ChatEvent::parse(data).unwrap();
        assert!(event.is_done());
        assert_eq!(event.raw(), None);
        assert_eq!(event.to_owned().get(), ChatEvent::Done);
    }
    assert!(ChatEvent::parse("[DONE").is_err());
    assert!(ChatEvent::parse("DONE").is_err());
    assert!(ChatEvent::from_frame(&Frame::new("[DONE]"))
        .unwrap()
        .is_done());
}

#[test]
fn error_chunk_openai_shape() {
    let data = r#"{"error":{"message":"The server had an error","type":"server_error","param":null,"code":"internal_error"}}"#;
    let ChatEvent::Error(e) = ChatEvent::parse(data).unwrap() else {
        panic!()
    };
    assert_eq!(e.error.message.unwrap(), "The server had an error");
    assert_eq!(e.error.ty.unwrap(), "server_error");
    assert_eq!(e.error.param, None);
    assert_eq!(e.error.code.unwrap().get(), r#""internal_error""#);
    assert_eq!(e.raw().get(), data);
}

#[test]
fn error_chunk_wins_over_choices_and_may_come_last() {
    // OpenRouter: a whole chunk with an `error` member (numeric code).
    let data = r#"{"id":"gen-1","choices":[{"index":0,"delta":{"content":""}}],"error":{"code":400,"message":"Token limit reached"}}"#;
    let ChatEvent::Error(e) = ChatEvent::parse(data).unwrap() else {
        panic!()
    };
    assert_eq!(e.error.code.unwrap().get(), "400");
    assert_eq!(e.error.message.unwrap(), "Token limit reached");
    // An error chunk whose other members would not decode as a chunk.
    let data = r#"{"choices":7,"error":{"message":"m"}}"#;
    assert!(matches!(ChatEvent::parse(data), Ok(ChatEvent::Error(_))));
    // `"error": null` is no error.
    let data = r#"{"choices":[],"error":null}"#;
    assert!(matches!(ChatEvent::parse(data), Ok(ChatEvent::Chunk(_))));
    // A malformed error is valid JSON of an unexpected shape: `Unknown`,
    // with the error chunk's decode error.
    let err = unknown(r#"{"error":"boom"}"#);
    assert_eq!(err.kind(), DecodeErrorKind::WrongType { field: "error" });
}

/// The decode error of data that is valid JSON of an unexpected shape,
/// which must come as `ChatEvent::Unknown` with that data as its text.
fn unknown(data: &str) -> ssekit::chat::DecodeError {
    match ChatEvent::parse(data) {
        Ok(ChatEvent::Unknown { raw, error }) => {
            assert_eq!(raw.get(), data.trim());
            error
        }
        other => panic!("{data}: {other:?}"),
    }
}

#[test]
fn content_role_and_finish_reason() {
    let c = chunk(
        r#"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o","system_fingerprint":"fp_1","obfuscation":"xy","choices":[{"index":0,"delta":{"role":"assistant","content":"a\"b\n"},"logprobs":null,"finish_reason":null}],"usage":null}"#,
    );
    assert_eq!(c.id.unwrap().as_str(), Some("chatcmpl-1"));
    assert_eq!(c.object.unwrap(), "chat.completion.chunk");
    assert_eq!(c.created, Some(1_700_000_000));
    assert_eq!(c.model.unwrap(), "gpt-4o");
    assert_eq!(c.system_fingerprint.unwrap(), "fp_1");
    assert_eq!(c.obfuscation.unwrap(), "xy");
    assert_eq!(c.usage, None);
    assert_eq!(c.choices.len(), 1);
    let choice = c.first_choice().unwrap().unwrap();
    assert_eq!(choice.index, 0);
    assert_eq!(choice.finish_reason, None);
    assert_eq!(choice.logprobs, None);
    let delta = choice.delta.unwrap();
    assert_eq!(delta.role.unwrap(), "assistant");
    let content = delta.content.unwrap();
    assert!(content.as_text().unwrap().has_escapes());
    assert_eq!(content, "a\"b\n");

    let c = chunk(r#"{"choices":[{"index":1,"delta":{},"finish_reason":"stop"}]}"#);
    let choice = c.first_choice().unwrap().unwrap();
    assert_eq!(choice.index, 1);
    assert_eq!(choice.finish_reason.unwrap(), "stop");
    assert_eq!(choice.delta.unwrap().content, None);
}

#[test]
fn tool_call_fragments() {
    let first = chunk(
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}},{"index":1,"id":"call_2","type":"function","function":{"name":"f","arguments":"{\""}}]}}]}"#,
    );
    let delta = first.first_choice().unwrap().unwrap().delta.unwrap();
    let calls: Vec<_> = delta
        .tool_calls
        .unwrap()
        .iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].index, 0);
    assert_eq!(calls[0].id.unwrap(), "call_1");
    assert_eq!(calls[0].ty.unwrap(), "function");
    let f = calls[0].function.clone().unwrap();
    assert_eq!(f.name.unwrap(), "get_weather");
    assert_eq!(f.arguments.unwrap(), "");
    assert_eq!(calls[1].function.clone().unwrap().arguments.unwrap(), "{\"");

    let next = chunk(
        r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"a\":1}"}}]}}]}"#,
    );
    let delta = next.first_choice().unwrap().unwrap().delta.unwrap();
    let call = delta.tool_calls.unwrap().first().unwrap().unwrap();
    assert_eq!((call.index, call.id, call.ty), (1, None, None));
    assert_eq!(call.function.unwrap().arguments.unwrap(), "a\":1}");

    // `index` is the one required member of a fragment: its absence is an
    // error for that element only.
    let c = chunk(r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"x"}]}}]}"#);
    let delta = c.first_choice().unwrap().unwrap().delta.unwrap();
    let err = delta.tool_calls.unwrap().first().unwrap().unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::MissingField { field: "index" });

    // The deprecated `function_call`.
    let c = chunk(
        r#"{"choices":[{"index":0,"delta":{"function_call":{"name":"f","arguments":"{}"}}}]}"#,
    );
    let fc = c
        .first_choice()
        .unwrap()
        .unwrap()
        .delta
        .unwrap()
        .function_call
        .unwrap();
    assert_eq!(fc.name.unwrap(), "f");
    assert_eq!(fc.arguments.unwrap(), "{}");
}

#[test]
fn reasoning_fields_and_refusal() {
    let c = chunk(
        r#"{"choices":[{"index":0,"delta":{"reasoning_content":"think","reasoning":"more","reasoning_details":[{"type":"reasoning.text","text":"more"}],"refusal":"no"}}]}"#,
    );
    let delta = c.first_choice().unwrap().unwrap().delta.unwrap();
    assert_eq!(delta.reasoning_content.unwrap(), "think");
    assert_eq!(delta.reasoning.unwrap(), "more");
    assert_eq!(
        delta.reasoning_details.unwrap().get(),
        r#"[{"type":"reasoning.text","text":"more"}]"#
    );
    assert_eq!(delta.refusal.unwrap(), "no");
}

#[test]
fn usage_chunk() {
    let c = chunk(
        r#"{"id":"c","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":20,"total_tokens":30,"prompt_tokens_details":{"cached_tokens":4,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":8,"accepted_prediction_tokens":1,"rejected_prediction_tokens":2}}}"#,
    );
    assert!(c.choices.is_empty());
    assert!(c.first_choice().is_none());
    let u = c.usage.unwrap();
    assert_eq!(
        (u.prompt_tokens, u.completion_tokens, u.total_tokens),
        (Some(10), Some(20), Some(30))
    );
    let p = u.prompt_tokens_details.unwrap();
    assert_eq!(
        (p.cached_tokens, p.audio_tokens, p.text_tokens),
        (Some(4), Some(0), None)
    );
    let d = u.completion_tokens_details.unwrap();
    assert_eq!(d.reasoning_tokens, Some(8));
    assert_eq!(d.accepted_prediction_tokens, Some(1));
    assert_eq!(d.rejected_prediction_tokens, Some(2));
}

#[test]
fn logprobs() {
    let c = chunk(
        r#"{"choices":[{"index":0,"delta":{"content":"Hi"},"logprobs":{"content":[{"token":"Hi","logprob":-0.25,"bytes":[72,105],"top_logprobs":[{"token":"Hello","logprob":-1.5,"bytes":null}]}],"refusal":null}}]}"#,
    );
    let lp = c.first_choice().unwrap().unwrap().logprobs.unwrap();
    assert_eq!(lp.refusal, None);
    let token = lp.content.unwrap().first().unwrap().unwrap();
    assert_eq!(token.token.unwrap(), "Hi");
    assert_eq!(token.logprob, Some(-0.25));
    let bytes: Vec<u64> = token.bytes.unwrap().iter().map(Result::unwrap).collect();
    assert_eq!(bytes, [72, 105]);
    let top = token.top_logprobs.unwrap().first().unwrap().unwrap();
    assert_eq!(top.token.unwrap(), "Hello");
    assert_eq!((top.logprob, top.bytes), (Some(-1.5), None));
}

#[test]
fn decode_errors() {
    // Issue 14: a chunk without `choices` is a chunk with none.
    let c = chunk(r#"{"id":"c"}"#);
    assert!(c.choices.is_empty());
    let e = unknown(r#"{"choices":[],"created":"x"}"#);
    assert_eq!(e.kind(), DecodeErrorKind::WrongType { field: "created" });
    assert_eq!(e.offset(), 24);
    let e = unknown(r#" {"choices":{"index":0}} "#);
    assert_eq!(e.kind(), DecodeErrorKind::WrongType { field: "choices" });
    assert_eq!(e.offset(), 12);
    // Invalid JSON stays an error, even after a field of the wrong kind.
    let e = ChatEvent::parse(r#"{"created":"x","choices":[}"#).unwrap_err();
    assert!(matches!(e.kind(), DecodeErrorKind::Json(_)), "{e}");
    let e = ChatEvent::parse("[1]").unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::NotAnObject);
    let e = ChatEvent::parse(r#"{"choices":[]"#).unwrap_err();
    assert!(matches!(e.kind(), DecodeErrorKind::Json(j) if j.is_eof()));
    let e = ChatEvent::parse("").unwrap_err();
    assert!(matches!(e.kind(), DecodeErrorKind::Json(_)));
    // A choice's errors are the element's only.
    let c = chunk(r#"{"choices":[{"delta":{}},{"index":1}]}"#);
    let mut it = c.choices.iter();
    assert!(it.next().unwrap().is_err());
    assert_eq!(it.next().unwrap().unwrap().index, 1);
}

#[test]
fn unknown_members_are_ignored_and_keys_may_be_escaped() {
    let c =
        chunk(r#"{"x":{"y":[1]},"choices":[{"index":0,"delta":{"new":1,"cont\u0065nt":"z"}}]}"#);
    let delta = c.first_choice().unwrap().unwrap().delta.unwrap();
    assert_eq!(delta.content.unwrap(), "z");
}

#[test]
fn owned_form_outlives_the_frame() {
    let frame = Frame::new(r#"{"choices":[{"index":3,"delta":{"content":"kept"}}]}"#);
    let owned = OwnedChatEvent::from_frame(&frame).unwrap();
    assert!(std::ptr::eq(
        owned.data_bytes().as_ptr(),
        frame.data_bytes().as_ptr()
    ));
    drop(frame);
    let ChatEvent::Chunk(c) = owned.get() else {
        panic!()
    };
    assert_eq!(c.first_choice().unwrap().unwrap().index, 3);
    let copy = OwnedChatEvent::parse(owned.as_str()).unwrap();
    assert_eq!(copy, owned);
    assert!(OwnedChatEvent::parse("[DONE]").unwrap().get().is_done());
}

#[test]
fn views_are_send_sync_and_small() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<ChatEvent<'static>>();
    send_sync::<OwnedChatEvent>();
    send_sync::<ssekit::chat::List<'static, ssekit::chat::ChoiceDelta<'static>>>();
    // A stack value, never boxed: keep an eye on its size. It holds the
    // chunk's first choice, decoded (`HeadList`): 608 bytes without it.
    let size = std::mem::size_of::<ChatEvent<'static>>();
    assert!(size <= 1088, "ChatEvent is {size} bytes");
}
