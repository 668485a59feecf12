//! `ssekit bridge`: what the library's bridge writes, the upstream's dialect
//! detected, and the CLI's exit statuses.

use ssekit::bridge::{Bridge, BytesBridge, ChatToResponses, ResponsesToChat};
use ssekit::lint::{lint_bytes, ResponsesLinter};
use ssekit::{Bytes, Parser};

use crate::cli;

/// A Chat chunk with this delta (and finish reason).
fn chat(delta: &str, finish: Option<&str>) -> String {
    let finish = finish.map_or("null".to_owned(), |f| format!("\"{f}\""));
    format!(
        "data: {{\"id\":\"c1\",\"model\":\"m\",\"created\":1,\"choices\":[{{\"index\":0,\"delta\":{delta},\"finish_reason\":{finish}}}]}}\n\n"
    )
}

/// What the library's bridge writes for `body`, fed whole (the upstream's
/// SSE comments become keep-alives of the target).
fn library<B: Bridge>(b: B, body: &[u8]) -> Vec<u8> {
    let mut bridge = BytesBridge::new(b);
    bridge.feed(Bytes::copy_from_slice(body)).unwrap();
    bridge.finish().unwrap();
    bridge.take().to_vec()
}

/// The event names of an SSE stream, in order.
fn event_names(body: &[u8]) -> Vec<String> {
    let mut parser = Parser::new();
    parser.feed(Bytes::copy_from_slice(body));
    let mut names = Vec::new();
    while let Some(frame) = parser.next_frame().unwrap() {
        names.push(frame.event().to_owned());
    }
    parser.finish().unwrap();
    names
}

#[test]
fn bridge_writes_what_the_library_writes() {
    let body = chat(r#"{"content":"Hi"}"#, Some("stop")) + "data: [DONE]\n\n";
    let want = library(ChatToResponses::new(), body.as_bytes());
    for args in [
        &["bridge", "--to", "responses"][..],
        &[
            "bridge",
            "--to",
            "responses",
            "--from",
            "chat",
            "--chunk",
            "3",
        ],
        &["bridge", "--from", "auto", "--to", "responses", "-"],
    ] {
        let out = cli::run_stdin(args, body.as_bytes());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            cli::stderr(&out)
        );
        assert!(out.stdout == want, "{args:?}");
    }
    // Responses to Chat, on the sample the repository ships.
    let out = cli::run(&["bridge", "--to", "chat", cli::SAMPLE]);
    assert_eq!(out.status.code(), Some(0), "{}", cli::stderr(&out));
    let want = library(ResponsesToChat::new(), &std::fs::read(cli::SAMPLE).unwrap());
    assert!(out.stdout == want);
    assert!(out.stdout.ends_with(b"data: [DONE]\n\n"));
}

#[test]
fn bridge_of_a_cut_upstream_ends_failed_with_status_1() {
    let cut = chat(r#"{"content":"Hi"}"#, None);
    let out = cli::run_stdin(&["bridge", "--to", "responses"], cut.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    // A well-formed failed end: no error finding, one response.failed, last.
    let errors: Vec<String> = lint_bytes(ResponsesLinter::new(), &out.stdout)
        .iter()
        .filter(|f| f.is_error())
        .map(|f| f.to_string())
        .collect();
    assert_eq!(errors, Vec::<String>::new());
    let names = event_names(&out.stdout);
    assert_eq!(
        names.iter().filter(|n| *n == "response.failed").count(),
        1,
        "{names:?}"
    );
    assert_eq!(names.last().map(String::as_str), Some("response.failed"));
    assert!(
        cli::stderr(&out).contains("upstream ended before its end event"),
        "{}",
        cli::stderr(&out)
    );
}

#[test]
fn bridge_usage_errors_exit_2() {
    let body = chat(r#"{"content":"Hi"}"#, Some("stop")) + "data: [DONE]\n\n";
    for (args, message) in [
        (&["bridge"][..], "bridge needs --to"),
        (
            &["bridge", "--to", "xml"],
            "--to takes responses, chat, anthropic or gemini",
        ),
        (
            &["bridge", "--to", "chat", "--from", "morse"],
            "--from takes",
        ),
    ] {
        let out = cli::run_stdin(args, body.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            cli::stderr(&out).contains(message),
            "{args:?}: {}",
            cli::stderr(&out)
        );
    }
}

/// Every target dialect, from the shipped Responses sample: what the
/// library writes, and the target's own shape (checked with serde_json).
#[test]
fn bridge_writes_every_dialect() {
    use ssekit::turn::Dialect;
    let sample = std::fs::read(cli::SAMPLE).unwrap();
    for (name, to) in [
        ("responses", Dialect::Responses),
        ("chat", Dialect::Chat),
        ("anthropic", Dialect::Anthropic),
        ("gemini", Dialect::Gemini),
    ] {
        let out = cli::run(&["bridge", "--to", name, cli::SAMPLE]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", cli::stderr(&out));
        let want = library(
            ssekit::bridge::translate(Dialect::Responses, to, &Default::default()),
            &sample,
        );
        assert!(out.stdout == want, "{name}");
        let names = event_names(&out.stdout);
        let mut parser = Parser::new();
        parser.feed(Bytes::copy_from_slice(&out.stdout));
        let mut data = Vec::new();
        while let Some(frame) = parser.next_frame().unwrap() {
            data.push(frame.data().to_owned());
        }
        let json: Vec<serde_json::Value> = data
            .iter()
            .filter(|d| *d != "[DONE]")
            .map(|d| serde_json::from_str(d).unwrap_or_else(|e| panic!("{name}: {e}: {d}")))
            .collect();
        match to {
            Dialect::Anthropic => {
                assert_eq!(names.first().map(String::as_str), Some("message_start"));
                assert_eq!(names.last().map(String::as_str), Some("message_stop"));
            }
            Dialect::Gemini => {
                let last = json.last().expect("a chunk");
                assert_eq!(last["candidates"][0]["finishReason"], "STOP", "{name}");
            }
            Dialect::Chat => assert_eq!(data.last().map(String::as_str), Some("[DONE]")),
            _ => assert_eq!(names.last().map(String::as_str), Some("response.completed")),
        }
    }
}

/// Frames that never tell the dialect are kept only up to the bytes `lint`
/// sniffs: then the bridge stops and asks for --from.
#[test]
fn bridge_stops_waiting_for_the_dialect_after_a_bound() {
    let body = "data: 1\n\n".repeat(150_000); // 1.35 MB, no dialect named
    let out = cli::run_stdin(&["bridge", "--to", "chat"], body.as_bytes());
    assert_eq!(out.status.code(), Some(1), "{}", cli::stderr(&out));
    assert!(
        cli::stderr(&out).contains("give it with --from"),
        "{}",
        cli::stderr(&out)
    );
    assert!(out.stdout.is_empty());
}
