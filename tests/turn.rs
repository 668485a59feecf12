//! The turn model's bridges in all 12 directions: every recorded stream of
//! the corpus and of `tests/data`, bridged at several chunkings, read back
//! by an independent extractor (serde_json over each event, written here
//! per dialect) and by the crate's own reader of the target dialect; and
//! one test per translation bug gateways have shipped, in every direction
//! it applies to.

#[path = "support/corpus.rs"]
mod corpus;

use serde_json::Value as J;
use ssekit::bridge::{translate, Bridge, BridgeConfig, BridgeErrorKind, BytesBridge};
use ssekit::turn::{
    AnthropicReader, ChatReader, Dialect, ResponsesReader, TurnConfig, TurnError, TurnErrorKind,
    TurnEvent, TurnReader, TurnWriter,
};
use ssekit::{Bytes, Frame};

const ALL: [Dialect; 4] = Dialect::ALL;

fn name(d: Dialect) -> &'static str {
    d.name()
}

/// Bridges `body` in chunks of `chunk` bytes: the output and the first
/// error.
fn bridge_with(
    from: Dialect,
    to: Dialect,
    config: &BridgeConfig,
    body: &[u8],
    chunk: usize,
) -> (String, Option<BridgeErrorKind>) {
    let mut b = BytesBridge::new(translate(from, to, config));
    let mut out = Vec::new();
    let mut error = None;
    for piece in body.chunks(chunk.max(1)) {
        if let Err(e) = b.feed(Bytes::copy_from_slice(piece)) {
            error.get_or_insert(e.kind());
        }
        out.extend_from_slice(&b.take());
    }
    if let Err(e) = b.finish() {
        error.get_or_insert(e.kind());
    }
    out.extend_from_slice(&b.take());
    (
        String::from_utf8(out).expect("bridged output is UTF-8"),
        error,
    )
}

fn bridge(from: Dialect, to: Dialect, body: &str) -> (String, Option<BridgeErrorKind>) {
    bridge_with(
        from,
        to,
        &BridgeConfig::default(),
        body.as_bytes(),
        usize::MAX,
    )
}

/// The SSE events of a stream, by hand: (event name, data), comments as
/// `(":", text)`.
fn events(text: &str) -> Vec<(String, String)> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut ev = String::new();
        let mut data: Vec<&str> = Vec::new();
        for line in block.lines() {
            if let Some(c) = line.strip_prefix(':') {
                out.push((":".to_string(), c.to_string()));
            } else if let Some(v) = line.strip_prefix("event:") {
                ev = v.trim_start().to_string();
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push(v.strip_prefix(' ').unwrap_or(v));
            }
        }
        if !data.is_empty() {
            out.push((ev, data.join("\n")));
        }
    }
    out
}

/// What a stream says, extracted with serde_json, independently of the
/// crate.
#[derive(Debug, Default, Clone, PartialEq)]
struct Answer {
    text: String,
    reasoning: String,
    /// (name, arguments as JSON) in order.
    calls: Vec<(String, J)>,
    /// How it ended: "completed", "incomplete", "failed", or "" (no end).
    end: String,
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    keep_alives: usize,
    signatures: Vec<String>,
}

fn args(s: &str) -> J {
    if s.trim().is_empty() {
        return J::Object(Default::default());
    }
    serde_json::from_str(s).unwrap_or(J::String(s.to_string()))
}

