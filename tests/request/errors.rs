//! Bad bodies give typed errors with the JSON path; tool results tied to
//! calls; what the targets refuse is listed; upstream errors translated.

use serde_json::{json, Value};
use ssekit::request::{
    translate, translate_error, ErrorKind, NotCarriedKind, RequestConfig, RequestErrorKind, Source,
};
use ssekit::turn::Dialect;

fn err(body: &str, from: Source<'_>) -> (RequestErrorKind, String, Option<usize>) {
    let e = translate(
        body.as_bytes(),
        from,
        Dialect::Chat,
        &RequestConfig::default(),
    )
    .unwrap_err();
    (e.kind, e.path, e.offset)
}

fn ok(body: &Value, from: Source<'_>, to: Dialect) -> ssekit::request::Translated {
    translate(
        &serde_json::to_vec(body).unwrap(),
        from,
        to,
        &RequestConfig::default(),
    )
    .unwrap()
}

const GEMINI: Source<'static> = Source::Gemini {
    model: "g",
    stream: false,
};

#[test]
fn invalid_json_has_line_column_and_byte_offset() {
    let body = "{\"model\": \"m\",\n \"input\": [}";
    let (kind, path, offset) = err(body, Source::Responses);
    // The offending byte is the `}` that closes no array.
    let at = body.find('}').unwrap();
    let line_start = body.find('\n').unwrap() + 1;
    assert_eq!(
        kind,
        RequestErrorKind::InvalidJson {
            line: 2,
            column: at - line_start + 1
        }
    );
    assert_eq!((path.as_str(), offset), ("", Some(at)));
    let e = translate(
        body.as_bytes(),
        Source::Responses,
        Dialect::Chat,
        &RequestConfig::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "invalid json at line 2 column {} (byte {at})",
            at - line_start + 1
        )
    );
}

