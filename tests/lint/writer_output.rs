//! What `responses::writer::ResponsesWriter` writes lints clean with `ssekit::lint`
//! (issue 5: "its output for a text answer, a function call and a reasoning
//! summary lints clean"), whole and in small chunks; and the same linter
//! flags the writer's output once any one event is taken out, so a clean
//! result means something.

use ssekit::lint::{self, Finding, Severity, StreamLinter};
use ssekit::responses::writer::{ResponsesWriter, TokenUsage};
use ssekit::Bytes;

/// A reasoning summary, a function call and a text answer, with escapes,
/// control characters and non-ASCII in every text.
fn full_stream() -> Bytes {
    let mut w = ResponsesWriter::new("resp_1", "gpt-test", 1_767_225_600);
    w.start_reasoning("rs_1").unwrap();
    w.summary_delta("Thinking about \"the\" user…").unwrap();
    w.summary_delta(" step 2\n").unwrap();
    w.start_summary_part().unwrap();
    w.summary_delta("second part 🚀").unwrap();
    w.finish_reasoning().unwrap();
    w.start_function_call("fc_1", "call_1", "get_weather")
        .unwrap();
    for part in ["{\"loc", "ation\": \"Par", "is\\n\", \"u\": \"°C\"}"] {
        w.arguments_delta(part).unwrap();
    }
    w.finish_function_call().unwrap();
    w.keep_alive();
    w.start_message("msg_1").unwrap();
    for part in ["Hel", "lo \\ \"wor", "ld\"\t\u{1}", " — café"] {
        w.text_delta(part).unwrap();
    }
    w.heartbeat().unwrap();
    w.finish_message().unwrap();
    w.set_usage(TokenUsage::new(10, 20).with_reasoning_tokens(5));
    w.complete().unwrap();
    w.take()
}

fn problems(findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .filter(|f| f.severity() > Severity::Info)
        .map(|f| f.to_string())
        .collect()
}

#[test]
fn each_kind_of_answer_lints_clean() {
    type Build = fn(&mut ResponsesWriter);
    let cases: [(&str, Build); 4] = [
        ("text", |w| {
            w.start_message("msg_1").unwrap();
            w.text_delta("Hello").unwrap();
            w.text_delta(", world").unwrap();
            w.complete().unwrap();
        }),
        ("function call", |w| {
            w.start_function_call("fc_1", "call_1", "f").unwrap();
            w.arguments_delta("{\"a\":").unwrap();
            w.arguments_delta("1}").unwrap();
            w.complete().unwrap();
        }),
        ("reasoning summary", |w| {
            w.start_reasoning("rs_1").unwrap();
            w.summary_delta("Because").unwrap();
            w.complete().unwrap();
        }),
        ("incomplete", |w| {
            w.start_message("msg_1").unwrap();
            w.text_delta("cut").unwrap();
            w.incomplete("max_output_tokens").unwrap();
        }),
    ];
    for (name, build) in cases {
        let mut w = ResponsesWriter::new("resp_1", "m", 1);
        build(&mut w);
        let findings = lint::lint_bytes(lint::ResponsesLinter::new(), &w.take());
        assert_eq!(problems(&findings), Vec::<String>::new(), "{name}");
    }
}

#[test]
fn a_full_stream_lints_clean_whole_and_chunked() {
    let wire = full_stream();
    let findings = lint::lint_bytes(lint::ResponsesLinter::new(), &wire);
    assert!(!lint::has_errors(&findings));
    // Not even a warning or an info: the writer's output is what clients expect.
    assert_eq!(
        findings.iter().map(|f| f.to_string()).collect::<Vec<_>>(),
        Vec::<String>::new()
    );
    for size in [1, 7, 64] {
        let mut linter = StreamLinter::new();
        for chunk in wire.chunks(size) {
            linter.feed(Bytes::copy_from_slice(chunk));
        }
        linter.finish();
        let chunked: Vec<Finding> = linter.drain().collect();
        assert!(chunked.is_empty(), "chunks of {size}: {chunked:?}");
    }
}

#[test]
fn the_linter_flags_the_writer_output_once_an_event_is_removed() {
    let wire = full_stream();
    let text = std::str::from_utf8(&wire).unwrap();
    let blocks: Vec<&str> = text.split_inclusive("\n\n").collect();
    let mut flagged = 0;
    for (i, block) in blocks.iter().enumerate() {
        if !block.starts_with("event: ") {
            continue; // the keep-alive comment: removing it changes nothing
        }
        let cut: String = blocks
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, b)| *b)
            .collect();
        let findings = lint::lint_bytes(lint::ResponsesLinter::new(), cut.as_bytes());
        // Every event carries a sequence number, so removing any one of them
        // is seen, at least as a gap.
        assert!(
            !problems(&findings).is_empty(),
            "removing block {i} went unnoticed: {block}"
        );
        flagged += 1;
    }
    assert!(flagged > 20, "{flagged}");
}
