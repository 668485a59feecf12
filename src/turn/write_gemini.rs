//! The Gemini writer: `streamGenerateContent?alt=sse` chunks.

use alloc::collections::BTreeMap;
use alloc::string::String;
use bytes::{BufMut, Bytes, BytesMut};
use core::fmt::Write;

use super::{
    DeltaKind, ItemKind, StopReason, TurnConfig, TurnError, TurnErrorKind, TurnEvent, TurnStart,
    TurnUsage, TurnWriter,
};
use crate::json::{push_json_str, JsonStr, ObjectView, ObjectWriter};

/// A tool call being gathered: Gemini sends a function call whole.
#[derive(Debug, Default)]
struct Call {
    /// `"id"` and `"name"` members, written.
    head: String,
    /// The arguments' JSON text (unescaped).
    args: String,
    /// The `thoughtSignature` that rides on the call, as JSON string text.
    signature: String,
    /// The bytes of the call's fragments counted against
    /// `max_held_bytes` (their escaped length, as they arrived).
    held: usize,
}

/// Writes a turn as Gemini `GenerateContentResponse` chunks, one part per
/// chunk (candidate 0).
///
/// | model | part |
/// | --- | --- |
/// | text, refusal | `{"text": …}` |
/// | reasoning, summary | `{"text": …, "thought": true}` |
/// | a signature of a reasoning item | an empty thought part with its `thoughtSignature`, when the item ends |
/// | a tool call | `{"functionCall": {"id", "name", "args"}}` when the call ends (arguments gathered, up to [`TurnConfig::max_held_bytes`]), with the call's signature as its `thoughtSignature` |
/// | end | a chunk with `finishReason` and `usageMetadata` |
/// | error, failure | `{"error": {"code", "message", "status"}}` |
/// | keep-alive | an empty line |
///
/// Every chunk carries `modelVersion` and `responseId`. A keep-alive is an
/// empty line, not an SSE comment: `google-genai` (Python) reads every line
/// that is not `data:` as JSON (the way the API sends an error), so a
/// comment fails the stream there, while an empty line is a no-op to every
/// SSE reader and still sends bytes.
#[derive(Debug)]
pub struct GeminiWriter {
    config: TurnConfig,
    out: BytesMut,
    json: String,
    /// `,"modelVersion":…,"responseId":…}` closing every chunk.
    tail: String,
    calls: BTreeMap<u64, Call>,
    /// The signature of reasoning items, by item.
    signature: String,
    held: usize,
    usage: TurnUsage,
    stop: Option<StopReason>,
    finished: bool,
    /// Items of other dialects left out.
    not_carried: u64,
}

impl Default for GeminiWriter {
    fn default() -> Self {
        Self::new(TurnConfig::default())
    }
}

impl GeminiWriter {
    /// A writer with this config.
    pub fn new(config: TurnConfig) -> Self {
        Self {
            config,
            out: BytesMut::new(),
            json: String::new(),
            tail: String::new(),
            calls: BTreeMap::new(),
            signature: String::new(),
            held: 0,
            usage: TurnUsage::default(),
            stop: None,
            finished: false,
            not_carried: 0,
        }
    }

    fn tail(&mut self, start: Option<&TurnStart<'_>>) {
        if !self.tail.is_empty() {
            return;
        }
        let t = &mut self.tail;
        t.push_str(",\"modelVersion\":");
        match (&self.config.model, start.and_then(|s| s.model)) {
            (Some(m), _) => push_json_str(t, m),
            (None, Some(m)) => {
                t.push('"');
                t.push_str(m.raw());
                t.push('"');
            }
            (None, None) => t.push_str("\"\""),
        }
        t.push_str(",\"responseId\":");
        match (&self.config.id, start.and_then(|s| s.id)) {
            (Some(id), _) => push_json_str(t, id),
            (None, Some(id)) => {
                t.push('"');
                t.push_str(id.raw());
                t.push('"');
            }
            (None, None) => t.push_str("\"bridge\""),
        }
        t.push('}');
    }

