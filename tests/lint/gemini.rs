//! The Gemini linter: every recorded Gemini stream and every hand-written
//! one in `tests/data/gemini` lints with no finding (but the cut one, which
//! is cut on purpose), and each Gemini rule fires on a stream broken to
//! break it, at the offset where the broken event's block begins, counted
//! here from the lengths of the blocks before it.

use crate::corpus;

use ssekit::lint::{lint_bytes, linter_for, Finding, GeminiLinter, LintConfig, Rule, Severity};
use ssekit::Dialect;

fn rules(findings: &[Finding]) -> Vec<(Rule, u64)> {
    findings.iter().map(|f| (f.rule(), f.offset())).collect()
}

fn lint(stream: &str) -> Vec<Finding> {
    lint_bytes(GeminiLinter::new(), stream.as_bytes())
}

/// `data: <json>` blocks with CRLF line endings, as the API sends them.
fn gemini(chunks: &[&str]) -> String {
    chunks
        .iter()
        .map(|c| format!("data: {c}\r\n\r\n"))
        .collect()
}

/// The offset of block `i` of `chunks`: the length of the blocks before it.
fn at(chunks: &[&str], i: usize) -> u64 {
    gemini(&chunks[..i]).len() as u64
}

const USAGE: &str =
    r#""usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"totalTokenCount":6}"#;

fn text(t: &str) -> String {
    format!(
        r#"{{"candidates":[{{"content":{{"parts":[{{"text":"{t}"}}],"role":"model"}}}}],{USAGE}}}"#
    )
}

fn stop(t: &str) -> String {
    format!(
        r#"{{"candidates":[{{"content":{{"parts":[{{"text":"{t}"}}],"role":"model"}},"finishReason":"STOP"}}],{USAGE}}}"#
    )
}

fn call(call: &str) -> String {
    format!(
        r#"{{"candidates":[{{"content":{{"parts":[{call}],"role":"model"}},"finishReason":"STOP"}}],{USAGE}}}"#
    )
}

#[test]
fn gemini_streams_lint_with_no_finding() {
    let mut linted = Vec::new();
    if let Some(dir) = corpus::corpus_dir() {
        for (name, bytes) in corpus::sse_files(&dir) {
            if name.contains("-gemini-") {
                linted.push((name, bytes));
            }
        }
        assert!(!linted.is_empty(), "no Gemini stream in the corpus");
    }
    let recorded = linted.len();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gemini");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sse") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            linted.push((name, std::fs::read(&path).unwrap()));
        }
    }
    let mut findings = 0;
    for (name, bytes) in &linted {
        let found = lint_bytes(GeminiLinter::new(), bytes);
        // The same through the run-time choice of a linter.
        let boxed = lint_bytes(linter_for(Dialect::Gemini, LintConfig::DEFAULT), bytes);
        assert_eq!(found, boxed, "{name}");
        let want = if name == "cut.sse" {
            // Cut on purpose, after two chunks without a finish reason.
            vec![(Rule::MissingFinishReason, bytes.len() as u64)]
        } else {
            vec![]
        };
        assert_eq!(rules(&found), want, "{name}: {found:?}");
        findings += found.len();
    }
    eprintln!(
        "linted {} Gemini streams ({recorded} recorded, {} hand-written): {findings} finding(s)",
        linted.len(),
        linted.len() - recorded
    );
    assert!(linted.len() >= 9, "{}", linted.len());
}

