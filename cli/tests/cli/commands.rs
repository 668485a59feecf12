//! The `ssekit` binary, run as a user runs it:
//!
//! * `events` on every Responses stream of the corpus: one line per frame,
//!   each a JSON object that is a subset of the event's JSON with equal
//!   values (`[DONE]` and unknown types as specified), the same under
//!   `--dialect auto` and any chunking;
//! * `events` on a hand-written stream: unknown types, `[DONE]`, escapes,
//!   and an event that does not decode (a warning, and the stream goes on);
//! * `frames` on the shipped sample, whole and a byte at a time;
//! * exit statuses: 2 for usage errors, 1 for a missing file.

use crate::corpus;
use crate::responses_common;

use std::process::Output;

use serde_json::Value as J;

use crate::cli;
use cli::*;

fn stdout_lines(out: &Output) -> Vec<String> {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone())
        .expect("stdout is UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Numbers are equal when they are the same number: integers exactly, and
/// when either is written as a float (the views decode some integer-valued
/// fields, `created_at`, as `f64`), as `f64`s, exactly.
fn same_number(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    if a.is_f64() || b.is_f64() {
        return a.as_f64() == b.as_f64();
    }
    match (a.as_u64(), b.as_u64()) {
        (Some(x), Some(y)) => x == y,
        _ => a.as_i64().is_some() && a.as_i64() == b.as_i64(),
    }
}

/// Whether `out` is a subset of `src`: objects by key, recursively; arrays
/// element by element, of equal length; other values equal. Counts the
/// values compared into `n`.
fn subset(out: &J, src: &J, path: &str, n: &mut usize) -> Result<(), String> {
    *n += 1;
    match (out, src) {
        (J::Object(o), J::Object(s)) => {
            for (k, v) in o {
                let here = format!("{path}.{k}");
                let Some(sv) = s.get(k) else {
                    return Err(format!("{here}: not in the source"));
                };
                subset(v, sv, &here, n)?;
            }
            Ok(())
        }
        (J::Array(o), J::Array(s)) => {
            if o.len() != s.len() {
                return Err(format!("{path}: {} elements, source {}", o.len(), s.len()));
            }
            for (i, (v, sv)) in o.iter().zip(s).enumerate() {
                subset(v, sv, &format!("{path}[{i}]"), n)?;
            }
            Ok(())
        }
        (J::Number(a), J::Number(b)) if same_number(a, b) => Ok(()),
        _ if out == src => Ok(()),
        _ => Err(format!("{path}: {out} != source {src}")),
    }
}

#[test]
fn events_of_every_responses_stream_are_subsets_of_their_source() {
    let Some(streams) = responses_common::responses_streams() else {
        return;
    };
    let dir = corpus::corpus_dir().unwrap();
    let (mut events, mut values, mut unknown, mut done) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for (name, frames) in &streams {
        let path = dir.join(name);
        let path = path.to_str().unwrap();
        let out = run(&["events", "--dialect", "responses", path]);
        assert!(
            out.stderr.is_empty(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), frames.len(), "{name}: one line per frame");
        // Auto-detection and chunking change nothing.
        assert_eq!(run(&["events", path]).stdout, out.stdout, "{name}: auto");
        assert_eq!(
            run(&["events", "--chunk", "13", path]).stdout,
            out.stdout,
            "{name}: --chunk 13"
        );
        for (i, (line, frame)) in lines.iter().zip(frames).enumerate() {
            let at = format!("{name} #{i}");
            let got: J = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{at}: not JSON ({e}): {line}"));
            assert!(got.is_object(), "{at}: {line}");
            events += 1;
            if frame.data().trim() == "[DONE]" {
                assert_eq!(got, serde_json::json!({"type": "[DONE]"}), "{at}");
                done += 1;
                continue;
            }
            let src: J = serde_json::from_str(frame.data()).expect("corpus data is JSON");
            assert_eq!(got["type"], src["type"], "{at}: type");
            if got.get("unknown") == Some(&J::Bool(true)) {
                assert_eq!(
                    got,
                    serde_json::json!({"type": src["type"], "unknown": true}),
                    "{at}"
                );
                unknown += 1;
                continue;
            }
            if let Err(e) = subset(&got, &src, "", &mut values) {
                failures.push(format!("{at}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{events} events in {} streams ({done} [DONE], {unknown} unknown), {values} values compared",
        streams.len()
    );
    assert!(
        events > 5000 && values > 10 * events,
        "{events} events, {values} values"
    );
}

#[test]
fn events_prints_unknown_done_and_escapes_and_warns_on_bad_events() {
    let input = concat!(
        "event: response.output_text.delta\n",
        "data: {\"type\":\"response.output_text.delta\",\"item_id\":\"m\\u0031\",",
        "\"output_index\":0,\"content_index\":0,\"delta\":\"a\\\"b\\n\\u00e9\\ud83d\\ude80\",",
        "\"unmodeled\":[1,2]}\n\n",
        "data: {\"type\":\"response.brand_new\",\"x\":1}\n\n",
        // Missing its required `item_id`: a warning, and the stream goes on.
        "event: response.output_text.done\n",
        "data: {\"type\":\"response.output_text.done\",\"text\":\"t\"}\n\n",
        "data: not json\n\n",
        "data: {\"type\":\"response.queued\",\"sequence_number\":1.5e0}\n\n",
        "data: [DONE]\n\n",
    );
    for dialect in ["responses", "auto"] {
        let out = run_stdin(&["events", "--dialect", dialect], input.as_bytes());
        let lines = stdout_lines(&out);
        let got: Vec<J> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let at = input.find("event: response.output_text.done").unwrap() as u64;
        let not_json = input.find("data: not json").unwrap() as u64;
        let queued = input.find("data: {\"type\":\"response.queued\"").unwrap() as u64;
        // One line per frame: the three that do not decode say so.
        assert_eq!(lines.len(), 6, "{dialect}: {lines:?}");
        assert_eq!(
            got[..2],
            [
                serde_json::json!({
                    "type": "response.output_text.delta", "item_id": "m1", "output_index": 0,
                    "content_index": 0, "delta": "a\"b\n\u{e9}\u{1f680}",
                }),
                serde_json::json!({"type": "response.brand_new", "unknown": true}),
            ],
            "{dialect}: {lines:?}"
        );
        for (line, ty, offset, says) in [
            (&got[2], J::from("response.output_text.done"), at, "item_id"),
            (&got[3], J::Null, not_json, "invalid json"),
            (
                &got[4],
                J::from("response.queued"),
                queued,
                "sequence_number",
            ),
        ] {
            assert_eq!(line["type"], ty, "{line}");
            assert_eq!(line["undecodable"], true, "{line}");
            assert_eq!(line["offset"], offset, "{line}");
            assert!(line["error"].as_str().unwrap().contains(says), "{line}");
            assert_eq!(line.as_object().unwrap().len(), 4, "{line}");
        }
        assert_eq!(got[5], serde_json::json!({"type": "[DONE]"}));
        // Unescaped, not copied: the raw text had `\u0031` and `\"`.
        assert!(lines[0].contains(r#""item_id":"m1""#), "{}", lines[0]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let warnings: Vec<&str> = stderr.lines().collect();
        assert_eq!(warnings.len(), 3, "{dialect}: {stderr}");
        // Where the bad event's block begins in the stream.
        assert!(
            warnings[0].contains("response.output_text.done")
                && warnings[0].contains(&format!("at byte {at} "))
                && warnings[0].contains("item_id"),
            "{}",
            warnings[0]
        );
        assert!(warnings[1].contains("invalid json"), "{}", warnings[1]);
        assert!(
            warnings[2].contains("response.queued") && warnings[2].contains("sequence_number"),
            "{}",
            warnings[2]
        );
    }
}

#[test]
fn events_usage_and_io_errors() {
    for args in [
        &["events", "--dialect"][..],
        &["events", "--dialect", "mistral", SAMPLE],
        &["events", "--bogus", SAMPLE],
        &["events", "--chunk", "0", SAMPLE],
        &["events", SAMPLE, SAMPLE],
    ] {
        assert_eq!(run(args).status.code(), Some(2), "{args:?}");
    }
    let out = run(&["events", "/nonexistent/stream.sse"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/stream.sse"));
}

#[test]
fn frames_of_the_sample_follow_its_event_lines() {
    let sample = std::fs::read_to_string(SAMPLE).unwrap();
    let names: Vec<&str> = sample
        .lines()
        .filter_map(|l| l.strip_prefix("event: "))
        .collect();
    let out = run(&["frames", SAMPLE]);
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 29);
    assert_eq!(names.len(), 29);
    for (line, name) in lines.iter().zip(&names) {
        let frame: J = serde_json::from_str(line).unwrap();
        assert_eq!(frame["event"], *name, "{line}");
        let data: J = serde_json::from_str(frame["data"].as_str().unwrap()).unwrap();
        assert_eq!(data["type"], *name, "{line}");
    }
    assert_eq!(run(&["frames", "--chunk", "1", SAMPLE]).stdout, out.stdout);
    assert!(out.stderr.is_empty());
}

#[test]
fn frames_usage_and_io_errors() {
    for args in [
        &["frames", "--bogus", SAMPLE][..],
        &["frames", "--chunk"],
        &["frames", "--chunk", "x", SAMPLE],
        &["frames", "--dialect", "responses", SAMPLE],
        &[],
        &["nope"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        // A short answer that points at --help, not the whole usage.
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("ssekit --help"), "{args:?}: {err}");
        assert!(err.lines().count() <= 3, "{args:?}: {err}");
    }
    let out = run(&["frames", "/nonexistent/stream.sse"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/stream.sse"));
}

/// `--help`, `-h` and `help` print the tool's help, which names every
/// command (exit 0); `--version` prints the version; a directory is named
/// in its error.
#[test]
fn help_version_and_a_directory_argument() {
    for args in [&["--help"][..], &["-h"], &["help"], &["help", "--help"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.starts_with("usage: ssekit <command>"),
            "{args:?}: {text}"
        );
        for command in COMMANDS {
            assert!(
                text.contains(&format!("\n  {command} ")),
                "{args:?}: {command}"
            );
        }
    }
    for flag in ["--version", "-V"] {
        let out = run(&[flag]);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            format!("ssekit {}", env!("CARGO_PKG_VERSION"))
        );
    }
    let dir = env!("CARGO_MANIFEST_DIR");
    for command in ["frames", "events", "assemble", "lint", "encode"] {
        let out = run(&[command, dir]);
        assert_eq!(out.status.code(), Some(2), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(dir) && err.contains("is a directory"),
            "{command}: {err}"
        );
    }
}

/// The Chat Completions and Anthropic streams of the corpus print one line
/// per frame under their own dialect and under `auto`; each line is a subset
/// of its source object with equal values; chat lines invent no `type`.
#[test]
fn events_of_every_chat_and_anthropic_stream_are_subsets_of_their_source() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let (mut streams, mut events, mut values) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sse") && (n.contains("-chat-") || n.contains("-anthropic-")))
        .collect();
    names.sort();
    for name in &names {
        let dialect = if name.contains("-chat-") {
            "chat"
        } else {
            "anthropic"
        };
        let path = dir.join(name);
        let path = path.to_str().unwrap();
        let mut parser = ssekit::Parser::new();
        parser.feed(ssekit::Bytes::from(std::fs::read(path).unwrap()));
        let mut frames = Vec::new();
        while let Some(f) = parser.next_frame().unwrap() {
            frames.push(f);
        }
        let out = run(&["events", "--dialect", dialect, path]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(run(&["events", path]).stdout, out.stdout, "{name}: auto");
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), frames.len(), "{name}: one line per frame");
        streams += 1;
        for (i, (line, frame)) in lines.iter().zip(&frames).enumerate() {
            let at = format!("{name} #{i}");
            let got: J = serde_json::from_str(line).unwrap_or_else(|e| panic!("{at}: {e}: {line}"));
            events += 1;
            if frame.data().trim() == "[DONE]" {
                assert_eq!(got, serde_json::json!({"type": "[DONE]"}), "{at}");
                continue;
            }
            let src: J = serde_json::from_str(frame.data()).expect("corpus data is JSON");
            if dialect == "chat" {
                assert!(
                    got.get("type").is_none(),
                    "{at}: chat lines invent no type: {line}"
                );
            } else {
                assert_eq!(got["type"], src["type"], "{at}: type");
            }
            if let Err(e) = subset(&got, &src, "", &mut values) {
                failures.push(format!("{at}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{events} events in {streams} chat/anthropic streams, {values} values compared");
    assert!(
        streams >= 20 && values > 10 * events,
        "{streams} streams, {events} events, {values} values"
    );
}

/// Frames of a stream, as the library parses it.
fn frames_of(bytes: &[u8]) -> Vec<ssekit::Frame> {
    let mut parser = ssekit::Parser::new();
    parser.feed(ssekit::Bytes::copy_from_slice(bytes));
    let mut frames = Vec::new();
    while let Some(f) = parser.next_frame().unwrap() {
        frames.push(f);
    }
    frames
}

/// Issue 14: `events` never drops a frame. Every corpus stream, whatever
/// its dialect, under `auto`: exactly one JSON object per frame, and none
/// of them undecodable (every corpus stream decodes).
#[test]
fn events_prints_one_line_per_frame_of_every_corpus_stream() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sse"))
        .collect();
    names.sort();
    assert!(names.len() >= 59, "{} streams", names.len());
    let mut frames_total = 0;
    for name in &names {
        let path = dir.join(name);
        let frames = frames_of(&std::fs::read(&path).unwrap());
        let out = run(&["events", path.to_str().unwrap()]);
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), frames.len(), "{name}: one line per frame");
        for line in &lines {
            let v: J = serde_json::from_str(line).unwrap_or_else(|e| panic!("{name}: {e}: {line}"));
            assert!(v.is_object(), "{name}: {line}");
            assert!(v.get("undecodable").is_none(), "{name}: {line}");
        }
        assert!(out.stderr.is_empty(), "{name}: {}", cli::stderr(&out));
        frames_total += frames.len();
    }
    eprintln!(
        "{frames_total} frames in {} streams, one line each",
        names.len()
    );
}

/// Gemini streams (the corpus one and the hand-written ones): `--dialect
/// gemini` and `auto` print the same, one line per frame, each a subset of
/// its source with equal values and no invented `type`.
#[test]
fn events_of_gemini_streams_are_subsets_of_their_source() {
    let mut paths: Vec<std::path::PathBuf> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/gemini"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "sse"))
            .collect();
    if let Some(dir) = corpus::corpus_dir() {
        paths.push(dir.join("pydanticai-gemini-crlf.sse"));
    }
    paths.sort();
    let mut values = 0;
    for path in &paths {
        let name = path.display();
        let p = path.to_str().unwrap();
        let out = run(&["events", "--dialect", "gemini", p]);
        assert!(out.stderr.is_empty(), "{name}: {}", cli::stderr(&out));
        assert_eq!(run(&["events", p]).stdout, out.stdout, "{name}: auto");
        assert_eq!(
            run(&["events", "--chunk", "7", p]).stdout,
            out.stdout,
            "{name}: chunked"
        );
        let frames = frames_of(&std::fs::read(path).unwrap());
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), frames.len(), "{name}");
        for (line, frame) in lines.iter().zip(&frames) {
            let got: J = serde_json::from_str(line).unwrap();
            let src: J = serde_json::from_str(frame.data()).unwrap();
            assert!(got.get("type").is_none(), "{name}: {line}");
            subset(&got, &src, "", &mut values).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
    assert!(values > 300, "{values}");
}

#[test]
fn gemini_chunks_of_an_unexpected_shape_and_garbage_still_print_a_line() {
    let input = concat!(
        "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hi\"}]}}]}\r\n\r\n",
        "data: {\"candidates\": \"soon\"}\r\n\r\n",
        "data: <html>502 Bad Gateway</html>\r\n\r\n",
    );
    let out = run_stdin(&["events", "--dialect", "gemini"], input.as_bytes());
    let lines = stdout_lines(&out);
    let got: Vec<J> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(got.len(), 3, "{lines:?}");
    assert_eq!(got[0]["candidates"][0]["content"]["parts"][0]["text"], "Hi");
    assert_eq!(got[1]["unknown"], true);
    assert!(
        got[1]["error"].as_str().unwrap().contains("candidates"),
        "{}",
        got[1]
    );
    assert_eq!(got[2]["undecodable"], true);
    assert_eq!(got[2]["type"], J::Null);
    assert_eq!(got[2]["offset"], input.find("data: <html>").unwrap() as u64);
}

/// The provider-specific Chat streams of `tests/data/chat` (Mistral parts,
/// reasoning fields, Azure filters, chunks without `choices`, errors): one
/// line per frame under `chat` and `auto`, none undecodable, each a subset
/// of its source.
#[test]
fn events_of_provider_chat_shapes_print_every_frame() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/data/chat");
    let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sse"))
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 6);
    let mut values = 0;
    for path in &paths {
        let p = path.to_str().unwrap();
        let out = run(&["events", "--dialect", "chat", p]);
        assert!(out.stderr.is_empty(), "{p}: {}", cli::stderr(&out));
        assert_eq!(run(&["events", p]).stdout, out.stdout, "{p}: auto");
        let frames = frames_of(&std::fs::read(path).unwrap());
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), frames.len(), "{p}");
        for (line, frame) in lines.iter().zip(&frames) {
            let got: J = serde_json::from_str(line).unwrap();
            if frame.data() == "[DONE]" {
                continue;
            }
            let src: J = serde_json::from_str(frame.data()).unwrap();
            subset(&got, &src, "", &mut values).unwrap_or_else(|e| panic!("{p}: {e}"));
        }
    }
    assert!(values > 200, "{values}");
}

/// Input with no event says so (exit 0), and `--strict` makes that, a
/// truncated tail and an undecodable event exit status 1 (issue 15).
#[test]
fn no_events_hint_and_strict() {
    let random: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let noise: Vec<u8> = random
        .iter()
        .map(|&b| if b == b'\n' || b == b'\r' { b'x' } else { b })
        .collect();
    for command in ["frames", "events"] {
        let out = cli::run_stdin(&[command], &noise);
        assert_eq!(out.status.code(), Some(0), "{command}");
        assert!(
            cli::stderr(&out).contains("no SSE events found"),
            "{command}"
        );
        let out = cli::run_stdin(&[command, "--strict"], &noise);
        assert_eq!(out.status.code(), Some(1), "{command} --strict");
        // A whole stream passes; one cut inside an event does not.
        let out = run(&[command, "--strict", SAMPLE]);
        assert_eq!(out.status.code(), Some(0), "{command} --strict sample");
        let whole = std::fs::read(SAMPLE).unwrap();
        let cut = &whole[..whole.len() - 5];
        let out = cli::run_stdin(&[command, "--strict"], cut);
        assert_eq!(out.status.code(), Some(1), "{command} --strict cut");
        let out = cli::run_stdin(&[command], cut);
        assert_eq!(out.status.code(), Some(0), "{command} cut");
    }
    let bad = b"data: {\"type\":\"response.output_text.delta\",\"delta\":7}\n\n";
    let out = cli::run_stdin(&["events", "--strict", "--dialect", "responses"], bad);
    assert_eq!(out.status.code(), Some(1));
    let out = cli::run_stdin(&["events", "--dialect", "responses"], bad);
    assert_eq!(out.status.code(), Some(0));
}

/// Issue 14: an Anthropic event that does not fit its type (it decodes to
/// `Unknown` with an error) prints as undecodable, with a warning, as a
/// Responses one does; an unknown type prints as unknown.
#[test]
fn events_prints_anthropic_events_that_do_not_fit_as_undecodable() {
    let input = concat!(
        "event: content_block_stop\n",
        "data: {\"type\":\"content_block_stop\",\"index\":\"0\"}\n\n",
        "event: message_paused\n",
        "data: {\"type\":\"message_paused\"}\n\n",
        "event: message_stop\n",
        "data: {\"type\":\"message_stop\"}\n\n",
    );
    let out = run_stdin(&["events", "--dialect", "anthropic"], input.as_bytes());
    let got: Vec<J> = stdout_lines(&out)
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0]["type"], "content_block_stop");
    assert_eq!(got[0]["undecodable"], true);
    assert_eq!(got[0]["offset"], 0);
    assert!(
        got[0]["error"].as_str().unwrap().contains("index"),
        "{}",
        got[0]
    );
    assert_eq!(
        got[1],
        serde_json::json!({"type": "message_paused", "unknown": true})
    );
    assert_eq!(got[2], serde_json::json!({"type": "message_stop"}));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.contains("warning")).count(),
        1,
        "{stderr}"
    );
}

