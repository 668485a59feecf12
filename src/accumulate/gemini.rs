//! The Gemini accumulator: [`GeminiEvent`]s in, the final
//! [`GeminiResponse`] (a `GenerateContentResponse`) out.
//!
//! A Gemini stream sends each candidate's content in chunks keyed by the
//! candidate's `index` (0 when omitted): new parts to append, the finish
//! reason on the last chunk (some servers repeat it on every chunk), safety
//! ratings, citations and grounding metadata, and on every chunk the
//! cumulative `usageMetadata`. There is no end marker: the stream just ends.
//! [`GeminiAccumulator`] joins the parts by candidate, whatever order the
//! candidates come in.
//!
//! See [`GeminiAccumulator`] for an example.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use core::mem::size_of;

use super::dialect::{
    by_index, event_result, note, push_owned, replace_owned, set_once, Budget, DEFAULT_MAX_BYTES,
};
use super::{AccumulateError, AccumulateErrorKind, Outcome};
use crate::gemini::partial_args::ArgsText;
use crate::gemini::{
    Candidate as CandidateView, CitationSource, FunctionCall, GeminiError, GeminiEvent,
    GenerateContentResponse, GroundingMetadata, List, Owned, Part as PartView, PartKind,
    PromptFeedback, UsageMetadata,
};
use crate::json::push_compact as compact;
use crate::json::{JsonError, JsonErrorKind, JsonStr, ObjectWriter, RawJson};

