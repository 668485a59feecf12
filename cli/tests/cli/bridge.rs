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

/// What the library's bridge writes for `body`, fed whole.
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
fn bridge_usage_errors_and_untranslated_pairs_exit_2() {
    let body = chat(r#"{"content":"Hi"}"#, Some("stop")) + "data: [DONE]\n\n";
    for (args, message) in [
        (&["bridge"][..], "bridge needs --to"),
        (&["bridge", "--to", "xml"], "--to takes responses or chat"),
        (
            &["bridge", "--to", "chat", "--from", "morse"],
            "--from takes",
        ),
        (
            &["bridge", "--to", "responses", cli::SAMPLE],
            "this is an OpenAI Responses stream",
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