#[test]
fn wrong_types_and_missing_fields_name_their_path() {
    let cases: &[(&str, Source<'_>, RequestErrorKind, &str)] = &[
        (
            "[1]",
            Source::Chat,
            RequestErrorKind::WrongType("object"),
            "",
        ),
        (
            r#"{"input":[{"role":"user","content":5}]}"#,
            Source::Responses,
            RequestErrorKind::WrongType("array"),
            "/input/0/content",
        ),
        (
            r#"{"input":[{"role":"user","content":[{"type":"input_text","text":1}]}]}"#,
            Source::Responses,
            RequestErrorKind::WrongType("string"),
            "/input/0/content/0/text",
        ),
        (
            r#"{"input":[{"role":"boss","content":"x"}]}"#,
            Source::Responses,
            RequestErrorKind::InvalidValue,
            "/input/0/role",
        ),
        (
            r#"{"input":"x","temperature":"hot"}"#,
            Source::Responses,
            RequestErrorKind::WrongType("number"),
            "/temperature",
        ),
        (
            r#"{"input":"x","reasoning":{"effort":"huge"}}"#,
            Source::Responses,
            RequestErrorKind::InvalidValue,
            "/reasoning/effort",
        ),
        (
            r#"{"model":"m"}"#,
            Source::Chat,
            RequestErrorKind::MissingField,
            "/messages",
        ),
        (
            r#"{"messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f"}}]}]}"#,
            Source::Chat,
            RequestErrorKind::MissingField,
            "/messages/0/tool_calls/0/function/arguments",
        ),
        (
            r#"{"messages":[{"content":"x"}]}"#,
            Source::Anthropic,
            RequestErrorKind::MissingField,
            "/messages/0/role",
        ),
        (
            r#"{"messages":[],"max_tokens":-1}"#,
            Source::Anthropic,
            RequestErrorKind::WrongType("non-negative integer"),
            "/max_tokens",
        ),
        (
            r#"{"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","data":"x"}}]}]}"#,
            Source::Anthropic,
            RequestErrorKind::MissingField,
            "/messages/0/content/0/source/media_type",
        ),
        (
            r#"{"contents":[{"role":"user","parts":[{"inlineData":{"data":"x"}}]}]}"#,
            GEMINI,
            RequestErrorKind::MissingField,
            "/contents/0/parts/0/inlineData/mimeType",
        ),
        (
            r#"{"contents":[{"role":"robot","parts":[]}]}"#,
            GEMINI,
            RequestErrorKind::InvalidValue,
            "/contents/0/role",
        ),
        (
            r#"{"contents":[],"generationConfig":{"maxOutputTokens":"many"}}"#,
            GEMINI,
            RequestErrorKind::WrongType("non-negative integer"),
            "/generationConfig/maxOutputTokens",
        ),
    ];
    for (body, from, kind, path) in cases {
        let (k, p, _) = err(body, *from);
        assert_eq!((&k, p.as_str()), (kind, *path), "{body}");
    }
}

#[test]
fn a_result_for_an_unknown_call_is_an_error_in_every_dialect() {
    let cases: &[(&str, Source<'_>, &str)] = &[
        (
            r#"{"input":[{"type":"function_call_output","call_id":"nope","output":"x"}]}"#,
            Source::Responses,
            "/input/0/call_id",
        ),
        (
            r#"{"messages":[{"role":"tool","tool_call_id":"nope","content":"x"}]}"#,
            Source::Chat,
            "/messages/0/tool_call_id",
        ),
        (
            r#"{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"nope"}]}]}"#,
            Source::Anthropic,
            "/messages/0/content/0/tool_use_id",
        ),
        (
            r#"{"contents":[{"parts":[{"functionResponse":{"name":"f","response":{}}}]}]}"#,
            GEMINI,
            "/contents/0/parts/0/functionResponse/name",
        ),
        (
            r#"{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","id":"a"}}]},{"parts":[{"functionResponse":{"name":"f","id":"b","response":{}}}]}]}"#,
            GEMINI,
            "/contents/1/parts/0/functionResponse/id",
        ),
        // A result before its call answers nothing.
        (
            r#"{"messages":[{"role":"tool","tool_call_id":"c","content":"x"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}]}"#,
            Source::Chat,
            "/messages/0/tool_call_id",
        ),
    ];
    for (body, from, path) in cases {
        let (k, p, _) = err(body, *from);
        assert_eq!(
            (k, p.as_str()),
            (RequestErrorKind::UnknownCallId, *path),
            "{body}"
        );
    }
}

#[test]
fn gemini_results_without_ids_answer_calls_by_name_then_order() {
    let body = json!({"contents": [
        {"role": "model", "parts": [
            {"functionCall": {"name": "f", "args": {"n": 1}}},
            {"functionCall": {"name": "g", "args": {}}},
            {"functionCall": {"name": "f", "args": {"n": 2}}}
        ]},
        {"role": "user", "parts": [
            {"functionResponse": {"name": "f", "response": {"output": "first f"}}},
            {"functionResponse": {"name": "f", "response": {"output": "second f"}}},
            {"functionResponse": {"name": "g", "response": {"error": "g failed"}}}
        ]}
    ]});
    let t = ok(&body, GEMINI, Dialect::Chat);
    let m = &t.body["messages"];
    assert_eq!(m[0]["tool_calls"][0]["id"], "call_0_0");
    assert_eq!(m[0]["tool_calls"][2]["id"], "call_0_2");
    assert_eq!(
        m[1],
        json!({"role": "tool", "tool_call_id": "call_0_0", "content": "first f"})
    );
    assert_eq!(
        m[2],
        json!({"role": "tool", "tool_call_id": "call_0_2", "content": "second f"})
    );
    assert_eq!(
        m[3],
        json!({"role": "tool", "tool_call_id": "call_0_1", "content": "g failed"})
    );
    // Chat cannot mark a result as an error: listed.
    let nc: Vec<_> = t
        .not_carried
        .iter()
        .map(|n| (n.path.as_str(), n.kind))
        .collect();
    assert_eq!(
        nc,
        [(
            "/contents/1/parts/2/functionResponse/response/error",
            NotCarriedKind::Unsupported
        )]
    );
    // Towards Anthropic the error flag is carried.
    let a = ok(&body, GEMINI, Dialect::Anthropic);
    assert_eq!(
        a.body["messages"][1]["content"][2],
        json!({"type": "tool_result", "tool_use_id": "call_0_1", "content": "g failed", "is_error": true})
    );
}

#[test]
fn gemini_target_names_results_after_their_calls() {
    let body = json!({"messages": [
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "found"}
    ]});
    let t = ok(&body, Source::Chat, Dialect::Gemini);
    assert_eq!(
        t.body["contents"][1]["parts"][0],
        json!({"functionResponse": {"id": "c1", "name": "lookup", "response": {"output": "found"}}})
    );
}

#[test]
fn what_targets_refuse_is_listed() {
    // Arguments that are not a JSON object, towards a dialect of objects.
    let body = json!({"messages": [
        {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "not json"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "x"}
    ]});
    let t = ok(&body, Source::Chat, Dialect::Anthropic);
    assert_eq!(t.body["messages"][0]["content"][0]["input"], json!({}));
    assert_eq!(t.not_carried[0].path, "/messages/0/tool_calls/0");
    assert_eq!(t.not_carried[0].kind, NotCarriedKind::InvalidArguments);
    // Towards Responses the text goes as it came.
    let t = ok(&body, Source::Chat, Dialect::Responses);
    assert_eq!(t.body["input"][0]["arguments"], "not json");
    assert!(t.not_carried.is_empty());

    // An image in a tool result, towards Chat and Gemini (text only).
    let body = json!({"max_tokens": 10, "messages": [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "shot", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [
            {"type": "text", "text": "here"},
            {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}}
        ]}]}
    ]});
    for to in [Dialect::Chat, Dialect::Gemini] {
        let t = ok(&body, Source::Anthropic, to);
        let nc: Vec<_> = t
            .not_carried
            .iter()
            .map(|n| (n.path.as_str(), n.kind))
            .collect();
        assert_eq!(
            nc,
            [(
                "/messages/1/content/0/content/1",
                NotCarriedKind::ToolResultContent
            )],
            "{to:?}"
        );
    }
    // Responses takes images in function outputs.
    let t = ok(&body, Source::Anthropic, Dialect::Responses);
    assert_eq!(
        t.body["input"][1]["output"],
        json!([{"type": "input_text", "text": "here"}, {"type": "input_image", "image_url": "https://x.test/a.png", "detail": "auto"}])
    );
}

