//! The Anthropic Messages writer.

use alloc::string::String;
use bytes::{BufMut, Bytes, BytesMut};
use core::fmt::Write;

use super::hold::Hold;
use super::{
    DeltaKind, Dialect, ItemKind, StopReason, TurnConfig, TurnError, TurnErrorKind, TurnEvent,
    TurnStart, TurnUsage, TurnWriter,
};
use crate::json::{push_json_str, JsonStr, ObjectWriter};

/// The block open downstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    None,
    /// A text block (text or refusal items).
    Text,
    /// A reasoning item whose block is not written yet (it becomes a
    /// `thinking` block at its first text, or a `redacted_thinking` block
    /// when it ends with encrypted data only).
    PendingThinking,
    Thinking,
    ToolUse,
    /// A block only Anthropic has (a server tool's use or result), written
    /// as the upstream gave it; its input arrives as `input_json_delta`.
    Native,
    /// An item Anthropic has no block for: nothing written.
    Skipped,
}

/// Writes a turn as an Anthropic Messages stream.
///
/// | model | event |
/// | --- | --- |
/// | the first item (or the end) | `message_start` (`msg_{id}`, the model, the usage known so far) |
/// | a message or refusal item | a `text` block; `text_delta` |
/// | a reasoning item with text | a `thinking` block; `thinking_delta`; its signature as one `signature_delta` before `content_block_stop` |
/// | a reasoning item with only encrypted content | a `redacted_thinking` block |
/// | a tool call | a `tool_use` block (`input: {}`); `input_json_delta` |
/// | item end | `content_block_stop` |
/// | end | `message_delta` (`stop_reason`, cumulative usage), `message_stop` |
/// | error, failure | `event: error` |
/// | keep-alive | `event: ping` |
///
/// Blocks are sequential: an item that opens while another is open is held
/// (up to [`TurnConfig::max_held_bytes`]) and written when the open one
/// ends. A signature is written only onto a thinking block, and only when
/// the upstream gave one. A block only Anthropic has (`server_tool_use`,
/// `web_search_tool_result`, …) read from an Anthropic stream is written
/// as it came; items only other dialects have are not written, and
/// counted ([`TurnWriter::not_carried`]).
///
/// ```
/// use ssekit::bridge::{BytesBridge, Translate};
/// use ssekit::turn::{AnthropicWriter, ResponsesReader, TurnConfig, TurnWriter};
/// use ssekit::Bytes;
///
/// let upstream = concat!(
///     "data: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"web_search_call\",\"id\":\"ws_1\",\"status\":\"in_progress\"}}\n\n",
///     "data: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"web_search_call\",\"id\":\"ws_1\",\"status\":\"completed\"}}\n\n",
///     "data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"status\":\"completed\",\"output\":[]}}\n\n",
/// );
/// let config = TurnConfig::default();
/// let mut bridge = BytesBridge::new(Translate::from_parts(ResponsesReader::new(&config), AnthropicWriter::new(config)));
/// bridge.feed(Bytes::from_static(upstream.as_bytes()))?;
/// bridge.finish()?;
/// // Anthropic has no block for a Responses web search: left out, and said.
/// assert_eq!(bridge.get_ref().writer().not_carried(), 1);
/// # Ok::<(), ssekit::bridge::BridgeError>(())
/// ```
#[derive(Debug)]
pub struct AnthropicWriter {
    inner: Inner,
    hold: Hold,
}

#[derive(Debug)]
struct Inner {
    config: TurnConfig,
    out: BytesMut,
    json: String,
    id: String,
    model: String,
    started: bool,
    block: Block,
    /// Blocks written.
    blocks: u64,
    /// Whether a `tool_use` block was written.
    tool_use: bool,
    signature: String,
    encrypted: String,
    usage: TurnUsage,
    stop: Option<StopReason>,
    finished: bool,
    /// Items of other dialects left out.
    not_carried: u64,
}

impl Default for AnthropicWriter {
    fn default() -> Self {
        Self::new(TurnConfig::default())
    }
}

