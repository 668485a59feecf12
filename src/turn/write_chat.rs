//! The Chat Completions writer: `chat.completion.chunk`s, then
//! `data: [DONE]`.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use bytes::{BufMut, Bytes, BytesMut};
use core::fmt::Write;

use super::answer::{kept_str, FinalItem, FinalItemKind, FinalTurn};
use super::read_chat::keys;
use super::{
    DeltaKind, Dialect, ItemKind, StopReason, TurnConfig, TurnError, TurnErrorKind, TurnEvent,
    TurnStart, TurnUsage, TurnWriter,
};
use crate::json::{push_json_str, JsonStr, ObjectWriter};

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
        let stop = self.stop.unwrap_or(StopReason::EndTurn);
        let Some(reason) = finish_reason(stop, !self.calls.is_empty()) else {
            self.error_chunk("server_error", "the upstream stopped for an error");
            return;
        };
        self.finished = true;
        self.chunk(Some(reason), |_| {});
        let u = self.usage;
        if u.input.is_some() || u.output.is_some() {
            let j = &mut self.json;
            j.clear();
            j.push_str(&self.head);
            j.push_str("\"choices\":[],\"usage\":");
            usage_json(&u, j);
            j.push('}');
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

/// Chat's `finish_reason` for a stop (`tool_calls` when a call was made and
/// the model ended its turn); `None` for an upstream error, which Chat
/// reports as an error, not a finish reason.
pub(crate) fn finish_reason(stop: StopReason, calls: bool) -> Option<&'static str> {
    Some(match stop {
        StopReason::Error => return None,
        StopReason::MaxTokens | StopReason::ContextWindow => "length",
        StopReason::ContentFilter | StopReason::Refusal => "content_filter",
        StopReason::ToolUse => "tool_calls",
        _ if calls => "tool_calls",
        _ => "stop",
    })
}

/// Chat's `usage` object.
fn usage_json(u: &TurnUsage, j: &mut String) {
    let input = u.input.unwrap_or(0);
    let output = u.output.unwrap_or(0);
    let _ = write!(
        j,
        "{{\"prompt_tokens\":{input},\"completion_tokens\":{output},\
         \"total_tokens\":{},\"prompt_tokens_details\":{{\"cached_tokens\":{}}},\
         \"completion_tokens_details\":{{\"reasoning_tokens\":{}}}}}",
        input.saturating_add(output),
        u.cached.unwrap_or(0),
        u.reasoning.unwrap_or(0),
    );
}

