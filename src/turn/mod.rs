//! L3½: the model of a streamed assistant turn, one reader per dialect
//! into it and one writer per dialect out of it.
//!
//! Every dialect streams the same thing: a turn starts (an id, a model, a
//! time), items open (a message's text, reasoning, a tool call, a
//! refusal, or something only one dialect knows, such as a hosted tool),
//! fragments are appended to them, they close, usage is counted, the turn
//! stops for a reason and ends, or fails. [`TurnEvent`] says each of these
//! once, borrowed from the upstream frame and allocation-free, so that a
//! dialect costs one reader and one writer instead of one module per
//! consumer and direction.
//!
//! * Items are addressed by an index the reader assigns (from 0, in the
//!   order they open). Several may be open at once: parallel tool calls
//!   interleave their fragments.
//! * A reader ([`ChatReader`], [`AnthropicReader`], [`GeminiReader`],
//!   [`ResponsesReader`]) owns its dialect's order rules: a fragment of an
//!   item never opened, content after the end, a cut stream are
//!   [`TurnError`]s with the upstream event's position.
//! * A writer ([`ChatWriter`], [`AnthropicWriter`], [`GeminiWriter`],
//!   [`ResponsesTurnWriter`]) opens and closes what its dialect needs,
//!   whatever the order of the events it is given. A dialect that cannot
//!   interleave items (Anthropic content blocks, Responses items as the
//!   [`ResponsesWriter`](crate::responses::writer::ResponsesWriter) writes
//!   them) holds a later item's fragments until the earlier item closes,
//!   within [`TurnConfig::max_held_bytes`].
//!
//! [`Translate`](crate::bridge::Translate) is a reader followed by a
//! writer: any dialect to any other.

pub(crate) mod answer;
mod hold;
mod read_anthropic;
pub(crate) mod read_chat;
mod read_gemini;
mod read_responses;
#[cfg(test)]
mod testing;
mod write_anthropic;
pub(crate) mod write_chat;
mod write_gemini;
mod write_responses;

use alloc::string::String;
use bytes::Bytes;
use core::fmt;

use crate::frame::Frame;
use crate::json::{JsonStr, RawJson};
use crate::responses::DecodeError;

pub use crate::dialect::Dialect;
pub use answer::{write_choices_json, FinalItem, FinalItemKind, FinalTurn};
pub use read_anthropic::AnthropicReader;
pub use read_chat::ChatReader;
pub use read_gemini::GeminiReader;
pub use read_responses::ResponsesReader;
pub use write_anthropic::AnthropicWriter;
pub use write_chat::ChatWriter;
pub use write_gemini::GeminiWriter;
pub use write_responses::ResponsesTurnWriter;

/// The start of a turn: what the upstream says about it (each optional;
/// a writer fills what its dialect requires).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TurnStart<'a> {
    /// The upstream's id of the response, message or completion.
    pub id: Option<JsonStr<'a>>,
    /// The model.
    pub model: Option<JsonStr<'a>>,
    /// The creation time, Unix seconds.
    pub created: Option<u64>,
}

/// What an item is, given when it opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ItemKind<'a> {
    /// Assistant text.
    Message,
    /// Reasoning (thinking), with or without a signature or encrypted
    /// content.
    Reasoning,
    /// A client-side tool (function) call.
    ToolCall {
        /// The call id, when the upstream gave one.
        call_id: Option<JsonStr<'a>>,
        /// The function's name.
        name: Option<JsonStr<'a>>,
    },
    /// A refusal.
    Refusal,
    /// An item only the upstream's dialect has (a hosted tool call, a
    /// server tool result, Gemini's code and its result or inline data):
    /// its type, and its JSON as the upstream gave it. A writer of the same dialect writes it through untouched;
    /// another counts it in [`TurnWriter::not_carried`].
    Other {
        /// The dialect whose item it is.
        dialect: Dialect,
        /// The item's or block's `type` (a Gemini part's member name,
        /// `executableCode`, …).
        ty: &'a str,
        /// The item's JSON (a Responses output item as its
        /// `output_item.done` gives it, an Anthropic content block as its
        /// `content_block_start` gives it, a Gemini part as it came).
        raw: Option<RawJson<'a>>,
    },
}

