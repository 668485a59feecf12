//! The Chat Completions reader.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::vec::Vec;

use super::{
    DeltaKind, ItemKind, Stop, StopReason, TurnConfig, TurnError, TurnErrorKind, TurnEvent,
    TurnReader, TurnStart, TurnUsage, TurnWriter, UpstreamError,
};
use crate::chat::{ChatChunk, ChatContent, ChatEvent, ChatUsage, ChoiceDelta, ContentPart, Delta};
use crate::frame::Frame;
use crate::json::JsonStr;

/// Reads a Chat Completions stream (`choices[0]`) into turn events.
///
/// | upstream | model |
/// | --- | --- |
/// | the first chunk's `id`, `model`, `created` | start |
/// | `delta.content` (text, or Mistral `text` parts) | a message item, text |
/// | `delta.reasoning_content`, `delta.reasoning`, Mistral `thinking` parts | a reasoning item, reasoning text |
/// | `delta.refusal` | a refusal item |
/// | `delta.tool_calls[i]` | one tool call item per `index` (the calls may interleave); arguments |
/// | `delta.function_call` (deprecated) | one tool call item |
/// | `usage` | usage (cached and reasoning tokens from the details, DeepSeek's `prompt_cache_hit_tokens`) |
/// | `finish_reason` | every open item ends; stop (`stop` → end of turn, `length` → max tokens, `tool_calls`/`function_call` → tool use, `content_filter`) |
/// | `data: [DONE]`, or the end of the body after a `finish_reason` | end |
/// | an error chunk | error |
///
/// A change between text, reasoning and refusal ends the one open and
/// opens the next; a tool call's start ends the open text. Choices other
/// than 0 are counted ([`TurnReader::skipped`]) and not read, unless
/// [`every_choice`](Self::every_choice) asks for their faults.
///
/// Faults: a tool call whose first fragment has no `id` and no `name`
/// (one of them missing is read past), more calls than
/// [`TurnConfig::max_items`], content after `finish_reason`, a chunk that
/// does not decode, `[DONE]` before any `finish_reason`, a body that ends
/// before a `finish_reason`; read past: a second `[DONE]`, a body that
/// ends without `[DONE]`.
#[derive(Debug)]
pub struct ChatReader {
    max_items: usize,
    events: u64,
    started: bool,
    /// The open text, reasoning or refusal item.
    prose: Option<(u64, DeltaKind)>,
    /// Model index of each tool call, by upstream index; `u64::MAX` as the
    /// key of the deprecated `function_call`.
    calls: BTreeMap<u64, u64>,
    /// The calls' model indexes, in the order they opened.
    order: Vec<u64>,
    items: u64,
    stopped: bool,
    ended: bool,
    skipped: u64,
    /// Reading every choice's lifecycle: at most this many choices.
    every: Option<usize>,
    /// Every choice's lifecycle: whether it said why it stopped, by the
    /// upstream's index (with `every` only).
    lives: BTreeMap<u64, bool>,
    /// The tool calls of every choice, by (choice, call) upstream indexes
    /// (with `every` only).
    call_keys: BTreeSet<(u64, u64)>,
    /// An error chunk came (with `every` only: it does not end the reading).
    failed: bool,
    chunks: u64,
}

impl Default for ChatReader {
    fn default() -> Self {
        Self::new(&TurnConfig::default())
    }
}

impl ChatReader {
    /// A reader with this config's limits.
    pub fn new(config: &TurnConfig) -> Self {
        Self {
            max_items: config.max_items,
            events: 0,
            started: false,
            prose: None,
            calls: BTreeMap::new(),
            order: Vec::new(),
            items: 0,
            stopped: false,
            ended: false,
            skipped: 0,
            every: None,
            lives: BTreeMap::new(),
            call_keys: BTreeSet::new(),
            failed: false,
            chunks: 0,
        }
    }

    /// Reads the lifecycle of every choice, not only choice 0's, for a
    /// writer that hears faults ([`TurnWriter::fault`]): content after a
    /// choice's `finish_reason`, a tool call without its `id` or name, a
    /// choice never stopped are reported with the choice's index. The
    /// reader also reads on after an error chunk and after `[DONE]` (what
    /// follows is a fault), and at the end reports each choice without a
    /// `finish_reason` rather than one cut stream. At most `max_choices`
    /// choices are tracked, and [`TurnConfig::max_items`] tool calls over
    /// all of them; past either, a fault says so once per call or choice
    /// and the rest is not checked. Events are written for choice 0 only.
    #[must_use]
    pub fn every_choice(mut self, max_choices: usize) -> Self {
        self.every = Some(max_choices);
        self
    }