impl AnthropicWriter {
    /// A writer with this config.
    pub fn new(config: TurnConfig) -> Self {
        Self {
            hold: Hold::new(config.max_held_bytes),
            inner: Inner {
                config,
                out: BytesMut::new(),
                json: String::new(),
                id: String::new(),
                model: String::new(),
                started: false,
                block: Block::None,
                blocks: 0,
                tool_use: false,
                signature: String::new(),
                encrypted: String::new(),
                usage: TurnUsage::default(),
                stop: None,
                finished: false,
                not_carried: 0,
            },
        }
    }
}

impl Inner {
    fn event(&mut self, ty: &str) {
        self.out.reserve(self.json.len() + ty.len() + 16);
        self.out.put_slice(b"event: ");
        self.out.put_slice(ty.as_bytes());
        self.out.put_slice(b"\ndata: ");
        self.out.put_slice(self.json.as_bytes());
        self.out.put_slice(b"\n\n");
    }

    fn set_start(&mut self, start: &TurnStart<'_>) {
        if !self.id.is_empty() {
            return;
        }
        match (&self.config.id, start.id) {
            (Some(id), _) => self.id.push_str(id),
            (None, Some(id)) => {
                if !id.raw().starts_with("msg_") {
                    self.id.push_str("msg_");
                }
                id.unescape_into(&mut self.id);
            }
            (None, None) => {}
        }
        match (&self.config.model, start.model) {
            (Some(m), _) => self.model.push_str(m),
            (None, Some(m)) => m.unescape_into(&mut self.model),
            (None, None) => {}
        }
    }

    fn usage_json(&self, j: &mut String, with_input: bool) {
        j.push_str("\"usage\":");
        usage_json(&self.usage, j, with_input);
    }

    fn message_start(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        if self.id.is_empty() {
            self.id.push_str("msg_bridge");
        }
        let mut j = core::mem::take(&mut self.json);
        j.clear();
        j.push_str("{\"type\":\"message_start\",\"message\":{\"id\":");
        push_json_str(&mut j, &self.id);
        j.push_str(",\"type\":\"message\",\"role\":\"assistant\",\"model\":");
        push_json_str(&mut j, &self.model);
        j.push_str(",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,");
        self.usage_json(&mut j, true);
        j.push_str("}}");
        self.json = j;
        self.event("message_start");
    }

    /// Writes `content_block_start` with this block JSON.
    fn block_start(&mut self, block: Block, body: impl FnOnce(&mut String)) {
        self.message_start();
        let j = &mut self.json;
        j.clear();
        let _ = write!(
            j,
            "{{\"type\":\"content_block_start\",\"index\":{},\"content_block\":",
            self.blocks
        );
        body(j);
        j.push('}');
        self.event("content_block_start");
        self.block = block;
    }

    fn block_delta(&mut self, ty: &str, key: &str, raw: &str) {
        let j = &mut self.json;
        j.clear();
        let _ = write!(
            j,
            "{{\"type\":\"content_block_delta\",\"index\":{},\"delta\":{{\"type\":\"{ty}\",\"{key}\":\"",
            self.blocks
        );
        j.push_str(raw);
        j.push_str("\"}}");
        self.event("content_block_delta");
    }

    fn thinking_start(&mut self) {
        self.block_start(Block::Thinking, |j| {
            j.push_str("{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}")
        });
    }

    fn block_stop(&mut self) {
        match self.block {
            Block::None | Block::Skipped => {
                self.block = Block::None;
                return;
            }
            Block::PendingThinking => {
                if !self.encrypted.is_empty() && self.signature.is_empty() {
                    let data = core::mem::take(&mut self.encrypted);
                    self.block_start(Block::Thinking, |j| {
                        j.push_str("{\"type\":\"redacted_thinking\",\"data\":\"");
                        j.push_str(&data);
                        j.push_str("\"}");
                    });
                    self.encrypted = data;
                } else if !self.signature.is_empty() {
                    self.thinking_start();
                } else {
                    // Nothing to show: no block.
                    self.block = Block::None;
                    return;
                }
            }
            _ => {}
        }
        if self.block == Block::Thinking && !self.signature.is_empty() {
            let sig = core::mem::take(&mut self.signature);
            self.block_delta("signature_delta", "signature", &sig);
            self.signature = sig;
        }
        self.signature.clear();
        self.encrypted.clear();
        let j = &mut self.json;
        j.clear();
        let _ = write!(
            j,
            "{{\"type\":\"content_block_stop\",\"index\":{}}}",
            self.blocks
        );
        self.event("content_block_stop");
        self.blocks += 1;
        self.block = Block::None;
    }