/// What a fragment appends to its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum DeltaKind {
    /// Answer text.
    Text,
    /// Reasoning text (Anthropic thinking, Chat `reasoning_content`,
    /// Responses `reasoning_text`, Gemini thought parts).
    Reasoning,
    /// A reasoning summary's text (Responses); `part` is the summary index.
    Summary,
    /// A reasoning signature (Anthropic `signature_delta`, Gemini
    /// `thoughtSignature`): carried, never invented.
    Signature,
    /// Encrypted reasoning (Anthropic `redacted_thinking` data, Responses
    /// `encrypted_content`).
    Encrypted,
    /// A fragment of a tool call's arguments (JSON text).
    Arguments,
    /// Refusal text.
    Refusal,
}

/// Token counts, each the total so far when given (a later usage event
/// replaces the counts it carries; nothing is added up). `input` counts
/// every input token, cached ones included; `output` every output token,
/// reasoning included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct TurnUsage {
    /// Input tokens, cached included.
    pub input: Option<u64>,
    /// Output tokens, reasoning included.
    pub output: Option<u64>,
    /// Input tokens read from a cache.
    pub cached: Option<u64>,
    /// Output tokens spent reasoning.
    pub reasoning: Option<u64>,
}

impl TurnUsage {
    /// Replaces the counts `other` carries.
    pub fn merge(&mut self, other: &TurnUsage) {
        self.input = other.input.or(self.input);
        self.output = other.output.or(self.output);
        self.cached = other.cached.or(self.cached);
        self.reasoning = other.reasoning.or(self.reasoning);
    }
}

/// Why a turn stopped: one vocabulary every dialect's finish or stop
/// reason maps into and out of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StopReason {
    /// The model finished its answer (Chat `stop`, Anthropic `end_turn`,
    /// Gemini `STOP`, Responses `completed`).
    EndTurn,
    /// A stop sequence matched.
    StopSequence,
    /// The model called tools and waits for their results.
    ToolUse,
    /// The output token limit.
    MaxTokens,
    /// The context window is full.
    ContextWindow,
    /// A content filter stopped the output.
    ContentFilter,
    /// The model refused.
    Refusal,
    /// The server paused a long turn (Anthropic `pause_turn`).
    PauseTurn,
    /// The upstream stopped for an error of its own (Gemini
    /// `MALFORMED_FUNCTION_CALL`, `OTHER`): the turn fails.
    Error,
}

/// A stop: the reason, and the upstream's own string for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stop<'a> {
    /// The reason.
    pub reason: StopReason,
    /// The upstream's string (`"length"`, `"end_turn"`, …), for round trips.
    pub raw: Option<JsonStr<'a>>,
}

/// An error the upstream reported in its stream: the turn ends failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct UpstreamError<'a> {
    /// Its code or type (`overloaded_error`, `rate_limit_exceeded`, …).
    pub code: Option<JsonStr<'a>>,
    /// Its message.
    pub message: Option<JsonStr<'a>>,
}

/// A member of the upstream's final answer that the model has no word for
/// (Chat `service_tier` or a choice's `logprobs`, Anthropic `container` or
/// a block's `citations`, a Gemini candidate's `safetyRatings`, the
/// Responses `response` object's settings): the reader that knows it
/// hands it on, so that [`FinalTurn`] rendered in the same dialect keeps
/// it. Writers of streams, and renderings in other dialects, pass it by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Extra<'a> {
    /// The dialect whose member it is.
    pub dialect: Dialect,
    /// The item it belongs to; `None`: the turn.
    pub item: Option<u64>,
    /// Its name in the dialect's final answer.
    pub key: &'a str,
    /// Its JSON value.
    pub raw: RawJson<'a>,
    /// How `raw` combines with what was kept under `key`.
    pub combine: Combine,
}

