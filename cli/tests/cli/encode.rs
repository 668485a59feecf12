//! `ssekit encode`, run as a user runs it:
//!
//! * `ssekit frames FILE | ssekit encode | ssekit frames` prints what
//!   `ssekit frames FILE` prints, for the shipped sample and every stream of
//!   the shared corpus;
//! * hand-written lines give the bytes written out by hand below (an `id`
//!   line only when the id changes, no `event` line for `message`, `retry`
//!   in the frame's block);
//! * a bad line is an error naming its line number, with exit status 1,
//!   after the frames before it were written; usage errors exit with 2.

use crate::corpus;

use std::process::Output;

use crate::cli;
use cli::*;

fn ok(out: Output) -> Vec<u8> {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `frames` of `sse`, and `frames` of `encode` of that.
fn through_encode(sse: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let frames = ok(run_stdin(&["frames"], sse));
    let wire = ok(run_stdin(&["encode"], &frames));
    let again = ok(run_stdin(&["frames"], &wire));
    (frames, again)
}

#[test]
fn sample_survives_the_pipe() {
    let sse = std::fs::read(SAMPLE).unwrap();
    let (frames, again) = through_encode(&sse);
    assert!(frames.split(|&b| b == b'\n').count() > 10);
    assert_eq!(
        String::from_utf8(again).unwrap(),
        String::from_utf8(frames).unwrap()
    );
    // FILE and `-` work as well as standard input.
    let ndjson = std::env::temp_dir().join(format!("ssekit-encode-{}.ndjson", std::process::id()));
    std::fs::write(&ndjson, ok(run_stdin(&["frames"], &sse))).unwrap();
    let from_file = ok(run_stdin(&["encode", ndjson.to_str().unwrap()], b""));
    let from_stdin = ok(run_stdin(
        &["encode", "-"],
        &std::fs::read(&ndjson).unwrap(),
    ));
    std::fs::remove_file(&ndjson).unwrap();
    assert_eq!(from_file, from_stdin);
}

#[test]
fn every_corpus_stream_survives_the_pipe() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let files = corpus::sse_files(&dir);
    assert!(!files.is_empty());
    for (name, sse) in files {
        let (frames, again) = through_encode(&sse);
        assert!(!frames.is_empty(), "{name}: no frames");
        assert!(frames == again, "{name}: frames differ after encode");
    }
}

#[test]
fn writes_what_a_reader_needs_and_no_more() {
    let input = concat!(
        r#"{"event":"message","data":"plain","id":"","retry":null}"#,
        "\n",
        r#"{"event":"note","data":" lead\n\ntrail\n","id":"7","retry":1500}"#,
        "\n",
        "\n", // blank lines are skipped
        r#"{"event":"note","data":"","id":"7","retry":null}"#,
        "\n",
        r#"{"data":"id left out: unchanged"}"#,
        "\n",
        r#"{"event":"message","data":"back to no id","id":"","retry":null}"#,
        "\n",
    );
    let wire = ok(run_stdin(&["encode"], input.as_bytes()));
    assert_eq!(
        String::from_utf8(wire.clone()).unwrap(),
        concat!(
            "data: plain\n\n",
            "id: 7\nevent: note\nretry: 1500\ndata:  lead\ndata: \ndata: trail\ndata: \n\n",
            "event: note\ndata: \n\n",
            "data: id left out: unchanged\n\n",
            "id\ndata: back to no id\n\n",
        )
    );
    // And `frames` reads it back as the lines said (the left-out id as 7).
    let back = String::from_utf8(ok(run_stdin(&["frames"], &wire))).unwrap();
    let lines: Vec<&str> = back.lines().collect();
    assert_eq!(
        lines[3],
        r#"{"event":"message","data":"id left out: unchanged","id":"7","retry":null}"#
    );
    assert_eq!(
        lines[4],
        r#"{"event":"message","data":"back to no id","id":"","retry":null}"#
    );
}

#[test]
fn bad_lines_are_errors_with_their_line_number() {
    let good = r#"{"event":"a","data":"first","id":"","retry":null}"#;
    for (bad, message) in [
        (
            "not json",
            "line 2: invalid JSON: expected ident at line 1 column 2",
        ),
        (
            "data: {\"type\":\"x\"}",
            "line 2: this is a raw SSE stream, but encode reads the JSON lines that `ssekit frames` prints",
        ),
        ("[1]", "line 2: expected a JSON object"),
        (r#"{"event":"a"}"#, "line 2: missing \"data\""),
        (
            r#"{"data":"x","extra":1}"#,
            "line 2: unknown member \"extra\"",
        ),
        (r#"{"data":1}"#, "line 2: \"data\" must be a string, not 1"),
        (
            r#"{"data":"x","id":null}"#,
            "line 2: \"id\" must be a string, not null",
        ),
        (
            r#"{"data":"x","retry":-1}"#,
            "line 2: \"retry\" must be a non-negative integer or null, not -1",
        ),
        (
            r#"{"data":"x","event":"a\nb"}"#,
            "line 2: line break in event type at byte 1",
        ),
        (
            r#"{"data":"x","id":"a\u0000"}"#,
            "line 2: nul in id at byte 1",
        ),
    ] {
        let out = run_stdin(&["encode"], format!("{good}\n{bad}\n{good}\n").as_bytes());
        assert_eq!(out.status.code(), Some(1), "{bad}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with(&format!("ssekit: {message}")),
            "{bad}: {stderr}"
        );
        // The frame before the bad line was written; none after it.
        assert_eq!(out.stdout, b"event: a\ndata: first\n\n", "{bad}");
    }
    let out = run_stdin(&["encode"], b"{\"data\":\"\xff\"}\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("ssekit: line 1: invalid utf-8"));
}

#[test]
fn usage_errors_exit_with_2() {
    for args in [&["encode", "--chunk", "1"][..], &["encode", "a", "b"]] {
        assert_eq!(run_stdin(args, b"").status.code(), Some(2), "{args:?}");
    }
    let missing = run_stdin(&["encode", "/nonexistent/ssekit.ndjson"], b"");
    assert_eq!(missing.status.code(), Some(2));
}
