//! `ChatLinter` and `AnthropicLinter`: the checks that apply to Chat
//! Completions and Anthropic Messages streams, and `FrameLinter`, the
//! interface the linters share.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::vec::Vec;

use super::core::decode_finding;
use super::linter::{LintConfig, ResponsesLinter};
use super::reports::Reports;
use super::rule::{Finding, Rule, Severity};
use super::stream::StreamLinter;
use crate::anthropic::{AnthropicEvent, BlockDelta, ContentBlock};
use crate::chat::{ChatEvent, ChoiceDelta};
use crate::frame::{Frame, FrameError, ParserConfig};

/// What the linters ([`ResponsesLinter`], [`ChatLinter`], [`AnthropicLinter`],
/// [`GeminiLinter`](super::GeminiLinter))
/// have in common: frames in, with the offset where each block begins,
/// findings out. [`lint_bytes`] drives any of them over a whole stream.
pub trait FrameLinter {
    /// Checks one event whose block begins at `offset` in the stream.
    fn feed(&mut self, frame: &Frame, offset: u64);
    /// Reports a framing error of the parser that read the stream.
    fn frame_error(&mut self, error: &FrameError);
    /// Runs the end-of-stream checks, with the stream's length as their
    /// offset. Calling it again does nothing.
    fn finish_at(&mut self, end_offset: u64);
    /// The next finding not yet taken, oldest first.
    fn next_finding(&mut self) -> Option<Finding>;
    /// How many findings of this severity there were so far.
    fn count(&self, severity: Severity) -> u64;

    /// Whether any finding so far was an error.
    fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }

    /// Takes every finding not yet taken, oldest first.
    fn drain(&mut self) -> impl Iterator<Item = Finding> + '_
    where
        Self: Sized,
    {
        core::iter::from_fn(move || self.next_finding())
    }
}

/// A boxed linter is a linter: `StreamLinter<Box<dyn FrameLinter>>` checks
/// a stream whose dialect is known only at run time.
impl<T: FrameLinter + ?Sized> FrameLinter for alloc::boxed::Box<T> {
    fn feed(&mut self, frame: &Frame, offset: u64) {
        (**self).feed(frame, offset);
    }
    fn frame_error(&mut self, error: &FrameError) {
        (**self).frame_error(error);
    }
    fn finish_at(&mut self, end_offset: u64) {
        (**self).finish_at(end_offset);
    }
    fn next_finding(&mut self) -> Option<Finding> {
        (**self).next_finding()
    }
    fn count(&self, severity: Severity) -> u64 {
        (**self).count(severity)
    }
}

/// `FrameLinter` for a linter with inherent `feed`, `frame_error` and
/// `finish_at` and its findings in a `reports` field ([`ResponsesLinter`],
/// [`ChatLinter`], [`AnthropicLinter`]).
macro_rules! frame_linter {
    ($linter:ident) => {
        impl FrameLinter for $linter {
            fn feed(&mut self, frame: &Frame, offset: u64) {
                $linter::feed(self, frame, offset);
            }
            fn frame_error(&mut self, error: &FrameError) {
                $linter::frame_error(self, error);
            }
            fn finish_at(&mut self, end_offset: u64) {
                $linter::finish_at(self, end_offset);
            }
            fn next_finding(&mut self) -> Option<Finding> {
                self.reports.next()
            }
            fn count(&self, severity: Severity) -> u64 {
                self.reports.count(severity)
            }
        }
    };
}

frame_linter!(ResponsesLinter);