/// How an [`Extra`] combines with the value kept under its key (the first
/// value of a key is kept as it came, except with [`Merge`](Self::Merge)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Combine {
    /// It replaces what was kept.
    #[default]
    Replace,
    /// An array whose elements follow the kept array's (logprobs come a
    /// few at a time); a value that is not an array replaces.
    Append,
    /// One element added at the end of the kept array (a citation comes
    /// alone); kept as a one-element array when nothing, or no array, was
    /// kept.
    Push,
    /// An object whose members replace the kept object's members of the
    /// same name, in place, the others added after (a usage object sent
    /// again with some counts updated); a `null` member leaves the kept one
    /// as it was, and is not kept. Not an object: it replaces.
    Merge,
    /// A string whose text follows the kept string's (a summary streamed in
    /// pieces); not a string: it replaces.
    Concat,
}

impl<'a> Extra<'a> {
    /// A member of the turn (`item: None`) or of an item, replacing what
    /// was kept under `key`.
    pub fn new(dialect: Dialect, item: Option<u64>, key: &'a str, raw: RawJson<'a>) -> Self {
        Self {
            dialect,
            item,
            key,
            raw,
            combine: Combine::Replace,
        }
    }

    /// The same, its array's elements appended to what was kept
    /// ([`Combine::Append`]).
    #[must_use]
    pub fn appended(mut self) -> Self {
        self.combine = Combine::Append;
        self
    }

    /// The same, added as one element of the kept array
    /// ([`Combine::Push`]).
    #[must_use]
    pub fn pushed(mut self) -> Self {
        self.combine = Combine::Push;
        self
    }

    /// The same, its members merged into the kept object
    /// ([`Combine::Merge`]).
    #[must_use]
    pub fn merged(mut self) -> Self {
        self.combine = Combine::Merge;
        self
    }

    /// The same, its text joined to the kept string's
    /// ([`Combine::Concat`]).
    #[must_use]
    pub fn concatenated(mut self) -> Self {
        self.combine = Combine::Concat;
        self
    }
}

/// One event of the model of a streamed turn, borrowed from the upstream
/// frame (or from a writer's hold).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TurnEvent<'a> {
    /// The turn starts (at most once, before any item).
    Start(TurnStart<'a>),
    /// Item `index` opens.
    ItemStart {
        /// The item's index (from 0, in the order items open).
        index: u64,
        /// What it is.
        item: ItemKind<'a>,
    },
    /// A fragment of item `index`.
    Delta {
        /// The item's index.
        index: u64,
        /// What the fragment is.
        kind: DeltaKind,
        /// The part of the item it belongs to (the Responses content or
        /// summary index; 0 elsewhere).
        part: u32,
        /// The fragment, as JSON string text.
        text: JsonStr<'a>,
    },
    /// Item `index` is complete. Its fragments so far spell it whole (a
    /// reader sends what a dialect's closing event adds to its deltas as a
    /// last fragment first); `whole` is the closing event's whole value
    /// where the dialect gives one, for reference.
    ItemEnd {
        /// The item's index.
        index: u64,
        /// The whole text or arguments, when the dialect repeats them.
        whole: Option<JsonStr<'a>>,
    },
    /// Token counts so far.
    Usage(TurnUsage),
    /// Why the turn stopped (the last one given counts).
    Stop(Stop<'a>),
    /// The upstream reported an error: the turn ends failed.
    Error(UpstreamError<'a>),
    /// Something of the upstream's dialect the model has no word for,
    /// carried for a rendering in that same dialect: writers of streams
    /// pass it by.
    Extra(Extra<'a>),
    /// A keep-alive (Anthropic `ping`, an SSE comment).
    KeepAlive,
    /// The turn ended as its dialect ends a complete stream.
    End,
}

/// The limits of readers and writers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TurnConfig {
    /// The downstream id (`None`: derived from the upstream's).
    pub id: Option<String>,
    /// The downstream model (`None`: the upstream's).
    pub model: Option<String>,
    /// The creation time (`None`: the upstream's, or 0).
    pub created: Option<u64>,
    /// The limit on distinct items (tool calls, blocks) of one turn.
    pub max_items: usize,
    /// The limit on the bytes a writer holds: fragments of items a
    /// sequential dialect cannot open yet, signatures kept until their
    /// block closes, Gemini function-call arguments kept until whole.
    pub max_held_bytes: usize,
    /// The limit on the text the Responses writer keeps for its done
    /// events.
    pub max_kept_bytes: usize,
    /// The request's `tools` (a JSON array), for the Responses writer's
    /// `response` objects; `None`: `[]`.
    pub tools: Option<String>,
    /// The request's `tool_choice` (JSON); `None`: `"auto"`.
    pub tool_choice: Option<String>,
    /// The request's `parallel_tool_calls`; `None`: `true`.
    pub parallel_tool_calls: Option<bool>,
}

/// The most other choices or candidates a reader names
/// ([`ChatReader::other_choices`], [`GeminiReader::other_candidates`]):
/// reading each with a reader of its own costs a pass over the stream.
pub const MAX_OTHER_CHOICES: usize = 128;

/// Which of several answers (a Chat choice, a Gemini candidate) a reader
/// reads, the others it saw, and how many of their pieces it skipped.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pick {
    /// The index read.
    pub(crate) own: u64,
    /// The other indexes seen, at most [`MAX_OTHER_CHOICES`].
    others: alloc::collections::BTreeSet<u64>,
    /// Pieces of other answers passed over.
    pub(crate) skipped: u64,
}

impl Pick {
    /// Whether the piece of answer `index` is the reader's; when it is
    /// not, the piece is counted skipped and the index kept among the
    /// others.
    pub(crate) fn is_own(&mut self, index: u64) -> bool {
        if index == self.own {
            return true;
        }
        self.skipped += 1;
        if self.others.len() < MAX_OTHER_CHOICES {
            self.others.insert(index);
        }
        false
    }

    /// The other indexes seen, in increasing order.
    pub(crate) fn others(&self) -> impl Iterator<Item = u64> + '_ {
        self.others.iter().copied()
    }
}