/// Assembles a Gemini `streamGenerateContent` stream into the final
/// [`GeminiResponse`].
///
/// Feed it every event with [`feed`](Self::feed); read the response so far
/// at any time with [`snapshot`](Self::snapshot) (borrowed, nothing copied);
/// at the end of the stream call [`finish`](Self::finish), which decides the
/// [`Outcome`]: [`Failed`](Outcome::Failed) when an error chunk arrived;
/// [`Completed`](Outcome::Completed) when at least one candidate arrived and
/// every candidate has a `finishReason`, or when the prompt was blocked
/// (`promptFeedback.blockReason`, and no candidate); otherwise
/// [`Truncated`](Outcome::Truncated). Gemini streams have no end marker, so
/// a stream cut after the chunk with the finish reason (or one whose server
/// repeats the finish reason on every chunk) cannot be told from a complete
/// one.
///
/// # What it keeps
///
/// * From the chunks: `responseId`, `modelVersion` and `createTime` (from
///   the first chunk that has each), the last `promptFeedback` and the last
///   `usageMetadata` (cumulative, so the last is final).
/// * Per candidate, by `index`: the `role` (the first sent), the parts, the
///   last non-null `finishReason`, `finishMessage`, `safetyRatings`,
///   `groundingMetadata`, `urlContextMetadata`, `groundingAttributions`,
///   `logprobsResult`, `avgLogprobs` and `tokenCount`, and the citation
///   sources of every chunk, in order.
/// * Parts: consecutive text parts of the same kind (answer or thought) are
///   concatenated into one, until a part with a `thoughtSignature` closes
///   it (the signature stays on the part it came with, so that it can be
///   sent back as the API asks); a part with only a `thoughtSignature` goes
///   onto the text part before it when that one has none. Every other part
///   (function calls, which arrive whole, code and its results, inline data,
///   kinds this version does not model) is kept as it came.
/// * A function call whose arguments stream (Vertex AI: `partialArgs`,
///   `willContinue`) is one part, `{"functionCall": {"id", "name", "args"},
///   "thoughtSignature"}`, its `args` the object the pieces spell (see
///   [`GeminiReader`](crate::turn::GeminiReader), which reads them the same
///   way), closed at the part without `willContinue: true`, at an empty
///   `functionCall`, at a whole call, or at [`finish`](Self::finish). A
///   piece that does not continue the arguments is dropped with
///   [`AccumulateErrorKind::InvalidInput`].
/// * An error chunk as [`error`](GeminiResponse::error) (the last one; it is
///   kept even past the memory limit, as it replaces the one before).
///
/// A chunk of an unexpected shape ([`GeminiEvent::Unknown`]) is counted
/// ([`unknown_chunks`](GeminiResponse::unknown_chunks)) and reported as an
/// [`AccumulateErrorKind::Decode`] error; nothing of it is kept.
///
/// # Memory and cost
///
/// Everything kept counts against a limit (64 MiB by default;
/// [`GeminiAccumulatorConfig::max_bytes`]): the text and JSON kept, and a
/// fixed amount per candidate and part, so that a stream of sparse indexes
/// cannot exhaust memory either. What does not fit is dropped with
/// [`AccumulateErrorKind::TooManyBytes`] and the response ends
/// [`Truncated`](Outcome::Truncated). The number of distinct candidate
/// indexes is limited too ([`DEFAULT_MAX_CANDIDATES`];
/// [`GeminiAccumulatorConfig::max_candidates`]): a part for one more
/// is dropped with [`AccumulateErrorKind::TooManyChoices`] (candidates are
/// Gemini's choices) and the response ends truncated. Candidates are in a map by index
/// (O(log n) to find one, nothing shifted on insert), and parts are only
/// ever appended, so the work is linear in the input whatever its order.
///
/// # Example
///
/// ```
/// use ssekit::accumulate::{GeminiAccumulator, Outcome};
/// use ssekit::gemini::GeminiEvent;
/// use ssekit::{Bytes, Parser};
///
/// let body = concat!(
///     r#"data: {"candidates": [{"content": {"parts": [{"text": "Let me think.", "thought": true}],"role": "model"}}],"usageMetadata": {"promptTokenCount": 5,"totalTokenCount": 5},"modelVersion": "gemini-2.5-flash","responseId": "r1"}"#, "\r\n\r\n",
///     r#"data: {"candidates": [{"content": {"parts": [{"text": "Hello"}],"role": "model"}}],"usageMetadata": {"promptTokenCount": 5,"totalTokenCount": 7},"modelVersion": "gemini-2.5-flash","responseId": "r1"}"#, "\r\n\r\n",
///     r#"data: {"candidates": [{"content": {"parts": [{"text": ", world", "thoughtSignature": "c2ln"}],"role": "model"},"finishReason": "STOP"}],"usageMetadata": {"promptTokenCount": 5,"candidatesTokenCount": 4,"totalTokenCount": 9},"modelVersion": "gemini-2.5-flash","responseId": "r1"}"#, "\r\n\r\n",
/// );
/// let mut parser = Parser::new();
/// parser.feed(Bytes::from_static(body.as_bytes()));
/// let mut acc = GeminiAccumulator::new();
/// while let Some(frame) = parser.next_frame()? {
///     acc.feed(&GeminiEvent::from_frame(&frame)?)?;
/// }
/// let response = acc.finish();
/// assert_eq!(response.outcome(), Outcome::Completed);
/// let candidate = response.candidate(0).unwrap();
/// assert_eq!(candidate.text(), "Hello, world");
/// assert_eq!(candidate.thoughts(), "Let me think.");
/// assert_eq!(response.usage().unwrap().get().total_token_count, Some(9));
/// assert_eq!(
///     response.to_json(),
///     r#"{"candidates":[{"content":{"parts":[{"text":"Let me think.","thought":true},{"text":"Hello, world","thoughtSignature":"c2ln"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":4,"totalTokenCount":9},"modelVersion":"gemini-2.5-flash","responseId":"r1"}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct GeminiAccumulator {
    response: GeminiResponse,
    budget: Budget,
    events: u64,
    config: GeminiAccumulatorConfig,
}

config! {
    /// Limits of a [`GeminiAccumulator`], built like
    /// [`ResponsesAccumulatorConfig`](super::ResponsesAccumulatorConfig) and the crate's other
    /// configurations: `DEFAULT` (or `default()`) with `with_*` builders, or
    /// public fields set one by one.
    ///
    /// ```
    /// use ssekit::accumulate::{GeminiAccumulator, GeminiAccumulatorConfig};
    ///
    /// let config = GeminiAccumulatorConfig::DEFAULT.with_max_candidates(8);
    /// let acc = GeminiAccumulator::with_config(config);
    /// assert_eq!(acc.config().max_candidates, 8);
    /// assert_eq!(acc.config().max_bytes, 64 << 20);
    /// ```
    pub struct GeminiAccumulatorConfig {
        /// The bytes kept (see [Memory](GeminiAccumulator#memory-and-cost)).
        /// Default 64 MiB.
        max_bytes: usize = DEFAULT_MAX_BYTES, with_max_bytes;
        /// Distinct candidate indexes. Default [`DEFAULT_MAX_CANDIDATES`].
        max_candidates: usize = DEFAULT_MAX_CANDIDATES, with_max_candidates;
    }
}

