//! The typed event streams, the gateway example and resuming, with real
//! HTTP on loopback (127.0.0.1) only.
//!
//! A small HTTP/1.1 server written on a raw TCP socket sends chunked bodies
//! and can cut one mid-event by closing the connection without the final
//! chunk, as a crashed upstream does; reqwest reads them. Every test is
//! bounded by `TEST_TIMEOUT`.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use ssekit::accumulate::Outcome;
use ssekit::adapters::SseStreamExt;
use ssekit::responses::writer::ResponsesWriter;
use ssekit::Bytes;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Bound on every test, server and client together.
const TEST_TIMEOUT: Duration = Duration::from_secs(60);

/// Runs `test` on a fresh current-thread runtime under [`TEST_TIMEOUT`];
/// dropping the runtime ends every task the test spawned.
fn run<F: Future<Output = ()>>(test: F) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::timeout(TEST_TIMEOUT, test)
            .await
            .unwrap_or_else(|_| panic!("test timed out after {TEST_TIMEOUT:?}"));
    });
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .timeout(TEST_TIMEOUT / 2)
        .build()
        .expect("reqwest client")
}

/// What the raw server sends for one request: the body in chunks, then
/// either the final chunk (a clean end) or nothing (the connection drops).
struct Reply {
    chunks: Vec<Bytes>,
    cut: bool,
}

/// A raw HTTP/1.1 server on 127.0.0.1: for each connection it reads the
/// request head, asks `reply` what to send (given the head, lowercased),
/// and sends it with `Transfer-Encoding: chunked`, one chunk per write with
/// a pause between, then closes. Dropping it stops accepting.
struct RawServer {
    addr: SocketAddr,
    accept: tokio::task::JoinHandle<()>,
}

impl Drop for RawServer {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl RawServer {
    async fn start(reply: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        assert!(addr.ip().is_loopback());
        let reply = Arc::new(reply);
        let accept = tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    return;
                };
                let reply = Arc::clone(&reply);
                tokio::spawn(async move {
                    let _ = serve(tcp, &*reply).await;
                });
            }
        });
        Self { addr, accept }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }
}

async fn serve(mut tcp: TcpStream, reply: &(dyn Fn(&str) -> Reply + Sync)) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if tcp.read(&mut byte).await? == 0 {
            return Ok(());
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).to_ascii_lowercase();
    let Reply { chunks, cut } = reply(&head);
    tcp.write_all(
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n\
          transfer-encoding: chunked\r\nconnection: close\r\n\r\n",
    )
    .await?;
    for chunk in chunks {
        tcp.write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
            .await?;
        tcp.write_all(&chunk).await?;
        tcp.write_all(b"\r\n").await?;
        tcp.flush().await?;
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    if !cut {
        tcp.write_all(b"0\r\n\r\n").await?;
    }
    tcp.shutdown().await
}

/// A Responses stream written by `ResponsesWriter`, one `Bytes` per event.
fn responses_stream(words: &[&str]) -> Vec<Bytes> {
    let mut w = ResponsesWriter::new("resp_1", "m", 1);
    let mut out = Vec::new();
    w.start_message("msg_1").unwrap();
    out.push(w.take());
    for word in words {
        w.text_delta(word).unwrap();
        out.push(w.take());
    }
    w.complete().unwrap();
    out.push(w.take());
    out
}

