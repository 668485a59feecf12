//! Chat Completions chunks → Responses events.

use alloc::collections::BTreeSet;

use super::{
    to_responses_bridge, BridgeConfig, BridgeError, BridgeErrorKind, End, Item, ToResponses,
};
use crate::chat::{
    ChatChunk, ChatContent, ChatErrorChunk, ChatEvent, ChatUsage, ContentPart, Delta, Owned,
};
use crate::frame::Frame;
use crate::json::ObjectView;
use crate::responses::writer::TokenUsage;

/// Translates a Chat Completions stream into a Responses stream, chunk by
/// chunk.
///
/// | upstream | downstream |
/// | --- | --- |
/// | first chunk's `id`, `model`, `created` | `response.created`, `response.in_progress` (`resp_{id}`) |
/// | `delta.content` (text, or Mistral `text` parts) | a `message` item: `output_text.delta` |
/// | `delta.reasoning_content`, `delta.reasoning`, Mistral `thinking` parts | a `reasoning` item: `reasoning_summary_text.delta` |
/// | `delta.refusal` | a `message` item with a `refusal` part: `refusal.delta` |
/// | `delta.tool_calls[i]` | one `function_call` item per `index`: `function_call_arguments.delta` |
/// | `delta.function_call` (deprecated) | one `function_call` item (its `call_id` generated) |
/// | `usage` | the terminal response's `usage` (cached and reasoning tokens included) |
/// | `finish_reason` `stop`, `tool_calls` (and others), then `[DONE]` | `response.completed` |
/// | `finish_reason` `length`, then `[DONE]` | `response.incomplete` (`max_output_tokens`) |
/// | `finish_reason` `content_filter`, then `[DONE]` | `response.incomplete` (`content_filter`) |
/// | an error chunk | `response.failed` with the upstream's code and message |
///
/// A change of kind (reasoning, then text, then a tool call) finishes the
/// open item and starts the next; each item's done events are written
/// when the next starts or the stream ends. Only choice 0 is bridged (a
/// Responses stream has one output); other choices are ignored. Empty
/// fragments (`"content": ""`) write nothing.
///
/// Bad upstreams end the downstream with `response.failed` and a
/// [`BridgeError`]: a tool call fragment whose index was never started
/// (no `id` and no `name` on its first fragment:
/// [`UnknownIndex`](BridgeErrorKind::UnknownIndex)), a fragment of a call
/// finished since ([`IndexClosed`](BridgeErrorKind::IndexClosed): calls
/// are bridged one after another, as OpenAI streams them), more calls than
/// [`BridgeConfig::max_items`], non-empty content after `finish_reason`
/// ([`ContentAfterFinish`](BridgeErrorKind::ContentAfterFinish)), a chunk
/// that does not decode, and, at [`finish`](super::Bridge::finish), a
/// stream without `[DONE]` ([`Truncated`](BridgeErrorKind::Truncated)).
///
/// # Example
///
/// ```
/// use ssekit::bridge::{Bridge, ChatToResponses};
/// use ssekit::{Bytes, Parser};
///
/// let upstream = concat!(
///     r#"data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":""}}]}}]}"#, "\n\n",
///     r#"data: {"id":"c1","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}]}"#, "\n\n",
///     "data: [DONE]\n\n",
/// );
/// let mut parser = Parser::new();
/// parser.feed(Bytes::from_static(upstream.as_bytes()));
/// let mut bridge = ChatToResponses::new();
/// while let Some(frame) = parser.next_frame()? {
///     bridge.push_frame(&frame)?;
/// }
/// bridge.finish()?;
/// let out = String::from_utf8(bridge.take().to_vec())?;
/// assert!(out.contains(r#""type":"response.function_call_arguments.delta","sequence_number":3,"item_id":"fc_c1_0","output_index":0,"delta":"{\"a\":1}""#));
/// assert!(out.contains(r#""call_id":"call_1","name":"f""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ChatToResponses {
    core: ToResponses,
    /// Tool call indexes started; the open one is `call`.
    calls: BTreeSet<u64>,
    call: Option<Call>,
    /// Whether a deprecated `delta.function_call` started.
    legacy: bool,
    /// How the stream is to end, once `finish_reason` came.
    end: Option<End>,
}

impl Default for ChatToResponses {
    fn default() -> Self {
        Self::new()
    }
}