/// The default limit on distinct candidate indexes
/// ([`GeminiAccumulatorConfig::max_candidates`]): 1024 (the API allows
/// `candidateCount` up to 8).
pub const DEFAULT_MAX_CANDIDATES: usize = 1024;

impl Default for GeminiAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

impl GeminiAccumulator {
    /// An empty accumulator with the default [`GeminiAccumulatorConfig`].
    pub fn new() -> Self {
        Self::with_config(GeminiAccumulatorConfig::default())
    }

    /// An empty accumulator with the given limits.
    pub fn with_config(config: GeminiAccumulatorConfig) -> Self {
        Self {
            response: GeminiResponse::default(),
            budget: Budget::new(config.max_bytes),
            events: 0,
            config,
        }
    }

    /// The limits this accumulator was made with.
    pub fn config(&self) -> &GeminiAccumulatorConfig {
        &self.config
    }

    /// The bytes counted against the limit so far.
    pub fn used_bytes(&self) -> usize {
        self.budget.used()
    }

    /// The number of events pushed.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Adds one event.
    ///
    /// Cost: O(size of the event), plus O(log n) to find each candidate by
    /// index.
    ///
    /// # Errors
    ///
    /// An [`AccumulateError`] when part of the event could not be kept: a
    /// chunk of an unexpected shape or an element that does not decode
    /// ([`AccumulateErrorKind::Decode`]), or data past the memory limit
    /// ([`AccumulateErrorKind::TooManyBytes`]). The rest of the event is
    /// applied, the accumulator stays usable, and the first such problem of
    /// the event is returned.
    pub fn feed(&mut self, event: &GeminiEvent<'_>) -> Result<(), AccumulateError> {
        let number = self.events;
        self.events += 1;
        let mut first = None;
        match event {
            GeminiEvent::Response(chunk) => self.chunk(chunk, &mut first),
            GeminiEvent::Error(e) => {
                // Kept whatever the limit (it replaces the last one): a
                // failure must never read as a cut.
                self.response.error = Some(e.error.to_owned());
            }
            GeminiEvent::Unknown { error, .. } => {
                self.response.unknown += 1;
                first = Some(AccumulateErrorKind::Decode(*error));
            }
        }
        event_result(first, number, &mut self.response.limit_hit)
    }

    /// The response so far. Borrowed: nothing is copied. Its
    /// [`outcome`](GeminiResponse::outcome) is
    /// [`InProgress`](Outcome::InProgress).
    pub fn snapshot(&self) -> &GeminiResponse {
        &self.response
    }

    /// Ends the stream and returns the response, with its
    /// [`outcome`](GeminiResponse::outcome) decided (see the
    /// [type docs](Self)).
    #[must_use]
    pub fn finish(self) -> GeminiResponse {
        let mut r = self.response;
        for c in r.candidates.values_mut() {
            c.end_streamed();
        }
        let blocked = r.candidates.is_empty() && r.block_reason().is_some();
        r.status = if r.error.is_some() {
            Outcome::Failed
        } else if r.limit_hit {
            Outcome::Truncated
        } else if blocked
            || (!r.candidates.is_empty()
                && r.candidates.values().all(|c| c.finish_reason.is_some()))
        {
            Outcome::Completed
        } else {
            Outcome::Truncated
        };
        r
    }

    fn chunk(
        &mut self,
        chunk: &GenerateContentResponse<'_>,
        first: &mut Option<AccumulateErrorKind>,
    ) {
        let b = &mut self.budget;
        let max_candidates = self.config.max_candidates;
        let r = &mut self.response;
        r.chunks += 1;
        note(first, set_once(b, &mut r.response_id, chunk.response_id));
        note(
            first,
            set_once(b, &mut r.model_version, chunk.model_version),
        );
        note(first, set_once(b, &mut r.create_time, chunk.create_time));
        if let Some(feedback) = &chunk.prompt_feedback {
            note(
                first,
                replace_owned(b, &mut r.prompt_feedback, feedback.to_owned()),
            );
        }
        if let Some(usage) = &chunk.usage_metadata {
            note(first, replace_owned(b, &mut r.usage, usage.to_owned()));
        }
        for candidate in chunk.candidates.into_iter().flatten() {
            match candidate {
                Ok(c) => apply_candidate(b, max_candidates, &mut r.candidates, &c, first),
                Err(e) => note(first, Err(AccumulateErrorKind::Decode(e))),
            }
        }
    }
}