/// The README's three lines, against a server that completes the stream
/// and one that drops the connection in the middle of an event.
#[test]
fn responses_events_accumulate_over_http_complete_and_cut() {
    run(async {
        let events = responses_stream(&["Hello", ", ", "\"world\"\n"]);
        let complete = events.clone();
        let server = RawServer::start(move |head| {
            if head.starts_with("post /cut ") {
                // Everything up to the second delta, and half of it.
                let mut chunks = complete[..2].to_vec();
                let half = complete[2].slice(..complete[2].len() / 2);
                chunks.push(half);
                Reply { chunks, cut: true }
            } else {
                Reply {
                    chunks: complete.clone(),
                    cut: false,
                }
            }
        })
        .await;

        // The README's lines.
        let response = client()
            .post(server.url("/ok"))
            .body("{}")
            .send()
            .await
            .unwrap()
            .error_for_status()
            .unwrap();
        let done = response
            .bytes_stream()
            .responses_events()
            .accumulate()
            .await;
        assert_eq!(done.outcome, Outcome::Completed);
        assert_eq!(done.response.output_text(), "Hello, \"world\"\n");
        assert_eq!(done.response.id(), Some("resp_1"));
        assert_eq!(done.problems, 0);
        assert!(done.transport_error.is_none());

        // Cut mid-event by the server: no error to catch, the partial text kept.
        let response = client()
            .post(server.url("/cut"))
            .body("{}")
            .send()
            .await
            .unwrap();
        let done = response
            .bytes_stream()
            .responses_events()
            .accumulate()
            .await;
        assert_eq!(done.outcome, Outcome::Truncated);
        assert_eq!(done.response.output_text(), "Hello");
        let transport = done.transport_error.expect("reqwest reports the cut body");
        assert!(
            transport.is_body() || transport.is_decode(),
            "{transport:?}"
        );
    });
}

/// A Gemini stream (CRLF, no end event) over HTTP: `gemini_events()` and
/// its `accumulate()` give the `GeminiAccumulator`'s answer; cut in the
/// middle of its last chunk, the partial answer with `Truncated`.
#[test]
fn gemini_events_accumulate_over_http_complete_and_cut() {
    use ssekit::gemini::GeminiEvent;

    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/gemini/thinking-function-call.sse"
    );
    let whole = std::fs::read_to_string(path).unwrap();
    // One chunk per block, as the API writes them.
    let blocks: Vec<Bytes> = whole
        .split_inclusive("\r\n\r\n")
        .map(|b| Bytes::from(b.to_owned()))
        .collect();
    assert_eq!(blocks.len(), 4);
    run(async {
        let complete = blocks.clone();
        let server = RawServer::start(move |head| {
            if head.starts_with("post /cut ") {
                let mut chunks = complete[..3].to_vec();
                chunks.push(complete[3].slice(..complete[3].len() / 2));
                Reply { chunks, cut: true }
            } else {
                Reply {
                    chunks: complete.clone(),
                    cut: false,
                }
            }
        })
        .await;

        let response = client()
            .post(server.url("/ok"))
            .body("{}")
            .send()
            .await
            .unwrap();
        let mut seen = 0;
        let done = response
            .bytes_stream()
            .gemini_events()
            .accumulate_with(ssekit::accumulate::GeminiAccumulator::new(), |e| {
                seen += usize::from(matches!(e, GeminiEvent::Response(_)));
            })
            .await;
        assert_eq!(seen, 4);
        assert_eq!(done.outcome, Outcome::Completed, "{:?}", done.first_problem);
        assert_eq!(done.problems, 0);
        let candidate = done.response.candidate(0).unwrap();
        assert_eq!(candidate.text(), "Let me check that for you.");
        assert_eq!(
            candidate.thoughts(),
            "**Planning the lookup**\n\nThe user wants the weather in \"Paris\". I should call `get_weather`."
        );
        assert_eq!(candidate.finish_reason(), Some("STOP"));
        assert_eq!(done.response.response_id(), Some("xYzAbC123"));
        let json: serde_json::Value = serde_json::from_str(&done.response.to_json()).unwrap();
        let parts = json["candidates"][0]["content"]["parts"]
            .as_array()
            .unwrap();
        let call = parts
            .iter()
            .find(|p| p.get("functionCall").is_some())
            .unwrap();
        assert_eq!(call["functionCall"]["name"], "get_weather");
        assert_eq!(
            call["functionCall"]["args"],
            serde_json::json!({"city": "Paris", "unit": "celsius"})
        );
        assert_eq!(call["thoughtSignature"], "CiQBcsjafD0Gf2vYbX==");
        assert_eq!(json["usageMetadata"]["totalTokenCount"], 92);

        // Cut in the middle of the chunk with the call and the finish reason.
        let response = client()
            .post(server.url("/cut"))
            .body("{}")
            .send()
            .await
            .unwrap();
        let done = response.bytes_stream().gemini_events().accumulate().await;
        assert_eq!(done.outcome, Outcome::Truncated);
        let candidate = done.response.candidate(0).unwrap();
        assert_eq!(candidate.text(), "Let me check that for you.");
        assert_eq!(candidate.finish_reason(), None);
        assert!(done.transport_error.is_some());
    });
}