    fn keep(&mut self, which: DeltaKind, s: JsonStr<'_>) -> Result<(), TurnError> {
        let limit = self.config.max_held_bytes;
        let buf = if which == DeltaKind::Signature {
            &mut self.signature
        } else {
            &mut self.encrypted
        };
        if buf.len().saturating_add(s.raw().len()) > limit {
            return Err(TurnError::new(TurnErrorKind::HoldExceeded { limit }, 0));
        }
        // Kept as JSON string text, written back as it came.
        buf.push_str(s.raw());
        Ok(())
    }

    fn error(&mut self, code: &str, message: &str) {
        if self.finished {
            return;
        }
        self.finished = true;
        let ty = if code.ends_with("_error") {
            code
        } else {
            "api_error"
        };
        let j = &mut self.json;
        j.clear();
        j.push_str("{\"type\":\"error\",\"error\":{\"type\":");
        push_json_str(j, ty);
        j.push_str(",\"message\":");
        push_json_str(j, message);
        j.push_str("}}");
        self.event("error");
    }

    fn end(&mut self) {
        if self.finished {
            return;
        }
        let stop = self.stop.unwrap_or(StopReason::EndTurn);
        let Some(reason) = stop_reason(stop, self.tool_use) else {
            self.error("api_error", "the upstream stopped for an error");
            return;
        };
        self.message_start();
        self.block_stop();
        self.finished = true;
        let mut j = core::mem::take(&mut self.json);
        j.clear();
        j.push_str("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"");
        j.push_str(reason);
        j.push_str("\",\"stop_sequence\":");
        // The model does not carry the matched sequence.
        j.push_str("null");
        j.push_str("},");
        self.usage_json(&mut j, true);
        j.push('}');
        self.json = j;
        self.event("message_delta");
        self.json.clear();
        self.json.push_str("{\"type\":\"message_stop\"}");
        self.event("message_stop");
    }

    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        if self.finished {
            return Ok(());
        }
        match *event {
            TurnEvent::Start(start) => self.set_start(&start),
            TurnEvent::ItemStart { item, .. } => {
                self.block_stop();
                match item {
                    ItemKind::Message | ItemKind::Refusal => self.block_start(Block::Text, |j| {
                        j.push_str("{\"type\":\"text\",\"text\":\"\"}")
                    }),
                    ItemKind::Reasoning => {
                        self.message_start();
                        self.block = Block::PendingThinking;
                    }
                    ItemKind::ToolCall { call_id, name } => {
                        let n = self.blocks;
                        self.tool_use = true;
                        self.block_start(Block::ToolUse, |j| {
                            j.push_str("{\"type\":\"tool_use\",\"id\":");
                            match call_id {
                                Some(id) => {
                                    j.push('"');
                                    j.push_str(id.raw());
                                    j.push('"');
                                }
                                None => {
                                    let _ = write!(j, "\"toolu_bridge_{n}\"");
                                }
                            }
                            j.push_str(",\"name\":\"");
                            j.push_str(name.map_or("", |s| s.raw()));
                            j.push_str("\",\"input\":{}}");
                        });
                    }
                    ItemKind::Other {
                        dialect: Dialect::Anthropic,
                        raw: Some(raw),
                        ..
                    } => self.block_start(Block::Native, |j| j.push_str(raw.get())),
                    _ => {
                        self.message_start();
                        self.not_carried += 1;
                        self.block = Block::Skipped;
                    }
                }
            }
            TurnEvent::Delta { kind, text, .. } => match (self.block, kind) {
                (_, DeltaKind::Signature | DeltaKind::Encrypted)
                    if matches!(self.block, Block::PendingThinking | Block::Thinking) =>
                {
                    self.keep(kind, text)?
                }
                (Block::Text, DeltaKind::Text | DeltaKind::Refusal) if !text.is_empty() => {
                    self.block_delta("text_delta", "text", text.raw())
                }
                (Block::PendingThinking, DeltaKind::Reasoning | DeltaKind::Summary)
                    if !text.is_empty() =>
                {
                    self.thinking_start();
                    self.block_delta("thinking_delta", "thinking", text.raw());
                }
                (Block::Thinking, DeltaKind::Reasoning | DeltaKind::Summary)
                    if !text.is_empty() =>
                {
                    self.block_delta("thinking_delta", "thinking", text.raw())
                }
                (Block::ToolUse | Block::Native, DeltaKind::Arguments) if !text.is_empty() => {
                    self.block_delta("input_json_delta", "partial_json", text.raw())
                }
                _ => {}
            },
            TurnEvent::ItemEnd { .. } => self.block_stop(),
            TurnEvent::Usage(u) => self.usage.merge(&u),
            TurnEvent::Stop(stop) => {
                self.stop = Some(stop.reason);
            }
            TurnEvent::Error(e) => {
                let mut code = String::new();
                let mut message = String::new();
                if let Some(c) = e.code {
                    c.unescape_into(&mut code);
                }
                match e.message {
                    Some(m) => m.unescape_into(&mut message),
                    None => message.push_str("error"),
                }
                self.error(&code, &message);
            }
            TurnEvent::KeepAlive => {
                self.json.clear();
                self.json.push_str("{\"type\":\"ping\"}");
                self.event("ping");
            }
            // Members for a final answer in the upstream's dialect only.
            TurnEvent::Extra(_) => {}
            TurnEvent::End => self.end(),
        }
        Ok(())
    }
}