fn extract(d: Dialect, text: &str) -> Answer {
    let mut a = Answer::default();
    let evs = events(text);
    match d {
        Dialect::Chat => {
            let mut calls: Vec<(u64, String, String)> = Vec::new();
            let mut finish = None;
            for (ev, data) in &evs {
                if ev == ":" {
                    a.keep_alives += 1;
                    continue;
                }
                if data.trim() == "[DONE]" {
                    if a.end.is_empty() {
                        a.end = "done".into();
                    }
                    continue;
                }
                let v: J = serde_json::from_str(data).expect("chat chunk is JSON");
                if v.get("error").is_some_and(|e| !e.is_null()) {
                    a.end = "failed".into();
                    continue;
                }
                if let Some(u) = v.get("usage").filter(|u| !u.is_null()) {
                    a.input_tokens = u["prompt_tokens"].as_u64();
                    a.output_tokens = u["completion_tokens"].as_u64();
                }
                for c in v["choices"].as_array().into_iter().flatten() {
                    if c["index"].as_u64() != Some(0) {
                        continue;
                    }
                    let d = &c["delta"];
                    if let Some(t) = d["content"].as_str() {
                        a.text.push_str(t);
                    }
                    if let Some(parts) = d["content"].as_array() {
                        for p in parts {
                            if p["type"] == "text" {
                                a.text.push_str(p["text"].as_str().unwrap_or(""));
                            }
                            if p["type"] == "thinking" {
                                for q in p["thinking"].as_array().into_iter().flatten() {
                                    a.reasoning.push_str(q["text"].as_str().unwrap_or(""));
                                }
                            }
                        }
                    }
                    if let Some(t) = d["refusal"].as_str() {
                        a.text.push_str(t);
                    }
                    for k in ["reasoning_content", "reasoning"] {
                        if let Some(t) = d[k].as_str() {
                            a.reasoning.push_str(t);
                        }
                    }
                    for tc in d["tool_calls"].as_array().into_iter().flatten() {
                        let i = tc["index"].as_u64().expect("tool call index");
                        let f = &tc["function"];
                        match calls.iter_mut().find(|c| c.0 == i) {
                            Some(c) => c.2.push_str(f["arguments"].as_str().unwrap_or("")),
                            None => calls.push((
                                i,
                                f["name"].as_str().unwrap_or("").to_string(),
                                f["arguments"].as_str().unwrap_or("").to_string(),
                            )),
                        }
                    }
                    if let Some(f) = d.get("function_call").filter(|f| !f.is_null()) {
                        match calls.iter_mut().find(|c| c.0 == u64::MAX) {
                            Some(c) => c.2.push_str(f["arguments"].as_str().unwrap_or("")),
                            None => calls.push((
                                u64::MAX,
                                f["name"].as_str().unwrap_or("").to_string(),
                                f["arguments"].as_str().unwrap_or("").to_string(),
                            )),
                        }
                    }
                    if let Some(r) = c["finish_reason"].as_str() {
                        finish = Some(r.to_string());
                    }
                }
            }
            if a.end != "failed" {
                a.end = match finish.as_deref() {
                    Some("length" | "content_filter") => "incomplete".into(),
                    Some(_) => "completed".into(),
                    None => String::new(),
                };
            }
            a.calls = calls.into_iter().map(|(_, n, s)| (n, args(&s))).collect();
        }
        Dialect::Anthropic => {
            let mut blocks: Vec<(u64, String, String, String)> = Vec::new();
            let mut stop = None;
            for (ev, data) in &evs {
                if ev == ":" {
                    a.keep_alives += 1;
                    continue;
                }
                let v: J = serde_json::from_str(data).expect("anthropic event is JSON");
                assert_eq!(
                    v["type"].as_str(),
                    Some(ev.as_str()),
                    "event name is the type"
                );
                match ev.as_str() {
                    "ping" => a.keep_alives += 1,
                    "error" => a.end = "failed".into(),
                    "message_start" => {
                        let u = &v["message"]["usage"];
                        a.input_tokens = u["input_tokens"].as_u64().map(|n| {
                            n + u["cache_read_input_tokens"].as_u64().unwrap_or(0)
                                + u["cache_creation_input_tokens"].as_u64().unwrap_or(0)
                        });
                        a.output_tokens = u["output_tokens"].as_u64();
                    }
                    "content_block_start" => {
                        let b = &v["content_block"];
                        let ty = b["type"].as_str().unwrap_or("").to_string();
                        let mut input = String::new();
                        if ty == "tool_use" {
                            if let Some(i) = b
                                .get("input")
                                .filter(|i| i.as_object().is_some_and(|o| !o.is_empty()))
                            {
                                input = i.to_string();
                            }
                        }
                        blocks.push((
                            v["index"].as_u64().unwrap(),
                            ty,
                            b["name"].as_str().unwrap_or("").to_string(),
                            input,
                        ));
                    }
                    "content_block_delta" => {
                        let i = v["index"].as_u64().unwrap();
                        let d = &v["delta"];
                        let block = blocks.iter_mut().find(|b| b.0 == i).expect("block started");
                        match d["type"].as_str() {
                            Some("text_delta") => a.text.push_str(d["text"].as_str().unwrap()),
                            Some("thinking_delta") => {
                                assert_eq!(block.1, "thinking", "thinking only in thinking blocks");
                                a.reasoning.push_str(d["thinking"].as_str().unwrap())
                            }
                            Some("signature_delta") => {
                                assert_eq!(block.1, "thinking", "signatures only on thinking");
                                a.signatures.push(d["signature"].as_str().unwrap().into())
                            }
                            Some("input_json_delta") => {
                                block.3.push_str(d["partial_json"].as_str().unwrap())
                            }
                            _ => {}
                        }
                    }
                    "message_delta" => {
                        if let Some(r) = v["delta"]["stop_reason"].as_str() {
                            stop = Some(r.to_string());
                        }
                        let u = &v["usage"];
                        if let Some(n) = u["output_tokens"].as_u64() {
                            a.output_tokens = Some(n); // cumulative
                        }
                        if let Some(n) = u["input_tokens"].as_u64() {
                            a.input_tokens = Some(
                                n + u["cache_read_input_tokens"].as_u64().unwrap_or(0)
                                    + u["cache_creation_input_tokens"].as_u64().unwrap_or(0),
                            );
                        }
                    }
                    "message_stop" => {
                        a.end = match stop.as_deref() {
                            Some("max_tokens" | "refusal" | "model_context_window_exceeded") => {
                                "incomplete".into()
                            }
                            _ => "completed".into(),
                        }
                    }
                    _ => {}
                }
            }
            a.calls = blocks
                .into_iter()
                .filter(|b| b.1 == "tool_use")
                .map(|b| (b.2, args(&b.3)))
                .collect();
        }
        Dialect::Gemini => {
            // A Gemini keep-alive is an empty line (google-genai reads any
            // line that is not data: as JSON, so a comment fails it): the
            // empty lines that do not end an event.
            let text = text.replace("\r\n", "\n");
            let mut run = 0;
            for (i, c) in text.char_indices() {
                if c == '\n' {
                    run += 1;
                    // A newline after the blank line that ends an event,
                    // or at the start of the stream.
                    if run > 2 || i + 1 == run {
                        a.keep_alives += 1;
                    }
                } else {
                    run = 0;
                }
            }
            let mut finish = None;
            for (ev, data) in &evs {
                assert_ne!(ev, ":", "a comment in a Gemini stream: {text}");
                let v: J = serde_json::from_str(data).expect("gemini chunk is JSON");
                if v.get("error").is_some() {
                    a.end = "failed".into();
                    continue;
                }
                if let Some(u) = v.get("usageMetadata") {
                    a.input_tokens = u["promptTokenCount"].as_u64();
                    a.output_tokens = u["candidatesTokenCount"]
                        .as_u64()
                        .map(|c| c + u["thoughtsTokenCount"].as_u64().unwrap_or(0));
                }
                if v.pointer("/promptFeedback/blockReason").is_some() {
                    finish = Some("SAFETY".to_string());
                }
                for c in v["candidates"].as_array().into_iter().flatten() {
                    if c["index"].as_u64().unwrap_or(0) != 0 {
                        continue;
                    }
                    for p in c
                        .pointer("/content/parts")
                        .and_then(J::as_array)
                        .into_iter()
                        .flatten()
                    {
                        if let Some(s) = p["thoughtSignature"].as_str() {
                            a.signatures.push(s.into());
                        }
                        if let Some(f) = p.get("functionCall") {
                            a.calls.push((
                                f["name"].as_str().unwrap_or("").into(),
                                f.get("args")
                                    .cloned()
                                    .unwrap_or(J::Object(Default::default())),
                            ));
                        } else if let Some(t) = p["text"].as_str() {
                            if p["thought"] == true {
                                a.reasoning.push_str(t);
                            } else {
                                a.text.push_str(t);
                            }
                        }
                    }
                    if let Some(r) = c["finishReason"].as_str() {
                        finish = Some(r.to_string());
                    }
                }
            }
            if a.end.is_empty() {
                a.end = match finish.as_deref() {
                    Some("STOP") => "completed".into(),
                    Some(
                        "MAX_TOKENS" | "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT"
                        | "SPII" | "IMAGE_SAFETY",
                    ) => "incomplete".into(),
                    Some(_) => "failed".into(),
                    None => String::new(),
                };
            }
        }
        _ => {
            for (ev, data) in &evs {
                if ev == ":" {
                    a.keep_alives += 1;
                    continue;
                }
                if data.trim() == "[DONE]" {
                    continue;
                }
                let v: J = serde_json::from_str(data).expect("responses event is JSON");
                match v["type"].as_str().unwrap_or("") {
                    "response.output_item.done" => {
                        let item = &v["item"];
                        match item["type"].as_str() {
                            Some("message") => {
                                for c in item["content"].as_array().into_iter().flatten() {
                                    for k in ["text", "refusal"] {
                                        if let Some(t) = c[k].as_str() {
                                            a.text.push_str(t);
                                        }
                                    }
                                }
                            }
                            Some("reasoning") => {
                                for k in ["summary", "content"] {
                                    for c in item[k].as_array().into_iter().flatten() {
                                        a.reasoning.push_str(c["text"].as_str().unwrap_or(""));
                                    }
                                }
                                if let Some(e) = item["encrypted_content"].as_str() {
                                    a.signatures.push(e.into());
                                }
                            }
                            Some("function_call") => a.calls.push((
                                item["name"].as_str().unwrap_or("").into(),
                                args(item["arguments"].as_str().unwrap_or("")),
                            )),
                            _ => {}
                        }
                    }
                    "response.completed" | "response.incomplete" | "response.failed" => {
                        let t = v["type"].as_str().unwrap();
                        a.end = t.trim_start_matches("response.").into();
                        let u = &v["response"]["usage"];
                        a.input_tokens = u["input_tokens"].as_u64();
                        a.output_tokens = u["output_tokens"].as_u64();
                    }
                    "error" => a.end = "failed".into(),
                    "keepalive" => a.keep_alives += 1,
                    _ => {}
                }
            }
        }
    }
    a
}

fn strip_ws(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A corpus stream's dialect, from its file name.
fn dialect_of(file: &str) -> Option<Dialect> {
    if file.contains("-chat-") || file.starts_with("chat/") {
        Some(Dialect::Chat)
    } else if file.contains("-anthropic-") {
        Some(Dialect::Anthropic)
    } else if file.contains("-gemini-") || file.starts_with("gemini/") {
        Some(Dialect::Gemini)
    } else if file.contains("-responses-") {
        Some(Dialect::Responses)
    } else {
        None
    }
}

fn streams() -> Vec<(String, Dialect, Vec<u8>)> {
    let mut out = Vec::new();
    if let Some(dir) = corpus::corpus_dir() {
        for (file, body) in corpus::sse_files(&dir) {
            if let Some(d) = dialect_of(&file) {
                out.push((file, d, body));
            }
        }
    }
    for sub in ["chat", "gemini"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(sub);
        for (file, body) in corpus::sse_files(&dir) {
            let file = format!("{sub}/{file}");
            let d = dialect_of(&file).unwrap();
            out.push((file, d, body));
        }
    }
    out
}

/// A writer that keeps the events it is given, for reading a bridged
/// stream back with the crate's own reader.
#[derive(Default)]
struct Collect {
    text: String,
    reasoning: String,
    args: std::collections::BTreeMap<u64, String>,
    calls: std::collections::BTreeSet<u64>,
    ended: bool,
    failed: bool,
}

impl TurnWriter for Collect {
    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        use ssekit::turn::DeltaKind as K;
        match event {
            TurnEvent::Delta {
                index, kind, text, ..
            } => match kind {
                K::Text | K::Refusal => text.unescape_into(&mut self.text),
                K::Reasoning | K::Summary => text.unescape_into(&mut self.reasoning),
                // Server tools' input (Anthropic) is not a call's.
                K::Arguments if self.calls.contains(index) => {
                    text.unescape_into(self.args.entry(*index).or_default())
                }
                _ => {}
            },
            TurnEvent::ItemStart {
                index,
                item: ssekit::turn::ItemKind::ToolCall { .. },
            } => {
                self.calls.insert(*index);
            }
            TurnEvent::End => self.ended = true,
            TurnEvent::Error(_) => self.failed = true,
            _ => {}
        }
        Ok(())
    }
    fn fail(&mut self, _: &str, _: &str) {
        self.failed = true;
    }
    fn take(&mut self) -> Bytes {
        Bytes::new()
    }
    fn is_finished(&self) -> bool {
        self.ended || self.failed
    }
}

