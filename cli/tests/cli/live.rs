//! Live streams: each command prints what it has while its input is still
//! open, as `printf 'data: a\n\n'; sleep 2` piped into `ssekit frames` does.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::cli::BIN;

/// How long to wait for the first line before calling the command stuck:
/// far more than it needs, so that only a command that waits for the end
/// of its input fails.
const PATIENCE: Duration = Duration::from_secs(10);

/// Runs `ssekit args`, writes `input` to it and keeps its standard input
/// open; returns the first line it prints then, or `None` when none came
/// within [`PATIENCE`]. The input is closed afterwards, and the command
/// must then end with exit status `status`.
fn first_line_while_open(args: &[&str], input: &[u8], status: i32) -> Option<String> {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run ssekit");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (send, lines) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        let mut line = String::new();
        let _ = stdout.read_line(&mut line);
        let _ = send.send(line);
        // Drain the rest, so the command never blocks on a full pipe.
        let _ = std::io::copy(&mut stdout, &mut std::io::sink());
    });
    stdin.write_all(input).unwrap();
    stdin.flush().unwrap();
    // The input stays open while we wait: the line must come before its end.
    let first = lines.recv_timeout(PATIENCE).ok();
    drop(stdin);
    let ended = child.wait().unwrap();
    reader.join().unwrap();
    assert_eq!(ended.code(), Some(status), "{args:?}");
    first
}

#[test]
fn frames_prints_an_event_before_the_input_ends() {
    let line = first_line_while_open(&["frames"], b"data: a\n\n", 0);
    assert_eq!(
        line.as_deref(),
        Some("{\"event\":\"message\",\"data\":\"a\",\"id\":\"\",\"retry\":null}\n")
    );
}

#[test]
fn events_prints_an_event_before_the_input_ends() {
    let input = b"event: response.output_text.delta\n\
        data: {\"type\":\"response.output_text.delta\",\"sequence_number\":4,\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"Hi\"}\n\n";
    let line = first_line_while_open(&["events"], input, 0).expect("no event before the end");
    let got: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(got["type"], "response.output_text.delta");
    assert_eq!(got["delta"], "Hi");
}

#[test]
fn encode_writes_a_frame_before_the_input_ends() {
    let line = first_line_while_open(&["encode"], b"{\"data\":\"a\"}\n", 0);
    assert_eq!(line.as_deref(), Some("data: a\n"));
}

#[test]
fn bridge_writes_an_event_before_the_input_ends() {
    let chunk = b"data: {\"id\":\"c1\",\"model\":\"m\",\"created\":1,\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}]}\n\n";
    // Exit status 1 at the end: the upstream stopped before its end.
    let line = first_line_while_open(&["bridge", "--to", "responses"], chunk, 1);
    assert_eq!(line.as_deref(), Some("event: response.created\n"));
}

#[test]
fn lint_prints_a_finding_before_the_input_ends() {
    // A Responses event without its sequence number: an error finding.
    let input = b"event: response.created\n\
        data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\",\"status\":\"in_progress\",\"output\":[]}}\n\n";
    // Exit status 1 at the end: the stream has an error finding.
    let line = first_line_while_open(&["lint", "--json"], input, 1);
    let line = line.expect("no finding before the end");
    let got: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert!(got["rule"].is_string(), "{line}");
}
