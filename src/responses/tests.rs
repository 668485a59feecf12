use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::*;
use crate::json::JsonErrorKind;

fn parse(data: &str) -> ResponsesEvent<'_> {
    ResponsesEvent::parse(data).unwrap()
}

/// The error of valid JSON that does not fit its type: not an error of
/// `parse`, but `Unknown` with its whole text, the error handed out by
/// `decode_error` and returned by `validate`.
fn unfit(data: &str, decoded: Result<ResponsesEvent<'_>, DecodeError>) -> DecodeError {
    let event = decoded.unwrap_or_else(|e| panic!("{data}: an error, not Unknown: {e}"));
    let ResponsesEvent::Unknown {
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

#[test]
fn text_delta_borrows_and_reads_every_field() {
    let data = r#"{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_1","output_index":0,"content_index":1,"delta":"a\nb","logprobs":[{"token":"a","logprob":-0.25,"top_logprobs":[]}],"obfuscation":"xyz"}"#;
    let ResponsesEvent::OutputTextDelta(d) = parse(data) else {
        panic!()
    };
    assert_eq!(d.item_id.as_str(), Some("msg_1"));
    assert_eq!((d.output_index, d.content_index), (0, 1));
    assert_eq!(d.sequence_number, Some(4));
    assert!(d.delta.has_escapes());
    assert_eq!(d.delta, "a\nb");
    assert_eq!(d.obfuscation.unwrap().as_str(), Some("xyz"));
    let lp: Vec<_> = d.logprobs.unwrap().iter().map(Result::unwrap).collect();
    assert_eq!(lp.len(), 1);
    assert_eq!(lp[0].token.unwrap(), "a");
    assert_eq!(lp[0].logprob, Some(-0.25));
    assert!(lp[0].top_logprobs.unwrap().is_empty());
    assert_eq!(OutputTextDelta::TYPE, "response.output_text.delta");
}

#[test]
fn done_sentinel_and_missing_sequence_number() {
    assert_eq!(parse("[DONE]"), ResponsesEvent::Done);
    assert_eq!(parse(" [DONE]\n"), ResponsesEvent::Done);
    assert_eq!(parse("[DONE]").ty(), "[DONE]");
    let e = parse(
        r#"{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":1,"delta":"{\""}"#,
    );
    assert_eq!(e.sequence_number(), None);
    assert_eq!(e.ty(), "response.function_call_arguments.delta");
}

#[test]
fn both_error_shapes() {
    let flat = parse(
        r#"{"type":"error","code":"rate_limit_exceeded","message":"slow down","param":null,"sequence_number":2}"#,
    );
    let nested = parse(
        r#"{"type":"error","sequence_number":2,"error":{"type":"insufficient_quota","code":"insufficient_quota","message":"quota","param":null}}"#,
    );
    let (ResponsesEvent::ErrorEvent(flat), ResponsesEvent::ErrorEvent(nested)) = (flat, nested)
    else {
        panic!()
    };
    assert_eq!(flat.code().unwrap(), "rate_limit_exceeded");
    assert_eq!(flat.message().unwrap(), "slow down");
    assert_eq!(flat.param(), None);
    assert_eq!(flat.error_type(), None);
    assert_eq!(nested.code().unwrap(), "insufficient_quota");
    assert_eq!(nested.message().unwrap(), "quota");
    assert_eq!(nested.error_type().unwrap(), "insufficient_quota");
    assert_eq!(nested.sequence_number, Some(2));
}

#[test]
fn unknown_types_are_not_errors() {
    let data = r#" {"type":"response.brand_new","x":[1,{"y":2}],"sequence_number":9} "#;
    let ResponsesEvent::Unknown {
        ty,
        raw,
        error: None,
    } = parse(data)
    else {
        panic!()
    };
    assert_eq!(ty, "response.brand_new");
    assert_eq!(raw.get(), data.trim());
    assert_eq!(parse(data).sequence_number(), Some(9));
    // Still validated.
    let e = ResponsesEvent::parse(r#"{"type":"response.brand_new","x":[1,}"#).unwrap_err();
    assert!(matches!(e.kind(), DecodeErrorKind::Json(_)));
}

#[test]
fn type_not_first_and_escaped_keys() {
    let sorted = r#"{"content_index":0,"delta":"Hi","item_id":"m","output_index":2,"type":"response.output_text.delta"}"#;
    let ResponsesEvent::OutputTextDelta(d) = parse(sorted) else {
        panic!()
    };
    assert_eq!((d.output_index, d.delta.as_str()), (2, Some("Hi")));
    let escaped = r#"{"\u0074ype":"response.output_text.delta","item_\u0069d":"m","output_index":2,"content_index":0,"delta":"Hi"}"#;
    let ResponsesEvent::OutputTextDelta(d) = parse(escaped) else {
        panic!()
    };
    assert_eq!(d.item_id, "m");
}

#[test]
fn errors_name_the_event_field_and_offset() {
    let data =
        r#"{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0}"#;
    let e = unfit(data, ResponsesEvent::parse(data));
    assert_eq!(e.kind(), DecodeErrorKind::MissingField { field: "delta" });
    assert_eq!(e.event_type(), "response.output_text.delta");
    assert_eq!(e.offset(), 0);
    assert_eq!(
        e.to_string(),
        "missing field `delta` at byte 0 in response.output_text.delta"
    );

    let data = r#"{"type":"response.output_text.delta","item_id":"m","output_index":"0","content_index":0,"delta":""}"#;
    let e = unfit(data, ResponsesEvent::parse(data));
    assert_eq!(
        e.kind(),
        DecodeErrorKind::WrongType {
            field: "output_index"
        }
    );
    assert_eq!(&data[e.offset()..e.offset() + 3], r#""0""#);

    let data = r#"{"delta":"x"}"#;
    let e = unfit(data, ResponsesEvent::parse(data));
    assert_eq!(e.kind(), DecodeErrorKind::MissingField { field: "type" });
    let data = r#" {"type":5} "#;
    let e = unfit(data, ResponsesEvent::parse(data));
    assert_eq!(e.kind(), DecodeErrorKind::WrongType { field: "type" });
    let ResponsesEvent::Unknown { ty, .. } = parse(data) else {
        panic!()
    };
    assert_eq!(ty, "");
    // No `type` is made up for it among its fields.
    let mut names = Vec::new();
    parse(data).for_each_field(&mut |name, _| names.push(name));
    assert!(names.is_empty(), "{names:?}");
    let e = ResponsesEvent::parse("[1]").unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::NotAnObject);
    let e = ResponsesEvent::parse(r#"{"type":"x""#).unwrap_err();
    match e.kind() {
        DecodeErrorKind::Json(j) => assert_eq!(j.kind(), JsonErrorKind::Eof),
        k => panic!("{k:?}"),
    }
    assert!(core::error::Error::source(&e).is_some());

    // A nested wrong type names the nested field. The response object is
    // decoded when read (`validate` reads every lazy payload).
    let event = ResponsesEvent::parse(
        r#"{"type":"response.completed","response":{"usage":{"input_tokens":"many"}}}"#,
    )
    .unwrap();
    let ResponsesEvent::ResponseCompleted(c) = &event else {
        panic!()
    };
    assert_eq!(c.response.get().unwrap_err().event_type(), "");
    let e = event.validate().unwrap_err();
    assert_eq!(
        Some(e),
        c.response
            .get()
            .err()
            .map(|e| e.with_event_type("response.completed"))
    );
    assert_eq!(
        e.kind(),
        DecodeErrorKind::WrongType {
            field: "input_tokens"
        }
    );
    assert_eq!(e.event_type(), "response.completed");
}

#[test]
fn the_expected_type_compared_in_place_agrees_with_decoding_it() {
    // With an event name, the data's `type` is compared as written before it
    // is scanned; near misses must still be scanned and judged as before.
    let rest = r#","item_id":"m","output_index":0,"content_index":0,"delta":"x"}"#;
    let named = |ty: &str| {
        let data = alloc::format!(r#"{{"type":{ty}{rest}"#);
        let decoded = ResponsesEvent::parse_named("response.output_text.delta", &data);
        match decoded {
            Ok(ResponsesEvent::OutputTextDelta(_)) => Ok(true),
            Ok(ResponsesEvent::Unknown { .. }) => {
                let e = unfit(&data, decoded);
                Err((e.kind(), e.offset()))
            }
            other => panic!("{data}: {other:?}"),
        }
    };
    assert_eq!(named(r#""response.output_text.delta""#), Ok(true));
    // The same text with an escape is the same type.
    assert_eq!(named(r#""response.output_text.delt\u0061""#), Ok(true));
    // A longer or shorter type, or one that is not a string.
    assert_eq!(
        named(r#""response.output_text.deltaX""#),
        Err((DecodeErrorKind::TypeMismatch, 8))
    );
    assert_eq!(
        named(r#""response.output_text.delt""#),
        Err((DecodeErrorKind::TypeMismatch, 8))
    );
    assert!(matches!(
        named("1"),
        Err((DecodeErrorKind::WrongType { field: "type" }, 8))
    ));
    // Cut inside the type: a JSON error at the end of the data.
    let cut = r#"{"type":"response.output_text.delta"#;
    let e = ResponsesEvent::parse_named("response.output_text.delta", cut).unwrap_err();
    assert!(matches!(e.kind(), DecodeErrorKind::Json(_)), "{e}");
    assert_eq!(e.offset(), cut.len());
    let cut = r#"{"type":"response.output_text.delta""#;
    assert!(ResponsesEvent::parse_named("response.output_text.delta", cut).is_err());
}

#[test]
fn event_names_are_checked_against_type() {
    let data = r#"{"type":"response.output_text.done","item_id":"m","output_index":0,"content_index":0,"text":"t"}"#;
    let e = unfit(
        data,
        ResponsesEvent::parse_named("response.output_text.delta", data),
    );
    assert_eq!(e.kind(), DecodeErrorKind::TypeMismatch);
    assert_eq!(e.event_type(), "response.output_text.delta");
    // The `type` of the data, not the name, is the Unknown's.
    assert_eq!(
        ResponsesEvent::parse_named("response.output_text.delta", data)
            .unwrap()
            .ty(),
        "response.output_text.done"
    );
    assert!(matches!(
        ResponsesEvent::parse_named("response.output_text.done", data),
        Ok(ResponsesEvent::OutputTextDone(_))
    ));
    // A name the crate does not know: dispatch on the type.
    assert!(matches!(
        ResponsesEvent::parse_named("message", data),
        Ok(ResponsesEvent::OutputTextDone(_))
    ));
    // The name alone suffices when the data has no type.
    let untyped = r#"{"sequence_number":3}"#;
    assert!(matches!(
        ResponsesEvent::parse_named("keepalive", untyped),
        Ok(ResponsesEvent::Keepalive(k)) if k.sequence_number == Some(3)
    ));
    let frame = Frame::new(data).with_event("response.output_text.done");
    assert!(matches!(
        ResponsesEvent::from_frame(&frame),
        Ok(ResponsesEvent::OutputTextDone(_))
    ));
}

#[test]
fn response_object_and_output_items() {
    let data = r#"{"type":"response.completed","sequence_number":9,"response":{"id":"resp_1","status":"completed","model":"gpt","created_at":1763474589,"error":null,"incomplete_details":{"reason":"max_output_tokens"},"usage":{"input_tokens":3,"input_tokens_details":{"cached_tokens":1},"output_tokens":5,"output_tokens_details":{"reasoning_tokens":2},"total_tokens":8},"output":[{"type":"message","id":"msg","role":"assistant","status":"completed","content":[{"type":"output_text","text":"hi","annotations":[{"type":"url_citation","url":"u","start_index":0,"end_index":2,"title":"t"}]}]},{"type":"reasoning","id":"rs","summary":[{"type":"summary_text","text":"s"}]},{"type":"future_item","id":"f"},7],"tools":[],"text":{"format":{"type":"text"}}}}"#;
    let ResponsesEvent::ResponseCompleted(c) = parse(data) else {
        panic!()
    };
    let r = c.response.get().unwrap();
    assert_eq!(r.id.unwrap(), "resp_1");
    assert_eq!(r.error, None);
    assert_eq!(r.created_at, Some(1763474589.0));
    assert_eq!(
        r.incomplete_details.unwrap().reason.unwrap(),
        "max_output_tokens"
    );
    let usage = r.usage.unwrap();
    assert_eq!((usage.input_tokens, usage.total_tokens), (Some(3), Some(8)));
    assert_eq!(usage.input_tokens_details.unwrap().cached_tokens, Some(1));
    assert_eq!(
        usage.output_tokens_details.unwrap().reasoning_tokens,
        Some(2)
    );
    assert_eq!(r.text.unwrap().get(), r#"{"format":{"type":"text"}}"#);
    let output: Vec<_> = r.output.unwrap().iter().collect();
    assert_eq!(output.len(), 4);
    let Ok(OutputItem::Message(m)) = &output[0] else {
        panic!()
    };
    assert_eq!(m.role.unwrap(), "assistant");
    let part = m.content.unwrap().first().unwrap().unwrap();
    let ContentPart::OutputText(t) = &part else {
        panic!()
    };
    assert_eq!(part.ty(), "output_text");
    assert_eq!(t.text.unwrap(), "hi");
    let Ok(Annotation::UrlCitation(u)) = t.annotations.unwrap().first().unwrap() else {
        panic!()
    };
    assert_eq!((u.start_index, u.end_index), (Some(0), Some(2)));
    let Ok(OutputItem::Reasoning(rs)) = &output[1] else {
        panic!()
    };
    assert!(matches!(
        rs.summary.unwrap().first(),
        Some(Ok(ContentPart::SummaryText(_)))
    ));
    let Ok(OutputItem::Other { ty, raw }) = &output[2] else {
        panic!()
    };
    assert_eq!(
        (*ty, raw.get()),
        (
            JsonStr::new("\"future_item\"", false),
            r#"{"type":"future_item","id":"f"}"#
        )
    );
    let Err(e) = &output[3] else { panic!() };
    assert_eq!(e.kind(), DecodeErrorKind::WrongType { field: "" });
    assert_eq!(&data[e.offset()..e.offset() + 1], "7");
}

#[test]
fn partial_items_decode() {
    let data = r#"{"type":"response.output_item.added","output_index":0,"item":{"id":"ig","type":"image_generation_call","status":"in_progress"}}"#;
    let ResponsesEvent::OutputItemAdded(a) = parse(data) else {
        panic!()
    };
    let OutputItem::ImageGenerationCall(ig) = a.item.get().unwrap() else {
        panic!()
    };
    assert_eq!(ig.status.unwrap(), "in_progress");
    assert_eq!(ig.result, None);
}

#[test]
fn every_type_has_a_distinct_variant() {
    let mut types: Vec<_> = ResponsesEvent::TYPES.to_vec();
    types.sort_unstable();
    types.dedup();
    assert_eq!(types.len(), 78);
    for ty in ResponsesEvent::TYPES {
        let fields = ResponsesEvent::fields_of(ty).unwrap();
        assert!(fields.contains(&"sequence_number"), "{ty}");
    }
}

#[test]
fn display_of_every_kind() {
    let e = |kind| DecodeError::new(kind, 3).to_string();
    assert_eq!(
        e(DecodeErrorKind::NotAnObject),
        "not a json object at byte 3"
    );
    assert_eq!(
        e(DecodeErrorKind::WrongType { field: "delta" }),
        "wrong type for field `delta` at byte 3"
    );
    assert_eq!(
        e(DecodeErrorKind::TypeMismatch),
        "event name and `type` differ at byte 3"
    );
}

#[test]
fn owned_forms_outlive_the_input() {
    let data = alloc::string::String::from(
        r#" {"type":"response.output_item.done","output_index":1,"item":{"type":"message","id":"m","content":[{"type":"output_text","text":"hi"}]}} "#,
    );
    let event = ResponsesEvent::parse(&data).unwrap();
    let owned = event.to_owned();
    let ResponsesEvent::OutputItemDone(done) = &event else {
        panic!()
    };
    let item = done.item.get().unwrap().to_owned();
    let part = match &done.item.get().unwrap() {
        OutputItem::Message(m) => m.content.unwrap().first().unwrap().unwrap().to_owned(),
        _ => panic!(),
    };
    assert_eq!(event.raw().unwrap().get(), data.trim());
    assert_eq!(owned.get(), event);
    assert_eq!(owned.as_str(), data.trim());
    drop(data);
    assert!(matches!(owned.get(), ResponsesEvent::OutputItemDone(d) if d.output_index == 1));
    assert!(matches!(item.get(), OutputItem::Message(m) if m.id.unwrap() == "m"));
    assert!(matches!(part.get(), ContentPart::OutputText(t) if t.text.unwrap() == "hi"));
    assert_eq!(ResponsesEvent::Done.to_owned().get(), ResponsesEvent::Done);
    let unknown = ResponsesEvent::parse(r#"{"type":"x.y"}"#)
        .unwrap()
        .to_owned();
    assert_eq!(unknown.get().ty(), "x.y");
    // Decoded by name, without a type in the data: kept by name.
    let frame = Frame::new(r#"{"sequence_number":1}"#).with_event("keepalive");
    let owned = OwnedResponsesEvent::from_frame(&frame).unwrap();
    drop(frame);
    assert!(matches!(owned.get(), ResponsesEvent::Keepalive(_)));
    assert_eq!(
        OwnedResponsesEvent::parse("[DONE]").unwrap().get(),
        ResponsesEvent::Done
    );
    let view = {
        let data = alloc::string::String::from(
            r#"{"type":"response.output_text.done","item_id":"m","output_index":0,"content_index":0,"text":"t"}"#,
        );
        let ResponsesEvent::OutputTextDone(done) = ResponsesEvent::parse(&data).unwrap() else {
            panic!()
        };
        done.to_owned()
    };
    assert!(matches!(view.get(), ResponsesEvent::OutputTextDone(d) if d.text == "t"));
}

#[test]
#[cfg(target_pointer_width = "64")]
fn views_are_shareable_and_their_sizes_pinned() {
    use core::mem::size_of;
    fn send_sync<T: Send + Sync>() {}
    send_sync::<ResponsesEvent<'_>>();
    send_sync::<OwnedResponsesEvent>();
    send_sync::<DecodeError>();
    // The large payloads (the response object, items, parts, annotations,
    // errors) are `Lazy`: the enum is no bigger than its largest delta.
    assert!(size_of::<Response<'_>>() <= 960);
    assert!(size_of::<Lazy<'_, Response<'_>>>() <= 32);
    assert!(size_of::<OutputTextDelta<'_>>() <= 160);
    assert!(size_of::<ResponsesEvent<'_>>() <= 160);
    assert!(size_of::<ResponsesEvent<'_>>() <= size_of::<OutputTextDelta<'_>>() + 8);
    assert!(size_of::<DecodeError>() <= 48);
}

/// Issue 11, item 2: the event is read as `serde_json::Value`, JavaScript's
/// `JSON.parse` and Python's `json` read it: the last of duplicate members
/// wins, `type` included, and keys and type values are compared unescaped.
/// Each case names the type and delta those readers see.
#[test]
fn type_and_fields_are_read_as_every_json_reader_reads_them() {
    const D: &str = "response.output_text.delta";
    let tail = r#""item_id":"m","output_index":0,"content_index":0,"delta":"hi""#;
    let cases = [
        // A later `type` overrides the first, either way round.
        (format!(r#"{{"type":"x.other","type":"{D}",{tail}}}"#), D),
        (
            format!(r#"{{"type":"{D}",{tail},"type":"x.other"}}"#),
            "x.other",
        ),
        (
            format!(r#"{{"type":"{D}","type":"response.refusal.delta",{tail}}}"#),
            "response.refusal.delta",
        ),
        (format!(r#"{{{tail},"type":"x.other","type":"{D}"}}"#), D),
        (format!(r#"{{"type":1,"type":"{D}",{tail}}}"#), D),
        // Escaped type values and keys.
        (
            format!(r#"{{"type":"response.output_text.d\u0065lta",{tail}}}"#),
            D,
        ),
        (format!(r#"{{"\u0074ype":"{D}",{tail}}}"#), D),
        (
            format!(r#"{{"type":"x.other","t\u0079pe":"{D}",{tail}}}"#),
            D,
        ),
    ];
    for (data, want) in &cases {
        let ev = ResponsesEvent::parse(data).unwrap_or_else(|e| panic!("{data}: {e}"));
        match ev {
            ResponsesEvent::OutputTextDelta(d) => {
                assert_eq!(*want, D, "{data}");
                assert_eq!(d.delta, "hi", "{data}");
            }
            ResponsesEvent::RefusalDelta(d) => {
                assert_eq!(*want, "response.refusal.delta", "{data}");
                assert_eq!(d.delta, "hi", "{data}");
            }
            ResponsesEvent::Unknown { ty, .. } => assert_eq!(ty, *want, "{data}"),
            other => panic!("{data}: {other:?}"),
        }
    }
    // Other fields: the last duplicate, also in the fast path.
    let data = format!(
        r#"{{"type":"{D}","item_id":"m","output_index":0,"content_index":0,"delta":"a","delta":"b","output_index":7}}"#
    );
    let ResponsesEvent::OutputTextDelta(d) = parse(&data) else {
        panic!()
    };
    assert_eq!((d.delta.as_str(), d.output_index), (Some("b"), 7));
    // The last `type` is not a string: an error, not a guess.
    let data = format!(r#"{{"type":"{D}",{tail},"type":7}}"#);
    let e = unfit(&data, ResponsesEvent::parse(&data));
    assert_eq!(e.kind(), DecodeErrorKind::WrongType { field: "type" });
    // With an SSE event name, every `type` must agree with it.
    let data = format!(r#"{{"type":"{D}",{tail},"type":"x.other"}}"#);
    let e = unfit(&data, ResponsesEvent::parse_named(D, &data));
    assert_eq!(e.kind(), DecodeErrorKind::TypeMismatch);
    let data = format!(r#"{{"type":"{D}",{tail},"type":"response.output_text.d\u0065lta"}}"#);
    assert!(matches!(
        ResponsesEvent::parse_named(D, &data),
        Ok(ResponsesEvent::OutputTextDelta(_))
    ));
}

/// The same rule for the tagged enums inside events (items, parts).
#[test]
fn nested_types_are_read_by_the_last_member_unescaped() {
    let item = |item: &str| {
        format!(
            r#"{{"type":"response.output_item.added","output_index":0,"sequence_number":1,"item":{item}}}"#
        )
    };
    for (data, want) in [
        (
            item(
                r#"{"type":"x","type":"function_call","id":"fc","call_id":"c","name":"f","arguments":""}"#,
            ),
            "function_call",
        ),
        (
            item(
                r#"{"type":"function_c\u0061ll","id":"fc","call_id":"c","name":"f","arguments":""}"#,
            ),
            "function_call",
        ),
        (
            item(
                r#"{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"","type":"x.other"}"#,
            ),
            "x.other",
        ),
        // `id` first, as OpenAI sends items (decoded in one walk): the same
        // rule.
        (
            item(r#"{"id":"fc","type":"function_call","call_id":"c","name":"f","arguments":""}"#),
            "function_call",
        ),
        (
            item(
                r#"{"id":"fc","type":"function_call","call_id":"c","arguments":"","type":"message"}"#,
            ),
            "message",
        ),
        (
            item(r#"{"id":"fc","type":"x","call_id":"c","type":"function_call"}"#),
            "function_call",
        ),
        (
            item(r#"{"id":"fc","type":"function_call","type":"x.other","name":"f"}"#),
            "x.other",
        ),
        (
            item(r#"{"id":"fc","t\u0079pe":"function_call","call_id":"c"}"#),
            "function_call",
        ),
    ] {
        let ResponsesEvent::OutputItemAdded(e) = parse(&data) else {
            panic!("{data}")
        };
        let got = e.item.get().unwrap();
        assert_eq!(got.ty(), want, "{data}");
        if let OutputItem::FunctionCall(call) = got {
            assert_eq!(call.id.unwrap(), "fc", "{data}");
        }
    }
}

/// Issue 13: the large payloads are decoded when read; `validate` reads them
/// all, the accumulator and the linter check them as an eager decode did.
#[test]
fn lazy_payloads_fail_when_read_and_strict_consumers_still_reject_them() {
    let data = r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":5}}"#;
    let event = ResponsesEvent::parse(data).unwrap();
    let e = event.validate().unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::WrongType { field: "id" });
    assert_eq!(e.event_type(), "response.output_item.added");
    assert_eq!(&data[e.offset()..e.offset() + 1], "5");
    // Not an object: still an error of the event itself.
    let not_object = r#"{"type":"response.completed","response":[]}"#;
    let e = unfit(not_object, ResponsesEvent::parse(not_object));
    assert_eq!(e.kind(), DecodeErrorKind::WrongType { field: "response" });
    // Kept as it is when owned: valid JSON is passed on.
    let owned = OwnedResponsesEvent::parse(not_object).unwrap();
    assert_eq!(owned.get().decode_error(), Some(e));
    // The owned form keeps it; reading the payload tells.
    let owned = OwnedResponsesEvent::parse(data).unwrap();
    assert_eq!(owned.get().validate(), Err(e_of(data)));
    let mut acc = crate::accumulate::ResponsesAccumulator::new();
    let err = acc.feed(&event).unwrap_err();
    assert!(
        matches!(err.kind(), crate::accumulate::AccumulateErrorKind::Decode(d) if d == e_of(data))
    );
    // A known type that does not fit is reported the same way, not applied.
    let unfit_event = parse(not_object);
    let err = acc.feed(&unfit_event).unwrap_err();
    assert_eq!(
        err.kind(),
        crate::accumulate::AccumulateErrorKind::Decode(e_of(not_object))
    );
    // Not sticky: the next event is applied.
    acc.feed(&parse(r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m"}}"#))
        .unwrap();
    let settings = parse(
        r#"{"type":"response.image_generation_call.partial_image","output_index":0,"item_id":"ig","partial_image_index":0,"partial_image_b64":"QQ==","size":"1536x1024","quality":"low"}"#,
    );
    let ResponsesEvent::ImageGenerationCallPartialImage(p) = settings else {
        panic!()
    };
    let [size, quality, background, format] = p.settings();
    assert_eq!(size.unwrap(), "1536x1024");
    assert_eq!(quality.unwrap(), "low");
    assert_eq!((background, format), (None, None));
}

fn e_of(data: &str) -> DecodeError {
    ResponsesEvent::parse(data).unwrap().validate().unwrap_err()
}

/// Issue 13: `EventKind` is the one table of event types and their roles.
#[test]
fn event_kinds_round_trip_their_types_and_carry_roles() {
    assert_eq!(EventKind::ALL.len(), ResponsesEvent::TYPES.len());
    for (kind, ty) in EventKind::ALL.iter().zip(ResponsesEvent::TYPES) {
        assert_eq!(kind.ty(), *ty);
        assert_eq!(EventKind::from_type(ty), *kind);
    }
    assert_eq!(EventKind::from_type("response.future"), EventKind::Unknown);
    assert_eq!(EventKind::from_type("[DONE]"), EventKind::Done);
    assert_eq!(ResponsesEvent::Done.kind(), EventKind::Done);
    let delta = parse(
        r#"{"type":"response.reasoning_summary_text.delta","item_id":"rs","output_index":0,"summary_index":1,"delta":"x"}"#,
    );
    assert_eq!(delta.kind(), EventKind::ReasoningSummaryTextDelta);
    assert_eq!(delta.kind().role(), EventRole::Delta(TextKind::SummaryText));
    assert_eq!(TextKind::SummaryText.part(), Some(PartKind::Summary));
    assert_eq!(
        PartKind::Summary.added_event().role(),
        EventRole::PartAdded(PartKind::Summary)
    );
    let unknown = parse(r#"{"type":"response.future","x":1}"#);
    assert_eq!(unknown.kind(), EventKind::Unknown);
    assert_eq!(unknown.kind().role(), EventRole::Other);
    let count = |f: fn(EventRole) -> bool| EventKind::ALL.iter().filter(|k| f(k.role())).count();
    assert_eq!(count(|r| r == EventRole::Terminal), 3);
    assert_eq!(count(|r| r == EventRole::Lifecycle), 3);
    assert_eq!(count(|r| matches!(r, EventRole::Delta(_))), 14);
    assert_eq!(count(|r| matches!(r, EventRole::TextDone(_))), 14);
}
