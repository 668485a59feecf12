//! The serde path (feature `serde`) yields the same events as the parse
//! path: borrowed views through `serde_json::from_str` (with `raw_value`),
//! nested inside a caller's own struct, and the owned forms from any
//! deserializer (here `serde_json::Value`, which offers no raw text, so the
//! value is written out as JSON and decoded again).
#![cfg(feature = "serde")]

use crate::responses_common;

use serde::Deserialize;
use ssekit::responses::{
    OutputItem, OutputTextDelta, Owned, OwnedResponsesEvent, ResponsesEvent, Usage,
};

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    event: ResponsesEvent<'a>,
    #[serde(borrow)]
    also: Option<ResponsesEvent<'a>>,
}

#[test]
fn corpus_events_through_serde_equal_the_parse_path() {
    let Some(streams) = responses_common::responses_streams() else {
        return;
    };
    let mut n = 0;
    for (name, frames) in &streams {
        for (i, frame) in frames.iter().enumerate() {
            let data = frame.data();
            if data.trim() == "[DONE]" {
                continue;
            }
            let parsed = ResponsesEvent::parse(data).unwrap();
            let via_serde: ResponsesEvent<'_> =
                serde_json::from_str(data).unwrap_or_else(|e| panic!("{name} #{i}: {e}"));
            assert_eq!(via_serde, parsed, "{name} #{i}");

            let wrapped = format!(r#"{{"event":{data},"also":null}}"#);
            let env: Envelope<'_> = serde_json::from_str(&wrapped).unwrap();
            assert_eq!(env.event, parsed, "{name} #{i}");
            assert!(env.also.is_none());

            // Any deserializer, through the owned form.
            let value: serde_json::Value = serde_json::from_str(data).unwrap();
            let owned: OwnedResponsesEvent = serde_json::from_value(value).unwrap();
            let mut a = Vec::new();
            let mut b = Vec::new();
            collect(&owned.get(), &mut a);
            collect(&parsed, &mut b);
            assert_eq!(a, b, "{name} #{i}");
            n += 1;
        }
    }
    assert!(n > 5000, "{n}");
}

/// Every field, rendered (strings unescaped, raw JSON normalized).
fn collect(view: &dyn ssekit::responses::Fields<'_>, out: &mut Vec<String>) {
    use ssekit::responses::FieldValue;
    view.for_each_field(&mut |name, value| match value {
        FieldValue::Object(o) => {
            out.push(format!("{name}{{"));
            collect(o, out);
        }
        FieldValue::Array(a) => {
            out.push(format!("{name}["));
            a.for_each_element(&mut |e| match e {
                Ok(FieldValue::Object(o)) => collect(o, out),
                Ok(FieldValue::Str(s)) => out.push(s.to_string()),
                other => out.push(format!("{other:?}")),
            });
        }
        FieldValue::Raw(r) => {
            let v: serde_json::Value = serde_json::from_str(r.get()).unwrap();
            out.push(format!("{name}={v}"));
        }
        FieldValue::Str(s) => out.push(format!("{name}={s}")),
        other => out.push(format!("{name}={other:?}")),
    });
}

#[test]
fn views_and_errors_through_serde() {
    let data = r#"{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"a\"b"}"#;
    let d: OutputTextDelta<'_> = serde_json::from_str(data).unwrap();
    assert_eq!(d.delta, "a\"b");
    let e = serde_json::from_str::<ssekit::responses::OutputTextDone<'_>>(data).unwrap_err();
    assert!(
        e.to_string().contains("event name and `type` differ"),
        "{e}"
    );

    let item: OutputItem<'_> = serde_json::from_str(
        r#"{"type":"function_call","name":"f","call_id":"c","arguments":"{}"}"#,
    )
    .unwrap();
    assert!(matches!(item, OutputItem::FunctionCall(f) if f.name.unwrap() == "f"));
    let usage: Owned<Usage<'static>> =
        serde_json::from_value(serde_json::json!({"input_tokens": 3, "total_tokens": 4})).unwrap();
    assert_eq!(usage.get().total_tokens, Some(4));

    // Borrowed views need raw text: a `Value` cannot give it.
    let value: serde_json::Value = serde_json::from_str(data).unwrap();
    let e = ResponsesEvent::deserialize(&value).unwrap_err();
    assert!(e.to_string().contains("raw_value"), "{e}");
    // Valid JSON that does not fit its type is `Unknown` with the error, as
    // from `parse`; data that is not an object is the deserializer's error.
    let event =
        serde_json::from_str::<ResponsesEvent<'_>>(r#"{"type":"response.output_text.delta"}"#)
            .unwrap();
    let e = event.decode_error().unwrap();
    assert!(e.to_string().contains("missing field `item_id`"), "{e}");
    let e = serde_json::from_str::<ResponsesEvent<'_>>("[1]").unwrap_err();
    assert!(e.to_string().contains("not a json object"), "{e}");
}
