//! `GeminiLinter`: the lint core over the Gemini reader, and the rules of
//! what google-genai and @ai-sdk/google need of a Gemini stream.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;

use super::core::Core;
use super::linter::LintConfig;
use super::rule::{Finding, Rule, Severity};
use crate::dialect::Dialect;
use crate::frame::{Frame, FrameError};
use crate::gemini::{Candidate, GeminiError, GeminiEvent, GenerateContentResponse, Part};
use crate::json::ObjectView;
use crate::turn::{GeminiReader, TurnConfig, TurnReader};

/// What the linter tracks of one candidate.
#[derive(Debug, Clone, Copy)]
struct CandidateState {
    /// A chunk gave it a `finishReason`.
    finished: bool,
    /// Every chunk of it so far had a `finishReason` (Vertex AI's way).
    every_chunk_finished: bool,
    /// A function call part of it came.
    called: bool,
    /// Content after its `finishReason` was reported (once per candidate).
    late_reported: bool,
    /// A function call with streamed arguments is open: its first part
    /// said `willContinue: true`.
    streaming: bool,
}

/// Checks a Gemini stream (`streamGenerateContent?alt=sse`, Gemini API or
/// Vertex AI) against what its clients need.
///
/// The shared checks come from the Gemini [reader](crate::turn::GeminiReader)
/// replaying the stream (each chunk decodes; nothing follows an error
/// chunk; candidate 0 ends with a `finishReason`, or the prompt was
/// blocked). Beside them, the rules of the two clients that parse these
/// streams, google-genai (Python) and @ai-sdk/google:
///
/// * every `data:` is one JSON object: `[DONE]` is `done-sentinel`, an
///   **error** here (google-genai raises `UnknownApiResponseError` on it);
/// * a `functionCall` part arrives whole, with its `name`
///   (`function-call-without-name`; a call without one is dropped) and
///   its `args` an object (`invalid-arguments`), an `id` once
///   (`duplicate-item`: clients would run the call twice). Parts of
///   streamed arguments (`partialArgs`, `willContinue`, and the empty
///   `functionCall` that may end them) are exempt;
/// * a turn that thought (thought parts or `thoughtsTokenCount`) signs its
///   first function call (`missing-thought-signature`, a warning: the next
///   request of a Gemini 3 model is refused without it);
/// * the `finishReason` comes on a candidate's last chunk: content after
///   it is `event-after-item-done`, a warning once per candidate (clients
///   keep reading), and
///   none at all is `missing-finish-reason` (the stream was cut, and
///   clients cannot tell). Vertex AI sends a `finishReason` on every chunk;
///   a candidate whose every chunk has one is fine;
/// * an error chunk is `{"error": {…}}` with `error` first
///   (`error-not-first`: google-genai recognises an error chunk by its
///   serialized text starting with `{"error":`, and reads any other as an
///   empty answer) and an integer `code`, a `message` and a `status`
///   (`incomplete-error`, a warning: google-genai compares the code with
///   400, @ai-sdk/google's schema requires the strings);
/// * the token counts come in `usageMetadata` (`missing-usage`, a
///   warning, when no chunk had it and no error ended the stream).
///
/// Tracked candidates are capped by [`LintConfig::max_items`], function
/// call ids by [`LintConfig::max_parts`] and their bytes by
/// [`LintConfig::max_text_bytes`].
///
/// ```
/// use ssekit::lint::{lint_bytes, GeminiLinter, Rule};
///
/// let stream = concat!(
///     "data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"args\":{}}}],\"role\":\"model\"}}]}\r\n\r\n",
///     "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"\"}],\"role\":\"model\"},\"finishReason\":\"STOP\"}],",
///     "\"usageMetadata\":{\"promptTokenCount\":3,\"totalTokenCount\":3}}\r\n\r\n",
/// );
/// let found: Vec<(Rule, u64)> = lint_bytes(GeminiLinter::new(), stream.as_bytes())
///     .iter()
///     .map(|f| (f.rule(), f.offset()))
///     .collect();
/// assert_eq!(found, [(Rule::FunctionCallWithoutName, 0)]);
/// ```
#[derive(Debug)]
pub struct GeminiLinter {
    core: Core,
    reader: GeminiReader,
    candidates: BTreeMap<u64, CandidateState>,
    call_ids: BTreeSet<String>,
    call_id_bytes: usize,
    thinking: bool,
    blocked: bool,
    chunks: u64,
    limit_reported: bool,
}

impl Default for GeminiLinter {
    fn default() -> Self {
        Self::new()
    }
}

