//! Responses events → Chat Completions chunks.

use alloc::collections::BTreeMap;
use alloc::string::String;
use bytes::{BufMut, Bytes, BytesMut};

use super::{Bridge, BridgeConfig, BridgeError, BridgeErrorKind};
use crate::encode::push_json_str;
use crate::frame::Frame;
use crate::json::JsonStr;
use crate::responses::{Lazy, OutputItem, Response, ResponsesEvent};
use crate::views::Field;

/// Translates a Responses stream into Chat Completions chunks, event by
/// event, for clients that only speak Chat.
///
/// | upstream | downstream chunk (`choices[0]`) |
/// | --- | --- |
/// | `response.created` | the first chunk: `delta` `{"role": "assistant", "content": ""}` (the id `chatcmpl-{response id}`, model and time are kept for every chunk) |
/// | `response.output_text.delta` | `delta.content` (the first chunk sent has `role: assistant`) |
/// | `response.reasoning_summary_text.delta`, `response.reasoning_text.delta` | `delta.reasoning_content` (a blank line between summary parts) |
/// | `response.refusal.delta` | `delta.refusal` |
/// | `response.output_item.added` of a `function_call` | `delta.tool_calls[{index, id, type, function: {name, arguments: ""}}]`, `index` counting the calls from 0 |
/// | `response.function_call_arguments.delta` | `delta.tool_calls[{index, function: {arguments}}]` |
/// | `response.completed` | `finish_reason` `tool_calls` (if a call was made) or `stop`; a usage chunk; `data: [DONE]` |
/// | `response.incomplete` | `finish_reason` `length` (or `content_filter`); a usage chunk; `data: [DONE]` |
/// | `response.failed`, `error` | an error chunk (`{"error": {"message", "type", "code"}}`); `data: [DONE]` |
///
/// The usage chunk has empty `choices` and `usage` with `prompt_tokens`,
/// `completion_tokens`, `total_tokens` and the cached and reasoning
/// details, as OpenAI sends it with `stream_options.include_usage`. Other
/// events (tool calls of hosted tools, annotations, done events) write
/// nothing: a Chat client has no place for them, and each done event
/// repeats what its deltas gave.
///
/// Bad upstreams: an arguments delta of an item never announced as a
/// function call ([`UnknownIndex`](BridgeErrorKind::UnknownIndex)), more
/// calls than [`BridgeConfig::max_items`], an event that does not decode,
/// and a stream without a terminal event
/// ([`Truncated`](BridgeErrorKind::Truncated)) end the downstream with an
/// error chunk and `[DONE]`.
///
/// # Example
///
/// ```
/// use ssekit::bridge::{BytesBridge, ResponsesToChat};
/// use ssekit::responses::writer::ResponsesWriter;
///
/// let mut w = ResponsesWriter::new("resp_1", "gpt-5", 7);
/// w.start_message("msg_1")?;
/// w.text_delta("Hi")?;
/// w.complete()?;
///
/// let mut bridge = BytesBridge::new(ResponsesToChat::new());
/// bridge.feed(w.take())?;
/// bridge.finish()?;
/// let out = String::from_utf8(bridge.take().to_vec())?;
/// assert_eq!(out, concat!(
///     r#"data: {"id":"chatcmpl-resp_1","object":"chat.completion.chunk","created":7,"model":"gpt-5","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"#, "\n\n",
///     r#"data: {"id":"chatcmpl-resp_1","object":"chat.completion.chunk","created":7,"model":"gpt-5","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}"#, "\n\n",
///     r#"data: {"id":"chatcmpl-resp_1","object":"chat.completion.chunk","created":7,"model":"gpt-5","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#, "\n\n",
///     "data: [DONE]\n\n",
/// ));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ResponsesToChat {
    config: BridgeConfig,
    out: BytesMut,
    json: String,
    /// The head of every chunk: `{"id":…,"object":…,"created":…,"model":…,`.
    head: String,
    /// Tool call index by the call's `output_index`.
    calls: BTreeMap<u64, u64>,
    /// Whether `role` was sent; the summary index of the last reasoning
    /// delta.
    role_sent: bool,
    summary: Option<(u64, u64)>,
    /// The unescaped bytes the deltas of each open part gave, by (kind,
    /// output index, content index), to send what its done event adds.
    parts: BTreeMap<(u8, u64, u64), usize>,
    /// Scratch for unescaping.
    scratch: String,
    events: u64,
    finished: bool,
}

impl Default for ResponsesToChat {
    fn default() -> Self {
        Self::new()
    }
}

impl ResponsesToChat {
    /// A bridge with the default [`BridgeConfig`].
    pub fn new() -> Self {
        Self::with_config(BridgeConfig::default())
    }