/// Puts `value` (unescaped) in `slot`, giving back the old one's bytes.
fn set_last(
    b: &mut Budget,
    slot: &mut Option<String>,
    value: Option<JsonStr<'_>>,
) -> Result<(), AccumulateErrorKind> {
    match value {
        Some(v) => b.replace(slot, &v.unescape()),
        None => Ok(()),
    }
}

/// Puts raw JSON text in `slot`, giving back the old one's bytes.
fn set_raw(
    b: &mut Budget,
    slot: &mut Option<String>,
    value: Option<RawJson<'_>>,
) -> Result<(), AccumulateErrorKind> {
    match value {
        Some(v) => b.replace(slot, v.get()),
        None => Ok(()),
    }
}

fn apply_candidate(
    b: &mut Budget,
    max_candidates: usize,
    candidates: &mut BTreeMap<u64, Candidate>,
    view: &CandidateView<'_>,
    first: &mut Option<AccumulateErrorKind>,
) {
    let index = view.index_or_zero();
    let c = match by_index(
        b,
        candidates,
        index,
        max_candidates,
        |limit| AccumulateErrorKind::TooManyChoices { limit },
        || Candidate::new(index),
    ) {
        Ok(c) => c,
        Err(e) => return note(first, Err(e)),
    };
    if let Some(content) = &view.content {
        note(first, set_once(b, &mut c.role, content.role));
        for part in content.parts.into_iter().flatten() {
            match part {
                Ok(part) => note(first, c.push_part(b, &part)),
                Err(e) => note(first, Err(AccumulateErrorKind::Decode(e))),
            }
        }
    }
    note(first, set_last(b, &mut c.finish_reason, view.finish_reason));
    note(
        first,
        set_last(b, &mut c.finish_message, view.finish_message),
    );
    if let Some(list) = view.safety_ratings {
        note(
            first,
            set_raw(b, &mut c.safety_ratings, Some(list.as_raw_json())),
        );
    }
    if let Some(citations) = &view.citation_metadata {
        note(
            first,
            extend(b, &mut c.citation_sources, citations.citation_sources),
        );
        note(first, extend(b, &mut c.citations, citations.citations));
    }
    if let Some(g) = &view.grounding_metadata {
        note(
            first,
            replace_owned(b, &mut c.grounding_metadata, g.to_owned()),
        );
    }
    note(
        first,
        set_raw(
            b,
            &mut c.grounding_attributions,
            view.grounding_attributions,
        ),
    );
    note(
        first,
        set_raw(b, &mut c.url_context_metadata, view.url_context_metadata),
    );
    note(
        first,
        set_raw(b, &mut c.logprobs_result, view.logprobs_result),
    );
    if view.avg_logprobs.is_some() {
        c.avg_logprobs = view.avg_logprobs;
    }
    if view.token_count.is_some() {
        c.token_count = view.token_count;
    }
}

/// Appends the sources of `list` to `kept`; the first problem is returned.
fn extend(
    b: &mut Budget,
    kept: &mut Vec<Owned<CitationSource<'static>>>,
    list: Option<List<'_, CitationSource<'_>>>,
) -> Result<(), AccumulateErrorKind> {
    let mut problem = Ok(());
    for source in list.into_iter().flatten() {
        let r = match source {
            Ok(s) => push_owned(b, kept, s.to_owned()),
            Err(e) => Err(AccumulateErrorKind::Decode(e)),
        };
        if let (Ok(()), Err(e)) = (&problem, r) {
            problem = Err(e);
        }
    }
    problem
}

/// A Gemini response assembled from a stream: the `GenerateContentResponse`
/// the same request would have returned from `generateContent`, plus how
/// the stream ended.
///
/// Made by [`GeminiAccumulator`]. [`to_json`](Self::to_json) writes it in
/// the API's shape; with the `serde` feature it implements
/// `serde::Serialize` in the same shape.
#[derive(Debug, Clone, Default)]
pub struct GeminiResponse {
    response_id: Option<String>,
    model_version: Option<String>,
    create_time: Option<String>,
    candidates: BTreeMap<u64, Candidate>,
    prompt_feedback: Option<Owned<PromptFeedback<'static>>>,
    usage: Option<Owned<UsageMetadata<'static>>>,
    error: Option<Owned<GeminiError<'static>>>,
    chunks: u64,
    unknown: u64,
    limit_hit: bool,
    status: Outcome,
}

