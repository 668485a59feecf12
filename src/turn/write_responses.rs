//! The Responses writer of the model: [`ResponsesWriter`] driven by turn
//! events.

use alloc::string::String;
use bytes::{Bytes, BytesMut};
use core::fmt::Write;

use super::hold::Hold;
use super::{
    unescaped, DeltaKind, ItemKind, StopReason, TurnConfig, TurnError, TurnErrorKind, TurnEvent,
    TurnStart, TurnUsage, TurnWriter,
};
use crate::responses::writer::{ResponsesWriter, TokenUsage, WriterError};

/// The item open downstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    None,
    Message,
    Refusal,
    Reasoning,
    Call,
    Skipped,
}

/// Writes a turn as an OpenAI Responses stream, with a
/// [`ResponsesWriter`] (so it is always well formed: sequence numbers,
/// `added`/`done` pairs, one terminal event).
///
/// | model | events |
/// | --- | --- |
/// | start | `response.created`, `response.in_progress` (`resp_{id}`; `tools`, `tool_choice`, `parallel_tool_calls` from [`TurnConfig`], else the API's defaults) |
/// | a message item | a `message` item: `output_text.delta` |
/// | a refusal item | a `message` item with a `refusal` part: `refusal.delta` |
/// | a reasoning item | a `reasoning` item: `reasoning_summary_text.delta` (reasoning and summary text; a new summary part per summary index); its signature or encrypted content as `encrypted_content` |
/// | a tool call | a `function_call` item: `function_call_arguments.delta` |
/// | item end | the item's done events |
/// | end | `response.completed`, or `response.incomplete` (`max_output_tokens`, `content_filter`) |
/// | error, failure | `response.failed` |
/// | keep-alive | `: keep-alive` |
///
/// Item ids are `{msg|rs|fc}_{base}_{n}`, `base` the response id without
/// `resp_`. Items are written one after another: an item that opens while
/// another is open is held (up to [`TurnConfig::max_held_bytes`]) until it
/// ends.
#[derive(Debug)]
pub struct ResponsesTurnWriter {
    inner: Inner,
    hold: Hold,
}

#[derive(Debug)]
struct Inner {
    config: TurnConfig,
    writer: Option<ResponsesWriter>,
    base: String,
    open: Open,
    items: u64,
    /// The summary index of the open reasoning item's part.
    part: Option<u32>,
    encrypted: String,
    text: String,
    id: String,
    usage: TurnUsage,
    stop: Option<StopReason>,
    finished: bool,
    early: BytesMut,
    /// Items of other dialects left out.
    not_carried: u64,
}

impl Default for ResponsesTurnWriter {
    fn default() -> Self {
        Self::new(TurnConfig::default())
    }
}

impl ResponsesTurnWriter {
    /// A writer with this config.
    pub fn new(config: TurnConfig) -> Self {
        Self {
            hold: Hold::new(config.max_held_bytes),
            inner: Inner {
                config,
                writer: None,
                base: String::new(),
                open: Open::None,
                items: 0,
                part: None,
                encrypted: String::new(),
                text: String::new(),
                id: String::new(),
                usage: TurnUsage::default(),
                stop: None,
                finished: false,
                early: BytesMut::new(),
                not_carried: 0,
            },
        }
    }
}

impl Inner {
    fn open_writer(&mut self, start: Option<&TurnStart<'_>>) -> &mut ResponsesWriter {
        if self.writer.is_none() {
            let upstream = start.and_then(|s| s.id).map(|s| s.unescape());
            let response_id = match (&self.config.id, &upstream) {
                (Some(given), _) => given.clone(),
                (None, Some(up)) if up.starts_with("resp_") => String::from(&**up),
                (None, Some(up)) => alloc::format!("resp_{up}"),
                (None, None) => String::from("resp_bridge"),
            };
            self.base = String::from(response_id.strip_prefix("resp_").unwrap_or(&response_id));
            let model = match (&self.config.model, start.and_then(|s| s.model)) {
                (Some(m), _) => m.clone(),
                (None, Some(m)) => m.unescape().into_owned(),
                (None, None) => String::new(),
            };
            let created = self
                .config
                .created
                .or(start.and_then(|s| s.created))
                .unwrap_or(0);
            let mut w = ResponsesWriter::new(&response_id, &model, created)
                .with_max_kept_bytes(self.config.max_kept_bytes)
                .with_request_fields(
                    self.config.tools.as_deref(),
                    self.config.tool_choice.as_deref(),
                    self.config.parallel_tool_calls,
                );
            let _ = w.start(); // a new writer cannot be finished
            self.writer = Some(w);
        }
        self.writer
            .get_or_insert_with(|| ResponsesWriter::new("resp_bridge", "", 0))
    }