    /// Writes a chunk with one part, written by `part`.
    fn part(&mut self, part: impl FnOnce(&mut String)) {
        self.tail(None);
        let j = &mut self.json;
        j.clear();
        j.push_str("{\"candidates\":[{\"content\":{\"parts\":[{");
        part(j);
        j.push_str("}],\"role\":\"model\"},\"index\":0}]");
        j.push_str(&self.tail);
        self.put();
    }

    fn put(&mut self) {
        self.out.reserve(self.json.len() + 8);
        self.out.put_slice(b"data: ");
        self.out.put_slice(self.json.as_bytes());
        self.out.put_slice(b"\n\n");
    }

    fn hold(&mut self, n: usize) -> Result<(), TurnError> {
        let limit = self.config.max_held_bytes;
        if self.held.saturating_add(n) > limit {
            return Err(TurnError::new(TurnErrorKind::HoldExceeded { limit }, 0));
        }
        self.held += n;
        Ok(())
    }

    fn error(&mut self, status: &str, message: &str) {
        if self.finished {
            return;
        }
        self.finished = true;
        let code = match status {
            "INVALID_ARGUMENT" => 400,
            "RESOURCE_EXHAUSTED" => 429,
            "UNAVAILABLE" => 503,
            _ => 500,
        };
        let j = &mut self.json;
        j.clear();
        let _ = write!(j, "{{\"error\":{{\"code\":{code},\"message\":");
        push_json_str(j, message);
        j.push_str(",\"status\":");
        push_json_str(j, status);
        j.push_str("}}");
        self.put();
    }

    fn end(&mut self) -> Result<(), TurnError> {
        // Calls still gathering are written whole now.
        let open: alloc::vec::Vec<u64> = self.calls.keys().copied().collect();
        for index in open {
            self.call_end(index)?;
        }
        let Some(reason) = finish_reason(self.stop.unwrap_or(StopReason::EndTurn)) else {
            self.error("INTERNAL", "the upstream stopped for an error");
            return Ok(());
        };
        self.finished = true;
        self.tail(None);
        let u = self.usage;
        let j = &mut self.json;
        j.clear();
        let _ = write!(
            j,
            "{{\"candidates\":[{{\"content\":{{\"parts\":[],\"role\":\"model\"}},\"finishReason\":\"{reason}\",\"index\":0}}]"
        );
        if u.input.is_some() || u.output.is_some() {
            j.push_str(",\"usageMetadata\":");
            usage_json(&u, j);
        }
        j.push_str(&self.tail);
        self.put();
        Ok(())
    }

    fn call_end(&mut self, index: u64) -> Result<(), TurnError> {
        let Some(call) = self.calls.remove(&index) else {
            return Ok(());
        };
        let args = call.args.trim();
        let args = if args.is_empty() { "{}" } else { args };
        if ObjectView::parse(args).is_err() {
            return Err(TurnError::new(TurnErrorKind::InvalidArguments, 0));
        }
        self.held = self.held.saturating_sub(call.held);
        self.part(|j| {
            j.push_str("\"functionCall\":{");
            j.push_str(&call.head);
            j.push_str("\"args\":");
            // The arguments were unescaped: a line break in them is JSON
            // whitespace (a string cannot hold one raw), and written as it
            // is it would end the SSE line. A space means the same.
            for c in args.chars() {
                j.push(if c == '\n' || c == '\r' { ' ' } else { c });
            }
            j.push('}');
            if !call.signature.is_empty() {
                j.push_str(",\"thoughtSignature\":\"");
                j.push_str(&call.signature);
                j.push('"');
            }
        });
        Ok(())
    }

    fn text(&mut self, s: JsonStr<'_>, thought: bool) {
        if s.is_empty() {
            return;
        }
        self.part(|j| {
            j.push_str("\"text\":\"");
            j.push_str(s.raw());
            j.push('"');
            if thought {
                j.push_str(",\"thought\":true");
            }
        });
    }
}

