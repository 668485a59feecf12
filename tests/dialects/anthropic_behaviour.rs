//! Behaviour of the Anthropic Messages decoder on hand-written events: each
//! event type, each delta kind, content blocks, citations, dispatch on the
//! SSE event name, unknown types, errors and the owned form.

use ssekit::anthropic::{
    AnthropicEvent, BlockDelta, Citation, ContentBlock, DecodeError, DecodeErrorKind,
    OwnedAnthropicEvent,
};
use ssekit::{Bytes, Frame, Parser};

/// The frames of an SSE text.
fn frames(text: &'static str) -> Vec<Frame> {
    let mut parser = Parser::new();
    parser.feed(Bytes::from_static(text.as_bytes()));
    let mut out = Vec::new();
    while let Some(frame) = parser.next_frame().unwrap() {
        out.push(frame);
    }
    out
}

/// The error of valid JSON that does not fit its type: not an error of
/// decoding, but `Unknown` with its whole text, the error handed out by
/// `decode_error` and returned by `validate`.
fn unfit(data: &str, decoded: Result<AnthropicEvent<'_>, DecodeError>) -> DecodeError {
    let event = decoded.unwrap_or_else(|e| panic!("{data}: an error, not Unknown: {e}"));
    let AnthropicEvent::Unknown {
        raw,
        error: Some(error),
        ..
    } = event
    else {
        panic!("{data}: {event:?}")
    };
    assert_eq!(raw.get(), data.trim());
    assert_eq!(event.decode_error(), Some(error));
    assert_eq!(event.validate(), Err(error));
    error
}

fn delta(data: &str) -> BlockDelta<'_> {
    match AnthropicEvent::parse(data) {
        Ok(AnthropicEvent::ContentBlockDelta(d)) => d.delta,
        other => panic!("{other:?}"),
    }
}

#[test]
fn text_delta() {
    let d = delta(
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi\n"}}"#,
    );
    assert_eq!(d.ty(), "text_delta");
    let BlockDelta::Text(t) = d else { panic!() };
    assert_eq!(t.text, "Hi\n");
}

#[test]
fn input_json_delta() {
    let d = delta(
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"loc"}}"#,
    );
    let BlockDelta::InputJson(j) = d else {
        panic!()
    };
    assert_eq!(j.partial_json, "{\"loc");
    // An empty fragment is valid.
    let d = delta(
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}"#,
    );
    let BlockDelta::InputJson(j) = d else {
        panic!()
    };
    assert!(j.partial_json.is_empty());
}

#[test]
fn thinking_and_signature_deltas() {
    let d = delta(
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think"}}"#,
    );
    let BlockDelta::Thinking(t) = d else { panic!() };
    assert_eq!(t.thinking, "Let me think");
    let d = delta(
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}"#,
    );
    let BlockDelta::Signature(s) = d else {
        panic!()
    };
    assert_eq!(s.signature.as_str(), Some("EqQBCgIYAhIM"));
}

#[test]
fn citations_delta() {
    let d = delta(
        r#"{"type":"content_block_delta","index":2,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"c","url":"https://x","title":"T","encrypted_index":"E"}}}"#,
    );
    let BlockDelta::Citations(c) = d else {
        panic!()
    };
    let Citation::WebSearchResultLocation(w) = c.citation else {
        panic!()
    };
    assert_eq!(w.url.unwrap(), "https://x");
    assert_eq!(w.encrypted_index.unwrap(), "E");
    let d = delta(
        r#"{"type":"content_block_delta","index":2,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"c","document_index":0,"document_title":null,"start_char_index":3,"end_char_index":9}}}"#,
    );
    let BlockDelta::Citations(c) = d else {
        panic!()
    };
    let Citation::CharLocation(ch) = c.citation else {
        panic!()
    };
    assert_eq!(
        (ch.document_index, ch.start_char_index, ch.end_char_index),
        (Some(0), Some(3), Some(9))
    );
    assert_eq!(ch.document_title, None);
}

