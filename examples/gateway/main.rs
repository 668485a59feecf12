//! A gateway between the four LLM API dialects, with axum, reqwest and
//! ssekit: clients speak OpenAI Responses, Chat Completions, Anthropic
//! Messages or Gemini to it, and it speaks the one configured upstream's
//! dialect, streaming and not.
//!
//! ```text
//! POST /v1/responses                                  (OpenAI Responses)
//! POST /v1/chat/completions                           (OpenAI Chat Completions)
//! POST /v1/messages                                   (Anthropic Messages)
//! POST /v1beta/models/{model}:streamGenerateContent   (Gemini, ?alt=sse)
//! POST /v1beta/models/{model}:generateContent         (Gemini, one answer)
//! ```
//!
//! In front of a local OpenAI-compatible server (llama.cpp's `llama-server`,
//! ollama, vLLM) on port 8080, for Codex, the Anthropic and Gemini clients:
//!
//! ```sh
//! cargo run --example gateway --features request -- \
//!     --upstream chat --base-url http://127.0.0.1:8080 --model qwen3 --listen 127.0.0.1:4000
//! ```
//!
//! Options (each also an environment variable):
//!
//! | option | variable | default |
//! | --- | --- | --- |
//! | `--upstream responses\|chat\|anthropic\|gemini` | `GATEWAY_UPSTREAM` | `chat` |
//! | `--base-url URL` (without `/v1`) | `GATEWAY_BASE_URL` | `http://127.0.0.1:8080` |
//! | API key | `GATEWAY_API_KEY` | none |
//! | `--model NAME` (replaces the client's) | `GATEWAY_MODEL` | the client's |
//! | `--listen ADDR` | `GATEWAY_LISTEN` | `127.0.0.1:4000` |
//! | `--keep-alive SECS` | `GATEWAY_KEEP_ALIVE` | 15 |
//! | `--idle-timeout SECS` | `GATEWAY_IDLE_TIMEOUT` | 300 |
//! | `--max-body-bytes N` (a client's request) | `GATEWAY_MAX_BODY_BYTES` | 16 MiB |
//!
//! The key is read from the environment only, so that it stays out of the
//! process list. The gateway does not check its clients' keys: keep it on
//! loopback or behind something that does. `tests/gateway` runs it with the
//! official clients and the Codex CLI.

mod server;

use std::time::Duration;

use server::Config;
use ssekit::turn::Dialect;

fn parse_dialect(s: &str) -> Result<Dialect, String> {
    Ok(match s {
        "responses" => Dialect::Responses,
        "chat" => Dialect::Chat,
        "anthropic" => Dialect::Anthropic,
        "gemini" => Dialect::Gemini,
        _ => {
            return Err(format!(
                "unknown dialect {s:?}: responses, chat, anthropic or gemini"
            ))
        }
    })
}

fn parse_secs(s: &str) -> Result<Duration, String> {
    s.parse::<f64>()
        .ok()
        .filter(|n| n.is_finite() && *n > 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("not a positive number of seconds: {s:?}"))
}

/// The configuration and the address to listen on, from the command line
/// and the environment (the command line wins).
fn configure() -> Result<(Config, String), String> {
    let get = |name: &str| std::env::var(name).ok();
    let mut upstream = get("GATEWAY_UPSTREAM").unwrap_or_else(|| "chat".into());
    let mut base_url = get("GATEWAY_BASE_URL").unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let mut model = get("GATEWAY_MODEL");
    let mut listen = get("GATEWAY_LISTEN").unwrap_or_else(|| "127.0.0.1:4000".into());
    let mut keep_alive = get("GATEWAY_KEEP_ALIVE");
    let mut idle = get("GATEWAY_IDLE_TIMEOUT");
    let mut max_body = get("GATEWAY_MAX_BODY_BYTES");
    let api_key = get("GATEWAY_API_KEY");
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--upstream" => upstream = value,
            "--base-url" => base_url = value,
            "--model" => model = Some(value),
            "--listen" => listen = value,
            "--keep-alive" => keep_alive = Some(value),
            "--idle-timeout" => idle = Some(value),
            "--max-body-bytes" => max_body = Some(value),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let mut config = Config::new(parse_dialect(&upstream)?, &base_url);
    config.api_key = api_key;
    config.model = model;
    if let Some(s) = keep_alive {
        config.keep_alive = parse_secs(&s)?;
    }
    if let Some(s) = idle {
        config.idle_timeout = parse_secs(&s)?;
    }
    if let Some(s) = max_body {
        config.max_body_bytes = s
            .parse()
            .map_err(|_| format!("not a number of bytes: {s:?}"))?;
    }
    Ok((config, listen))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (config, listen) = configure().unwrap_or_else(|e| {
        eprintln!("gateway: {e}");
        std::process::exit(2)
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let upstream = format!("{:?} at {}", config.upstream, config.base_url);
        let (url, task) = server::spawn(&listen, server::router(config)).await?;
        eprintln!("gateway on {url}, upstream {upstream}");
        task.await?;
        Ok(())
    })
}
