//! A Responses API endpoint in front of a Chat Completions model, with
//! axum and `ssekit::bridge`: clients that speak only Responses (Codex-style
//! agents) get a stream that lints clean, token by token, from a provider
//! that speaks only Chat Completions.
//!
//! Two servers, both on 127.0.0.1 with ports the system picks:
//!
//! * the **upstream**, a stand-in for the provider: `POST
//!   /v1/chat/completions` replays a recorded Chat Completions stream, one
//!   event at a time with a pause between;
//! * the **gateway**: `POST /v1/responses` sends the provider a Chat request
//!   (the Responses request's `model` and `input`), reads its stream with
//!   reqwest and feeds each chunk to a [`BytesBridge`] of a
//!   [`ChatToResponses`]; what the bridge writes goes to the client at once.
//!   A keep-alive comment goes out whenever the upstream is silent for a
//!   while; an upstream that breaks or stops early ends the client's stream
//!   with `response.failed`.
//!
//! ```sh
//! cargo run --example bridge_gateway [RECORDED_CHAT_STREAM.sse]
//! ```
//!
//! Without an argument it replays `tests/data/chat/deepseek-reasoning-content.sse`.
//! It asks the gateway once, prints the Responses events that came back and
//! the linter's verdict, and exits. `tests/bridge.rs` runs these same
//! functions over every recorded Chat stream of the corpus.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use futures::{stream, StreamExt};
use ssekit::bridge::{Bridge, BytesBridge, ChatToResponses};
use ssekit::{Bytes, Parser};
use tokio::net::TcpListener;

/// How long the upstream may be silent before a keep-alive comment goes
/// to the client.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// The upstream: `POST /v1/chat/completions` replays `recorded` (a Chat
/// Completions SSE body), one event at a time, a millisecond apart.
pub(crate) fn upstream(recorded: Bytes) -> Router {
    Router::new()
        .route("/v1/chat/completions", post(replay))
        .with_state(recorded)
}

async fn replay(State(recorded): State<Bytes>) -> Response {
    // Cut the recording into its events (blank-line separated), so that
    // they arrive one by one as a provider sends them.
    let mut events = Vec::new();
    let mut start = 0;
    let bytes = &recorded[..];
    let mut i = 0;
    while i < bytes.len() {
        let blank = bytes[i..].starts_with(b"\n\n") || bytes[i..].starts_with(b"\r\n\r\n");
        if blank {
            let end = i + if bytes[i] == b'\r' { 4 } else { 2 };
            events.push(recorded.slice(start..end));
            start = end;
            i = end;
        } else {
            i += 1;
        }
    }
    if start < bytes.len() {
        events.push(recorded.slice(start..));
    }
    let paced = stream::iter(events).then(|event| async move {
        tokio::time::sleep(Duration::from_millis(1)).await;
        Ok::<_, Infallible>(event)
    });
    (
        [(header::CONTENT_TYPE, "text/event-stream")],
        Body::from_stream(paced),
    )
        .into_response()
}

/// What the gateway needs: where the provider is, and an HTTP client.
#[derive(Clone)]
pub(crate) struct Gateway {
    /// The provider's base URL.
    pub(crate) upstream: String,
    /// The HTTP client for the provider.
    pub(crate) client: reqwest::Client,
}

/// The gateway: `POST /v1/responses`.
pub(crate) fn gateway(state: Gateway) -> Router {
    Router::new()
        .route("/v1/responses", post(responses))
        .with_state(state)
}