/// Writes a finished turn as a `chat.completion` object (one choice).
///
/// | turn | completion |
/// | --- | --- |
/// | id | `id` (`chatcmpl-` added when missing; `chatcmpl-bridge` when none) |
/// | text of every item | `message.content` (`null` when the turn has no text item) |
/// | refusals | `message.refusal` (`null` when none) |
/// | reasoning, summaries | `message.reasoning_content` (left out when empty; a blank line between summary parts, as [`ChatWriter`] streams them) |
/// | tool calls | `message.tool_calls` (`id`, `type: function`, `function: {name, arguments}`), left out when none |
/// | stop | `finish_reason`, as [`ChatWriter`] writes it; a failed or cut turn, which Chat cannot say in a completion, says `stop` (or `tool_calls`) (read from Chat: see below) |
/// | usage | `usage` with the cached and reasoning details, when known |
///
/// Signatures, encrypted reasoning and items only other dialects have are
/// left out.
///
/// A turn read from Chat is written as the upstream's own completion would
/// be, with the members the reader kept as extras (see
/// [`ChatReader`](super::ChatReader)): the id as sent, `null` for what the
/// stream never said (`created`, `model`, `role`, `content`, `refusal`, a
/// call's `id`, `type` and `name`, `logprobs`, `finish_reason`),
/// `reasoning_content` and `reasoning` each with the text sent under its
/// name, the deprecated `function_call` as itself, and `usage`,
/// `service_tier`, `system_fingerprint`, `provider` and `moderation` as
/// the upstream wrote them, the tool calls in the order of their `index`.
/// The answer is what the upstream sent: a choice that failed or was cut
/// before its `finish_reason` says `null` (which openai-python's
/// `ChatCompletion` model refuses; rendered in another dialect's shape,
/// such a turn says what that dialect's clients accept), and a choice the
/// stream never sent is not written (`"choices":[]`).
pub(crate) fn render(turn: &FinalTurn, out: &mut String) {
    if turn.source() == Some(Dialect::Chat) || turn.extras(Dialect::Chat).next().is_some() {
        return render_own(turn, out);
    }
    let mut w = ObjectWriter::new(out);
    {
        let j = w.key("id");
        match turn.id() {
            Some(id) if id.starts_with("chatcmpl") => push_json_str(j, id),
            Some(id) => {
                let mut s = String::from("chatcmpl-");
                s.push_str(id);
                push_json_str(j, &s);
            }
            None => j.push_str("\"chatcmpl-bridge\""),
        }
    }
    w.raw("object", "\"chat.completion\"");
    w.u64("created", turn.created().unwrap_or(0));
    w.str("model", turn.model().unwrap_or(""));
    let (mut text, mut has_text, mut refusal, mut reasoning) =
        (String::new(), false, String::new(), String::new());
    let mut last_summary: Option<(usize, u32)> = None;
    for (n, item) in turn.items().iter().enumerate() {
        if !item.text.is_empty() || item.kind == FinalItemKind::Message {
            has_text = true;
        }
        for t in item.text.values() {
            text.push_str(t);
        }
        refusal.push_str(&item.refusal);
        for (part, t) in item.summary.iter() {
            if t.is_empty() {
                continue;
            }
            if last_summary.is_some_and(|last| last != (n, *part)) {
                reasoning.push_str("\n\n");
            }
            last_summary = Some((n, *part));
            reasoning.push_str(t);
        }
        for t in item.reasoning.values() {
            reasoning.push_str(t);
        }
    }
    let j = w.key("choices");
    j.push_str("[{\"index\":0,\"message\":");
    let mut m = ObjectWriter::new(j);
    m.raw("role", "\"assistant\"");
    m.str_or_null("content", has_text.then_some(text.as_str()));
    m.str_or_null("refusal", (!refusal.is_empty()).then_some(refusal.as_str()));
    if !reasoning.is_empty() {
        m.str("reasoning_content", &reasoning);
    }
    let mut calls = 0u64;
    let mut arr = String::from("[");
    for (n, item) in turn.items().iter().enumerate() {
        let FinalItemKind::ToolCall { call_id, name } = &item.kind else {
            continue;
        };
        if calls > 0 {
            arr.push(',');
        }
        let mut c = ObjectWriter::new(&mut arr);
        match call_id {
            Some(id) => c.str("id", id),
            None => {
                let mut id = String::new();
                let _ = write!(id, "call_{n}");
                c.str("id", &id);
            }
        }
        c.raw("type", "\"function\"");
        let mut f = ObjectWriter::new(c.key("function"));
        f.str("name", name.as_deref().unwrap_or(""));
        f.str("arguments", &item.arguments);
        f.end();
        c.end();
        calls += 1;
    }
    if calls > 0 {
        arr.push(']');
        m.raw("tool_calls", &arr);
    }
    m.end();
    j.push_str(",\"logprobs\":null,\"finish_reason\":");
    let stop = turn.stop_reason().unwrap_or(StopReason::EndTurn);
    match turn
        .own_stop(super::Dialect::Chat)
        .or_else(|| finish_reason(stop, calls > 0))
    {
        Some(reason) => push_json_str(j, reason),
        None => j.push_str(if calls > 0 {
            "\"tool_calls\""
        } else {
            "\"stop\""
        }),
    }
    j.push_str("}]");
    let u = turn.usage();
    if u.input.is_some() || u.output.is_some() {
        usage_json(&u, w.key("usage"));
    }
    w.end();
}