impl GeminiResponse {
    /// The response ID, from the first chunk that has one.
    pub fn response_id(&self) -> Option<&str> {
        self.response_id.as_deref()
    }
    /// The model version, from the first chunk that names it.
    pub fn model_version(&self) -> Option<&str> {
        self.model_version.as_deref()
    }
    /// When the request was received (Vertex AI), from the first chunk that
    /// has it.
    pub fn create_time(&self) -> Option<&str> {
        self.create_time.as_deref()
    }
    /// The candidates, in `index` order.
    pub fn candidates(&self) -> impl ExactSizeIterator<Item = &Candidate> + '_ {
        self.candidates.values()
    }
    /// The candidate with this `index`. O(log n).
    pub fn candidate(&self, index: u64) -> Option<&Candidate> {
        self.candidates.get(&index)
    }
    /// The last `promptFeedback` sent.
    pub fn prompt_feedback(&self) -> Option<&Owned<PromptFeedback<'static>>> {
        self.prompt_feedback.as_ref()
    }
    /// Why the prompt was blocked (`promptFeedback.blockReason`), if it was.
    pub fn block_reason(&self) -> Option<String> {
        let feedback = self.prompt_feedback.as_ref()?;
        feedback
            .get()
            .block_reason
            .map(|r| r.unescape().into_owned())
    }
    /// The last `usageMetadata` sent (cumulative, so the final counts).
    pub fn usage(&self) -> Option<&Owned<UsageMetadata<'static>>> {
        self.usage.as_ref()
    }
    /// The error sent in the stream (the last one if there were several).
    pub fn error(&self) -> Option<&Owned<GeminiError<'static>>> {
        self.error.as_ref()
    }
    /// The number of `GenerateContentResponse` chunks accumulated.
    pub fn chunks(&self) -> u64 {
        self.chunks
    }
    /// The number of chunks of an unexpected shape, skipped.
    pub fn unknown_chunks(&self) -> u64 {
        self.unknown
    }
    /// Whether data was dropped at the memory limit.
    pub fn limit_exceeded(&self) -> bool {
        self.limit_hit
    }
    /// How the stream ended: [`InProgress`](Outcome::InProgress) until
    /// [`GeminiAccumulator::finish`], then as its docs say.
    pub fn outcome(&self) -> Outcome {
        self.status
    }
    /// Whether the stream ended early ([`Outcome::Truncated`]).
    pub fn is_truncated(&self) -> bool {
        self.status == Outcome::Truncated
    }

    /// The response as compact JSON text, in the shape of the API's
    /// `GenerateContentResponse`: `candidates` (when any arrived; each with
    /// `content` {`parts`, `role`}, then `finishReason`, `finishMessage`,
    /// `safetyRatings`, `citationMetadata`, `groundingMetadata`,
    /// `groundingAttributions`, `urlContextMetadata`, `logprobsResult`,
    /// `avgLogprobs`, `tokenCount` when present, and `index`), then
    /// `promptFeedback`, `usageMetadata`, `modelVersion`, `responseId` and
    /// `createTime` when present. Objects kept as they came (usage, feedback,
    /// non-text parts) are written as they came, less the whitespace between
    /// tokens. The stream's status and
    /// error are not part of this object (see [`outcome`](Self::outcome) and
    /// [`error`](Self::error)).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends [`to_json`](Self::to_json)'s text to `out`.
    pub fn write_json(&self, out: &mut String) {
        let mut w = ObjectWriter::new(out);
        if !self.candidates.is_empty() {
            let out = w.key("candidates");
            out.push('[');
            for (i, c) in self.candidates.values().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                c.write_json(out);
            }
            out.push(']');
        }
        if let Some(f) = &self.prompt_feedback {
            compact(w.key("promptFeedback"), f.as_str());
        }
        if let Some(u) = &self.usage {
            compact(w.key("usageMetadata"), u.as_str());
        }
        w.opt_str("modelVersion", self.model_version());
        w.opt_str("responseId", self.response_id());
        w.opt_str("createTime", self.create_time());
        w.end();
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for GeminiResponse {
    /// Serializes [`to_json`](Self::to_json)'s object.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        super::dialect::serialize_json_text(&self.to_json(), s)
    }
}