/// Lints a whole stream held in memory with `linter` (a [`ChatLinter`] for
/// a Chat Completions stream, say), and returns every finding in stream
/// order.
///
/// ```
/// use ssekit::lint::{lint_bytes, ChatLinter, Rule};
///
/// let stream = concat!(
///     "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n",
///     "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
///     "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"!\"}}]}\n\n",
/// );
/// let findings = lint_bytes(ChatLinter::new(), stream.as_bytes());
/// let rules: Vec<Rule> = findings.iter().map(|f| f.rule()).collect();
/// assert_eq!(rules, [Rule::EventAfterItemDone, Rule::MissingTerminal]);
/// ```
pub fn lint_bytes(linter: impl FrameLinter, input: &[u8]) -> Vec<Finding> {
    let mut stream = StreamLinter::with_linter(ParserConfig::DEFAULT, linter);
    stream.feed(bytes::Bytes::copy_from_slice(input));
    stream.finish();
    stream.drain().collect()
}

/// What the Chat linter tracks of one choice.
#[derive(Debug, Default)]
struct ChoiceState {
    finished: bool,
    /// The tool call indexes seen.
    calls: BTreeMap<u64, ()>,
}

/// Checks a Chat Completions stream against what clients require: every
/// chunk decodes; a tool call's first fragment carries its `id` and
/// function `name` (clients such as the Vercel AI SDK reject a call
/// without them); nothing is added to a choice after its `finish_reason`;
/// every choice ends with a `finish_reason`; the stream ends with
/// `data: [DONE]` and nothing follows it.
///
/// The rules it reports: `sse-error`, `invalid-json`, `invalid-event` (a
/// chunk, choice or tool call that does not decode), `tool-call-without-id`,
/// `event-after-item-done` (a delta after its choice's `finish_reason`),
/// `missing-finish-reason`, `missing-terminal` (no `[DONE]`: a warning, or
/// after an error chunk, information), `event-after-terminal`,
/// `limit-reached`. Tracked choices and tool calls are capped by
/// [`LintConfig::max_items`] and [`LintConfig::max_parts`].
///
/// ```
/// use ssekit::lint::{ChatLinter, FrameLinter, Rule};
/// use ssekit::Frame;
///
/// let mut linter = ChatLinter::new();
/// let call = r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}"#;
/// linter.feed(&Frame::new(call), 0);
/// linter.finish_at(100);
/// let rules: Vec<Rule> = linter.drain().map(|f| f.rule()).collect();
/// assert_eq!(rules, [Rule::ToolCallWithoutId, Rule::MissingFinishReason, Rule::MissingTerminal]);
/// ```
#[derive(Debug)]
pub struct ChatLinter {
    config: LintConfig,
    reports: Reports,
    choices: BTreeMap<u64, ChoiceState>,
    tracked_calls: usize,
    limit_reported: bool,
    done: bool,
    saw_error: bool,
    chunks: u64,
    finished: bool,
}

impl Default for ChatLinter {
    fn default() -> Self {
        Self::new()
    }
}

impl ChatLinter {
    /// A linter with the default caps.
    pub fn new() -> Self {
        Self::with_config(LintConfig::DEFAULT)
    }

    /// A linter with these caps.
    pub fn with_config(config: LintConfig) -> Self {
        Self {
            reports: Reports::new(&config),
            config,
            choices: BTreeMap::new(),
            tracked_calls: 0,
            limit_reported: false,
            done: false,
            saw_error: false,
            chunks: 0,
            finished: false,
        }
    }

    /// Checks one event whose block begins at `offset` in the stream.
    pub fn feed(&mut self, frame: &Frame, offset: u64) {
        let event = ChatEvent::parse(frame.data());
        if self.done {
            let (rule, what) = match event {
                Ok(ChatEvent::Done) => (Rule::MultipleTerminal, "a second `data: [DONE]`"),
                _ => (Rule::EventAfterTerminal, "an event after `data: [DONE]`"),
            };
            self.reports.rule(
                rule,
                offset,
                format!("{what}: clients stop reading at the first `[DONE]`"),
            );
            return;
        }
        match event {
            Err(e) | Ok(ChatEvent::Unknown { error: e, .. }) => {
                decode_finding(&mut self.reports, &e, offset)
            }
            Ok(ChatEvent::Done) => self.done = true,
            Ok(ChatEvent::Error(_)) => self.saw_error = true,
            Ok(ChatEvent::Chunk(chunk)) => {
                self.chunks += 1;
                for choice in chunk.choices {
                    match choice {
                        Ok(choice) => self.choice(&choice, offset),
                        Err(e) => decode_finding(&mut self.reports, &e, offset),
                    }
                }
            }
        }
    }

