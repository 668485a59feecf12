//! The Gemini accumulator: the frames of a `streamGenerateContent` stream
//! in, the final [`GeminiResponse`] (a `GenerateContentResponse`) out.
//!
//! A face over the turn model: [`GeminiReader`]s read the stream and
//! [`TurnAccumulator`]s keep what they read, one pair per candidate plus
//! one for the response's own members; the result is the Gemini rendering
//! of those turns ([`write_choices_json`]).
//!
//! See [`GeminiAccumulator`] for an example.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use bytes::Bytes;
use core::mem::size_of;

use super::dialect::DEFAULT_MAX_BYTES;
use super::{AccumulateError, Outcome, TurnAccumulator, TurnAccumulatorConfig};
use crate::frame::Frame;
use crate::gemini::{GeminiError, GeminiEvent, Owned, PromptFeedback, UsageMetadata};
use crate::turn::answer::{kept_str, Ending};
use crate::turn::{
    write_choices_json, Dialect, FinalItem, FinalItemKind, FinalTurn, GeminiReader, TurnConfig,
    TurnError, TurnErrorKind, TurnEvent, TurnReader, TurnWriter,
};
use alloc::borrow::Cow;

/// Assembles a Gemini `streamGenerateContent` stream into the final
/// [`GeminiResponse`].
///
/// Feed it every frame with [`feed`](Self::feed); read the response so far
/// with [`snapshot`](Self::snapshot); at the end of the stream call
/// [`finish`](Self::finish), which decides the [`Outcome`]:
/// [`Failed`](Outcome::Failed) when an error chunk arrived (what comes
/// after it is refused); [`Completed`](Outcome::Completed) when at least
/// one candidate arrived and every candidate has a `finishReason`, or when
/// the prompt was blocked (`promptFeedback.blockReason`, and no candidate),
/// but [`Incomplete`](Outcome::Incomplete) when a candidate stopped at
/// `MAX_TOKENS` or for safety; otherwise [`Truncated`](Outcome::Truncated). Gemini streams have no end marker, so
/// a stream cut after the chunk with the finish reason (or one whose server
/// repeats the finish reason on every chunk) cannot be told from a complete
/// one.
///
/// # How it reads
///
/// Each candidate is read by a [`GeminiReader`] of its own into a
/// [`TurnAccumulator`] of its own, started in the chunk where the candidate
/// first comes; one more pair reads the response's own members from every
/// chunk (`responseId`, `modelVersion`, `createTime`, `promptFeedback`,
/// `usageMetadata`, an error chunk). What each keeps is what the reader
/// hands on (see [`GeminiReader`]): text and thoughts joined into one part
/// per run of the same kind, function calls (their streamed arguments
/// assembled), other parts as they came, the last `finishReason`, and the
/// candidate's other members as the API wrote them.
///
/// An event that does not decode, a part or candidate that does not, or
/// streamed arguments out of order are reported as the event's error
/// ([`AccumulateErrorKind::Decode`](super::AccumulateErrorKind::Decode),
/// [`Stream`](super::AccumulateErrorKind::Stream)); the rest of the event
/// is kept, and the accumulator stays usable.
///
/// # Memory and cost
///
/// Everything kept counts against one limit (64 MiB by default;
/// [`GeminiAccumulatorConfig::max_bytes`]) shared by the candidates: the
/// text and JSON kept, a fixed amount per part, and the size of each
/// candidate's reader and accumulator, so that a stream of sparse indexes
/// cannot exhaust memory either. What does not fit is dropped with
/// [`TooManyBytes`](super::AccumulateErrorKind::TooManyBytes) and the
/// response ends [`Truncated`](Outcome::Truncated). The number of distinct
/// candidate indexes is limited too ([`DEFAULT_MAX_CANDIDATES`];
/// [`GeminiAccumulatorConfig::max_candidates`]): a candidate past it is
/// dropped with [`TooManyChoices`](super::AccumulateErrorKind::TooManyChoices)
/// and the response ends truncated. Candidates are in a map by index, and
/// each chunk's candidate goes to its own reader only: the work is linear in
/// the input whatever its order.
///
/// # Example
///
/// ```
/// use ssekit::accumulate::{GeminiAccumulator, Outcome};
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
///     acc.feed(&frame)?;
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
    config: GeminiAccumulatorConfig,
    /// Reads the response's own members (boxed: a reader and an
    /// accumulator are large, and the face is moved around).
    head: alloc::boxed::Box<Slot>,
    /// A reader and accumulator per candidate, by index.
    candidates: BTreeMap<u64, Slot>,
    /// The bytes all accumulators hold, and the fixed charge per candidate.
    used: usize,
    events: u64,
    limit_hit: bool,
}