#[test]
fn gemini_schemas_are_cut_to_the_subset_with_every_keyword_listed() {
    let body = json!({"model": "m", "messages": [{"role": "user", "content": "x"}],
    "tools": [{"type": "function", "function": {"name": "f", "parameters": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"x": {"type": "string"}},
        "properties": {
            "a": {"type": "array", "items": {"type": "object", "additionalProperties": false,
                  "properties": {"b": {"const": "k", "type": "string"}}}},
            "c": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "d": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": ["integer", "null"]}]},
            "e": {"type": ["string", "integer"]}
        }}}}]});
    let t = ok(&body, Source::Chat, Dialect::Gemini);
    assert_eq!(
        t.body["tools"][0]["functionDeclarations"][0]["parameters"],
        json!({"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "object", "properties": {"b": {"type": "string"}}}},
            "c": {},
            "d": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "integer", "nullable": true}]},
            "e": {}
        }})
    );
    let p = "/tools/0/function/parameters";
    let nc: Vec<_> = t
        .not_carried
        .iter()
        .map(|n| (n.path.clone(), n.kind))
        .collect();
    let want: Vec<_> = [
        "/$defs",
        "/$schema",
        "/properties/a/items/additionalProperties",
        "/properties/a/items/properties/b/const",
        "/properties/c/oneOf",
        "/properties/e/type",
    ]
    .iter()
    .map(|s| (format!("{p}{s}"), NotCarriedKind::SchemaKeyword))
    .collect();
    assert_eq!(nc, want);
}

#[test]
fn anthropic_thinking_budget_fits_under_max_tokens() {
    let body =
        |max: u64| json!({"input": "x", "max_output_tokens": max, "reasoning": {"effort": "high"}});
    let t = ok(&body(4000), Source::Responses, Dialect::Anthropic);
    assert_eq!(
        t.body["thinking"],
        json!({"type": "enabled", "budget_tokens": 2000})
    );
    let t = ok(&body(1500), Source::Responses, Dialect::Anthropic);
    assert_eq!(t.body.get("thinking"), None);
    assert_eq!(t.not_carried[0].path, "/reasoning/effort");
    let t = ok(
        &json!({"input": "x", "reasoning": {"effort": "none"}}),
        Source::Responses,
        Dialect::Anthropic,
    );
    assert_eq!(t.body["thinking"], json!({"type": "disabled"}));
    assert_eq!(t.body["max_tokens"], 4096); // the configured default
                                            // Settings Anthropic refuses with thinking win over it.
    let base = json!({"input": "x", "max_output_tokens": 32000, "reasoning": {"effort": "low"}});
    for (key, value, kept) in [
        ("temperature", json!(0.3), false),
        ("temperature", json!(1), true),
        ("tool_choice", json!("required"), false),
        ("tool_choice", json!("auto"), true),
        ("top_p", json!(0.9), false),
        ("top_p", json!(0.97), true),
    ] {
        let mut body = base.clone();
        body[key] = value.clone();
        let t = ok(&body, Source::Responses, Dialect::Anthropic);
        let thinking = t.body.get("thinking").cloned();
        if kept {
            assert_eq!(
                thinking,
                Some(json!({"type": "enabled", "budget_tokens": 2048})),
                "{key} {value}"
            );
            assert!(t.not_carried.is_empty());
        } else {
            assert_eq!(thinking, None, "{key} {value}");
            assert_eq!(t.not_carried[0].path, "/reasoning/effort");
        }
    }
    let t = ok(
        &json!({"contents": [], "generationConfig": {"thinkingConfig": {"thinkingBudget": 0}}}),
        GEMINI,
        Dialect::Chat,
    );
    assert_eq!(t.body["reasoning_effort"], "minimal");
}