/// The recorded stream, its last chunk (the one with the `finishReason`)
/// dropped: cut. Offsets found by searching the raw bytes.
#[test]
fn a_recorded_stream_cut_or_broken_is_found_where_it_breaks() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let path = dir.join("pydanticai-gemini-crlf.sse");
    let Ok(whole) = std::fs::read_to_string(&path) else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{} missing, and CI=true",
            path.display()
        );
        corpus::skip_notice(&format!("{} not found", path.display()));
        return;
    };
    // Block starts: 0 and after each blank line.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(whole.match_indices("\r\n\r\n").map(|(i, _)| i + 4))
        .filter(|&i| i < whole.len())
        .collect();
    assert_eq!(starts.len(), 3, "three chunks");

    let cut = &whole[..starts[2]];
    assert_eq!(
        rules(&lint(cut)),
        [(Rule::MissingFinishReason, cut.len() as u64)]
    );

    // Text after the candidate's finish reason: the finished chunk again.
    let last = &whole[starts[2]..];
    let again = format!("{whole}{}", last.replace("is Paris.", "is Lyon."));
    let found = lint(&again);
    assert_eq!(
        rules(&found),
        [(Rule::EventAfterItemDone, whole.len() as u64)]
    );
    assert_eq!(found[0].severity(), Severity::Warning);

    // No usage anywhere.
    let mut bare = String::new();
    for (i, &s) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(whole.len());
        let block = &whole[s..end];
        let from = block.find(",\"usageMetadata\"").unwrap();
        let to = block.find(",\"modelVersion\"").unwrap();
        bare.push_str(&block[..from]);
        bare.push_str(&block[to..]);
    }
    assert_eq!(
        rules(&lint(&bare)),
        [(Rule::MissingUsage, bare.len() as u64)]
    );
}