    fn wrote(r: Result<(), WriterError>) -> Result<(), TurnError> {
        r.map_err(|e| TurnError::new(TurnErrorKind::Writer(e.kind()), 0))
    }

    fn next_id(&mut self, prefix: &str) {
        self.id.clear();
        let _ = write!(self.id, "{prefix}_{}_{}", self.base, self.items);
        self.items += 1;
    }

    fn close(&mut self) -> Result<(), TurnError> {
        let open = core::mem::replace(&mut self.open, Open::None);
        let Some(w) = self.writer.as_mut() else {
            return Ok(());
        };
        let r = match open {
            Open::None | Open::Skipped => return Ok(()),
            Open::Message | Open::Refusal => w.finish_message(),
            Open::Reasoning => {
                if !self.encrypted.is_empty() {
                    Self::wrote(w.set_encrypted_content(&self.encrypted))?;
                    self.encrypted.clear();
                }
                w.finish_reasoning()
            }
            Open::Call => w.finish_function_call(),
        };
        Self::wrote(r)
    }

    fn start_item(&mut self, item: ItemKind<'_>) -> Result<(), TurnError> {
        self.close()?;
        self.open_writer(None);
        self.part = None;
        let r = match item {
            ItemKind::Message | ItemKind::Refusal => {
                self.next_id("msg");
                let Inner { writer, id, .. } = self;
                let Some(w) = writer.as_mut() else {
                    return Ok(());
                };
                if item == ItemKind::Refusal {
                    self.open = Open::Refusal;
                    w.start_refusal(id)
                } else {
                    self.open = Open::Message;
                    w.start_message(id)
                }
            }
            ItemKind::Reasoning => {
                self.next_id("rs");
                self.open = Open::Reasoning;
                let Inner { writer, id, .. } = self;
                match writer.as_mut() {
                    Some(w) => w.start_reasoning(id),
                    None => Ok(()),
                }
            }
            ItemKind::ToolCall { call_id, name } => {
                self.next_id("fc");
                self.open = Open::Call;
                let mut call = String::new();
                match call_id {
                    Some(c) => c.unescape_into(&mut call),
                    None => {
                        let _ = write!(call, "call_{}_{}", self.base, self.items - 1);
                    }
                }
                let name = name.map(|n| n.unescape()).unwrap_or_default();
                let Inner { writer, id, .. } = self;
                match writer.as_mut() {
                    Some(w) => w.start_function_call(id, &call, &name),
                    None => Ok(()),
                }
            }
            ItemKind::Other {
                dialect: super::Dialect::Responses,
                raw: Some(raw),
                ..
            } => {
                // Whole already: written and closed at once.
                self.open = Open::None;
                match self.writer.as_mut() {
                    Some(w) => w.item(raw.get()),
                    None => Ok(()),
                }
            }
            _ => {
                self.not_carried += 1;
                self.open = Open::Skipped;
                Ok(())
            }
        };
        Self::wrote(r)
    }

