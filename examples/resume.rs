//! Resuming a stream that the server cuts, with reqwest and
//! `ssekit::Reconnect`.
//!
//! The server (axum, on 127.0.0.1) has one Responses stream whose events
//! carry ids, and it drops the connection after every few events, as a
//! flaky proxy does; it resumes after the `Last-Event-ID` it is sent. The
//! client keeps one accumulator across connections: after each cut it
//! waits as the policy says (the server's `retry`, backed off, jittered),
//! reconnects with `Last-Event-ID`, and starts the new parser from that
//! ID, until the response is complete.
//!
//! ```sh
//! cargo run --example resume --features stream
//! ```
//!
//! `tests/loopback.rs` runs these same functions.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use futures::{stream, StreamExt};
use ssekit::accumulate::{FinalResponse, ResponsesAccumulator};
use ssekit::adapters::FrameStream;
use ssekit::encode::{Encoder, SSE_HEADERS};
use ssekit::responses::writer::ResponsesWriter;
use ssekit::responses::ResponsesEvent;
use ssekit::{Bytes, Frame, Parser, Reconnect};
use tokio::net::TcpListener;

/// The answer the server streams, word by word.
pub(crate) const WORDS: &[&str] = &[
    "Resuming ",
    "works: ",
    "the ",
    "server ",
    "cut ",
    "this ",
    "stream ",
    "twice.",
];

/// How many events the server sends on one connection before it cuts it.
pub(crate) const EVENTS_PER_CONNECTION: usize = 6;

/// The stream's events, each as its own SSE event with `id: <index>`;
/// the first also sets `retry: 20` (milliseconds).
pub(crate) fn events() -> Vec<Bytes> {
    let mut w = ResponsesWriter::new("resp_resume", "m", 1_767_225_600);
    w.start_message("msg_1").expect("start");
    for word in WORDS {
        w.text_delta(word).expect("delta");
    }
    w.complete().expect("complete");
    let mut parser = Parser::new();
    parser.feed(w.take());
    let mut encoder = Encoder::new();
    let mut out = Vec::new();
    let mut n = 0u64;
    while let Some(frame) = parser.next_frame().expect("frames") {
        let mut frame = Frame::new(frame.data())
            .with_event(frame.event())
            .with_id(n.to_string());
        if n == 0 {
            frame = frame.with_retry(Some(20));
        }
        let mut wire = Vec::new();
        encoder.frame(&mut wire, &frame).expect("encode");
        out.push(Bytes::from(wire));
        n += 1;
    }
    out
}

/// What the server saw: the `Last-Event-ID` of each request (`None` if
/// the request had none).
#[derive(Clone, Default)]
pub(crate) struct Seen(pub(crate) Arc<Mutex<Vec<Option<String>>>>);

/// The server: `GET /stream` sends the events after the request's
/// `Last-Event-ID` (all of them without one), and cuts the connection after
/// [`EVENTS_PER_CONNECTION`] unless the stream ends first.
pub(crate) fn server(seen: Seen) -> Router {
    Router::new()
        .route("/stream", get(serve_stream))
        .with_state((Arc::new(events()), seen))
}

async fn serve_stream(
    State((events, seen)): State<(Arc<Vec<Bytes>>, Seen)>,
    headers: HeaderMap,
) -> Response {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    seen.0.lock().expect("lock").push(last.clone());
    let start = last
        .and_then(|id| id.parse::<usize>().ok())
        .map_or(0, |n| n + 1);
    let end = (start + EVENTS_PER_CONNECTION).min(events.len());
    let mut chunks: Vec<Result<Bytes, std::io::Error>> =
        events[start..end].iter().cloned().map(Ok).collect();
    if end < events.len() {
        // Half of the next event, then the connection drops.
        let next = &events[end];
        chunks.push(Ok(next.slice(..next.len() / 2)));
        chunks.push(Err(std::io::Error::other("cut")));
    }
    let body = Box::pin(stream::iter(chunks).then(|chunk| async move {
        tokio::time::sleep(Duration::from_millis(2)).await;
        chunk
    }));
    (SSE_HEADERS, Body::from_stream(body)).into_response()
}

/// The client: reads the stream at `url` into one accumulator, reconnecting
/// as `policy` says after each cut, at most `max_attempts` failures in a
/// row. Returns the final response and the number of connections made.
pub(crate) async fn fetch_resuming(
    client: &reqwest::Client,
    url: &str,
    mut policy: Reconnect,
    max_attempts: u32,
) -> Result<(FinalResponse, u32), Box<dyn std::error::Error>> {
    let mut accumulator = ResponsesAccumulator::new();
    let mut connections = 0;
    loop {
        let mut request = client.get(url).header("accept", "text/event-stream");
        if let Some(id) = policy.last_event_id_header() {
            request = request.header("last-event-id", id);
        }
        connections += 1;
        match request.send().await.and_then(|r| r.error_for_status()) {
            Ok(response) => {
                // The new parser starts from the last event ID.
                let mut frames = FrameStream::with_parser(response.bytes_stream(), policy.parser());
                while let Some(item) = frames.next().await {
                    match item {
                        Ok(frame) => accumulator.feed(&ResponsesEvent::from_frame(&frame)?)?,
                        Err(e) if e.is_transport() => break, // the connection dropped
                        Err(e) => eprintln!("skipped: {e}"),
                    }
                }
                policy.observe(frames.parser());
            }
            Err(e) => eprintln!("connection {connections} failed: {e}"),
        }
        if accumulator.is_terminated() || policy.attempts() >= max_attempts {
            break;
        }
        tokio::time::sleep(policy.next_delay()).await;
    }
    Ok((accumulator.finish(), connections))
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let seen = Seen::default();
        let (base, server) = spawn(server(seen.clone())).await?;
        let client = reqwest::Client::builder().no_proxy().build()?;
        let policy = Reconnect::new()
            .with_max_delay(Duration::from_secs(2))
            .with_seed(u64::from(std::process::id()));
        let url = format!("{base}/stream");
        let (response, connections) = tokio::time::timeout(
            Duration::from_secs(30),
            fetch_resuming(&client, &url, policy, 5),
        )
        .await
        .map_err(|_| "timed out")??;
        println!(
            "{:?} [{}] after {connections} connections; Last-Event-ID sent: {:?}",
            response.output_text(),
            response.outcome(),
            seen.0.lock().expect("lock")
        );
        server.abort();
        Ok(())
    })
}