/// The default of [`TurnConfig::max_held_bytes`]: 16 MiB.
pub const DEFAULT_MAX_HELD_BYTES: usize = 16 << 20;

impl Default for TurnConfig {
    fn default() -> Self {
        Self {
            id: None,
            model: None,
            created: None,
            max_items: 4096,
            max_held_bytes: DEFAULT_MAX_HELD_BYTES,
            max_kept_bytes: crate::responses::writer::DEFAULT_MAX_KEPT_BYTES,
            tools: None,
            tool_choice: None,
            parallel_tool_calls: None,
        }
    }
}

/// What went wrong, reading or writing a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TurnErrorKind {
    /// The upstream event does not decode.
    Decode(DecodeError),
    /// A fragment or end of an item never started.
    UnknownIndex {
        /// The upstream's index.
        index: u64,
    },
    /// A fragment, start or end of an item already complete.
    IndexClosed {
        /// The upstream's index.
        index: u64,
    },
    /// More items than [`TurnConfig::max_items`].
    TooManyItems {
        /// The limit.
        limit: usize,
    },
    /// Content after the upstream's end.
    ContentAfterFinish,
    /// The turn started twice (two `message_start`s).
    DuplicateStart,
    /// The upstream ended before its end.
    Truncated,
    /// A writer would hold more than [`TurnConfig::max_held_bytes`].
    HoldExceeded {
        /// The limit.
        limit: usize,
    },
    /// The Responses writer refused (its kept-text limit).
    Writer(crate::responses::writer::WriterErrorKind),
    /// Arguments that are not a JSON object, for a writer of a dialect
    /// that carries them as an object (Gemini); or, from the Gemini
    /// reader, a piece of streamed arguments (`partialArgs`) out of
    /// document order or at a path it cannot read (left out of the call).
    InvalidArguments,
    /// More distinct [`Extra`] members of the turn or of one item than an
    /// accumulator keeps.
    TooManyExtras {
        /// The limit.
        limit: usize,
    },
    /// Keeping the event would take an accumulator past its memory limit
    /// ([`TurnAccumulatorConfig::max_bytes`](crate::accumulate::TurnAccumulatorConfig::max_bytes)).
    TooManyBytes {
        /// The limit.
        limit: usize,
    },
    /// Content for a choice after its stop (a Chat delta after the
    /// choice's `finish_reason`).
    ContentAfterStop {
        /// The upstream's choice index.
        choice: u64,
    },
    /// A tool call's first fragment lacks its call id or its name (a Chat
    /// `tool_calls` entry). Read past when one of them is there; a call
    /// with neither cannot start.
    CallWithoutId {
        /// The upstream's choice index.
        choice: u64,
        /// The upstream's tool call index.
        call: u64,
        /// The call id is missing.
        no_id: bool,
        /// The function name is missing.
        no_name: bool,
    },
    /// More choices than a reader reading every choice tracks.
    TooManyChoices {
        /// The limit.
        limit: usize,
    },
    /// The stream ended with a choice that never said why it stopped
    /// (reported for each, by a reader reading every choice).
    ChoiceNotStopped {
        /// The upstream's choice index.
        choice: u64,
    },
    /// Chunks came and none had a choice: nothing said why it stopped.
    NoChoices,
    /// A second end event (Chat `[DONE]`, Anthropic `message_stop`): read
    /// past.
    SecondEnd,
    /// The stream said why it stopped and ended without its end marker
    /// (Chat without `data: [DONE]`): read past.
    MissingEnd,
    /// The first event (keep-alives and errors aside) is not the turn's
    /// start (Anthropic `message_start`): read past.
    StartNotFirst,
    /// An item started at an index past the next one (an Anthropic block
    /// index that skips): read past, the skipped indexes taken as
    /// started and stopped.
    IndexSkipped {
        /// The upstream's index.
        index: u64,
        /// The next index, the number of items before it.
        next: u64,
    },
    /// An item index started a second time.
    DuplicateIndex {
        /// The upstream's index.
        index: u64,
    },
    /// A second end of an item already complete.
    DuplicateEnd {
        /// The upstream's index.
        index: u64,
    },
    /// A fragment of a kind the item does not take (an Anthropic
    /// `input_json_delta` for a text block): read past.
    DeltaMismatch {
        /// The upstream's index.
        index: u64,
    },
    /// The turn ended without saying why it stopped (Anthropic
    /// `message_stop` without a `stop_reason`): read past.
    NoStopReason,
    /// The turn ended with an item never closed: read past (the reader
    /// closes it).
    ItemNotClosed {
        /// The upstream's index.
        index: u64,
    },
    /// An event type this version does not know: read past.
    UnknownEvent,
    /// A fault of a Responses stream's order (its sequence numbers, its
    /// terminal event, its items and parts), as the order checker finds it
    /// ([`ResponsesReader::checked`]): read past.
    Order(crate::responses::order::Fault),
}