#[test]
fn compaction_and_unknown_deltas() {
    let d = delta(
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":"summary"}}"#,
    );
    let BlockDelta::Compaction(c) = d else {
        panic!()
    };
    assert_eq!(c.content.unwrap(), "summary");
    let d =
        delta(r#"{"type":"content_block_delta","index":0,"delta":{"type":"future_delta","x":1}}"#);
    let BlockDelta::Other { ty, raw } = d else {
        panic!()
    };
    assert_eq!(ty, "future_delta");
    assert_eq!(raw.get(), r#"{"type":"future_delta","x":1}"#);
    // A known delta without its text does not fit its type.
    let data = r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta"}}"#;
    let e = unfit(data, AnthropicEvent::parse(data));
    assert_eq!(e.kind(), DecodeErrorKind::MissingField { field: "text" });
    assert_eq!(e.event_type(), "content_block_delta");
}

#[test]
fn message_lifecycle() {
    let events = frames(concat!(
        "event: message_start\n",
        r#"data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":25,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":7,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"service_tier":"standard"}}}"#,
        "\n\nevent: content_block_start\n",
        r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#,
        "\n\nevent: ping\ndata: {\"type\": \"ping\"}\n\n",
        "event: content_block_stop\n",
        r#"data: {"type":"content_block_stop","index":0}"#,
        "\n\nevent: message_delta\n",
        r#"data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89,"server_tool_use":{"web_search_requests":1}}}"#,
        "\n\nevent: message_stop\n",
        r#"data: {"type":"message_stop"}"#,
        "\n\n",
    ));
    let events: Vec<_> = events
        .iter()
        .map(|f| AnthropicEvent::from_frame(f).unwrap())
        .collect();
    let tys: Vec<_> = events.iter().map(AnthropicEvent::ty).collect();
    assert_eq!(
        tys,
        [
            "message_start",
            "content_block_start",
            "ping",
            "content_block_stop",
            "message_delta",
            "message_stop"
        ]
    );
    let AnthropicEvent::MessageStart(s) = &events[0] else {
        panic!()
    };
    let m = &s.message;
    assert_eq!(m.id.unwrap(), "msg_1");
    assert_eq!(m.ty.unwrap(), "message");
    assert_eq!(m.role.unwrap(), "assistant");
    assert!(m.content.unwrap().is_empty());
    assert_eq!(m.model.unwrap(), "claude-sonnet-4-5");
    assert_eq!((m.stop_reason, m.stop_sequence), (None, None));
    let u = m.usage.clone().unwrap();
    assert_eq!((u.input_tokens, u.output_tokens), (Some(25), Some(1)));
    assert_eq!(u.cache_read_input_tokens, Some(7));
    assert_eq!(u.cache_creation.unwrap().ephemeral_1h_input_tokens, Some(0));
    assert_eq!(u.service_tier.unwrap(), "standard");

    let AnthropicEvent::ContentBlockStart(b) = &events[1] else {
        panic!()
    };
    assert_eq!(events[1].index(), Some(0));
    let ContentBlock::ToolUse(t) = &b.content_block else {
        panic!()
    };
    assert_eq!(t.name.unwrap(), "get_weather");
    assert_eq!(t.input.unwrap().get(), "{}");

    assert_eq!(events[3].index(), Some(0));
    let AnthropicEvent::MessageDelta(d) = &events[4] else {
        panic!()
    };
    assert_eq!(d.delta.stop_reason.unwrap(), "tool_use");
    let u = d.usage.clone().unwrap();
    assert_eq!((u.output_tokens, u.input_tokens), (Some(89), None));
    assert_eq!(u.server_tool_use.unwrap().web_search_requests, Some(1));
    assert!(matches!(events[5], AnthropicEvent::MessageStop(_)));
}

#[test]
fn content_blocks() {
    let block = |data: &'static str| match AnthropicEvent::parse(data).unwrap() {
        AnthropicEvent::ContentBlockStart(s) => s.content_block,
        other => panic!("{other:?}"),
    };
    let ContentBlock::Text(t) = block(
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"","citations":[]}}"#,
    ) else {
        panic!()
    };
    assert!(t.text.unwrap().is_empty() && t.citations.unwrap().is_empty());
    let ContentBlock::Thinking(t) = block(
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}"#,
    ) else {
        panic!()
    };
    assert!(t.signature.unwrap().is_empty());
    let ContentBlock::RedactedThinking(r) = block(
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"EmwKAhgB"}}"#,
    ) else {
        panic!()
    };
    assert_eq!(r.data.unwrap(), "EmwKAhgB");
    let b = block(
        r#"{"type":"content_block_start","index":1,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"u"}]}}"#,
    );
    assert_eq!(b.ty(), "web_search_tool_result");
    let ContentBlock::WebSearchToolResult(r) = b else {
        panic!()
    };
    assert_eq!(r.tool_use_id.unwrap(), "srvtoolu_1");
    assert_eq!(
        r.content.unwrap().get(),
        r#"[{"type":"web_search_result","url":"u"}]"#
    );
    let b = block(
        r#"{"type":"content_block_start","index":1,"content_block":{"type":"brand_new_block","z":[]}}"#,
    );
    assert!(matches!(b, ContentBlock::Other { .. }));
    assert_eq!(b.ty(), "brand_new_block");
}