/// One reader and the accumulator it reads into.
#[derive(Debug, Clone)]
struct Slot {
    reader: GeminiReader,
    acc: TurnAccumulator,
}

/// What each candidate costs besides what it keeps: its reader, its
/// accumulator and its place in the map.
const SLOT_COST: usize = size_of::<Slot>() + size_of::<u64>();

impl Slot {
    fn new(candidate: Option<u64>) -> Self {
        let config = TurnConfig {
            // Bytes bound the parts, as they bound everything kept.
            max_items: usize::MAX,
            ..TurnConfig::default()
        };
        let reader = GeminiReader::new(&config);
        let reader = match candidate {
            Some(index) => reader.candidate(index),
            None => reader,
        };
        let acc =
            TurnAccumulator::with_config(TurnAccumulatorConfig::DEFAULT.with_max_items(usize::MAX))
                .from_dialect(Dialect::Gemini);
        Self { reader, acc }
    }
}

/// The accumulator as a writer that notes the reader's faults (the first
/// one) and lets it read on, so that the rest of an event is kept.
struct Sink<'a> {
    acc: &'a mut TurnAccumulator,
    fault: &'a mut Option<TurnError>,
}

impl TurnWriter for Sink<'_> {
    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        self.acc.write(event)
    }
    fn fail(&mut self, code: &str, message: &str) {
        self.acc.fail(code, message);
    }
    fn take(&mut self) -> Bytes {
        Bytes::new()
    }
    fn is_finished(&self) -> bool {
        self.acc.is_finished()
    }
    fn fault(&mut self, error: TurnError) -> Result<(), TurnError> {
        if !error.kind().is_tolerated() {
            self.fault.get_or_insert(error);
        }
        Ok(())
    }
    fn wants_extras(&self) -> bool {
        true
    }
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
            config,
            head: alloc::boxed::Box::new(Slot::new(None)),
            candidates: BTreeMap::new(),
            used: 0,
            events: 0,
            limit_hit: false,
        }
    }

    /// The limits this accumulator was made with.
    pub fn config(&self) -> &GeminiAccumulatorConfig {
        &self.config
    }

    /// The bytes counted against the limit so far.
    pub fn used_bytes(&self) -> usize {
        self.used
    }

    /// The number of frames fed.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Reads one frame.
    ///
    /// Cost: O(size of the frame), plus O(log n) to find each candidate by
    /// index.
    ///
    /// # Errors
    ///
    /// An [`AccumulateError`] at this frame's index when part of it could
    /// not be kept: a frame that is not a Gemini chunk, a chunk of an
    /// unexpected shape or an element that does not decode
    /// ([`Decode`](super::AccumulateErrorKind::Decode)), streamed arguments
    /// the reader refused or content after an error chunk
    /// ([`Stream`](super::AccumulateErrorKind::Stream)), or data past a
    /// limit. The rest of the frame is kept, the accumulator stays usable,
    /// and the first such problem of the frame is returned.
    pub fn feed(&mut self, frame: &Frame) -> Result<(), AccumulateError> {
        let number = self.events;
        self.events += 1;
        let mut first = None;
        match GeminiEvent::from_frame(frame) {
            Err(e) => first = Some(TurnError::new(TurnErrorKind::Decode(e), number)),
            Ok(GeminiEvent::Response(r)) => {
                // After an error chunk the stream has failed: the head
                // refuses what comes, and the candidates do not read it.
                let failed = self.head.acc.turn().error().is_some();
                self.read(None, &mut first, |reader, out| reader.read_head(&r, out));
                let candidates = if failed { None } else { r.candidates };
                for candidate in candidates.into_iter().flatten() {
                    let candidate = match candidate {
                        Ok(c) => c,
                        Err(e) => {
                            first.get_or_insert(TurnError::new(TurnErrorKind::Decode(e), number));
                            continue;
                        }
                    };
                    let index = candidate.index_or_zero();
                    if let Err(e) = self.open(index) {
                        first.get_or_insert(e);
                        continue;
                    }
                    self.read(Some(index), &mut first, |reader, out| {
                        reader.read_candidate(&r, &candidate, out)
                    });
                }
            }
            Ok(event) => self.read(None, &mut first, |reader, out| {
                reader.read_event(&event, out)
            }),
        }
        match first {
            None => Ok(()),
            Some(e) => {
                if matches!(
                    e.kind(),
                    TurnErrorKind::TooManyBytes { .. }
                        | TurnErrorKind::TooManyItems { .. }
                        | TurnErrorKind::TooManyChoices { .. }
                        | TurnErrorKind::TooManyExtras { .. }
                ) {
                    self.limit_hit = true;
                }
                Err(e.at(number).into())
            }
        }
    }

    /// Makes the slot of candidate `index` if it has none, within the
    /// limits.
    fn open(&mut self, index: u64) -> Result<(), TurnError> {
        if self.candidates.contains_key(&index) {
            return Ok(());
        }
        let limit = self.config.max_candidates;
        if self.candidates.len() >= limit {
            return Err(TurnError::new(TurnErrorKind::TooManyChoices { limit }, 0));
        }
        let limit = self.config.max_bytes;
        match self.used.checked_add(SLOT_COST) {
            Some(next) if next <= limit => self.used = next,
            _ => return Err(TurnError::new(TurnErrorKind::TooManyBytes { limit }, 0)),
        }
        self.candidates.insert(index, Slot::new(Some(index)));
        Ok(())
    }

    /// Runs `read` on the slot of `candidate` (the head for `None`), its
    /// accumulator allowed what the others leave of the limit; notes the
    /// first problem in `first`.
    fn read(
        &mut self,
        candidate: Option<u64>,
        first: &mut Option<TurnError>,
        read: impl FnOnce(&mut GeminiReader, &mut Sink<'_>) -> Result<(), TurnError>,
    ) {
        let slot = match candidate {
            None => &mut self.head,
            Some(index) => match self.candidates.get_mut(&index) {
                Some(slot) => slot,
                None => return,
            },
        };
        let before = slot.acc.used_bytes();
        let others = self.used.saturating_sub(before);
        slot.acc
            .set_max_bytes(self.config.max_bytes.saturating_sub(others));
        let mut fault = None;
        let r = read(
            &mut slot.reader,
            &mut Sink {
                acc: &mut slot.acc,
                fault: &mut fault,
            },
        );
        self.used = others.saturating_add(slot.acc.used_bytes());
        if let Some(mut e) = r.err().or(fault) {
            if let TurnErrorKind::TooManyBytes { .. } = e.kind() {
                // The accumulator's share of the limit: the limit is the
                // face's.
                let limit = self.config.max_bytes;
                e = TurnError::new(TurnErrorKind::TooManyBytes { limit }, e.event_index());
            }
            first.get_or_insert(e);
        }
    }

    /// The response so far, its [`outcome`](GeminiResponse::outcome)
    /// [`InProgress`](Outcome::InProgress). A copy: O(size of the
    /// response).
    pub fn snapshot(&self) -> GeminiResponse {
        GeminiResponse {
            head: self.head.acc.turn().clone(),
            candidates: self
                .candidates
                .iter()
                .map(|(k, s)| (*k, s.acc.turn().clone()))
                .collect(),
            limit_hit: self.limit_hit,
            status: Outcome::InProgress,
        }
    }

    /// Ends the stream and returns the response, with its
    /// [`outcome`](GeminiResponse::outcome) decided (see the
    /// [type docs](Self)): each reader is told the body ended, which closes
    /// what was still open (a function call whose arguments stream).
    #[must_use]
    pub fn finish(mut self) -> GeminiResponse {
        let mut ignored = None;
        let indexes: Vec<u64> = self.candidates.keys().copied().collect();
        for index in indexes {
            // A candidate without a finish reason reports the cut; the
            // outcome says it.
            self.read(Some(index), &mut ignored, |reader, out| reader.finish(out));
        }
        self.read(None, &mut ignored, |reader, out| reader.finish(out));
        let head = self.head.acc.into_turn();
        let candidates: BTreeMap<u64, FinalTurn> = self
            .candidates
            .into_iter()
            .map(|(k, s)| (k, s.acc.into_turn()))
            .collect();
        let cut = self.limit_hit || head.cut || candidates.values().any(|t| t.cut);
        let blocked = candidates.is_empty() && GeminiResponse::block_reason_of(&head).is_some();
        let status = if head.error().is_some() {
            Outcome::Failed
        } else if cut {
            Outcome::Truncated
        } else if blocked
            || (!candidates.is_empty() && candidates.values().all(|t| t.stop_raw().is_some()))
        {
            // A candidate stopped by a limit of the model (`MAX_TOKENS`, a
            // safety filter) is incomplete, as the turn accumulator says; a
            // blocked prompt is a complete answer.
            if candidates
                .values()
                .any(|t| t.ending() == Ending::Incomplete)
            {
                Outcome::Incomplete
            } else {
                Outcome::Completed
            }
        } else {
            Outcome::Truncated
        };
        GeminiResponse {
            head,
            candidates,
            limit_hit: cut,
            status,
        }
    }
}

