//! Limits: body bytes, nesting depth (checked on the bytes before parsing),
//! array lengths; a million messages handled in linear time.

use std::time::{Duration, Instant};

use ssekit::request::{translate, RequestConfig, RequestErrorKind, Source};
use ssekit::turn::Dialect;

fn chat_body(n: usize) -> String {
    let mut s = String::with_capacity(n * 32 + 32);
    s.push_str(r#"{"model":"m","messages":["#);
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(r#"{"role":"user","content":"x"}"#);
    }
    s.push_str("]}");
    s
}

#[test]
fn body_size_limit() {
    let body = chat_body(10);
    let config = RequestConfig::default().with_max_body_bytes(body.len() - 1);
    let e = translate(body.as_bytes(), Source::Chat, Dialect::Anthropic, &config).unwrap_err();
    assert_eq!(e.kind, RequestErrorKind::TooLarge);
    let config = RequestConfig::default().with_max_body_bytes(body.len());
    assert!(translate(body.as_bytes(), Source::Chat, Dialect::Anthropic, &config).is_ok());
}

#[test]
fn depth_is_checked_on_the_bytes_first() {
    // 100 nested arrays inside a tool schema: past the limit of 64 before any
    // parsing; the offset is that of the 65th opening bracket.
    let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
    let body = format!(r#"{{"model":"m","messages":[],"x":"[[[[{{{{","y":{deep}}}"#);
    let e = translate(
        body.as_bytes(),
        Source::Chat,
        Dialect::Responses,
        &RequestConfig::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, RequestErrorKind::TooDeep);
    // Brackets inside the string do not count: the body's own `{`, the
    // messages' `[` (closed), then `"y":` and 63 more.
    let y = body.find(r#""y":"#).unwrap() + 4;
    assert_eq!(e.offset, Some(y + 63));
    // Within the limit, the same shape parses (and the unknown field is listed).
    let ok = format!(
        r#"{{"model":"m","messages":[],"y":{}{}}}"#,
        "[".repeat(60),
        "]".repeat(60)
    );
    let t = translate(
        ok.as_bytes(),
        Source::Chat,
        Dialect::Responses,
        &RequestConfig::default(),
    )
    .unwrap();
    assert_eq!(t.not_carried[0].path, "/y");
    // Escaped quotes inside strings do not end them.
    let tricky = format!(
        r#"{{"model":"m","messages":[],"y":"\"{}"}}"#,
        "[".repeat(200)
    );
    assert!(translate(
        tricky.as_bytes(),
        Source::Chat,
        Dialect::Responses,
        &RequestConfig::default()
    )
    .is_ok());
}

#[test]
fn array_length_limit() {
    let body = chat_body(11);
    let config = RequestConfig::default().with_max_items(10);
    let e = translate(body.as_bytes(), Source::Chat, Dialect::Gemini, &config).unwrap_err();
    assert_eq!(
        (e.kind, e.path.as_str()),
        (RequestErrorKind::TooManyItems, "/messages")
    );
}

#[test]
fn a_million_messages() {
    let body = chat_body(1_000_000);
    // The defaults refuse it at once, by size.
    let start = Instant::now();
    let e = translate(
        body.as_bytes(),
        Source::Chat,
        Dialect::Responses,
        &RequestConfig::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, RequestErrorKind::TooLarge);
    assert!(start.elapsed() < Duration::from_millis(100));
    // With room for the bytes, by length.
    let roomy = RequestConfig::default().with_max_body_bytes(64 << 20);
    let e = translate(body.as_bytes(), Source::Chat, Dialect::Responses, &roomy).unwrap_err();
    assert_eq!(
        (e.kind, e.path.as_str()),
        (RequestErrorKind::TooManyItems, "/messages")
    );
    // With room for both, it translates, in linear time (a generous bound
    // for unoptimised builds on a shared machine).
    let start = Instant::now();
    let t = translate(
        body.as_bytes(),
        Source::Chat,
        Dialect::Anthropic,
        &roomy.with_max_items(1_000_000),
    )
    .unwrap();
    let took = start.elapsed();
    // Consecutive user messages merge into one turn.
    assert_eq!(t.body["messages"].as_array().unwrap().len(), 1);
    assert_eq!(
        t.body["messages"][0]["content"].as_array().unwrap().len(),
        1_000_000
    );
    assert!(took < Duration::from_secs(60), "{took:?}");
    eprintln!("a million messages, Chat -> Anthropic: {took:?}");
}

#[test]
fn many_calls_and_results_cost_n_log_n() {
    // 100,000 calls in one assistant message, then their results in reverse
    // order: a scan per result would be 5 * 10^9 comparisons.
    let n = 100_000;
    let mut s = String::from(r#"{"model":"m","messages":[{"role":"assistant","tool_calls":["#);
    for i in 0..n {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            r#"{{"id":"c{i}","type":"function","function":{{"name":"f","arguments":"{{}}"}}}}"#
        ));
    }
    s.push_str("]}");
    for i in (0..n).rev() {
        s.push_str(&format!(
            r#",{{"role":"tool","tool_call_id":"c{i}","content":"r"}}"#
        ));
    }
    s.push_str("]}");
    let config = RequestConfig::default().with_max_items(2 * n);
    let start = Instant::now();
    let t = translate(s.as_bytes(), Source::Chat, Dialect::Gemini, &config).unwrap();
    let took = start.elapsed();
    let parts = t.body["contents"][1]["parts"].as_array().unwrap();
    assert_eq!(parts.len(), n);
    assert_eq!(parts[0]["functionResponse"]["id"], format!("c{}", n - 1));
    assert!(took < Duration::from_secs(30), "{took:?}");
    eprintln!("100,000 calls and results, Chat -> Gemini: {took:?}");
}