    fn choice(&mut self, choice: &ChoiceDelta<'_>, offset: u64) {
        let index = choice.index;
        if !self.choices.contains_key(&index) {
            if self.choices.len() >= self.config.max_items {
                return self.limit(offset, "choices", self.config.max_items);
            }
            self.choices.insert(index, ChoiceState::default());
        }
        let Some(state) = self.choices.get_mut(&index) else {
            return;
        };
        if let Some(delta) = &choice.delta {
            // Empty fragments add nothing (OpenRouter repeats the finish
            // chunk with `"content": ""`).
            let adds = delta
                .content
                .as_ref()
                .is_some_and(|c| c.as_text().is_none_or(|t| !t.is_empty()))
                || delta.refusal.is_some_and(|r| !r.is_empty())
                || delta.tool_calls.is_some_and(|l| !l.is_empty())
                || delta.function_call.is_some()
                || delta.reasoning_content.is_some_and(|r| !r.is_empty())
                || delta.reasoning.is_some_and(|r| !r.is_empty());
            if state.finished && adds {
                self.reports.rule(
                    Rule::EventAfterItemDone,
                    offset,
                    format!(
                        "choice {index}: a delta after its `finish_reason` (clients have \
                         closed the message)"
                    ),
                );
            }
            for call in delta.tool_calls.into_iter().flatten() {
                let call = match call {
                    Ok(call) => call,
                    Err(e) => {
                        decode_finding(&mut self.reports, &e, offset);
                        continue;
                    }
                };
                let Some(state) = self.choices.get_mut(&index) else {
                    return;
                };
                if state.calls.contains_key(&call.index) {
                    continue;
                }
                if self.tracked_calls >= self.config.max_parts {
                    return self.limit(offset, "tool calls", self.config.max_parts);
                }
                state.calls.insert(call.index, ());
                self.tracked_calls += 1;
                let name = call.function.as_ref().and_then(|f| f.name);
                if call.id.is_none() || name.is_none() {
                    let missing = match (call.id.is_none(), name.is_none()) {
                        (true, true) => "`id` and `function.name`",
                        (true, false) => "`id`",
                        _ => "`function.name`",
                    };
                    self.reports.rule(
                        Rule::ToolCallWithoutId,
                        offset,
                        format!(
                            "choice {index}, tool call {}: its first fragment has no {missing} \
                             (clients cannot start the call)",
                            call.index
                        ),
                    );
                }
            }
        }
        if choice.finish_reason.is_some() {
            if let Some(state) = self.choices.get_mut(&index) {
                state.finished = true;
            }
        }
    }

    fn limit(&mut self, offset: u64, what: &str, cap: usize) {
        if !self.limit_reported {
            self.limit_reported = true;
            self.reports.rule(
                Rule::LimitReached,
                offset,
                format!("more than {cap} {what}: later ones are not checked"),
            );
        }
    }

    /// Reports a framing error of the parser that read the stream.
    pub fn frame_error(&mut self, error: &FrameError) {
        self.reports.rule(
            Rule::SseError,
            error.offset(),
            format!("sse framing: {error}"),
        );
    }

