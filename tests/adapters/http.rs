//! The adapters with real parts, on loopback (127.0.0.1) only.
//!
//! A hyper HTTP/1.1 server streams bodies in random chunks with small delays,
//! and a reqwest client reads them through `sse_frames()`: every recorded
//! stream of the shared corpus must give the frames it gives parsed whole,
//! and a stream written by `encode::Encoder` must give back the frames it
//! was made from. `SseCodec` reads such a stream from a raw TCP connection
//! and writes and reads one through a tokio duplex pipe.
//!
//! The corpus is `$SSEKIT_CORPUS`, else `../shared/corpus` beside the crate;
//! a missing corpus skips its test, except under `CI=true`, where it fails.
//! The chunking is random but seeded: `SSEKIT_SEED=<n>` replays a run. Every
//! test is bounded by `TEST_TIMEOUT`, and the server's tasks end with it.

use crate::corpus;
use corpus::corpus_dir;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{stream, SinkExt, StreamExt};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Empty, StreamBody};
use hyper::body::{Frame as BodyFrame, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use ssekit::adapters::{CodecError, SseCodec, SseStreamExt, StreamError};
use ssekit::encode::Encoder;
use ssekit::{Bytes, Frame, FrameError, FrameErrorKind, Parser};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use tokio_util::codec::{FramedRead, FramedWrite};

/// Bound on every test, server and client together.
const TEST_TIMEOUT: Duration = Duration::from_secs(60);

/// One parser outcome: a frame, or an error after which parsing went on.
type Outcome = Result<Frame, FrameError>;

// ---------------------------------------------------------------------------
// Seeded randomness (splitmix64): no `rand` needed, and a failure replays.

fn seed() -> u64 {
    std::env::var("SSEKIT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x55E_C17)
}

#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0; the bias is irrelevant here).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// FNV-1a, to give each path its own chunking from one seed.
fn hash(s: &str) -> u64 {
    s.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
    })
}

/// What the writer does after a chunk, so that the reader sees it apart.
#[derive(Debug, Clone, Copy)]
enum Pause {
    None,
    /// Let the writer flush (hyper writes out what it has when the body is pending).
    Yield,
    Sleep(Duration),
}

impl Pause {
    async fn wait(self) {
        match self {
            Self::None => {}
            Self::Yield => tokio::task::yield_now().await,
            Self::Sleep(d) => tokio::time::sleep(d).await,
        }
    }
}

/// Cuts `body` into chunks of random sizes, half of them small (1 to 64
/// bytes: cuts inside lines, CRLF pairs and UTF-8 sequences), half up to
/// 16 KiB, each followed by a random pause of at most 2 ms.
fn chunked(body: &Bytes, rng: &mut Rng) -> Vec<(Bytes, Pause)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < body.len() {
        let max = if rng.below(2) == 0 { 64 } else { 16 * 1024 };
        let end = (at + 1 + rng.below(max) as usize).min(body.len());
        let pause = match rng.below(8) {
            0 => Pause::Sleep(Duration::from_millis(1)),
            1 => Pause::Sleep(Duration::from_millis(2)),
            2..=4 => Pause::Yield,
            _ => Pause::None,
        };
        out.push((body.slice(at..end), pause));
        at = end;
    }
    out
}

// ---------------------------------------------------------------------------
// The server: hyper, HTTP/1.1, on 127.0.0.1 with a port the system picks.

type Body = UnsyncBoxBody<Bytes, Infallible>;

/// A running server. Dropping it aborts the accept loop, whose `JoinSet`
/// then aborts every connection.
struct Server {
    addr: SocketAddr,
    accept: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

impl Server {
    /// Serves each body at its path (`text/event-stream`, chunked as
    /// [`chunked`] says, seeded by `seed` and the path); 404 elsewhere.
    async fn start(bodies: HashMap<String, Bytes>, seed: u64) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().unwrap();
        assert!(addr.ip().is_loopback());
        let bodies = Arc::new(bodies);
        let accept = tokio::spawn(async move {
            let mut connections = JoinSet::new();
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    return;
                };
                let bodies = Arc::clone(&bodies);
                let service = service_fn(move |req| respond(req, Arc::clone(&bodies), seed));
                connections.spawn(async move {
                    // A client going away mid-body is not the server's failure.
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(tcp), service)
                        .await;
                });
                // Reap finished connections so the set stays small.
                while connections.try_join_next().is_some() {}
            }
        });
        Self { addr, accept }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }
}