impl TurnWriter for GeminiWriter {
    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        if self.finished {
            return Ok(());
        }
        match *event {
            TurnEvent::Start(start) => self.tail(Some(&start)),
            TurnEvent::ItemStart {
                index,
                item: ItemKind::ToolCall { call_id, name },
            } => {
                let limit = self.config.max_items;
                if self.calls.len() >= limit {
                    return Err(TurnError::new(TurnErrorKind::TooManyItems { limit }, 0));
                }
                let mut call = Call::default();
                if let Some(id) = call_id {
                    call.head.push_str("\"id\":\"");
                    call.head.push_str(id.raw());
                    call.head.push_str("\",");
                }
                call.head.push_str("\"name\":\"");
                call.head.push_str(name.map_or("", |s| s.raw()));
                call.head.push_str("\",");
                if let Some(old) = self.calls.insert(index, call) {
                    self.held = self.held.saturating_sub(old.held);
                }
            }
            TurnEvent::ItemStart {
                item:
                    ItemKind::Other {
                        dialect: super::Dialect::Gemini,
                        raw: Some(raw),
                        ..
                    },
                ..
            } => {
                // A part of Gemini's own (code, its result, data): written
                // back as it came, less the whitespace between tokens.
                let raw = raw.get().trim();
                let inner = raw
                    .strip_prefix('{')
                    .and_then(|r| r.strip_suffix('}'))
                    .unwrap_or("");
                self.part(|j| crate::json::push_compact(j, inner));
            }
            TurnEvent::ItemStart {
                item: ItemKind::Other { .. },
                ..
            } => self.not_carried += 1,
            TurnEvent::Delta {
                index, kind, text, ..
            } => match kind {
                DeltaKind::Text | DeltaKind::Refusal => self.text(text, false),
                DeltaKind::Reasoning | DeltaKind::Summary => self.text(text, true),
                DeltaKind::Arguments | DeltaKind::Signature if self.calls.contains_key(&index) => {
                    self.hold(text.raw().len())?;
                    if let Some(call) = self.calls.get_mut(&index) {
                        call.held += text.raw().len();
                        if kind == DeltaKind::Arguments {
                            text.unescape_into(&mut call.args);
                        } else {
                            call.signature.push_str(text.raw());
                        }
                    }
                }
                DeltaKind::Signature => {
                    let limit = self.config.max_held_bytes;
                    if self.signature.len().saturating_add(text.raw().len()) > limit {
                        return Err(TurnError::new(TurnErrorKind::HoldExceeded { limit }, 0));
                    }
                    self.signature.push_str(text.raw());
                }
                _ => {}
            },
            TurnEvent::ItemEnd { index, .. } => {
                if self.calls.contains_key(&index) {
                    self.call_end(index)?;
                } else if !self.signature.is_empty() {
                    let sig = core::mem::take(&mut self.signature);
                    self.part(|j| {
                        j.push_str("\"text\":\"\",\"thought\":true,\"thoughtSignature\":\"");
                        j.push_str(&sig);
                        j.push('"');
                    });
                    self.signature = sig;
                    self.signature.clear();
                }
            }
            TurnEvent::Usage(u) => self.usage.merge(&u),
            TurnEvent::Stop(stop) => self.stop = Some(stop.reason),
            TurnEvent::Error(e) => {
                let mut message = String::new();
                match e.message {
                    Some(m) => m.unescape_into(&mut message),
                    None => message.push_str("error"),
                }
                let mut status = String::new();
                if let Some(c) = e.code {
                    c.unescape_into(&mut status);
                }
                let status = if !status.is_empty()
                    && status.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
                {
                    status.as_str()
                } else {
                    "INTERNAL"
                };
                let status = String::from(status);
                self.error(&status, &message);
            }
            TurnEvent::KeepAlive => self.out.put_slice(b"\n"),
            TurnEvent::End => self.end()?,
            _ => {}
        }
        Ok(())
    }

    fn fail(&mut self, _code: &str, message: &str) {
        self.error("INTERNAL", message);
    }

    fn take(&mut self) -> Bytes {
        self.out.split().freeze()
    }

    fn is_finished(&self) -> bool {
        self.finished
    }

    fn not_carried(&self) -> u64 {
        self.not_carried
    }
}

