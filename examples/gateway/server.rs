//! The gateway itself: the four client-facing endpoints, one upstream.
//!
//! Every request goes the same way, whatever its dialect:
//!
//! 1. the body is translated into the upstream's dialect
//!    ([`ssekit::request::translate`]); a body that cannot be is answered
//!    400 in the client's dialect, and what the upstream cannot take is
//!    named in the `x-gateway-not-carried` response header;
//! 2. the upstream is always asked for a stream (non-streaming clients
//!    included), with its own authentication headers: the client's
//!    `Authorization`, `x-api-key` or `x-goog-api-key` never leave the
//!    gateway;
//! 3. an upstream HTTP error becomes the client dialect's error status and
//!    body; a stream is bridged event by event into the client's dialect
//!    ([`ssekit::bridge::translate`]), and a non-streaming client gets the
//!    turn accumulated ([`TurnAccumulator`]) and rendered in its dialect's
//!    answer shape.
//!
//! While the upstream is silent the client gets a keep-alive in its own
//! dialect every [`Config::keep_alive`]; after [`Config::idle_timeout`] of
//! silence the stream ends with the client dialect's error event. The
//! upstream body is read only as fast as the client takes the bridged
//! bytes (hyper polls the body when the socket can take more), and a
//! client that goes away drops the body, hence the upstream request.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use futures::{stream, Stream, StreamExt};
use ssekit::accumulate::{Outcome, TurnAccumulator};
use ssekit::bridge::{translate, turn_config, AnyReader, Bridge, BridgeConfig, BytesBridge};
use ssekit::request::{self, RequestConfig, Source, Translated};
use ssekit::turn::Dialect;
use ssekit::{Bytes, Parser};
use tokio::net::TcpListener;

/// The `anthropic-version` header sent to an Anthropic upstream.
pub(crate) const ANTHROPIC_VERSION: &str = "2023-06-01";

/// The largest upstream error body read (the rest is not read).
const MAX_ERROR_BODY: usize = 64 << 10;

/// What the gateway is configured with.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// The upstream's dialect.
    pub(crate) upstream: Dialect,
    /// The upstream's base URL, without the API's path (`http://127.0.0.1:8080`,
    /// `https://api.anthropic.com`): the gateway appends `/v1/chat/completions`,
    /// `/v1/responses`, `/v1/messages` or
    /// `/v1beta/models/{model}:streamGenerateContent?alt=sse`.
    pub(crate) base_url: String,
    /// The upstream's API key, sent the way its dialect wants it.
    pub(crate) api_key: Option<String>,
    /// The model asked of the upstream whatever the client names (a local
    /// server serves one); `None` keeps the client's.
    pub(crate) model: Option<String>,
    /// How long the upstream may be silent before the client gets a
    /// keep-alive.
    pub(crate) keep_alive: Duration,
    /// How long the upstream may be silent (before its headers, or between
    /// two chunks of its body) before the gateway gives up on it.
    pub(crate) idle_timeout: Duration,
    /// The largest request body taken from a client (larger: 413 in the
    /// client's dialect).
    pub(crate) max_body_bytes: usize,
}

impl Config {
    /// A configuration with the default timings: a keep-alive after 15 s
    /// of silence, and giving up after 300 s.
    pub(crate) fn new(upstream: Dialect, base_url: &str) -> Self {
        Config {
            upstream,
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key: None,
            model: None,
            keep_alive: Duration::from_secs(15),
            idle_timeout: Duration::from_secs(300),
            max_body_bytes: RequestConfig::default().max_body_bytes,
        }
    }
}

#[derive(Clone)]
struct Gateway {
    config: Arc<Config>,
    http: reqwest::Client,
}

/// The gateway's routes, in front of the upstream `config` names.
pub(crate) fn router(config: Config) -> Router {
    let http = reqwest::Client::builder()
        .no_proxy()
        .build()
        .unwrap_or_else(|_| reqwest::Client::new());
    let state = Gateway {
        config: Arc::new(config),
        http,
    };
    Router::new()
        .route(
            "/v1/responses",
            post(|s: State<Gateway>, b: Body| serve(s.0, Client::Responses, b)),
        )
        .route(
            "/v1/chat/completions",
            post(|s: State<Gateway>, b: Body| serve(s.0, Client::Chat, b)),
        )
        .route(
            "/v1/messages",
            post(|s: State<Gateway>, b: Body| serve(s.0, Client::Anthropic, b)),
        )
        .route("/v1beta/models/{call}", post(gemini))
        .with_state(state)
}

