//! The official SDKs through the gateway: per client dialect, one
//! multi-turn exchange with a tool call, in front of an upstream of another
//! dialect. The upstream asks for `get_weather` on the first turn and, once
//! the tool result comes back (in its own dialect, tied to its call's id),
//! answers with the final text; each request it gets is checked by hand.
//!
//! The clients are the pinned packages of `tests/clients` (Node:
//! `tests/clients/node`, `npm ci`; Python: the venv `tests/clients/.venv`).
//! A missing runtime is a loud skip, and a failure under `CI=true`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value as J};
use ssekit::bridge::{translate, BridgeConfig, BytesBridge};
use ssekit::turn::Dialect;
use ssekit::Bytes;

use crate::upstream::{Script, Seen, Upstream};
use crate::{gateway, run, run_process, wire};

pub(crate) const RESULT: &str = "18C and sunny";
pub(crate) const FINAL: &str = "It is 18C and sunny in Paris.";
const CALL_ID: &str = "call_w1";

fn chunk(delta: J, finish: Option<&str>) -> String {
    let c = json!({"id": "chatcmpl-w", "object": "chat.completion.chunk", "created": 1,
        "model": "up-model", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    format!("data: {c}\n\n")
}

/// A Chat stream that calls `get_weather` for Paris, as call `call_w1`.
pub(crate) fn chat_tool_call() -> Vec<u8> {
    let mut s = chunk(
        json!({"role": "assistant", "content": null, "tool_calls": [{"index": 0, "id": CALL_ID,
            "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}),
        None,
    );
    for piece in ["{\"city\":", " \"Paris\"}"] {
        s += &chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}),
            None,
        );
    }
    s += &chunk(json!({}), Some("tool_calls"));
    s += "data: [DONE]\n\n";
    s.into_bytes()
}

/// A Chat stream of the final answer.
pub(crate) fn chat_final() -> Vec<u8> {
    crate::faults::chat_text(FINAL, 6)
}

/// A Chat stream said in `dialect`, through the crate's bridge (the
/// scripted upstream speaks `dialect`).
pub(crate) fn in_dialect(dialect: Dialect, chat: &[u8]) -> Vec<u8> {
    if dialect == Dialect::Chat {
        return chat.to_vec();
    }
    let mut bridge = BytesBridge::new(translate(Dialect::Chat, dialect, &BridgeConfig::default()));
    bridge.feed(Bytes::copy_from_slice(chat)).expect("bridge");
    bridge.finish().expect("bridge");
    bridge.take().to_vec()
}

/// A tool call and its result, as one request body carries them.
#[derive(Debug, Default)]
pub(crate) struct Exchange {
    pub(crate) call_id: Option<String>,
    pub(crate) name: String,
    pub(crate) args: J,
    pub(crate) result_id: Option<String>,
    pub(crate) output: String,
}

fn text_of(v: &J) -> String {
    match v {
        J::String(s) => s.clone(),
        J::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<String>(),
        _ => String::new(),
    }
}

fn s(v: &J) -> Option<String> {
    v.as_str().map(str::to_owned)
}

/// The tool call and result in a request body of `dialect`, read by hand.
pub(crate) fn exchange(dialect: Dialect, body: &J) -> Option<Exchange> {
    let mut ex = Exchange::default();
    let mut found = false;
    let list = |key: &str| body[key].as_array().cloned().unwrap_or_default();
    match dialect {
        Dialect::Chat => {
            for m in list("messages") {
                if m["role"] == "assistant" && m["tool_calls"].is_array() {
                    let c = &m["tool_calls"][0];
                    ex.call_id = s(&c["id"]);
                    ex.name = s(&c["function"]["name"]).unwrap_or_default();
                    ex.args = serde_json::from_str(c["function"]["arguments"].as_str()?).ok()?;
                }
                if m["role"] == "tool" {
                    found = true;
                    ex.result_id = s(&m["tool_call_id"]);
                    ex.output = text_of(&m["content"]);
                }
            }
        }
        Dialect::Anthropic => {
            for m in list("messages") {
                for b in m["content"].as_array().into_iter().flatten() {
                    if b["type"] == "tool_use" && m["role"] == "assistant" {
                        ex.call_id = s(&b["id"]);
                        ex.name = s(&b["name"]).unwrap_or_default();
                        ex.args = b["input"].clone();
                    }
                    if b["type"] == "tool_result" && m["role"] == "user" {
                        found = true;
                        ex.result_id = s(&b["tool_use_id"]);
                        ex.output = text_of(&b["content"]);
                    }
                }
            }
        }
        Dialect::Gemini => {
            for c in list("contents") {
                for p in c["parts"].as_array().into_iter().flatten() {
                    if p["functionCall"].is_object() && c["role"] == "model" {
                        ex.call_id = s(&p["functionCall"]["id"]);
                        ex.name = s(&p["functionCall"]["name"]).unwrap_or_default();
                        ex.args = p["functionCall"]["args"].clone();
                    }
                    if p["functionResponse"].is_object() && c["role"] == "user" {
                        found = true;
                        let r = &p["functionResponse"];
                        ex.result_id = s(&r["id"]);
                        assert_eq!(r["name"], "get_weather", "the response names its function");
                        ex.output = r["response"]["output"]
                            .as_str()
                            .map_or_else(|| r["response"].to_string(), str::to_owned);
                    }
                }
            }
        }
        _ => {
            for item in list("input") {
                if item["type"] == "function_call" {
                    ex.call_id = s(&item["call_id"]);
                    ex.name = s(&item["name"]).unwrap_or_default();
                    ex.args = serde_json::from_str(item["arguments"].as_str()?).ok()?;
                }
                if item["type"] == "function_call_output" {
                    found = true;
                    ex.result_id = s(&item["call_id"]);
                    ex.output = text_of(&item["output"]);
                }
            }
        }
    }
    found.then_some(ex)
}

/// The name of the first tool a request of `dialect` declares, and its
/// `city` parameter's type.
fn declared_tool(dialect: Dialect, body: &J) -> (String, String) {
    let t = &body["tools"][0];
    let (name, schema) = match dialect {
        Dialect::Chat => (&t["function"]["name"], &t["function"]["parameters"]),
        Dialect::Anthropic => (&t["name"], &t["input_schema"]),
        Dialect::Gemini => (
            &t["functionDeclarations"][0]["name"],
            &t["functionDeclarations"][0]["parameters"],
        ),
        _ => (&t["name"], &t["parameters"]),
    };
    let ty = schema["properties"]["city"]["type"].as_str().unwrap_or("");
    (
        name.as_str().unwrap_or("").to_owned(),
        ty.to_ascii_lowercase(),
    )
}

/// The scripted upstream of `dialect`: a tool call first, the final
/// answer once the request carries the tool's result.
pub(crate) fn agent(dialect: Dialect) -> impl Fn(&Seen) -> Script + Send + Sync + 'static {
    let call = in_dialect(dialect, &chat_tool_call());
    let answer = in_dialect(dialect, &chat_final());
    move |seen| {
        let body = if exchange(dialect, &seen.body).is_some() {
            &answer
        } else {
            &call
        };
        Script::events(body, Duration::from_millis(1))
    }
}

/// The thinking an Anthropic upstream signs before its tool call.
const THINKING: &str = "The user wants Paris; call get_weather.";
const SIGNATURE: &str = "EqQBCkYIBhgCIkBzaWduZWQtYnktdGhlLXVwc3RyZWFt";

/// An Anthropic stream: signed thinking, then the `get_weather` call as
/// `toolu_w1`, written by hand.
fn anthropic_thinking_call() -> Vec<u8> {
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_w1", "type": "message",
            "role": "assistant", "model": "up-model", "content": [], "stop_reason": null,
            "stop_sequence": null, "usage": {"input_tokens": 9, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
        json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "thinking_delta", "thinking": &THINKING[..12]}}),
        json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "thinking_delta", "thinking": &THINKING[12..]}}),
        json!({"type": "content_block_delta", "index": 0,
            "delta": {"type": "signature_delta", "signature": SIGNATURE}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use",
            "id": "toolu_w1", "name": "get_weather", "input": {}}}),
        json!({"type": "content_block_delta", "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": "{\"city\": "}}),
        json!({"type": "content_block_delta", "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": "\"Paris\"}"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null},
            "usage": {"output_tokens": 30}}),
        json!({"type": "message_stop"}),
    ];
    let mut out = String::new();
    for e in events {
        out += &format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap_or(""));
    }
    out.into_bytes()
}

