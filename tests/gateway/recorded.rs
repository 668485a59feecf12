//! Recorded streams of each dialect, served by the scripted upstream, asked
//! for by a client of each dialect, streaming and not: the client gets the
//! upstream's text and tool calls (names and arguments), and the upstream
//! gets a request in its own dialect with its own key.

use std::time::Duration;

use serde_json::Value as J;
use ssekit::turn::Dialect;

use crate::upstream::{Script, Seen, Upstream};
use crate::{client_request, gateway, http, read_all, run, wire, CLIENT_KEY, UPSTREAM_KEY};

/// One recorded stream per upstream dialect (two for Chat), from the corpus.
const RECORDED: &[(Dialect, &str)] = &[
    (Dialect::Chat, "openaipython-chat-multiple-tool-calls.sse"),
    (
        Dialect::Chat,
        "pydanticai-chat-deepseek-reasoning-emoji.sse",
    ),
    (
        Dialect::Responses,
        "openaidotnet-responses-function-call.sse",
    ),
    (Dialect::Responses, "openaidotnet-responses-hello-text.sse"),
    (Dialect::Anthropic, "openllmetry-anthropic-tool-use.sse"),
    (Dialect::Anthropic, "pydanticai-anthropic-thinking.sse"),
    (Dialect::Gemini, "pydanticai-gemini-crlf.sse"),
];

const QUESTION: &str = "What is the weather in Paris? \"quoted\" ✓";

/// Checks the path, the headers and the stream flags of a request the
/// upstream of `dialect` got: its own key in its own header, never the
/// client's; always a stream.
pub(crate) fn check_headers(dialect: Dialect, seen: &Seen) {
    let b = &seen.body;
    let h = |name: &str| seen.headers.get(name).and_then(|v| v.to_str().ok());
    for (name, value) in &seen.headers {
        let value = value.to_str().unwrap_or("");
        assert!(
            !value.contains(CLIENT_KEY),
            "the client's key reached the upstream in {name}"
        );
    }
    let bearer = format!("Bearer {UPSTREAM_KEY}");
    match dialect {
        Dialect::Chat => {
            assert_eq!(seen.path, "/v1/chat/completions");
            assert_eq!(h("authorization"), Some(&*bearer));
            assert_eq!(b["stream"], true);
            assert_eq!(b["stream_options"]["include_usage"], true);
        }
        Dialect::Anthropic => {
            assert_eq!(seen.path, "/v1/messages");
            assert_eq!(h("x-api-key"), Some(UPSTREAM_KEY));
            assert_eq!(h("anthropic-version"), Some("2023-06-01"));
            assert_eq!(h("authorization"), None);
            assert_eq!(b["stream"], true);
            assert!(b["max_tokens"].as_u64().is_some_and(|n| n > 0));
        }
        Dialect::Gemini => {
            assert!(
                seen.path.ends_with(":streamGenerateContent?alt=sse"),
                "{}",
                seen.path
            );
            assert!(seen.path.starts_with("/v1beta/models/"), "{}", seen.path);
            assert_eq!(h("x-goog-api-key"), Some(UPSTREAM_KEY));
            assert_eq!(h("authorization"), None);
        }
        _ => {
            assert_eq!(seen.path, "/v1/responses");
            assert_eq!(h("authorization"), Some(&*bearer));
            assert_eq!(b["stream"], true);
        }
    }
}

/// Checks, field by field, the request the upstream of `dialect` got for a
/// client's `QUESTION` (asked with `stream` or not: the upstream is always
/// asked for a stream).
pub(crate) fn check_request(dialect: Dialect, seen: &Seen) {
    check_headers(dialect, seen);
    let b = &seen.body;
    let text = |v: &J| match v {
        J::String(s) => s.clone(),
        other => other[0]["text"].as_str().unwrap_or("").to_owned(),
    };
    let question = match dialect {
        Dialect::Chat => {
            let last = b["messages"]
                .as_array()
                .and_then(|m| m.last())
                .expect("messages");
            assert_eq!(last["role"], "user");
            text(&last["content"])
        }
        Dialect::Anthropic => {
            assert_eq!(b["messages"][0]["role"], "user");
            text(&b["messages"][0]["content"])
        }
        Dialect::Gemini => {
            assert_eq!(b["contents"][0]["role"], "user");
            text(&b["contents"][0]["parts"])
        }
        _ => match &b["input"] {
            J::String(s) => s.clone(),
            other => text(&other[0]["content"]),
        },
    };
    assert_eq!(question, QUESTION);
}