impl TurnWriter for AnthropicWriter {
    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        let inner = &mut self.inner;
        self.hold.event(event, &mut |e| inner.write(e))
    }

    fn fail(&mut self, code: &str, message: &str) {
        let _ = code;
        self.inner.error("api_error", message);
    }

    fn take(&mut self) -> Bytes {
        self.inner.out.split().freeze()
    }

    fn is_finished(&self) -> bool {
        self.inner.finished
    }

    fn not_carried(&self) -> u64 {
        self.inner.not_carried
    }
}

/// Anthropic's `stop_reason` for a stop (`tool_use` when a call was made
/// and the model ended its turn); `None` for an upstream error, which
/// Anthropic reports as an `error` event.
pub(crate) fn stop_reason(stop: StopReason, tool_use: bool) -> Option<&'static str> {
    Some(match stop {
        StopReason::Error => return None,
        StopReason::MaxTokens => "max_tokens",
        StopReason::ContextWindow => "model_context_window_exceeded",
        StopReason::ContentFilter | StopReason::Refusal => "refusal",
        StopReason::PauseTurn => "pause_turn",
        StopReason::StopSequence => "stop_sequence",
        StopReason::ToolUse => "tool_use",
        StopReason::EndTurn if tool_use => "tool_use",
        StopReason::EndTurn => "end_turn",
    })
}

/// Anthropic's `usage` object: `input_tokens` leaves out the tokens read
/// from the cache, which `cache_read_input_tokens` counts.
fn usage_json(u: &TurnUsage, j: &mut String, with_input: bool) {
    let cached = u.cached.unwrap_or(0);
    let input = u.input.unwrap_or(0).saturating_sub(cached);
    j.push('{');
    if with_input || u.input.is_some() {
        let _ = write!(
            j,
            "\"input_tokens\":{input},\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":{cached},"
        );
    }
    let _ = write!(j, "\"output_tokens\":{}}}", u.output.unwrap_or(0));
}

