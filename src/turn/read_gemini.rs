//! The Gemini reader.

use alloc::string::String;

use super::{
    as_json_str, DeltaKind, ItemKind, Stop, StopReason, TurnConfig, TurnError, TurnErrorKind,
    TurnEvent, TurnReader, TurnStart, TurnUsage, TurnWriter, UpstreamError,
};
use crate::frame::Frame;
use crate::gemini::{GeminiEvent, GenerateContentResponse, Part};

/// Reads a Gemini stream (`streamGenerateContent?alt=sse`, candidate 0)
/// into turn events.
///
/// | upstream | model |
/// | --- | --- |
/// | the first chunk's `responseId`, `modelVersion` | start |
/// | a `text` part | a message item, text |
/// | a `text` part with `thought: true` | a reasoning item, reasoning text |
/// | a `thoughtSignature` | a signature of the item of its part (a function call's, or the open text's) |
/// | a `functionCall` part (it arrives whole, one per chunk) | a tool call item of its own: start, its `args` as one arguments fragment, end |
/// | `usageMetadata` (each replaces the last) | usage: `promptTokenCount` in, `candidatesTokenCount + thoughtsTokenCount` out, `cachedContentTokenCount`, `thoughtsTokenCount` |
/// | `finishReason` (the last one counts; Vertex AI sends one on every chunk) | stop: `STOP` → end of turn, `MAX_TOKENS`, `SAFETY`/`RECITATION`/`BLOCKLIST`/`PROHIBITED_CONTENT`/`SPII`/`IMAGE_SAFETY` → content filter, others → error |
/// | a `promptFeedback.blockReason` | stop: content filter |
/// | the end of the body after a `finishReason` | end |
/// | an error chunk | error |
///
/// Candidates other than 0 are counted ([`TurnReader::skipped`]).
#[derive(Debug)]
pub struct GeminiReader {
    max_items: usize,
    events: u64,
    started: bool,
    prose: Option<(u64, DeltaKind)>,
    items: u64,
    calls: usize,
    stopped: bool,
    ended: bool,
    skipped: u64,
    scratch: String,
}

impl Default for GeminiReader {
    fn default() -> Self {
        Self::new(&TurnConfig::default())
    }
}

impl GeminiReader {
    /// A reader with this config's limits.
    pub fn new(config: &TurnConfig) -> Self {
        Self {
            max_items: config.max_items,
            events: 0,
            started: false,
            prose: None,
            items: 0,
            calls: 0,
            stopped: false,
            ended: false,
            skipped: 0,
            scratch: String::new(),
        }
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
        event: &GeminiEvent<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        self.event(event, out).map_err(|e| e.at(at))
    }

    fn event<W: TurnWriter + ?Sized>(
        &mut self,
        event: &GeminiEvent<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if self.ended {
            return Err(self.error(TurnErrorKind::ContentAfterFinish));
        }
        match event {
            GeminiEvent::Response(r) => self.response(r, out),
            GeminiEvent::Error(e) => {
                self.ended = true;
                out.write(&TurnEvent::Error(UpstreamError {
                    code: e.error.status,
                    message: e.error.message,
                }))
            }
            GeminiEvent::Unknown { error, .. } => Err(self.error(TurnErrorKind::Decode(*error))),
            #[allow(unreachable_patterns)]
            _ => Ok(()),
        }
    }

    fn response<W: TurnWriter + ?Sized>(
        &mut self,
        r: &GenerateContentResponse<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if !self.started {
            self.started = true;
            out.write(&TurnEvent::Start(TurnStart {
                id: r.response_id,
                model: r.model_version,
                created: None,
            }))?;
        }
        // The counts first: a writer that opens its message at the first
        // part (Anthropic) reports the input known then.
        if let Some(u) = &r.usage_metadata {
            let thoughts = u.thoughts_token_count;
            out.write(&TurnEvent::Usage(TurnUsage {
                input: u.prompt_token_count,
                output: u
                    .candidates_token_count
                    .map(|c| c.saturating_add(thoughts.unwrap_or(0))),
                cached: u.cached_content_token_count,
                reasoning: thoughts,
            }))?;
        }
        if let Some(f) = &r.prompt_feedback {
            if let Some(raw) = f.block_reason {
                self.stopped = true;
                out.write(&TurnEvent::Stop(Stop {
                    reason: StopReason::ContentFilter,
                    raw: Some(raw),
                }))?;
            }
        }
        for candidate in r.candidates.into_iter().flatten() {
            let candidate = candidate.map_err(|e| self.error(TurnErrorKind::Decode(e)))?;
            if candidate.index_or_zero() != 0 {
                self.skipped += 1;
                continue;
            }
            for part in candidate
                .content
                .and_then(|c| c.parts)
                .into_iter()
                .flatten()
            {
                let part = part.map_err(|e| self.error(TurnErrorKind::Decode(e)))?;
                self.part(&part, out)?;
            }
            if let Some(raw) = candidate.finish_reason {
                self.stopped = true;
                let reason = match raw.as_str() {
                    Some("STOP") => StopReason::EndTurn,
                    Some("MAX_TOKENS") => StopReason::MaxTokens,
                    Some(
                        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII"
                        | "IMAGE_SAFETY",
                    ) => StopReason::ContentFilter,
                    _ => StopReason::Error,
                };
                out.write(&TurnEvent::Stop(Stop {
                    reason,
                    raw: Some(raw),
                }))?;
            }
        }
        Ok(())
    }