impl TurnErrorKind {
    /// Whether a reader reads past this fault: a departure from what the
    /// dialect's clients expect that leaves the turn readable. A
    /// [`TurnWriter::fault`] that accepts every fault (a linter) hears of
    /// these; by default they are not errors.
    pub fn is_tolerated(&self) -> bool {
        match self {
            Self::CallWithoutId { no_id, no_name, .. } => !(*no_id && *no_name),
            Self::SecondEnd
            | Self::MissingEnd
            | Self::StartNotFirst
            | Self::IndexSkipped { .. }
            | Self::DeltaMismatch { .. }
            | Self::NoStopReason
            | Self::ItemNotClosed { .. }
            | Self::UnknownEvent
            | Self::Order(_) => true,
            _ => false,
        }
    }
}

/// An error of a reader or writer: what, and at which upstream event
/// (counted from 0 over the frames read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnError {
    kind: TurnErrorKind,
    event_index: u64,
}

impl TurnError {
    /// An error of this kind at upstream event `event_index`.
    #[cold]
    pub fn new(kind: TurnErrorKind, event_index: u64) -> Self {
        Self { kind, event_index }
    }

    /// What went wrong.
    pub fn kind(&self) -> TurnErrorKind {
        self.kind
    }

    /// The upstream event's position (from 0).
    pub fn event_index(&self) -> u64 {
        self.event_index
    }

