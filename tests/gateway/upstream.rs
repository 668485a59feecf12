//! The scripted upstream: an axum server on loopback that records each
//! request it gets and answers with what the test's script says, counting
//! the bodies it is sending and the bytes it has handed to the connection.

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes as AxumBytes};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use futures::stream;
use ssekit::Bytes;

/// A request as the upstream got it.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub(crate) path: String,
    pub(crate) headers: HeaderMap,
    pub(crate) body: serde_json::Value,
}

/// What the upstream answers.
pub(crate) enum Script {
    /// An HTTP error with a JSON body.
    Error(u16, String),
    /// A stream: these chunks, `gap` apart; then, if `stall`, silence for
    /// that long before the body ends.
    Stream {
        chunks: Vec<Bytes>,
        gap: Duration,
        stall: Option<Duration>,
    },
    /// A stream made as it is read: `make(n)` is the n-th chunk (`None`
    /// ends it), `gap` apart.
    Endless {
        make: Box<dyn FnMut(u64) -> Option<Bytes> + Send>,
        gap: Duration,
    },
}

impl Script {
    /// `body` cut into its SSE events, sent `gap` apart.
    pub(crate) fn events(body: &[u8], gap: Duration) -> Script {
        Script::Stream {
            chunks: split_events(body),
            gap,
            stall: None,
        }
    }
}

/// Cuts an SSE body into its events (each with its blank line).
pub(crate) fn split_events(body: &[u8]) -> Vec<Bytes> {
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < body.len() {
        let end = if body[i..].starts_with(b"\r\n\r\n") {
            i + 4
        } else if body[i..].starts_with(b"\n\n") {
            i + 2
        } else {
            i += 1;
            continue;
        };
        out.push(Bytes::copy_from_slice(&body[start..end]));
        start = end;
        i = end;
    }
    if start < body.len() {
        out.push(Bytes::copy_from_slice(&body[start..]));
    }
    out
}

type Answer = dyn Fn(&Seen) -> Script + Send + Sync;

/// The upstream's shared state.
pub(crate) struct Shared {
    answer: Box<Answer>,
    /// The first requests (at most [`KEPT`]).
    seen: Mutex<Vec<Seen>>,
    /// Requests received.
    pub(crate) requests: AtomicUsize,
    /// Bodies being sent now (a body the connection dropped is not).
    pub(crate) live: AtomicUsize,
    /// Bytes handed to the connection, over all bodies.
    pub(crate) sent: AtomicU64,
    /// TCP connections open now.
    pub(crate) connections: AtomicUsize,
}

const KEPT: usize = 64;

/// A running scripted upstream.
#[derive(Clone)]
pub(crate) struct Upstream {
    pub(crate) url: String,
    pub(crate) shared: Arc<Shared>,
}

impl Upstream {
    /// Starts an upstream answering each request with `answer(request)`.
    pub(crate) async fn start(answer: impl Fn(&Seen) -> Script + Send + Sync + 'static) -> Self {
        let shared = Arc::new(Shared {
            answer: Box::new(answer),
            seen: Mutex::new(Vec::new()),
            requests: AtomicUsize::new(0),
            live: AtomicUsize::new(0),
            sent: AtomicU64::new(0),
            connections: AtomicUsize::new(0),
        });
        let state = shared.clone();
        let router =
            Router::new().fallback(move |uri: Uri, headers: HeaderMap, body: AxumBytes| {
                let shared = state.clone();
                async move { handle(shared, uri, headers, body) }
            });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the upstream");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let listener = Counting {
            inner: listener,
            shared: shared.clone(),
        };
        tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Upstream { url, shared }
    }

    /// The requests seen so far (the first 64).
    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.shared.seen.lock().expect("lock").clone()
    }

    pub(crate) fn live(&self) -> usize {
        self.shared.live.load(Ordering::SeqCst)
    }

    pub(crate) fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
    }

    pub(crate) fn sent(&self) -> u64 {
        self.shared.sent.load(Ordering::SeqCst)
    }

    /// Waits (at most `limit`) until no body is being sent; returns whether
    /// that happened.
    pub(crate) async fn wait_idle(&self, limit: Duration) -> bool {
        let start = std::time::Instant::now();
        while self.live() > 0 {
            if start.elapsed() > limit {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        true
    }
}

/// Counts a body as live while it exists.
struct Live(Arc<Shared>);

impl Drop for Live {
    fn drop(&mut self) {
        self.0.live.fetch_sub(1, Ordering::SeqCst);
    }
}

fn handle(shared: Arc<Shared>, uri: Uri, headers: HeaderMap, body: AxumBytes) -> Response {
    let path = uri
        .path_and_query()
        .map_or_else(|| uri.path().to_owned(), |p| p.as_str().to_owned());
    let seen = Seen {
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null),
    };
    shared.requests.fetch_add(1, Ordering::SeqCst);
    let script = (shared.answer)(&seen);
    {
        let mut kept = shared.seen.lock().expect("lock");
        if kept.len() < KEPT {
            kept.push(seen);
        }
    }
    match script {
        Script::Error(status, body) => {
            let status = StatusCode::from_u16(status).expect("status");
            (status, [("content-type", "application/json")], body).into_response()
        }
        Script::Stream { chunks, gap, stall } => {
            let n = chunks.len() as u64;
            let mut chunks = chunks.into_iter();
            body_of(
                shared,
                Box::new(move |i| if i < n { chunks.next() } else { None }),
                gap,
                stall,
            )
        }
        Script::Endless { make, gap } => body_of(shared, make, gap, None),
    }
}

fn body_of(
    shared: Arc<Shared>,
    make: Box<dyn FnMut(u64) -> Option<Bytes> + Send>,
    gap: Duration,
    stall: Option<Duration>,
) -> Response {
    shared.live.fetch_add(1, Ordering::SeqCst);
    let live = Live(shared);
    let state = (live, make, 0u64, stall);
    let body = stream::unfold(state, move |(live, mut make, i, stall)| async move {
        if i > 0 && !gap.is_zero() {
            tokio::time::sleep(gap).await;
        }
        match make(i) {
            Some(chunk) => {
                live.0.sent.fetch_add(chunk.len() as u64, Ordering::SeqCst);
                Some((Ok::<_, Infallible>(chunk), (live, make, i + 1, stall)))
            }
            None => {
                if let Some(d) = stall {
                    tokio::time::sleep(d).await;
                }
                None
            }
        }
    });
    (
        [("content-type", "text/event-stream")],
        Body::from_stream(body),
    )
        .into_response()
}

/// A listener that counts the connections open.
struct Counting {
    inner: tokio::net::TcpListener,
    shared: Arc<Shared>,
}

/// A connection, counted while it exists.
struct Conn {
    io: tokio::net::TcpStream,
    shared: Arc<Shared>,
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.shared.connections.fetch_sub(1, Ordering::SeqCst);
    }
}

impl axum::serve::Listener for Counting {
    type Io = Conn;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Conn, std::net::SocketAddr) {
        loop {
            if let Ok((io, addr)) = self.inner.accept().await {
                self.shared.connections.fetch_add(1, Ordering::SeqCst);
                let shared = self.shared.clone();
                return (Conn { io, shared }, addr);
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    fn local_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        self.inner.local_addr()
    }
}

impl tokio::io::AsyncRead for Conn {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for Conn {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::pin::Pin::new(&mut self.io).poll_write(cx, buf)
    }
    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_flush(cx)
    }
    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.io).poll_shutdown(cx)
    }
}