/// Reads a bridged stream back with the crate's reader of its dialect.
fn read_back(d: Dialect, out: &str) -> Result<Collect, TurnError> {
    use ssekit::bridge::AnyReader;
    use ssekit::turn::TurnConfig;
    let mut reader = AnyReader::new(d, &TurnConfig::default());
    let mut c = Collect::default();
    let mut parser = ssekit::Parser::new();
    parser.feed(Bytes::copy_from_slice(out.as_bytes()));
    while let Some(frame) = parser.next_frame().expect("bridged output frames parse") {
        reader.read(&frame, &mut c)?;
    }
    parser.finish().expect("bridged output ends between events");
    reader.finish(&mut c)?;
    Ok(c)
}

// ---------------------------------------------------------------- corpus

#[test]
fn corpus_in_every_direction() {
    let streams = streams();
    let mut table = std::collections::BTreeMap::<(&str, &str), (usize, usize)>::new();
    for (file, from, body) in &streams {
        let upstream = extract(*from, &String::from_utf8_lossy(body));
        for to in ALL {
            let (whole, error) = bridge_with(*from, to, &BridgeConfig::default(), body, usize::MAX);
            // Chunking does not change the bytes.
            for chunk in [1, 7, 64] {
                let (out, _) = bridge_with(*from, to, &BridgeConfig::default(), body, chunk);
                assert_eq!(
                    out,
                    whole,
                    "{file} {}→{} at {chunk}-byte chunks",
                    name(*from),
                    name(to)
                );
            }
            let got = extract(to, &whole);
            let entry = table.entry((name(*from), name(to))).or_default();
            entry.0 += 1;
            let ctx = format!("{file} {}→{}: {error:?}\n{whole}", name(*from), name(to));
            // A terminal event, always.
            assert!(!got.end.is_empty(), "no terminal event: {ctx}");
            if error.is_some() || upstream.end == "failed" || upstream.end.is_empty() {
                assert_eq!(got.end, "failed", "failed upstream, failed end: {ctx}");
                continue;
            }
            entry.1 += 1;
            assert_eq!(got.text, upstream.text, "text: {ctx}");
            assert_eq!(
                strip_ws(&got.reasoning),
                strip_ws(&upstream.reasoning),
                "reasoning: {ctx}"
            );
            assert_eq!(got.calls, upstream.calls, "tool calls: {ctx}");
            assert_eq!(got.end, upstream.end, "end: {ctx}");
            if upstream.output_tokens.is_some() {
                assert_eq!(
                    got.output_tokens, upstream.output_tokens,
                    "output tokens: {ctx}"
                );
                assert_eq!(
                    got.input_tokens, upstream.input_tokens,
                    "input tokens: {ctx}"
                );
            }
            // The crate's own reader of the target agrees.
            let back = read_back(to, &whole).unwrap_or_else(|e| panic!("read back: {e}: {ctx}"));
            assert!(back.ended, "read back ended: {ctx}");
            assert_eq!(back.text, upstream.text, "read back text: {ctx}");
            let back_args: Vec<J> = back.args.values().map(|s| args(s)).collect();
            let want: Vec<J> = upstream.calls.iter().map(|c| c.1.clone()).collect();
            assert_eq!(back_args, want, "read back arguments: {ctx}");
        }
    }
    eprintln!("direction: streams bridged / complete and equal");
    for ((f, t), (n, ok)) in &table {
        eprintln!("{f:>9} → {t:<9} {n:>3} {ok:>3}");
    }
}

// ---------------------------------------------------------------- bugs

fn sse(events: &[(&str, &str)]) -> String {
    let mut s = String::new();
    for (ev, data) in events {
        if !ev.is_empty() {
            s.push_str("event: ");
            s.push_str(ev);
            s.push('\n');
        }
        s.push_str("data: ");
        s.push_str(data);
        s.push_str("\n\n");
    }
    s
}

fn chat(chunks: &[&str]) -> String {
    sse(&chunks.iter().map(|c| ("", *c)).collect::<Vec<_>>())
}

fn anthropic(events: &[&str]) -> String {
    let evs: Vec<(String, &str)> = events
        .iter()
        .map(|e| {
            let v: J = serde_json::from_str(e).unwrap();
            (v["type"].as_str().unwrap().to_string(), *e)
        })
        .collect();
    sse(&evs
        .iter()
        .map(|(t, d)| (t.as_str(), *d))
        .collect::<Vec<_>>())
}

fn responses(events: &[&str]) -> String {
    anthropic(events)
}

fn count(out: &str, needle: &str) -> usize {
    out.matches(needle).count()
}

/// Chat tool calls whose fragments interleave 0, 1, 0, 1.
const CHAT_PARALLEL: &[&str] = &[
    r#"{"id":"c1","model":"m","created":1,"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"fa","arguments":""}}]}}]}"#,
    r#"{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"fb","arguments":""}}]}}]}"#,
    r#"{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":"}}]}}]}"#,
    r#"{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\"b\":"}}]}}]}"#,
    r#"{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]}}]}"#,
    r#"{"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"2}"}}]}}]}"#,
    r#"{"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
    "[DONE]",
];

#[test]
fn parallel_tool_calls_interleaved() {
    let body = chat(CHAT_PARALLEL);
    for to in ALL {
        let (out, error) = bridge(Dialect::Chat, to, &body);
        assert_eq!(error, None, "chat→{}: {out}", name(to));
        let a = extract(to, &out);
        assert_eq!(
            a.calls,
            vec![
                ("fa".to_string(), serde_json::json!({"a": 1})),
                ("fb".to_string(), serde_json::json!({"b": 2})),
            ],
            "chat→{}: {out}",
            name(to)
        );
        assert_eq!(a.end, "completed");
        let back = read_back(to, &out).unwrap();
        assert_eq!(back.args.len(), 2, "two calls, not one: {out}");
    }
    // Towards Chat the calls keep their own indexes and interleave as they came.
    let (out, _) = bridge(Dialect::Chat, Dialect::Chat, &body);
    let idx: Vec<u64> = events(&out)
        .iter()
        .filter_map(|(_, d)| serde_json::from_str::<J>(d).ok())
        .filter_map(|v| {
            v.pointer("/choices/0/delta/tool_calls/0/index")
                .and_then(J::as_u64)
        })
        .collect();
    assert_eq!(idx, [0, 1, 0, 1, 0, 1]);
    // Towards Anthropic, blocks are sequential: the second is held, then
    // written whole after the first stops.
    let (out, _) = bridge(Dialect::Chat, Dialect::Anthropic, &body);
    let kinds: Vec<String> = events(&out).into_iter().map(|(e, _)| e).collect();
    let starts: Vec<usize> = kinds
        .iter()
        .enumerate()
        .filter(|(_, k)| *k == "content_block_start")
        .map(|(i, _)| i)
        .collect();
    let stops: Vec<usize> = kinds
        .iter()
        .enumerate()
        .filter(|(_, k)| *k == "content_block_stop")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(starts.len(), 2);
    assert!(
        stops[0] < starts[1],
        "block 1 opens after block 0 stops: {out}"
    );
}

#[test]
fn hold_is_bounded() {
    let body = chat(CHAT_PARALLEL);
    let mut config = ssekit::turn::TurnConfig::default();
    config.max_held_bytes = 4;
    let mut b = BytesBridge::new(ssekit::bridge::Translate::from_parts(
        ssekit::turn::ChatReader::new(&config),
        ssekit::turn::AnthropicWriter::new(config),
    ));
    let err = b.feed(Bytes::from(body)).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            BridgeErrorKind::Turn(ssekit::turn::TurnErrorKind::HoldExceeded { limit: 4 })
        ),
        "{err}"
    );
    let out = String::from_utf8(b.take().to_vec()).unwrap();
    assert!(
        out.ends_with("\n\n") && out.contains("event: error\n"),
        "{out}"
    );
}

