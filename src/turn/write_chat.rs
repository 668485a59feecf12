//! The Chat Completions writer: `chat.completion.chunk`s, then
//! `data: [DONE]`.

use alloc::collections::BTreeMap;
use alloc::string::String;
use bytes::{BufMut, Bytes, BytesMut};
use core::fmt::Write;

use super::{
    DeltaKind, ItemKind, StopReason, TurnConfig, TurnError, TurnErrorKind, TurnEvent, TurnStart,
    TurnUsage, TurnWriter,
};
use crate::json::{push_json_str, JsonStr};

/// Writes a turn as Chat Completions chunks (`choices[0]` only).
///
/// | model | chunk |
/// | --- | --- |
/// | start | the head of every chunk (`chatcmpl-{id}`, `created`, `model`); a first chunk with `role: assistant` and empty `content` |
/// | text | `delta.content` |
/// | reasoning, summary | `delta.reasoning_content` (a blank line between summary parts) |
/// | refusal | `delta.refusal` |
/// | a tool call opens | `delta.tool_calls[{index, id, type, function: {name, arguments: ""}}]`, `index` counting calls from 0 |
/// | arguments | `delta.tool_calls[{index, function: {arguments}}]` (calls may interleave) |
/// | end | `finish_reason` (`tool_calls` when a call was made and the model ended its turn), a usage chunk when usage is known, `data: [DONE]` |
/// | error, failure | `{"error": {"message", "type", "code"}}`, `data: [DONE]` |
/// | keep-alive | `: keep-alive` |
///
/// Signatures, encrypted reasoning and items only other dialects have are
/// not written: a Chat client has no place for them.
#[derive(Debug)]
pub struct ChatWriter {
    config: TurnConfig,
    out: BytesMut,
    json: String,
    head: String,
    /// Tool call index (downstream) by model item index.
    calls: BTreeMap<u64, u64>,
    role_sent: bool,
    /// The (item, part) of the last summary fragment.
    summary: Option<(u64, u32)>,
    usage: TurnUsage,
    stop: Option<StopReason>,
    finished: bool,
    /// Items of other dialects left out.
    not_carried: u64,
}

impl Default for ChatWriter {
    fn default() -> Self {
        Self::new(TurnConfig::default())
    }
}

impl ChatWriter {
    /// A writer with this config.
    pub fn new(config: TurnConfig) -> Self {
        Self {
            config,
            out: BytesMut::new(),
            json: String::new(),
            head: String::new(),
            calls: BTreeMap::new(),
            role_sent: false,
            summary: None,
            usage: TurnUsage::default(),
            stop: None,
            finished: false,
            not_carried: 0,
        }
    }

    fn head(&mut self, start: Option<&TurnStart<'_>>) {
        if !self.head.is_empty() {
            return;
        }
        let h = &mut self.head;
        h.push_str("{\"id\":");
        match (&self.config.id, start.and_then(|s| s.id)) {
            (Some(id), _) => push_json_str(h, id),
            (None, Some(id)) if id.raw().starts_with("chatcmpl") => {
                h.push('"');
                h.push_str(id.raw());
                h.push('"');
            }
            (None, Some(id)) => {
                h.push_str("\"chatcmpl-");
                h.push_str(id.raw());
                h.push('"');
            }
            (None, None) => h.push_str("\"chatcmpl-bridge\""),
        }
        let created = self
            .config
            .created
            .or(start.and_then(|s| s.created))
            .unwrap_or(0);
        let _ = write!(
            h,
            ",\"object\":\"chat.completion.chunk\",\"created\":{created},\"model\":"
        );
        match (&self.config.model, start.and_then(|s| s.model)) {
            (Some(m), _) => push_json_str(h, m),
            (None, Some(m)) => {
                h.push('"');
                h.push_str(m.raw());
                h.push('"');
            }
            (None, None) => h.push_str("\"\""),
        }
        h.push(',');
    }

    /// Writes a chunk whose `choices[0].delta` is what `delta` writes.
    fn chunk(&mut self, finish: Option<&str>, delta: impl FnOnce(&mut String)) {
        self.head(None);
        let j = &mut self.json;
        j.clear();
        j.push_str(&self.head);
        j.push_str("\"choices\":[{\"index\":0,\"delta\":{");
        if !self.role_sent {
            j.push_str("\"role\":\"assistant\",");
            self.role_sent = true;
        }
        delta(j);
        if j.ends_with(',') {
            j.pop();
        }
        j.push_str("},\"finish_reason\":");
        match finish {
            Some(reason) => push_json_str(j, reason),
            None => j.push_str("null"),
        }
        j.push_str("}]}");
        self.put();
    }

    fn put(&mut self) {
        self.out.reserve(self.json.len() + 8);
        self.out.put_slice(b"data: ");
        self.out.put_slice(self.json.as_bytes());
        self.out.put_slice(b"\n\n");
    }

    fn text(&mut self, key: &str, s: JsonStr<'_>) {
        if s.is_empty() {
            return;
        }
        self.chunk(None, |j| {
            j.push('"');
            j.push_str(key);
            j.push_str("\":\"");
            j.push_str(s.raw());
            j.push('"');
        });
    }