/// The names and arguments of `calls` (ids differ between dialects).
fn named(calls: &[wire::Call]) -> Vec<(String, J)> {
    calls
        .iter()
        .map(|c| (c.name.clone(), c.args.clone()))
        .collect()
}

#[test]
fn recorded_streams_reach_every_client_dialect_streaming_and_not() {
    let Some(dir) = crate::corpus::corpus_dir() else {
        return;
    };
    let mut cases = 0;
    run(Duration::from_secs(60), async {
        for &(up, name) in RECORDED {
            let path = dir.join(name);
            let recorded = match std::fs::read(&path) {
                Ok(b) => b,
                Err(e) => {
                    assert!(!crate::in_ci(), "{}: {e}", path.display());
                    crate::corpus::skip_notice(&format!("{}: {e}", path.display()));
                    continue;
                }
            };
            let expected = wire::stream(up, &recorded);
            assert!(
                !expected.text.is_empty() || !expected.calls.is_empty(),
                "{name}: the oracle read nothing"
            );
            let body = recorded.clone();
            let upstream =
                Upstream::start(move |_| Script::events(&body, Duration::from_micros(200))).await;
            let gw = gateway(up, &upstream.url, |_| {}).await;
            let client = http();
            for client_dialect in Dialect::ALL {
                for stream in [true, false] {
                    let what = format!("{name} → {client_dialect:?} (stream: {stream})");
                    let ask = crate::ask_body(client_dialect, QUESTION, stream);
                    let response = tokio::time::timeout(
                        Duration::from_secs(10),
                        client_request(&client, &gw, client_dialect, &ask, stream).send(),
                    )
                    .await
                    .expect("timely")
                    .expect("sent");
                    assert_eq!(response.status(), 200, "{what}");
                    let content_type = response
                        .headers()
                        .get("content-type")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("")
                        .to_owned();
                    let bytes = read_all(response, Duration::from_secs(10)).await;
                    let got = if stream {
                        assert_eq!(content_type, "text/event-stream", "{what}");
                        wire::stream(client_dialect, &bytes)
                    } else {
                        assert_eq!(content_type, "application/json", "{what}");
                        wire::answer(client_dialect, &bytes)
                    };
                    let shown = String::from_utf8_lossy(&bytes);
                    assert_eq!(got.error, None, "{what}: {shown}");
                    assert!(got.ended, "{what}: the stream ends as its dialect ends one");
                    assert_eq!(got.text, expected.text, "{what}");
                    assert_eq!(named(&got.calls), named(&expected.calls), "{what}");
                    if client_dialect == up {
                        // Within one dialect the call ids are the upstream's.
                        let ids = |a: &wire::Answer| {
                            a.calls.iter().map(|c| c.id.clone()).collect::<Vec<_>>()
                        };
                        assert_eq!(ids(&got), ids(&expected), "{what}");
                    }
                    cases += 1;
                }
            }
            let seen = upstream.seen();
            assert_eq!(
                seen.len(),
                8,
                "{name}: one upstream request per client request"
            );
            for s in &seen {
                check_request(up, s);
            }
        }
    });
    eprintln!("{cases} recorded cases through the gateway");
}

/// The dialect of a corpus file, from its name.
fn dialect_of(name: &str) -> Option<Dialect> {
    [
        ("-responses-", Dialect::Responses),
        ("-chat-", Dialect::Chat),
        ("-anthropic-", Dialect::Anthropic),
        ("-gemini-", Dialect::Gemini),
    ]
    .into_iter()
    .find(|(part, _)| name.contains(part))
    .map(|(_, d)| d)
}

