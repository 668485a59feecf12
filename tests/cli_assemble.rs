//! `ssekit assemble`, run as a user runs it. The reference for every
//! assembled response is the stream's own `response.completed` event,
//! parsed by `serde_json`:
//!
//! * the shipped sample and corpus streams (from a file and from standard
//!   input, whole and in 7-byte chunks) assemble to exactly the completed
//!   response;
//! * a stream cut before its terminal event still prints its response, with
//!   the last status announced, and exits with status 1;
//! * chat and Anthropic streams, asked for or detected, exit with status 2
//!   and say they are not supported yet; a bad `--dialect` is a usage error.
#![cfg(feature = "cli")]

mod responses_common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value as J;

const BIN: &str = env!("CARGO_BIN_EXE_ssekit");
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/responses-text.sse");

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ssekit");
    let input = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        let mut input = input;
        input.write_all(bytes).unwrap();
    }
    child.wait_with_output().unwrap()
}

/// The one JSON object printed.
fn printed(out: &Output) -> J {
    let text = String::from_utf8(out.stdout.clone()).expect("UTF-8");
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    serde_json::from_str(&text).expect("a JSON object")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The `response` of the stream's `response.completed` event.
fn completed_response(bytes: &[u8]) -> J {
    let text = std::str::from_utf8(bytes).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str::<J>(d).ok())
        .find(|e| e["type"] == "response.completed")
        .expect("a response.completed event")["response"]
        .clone()
}

#[test]
fn the_sample_assembles_to_its_completed_response() {
    let bytes = std::fs::read(SAMPLE).unwrap();
    let want = completed_response(&bytes);
    for out in [
        run(&["assemble", SAMPLE], None),
        run(
            &["assemble", "--dialect", "responses", "--chunk", "7"],
            Some(&bytes),
        ),
        run(&["assemble", "-"], Some(&bytes)),
    ] {
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stderr(&out), "");
        assert_eq!(printed(&out), want);
    }
}

#[test]
fn corpus_streams_assemble_to_their_completed_response() {
    let Some(dir) = responses_common::corpus_dir() else {
        eprintln!("corpus not found; skipped");
        return;
    };
    for name in [
        "openaidotnet-responses-function-call.sse",
        "openaidotnet-responses-reasoning-summary.sse",
        "vercel-responses-apply-patch.sse",
    ] {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).unwrap();
        let out = run(&["assemble", path.to_str().unwrap()], None);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert_eq!(printed(&out), completed_response(&bytes), "{name}");
        let out = run(&["assemble", "--chunk", "7"], Some(&bytes));
        assert_eq!(
            printed(&out),
            completed_response(&bytes),
            "{name} from stdin"
        );
    }
}

#[test]
fn a_cut_stream_prints_its_response_and_exits_1() {
    let bytes = std::fs::read(SAMPLE).unwrap();
    let cut = std::str::from_utf8(&bytes).unwrap();
    let cut = &cut[..cut
        .find("event: response.completed")
        .expect("a completed event")];
    let out = run(&["assemble"], Some(cut.as_bytes()));
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("truncated"), "{}", stderr(&out));
    let got = printed(&out);
    assert_eq!(got["status"], "in_progress");
    // The text had streamed in full: it is there.
    let want = completed_response(&bytes);
    assert_eq!(
        got["output"][0]["content"][0]["text"],
        want["output"][0]["content"][0]["text"]
    );
}

#[test]
fn other_dialects_are_not_supported_yet() {
    let chat = b"data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[]}\n\ndata: [DONE]\n\n";
    for args in [&["assemble"][..], &["assemble", "--dialect", "chat"]] {
        let out = run(args, Some(chat));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("chat dialect"), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("not supported yet"),
            "{}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty());
    }
    let out = run(&["assemble", "--dialect", "anthropic", SAMPLE], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("anthropic dialect is not supported yet"));
    let out = run(&["assemble", "--dialect", "klingon", SAMPLE], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--dialect takes"));
}