/// The Chat request for a Responses request: its `model`, and its `input`
/// as one user message (a real gateway maps the whole request).
fn chat_request(responses_request: &str) -> String {
    let request: serde_json::Value =
        serde_json::from_str(responses_request).unwrap_or(serde_json::Value::Null);
    let input = match &request["input"] {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    serde_json::json!({
        "model": request["model"].as_str().unwrap_or("default"),
        "messages": [{"role": "user", "content": input}],
        "stream": true,
        "stream_options": {"include_usage": true},
    })
    .to_string()
}

async fn responses(State(gw): State<Gateway>, request: String) -> Response {
    let upstream = match gw
        .client
        .post(format!("{}/v1/chat/completions", gw.upstream))
        .header("content-type", "application/json")
        .header("accept", "text/event-stream")
        .body(chat_request(&request))
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
    {
        Ok(upstream) => upstream,
        Err(e) => return (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    };
    let bridge = BytesBridge::new(ChatToResponses::new());
    let state = Some((upstream.bytes_stream(), bridge));
    // One upstream chunk in, what the bridge wrote out, until the bridge has
    // written its terminal event.
    let body = stream::unfold(state, |state| async move {
        let (mut chunks, mut bridge) = state?;
        let next = tokio::time::timeout(KEEP_ALIVE, chunks.next()).await;
        match next {
            // Silence: a keep-alive on our own schedule.
            Err(_elapsed) => bridge.get_mut().keep_alive(),
            Ok(Some(Ok(chunk))) => {
                // An error is already a `response.failed` in the output
                // (a real gateway would log it).
                let _ = bridge.feed(chunk);
            }
            Ok(Some(Err(e))) => bridge.get_mut().abort(
                "upstream_error",
                &format!("the provider's stream broke: {e}"),
            ),
            Ok(None) => {
                let _ = bridge.finish(); // a cut upstream: response.failed
            }
        }
        let out = bridge.take();
        let state = (!bridge.get_ref().is_finished()).then_some((chunks, bridge));
        Some((Ok::<_, Infallible>(out), state))
    });
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(body),
    )
        .into_response()
}

/// Binds 127.0.0.1 with a port the system picks and serves `router` there;
/// returns its base URL.
pub(crate) async fn spawn(
    router: Router,
) -> std::io::Result<(String, tokio::task::JoinHandle<()>)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    let task = tokio::spawn(async move {
        axum::serve(listener, router).await.expect("serve");
    });
    Ok((url, task))
}

/// A reqwest client that ignores proxy settings (everything is on loopback).
pub(crate) fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("reqwest client")
}

/// The client: `POST {gateway}/v1/responses`, the body read chunk by chunk
/// as it arrives. Returns the wire bytes and the time each chunk came.
pub(crate) async fn ask(
    client: &reqwest::Client,
    gateway_url: &str,
) -> Result<Vec<Bytes>, reqwest::Error> {
    let response = client
        .post(format!("{gateway_url}/v1/responses"))
        .body(r#"{"model":"any","input":"What is 9.11 - 9.9?","stream":true}"#)
        .send()
        .await?
        .error_for_status()?;
    let mut chunks = Vec::new();
    let mut body = response.bytes_stream();
    while let Some(chunk) = body.next().await {
        chunks.push(chunk?);
    }
    Ok(chunks)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/chat/deepseek-reasoning-content.sse"
        )
        .to_owned()
    });
    let recorded = Bytes::from(std::fs::read(&path)?);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let (upstream_url, upstream_task) = spawn(upstream(recorded)).await?;
        let (gateway_url, gateway_task) = spawn(gateway(Gateway {
            upstream: upstream_url,
            client: client(),
        }))
        .await?;
        let chunks = tokio::time::timeout(Duration::from_secs(30), ask(&client(), &gateway_url))
            .await
            .map_err(|_| "timed out")??;
        // Read what came back with the crate's own parser and linter.
        let mut parser = Parser::new();
        let mut linter = ssekit::lint::StreamLinter::new();
        for chunk in chunks {
            linter.feed(chunk.clone());
            parser.feed(chunk);
            while let Some(frame) = parser.next_frame()? {
                println!("{}: {}", frame.event(), frame.data());
            }
        }
        linter.finish();
        let findings: Vec<_> = linter.drain().collect();
        for f in &findings {
            println!("finding: {f}");
        }
        println!(
            "{} error finding(s)",
            findings.iter().filter(|f| f.is_error()).count()
        );
        upstream_task.abort();
        gateway_task.abort();
        Ok(())
    })
}