    fn error(&self, kind: TurnErrorKind) -> TurnError {
        TurnError::new(kind, self.events.saturating_sub(1))
    }

    /// Reads one decoded event.
    ///
    /// # Errors
    ///
    /// As [`TurnReader::read`].
    pub fn read_event<W: TurnWriter + ?Sized>(
        &mut self,
        event: &ChatEvent<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        self.event(event, out).map_err(|e| e.at(at))
    }

    fn event<W: TurnWriter + ?Sized>(
        &mut self,
        event: &ChatEvent<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if self.ended {
            return match event {
                ChatEvent::Done => out.fault(self.error(TurnErrorKind::SecondEnd)),
                _ => Err(self.error(TurnErrorKind::ContentAfterFinish)),
            };
        }
        match event {
            ChatEvent::Chunk(chunk) => self.chunk(chunk, out),
            ChatEvent::Error(e) => {
                if self.every.is_some() {
                    self.failed = true;
                } else {
                    self.ended = true;
                }
                // OpenRouter sends the usage in the error chunk.
                let usage_json = crate::json::ObjectView::parse(e.raw().get())
                    .ok()
                    .and_then(|o| o.get("usage"))
                    .and_then(|u| u.as_object());
                if let Some(u) = usage_json {
                    if let Ok(owned) =
                        crate::chat::Owned::<ChatUsage<'static>>::parse(u.as_raw_json().get())
                    {
                        out.write(&TurnEvent::Usage(usage(&owned.get())))?;
                    }
                }
                let code = e.error.code.and_then(|c| match c.value() {
                    crate::json::Value::String(s) => Some(s),
                    _ => None,
                });
                out.write(&TurnEvent::Error(UpstreamError {
                    code: code.or(e.error.ty),
                    message: e.error.message,
                }))
            }
            ChatEvent::Done => {
                if !self.stopped && self.every.is_none() {
                    return Err(self.error(TurnErrorKind::Truncated));
                }
                self.ended = true;
                out.write(&TurnEvent::End)
            }
            ChatEvent::Unknown { error, .. } => Err(self.error(TurnErrorKind::Decode(*error))),
        }
    }

    fn chunk<W: TurnWriter + ?Sized>(
        &mut self,
        chunk: &ChatChunk<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if !self.started {
            self.started = true;
            out.write(&TurnEvent::Start(TurnStart {
                id: chunk.id,
                model: chunk.model,
                created: chunk.created,
            }))?;
        }
        self.chunks += 1;
        if let Some(choice) = chunk.choices.head() {
            self.choice(choice, out)?;
        }
        for choice in chunk.choices.rest() {
            match choice {
                Ok(choice) => self.choice(&choice, out)?,
                Err(e) => out.fault(self.error(TurnErrorKind::Decode(e)))?,
            }
        }
        if let Some(u) = &chunk.usage {
            out.write(&TurnEvent::Usage(usage(u)))?;
        }
        Ok(())
    }

    fn choice<W: TurnWriter + ?Sized>(
        &mut self,
        choice: &ChoiceDelta<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if let Some(max) = self.every {
            self.life(choice, max, out)?;
        }
        if choice.index != 0 {
            self.skipped += 1;
            return Ok(());
        }
        if let Some(delta) = &choice.delta {
            if self.stopped {
                // With `every`, the lifecycle said so.
                if has_content(delta) && self.every.is_none() {
                    return Err(self.error(TurnErrorKind::ContentAfterStop { choice: 0 }));
                }
            } else {
                self.delta(delta, out)?;
            }
        }
        if let Some(raw) = choice.finish_reason {
            if !self.stopped {
                self.stopped = true;
                self.end_items(out)?;
            }
            let reason = match raw.as_str() {
                Some("length") => StopReason::MaxTokens,
                Some("content_filter") => StopReason::ContentFilter,
                Some("tool_calls" | "function_call") => StopReason::ToolUse,
                _ => StopReason::EndTurn,
            };
            out.write(&TurnEvent::Stop(Stop {
                reason,
                raw: Some(raw),
            }))?;
        }
        Ok(())
    }

