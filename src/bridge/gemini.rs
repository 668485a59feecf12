//! Gemini `streamGenerateContent` chunks → Responses events.

use super::{
    to_responses_bridge, BridgeConfig, BridgeError, BridgeErrorKind, End, Item, ToResponses,
};
use crate::frame::Frame;
use crate::gemini::{GeminiEvent, GenerateContentResponse, Part};
use crate::responses::writer::TokenUsage;

/// Translates a Gemini stream (`streamGenerateContent?alt=sse`) into a
/// Responses stream, chunk by chunk.
///
/// | upstream | downstream |
/// | --- | --- |
/// | first chunk's `responseId`, `modelVersion` | `response.created`, `response.in_progress` (`resp_{responseId}`) |
/// | a `text` part | a `message` item, `output_text.delta` |
/// | a `text` part with `thought: true` | a `reasoning` item, `reasoning_summary_text.delta` |
/// | a `functionCall` part (it arrives whole) | a `function_call` item with its `args` as one arguments delta (`call_id` its `id`, or generated) |
/// | `usageMetadata` (the last one) | the terminal usage: `promptTokenCount` in, `candidatesTokenCount + thoughtsTokenCount` out, `cachedContentTokenCount`, `thoughtsTokenCount` |
/// | end of input after `finishReason` `STOP` | `response.completed` |
/// | … `MAX_TOKENS` | `response.incomplete` (`max_output_tokens`) |
/// | … `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY`; a `promptFeedback.blockReason` | `response.incomplete` (`content_filter`) |
/// | … any other reason (`MALFORMED_FUNCTION_CALL`, `OTHER`, …) | `response.failed` |
/// | an error chunk | `response.failed` with the error's `status` as its code |
///
/// A Gemini stream has no closing event: it simply ends. So the terminal
/// event is written by [`finish`](super::Bridge::finish), which a gateway
/// calls at the end of the upstream body; a stream that ends with no
/// `finishReason` is cut, and fails
/// ([`Truncated`](BridgeErrorKind::Truncated)). Only candidate 0 is
/// bridged. Content after a `finishReason` is not an error: Vertex AI
/// sends a `finishReason` on every chunk; the last one decides.
///
/// # Example
///
/// ```
/// use ssekit::bridge::{Bridge, BytesBridge, GeminiToResponses};
/// use ssekit::Bytes;
///
/// let upstream = concat!(
///     r#"data: {"candidates":[{"content":{"parts":[{"text":"Hel"}],"role":"model"}}],"responseId":"r1","modelVersion":"gemini-2.5"}"#, "\n\n",
///     r#"data: {"candidates":[{"content":{"parts":[{"text":"lo"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":2}}"#, "\n\n",
/// );
/// let mut bridge = BytesBridge::new(GeminiToResponses::new());
/// bridge.feed(Bytes::from_static(upstream.as_bytes()))?;
/// assert!(!bridge.get_ref().is_finished()); // Gemini sends no end event
/// bridge.finish()?; // the body ended
/// let out = String::from_utf8(bridge.take().to_vec())?;
/// assert!(out.contains("event: response.completed\n"));
/// assert!(out.contains(r#""text":"Hello""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct GeminiToResponses {
    core: ToResponses,
    end: Option<End>,
}

impl Default for GeminiToResponses {
    fn default() -> Self {
        Self::new()
    }
}

impl GeminiToResponses {
    /// A bridge with the default [`BridgeConfig`].
    pub fn new() -> Self {
        Self::with_config(BridgeConfig::default())
    }

    /// A bridge with this config.
    pub fn with_config(config: BridgeConfig) -> Self {
        Self {
            core: ToResponses::new(config),
            end: None,
        }
    }

