//! Anthropic Messages events → Responses events.

use alloc::collections::BTreeMap;
use alloc::string::String;

use super::{
    to_responses_bridge, BridgeConfig, BridgeError, BridgeErrorKind, End, Item, ToResponses,
};
use crate::anthropic::{AnthropicEvent, BlockDelta, ContentBlock, Usage};
use crate::frame::Frame;
use crate::responses::writer::{TokenUsage, WriterErrorKind};

/// What a content block became downstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// A text block: a message item.
    Text,
    /// A thinking or redacted thinking block: a reasoning item.
    Thinking,
    /// A `tool_use` block: a function call; whether an `input_json_delta`
    /// came yet.
    ToolUse { streamed: bool },
    /// Server tools, their results, compaction, unknown blocks: not
    /// bridged (Responses has no item a client could act on for them).
    Skipped,
    /// Stopped.
    Stopped,
}

/// Translates an Anthropic Messages stream into a Responses stream, event
/// by event.
///
/// | upstream | downstream |
/// | --- | --- |
/// | `message_start` | `response.created`, `response.in_progress` (`resp_{message id}`); the input usage |
/// | a `text` block, `text_delta` | a `message` item, `output_text.delta` |
/// | a `thinking` block, `thinking_delta`, `signature_delta` | a `reasoning` item, `reasoning_summary_text.delta`; the signature as its `encrypted_content` |
/// | a `redacted_thinking` block | a `reasoning` item whose `encrypted_content` is the block's `data` |
/// | a `tool_use` block, `input_json_delta` | a `function_call` item (`call_id` the block's `id`), `function_call_arguments.delta` |
/// | `content_block_stop` | the item's done events |
/// | `message_delta` | the stop reason; the output usage |
/// | `message_stop` after `end_turn`, `stop_sequence`, `tool_use`, `pause_turn` | `response.completed` |
/// | `message_stop` after `max_tokens`, `model_context_window_exceeded` | `response.incomplete` (`max_output_tokens`) |
/// | `message_stop` after `refusal` | `response.incomplete` (`content_filter`) |
/// | `error` | `response.failed` with the error's `type` as its code |
///
/// Usage: `input_tokens` downstream is Anthropic's `input_tokens` plus its
/// cache reads and writes (Responses counts cached input in the input),
/// `cached_tokens` its `cache_read_input_tokens`, `output_tokens` the last
/// `output_tokens` sent (`message_delta` carries the running total).
///
/// Server tool blocks (`server_tool_use`, web search, web fetch and code
/// execution results), `compaction` and blocks of unknown types are not
/// bridged: Responses has no client-side item for them, and their text
/// reaches the client in the text blocks that follow. `ping`s are not
/// passed on; send keep-alives on your own schedule
/// ([`keep_alive`](super::Bridge::keep_alive)). A `pause_turn` stop
/// completes the response: the message is whole, and the client
/// continues the turn by sending it back.
///
/// Bad upstreams end the downstream with `response.failed` and a
/// [`BridgeError`]: a delta or stop of a block never started
/// ([`UnknownIndex`](BridgeErrorKind::UnknownIndex)), a delta of a block
/// stopped or left for another
/// ([`IndexClosed`](BridgeErrorKind::IndexClosed)), more blocks than
/// [`BridgeConfig::max_items`], content after `message_stop`, an event
/// that does not decode, and a stream without `message_stop`
/// ([`Truncated`](BridgeErrorKind::Truncated)).
///
/// # Example
///
/// ```
/// use ssekit::bridge::{AnthropicToResponses, BytesBridge};
/// use ssekit::Bytes;
///
/// let upstream = concat!(
///     "event: message_start\n", r#"data: {"type":"message_start","message":{"id":"msg_1","model":"claude","usage":{"input_tokens":5,"output_tokens":1}}}"#, "\n\n",
///     "event: content_block_start\n", r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#, "\n\n",
///     "event: content_block_delta\n", r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#, "\n\n",
///     "event: content_block_stop\n", r#"data: {"type":"content_block_stop","index":0}"#, "\n\n",
///     "event: message_delta\n", r#"data: {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":2}}"#, "\n\n",
///     "event: message_stop\n", r#"data: {"type":"message_stop"}"#, "\n\n",
/// );
/// let mut bridge = BytesBridge::new(AnthropicToResponses::new());
/// bridge.feed(Bytes::from_static(upstream.as_bytes()))?;
/// bridge.finish()?;
/// let out = String::from_utf8(bridge.take().to_vec())?;
/// assert!(out.contains(r#""delta":"Hi""#));
/// assert!(out.contains(r#""incomplete_details":{"reason":"max_output_tokens"}"#));
/// assert!(out.contains(r#""input_tokens":5,"#));
/// assert!(out.contains(r#""output_tokens":2,"#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct AnthropicToResponses {
    core: ToResponses,
    /// Every block started, by index, and what it became.
    blocks: BTreeMap<u64, Block>,
    /// The signature of the open thinking block so far.
    signature: String,
    /// The tool input of the `tool_use` block's start, for a block with no
    /// `input_json_delta`.
    input: String,
    stop_reason: Option<End>,
    input_tokens: u64,
    cached_tokens: u64,
    output_tokens: u64,
}