/// The event stream itself, over HTTP: owned events that outlive their
/// chunks, kept in a `Vec`, and the typed views from them.
#[test]
fn owned_events_over_http_can_be_kept() {
    use futures::StreamExt;
    use ssekit::responses::ResponsesEvent;

    run(async {
        let events = responses_stream(&["a", "b"]);
        let server = RawServer::start(move |_| Reply {
            chunks: events.clone(),
            cut: false,
        })
        .await;
        let response = client().get(server.url("/")).send().await.unwrap();
        let kept: Vec<_> = response
            .bytes_stream()
            .responses_events()
            .map(|e| e.expect("decodes"))
            .collect()
            .await;
        assert_eq!(kept.len(), 10);
        let deltas: Vec<String> = kept
            .iter()
            .filter_map(|e| match e.get() {
                ResponsesEvent::OutputTextDelta(d) => Some(d.delta.unescape().into_owned()),
                _ => None,
            })
            .collect();
        assert_eq!(deltas, ["a", "b"]);
        assert!(matches!(
            kept.last().unwrap().get(),
            ResponsesEvent::ResponseCompleted(_)
        ));
    });
}

// ---------------------------------------------------------------------------
// The axum gateway example, run as it is.

use crate::relay;

/// The gateway's wire bytes for `mode`, read whole.
async fn gateway_wire(url: &str) -> (reqwest::header::HeaderMap, Bytes) {
    let response = client().post(url).body("{}").send().await.unwrap();
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    (headers, response.bytes().await.unwrap())
}

