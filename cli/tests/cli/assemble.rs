//! `ssekit assemble`, run as a user runs it. The reference for every
//! assembled response is the stream's own `response.completed` event,
//! parsed by `serde_json`:
//!
//! * the shipped sample and corpus streams (from a file and from standard
//!   input, whole and in 7-byte chunks) assemble to exactly the completed
//!   response;
//! * a stream cut before its terminal event still prints its response, with
//!   the last status announced, and exits with status 1;
//! * chat and Anthropic streams, asked for or detected, assemble to a Chat
//!   Completion / a Message (hand-written streams, values read off them),
//!   and exit with status 1 when cut; a bad `--dialect` is a usage error.

use std::process::Output;

use serde_json::Value as J;

use crate::cli;
use cli::*;

/// The one JSON object printed.
fn printed(out: &Output) -> J {
    let text = String::from_utf8(out.stdout.clone()).expect("UTF-8");
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    serde_json::from_str(&text).expect("a JSON object")
}

/// The `response` of the stream's `response.completed` event.
fn completed_response(bytes: &[u8]) -> J {
    let text = std::str::from_utf8(bytes).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<J>(d).ok())
        .find(|e| e["type"] == "response.completed")
        .expect("a response.completed event")["response"]
        .clone()
}

#[test]
fn the_sample_assembles_to_its_completed_response() {
    let bytes = std::fs::read(SAMPLE).unwrap();
    let want = completed_response(&bytes);
    for out in [
        run(&["assemble", SAMPLE]),
        run_stdin(
            &["assemble", "--dialect", "responses", "--chunk", "7"],
            &bytes,
        ),
        run_stdin(&["assemble", "-"], &bytes),
    ] {
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stderr(&out), "");
        assert_eq!(printed(&out), want);
    }
}

