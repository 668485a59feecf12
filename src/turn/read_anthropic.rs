//! The Anthropic Messages reader.

use alloc::collections::BTreeMap;
use alloc::string::String;

use super::{
    as_json_str, Combine, DeltaKind, Dialect, Extra, ItemKind, Stop, StopReason, TurnConfig,
    TurnError, TurnErrorKind, TurnEvent, TurnReader, TurnStart, TurnUsage, TurnWriter,
    UpstreamError,
};
use crate::anthropic::{AnthropicEvent, BlockDelta, ContentBlock, Usage};
use crate::frame::Frame;
use crate::json::{JsonStr, ObjectView, RawJson};

/// A block, by its upstream index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Block {
    /// The model item.
    item: u64,
    /// Whether it stopped.
    stopped: bool,
    /// A `tool_use` block whose input came in its start and has had no
    /// `input_json_delta` yet.
    input_pending: bool,
    /// The deltas it takes.
    takes: Takes,
}

/// The deltas a content block takes, by its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// `text_delta`, `citations_delta` (a text block).
    Text,
    /// `thinking_delta`, `signature_delta` (a thinking block).
    Thinking,
    /// `input_json_delta` (a tool use, client or server).
    InputJson,
    /// `compaction_delta`.
    Compaction,
    /// None (tool results, redacted thinking).
    Nothing,
    /// Any (a block type this version does not know).
    Any,
}

impl Takes {
    fn of(block: &ContentBlock<'_>) -> Self {
        match block {
            ContentBlock::Text(_) => Self::Text,
            ContentBlock::Thinking(_) => Self::Thinking,
            ContentBlock::ToolUse(_) | ContentBlock::ServerToolUse(_) => Self::InputJson,
            ContentBlock::Compaction(_) => Self::Compaction,
            ContentBlock::RedactedThinking(_)
            | ContentBlock::WebSearchToolResult(_)
            | ContentBlock::WebFetchToolResult(_)
            | ContentBlock::CodeExecutionToolResult(_)
            | ContentBlock::BashCodeExecutionToolResult(_)
            | ContentBlock::TextEditorCodeExecutionToolResult(_)
            | ContentBlock::ToolSearchToolResult(_)
            | ContentBlock::ContainerUpload(_) => Self::Nothing,
            _ => Self::Any,
        }
    }

    /// Whether a block of this kind takes `delta` (a delta type this
    /// version does not know goes anywhere).
    fn takes(self, delta: &BlockDelta<'_>) -> bool {
        let want = match delta {
            BlockDelta::Text(_) | BlockDelta::Citations(_) => Self::Text,
            BlockDelta::Thinking(_) | BlockDelta::Signature(_) => Self::Thinking,
            BlockDelta::InputJson(_) => Self::InputJson,
            BlockDelta::Compaction(_) => Self::Compaction,
            _ => return true,
        };
        self == want || self == Self::Any
    }
}

/// Reads an Anthropic Messages stream into turn events.
///
/// | upstream | model |
/// | --- | --- |
/// | `message_start` | start; usage (input) |
/// | a `text` block, `text_delta` | a message item, text |
/// | a `thinking` block, `thinking_delta`, `signature_delta` | a reasoning item, reasoning text, signature |
/// | a `redacted_thinking` block | a reasoning item with its `data` as encrypted content |
/// | a `tool_use` block, `input_json_delta` | a tool call item, arguments (an input given whole in the start, as arguments when the block stops) |
/// | server tool blocks and their results, `compaction`, unknown blocks | an item of the other kind |
/// | `content_block_stop` | item end |
/// | `message_delta` | stop (`end_turn`, `tool_use`, `max_tokens`, …); usage: the counts are cumulative, so each replaces the last |
/// | `message_stop` | end |
/// | `ping` | keep-alive |
/// | `error` | error |
///
/// What the model has no word for is handed on as [`Extra`] members, for a
/// final answer written back in Anthropic's shape: of the turn, the
/// `message` of `message_start` as it came (its members' order, and those
/// this version does not know), the `usage` objects merged member by
/// member ([`Combine::Merge`](super::Combine::Merge): each count sent
/// replaces the last), and the `stop_sequence`, `stop_details`, `container`
/// and `context_management` of `message_delta`; of an item, a text block's
/// start when it has `citations` (as `content_block`, for its members'
/// order) and the `citations`, the start's list then each `citations_delta`'s
/// one pushed, and a compaction block's `content` and `encrypted_content`,
/// its start's and its deltas' pieces joined. Each only when the event
/// carries it.
///
/// Usage: input is `input_tokens` plus cache reads and writes (cached
/// input counts as input), cached is `cache_read_input_tokens`.
///
/// Faults: a second `message_start`, a delta or stop of a block never
/// started, a delta of a block stopped, a second stop, a block index
/// started twice, more blocks than [`TurnConfig::max_items`], content
/// after `message_stop`, an event that does not decode, a stream without
/// `message_stop`. Read past: a first event other than `message_start`, a
/// block index that skips, a delta of a type its block does not take,
/// `message_stop` without a `stop_reason` or with blocks open, an event
/// type this version does not know.
#[derive(Debug, Clone)]
pub struct AnthropicReader {
    max_items: usize,
    events: u64,
    started: bool,
    blocks: BTreeMap<u64, Block>,
    items: u64,
    usage: TurnUsage,
    /// A `tool_use` start's input, for a block with no deltas.
    input: String,
    scratch: String,
    ended: bool,
    /// Reads on after an `error` event and after `message_stop` (see
    /// [`thorough`](AnthropicReader::thorough)).
    thorough: bool,
    /// An `error` event came (with `thorough`: it does not end the reading).
    failed: bool,
    /// An event other than a keep-alive or an error came.
    first_seen: bool,
    /// A `message_delta` gave the `stop_reason`.
    stop_reason: bool,
    /// One past the highest block index started: with `thorough`, an
    /// index below it that no block has was skipped, and counts as started
    /// and stopped.
    next: u64,
}

