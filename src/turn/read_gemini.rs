//! The Gemini reader.

use alloc::string::String;

use super::{
    as_json_str, DeltaKind, Dialect, Extra, ItemKind, Stop, StopReason, TurnConfig, TurnError,
    TurnErrorKind, TurnEvent, TurnReader, TurnStart, TurnUsage, TurnWriter, UpstreamError,
};
use crate::frame::Frame;
use crate::gemini::partial_args::ArgsText;
use crate::gemini::{
    Candidate, FunctionCall, GeminiEvent, GenerateContentResponse, Part, PartKind,
};
use crate::json::{JsonStr, RawJson};

/// Reads a Gemini stream (`streamGenerateContent?alt=sse`, candidate 0)
/// into turn events.
///
/// | upstream | model |
/// | --- | --- |
/// | the first chunk's `responseId`, `modelVersion` | start |
/// | a `text` part | a message item, text |
/// | a `text` part with `thought: true` | a reasoning item, reasoning text |
/// | a `thoughtSignature` | a signature of the item of its part (a function call's, or the open text's); for a writer that keeps [`Extra`] members (a final answer), it also ends the text's item, so that it stays on its part |
/// | a `functionCall` part (it arrives whole, one per chunk) | a tool call item of its own: start, its `args` as one arguments fragment, end |
/// | a `functionCall` part with streamed arguments (`partialArgs`, `willContinue`; Vertex AI) | one tool call item over its parts: start at the first, each part's pieces as an arguments fragment (the text of the arguments object so far, see below), end at the part without `willContinue: true` or at an empty `functionCall` |
/// | any other part (`executableCode`, `codeExecutionResult`, `inlineData`, `fileData`, `functionResponse`, a kind this version does not model) | an item of its own, [`ItemKind::Other`] with the part's member name and its JSON as it came: start, end |
/// | `usageMetadata` (each replaces the last) | usage: `promptTokenCount` in, `candidatesTokenCount + thoughtsTokenCount` out, `cachedContentTokenCount`, `thoughtsTokenCount` |
/// | `finishReason` (the last one counts; Vertex AI sends one on every chunk) | stop: `STOP` → end of turn, `MAX_TOKENS`, `SAFETY`/`RECITATION`/`BLOCKLIST`/`PROHIBITED_CONTENT`/`SPII`/`IMAGE_SAFETY` → content filter, others → error |
/// | a `promptFeedback.blockReason` | stop: content filter |
/// | the end of the body after a `finishReason` | end |
/// | an error chunk | error |
///
/// Candidates other than 0 are counted ([`TurnReader::skipped`]) and their
/// indexes kept ([`other_candidates`](Self::other_candidates)); a reader
/// made with [`candidate`](Self::candidate) reads another one instead.
/// A reader and a [`TurnAccumulator`](crate::accumulate::TurnAccumulator)
/// per candidate, written out together by
/// [`write_choices_json`](super::write_choices_json), keep every candidate
/// of a response.
///
/// What a `GenerateContentResponse` holds beyond the model is handed on as
/// [`Extra`] members of the turn, for a Gemini rendering of the final
/// answer: the response's `usageMetadata` and `promptFeedback` (each
/// replacing the last), its first `createTime`, and an error chunk's
/// `error` object; candidate 0's `index` (once, when it first comes), its
/// content's first `role`, `finishMessage`, `safetyRatings`,
/// `groundingMetadata`, `groundingAttributions`, `urlContextMetadata`,
/// `logprobsResult`, `avgLogprobs` and `tokenCount` (each replacing the
/// last), and its `citationMetadata` lists (`citationSources`,
/// `citations`, appended).
///
/// Streamed arguments come as values at JSON paths (`{"jsonPath":
/// "$.city", "stringValue": "Par", "willContinue": true}`, a string
/// continued at the same path in the next part); the reader writes them
/// as JSON text in the order they come (`{"city":"Par`, then `is"`, and
/// the closing `}` with the last part), so the fragments of the call
/// spell its arguments object as Chat's or Anthropic's do. Pieces out of
/// document order (an array index skipped, a key where an array is open)
/// or a path it cannot read are [`TurnErrorKind::InvalidArguments`],
/// reported to the writer ([`TurnWriter::fault`]) after the text of the
/// part's other pieces, which is written: the fragments always spell a
/// prefix of a JSON object. A call still streaming when the body ends, or
/// when a part naming a function starts the next call, is closed with what
/// came.
#[derive(Debug, Clone)]
pub struct GeminiReader {
    max_items: usize,
    events: u64,
    started: bool,
    prose: Option<(u64, DeltaKind)>,
    items: u64,
    calls: usize,
    stopped: bool,
    ended: bool,
    scratch: String,
    /// The tool call whose arguments are streaming, and their text.
    streamed: Option<(u64, ArgsText)>,
    args: String,
    /// A `createTime` was handed on (the first one counts).
    create_time: bool,
    /// Candidate 0 came.
    candidate: bool,
    /// Its `role` was handed on (the first one counts).
    role: bool,
    /// A number written out for an [`Extra`].
    number: String,
    /// The candidate read, the others seen and their pieces skipped.
    pick: super::Pick,
}