#[test]
fn corpus_streams_assemble_to_their_completed_response() {
    let Some(dir) = crate::corpus::corpus_dir() else {
        eprintln!("corpus not found; skipped");
        return;
    };
    for name in [
        "openaidotnet-responses-function-call.sse",
        "openaidotnet-responses-reasoning-summary.sse",
        "vercel-responses-apply-patch.sse",
    ] {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap();
        let out = run(&["assemble", path.to_str().unwrap()]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert_eq!(printed(&out), completed_response(&bytes), "{name}");
        let out = run_stdin(&["assemble", "--chunk", "7"], &bytes);
        assert_eq!(
            printed(&out),
            completed_response(&bytes),
            "{name} from stdin"
        );
    }
}

#[test]
fn a_cut_stream_prints_its_response_and_exits_1() {
    let bytes = std::fs::read(SAMPLE).unwrap();
    let cut = std::str::from_utf8(&bytes).unwrap();
    let cut = &cut[..cut
        .find("event: response.completed")
        .expect("a completed event")];
    let out = run_stdin(&["assemble"], cut.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("truncated"), "{}", stderr(&out));
    let got = printed(&out);
    assert_eq!(got["status"], "in_progress");
    // The text had streamed in full: it is there.
    let want = completed_response(&bytes);
    assert_eq!(
        got["output"][0]["content"][0]["text"],
        want["output"][0]["content"][0]["text"]
    );
}

#[test]
fn chat_streams_assemble_to_a_chat_completion() {
    // Written by hand: the expected values below are read off these lines.
    let chat = concat!(
        "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\",",
        "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"},\"finish_reason\":null}]}\n\n",
        "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\",",
        "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo \\\"you\\\"\"},\"finish_reason\":null}]}\n\n",
        "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\",",
        "\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",",
        "\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":\"}}]},\"finish_reason\":null}]}\n\n",
        "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\",",
        "\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}}]},",
        "\"finish_reason\":\"tool_calls\"}]}\n\n",
    );
    let whole = format!("{chat}data: [DONE]\n\n");
    for args in [&["assemble"][..], &["assemble", "--dialect", "chat"]] {
        let out = run_stdin(args, whole.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let got = printed(&out);
        assert_eq!(got["id"], "c1");
        assert_eq!(got["model"], "m");
        let choice = &got["choices"][0];
        assert_eq!(choice["message"]["content"], "Hello \"you\"");
        assert_eq!(choice["message"]["role"], "assistant");
        assert_eq!(choice["finish_reason"], "tool_calls");
        let call = &choice["message"]["tool_calls"][0];
        assert_eq!(call["id"], "call_1");
        assert_eq!(call["function"]["name"], "f");
        assert_eq!(call["function"]["arguments"], "{\"a\":1}");
    }
    // Without `[DONE]` the stream was cut: the result is printed, exit 1.
    let out = run_stdin(&["assemble"], chat.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        printed(&out)["choices"][0]["message"]["content"],
        "Hello \"you\""
    );
    assert!(stderr(&out).contains("truncated"), "{}", stderr(&out));
}

#[test]
fn anthropic_streams_assemble_to_a_message() {
    // Written by hand: the expected values below are read off these lines.
    let events = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",",
        "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude\",\"content\":[],",
        "\"stop_reason\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,",
        "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,",
        "\"delta\":{\"type\":\"text_delta\",\"text\":\"Bon\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,",
        "\"delta\":{\"type\":\"text_delta\",\"text\":\"jour\\n\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",",
        "\"stop_sequence\":null},\"usage\":{\"output_tokens\":9}}\n\n",
    );
    let whole = format!("{events}event: message_stop\ndata: {{\"type\":\"message_stop\"}}\n\n");
    for args in [&["assemble"][..], &["assemble", "--dialect", "anthropic"]] {
        let out = run_stdin(args, whole.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let got = printed(&out);
        assert_eq!(got["id"], "msg_1");
        assert_eq!(got["role"], "assistant");
        assert_eq!(got["content"][0]["type"], "text");
        assert_eq!(got["content"][0]["text"], "Bonjour\n");
        assert_eq!(got["stop_reason"], "end_turn");
        assert_eq!(got["usage"]["input_tokens"], 5);
        assert_eq!(got["usage"]["output_tokens"], 9);
    }
    let out = run_stdin(&["assemble"], events.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(printed(&out)["content"][0]["text"], "Bonjour\n");
}

#[test]
fn a_bad_dialect_is_a_usage_error() {
    let out = run(&["assemble", "--dialect", "klingon", SAMPLE]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--dialect takes"));
}

#[test]
fn an_unreadable_file_is_status_2_not_the_truncated_status_1() {
    let out = run(&["assemble", "/nonexistent/stream.sse"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("/nonexistent/stream.sse"));
}

/// Gemini streams assemble to a `GenerateContentResponse`: complete ones
/// exit 0, the cut one exits 1 (and still prints), the error one warns.
#[test]
fn gemini_streams_assemble_to_a_generate_content_response() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/gemini");
    let at = |name: &str| format!("{dir}/{name}");
    let out = run(&["assemble", &at("thinking-function-call.sse")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let r = printed(&out);
    let parts = &r["candidates"][0]["content"]["parts"];
    assert_eq!(parts[0]["thought"], true);
    assert_eq!(parts[1]["text"], "Let me check that for you.");
    assert_eq!(parts[2]["functionCall"]["args"]["city"], "Paris");
    assert_eq!(r["usageMetadata"]["totalTokenCount"], 92);
    let same = run(&[
        "assemble",
        "--dialect",
        "gemini",
        "--chunk",
        "5",
        &at("thinking-function-call.sse"),
    ]);
    assert_eq!(same.stdout, out.stdout);

    let cut = run(&["assemble", &at("cut.sse")]);
    assert_eq!(cut.status.code(), Some(1));
    assert_eq!(
        printed_any(&cut)["candidates"][0]["content"]["parts"][0]["text"],
        "This stream was cut"
    );

    let failed = run(&["assemble", &at("error-midstream.sse")]);
    assert!(failed.status.success());
    assert!(
        stderr(&failed).contains("reported an error"),
        "{}",
        stderr(&failed)
    );

    let vertex = run(&["assemble", &at("vertex-pretty-grounding.sse")]);
    assert!(vertex.status.success(), "{}", stderr(&vertex));
    assert_eq!(
        String::from_utf8(vertex.stdout.clone())
            .unwrap()
            .lines()
            .count(),
        1
    );
    let r = printed(&vertex);
    assert_eq!(
        r["candidates"][0]["groundingMetadata"]["webSearchQueries"][0],
        "eiffel tower height"
    );

    if let Some(dir) = crate::corpus::corpus_dir() {
        let path = dir.join("pydanticai-gemini-crlf.sse");
        let r = printed(&run(&["assemble", path.to_str().unwrap()]));
        assert_eq!(
            r["candidates"][0]["content"]["parts"][0]["text"],
            "The capital of France is Paris.\n"
        );
    }
}

fn printed_any(out: &Output) -> J {
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `--as D`: the final answer in D's non-streaming shape, whatever the
/// stream's dialect. A hand-written Chat stream (the values below are read
/// off its lines) printed as each of the four shapes; the same answer read
/// from an Anthropic stream; a cut stream still printed, with exit 1; a bad
/// value a usage error.
#[test]
fn assemble_as_prints_the_answer_in_every_shape() {
    let chunk = |body: &str| {
        format!(
            "data: {{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":7,\
             \"model\":\"m\",{body}}}\n\n"
        )
    };
    let mut chat = String::new();
    for body in [
        r#""choices":[{"index":0,"delta":{"role":"assistant","content":"Hi \"you\""},"finish_reason":null}]"#,
        r#""choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\":"}}]},"finish_reason":null}]"#,
        r#""choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]},"finish_reason":"tool_calls"}]"#,
        r#""choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12}"#,
    ] {
        chat.push_str(&chunk(body));
    }
    let whole = format!("{chat}data: [DONE]\n\n");
    let shape = |to: &str| {
        let out = run_stdin(&["assemble", "--as", to], whole.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{to}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{to}");
        printed(&out)
    };
    let c = shape("chat");
    assert_eq!(c["object"], "chat.completion");
    assert_eq!(c["choices"][0]["message"]["content"], "Hi \"you\"");
    let call = &c["choices"][0]["message"]["tool_calls"][0];
    assert_eq!(call["id"], "call_1");
    assert_eq!(call["function"]["arguments"], "{\"a\":1}");
    assert_eq!(c["choices"][0]["finish_reason"], "tool_calls");
    assert_eq!(c["usage"]["total_tokens"], 12);

    let r = shape("responses");
    assert_eq!(
        (r["object"].clone(), r["status"].clone()),
        (J::from("response"), J::from("completed"))
    );
    assert_eq!(r["output"][0]["content"][0]["text"], "Hi \"you\"");
    assert_eq!(r["output"][1]["type"], "function_call");
    assert_eq!(r["output"][1]["arguments"], "{\"a\":1}");
    assert_eq!(r["usage"]["input_tokens"], 5);

    let a = shape("anthropic");
    assert_eq!(a["type"], "message");
    assert_eq!(
        a["content"][0],
        serde_json::json!({"type": "text", "text": "Hi \"you\""})
    );
    assert_eq!(
        a["content"][1],
        serde_json::json!({"type": "tool_use", "id": "call_1", "name": "f", "input": {"a": 1}})
    );
    assert_eq!(a["stop_reason"], "tool_use");
    assert_eq!(a["usage"]["output_tokens"], 7);

    let g = shape("gemini");
    let parts = &g["candidates"][0]["content"]["parts"];
    assert_eq!(parts[0]["text"], "Hi \"you\"");
    assert_eq!(
        parts[1]["functionCall"]["args"],
        serde_json::json!({"a": 1})
    );
    assert_eq!(g["candidates"][0]["finishReason"], "STOP");
    assert_eq!(g["usageMetadata"]["promptTokenCount"], 5);

    // Cut before the finish reason: still printed, exit status 1. (Chat
    // without `[DONE]` after a finish reason ends there, as the turn reader
    // reads Chat.)
    let cut = &chat[..chat.find("\"finish_reason\":\"tool_calls\"").unwrap()];
    let cut = &cut[..cut.rfind("data: ").unwrap()];
    let out = run_stdin(&["assemble", "--as", "anthropic"], cut.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("truncated"), "{}", stderr(&out));
    assert_eq!(printed(&out)["content"][0]["text"], "Hi \"you\"");

    // The sample, a Responses stream, as a Chat completion: its text.
    let sample = std::fs::read(SAMPLE).unwrap();
    let want = completed_response(&sample);
    let out = run(&["assemble", "--as", "chat", SAMPLE]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        printed(&out)["choices"][0]["message"]["content"],
        want["output"][0]["content"][0]["text"]
    );

    for bad in [&["assemble", "--as", "auto"][..], &["assemble", "--as"]] {
        let out = run_stdin(bad, whole.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(stderr(&out).contains("--as"), "{bad:?}: {}", stderr(&out));
    }
}