impl Default for AnthropicReader {
    fn default() -> Self {
        Self::new(&TurnConfig::default())
    }
}

impl AnthropicReader {
    /// A reader with this config's limits.
    pub fn new(config: &TurnConfig) -> Self {
        Self {
            max_items: config.max_items,
            events: 0,
            started: false,
            blocks: BTreeMap::new(),
            items: 0,
            usage: TurnUsage::default(),
            input: String::new(),
            scratch: String::new(),
            ended: false,
            thorough: false,
            failed: false,
            first_seen: false,
            stop_reason: false,
            next: 0,
        }
    }

    /// Reads on past faults for a writer that hears them
    /// ([`TurnWriter::fault`]): after an `error` event (which then does not
    /// end the stream) and after `message_stop` (where every event, a
    /// `ping` too, is a fault); a block index skipped counts as a block
    /// started and stopped.
    #[must_use]
    pub fn thorough(mut self) -> Self {
        self.thorough = true;
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
        event: &AnthropicEvent<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        self.event(event, None, out).map_err(|e| e.at(at))
    }

    fn usage(&mut self, u: &Usage<'_>) -> TurnUsage {
        let cache_read = u.cache_read_input_tokens;
        if u.input_tokens.is_some() || cache_read.is_some() {
            self.usage.input = Some(
                u.input_tokens
                    .unwrap_or(0)
                    .saturating_add(cache_read.unwrap_or(0))
                    .saturating_add(u.cache_creation_input_tokens.unwrap_or(0)),
            );
            self.usage.cached = Some(cache_read.unwrap_or(0));
        }
        if let Some(n) = u.output_tokens {
            // Cumulative: the running total, never added up.
            self.usage.output = Some(n);
        }
        self.usage
    }