    /// Runs the end-of-stream checks at offset `end_offset`. Calling it
    /// again does nothing.
    pub fn finish_at(&mut self, end_offset: u64) {
        if core::mem::replace(&mut self.finished, true) {
            return;
        }
        if !self.saw_error {
            let unfinished: Vec<u64> = self
                .choices
                .iter()
                .filter(|(_, s)| !s.finished)
                .map(|(i, _)| *i)
                .collect();
            for index in unfinished {
                self.reports.rule(
                    Rule::MissingFinishReason,
                    end_offset,
                    format!("choice {index} never got a `finish_reason` (the stream was cut?)"),
                );
            }
            if self.chunks > 0 && self.choices.is_empty() {
                self.reports.rule(
                    Rule::MissingFinishReason,
                    end_offset,
                    "no chunk had a choice".into(),
                );
            }
        }
        if !self.done {
            let severity = if self.saw_error {
                Severity::Info
            } else {
                Severity::Warning
            };
            self.reports.report(
                Rule::MissingTerminal,
                severity,
                (end_offset, None),
                "the stream ended without `data: [DONE]` (OpenAI sends it; clients that wait \
                 for it report a disconnect)"
                    .into(),
            );
        }
        self.reports.finish(end_offset);
    }
}

frame_linter!(ChatLinter);

/// The kind of an Anthropic content block, as far as its deltas go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Text,
    Thinking,
    ToolUse,
    Compaction,
    /// A block that takes no deltas (tool results, redacted thinking).
    NoDeltas,
    /// A block type this version does not know: any delta is accepted.
    Unknown,
}

impl BlockKind {
    fn of(block: &ContentBlock<'_>) -> Self {
        match block {
            ContentBlock::Text(_) => Self::Text,
            ContentBlock::Thinking(_) => Self::Thinking,
            ContentBlock::ToolUse(_) | ContentBlock::ServerToolUse(_) => Self::ToolUse,
            ContentBlock::Compaction(_) => Self::Compaction,
            ContentBlock::RedactedThinking(_)
            | ContentBlock::WebSearchToolResult(_)
            | ContentBlock::WebFetchToolResult(_)
            | ContentBlock::CodeExecutionToolResult(_)
            | ContentBlock::BashCodeExecutionToolResult(_)
            | ContentBlock::TextEditorCodeExecutionToolResult(_)
            | ContentBlock::ToolSearchToolResult(_)
            | ContentBlock::ContainerUpload(_) => Self::NoDeltas,
            _ => Self::Unknown,
        }
    }

    /// Whether a delta of this type belongs to a block of this kind.
    fn takes(self, delta: &BlockDelta<'_>) -> bool {
        match delta {
            BlockDelta::Text(_) | BlockDelta::Citations(_) => {
                matches!(self, Self::Text | Self::Unknown)
            }
            BlockDelta::Thinking(_) | BlockDelta::Signature(_) => {
                matches!(self, Self::Thinking | Self::Unknown)
            }
            BlockDelta::InputJson(_) => matches!(self, Self::ToolUse | Self::Unknown),
            BlockDelta::Compaction(_) => matches!(self, Self::Compaction | Self::Unknown),
            _ => true,
        }
    }
}

/// Checks an Anthropic Messages stream against the order the API sends
/// and its SDKs require: `message_start` first; each content block started
/// once, at the next index, before its deltas and its stop; deltas of the
/// block's kind (a `text_delta` for a text block, `input_json_delta` for a
/// tool use…); nothing after a block's `content_block_stop`; a
/// `message_delta` with the `stop_reason`, then `message_stop`, with every
/// block stopped; nothing after `message_stop`.
///
/// The rules it reports: `sse-error`, `invalid-json`, `missing-type`,
/// `event-name-mismatch`, `invalid-event`, `unknown-event-type`,
/// `message-start-not-first`, `block-index-mismatch`, `duplicate-item` (a
/// block or `message_start` twice), `unknown-item` (a delta or stop for a
/// block never started), `delta-type-mismatch`, `event-after-item-done`,
/// `item-not-done`, `missing-stop-reason`, `missing-terminal` (no
/// `message_stop`; a warning after an `error` event), `multiple-terminal`,
/// `event-after-terminal`, `limit-reached`. Tracked blocks are capped by
/// [`LintConfig::max_items`].
///
/// ```
/// use ssekit::lint::{lint_bytes, AnthropicLinter, Rule};
///
/// let stream = concat!(
///     "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\n",
///     "event: content_block_delta\n",
///     "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n",
///     "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
/// );
/// let rules: Vec<Rule> = lint_bytes(AnthropicLinter::new(), stream.as_bytes())
///     .iter()
///     .map(|f| f.rule())
///     .collect();
/// assert_eq!(rules, [Rule::UnknownItem, Rule::MissingStopReason]);
/// ```
#[derive(Debug)]
pub struct AnthropicLinter {
    config: LintConfig,
    reports: Reports,
    started: bool,
    first_checked: bool,
    /// Each block started, by index: its kind and whether it was stopped.
    blocks: Vec<(BlockKind, bool)>,
    limit_reported: bool,
    stop_reason: bool,
    stopped: bool,
    saw_error: bool,
    finished: bool,
}