#[test]
fn identity_adds_only_what_the_dialect_requires() {
    let chat =
        json!({"model": "m", "stream": true, "messages": [{"role": "user", "content": "x"}]});
    let t = ok(&chat, Source::Chat, Dialect::Chat);
    let mut want = chat.clone();
    want["stream_options"] = json!({"include_usage": true});
    assert_eq!(t.body, want);
    let anth = json!({"model": "m", "messages": [{"role": "user", "content": "x"}], "unknown_future_field": 1});
    let t = translate(
        &serde_json::to_vec(&anth).unwrap(),
        Source::Anthropic,
        Dialect::Anthropic,
        &RequestConfig::default().with_default_max_tokens(77),
    )
    .unwrap();
    let mut want = anth.clone();
    want["max_tokens"] = json!(77);
    assert_eq!(t.body, want);
    assert!(t.not_carried.is_empty());
}

#[test]
fn upstream_errors_in_the_clients_dialect() {
    use Dialect::*;
    let cases: &[(u16, &str, Dialect, Dialect, u16, ErrorKind, Value)] = &[
        (
            529,
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
            Anthropic,
            Chat,
            503,
            ErrorKind::Overloaded,
            json!({"error": {"message": "Overloaded", "type": "server_error", "param": null, "code": "overloaded"}}),
        ),
        (
            429,
            r#"{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}"#,
            Chat,
            Anthropic,
            429,
            ErrorKind::RateLimit,
            json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}),
        ),
        (
            404,
            r#"{"error":{"code":404,"message":"models/x is not found","status":"NOT_FOUND"}}"#,
            Gemini,
            Responses,
            404,
            ErrorKind::NotFound,
            json!({"error": {"message": "models/x is not found", "type": "invalid_request_error", "param": null, "code": "not_found"}}),
        ),
        (
            503,
            r#"{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}"#,
            Gemini,
            Anthropic,
            529,
            ErrorKind::Overloaded,
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "The model is overloaded."}}),
        ),
        (
            401,
            r#"{"error":{"message":"Incorrect API key","type":"invalid_request_error","code":"invalid_api_key"}}"#,
            Responses,
            Gemini,
            401,
            ErrorKind::Authentication,
            json!({"error": {"code": 401, "message": "Incorrect API key", "status": "UNAUTHENTICATED"}}),
        ),
        (
            502,
            "Bad Gateway",
            Chat,
            Gemini,
            502,
            ErrorKind::Server,
            json!({"error": {"code": 502, "message": "Bad Gateway", "status": "INTERNAL"}}),
        ),
        (
            400,
            r#"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: required"}}"#,
            Anthropic,
            Responses,
            400,
            ErrorKind::InvalidRequest,
            json!({"error": {"message": "max_tokens: required", "type": "invalid_request_error", "param": null, "code": null}}),
        ),
        (
            200,
            "{}",
            Anthropic,
            Anthropic,
            500,
            ErrorKind::Server,
            json!({"type": "error", "error": {"type": "api_error", "message": "{}"}}),
        ),
    ];
    for (status, body, from, to, want_status, want_kind, want_body) in cases {
        let e = translate_error(*status, body.as_bytes(), *from, *to);
        assert_eq!(
            (e.status, e.kind, &e.body),
            (*want_status, *want_kind, want_body),
            "{from:?} -> {to:?} {body}"
        );
    }
}
