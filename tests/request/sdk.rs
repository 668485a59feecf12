//! Every body the sixteen directions write, and the fixtures themselves,
//! checked by the official Python SDKs' own types
//! (`tests/clients/python/validate_requests.py`): google-genai's pydantic
//! models for Gemini (unknown fields refused), and the anthropic and openai
//! request TypedDicts through pydantic for the others. Needs the pinned
//! venv of `tests/clients/`; skips loudly without it (fails under `CI=true`).

use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};
use ssekit::turn::Dialect;

use super::support::{fixture, run, DIALECTS};

fn name(d: Dialect) -> &'static str {
    match d {
        Dialect::Responses => "responses",
        Dialect::Chat => "chat",
        Dialect::Anthropic => "anthropic",
        _ => "gemini",
    }
}

#[test]
fn official_sdk_types_accept_every_translated_body() {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clients"));
    let python = std::env::var_os("SSEKIT_CLIENTS_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| dir.join(".venv/bin/python"));
    if !python.exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{} not found",
            python.display()
        );
        eprintln!(
            "SKIPPED: {} not found (see tests/clients/)",
            python.display()
        );
        return;
    }
    let mut cases = Vec::new();
    for from in DIALECTS {
        for to in DIALECTS {
            let t = run(&fixture(from), from, to);
            let mut body = t.body;
            if to == Dialect::Gemini {
                // The URL's model is not part of a Gemini body.
                assert!(body.get("model").is_none());
            }
            if let Value::Object(o) = &mut body {
                o.remove("model").map(|m| o.insert("model".into(), m));
            }
            cases.push(
                json!({"name": format!("{from:?} -> {to:?}"), "dialect": name(to), "body": body}),
            );
        }
    }
    let file =
        std::env::temp_dir().join(format!("ssekit-request-cases-{}.json", std::process::id()));
    std::fs::write(&file, serde_json::to_vec(&cases).unwrap()).unwrap();
    let out = Command::new(&python)
        .arg(dir.join("python/validate_requests.py"))
        .arg(&file)
        .output()
        .expect("run python");
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), cases.len());
    let failed: Vec<String> = lines
        .iter()
        .filter(|l| l["ok"] != true)
        .map(|l| format!("{}: {}", l["name"], l["error"].as_str().unwrap_or_default()))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}