/// A client of `dialect` (the Node script's `client`) in front of an
/// upstream of the same dialect that answers the first turn with `call`
/// (a call with id `call_id`) and the second, which carries the tool
/// result, with the final text: the two requests the upstream saw, or
/// `None` when the client cannot run here (said loudly).
async fn two_turns(
    dialect: Dialect,
    client: &str,
    call: Vec<u8>,
    call_id: &str,
) -> Option<Vec<Seen>> {
    let answer = in_dialect(dialect, &chat_final());
    let upstream = Upstream::start(move |seen| {
        let body = if exchange(dialect, &seen.body).is_some() {
            &answer
        } else {
            &call
        };
        Script::events(body, Duration::from_millis(1))
    })
    .await;
    let gw = gateway(dialect, &upstream.url, |_| {}).await;
    let cmd = match command("node", client, &gw) {
        Ok(c) => c,
        Err(why) => {
            crate::skip(&why);
            return None;
        }
    };
    let out = run_process(cmd, Duration::from_secs(60)).await;
    assert!(out.status.is_some(), "timed out; {}", out.stderr);
    let v: J = serde_json::from_str(out.stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", out.stdout, out.stderr));
    assert_eq!(v["ok"], true, "{v}\n{}", out.stderr);
    assert_eq!(v["text"], FINAL);
    assert_eq!(v["call"]["id"], call_id);
    let seen = upstream.seen();
    assert_eq!(seen.len(), 2);
    Some(seen)
}

/// An Anthropic client in front of an Anthropic upstream that thinks
/// (signed) before it calls the tool: the client sends the thinking block
/// back with the tool result, and the upstream gets it unchanged.
#[test]
fn signed_thinking_makes_the_round_trip_intact() {
    run(Duration::from_secs(60), async {
        let Some(seen) = two_turns(
            Dialect::Anthropic,
            "anthropic",
            anthropic_thinking_call(),
            "toolu_w1",
        )
        .await
        else {
            return;
        };
        let messages = seen[1].body["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let assistant = messages
            .iter()
            .find(|m| m["role"] == "assistant")
            .expect("the assistant turn went back");
        let blocks = assistant["content"].as_array().cloned().unwrap_or_default();
        assert_eq!(
            blocks[0],
            json!({"type": "thinking", "thinking": THINKING, "signature": SIGNATURE}),
            "the signed thinking, unchanged and first"
        );
        assert_eq!(blocks[1]["type"], "tool_use");
        assert_eq!(blocks[1]["id"], "toolu_w1");
        let ex = exchange(Dialect::Anthropic, &seen[1].body).expect("the tool result");
        assert_eq!(ex.result_id.as_deref(), Some("toolu_w1"));
        assert_eq!(ex.output, RESULT);
    });
}

/// The encrypted reasoning a Responses upstream sends before its call.
const ENCRYPTED: &str = "gAAAAABpZW5jcnlwdGVkLWJ5LXRoZS11cHN0cmVhbQ==";

/// A Responses stream: a reasoning item with encrypted content, then the
/// `get_weather` call as `call_r1`, written by hand.
fn responses_reasoning_call() -> Vec<u8> {
    let args = "{\"city\":\"Paris\"}";
    let reasoning = json!({"id": "rs_r1", "type": "reasoning", "summary": [],
        "encrypted_content": ENCRYPTED});
    let call = json!({"id": "fc_r1", "type": "function_call", "call_id": "call_r1",
        "name": "get_weather", "arguments": args, "status": "completed"});
    let response = |status: &str, output: J| {
        json!({"id": "resp_r1", "object": "response", "created_at": 1, "status": status,
            "model": "up-model", "output": output, "usage": if status == "completed" {
                json!({"input_tokens": 9, "output_tokens": 20, "total_tokens": 29})
            } else { J::Null }})
    };
    let events = [
        json!({"type": "response.created", "response": response("in_progress", json!([]))}),
        json!({"type": "response.output_item.added", "output_index": 0,
            "item": {"id": "rs_r1", "type": "reasoning", "summary": []}}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": reasoning}),
        json!({"type": "response.output_item.added", "output_index": 1,
            "item": {"id": "fc_r1", "type": "function_call", "call_id": "call_r1",
                "name": "get_weather", "arguments": "", "status": "in_progress"}}),
        json!({"type": "response.function_call_arguments.delta", "item_id": "fc_r1",
            "output_index": 1, "delta": args}),
        json!({"type": "response.function_call_arguments.done", "item_id": "fc_r1",
            "output_index": 1, "arguments": args}),
        json!({"type": "response.output_item.done", "output_index": 1, "item": call}),
        json!({"type": "response.completed",
            "response": response("completed", json!([reasoning, call]))}),
    ];
    let mut out = String::new();
    for (n, mut e) in events.into_iter().enumerate() {
        e["sequence_number"] = json!(n);
        out += &format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap_or(""));
    }
    out.into_bytes()
}

/// A Responses client (stateless: it sends every output item back) in
/// front of a Responses upstream whose reasoning is encrypted: the
/// reasoning item reaches the upstream again, unchanged, before the call.
#[test]
fn encrypted_reasoning_makes_the_round_trip_intact() {
    run(Duration::from_secs(60), async {
        let Some(seen) = two_turns(
            Dialect::Responses,
            "responses",
            responses_reasoning_call(),
            "call_r1",
        )
        .await
        else {
            return;
        };
        let input = seen[1].body["input"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let reasoning = input
            .iter()
            .position(|i| i["type"] == "reasoning")
            .unwrap_or_else(|| panic!("the reasoning item went back: {}", seen[1].body));
        assert_eq!(input[reasoning]["encrypted_content"], ENCRYPTED);
        let call_at = input
            .iter()
            .position(|i| i["type"] == "function_call")
            .expect("the call went back");
        assert!(reasoning < call_at, "the reasoning comes before its call");
        let ex = exchange(Dialect::Responses, &seen[1].body).expect("the tool result");
        assert_eq!(ex.call_id.as_deref(), Some("call_r1"));
        assert_eq!(ex.result_id.as_deref(), Some("call_r1"));
        assert_eq!(ex.output, RESULT);
    });
}

/// The directory of the official clients.
fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients")
}

/// The command of a client script, or why it cannot run.
fn command(runtime: &str, client: &str, base: &str) -> Result<Command, String> {
    let dir = clients_dir();
    let (program, script) = match runtime {
        "node" => {
            if !dir.join("node/node_modules/openai").is_dir() {
                return Err("tests/clients/node has no packages (npm ci there)".into());
            }
            (PathBuf::from("node"), dir.join("node/gateway_tools.mjs"))
        }
        _ => {
            let python = dir.join(".venv/bin/python");
            if !python.exists() {
                return Err("tests/clients/.venv is missing (see tests/clients/main.rs)".into());
            }
            (python, dir.join("python/gateway_tools.py"))
        }
    };
    let probe = Command::new(&program).arg("--version").output();
    if !probe.is_ok_and(|o| o.status.success()) {
        return Err(format!("{} does not run", program.display()));
    }
    let mut c = Command::new(program);
    c.arg(script).arg(client).arg(base);
    Ok(c)
}

/// (client dialect, runtime, the script's client): each in front of an
/// upstream of every other dialect.
const CLIENTS: &[(Dialect, &str, &str)] = &[
    (Dialect::Responses, "node", "responses"),
    (Dialect::Chat, "node", "chat"),
    (Dialect::Anthropic, "node", "anthropic"),
    (Dialect::Gemini, "python", "genai"),
];

#[test]
fn official_sdks_send_tool_results_back_through_the_gateway() {
    let pairs = CLIENTS.iter().flat_map(|&(client, runtime, name)| {
        Dialect::ALL
            .into_iter()
            .filter(move |&up| up != client)
            .map(move |up| (client, runtime, name, up))
    });
    run(Duration::from_secs(400), async {
        for (client, runtime, name, up) in pairs {
            let what = format!("{name} ({client:?}) in front of {up:?}");
            let upstream = Upstream::start(agent(up)).await;
            let gw = gateway(up, &upstream.url, |_| {}).await;
            let cmd = match command(runtime, name, &gw) {
                Ok(c) => c,
                Err(why) => {
                    crate::skip(&format!("{what}: {why}"));
                    continue;
                }
            };
            let out = run_process(cmd, Duration::from_secs(60)).await;
            assert!(out.status.is_some(), "{what}: timed out; {}", out.stderr);
            let line = out.stdout.lines().last().unwrap_or("");
            let v: J = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{what}: {e}: {}\n{}", out.stdout, out.stderr));
            assert_eq!(v["ok"], true, "{what}: {v}\n{}", out.stderr);
            assert_eq!(v["text"], FINAL, "{what}");
            assert_eq!(v["call"]["name"], "get_weather", "{what}");
            assert_eq!(v["call"]["args"], json!({"city": "Paris"}), "{what}");

            let seen = upstream.seen();
            assert_eq!(seen.len(), 2, "{what}: two turns");
            crate::recorded::check_headers(up, &seen[0]);
            assert_eq!(
                declared_tool(up, &seen[0].body),
                ("get_weather".into(), "string".into()),
                "{what}: the tool as declared upstream"
            );
            assert!(exchange(up, &seen[0].body).is_none(), "{what}");
            let ex = exchange(up, &seen[1].body)
                .unwrap_or_else(|| panic!("{what}: no tool result in {}", seen[1].body));
            assert_eq!(ex.name, "get_weather", "{what}");
            assert_eq!(ex.args, json!({"city": "Paris"}), "{what}");
            assert_eq!(ex.output, RESULT, "{what}");
            // The id the upstream gave its call, when its dialect gives one
            // on the wire, comes back on both the call and its result.
            let issued = wire::stream(up, &in_dialect(up, &chat_tool_call())).calls[0]
                .id
                .clone();
            match issued {
                Some(id) => {
                    assert_eq!(
                        ex.call_id.as_deref(),
                        Some(&*id),
                        "{what}: {}",
                        seen[1].body
                    );
                    assert_eq!(
                        ex.result_id.as_deref(),
                        Some(&*id),
                        "{what}: {}",
                        seen[1].body
                    );
                }
                None => assert_eq!(ex.call_id, ex.result_id, "{what}: {}", seen[1].body),
            }
            eprintln!("{what}: tool round trip ok (call id {:?})", ex.result_id);
        }
    });
}