    /// A bridge with this config.
    pub fn with_config(config: BridgeConfig) -> Self {
        Self {
            config,
            out: BytesMut::new(),
            json: String::new(),
            head: String::new(),
            calls: BTreeMap::new(),
            role_sent: false,
            summary: None,
            parts: BTreeMap::new(),
            scratch: String::new(),
            events: 0,
            finished: false,
        }
    }

    /// Translates one decoded upstream event (what
    /// [`push_frame`](super::Bridge::push_frame) does after decoding).
    ///
    /// # Errors
    ///
    /// As [`push_frame`](super::Bridge::push_frame).
    pub fn push(&mut self, event: &ResponsesEvent<'_>) -> Result<(), BridgeError> {
        self.events += 1;
        if self.finished {
            if matches!(event, ResponsesEvent::Done) {
                return Ok(());
            }
            return Err(self.error(BridgeErrorKind::Finished));
        }
        // Strict, as `push_frame`: an event whose lazy payloads do not
        // decode (or that does not fit its type) fails the response.
        let r = match event.validate() {
            Ok(()) => self.event(event),
            Err(e) => Err(self.error(BridgeErrorKind::Decode(e))),
        };
        match r {
            Ok(()) => Ok(()),
            Err(e) => Err(self.fail(e)),
        }
    }

    fn error(&self, kind: BridgeErrorKind) -> BridgeError {
        BridgeError::new(kind, self.events.saturating_sub(1))
    }

    fn fail(&mut self, e: BridgeError) -> BridgeError {
        let message = alloc::format!("{e}");
        self.error_chunk("server_error", &message);
        e
    }

    /// Sets the chunk head from the response, once.
    fn head(&mut self, r: Option<&Response<'_>>) {
        if !self.head.is_empty() {
            return;
        }
        let id = match (&self.config.response_id, r.and_then(|r| r.id)) {
            (Some(id), _) => id.clone(),
            (None, Some(id)) => alloc::format!("chatcmpl-{}", id.unescape()),
            (None, None) => String::from("chatcmpl-bridge"),
        };
        let model = match (&self.config.model, r.and_then(|r| r.model)) {
            (Some(m), _) => m.clone(),
            (None, Some(m)) => m.unescape().into_owned(),
            (None, None) => String::new(),
        };
        let created = self
            .config
            .created_at
            .or_else(|| r.and_then(|r| r.created_at).map(|t| t as u64))
            .unwrap_or(0);
        let h = &mut self.head;
        h.push_str("{\"id\":");
        push_json_str(h, &id);
        h.push_str(",\"object\":\"chat.completion.chunk\",\"created\":");
        {
            use core::fmt::Write;
            let _ = write!(h, "{created}");
        }
        h.push_str(",\"model\":");
        push_json_str(h, &model);
        h.push(',');
    }