    fn delta(
        &mut self,
        kind: DeltaKind,
        part: u32,
        s: crate::json::JsonStr<'_>,
    ) -> Result<(), TurnError> {
        if kind == DeltaKind::Signature || kind == DeltaKind::Encrypted {
            if self.open == Open::Reasoning {
                // Kept until the item ends, then kept by the writer for
                // its done events: bounded as the writer's text is.
                let limit = self.config.max_kept_bytes;
                if self.encrypted.len().saturating_add(s.len_hint()) > limit {
                    return Err(TurnError::new(
                        TurnErrorKind::Writer(
                            crate::responses::writer::WriterErrorKind::LimitExceeded { limit },
                        ),
                        0,
                    ));
                }
                s.unescape_into(&mut self.encrypted);
            }
            return Ok(());
        }
        if s.is_empty() {
            return Ok(());
        }
        let Inner {
            writer, text, open, ..
        } = self;
        let Some(w) = writer.as_mut() else {
            return Ok(());
        };
        let r = match (*open, kind) {
            (Open::Message, DeltaKind::Text) => w.text_delta(unescaped(s, text)),
            (Open::Message, DeltaKind::Refusal) => w.text_delta(unescaped(s, text)),
            (Open::Refusal, DeltaKind::Refusal | DeltaKind::Text) => {
                w.refusal_delta(unescaped(s, text))
            }
            (Open::Reasoning, DeltaKind::Reasoning | DeltaKind::Summary) => {
                if kind == DeltaKind::Summary && self.part.is_some_and(|p| p != part) {
                    Self::wrote(w.start_summary_part())?;
                }
                self.part = Some(part);
                w.summary_delta(unescaped(s, text))
            }
            (Open::Call, DeltaKind::Arguments) => w.arguments_delta(unescaped(s, text)),
            _ => Ok(()),
        };
        Self::wrote(r)
    }

    fn end(&mut self) -> Result<(), TurnError> {
        if self.finished {
            return Ok(());
        }
        self.close()?;
        let u = self.usage;
        let stop = self.stop.unwrap_or(StopReason::EndTurn);
        let w = self.open_writer(None);
        if u.input.is_some() || u.output.is_some() {
            w.set_usage(
                TokenUsage::new(u.input.unwrap_or(0), u.output.unwrap_or(0))
                    .with_cached_tokens(u.cached.unwrap_or(0))
                    .with_reasoning_tokens(u.reasoning.unwrap_or(0)),
            );
        }
        let r = match stop {
            StopReason::MaxTokens | StopReason::ContextWindow => w.incomplete("max_output_tokens"),
            StopReason::ContentFilter | StopReason::Refusal => w.incomplete("content_filter"),
            StopReason::Error => w.fail("server_error", "the upstream stopped for an error"),
            _ => w.complete(),
        };
        self.finished = true;
        Self::wrote(r)
    }

    fn fail(&mut self, code: &str, message: &str) {
        if self.finished {
            return;
        }
        self.finished = true;
        let u = self.usage;
        let w = self.open_writer(None);
        if u.input.is_some() || u.output.is_some() {
            w.set_usage(
                TokenUsage::new(u.input.unwrap_or(0), u.output.unwrap_or(0))
                    .with_cached_tokens(u.cached.unwrap_or(0))
                    .with_reasoning_tokens(u.reasoning.unwrap_or(0)),
            );
        }
        let code = if code.is_empty() {
            "server_error"
        } else {
            code
        };
        let _ = w.fail(code, message);
    }

    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        if self.finished {
            return Ok(());
        }
        match *event {
            TurnEvent::Start(start) => {
                self.open_writer(Some(&start));
            }
            TurnEvent::ItemStart { item, .. } => self.start_item(item)?,
            TurnEvent::Delta {
                kind, part, text, ..
            } => self.delta(kind, part, text)?,
            TurnEvent::ItemEnd { .. } => self.close()?,
            TurnEvent::Usage(u) => self.usage.merge(&u),
            TurnEvent::Stop(stop) => self.stop = Some(stop.reason),
            TurnEvent::Error(e) => {
                let code = e.code.map(|c| c.unescape()).unwrap_or_default();
                let message = e.message.map(|m| m.unescape()).unwrap_or_default();
                self.fail(&code, &message);
            }
            TurnEvent::KeepAlive => match self.writer.as_mut() {
                Some(w) => w.keep_alive(),
                // Before the upstream named its response: a comment of our
                // own, so that the response id is still the upstream's.
                None => self.early.extend_from_slice(b": keep-alive\n\n"),
            },
            // Members for a final answer in the upstream's dialect only.
            TurnEvent::Extra(_) => {}
            TurnEvent::End => self.end()?,
        }
        Ok(())
    }
}

