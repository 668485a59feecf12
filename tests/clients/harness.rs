//! The machinery: a loopback HTTP server that serves each case's stream at
//! the path its client requests, the client runtimes (Node, a Python venv),
//! and the runs of the judge scripts with bounded parallelism and timeouts.

use std::collections::HashMap;
use std::convert::Infallible;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Limited, StreamBody};
use hyper::body::{Frame as BodyFrame, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value as J;
use ssekit::Bytes;
use tokio::net::TcpListener;

/// The directory of the client scripts.
pub(crate) const CLIENTS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clients");

/// Bound on one client's answer to one stream (the scripts pass it to the
/// client as its request timeout).
pub(crate) const CASE_TIMEOUT: Duration = Duration::from_secs(20);

/// Bound on a whole run of one client over all its cases: startup plus a
/// share per case; past it the process is killed and its missing cases fail.
pub(crate) fn run_timeout(cases: usize) -> Duration {
    Duration::from_secs(60) + Duration::from_secs(2) * cases as u32
}

/// The language a client is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Runtime {
    Node,
    Python,
}

impl Runtime {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Runtime::Node => "node",
            Runtime::Python => "python",
        }
    }

    /// The command that runs the judge script, if the runtime and its
    /// pinned packages are installed; else why not.
    pub(crate) fn command(self) -> Result<(PathBuf, PathBuf), String> {
        let dir = Path::new(CLIENTS_DIR);
        match self {
            Runtime::Node => {
                let node = std::env::var_os("SSEKIT_CLIENTS_NODE")
                    .map(PathBuf::from)
                    .unwrap_or_else(|| PathBuf::from("node"));
                let modules = dir.join("node/node_modules");
                if !modules.join("openai").is_dir() {
                    return Err(format!(
                        "{} has no packages (run `npm ci` in tests/clients/node)",
                        modules.display()
                    ));
                }
                probe(&node, &["--version"])?;
                Ok((node, dir.join("node/judge.mjs")))
            }
            Runtime::Python => {
                let python = std::env::var_os("SSEKIT_CLIENTS_PYTHON")
                    .map(PathBuf::from)
                    .unwrap_or_else(|| dir.join(".venv/bin/python"));
                if !python.exists() {
                    return Err(format!(
                        "{} not found (create the venv: python3 -m venv tests/clients/.venv \
                         && tests/clients/.venv/bin/pip install --require-hashes \
                         -r tests/clients/python/requirements.txt)",
                        python.display()
                    ));
                }
                probe(&python, &["-c", "import openai, anthropic, google.genai"])?;
                Ok((python, dir.join("python/judge.py")))
            }
        }
    }
}

fn probe(program: &Path, args: &[&str]) -> Result<(), String> {
    match Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(format!(
            "`{} {}` failed: {}",
            program.display(),
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Err(format!("{} cannot run: {e}", program.display())),
    }
}

/// What one client said about one case.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    pub(crate) ok: bool,
    pub(crate) error: Option<String>,
    pub(crate) shape: Option<String>,
    pub(crate) value: J,
}

/// Runs `script` of `runtime` over `cases` (id, base URL): one process for
/// all of them, killed past [`run_timeout`]. Returns each case's reply (a
/// case with none is missing from the map) and the process's standard error.
pub(crate) fn run_client(
    program: &Path,
    script: &Path,
    client: &str,
    cases: &[(String, String)],
) -> (HashMap<String, Reply>, String) {
    let input = J::Array(
        cases
            .iter()
            .map(|(id, url)| serde_json::json!({"id": id, "base_url": url}))
            .collect(),
    )
    .to_string();
    let mut child = match Command::new(program)
        .arg(script)
        .arg(client)
        .current_dir(script.parent().expect("the script's directory"))
        .env(
            "SSEKIT_CLIENT_TIMEOUT_MS",
            CASE_TIMEOUT.as_millis().to_string(),
        )
        // The clients must not be sent elsewhere by the environment.
        .env_remove("OPENAI_BASE_URL")
        .env_remove("ANTHROPIC_BASE_URL")
        .env_remove("GOOGLE_GEMINI_BASE_URL")
        .env("NO_PROXY", "127.0.0.1")
        .env("no_proxy", "127.0.0.1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => return (HashMap::new(), format!("spawn failed: {e}")),
    };
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + run_timeout(cases.len());
    let mut killed = false;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                killed = true;
                break;
            }
        }
    }
    let _ = writer.join();
    let out = out_reader.join().unwrap_or_default();
    let mut err = err_reader.join().unwrap_or_default();
    if killed {
        err.push_str(&format!("\n(killed after {:?})", run_timeout(cases.len())));
    }
    let mut replies = HashMap::new();
    for line in out.lines() {
        let Ok(v) = serde_json::from_str::<J>(line) else {
            err.push_str(&format!("\nnot a reply: {line}"));
            continue;
        };
        let id = v["id"].as_str().unwrap_or_default().to_owned();
        replies.insert(
            id,
            Reply {
                ok: v["ok"].as_bool() == Some(true),
                error: v["error"].as_str().map(str::to_owned),
                shape: v["shape"].as_str().map(str::to_owned),
                value: v["value"].clone(),
            },
        );
    }
    (replies, err)
}