impl ChatToResponses {
    /// A bridge with the default [`BridgeConfig`].
    pub fn new() -> Self {
        Self::with_config(BridgeConfig::default())
    }

    /// A bridge with this config.
    pub fn with_config(config: BridgeConfig) -> Self {
        Self {
            core: ToResponses::new(config),
            calls: BTreeSet::new(),
            call: None,
            legacy: false,
            end: None,
        }
    }

    /// Translates one decoded upstream event (what
    /// [`push_frame`](super::Bridge::push_frame) does after decoding).
    ///
    /// # Errors
    ///
    /// As [`push_frame`](super::Bridge::push_frame).
    pub fn push(&mut self, event: &ChatEvent<'_>) -> Result<(), BridgeError> {
        self.core.begin_event()?;
        match self.event(event) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.core.fail(e)),
        }
    }

    fn push_frame_inner(&mut self, frame: &Frame) -> Result<(), BridgeError> {
        let event = ChatEvent::from_frame(frame)
            .map_err(|e| self.core.error(BridgeErrorKind::Decode(e)))?;
        self.event(&event)
    }

    fn end_of_input(&mut self) -> Result<(), BridgeError> {
        Err(self.core.error(BridgeErrorKind::Truncated))
    }

    fn event(&mut self, event: &ChatEvent<'_>) -> Result<(), BridgeError> {
        match event {
            ChatEvent::Chunk(chunk) => self.chunk(chunk),
            ChatEvent::Error(e) => self.upstream_error(e),
            ChatEvent::Done => match self.end {
                Some(end) => self.core.end(end, "", ""),
                None => Err(self.core.error(BridgeErrorKind::Truncated)),
            },
            ChatEvent::Unknown { error, .. } => {
                Err(self.core.error(BridgeErrorKind::Decode(*error)))
            }
        }
    }

    fn chunk(&mut self, chunk: &ChatChunk<'_>) -> Result<(), BridgeError> {
        self.core.open(chunk.id, chunk.model, chunk.created);
        if let Some(u) = &chunk.usage {
            self.core.usage = Some(usage(u));
        }
        // The first choice lent (it is large), then the others decoded.
        if let Some(choice) = chunk.choices.head() {
            self.choice(choice)?;
        }
        for choice in chunk.choices.rest() {
            let choice = choice.map_err(|e| self.core.error(BridgeErrorKind::Decode(e)))?;
            self.choice(&choice)?;
        }
        Ok(())
    }

    /// One choice of a chunk: only choice 0 is translated.
    fn choice(&mut self, choice: &crate::chat::ChoiceDelta<'_>) -> Result<(), BridgeError> {
        if choice.index != 0 {
            return Ok(());
        }
        if let Some(delta) = &choice.delta {
            if self.end.is_some() && has_content(delta) {
                return Err(self.core.error(BridgeErrorKind::ContentAfterFinish));
            }
            self.delta(delta)?;
        }
        if let Some(reason) = choice.finish_reason {
            self.end = Some(match reason.as_str() {
                Some("length") => End::Incomplete("max_output_tokens"),
                Some("content_filter") => End::Incomplete("content_filter"),
                _ => End::Completed,
            });
        }
        Ok(())
    }

    fn delta(&mut self, d: &Delta<'_>) -> Result<(), BridgeError> {
        for reasoning in [d.reasoning_content, d.reasoning].into_iter().flatten() {
            self.core.delta(Item::Reasoning, reasoning)?;
        }
        match d.content {
            Some(ChatContent::Text(text)) => self.core.delta(Item::Message, text)?,
            Some(ChatContent::Parts(parts)) => {
                for part in parts {
                    match part.map_err(|e| self.core.error(BridgeErrorKind::Decode(e)))? {
                        ContentPart::Text(t) => {
                            if let Some(text) = t.text {
                                self.core.delta(Item::Message, text)?;
                            }
                        }
                        ContentPart::Thinking(t) => {
                            for inner in t.thinking.into_iter().flatten() {
                                let inner = inner
                                    .map_err(|e| self.core.error(BridgeErrorKind::Decode(e)))?;
                                if let ContentPart::Text(text) = inner {
                                    if let Some(text) = text.text {
                                        self.core.delta(Item::Reasoning, text)?;
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
            self.core.delta(Item::Refusal, refusal)?;
        }
        for call in d.tool_calls.into_iter().flatten() {
            let call = call.map_err(|e| self.core.error(BridgeErrorKind::Decode(e)))?;
            let index = call.index;
            let name = call.function.as_ref().and_then(|f| f.name);
            if !self.calls.contains(&index) {
                if call.id.is_none() && name.is_none() {
                    return Err(self.core.error(BridgeErrorKind::UnknownIndex { index }));
                }
                let limit = self.core.config.max_items;
                if self.calls.len() >= limit {
                    return Err(self.core.error(BridgeErrorKind::TooManyItems { limit }));
                }
                self.calls.insert(index);
                let call_id = call.id.map(|s| s.unescape());
                let name = name.map(|s| s.unescape()).unwrap_or_default();
                self.core.start_call(call_id.as_deref(), &name)?;
                self.call = Some(Call::Tool(index));
            } else if self.call != Some(Call::Tool(index)) || self.core.item != Item::Call {
                return Err(self.core.error(BridgeErrorKind::IndexClosed { index }));
            }
            if let Some(args) = call.function.as_ref().and_then(|f| f.arguments) {
                self.core.delta(Item::Call, args)?;
            }
        }
        if let Some(f) = &d.function_call {
            // The deprecated single call: one function call item.
            if !self.legacy {
                if f.name.is_none() {
                    return Err(self.core.error(BridgeErrorKind::UnknownIndex { index: 0 }));
                }
                self.legacy = true;
                let name = f.name.map(|s| s.unescape()).unwrap_or_default();
                self.core.start_call(None, &name)?;
                self.call = Some(Call::Legacy);
            } else if self.call != Some(Call::Legacy) || self.core.item != Item::Call {
                return Err(self.core.error(BridgeErrorKind::IndexClosed { index: 0 }));
            }
            if let Some(args) = f.arguments {
                self.core.delta(Item::Call, args)?;
            }
        }
        if self.core.item != Item::Call {
            self.call = None;
        }
        Ok(())
    }

    fn upstream_error(&mut self, e: &ChatErrorChunk<'_>) -> Result<(), BridgeError> {
        self.core.open(None, None, None);
        // OpenRouter sends the usage in the error chunk.
        let usage_json = ObjectView::parse(e.raw().get())
            .ok()
            .and_then(|o| o.get("usage"))
            .and_then(|u| u.as_object());
        if let Some(u) = usage_json {
            if let Ok(owned) = Owned::<ChatUsage<'static>>::parse(u.as_raw_json().get()) {
                self.core.usage = Some(usage(&owned.get()));
            }
        }
        let code = match e.error.code.map(|c| c.value()) {
            Some(crate::json::Value::String(s)) => s.unescape().into_owned(),
            Some(crate::json::Value::Number(n)) => alloc::string::String::from(n.as_str()),
            _ => e
                .error
                .ty
                .map(|t| t.unescape().into_owned())
                .unwrap_or_else(|| "server_error".into()),
        };
        let message = e.error.message.map(|m| m.unescape()).unwrap_or_default();
        self.core.end(End::Failed, &code, &message)
    }
}

/// The call an arguments fragment belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Call {
    /// `delta.tool_calls[i]`, by its index.
    Tool(u64),
    /// The deprecated `delta.function_call`.
    Legacy,
}

/// Whether a delta carries content (a non-empty fragment or a tool call).
fn has_content(d: &Delta<'_>) -> bool {
    let text = |s: Option<crate::json::JsonStr<'_>>| s.is_some_and(|s| !s.is_empty());
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

/// A Chat usage as the Responses usage: prompt → input, completion →
/// output, cached and reasoning tokens from the details (cached from
/// DeepSeek's `prompt_cache_hit_tokens` when there are no details).
pub(super) fn usage(u: &ChatUsage<'_>) -> TokenUsage {
    let cached = u
        .prompt_tokens_details
        .as_ref()
        .and_then(|d| d.cached_tokens)
        .or(u.prompt_cache_hit_tokens)
        .unwrap_or(0);
    let reasoning = u
        .completion_tokens_details
        .as_ref()
        .and_then(|d| d.reasoning_tokens)
        .unwrap_or(0);
    TokenUsage::new(
        u.prompt_tokens.unwrap_or(0),
        u.completion_tokens.unwrap_or(0),
    )
    .with_cached_tokens(cached)
    .with_reasoning_tokens(reasoning)
}

to_responses_bridge!(ChatToResponses);