#[test]
fn arguments_whole_or_only_in_done() {
    // Anthropic: the input given whole in the block's start, no deltas.
    let body = anthropic(&[
        r#"{"type":"message_start","message":{"id":"msg_1","model":"c","usage":{"input_tokens":3,"output_tokens":1}}}"#,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{"x":[1,"two"]}}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9}}"#,
        r#"{"type":"message_stop"}"#,
    ]);
    // Responses: arguments only in the done event.
    let resp = responses(&[
        r#"{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","model":"m","created_at":1,"status":"in_progress","output":[]}}"#,
        r#"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":""}}"#,
        r#"{"type":"response.function_call_arguments.done","sequence_number":2,"item_id":"fc_1","output_index":0,"arguments":"{\"x\":[1,\"two\"]}"}"#,
        r#"{"type":"response.output_item.done","sequence_number":3,"output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"f","arguments":"{\"x\":[1,\"two\"]}"}}"#,
        r#"{"type":"response.completed","sequence_number":4,"response":{"id":"resp_1","model":"m","created_at":1,"status":"completed","output":[]}}"#,
    ]);
    // Chat: arguments whole in one chunk.
    let chat_whole = chat(&[
        r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\"x\":[1,\"two\"]}"}}]},"finish_reason":"tool_calls"}]}"#,
        "[DONE]",
    ]);
    let want = vec![("f".to_string(), serde_json::json!({"x": [1, "two"]}))];
    for (from, body) in [
        (Dialect::Anthropic, &body),
        (Dialect::Responses, &resp),
        (Dialect::Chat, &chat_whole),
    ] {
        for to in ALL {
            let (out, error) = bridge(from, to, body);
            assert_eq!(error, None, "{}→{}: {out}", name(from), name(to));
            let a = extract(to, &out);
            assert_eq!(a.calls, want, "{}→{}: {out}", name(from), name(to));
            assert_eq!(a.end, "completed", "{}→{}", name(from), name(to));
        }
    }
}

#[test]
fn reasoning_stays_reasoning() {
    let deepseek = chat(&[
        r#"{"id":"c","model":"r1","choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"think "}}]}"#,
        r#"{"id":"c","choices":[{"index":0,"delta":{"reasoning":"more"}}]}"#,
        r#"{"id":"c","choices":[{"index":0,"delta":{"content":"answer"},"finish_reason":"stop"}]}"#,
        "[DONE]",
    ]);
    let resp_text = responses(&[
        r#"{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","model":"m","status":"in_progress","output":[]}}"#,
        r#"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}"#,
        r#"{"type":"response.reasoning_text.delta","sequence_number":2,"item_id":"rs_1","output_index":0,"content_index":0,"delta":"think more"}"#,
        r#"{"type":"response.output_item.done","sequence_number":3,"output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}"#,
        r#"{"type":"response.output_item.added","sequence_number":4,"output_index":1,"item":{"type":"message","id":"m_1","role":"assistant","content":[]}}"#,
        r#"{"type":"response.output_text.delta","sequence_number":5,"item_id":"m_1","output_index":1,"content_index":0,"delta":"answer"}"#,
        r#"{"type":"response.output_item.done","sequence_number":6,"output_index":1,"item":{"type":"message","id":"m_1","role":"assistant","content":[{"type":"output_text","text":"answer"}]}}"#,
        r#"{"type":"response.completed","sequence_number":7,"response":{"id":"resp_1","model":"m","status":"completed","output":[]}}"#,
    ]);
    for (from, body) in [(Dialect::Chat, &deepseek), (Dialect::Responses, &resp_text)] {
        for to in ALL {
            let (out, error) = bridge(from, to, body);
            assert_eq!(error, None, "{}→{}: {out}", name(from), name(to));
            let a = extract(to, &out);
            assert_eq!(
                a.reasoning,
                "think more",
                "{}→{}: {out}",
                name(from),
                name(to)
            );
            assert_eq!(a.text, "answer", "{}→{}: {out}", name(from), name(to));
        }
    }
    // Towards Responses the summary deltas carry summary_index after
    // their part was added.
    let (out, _) = bridge(Dialect::Chat, Dialect::Responses, &deepseek);
    let evs: Vec<J> = events(&out)
        .iter()
        .map(|(_, d)| serde_json::from_str(d).unwrap())
        .collect();
    let added = evs
        .iter()
        .position(|v| v["type"] == "response.reasoning_summary_part.added")
        .expect("summary part added");
    let first = evs
        .iter()
        .position(|v| v["type"] == "response.reasoning_summary_text.delta")
        .unwrap();
    assert!(added < first);
    for v in evs
        .iter()
        .filter(|v| v["type"] == "response.reasoning_summary_text.delta")
    {
        assert_eq!(v["summary_index"], 0);
    }
}

const ANTHROPIC_SIGNED: &[&str] = &[
    r#"{"type":"message_start","message":{"id":"msg_1","model":"c","usage":{"input_tokens":10,"output_tokens":1}}}"#,
    r#"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}"#,
    r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"SIG+/="}}"#,
    r#"{"type":"content_block_stop","index":0}"#,
    r#"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#,
    r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"hi"}}"#,
    r#"{"type":"content_block_stop","index":1}"#,
    r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}"#,
    r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":12}}"#,
    r#"{"type":"message_stop"}"#,
];

#[test]
fn signatures_carried_never_invented() {
    let body = anthropic(ANTHROPIC_SIGNED);
    for to in [Dialect::Anthropic, Dialect::Gemini, Dialect::Responses] {
        let (out, error) = bridge(Dialect::Anthropic, to, &body);
        assert_eq!(error, None);
        let a = extract(to, &out);
        assert_eq!(a.signatures, ["SIG+/="], "anthropic→{}: {out}", name(to));
    }
    // Unsigned reasoning gets no signature anywhere.
    let unsigned = chat(&[
        r#"{"id":"c","choices":[{"index":0,"delta":{"reasoning_content":"r"}}]}"#,
        r#"{"id":"c","choices":[{"index":0,"delta":{"content":"t"},"finish_reason":"stop"}]}"#,
    ]);
    for to in ALL {
        let (out, _) = bridge(Dialect::Chat, to, &unsigned);
        assert!(
            extract(to, &out).signatures.is_empty(),
            "chat→{}: {out}",
            name(to)
        );
        assert!(!out.contains("signature_delta") && !out.contains("thoughtSignature"));
    }
    // Gemini's signature on a function call stays on the call.
    let gemini = sse(&[
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"q":1}},"thoughtSignature":"GSIG"}],"role":"model"}}],"responseId":"r","modelVersion":"g"}"#,
        ),
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP"}]}"#,
        ),
    ]);
    let (out, error) = bridge(Dialect::Gemini, Dialect::Gemini, &gemini);
    assert_eq!(error, None);
    let call = events(&out)
        .iter()
        .map(|(_, d)| serde_json::from_str::<J>(d).unwrap())
        .find(|v| {
            v.pointer("/candidates/0/content/parts/0/functionCall")
                .is_some()
        })
        .expect("a function call part");
    assert_eq!(
        call.pointer("/candidates/0/content/parts/0/thoughtSignature"),
        Some(&J::from("GSIG"))
    );
    // … and is not put on a tool_use block towards Anthropic.
    let (out, _) = bridge(Dialect::Gemini, Dialect::Anthropic, &gemini);
    assert!(!out.contains("GSIG"), "{out}");
}

#[test]
fn usage_cumulative_not_zero() {
    let body = anthropic(ANTHROPIC_SIGNED);
    for to in ALL {
        let (out, _) = bridge(Dialect::Anthropic, to, &body);
        let a = extract(to, &out);
        assert_eq!(
            a.output_tokens,
            Some(12),
            "not 5 + 12: anthropic→{}: {out}",
            name(to)
        );
        assert_eq!(a.input_tokens, Some(10), "anthropic→{}: {out}", name(to));
    }
    // Towards Anthropic, message_start carries the input known at the
    // first item (Gemini sends it on its first chunk).
    let gemini = sse(&[
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"text":"a"}],"role":"model"}}],"usageMetadata":{"promptTokenCount":7},"responseId":"r","modelVersion":"g"}"#,
        ),
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"text":"b"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":7,"candidatesTokenCount":2,"totalTokenCount":9}}"#,
        ),
    ]);
    let (out, _) = bridge(Dialect::Gemini, Dialect::Anthropic, &gemini);
    let start: J = serde_json::from_str(&events(&out)[0].1).unwrap();
    assert_eq!(start["type"], "message_start");
    assert_eq!(
        start.pointer("/message/usage/input_tokens"),
        Some(&J::from(7))
    );
    let a = extract(Dialect::Anthropic, &out);
    assert_eq!((a.input_tokens, a.output_tokens), (Some(7), Some(2)));
}