/// Whether `item` carries the message member `member` (an index in
/// [`keys::TEXTS`]).
fn carries(item: &FinalItem, member: usize) -> bool {
    let reasoning = || item.extra(Dialect::Chat, keys::REASONING_ITEM).is_some();
    match (member, &item.kind) {
        (keys::CONTENT, FinalItemKind::Message) | (keys::REFUSAL, FinalItemKind::Refusal) => true,
        (keys::REASONING_CONTENT, FinalItemKind::Reasoning) => !reasoning(),
        (keys::REASONING, FinalItemKind::Reasoning) => reasoning(),
        _ => false,
    }
}

/// The text of `item` for the member `member` it carries, by part.
fn parts(item: &FinalItem, member: usize) -> impl Iterator<Item = &str> + '_ {
    let (single, map) = match member {
        keys::REFUSAL => (Some(item.refusal.as_str()), None),
        keys::CONTENT => (None, Some(&item.text)),
        _ => (None, Some(&item.reasoning)),
    };
    let map = map.into_iter().flat_map(|m| m.values().map(String::as_str));
    single.into_iter().chain(map)
}

/// The message member `member` (an index in [`keys::TEXTS`]) of a turn
/// read from Chat: the text of the items that carry it, joined (borrowed
/// when one item holds it whole); else `""` when the member's first
/// fragment was empty; else `None` (the member never came).
pub(crate) fn own_member(turn: &FinalTurn, member: usize) -> Option<Cow<'_, str>> {
    let mut found: Option<Cow<'_, str>> = None;
    for item in turn.items().iter().filter(|i| carries(i, member)) {
        for part in parts(item, member) {
            found = Some(match found {
                None => Cow::Borrowed(part),
                Some(mut text) => {
                    text.to_mut().push_str(part);
                    text
                }
            });
        }
        found.get_or_insert(Cow::Borrowed(""));
    }
    found.or_else(|| kept_str(turn.extra(Dialect::Chat, keys::TEXTS.get(member)?)))
}

/// The tool calls of a turn read from Chat (not the deprecated
/// `function_call`), in the order of their upstream `index`.
pub(crate) fn own_calls(turn: &FinalTurn) -> alloc::vec::Vec<(u64, &FinalItem)> {
    let mut calls = alloc::vec::Vec::new();
    for item in turn.items() {
        if !matches!(item.kind, FinalItemKind::ToolCall { .. })
            || item.extra(Dialect::Chat, keys::FUNCTION_CALL).is_some()
        {
            continue;
        }
        let index = item
            .extra(Dialect::Chat, keys::CALL_INDEX)
            .and_then(|n| n.parse().ok())
            .unwrap_or(calls.len() as u64);
        calls.push((index, item));
    }
    // Stable: calls of one index (none from one reader) keep their order.
    calls.sort_by_key(|&(index, _)| index);
    calls
}

/// [`render`] of a turn read from Chat: the completion the upstream's own
/// accumulation gives (one choice).
fn render_own(turn: &FinalTurn, out: &mut String) {
    render_own_choices(&[turn], out);
}

/// Writes turns as the choices of one `chat.completion`: each turn read by
/// its own [`ChatReader`](super::ChatReader) (one per
/// [`choice`](super::ChatReader::choice)), the completion's own members
/// from the first. Turns not read from Chat: the first alone, as
/// [`render`] writes it.
pub(crate) fn render_choices(turns: &[&FinalTurn], out: &mut String) {
    match turns.first() {
        None => out.push_str("{}"),
        Some(first) if first.source() == Some(Dialect::Chat) => render_own_choices(turns, out),
        Some(first) => render(first, out),
    }
}

fn render_own_choices(turns: &[&FinalTurn], out: &mut String) {
    match turns.first() {
        Some(head) => {
            // A choice the stream never sent is not made up.
            let came: alloc::vec::Vec<&FinalTurn> =
                turns.iter().copied().filter(|t| choice_came(t)).collect();
            render_completion(head, &came, out);
        }
        None => out.push_str("{}"),
    }
}