/// Upstream and gateway on loopback; the client reads through the gateway
/// with the README's lines: a whole answer (with `[DONE]` dropped or passed
/// on, sequence numbers renumbered without gaps, the SSE headers set), a
/// cut upstream turned into `response.failed` with the partial text, and an
/// unreachable upstream turned into 502.
#[test]
fn the_axum_gateway_example_forwards_renumbers_and_reports_a_cut_upstream() {
    use ssekit::responses::writer::DoneMarker;
    use ssekit::responses::ResponsesEvent;
    use ssekit::Parser;

    run(async {
        let (upstream, _up) = relay::spawn(relay::upstream()).await.unwrap();
        let start = |done_marker| {
            relay::spawn(relay::gateway(relay::Gateway {
                upstream: upstream.clone(),
                done_marker,
                client: relay::client(),
            }))
        };
        let (dropping, _gw1) = start(DoneMarker::Drop).await.unwrap();
        let (passing, _gw2) = start(DoneMarker::Forward).await.unwrap();
        let answer = relay::TOKENS.concat();

        for (base, marker) in [
            (&dropping, DoneMarker::Drop),
            (&passing, DoneMarker::Forward),
        ] {
            let url = format!("{base}/v1/whole");
            let done = relay::ask(&client(), &url).await.unwrap();
            assert_eq!(done.outcome, Outcome::Completed, "{marker:?}");
            assert_eq!(done.response.output_text(), answer);
            assert_eq!(done.problems, 0);

            let (headers, wire) = gateway_wire(&url).await;
            assert_eq!(headers["content-type"], "text/event-stream");
            assert_eq!(headers["cache-control"], "no-cache");
            assert!(headers.get("content-length").is_none());
            let mut parser = Parser::new();
            parser.feed(wire.clone());
            let mut numbers = Vec::new();
            let mut saw_done = false;
            while let Some(frame) = parser.next_frame().unwrap() {
                match ResponsesEvent::from_frame(&frame).unwrap() {
                    ResponsesEvent::Done => saw_done = true,
                    event => numbers.push(event.sequence_number().unwrap()),
                }
            }
            parser.finish().unwrap();
            assert_eq!(numbers, (0..numbers.len() as u64).collect::<Vec<_>>());
            assert_eq!(
                numbers.len(),
                13,
                "created, in_progress, 4 + 5 deltas + 3, completed"
            );
            assert_eq!(saw_done, marker == DoneMarker::Forward, "{marker:?}");
            assert_eq!(wire.ends_with(b"data: [DONE]\n\n"), saw_done);
        }

        // The upstream stops after three tokens: the client gets a
        // `response.failed` with the gateway's reason, and the text so far.
        let done = relay::ask(&client(), &format!("{dropping}/v1/cut"))
            .await
            .unwrap();
        assert_eq!(done.outcome, Outcome::Failed);
        assert_eq!(done.response.output_text(), relay::TOKENS[..3].concat());
        let code = done.response.error().and_then(|e| e.get("code"));
        assert_eq!(code.and_then(|c| c.as_str()), Some("upstream_truncated"));

        // No upstream at all: 502, before any stream starts.
        let (nowhere, gw3) = relay::spawn(relay::gateway(relay::Gateway {
            upstream: "http://127.0.0.1:1".to_owned(),
            done_marker: DoneMarker::Drop,
            client: relay::client(),
        }))
        .await
        .unwrap();
        let response = client()
            .post(format!("{nowhere}/v1/whole"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 502);
        gw3.abort();
    });
}

// ---------------------------------------------------------------------------
// The resume example, run as it is.

use crate::resume;

/// The server cuts the stream every few events, mid-event; the client
/// reconnects with `Last-Event-ID` (after the server's `retry`, jittered)
/// and its seeded parser, keeps one accumulator, and ends with the whole
/// response: no sequence number missing or repeated, no finding.
#[test]
fn the_resume_example_reassembles_a_stream_cut_twice() {
    use ssekit::Reconnect;

    run(async {
        let seen = resume::Seen::default();
        let (base, _server) = resume::spawn(resume::server(seen.clone())).await.unwrap();
        let events = resume::events().len();
        assert_eq!(events, 16);
        let policy = Reconnect::new()
            .with_max_delay(Duration::from_millis(200))
            .with_seed(3);
        let url = format!("{base}/stream");
        let (response, connections) = resume::fetch_resuming(&client(), &url, policy, 5)
            .await
            .unwrap();
        assert_eq!(connections, 3);
        assert_eq!(
            *seen.0.lock().unwrap(),
            [None, Some("5".to_owned()), Some("11".to_owned())]
        );
        assert_eq!(response.outcome(), Outcome::Completed);
        assert_eq!(response.output_text(), resume::WORDS.concat());
        assert_eq!(response.events(), events as u64, "each event once");
        assert!(
            response.anomalies().is_empty(),
            "{:?}",
            response.anomalies()
        );

        // A server that is gone: the client gives up after its attempts.
        let policy = Reconnect::new()
            .with_initial_delay(Duration::from_millis(1))
            .with_max_delay(Duration::from_millis(4));
        let (response, connections) =
            resume::fetch_resuming(&client(), "http://127.0.0.1:1/stream", policy, 3)
                .await
                .unwrap();
        assert_eq!(connections, 4, "the first try and three more");
        assert_eq!(response.outcome(), Outcome::Truncated);
    });
}
