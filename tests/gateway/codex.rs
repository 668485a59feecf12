//! The Codex CLI (`codex exec`, from the pinned npm package `@openai/codex`
//! in `tests/clients/node`) through the gateway: Codex speaks Responses to
//! a custom model provider whose `base_url` is the gateway, the gateway
//! speaks Chat Completions to a scripted upstream. Codex runs in an empty
//! temporary folder with a read-only sandbox, its own empty `CODEX_HOME`,
//! the key in an environment variable, and a time limit.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value as J;
use ssekit::turn::Dialect;

use crate::upstream::{Script, Seen, Upstream};
use crate::{gateway, run, run_process, CLIENT_KEY};

/// What the upstream says once Codex has run its command.
const ANSWER: &str = "The gateway answered: GW-OK-4711.";

/// The Codex binary of the pinned package (its platform package,
/// `@openai/codex-<os>-<arch>/vendor/<target>/bin/codex`), or why it is not
/// there.
fn codex() -> Result<PathBuf, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients/node/node_modules/@openai");
    let packages = std::fs::read_dir(&dir).into_iter().flatten().flatten();
    for package in packages.filter(|p| p.file_name().to_string_lossy().starts_with("codex-")) {
        let vendor = package.path().join("vendor");
        for target in std::fs::read_dir(vendor).into_iter().flatten().flatten() {
            let bin = target.path().join("bin/codex");
            if bin.is_file() {
                return Ok(bin);
            }
        }
    }
    Err("the Codex CLI is not installed (npm ci in tests/clients/node)".into())
}

/// A fresh empty directory under the target's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "gateway-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The command the upstream has Codex run.
const COMMAND: &str = "echo gateway-tool-ran";