/// Gemini's `finishReason` for a stop (a turn that calls functions stops
/// with `STOP`); `None` for an upstream error, which Gemini reports as an
/// error object.
pub(crate) fn finish_reason(stop: StopReason) -> Option<&'static str> {
    Some(match stop {
        StopReason::Error => return None,
        StopReason::MaxTokens | StopReason::ContextWindow => "MAX_TOKENS",
        StopReason::ContentFilter | StopReason::Refusal => "SAFETY",
        _ => "STOP",
    })
}

/// Gemini's `usageMetadata`: `candidatesTokenCount` leaves out the
/// thoughts, which `thoughtsTokenCount` counts.
fn usage_json(u: &TurnUsage, j: &mut String) {
    let input = u.input.unwrap_or(0);
    let output = u.output.unwrap_or(0);
    // Never more thoughts than output tokens (an upstream can say so).
    let thoughts = u.reasoning.unwrap_or(0).min(output);
    let _ = write!(
        j,
        "{{\"promptTokenCount\":{input},\"candidatesTokenCount\":{},\"totalTokenCount\":{}",
        output.saturating_sub(thoughts),
        input.saturating_add(output)
    );
    if let Some(c) = u.cached {
        let _ = write!(j, ",\"cachedContentTokenCount\":{c}");
    }
    if thoughts > 0 {
        let _ = write!(j, ",\"thoughtsTokenCount\":{thoughts}");
    }
    j.push('}');
}

/// Writes a finished turn as a Gemini `GenerateContentResponse` (candidate
/// 0), one part per item.
///
/// | turn | response |
/// | --- | --- |
/// | a message or refusal item | `{"text"}` with its signature as `thoughtSignature` (left out when it has neither) |
/// | a reasoning item | `{"text", "thought": true}` with its signature as `thoughtSignature` (left out when it has neither) |
/// | a tool call | `{"functionCall": {"id", "name", "args"}}` with its signature as `thoughtSignature`; `args` left out when the arguments are not a JSON object (of a call not yet ended: the object they spell so far, closed) |
/// | an item only Gemini has | its part as the upstream wrote it, when the turn was read from Gemini and the reader kept it; else left out |
/// | stop | `finishReason`, as [`GeminiWriter`] writes it (the upstream's own string when the turn was read from Gemini); left out for a failed or cut turn that gave none |
/// | usage | `usageMetadata`, when known |
/// | id, model | `responseId`, `modelVersion` |
///
/// A turn read from Gemini keeps what its reader handed on as
/// [`Extra`](super::Extra) members: the response's `promptFeedback`, its
/// `usageMetadata` as it came, `createTime`; candidate 0's `role` (left
/// out when it sent none), `finishMessage`, `safetyRatings`, `citationMetadata`,
/// `groundingMetadata` and the rest, in the order the API gives them; no
/// `candidates` when none came (a blocked prompt); no `modelVersion` or
/// `responseId` the upstream did not give.
pub(crate) fn render(turn: &super::FinalTurn, out: &mut String) {
    render_candidates(&[turn], out);
}

/// Writes each turn as one candidate of a `GenerateContentResponse`, in
/// the order given (the response's own members from the first): the
/// turns of one response's candidates, each read by its own
/// [`GeminiReader`](super::GeminiReader). A turn read from Gemini whose
/// candidate never came is left out.
pub(crate) fn render_candidates(turns: &[&super::FinalTurn], out: &mut String) {
    use super::Dialect::Gemini;
    let mut w = ObjectWriter::new(out);
    let Some(first) = turns.first() else {
        w.end();
        return;
    };
    let own = first.source() == Some(Gemini);
    let came =
        |t: &super::FinalTurn| t.source() != Some(Gemini) || t.extra(Gemini, "index").is_some();
    if turns.iter().any(|t| came(t)) {
        let j = w.key("candidates");
        j.push('[');
        for (i, turn) in turns.iter().filter(|t| came(t)).enumerate() {
            if i > 0 {
                j.push(',');
            }
            candidate(turn, j);
        }
        j.push(']');
    }
    let extra = |key: &str| first.extra(Gemini, key);
    if let Some(raw) = extra("promptFeedback") {
        crate::json::push_compact(w.key("promptFeedback"), raw);
    }
    let u = first.usage();
    if let Some(raw) = extra("usageMetadata") {
        crate::json::push_compact(w.key("usageMetadata"), raw);
    } else if u.input.is_some() || u.output.is_some() {
        usage_json(&u, w.key("usageMetadata"));
    }
    if own {
        w.opt_str("modelVersion", first.model());
        w.opt_str("responseId", first.id());
    } else {
        w.str("modelVersion", first.model().unwrap_or(""));
        w.str("responseId", first.id().unwrap_or("bridge"));
    }
    if let Some(raw) = extra("createTime") {
        crate::json::push_compact(w.key("createTime"), raw);
    }
    w.end();
}