/// Binds `addr` and serves `router` there; returns the base URL and the
/// server's task.
pub(crate) async fn spawn(
    addr: &str,
    router: Router,
) -> std::io::Result<(String, tokio::task::JoinHandle<()>)> {
    let listener = TcpListener::bind(addr).await?;
    let url = format!("http://{}", listener.local_addr()?);
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    Ok((url, task))
}

/// The client's dialect, with what Gemini keeps in its URL.
#[derive(Debug, Clone)]
enum Client {
    Responses,
    Chat,
    Anthropic,
    Gemini { model: String, stream: bool },
}

impl Client {
    fn dialect(&self) -> Dialect {
        match self {
            Client::Responses => Dialect::Responses,
            Client::Chat => Dialect::Chat,
            Client::Anthropic => Dialect::Anthropic,
            Client::Gemini { .. } => Dialect::Gemini,
        }
    }
    fn source(&self) -> Source<'_> {
        match self {
            Client::Responses => Source::Responses,
            Client::Chat => Source::Chat,
            Client::Anthropic => Source::Anthropic,
            Client::Gemini { model, stream } => Source::Gemini {
                model,
                stream: *stream,
            },
        }
    }
}

/// `POST /v1beta/models/{model}:streamGenerateContent` (and
/// `:generateContent`): the model and the method share one path segment.
async fn gemini(State(gw): State<Gateway>, Path(call): Path<String>, body: Body) -> Response {
    let client = match call.rsplit_once(':') {
        Some((model, "streamGenerateContent")) => Client::Gemini {
            model: model.to_owned(),
            stream: true,
        },
        Some((model, "generateContent")) => Client::Gemini {
            model: model.to_owned(),
            stream: false,
        },
        _ => {
            return error_response(
                Dialect::Gemini,
                404,
                &format!(
                    "no method {call}; use {{model}}:streamGenerateContent or :generateContent"
                ),
            )
        }
    };
    // Streams are served as SSE whatever the query says (`alt=sse` is what
    // the official clients ask for; without it Gemini sends a JSON array).
    serve(gw, client, body).await
}

/// An error in `dialect`'s shape, from a status and a message.
fn error_response(dialect: Dialect, status: u16, message: &str) -> Response {
    let openai = serde_json::json!({"error": {"message": message, "type": null}});
    let e = request::translate_error(
        status,
        openai.to_string().as_bytes(),
        Dialect::Chat,
        dialect,
    );
    json_response(e.status, e.body.to_string())
}

fn json_response(status: u16, body: String) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// One client request, any dialect. None of the client's headers is
/// passed on: the upstream gets the gateway's own key.
async fn serve(gw: Gateway, client: Client, body: Body) -> Response {
    let config = &gw.config;
    let to = config.upstream;
    let from = client.dialect();
    let limit = config.max_body_bytes;
    let Ok(body) = axum::body::to_bytes(body, limit).await else {
        let message = format!("the request body is larger than {limit} bytes");
        return error_response(from, 413, &message);
    };
    let limits = RequestConfig::default().with_max_body_bytes(limit);
    let out = match request::translate(&body, client.source(), to, &limits) {
        Ok(out) => out,
        Err(e) => return error_response(from, 400, &format!("bad request body: {e}")),
    };
    let wants_stream = match &client {
        Client::Gemini { stream, .. } => *stream,
        _ => out.stream,
    };
    let not_carried = not_carried_header(&out);
    let upstream = match send(&gw, out).await {
        Ok(upstream) => upstream,
        Err(response) => return response.into_client(to, from),
    };
    let mut response = if wants_stream {
        stream_response(config, from, upstream)
    } else {
        answer(config, from, upstream).await
    };
    if let Some(value) = not_carried {
        response
            .headers_mut()
            .insert("x-gateway-not-carried", value);
    }
    response
}

/// The fields the upstream could not take, as JSON pointers (at most 20;
/// a header value is visible ASCII, which JSON pointers of ASCII keys are).
fn not_carried_header(out: &Translated) -> Option<HeaderValue> {
    if out.not_carried.is_empty() {
        return None;
    }
    let mut paths: Vec<&str> = out
        .not_carried
        .iter()
        .take(20)
        .map(|n| n.path.as_str())
        .collect();
    if out.not_carried.len() > 20 {
        paths.push("...");
    }
    HeaderValue::from_str(&paths.join(", ")).ok()
}