async fn respond(
    req: Request<Incoming>,
    bodies: Arc<HashMap<String, Bytes>>,
    seed: u64,
) -> Result<Response<Body>, Infallible> {
    let path = req.uri().path();
    let Some(body) = bodies.get(path) else {
        let mut res = Response::new(Empty::new().boxed_unsync());
        *res.status_mut() = StatusCode::NOT_FOUND;
        return Ok(res);
    };
    let pieces = chunked(body, &mut Rng::new(seed ^ hash(path)));
    let frames = stream::unfold(pieces.into_iter(), |mut pieces| async move {
        let (chunk, pause) = pieces.next()?;
        pause.wait().await;
        Some((Ok(BodyFrame::data(chunk)), pieces))
    });
    let res = Response::builder()
        .header("content-type", "text/event-stream")
        .header("cache-control", "no-cache")
        .body(StreamBody::new(frames).boxed_unsync())
        .unwrap();
    Ok(res)
}

// ---------------------------------------------------------------------------
// The client: reqwest, no TLS, no proxy.

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .timeout(TEST_TIMEOUT / 2)
        .build()
        .expect("reqwest client")
}

/// What one GET gave through the `stream` adapter.
#[derive(Default)]
struct Fetched {
    outcomes: Vec<Outcome>,
    /// Chunks the client received.
    chunks: usize,
    zero_copy: usize,
}

async fn fetch_frames(client: &reqwest::Client, url: &str) -> Fetched {
    let res = client
        .get(url)
        .header("accept", "text/event-stream")
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let mut chunks = 0;
    let mut frames = res.bytes_stream().inspect(|_| chunks += 1).sse_frames();
    let mut fetched = Fetched::default();
    while let Some(item) = frames.next().await {
        match item {
            Ok(frame) => {
                fetched.zero_copy += usize::from(frame.is_zero_copy());
                fetched.outcomes.push(Ok(frame));
            }
            Err(StreamError::Frame(e)) => fetched.outcomes.push(Err(e)),
            Err(StreamError::Transport(e)) => panic!("GET {url}: transport error: {e}"),
            Err(e) => panic!("GET {url}: {e}"),
        }
    }
    drop(frames);
    fetched.chunks = chunks;
    fetched
}

/// The reference: the whole body fed at once, every outcome in order, the
/// end-of-stream check last, as the adapters report them.
fn parse_whole(body: &Bytes) -> Vec<Outcome> {
    let mut parser = Parser::new();
    parser.feed(body.clone());
    let mut out = Vec::new();
    drain(&mut parser, &mut out);
    if let Err(e) = parser.finish() {
        out.push(Err(e));
    }
    drain(&mut parser, &mut out);
    out
}

fn drain(parser: &mut Parser, out: &mut Vec<Outcome>) {
    loop {
        match parser.next_frame() {
            Ok(Some(frame)) => out.push(Ok(frame)),
            Ok(None) => return,
            Err(e) => out.push(Err(e)),
        }
    }
}

/// Runs `test` on a fresh current-thread runtime under [`TEST_TIMEOUT`];
/// dropping the runtime ends every task the test spawned.
fn run<F: std::future::Future<Output = ()>>(test: F) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::timeout(TEST_TIMEOUT, test)
            .await
            .unwrap_or_else(|_| panic!("test timed out after {TEST_TIMEOUT:?} (seed {})", seed()));
    });
}

// ---------------------------------------------------------------------------
// The corpus over HTTP.

/// Every `.sse` file of the corpus, by name.
fn corpus_files(dir: &std::path::Path) -> Vec<(String, Bytes)> {
    let mut files: Vec<(String, Bytes)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sse"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, Bytes::from(std::fs::read(&path).unwrap()))
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!files.is_empty(), "no .sse files in {}", dir.display());
    files
}

