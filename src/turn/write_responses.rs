//! The Responses writer of the model: [`ResponsesWriter`] driven by turn
//! events.

use alloc::string::String;
use bytes::{Bytes, BytesMut};
use core::fmt::Write;

use alloc::collections::BTreeMap;

use super::answer::{FinalItem, FinalItemKind, FinalTurn};
use super::hold::Hold;
use super::read_responses::{part_keys, PartKeys};
use super::{
    unescaped, DeltaKind, Dialect, ItemKind, StopReason, TurnConfig, TurnError, TurnErrorKind,
    TurnEvent, TurnStart, TurnUsage, TurnWriter,
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
///
/// A turn read from Responses (its source, or the reader's `response`
/// extra kept) is written as that dialect's own accumulator answers
/// instead: the upstream's last `response` object and its items' own
/// objects, with what the model built laid over them (`render_own`).
pub(crate) fn render(turn: &super::FinalTurn, out: &mut String) {
    if turn.source() == Some(Dialect::Responses)
        || turn.extra(Dialect::Responses, "response").is_some()
    {
        return render_own(turn, out);
    }
    use super::answer::Ending;
    use crate::json::ObjectWriter;
    use crate::responses::writer::usage_json;
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
    for (n, item) in turn.items().iter().enumerate() {
        built_item(turn, base, n, item, &mut output);
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

/// A turn read from Responses, as that dialect's accumulator
/// ([`ResponsesAccumulator`](crate::accumulate::ResponsesAccumulator))
/// answers: the members of the last `response` object the stream sent (the
/// reader's `response` extra), in their order, `output` replaced by the
/// items; an `error` event without a terminal one makes it `failed` with
/// that error. Each item is the object its `output_item.done` gave (the
/// `item` extra), the texts the model built laid over it (an item never
/// finished is written as another dialect's would be). Strings and keys
/// are written again in one escaping, numbers as they came.
fn render_own(turn: &FinalTurn, out: &mut String) {
    use crate::json::{push_normalized, ObjectWriter, Value};
    let own = |key: &str| turn.extra(Dialect::Responses, key);
    let base = own("response")
        .and_then(|r| Value::parse(r).ok())
        .and_then(|v| v.as_object());
    let error = [
        ("type", own("error.type")),
        ("code", own("error.code")),
        ("message", own("error.message")),
        ("param", own("error.param")),
    ];
    let failed_by_event = error.iter().any(|(_, v)| v.is_some()) && own("terminal").is_none();
    let write_error = |out: &mut String| {
        let mut e = ObjectWriter::new(out);
        for (key, value) in error {
            if let Some(v) = value.and_then(|v| Value::parse(v).ok()) {
                push_normalized(e.key(key), &v);
            }
        }
        e.end();
    };
    let mut w = ObjectWriter::new(out);
    let (mut has_status, mut has_error, mut has_output) = (false, false, false);
    match &base {
        Some(obj) => {
            for (k, v) in obj.members() {
                let key = k.unescape();
                let slot = w.key(&key);
                match &*key {
                    "output" => {
                        has_output = true;
                        own_output(turn, slot);
                    }
                    "status" if failed_by_event => {
                        has_status = true;
                        slot.push_str("\"failed\"");
                    }
                    "error" if failed_by_event => {
                        has_error = true;
                        write_error(slot);
                    }
                    _ => {
                        has_status |= key == "status";
                        push_normalized(slot, &v);
                    }
                }
            }
        }
        None => w.raw("object", "\"response\""),
    }
    if failed_by_event {
        if !has_status {
            w.raw("status", "\"failed\"");
        }
        if !has_error {
            write_error(w.key("error"));
        }
    } else if !has_status {
        use super::answer::Ending;
        match turn.ending() {
            Ending::Completed => w.raw("status", "\"completed\""),
            Ending::Incomplete => w.raw("status", "\"incomplete\""),
            Ending::Failed => w.raw("status", "\"failed\""),
            Ending::Cut => {}
        }
    }
    if !has_output {
        own_output(turn, w.key("output"));
    }
    w.end();
}

/// The `output` of [`render_own`].
fn own_output(turn: &FinalTurn, out: &mut String) {
    use crate::json::{push_normalized, Value};
    let base = own_base(turn);
    let mut list = String::from("[");
    for (n, item) in turn.items().iter().enumerate() {
        let other = matches!(item.kind, FinalItemKind::Other { .. });
        let given = match &item.kind {
            FinalItemKind::Other {
                dialect: Dialect::Responses,
                raw: Some(raw),
                ..
            } => Some(raw.as_str()),
            FinalItemKind::Other { .. } => None,
            _ => item.extra(Dialect::Responses, "item"),
        };
        let given = given.and_then(|g| Value::parse(g).ok());
        if given.is_some() && list.len() > 1 {
            list.push(',');
        }
        match given {
            Some(Value::Object(obj)) if !other => overlay_item(item, &obj, &mut list),
            Some(v) => push_normalized(&mut list, &v),
            None if other => {}
            None => built_item(turn, &base, n, item, &mut list),
        }
    }
    list.push(']');
    out.push_str(&list);
}

/// The base of the item ids [`render`] makes up: the response id without
/// `resp_`.
fn own_base(turn: &FinalTurn) -> String {
    match turn.id() {
        Some(id) => String::from(id.strip_prefix("resp_").unwrap_or(id)),
        None => String::from("bridge"),
    }
}

/// An item's object as its `output_item.done` gave it, with the texts the
/// model built laid over its members: a message's parts' `text` (each
/// `output_text` part with `annotations`, `[]` when it has none) and
/// `refusal`, a reasoning item's `summary` and `content` texts, a call's
/// `arguments`.
fn overlay_item(item: &FinalItem, obj: &crate::json::ObjectView<'_>, out: &mut String) {
    use crate::json::{push_json_str, push_normalized, ObjectWriter};
    let mut w = ObjectWriter::new(out);
    let (mut content, mut summary, mut arguments) = (false, false, false);
    for (k, v) in obj.members() {
        let key = k.unescape();
        let slot = w.key(&key);
        match (&item.kind, &*key) {
            (FinalItemKind::Message | FinalItemKind::Refusal, "content") => {
                content = true;
                message_parts(item, Some(&v), slot);
            }
            (FinalItemKind::Reasoning, "summary") => {
                summary = true;
                text_parts(item, true, Some(&v), slot);
            }
            (FinalItemKind::Reasoning, "content") => {
                content = true;
                text_parts(item, false, Some(&v), slot);
            }
            (FinalItemKind::ToolCall { .. }, "arguments") => {
                arguments = true;
                push_json_str(slot, &item.arguments);
            }
            _ => push_normalized(slot, &v),
        }
    }
    match &item.kind {
        FinalItemKind::Message | FinalItemKind::Refusal if !content => {
            message_parts(item, None, w.key("content"))
        }
        FinalItemKind::Reasoning => {
            if !summary {
                text_parts(item, true, None, w.key("summary"));
            }
            if !content && !item.reasoning.is_empty() {
                text_parts(item, false, None, w.key("content"));
            }
        }
        FinalItemKind::ToolCall { .. } if !arguments && !item.arguments.is_empty() => {
            push_json_str(w.key("arguments"), &item.arguments)
        }
        _ => {}
    }
    w.end();
}

/// An array of parts: each element of `given` (by position), then the
/// texts past its end; `part` writes each, given its index, the element
/// (`None` past the end) and the text at its index.
fn parts(
    texts: &BTreeMap<u32, String>,
    given: Option<&crate::json::Value<'_>>,
    out: &mut String,
    mut part: impl FnMut(u64, Option<crate::json::Value<'_>>, Option<&str>, &mut String),
) {
    out.push('[');
    let mut n = 0u64;
    let text_at = |i: u64| {
        u32::try_from(i)
            .ok()
            .and_then(|i| texts.get(&i))
            .map(String::as_str)
    };
    if let Some(list) = given.and_then(|g| g.as_array()) {
        for elem in list.iter() {
            if n > 0 {
                out.push(',');
            }
            part(n, Some(elem), text_at(n), out);
            n += 1;
        }
    }
    for (&i, text) in texts.range(u32::try_from(n).unwrap_or(u32::MAX)..) {
        if n > 0 {
            out.push(',');
        }
        n += 1;
        part(u64::from(i), None, Some(text), out);
    }
    out.push(']');
}

/// The base object of part `index` of `item`: the part object its own
/// event gave (the extra `key` of its [`PartKeys`]), else `elem`, the
/// element of the item's array.
fn part_base<'v>(
    item: &'v FinalItem,
    index: u64,
    key: impl Fn(&PartKeys) -> &'static str,
    elem: Option<crate::json::Value<'v>>,
) -> Option<crate::json::ObjectView<'v>> {
    use crate::json::Value;
    part_keys(index)
        .and_then(|k| item.extra(Dialect::Responses, key(k)))
        .and_then(|raw| Value::parse(raw).ok())
        .and_then(|v| v.as_object())
        .or_else(|| elem.and_then(|e| e.as_object()))
}

/// A reasoning item's `summary` or `content` parts.
fn text_parts(
    item: &FinalItem,
    summary: bool,
    given: Option<&crate::json::Value<'_>>,
    out: &mut String,
) {
    let (texts, ty) = if summary {
        (&item.summary, "summary_text")
    } else {
        (&item.reasoning, "reasoning_text")
    };
    parts(texts, given, out, |index, elem, text, out| {
        let key = |k: &PartKeys| if summary { k.summary_part } else { k.part };
        let obj = part_base(item, index, key, elem);
        let fields = [
            ("type", None, Some(Val::Str(ty))),
            ("text", text.map(Val::Str), Some(Val::Str(""))),
        ];
        set_members(obj.as_ref(), &fields, out)
    });
}

/// A message's `content` parts: `output_text` parts with their text,
/// `annotations` and the log probabilities the reader handed on (the
/// deltas' joined, else the done event's), a `refusal` part with the
/// refusal text.
fn message_parts(item: &FinalItem, given: Option<&crate::json::Value<'_>>, out: &mut String) {
    parts(&item.text, given, out, |index, elem, text, out| {
        let obj = part_base(item, index, |k| k.part, elem);
        let refusal = obj
            .as_ref()
            .and_then(|o| o.get("type"))
            .and_then(|t| t.as_json_str())
            .is_some_and(|t| t == "refusal");
        if refusal {
            let r = Some(item.refusal.as_str())
                .filter(|r| !r.is_empty())
                .map(Val::Str);
            let fields = [
                ("type", None, Some(Val::Str("refusal"))),
                ("refusal", r, Some(Val::Str(""))),
            ];
            return set_members(obj.as_ref(), &fields, out);
        }
        let logprobs = part_keys(index).and_then(|k| {
            item.extra(Dialect::Responses, k.logprobs)
                .or_else(|| item.extra(Dialect::Responses, k.done_logprobs))
        });
        let fields = [
            ("type", None, Some(Val::Str("output_text"))),
            ("text", text.map(Val::Str), Some(Val::Str(""))),
            ("annotations", None, Some(Val::Raw("[]"))),
            ("logprobs", logprobs.map(Val::Raw), None),
        ];
        set_members(obj.as_ref(), &fields, out)
    });
}

/// A member's new value: a string, or JSON text.
#[derive(Clone, Copy)]
enum Val<'v> {
    Str(&'v str),
    Raw(&'v str),
}

impl Val<'_> {
    fn write(self, out: &mut String) {
        match self {
            Val::Str(s) => crate::json::push_json_str(out, s),
            Val::Raw(r) => match crate::json::Value::parse(r) {
                Ok(v) => crate::json::push_normalized(out, &v),
                Err(_) => out.push_str("null"),
            },
        }
    }
}

/// Writes `obj` (or `{}`) with, for each `(key, set, default)`: the member
/// set to `set` when given (in its place, or at the end), else kept as it
/// is, else (absent) written at the end as `default` when given.
fn set_members(
    obj: Option<&crate::json::ObjectView<'_>>,
    fields: &[(&str, Option<Val<'_>>, Option<Val<'_>>)],
    out: &mut String,
) {
    use crate::json::{push_normalized, ObjectWriter};
    let mut w = ObjectWriter::new(out);
    let mut seen = [false; 8];
    if let Some(obj) = obj {
        for (k, v) in obj.members() {
            let key = k.unescape();
            let slot = w.key(&key);
            match fields.iter().position(|(name, _, _)| *name == key) {
                Some(i) => {
                    if let Some(s) = seen.get_mut(i) {
                        *s = true;
                    }
                    match fields[i].1 {
                        Some(val) => val.write(slot),
                        None => push_normalized(slot, &v),
                    }
                }
                None => push_normalized(slot, &v),
            }
        }
    }
    for (i, (key, set, default)) in fields.iter().enumerate() {
        if seen.get(i).copied().unwrap_or(true) {
            continue;
        }
        if let Some(val) = set.or(*default) {
            val.write(w.key(key));
        }
    }
    w.end();
}

/// One item of [`render`]'s `output`, as the streaming writer writes it
/// (a comma first when `output` holds an item already).
fn built_item(turn: &FinalTurn, base: &str, n: usize, item: &FinalItem, output: &mut String) {
    use super::answer::push_one_line;
    use crate::json::{push_json_str, ObjectWriter};
    use crate::responses::writer::{function_call_item, refusal_part, summary_part, text_part};
    let mut item_id = String::new();
    let mut literal = |prefix: &str, n: usize| {
        item_id.clear();
        let text = alloc::format!("{prefix}_{base}_{n}");
        push_json_str(&mut item_id, &text);
        item_id.clone()
    };
    let status = if item.done { "completed" } else { "incomplete" };
    let sep = |o: &mut String| {
        if o.len() > 1 {
            o.push(',');
        }
    };
    match &item.kind {
        FinalItemKind::Message | FinalItemKind::Refusal => {
            sep(output);
            let mut m = ObjectWriter::new(output);
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
            sep(output);
            let mut r = ObjectWriter::new(output);
            r.raw("id", &literal("rs", n));
            r.raw("type", "\"reasoning\"");
            // Reasoning text read from another dialect is written as
            // summary text, as the streaming writer writes it (the
            // clients read summaries); from Responses it stays content.
            let own = turn.source() == Some(Dialect::Responses);
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
            sep(output);
            let id = literal("fc", n);
            let mut call = String::new();
            match call_id {
                Some(c) => push_json_str(&mut call, c),
                None => push_json_str(&mut call, &alloc::format!("call_{base}_{n}")),
            }
            let mut name_lit = String::new();
            push_json_str(&mut name_lit, name.as_deref().unwrap_or(""));
            function_call_item(output, &id, status, &item.arguments, &call, &name_lit);
        }
        FinalItemKind::Other {
            dialect: Dialect::Responses,
            raw: Some(raw),
            ..
        } => {
            sep(output);
            push_one_line(raw, output);
        }
        FinalItemKind::Other { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::accumulate::{ResponsesAccumulator, TurnAccumulator};
    use crate::responses::ResponsesEvent;
    use crate::turn::{Dialect, ResponsesReader};
    use crate::Parser;
    use alloc::string::{String, ToString};
    use bytes::Bytes;

    /// `lines` as `data:` frames: the turn rendered in Responses, and the
    /// dialect accumulator's answer.
    fn both(lines: &[&str]) -> (String, String) {
        let mut stream = String::new();
        for l in lines {
            stream.push_str("data: ");
            stream.push_str(l);
            stream.push_str("\n\n");
        }
        let mut p = Parser::new();
        p.feed(Bytes::from(stream));
        let mut reader = ResponsesReader::default();
        let mut turn = TurnAccumulator::new().from_dialect(Dialect::Responses);
        let mut acc = ResponsesAccumulator::new();
        while let Ok(Some(f)) = p.next_frame() {
            let _ = turn.read(&mut reader, &f);
            if let Ok(e) = ResponsesEvent::from_frame(&f) {
                let _ = acc.feed(&e);
            }
        }
        let _ = turn.finish_reader(&mut reader);
        let got = turn.into_turn().to_json(Dialect::Responses);
        (got, acc.finish().json().to_string())
    }

    #[test]
    fn an_error_event_without_a_terminal_fails_the_response() {
        let (got, acc) = both(&[
            r#"{"type":"response.created","response":{"id":"resp_1","status":"in_progress","error":null,"model":"m\u00e9"}}"#,
            r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"c","name":"f","arguments":""}}"#,
            r#"{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"a\":"}"#,
            r#"{"type":"error","code":"q","message":"m","param":null}"#,
        ]);
        // Written by hand: the created object's members in order, status
        // and error from the error event, the call as far as it came (its
        // added object, its arguments from the deltas), the model's name
        // unescaped and written again.
        let want = concat!(
            r#"{"id":"resp_1","status":"failed","error":{"code":"q","message":"m"},"model":"mé","#,
            r#""output":[{"type":"function_call","id":"fc_1","call_id":"c","name":"f","arguments":"{\"a\":"}]}"#,
        );
        assert_eq!(got, want);
        assert_eq!(acc, want);
    }

    #[test]
    fn no_lifecycle_event_and_parts_past_the_item_object() {
        let (got, acc) = both(&[
            r#"{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}"#,
            r#"{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"a"}"#,
            r#"{"type":"response.reasoning_text.delta","item_id":"rs_1","output_index":0,"content_index":0,"delta":"b"}"#,
            r#"{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs_1","summary":[]}}"#,
        ]);
        // Cut (no terminal event): no status; the summary and reasoning
        // text built from the deltas, past the done object's empty lists.
        let want = concat!(
            r#"{"object":"response","output":[{"type":"reasoning","id":"rs_1","#,
            r#""summary":[{"type":"summary_text","text":"a"}],"#,
            r#""content":[{"type":"reasoning_text","text":"b"}]}]}"#,
        );
        assert_eq!(got, want);
        assert_eq!(acc, want);
    }
}