impl TurnWriter for ResponsesTurnWriter {
    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        let inner = &mut self.inner;
        self.hold.event(event, &mut |e| inner.write(e))
    }

    fn fail(&mut self, code: &str, message: &str) {
        self.inner.fail(code, message);
    }

    fn take(&mut self) -> Bytes {
        let inner = &mut self.inner;
        let Some(writer) = inner.writer.as_mut() else {
            return inner.early.split().freeze();
        };
        if inner.early.is_empty() {
            return writer.take();
        }
        inner.early.extend_from_slice(&writer.take());
        inner.early.split().freeze()
    }

    fn is_finished(&self) -> bool {
        self.inner.finished
    }

    fn not_carried(&self) -> u64 {
        self.inner.not_carried
    }
}

/// Writes a finished turn as a Responses `response` object, its items as
/// [`ResponsesTurnWriter`] writes them.
///
/// | turn | response |
/// | --- | --- |
/// | id | `id` (`resp_` added when missing; `resp_bridge` when none); item ids `{msg\|rs\|fc}_{base}_{n}` |
/// | a message item | a `message` item: an `output_text` part per part, then a `refusal` part when it has refusal text |
/// | a refusal item | a `message` item with a `refusal` part |
/// | a reasoning item | a `reasoning` item: `summary` parts, reasoning text as `reasoning_text` content parts when read from Responses (else as summary parts, as the streaming writer writes it), its encrypted content (or signature) as `encrypted_content` |
/// | a tool call | a `function_call` item |
/// | an item only Responses has | the item as the upstream wrote it, when the turn was read from Responses and the reader kept it; else left out |
/// | completed, incomplete, failed, cut | `status` `completed`; `incomplete` with `incomplete_details.reason` (`max_output_tokens`, `content_filter`); `failed` with `error` (the upstream's code when read from Responses, else `server_error`); `in_progress` |
/// | usage | `usage`, when known |
///
/// Items still open when the turn ended have status `incomplete`. The
/// request's `tools`, `tool_choice` and `parallel_tool_calls` are the API's
/// defaults (`[]`, `"auto"`, `true`).
pub(crate) fn render(turn: &super::FinalTurn, out: &mut String) {
    use super::answer::{push_one_line, Ending, FinalItemKind};
    use crate::json::{push_json_str, ObjectWriter};
    use crate::responses::writer::{
        function_call_item, refusal_part, summary_part, text_part, usage_json,
    };
    let id = match turn.id() {
        Some(id) if id.starts_with("resp_") => String::from(id),
        Some(id) => alloc::format!("resp_{id}"),
        None => String::from("resp_bridge"),
    };
    let base = id.strip_prefix("resp_").unwrap_or(&id);
    let mut w = ObjectWriter::new(out);
    w.str("id", &id);
    w.raw("object", "\"response\"");
    w.u64("created_at", turn.created().unwrap_or(0));
    let ending = turn.ending();
    w.raw(
        "status",
        match ending {
            Ending::Completed => "\"completed\"",
            Ending::Incomplete => "\"incomplete\"",
            Ending::Failed => "\"failed\"",
            Ending::Cut => "\"in_progress\"",
        },
    );
    w.str("model", turn.model().unwrap_or(""));
    let mut output = String::from("[");
    let mut item_id = String::new();
    let mut literal = |prefix: &str, n: usize| {
        item_id.clear();
        let text = alloc::format!("{prefix}_{base}_{n}");
        push_json_str(&mut item_id, &text);
        item_id.clone()
    };
    for (n, item) in turn.items().iter().enumerate() {
        let status = if item.done { "completed" } else { "incomplete" };
        let sep = |o: &mut String| {
            if o.len() > 1 {
                o.push(',');
            }
        };
        match &item.kind {
            FinalItemKind::Message | FinalItemKind::Refusal => {
                sep(&mut output);
                let mut m = ObjectWriter::new(&mut output);
                m.raw("id", &literal("msg", n));
                m.raw("type", "\"message\"");
                m.str("status", status);
                let c = m.key("content");
                c.push('[');
                for (i, t) in item.text.values().enumerate() {
                    if i > 0 {
                        c.push(',');
                    }
                    text_part(c, t);
                }
                if !item.refusal.is_empty() || (item.kind == FinalItemKind::Refusal) {
                    if !item.text.is_empty() {
                        c.push(',');
                    }
                    refusal_part(c, &item.refusal);
                }
                c.push(']');
                m.raw("role", "\"assistant\"");
                m.end();
            }
            FinalItemKind::Reasoning => {
                sep(&mut output);
                let mut r = ObjectWriter::new(&mut output);
                r.raw("id", &literal("rs", n));
                r.raw("type", "\"reasoning\"");
                // Reasoning text read from another dialect is written as
                // summary text, as the streaming writer writes it (the
                // clients read summaries); from Responses it stays content.
                let own = turn.source() == Some(super::Dialect::Responses);
                let s = r.key("summary");
                s.push('[');
                let texts = item
                    .summary
                    .values()
                    .chain(item.reasoning.values().filter(|_| !own));
                for (n, t) in texts.enumerate() {
                    if n > 0 {
                        s.push(',');
                    }
                    summary_part(s, t);
                }
                s.push(']');
                if own && !item.reasoning.is_empty() {
                    let c = r.key("content");
                    c.push('[');
                    for (i, t) in item.reasoning.values().enumerate() {
                        if i > 0 {
                            c.push(',');
                        }
                        let mut p = ObjectWriter::new(c);
                        p.raw("type", "\"reasoning_text\"");
                        p.str("text", t);
                        p.end();
                    }
                    c.push(']');
                }
                if !item.encrypted.is_empty() {
                    r.str("encrypted_content", &item.encrypted);
                } else if !item.signature.is_empty() {
                    r.str("encrypted_content", &item.signature);
                }
                r.str("status", status);
                r.end();
            }
            FinalItemKind::ToolCall { call_id, name } => {
                sep(&mut output);
                let id = literal("fc", n);
                let mut call = String::new();
                match call_id {
                    Some(c) => push_json_str(&mut call, c),
                    None => push_json_str(&mut call, &alloc::format!("call_{base}_{n}")),
                }
                let mut name_lit = String::new();
                push_json_str(&mut name_lit, name.as_deref().unwrap_or(""));
                function_call_item(&mut output, &id, status, &item.arguments, &call, &name_lit);
            }
            FinalItemKind::Other {
                dialect: super::Dialect::Responses,
                raw: Some(raw),
                ..
            } => {
                sep(&mut output);
                push_one_line(raw, &mut output);
            }
            FinalItemKind::Other { .. } => {}
        }
    }
    output.push(']');
    w.raw("output", &output);
    match ending {
        Ending::Failed => {
            let (code, message) = turn.error().unwrap_or((None, None));
            let mut e = ObjectWriter::new(w.key("error"));
            let own = turn.source() == Some(super::Dialect::Responses);
            e.str("code", code.filter(|_| own).unwrap_or("server_error"));
            e.str(
                "message",
                message.unwrap_or("the upstream stopped for an error"),
            );
            e.end();
        }
        _ => w.raw("error", "null"),
    }
    match ending {
        Ending::Incomplete => {
            let reason = match turn.stop_reason() {
                Some(StopReason::ContentFilter | StopReason::Refusal) => "content_filter",
                _ => "max_output_tokens",
            };
            let mut d = ObjectWriter::new(w.key("incomplete_details"));
            d.str("reason", reason);
            d.end();
        }
        _ => w.raw("incomplete_details", "null"),
    }
    w.raw("tools", "[]");
    w.raw("tool_choice", "\"auto\"");
    w.raw("parallel_tool_calls", "true");
    let u = turn.usage();
    if u.input.is_some() || u.output.is_some() {
        let usage = TokenUsage::new(u.input.unwrap_or(0), u.output.unwrap_or(0))
            .with_cached_tokens(u.cached.unwrap_or(0))
            .with_reasoning_tokens(u.reasoning.unwrap_or(0));
        usage_json(w.key("usage"), &usage);
    } else {
        w.raw("usage", "null");
    }
    w.end();
}
