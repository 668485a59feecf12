//! The turn model's bridges in all 12 directions: every recorded stream of
//! the corpus and of `tests/data`, bridged at several chunkings, read back
//! by an independent extractor (serde_json over each event, written here
//! per dialect) and by the crate's own reader of the target dialect; and
//! one test per translation bug gateways have shipped, in every direction
//! it applies to.

#[path = "support/corpus.rs"]
mod corpus;

use serde_json::Value as J;
use ssekit::bridge::{translate, BridgeConfig, BridgeErrorKind, BytesBridge};
use ssekit::turn::{Dialect, TurnError, TurnEvent, TurnWriter};
use ssekit::Bytes;

const ALL: [Dialect; 4] = Dialect::ALL;

fn name(d: Dialect) -> &'static str {
    match d {
        Dialect::Responses => "responses",
        Dialect::Chat => "chat",
        Dialect::Anthropic => "anthropic",
        Dialect::Gemini => "gemini",
        _ => "?",
    }
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
            let mut finish = None;
            for (ev, data) in &evs {
                if ev == ":" {
                    a.keep_alives += 1;
                    continue;
                }
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
                K::Arguments => text.unescape_into(self.args.entry(*index).or_default()),
                _ => {}
            },
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
    use ssekit::turn::{TurnConfig, TurnReader};
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