/// Whether the choice a turn read from Chat was read left a trace: an
/// item, a stop, its role, index or log probabilities, an empty text
/// member. (A choice sent only with an empty delta leaves none.)
fn choice_came(turn: &FinalTurn) -> bool {
    let kept = |key: &str| turn.extra(Dialect::Chat, key).is_some();
    !turn.items().is_empty()
        || turn.stop.is_some()
        || kept(keys::ROLE)
        || kept(keys::INDEX)
        || kept(keys::LOGPROBS)
        || keys::TEXTS.iter().any(|key| kept(key))
}

/// Writes a `chat.completion` read from Chat whose own members (id,
/// model, creation time, usage, tier, fingerprint, provider, moderation)
/// come from `turn` and whose choices are `choices`, each read by a reader
/// of its own (none: `"choices":[]`).
pub(crate) fn render_completion(turn: &FinalTurn, choices: &[&FinalTurn], out: &mut String) {
    let kept = |key: &str| turn.extra(Dialect::Chat, key);
    let mut w = ObjectWriter::new(out);
    w.str_or_null("id", turn.id());
    w.raw("object", "\"chat.completion\"");
    match turn.created() {
        Some(t) => w.u64("created", t),
        None => w.raw("created", "null"),
    }
    w.str_or_null("model", turn.model());
    let j = w.key("choices");
    j.push('[');
    for (i, choice) in choices.iter().enumerate() {
        if i > 0 {
            j.push(',');
        }
        own_choice(choice, j);
    }
    j.push(']');
    if let Some(u) = kept(keys::USAGE) {
        w.raw("usage", u);
    }
    for key in keys::ONCE {
        w.opt_str(key, kept_str(kept(key)).as_deref());
    }
    if let Some(m) = kept(keys::MODERATION) {
        w.raw("moderation", m);
    }
    w.end();
}

/// Writes `turn` as one element of a completion's `choices`.
fn own_choice(turn: &FinalTurn, j: &mut String) {
    let kept = |key: &str| turn.extra(Dialect::Chat, key);
    j.push_str("{\"index\":");
    j.push_str(kept(keys::INDEX).unwrap_or("0"));
    j.push_str(",\"message\":");
    let mut m = ObjectWriter::new(j);
    m.str_or_null("role", kept_str(kept(keys::ROLE)).as_deref());
    for (member, key) in keys::TEXTS.into_iter().enumerate() {
        let value = own_member(turn, member);
        // `content` and `refusal` are always there; the reasoning members
        // only when sent.
        if member == keys::CONTENT || member == keys::REFUSAL {
            m.str_or_null(key, value.as_deref());
        } else {
            m.opt_str(key, value.as_deref());
        }
    }
    let is_function_call =
        |item: &FinalItem| item.extra(Dialect::Chat, keys::FUNCTION_CALL).is_some();
    let mut calls = 0u64;
    let mut arr = String::from("[");
    for (_, item) in own_calls(turn) {
        let FinalItemKind::ToolCall { call_id, name } = &item.kind else {
            continue;
        };
        if calls > 0 {
            arr.push(',');
        }
        let mut c = ObjectWriter::new(&mut arr);
        c.str_or_null("id", call_id.as_deref());
        c.str_or_null(
            "type",
            kept_str(item.extra(Dialect::Chat, keys::CALL_TYPE)).as_deref(),
        );
        let mut f = ObjectWriter::new(c.key("function"));
        f.str_or_null("name", name.as_deref());
        f.str("arguments", &item.arguments);
        f.end();
        c.end();
        calls += 1;
    }
    if calls > 0 {
        arr.push(']');
        m.raw("tool_calls", &arr);
    }
    for item in turn.items() {
        let FinalItemKind::ToolCall { name, .. } = &item.kind else {
            continue;
        };
        if is_function_call(item) {
            let mut f = ObjectWriter::new(m.key("function_call"));
            f.str_or_null("name", name.as_deref());
            f.str("arguments", &item.arguments);
            f.end();
        }
    }
    m.end();
    j.push_str(",\"logprobs\":");
    if kept(keys::LOGPROBS).is_some() {
        let mut l = ObjectWriter::new(j);
        l.raw("content", kept(keys::LOGPROBS_CONTENT).unwrap_or("null"));
        l.raw("refusal", kept(keys::LOGPROBS_REFUSAL).unwrap_or("null"));
        l.end();
    } else {
        j.push_str("null");
    }
    // Read from Chat: the answer is what the upstream sent, `null` for a
    // choice that never said why it stopped (failed or cut before it).
    j.push_str(",\"finish_reason\":");
    match turn.stop_raw() {
        Some(reason) => push_json_str(j, reason),
        None => j.push_str("null"),
    }
    j.push('}');
}