    /// Reads `event`; `data` is its frame's data, where the caller has it
    /// (for the JSON of blocks only Anthropic has).
    fn event<'e, W: TurnWriter + ?Sized>(
        &mut self,
        event: &AnthropicEvent<'e>,
        data: Option<&'e str>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if self.ended {
            return match event {
                AnthropicEvent::Ping(_) if !self.thorough => Ok(()),
                AnthropicEvent::MessageStop(_) => out.fault(self.error(TurnErrorKind::SecondEnd)),
                _ => Err(self.error(TurnErrorKind::ContentAfterFinish)),
            };
        }
        if !self.first_seen && !matches!(event, AnthropicEvent::Ping(_) | AnthropicEvent::Error(_))
        {
            self.first_seen = true;
            if !matches!(event, AnthropicEvent::MessageStart(_)) {
                out.fault(self.error(TurnErrorKind::StartNotFirst))?;
            }
        }
        match event {
            AnthropicEvent::MessageStart(start) => {
                if self.started {
                    return out.fault(self.error(TurnErrorKind::DuplicateStart));
                }
                self.started = true;
                let m = &start.message;
                out.write(&TurnEvent::Start(TurnStart {
                    id: m.id,
                    model: m.model,
                    created: None,
                }))?;
                extra(out, None, "message", m.raw(), Combine::Replace)?;
                if let Some(u) = &m.usage {
                    let usage = self.usage(u);
                    out.write(&TurnEvent::Usage(usage))?;
                    extra(out, None, "usage", u.raw(), Combine::Merge)?;
                }
                Ok(())
            }
            AnthropicEvent::ContentBlockStart(start) => {
                self.block_start(start.index, &start.content_block, data, out)
            }
            AnthropicEvent::ContentBlockDelta(d) => self.block_delta(d.index, &d.delta, out),
            AnthropicEvent::ContentBlockStop(stop) => self.block_stop(stop.index, out),
            AnthropicEvent::MessageDelta(d) => {
                if let Some(raw) = d.delta.stop_reason {
                    self.stop_reason = true;
                    let reason = match raw.as_str() {
                        Some("max_tokens") => StopReason::MaxTokens,
                        Some("model_context_window_exceeded") => StopReason::ContextWindow,
                        Some("refusal") => StopReason::Refusal,
                        Some("tool_use") => StopReason::ToolUse,
                        Some("stop_sequence") => StopReason::StopSequence,
                        Some("pause_turn") => StopReason::PauseTurn,
                        _ => StopReason::EndTurn,
                    };
                    out.write(&TurnEvent::Stop(Stop {
                        reason,
                        raw: Some(raw),
                    }))?;
                }
                let body = &d.delta;
                if let Some(seq) = body.stop_sequence {
                    extra(
                        out,
                        None,
                        "stop_sequence",
                        seq.as_raw_json(),
                        Combine::Replace,
                    )?;
                }
                if let Some(details) = body.stop_details {
                    extra(out, None, "stop_details", details, Combine::Replace)?;
                }
                if let Some(container) = &body.container {
                    extra(out, None, "container", container.raw(), Combine::Replace)?;
                }
                if let Some(cm) = d.context_management {
                    extra(out, None, "context_management", cm, Combine::Replace)?;
                }
                if let Some(u) = &d.usage {
                    let usage = self.usage(u);
                    out.write(&TurnEvent::Usage(usage))?;
                    extra(out, None, "usage", u.raw(), Combine::Merge)?;
                }
                Ok(())
            }
            AnthropicEvent::MessageStop(_) => {
                if !self.stop_reason {
                    out.fault(self.error(TurnErrorKind::NoStopReason))?;
                }
                // Blocks left open end with the message.
                let open: alloc::vec::Vec<(u64, u64)> = self
                    .blocks
                    .iter()
                    .filter(|(_, b)| !b.stopped)
                    .map(|(&i, b)| (i, b.item))
                    .collect();
                for &(index, _) in &open {
                    out.fault(self.error(TurnErrorKind::ItemNotClosed { index }))?;
                }
                for (_, index) in open {
                    out.write(&TurnEvent::ItemEnd { index, whole: None })?;
                }
                self.ended = true;
                out.write(&TurnEvent::End)
            }
            AnthropicEvent::Ping(_) => out.write(&TurnEvent::KeepAlive),
            AnthropicEvent::Error(e) => {
                if self.thorough {
                    self.failed = true;
                } else {
                    self.ended = true;
                }
                out.write(&TurnEvent::Error(UpstreamError {
                    code: e.error.ty,
                    message: e.error.message,
                }))
            }
            // A known type whose members do not fit is not passed over.
            AnthropicEvent::Unknown { error: Some(e), .. } => {
                Err(self.error(TurnErrorKind::Decode(*e)))
            }
            AnthropicEvent::Unknown { .. } => out.fault(self.error(TurnErrorKind::UnknownEvent)),
        }
    }

    fn block_start<'e, W: TurnWriter + ?Sized>(
        &mut self,
        index: u64,
        block: &ContentBlock<'e>,
        data: Option<&'e str>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if self.blocks.contains_key(&index) || (self.thorough && index < self.next) {
            return out.fault(self.error(TurnErrorKind::DuplicateIndex { index }));
        }
        let next = self.next;
        if index > next {
            out.fault(self.error(TurnErrorKind::IndexSkipped { index, next }))?;
        }
        let limit = self.max_items;
        if self.blocks.len() >= limit {
            return out.fault(self.error(TurnErrorKind::TooManyItems { limit }));
        }
        self.next = index.saturating_add(1).max(next);
        let item = self.items;
        self.items += 1;
        let mut input_pending = false;
        let delta = |kind, text| TurnEvent::Delta {
            index: item,
            kind,
            part: 0,
            text,
        };
        match block {
            ContentBlock::Text(t) => {
                out.write(&TurnEvent::ItemStart {
                    index: item,
                    item: ItemKind::Message,
                })?;
                if let Some(text) = t.text.filter(|t| !t.is_empty()) {
                    out.write(&delta(DeltaKind::Text, text))?;
                }
                if let Some(citations) = t.citations {
                    extra(out, Some(item), "content_block", t.raw(), Combine::Replace)?;
                    let list = citations.as_raw_json();
                    extra(out, Some(item), "citations", list, Combine::Replace)?;
                }
            }
            ContentBlock::Thinking(t) => {
                out.write(&TurnEvent::ItemStart {
                    index: item,
                    item: ItemKind::Reasoning,
                })?;
                if let Some(text) = t.thinking.filter(|t| !t.is_empty()) {
                    out.write(&delta(DeltaKind::Reasoning, text))?;
                }
                if let Some(sig) = t.signature.filter(|t| !t.is_empty()) {
                    out.write(&delta(DeltaKind::Signature, sig))?;
                }
            }
            ContentBlock::RedactedThinking(t) => {
                out.write(&TurnEvent::ItemStart {
                    index: item,
                    item: ItemKind::Reasoning,
                })?;
                if let Some(data) = t.data.filter(|t| !t.is_empty()) {
                    out.write(&delta(DeltaKind::Encrypted, data))?;
                }
            }
            ContentBlock::ToolUse(t) => {
                out.write(&TurnEvent::ItemStart {
                    index: item,
                    item: ItemKind::ToolCall {
                        call_id: t.id,
                        name: t.name,
                    },
                })?;
                self.input.clear();
                if let Some(input) = t.input {
                    let text = input.get().trim();
                    if !text.is_empty() && text != "{}" {
                        self.input.push_str(text);
                        input_pending = true;
                    }
                }
            }
            other => {
                // Parsed again for its span: only blocks the model has no
                // kind for (server tools and their results) pay for it.
                let raw = data
                    .and_then(|d| ObjectView::parse(d).ok())
                    .and_then(|o| o.get("content_block"))
                    .map(|v| v.as_raw_json());
                out.write(&TurnEvent::ItemStart {
                    index: item,
                    item: ItemKind::Other {
                        dialect: Dialect::Anthropic,
                        ty: other.ty(),
                        raw,
                    },
                })?;
                if let ContentBlock::Compaction(c) = other {
                    compaction(out, item, c.content, c.encrypted_content)?;
                }
            }
        }
        self.blocks.insert(
            index,
            Block {
                item,
                stopped: false,
                input_pending,
                takes: Takes::of(block),
            },
        );
        Ok(())
    }

    /// The open block at `index`; `Ok(None)` when the writer read past its
    /// fault (a block never started or stopped). `stop`: for its stop (a
    /// second one is [`DuplicateEnd`](TurnErrorKind::DuplicateEnd)).
    fn block<W: TurnWriter + ?Sized>(
        &self,
        index: u64,
        stop: bool,
        out: &mut W,
    ) -> Result<Option<Block>, TurnError> {
        let kind = match self.blocks.get(&index) {
            Some(&b) if !b.stopped => return Ok(Some(b)),
            // Skipped over: taken as started and stopped.
            None if !(self.thorough && index < self.next) => TurnErrorKind::UnknownIndex { index },
            _ if stop => TurnErrorKind::DuplicateEnd { index },
            _ => TurnErrorKind::IndexClosed { index },
        };
        out.fault(self.error(kind)).map(|()| None)
    }

    fn block_delta<W: TurnWriter + ?Sized>(
        &mut self,
        index: u64,
        delta: &BlockDelta<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        let Some(block) = self.block(index, false, out)? else {
            return Ok(());
        };
        if !block.takes.takes(delta) {
            out.fault(self.error(TurnErrorKind::DeltaMismatch { index }))?;
        }
        let (kind, text) = match delta {
            BlockDelta::Text(t) => (DeltaKind::Text, t.text),
            BlockDelta::Thinking(t) => (DeltaKind::Reasoning, t.thinking),
            BlockDelta::Signature(s) => (DeltaKind::Signature, s.signature),
            BlockDelta::InputJson(j) => {
                if let Some(b) = self.blocks.get_mut(&index) {
                    b.input_pending = false;
                }
                (DeltaKind::Arguments, j.partial_json)
            }
            BlockDelta::Citations(c) => {
                let raw = c.citation.raw();
                return extra(out, Some(block.item), "citations", raw, Combine::Push);
            }
            BlockDelta::Compaction(c) => {
                return compaction(out, block.item, c.content, c.encrypted_content);
            }
            _ => return Ok(()),
        };
        if text.is_empty() {
            return Ok(());
        }
        out.write(&TurnEvent::Delta {
            index: block.item,
            kind,
            part: 0,
            text,
        })
    }

    fn block_stop<W: TurnWriter + ?Sized>(
        &mut self,
        index: u64,
        out: &mut W,
    ) -> Result<(), TurnError> {
        let Some(block) = self.block(index, true, out)? else {
            return Ok(());
        };
        if block.input_pending {
            let input = core::mem::take(&mut self.input);
            let text = as_json_str(&input, &mut self.scratch);
            let r = out.write(&TurnEvent::Delta {
                index: block.item,
                kind: DeltaKind::Arguments,
                part: 0,
                text,
            });
            self.input = input;
            r?;
        }
        if let Some(b) = self.blocks.get_mut(&index) {
            b.stopped = true;
        }
        out.write(&TurnEvent::ItemEnd {
            index: block.item,
            whole: None,
        })
    }
}