/// The loopback server: `POST /c/{id}/...` answers with case `id`'s stream
/// as `text/event-stream` (or another type), one SSE event per body chunk, whatever the rest
/// of the path; every request's path is recorded. It serves at most
/// `max_requests` requests and stops when dropped.
pub(crate) struct Server {
    pub(crate) base: String,
    pub(crate) requests: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub(crate) fn start(bodies: HashMap<String, Bytes>, max_requests: usize) -> Server {
        Self::start_as(bodies, max_requests, "text/event-stream")
    }

    /// [`start`](Self::start), the bodies served as `content_type` (a
    /// non-streaming answer as `application/json`).
    pub(crate) fn start_as(
        bodies: HashMap<String, Bytes>,
        max_requests: usize,
        content_type: &'static str,
    ) -> Server {
        let std_listener =
            std::net::TcpListener::bind("127.0.0.1:0").expect("bind a loopback port");
        std_listener.set_nonblocking(true).expect("nonblocking");
        let addr = std_listener.local_addr().expect("local address");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&requests);
        let bodies = Arc::new(bodies);
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            rt.block_on(async move {
                let listener = TcpListener::from_std(std_listener).expect("tokio listener");
                // Polled for the stop flag every 50 ms.
                while !stopped.load(Ordering::Relaxed) {
                    let accepted =
                        tokio::time::timeout(Duration::from_millis(50), listener.accept()).await;
                    let Ok(Ok((tcp, _))) = accepted else { continue };
                    // Each event leaves as it is written, as a streaming server sends it.
                    let _ = tcp.set_nodelay(true);
                    let bodies = Arc::clone(&bodies);
                    let seen = Arc::clone(&seen);
                    tokio::spawn(async move {
                        let service = service_fn(move |req: Request<Incoming>| {
                            let bodies = Arc::clone(&bodies);
                            let seen = Arc::clone(&seen);
                            async move {
                                Ok::<_, Infallible>(
                                    answer(req, &bodies, &seen, max_requests, content_type).await,
                                )
                            }
                        });
                        let conn =
                            http1::Builder::new().serve_connection(TokioIo::new(tcp), service);
                        let _ = tokio::time::timeout(Duration::from_secs(600), conn).await;
                    });
                }
            });
        });
        Server {
            base: format!("http://{addr}"),
            requests,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

type Body =
    StreamBody<futures::stream::Iter<std::vec::IntoIter<Result<BodyFrame<Bytes>, Infallible>>>>;

async fn answer(
    req: Request<Incoming>,
    bodies: &HashMap<String, Bytes>,
    seen: &Mutex<Vec<String>>,
    max_requests: usize,
    content_type: &'static str,
) -> Response<Body> {
    let path = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_default();
    let count = {
        let mut seen = seen.lock().expect("not poisoned");
        seen.push(path.clone());
        seen.len()
    };
    // The request body is read (bounded) and ignored.
    let _ = Limited::new(req.into_body(), 1 << 20).collect().await;
    let id = path
        .strip_prefix("/c/")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_default();
    let empty = || StreamBody::new(futures::stream::iter(Vec::new()));
    match bodies.get(id) {
        Some(body) if count <= max_requests => {
            let chunks: Vec<Result<BodyFrame<Bytes>, Infallible>> = events(body)
                .into_iter()
                .map(|b| Ok(BodyFrame::data(b)))
                .collect();
            Response::builder()
                .status(StatusCode::OK)
                .header("content-type", content_type)
                .header("cache-control", "no-cache")
                .body(StreamBody::new(futures::stream::iter(chunks)))
                .expect("a response")
        }
        _ => Response::builder()
            .status(StatusCode::NOT_FOUND)
            .body(empty())
            .expect("a response"),
    }
}

/// `body` cut after each blank line (LF LF or CR LF CR LF), as a server
/// sends one event at a time.
fn events(body: &Bytes) -> Vec<Bytes> {
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    let b = &body[..];
    while i + 1 < b.len() {
        let end = if b[i] == b'\n' && b[i + 1] == b'\n' {
            Some(i + 2)
        } else if b[i..].starts_with(b"\r\n\r\n") {
            Some(i + 4)
        } else {
            None
        };
        match end {
            Some(end) => {
                out.push(body.slice(start..end));
                start = end;
                i = end;
            }
            None => i += 1,
        }
    }
    if start < b.len() {
        out.push(body.slice(start..));
    }
    out
}