impl GeminiLinter {
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
            core: Core::new(Dialect::Gemini, config),
            reader: GeminiReader::new(&turn),
            candidates: BTreeMap::new(),
            call_ids: BTreeSet::new(),
            call_id_bytes: 0,
            thinking: false,
            blocked: false,
            chunks: 0,
            limit_reported: false,
        }
    }

    /// Checks one event whose block begins at `offset` in the stream.
    pub fn feed(&mut self, frame: &Frame, offset: u64) {
        if frame.data().trim() == "[DONE]" {
            return self.core.reports.report(
                Rule::DoneSentinel,
                Severity::Error,
                (offset, None),
                "`data: [DONE]`, which Gemini does not send (google-genai fails to parse it \
                 as JSON and raises)"
                    .into(),
            );
        }
        let Ok(event) = GeminiEvent::from_frame(frame) else {
            // Not a JSON object: the reader says so, as for every dialect.
            let read = self.reader.read(frame, &mut self.core.observed);
            return self.core.read(read, offset);
        };
        let failed = self.core.observed.failed;
        let read = self.reader.read_event(&event, &mut self.core.observed);
        self.core.read(read, offset);
        if failed {
            // After an error chunk only the core's finding counts.
            return;
        }
        match &event {
            GeminiEvent::Response(r) => self.response(r, offset),
            GeminiEvent::Error(e) => self.error_chunk(&event, &e.error, offset),
            _ => {}
        }
    }

    fn response(&mut self, r: &GenerateContentResponse<'_>, offset: u64) {
        self.chunks += 1;
        if r.usage_metadata
            .as_ref()
            .and_then(|u| u.thoughts_token_count)
            .is_some_and(|n| n > 0)
        {
            self.thinking = true;
        }
        if r.prompt_feedback
            .as_ref()
            .is_some_and(|f| f.block_reason.is_some())
        {
            self.blocked = true;
        }
        // Candidates and parts that do not decode are the core's findings.
        for candidate in r.candidates.into_iter().flatten().flatten() {
            self.candidate(&candidate, offset);
        }
    }

    fn candidate(&mut self, candidate: &Candidate<'_>, offset: u64) {
        let index = candidate.index_or_zero();
        if !self.candidates.contains_key(&index) {
            if self.candidates.len() >= self.core.config.max_items {
                return self.limit(offset, "candidates", self.core.config.max_items);
            }
            self.candidates.insert(
                index,
                CandidateState {
                    finished: false,
                    every_chunk_finished: true,
                    called: false,
                    late_reported: false,
                    streaming: false,
                },
            );
        }
        let Some(mut state) = self.candidates.get(&index).copied() else {
            return;
        };
        let finishes = candidate.finish_reason.is_some();
        state.every_chunk_finished &= finishes;
        let mut adds = false;
        for part in candidate
            .content
            .as_ref()
            .and_then(|c| c.parts)
            .into_iter()
            .flatten()
            .flatten()
        {
            adds |= adds_content(&part);
            if part.is_thought() {
                self.thinking = true;
            }
            self.part(index, &part, &mut state, offset);
        }
        if adds && state.finished && !state.every_chunk_finished && !state.late_reported {
            state.late_reported = true;
            self.core.reports.report(
                Rule::EventAfterItemDone,
                Severity::Warning,
                (offset, None),
                format!(
                    "candidate {index}: content after its `finishReason` (the API sends it on \
                     the candidate's last chunk; clients keep reading)"
                ),
            );
        }
        state.finished |= finishes;
        self.candidates.insert(index, state);
    }

    fn part(&mut self, index: u64, part: &Part<'_>, state: &mut CandidateState, offset: u64) {
        let Some(call) = &part.function_call else {
            return;
        };
        if call.partial_args.is_some() || call.will_continue.is_some() {
            // A fragment of streamed arguments: named on its first part
            // only, its arguments in `partialArgs`; the last says
            // `willContinue` no more.
            state.streaming = call.will_continue == Some(true);
            return;
        }
        if state.streaming && call.name.is_none() && call.args.is_none() && call.id.is_none() {
            // An empty `functionCall` ends streamed arguments.
            state.streaming = false;
            return;
        }
        let first = !core::mem::replace(&mut state.called, true);
        if call.name.is_none() {
            self.core.reports.rule(
                Rule::FunctionCallWithoutName,
                offset,
                format!(
                    "candidate {index}: a `functionCall` without `name` (clients drop it or \
                     cannot dispatch it)"
                ),
            );
        }
        if let Some(args) = call.args {
            if !args.get().starts_with('{') {
                self.core.reports.rule(
                    Rule::InvalidArguments,
                    offset,
                    format!(
                        "candidate {index}: `functionCall.args` is not a JSON object \
                         (google-genai's `args` is a dict; a call arrives whole, not in \
                         fragments)"
                    ),
                );
            }
        }
        if let Some(id) = call.id {
            let id = id.unescape();
            if self.call_ids.contains(id.as_ref()) {
                self.core.reports.rule(
                    Rule::DuplicateItem,
                    offset,
                    format!(
                        "candidate {index}: function call id `{id}` in a second part (clients \
                         run the call twice: a call arrives whole, in one part)"
                    ),
                );
            } else if self.call_ids.len() >= self.core.config.max_parts
                || self.call_id_bytes + id.len() > self.core.config.max_text_bytes
            {
                self.limit(offset, "function call ids", self.core.config.max_parts);
            } else {
                self.call_id_bytes += id.len();
                self.call_ids.insert(id.into_owned());
            }
        }
        if first && self.thinking && part.thought_signature.is_none() {
            self.core.reports.rule(
                Rule::MissingThoughtSignature,
                offset,
                format!(
                    "candidate {index}: a turn that thought, and its first function call has no \
                     `thoughtSignature` (Gemini 3 refuses the next request without it)"
                ),
            );
        }
    }

    fn error_chunk(&mut self, event: &GeminiEvent<'_>, error: &GeminiError<'_>, offset: u64) {
        let first = ObjectView::parse(event.raw().get())
            .ok()
            .and_then(|o| o.members().next().map(|(key, _)| key == "error"));
        if first == Some(false) {
            self.core.reports.rule(
                Rule::ErrorNotFirst,
                offset,
                "an error chunk whose first member is not `error` (google-genai recognises \
                 errors by the chunk's text starting with `{\"error\":` and reads this one as an \
                 empty answer)"
                    .into(),
            );
        }
        let missing = [
            (error.code.is_none(), "`code`"),
            (error.message.is_none(), "`message`"),
            (error.status.is_none(), "`status`"),
        ];
        let mut list = String::new();
        for (_, name) in missing.iter().filter(|(absent, _)| *absent) {
            if !list.is_empty() {
                list.push_str(", ");
            }
            list.push_str(name);
        }
        if !list.is_empty() {
            self.core.reports.rule(
                Rule::IncompleteError,
                offset,
                format!(
                    "an error object without {list} (google-genai compares the integer `code` \
                     with 400; @ai-sdk/google's schema requires `message` and `status`)"
                ),
            );
        }
    }

    fn limit(&mut self, offset: u64, what: &str, cap: usize) {
        if !core::mem::replace(&mut self.limit_reported, true) {
            self.core.reports.rule(
                Rule::LimitReached,
                offset,
                format!("more than {cap} {what}: later ones are not checked"),
            );
        }
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
        if !self.core.observed.failed && !self.blocked {
            // Candidate 0 is the reader's (above); the others are read by
            // no reader, and checked here.
            for (index, _) in self
                .candidates
                .iter()
                .filter(|(i, s)| **i != 0 && !s.finished)
            {
                self.core.reports.rule(
                    Rule::MissingFinishReason,
                    end_offset,
                    format!("candidate {index} never got a `finishReason` (the stream was cut?)"),
                );
            }
        }
        if self.chunks > 0 && !self.core.observed.usage && !self.core.observed.failed {
            self.core.reports.rule(
                Rule::MissingUsage,
                end_offset,
                "no chunk had `usageMetadata` (clients report no token counts)".into(),
            );
        }
        self.core.reports.finish(end_offset);
    }
}

/// Whether a part adds to the answer (a signature alone, or empty text,
/// does not).
fn adds_content(part: &Part<'_>) -> bool {
    part.text.is_some_and(|t| !t.is_empty())
        || part.function_call.is_some()
        || part.inline_data.is_some()
        || part.file_data.is_some()
        || part.executable_code.is_some()
        || part.code_execution_result.is_some()
        || part.function_response.is_some()
}

impl super::FrameLinter for GeminiLinter {
    fn feed(&mut self, frame: &Frame, offset: u64) {
        GeminiLinter::feed(self, frame, offset);
    }
    fn frame_error(&mut self, error: &FrameError) {
        GeminiLinter::frame_error(self, error);
    }
    fn finish_at(&mut self, end_offset: u64) {
        GeminiLinter::finish_at(self, end_offset);
    }
    fn next_finding(&mut self) -> Option<Finding> {
        self.core.reports.next()
    }
    fn count(&self, severity: Severity) -> u64 {
        self.core.reports.count(severity)
    }
}
