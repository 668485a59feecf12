//! The error and the outcome every accumulator of this module reports.

use core::fmt;

use crate::json::JsonError;
use crate::responses::DecodeError;
use crate::turn::{TurnError, TurnErrorKind};

/// An event an accumulator could not fully keep: an [`AccumulateErrorKind`],
/// the position of the event among those pushed, and its `sequence_number`
/// when the dialect has one (Responses).
///
/// After an error the accumulator stays usable and consistent: it kept what
/// it could of the event, and later events are applied normally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AccumulateError {
    kind: AccumulateErrorKind,
    event_index: u64,
    sequence_number: Option<u64>,
}

/// What an [`AccumulateError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AccumulateErrorKind {
    /// Keeping the event would take the accumulator past its memory limit
    /// ([`ResponsesAccumulatorConfig::max_bytes`](super::ResponsesAccumulatorConfig::max_bytes),
    /// and the `max_bytes` of the other accumulators' configurations). What did
    /// not fit was not kept, and a Chat or Anthropic result is marked
    /// [`Outcome::Truncated`].
    TooManyBytes {
        /// The limit.
        limit: usize,
    },
    /// [`ResponsesAccumulatorConfig::max_items`](super::ResponsesAccumulatorConfig::max_items).
    TooManyItems {
        /// The limit.
        limit: usize,
    },
    /// [`ResponsesAccumulatorConfig::max_parts`](super::ResponsesAccumulatorConfig::max_parts).
    TooManyParts {
        /// The limit.
        limit: usize,
    },
    /// A Chat Completions chunk named a choice `index` past
    /// [`ChatAccumulatorConfig::max_choices`](super::ChatAccumulatorConfig::max_choices)
    /// distinct choices (default
    /// [`DEFAULT_MAX_CHOICES`](super::chat::DEFAULT_MAX_CHOICES)). The
    /// choice's delta was not kept, and the completion is marked
    /// [`Outcome::Truncated`].
    TooManyChoices {
        /// The limit.
        limit: usize,
    },
    /// A Chat Completions choice named a tool call `index` past
    /// [`ChatAccumulatorConfig::max_tool_calls`](super::ChatAccumulatorConfig::max_tool_calls)
    /// distinct tool calls (default
    /// [`DEFAULT_MAX_TOOL_CALLS`](super::chat::DEFAULT_MAX_TOOL_CALLS)). The
    /// call's fragment was not kept, and the completion is marked
    /// [`Outcome::Truncated`].
    TooManyToolCalls {
        /// The limit.
        limit: usize,
    },
    /// The event, or a part of it, does not decode. The offset is in the
    /// event's data.
    ///
    /// * A part decoded lazily (an element of `choices`, of `tool_calls`, of
    ///   a log probability list): the rest of the event was still applied
    ///   (Chat).
    /// * A whole event that does not fit its type (the dialect's `Unknown`
    ///   with an error), or a Responses event whose lazy payload does not
    ///   decode: nothing of it was applied.
    Decode(DecodeError),
    /// A piece of a Gemini call's
    /// streamed arguments (`partialArgs`) that does not continue them (an
    /// array index out of order, a path it cannot read: the piece is
    /// dropped, `index` is the part's, the offset the arguments' length).
    InvalidInput {
        /// The part's index.
        index: u64,
        /// The JSON error; its offset is in the assembled input text.
        error: JsonError,
    },
    /// A fault the dialect's reader found in the stream (the one
    /// vocabulary of stream faults, [`TurnErrorKind`]), or a limit of the
    /// turn model that has no kind of its own here.
    Stream(TurnErrorKind),
}

impl From<TurnError> for AccumulateError {
    /// The reader's or the turn accumulator's error as an accumulator's:
    /// the limits and decode errors as their own kinds, every other fault
    /// as [`AccumulateErrorKind::Stream`], at the same event.
    fn from(e: TurnError) -> Self {
        let kind = match e.kind() {
            TurnErrorKind::TooManyBytes { limit } => AccumulateErrorKind::TooManyBytes { limit },
            TurnErrorKind::TooManyItems { limit } => AccumulateErrorKind::TooManyItems { limit },
            TurnErrorKind::TooManyChoices { limit } => {
                AccumulateErrorKind::TooManyChoices { limit }
            }
            TurnErrorKind::Decode(d) => AccumulateErrorKind::Decode(d),
            other => AccumulateErrorKind::Stream(other),
        };
        Self::new(kind, e.event_index(), None)
    }
}

