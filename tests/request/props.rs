//! No panics on any body: arbitrary JSON values, and the rich fixtures with
//! one value anywhere replaced by an arbitrary one. What a writer produces
//! its own dialect's reader accepts.

use proptest::prelude::*;
use serde_json::{Map, Value};
use ssekit::request::{translate, RequestConfig, Translated};
use ssekit::turn::Dialect;

use super::support::{fixture, source, DIALECTS};

fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        // Strings from the dialects' vocabularies, and any.
        prop::sample::select(vec![
            "user",
            "assistant",
            "system",
            "developer",
            "tool",
            "model",
            "function",
            "text",
            "input_text",
            "output_text",
            "input_image",
            "input_file",
            "image_url",
            "image",
            "document",
            "file",
            "tool_use",
            "tool_result",
            "thinking",
            "function_call",
            "function_call_output",
            "reasoning",
            "message",
            "json_schema",
            "json_object",
            "auto",
            "none",
            "required",
            "any",
            "ANY",
            "AUTO",
            "NONE",
            "base64",
            "url",
            "enabled",
            "disabled",
            "high",
            "low",
            "data:image/png;base64,AAAA",
            "{\"a\":1}",
            "call_1",
        ])
        .prop_map(|s| Value::String(s.to_owned())),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec![
                        "role",
                        "content",
                        "type",
                        "text",
                        "tool_calls",
                        "id",
                        "call_id",
                        "name",
                        "arguments",
                        "input",
                        "output",
                        "messages",
                        "contents",
                        "parts",
                        "source",
                        "functionCall",
                        "functionResponse",
                        "args",
                        "response",
                        "tools",
                        "function",
                        "parameters",
                        "tool_choice",
                        "stream",
                        "thought",
                        "inlineData",
                        "mimeType",
                        "data",
                        "image_url",
                        "url",
                        "tool_use_id",
                        "tool_call_id",
                    ]),
                    inner
                ),
                0..6
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect::<Map<_, _>>()
            )),
        ]
    })
}

fn every_direction(body: &[u8]) {
    for from in DIALECTS {
        for to in DIALECTS {
            if let Ok(t) = translate(body, source(from, "m", true), to, &RequestConfig::default()) {
                reread(&t, to);
            }
        }
    }
}

/// A translated body is one its dialect's reader takes (tool results still
/// tied to their calls, every type right).
fn reread(t: &Translated, to: Dialect) {
    let bytes = serde_json::to_vec(&t.body).unwrap();
    let model = t.model.clone().unwrap_or_default();
    if let Err(e) = translate(
        &bytes,
        source(to, &model, t.stream),
        to,
        &RequestConfig::default(),
    ) {
        panic!("{to:?} body its reader refuses: {e}\n{}", t.body);
    }
}

/// Every path in `v` (containers included).
fn paths(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(path.clone());
    match v {
        Value::Object(o) => {
            for (k, v) in o {
                path.push(k.clone());
                paths(v, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                path.push(i.to_string());
                paths(v, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn replace(v: &mut Value, path: &[String], new: Value) {
    match path.split_first() {
        None => *v = new,
        Some((k, rest)) => {
            let next = match v {
                Value::Object(o) => o.get_mut(k),
                Value::Array(a) => k.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
                _ => None,
            };
            if let Some(n) = next {
                replace(n, rest, new);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_values(v in json()) {
        every_direction(&serde_json::to_vec(&v).unwrap());
    }

    #[test]
    fn fixtures_with_one_value_replaced(d in 0usize..4, pick in any::<prop::sample::Index>(), new in json()) {
        let from = DIALECTS[d];
        let mut body = fixture(from);
        let mut all = Vec::new();
        paths(&body, &mut Vec::new(), &mut all);
        let path = pick.get(&all).clone();
        replace(&mut body, &path, new);
        let bytes = serde_json::to_vec(&body).unwrap();
        for to in DIALECTS {
            if let Ok(t) = translate(&bytes, source(from, "m", true), to, &RequestConfig::default()) {
                reread(&t, to);
            }
        }
    }

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        every_direction(&bytes);
    }
}
