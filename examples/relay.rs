//! A Responses API gateway with axum: it passes an upstream provider's
//! stream on to its clients, event by event, renumbered, with the `[DONE]`
//! marker of OpenRouter-style providers dropped (or kept), and turns an
//! upstream that stops early into a `response.failed` its clients can see.
//!
//! Three parts, all on 127.0.0.1 with ports the system picks:
//!
//! * the **upstream**, a stand-in for a provider: it writes a Responses
//!   stream from tokens with `ResponsesWriter` (as an axum body through
//!   `adapters::ResponsesBody`) and ends it with `[DONE]`; `/v1/cut` stops
//!   in the middle instead;
//! * the **gateway**: reqwest to the upstream, `responses_events()`, and
//!   `ResponsesWriter::forward` for each event, as an axum body;
//! * a **client**: reqwest to the gateway, `responses_events().accumulate()`.
//!
//! ```sh
//! cargo run --example relay --features stream
//! ```
//!
//! It asks the gateway twice (a whole answer, then a cut one), prints what
//! came back, and exits. `tests/adapters/loopback.rs` runs these same functions.

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use futures::{stream, StreamExt};
use ssekit::accumulate::FinalResponse;
use ssekit::adapters::{Collected, ResponsesBody, SseStreamExt};
use ssekit::encode::SSE_HEADERS;
use ssekit::responses::writer::{DoneMarker, ResponsesWriter};
use tokio::net::TcpListener;

/// What the upstream "model" says, token by token.
pub(crate) const TOKENS: &[&str] = &["The ", "answer ", "is ", "\"42\"", ".\n"];

/// The upstream: `POST /v1/{whole|cut}` streams [`TOKENS`] as a Responses
/// stream, a token every few milliseconds; `whole` ends with
/// `response.completed` and `[DONE]`, `cut` stops after three tokens.
pub(crate) fn upstream() -> Router {
    Router::new().route("/v1/{mode}", post(upstream_stream))
}

async fn upstream_stream(Path(mode): Path<String>) -> Response {
    let cut = mode == "cut";
    let tokens = TOKENS
        .iter()
        .copied()
        .take(if cut { 3 } else { TOKENS.len() });
    let paced = Box::pin(stream::iter(tokens).then(|token| async move {
        tokio::time::sleep(Duration::from_millis(3)).await;
        token
    }));
    let writer = ResponsesWriter::new("resp_upstream", "upstream-model", 1_767_225_600);
    let body = ResponsesBody::new(writer, paced, move |w, token| match token {
        Some(token) if w.sequence_number() == 0 => {
            w.start_message("msg_1")?;
            w.text_delta(token)
        }
        Some(token) => w.text_delta(token),
        None if cut => Ok(()), // stop without a terminal event
        None => {
            w.complete()?;
            w.forward("[DONE]").map(drop) // as OpenRouter-style providers do
        }
    });
    (SSE_HEADERS, Body::from_stream(body)).into_response()
}

/// What the gateway needs: where the upstream is, and what to do with
/// `[DONE]`.
#[derive(Clone)]
pub(crate) struct Gateway {
    /// The upstream's base URL.
    pub(crate) upstream: String,
    /// Pass `[DONE]` on, or drop it.
    pub(crate) done_marker: DoneMarker,
    /// The HTTP client for the upstream.
    pub(crate) client: reqwest::Client,
}

/// The gateway: `POST /v1/{mode}` is passed to the upstream's
/// `/v1/{mode}`, and its stream back to the client.
pub(crate) fn gateway(state: Gateway) -> Router {
    Router::new()
        .route("/v1/{mode}", post(gateway_stream))
        .with_state(state)
}

async fn gateway_stream(
    State(gw): State<Gateway>,
    Path(mode): Path<String>,
    request: String,
) -> Response {
    let upstream = match gw
        .client
        .post(format!("{}/v1/{mode}", gw.upstream))
        .header("accept", "text/event-stream")
        .body(request)
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
    {
        Ok(upstream) => upstream,
        Err(e) => return (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    };
    let events = upstream.bytes_stream().responses_events();
    let writer = ResponsesWriter::new("resp_gateway", "gateway", 1_767_225_600)
        .with_done_marker(gw.done_marker);
    let body = ResponsesBody::new(writer, events, |w, event| match event {
        // Each event as it came, renumbered from 0 (`[DONE]` as the marker says).
        Some(Ok(event)) => w.forward(event.as_str()).map(drop),
        // An event that does not decode: skipped (a gateway could log it).
        Some(Err(e)) if !e.is_transport() => Ok(()),
        // The connection to the upstream failed: tell the client.
        Some(Err(e)) => w.fail("upstream_error", &e.to_string()),
        // The upstream ended without a terminal event (a finished writer is
        // not asked): tell the client rather than end as if complete.
        None => w.fail("upstream_truncated", "the upstream stream ended early"),
    });
    (SSE_HEADERS, Body::from_stream(body)).into_response()
}

/// Serves `router` on `listener` until the task is dropped.
pub(crate) async fn serve(listener: TcpListener, router: Router) {
    axum::serve(listener, router).await.expect("serve");
}

/// The client: asks the gateway and assembles the answer, whatever happens.
pub(crate) async fn ask(
    client: &reqwest::Client,
    url: &str,
) -> Result<Collected<FinalResponse, reqwest::Error>, reqwest::Error> {
    let response = client
        .post(url)
        .body(r#"{"model":"any","input":"?"}"#)
        .send()
        .await?
        .error_for_status()?;
    Ok(response
        .bytes_stream()
        .responses_events()
        .accumulate()
        .await)
}

/// Binds 127.0.0.1 with a port the system picks and serves `router` there;
/// returns its base URL.
pub(crate) async fn spawn(
    router: Router,
) -> std::io::Result<(String, tokio::task::JoinHandle<()>)> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    Ok((url, tokio::spawn(serve(listener, router))))
}

/// A reqwest client that ignores proxy settings (everything is on loopback).
pub(crate) fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("reqwest client")
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let (upstream_url, upstream_task) = spawn(upstream()).await?;
        let (gateway_url, gateway_task) = spawn(gateway(Gateway {
            upstream: upstream_url,
            done_marker: DoneMarker::Drop,
            client: client(),
        }))
        .await?;
        let client = client();
        for mode in ["whole", "cut"] {
            let url = format!("{gateway_url}/v1/{mode}");
            let done = tokio::time::timeout(Duration::from_secs(30), ask(&client, &url))
                .await
                .map_err(|_| "timed out")??;
            println!(
                "{mode}: {:?} [{}], {} events",
                done.response.output_text(),
                done.outcome,
                done.response.events()
            );
            if let Some(error) = done.response.error() {
                println!("  error: {error:?}");
            }
        }
        upstream_task.abort();
        gateway_task.abort();
        Ok(())
    })
}