/// Writes a finished turn as an Anthropic `message` object.
///
/// | turn | message |
/// | --- | --- |
/// | id | `id` (`msg_` added when missing; `msg_bridge` when none) |
/// | a message or refusal item | a `text` block (its parts joined) |
/// | a reasoning item with text or a signature | a `thinking` block with its `signature` (empty when none came) |
/// | a reasoning item with only encrypted content | a `redacted_thinking` block |
/// | a tool call | a `tool_use` block; `input` the arguments parsed (when they are not a JSON object: their repair as far as they are valid, as [`PartialJson`](crate::json::partial::PartialJson) repairs a cut text, when that is an object; else `{}`) |
/// | an item only Anthropic has | its block as the upstream wrote it, when the turn was read from Anthropic and the reader kept it; else left out |
/// | stop | `stop_reason`, as [`AnthropicWriter`] writes it (the upstream's own string when the turn was read from Anthropic); `null` for a failed or cut turn that gave none |
/// | usage | `usage` (cache reads apart from `input_tokens`) |
///
/// A turn read from Anthropic carries what the model has no word for
/// (see [`AnthropicReader`](super::AnthropicReader)): then the message is
/// the `message` of `message_start` member by member, in its order, with
/// `content` the blocks, `stop_reason` the upstream's (`null` when none
/// came), `stop_sequence`, `stop_details`, `container` and
/// `context_management` the last sent, and `usage` the merged one, in
/// place of the start's or added after its members; a text block's
/// `citations` and a compaction block's text are written back too. That
/// is the shape [`AnthropicAccumulator`](crate::accumulate::AnthropicAccumulator)
/// gives, the same stream read.
pub(crate) fn render(turn: &super::FinalTurn, out: &mut String) {
    use super::answer::{push_one_line, Ending};
    let (content, tool_use) = content(turn);
    if let Some(message) = turn.extra(Dialect::Anthropic, "message") {
        let extra = |key| turn.extra(Dialect::Anthropic, key);
        let stop = turn
            .own_stop(Dialect::Anthropic)
            .map_or_else(|| String::from("null"), json_str);
        let stop_sequence = extra("stop_sequence")
            .and_then(canonical_str)
            .unwrap_or_else(|| String::from("null"));
        let mut message_json = String::new();
        crate::json::write_merged(
            &mut message_json,
            Some(message),
            &[
                ("content", Some(&content)),
                ("stop_reason", Some(&stop)),
                ("stop_sequence", Some(&stop_sequence)),
                ("stop_details", extra("stop_details")),
                ("container", extra("container")),
                ("usage", extra("usage")),
                ("context_management", extra("context_management")),
            ],
        );
        push_one_line(&message_json, out);
        return;
    }
    let mut w = ObjectWriter::new(out);
    match turn.id() {
        Some(id) if id.starts_with("msg_") => w.str("id", id),
        Some(id) => {
            let mut s = String::from("msg_");
            s.push_str(id);
            w.str("id", &s);
        }
        None => w.str("id", "msg_bridge"),
    }
    w.raw("type", "\"message\"");
    w.raw("role", "\"assistant\"");
    w.str("model", turn.model().unwrap_or(""));
    w.raw("content", &content);
    let stop = match turn.stop_reason() {
        Some(stop) => turn
            .own_stop(Dialect::Anthropic)
            .or_else(|| stop_reason(stop, tool_use)),
        None if turn.ending() == Ending::Completed => stop_reason(StopReason::EndTurn, tool_use),
        None => None,
    };
    w.str_or_null("stop_reason", stop);
    w.raw("stop_sequence", "null");
    usage_json(&turn.usage(), w.key("usage"), true);
    w.end();
}

/// A JSON string literal written as [`push_json_str`] writes its text (the
/// upstream's escapes may differ); `None` when `raw` is not a string.
fn canonical_str(raw: &str) -> Option<String> {
    let s = crate::json::Value::parse(raw).ok()?.as_json_str()?;
    Some(json_str(&s.unescape()))
}

fn json_str(s: &str) -> String {
    let mut out = String::new();
    push_json_str(&mut out, s);
    out
}