#[test]
fn one_message_start_one_cycle() {
    for from in ALL {
        let body = match from {
            Dialect::Chat => chat(CHAT_PARALLEL),
            Dialect::Anthropic => anthropic(ANTHROPIC_SIGNED),
            _ => continue,
        };
        for to in ALL {
            let (out, _) = bridge(from, to, &body);
            match to {
                Dialect::Anthropic => {
                    assert_eq!(count(&out, "event: message_start\n"), 1);
                    assert_eq!(count(&out, "event: message_stop\n"), 1);
                }
                Dialect::Responses => {
                    assert_eq!(count(&out, "event: response.created\n"), 1);
                    assert_eq!(count(&out, "event: response.completed\n"), 1);
                }
                Dialect::Chat => assert_eq!(count(&out, "data: [DONE]"), 1),
                _ => assert_eq!(count(&out, "finishReason"), 1),
            }
        }
    }
    // Two message_starts upstream: a typed error, the target's failed end.
    let mut twice = ANTHROPIC_SIGNED.to_vec();
    twice.insert(1, ANTHROPIC_SIGNED[0]);
    for to in ALL {
        let (out, error) = bridge(Dialect::Anthropic, to, &anthropic(&twice));
        assert_eq!(
            error,
            Some(BridgeErrorKind::Turn(
                ssekit::turn::TurnErrorKind::DuplicateStart
            ))
        );
        assert_eq!(
            extract(to, &out).end,
            "failed",
            "anthropic→{}: {out}",
            name(to)
        );
    }
}

#[test]
fn terminal_event_always() {
    // Cut streams, of each dialect, towards each: the target's failed end,
    // as a whole event after a blank line.
    let cut: [(Dialect, String); 4] = [
        (Dialect::Chat, chat(&CHAT_PARALLEL[..3])),
        (Dialect::Anthropic, anthropic(&ANTHROPIC_SIGNED[..4])),
        (
            Dialect::Gemini,
            sse(&[(
                "",
                r#"{"candidates":[{"content":{"parts":[{"text":"a"}]}}]}"#,
            )]),
        ),
        (
            Dialect::Responses,
            responses(&[
                r#"{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","status":"in_progress","output":[]}}"#,
            ]),
        ),
    ];
    for (from, body) in &cut {
        for to in ALL {
            // Cut inside an event, too: the failed end does not merge into
            // the partial event.
            for tail in ["", "data: {\"partial"] {
                let body = format!("{body}{tail}");
                let (out, error) = bridge(*from, to, &body);
                assert!(error.is_some(), "{}→{}", name(*from), name(to));
                assert!(out.ends_with("\n\n"), "{out}");
                let a = extract(to, &out);
                assert_eq!(a.end, "failed", "{}→{}: {out}", name(*from), name(to));
                let last = events(&out).pop().unwrap();
                let terminal = match to {
                    Dialect::Anthropic => last.0 == "error",
                    Dialect::Chat => last.1 == "[DONE]",
                    Dialect::Gemini => last.1.contains("\"error\""),
                    _ => last.0 == "response.failed",
                };
                assert!(terminal, "{}→{}: {out}", name(*from), name(to));
            }
        }
    }
    // An upstream error event becomes the target's terminal error.
    let errors: [(Dialect, String); 4] = [
        (
            Dialect::Chat,
            chat(&[r#"{"error":{"message":"boom","type":"server_error","code":"x"}}"#]),
        ),
        (
            Dialect::Anthropic,
            anthropic(&[
                ANTHROPIC_SIGNED[0],
                r#"{"type":"error","error":{"type":"overloaded_error","message":"boom"}}"#,
            ]),
        ),
        (
            Dialect::Gemini,
            sse(&[(
                "",
                r#"{"error":{"code":503,"message":"boom","status":"UNAVAILABLE"}}"#,
            )]),
        ),
        (
            Dialect::Responses,
            responses(&[r#"{"type":"error","sequence_number":0,"code":"x","message":"boom"}"#]),
        ),
    ];
    for (from, body) in &errors {
        for to in ALL {
            let (out, error) = bridge(*from, to, body);
            assert_eq!(
                error,
                None,
                "a reported error is translated: {}→{}",
                name(*from),
                name(to)
            );
            assert_eq!(
                extract(to, &out).end,
                "failed",
                "{}→{}: {out}",
                name(*from),
                name(to)
            );
            assert!(out.contains("boom"), "the message is kept: {out}");
        }
    }
}

#[test]
fn finish_reason_without_done_is_complete() {
    let body = chat(&[
        r#"{"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"}}]}"#,
        r#"{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
        r#"{"id":"c","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}"#,
    ]);
    for to in ALL {
        let (out, error) = bridge(Dialect::Chat, to, &body);
        assert_eq!(error, None, "chat→{}: {out}", name(to));
        let a = extract(to, &out);
        assert_eq!((a.end.as_str(), a.text.as_str()), ("completed", "ok"));
        assert_eq!(
            (a.input_tokens, a.output_tokens),
            (Some(3), Some(1)),
            "{out}"
        );
    }
}

#[test]
fn keep_alives_pass_on() {
    let ping = anthropic(&[
        ANTHROPIC_SIGNED[0],
        r#"{"type":"ping"}"#,
        ANTHROPIC_SIGNED[5],
        r#"{"type":"ping"}"#,
        ANTHROPIC_SIGNED[6],
        ANTHROPIC_SIGNED[7],
        ANTHROPIC_SIGNED[8],
        ANTHROPIC_SIGNED[10],
    ]);
    let comment = format!(
        ": OPENROUTER PROCESSING\n\n{}: keep\n\n{}",
        chat(&[r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a"}}]}"#]),
        chat(&[
            r#"{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
            "[DONE]"
        ])
    );
    for (from, body) in [(Dialect::Anthropic, &ping), (Dialect::Chat, &comment)] {
        for to in ALL {
            let (out, error) = bridge(from, to, body);
            assert_eq!(error, None);
            let a = extract(to, &out);
            assert_eq!(a.keep_alives, 2, "{}→{}: {out}", name(from), name(to));
            assert_eq!(a.end, "completed");
        }
    }
}

#[test]
fn first_choice_bridged_others_reported() {
    let body = chat(&[
        r#"{"id":"c","choices":[{"index":0,"delta":{"content":"zero"}},{"index":1,"delta":{"content":"one"}}]}"#,
        r#"{"id":"c","choices":[{"index":1,"delta":{},"finish_reason":"stop"}]}"#,
        r#"{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
        "[DONE]",
    ]);
    let gemini = sse(&[
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"text":"zero"}]},"index":0},{"content":{"parts":[{"text":"one"}]},"index":1,"finishReason":"STOP"}]}"#,
        ),
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"text":""}]},"index":0,"finishReason":"STOP"}]}"#,
        ),
    ]);
    for (from, body, skipped) in [(Dialect::Chat, &body, 2), (Dialect::Gemini, &gemini, 1)] {
        for to in ALL {
            let mut b = BytesBridge::new(translate(from, to, &BridgeConfig::default()));
            b.feed(Bytes::from(body.clone())).unwrap();
            b.finish().unwrap();
            assert_eq!(
                b.get_ref().reader().skipped(),
                skipped,
                "{}→{}",
                name(from),
                name(to)
            );
            let out = String::from_utf8(b.take().to_vec()).unwrap();
            assert_eq!(extract(to, &out).text, "zero");
        }
    }
}