    /// Writes `data: {head"choices":[{"index":0,"delta":{` + `delta` +
    /// `},"finish_reason":…}]}`.
    fn chunk(&mut self, finish: Option<&str>, delta: impl FnOnce(&mut String)) {
        self.head(None);
        let j = &mut self.json;
        j.clear();
        j.push_str(&self.head);
        j.push_str("\"choices\":[{\"index\":0,\"delta\":{");
        if !self.role_sent && finish.is_none() {
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

    /// Counts a delta of part `at` (kind, output index, content index).
    fn count(&mut self, at: (u8, u64, u64), s: JsonStr<'_>) -> Result<(), BridgeError> {
        let n = match s.as_str() {
            Some(text) => text.len(),
            None => {
                self.scratch.clear();
                s.unescape_into(&mut self.scratch);
                self.scratch.len()
            }
        };
        if let Some(emitted) = self.parts.get_mut(&at) {
            *emitted += n;
            return Ok(());
        }
        // Parts are removed at their done event: this bounds the open ones.
        let limit = self.config.max_items;
        if self.parts.len() >= limit {
            return Err(self.error(BridgeErrorKind::TooManyItems { limit }));
        }
        self.parts.insert(at, n);
        Ok(())
    }

    /// A done event of part `at` with the whole text: sends what its
    /// deltas did not (recorders and proxies that drop deltas; the deltas
    /// are taken to be a prefix of the whole), written by `write`.
    fn rest(
        &mut self,
        at: (u8, u64, u64),
        whole: JsonStr<'_>,
        write: impl FnOnce(&mut String, &str),
    ) {
        let emitted = self.parts.remove(&at).unwrap_or(0);
        let mut text = core::mem::take(&mut self.scratch);
        text.clear();
        whole.unescape_into(&mut text);
        if let Some(rest) = text.get(emitted..).filter(|r| !r.is_empty()) {
            self.chunk(None, |j| write(j, rest));
        }
        self.scratch = text;
    }

    fn text(&mut self, key: &str, s: JsonStr<'_>) {
        if s.is_empty() {
            return;
        }
        self.chunk(None, |j| {
            j.push('"');
            j.push_str(key);
            j.push_str("\":\"");
            j.push_str(s.raw()); // already JSON-escaped
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

    fn end(&mut self, r: &Response<'_>, reason: &str) {
        self.head(Some(r));
        self.finished = true;
        self.chunk(Some(reason), |_| {});
        if let Some(u) = &r.usage {
            let j = &mut self.json;
            j.clear();
            j.push_str(&self.head);
            j.push_str("\"choices\":[],\"usage\":{");
            let input = u.input_tokens.unwrap_or(0);
            let output = u.output_tokens.unwrap_or(0);
            let total = u.total_tokens.unwrap_or(input.saturating_add(output));
            let cached = u
                .input_tokens_details
                .as_ref()
                .and_then(|d| d.cached_tokens)
                .unwrap_or(0);
            let reasoning = u
                .output_tokens_details
                .as_ref()
                .and_then(|d| d.reasoning_tokens)
                .unwrap_or(0);
            use core::fmt::Write;
            let _ = write!(
                j,
                "\"prompt_tokens\":{input},\"completion_tokens\":{output},\"total_tokens\":{total},\
                 \"prompt_tokens_details\":{{\"cached_tokens\":{cached}}},\
                 \"completion_tokens_details\":{{\"reasoning_tokens\":{reasoning}}}}}}}"
            );
            self.put();
        }
        self.out.put_slice(b"data: [DONE]\n\n");
    }

    fn event(&mut self, event: &ResponsesEvent<'_>) -> Result<(), BridgeError> {
        use ResponsesEvent as E;
        match event {
            E::ResponseCreated(e) => {
                // The role chunk as soon as the response starts, as OpenAI
                // sends it: the client sees the answer begin at once.
                self.head(Some(&lazy(&e.response)));
                if !self.role_sent {
                    self.chunk(None, |j| j.push_str("\"content\":\"\""));
                }
            }
            E::ResponseInProgress(e) => self.head(Some(&lazy(&e.response))),
            E::ResponseQueued(e) => self.head(Some(&lazy(&e.response))),
            E::OutputTextDelta(d) => {
                self.count((0, d.output_index, d.content_index), d.delta)?;
                self.text("content", d.delta);
            }
            E::OutputTextDone(d) => {
                self.rest((0, d.output_index, d.content_index), d.text, |j, rest| {
                    j.push_str("\"content\":");
                    push_json_str(j, rest);
                })
            }
            E::RefusalDelta(d) => {
                self.count((1, d.output_index, d.content_index), d.delta)?;
                self.text("refusal", d.delta);
            }
            E::RefusalDone(d) => self.rest(
                (1, d.output_index, d.content_index),
                d.refusal,
                |j, rest| {
                    j.push_str("\"refusal\":");
                    push_json_str(j, rest);
                },
            ),
            E::ReasoningTextDelta(d) => self.text("reasoning_content", d.delta),
            E::ReasoningSummaryTextDelta(d) => {
                let at = (d.output_index, d.summary_index);
                if self.summary.is_some_and(|last| last != at) && !d.delta.is_empty() {
                    self.chunk(None, |j| j.push_str("\"reasoning_content\":\"\\n\\n\""));
                }
                if !d.delta.is_empty() {
                    self.summary = Some(at);
                }
                self.text("reasoning_content", d.delta);
            }
            E::OutputItemAdded(added) => {
                if let OutputItem::FunctionCall(call) = &lazy(&added.item) {
                    let limit = self.config.max_items;
                    if self.calls.len() >= limit {
                        return Err(self.error(BridgeErrorKind::TooManyItems { limit }));
                    }
                    let index = self.calls.len() as u64;
                    if self.calls.insert(added.output_index, index).is_some() {
                        return Err(self.error(BridgeErrorKind::IndexClosed {
                            index: added.output_index,
                        }));
                    }
                    let (id, name, args) = (call.call_id, call.name, call.arguments);
                    if let Some(args) = args {
                        self.count((2, added.output_index, 0), args)?;
                    }
                    self.chunk(None, |j| {
                        use core::fmt::Write;
                        let _ = write!(j, "\"tool_calls\":[{{\"index\":{index},\"id\":\"");
                        j.push_str(id.map_or("", |s| s.raw()));
                        j.push_str("\",\"type\":\"function\",\"function\":{\"name\":\"");
                        j.push_str(name.map_or("", |s| s.raw()));
                        j.push_str("\",\"arguments\":\"");
                        j.push_str(args.map_or("", |s| s.raw()));
                        j.push_str("\"}}]");
                    });
                }
            }
            E::FunctionCallArgumentsDelta(d) => {
                let Some(&index) = self.calls.get(&d.output_index) else {
                    return Err(self.error(BridgeErrorKind::UnknownIndex {
                        index: d.output_index,
                    }));
                };
                self.count((2, d.output_index, 0), d.delta)?;
                if !d.delta.is_empty() {
                    let delta = d.delta;
                    self.chunk(None, |j| {
                        use core::fmt::Write;
                        let _ = write!(
                            j,
                            "\"tool_calls\":[{{\"index\":{index},\"function\":{{\"arguments\":\""
                        );
                        j.push_str(delta.raw());
                        j.push_str("\"}}]");
                    });
                }
            }
            E::FunctionCallArgumentsDone(d) => {
                let Some(&index) = self.calls.get(&d.output_index) else {
                    return Err(self.error(BridgeErrorKind::UnknownIndex {
                        index: d.output_index,
                    }));
                };
                self.rest((2, d.output_index, 0), d.arguments, |j, rest| {
                    use core::fmt::Write;
                    let _ = write!(
                        j,
                        "\"tool_calls\":[{{\"index\":{index},\"function\":{{\"arguments\":"
                    );
                    push_json_str(j, rest);
                    j.push_str("}}]");
                });
            }
            E::ResponseCompleted(e) => {
                let reason = if self.calls.is_empty() {
                    "stop"
                } else {
                    "tool_calls"
                };
                self.end(&lazy(&e.response), reason);
            }
            E::ResponseIncomplete(e) => {
                let response = lazy(&e.response);
                let why = response.incomplete_details.as_ref().and_then(|d| d.reason);
                let reason = if why.is_some_and(|r| r == "content_filter") {
                    "content_filter"
                } else {
                    "length"
                };
                self.end(&response, reason);
            }
            E::ResponseFailed(e) => {
                let response = lazy(&e.response);
                let err = response.error.as_ref();
                let code = err.and_then(|e| e.code).map(|c| c.unescape());
                let message = err.and_then(|e| e.message).map(|m| m.unescape());
                self.error_chunk(
                    code.as_deref().unwrap_or("server_error"),
                    message.as_deref().unwrap_or("the response failed"),
                );
            }
            E::ErrorEvent(e) => {
                let code = e
                    .code
                    .or_else(|| e.error.as_ref().and_then(|i| lazy(i).code))
                    .map(|c| c.unescape());
                let message = e
                    .message
                    .or_else(|| e.error.as_ref().and_then(|i| lazy(i).message))
                    .map(|m| m.unescape());
                self.error_chunk(
                    code.as_deref().unwrap_or("server_error"),
                    message.as_deref().unwrap_or("error"),
                );
            }
            E::Done => {
                return Err(self.error(BridgeErrorKind::Truncated));
            }
            _ => {}
        }
        Ok(())
    }
}

/// A lazy payload of an event that `validate` accepted: it decodes (should it
/// not, it cannot, the view is empty).
fn lazy<'a, T: Field<'a>>(payload: &Lazy<'a, T>) -> T {
    payload.get().unwrap_or_else(|_| T::fallback())
}

impl Bridge for ResponsesToChat {
    fn push_frame(&mut self, frame: &Frame) -> Result<(), BridgeError> {
        self.events += 1;
        // Strict, as before the payloads were lazy: an event whose response,
        // item or error does not decode is an undecodable event.
        let event = ResponsesEvent::from_frame(frame).and_then(ResponsesEvent::strict);
        if self.finished {
            // The `[DONE]` some gateways send after the terminal event.
            if matches!(event, Ok(ResponsesEvent::Done)) {
                return Ok(());
            }
            return Err(self.error(BridgeErrorKind::Finished));
        }
        let r = match event {
            Ok(event) => self.event(&event),
            Err(e) => Err(self.error(BridgeErrorKind::Decode(e))),
        };
        r.map_err(|e| self.fail(e))
    }

    fn finish(&mut self) -> Result<(), BridgeError> {
        if self.finished {
            return Ok(());
        }
        let e = self.error(BridgeErrorKind::Truncated);
        Err(self.fail(e))
    }

    fn abort(&mut self, code: &str, message: &str) {
        self.error_chunk(code, message);
    }

    fn take(&mut self) -> Bytes {
        self.out.split().freeze()
    }

    fn keep_alive(&mut self) {
        if !self.finished {
            self.out.put_slice(b": keep-alive\n\n");
        }
    }

    fn is_finished(&self) -> bool {
        self.finished
    }

    fn events(&self) -> u64 {
        self.events
    }
}