/// Writes `turn` as one element of `candidates`.
fn candidate(turn: &super::FinalTurn, j: &mut String) {
    use super::answer::{object_args, Ending, FinalItemKind};
    use super::Dialect::Gemini;
    let extra = |key: &str| turn.extra(Gemini, key);
    let mut parts = String::from("[");
    let sep = |parts: &mut String| {
        if parts.len() > 1 {
            parts.push(',');
        }
    };
    for item in turn.items() {
        match &item.kind {
            FinalItemKind::Message | FinalItemKind::Refusal => {
                let mut text = item.text();
                text.push_str(&item.refusal);
                if !text.is_empty() || !item.signature.is_empty() {
                    sep(&mut parts);
                    let mut p = ObjectWriter::new(&mut parts);
                    p.str("text", &text);
                    if !item.signature.is_empty() {
                        p.str("thoughtSignature", &item.signature);
                    }
                    p.end();
                }
            }
            FinalItemKind::Reasoning => {
                let thinking = item.thinking();
                if !thinking.is_empty() || !item.signature.is_empty() {
                    sep(&mut parts);
                    let mut p = ObjectWriter::new(&mut parts);
                    p.str("text", &thinking);
                    p.raw("thought", "true");
                    if !item.signature.is_empty() {
                        p.str("thoughtSignature", &item.signature);
                    }
                    p.end();
                }
            }
            FinalItemKind::ToolCall { call_id, name } => {
                sep(&mut parts);
                let mut p = ObjectWriter::new(&mut parts);
                let mut f = ObjectWriter::new(p.key("functionCall"));
                if let Some(id) = call_id {
                    f.str("id", id);
                }
                f.str("name", name.as_deref().unwrap_or(""));
                let mut args = String::new();
                if object_args(&item.arguments, &mut args) {
                    // Compact, as the API writes an object.
                    crate::json::push_compact(f.key("args"), &args);
                } else if !item.is_done() {
                    // Arguments still streaming (an answer so far): the
                    // object they spell, closed where they stand.
                    let closed = crate::json::partial::repair_partial_json(&item.arguments);
                    if let Ok(Some(closed)) = closed {
                        if object_args(&closed, &mut args) {
                            crate::json::push_compact(f.key("args"), &args);
                        }
                    }
                }
                f.end();
                if !item.signature.is_empty() {
                    p.str("thoughtSignature", &item.signature);
                }
                p.end();
            }
            FinalItemKind::Other {
                dialect: Gemini,
                raw: Some(raw),
                ..
            } => {
                sep(&mut parts);
                crate::json::push_compact(&mut parts, raw);
            }
            FinalItemKind::Other { .. } => {}
        }
    }
    parts.push(']');
    j.push_str("{\"content\":{\"parts\":");
    j.push_str(&parts);
    // A turn read from Gemini has the role its candidate gave, if any.
    match extra("role") {
        Some(role) => {
            j.push_str(",\"role\":");
            crate::json::push_compact(j, role);
        }
        None if turn.source() == Some(Gemini) => {}
        None => j.push_str(",\"role\":\"model\""),
    }
    j.push('}');
    let stop = match turn.stop_reason() {
        Some(stop) => turn.own_stop(Gemini).or_else(|| finish_reason(stop)),
        None if turn.ending() == Ending::Completed => finish_reason(StopReason::EndTurn),
        None => None,
    };
    if let Some(reason) = stop {
        j.push_str(",\"finishReason\":");
        push_json_str(j, reason);
    }
    let members = [
        "finishMessage",
        "safetyRatings",
        "citationMetadata",
        "groundingMetadata",
        "groundingAttributions",
        "urlContextMetadata",
        "logprobsResult",
        "avgLogprobs",
        "tokenCount",
    ];
    for key in members {
        if key == "citationMetadata" {
            let (sources, citations) = (extra("citationSources"), extra("citations"));
            if sources.is_some() || citations.is_some() {
                let mut m = ObjectWriter::new(raw_member(j, key));
                for (key, list) in [("citationSources", sources), ("citations", citations)] {
                    if let Some(list) = list {
                        crate::json::push_compact(m.key(key), list);
                    }
                }
                m.end();
            }
        } else if let Some(raw) = extra(key) {
            crate::json::push_compact(raw_member(j, key), raw);
        }
    }
    j.push_str(",\"index\":");
    j.push_str(extra("index").unwrap_or("0"));
    j.push('}');
}

