//! `ChatLinter` and `AnthropicLinter`: the checks that apply to Chat
//! Completions and Anthropic Messages streams, and `FrameLinter`, the
//! interface the linters share.

use alloc::vec::Vec;

use super::core::{decode_finding, Core, Names};
use super::linter::{LintConfig, ResponsesLinter};
use super::rule::{Finding, Severity};
use super::stream::StreamLinter;
use crate::anthropic::AnthropicEvent;
use crate::dialect::Dialect;
use crate::frame::{Frame, FrameError, ParserConfig};
use crate::turn::{AnthropicReader, ChatReader, TurnConfig, TurnReader};

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
/// `finish_at` and its findings in `core.reports` ([`ResponsesLinter`],
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
                self.core.reports.next()
            }
            fn count(&self, severity: Severity) -> u64 {
                self.core.reports.count(severity)
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
/// `multiple-terminal` (a second `[DONE]`), `limit-reached`. Tracked choices and tool calls are capped by
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
    core: Core,
    reader: ChatReader,
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
        // Every choice's lifecycle, at most `max_items` choices and
        // `max_parts` tool calls over all of them.
        let turn = TurnConfig {
            max_items: config.max_parts,
            ..TurnConfig::default()
        };
        Self {
            reader: ChatReader::new(&turn).every_choice(config.max_items),
            core: Core::new(Dialect::Chat, config),
        }
    }

    /// Checks one event whose block begins at `offset` in the stream.
    pub fn feed(&mut self, frame: &Frame, offset: u64) {
        let read = self.reader.read(frame, &mut self.core.observed);
        self.core.read(read, offset);
    }

    /// Reports a framing error of the parser that read the stream.
    pub fn frame_error(&mut self, error: &FrameError) {
        self.core.frame_error(error);
    }

    /// Runs the end-of-stream checks at offset `end_offset`. Calling it
    /// again does nothing.
    pub fn finish_at(&mut self, end_offset: u64) {
        if self.core.is_finished() {
            return;
        }
        let end = self.reader.finish(&mut self.core.observed);
        self.core.finish(end, end_offset);
        self.core.reports.finish(end_offset);
    }
}

impl FrameLinter for ChatLinter {
    fn feed(&mut self, frame: &Frame, offset: u64) {
        ChatLinter::feed(self, frame, offset);
    }
    fn frame_error(&mut self, error: &FrameError) {
        ChatLinter::frame_error(self, error);
    }
    fn finish_at(&mut self, end_offset: u64) {
        ChatLinter::finish_at(self, end_offset);
    }
    fn next_finding(&mut self) -> Option<Finding> {
        self.core.reports.next()
    }
    fn count(&self, severity: Severity) -> u64 {
        self.core.reports.count(severity)
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
    core: Core,
    reader: AnthropicReader,
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
        let turn = TurnConfig {
            max_items: config.max_items,
            ..TurnConfig::default()
        };
        Self {
            reader: AnthropicReader::new(&turn).thorough(),
            core: Core::new(Dialect::Anthropic, config),
        }
    }

    /// Checks one event whose block begins at `offset` in the stream.
    pub fn feed(&mut self, frame: &Frame, offset: u64) {
        // An object that does not fit its type is a decode finding, even
        // after the end.
        let event = match AnthropicEvent::from_frame(frame).and_then(AnthropicEvent::strict) {
            Ok(event) => event,
            Err(e) => return decode_finding(&mut self.core.reports, &e, offset),
        };
        let names = Names {
            ty: event.ty(),
            delta: match &event {
                AnthropicEvent::ContentBlockDelta(d) => d.delta.ty(),
                _ => "",
            },
        };
        let read = self.reader.read_event(&event, &mut self.core.observed);
        self.core.read_named(read, offset, names);
    }

    /// Reports a framing error of the parser that read the stream.
    pub fn frame_error(&mut self, error: &FrameError) {
        self.core.frame_error(error);
    }

    /// Runs the end-of-stream checks at offset `end_offset`. Calling it
    /// again does nothing.
    pub fn finish_at(&mut self, end_offset: u64) {
        if self.core.is_finished() {
            return;
        }
        let end = self.reader.finish(&mut self.core.observed);
        self.core.finish(end, end_offset);
        self.core.reports.finish(end_offset);
    }
}

impl FrameLinter for AnthropicLinter {
    fn feed(&mut self, frame: &Frame, offset: u64) {
        AnthropicLinter::feed(self, frame, offset);
    }
    fn frame_error(&mut self, error: &FrameError) {
        AnthropicLinter::frame_error(self, error);
    }
    fn finish_at(&mut self, end_offset: u64) {
        AnthropicLinter::finish_at(self, end_offset);
    }
    fn next_finding(&mut self) -> Option<Finding> {
        self.core.reports.next()
    }
    fn count(&self, severity: Severity) -> u64 {
        self.core.reports.count(severity)
    }
}
