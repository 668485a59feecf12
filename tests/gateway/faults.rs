//! What goes wrong: bad request bodies, upstream HTTP errors before the
//! stream and errors after it started, an upstream that stalls (keep-alives,
//! then the idle timeout), an upstream that cannot be reached, a client that
//! goes away; and what the upstream cannot take, named in a header.

use std::time::{Duration, Instant};

use serde_json::{json, Value as J};
use ssekit::turn::Dialect;
use ssekit::Bytes;

use crate::upstream::{Script, Upstream};
use crate::{ask_body, client_request, gateway, http, read_all, run, wire};

/// A Chat stream that says `text` in pieces of `piece` characters, and ends.
pub(crate) fn chat_text(text: &str, piece: usize) -> Vec<u8> {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, chunk) in chars.chunks(piece.max(1)).enumerate() {
        let s: String = chunk.iter().collect();
        let delta = if i == 0 {
            json!({"role": "assistant", "content": s})
        } else {
            json!({"content": s})
        };
        let c = json!({"id": "chatcmpl-t", "object": "chat.completion.chunk", "created": 1,
            "model": "up-model", "choices": [{"index": 0, "delta": delta, "finish_reason": null}]});
        out.push_str(&format!("data: {c}\n\n"));
    }
    let end = json!({"id": "chatcmpl-t", "object": "chat.completion.chunk", "created": 1,
        "model": "up-model", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]});
    out.push_str(&format!("data: {end}\n\n"));
    let usage = json!({"id": "chatcmpl-t", "object": "chat.completion.chunk", "created": 1,
        "model": "up-model", "choices": [],
        "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}});
    out.push_str(&format!("data: {usage}\n\ndata: [DONE]\n\n"));
    out.into_bytes()
}

async fn ask(
    gw: &str,
    dialect: Dialect,
    body: &J,
    stream: bool,
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let response = tokio::time::timeout(
        Duration::from_secs(10),
        client_request(&http(), gw, dialect, body, stream).send(),
    )
    .await
    .expect("timely")
    .expect("sent");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (
        status,
        headers,
        read_all(response, Duration::from_secs(10)).await,
    )
}

/// The error type (or status, for Gemini) of an error body of `dialect`.
fn error_type(dialect: Dialect, body: &[u8]) -> (String, String) {
    let v: J = serde_json::from_slice(body).expect("an error body is JSON");
    let e = &v["error"];
    let ty = match dialect {
        Dialect::Gemini => e["status"].as_str(),
        Dialect::Anthropic => {
            assert_eq!(v["type"], "error", "{v}");
            e["type"].as_str()
        }
        _ => e["type"].as_str(),
    };
    let message = e["message"].as_str().unwrap_or("").to_owned();
    (ty.unwrap_or("").to_owned(), message)
}

#[test]
fn bad_request_bodies_get_the_client_dialects_400_with_the_json_path() {
    run(Duration::from_secs(30), async {
        let upstream =
            Upstream::start(|_| Script::events(&chat_text("x", 1), Duration::ZERO)).await;
        let gw = gateway(Dialect::Chat, &upstream.url, |_| {}).await;
        let cases: &[(Dialect, J, &str)] = &[
            (
                Dialect::Chat,
                json!({"model": "m", "messages": 5}),
                "/messages",
            ),
            (
                Dialect::Responses,
                json!({"model": "m", "input": [
                    {"type": "function_call_output", "call_id": "call_nobody", "output": "x"}]}),
                "/input/0",
            ),
            (
                Dialect::Anthropic,
                json!({"model": "m", "max_tokens": 10, "messages": [
                    {"role": "user", "content": [
                        {"type": "tool_result", "tool_use_id": "toolu_nobody", "content": "x"}]}]}),
                "/messages/0/content/0",
            ),
            (
                Dialect::Gemini,
                json!({"contents": [{"role": "user", "parts": [{"text": 7}]}]}),
                "/contents/0/parts/0/text",
            ),
        ];
        for (dialect, body, path) in cases {
            let (status, _, bytes) = ask(&gw, *dialect, body, true).await;
            assert_eq!(
                status,
                400,
                "{dialect:?}: {}",
                String::from_utf8_lossy(&bytes)
            );
            let (ty, message) = error_type(*dialect, &bytes);
            let expected = if *dialect == Dialect::Gemini {
                "INVALID_ARGUMENT"
            } else {
                "invalid_request_error"
            };
            assert_eq!(ty, expected, "{dialect:?}");
            assert!(
                message.contains(path),
                "{dialect:?}: {message:?} names {path}"
            );
        }
        // Not JSON at all.
        let response = http()
            .post(format!("{gw}/v1/messages"))
            .body("{\"model\": ")
            .send()
            .await
            .expect("sent");
        assert_eq!(response.status(), 400);
        let bytes = read_all(response, Duration::from_secs(5)).await;
        assert_eq!(
            error_type(Dialect::Anthropic, &bytes).0,
            "invalid_request_error"
        );
        assert_eq!(upstream.seen().len(), 0, "nothing reached the upstream");
    });
}

#[test]
fn upstream_http_errors_become_the_client_dialects_status_and_body() {
    run(Duration::from_secs(30), async {
        // (upstream dialect, its status and body, client dialect, the
        // status and type the client must get: the table of
        // `request::translate_error`, written out by hand).
        let cases: &[(Dialect, u16, J, Dialect, u16, &str)] = &[
            (
                Dialect::Anthropic,
                429,
                json!({"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}),
                Dialect::Chat,
                429,
                "rate_limit_error",
            ),
            (
                Dialect::Gemini,
                503,
                json!({"error": {"code": 503, "message": "slow down", "status": "UNAVAILABLE"}}),
                Dialect::Anthropic,
                529,
                "overloaded_error",
            ),
            (
                Dialect::Chat,
                401,
                json!({"error": {"message": "slow down", "type": "invalid_request_error", "code": "invalid_api_key"}}),
                Dialect::Gemini,
                401,
                "UNAUTHENTICATED",
            ),
            (
                Dialect::Responses,
                404,
                json!({"error": {"message": "slow down", "type": "invalid_request_error", "code": "model_not_found"}}),
                Dialect::Anthropic,
                404,
                "not_found_error",
            ),
        ];
        for (up, status, body, client, want_status, want_type) in cases {
            let body = body.to_string();
            let status = *status;
            let upstream = Upstream::start(move |_| Script::Error(status, body.clone())).await;
            let gw = gateway(*up, &upstream.url, |_| {}).await;
            for stream in [true, false] {
                let (got, headers, bytes) =
                    ask(&gw, *client, &ask_body(*client, "hi", stream), stream).await;
                let what = format!("{up:?} {status} → {client:?} (stream: {stream})");
                assert_eq!(
                    got,
                    *want_status,
                    "{what}: {}",
                    String::from_utf8_lossy(&bytes)
                );
                assert_eq!(
                    headers.get("content-type").and_then(|v| v.to_str().ok()),
                    Some("application/json"),
                    "{what}"
                );
                let (ty, message) = error_type(*client, &bytes);
                assert_eq!(ty, *want_type, "{what}");
                assert_eq!(message, "slow down", "{what}");
            }
        }
    });
}

/// An upstream stream of each dialect that starts and then reports an
/// error, or is cut: each client dialect gets its own terminal error event.
#[test]
fn errors_after_the_stream_started_end_it_with_the_client_dialects_error_event() {
    let anthropic_error = concat!(
        "event: message_start\n",
        r#"data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}"#,
        "\n\nevent: content_block_start\n",
        r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        "\n\nevent: content_block_delta\n",
        r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hal"}}"#,
        "\n\nevent: error\n",
        r#"data: {"type":"error","error":{"type":"overloaded_error","message":"the upstream is overloaded"}}"#,
        "\n\n",
    );
    let chat = chat_text("Hallo", 3);
    // Cut after the first chunk: no finish reason, no [DONE].
    let chat_cut: Vec<u8> = crate::upstream::split_events(&chat)[0].to_vec();
    run(Duration::from_secs(30), async {
        for (up, body, message) in [
            (
                Dialect::Anthropic,
                anthropic_error.as_bytes().to_vec(),
                Some("the upstream is overloaded"),
            ),
            (Dialect::Chat, chat_cut, None),
        ] {
            let upstream = Upstream::start(move |_| Script::events(&body, Duration::ZERO)).await;
            let gw = gateway(up, &upstream.url, |_| {}).await;
            for client in Dialect::ALL {
                let (status, _, bytes) =
                    ask(&gw, client, &ask_body(client, "hi", true), true).await;
                let what = format!("{up:?} → {client:?}: {}", String::from_utf8_lossy(&bytes));
                assert_eq!(status, 200, "{what}");
                let got = wire::stream(client, &bytes);
                assert_eq!(got.text, "Hal", "{what}");
                assert!(got.ended, "{what}");
                let error = got.error.expect("an error event");
                if let Some(m) = message {
                    assert!(error.contains(m), "{what}");
                }
                // Non-streaming: an error body in the client's dialect.
                let (status, _, bytes) =
                    ask(&gw, client, &ask_body(client, "hi", false), false).await;
                assert_eq!(status, 502, "{what}");
                let (_, m) = error_type(client, &bytes);
                if let Some(expected) = message {
                    assert!(m.contains(expected), "{what}: {m}");
                }
            }
        }
    });
}

#[test]
fn a_stalled_upstream_gets_keep_alives_then_the_idle_timeout_in_the_client_dialect() {
    run(Duration::from_secs(40), async {
        let first = crate::upstream::split_events(&chat_text("Hal", 3))[0].clone();
        let upstream = Upstream::start(move |_| Script::Stream {
            chunks: vec![first.clone()],
            gap: Duration::ZERO,
            stall: Some(Duration::from_secs(30)),
        })
        .await;
        let gw = gateway(Dialect::Chat, &upstream.url, |c| {
            c.keep_alive = Duration::from_millis(60);
            c.idle_timeout = Duration::from_millis(500);
        })
        .await;
        for client in Dialect::ALL {
            let start = Instant::now();
            let (status, _, bytes) = ask(&gw, client, &ask_body(client, "hi", true), true).await;
            let took = start.elapsed();
            let what = format!("{client:?}: {}", String::from_utf8_lossy(&bytes));
            assert_eq!(status, 200, "{what}");
            let got = wire::stream(client, &bytes);
            assert_eq!(got.text, "Hal", "{what}");
            assert!(
                got.keep_alives >= 4,
                "{what}: {} keep-alives",
                got.keep_alives
            );
            assert!(got.ended, "{what}");
            assert!(
                got.error.as_deref().is_some_and(|e| e.contains("silent")),
                "{what}"
            );
            assert!(
                took >= Duration::from_millis(450) && took < Duration::from_secs(5),
                "{took:?}"
            );
            assert!(
                upstream.wait_idle(Duration::from_secs(2)).await,
                "the gateway let go of the stalled upstream"
            );
            // Non-streaming: 504 in the client's dialect.
            let (status, _, bytes) = ask(&gw, client, &ask_body(client, "hi", false), false).await;
            assert_eq!(
                status,
                504,
                "{client:?}: {}",
                String::from_utf8_lossy(&bytes)
            );
            error_type(client, &bytes);
        }
    });
}

#[test]
fn an_unreachable_upstream_is_a_502_in_the_client_dialect() {
    run(Duration::from_secs(20), async {
        // A port that was just free: nothing listens there.
        let free = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", free.local_addr().expect("addr"));
        drop(free);
        let gw = gateway(Dialect::Anthropic, &url, |_| {}).await;
        for client in Dialect::ALL {
            let (status, _, bytes) = ask(&gw, client, &ask_body(client, "hi", true), true).await;
            assert_eq!(status, 502, "{client:?}");
            let (ty, _) = error_type(client, &bytes);
            assert!(!ty.is_empty(), "{client:?}");
        }
    });
}

#[test]
fn a_client_that_goes_away_drops_the_upstream_request() {
    run(Duration::from_secs(20), async {
        let upstream = Upstream::start(|_| Script::Endless {
            make: Box::new(|i| {
                let c = json!({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                    "choices": [{"index": 0, "delta": {"content": format!("{i} ")}}]});
                Some(Bytes::from(format!("data: {c}\n\n")))
            }),
            gap: Duration::from_millis(2),
        })
        .await;
        let gw = gateway(Dialect::Chat, &upstream.url, |_| {}).await;
        for client in Dialect::ALL {
            let response =
                client_request(&http(), &gw, client, &ask_body(client, "hi", true), true)
                    .send()
                    .await
                    .expect("sent");
            let mut body = response.bytes_stream();
            let mut got = 0;
            while got < 2000 {
                let chunk = tokio::time::timeout(
                    Duration::from_secs(5),
                    futures::StreamExt::next(&mut body),
                )
                .await
                .expect("timely")
                .expect("more")
                .expect("chunk");
                got += chunk.len();
            }
            assert_eq!(upstream.live(), 1, "{client:?}: the upstream is streaming");
            drop(body);
            let start = Instant::now();
            assert!(
                upstream.wait_idle(Duration::from_secs(2)).await,
                "{client:?}: the upstream body was dropped"
            );
            eprintln!(
                "{client:?}: upstream released {:?} after the client left",
                start.elapsed()
            );
        }
    });
}

#[test]
fn what_the_upstream_cannot_take_is_named_in_a_header() {
    run(Duration::from_secs(20), async {
        let upstream =
            Upstream::start(|_| Script::events(&chat_text("ok", 2), Duration::ZERO)).await;
        let gw = gateway(Dialect::Chat, &upstream.url, |_| {}).await;
        let body = json!({"model": "m", "stream": true, "input": "hi",
            "tools": [{"type": "web_search"}]});
        let (status, headers, bytes) = ask(&gw, Dialect::Responses, &body, true).await;
        assert_eq!(status, 200);
        assert_eq!(wire::stream(Dialect::Responses, &bytes).text, "ok");
        let named = headers
            .get("x-gateway-not-carried")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        assert!(named.split(", ").any(|p| p == "/tools/0"), "{named:?}");
        assert!(upstream.seen()[0]
            .body
            .get("tools")
            .is_none_or(|t| t.as_array().is_some_and(Vec::is_empty)));
    });
}

#[test]
fn an_upstream_that_never_answers_is_a_504_in_the_client_dialect() {
    run(Duration::from_secs(20), async {
        // Accepts connections and holds them, answering nothing.
        let silent = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", silent.local_addr().expect("addr"));
        let holder = tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((socket, _)) = silent.accept().await {
                held.push(socket);
            }
        });
        let gw = gateway(Dialect::Gemini, &url, |c| {
            c.idle_timeout = Duration::from_millis(300);
        })
        .await;
        for client in Dialect::ALL {
            for stream in [true, false] {
                let start = Instant::now();
                let (status, _, bytes) =
                    ask(&gw, client, &ask_body(client, "hi", stream), stream).await;
                assert_eq!(
                    status,
                    504,
                    "{client:?}: {}",
                    String::from_utf8_lossy(&bytes)
                );
                let (ty, _) = error_type(client, &bytes);
                let expected = match client {
                    Dialect::Gemini => "DEADLINE_EXCEEDED",
                    Dialect::Anthropic => "timeout_error",
                    _ => "server_error",
                };
                assert_eq!(ty, expected, "{client:?}");
                assert!(
                    start.elapsed() < Duration::from_secs(3),
                    "{:?}",
                    start.elapsed()
                );
            }
        }
        holder.abort();
    });
}

#[test]
fn a_request_body_over_the_limit_is_a_413_in_the_client_dialect() {
    run(Duration::from_secs(20), async {
        let upstream =
            Upstream::start(|_| Script::events(&chat_text("x", 1), Duration::ZERO)).await;
        let gw = gateway(Dialect::Chat, &upstream.url, |c| c.max_body_bytes = 1024).await;
        for client in Dialect::ALL {
            let big = ask_body(client, &"x".repeat(2000), true);
            let (status, _, bytes) = ask(&gw, client, &big, true).await;
            assert_eq!(
                status,
                413,
                "{client:?}: {}",
                String::from_utf8_lossy(&bytes)
            );
            let (ty, _) = error_type(client, &bytes);
            let expected = match client {
                Dialect::Gemini => "INVALID_ARGUMENT",
                Dialect::Anthropic => "request_too_large",
                _ => "invalid_request_error",
            };
            assert_eq!(ty, expected, "{client:?}");
            // A body within the limit goes through.
            let (status, _, _) = ask(&gw, client, &ask_body(client, "hi", true), true).await;
            assert_eq!(status, 200, "{client:?}");
        }
        assert_eq!(
            upstream.seen().len(),
            4,
            "only the small bodies reached the upstream"
        );
    });
}