impl Default for AnthropicLinter {
    fn default() -> Self {
        Self::new()
    }
}

impl AnthropicLinter {
    /// A linter with the default caps.
    pub fn new() -> Self {
        Self::with_config(LintConfig::DEFAULT)
    }

    /// A linter with these caps.
    pub fn with_config(config: LintConfig) -> Self {
        Self {
            reports: Reports::new(&config),
            config,
            started: false,
            first_checked: false,
            blocks: Vec::new(),
            limit_reported: false,
            stop_reason: false,
            stopped: false,
            saw_error: false,
            finished: false,
        }
    }

    /// Checks one event whose block begins at `offset` in the stream.
    pub fn feed(&mut self, frame: &Frame, offset: u64) {
        let event = match AnthropicEvent::from_frame(frame).and_then(AnthropicEvent::strict) {
            Ok(event) => event,
            Err(e) => return decode_finding(&mut self.reports, &e, offset),
        };
        if self.stopped {
            let (rule, what) = match event {
                AnthropicEvent::MessageStop(_) => {
                    (Rule::MultipleTerminal, "a second `message_stop`")
                }
                _ => (Rule::EventAfterTerminal, "an event after `message_stop`"),
            };
            self.reports
                .rule(rule, offset, format!("{what}: the message is over"));
            return;
        }
        let is_start = matches!(event, AnthropicEvent::MessageStart(_));
        let any_time = matches!(event, AnthropicEvent::Ping(_) | AnthropicEvent::Error(_));
        if !self.first_checked && !any_time {
            self.first_checked = true;
            if !is_start {
                self.reports.rule(
                    Rule::MessageStartNotFirst,
                    offset,
                    format!(
                        "the first event is `{}`, not `message_start` (SDKs have no message to \
                         add it to)",
                        event.ty()
                    ),
                );
            }
        }
        match event {
            AnthropicEvent::MessageStart(_) => {
                if core::mem::replace(&mut self.started, true) {
                    self.reports.rule(
                        Rule::DuplicateItem,
                        offset,
                        "a second `message_start`".into(),
                    );
                }
            }
            AnthropicEvent::ContentBlockStart(e) => {
                self.block_start(e.index, &e.content_block, offset)
            }
            AnthropicEvent::ContentBlockDelta(e) => {
                if let Some((kind, stopped)) = self.block(e.index, offset, "content_block_delta") {
                    if stopped {
                        self.reports.rule(
                            Rule::EventAfterItemDone,
                            offset,
                            format!("block {}: a delta after its `content_block_stop`", e.index),
                        );
                    } else if !kind.takes(&e.delta) {
                        self.reports.rule(
                            Rule::DeltaTypeMismatch,
                            offset,
                            format!(
                                "block {}: a `{}` for a block of another kind",
                                e.index,
                                e.delta.ty()
                            ),
                        );
                    }
                }
            }
            AnthropicEvent::ContentBlockStop(e) => {
                if let Some((_, stopped)) = self.block(e.index, offset, "content_block_stop") {
                    if stopped {
                        self.reports.rule(
                            Rule::DuplicateItem,
                            offset,
                            format!("block {}: a second `content_block_stop`", e.index),
                        );
                    }
                    if let Some(block) = usize::try_from(e.index)
                        .ok()
                        .and_then(|i| self.blocks.get_mut(i))
                    {
                        block.1 = true;
                    }
                }
            }
            AnthropicEvent::MessageDelta(e) => self.stop_reason |= e.delta.stop_reason.is_some(),
            AnthropicEvent::MessageStop(_) => self.message_stop(offset),
            AnthropicEvent::Error(_) => self.saw_error = true,
            AnthropicEvent::Ping(_) => {}
            AnthropicEvent::Unknown { ty, .. } => self.reports.rule(
                Rule::UnknownEventType,
                offset,
                format!("`{}`: an event type this version does not know", ty.raw()),
            ),
        }
    }