    /// Translates one decoded upstream event (what
    /// [`push_frame`](super::Bridge::push_frame) does after decoding).
    ///
    /// # Errors
    ///
    /// As [`push_frame`](super::Bridge::push_frame).
    pub fn push(&mut self, event: &GeminiEvent<'_>) -> Result<(), BridgeError> {
        self.core.begin_event()?;
        match self.event(event) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.core.fail(e)),
        }
    }

    fn push_frame_inner(&mut self, frame: &Frame) -> Result<(), BridgeError> {
        let event = GeminiEvent::from_frame(frame)
            .map_err(|e| self.core.error(BridgeErrorKind::Decode(e)))?;
        self.event(&event)
    }

    fn end_of_input(&mut self) -> Result<(), BridgeError> {
        match self.end {
            Some(End::Failed) => {
                let _ = self.core.end(
                    End::Failed,
                    "server_error",
                    "the upstream stopped for an error",
                );
                Ok(())
            }
            Some(end) => self.core.end(end, "", ""),
            None => Err(self.core.error(BridgeErrorKind::Truncated)),
        }
    }

    fn event(&mut self, event: &GeminiEvent<'_>) -> Result<(), BridgeError> {
        match event {
            GeminiEvent::Response(r) => self.response(r),
            GeminiEvent::Error(e) => {
                self.core.open(None, None, None);
                let code = e.error.status.map(|s| s.unescape()).unwrap_or_default();
                let code = if code.is_empty() {
                    "server_error".into()
                } else {
                    code
                };
                let message = e.error.message.map(|m| m.unescape()).unwrap_or_default();
                self.core.end(End::Failed, &code, &message)
            }
            GeminiEvent::Unknown { error, .. } => {
                Err(self.core.error(BridgeErrorKind::Decode(*error)))
            }
            #[allow(unreachable_patterns)]
            _ => Ok(()),
        }
    }

    fn response(&mut self, r: &GenerateContentResponse<'_>) -> Result<(), BridgeError> {
        self.core.open(r.response_id, r.model_version, None);
        if let Some(u) = &r.usage_metadata {
            let thoughts = u.thoughts_token_count.unwrap_or(0);
            self.core.usage = Some(
                TokenUsage::new(
                    u.prompt_token_count.unwrap_or(0),
                    u.candidates_token_count
                        .unwrap_or(0)
                        .saturating_add(thoughts),
                )
                .with_cached_tokens(u.cached_content_token_count.unwrap_or(0))
                .with_reasoning_tokens(thoughts),
            );
        }
        if r.prompt_feedback
            .as_ref()
            .is_some_and(|f| f.block_reason.is_some())
        {
            self.end = Some(End::Incomplete("content_filter"));
        }
        for candidate in r.candidates.into_iter().flatten() {
            let candidate = candidate.map_err(|e| self.core.error(BridgeErrorKind::Decode(e)))?;
            if candidate.index_or_zero() != 0 {
                continue;
            }
            for part in candidate
                .content
                .and_then(|c| c.parts)
                .into_iter()
                .flatten()
            {
                let part = part.map_err(|e| self.core.error(BridgeErrorKind::Decode(e)))?;
                self.part(&part)?;
            }
            if let Some(reason) = candidate.finish_reason {
                self.end = Some(match reason.as_str() {
                    Some("STOP") => End::Completed,
                    Some("MAX_TOKENS") => End::Incomplete("max_output_tokens"),
                    Some(
                        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII"
                        | "IMAGE_SAFETY",
                    ) => End::Incomplete("content_filter"),
                    _ => End::Failed,
                });
            }
        }
        Ok(())
    }

    fn part(&mut self, part: &Part<'_>) -> Result<(), BridgeError> {
        if let Some(call) = &part.function_call {
            let call_id = call.id.map(|s| s.unescape());
            let name = call.name.map(|s| s.unescape()).unwrap_or_default();
            self.core.start_call(call_id.as_deref(), &name)?;
            let args = call.args.map_or("{}", |a| a.get());
            let r = self.core.writer().arguments_delta(args);
            self.core.wrote(r)?;
            return self.core.close();
        }
        if let Some(text) = part.text {
            let kind = if part.is_thought() {
                Item::Reasoning
            } else {
                Item::Message
            };
            self.core.delta(kind, text)?;
        }
        Ok(())
    }
}

to_responses_bridge!(GeminiToResponses);