/// Every command, as `ssekit --help` lists them.
const COMMANDS: [&str; 6] = ["frames", "events", "encode", "assemble", "lint", "bridge"];

/// The help of `command`, as `ssekit <command> --help` prints it.
fn command_help(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    assert!(out.stderr.is_empty(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// `ssekit <command> --help` prints that command's own help: its usage line,
/// each of its options, and an example; `-h`, `help <command>` and `--help`
/// among other arguments print the same; no two commands print the same.
#[test]
fn each_command_has_its_own_help() {
    let options: [&[&str]; 6] = [
        &["--strict", "--chunk N"],
        &["--dialect D", "--strict", "--chunk N"],
        &[],
        &["--dialect D", "--as D", "--chunk N"],
        &["--json", "--chunk N"],
        &["--to T", "--from D", "--chunk N"],
    ];
    let mut seen = Vec::new();
    for (command, options) in COMMANDS.into_iter().zip(options) {
        let text = command_help(&[command, "--help"]);
        assert!(
            text.starts_with(&format!("usage: ssekit {command} ")),
            "{command}: {text}"
        );
        for section in ["\noptions:\n", "\nexample:\n", "\nExit status: "] {
            assert!(text.contains(section), "{command}: no {section:?}");
        }
        for option in options.iter().chain(&["-h, --help"]) {
            assert!(
                text.contains(&format!("\n  {option} ")),
                "{command}: {option}"
            );
        }
        // Only this command: no other command's usage or example.
        for other in COMMANDS.iter().filter(|c| **c != command) {
            assert!(
                !text.contains(&format!("usage: ssekit {other}")),
                "{command}: {other}"
            );
        }
        let example = text.split("\nexample:\n").nth(1).unwrap();
        assert!(example.contains(&format!("ssekit {command}")), "{command}");
        assert_eq!(command_help(&[command, "-h"]), text, "{command}");
        assert_eq!(command_help(&["help", command]), text, "{command}");
        assert_eq!(
            command_help(&[command, "-", "--chunk", "4", "--help"]),
            text,
            "{command}"
        );
        assert!(!seen.contains(&text), "{command}: the same help as another");
        seen.push(text);
    }
    // A command that does not exist has no help: a usage error.
    for args in [&["nope", "--help"][..], &["help", "nope"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains("unknown command 'nope'"), "{args:?}");
    }
}

/// The examples in each command's help run as printed, from the
/// repository, on the sample it ships (the `curl` ones need a server, and
/// are left out): each exits 0 and prints something.
#[test]
fn the_examples_in_the_help_run() {
    for command in COMMANDS {
        let text = command_help(&[command, "--help"]);
        let example = text.split("\nexample:\n").nth(1).unwrap();
        let lines: Vec<&str> = example
            .lines()
            .take_while(|l| l.starts_with("  "))
            .filter(|l| !l.contains("curl"))
            .collect();
        assert!(!lines.is_empty(), "{command}: no example runs here");
        for line in lines {
            let mut input: Option<Vec<u8>> = None;
            for stage in line.split('|') {
                let words: Vec<&str> = stage.split_whitespace().collect();
                assert_eq!(words[0], "ssekit", "{command}: {line}");
                let mut child = std::process::Command::new(BIN);
                child.args(&words[1..]).current_dir(REPO);
                let out = match input.take() {
                    None => child.output().unwrap(),
                    Some(bytes) => {
                        let mut child = child
                            .stdin(std::process::Stdio::piped())
                            .stdout(std::process::Stdio::piped())
                            .stderr(std::process::Stdio::piped())
                            .spawn()
                            .unwrap();
                        let mut stdin = child.stdin.take().unwrap();
                        let writer = std::thread::spawn(move || {
                            use std::io::Write;
                            let _ = stdin.write_all(&bytes);
                        });
                        let out = child.wait_with_output().unwrap();
                        writer.join().unwrap();
                        out
                    }
                };
                assert_eq!(out.status.code(), Some(0), "{line}: {}", stderr(&out));
                assert!(!out.stdout.is_empty(), "{line}");
                input = Some(out.stdout);
            }
        }
    }
}