/// A Chat stream that calls Codex's `exec_command` tool with [`COMMAND`],
/// as call `call_x1`.
fn exec_call() -> Vec<u8> {
    let args = serde_json::json!({"cmd": COMMAND}).to_string();
    let (a, b) = args.split_at(args.len() / 2);
    let chunk = |delta: J, finish: Option<&str>| {
        let c = serde_json::json!({"id": "chatcmpl-x", "object": "chat.completion.chunk",
            "created": 1, "model": "up-model",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        format!("data: {c}\n\n")
    };
    let mut s = chunk(
        serde_json::json!({"role": "assistant", "content": null, "tool_calls": [{"index": 0,
            "id": "call_x1", "type": "function",
            "function": {"name": "exec_command", "arguments": a}}]}),
        None,
    );
    s += &chunk(
        serde_json::json!({"tool_calls": [{"index": 0, "function": {"arguments": b}}]}),
        None,
    );
    s += &chunk(serde_json::json!({}), Some("tool_calls"));
    s += "data: [DONE]\n\n";
    s.into_bytes()
}

/// The tool message answering `call_x1` in a Chat request, if any.
fn tool_result(body: &J) -> Option<String> {
    body["messages"]
        .as_array()?
        .iter()
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == "call_x1")
        .map(|m| match &m["content"] {
            J::String(s) => s.clone(),
            other => other.to_string(),
        })
}

/// The Chat upstream Codex talks to through the gateway: first it has
/// Codex run [`COMMAND`], then, once the result is back, it answers with
/// [`ANSWER`].
fn upstream_answer(seen: &Seen) -> Script {
    let body = if tool_result(&seen.body).is_some() {
        crate::faults::chat_text(ANSWER, 5)
    } else {
        exec_call()
    };
    Script::events(&body, Duration::from_millis(1))
}

#[test]
fn codex_exec_talks_responses_to_the_gateway_in_front_of_a_chat_upstream() {
    let bin = match codex() {
        Ok(bin) => bin,
        Err(why) => return crate::skip(&why),
    };
    run(Duration::from_secs(100), async {
        let upstream = Upstream::start(upstream_answer).await;
        let gw = gateway(Dialect::Chat, &upstream.url, |_| {}).await;
        let work = temp_dir("codex-work");
        let home = temp_dir("codex-home");
        let last = home.join("last-message.txt");
        let mut cmd = Command::new(bin);
        cmd.current_dir(&work)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &home)
            .env("CODEX_HOME", &home)
            .env("GATEWAY_CLIENT_KEY", CLIENT_KEY)
            .env("RUST_LOG", "error")
            .args(["exec", "--skip-git-repo-check", "--sandbox", "read-only"])
            .arg("--cd")
            .arg(&work)
            .arg("--output-last-message")
            .arg(&last)
            .args(["-m", "client-model"])
            .args(["-c", "model_provider=\"gateway\""])
            .args(["-c", "model_providers.gateway.name=\"ssekit gateway\""])
            .arg("-c")
            .arg(format!("model_providers.gateway.base_url=\"{gw}/v1\""))
            .args([
                "-c",
                "model_providers.gateway.env_key=\"GATEWAY_CLIENT_KEY\"",
            ])
            .args(["-c", "model_providers.gateway.wire_api=\"responses\""])
            .args(["-c", "model_providers.gateway.request_max_retries=0"])
            .args(["-c", "model_providers.gateway.stream_max_retries=0"])
            .arg("Run the command the model asks for, then say what the gateway answers.");
        let out = run_process(cmd, Duration::from_secs(60)).await;
        let shown = format!("stdout:\n{}\nstderr:\n{}", out.stdout, out.stderr);
        assert!(out.status.is_some(), "codex timed out\n{shown}");
        let seen = upstream.seen();
        for s in &seen {
            eprintln!(
                "upstream got {} with {} messages, {} tools",
                s.path,
                s.body["messages"].as_array().map_or(0, Vec::len),
                s.body["tools"].as_array().map_or(0, Vec::len)
            );
        }
        assert!(
            out.status.is_some_and(|s| s.success()),
            "codex failed\n{shown}"
        );
        assert!(
            out.stdout.contains(ANSWER),
            "Codex printed the answer\n{shown}"
        );
        let written = std::fs::read_to_string(&last).unwrap_or_default();
        assert_eq!(written.trim(), ANSWER, "{shown}");
        assert!(!seen.is_empty(), "the upstream was asked");
        crate::recorded::check_headers(Dialect::Chat, &seen[0]);
        let messages = seen[0].body["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let user: Vec<&J> = messages.iter().filter(|m| m["role"] == "user").collect();
        assert!(
            user.iter()
                .any(|m| m.to_string().contains("then say what the gateway answers.")),
            "the prompt reached the upstream"
        );
        // The tool round trip: the second request carries Codex's call (as
        // the upstream issued it) and the command's output, tied by id.
        assert_eq!(seen.len(), 2, "two turns: the command, then the answer");
        let second = &seen[1].body;
        let messages = second["messages"].as_array().cloned().unwrap_or_default();
        let call = messages
            .iter()
            .find(|m| m["role"] == "assistant" && m["tool_calls"].is_array())
            .unwrap_or_else(|| panic!("the call went back upstream: {second}"));
        assert_eq!(call["tool_calls"][0]["id"], "call_x1");
        assert_eq!(call["tool_calls"][0]["function"]["name"], "exec_command");
        let args: J = serde_json::from_str(
            call["tool_calls"][0]["function"]["arguments"]
                .as_str()
                .unwrap_or(""),
        )
        .expect("the arguments are JSON");
        assert_eq!(args["cmd"], COMMAND);
        let output = tool_result(second).expect("the tool result went back upstream");
        eprintln!("Codex's tool output, as the upstream got it: {output:?}");
        assert!(!output.is_empty());
        if !output.contains("gateway-tool-ran") {
            // The round trip is proven by the ids; whether the sandbox could
            // run the command depends on the machine (bubblewrap, namespaces).
            crate::note(&format!(
                "Codex's sandbox did not run the command here; its output was {output:?}"
            ));
        }
        let _ = std::fs::remove_dir_all(&work);
        let _ = std::fs::remove_dir_all(&home);
    });
}