/// Appends `,"key":` to an object being written by hand, for its value.
fn raw_member<'s>(j: &'s mut String, key: &str) -> &'s mut String {
    j.push_str(",\"");
    j.push_str(key);
    j.push_str("\":");
    j
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of a written stream is `data: …` or empty: the lines
    /// `google-genai` does not read as JSON.
    fn every_line_is_data_or_empty(out: &[u8]) {
        let text = core::str::from_utf8(out).unwrap();
        for line in text.split('\n') {
            assert!(
                line.is_empty() || line.starts_with("data: "),
                "{line:?} in {text:?}"
            );
        }
    }

    #[test]
    fn keep_alives_are_empty_lines() {
        let mut w = GeminiWriter::default();
        w.write(&TurnEvent::KeepAlive).unwrap();
        assert_eq!(&w.take()[..], b"\n");
        let text = JsonStr::new("\"Hi\"", false);
        for event in [
            TurnEvent::ItemStart {
                index: 0,
                item: ItemKind::Message,
            },
            TurnEvent::KeepAlive,
            TurnEvent::Delta {
                index: 0,
                kind: DeltaKind::Text,
                part: 0,
                text,
            },
            TurnEvent::KeepAlive,
            TurnEvent::ItemEnd {
                index: 0,
                whole: None,
            },
            TurnEvent::End,
        ] {
            w.write(&event).unwrap();
        }
        let out = w.take();
        every_line_is_data_or_empty(&out);
        let text = core::str::from_utf8(&out).unwrap();
        assert!(text.contains(r#""text":"Hi""#), "{text}");
        assert!(text.contains(r#""finishReason":"STOP""#), "{text}");
    }

    /// A call's arguments with line breaks (pretty-printed JSON, escaped
    /// in the upstream's string) stay on one `data:` line, and the bytes
    /// held for calls are all given back when they end.
    #[test]
    fn pretty_printed_arguments_stay_on_one_line_and_holds_are_released() {
        let mut w = GeminiWriter::default();
        for round in 0..3u64 {
            let index = round + 1;
            for event in [
                TurnEvent::ItemStart {
                    index,
                    item: ItemKind::ToolCall {
                        call_id: None,
                        name: Some(JsonStr::new("\"get\"", false)),
                    },
                },
                TurnEvent::Delta {
                    index,
                    kind: DeltaKind::Arguments,
                    part: 0,
                    text: JsonStr::new(r#""{\n  \"city\": \"Paris\"\r\n}""#, true),
                },
                TurnEvent::ItemEnd { index, whole: None },
            ] {
                w.write(&event).unwrap();
            }
            assert_eq!(w.held, 0, "round {round}");
        }
        w.write(&TurnEvent::End).unwrap();
        let out = w.take();
        every_line_is_data_or_empty(&out);
        let text = core::str::from_utf8(&out).unwrap();
        let mut calls = 0;
        for line in text.lines().filter(|l| !l.is_empty()) {
            let v: serde_json::Value = serde_json::from_str(&line["data: ".len()..]).unwrap();
            if let Some(call) = v["candidates"][0]["content"]["parts"][0].get("functionCall") {
                assert_eq!(call["args"], serde_json::json!({"city": "Paris"}));
                calls += 1;
            }
        }
        assert_eq!(calls, 3, "{text}");
    }
}