#[cfg(test)]
mod tests {
    use crate::accumulate::{ChatAccumulator, TurnAccumulator};
    use crate::turn::{ChatReader, Dialect};
    use crate::Parser;
    use bytes::Bytes;

    /// A turn read from Chat whose choice never came: no choice is made
    /// up (as the Chat accumulator writes it).
    #[test]
    fn a_choice_never_sent_is_not_rendered() {
        let body = concat!(
            r#"data: {"id":"x","choices":[],"usage":{"prompt_tokens":1}}"#,
            "\n\n",
            "data: [DONE]\n\n",
        );
        let mut p = Parser::new();
        p.feed(Bytes::from_static(body.as_bytes()));
        let mut reader = ChatReader::default();
        let mut turn = TurnAccumulator::new().from_dialect(Dialect::Chat);
        let mut chat = ChatAccumulator::new();
        while let Ok(Some(frame)) = p.next_frame() {
            let _ = turn.read(&mut reader, &frame);
            chat.feed(&frame).unwrap();
        }
        let _ = turn.finish_reader(&mut reader);
        let want = r#"{"id":"x","object":"chat.completion","created":null,"model":null,"choices":[],"usage":{"prompt_tokens":1}}"#;
        assert_eq!(turn.into_turn().to_json(Dialect::Chat), want);
        assert_eq!(chat.finish().to_json(), want);
    }

    /// A turn read from Chat, rendered in Chat, against a completion
    /// written by hand (and the Chat accumulator's, written apart).
    #[test]
    fn a_turn_read_from_chat_renders_as_the_upstream_would() {
        let body = concat!(
            r#"data: {"id":"x","created":5,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":{"content":[],"refusal":null}}],"service_tier":"flex","system_fingerprint":"fp_\u0031","provider":"P"}"#,
            "\n\n",
            r#"data: {"id":"x","choices":[{"index":0,"delta":{"reasoning":"why"}}]}"#,
            "\n\n",
            r#"data: {"id":"x","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}"#,
            "\n\n",
            r#"data: {"id":"x","choices":[],"usage":{"prompt_tokens":1, "cost":0.5}}"#,
            "\n\n",
            "data: [DONE]\n\n",
        );
        let want = concat!(
            r#"{"id":"x","object":"chat.completion","created":5,"model":"m","choices":[{"index":0,"#,
            r#""message":{"role":"assistant","content":"","refusal":null,"reasoning":"why","#,
            r#""tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},"#,
            r#""logprobs":{"content":[],"refusal":null},"finish_reason":"tool_calls"}],"#,
            r#""usage":{"prompt_tokens":1, "cost":0.5},"service_tier":"flex","#,
            r#""system_fingerprint":"fp_1","provider":"P"}"#,
        );
        let mut p = Parser::new();
        p.feed(Bytes::from_static(body.as_bytes()));
        let mut reader = ChatReader::default();
        let mut turn = TurnAccumulator::new().from_dialect(Dialect::Chat);
        let mut chat = ChatAccumulator::new();
        while let Ok(Some(frame)) = p.next_frame() {
            turn.read(&mut reader, &frame).unwrap();
            chat.feed(&frame).unwrap();
        }
        turn.finish_reader(&mut reader).unwrap();
        let got = turn.into_turn().to_json(Dialect::Chat);
        assert_eq!(got, want);
        assert_eq!(chat.finish().to_json(), want);
    }
}