#[test]
fn error_event() {
    let f = frames(
        "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n",
    );
    let AnthropicEvent::Error(e) = AnthropicEvent::from_frame(&f[0]).unwrap() else {
        panic!()
    };
    assert_eq!(e.error.ty.unwrap(), "overloaded_error");
    assert_eq!(e.error.message.unwrap(), "Overloaded");
}

#[test]
fn unknown_events_pass_through() {
    let data = r#"{"type":"message_paused","reason":{"x":1}}"#;
    let AnthropicEvent::Unknown {
        ty,
        raw,
        error: None,
    } = AnthropicEvent::parse(data).unwrap()
    else {
        panic!()
    };
    assert_eq!(ty, "message_paused");
    assert_eq!(raw.get(), data);
    // Unknown event name: dispatched on the data's type.
    let e = AnthropicEvent::parse_named("something_new", r#"{"type":"ping"}"#).unwrap();
    assert!(matches!(e, AnthropicEvent::Ping(_)));
}

#[test]
fn event_name_is_checked_against_type() {
    let data = r#"{"type":"ping"}"#;
    let e = unfit(data, AnthropicEvent::parse_named("message_stop", data));
    assert_eq!(e.kind(), DecodeErrorKind::TypeMismatch);
    assert_eq!(
        AnthropicEvent::parse_named("message_stop", data)
            .unwrap()
            .ty(),
        "ping"
    );
    assert_eq!(e.event_type(), "message_stop");
    assert_eq!(e.offset(), 8); // the `"ping"` string
                               // The name alone is enough when the data has no `type`.
    let e = AnthropicEvent::parse_named("content_block_stop", r#"{"index":4}"#).unwrap();
    assert_eq!(e.index(), Some(4));
    // `type` after other members (sorted keys) takes the slow path.
    let e = AnthropicEvent::parse(r#"{"index":4,"type":"content_block_stop"}"#).unwrap();
    assert_eq!(e.index(), Some(4));
}

#[test]
fn decode_errors() {
    // Valid JSON that does not fit: `Unknown` with the error.
    for (data, kind) in [
        (
            r#"{"index":1}"#,
            DecodeErrorKind::MissingField { field: "type" },
        ),
        (
            r#"{"type":1}"#,
            DecodeErrorKind::WrongType { field: "type" },
        ),
        (
            r#"{"type":"content_block_stop","index":-1}"#,
            DecodeErrorKind::WrongType { field: "index" },
        ),
        (
            r#"{"type":"content_block_stop"}"#,
            DecodeErrorKind::MissingField { field: "index" },
        ),
    ] {
        assert_eq!(
            unfit(data, AnthropicEvent::parse(data)).kind(),
            kind,
            "{data}"
        );
    }
    // Not JSON, or not an object: errors.
    let e = AnthropicEvent::parse("[DONE]").unwrap_err();
    assert!(matches!(e.kind(), DecodeErrorKind::Json(_)));
    let e = AnthropicEvent::parse(r#"{"type":"ping""#).unwrap_err();
    assert!(matches!(e.kind(), DecodeErrorKind::Json(j) if j.is_eof()));
}

#[test]
fn owned_form_outlives_the_frame() {
    let f = frames("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":5,\"delta\":{\"type\":\"text_delta\",\"text\":\"k\"}}\n\n");
    let owned = OwnedAnthropicEvent::from_frame(&f[0]).unwrap();
    drop(f);
    let event = owned.get();
    assert_eq!(event.index(), Some(5));
    assert_eq!(OwnedAnthropicEvent::parse(owned.as_str()).unwrap(), owned);
    assert_eq!(event.to_owned(), owned);
}

#[test]
fn views_are_send_sync_and_small() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<AnthropicEvent<'static>>();
    send_sync::<OwnedAnthropicEvent>();
    let size = std::mem::size_of::<AnthropicEvent<'static>>();
    assert!(size <= 1024, "AnthropicEvent is {size} bytes");
}