/// Why the upstream gave no stream.
enum UpstreamError {
    /// An HTTP error, its status and (the start of) its body.
    Status(u16, Vec<u8>),
    /// No answer in time.
    Timeout,
    /// No connection, or a broken one.
    Transport(String),
}

impl UpstreamError {
    fn into_client(self, upstream: Dialect, client: Dialect) -> Response {
        match self {
            UpstreamError::Status(status, body) => {
                let e = request::translate_error(status, &body, upstream, client);
                json_response(e.status, e.body.to_string())
            }
            UpstreamError::Timeout => {
                error_response(client, 504, "the upstream did not answer in time")
            }
            UpstreamError::Transport(m) => {
                error_response(client, 502, &format!("upstream unreachable: {m}"))
            }
        }
    }
}

/// Sends the translated request to the upstream, always asking for a
/// stream; waits at most the idle timeout for its headers.
async fn send(gw: &Gateway, mut out: Translated) -> Result<reqwest::Response, UpstreamError> {
    let config = &gw.config;
    let base = &config.base_url;
    let url = match config.upstream {
        Dialect::Chat => format!("{base}/v1/chat/completions"),
        Dialect::Anthropic => format!("{base}/v1/messages"),
        Dialect::Gemini => {
            let model = config
                .model
                .as_deref()
                .or(out.model.as_deref())
                .unwrap_or("gemini-2.5-flash");
            format!("{base}/v1beta/models/{model}:streamGenerateContent?alt=sse")
        }
        _ => format!("{base}/v1/responses"),
    };
    if let Some(object) = out.body.as_object_mut() {
        if config.upstream != Dialect::Gemini {
            object.insert("stream".into(), true.into());
            if let Some(model) = &config.model {
                object.insert("model".into(), model.clone().into());
            }
        }
        if config.upstream == Dialect::Chat {
            object.insert(
                "stream_options".into(),
                serde_json::json!({"include_usage": true}),
            );
        }
    }
    let mut request = gw
        .http
        .post(url)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "text/event-stream")
        .body(out.body.to_string());
    if let Some(key) = &config.api_key {
        request = match config.upstream {
            Dialect::Anthropic => request.header("x-api-key", key),
            Dialect::Gemini => request.header("x-goog-api-key", key),
            _ => request.bearer_auth(key),
        };
    }
    if config.upstream == Dialect::Anthropic {
        request = request.header("anthropic-version", ANTHROPIC_VERSION);
    }
    let response = match tokio::time::timeout(config.idle_timeout, request.send()).await {
        Err(_) => return Err(UpstreamError::Timeout),
        Ok(Err(e)) => return Err(UpstreamError::Transport(e.to_string())),
        Ok(Ok(response)) => response,
    };
    if response.status().is_success() {
        return Ok(response);
    }
    let status = response.status().as_u16();
    let mut body = Vec::new();
    let mut chunks = response.bytes_stream();
    while body.len() < MAX_ERROR_BODY {
        match tokio::time::timeout(config.idle_timeout, chunks.next()).await {
            Ok(Some(Ok(chunk))) => body.extend_from_slice(&chunk),
            _ => break,
        }
    }
    body.truncate(MAX_ERROR_BODY);
    Err(UpstreamError::Status(status, body))
}

/// What the upstream's body gave, once the gateway has waited for it.
enum Next {
    Chunk(Bytes),
    Broken(String),
    End,
    Silent,
    TimedOut,
}

/// The upstream's body, with the gateway's clock: [`Next::Silent`] after
/// each keep-alive interval of silence, [`Next::TimedOut`] at the idle
/// timeout.
struct Upstream<S> {
    chunks: S,
    last: Instant,
    keep_alive: Duration,
    idle_timeout: Duration,
}