    /// The lifecycle of any choice, with `every`: its faults, none of its
    /// events.
    fn life<W: TurnWriter + ?Sized>(
        &mut self,
        choice: &ChoiceDelta<'_>,
        max_choices: usize,
        out: &mut W,
    ) -> Result<(), TurnError> {
        let index = choice.index;
        let stopped = match self.lives.get(&index) {
            Some(&stopped) => stopped,
            None if self.lives.len() >= max_choices => {
                let limit = max_choices;
                return out.fault(self.error(TurnErrorKind::TooManyChoices { limit }));
            }
            None => {
                self.lives.insert(index, false);
                false
            }
        };
        if let Some(delta) = &choice.delta {
            if stopped && has_content(delta) {
                out.fault(self.error(TurnErrorKind::ContentAfterStop { choice: index }))?;
            }
            for call in delta.tool_calls.into_iter().flatten() {
                let call = match call {
                    Ok(call) => call,
                    Err(e) => {
                        out.fault(self.error(TurnErrorKind::Decode(e)))?;
                        continue;
                    }
                };
                if self.call_keys.contains(&(index, call.index)) {
                    continue;
                }
                let limit = self.max_items;
                if self.call_keys.len() >= limit {
                    // Its later calls are not checked; its stop still is.
                    out.fault(self.error(TurnErrorKind::TooManyItems { limit }))?;
                    break;
                }
                self.call_keys.insert((index, call.index));
                let no_id = call.id.is_none();
                let no_name = call.function.as_ref().and_then(|f| f.name).is_none();
                if no_id || no_name {
                    out.fault(self.error(TurnErrorKind::CallWithoutId {
                        choice: index,
                        call: call.index,
                        no_id,
                        no_name,
                    }))?;
                }
            }
        }
        if choice.finish_reason.is_some() {
            self.lives.insert(index, true);
        }
        Ok(())
    }

    fn end_items<W: TurnWriter + ?Sized>(&mut self, out: &mut W) -> Result<(), TurnError> {
        if let Some((index, _)) = self.prose.take() {
            out.write(&TurnEvent::ItemEnd { index, whole: None })?;
        }
        // In the order the calls opened.
        for i in 0..self.order.len() {
            let index = self.order[i];
            out.write(&TurnEvent::ItemEnd { index, whole: None })?;
        }
        Ok(())
    }

    /// A fragment of the text, reasoning or refusal item.
    fn prose<W: TurnWriter + ?Sized>(
        &mut self,
        kind: DeltaKind,
        text: JsonStr<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if text.is_empty() {
            return Ok(());
        }
        let index = match self.prose {
            Some((index, k)) if k == kind => index,
            open => {
                if let Some((index, _)) = open {
                    out.write(&TurnEvent::ItemEnd { index, whole: None })?;
                }
                let index = self.items;
                self.items += 1;
                self.prose = Some((index, kind));
                let item = match kind {
                    DeltaKind::Reasoning => ItemKind::Reasoning,
                    DeltaKind::Refusal => ItemKind::Refusal,
                    _ => ItemKind::Message,
                };
                out.write(&TurnEvent::ItemStart { index, item })?;
                index
            }
        };
        out.write(&TurnEvent::Delta {
            index,
            kind,
            part: 0,
            text,
        })
    }