    fn block_start(&mut self, index: u64, block: &ContentBlock<'_>, offset: u64) {
        let next = self.blocks.len() as u64;
        if index < next {
            self.reports.rule(
                Rule::DuplicateItem,
                offset,
                format!("block {index} started a second time"),
            );
            return;
        }
        if index > next {
            self.reports.rule(
                Rule::BlockIndexMismatch,
                offset,
                format!(
                    "block {index} started after {next} block(s): SDKs append blocks, so \
                     indexes must count up from 0"
                ),
            );
        }
        if self.blocks.len() >= self.config.max_items {
            if !self.limit_reported {
                self.limit_reported = true;
                self.reports.rule(
                    Rule::LimitReached,
                    offset,
                    format!(
                        "more than {} content blocks: later ones are not checked",
                        self.config.max_items
                    ),
                );
            }
            return;
        }
        // Blocks skipped over count as started and stopped (one finding
        // above says so); the cap bounds the filling.
        let skipped = usize::try_from(index - next)
            .unwrap_or(usize::MAX)
            .min(self.config.max_items - self.blocks.len() - 1);
        self.blocks
            .extend(core::iter::repeat_n((BlockKind::Unknown, true), skipped));
        self.blocks.push((BlockKind::of(block), false));
    }

    /// The block an event names, or a finding that it was never started.
    fn block(&mut self, index: u64, offset: u64, what: &str) -> Option<(BlockKind, bool)> {
        let found = usize::try_from(index)
            .ok()
            .and_then(|i| self.blocks.get(i))
            .copied();
        if found.is_none() && !self.limit_reported {
            self.reports.rule(
                Rule::UnknownItem,
                offset,
                format!("`{what}` for block {index}, which no `content_block_start` began"),
            );
        }
        found
    }

    fn message_stop(&mut self, offset: u64) {
        self.stopped = true;
        if !self.stop_reason {
            self.reports.rule(
                Rule::MissingStopReason,
                offset,
                "`message_stop` without a `message_delta` that gave the `stop_reason`".into(),
            );
        }
        let open: Vec<usize> = (0..self.blocks.len())
            .filter(|&i| !self.blocks[i].1)
            .collect();
        for index in open {
            self.reports.rule(
                Rule::ItemNotDone,
                offset,
                format!("block {index} was never stopped (`content_block_stop`)"),
            );
        }
    }

    /// Reports a framing error of the parser that read the stream.
    pub fn frame_error(&mut self, error: &FrameError) {
        self.reports.rule(
            Rule::SseError,
            error.offset(),
            format!("sse framing: {error}"),
        );
    }

    /// Runs the end-of-stream checks at offset `end_offset`. Calling it
    /// again does nothing.
    pub fn finish_at(&mut self, end_offset: u64) {
        if core::mem::replace(&mut self.finished, true) {
            return;
        }
        if !self.stopped {
            let severity = if self.saw_error {
                Severity::Warning
            } else {
                Severity::Error
            };
            self.reports.report(
                Rule::MissingTerminal,
                severity,
                (end_offset, None),
                "the stream ended without `message_stop` (clients report a disconnect)".into(),
            );
        }
        self.reports.finish(end_offset);
    }
}

frame_linter!(AnthropicLinter);
