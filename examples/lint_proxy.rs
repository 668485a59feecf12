//! A pass-through proxy that checks what it forwards.
//!
//! Three parts run in this one process, on 127.0.0.1 only:
//!
//! * an upstream server replays a captured Responses stream (the shipped
//!   `samples/responses-text.sse`, or the file given as argument);
//! * the proxy reads it with reqwest through the `stream` adapter, lints
//!   each event with `ssekit::lint::ResponsesLinter` (sequence numbers, `event:` name
//!   equal to `type`, item ids, lifecycle order, done text against deltas,
//!   the terminal response against the items) and forwards each frame,
//!   re-encoded with `encode::Encoder`, as soon as it is parsed; a finding's
//!   offset is where the event starts in the forwarded stream;
//! * a client reads the proxied stream and compares it with the capture.
//!
//! ```sh
//! cargo run --example lint_proxy --features stream [-- path/to/stream.sse]
//! ```
//!
//! The proxy forwards frames, so comments (`: keep-alive`) are not passed on.
//! It serves one request and exits.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::{stream, StreamExt};
use http_body_util::StreamBody;
use hyper::body::Frame as BodyFrame;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::Response;
use hyper_util::rt::TokioIo;
use ssekit::adapters::{SseStreamExt, StreamError};
use ssekit::encode::Encoder;
use ssekit::lint::{ResponsesLinter, Severity};
use ssekit::{Bytes, Frame, Parser};
use tokio::net::TcpListener;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/responses-text.sse");

/// What the proxy saw.
#[derive(Debug, Default)]
struct Report {
    forwarded: usize,
    /// Bytes forwarded so far: the offset of the next event downstream.
    written: u64,
    problems: Vec<String>,
    linter: ResponsesLinter,
}

impl Report {
    /// Lints one event before it is forwarded.
    fn check(&mut self, frame: &Frame) {
        self.linter.feed(frame, self.written);
        self.forwarded += 1;
        self.collect();
    }

    /// Moves the linter's findings into the problems (info findings, such
    /// as an unknown event type, are not problems).
    fn collect(&mut self) {
        for finding in self.linter.drain() {
            if finding.severity() > Severity::Info {
                self.problems.push(finding.to_string());
            }
        }
    }
}

/// Serves one connection with `respond`.
async fn serve_once<F, Fut, B>(listener: TcpListener, respond: F)
where
    F: Fn() -> Fut + Clone + Send + 'static,
    Fut: std::future::Future<Output = Response<B>> + Send,
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (tcp, _) = listener.accept().await.expect("accept");
    let service = service_fn(move |_req| {
        let respond = respond.clone();
        async move { Ok::<_, Infallible>(respond().await) }
    });
    let _ = http1::Builder::new()
        .serve_connection(TokioIo::new(tcp), service)
        .await;
}

fn event_stream<B>(body: B) -> Response<B> {
    Response::builder()
        .header("content-type", "text/event-stream")
        .header("cache-control", "no-cache")
        .body(body)
        .unwrap()
}

/// The upstream: the capture in chunks of 97 bytes (cutting lines and
/// events anywhere), a millisecond apart.
fn upstream_body(
    capture: Bytes,
) -> StreamBody<impl futures::Stream<Item = Result<BodyFrame<Bytes>, Infallible>>> {
    let chunks: Vec<Bytes> = (0..capture.len())
        .step_by(97)
        .map(|at| capture.slice(at..(at + 97).min(capture.len())))
        .collect();
    StreamBody::new(stream::unfold(
        chunks.into_iter(),
        |mut chunks| async move {
            let chunk = chunks.next()?;
            tokio::time::sleep(Duration::from_millis(1)).await;
            Some((Ok(BodyFrame::data(chunk)), chunks))
        },
    ))
}

/// The proxy: each upstream frame, checked, re-encoded and forwarded.
async fn proxy_body(
    upstream: String,
    report: Arc<Mutex<Report>>,
) -> StreamBody<impl futures::Stream<Item = Result<BodyFrame<Bytes>, Infallible>>> {
    let response = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("client")
        .get(&upstream)
        .send()
        .await
        .expect("GET upstream");
    let mut encoder = Encoder::new();
    let frames = response.bytes_stream().sse_frames();
    StreamBody::new(frames.filter_map(move |item| {
        let mut report = report.lock().unwrap();
        let out = match item {
            Ok(frame) => {
                report.check(&frame);
                let mut wire = Vec::new();
                match encoder.frame(&mut wire, &frame) {
                    Ok(()) => {
                        report.written += wire.len() as u64;
                        Some(Ok(BodyFrame::data(Bytes::from(wire))))
                    }
                    Err(e) => {
                        report.problems.push(format!("not forwarded: {e}"));
                        None
                    }
                }
            }
            Err(StreamError::Frame(e)) => {
                report.linter.frame_error(&e);
                report.collect();
                None
            }
            Err(e) => {
                report.problems.push(format!("upstream: {e}"));
                None
            }
        };
        std::future::ready(out)
    }))
}

async fn client(url: String) -> Result<Vec<Frame>, Box<dyn std::error::Error>> {
    let response = reqwest::Client::builder()
        .no_proxy()
        .build()?
        .get(&url)
        .send()
        .await?
        .error_for_status()?;
    let mut frames = response.bytes_stream().sse_frames();
    let mut out = Vec::new();
    while let Some(frame) = frames.next().await {
        out.push(frame?);
    }
    Ok(out)
}

fn parse_whole(capture: &Bytes) -> Result<Vec<Frame>, ssekit::FrameError> {
    let mut parser = Parser::new();
    parser.feed(capture.clone());
    let mut out = Vec::new();
    while let Some(frame) = parser.next_frame()? {
        out.push(frame);
    }
    parser.finish()?;
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| SAMPLE.to_owned());
    let capture = Bytes::from(std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?);
    let expected = parse_whole(&capture)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let report = Arc::new(Mutex::new(Report::default()));
    let received = runtime.block_on(async {
        let upstream = TcpListener::bind("127.0.0.1:0").await?;
        let upstream_url = format!("http://{}/v1/responses", upstream.local_addr()?);
        let proxy = TcpListener::bind("127.0.0.1:0").await?;
        let proxy_url = format!("http://{}/v1/responses", proxy.local_addr()?);
        let servers = [
            tokio::spawn(serve_once(upstream, move || {
                let body = upstream_body(capture.clone());
                async move { event_stream(body) }
            })),
            tokio::spawn(serve_once(proxy, {
                let report = Arc::clone(&report);
                move || {
                    let (url, report) = (upstream_url.clone(), Arc::clone(&report));
                    async move { event_stream(proxy_body(url, report).await) }
                }
            })),
        ];
        let result = tokio::time::timeout(Duration::from_secs(60), client(proxy_url)).await;
        servers.iter().for_each(|s| s.abort());
        result.map_err(|_| "timed out")?
    })?;
    let mut report = report.lock().unwrap();
    // The upstream stream has ended: the end-of-stream rules (every item
    // done, one terminal event) apply now.
    let end = report.written;
    report.linter.finish_at(end);
    report.collect();
    println!("{path}");
    println!(
        "forwarded {} events; the client received {}",
        report.forwarded,
        received.len()
    );
    println!(
        "the client's frames {} the capture's",
        if received == expected {
            "equal"
        } else {
            "DIFFER FROM"
        }
    );
    if report.problems.is_empty() {
        println!("no problems found");
    }
    for problem in &report.problems {
        println!("problem: {problem}");
    }
    if received != expected {
        return Err("the proxy changed the stream".into());
    }
    Ok(())
}