#[test]
fn corpus_over_http_through_the_stream_adapter() {
    let Some(dir) = corpus_dir() else { return };
    let files = corpus_files(&dir);
    let seed = seed();
    run(async move {
        let started = Instant::now();
        let bodies = files
            .iter()
            .map(|(name, body)| (format!("/corpus/{name}"), body.clone()))
            .collect();
        let server = Server::start(bodies, seed).await;
        let client = client();
        let (mut bytes, mut chunks, mut frames, mut zero_copy) = (0, 0, 0, 0);
        for (name, body) in &files {
            let fetched = fetch_frames(&client, &server.url(&format!("/corpus/{name}"))).await;
            let expected = parse_whole(body);
            assert!(
                fetched.outcomes == expected,
                "{name} (seed {seed}): {} outcomes over HTTP, {} parsed whole; first difference at {:?}",
                fetched.outcomes.len(),
                expected.len(),
                fetched.outcomes.iter().zip(&expected).position(|(a, b)| a != b),
            );
            bytes += body.len();
            chunks += fetched.chunks;
            frames += fetched.outcomes.iter().filter(|o| o.is_ok()).count();
            zero_copy += fetched.zero_copy;
        }
        eprintln!(
            "corpus over HTTP: {} files, {bytes} bytes in {chunks} client chunks, {frames} frames \
             ({zero_copy} zero-copy), {:?}, seed {seed}",
            files.len(),
            started.elapsed(),
        );
        assert!(
            chunks > files.len(),
            "the bodies should arrive in several chunks each"
        );
        assert!(
            frames > 0 && zero_copy > 0,
            "single-line events inside one chunk are not copied"
        );
    });
}

// ---------------------------------------------------------------------------
// Encoder-written streams.

/// Frames that exercise the encoder: multi-line data (LF, CRLF, CR, empty
/// lines, trailing breaks), empty data, leading spaces, colons, unicode,
/// long lines; ids that change, repeat and go back to `""`; retries.
fn generated_frames(rng: &mut Rng, n: usize) -> Vec<Frame> {
    const DATA: &[&str] = &[
        "",
        "hello",
        "two\nlines",
        "crlf\r\nand\rcr",
        "\n",
        "trailing\n",
        "\n\nleading blank lines",
        " leading space",
        ":not a comment",
        "data: not a field",
        r#"{"type":"response.output_text.delta","delta":"line\nbreak \"quoted\""}"#,
        "héllo wörld ✓ 日本語 🦀 \u{FEFF}bom-like \u{FFFD}",
        "[DONE]",
    ];
    const EVENTS: &[&str] = &[
        "",
        "message",
        "response.output_text.delta",
        "content_block_delta",
        "ünïcödé 🎉",
    ];
    const IDS: &[&str] = &["", "1", "42", "evt_01J9ZK", "ид-7", "a b c", "🦀"];
    let mut id = "";
    (0..n)
        .map(|i| {
            let mut data = String::new();
            for k in 0..rng.below(4) {
                if k > 0 {
                    data.push_str(rng.pick(&["\n", "\r\n", "\r", ""]));
                }
                data.push_str(rng.pick(DATA));
            }
            if rng.below(40) == 0 {
                // A long line, longer than most chunks.
                data.push_str(&"0123456789abcdef".repeat(1 + rng.below(2048) as usize));
            }
            if rng.below(3) == 0 {
                id = rng.pick(IDS);
            }
            let retry = match rng.below(10) {
                0 => Some(rng.below(60_000)),
                1 => Some(if i % 2 == 0 { 0 } else { u64::MAX }),
                _ => None,
            };
            Frame::new(data)
                .with_event(rng.pick(EVENTS))
                .with_id(id)
                .with_retry(retry)
        })
        .collect()
}

/// What a reader gets back: SSE carries no CR in data, so CR and CRLF
/// become LF.
fn as_read(frame: &Frame) -> Frame {
    let data = frame.data().replace("\r\n", "\n").replace('\r', "\n");
    Frame::new(data)
        .with_event(frame.event())
        .with_id(frame.id())
        .with_retry(frame.retry())
}