/// What the crate's bridge writes for `body`, fed whole.
fn bridged(from: Dialect, to: Dialect, body: &[u8]) -> Vec<u8> {
    use ssekit::bridge::{translate, BridgeConfig, BytesBridge};
    let mut b = BytesBridge::new(translate(from, to, &BridgeConfig::default()));
    let _ = b.feed(ssekit::Bytes::copy_from_slice(body));
    let _ = b.finish();
    b.take().to_vec()
}

/// Every recorded stream of the corpus (and the repository's own Chat and
/// Gemini streams), served event by event to the gateway and asked for by
/// a streaming client of each other dialect: the client gets, byte for
/// byte, what the bridge writes for the whole recording (the gateway adds
/// nothing and loses nothing however the upstream's chunks fall), in more
/// than one chunk, and towards the dialects that have a linter the stream
/// lints without an error.
#[test]
fn every_recorded_stream_is_bridged_byte_for_byte_and_lints_clean() {
    let mut streams: Vec<(String, Vec<u8>)> = crate::corpus::corpus_dir()
        .map(|dir| crate::corpus::sse_files(&dir))
        .unwrap_or_default();
    let local = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for sub in ["chat", "gemini"] {
        for (name, body) in crate::corpus::sse_files(&local.join(sub)) {
            streams.push((format!("{sub}/{name}-{sub}-"), body));
        }
    }
    let mut cases = 0;
    run(Duration::from_secs(100), async {
        let client = http();
        for (name, body) in &streams {
            let Some(up) = dialect_of(name) else { continue };
            let served = body.clone();
            // The recording in four parts a millisecond apart: cut between
            // events, as the gateway reads an upstream.
            let upstream = Upstream::start(move |_| {
                let events = crate::upstream::split_events(&served);
                let per = events.len().div_ceil(4).max(1);
                Script::Stream {
                    chunks: events.chunks(per).map(|c| c.concat().into()).collect(),
                    gap: Duration::from_millis(1),
                    stall: None,
                }
            })
            .await;
            let gw = gateway(up, &upstream.url, |_| {}).await;
            for to in Dialect::ALL.into_iter().filter(|d| *d != up) {
                let ask = crate::ask_body(to, "hi", true);
                let response = tokio::time::timeout(
                    Duration::from_secs(10),
                    client_request(&client, &gw, to, &ask, true).send(),
                )
                .await
                .expect("timely")
                .expect("sent");
                assert_eq!(response.status(), 200, "{name} → {to:?}");
                let mut chunks = 0;
                let mut wire = Vec::new();
                let mut body_stream = response.bytes_stream();
                while let Some(chunk) = tokio::time::timeout(
                    Duration::from_secs(10),
                    futures::StreamExt::next(&mut body_stream),
                )
                .await
                .expect("timely")
                {
                    wire.extend_from_slice(&chunk.expect("chunk"));
                    chunks += 1;
                }
                let want = bridged(up, to, body);
                assert!(
                    wire == want,
                    "{name} → {to:?}: the gateway wrote what the bridge writes\n{}\n---\n{}",
                    String::from_utf8_lossy(&wire),
                    String::from_utf8_lossy(&want)
                );
                if crate::upstream::split_events(&want).len() > 3 {
                    assert!(chunks > 1, "{name} → {to:?}: streamed in {chunks} chunk(s)");
                }
                let findings = match to {
                    Dialect::Responses => {
                        ssekit::lint::lint_bytes(ssekit::lint::ResponsesLinter::new(), &wire)
                    }
                    Dialect::Chat => {
                        ssekit::lint::lint_bytes(ssekit::lint::ChatLinter::new(), &wire)
                    }
                    Dialect::Anthropic => {
                        ssekit::lint::lint_bytes(ssekit::lint::AnthropicLinter::new(), &wire)
                    }
                    _ => Vec::new(),
                };
                let errors: Vec<String> = findings
                    .iter()
                    .filter(|f| f.is_error())
                    .map(ToString::to_string)
                    .collect();
                assert_eq!(errors, Vec::<String>::new(), "{name} → {to:?}");
                cases += 1;
            }
        }
    });
    eprintln!("{cases} recorded streams bridged through the gateway byte for byte");
    assert!(cases >= 18, "{cases} cases");
}