    /// The byte offset in the event's data, for
    /// [`Decode`](TurnErrorKind::Decode) errors.
    pub fn offset(&self) -> Option<u64> {
        match self.kind {
            TurnErrorKind::Decode(e) => Some(e.offset() as u64),
            _ => None,
        }
    }

    pub(crate) fn at(mut self, event_index: u64) -> Self {
        self.event_index = event_index;
        self
    }
}

impl fmt::Display for TurnErrorKind {
    /// What went wrong, without its position.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TurnErrorKind::Decode(e) => write!(f, "undecodable upstream event: {e}")?,
            TurnErrorKind::UnknownIndex { index } => {
                write!(f, "fragment of index {index}, never started")?
            }
            TurnErrorKind::IndexClosed { index } => {
                write!(f, "fragment of index {index}, already finished")?
            }
            TurnErrorKind::TooManyItems { limit } => {
                write!(f, "more than {limit} tool calls or blocks")?
            }
            TurnErrorKind::ContentAfterFinish => f.write_str("content after the upstream end")?,
            TurnErrorKind::DuplicateStart => f.write_str("the turn started twice")?,
            TurnErrorKind::Truncated => f.write_str("upstream ended before its end event")?,
            TurnErrorKind::HoldExceeded { limit } => {
                write!(f, "held fragments over the limit of {limit} bytes")?
            }
            TurnErrorKind::Writer(kind) => write!(f, "downstream writer refused: {kind:?}")?,
            TurnErrorKind::InvalidArguments => f.write_str("tool arguments not a JSON object")?,
            TurnErrorKind::TooManyBytes { limit } => {
                write!(f, "accumulated turn exceeds {limit} bytes")?
            }
            TurnErrorKind::TooManyExtras { limit } => write!(
                f,
                "more than {limit} extra members of the turn or of an item"
            )?,
            TurnErrorKind::ContentAfterStop { choice } => {
                write!(f, "content of choice {choice} after its stop")?
            }
            TurnErrorKind::CallWithoutId { choice, call, .. } => write!(
                f,
                "tool call {call} of choice {choice} without its id or name"
            )?,
            TurnErrorKind::TooManyChoices { limit } => write!(f, "more than {limit} choices")?,
            TurnErrorKind::ChoiceNotStopped { choice } => {
                write!(f, "choice {choice} ended without a stop reason")?
            }
            TurnErrorKind::NoChoices => f.write_str("no chunk had a choice")?,
            TurnErrorKind::SecondEnd => f.write_str("a second end event")?,
            TurnErrorKind::MissingEnd => f.write_str("no end marker")?,
            TurnErrorKind::StartNotFirst => f.write_str("the first event is not the start")?,
            TurnErrorKind::IndexSkipped { index, next } => {
                write!(f, "index {index} started after {next} items")?
            }
            TurnErrorKind::DuplicateIndex { index } => write!(f, "index {index} started twice")?,
            TurnErrorKind::DuplicateEnd { index } => write!(f, "index {index} ended twice")?,
            TurnErrorKind::DeltaMismatch { index } => {
                write!(f, "a fragment of a kind that index {index} does not take")?
            }
            TurnErrorKind::NoStopReason => f.write_str("the turn ended without a stop reason")?,
            TurnErrorKind::ItemNotClosed { index } => write!(f, "index {index} never closed")?,
            TurnErrorKind::UnknownEvent => f.write_str("an unknown event type")?,
            TurnErrorKind::Order(fault) => write!(f, "out of order: {fault}")?,
        }
        Ok(())
    }
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at upstream event {}", self.kind, self.event_index)
    }
}

impl core::error::Error for TurnError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.kind {
            TurnErrorKind::Decode(e) => Some(e),
            _ => None,
        }
    }
}