#[test]
fn gemini_calls_keep_their_own_index() {
    let body = sse(&[
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"a","args":{"n":1}}}],"role":"model"}}],"responseId":"r"}"#,
        ),
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"b","args":{"n":2}}}],"role":"model"},"finishReason":"STOP"}]}"#,
        ),
    ]);
    let want = vec![
        ("a".to_string(), serde_json::json!({"n": 1})),
        ("b".to_string(), serde_json::json!({"n": 2})),
    ];
    for to in ALL {
        let (out, error) = bridge(Dialect::Gemini, to, &body);
        assert_eq!(error, None);
        assert_eq!(extract(to, &out).calls, want, "gemini→{}: {out}", name(to));
    }
    let (out, _) = bridge(Dialect::Gemini, Dialect::Chat, &body);
    assert!(out.contains(r#""tool_calls":[{"index":1,"#), "{out}");
    assert!(out.contains(r#""finish_reason":"tool_calls""#), "{out}");
}

#[test]
fn responses_objects_carry_request_fields() {
    for from in [Dialect::Chat, Dialect::Anthropic] {
        let body = if from == Dialect::Chat {
            chat(CHAT_PARALLEL)
        } else {
            anthropic(ANTHROPIC_SIGNED)
        };
        let (out, _) = bridge(from, Dialect::Responses, &body);
        let mut n = 0;
        for (_, data) in events(&out) {
            let v: J = serde_json::from_str(&data).unwrap();
            if let Some(r) = v.get("response") {
                n += 1;
                assert_eq!(r["tools"], serde_json::json!([]));
                assert_eq!(r["tool_choice"], "auto");
                assert_eq!(r["parallel_tool_calls"], true);
            }
        }
        assert_eq!(n, 3, "created, in_progress, completed");
    }
    // Towards Chat, the first chunk carries the role.
    let (out, _) = bridge(
        Dialect::Anthropic,
        Dialect::Chat,
        &anthropic(ANTHROPIC_SIGNED),
    );
    let first: J = serde_json::from_str(&events(&out)[0].1).unwrap();
    assert_eq!(
        first.pointer("/choices/0/delta/role"),
        Some(&J::from("assistant"))
    );
}

#[test]
fn responses_objects_carry_the_requests_fields_when_given() {
    let mut config = ssekit::turn::TurnConfig::default();
    config.tools = Some(r#"[{"type":"function","name":"f"}]"#.into());
    config.tool_choice = Some(r#""required""#.into());
    config.parallel_tool_calls = Some(false);
    let mut b = BytesBridge::new(ssekit::bridge::Translate::from_parts(
        ssekit::turn::ChatReader::new(&config),
        ssekit::turn::ResponsesTurnWriter::new(config),
    ));
    b.feed(Bytes::from(chat(CHAT_PARALLEL))).unwrap();
    b.finish().unwrap();
    let out = String::from_utf8(b.take().to_vec()).unwrap();
    let mut n = 0;
    for (_, data) in events(&out) {
        let v: J = serde_json::from_str(&data).unwrap();
        if let Some(r) = v.get("response") {
            n += 1;
            assert_eq!(
                r["tools"],
                serde_json::json!([{"type": "function", "name": "f"}])
            );
            assert_eq!(r["tool_choice"], "required");
            assert_eq!(r["parallel_tool_calls"], false);
        }
    }
    assert_eq!(n, 3);
}

// ---------------------------------------------------------------- hosted items

/// The items only the stream's dialect has, by hand with serde_json: a
/// Responses stream's `output_item.done` items that are not a message,
/// reasoning or function call; an Anthropic stream's blocks that are not
/// text, thinking or a tool use, each with the `input_json_delta` text it
/// received.
fn hosted(d: Dialect, text: &str) -> Vec<(J, String)> {
    let mut out: Vec<(J, String)> = Vec::new();
    let mut by_index = std::collections::BTreeMap::<u64, usize>::new();
    for (_, data) in events(text) {
        let Ok(v) = serde_json::from_str::<J>(&data) else {
            continue;
        };
        match (d, v["type"].as_str().unwrap_or("")) {
            (Dialect::Responses, "response.output_item.done") => {
                let ty = v["item"]["type"].as_str().unwrap_or("");
                if !matches!(ty, "message" | "reasoning" | "function_call") {
                    out.push((v["item"].clone(), String::new()));
                }
            }
            (Dialect::Anthropic, "content_block_start") => {
                let ty = v["content_block"]["type"].as_str().unwrap_or("");
                if !matches!(ty, "text" | "thinking" | "redacted_thinking" | "tool_use") {
                    by_index.insert(v["index"].as_u64().unwrap(), out.len());
                    out.push((v["content_block"].clone(), String::new()));
                }
            }
            (Dialect::Gemini, _) => {
                // Candidate 0's parts that are not text, a thought, a
                // function call or a bare signature (code, its result,
                // data).
                for c in v["candidates"].as_array().into_iter().flatten() {
                    if c["index"].as_u64().unwrap_or(0) != 0 {
                        continue;
                    }
                    for part in c["content"]["parts"].as_array().into_iter().flatten() {
                        let own = part
                            .as_object()
                            .unwrap()
                            .keys()
                            .any(|k| !matches!(k.as_str(), "thought" | "thoughtSignature"));
                        if own && part.get("text").is_none() && part.get("functionCall").is_none() {
                            out.push((part.clone(), String::new()));
                        }
                    }
                }
            }
            (Dialect::Anthropic, "content_block_delta") => {
                let at = by_index.get(&v["index"].as_u64().unwrap_or(u64::MAX));
                if let (Some(&at), Some(s)) = (at, v["delta"]["partial_json"].as_str()) {
                    out[at].1.push_str(s);
                }
            }
            _ => {}
        }
    }
    out
}

/// Hosted tool items (Responses `web_search_call`, Anthropic
/// `server_tool_use` and its result, …) go through a bridge into their own
/// dialect untouched, and into any other are counted as not carried:
/// never dropped without a word.
#[test]
fn hosted_items_carried_or_counted() {
    let mut carried = 0;
    let mut counted = 0;
    for (file, from, body) in streams() {
        let upstream_text = String::from_utf8_lossy(&body);
        let want = hosted(from, &upstream_text);
        if want.is_empty() {
            continue;
        }
        let upstream = extract(from, &upstream_text);
        if upstream.end != "completed" && upstream.end != "incomplete" {
            continue;
        }
        for to in ALL {
            let mut b = BytesBridge::new(translate(from, to, &BridgeConfig::default()));
            let mut out = Vec::new();
            let mut error = b.feed(Bytes::from(body.clone())).err();
            out.extend_from_slice(&b.take());
            if let Err(e) = b.finish() {
                error.get_or_insert(e);
            }
            out.extend_from_slice(&b.take());
            let out = String::from_utf8(out).unwrap();
            let ctx = format!("{file} {}→{}: {error:?}", name(from), name(to));
            assert!(error.is_none(), "{ctx}");
            if to == from {
                assert_eq!(hosted(to, &out), want, "carried untouched: {ctx}");
                assert_eq!(b.get_ref().not_carried(), 0, "{ctx}");
                if to == Dialect::Responses {
                    // The terminal response lists them too.
                    let last = events(&out).pop().unwrap().1;
                    let v: J = serde_json::from_str(&last).unwrap();
                    let listed: Vec<J> = v["response"]["output"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|i| want.iter().any(|(w, _)| w == *i))
                        .cloned()
                        .collect();
                    assert_eq!(listed.len(), want.len(), "terminal output: {ctx}");
                }
                carried += want.len();
            } else {
                assert_eq!(
                    b.get_ref().not_carried(),
                    want.len() as u64,
                    "counted: {ctx}"
                );
                counted += want.len();
            }
        }
    }
    eprintln!("hosted items: {carried} carried into their own dialect, {counted} counted as not carried elsewhere");
    if corpus::corpus_dir().is_some() {
        assert!(
            carried > 0 && counted > 0,
            "the corpus has hosted tool streams"
        );
    }
}

/// A writer that hears every fault and keeps it: the readers go on.
#[derive(Default)]
struct Faults(Vec<TurnErrorKind>);

impl TurnWriter for Faults {
    fn write(&mut self, _: &TurnEvent<'_>) -> Result<(), TurnError> {
        Ok(())
    }
    fn fault(&mut self, error: TurnError) -> Result<(), TurnError> {
        self.0.push(error.kind());
        Ok(())
    }
    fn fail(&mut self, _: &str, _: &str) {}
    fn take(&mut self) -> Bytes {
        Bytes::new()
    }
    fn is_finished(&self) -> bool {
        false
    }
}

/// Reads `data` frames with `reader` into `out`: each frame's result, then
/// the end's.
fn read_all<R: TurnReader, W: TurnWriter>(
    reader: &mut R,
    out: &mut W,
    data: &[&str],
) -> Vec<Result<(), TurnErrorKind>> {
    let mut results: Vec<_> = data
        .iter()
        .map(|d| reader.read(&Frame::new(*d), out).map_err(|e| e.kind()))
        .collect();
    results.push(reader.finish(out).map_err(|e| e.kind()));
    results
}

#[test]
fn tolerated_faults_are_read_past_and_others_stop_the_event() {
    use TurnErrorKind as K;
    let hi = r#"{"id":"c","choices":[{"index":0,"delta":{"content":"Hi"}}]}"#;
    let stop = r#"{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#;
    let args = r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}"#;
    let two = r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a"}},{"index":1,"delta":{"content":"b"}}]}"#;

    // A second [DONE], no [DONE]: read past by default.
    let mut out = Collect::default();
    let r = read_all(
        &mut ChatReader::default(),
        &mut out,
        &[hi, stop, "[DONE]", "[DONE]"],
    );
    assert!(r.iter().all(Result::is_ok), "{r:?}");
    assert!(out.ended && out.text == "Hi");
    let mut out = Collect::default();
    let r = read_all(&mut ChatReader::default(), &mut out, &[hi, stop]);
    assert!(r.iter().all(Result::is_ok), "{r:?}");
    assert!(out.ended);
    // A call with neither id nor name cannot start: the event's error.
    let r = read_all(
        &mut ChatReader::default(),
        &mut Collect::default(),
        &[args, stop],
    );
    let no_call = K::CallWithoutId {
        choice: 0,
        call: 0,
        no_id: true,
        no_name: true,
    };
    assert_eq!(r, [Err(no_call), Ok(()), Ok(())]);
    // Every choice, with a writer that hears every fault: the call, then
    // choice 1 never stopped and no [DONE], at the end.
    let mut faults = Faults::default();
    let mut reader = ChatReader::default().every_choice(8);
    let r = read_all(&mut reader, &mut faults, &[two, args, stop]);
    assert!(r.iter().all(Result::is_ok), "{r:?}");
    assert_eq!(
        faults.0,
        [no_call, K::ChoiceNotStopped { choice: 1 }, K::MissingEnd]
    );
    // A choice past the call limit: its later calls are not checked, its
    // stop in the same chunk still is (no "never stopped" at the end).
    let calls = r#"{"id":"c","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":"stop"},{"index":1,"delta":{"tool_calls":[{"index":0,"id":"x","function":{"name":"f","arguments":"{}"}},{"index":1,"id":"y","function":{"name":"g","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}"#;
    let mut config = TurnConfig::default();
    config.max_items = 1;
    let mut faults = Faults::default();
    let mut reader = ChatReader::new(&config).every_choice(8);
    let r = read_all(&mut reader, &mut faults, &[calls]);
    assert!(r.iter().all(Result::is_ok), "{r:?}");
    assert_eq!(faults.0, [K::TooManyItems { limit: 1 }, K::MissingEnd]);

    let start = r#"{"type":"message_start","message":{"id":"m","model":"x"}}"#;
    let text0 =
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#;
    let text2 =
        r#"{"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}"#;
    let stop0 = r#"{"type":"content_block_stop","index":0}"#;
    let stop2 = r#"{"type":"content_block_stop","index":2}"#;
    let error = r#"{"type":"error","error":{"type":"overloaded_error","message":"o"}}"#;
    let msg_stop = r#"{"type":"message_stop"}"#;
    let future = r#"{"type":"future_event"}"#;

    // A skipped index, an unknown event, no stop reason: read past.
    let mut out = Collect::default();
    let r = read_all(
        &mut AnthropicReader::default(),
        &mut out,
        &[start, text2, future, stop2, msg_stop],
    );
    assert!(r.iter().all(Result::is_ok), "{r:?}");
    assert!(out.ended);
    // A second stop of a block: the event's error.
    let r = read_all(
        &mut AnthropicReader::default(),
        &mut Collect::default(),
        &[start, text0, stop0, stop0],
    );
    assert_eq!(r[3], Err(K::DuplicateEnd { index: 0 }));
    // Thorough: on past an error event, each fault heard.
    let mut faults = Faults::default();
    let mut reader = AnthropicReader::default().thorough();
    let r = read_all(
        &mut reader,
        &mut faults,
        &[start, error, text2, future, msg_stop, msg_stop],
    );
    assert!(r.iter().all(Result::is_ok), "{r:?}");
    assert_eq!(
        faults.0,
        [
            K::IndexSkipped { index: 2, next: 0 },
            K::UnknownEvent,
            K::NoStopReason,
            K::ItemNotClosed { index: 2 },
            K::SecondEnd,
        ]
    );
}

/// A Vertex AI stream whose first call's arguments stream in pieces
/// (`partialArgs`, `willContinue`), ended by an empty `functionCall`, then
/// a call in one piece.
fn gemini_streamed_arguments() -> String {
    sse(&[
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"text":"Checking."}],"role":"model"}}],"responseId":"r"}"#,
        ),
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","partialArgs":[{"jsonPath":"$.location","stringValue":"San Fra","willContinue":true}],"willContinue":true},"thoughtSignature":"c2ln"}],"role":"model"}}]}"#,
        ),
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.location","stringValue":"ncisco, \"CA\""},{"jsonPath":"$.days","numberValue":3}],"willContinue":true}}],"role":"model"}}]}"#,
        ),
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.units[0]","stringValue":"C"},{"jsonPath":"$.units[1]","stringValue":"F"}],"willContinue":true}}],"role":"model"}}]}"#,
        ),
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{}},{"functionCall":{"name":"ping","partialArgs":[{"jsonPath":"$.ok","boolValue":true}]}}],"role":"model"},"finishReason":"STOP"}]}"#,
        ),
    ])
}