impl<S: Stream<Item = reqwest::Result<Bytes>> + Unpin> Upstream<S> {
    async fn next(&mut self) -> Next {
        let idle_left = self.idle_timeout.saturating_sub(self.last.elapsed());
        if idle_left.is_zero() {
            return Next::TimedOut;
        }
        let wait = self.keep_alive.min(idle_left);
        match tokio::time::timeout(wait, self.chunks.next()).await {
            Err(_) if wait == idle_left => Next::TimedOut,
            Err(_) => Next::Silent,
            Ok(Some(Ok(chunk))) => {
                self.last = Instant::now();
                Next::Chunk(chunk)
            }
            Ok(Some(Err(e))) => Next::Broken(e.to_string()),
            Ok(None) => Next::End,
        }
    }
}

fn upstream_body(
    config: &Config,
    response: reqwest::Response,
) -> Upstream<impl Stream<Item = reqwest::Result<Bytes>> + Unpin> {
    Upstream {
        chunks: response.bytes_stream(),
        last: Instant::now(),
        keep_alive: config.keep_alive,
        idle_timeout: config.idle_timeout,
    }
}

/// The upstream's stream bridged into the client's dialect, chunk by
/// chunk, as the client takes it.
fn stream_response(config: &Config, client: Dialect, response: reqwest::Response) -> Response {
    let bridge = BytesBridge::new(translate(config.upstream, client, &BridgeConfig::default()));
    let idle = config.idle_timeout;
    let state = Some((upstream_body(config, response), bridge));
    let body = stream::unfold(state, move |state| async move {
        let (mut upstream, mut bridge) = state?;
        match upstream.next().await {
            Next::Chunk(chunk) => {
                // A protocol error is already the client's error event.
                let _ = bridge.feed(chunk);
            }
            Next::Silent => bridge.get_mut().keep_alive(),
            Next::TimedOut => bridge.get_mut().abort(
                "timeout",
                &format!("the upstream was silent for {} s", idle.as_secs_f32()),
            ),
            Next::Broken(e) => bridge.get_mut().abort(
                "upstream_error",
                &format!("the upstream's stream broke: {e}"),
            ),
            Next::End => {
                let _ = bridge.finish(); // a cut stream ends as failed
            }
        }
        let out = bridge.take();
        let next = (!bridge.get_ref().is_finished()).then_some((upstream, bridge));
        Some((Ok::<_, Infallible>(out), next))
    })
    .filter(|chunk| std::future::ready(chunk.as_ref().map_or(true, |c| !c.is_empty())));
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(body),
    )
        .into_response()
}

/// The whole upstream stream, accumulated and rendered as the client's
/// dialect's non-streaming answer.
async fn answer(config: &Config, client: Dialect, response: reqwest::Response) -> Response {
    let mut upstream = upstream_body(config, response);
    let mut parser = Parser::new();
    let mut reader = AnyReader::new(config.upstream, &turn_config(&BridgeConfig::default()));
    let mut acc = TurnAccumulator::new().from_dialect(config.upstream);
    let mut failure: Option<(u16, String)> = None;
    'read: loop {
        match upstream.next().await {
            Next::Chunk(chunk) => {
                parser.feed(chunk);
                loop {
                    match parser.next_frame() {
                        Ok(Some(frame)) => {
                            if let Err(e) = acc.read(&mut reader, &frame) {
                                failure =
                                    Some((502, format!("the upstream's stream is broken: {e}")));
                                break 'read;
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            failure = Some((502, format!("the upstream's stream is broken: {e}")));
                            break 'read;
                        }
                    }
                }
            }
            Next::Silent => {}
            Next::TimedOut => {
                failure = Some((504, "the upstream was silent for too long".into()));
                break;
            }
            Next::Broken(e) => {
                failure = Some((502, format!("the upstream's stream broke: {e}")));
                break;
            }
            Next::End => {
                if let Err(e) = parser.finish() {
                    failure = Some((502, format!("the upstream's stream is broken: {e}")));
                } else {
                    while let Ok(Some(frame)) = parser.next_frame() {
                        let _ = acc.read(&mut reader, &frame);
                    }
                    if let Err(e) = acc.finish_reader(&mut reader) {
                        failure = Some((502, format!("the upstream's stream ended early: {e}")));
                    }
                }
                break;
            }
        }
    }
    if failure.is_none() && acc.outcome() == Outcome::Failed {
        if let Some((code, message)) = acc.turn().error() {
            let message = message.or(code).unwrap_or("the upstream failed");
            failure = Some((502, message.to_owned()));
        }
    }
    if let Some((status, message)) = failure {
        return error_response(client, status, &message);
    }
    json_response(200, acc.turn().to_json(client))
}