/// Hands on `raw` as the member `key` of the turn (`item: None`) or of an
/// item, combined with what came before as `how` says.
fn extra<W: TurnWriter + ?Sized>(
    out: &mut W,
    item: Option<u64>,
    key: &'static str,
    raw: RawJson<'_>,
    how: Combine,
) -> Result<(), TurnError> {
    if !out.wants_extras() {
        return Ok(());
    }
    let mut extra = Extra::new(Dialect::Anthropic, item, key, raw);
    extra.combine = how;
    out.write(&TurnEvent::Extra(extra))
}

/// A compaction block's pieces of text, joined to those before.
fn compaction<W: TurnWriter + ?Sized>(
    out: &mut W,
    item: u64,
    content: Option<JsonStr<'_>>,
    encrypted: Option<JsonStr<'_>>,
) -> Result<(), TurnError> {
    for (key, piece) in [("content", content), ("encrypted_content", encrypted)] {
        if let Some(piece) = piece {
            extra(out, Some(item), key, piece.as_raw_json(), Combine::Concat)?;
        }
    }
    Ok(())
}

impl TurnReader for AnthropicReader {
    fn read<W: TurnWriter + ?Sized>(
        &mut self,
        frame: &Frame,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        let event = AnthropicEvent::from_frame(frame)
            .map_err(|e| TurnError::new(TurnErrorKind::Decode(e), at))?;
        self.event(&event, Some(frame.data()), out)
            .map_err(|e| e.at(at))
    }