#[test]
fn gemini_streamed_arguments_are_one_call_in_fragments() {
    let body = gemini_streamed_arguments();
    // By hand: the pieces of the first call, in order.
    let want = vec![
        (
            "get_weather".to_string(),
            serde_json::json!({"location": "San Francisco, \"CA\"", "days": 3, "units": ["C", "F"]}),
        ),
        ("ping".to_string(), serde_json::json!({"ok": true})),
    ];
    for to in ALL {
        for chunk in [1, 7, usize::MAX] {
            let (out, error) = bridge_with(
                Dialect::Gemini,
                to,
                &BridgeConfig::default(),
                body.as_bytes(),
                chunk,
            );
            assert_eq!(error, None, "gemini→{}: {out}", name(to));
            assert_eq!(extract(to, &out).calls, want, "gemini→{}: {out}", name(to));
        }
    }
    // Towards Chat the first call streams: one `tool_calls` entry opening
    // it (with its name, no arguments yet) and one per part, at the same
    // index.
    let (out, _) = bridge(Dialect::Gemini, Dialect::Chat, &body);
    let fragments: Vec<String> = events(&out)
        .iter()
        .filter_map(|(_, d)| serde_json::from_str::<J>(d).ok())
        .filter_map(|c| {
            let call = &c["choices"][0]["delta"]["tool_calls"][0];
            (call["index"] == 0)
                .then(|| call["function"]["arguments"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(
        fragments,
        [
            "",
            r#"{"location":"San Fra"#,
            r#"ncisco, \"CA\"","days":3"#,
            r#","units":["C","F""#,
            "]}",
        ],
        "{out}"
    );

    // The reader's events, accumulated: two calls, the first signed.
    let mut parser = ssekit::Parser::new();
    parser.feed(Bytes::from(body));
    let mut reader = ssekit::turn::GeminiReader::default();
    let mut acc = ssekit::accumulate::TurnAccumulator::new();
    while let Some(frame) = parser.next_frame().unwrap() {
        acc.read(&mut reader, &frame).unwrap();
    }
    acc.finish_reader(&mut reader).unwrap();
    let turn = acc.into_turn();
    let calls: Vec<(&str, &str)> = turn
        .items()
        .iter()
        .filter(|i| matches!(i.kind(), ssekit::turn::FinalItemKind::ToolCall { .. }))
        .map(|i| (i.arguments(), i.signature()))
        .collect();
    assert_eq!(
        calls,
        [
            (
                r#"{"location":"San Francisco, \"CA\"","days":3,"units":["C","F"]}"#,
                "c2ln"
            ),
            (r#"{"ok":true}"#, "")
        ]
    );
}

#[test]
fn gemini_streamed_arguments_out_of_order_are_invalid() {
    let body = sse(&[
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","partialArgs":[{"jsonPath":"$.a[0]","numberValue":1}],"willContinue":true}}],"role":"model"}}]}"#,
        ),
        (
            "",
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.a[2]","numberValue":3}]}}],"role":"model"},"finishReason":"STOP"}]}"#,
        ),
    ]);
    let mut parser = ssekit::Parser::new();
    parser.feed(Bytes::from(body));
    let mut reader = ssekit::turn::GeminiReader::default();
    let mut c = Collect::default();
    let mut errors = Vec::new();
    while let Some(frame) = parser.next_frame().unwrap() {
        use ssekit::turn::TurnReader;
        if let Err(e) = reader.read(&frame, &mut c) {
            errors.push((e.kind(), e.event_index()));
        }
    }
    assert_eq!(errors, [(ssekit::turn::TurnErrorKind::InvalidArguments, 1)]);
}

/// A refused piece adds no text: the call's fragments stay a JSON object
/// with the other pieces in it, and a writer that hears faults (a linter)
/// gets the fault and the rest of the chunk, its stop included.
#[test]
fn gemini_refused_piece_leaves_the_arguments_whole() {
    use ssekit::turn::{ItemKind, TurnReader};
    #[derive(Default)]
    struct Heard {
        args: String,
        ended: bool,
        stopped: bool,
        faults: Vec<(TurnErrorKind, u64)>,
    }
    impl TurnWriter for Heard {
        fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
            match event {
                TurnEvent::ItemStart {
                    item: ItemKind::ToolCall { .. },
                    ..
                } => {}
                TurnEvent::Delta {
                    kind: ssekit::turn::DeltaKind::Arguments,
                    text,
                    ..
                } => text.unescape_into(&mut self.args),
                TurnEvent::ItemEnd { .. } => self.ended = true,
                TurnEvent::Stop { .. } => self.stopped = true,
                _ => {}
            }
            Ok(())
        }
        fn fault(&mut self, error: TurnError) -> Result<(), TurnError> {
            self.faults.push((error.kind(), error.event_index()));
            Ok(())
        }
        fn fail(&mut self, _: &str, _: &str) {}
        fn take(&mut self) -> Bytes {
            Bytes::new()
        }
        fn is_finished(&self) -> bool {
            false
        }
    }
    // `$.b[1]` skips index 0 of a new array: refused; `$.a` and `$.c` fit.
    let first = r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","partialArgs":[{"jsonPath":"$.a","numberValue":1},{"jsonPath":"$.b[1]","numberValue":2}],"willContinue":true}}],"role":"model"}}]}"#;
    let last = r#"{"candidates":[{"content":{"parts":[{"functionCall":{"partialArgs":[{"jsonPath":"$.c","numberValue":3}]}}],"role":"model"},"finishReason":"STOP"}]}"#;
    let mut reader = ssekit::turn::GeminiReader::default();
    let mut out = Heard::default();
    let r = read_all(&mut reader, &mut out, &[first, last]);
    assert_eq!(r, [Ok(()), Ok(()), Ok(())]);
    assert_eq!(out.faults, [(TurnErrorKind::InvalidArguments, 0)]);
    // By hand: the pieces that fit, in order, closed at the last part.
    assert_eq!(out.args, r#"{"a":1,"c":3}"#);
    let parsed: J = serde_json::from_str(&out.args).unwrap();
    assert_eq!(parsed, serde_json::json!({"a": 1, "c": 3}));
    assert!(out.ended && out.stopped);
    // A writer that stops at the fault still got the text before it.
    let mut reader = ssekit::turn::GeminiReader::default();
    let mut c = Collect::default();
    let r = reader.read(&Frame::new(first), &mut c);
    assert_eq!(
        r.map_err(|e| e.kind()),
        Err(TurnErrorKind::InvalidArguments)
    );
    assert_eq!(c.args.values().collect::<Vec<_>>(), [r#"{"a":1"#]);
}

/// A server tool's input streams as `input_json_delta` fragments after its
/// block's `"input":{}`: the final message in Anthropic's shape has the
/// block with the input the fragments spell.
#[test]
fn anthropic_server_tool_input_in_the_final_message() {
    let body = anthropic(&[
        r#"{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-x","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}"#,
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\": \"rust"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":" sse\"}"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}"#,
        r#"{"type":"message_stop"}"#,
    ]);
    let mut parser = ssekit::Parser::new();
    parser.feed(Bytes::from(body));
    let mut reader = ssekit::turn::AnthropicReader::default();
    let mut acc = ssekit::accumulate::TurnAccumulator::new().from_dialect(Dialect::Anthropic);
    while let Some(frame) = parser.next_frame().unwrap() {
        acc.read(&mut reader, &frame).unwrap();
    }
    acc.finish_reader(&mut reader).unwrap();
    let message: J = serde_json::from_str(&acc.into_turn().to_json(Dialect::Anthropic)).unwrap();
    assert_eq!(
        message["content"],
        serde_json::json!([{"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "rust sse"}}])
    );
}

#[test]
fn a_checked_responses_reader_reports_order_faults_and_reads_on() {
    use ssekit::responses::order::{Fault, OrderConfig};
    use TurnErrorKind as K;
    let created = r#"{"type":"response.created","sequence_number":0,"response":{"id":"r"}}"#;
    let added = r#"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"m","type":"message"}}"#;
    // Number 3 after 1: one missing. Before its content part: read past.
    let delta = r#"{"type":"response.output_text.delta","sequence_number":3,"item_id":"m","output_index":0,"content_index":0,"delta":"Hi"}"#;
    let completed = r#"{"type":"response.completed","sequence_number":4,"response":{"id":"r","status":"completed"}}"#;
    let stream = [created, added, delta, completed];

    let mut reader = ResponsesReader::checked(&TurnConfig::default(), OrderConfig::DEFAULT);
    let mut out = Faults::default();
    let r = read_all(&mut reader, &mut out, &stream);
    assert!(r.iter().all(Result::is_ok), "{r:?}");
    // The gap, the part never added; then the item still open at the
    // terminal event (1 of them).
    assert_eq!(
        out.0,
        [
            K::Order(Fault::SequenceGap {
                expected: 2,
                found: 3
            }),
            K::Order(Fault::PartNotAdded {
                kind: ssekit::responses::PartKind::Content,
                index: 0
            }),
            K::Order(Fault::ItemsNotDone { open: 1 }),
        ]
    );
    let order = reader.order().expect("a checked reader has its checker");
    assert_eq!(order.events(), 4);
    // The text still reached the writer: faults are read past.
    let mut text = Collect::default();
    let r = read_all(
        &mut ResponsesReader::checked(&TurnConfig::default(), OrderConfig::DEFAULT),
        &mut text,
        &stream,
    );
    assert!(r.iter().all(Result::is_ok), "{r:?}");
    assert_eq!(text.text, "Hi");
    // A reader that is not checked hears of none.
    let mut out = Faults::default();
    let r = read_all(&mut ResponsesReader::default(), &mut out, &stream);
    assert!(r.iter().all(Result::is_ok), "{r:?}");
    assert_eq!(out.0, []);
    assert!(ResponsesReader::default().order().is_none());
}

#[test]
fn a_checked_responses_reader_reports_a_first_event_that_is_not_created() {
    use ssekit::responses::order::OrderConfig;
    let added = r#"{"type":"response.output_item.added","sequence_number":1,"output_index":0,"item":{"id":"m","type":"message"}}"#;
    let completed = r#"{"type":"response.output_item.done","sequence_number":2,"output_index":0,"item":{"id":"m","type":"message"}}"#;
    let mut reader = ResponsesReader::checked(&TurnConfig::default(), OrderConfig::DEFAULT);
    let mut out = Faults::default();
    let r = read_all(&mut reader, &mut out, &[added, completed]);
    // Read past; the end without a terminal event is the reader's error.
    assert_eq!(r[..2], [Ok(()), Ok(())]);
    assert_eq!(r[2], Err(TurnErrorKind::Truncated));
    assert_eq!(out.0, [TurnErrorKind::StartNotFirst]);
}