/// One candidate of a [`GeminiResponse`], assembled from its chunks.
#[derive(Debug, Clone)]
pub struct Candidate {
    index: u64,
    role: Option<String>,
    parts: Vec<Part>,
    finish_reason: Option<String>,
    finish_message: Option<String>,
    safety_ratings: Option<String>,
    citation_sources: Vec<Owned<CitationSource<'static>>>,
    citations: Vec<Owned<CitationSource<'static>>>,
    grounding_metadata: Option<Owned<GroundingMetadata<'static>>>,
    grounding_attributions: Option<String>,
    url_context_metadata: Option<String>,
    logprobs_result: Option<String>,
    avg_logprobs: Option<f64>,
    token_count: Option<u64>,
    /// The part of the function call whose arguments are streaming.
    streaming: Option<usize>,
}

impl Candidate {
    fn new(index: u64) -> Self {
        Self {
            index,
            role: None,
            parts: Vec::new(),
            finish_reason: None,
            finish_message: None,
            safety_ratings: None,
            citation_sources: Vec::new(),
            citations: Vec::new(),
            grounding_metadata: None,
            grounding_attributions: None,
            url_context_metadata: None,
            logprobs_result: None,
            avg_logprobs: None,
            token_count: None,
            streaming: None,
        }
    }

    /// Adds one part of a function call whose arguments stream.
    fn push_streamed(
        &mut self,
        b: &mut Budget,
        part: &PartView<'_>,
        call: &FunctionCall<'_>,
    ) -> Result<(), AccumulateErrorKind> {
        let at = match self.streaming {
            Some(at) => at,
            None => {
                b.charge(size_of::<Part>() + size_of::<StreamedCall>())?;
                let mut streamed = StreamedCall::default();
                set_once(b, &mut streamed.id, call.id)?;
                set_once(b, &mut streamed.name, call.name)?;
                self.parts.push(Part {
                    kind: PartKind::FunctionCall,
                    thought: false,
                    text: None,
                    thought_signature: None,
                    json: None,
                    streamed: Some(alloc::boxed::Box::new(streamed)),
                });
                self.streaming = Some(self.parts.len() - 1);
                self.parts.len() - 1
            }
        };
        let Some(streamed) = self
            .parts
            .get_mut(at)
            .and_then(|p| p.streamed.as_deref_mut())
        else {
            return Ok(());
        };
        let mut problem = Ok(());
        let start = streamed.args.len();
        if let Some(args) = call.args.filter(|_| !streamed.over_budget) {
            streamed.text.seed(args.get(), &mut streamed.args);
        }
        let pieces = call.partial_args.filter(|_| !streamed.over_budget);
        for piece in pieces.into_iter().flatten() {
            let r = match piece {
                Ok(piece) => streamed.text.push(&piece, &mut streamed.args).map_err(|_| {
                    AccumulateErrorKind::InvalidInput {
                        index: at as u64,
                        error: JsonError::new(JsonErrorKind::ExpectedValue, streamed.args.len()),
                    }
                }),
                Err(e) => Err(AccumulateErrorKind::Decode(e)),
            };
            if problem.is_ok() {
                problem = r;
            }
        }
        if let Err(e) = b.charge(streamed.args.len() - start) {
            // Cut back to the start of this part, the text would no longer
            // match the state of the pieces read: the arguments are dropped
            // whole (closed as `{}`), with the error.
            streamed.args.clear();
            streamed.text = ArgsText::default();
            streamed.over_budget = true;
            problem = problem.and(Err(e));
        }
        let signed = set_once(b, &mut streamed.signature, part.thought_signature);
        if call.will_continue != Some(true) {
            self.end_streamed();
        }
        problem.and(signed)
    }

    /// Closes the function call whose arguments are streaming, if one is:
    /// its part gets its JSON.
    fn end_streamed(&mut self) {
        let Some(at) = self.streaming.take() else {
            return;
        };
        if let Some(part) = self.parts.get_mut(at) {
            if let Some(streamed) = part.streamed.take() {
                let mut json = String::new();
                streamed.write_json(&mut json);
                part.json = Some(json);
            }
        }
    }