/// The frames as `Encoder` writes them, with comments and bare `retry`
/// blocks (which dispatch nothing) between some of them.
fn encoded(frames: &[Frame], rng: &mut Rng) -> Bytes {
    let mut encoder = Encoder::new();
    let mut wire = Vec::new();
    for frame in frames {
        match rng.below(8) {
            0 => encoder.comment(&mut wire, "keep-alive"),
            1 => encoder.retry(&mut wire, rng.below(10_000)),
            _ => {}
        }
        encoder
            .frame(&mut wire, frame)
            .expect("generated frames are encodable");
    }
    Bytes::from(wire)
}

#[test]
fn encoder_output_over_http_through_the_stream_adapter() {
    let seed = seed();
    let mut rng = Rng::new(seed);
    let frames = generated_frames(&mut rng, 400);
    let wire = encoded(&frames, &mut rng);
    let expected: Vec<Outcome> = frames.iter().map(as_read).map(Ok).collect();
    // The same stream cut inside an event: the adapter reports the tail.
    let tail = "id: 99\ndata: {\"partial\": tr";
    let cut = Bytes::from([&wire[..], tail.as_bytes()].concat());
    let bodies = HashMap::from([
        ("/encoded".to_owned(), wire.clone()),
        ("/encoded-cut".to_owned(), cut),
    ]);
    run(async move {
        let started = Instant::now();
        let server = Server::start(bodies, seed).await;
        let client = client();
        // Over one keep-alive connection: whole, cut, whole again; then a path that is not there.
        let mut chunks = 0;
        for path in ["/encoded", "/encoded-cut", "/encoded"] {
            let mut fetched = fetch_frames(&client, &server.url(path)).await;
            chunks += fetched.chunks;
            if path == "/encoded-cut" {
                let last = fetched.outcomes.pop().expect("outcomes");
                let tail_error = last.expect_err("the tail is reported last");
                assert_eq!(
                    (tail_error.kind(), tail_error.offset()),
                    (
                        FrameErrorKind::TruncatedTail {
                            len: tail.len() as u64
                        },
                        wire.len() as u64
                    )
                );
            }
            assert_eq!(
                fetched.outcomes.len(),
                expected.len(),
                "{path} (seed {seed})"
            );
            for (i, (got, want)) in fetched.outcomes.iter().zip(&expected).enumerate() {
                assert_eq!(got, want, "{path}: frame {i} (seed {seed})");
            }
        }
        let missing = client.get(server.url("/missing")).send().await.unwrap();
        assert_eq!(missing.status(), reqwest::StatusCode::NOT_FOUND);
        eprintln!(
            "encoded over HTTP: {} frames, {} bytes, 3 times in {chunks} client chunks, {:?}, \
             seed {seed}",
            frames.len(),
            wire.len(),
            started.elapsed()
        );
        assert!(
            chunks > 3,
            "the bodies should arrive in several chunks each"
        );
    });
}

/// A stream written by `ResponsesWriter` (reasoning, a function call, an
/// answer full of escapes, keep-alives) read back over HTTP: the frames
/// equal the body parsed whole, and the typed views give back the text.
#[test]
fn responses_writer_output_over_http_through_the_stream_adapter() {
    use ssekit::responses::writer::ResponsesWriter;
    use ssekit::responses::ResponsesEvent;

    let seed = seed();
    let pieces: Vec<String> = (0..300)
        .map(|i| format!("word {i} \"quoted\" \\ tab\t nl\n é 😀 "))
        .collect();
    let mut w = ResponsesWriter::new("resp_http", "m", 1);
    w.start_reasoning("rs_1").unwrap();
    w.summary_delta("thinking\n").unwrap();
    w.start_function_call("fc_1", "call_1", "lookup").unwrap();
    w.arguments_delta("{\"q\":\"a\\\"b\"}").unwrap();
    w.start_message("msg_1").unwrap();
    for (i, piece) in pieces.iter().enumerate() {
        if i % 50 == 0 {
            w.keep_alive();
        }
        w.text_delta(piece).unwrap();
    }
    w.complete().unwrap();
    let wire = w.take();
    let expected = parse_whole(&wire);
    run(async move {
        let server = Server::start(HashMap::from([("/v1/responses".to_owned(), wire)]), seed).await;
        let fetched = fetch_frames(&client(), &server.url("/v1/responses")).await;
        assert!(fetched.outcomes == expected, "frames differ (seed {seed})");
        let mut text = String::new();
        let mut last = None;
        for (n, outcome) in fetched.outcomes.iter().enumerate() {
            let frame = outcome.as_ref().expect("no parse errors");
            let event = ResponsesEvent::from_frame(frame).expect("decodes");
            assert_eq!(event.sequence_number(), Some(n as u64));
            if let ResponsesEvent::OutputTextDelta(d) = &event {
                d.delta.unescape_into(&mut text);
            }
            last = Some(event.ty().to_owned());
        }
        assert_eq!(text, pieces.concat());
        assert_eq!(last.as_deref(), Some("response.completed"));
        assert!(
            fetched.chunks > 1,
            "the body should arrive in several chunks"
        );
    });
}

