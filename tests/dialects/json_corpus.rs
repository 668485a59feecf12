//! Every JSON payload of the recorded corpus (`../shared/corpus` beside the
//! crate, see its PROVENANCE.md) is accepted by the JSON layer and walks back
//! to the value `serde_json` reads (through `Value::parse` and through
//! `ObjectScanner`), and `find_key(data, "type")` names the SSE event it
//! came in.
//!
//! The corpus is found at `$SSEKIT_CORPUS`, else at the shared default
//! below. When it is missing the test is skipped with a message, except
//! under `CI=true`, where a missing corpus fails.

use crate::corpus;
use corpus::corpus_dir;
use std::path::PathBuf;

use serde_json::Value as J;
use ssekit::json::{find_key, ObjectScanner, Value};

fn to_serde(v: Value<'_>) -> J {
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(b),
        Value::Number(n) => serde_json::from_str(n.as_str()).unwrap(),
        Value::String(s) => J::String(s.unescape().into_owned()),
        Value::Object(o) => J::Object(
            o.members()
                .map(|(k, v)| (k.unescape().into_owned(), to_serde(v)))
                .collect(),
        ),
        Value::Array(a) => J::Array(a.iter().map(to_serde).collect()),
    }
}

#[test]
fn corpus_payloads_read_like_serde_json() {
    let Some(dir) = corpus_dir() else { return };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sse"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    let (mut payloads, mut escaped_strings, mut typed) = (0, 0, 0);
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let mut event_name: Option<&str> = None;
        for line in text.lines() {
            if line.is_empty() {
                event_name = None;
            }
            if let Some(name) = line.strip_prefix("event:") {
                event_name = Some(name.strip_prefix(' ').unwrap_or(name));
            }
            let Some(data) = line.strip_prefix("data:") else {
                continue;
            };
            let data = data.strip_prefix(' ').unwrap_or(data);
            if data == "[DONE]" {
                continue;
            }
            payloads += 1;
            let theirs: J = serde_json::from_str(data)
                .unwrap_or_else(|e| panic!("{name}: serde_json rejects a payload: {e}"));
            let ours = Value::parse(data).unwrap_or_else(|e| panic!("{name}: {e}: {data}"));
            assert_eq!(to_serde(ours), theirs, "{name}: {data}");
            let members: Result<serde_json::Map<String, J>, _> = ObjectScanner::new(data)
                .map(|m| m.map(|(k, v)| (k.unescape().into_owned(), to_serde(v))))
                .collect();
            assert_eq!(J::Object(members.unwrap()), theirs, "{name}: {data}");
            escaped_strings += data.matches("\\").count();
            if let Some(event_name) = event_name {
                let ty = find_key(data, "type")
                    .unwrap()
                    .and_then(|v| v.as_json_str());
                assert_eq!(ty.map(|t| t == event_name), Some(true), "{name}: {data}");
                typed += 1;
            }
        }
    }
    eprintln!(
        "{} files: {payloads} JSON payloads ({typed} with an `event:` name checked against \
         `type`), {escaped_strings} backslashes",
        paths.len()
    );
    assert!(payloads > 0);
}