/// A Gemini response assembled from a stream: the `GenerateContentResponse`
/// the same request would have returned from `generateContent`, plus how
/// the stream ended.
///
/// Made by [`GeminiAccumulator`]: a [`FinalTurn`] per candidate, and one
/// for the response's own members. [`to_json`](Self::to_json) writes it in
/// the API's shape; with the `serde` feature it implements
/// `serde::Serialize` in the same shape.
#[derive(Debug, Clone, Default)]
pub struct GeminiResponse {
    head: FinalTurn,
    candidates: BTreeMap<u64, FinalTurn>,
    limit_hit: bool,
    status: Outcome,
}

impl GeminiResponse {
    /// The response ID, from the first chunk.
    pub fn response_id(&self) -> Option<&str> {
        self.head.id()
    }
    /// The model version, from the first chunk.
    pub fn model_version(&self) -> Option<&str> {
        self.head.model()
    }
    /// When the request was received (Vertex AI), from the first chunk that
    /// has it.
    pub fn create_time(&self) -> Option<String> {
        kept_str(self.head.extra(Dialect::Gemini, "createTime")).map(Cow::into_owned)
    }
    /// The candidates, in `index` order.
    pub fn candidates(&self) -> impl ExactSizeIterator<Item = Candidate<'_>> + '_ {
        self.candidates.iter().map(|(index, turn)| Candidate {
            index: *index,
            turn,
        })
    }
    /// The candidate with this `index`. O(log n).
    pub fn candidate(&self, index: u64) -> Option<Candidate<'_>> {
        let turn = self.candidates.get(&index)?;
        Some(Candidate { index, turn })
    }
    /// The last `promptFeedback` sent.
    pub fn prompt_feedback(&self) -> Option<Owned<PromptFeedback<'static>>> {
        Owned::parse(self.head.extra(Dialect::Gemini, "promptFeedback")?).ok()
    }
    /// Why the prompt was blocked (`promptFeedback.blockReason`), if it was.
    pub fn block_reason(&self) -> Option<String> {
        Self::block_reason_of(&self.head)
    }
    fn block_reason_of(head: &FinalTurn) -> Option<String> {
        let feedback: Owned<PromptFeedback<'static>> =
            Owned::parse(head.extra(Dialect::Gemini, "promptFeedback")?).ok()?;
        let reason = feedback.get().block_reason?;
        Some(reason.unescape().into_owned())
    }
    /// The last `usageMetadata` sent (cumulative, so the final counts).
    pub fn usage(&self) -> Option<Owned<UsageMetadata<'static>>> {
        Owned::parse(self.head.extra(Dialect::Gemini, "usageMetadata")?).ok()
    }
    /// The error chunk's error, if one came (the first one: the stream
    /// ends there).
    pub fn error(&self) -> Option<Owned<GeminiError<'static>>> {
        Owned::parse(self.head.extra(Dialect::Gemini, "error")?).ok()
    }
    /// Whether data was dropped at a limit.
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
    /// `GenerateContentResponse`, as [`FinalTurn::write_json`] renders a
    /// Gemini answer: `candidates` (when any arrived; each with `content`
    /// {`parts`, `role`}, then `finishReason`, `finishMessage`,
    /// `safetyRatings`, `citationMetadata`, `groundingMetadata`,
    /// `groundingAttributions`, `urlContextMetadata`, `logprobsResult`,
    /// `avgLogprobs`, `tokenCount` when present, and `index`), then
    /// `promptFeedback`, `usageMetadata`, `modelVersion`, `responseId` and
    /// `createTime` when present. Members kept as they came (usage,
    /// feedback, non-text parts) are written as they came, less the
    /// whitespace between tokens. The stream's status and error are not
    /// part of this object (see [`outcome`](Self::outcome) and
    /// [`error`](Self::error)).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    /// Appends [`to_json`](Self::to_json)'s text to `out`.
    pub fn write_json(&self, out: &mut String) {
        // The head first: the response's own members come from it, and
        // as it read no candidate, it is not one of `candidates`.
        let mut turns = Vec::with_capacity(self.candidates.len() + 1);
        turns.push(&self.head);
        turns.extend(self.candidates.values());
        write_choices_json(Dialect::Gemini, &turns, out);
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for GeminiResponse {
    /// Serializes [`to_json`](Self::to_json)'s object.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        super::dialect::serialize_json_text(&self.to_json(), s)
    }
}