    /// Adds one part (see [What it keeps](GeminiAccumulator#what-it-keeps)).
    fn push_part(
        &mut self,
        b: &mut Budget,
        part: &PartView<'_>,
    ) -> Result<(), AccumulateErrorKind> {
        if let Some(call) = &part.function_call {
            if call.partial_args.is_some() || call.will_continue.is_some() {
                return self.push_streamed(b, part, call);
            }
            let empty = call.name.is_none() && call.args.is_none() && call.id.is_none();
            if empty && self.streaming.is_some() {
                // An empty `functionCall` ends streamed arguments.
                self.end_streamed();
                return Ok(());
            }
            self.end_streamed();
        }
        let kind = part.kind();
        let signature = part.thought_signature;
        let open = self
            .parts
            .last_mut()
            .filter(|last| last.text.is_some() && last.thought_signature.is_none());
        match (kind, part.text) {
            (PartKind::Text | PartKind::Thought, Some(text)) => {
                let thought = kind == PartKind::Thought;
                let last = match open {
                    Some(last) if last.kind == kind => last,
                    _ => {
                        b.charge(size_of::<Part>())?;
                        self.parts.push(Part::new_text(kind, thought));
                        let at = self.parts.len() - 1;
                        &mut self.parts[at]
                    }
                };
                let slot = last.text.get_or_insert_with(String::new);
                b.append(slot, text, 1)?;
                set_once(b, &mut last.thought_signature, signature)
            }
            // Only a signature: it closes the text part before it.
            (PartKind::Other, None) if signature.is_some() && open.is_some() && part.is_bare() => {
                match open {
                    Some(last) => set_once(b, &mut last.thought_signature, signature),
                    None => Ok(()),
                }
            }
            _ => {
                let raw = part.raw().get();
                b.charge(size_of::<Part>() + raw.len())?;
                self.parts.push(Part {
                    kind,
                    thought: part.is_thought(),
                    text: None,
                    thought_signature: None,
                    json: Some(String::from(raw)),
                    streamed: None,
                });
                Ok(())
            }
        }
    }

    /// The candidate's index.
    pub fn index(&self) -> u64 {
        self.index
    }
    /// The content's role (the first one sent).
    pub fn role(&self) -> Option<&str> {
        self.role.as_deref()
    }
    /// The parts, in order.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }
    /// The answer's text: every text part that is not a thought,
    /// concatenated.
    pub fn text(&self) -> String {
        self.joined(PartKind::Text)
    }
    /// The thoughts' text: every thought part, concatenated.
    pub fn thoughts(&self) -> String {
        self.joined(PartKind::Thought)
    }
    fn joined(&self, kind: PartKind) -> String {
        self.parts
            .iter()
            .filter(|p| p.kind == kind)
            .filter_map(Part::text)
            .collect()
    }
    /// The last `finishReason` sent; `None` while the candidate is unfinished.
    pub fn finish_reason(&self) -> Option<&str> {
        self.finish_reason.as_deref()
    }
    /// The last `finishMessage` sent.
    pub fn finish_message(&self) -> Option<&str> {
        self.finish_message.as_deref()
    }
    /// The last `safetyRatings` sent, as JSON text (an array).
    pub fn safety_ratings(&self) -> Option<&str> {
        self.safety_ratings.as_deref()
    }
    /// The citation sources of every chunk, in order (`citationSources`,
    /// then Vertex AI's `citations`).
    pub fn citation_sources(&self) -> impl Iterator<Item = &Owned<CitationSource<'static>>> + '_ {
        self.citation_sources.iter().chain(&self.citations)
    }
    /// The last `groundingMetadata` sent.
    pub fn grounding_metadata(&self) -> Option<&Owned<GroundingMetadata<'static>>> {
        self.grounding_metadata.as_ref()
    }
    /// The last `avgLogprobs` sent.
    pub fn avg_logprobs(&self) -> Option<f64> {
        self.avg_logprobs
    }
    /// The last `tokenCount` sent.
    pub fn token_count(&self) -> Option<u64> {
        self.token_count
    }

    fn write_json(&self, out: &mut String) {
        let mut w = ObjectWriter::new(out);
        let out = w.key("content");
        let mut content = ObjectWriter::new(out);
        let out = content.key("parts");
        out.push('[');
        for (i, part) in self.parts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            part.write_json(out);
        }
        out.push(']');
        content.opt_str("role", self.role());
        content.end();
        w.opt_str("finishReason", self.finish_reason());
        w.opt_str("finishMessage", self.finish_message());
        if let Some(s) = &self.safety_ratings {
            compact(w.key("safetyRatings"), s);
        }
        if !self.citation_sources.is_empty() || !self.citations.is_empty() {
            let out = w.key("citationMetadata");
            let mut m = ObjectWriter::new(out);
            for (key, list) in [
                ("citationSources", &self.citation_sources),
                ("citations", &self.citations),
            ] {
                if !list.is_empty() {
                    let out = m.key(key);
                    out.push('[');
                    for (i, s) in list.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        compact(out, s.as_str());
                    }
                    out.push(']');
                }
            }
            m.end();
        }
        if let Some(g) = &self.grounding_metadata {
            compact(w.key("groundingMetadata"), g.as_str());
        }
        for (key, value) in [
            ("groundingAttributions", &self.grounding_attributions),
            ("urlContextMetadata", &self.url_context_metadata),
            ("logprobsResult", &self.logprobs_result),
        ] {
            if let Some(v) = value {
                compact(w.key(key), v);
            }
        }
        if let Some(x) = self.avg_logprobs {
            use core::fmt::Write;
            let _ = write!(w.key("avgLogprobs"), "{x:?}");
        }
        if let Some(n) = self.token_count {
            w.u64("tokenCount", n);
        }
        w.u64("index", self.index);
        w.end();
    }
}

