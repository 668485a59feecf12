//! The gateway example (`examples/gateway`) end to end on loopback: real
//! HTTP clients (reqwest, the official SDKs, the Codex CLI) in front, a
//! scripted upstream behind that checks each translated request it gets and
//! answers with recorded or scripted streams.
//!
//! * `recorded`: a recorded stream of each dialect, served by the upstream,
//!   read by a client of each dialect, streaming and not;
//! * `faults`: bad request bodies, upstream HTTP errors before and after
//!   the stream started, the headers the upstream gets, keep-alives and the
//!   idle timeout, a client that goes away;
//! * `sdks`: the official SDKs, one multi-turn exchange with a tool call per
//!   client dialect, the tool result checked as the upstream receives it;
//!   signed thinking and encrypted reasoning sent back to their own dialect;
//! * `codex`: `codex exec` through the gateway in front of a Chat upstream;
//! * `load`: concurrent streams, memory per open stream, the latency the
//!   gateway adds, a slow client, many clients that go away.
//!
//! Every await is bounded by a timeout and every child process by a time
//! limit. The load test runs small by default; `SSEKIT_GATEWAY_LOAD=large`
//! runs the sizes of the documentation (1,000 concurrent streams, 10,000
//! disconnects), with `--nocapture` to see the figures.

#[allow(dead_code)] // `Config::new` and friends are used by the example's `main`
#[path = "../../examples/gateway/server.rs"]
mod server;

#[path = "../support/corpus.rs"]
mod corpus;

mod alloc;
mod codex;
mod faults;
mod load;
mod recorded;
mod sdks;
mod upstream;
mod wire;

use std::future::Future;
use std::time::Duration;

use ssekit::turn::Dialect;

/// Runs `f` on a fresh two-thread runtime, failing the test past `limit`.
/// One test at a time: the load test's memory figures count the whole
/// process, and the machine's cores are few.
pub(crate) fn run<F: Future<Output = ()>>(limit: Duration, f: F) {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _serial = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        tokio::time::timeout(limit, f)
            .await
            .unwrap_or_else(|_| panic!("the test took longer than {limit:?}"));
    });
    runtime.shutdown_timeout(Duration::from_secs(5));
}

/// A reqwest client for loopback (no proxy).
pub(crate) fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("reqwest client")
}

/// A gateway in front of `upstream` (its dialect and URL), with `tweak`
/// applied to the configuration; returns its URL.
pub(crate) async fn gateway(
    dialect: Dialect,
    upstream: &str,
    tweak: impl FnOnce(&mut server::Config),
) -> String {
    let mut config = server::Config::new(dialect, upstream);
    config.api_key = Some(UPSTREAM_KEY.into());
    tweak(&mut config);
    let (url, _task) = server::spawn("127.0.0.1:0", server::router(config))
        .await
        .expect("bind the gateway");
    url
}

/// The key the gateway is configured with for the upstream.
pub(crate) const UPSTREAM_KEY: &str = "sk-upstream-secret";
/// The key the clients send the gateway (it must never reach the upstream).
pub(crate) const CLIENT_KEY: &str = "sk-client-key";

/// The client-facing URL of `dialect` on `gateway` for `model`.
pub(crate) fn endpoint(gateway: &str, dialect: Dialect, stream: bool) -> String {
    match dialect {
        Dialect::Chat => format!("{gateway}/v1/chat/completions"),
        Dialect::Anthropic => format!("{gateway}/v1/messages"),
        Dialect::Gemini if stream => {
            format!("{gateway}/v1beta/models/gemini-test:streamGenerateContent?alt=sse")
        }
        Dialect::Gemini => format!("{gateway}/v1beta/models/gemini-test:generateContent"),
        _ => format!("{gateway}/v1/responses"),
    }
}

/// A minimal request body of `dialect` asking `question`.
pub(crate) fn ask_body(dialect: Dialect, question: &str, stream: bool) -> serde_json::Value {
    use serde_json::json;
    match dialect {
        Dialect::Chat => json!({
            "model": "client-model", "stream": stream,
            "messages": [{"role": "user", "content": question}],
        }),
        Dialect::Anthropic => json!({
            "model": "client-model", "stream": stream, "max_tokens": 512,
            "messages": [{"role": "user", "content": question}],
        }),
        Dialect::Gemini => json!({
            "contents": [{"role": "user", "parts": [{"text": question}]}],
        }),
        _ => json!({"model": "client-model", "stream": stream, "input": question}),
    }
}

/// Sends `body` to `dialect`'s endpoint with the client's own key in the
/// header that dialect uses.
pub(crate) fn client_request(
    http: &reqwest::Client,
    gateway: &str,
    dialect: Dialect,
    body: &serde_json::Value,
    stream: bool,
) -> reqwest::RequestBuilder {
    let request = http
        .post(endpoint(gateway, dialect, stream))
        .header("content-type", "application/json")
        .body(body.to_string());
    match dialect {
        Dialect::Anthropic => request
            .header("x-api-key", CLIENT_KEY)
            .header("anthropic-version", "2023-06-01"),
        Dialect::Gemini => request.header("x-goog-api-key", CLIENT_KEY),
        _ => request.bearer_auth(CLIENT_KEY),
    }
}

/// Reads a response body whole, bounded by `limit`.
pub(crate) async fn read_all(response: reqwest::Response, limit: Duration) -> Vec<u8> {
    tokio::time::timeout(limit, response.bytes())
        .await
        .expect("the body took too long")
        .expect("the body")
        .to_vec()
}

/// Whether tests must not skip for a missing runtime (`CI=true`).
pub(crate) fn in_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// Says loudly (on the terminal, past the harness's capture) that a test
/// skipped its work; under `CI=true` a failure instead.
pub(crate) fn skip(what: &str) {
    use std::io::Write;
    assert!(!in_ci(), "{what} (a failure under CI=true)");
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {what}; these checks did not run."
    );
}

/// What a child process wrote, and how it ended.
pub(crate) struct Output {
    pub(crate) status: Option<std::process::ExitStatus>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs `command` (from a blocking thread, so that the servers of the
/// test's runtime keep serving it), killing it past `limit`: then `status`
/// is `None`.
pub(crate) async fn run_process(mut command: std::process::Command, limit: Duration) -> Output {
    use std::io::Read;
    use std::process::Stdio;
    tokio::task::spawn_blocking(move || {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {command:?}: {e}"));
        let mut out = child.stdout.take().expect("stdout");
        let mut err = child.stderr.take().expect("stderr");
        let out = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = out.read_to_string(&mut s);
            s
        });
        let err = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        let start = std::time::Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if start.elapsed() < limit => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
            }
        };
        Output {
            status,
            stdout: out.join().unwrap_or_default(),
            stderr: err.join().unwrap_or_default(),
        }
    })
    .await
    .expect("the process thread")
}

/// Says something the test run should show (on the terminal, past the
/// harness's capture) without failing.
pub(crate) fn note(what: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "NOTE: {what}");
}