/// One candidate of a [`GeminiResponse`]: a view of its [`FinalTurn`].
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    index: u64,
    turn: &'a FinalTurn,
}

impl<'a> Candidate<'a> {
    /// The candidate's index.
    pub fn index(&self) -> u64 {
        self.index
    }
    /// The candidate as the turn model holds it.
    pub fn turn(&self) -> &'a FinalTurn {
        self.turn
    }
    /// The content's role (the first one sent).
    pub fn role(&self) -> Option<String> {
        kept_str(self.extra("role")).map(Cow::into_owned)
    }
    /// The parts, in order, as items of the turn: a message (text parts
    /// joined), reasoning (thought parts joined, with their signature), a
    /// tool call (`functionCall`), or another part as it came
    /// ([`FinalItemKind::Other`], its JSON in `raw`).
    pub fn parts(&self) -> &'a [FinalItem] {
        self.turn.items()
    }
    /// The answer's text: every text part that is not a thought,
    /// concatenated.
    pub fn text(&self) -> String {
        self.parts()
            .iter()
            .filter(|p| p.kind() == &FinalItemKind::Message)
            .map(FinalItem::text)
            .collect()
    }
    /// The thoughts' text: every thought part, concatenated.
    pub fn thoughts(&self) -> String {
        self.parts()
            .iter()
            .filter(|p| p.kind() == &FinalItemKind::Reasoning)
            .flat_map(|p| p.reasoning_parts().map(|(_, t)| t))
            .collect()
    }
    /// The last `finishReason` sent; `None` while the candidate is unfinished.
    pub fn finish_reason(&self) -> Option<&'a str> {
        self.turn.stop_raw()
    }
    /// The last `finishMessage` sent.
    pub fn finish_message(&self) -> Option<String> {
        kept_str(self.extra("finishMessage")).map(Cow::into_owned)
    }
    /// The last `safetyRatings` sent, as JSON text (an array).
    pub fn safety_ratings(&self) -> Option<&'a str> {
        self.extra("safetyRatings")
    }
    /// The last `groundingMetadata` sent, as JSON text.
    pub fn grounding_metadata(&self) -> Option<&'a str> {
        self.extra("groundingMetadata")
    }
    /// The last `avgLogprobs` sent.
    pub fn avg_logprobs(&self) -> Option<f64> {
        self.extra("avgLogprobs")?.parse().ok()
    }
    /// The last `tokenCount` sent.
    pub fn token_count(&self) -> Option<u64> {
        self.extra("tokenCount")?.parse().ok()
    }
    /// Any other member of the candidate the API sent, as JSON text:
    /// `citationSources` and `citations` (of `citationMetadata`, the lists
    /// of every chunk joined), `groundingAttributions`,
    /// `urlContextMetadata`, `logprobsResult`, …; the last one sent.
    pub fn extra(&self, key: &str) -> Option<&'a str> {
        self.turn.extra(Dialect::Gemini, key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accumulate::AccumulateErrorKind;
    use alloc::format;

    fn feed(acc: &mut GeminiAccumulator, data: &str) -> Result<(), AccumulateError> {
        acc.feed(&Frame::new(data))
    }

    /// Two candidates, the second first seen in the third chunk: each
    /// renders as a reader of its own that read every chunk renders it.
    #[test]
    fn a_candidate_started_late_reads_as_one_read_from_the_start() {
        let chunks = [
            r#"{"candidates":[{"content":{"parts":[{"text":"A"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":2},"modelVersion":"m","responseId":"r"}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":"B","thought":true}],"role":"model"},"index":0}],"modelVersion":"m","responseId":"r"}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":"x"},{"functionCall":{"name":"f","args":{"a":1}}}],"role":"model"},"index":1},{"content":{"parts":[{"text":"C"}],"role":"model"},"finishReason":"STOP","index":0}],"modelVersion":"m","responseId":"r"}"#,
            r#"{"candidates":[{"content":{"parts":[{"text":"y"}],"role":"model"},"finishReason":"MAX_TOKENS","index":1,"tokenCount":3}],"usageMetadata":{"promptTokenCount":2,"candidatesTokenCount":5,"totalTokenCount":7},"modelVersion":"m","responseId":"r"}"#,
        ];
        let mut acc = GeminiAccumulator::new();
        for c in chunks {
            feed(&mut acc, c).unwrap();
        }
        let got = acc.finish();
        // Candidate 1 stopped at MAX_TOKENS.
        assert_eq!(got.outcome(), Outcome::Incomplete);
        // The reference: a reader per candidate, each reading every chunk.
        let read = |reader: GeminiReader| {
            let mut reader = reader;
            let mut acc = TurnAccumulator::new().from_dialect(Dialect::Gemini);
            for c in chunks {
                acc.read(&mut reader, &Frame::new(c)).unwrap();
            }
            acc.finish_reader(&mut reader).unwrap();
            acc.into_turn()
        };
        let turns = [
            read(GeminiReader::default()),
            read(GeminiReader::default().candidate(1)),
        ];
        let mut want = String::new();
        write_choices_json(Dialect::Gemini, &[&turns[0], &turns[1]], &mut want);
        assert_eq!(got.to_json(), want);
        // And by hand.
        let v: serde_json::Value = serde_json::from_str(&got.to_json()).unwrap();
        assert_eq!(
            v["candidates"][1],
            serde_json::json!({"content":{"parts":[{"text":"x"},{"functionCall":{"name":"f","args":{"a":1}}},{"text":"y"}],"role":"model"},"finishReason":"MAX_TOKENS","tokenCount":3,"index":1})
        );
        assert_eq!(v["usageMetadata"]["totalTokenCount"], 7);
        assert_eq!(got.candidate(1).unwrap().text(), "xy");
        assert_eq!(got.candidate(0).unwrap().thoughts(), "B");
        assert_eq!(got.candidate(1).unwrap().token_count(), Some(3));
    }

    #[test]
    fn errors_are_positioned_and_the_rest_of_the_event_kept() {
        let mut acc = GeminiAccumulator::new();
        feed(
            &mut acc,
            r#"{"candidates":[{"content":{"parts":[{"text":"a"}]}}]}"#,
        )
        .unwrap();
        let e = acc.feed(&Frame::new("not json")).unwrap_err();
        assert!(matches!(e.kind(), AccumulateErrorKind::Decode(_)));
        assert_eq!(e.event_index(), 1);
        // A bad candidate and a bad part: reported, the rest kept.
        let e = feed(
            &mut acc,
            r#"{"candidates":[7,{"content":{"parts":[{"text":5},{"text":"b"}]},"index":0,"finishReason":"STOP"}]}"#,
        )
        .unwrap_err();
        assert!(matches!(e.kind(), AccumulateErrorKind::Decode(_)));
        assert_eq!(e.event_index(), 2);
        assert_eq!(acc.snapshot().candidate(0).unwrap().text(), "ab");
        assert_eq!(acc.snapshot().outcome(), Outcome::InProgress);
        let done = acc.finish();
        assert_eq!(done.outcome(), Outcome::Completed);
    }

    #[test]
    fn content_after_an_error_chunk_is_reported_and_the_response_fails() {
        let mut acc = GeminiAccumulator::new();
        feed(
            &mut acc,
            r#"{"candidates":[{"content":{"parts":[{"text":"a"}]}}]}"#,
        )
        .unwrap();
        feed(
            &mut acc,
            r#"{"error":{"code":503,"message":"busy","status":"UNAVAILABLE"}}"#,
        )
        .unwrap();
        let e = feed(&mut acc, r#"{"usageMetadata":{"promptTokenCount":1}}"#).unwrap_err();
        assert_eq!(
            e.kind(),
            AccumulateErrorKind::Stream(TurnErrorKind::ContentAfterFinish)
        );
        // A candidate's content after the error is refused too, not kept.
        let e = feed(
            &mut acc,
            r#"{"candidates":[{"content":{"parts":[{"text":"LATE"}]},"finishReason":"STOP"}]}"#,
        )
        .unwrap_err();
        assert_eq!(
            e.kind(),
            AccumulateErrorKind::Stream(TurnErrorKind::ContentAfterFinish)
        );
        let done = acc.finish();
        assert_eq!(done.outcome(), Outcome::Failed);
        assert_eq!(done.error().unwrap().get().code, Some(503));
        assert_eq!(done.candidate(0).unwrap().text(), "a");
        assert_eq!(done.candidate(0).unwrap().finish_reason(), None);
    }

    /// A stream cut while a call's arguments stream: `finish` closes them.
    #[test]
    fn finish_on_a_cut_stream_closes_streamed_arguments() {
        let mut acc = GeminiAccumulator::new();
        feed(
            &mut acc,
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","partialArgs":[{"jsonPath":"$.a","stringValue":"x","willContinue":true}],"willContinue":true}}],"role":"model"}}]}"#,
        )
        .unwrap();
        let done = acc.finish();
        assert_eq!(done.outcome(), Outcome::Truncated);
        assert!(done.is_truncated());
        let v: serde_json::Value = serde_json::from_str(&done.to_json()).unwrap();
        assert_eq!(
            v["candidates"][0]["content"]["parts"][0],
            serde_json::json!({"functionCall":{"name":"f","args":{"a":"x"}}})
        );
    }

    #[test]
    fn the_limit_is_shared_by_the_candidates() {
        let text = "z".repeat(600);
        let mut acc =
            GeminiAccumulator::with_config(GeminiAccumulatorConfig::DEFAULT.with_max_bytes(4000));
        let mut failed = 0;
        for index in 0..10 {
            let c = format!(
                r#"{{"candidates":[{{"content":{{"parts":[{{"text":"{text}"}}]}},"index":{index}}}]}}"#
            );
            if let Err(e) = feed(&mut acc, &c) {
                assert!(
                    matches!(e.kind(), AccumulateErrorKind::TooManyBytes { limit: 4000 }),
                    "{e}"
                );
                failed += 1;
            }
            assert!(acc.used_bytes() <= 4000, "{}", acc.used_bytes());
        }
        assert!(failed > 0);
        let done = acc.finish();
        assert!(done.limit_exceeded());
        assert_eq!(done.outcome(), Outcome::Truncated);
        // Each chunk's text is kept whole or refused (the candidate may
        // stay, empty, when its own cost fitted and its text did not).
        let whole = done.candidates().filter(|c| c.text() == text).count();
        assert!(done
            .candidates()
            .all(|c| c.text() == text || c.text().is_empty()));
        assert!(whole > 0 && whole < 10, "{whole}");
        assert_eq!(whole + failed, 10);
    }
}
