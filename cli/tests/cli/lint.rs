//! `ssekit lint`, run as a user runs it: human and `--json` output for a
//! stream with findings (checked against the library's findings and, for
//! the JSON, key by key), the summary line, and the exit statuses (0 clean,
//! 1 with errors, 2 for usage and I/O errors).

use crate::corpus;

use std::process::Output;

use serde_json::Value as J;
use ssekit::lint::{lint_bytes, ResponsesLinter};

use crate::cli;
use cli::*;

fn lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .expect("stdout is UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A stream with one error of each kind the CLI must render: an unknown
/// item (with a sequence number), a `[DONE]` (info, no sequence number), a
/// message with quotes to escape in JSON, and no terminal event.
const BROKEN: &str = concat!(
    "event: response.created\n",
    "data: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"r\"}}\n\n",
    "event: response.output_text.delta\n",
    "data: {\"type\":\"response.output_text.delta\",\"sequence_number\":1,\"item_id\":\"m\\\"x\",",
    "\"output_index\":0,\"content_index\":0,\"delta\":\"Hi\"}\n\n",
    "data: [DONE]\n\n",
);

#[test]
fn a_clean_stream_exits_0_with_a_summary() {
    let out = run(&["lint", SAMPLE]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(lines(&out), ["0 error(s), 0 warning(s), 0 info"]);
    let out = run(&["lint", "--json", SAMPLE]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn errors_exit_1_one_line_per_finding() {
    let expected = lint_bytes(ResponsesLinter::new(), BROKEN.as_bytes());
    assert_eq!(expected.len(), 3);
    let out = run_stdin(&["lint"], BROKEN.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let got = lines(&out);
    assert_eq!(got.len(), 4);
    // offset, seq, severity, rule, message; by hand for the first.
    assert!(
        got[0].starts_with(
            "offset 101 seq 1: error unknown-item: `response.output_text.delta` for item m\"x"
        ),
        "{}",
        got[0]
    );
    assert!(
        got[1].starts_with("offset 265 seq -: info done-sentinel: "),
        "{}",
        got[1]
    );
    assert!(
        got[2].starts_with("offset 279 seq -: error missing-terminal: "),
        "{}",
        got[2]
    );
    for (line, f) in got.iter().zip(&expected) {
        assert_eq!(*line, f.to_string());
    }
    assert_eq!(got[3], "2 error(s), 0 warning(s), 1 info");
    // Stdin given as `-` is the same.
    assert_eq!(
        run_stdin(&["lint", "-"], BROKEN.as_bytes()).stdout,
        out.stdout
    );
}

#[test]
fn json_has_exactly_the_five_keys() {
    let expected = lint_bytes(ResponsesLinter::new(), BROKEN.as_bytes());
    let out = run_stdin(&["lint", "--json"], BROKEN.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let got = lines(&out);
    assert_eq!(got.len(), expected.len(), "no summary line in --json mode");
    for (line, f) in got.iter().zip(&expected) {
        let v: J = serde_json::from_str(line).expect("one JSON object per line");
        let obj = v.as_object().unwrap();
        let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            ["message", "offset", "rule", "sequence_number", "severity"]
        );
        assert_eq!(obj["rule"], f.rule().id());
        assert_eq!(obj["severity"], f.severity().as_str());
        assert_eq!(obj["offset"], f.offset());
        assert_eq!(obj["message"], f.message());
        match f.sequence_number() {
            Some(n) => assert_eq!(obj["sequence_number"], n),
            None => assert!(obj["sequence_number"].is_null()),
        }
    }
    let first: J = serde_json::from_str(&got[0]).unwrap();
    assert_eq!(first["rule"], "unknown-item");
    assert_eq!(first["sequence_number"], 1);
    assert!(first["message"].as_str().unwrap().contains("m\"x"));
}

#[test]
fn warnings_alone_exit_0() {
    // No sequence numbers anywhere: one warning.
    let stream = concat!(
        "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\n",
        "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"output\":[]}}\n\n",
    );
    let out = run_stdin(&["lint"], stream.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let got = lines(&out);
    assert!(got[0].starts_with("offset 0 seq -: warning missing-sequence-number: "));
    assert_eq!(got[1], "0 error(s), 1 warning(s), 0 info");
}

#[test]
fn usage_and_io_errors_exit_2() {
    let out = run(&["lint", "/nonexistent/stream.sse"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/stream.sse"));
    assert_eq!(run(&["lint", "--bogus"]).status.code(), Some(2));
    assert_eq!(run(&["lint", SAMPLE, SAMPLE]).status.code(), Some(2));
    assert_eq!(
        run(&["lint", "--chunk", "0", SAMPLE]).status.code(),
        Some(2)
    );
}

#[test]
fn corpus_streams_with_and_without_recorded_faults() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let clean = dir.join("openaidotnet-responses-hello-text.sse");
    let out = run(&["lint", "--chunk", "7", clean.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let faulty = dir.join("pydanticai-responses-openrouter-data-only.sse");
    let out = run(&["lint", "--json", faulty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let rules: Vec<String> = lines(&out)
        .iter()
        .map(|l| {
            serde_json::from_str::<J>(l).unwrap()["rule"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(rules, ["terminal-output-mismatch", "done-sentinel"]);
}

/// Chat Completions, Anthropic Messages and Gemini streams are linted with
/// their own rules, and the dialect is named on stderr; `--dialect` names
/// it instead of the first event.
#[test]
fn each_dialect_gets_its_own_rules() {
    let chat = concat!(
        "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\n",
        "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        "data: [DONE]\n\n",
    );
    let out = run_stdin(&["lint", "--chunk", "5"], chat.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        stderr(&out).contains("Chat Completions"),
        "{}",
        stderr(&out)
    );
    assert_eq!(lines(&out), ["0 error(s), 0 warning(s), 0 info"]);

    // Cut before the finish reason: an error, exit 1.
    let cut = &chat[..chat.find("\n\n").unwrap() + 2];
    let out = run_stdin(&["lint"], cut.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let got = lines(&out);
    assert!(got[0].contains("error missing-finish-reason"), "{got:?}");
    assert!(got[1].contains("warning missing-terminal"), "{got:?}");
    assert_eq!(got[2], "1 error(s), 1 warning(s), 0 info");

    let anthropic = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n",
    );
    let out = run_stdin(&["lint", "--json"], anthropic.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stderr(&out).contains("Anthropic Messages"),
        "{}",
        stderr(&out)
    );
    let rules: Vec<String> = lines(&out)
        .iter()
        .map(|l| {
            serde_json::from_str::<J>(l).unwrap()["rule"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(rules, ["unknown-item", "missing-terminal"]);

    // A Gemini chunk without a finish reason or usage: cut.
    let gemini = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"hi\"}]}}]}\r\n\r\n";
    let end = gemini.len();
    let out = run_stdin(&["lint"], gemini.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(stderr(&out).contains("Google Gemini"), "{}", stderr(&out));
    let got = lines(&out);
    assert!(
        got[0].starts_with(&format!(
            "offset {end} seq -: error missing-finish-reason: "
        )),
        "{got:?}"
    );
    assert!(
        got[1].starts_with(&format!("offset {end} seq -: warning missing-usage: ")),
        "{got:?}"
    );
    assert_eq!(got[2], "1 error(s), 1 warning(s), 0 info");

    // The dialect given: a Gemini stream read with the Chat rules, and the
    // Gemini rules for a stream whose first event tells nothing.
    let out = run_stdin(&["lint", "--dialect", "chat", "--json"], gemini.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        stderr(&out).contains("Chat Completions"),
        "{}",
        stderr(&out)
    );
    let done = format!("data: [DONE]\r\n\r\n{gemini}");
    let out = run_stdin(&["lint", "--dialect", "gemini", "--json"], done.as_bytes());
    let rules: Vec<String> = lines(&out)
        .iter()
        .map(|l| {
            serde_json::from_str::<J>(l).unwrap()["rule"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        rules,
        ["done-sentinel", "missing-finish-reason", "missing-usage"]
    );
    let out = run_stdin(&["lint", "--dialect", "bard"], gemini.as_bytes());
    assert_eq!(out.status.code(), Some(2));
}

/// Every recorded Chat Completions, Anthropic and Gemini stream lints
/// clean through the CLI.
#[test]
fn recorded_streams_of_every_linted_dialect_exit_0() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    for (name, _) in corpus::sse_files(&dir) {
        if !(name.contains("-chat-") || name.contains("-anthropic-") || name.contains("-gemini-")) {
            continue;
        }
        let path = dir.join(&name);
        let out = run(&["lint", "--chunk", "64", path.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}