impl AccumulateError {
    pub(crate) fn new(
        kind: AccumulateErrorKind,
        event_index: u64,
        sequence_number: Option<u64>,
    ) -> Self {
        Self {
            kind,
            event_index,
            sequence_number,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> AccumulateErrorKind {
        self.kind
    }

    /// The position of the offending event among the events pushed (from 0,
    /// every event counted).
    pub fn event_index(&self) -> u64 {
        self.event_index
    }

    /// The offending event's `sequence_number`, if it had one.
    pub fn sequence_number(&self) -> Option<u64> {
        self.sequence_number
    }
}

impl fmt::Display for AccumulateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            AccumulateErrorKind::TooManyBytes { limit } => {
                write!(f, "accumulated stream exceeds {limit} bytes")?
            }
            AccumulateErrorKind::TooManyItems { limit } => {
                write!(f, "response has more than {limit} output items")?
            }
            AccumulateErrorKind::TooManyParts { limit } => {
                write!(f, "an output item has more than {limit} parts")?
            }
            AccumulateErrorKind::TooManyChoices { limit } => {
                write!(f, "completion has more than {limit} choices")?
            }
            AccumulateErrorKind::TooManyToolCalls { limit } => {
                write!(f, "a choice has more than {limit} tool calls")?
            }
            AccumulateErrorKind::Decode(e) => write!(f, "{e}")?,
            AccumulateErrorKind::InvalidInput { index, error } => write!(
                f,
                "tool input of content block {index} is invalid json: {error}"
            )?,
            AccumulateErrorKind::Stream(kind) => write!(f, "{kind}")?,
        }
        write!(f, " at event {}", self.event_index)?;
        if let Some(n) = self.sequence_number {
            write!(f, " (sequence_number {n})")?;
        }
        Ok(())
    }
}

impl core::error::Error for AccumulateError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match &self.kind {
            AccumulateErrorKind::Decode(e) => Some(e),
            AccumulateErrorKind::InvalidInput { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// How a stream ended, as far as an accumulator can tell. The same for
/// every dialect; a cut stream is never reported as a success.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Outcome {
    /// Not decided yet: a snapshot of the Chat or Anthropic accumulator
    /// before `finish` (a Responses [`FinalResponse`](super::FinalResponse)
    /// is always decided).
    #[default]
    InProgress,
    /// The stream ended as the dialect says a complete stream ends
    /// (`response.completed`; `[DONE]` after every choice finished;
    /// `message_stop` after every block stopped).
    Completed,
    /// `response.incomplete` (Responses): see `incomplete_details`.
    Incomplete,
    /// The server reported an error: `response.failed`, or an `error`
    /// event (chunk) with no terminal event after it.
    Failed,
    /// The stream ended early: no terminal event or end marker, a part
    /// never completed, or (Chat, Anthropic) the memory limit or a count
    /// limit dropped data.
    /// The result is what had arrived.
    Truncated,
}

impl Outcome {
    /// `in_progress`, `completed`, `incomplete`, `failed` or `truncated`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InProgress => "in_progress",
            Self::Completed => "completed",
            Self::Incomplete => "incomplete",
            Self::Failed => "failed",
            Self::Truncated => "truncated",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn errors_display_tersely_with_the_event() {
        let e = AccumulateError::new(AccumulateErrorKind::TooManyBytes { limit: 8 }, 3, None);
        assert_eq!(
            e.to_string(),
            "accumulated stream exceeds 8 bytes at event 3"
        );
        assert_eq!((e.event_index(), e.sequence_number()), (3, None));
        let e = AccumulateError::new(AccumulateErrorKind::TooManyItems { limit: 2 }, 5, Some(9));
        assert_eq!(
            e.to_string(),
            "response has more than 2 output items at event 5 (sequence_number 9)"
        );
    }

    #[test]
    fn turn_errors_convert_keeping_kind_and_position() {
        let e: AccumulateError =
            TurnError::new(TurnErrorKind::TooManyBytes { limit: 64 }, 7).into();
        assert_eq!(e.kind(), AccumulateErrorKind::TooManyBytes { limit: 64 });
        assert_eq!((e.event_index(), e.sequence_number()), (7, None));
        let e: AccumulateError =
            TurnError::new(TurnErrorKind::ContentAfterStop { choice: 1 }, 4).into();
        assert_eq!(
            e.kind(),
            AccumulateErrorKind::Stream(TurnErrorKind::ContentAfterStop { choice: 1 })
        );
        assert_eq!(
            e.to_string(),
            "content of choice 1 after its stop at event 4"
        );
    }

    #[test]
    fn outcomes_as_str() {
        assert_eq!(Outcome::default().as_str(), "in_progress");
        assert_eq!(Outcome::Truncated.to_string(), "truncated");
    }
}