/// A dialect's reader: upstream frames in, [`TurnEvent`]s out.
pub trait TurnReader {
    /// Reads one upstream frame, giving its events to `out`.
    ///
    /// # Errors
    ///
    /// The upstream broke its protocol (the reader's error), or `out`
    /// refused an event (its error, passed on).
    fn read<W: TurnWriter + ?Sized>(&mut self, frame: &Frame, out: &mut W)
        -> Result<(), TurnError>;

    /// Says the upstream ended: a dialect that has no end event (Gemini),
    /// or a stream that stopped without its end marker after saying why it
    /// stopped (Chat without `[DONE]`), ends here.
    ///
    /// # Errors
    ///
    /// [`TurnErrorKind::Truncated`] for a stream cut before it said it was
    /// done.
    fn finish<W: TurnWriter + ?Sized>(&mut self, out: &mut W) -> Result<(), TurnError>;

    /// Upstream frames read so far.
    fn events(&self) -> u64;

    /// Choices or candidates other than the first that the reader saw and
    /// did not read (a turn has one answer).
    fn skipped(&self) -> u64 {
        0
    }
}

/// A dialect's writer: [`TurnEvent`]s in, wire bytes out.
pub trait TurnWriter {
    /// Writes one event.
    ///
    /// # Errors
    ///
    /// A limit of the writer (what it holds, what it keeps); nothing of the
    /// event was written.
    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError>;

    /// Ends the stream as failed, the dialect's way (nothing when it has
    /// ended).
    fn fail(&mut self, code: &str, message: &str);

    /// Takes the bytes written so far.
    fn take(&mut self) -> Bytes;

    /// Whether the stream has ended.
    fn is_finished(&self) -> bool;

    /// Hears of a fault a reader found in the upstream (the reader passes
    /// what this returns on). By default, a fault the reader reads past
    /// ([`TurnErrorKind::is_tolerated`]) is no error and any other is the
    /// reader's error, which ends its reading of the event; a writer that
    /// returns `Ok` for every fault (a linter) makes the reader go on and
    /// report the next.
    ///
    /// # Errors
    ///
    /// `error`, unless its kind is tolerated.
    fn fault(&mut self, error: TurnError) -> Result<(), TurnError> {
        if error.kind().is_tolerated() {
            Ok(())
        } else {
            Err(error)
        }
    }

    /// Whether this writer keeps [`TurnEvent::Extra`] members: an
    /// accumulator of the final answer does, a writer of a stream does not
    /// (the default), and readers hand them on only when it does, which
    /// spares a bridge the work.
    fn wants_extras(&self) -> bool {
        false
    }

    /// Items this writer was given and left out because its dialect has no
    /// way to say them: [`ItemKind::Other`] items of another dialect (a
    /// hosted tool call towards Chat or Gemini, say). A gateway reports
    /// them; nothing else a writer is given is left out.
    fn not_carried(&self) -> u64 {
        0
    }
}

/// The text of a JSON string: borrowed when it has no escapes, else
/// unescaped into `scratch`.
pub(crate) fn unescaped<'s>(s: JsonStr<'s>, scratch: &'s mut String) -> &'s str {
    match s.as_str() {
        Some(text) => text,
        None => {
            scratch.clear();
            s.unescape_into(scratch);
            scratch
        }
    }
}

/// `text` as a JSON string literal in `scratch`, borrowed as a [`JsonStr`].
pub(crate) fn as_json_str<'s>(text: &str, scratch: &'s mut String) -> JsonStr<'s> {
    scratch.clear();
    crate::json::push_json_str(scratch, text);
    let escaped = scratch.len() != text.len() + 2;
    JsonStr::new(scratch, escaped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        // The largest variants are the start (three optional fields) and
        // the usage (four optional counts), 64 bytes each; a delta (an
        // index, a kind and part, a string view) is 40. Nine words in all,
        // passed by reference to writers.
        assert_eq!(core::mem::size_of::<TurnEvent<'_>>(), 72);
        assert_eq!(core::mem::size_of::<TurnUsage>(), 64);
        assert_eq!(core::mem::size_of::<ItemKind<'_>>(), 48);
        assert_eq!(core::mem::size_of::<Stop<'_>>(), 32);
    }
}