    fn error_chunk(&mut self, code: &str, message: &str) {
        if self.finished {
            return;
        }
        self.finished = true;
        let j = &mut self.json;
        j.clear();
        j.push_str("{\"error\":{\"message\":");
        push_json_str(j, message);
        j.push_str(",\"type\":\"server_error\",\"code\":");
        push_json_str(j, code);
        j.push_str("}}");
        self.put();
        self.out.put_slice(b"data: [DONE]\n\n");
    }

    fn end(&mut self) {
        if self.finished {
            return;
        }
        let reason = match self.stop.unwrap_or(StopReason::EndTurn) {
            StopReason::Error => {
                self.error_chunk("server_error", "the upstream stopped for an error");
                return;
            }
            StopReason::MaxTokens | StopReason::ContextWindow => "length",
            StopReason::ContentFilter | StopReason::Refusal => "content_filter",
            StopReason::ToolUse => "tool_calls",
            _ if !self.calls.is_empty() => "tool_calls",
            _ => "stop",
        };
        self.finished = true;
        self.chunk(Some(reason), |_| {});
        let u = self.usage;
        if u.input.is_some() || u.output.is_some() {
            let j = &mut self.json;
            j.clear();
            j.push_str(&self.head);
            let input = u.input.unwrap_or(0);
            let output = u.output.unwrap_or(0);
            let _ = write!(
                j,
                "\"choices\":[],\"usage\":{{\"prompt_tokens\":{input},\"completion_tokens\":{output},\
                 \"total_tokens\":{},\"prompt_tokens_details\":{{\"cached_tokens\":{}}},\
                 \"completion_tokens_details\":{{\"reasoning_tokens\":{}}}}}}}",
                input.saturating_add(output),
                u.cached.unwrap_or(0),
                u.reasoning.unwrap_or(0),
            );
            self.put();
        }
        self.out.put_slice(b"data: [DONE]\n\n");
    }
}

impl TurnWriter for ChatWriter {
    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        if self.finished {
            return Ok(());
        }
        match *event {
            TurnEvent::Start(start) => {
                self.head(Some(&start));
                if !self.role_sent {
                    self.chunk(None, |j| j.push_str("\"content\":\"\""));
                }
            }
            TurnEvent::ItemStart {
                index,
                item: ItemKind::ToolCall { call_id, name },
            } => {
                let limit = self.config.max_items;
                if self.calls.len() >= limit {
                    return Err(TurnError::new(TurnErrorKind::TooManyItems { limit }, 0));
                }
                let n = self.calls.len() as u64;
                self.calls.insert(index, n);
                self.chunk(None, |j| {
                    let _ = write!(j, "\"tool_calls\":[{{\"index\":{n},\"id\":");
                    match call_id {
                        Some(id) => {
                            j.push('"');
                            j.push_str(id.raw());
                            j.push('"');
                        }
                        None => {
                            let _ = write!(j, "\"call_{index}\"");
                        }
                    }
                    j.push_str(",\"type\":\"function\",\"function\":{\"name\":\"");
                    j.push_str(name.map_or("", |s| s.raw()));
                    j.push_str("\",\"arguments\":\"\"}}]");
                });
            }
            TurnEvent::ItemStart {
                item: ItemKind::Other { .. },
                ..
            } => self.not_carried += 1,
            TurnEvent::Delta {
                index,
                kind,
                part,
                text,
            } => match kind {
                DeltaKind::Text => self.text("content", text),
                DeltaKind::Refusal => self.text("refusal", text),
                DeltaKind::Reasoning => self.text("reasoning_content", text),
                DeltaKind::Summary => {
                    if text.is_empty() {
                        return Ok(());
                    }
                    let at = (index, part);
                    if self.summary.is_some_and(|last| last != at) {
                        self.chunk(None, |j| j.push_str("\"reasoning_content\":\"\\n\\n\""));
                    }
                    self.summary = Some(at);
                    self.text("reasoning_content", text);
                }
                DeltaKind::Arguments => {
                    let Some(&n) = self.calls.get(&index) else {
                        return Ok(()); // arguments of an item Chat cannot carry
                    };
                    if text.is_empty() {
                        return Ok(());
                    }
                    self.chunk(None, |j| {
                        let _ = write!(
                            j,
                            "\"tool_calls\":[{{\"index\":{n},\"function\":{{\"arguments\":\""
                        );
                        j.push_str(text.raw());
                        j.push_str("\"}}]");
                    });
                }
                _ => {}
            },
            TurnEvent::Usage(u) => self.usage.merge(&u),
            TurnEvent::Stop(stop) => self.stop = Some(stop.reason),
            TurnEvent::Error(e) => {
                let mut code = String::new();
                let mut message = String::new();
                match e.code {
                    Some(c) => c.unescape_into(&mut code),
                    None => code.push_str("server_error"),
                }
                match e.message {
                    Some(m) => m.unescape_into(&mut message),
                    None => message.push_str("error"),
                }
                self.error_chunk(&code, &message);
            }
            TurnEvent::KeepAlive => self.out.put_slice(b": keep-alive\n\n"),
            TurnEvent::End => self.end(),
            _ => {}
        }
        Ok(())
    }

    fn fail(&mut self, code: &str, message: &str) {
        self.error_chunk(code, message);
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