/// A fragment of item `index` (Gemini items have one part).
fn fragment<'a>(index: u64, kind: DeltaKind, text: JsonStr<'a>) -> TurnEvent<'a> {
    TurnEvent::Delta {
        index,
        kind,
        part: 0,
        text,
    }
}

/// Hands on a Gemini member of the final answer, to a writer that keeps
/// them.
fn put<W: TurnWriter + ?Sized>(
    out: &mut W,
    item: Option<u64>,
    key: &str,
    raw: RawJson<'_>,
) -> Result<(), TurnError> {
    if !out.wants_extras() {
        return Ok(());
    }
    out.write(&TurnEvent::Extra(Extra::new(
        Dialect::Gemini,
        item,
        key,
        raw,
    )))
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
            scratch: String::new(),
            streamed: None,
            args: String::new(),
            create_time: false,
            candidate: false,
            role: false,
            number: String::new(),
            pick: super::Pick::default(),
        }
    }

    /// Reads candidate `index` instead of candidate 0.
    #[must_use]
    pub fn candidate(mut self, index: u64) -> Self {
        self.pick.own = index;
        self
    }

    /// The indexes of the candidates this reader saw and did not read, in
    /// increasing order (at most
    /// [`MAX_OTHER_CHOICES`](super::MAX_OTHER_CHOICES) of them).
    pub fn other_candidates(&self) -> impl Iterator<Item = u64> + '_ {
        self.pick.others()
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
                // The error object as it came (its numeric `code` has no
                // word in the model), for the Gemini accumulator.
                put(out, None, "error", e.error.raw())?;
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
        self.head(r, out)?;
        for candidate in r.candidates.into_iter().flatten() {
            let candidate = match candidate {
                Ok(c) => c,
                Err(e) => {
                    out.fault(self.error(TurnErrorKind::Decode(e)))?;
                    continue;
                }
            };
            let index = candidate.index_or_zero();
            if !self.pick.is_own(index) {
                continue;
            }
            self.candidate_body(&candidate, out)?;
        }
        Ok(())
    }

    /// Reads what one chunk says beside its candidates (start, usage,
    /// prompt feedback, `createTime`), as [`read_event`](Self::read_event)
    /// does, and none of its candidates: for a reader of a response's own
    /// members, beside a reader per candidate fed by
    /// [`read_candidate`](Self::read_candidate).
    ///
    /// # Errors
    ///
    /// As [`TurnReader::read`].
    pub(crate) fn read_head<W: TurnWriter + ?Sized>(
        &mut self,
        r: &GenerateContentResponse<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        if self.ended {
            return Err(self.error(TurnErrorKind::ContentAfterFinish));
        }
        self.head(r, out).map_err(|e| e.at(at))
    }

    /// Reads one candidate of chunk `r` as if it were this reader's own
    /// (its index is not checked), and nothing else of the chunk but its
    /// start: each candidate of a response read by a reader of its own,
    /// whatever chunk it first comes in, costs the candidate's size only.
    ///
    /// # Errors
    ///
    /// As [`TurnReader::read`].
    pub(crate) fn read_candidate<W: TurnWriter + ?Sized>(
        &mut self,
        r: &GenerateContentResponse<'_>,
        candidate: &Candidate<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        if self.ended {
            return Err(self.error(TurnErrorKind::ContentAfterFinish));
        }
        let r = self
            .start(r, out)
            .and_then(|()| self.candidate_body(candidate, out));
        r.map_err(|e| e.at(at))
    }

    fn start<W: TurnWriter + ?Sized>(
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
        Ok(())
    }

    fn head<W: TurnWriter + ?Sized>(
        &mut self,
        r: &GenerateContentResponse<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.start(r, out)?;
        if let Some(t) = r.create_time.filter(|_| !self.create_time) {
            self.create_time = true;
            put(out, None, "createTime", t.as_raw_json())?;
        }
        if let Some(f) = &r.prompt_feedback {
            put(out, None, "promptFeedback", f.raw())?;
        }
        // The counts first: a writer that opens its message at the first
        // part (Anthropic) reports the input known then.
        if let Some(u) = &r.usage_metadata {
            put(out, None, "usageMetadata", u.raw())?;
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
        Ok(())
    }

    /// Reads the candidate this reader reads.
    fn candidate_body<W: TurnWriter + ?Sized>(
        &mut self,
        candidate: &Candidate<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if out.wants_extras() {
            self.candidate_extras(candidate, out)?;
        }
        for part in candidate
            .content
            .as_ref()
            .and_then(|c| c.parts)
            .into_iter()
            .flatten()
        {
            match part {
                Ok(part) => self.part(&part, out)?,
                // A part that does not decode: a fault, and the
                // candidate's other parts are read on for a writer that
                // goes on.
                Err(e) => out.fault(self.error(TurnErrorKind::Decode(e)))?,
            }
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
        Ok(())
    }

    /// Hands on what candidate 0 says beyond the model (see the type docs).
    fn candidate_extras<W: TurnWriter + ?Sized>(
        &mut self,
        c: &Candidate<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        use core::fmt::Write;
        if !self.candidate {
            self.candidate = true;
            self.number.clear();
            let _ = write!(self.number, "{}", self.pick.own);
            put(out, None, "index", RawJson::new(&self.number))?;
        }
        if let Some(role) = c.content.as_ref().and_then(|c| c.role) {
            if !self.role {
                self.role = true;
                put(out, None, "role", role.as_raw_json())?;
            }
        }
        if let Some(m) = c.finish_message {
            put(out, None, "finishMessage", m.as_raw_json())?;
        }
        if let Some(list) = c.safety_ratings {
            put(out, None, "safetyRatings", list.as_raw_json())?;
        }
        if let Some(m) = &c.citation_metadata {
            for (key, list) in [
                ("citationSources", m.citation_sources),
                ("citations", m.citations),
            ] {
                if let Some(list) = list {
                    let e = Extra::new(Dialect::Gemini, None, key, list.as_raw_json());
                    if out.wants_extras() {
                        out.write(&TurnEvent::Extra(e.appended()))?;
                    }
                }
            }
        }
        if let Some(g) = &c.grounding_metadata {
            put(out, None, "groundingMetadata", g.raw())?;
        }
        for (key, raw) in [
            ("groundingAttributions", c.grounding_attributions),
            ("urlContextMetadata", c.url_context_metadata),
            ("logprobsResult", c.logprobs_result),
        ] {
            if let Some(raw) = raw {
                put(out, None, key, raw)?;
            }
        }
        if let Some(x) = c.avg_logprobs.filter(|x| x.is_finite()) {
            self.number.clear();
            let _ = write!(self.number, "{x:?}");
            put(out, None, "avgLogprobs", RawJson::new(&self.number))?;
        }
        if let Some(n) = c.token_count {
            self.number.clear();
            let _ = write!(self.number, "{n}");
            put(out, None, "tokenCount", RawJson::new(&self.number))?;
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
            if call.partial_args.is_some() || call.will_continue.is_some() {
                return self.streamed_call(part, call, out);
            }
            let empty = call.name.is_none() && call.args.is_none() && call.id.is_none();
            if empty && self.streamed.is_some() {
                // An empty `functionCall` ends streamed arguments.
                return self.end_streamed(out);
            }
            self.end_streamed(out)?;
            self.end_prose(out)?;
            let index = self.open_call(call, out)?;
            let args = call.args.map_or("{}", |a| a.get());
            let text = as_json_str(args, &mut self.scratch);
            out.write(&fragment(index, DeltaKind::Arguments, text))?;
            if let Some(sig) = part.thought_signature {
                out.write(&fragment(index, DeltaKind::Signature, sig))?;
            }
            return out.write(&TurnEvent::ItemEnd { index, whole: None });
        }
        let part_kind = part.kind();
        if !matches!(part_kind, PartKind::Text | PartKind::Thought) && !part.is_bare() {
            // Code, its result, data, parts this version does not model:
            // carried as they came, for a writer of Gemini to write back.
            self.end_prose(out)?;
            let other = ItemKind::Other {
                dialect: super::Dialect::Gemini,
                ty: part_kind.key(),
                raw: Some(part.raw()),
            };
            let index = self.open_item(other, out)?;
            return out.write(&TurnEvent::ItemEnd { index, whole: None });
        }
        let kind = if part.is_thought() {
            DeltaKind::Reasoning
        } else {
            DeltaKind::Text
        };
        if let Some(text) = part.text.filter(|t| !t.is_empty()) {
            let index = self.prose(kind, out)?;
            out.write(&fragment(index, kind, text))?;
        }
        if let Some(sig) = part.thought_signature.filter(|s| !s.is_empty()) {
            let index = self.prose(kind, out)?;
            out.write(&fragment(index, DeltaKind::Signature, sig))?;
            if out.wants_extras() {
                // For a final answer in Gemini's shape: the signature stays
                // on the part it came with (the API asks for it back
                // there), so the text after it is a part of its own. A
                // writer of a stream gets one item per run of text.
                self.end_prose(out)?;
            }
        }
        Ok(())
    }

    /// One part of a call whose arguments stream (see the type docs).
    fn streamed_call<W: TurnWriter + ?Sized>(
        &mut self,
        part: &Part<'_>,
        call: &FunctionCall<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if call.name.is_some() {
            // A named part starts a call (continuations carry no name): one
            // still streaming ends here, with what came.
            self.end_streamed(out)?;
        }
        let index = match &self.streamed {
            Some((index, _)) => *index,
            None => {
                self.end_prose(out)?;
                let index = self.open_call(call, out)?;
                self.streamed = Some((index, ArgsText::default()));
                index
            }
        };
        let mut text = core::mem::take(&mut self.args);
        text.clear();
        // A refused piece adds no text, so what the others add is written
        // whatever the fault: the fragments stay a prefix of a JSON object.
        let fault = self.pieces(call, &mut text);
        if !text.is_empty() {
            let piece = as_json_str(&text, &mut self.scratch);
            let written = out.write(&fragment(index, DeltaKind::Arguments, piece));
            if let Err(e) = written {
                self.args = text;
                return Err(e);
            }
        }
        self.args = text;
        if let Some(fault) = fault {
            // An error for a writer that stops at it; a linter hears it and
            // the rest of the part (its signature, its end) is read on.
            out.fault(fault)?;
        }
        if let Some(sig) = part.thought_signature.filter(|s| !s.is_empty()) {
            out.write(&fragment(index, DeltaKind::Signature, sig))?;
        }
        if call.will_continue != Some(true) {
            self.streamed = None;
            out.write(&TurnEvent::ItemEnd { index, whole: None })?;
        }
        Ok(())
    }

    /// The text one part's pieces add to the streaming call's arguments
    /// (and their closing, at its last part). A piece that does not decode
    /// or is out of document order is left out (it adds no text) and the
    /// first such fault is returned.
    fn pieces(&mut self, call: &FunctionCall<'_>, text: &mut String) -> Option<TurnError> {
        let (_, args) = self.streamed.as_mut()?;
        let at = self.events.saturating_sub(1);
        let mut fault = None;
        if let Some(whole) = call.args {
            args.seed(whole.get(), text);
        }
        for piece in call.partial_args.into_iter().flatten() {
            let kind = match piece {
                Ok(piece) => match args.push(&piece, text) {
                    Ok(()) => continue,
                    Err(_) => TurnErrorKind::InvalidArguments,
                },
                Err(e) => TurnErrorKind::Decode(e),
            };
            fault.get_or_insert(TurnError::new(kind, at));
        }
        if call.will_continue != Some(true) {
            args.finish(text);
        }
        fault
    }

    /// Closes the call whose arguments are streaming, if one is.
    fn end_streamed<W: TurnWriter + ?Sized>(&mut self, out: &mut W) -> Result<(), TurnError> {
        let Some((index, mut args)) = self.streamed.take() else {
            return Ok(());
        };
        let mut text = core::mem::take(&mut self.args);
        text.clear();
        args.finish(&mut text);
        let piece = as_json_str(&text, &mut self.scratch);
        let result = out
            .write(&fragment(index, DeltaKind::Arguments, piece))
            .and_then(|()| out.write(&TurnEvent::ItemEnd { index, whole: None }));
        self.args = text;
        result
    }

    /// Opens a tool call item for `call`, within the limit.
    fn open_call<W: TurnWriter + ?Sized>(
        &mut self,
        call: &FunctionCall<'_>,
        out: &mut W,
    ) -> Result<u64, TurnError> {
        let call = ItemKind::ToolCall {
            call_id: call.id,
            name: call.name,
        };
        self.open_item(call, out)
    }

    /// Opens a tool call or a carried part as the next item, within the
    /// limit on both together.
    fn open_item<W: TurnWriter + ?Sized>(
        &mut self,
        item: ItemKind<'_>,
        out: &mut W,
    ) -> Result<u64, TurnError> {
        let limit = self.max_items;
        if self.calls >= limit {
            return Err(self.error(TurnErrorKind::TooManyItems { limit }));
        }
        self.calls += 1;
        let index = self.items;
        self.items += 1;
        out.write(&TurnEvent::ItemStart { index, item })?;
        Ok(index)
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
            // Cut: a call whose arguments were streaming is still closed
            // with what came (its fragments then spell a JSON object).
            self.end_streamed(out).map_err(|e| e.at(self.events))?;
            return Err(TurnError::new(TurnErrorKind::Truncated, self.events));
        }
        // A Gemini stream has no end event: the body's end is the end.
        self.end_streamed(out).map_err(|e| e.at(self.events))?;
        self.end_prose(out).map_err(|e| e.at(self.events))?;
        self.ended = true;
        out.write(&TurnEvent::End)
    }

    fn events(&self) -> u64 {
        self.events
    }

    fn skipped(&self) -> u64 {
        self.pick.skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accumulate::TurnAccumulator;
    use crate::Parser;
    use bytes::Bytes;
    use serde_json::{json, Value as J};

    fn read(stream: &str) -> super::super::FinalTurn {
        let mut p = Parser::new();
        p.feed(Bytes::copy_from_slice(stream.as_bytes()));
        let mut reader = GeminiReader::default();
        let mut acc = TurnAccumulator::new().from_dialect(Dialect::Gemini);
        while let Ok(Some(f)) = p.next_frame() {
            acc.read(&mut reader, &f).unwrap();
        }
        acc.finish_reader(&mut reader).unwrap();
        acc.into_turn()
    }

    fn j(s: &str) -> J {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn members_beyond_the_model_are_handed_on() {
        let turn = read(concat!(
            "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}],\"role\":\"model\"},",
            "\"citationMetadata\":{\"citations\":[{\"uri\":\"a\"}]},\"safetyRatings\":[{\"p\":1}]}],",
            "\"usageMetadata\":{\"promptTokenCount\":2,\"trafficType\":\"X\"},",
            "\"createTime\":\"t1\",\"responseId\":\"r\"}\n\n",
            "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"!\"}]},",
            "\"citationMetadata\":{\"citations\":[{\"uri\":\"b\"}]},\"safetyRatings\":[{\"p\":2}],",
            "\"finishReason\":\"STOP\",\"finishMessage\":\"done\",\"avgLogprobs\":-0.5,\"tokenCount\":3},",
            "{\"index\":1,\"finishMessage\":\"other\"}],",
            "\"usageMetadata\":{\"promptTokenCount\":2,\"candidatesTokenCount\":3},\"createTime\":\"t2\"}\n\n",
        ));
        let g = |k| turn.extra(Dialect::Gemini, k).map(j);
        assert_eq!(g("index"), Some(json!(0)));
        assert_eq!(g("createTime"), Some(json!("t1")), "the first one counts");
        assert_eq!(g("citations"), Some(json!([{"uri": "a"}, {"uri": "b"}])));
        assert_eq!(g("safetyRatings"), Some(json!([{"p": 2}])));
        assert_eq!(
            g("finishMessage"),
            Some(json!("done")),
            "candidate 1's is not read"
        );
        assert_eq!(g("avgLogprobs"), Some(json!(-0.5)));
        assert_eq!(g("tokenCount"), Some(json!(3)));
        assert_eq!(
            g("usageMetadata"),
            Some(json!({"promptTokenCount": 2, "candidatesTokenCount": 3}))
        );
        assert_eq!(g("citationSources"), None);
        assert_eq!(turn.extra(Dialect::Chat, "index"), None);

        let gemini = j(&turn.to_json(Dialect::Gemini));
        assert_eq!(
            gemini,
            json!({
                "candidates": [{
                    "content": {"parts": [{"text": "Hi!"}], "role": "model"},
                    "finishReason": "STOP",
                    "finishMessage": "done",
                    "safetyRatings": [{"p": 2}],
                    "citationMetadata": {"citations": [{"uri": "a"}, {"uri": "b"}]},
                    "avgLogprobs": -0.5,
                    "tokenCount": 3,
                    "index": 0
                }],
                "usageMetadata": {"promptTokenCount": 2, "candidatesTokenCount": 3},
                "responseId": "r",
                "createTime": "t1"
            })
        );
        // Another dialect's shape is not given Gemini's members.
        let chat = turn.to_json(Dialect::Chat);
        assert!(!chat.contains("safetyRatings") && !chat.contains("citations"));
    }

    #[test]
    fn a_blocked_prompt_has_no_candidates() {
        let turn = read(concat!(
            "data: {\"promptFeedback\":{\"blockReason\":\"SAFETY\"},",
            "\"usageMetadata\":{\"promptTokenCount\":4}}\n\n",
        ));
        assert_eq!(
            j(&turn.to_json(Dialect::Gemini)),
            json!({
                "promptFeedback": {"blockReason": "SAFETY"},
                "usageMetadata": {"promptTokenCount": 4}
            })
        );
    }

    #[test]
    fn a_named_part_starts_the_next_streamed_call() {
        let turn = read(concat!(
            "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\",",
            "\"partialArgs\":[{\"jsonPath\":\"$.a\",\"numberValue\":1}],\"willContinue\":true}}],",
            "\"role\":\"model\"}}]}\n\n",
            "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"g\",",
            "\"partialArgs\":[{\"jsonPath\":\"$.b\",\"stringValue\":\"x\"}]}}],",
            "\"role\":\"model\"},\"finishReason\":\"STOP\"}]}\n\n",
        ));
        let calls: alloc::vec::Vec<(String, J)> = turn
            .items()
            .iter()
            .map(|i| match i.kind() {
                crate::turn::FinalItemKind::ToolCall { name, .. } => {
                    (name.clone().unwrap_or_default(), j(i.arguments()))
                }
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            calls,
            [
                ("f".into(), json!({"a": 1})),
                ("g".into(), json!({"b": "x"}))
            ]
        );
        assert!(turn.items().iter().all(|i| i.is_done()));
    }

    #[test]
    fn each_candidate_is_read_by_a_reader_of_its_own() {
        let stream = concat!(
            "data: {\"candidates\":[{\"index\":2,\"content\":{\"parts\":[{\"text\":\"two\"}]},",
            "\"finishReason\":\"STOP\"},{\"content\":{\"parts\":[{\"text\":\"zero\"}]}}],",
            "\"responseId\":\"r\"}\n\n",
            "data: {\"candidates\":[{\"index\":1,\"content\":{\"parts\":[{\"text\":\"one\"}]},",
            "\"finishReason\":\"MAX_TOKENS\"},{\"index\":0,\"finishReason\":\"STOP\"}]}\n\n",
        );
        let mut p = Parser::new();
        p.feed(Bytes::copy_from_slice(stream.as_bytes()));
        let mut frames = alloc::vec::Vec::new();
        while let Ok(Some(f)) = p.next_frame() {
            frames.push(f);
        }
        let read = |mut reader: GeminiReader| {
            let mut acc = TurnAccumulator::new().from_dialect(Dialect::Gemini);
            for f in &frames {
                acc.read(&mut reader, f).unwrap();
            }
            acc.finish_reader(&mut reader).unwrap();
            (reader, acc.into_turn())
        };
        let (first, zero) = read(GeminiReader::default());
        let others: alloc::vec::Vec<u64> = first.other_candidates().collect();
        assert_eq!(others, [1, 2]);
        let mut turns = alloc::vec![zero];
        for k in others {
            turns.push(read(GeminiReader::default().candidate(k)).1);
        }
        assert_eq!(turns[2].items()[0].text(), "two");
        let refs: alloc::vec::Vec<&super::super::FinalTurn> = turns.iter().collect();
        let mut out = String::new();
        super::super::write_choices_json(Dialect::Gemini, &refs, &mut out);
        // No role came: none is written.
        let part = |t: &str| json!({"parts": [{"text": t}]});
        assert_eq!(
            j(&out),
            json!({
                "candidates": [
                    {"content": part("zero"), "finishReason": "STOP", "index": 0},
                    {"content": part("one"), "finishReason": "MAX_TOKENS", "index": 1},
                    {"content": part("two"), "finishReason": "STOP", "index": 2}
                ],
                "responseId": "r"
            })
        );
    }

    #[test]
    fn a_writer_of_streams_is_handed_no_extras() {
        #[derive(Default)]
        struct Count(usize, usize);
        impl TurnWriter for Count {
            fn write(&mut self, e: &TurnEvent<'_>) -> Result<(), TurnError> {
                match e {
                    TurnEvent::Extra(_) => self.0 += 1,
                    _ => self.1 += 1,
                }
                Ok(())
            }
            fn fail(&mut self, _: &str, _: &str) {}
            fn take(&mut self) -> Bytes {
                Bytes::new()
            }
            fn is_finished(&self) -> bool {
                false
            }
        }
        let frame = crate::Frame::new(
            "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}]},\"finishReason\":\"STOP\",\"safetyRatings\":[]}],\"usageMetadata\":{\"promptTokenCount\":1}}",
        );
        let mut count = Count::default();
        GeminiReader::default().read(&frame, &mut count).unwrap();
        assert_eq!(count.0, 0);
        assert!(count.1 > 0);
        let mut acc = TurnAccumulator::new();
        GeminiReader::default().read(&frame, &mut acc).unwrap();
        assert!(acc.turn().extra(Dialect::Gemini, "usageMetadata").is_some());
    }
}