impl Default for AnthropicToResponses {
    fn default() -> Self {
        Self::new()
    }
}

impl AnthropicToResponses {
    /// A bridge with the default [`BridgeConfig`].
    pub fn new() -> Self {
        Self::with_config(BridgeConfig::default())
    }

    /// A bridge with this config.
    pub fn with_config(config: BridgeConfig) -> Self {
        Self {
            core: ToResponses::new(config),
            blocks: BTreeMap::new(),
            signature: String::new(),
            input: String::new(),
            stop_reason: None,
            input_tokens: 0,
            cached_tokens: 0,
            output_tokens: 0,
        }
    }

    /// Translates one decoded upstream event (what
    /// [`push_frame`](super::Bridge::push_frame) does after decoding).
    ///
    /// # Errors
    ///
    /// As [`push_frame`](super::Bridge::push_frame).
    pub fn push(&mut self, event: &AnthropicEvent<'_>) -> Result<(), BridgeError> {
        self.core.begin_event()?;
        match self.event(event) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.core.fail(e)),
        }
    }

    fn push_frame_inner(&mut self, frame: &Frame) -> Result<(), BridgeError> {
        let event = AnthropicEvent::from_frame(frame)
            .map_err(|e| self.core.error(BridgeErrorKind::Decode(e)))?;
        self.event(&event)
    }

    fn end_of_input(&mut self) -> Result<(), BridgeError> {
        Err(self.core.error(BridgeErrorKind::Truncated))
    }

    fn usage(&mut self, u: &Usage<'_>) {
        let cache_read = u.cache_read_input_tokens;
        if u.input_tokens.is_some() || cache_read.is_some() {
            self.input_tokens = u
                .input_tokens
                .unwrap_or(0)
                .saturating_add(cache_read.unwrap_or(0))
                .saturating_add(u.cache_creation_input_tokens.unwrap_or(0));
            self.cached_tokens = cache_read.unwrap_or(0);
        }
        if let Some(n) = u.output_tokens {
            self.output_tokens = n;
        }
        self.core.usage = Some(
            TokenUsage::new(self.input_tokens, self.output_tokens)
                .with_cached_tokens(self.cached_tokens),
        );
    }

    fn event(&mut self, event: &AnthropicEvent<'_>) -> Result<(), BridgeError> {
        match event {
            AnthropicEvent::MessageStart(start) => {
                let m = &start.message;
                self.core.open(m.id, m.model, None);
                if let Some(u) = &m.usage {
                    self.usage(u);
                }
                Ok(())
            }
            AnthropicEvent::ContentBlockStart(start) => {
                self.block_start(start.index, &start.content_block)
            }
            AnthropicEvent::ContentBlockDelta(d) => self.block_delta(d.index, &d.delta),
            AnthropicEvent::ContentBlockStop(stop) => self.block_stop(stop.index),
            AnthropicEvent::MessageDelta(d) => {
                if let Some(reason) = d.delta.stop_reason {
                    self.stop_reason = Some(match reason.as_str() {
                        Some("max_tokens" | "model_context_window_exceeded") => {
                            End::Incomplete("max_output_tokens")
                        }
                        Some("refusal") => End::Incomplete("content_filter"),
                        _ => End::Completed,
                    });
                }
                if let Some(u) = &d.usage {
                    self.usage(u);
                }
                Ok(())
            }
            AnthropicEvent::MessageStop(_) => {
                let end = self.stop_reason.unwrap_or(End::Completed);
                self.core.end(end, "", "")
            }
            AnthropicEvent::Error(e) => {
                self.core.open(None, None, None);
                let code = e.error.ty.map(|t| t.unescape()).unwrap_or_default();
                let code = if code.is_empty() {
                    "server_error".into()
                } else {
                    code
                };
                let message = e.error.message.map(|m| m.unescape()).unwrap_or_default();
                self.core.end(End::Failed, &code, &message)
            }
            // A known type whose members do not fit is not passed over.
            AnthropicEvent::Unknown { error: Some(e), .. } => {
                Err(self.core.error(BridgeErrorKind::Decode(*e)))
            }
            _ => Ok(()),
        }
    }

    fn block_start(&mut self, index: u64, block: &ContentBlock<'_>) -> Result<(), BridgeError> {
        if self.blocks.contains_key(&index) {
            return Err(self.core.error(BridgeErrorKind::IndexClosed { index }));
        }
        let limit = self.core.config.max_items;
        if self.blocks.len() >= limit {
            return Err(self.core.error(BridgeErrorKind::TooManyItems { limit }));
        }
        self.core.open(None, None, None);
        let kind = match block {
            ContentBlock::Text(t) => {
                self.core.start(Item::Message)?;
                if let Some(text) = t.text {
                    self.core.delta(Item::Message, text)?;
                }
                Block::Text
            }
            ContentBlock::Thinking(t) => {
                self.core.start(Item::Reasoning)?;
                if let Some(text) = t.thinking {
                    self.core.delta(Item::Reasoning, text)?;
                }
                self.signature.clear();
                if let Some(sig) = t.signature {
                    sig.unescape_into(&mut self.signature);
                }
                Block::Thinking
            }
            ContentBlock::RedactedThinking(t) => {
                self.core.start(Item::Reasoning)?;
                self.signature.clear();
                if let Some(data) = t.data {
                    data.unescape_into(&mut self.signature);
                }
                Block::Thinking
            }
            ContentBlock::ToolUse(t) => {
                let call_id = t.id.map(|s| s.unescape());
                let name = t.name.map(|s| s.unescape()).unwrap_or_default();
                self.core.start_call(call_id.as_deref(), &name)?;
                self.input.clear();
                if let Some(input) = t.input {
                    self.input.push_str(input.get());
                }
                Block::ToolUse { streamed: false }
            }
            _ => {
                // Not bridged; finish the open item so that a later delta of
                // it reads as the error it is.
                self.core.close()?;
                Block::Skipped
            }
        };
        self.blocks.insert(index, kind);
        Ok(())
    }

    /// The block `index`, which must be the open one (or skipped).
    fn block(&self, index: u64) -> Result<Block, BridgeError> {
        match self.blocks.get(&index) {
            None => Err(self.core.error(BridgeErrorKind::UnknownIndex { index })),
            Some(Block::Stopped) => Err(self.core.error(BridgeErrorKind::IndexClosed { index })),
            Some(&b) => {
                let open = match b {
                    Block::Text => Item::Message,
                    Block::Thinking => Item::Reasoning,
                    Block::ToolUse { .. } => Item::Call,
                    _ => return Ok(b),
                };
                if self.core.item != open {
                    return Err(self.core.error(BridgeErrorKind::IndexClosed { index }));
                }
                Ok(b)
            }
        }
    }

    fn block_delta(&mut self, index: u64, delta: &BlockDelta<'_>) -> Result<(), BridgeError> {
        if self.core.finished {
            return Err(self.core.error(BridgeErrorKind::ContentAfterFinish));
        }
        let block = self.block(index)?;
        match (block, delta) {
            (Block::Text, BlockDelta::Text(t)) => self.core.delta(Item::Message, t.text),
            (Block::Thinking, BlockDelta::Thinking(t)) => {
                self.core.delta(Item::Reasoning, t.thinking)
            }
            (Block::Thinking, BlockDelta::Signature(s)) => {
                // Kept until the block stops: bounded as the writer's text is.
                let limit = self.core.config.max_kept_bytes;
                if self.signature.len().saturating_add(s.signature.len_hint()) > limit {
                    return Err(self.core.error(BridgeErrorKind::Writer(
                        WriterErrorKind::LimitExceeded { limit },
                    )));
                }
                s.signature.unescape_into(&mut self.signature);
                Ok(())
            }
            (Block::ToolUse { .. }, BlockDelta::InputJson(j)) => {
                self.blocks.insert(index, Block::ToolUse { streamed: true });
                self.core.delta(Item::Call, j.partial_json)
            }
            // Citations, compaction, deltas of skipped blocks, and deltas
            // of another kind than the block's: nothing Responses can carry.
            _ => Ok(()),
        }
    }

    fn block_stop(&mut self, index: u64) -> Result<(), BridgeError> {
        let block = self.block(index)?;
        match block {
            Block::Thinking if !self.signature.is_empty() => {
                let r = self.core.writer().set_encrypted_content(&self.signature);
                self.core.wrote(r)?;
            }
            Block::ToolUse { streamed: false } if !self.input.is_empty() => {
                let input = core::mem::take(&mut self.input);
                let r = self.core.writer().arguments_delta(&input);
                self.input = input;
                self.core.wrote(r)?;
            }
            _ => {}
        }
        if block != Block::Skipped {
            self.core.close()?;
        }
        self.blocks.insert(index, Block::Stopped);
        Ok(())
    }
}

to_responses_bridge!(AnthropicToResponses);
