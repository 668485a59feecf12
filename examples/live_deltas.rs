//! A client that prints an answer's text as it arrives.
//!
//! A local hyper server on 127.0.0.1 replays a captured Responses stream (the
//! shipped `samples/responses-text.sse`, or the file given as argument) one
//! event at a time, a few milliseconds apart, cutting some events in two; a
//! reqwest client reads it through the `stream` adapter (`sse_frames()`) and
//! prints each `response.output_text.delta` the moment it is parsed.
//!
//! ```sh
//! cargo run --example live_deltas --features stream [-- path/to/stream.sse]
//! ```
//!
//! It serves one request and exits.

use std::convert::Infallible;
use std::io::Write;
use std::time::Duration;

use futures::{stream, StreamExt};
use http_body_util::StreamBody;
use hyper::body::Frame as BodyFrame;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::Response;
use hyper_util::rt::TokioIo;
use ssekit::adapters::SseStreamExt;
use ssekit::responses::ResponsesEvent;
use ssekit::Bytes;
use tokio::net::TcpListener;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/responses-text.sse");

/// The capture in pieces as a server would have sent them: each event on
/// its own, and every third one cut in the middle, so that the client sees
/// partial events too.
fn pieces(capture: &Bytes) -> Vec<Bytes> {
    let mut out = Vec::new();
    let mut start = 0;
    for (n, end) in blank_line_ends(capture).into_iter().enumerate() {
        let event = capture.slice(start..end);
        if n % 3 == 2 && event.len() > 1 {
            let mid = event.len() / 2;
            out.push(event.slice(..mid));
            out.push(event.slice(mid..));
        } else {
            out.push(event);
        }
        start = end;
    }
    if start < capture.len() {
        out.push(capture.slice(start..));
    }
    out
}

/// The offsets just after each `\n\n` (events of an LF-only capture; any
/// other capture is still served whole and correctly, just in other pieces).
fn blank_line_ends(b: &[u8]) -> Vec<usize> {
    b.windows(2)
        .enumerate()
        .filter(|(_, w)| w == b"\n\n")
        .map(|(i, _)| i + 2)
        .collect()
}

async fn serve_once(listener: TcpListener, capture: Bytes) {
    let (tcp, _) = listener.accept().await.expect("accept");
    let service = service_fn(move |_req| {
        let pieces = pieces(&capture);
        async move {
            let body = StreamBody::new(stream::unfold(
                pieces.into_iter(),
                |mut pieces| async move {
                    let piece = pieces.next()?;
                    tokio::time::sleep(Duration::from_millis(15)).await;
                    Some((Ok::<_, Infallible>(BodyFrame::data(piece)), pieces))
                },
            ));
            Ok::<_, Infallible>(
                Response::builder()
                    .header("content-type", "text/event-stream")
                    .body(body)
                    .unwrap(),
            )
        }
    });
    let _ = http1::Builder::new()
        .serve_connection(TokioIo::new(tcp), service)
        .await;
}

async fn print_deltas(url: String) -> Result<(), Box<dyn std::error::Error>> {
    let response = reqwest::Client::builder()
        .no_proxy()
        .build()?
        .get(&url)
        .header("accept", "text/event-stream")
        .send()
        .await?
        .error_for_status()?;
    let mut frames = response.bytes_stream().sse_frames();
    let mut stdout = std::io::stdout();
    let mut text = String::new();
    let (mut events, mut deltas) = (0, 0);
    while let Some(frame) = frames.next().await {
        let frame = frame?;
        events += 1;
        // `strict`: an event that does not fit its type stops the stream
        // (without it, it would come as `Unknown` and be passed over).
        match ResponsesEvent::from_frame(&frame)?.strict()? {
            ResponsesEvent::OutputTextDelta(d) => {
                deltas += 1;
                // Printed without allocating: `Display` unescapes on the fly.
                write!(stdout, "{}", d.delta)?;
                stdout.flush()?;
                d.delta.unescape_into(&mut text);
            }
            ResponsesEvent::ResponseCompleted(c) => {
                writeln!(stdout)?;
                let status = c.response.get()?.status.map(|s| s.unescape().into_owned());
                println!("-- {events} events, {deltas} text deltas, status {status:?}");
            }
            _ => {}
        }
    }
    println!("-- text: {text:?}");
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| SAMPLE.to_owned());
    let capture = Bytes::from(std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/capture", listener.local_addr()?);
        let server = tokio::spawn(serve_once(listener, capture));
        let result = tokio::time::timeout(Duration::from_secs(60), print_deltas(url)).await;
        server.abort();
        result.map_err(|_| "timed out")?
    })
}