/// One part of a [`Candidate`]: a text or thought part assembled from the
/// text parts of consecutive chunks, or any other part as it came.
#[derive(Debug, Clone)]
pub struct Part {
    kind: PartKind,
    thought: bool,
    text: Option<String>,
    thought_signature: Option<String>,
    /// The part's JSON text, for the parts kept as they came.
    json: Option<String>,
    /// A function call whose arguments are still streaming.
    streamed: Option<alloc::boxed::Box<StreamedCall>>,
}

/// A function call whose arguments are streaming: what its parts gave so
/// far.
#[derive(Debug, Clone, Default)]
struct StreamedCall {
    id: Option<String>,
    name: Option<String>,
    /// The arguments' text so far.
    args: String,
    text: ArgsText,
    /// The arguments went over the byte budget: they are given as `{}`
    /// and later pieces are not read.
    over_budget: bool,
    signature: Option<String>,
}

impl StreamedCall {
    /// The part's JSON: the call, its arguments closed where they stand.
    fn write_json(&self, out: &mut String) {
        let mut w = ObjectWriter::new(out);
        let call = w.key("functionCall");
        let mut c = ObjectWriter::new(call);
        c.opt_str("id", self.id.as_deref());
        c.opt_str("name", self.name.as_deref());
        let args = c.key("args");
        args.push_str(&self.args);
        self.text.closing(args);
        c.end();
        w.opt_str("thoughtSignature", self.signature.as_deref());
        w.end();
    }
}

impl Part {
    fn new_text(kind: PartKind, thought: bool) -> Self {
        Self {
            kind,
            thought,
            text: None,
            thought_signature: None,
            json: None,
            streamed: None,
        }
    }

    /// What the part holds.
    pub fn kind(&self) -> PartKind {
        self.kind
    }
    /// Whether the part is a thought (`thought: true`).
    pub fn is_thought(&self) -> bool {
        self.thought
    }
    /// The text of a text or thought part, concatenated.
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }
    /// The `thoughtSignature` of a text or thought part (parts kept as they
    /// came have theirs in [`json`](Self::json)).
    pub fn thought_signature(&self) -> Option<&str> {
        self.thought_signature.as_deref()
    }
    /// A part kept as it came (function call, code, data, unknown kinds):
    /// its JSON text, as sent; for a function call whose arguments
    /// streamed, the call assembled from its parts (`None` while they
    /// stream). `None` for text and thought parts.
    pub fn json(&self) -> Option<&str> {
        self.json.as_deref()
    }
    /// A part kept as it came, as a view (see [`json`](Self::json)).
    pub fn view(&self) -> Option<PartView<'_>> {
        let json = self.json.as_deref()?;
        let value = crate::json::Value::parse(json).ok()?;
        <PartView<'_> as crate::views::Field<'_>>::from_value(value, json).ok()
    }

    fn write_json(&self, out: &mut String) {
        if let Some(json) = &self.json {
            compact(out, json);
            return;
        }
        if let Some(streamed) = &self.streamed {
            let start = out.len();
            streamed.write_json(out);
            // Seeded `args` may hold whitespace between tokens.
            let written = out.split_off(start);
            compact(out, &written);
            return;
        }
        let mut w = ObjectWriter::new(out);
        w.str("text", self.text().unwrap_or(""));
        if self.thought {
            w.raw("thought", "true");
        }
        w.opt_str("thoughtSignature", self.thought_signature());
        w.end();
    }
}