// ---------------------------------------------------------------------------
// The codec over TCP and a duplex pipe.

#[test]
fn codec_reads_a_tcp_stream_and_reports_the_truncated_tail() {
    let seed = seed();
    let mut rng = Rng::new(seed ^ 1);
    let frames = generated_frames(&mut rng, 300);
    let wire = encoded(&frames, &mut rng);
    let tail = Bytes::from_static("event: cut\ndata: {\"partial\": tr".as_bytes());
    let mut body = wire.to_vec();
    body.extend_from_slice(&tail);
    let body = Bytes::from(body);
    run(async move {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let pieces = chunked(&body, &mut rng);
        let writer = tokio::spawn(async move {
            let (mut tcp, _) = listener.accept().await.unwrap();
            for (chunk, pause) in pieces {
                tcp.write_all(&chunk).await.unwrap();
                tcp.flush().await.unwrap();
                pause.wait().await;
            }
            tcp.shutdown().await.unwrap();
        });
        let tcp = TcpStream::connect(addr).await.unwrap();
        let mut read = FramedRead::new(tcp, SseCodec::new());
        let mut got = Vec::new();
        let mut error = None;
        while let Some(item) = read.next().await {
            match item {
                Ok(frame) => got.push(frame),
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        writer.await.unwrap();
        let expected: Vec<Frame> = frames.iter().map(as_read).collect();
        assert_eq!(got.len(), expected.len(), "seed {seed}");
        assert!(got == expected, "seed {seed}");
        let error = error.expect("the stream ends inside an event");
        let tail_error = error.as_frame_error().expect("a frame error");
        assert_eq!(
            (tail_error.kind(), tail_error.offset()),
            (
                FrameErrorKind::TruncatedTail {
                    len: tail.len() as u64
                },
                wire.len() as u64
            )
        );
        assert!(read.next().await.is_none());
        assert_eq!(
            read.decoder().parser().last_event_id(),
            frames.last().unwrap().id()
        );
    });
}

#[test]
fn codec_writes_and_reads_back_through_a_duplex_pipe() {
    let seed = seed();
    let mut rng = Rng::new(seed ^ 2);
    let frames = generated_frames(&mut rng, 300);
    let expected: Vec<Frame> = frames.iter().map(as_read).collect();
    run(async move {
        // A small pipe, so the reader sees the writer's output in pieces.
        let (a, b) = tokio::io::duplex(61);
        let writer = tokio::spawn(async move {
            let mut write = FramedWrite::new(a, SseCodec::new());
            for (i, frame) in frames.iter().enumerate() {
                if i % 2 == 0 {
                    write.send(frame).await?;
                } else {
                    write.feed(frame.clone()).await?;
                }
            }
            // A frame SSE cannot carry is refused, and the stream goes on.
            let refused = write
                .send(Frame::new("x").with_id("a\nb"))
                .await
                .unwrap_err();
            assert!(matches!(refused, CodecError::Encode(_)), "{refused:?}");
            // `FramedWrite` is a sink of both `Frame` and `&Frame`: say which closes.
            SinkExt::<Frame>::close(&mut write).await?;
            Ok::<_, CodecError>(())
        });
        let got: Vec<Frame> = FramedRead::new(b, SseCodec::new())
            .map(|item| item.unwrap_or_else(|e| panic!("seed {seed}: {e}")))
            .collect()
            .await;
        writer.await.unwrap().unwrap();
        assert_eq!(got.len(), expected.len(), "seed {seed}");
        assert!(got == expected, "seed {seed}");
    });
}