    fn finish<W: TurnWriter + ?Sized>(&mut self, _out: &mut W) -> Result<(), TurnError> {
        if self.ended {
            return Ok(());
        }
        Err(TurnError::new(TurnErrorKind::Truncated, self.events))
    }

    fn events(&self) -> u64 {
        self.events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accumulate::TurnAccumulator;
    use alloc::vec::Vec;

    use crate::turn::testing::{frames, KeepExtras, Kept};

    const START: &str = r#"{"type":"message_start","message":{"model":"c","id":"m1","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1,"service_tier":"standard"}}}"#;
    const STREAM: &[&str] = &[
        START,
        r#"{"type":"content_block_start","index":0,"content_block":{"citations":[],"type":"text","text":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"a","document_index":0}}}"#,
        r#"{"type":"ping"}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"b","document_index":1}}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"content_block_start","index":1,"content_block":{"type":"compaction","content":null}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"compaction_delta","content":"Sum\u00e9"}}"#,
        r#"{"type":"content_block_delta","index":1,"delta":{"type":"compaction_delta","content":"mary\n"}}"#,
        r#"{"type":"content_block_stop","index":1}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"stop_sequence","stop_sequence":"\u0045ND","stop_details":{"type":"x"},"container":{"id":"k","expires_at":"t"}},"usage":{"output_tokens":9,"input_tokens":null,"server_tool_use":{"web_search_requests":1}},"context_management":{"applied_edits":[]}}"#,
        r#"{"type":"message_stop"}"#,
    ];

    #[test]
    fn extras_where_the_events_carry_them() {
        let mut reader = AnthropicReader::default();
        let mut out = KeepExtras::new(Dialect::Anthropic);
        let mut by_event: Vec<Vec<Kept>> = Vec::new();
        for f in frames(STREAM) {
            reader.read(&f, &mut out).unwrap();
            by_event.push(out.take_extras());
        }
        let (r, m, p, c) = (
            Combine::Replace,
            Combine::Merge,
            Combine::Push,
            Combine::Concat,
        );
        let e = |item, key: &str, raw: &str, how| (item, String::from(key), String::from(raw), how);
        let at = START.find(r#""message":"#).unwrap() + 10;
        let message = &START[at..START.len() - 1];
        assert!(message.starts_with(r#"{"model":"c""#) && message.ends_with("}}"));
        let want: [&[_]; 13] = [
            &[
                e(None, "message", message, r),
                e(
                    None,
                    "usage",
                    r#"{"input_tokens":5,"output_tokens":1,"service_tier":"standard"}"#,
                    m,
                ),
            ],
            &[
                e(
                    Some(0),
                    "content_block",
                    r#"{"citations":[],"type":"text","text":""}"#,
                    r,
                ),
                e(Some(0), "citations", "[]", r),
            ],
            &[],
            &[e(
                Some(0),
                "citations",
                r#"{"type":"char_location","cited_text":"a","document_index":0}"#,
                p,
            )],
            &[],
            &[e(
                Some(0),
                "citations",
                r#"{"type":"char_location","cited_text":"b","document_index":1}"#,
                p,
            )],
            &[],
            &[],
            &[e(Some(1), "content", r#""Sum\u00e9""#, c)],
            &[e(Some(1), "content", r#""mary\n""#, c)],
            &[],
            &[
                e(None, "stop_sequence", r#""\u0045ND""#, r),
                e(None, "stop_details", r#"{"type":"x"}"#, r),
                e(None, "container", r#"{"id":"k","expires_at":"t"}"#, r),
                e(None, "context_management", r#"{"applied_edits":[]}"#, r),
                e(
                    None,
                    "usage",
                    r#"{"output_tokens":9,"input_tokens":null,"server_tool_use":{"web_search_requests":1}}"#,
                    m,
                ),
            ],
            &[],
        ];
        assert_eq!(by_event.len(), want.len());
        for (i, (got, want)) in by_event.iter().zip(want).enumerate() {
            assert_eq!(got.as_slice(), want, "event {i}");
        }
    }

    #[test]
    fn a_plain_stream_carries_its_message_only() {
        let mut reader = AnthropicReader::default();
        let mut out = KeepExtras::new(Dialect::Anthropic);
        let mut by_event: Vec<Vec<Kept>> = Vec::new();
        let stream = [
            r#"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"c","content":[]}}"#,
            r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#,
            r#"{"type":"content_block_stop","index":0}"#,
            r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"}}"#,
            r#"{"type":"message_stop"}"#,
        ];
        for f in frames(&stream) {
            reader.read(&f, &mut out).unwrap();
            by_event.push(out.take_extras());
        }
        let counts: Vec<usize> = by_event.iter().map(Vec::len).collect();
        assert_eq!(counts, [1, 0, 0, 0, 0, 0]);
        assert_eq!(by_event[0][0].1, "message");
    }

    #[test]
    fn the_answer_in_anthropic_keeps_them() {
        let mut reader = AnthropicReader::default();
        let mut acc = TurnAccumulator::new().from_dialect(Dialect::Anthropic);
        for f in frames(STREAM) {
            acc.read(&mut reader, &f).unwrap();
        }
        acc.finish_reader(&mut reader).unwrap();
        let json = acc.into_turn().to_json(Dialect::Anthropic);
        // The start's members in their order; usage merged (a null leaves
        // the count); strings written back with this crate's escapes.
        let want = concat!(
            r#"{"model":"c","id":"m1","type":"message","role":"assistant","content":["#,
            r#"{"citations":[{"type":"char_location","cited_text":"a","document_index":0},"#,
            r#"{"type":"char_location","cited_text":"b","document_index":1}],"type":"text","text":"Hi"},"#,
            r#"{"type":"compaction","content":"Sumémary\n"}],"#,
            r#""stop_reason":"stop_sequence","stop_sequence":"END","#,
            r#""usage":{"input_tokens":5,"output_tokens":9,"service_tier":"standard","server_tool_use":{"web_search_requests":1}},"#,
            r#""stop_details":{"type":"x"},"container":{"id":"k","expires_at":"t"},"context_management":{"applied_edits":[]}}"#,
        );
        assert_eq!(json, want);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["content"][1]["content"], "Sumémary\n");
        assert_eq!(v["usage"]["input_tokens"], 5);
    }
}