    fn end_prose<W: TurnWriter + ?Sized>(&mut self, out: &mut W) -> Result<(), TurnError> {
        match self.prose.take() {
            Some((index, _)) => out.write(&TurnEvent::ItemEnd { index, whole: None }),
            None => Ok(()),
        }
    }

    fn part<W: TurnWriter + ?Sized>(
        &mut self,
        part: &Part<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if let Some(call) = &part.function_call {
            self.end_prose(out)?;
            let limit = self.max_items;
            if self.calls >= limit {
                return Err(self.error(TurnErrorKind::TooManyItems { limit }));
            }
            self.calls += 1;
            let index = self.items;
            self.items += 1;
            out.write(&TurnEvent::ItemStart {
                index,
                item: ItemKind::ToolCall {
                    call_id: call.id,
                    name: call.name,
                },
            })?;
            let args = call.args.map_or("{}", |a| a.get());
            let text = as_json_str(args, &mut self.scratch);
            out.write(&TurnEvent::Delta {
                index,
                kind: DeltaKind::Arguments,
                part: 0,
                text,
            })?;
            if let Some(sig) = part.thought_signature {
                out.write(&TurnEvent::Delta {
                    index,
                    kind: DeltaKind::Signature,
                    part: 0,
                    text: sig,
                })?;
            }
            return out.write(&TurnEvent::ItemEnd { index, whole: None });
        }
        let kind = if part.is_thought() {
            DeltaKind::Reasoning
        } else {
            DeltaKind::Text
        };
        if let Some(text) = part.text.filter(|t| !t.is_empty()) {
            let index = self.prose(kind, out)?;
            out.write(&TurnEvent::Delta {
                index,
                kind,
                part: 0,
                text,
            })?;
        }
        if let Some(sig) = part.thought_signature.filter(|s| !s.is_empty()) {
            let index = self.prose(kind, out)?;
            out.write(&TurnEvent::Delta {
                index,
                kind: DeltaKind::Signature,
                part: 0,
                text: sig,
            })?;
        }
        Ok(())
    }

    fn prose<W: TurnWriter + ?Sized>(
        &mut self,
        kind: DeltaKind,
        out: &mut W,
    ) -> Result<u64, TurnError> {
        if let Some((index, k)) = self.prose {
            if k == kind {
                return Ok(index);
            }
        }
        self.end_prose(out)?;
        let index = self.items;
        self.items += 1;
        self.prose = Some((index, kind));
        let item = if kind == DeltaKind::Reasoning {
            ItemKind::Reasoning
        } else {
            ItemKind::Message
        };
        out.write(&TurnEvent::ItemStart { index, item })?;
        Ok(index)
    }
}

impl TurnReader for GeminiReader {
    fn read<W: TurnWriter + ?Sized>(
        &mut self,
        frame: &Frame,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        let event = GeminiEvent::from_frame(frame)
            .map_err(|e| TurnError::new(TurnErrorKind::Decode(e), at))?;
        self.event(&event, out).map_err(|e| e.at(at))
    }

    fn finish<W: TurnWriter + ?Sized>(&mut self, out: &mut W) -> Result<(), TurnError> {
        if self.ended {
            return Ok(());
        }
        if !self.stopped {
            return Err(TurnError::new(TurnErrorKind::Truncated, self.events));
        }
        // A Gemini stream has no end event: the body's end is the end.
        self.end_prose(out).map_err(|e| e.at(self.events))?;
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