    fn call<W: TurnWriter + ?Sized>(
        &mut self,
        key: u64,
        call_id: Option<JsonStr<'_>>,
        name: Option<JsonStr<'_>>,
        args: Option<JsonStr<'_>>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        let index = match self.calls.get(&key) {
            Some(&index) => index,
            None => {
                let shown = if key == u64::MAX { 0 } else { key };
                // With `every`, the lifecycle reported these faults: the
                // call is read (nothing is written past the limit).
                let every = self.every.is_some();
                if call_id.is_none() && name.is_none() && !every {
                    return Err(self.error(TurnErrorKind::CallWithoutId {
                        choice: 0,
                        call: shown,
                        no_id: true,
                        no_name: true,
                    }));
                }
                let limit = self.max_items;
                if self.calls.len() >= limit {
                    if every {
                        return Ok(());
                    }
                    return Err(self.error(TurnErrorKind::TooManyItems { limit }));
                }
                if let Some((index, _)) = self.prose.take() {
                    out.write(&TurnEvent::ItemEnd { index, whole: None })?;
                }
                let index = self.items;
                self.items += 1;
                self.calls.insert(key, index);
                self.order.push(index);
                out.write(&TurnEvent::ItemStart {
                    index,
                    item: ItemKind::ToolCall { call_id, name },
                })?;
                index
            }
        };
        match args {
            Some(text) if !text.is_empty() => out.write(&TurnEvent::Delta {
                index,
                kind: DeltaKind::Arguments,
                part: 0,
                text,
            }),
            _ => Ok(()),
        }
    }

    fn delta<W: TurnWriter + ?Sized>(
        &mut self,
        d: &Delta<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        for reasoning in [d.reasoning_content, d.reasoning].into_iter().flatten() {
            self.prose(DeltaKind::Reasoning, reasoning, out)?;
        }
        match d.content {
            Some(ChatContent::Text(text)) => self.prose(DeltaKind::Text, text, out)?,
            Some(ChatContent::Parts(parts)) => {
                for part in parts {
                    match part.map_err(|e| self.error(TurnErrorKind::Decode(e)))? {
                        ContentPart::Text(t) => {
                            if let Some(text) = t.text {
                                self.prose(DeltaKind::Text, text, out)?;
                            }
                        }
                        ContentPart::Thinking(t) => {
                            for inner in t.thinking.into_iter().flatten() {
                                let inner =
                                    inner.map_err(|e| self.error(TurnErrorKind::Decode(e)))?;
                                if let ContentPart::Text(text) = inner {
                                    if let Some(text) = text.text {
                                        self.prose(DeltaKind::Reasoning, text, out)?;
                                    }
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        if let Some(refusal) = d.refusal {
            self.prose(DeltaKind::Refusal, refusal, out)?;
        }
        for call in d.tool_calls.into_iter().flatten() {
            let call = call.map_err(|e| self.error(TurnErrorKind::Decode(e)))?;
            let f = call.function.as_ref();
            self.call(
                call.index,
                call.id,
                f.and_then(|f| f.name),
                f.and_then(|f| f.arguments),
                out,
            )?;
        }
        if let Some(f) = &d.function_call {
            self.call(u64::MAX, None, f.name, f.arguments, out)?;
        }
        Ok(())
    }
}

impl TurnReader for ChatReader {
    fn read<W: TurnWriter + ?Sized>(
        &mut self,
        frame: &Frame,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        let event = match ChatEvent::from_frame(frame) {
            Ok(event) => event,
            // With `every`, after `[DONE]` anything is content after the end.
            Err(_) if self.ended && self.every.is_some() => {
                return Err(TurnError::new(TurnErrorKind::ContentAfterFinish, at))
            }
            Err(e) => return Err(TurnError::new(TurnErrorKind::Decode(e), at)),
        };
        self.event(&event, out).map_err(|e| e.at(at))
    }

    fn finish<W: TurnWriter + ?Sized>(&mut self, out: &mut W) -> Result<(), TurnError> {
        let at = self.events;
        if self.every.is_some() {
            if !self.failed {
                let open: Vec<u64> = self
                    .lives
                    .iter()
                    .filter(|(_, &stopped)| !stopped)
                    .map(|(&i, _)| i)
                    .collect();
                for choice in open {
                    out.fault(TurnError::new(
                        TurnErrorKind::ChoiceNotStopped { choice },
                        at,
                    ))?;
                }
                if self.chunks > 0 && self.lives.is_empty() {
                    out.fault(TurnError::new(TurnErrorKind::NoChoices, at))?;
                }
            }
            if !self.ended {
                self.ended = true;
                out.fault(TurnError::new(TurnErrorKind::MissingEnd, at))?;
                return out.write(&TurnEvent::End);
            }
            return Ok(());
        }
        if self.ended {
            return Ok(());
        }
        if !self.stopped {
            return Err(TurnError::new(TurnErrorKind::Truncated, at));
        }
        out.fault(TurnError::new(TurnErrorKind::MissingEnd, at))?;
        // Many providers never send `[DONE]`: a stream that said why it
        // stopped is complete.
        self.ended = true;
        out.write(&TurnEvent::End)
    }

    fn events(&self) -> u64 {
        self.events
    }

    fn skipped(&self) -> u64 {
        self.skipped
    }
}

/// Whether a delta carries content (a non-empty fragment or a tool call).
fn has_content(d: &Delta<'_>) -> bool {
    let text = |s: Option<JsonStr<'_>>| s.is_some_and(|s| !s.is_empty());
    let content = match d.content {
        Some(ChatContent::Text(t)) => !t.is_empty(),
        Some(ChatContent::Parts(p)) => !p.is_empty(),
        _ => false,
    };
    content
        || text(d.refusal)
        || text(d.reasoning_content)
        || text(d.reasoning)
        || d.tool_calls.is_some_and(|c| !c.is_empty())
        || d.function_call.is_some()
}

/// A Chat usage in the model: prompt → input, completion → output, cached
/// and reasoning tokens from the details (cached from DeepSeek's
/// `prompt_cache_hit_tokens` when there are no details).
pub(crate) fn usage(u: &ChatUsage<'_>) -> TurnUsage {
    TurnUsage {
        input: u.prompt_tokens,
        output: u.completion_tokens,
        cached: u
            .prompt_tokens_details
            .as_ref()
            .and_then(|d| d.cached_tokens)
            .or(u.prompt_cache_hit_tokens),
        reasoning: u
            .completion_tokens_details
            .as_ref()
            .and_then(|d| d.reasoning_tokens),
    }
}