/// The `content` array of the turn's items, and whether it holds a
/// `tool_use` block.
fn content(turn: &super::FinalTurn) -> (String, bool) {
    use super::answer::{object_args, push_one_line, FinalItemKind};
    let a = Dialect::Anthropic;
    let mut content = String::from("[");
    let mut tool_use = false;
    for (n, item) in turn.items().iter().enumerate() {
        let sep = |content: &mut String| {
            if content.len() > 1 {
                content.push(',');
            }
        };
        match &item.kind {
            FinalItemKind::Message | FinalItemKind::Refusal => {
                let mut text = item.text();
                text.push_str(&item.refusal);
                sep(&mut content);
                let citations = item.extra(a, "citations");
                if let Some(start) = item.extra(a, "content_block") {
                    // The start's members in their order.
                    let text = json_str(&text);
                    crate::json::write_merged(
                        &mut content,
                        Some(start),
                        &[("text", Some(&text)), ("citations", citations)],
                    );
                    continue;
                }
                let mut b = ObjectWriter::new(&mut content);
                b.raw("type", "\"text\"");
                b.str("text", &text);
                if let Some(citations) = citations {
                    b.raw("citations", citations);
                }
                b.end();
            }
            FinalItemKind::Reasoning => {
                let thinking = item.thinking();
                if !thinking.is_empty() || !item.signature.is_empty() {
                    sep(&mut content);
                    let mut b = ObjectWriter::new(&mut content);
                    b.raw("type", "\"thinking\"");
                    b.str("thinking", &thinking);
                    b.str("signature", &item.signature);
                    b.end();
                } else if !item.encrypted.is_empty() {
                    sep(&mut content);
                    let mut b = ObjectWriter::new(&mut content);
                    b.raw("type", "\"redacted_thinking\"");
                    b.str("data", &item.encrypted);
                    b.end();
                }
            }
            FinalItemKind::ToolCall { call_id, name } => {
                tool_use = true;
                sep(&mut content);
                let mut b = ObjectWriter::new(&mut content);
                b.raw("type", "\"tool_use\"");
                match call_id {
                    Some(id) => b.str("id", id),
                    None => {
                        let mut id = String::new();
                        let _ = write!(id, "toolu_bridge_{n}");
                        b.str("id", &id);
                    }
                }
                b.str("name", name.as_deref().unwrap_or(""));
                let j = b.key("input");
                if !object_args(&item.arguments, j) {
                    // Cut or broken: the best repair of what came, never
                    // invalid JSON.
                    let mut p = crate::json::partial::PartialJson::new();
                    let _ = p.feed(&item.arguments);
                    match p.current().filter(|r| r.starts_with('{')) {
                        Some(repaired) => push_one_line(repaired, j),
                        None => j.push_str("{}"),
                    }
                }
                b.end();
            }
            FinalItemKind::Other {
                dialect: Dialect::Anthropic,
                raw: Some(raw),
                ..
            } => {
                sep(&mut content);
                // A server tool's input streams as `input_json_delta`
                // fragments after its block's `{}`; a compaction block's
                // text as `compaction_delta` pieces: the block with them.
                let mut input = String::new();
                let input = (!item.arguments.trim().is_empty()
                    && object_args(&item.arguments, &mut input))
                .then_some(input.as_str());
                let text = item.extra(a, "content").and_then(canonical_str);
                let encrypted = item.extra(a, "encrypted_content").and_then(canonical_str);
                if input.is_none() && text.is_none() && encrypted.is_none() {
                    push_one_line(raw, &mut content);
                    continue;
                }
                let mut block = String::new();
                crate::json::write_merged(
                    &mut block,
                    Some(raw),
                    &[
                        ("input", input),
                        ("content", text.as_deref()),
                        ("encrypted_content", encrypted.as_deref()),
                    ],
                );
                push_one_line(&block, &mut content);
            }
            FinalItemKind::Other { .. } => {}
        }
    }
    content.push(']');
    (content, tool_use)
}