#[test]
fn each_gemini_rule_fires_at_its_event() {
    let t = text("Hi");
    let s = stop("!");

    // `[DONE]`: an error for Gemini clients.
    let chunks = [t.as_str(), s.as_str(), "[DONE]"];
    let found = lint(&gemini(&chunks));
    assert_eq!(rules(&found), [(Rule::DoneSentinel, at(&chunks, 2))]);
    assert_eq!(found[0].severity(), Severity::Error);

    // A function call without a name, one whose args are a string
    // fragment, and an id in two parts.
    let nameless = call(r#"{"functionCall":{"args":{"city":"Paris"}}}"#);
    let fragment = call(r#"{"functionCall":{"name":"get_weather","args":"{\"city\":"}}"#);
    let first = text_call(r#"{"functionCall":{"id":"c1","name":"f","args":{}}}"#);
    let twice = call(r#"{"functionCall":{"id":"c1","name":"f","args":{"a":1}}}"#);
    let chunks = [t.as_str(), nameless.as_str()];
    assert_eq!(
        rules(&lint(&gemini(&chunks))),
        [(Rule::FunctionCallWithoutName, at(&chunks, 1))]
    );
    let chunks = [t.as_str(), fragment.as_str()];
    assert_eq!(
        rules(&lint(&gemini(&chunks))),
        [(Rule::InvalidArguments, at(&chunks, 1))]
    );
    let chunks = [t.as_str(), first.as_str(), twice.as_str()];
    assert_eq!(
        rules(&lint(&gemini(&chunks))),
        [(Rule::DuplicateItem, at(&chunks, 2))]
    );

    // Streamed arguments (`partialArgs`, `willContinue`) are not calls
    // without a name.
    let streamed = text_call(
        r#"{"functionCall":{"name":"f","partialArgs":[{"jsonPath":"$.a","stringValue":"x","willContinue":true}],"willContinue":true}}"#,
    );
    let more = call(r#"{"functionCall":{"partialArgs":[{"jsonPath":"$.a","stringValue":"y"}]}}"#);
    assert_eq!(rules(&lint(&gemini(&[&streamed, &more]))), []);
    // Ended by an empty `functionCall`; one with no streamed call open is
    // a call without a name.
    let going = text_call(
        r#"{"functionCall":{"partialArgs":[{"jsonPath":"$.a","stringValue":"y"}],"willContinue":true}}"#,
    );
    let end = call(r#"{"functionCall":{}}"#);
    assert_eq!(rules(&lint(&gemini(&[&streamed, &going, &end]))), []);
    let chunks = [t.as_str(), end.as_str()];
    assert_eq!(
        rules(&lint(&gemini(&chunks))),
        [(Rule::FunctionCallWithoutName, at(&chunks, 1))]
    );

    // A turn that thought, and its first call unsigned.
    let thought = r#"{"candidates":[{"content":{"parts":[{"text":"Plan","thought":true}],"role":"model"}}],"usageMetadata":{"promptTokenCount":4,"totalTokenCount":9,"thoughtsTokenCount":5}}"#;
    let unsigned = call(r#"{"functionCall":{"name":"f","args":{}}}"#);
    let signed = call(r#"{"functionCall":{"name":"f","args":{}},"thoughtSignature":"c2ln"}"#);
    let chunks = [thought, unsigned.as_str()];
    let found = lint(&gemini(&chunks));
    assert_eq!(
        rules(&found),
        [(Rule::MissingThoughtSignature, at(&chunks, 1))]
    );
    assert_eq!(found[0].severity(), Severity::Warning);
    assert_eq!(rules(&lint(&gemini(&[thought, &signed]))), []);
    // Without thinking, an unsigned call is fine.
    assert_eq!(rules(&lint(&gemini(&[&t, &unsigned]))), []);

    // Content after the finish reason, where an earlier chunk had none.
    let chunks = [t.as_str(), s.as_str(), t.as_str(), s.as_str()];
    let found = lint(&gemini(&chunks));
    assert_eq!(rules(&found), [(Rule::EventAfterItemDone, at(&chunks, 2))]);
    // Vertex AI: a finish reason on every chunk, from the first.
    assert_eq!(rules(&lint(&gemini(&[&s, &s, &s]))), []);

    // Error chunks: `error` not first; an incomplete error object; an
    // event after the error.
    let late =
        r#"{"responseId":"r1","error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}"#;
    let bare = r#"{"error":{"message":"overloaded"}}"#;
    let chunks = [t.as_str(), late];
    let found = lint(&gemini(&chunks));
    assert_eq!(rules(&found), [(Rule::ErrorNotFirst, at(&chunks, 1))]);
    let chunks = [t.as_str(), bare, t.as_str()];
    let found = lint(&gemini(&chunks));
    assert_eq!(
        rules(&found),
        [
            (Rule::IncompleteError, at(&chunks, 1)),
            (Rule::EventAfterTerminal, at(&chunks, 2)),
        ]
    );
    assert!(
        found[0].message().contains("`code`, `status`"),
        "{}",
        found[0]
    );
    assert_eq!(found[0].severity(), Severity::Warning);

    // A cut stream, and a second candidate never finished.
    let chunks = [t.as_str()];
    let stream = gemini(&chunks);
    assert_eq!(
        rules(&lint(&stream)),
        [(Rule::MissingFinishReason, stream.len() as u64)]
    );
    let two = r#"{"candidates":[{"content":{"parts":[{"text":"a"}]},"index":0,"finishReason":"STOP"},{"content":{"parts":[{"text":"b"}]},"index":1}],"usageMetadata":{}}"#;
    let stream = gemini(&[two]);
    let found = lint(&stream);
    assert_eq!(
        rules(&found),
        [(Rule::MissingFinishReason, stream.len() as u64)]
    );
    assert!(found[0].message().contains("candidate 1"), "{}", found[0]);

    // Not JSON; a chunk of the wrong shape.
    let chunks = [
        t.as_str(),
        r#"{"candidates": ["#,
        r#"{"candidates":"none"}"#,
        s.as_str(),
    ];
    assert_eq!(
        rules(&lint(&gemini(&chunks))),
        [
            (Rule::InvalidJson, at(&chunks, 1)),
            (Rule::InvalidEvent, at(&chunks, 2)),
        ]
    );
}

/// A chunk with one function-call part and no finish reason.
fn text_call(call: &str) -> String {
    format!(r#"{{"candidates":[{{"content":{{"parts":[{call}],"role":"model"}}}}],{USAGE}}}"#)
}

#[test]
fn tracked_candidates_and_ids_are_capped() {
    let mut chunks = Vec::new();
    for i in 0..5 {
        chunks.push(format!(
            r#"{{"candidates":[{{"content":{{"parts":[{{"functionCall":{{"id":"c{i}","name":"f","args":{{}}}}}}]}},"index":{i},"finishReason":"STOP"}}],{USAGE}}}"#
        ));
    }
    let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
    let stream = gemini(&refs);
    let found = lint_bytes(
        GeminiLinter::with_config(LintConfig::DEFAULT.with_max_items(3)),
        stream.as_bytes(),
    );
    assert_eq!(rules(&found), [(Rule::LimitReached, at(&refs, 3))]);
    let found = lint_bytes(
        GeminiLinter::with_config(LintConfig::DEFAULT.with_max_parts(2)),
        stream.as_bytes(),
    );
    assert_eq!(rules(&found), [(Rule::LimitReached, at(&refs, 2))]);
}

/// The same findings however the stream is chunked (every Gemini stream
/// here, a byte at a time and in chunks of 7), broken ones included.
#[test]
fn findings_do_not_depend_on_chunking() {
    use ssekit::lint::StreamLinter;
    use ssekit::{Bytes, ParserConfig};

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gemini");
    let mut streams: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sse"))
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let t = text("Hi");
    let bare = r#"{"error":{"message":"overloaded"}}"#;
    streams.push(gemini(&[&t, "[DONE]", bare, &t]).into_bytes());
    for bytes in &streams {
        let whole = lint_bytes(GeminiLinter::new(), bytes);
        for n in [1, 7] {
            let mut linter = StreamLinter::with_linter(ParserConfig::DEFAULT, GeminiLinter::new());
            for chunk in bytes.chunks(n) {
                linter.feed(Bytes::copy_from_slice(chunk));
            }
            linter.finish();
            let split: Vec<Finding> = linter.drain().collect();
            assert_eq!(split, whole, "chunks of {n}");
        }
    }
}

/// What the Gemini writer writes lints without errors: every corpus and
/// hand-written stream, of any dialect, bridged to Gemini (a stream the
/// upstream cut or failed ends with the writer's error chunk).
#[test]
fn streams_bridged_to_gemini_lint_without_errors() {
    use ssekit::bridge::{boxed, BridgeConfig};
    use ssekit::{Bytes, Parser};

    let mut files = Vec::new();
    if let Some(dir) = corpus::corpus_dir() {
        files.extend(corpus::sse_files(&dir));
    }
    for sub in ["chat", "gemini"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(sub);
        files.extend(corpus::sse_files(&dir));
    }
    let mut warnings = std::collections::BTreeMap::new();
    let mut bridged = 0;
    for (name, bytes) in &files {
        let mut parser = Parser::new();
        parser.feed(Bytes::copy_from_slice(bytes));
        let _ = parser.finish();
        let mut frames = Vec::new();
        while let Ok(Some(frame)) = parser.next_frame() {
            frames.push(frame);
        }
        let Some(from) = frames.iter().find_map(Dialect::detect) else {
            continue;
        };
        let mut bridge = boxed(from, Dialect::Gemini, &BridgeConfig::default());
        let mut out = Vec::new();
        for frame in &frames {
            if bridge.is_finished() {
                break;
            }
            let _ = bridge.push_frame(frame);
            out.extend_from_slice(&bridge.take());
        }
        let _ = bridge.finish();
        out.extend_from_slice(&bridge.take());
        let found = lint_bytes(GeminiLinter::new(), &out);
        let errors: Vec<String> = found
            .iter()
            .filter(|f| f.is_error())
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            errors,
            Vec::<String>::new(),
            "{name} ({from}) bridged to Gemini:\n{}",
            String::from_utf8_lossy(&out)
        );
        for f in &found {
            eprintln!("{name} ({from}): {f}");
            *warnings.entry(f.rule().id()).or_insert(0) += 1;
        }
        bridged += 1;
    }
    eprintln!("bridged {bridged} streams to Gemini; findings below error: {warnings:?}");
    assert!(bridged >= 9);
}
