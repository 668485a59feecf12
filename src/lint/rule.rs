//! `Rule`, `Severity` and `Finding`: what the linter reports.

use alloc::string::String;
use core::fmt;

/// How bad a finding is.
///
/// Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Severity {
    /// Worth knowing, breaks no client (a `[DONE]` sentinel, an event type
    /// this version does not know, a check that stopped at a memory cap).
    Info,
    /// Real clients cope, but the stream departs from what the API sends
    /// (a missing `sequence_number`, a gap in the numbering).
    Warning,
    /// A client that follows the documented processing flow breaks, drops
    /// data or reports a failure.
    Error,
}

impl Severity {
    /// The lowercase name: `"info"`, `"warning"` or `"error"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Info => "info",
            Self::Warning => "warning",
            Self::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! rules {
    ($( $(#[$meta:meta])* $variant:ident = $id:literal, $sev:ident; )*) => {
        /// A lint rule. Its [`id`](Self::id) is stable: tools may match on it.
        ///
        /// The [module docs](super) have the table of rules with what each
        /// checks and why.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Rule {
            $( $(#[$meta])* $variant, )*
        }

        impl Rule {
            /// Every rule, in the order of the table in the module docs.
            pub const ALL: &'static [Rule] = &[$(Self::$variant),*];

            /// The rule's stable string id, such as `"missing-type"`.
            pub fn id(self) -> &'static str {
                match self {
                    $( Self::$variant => $id, )*
                }
            }

            /// The rule whose [`id`](Self::id) this is.
            pub fn from_id(id: &str) -> Option<Self> {
                match id {
                    $( $id => Some(Self::$variant), )*
                    _ => None,
                }
            }

            /// The severity the rule's findings usually have. A few findings
            /// differ (see the table in the module docs): the finding's own
            /// [`Finding::severity`] is what counts.
            pub fn default_severity(self) -> Severity {
                match self {
                    $( Self::$variant => Severity::$sev, )*
                }
            }
        }
    };
}

rules! {
    /// The SSE framing failed: a configured limit was exceeded (the event
    /// was dropped) or the stream ended inside an event.
    SseError = "sse-error", Error;
    /// An event's data is not JSON, or not a JSON object.
    InvalidJson = "invalid-json", Error;
    /// An event's data has no string `type` member.
    MissingType = "missing-type", Error;
    /// The SSE `event:` name differs from the data's `type`.
    EventNameMismatch = "event-name-mismatch", Error;
    /// An event of a known type lacks a field its type requires, or a field
    /// has the wrong JSON kind, so it does not fit its typed view (it
    /// decodes to `Unknown` with that error).
    InvalidEvent = "invalid-event", Error;
    /// An event type this version does not know.
    UnknownEventType = "unknown-event-type", Info;
    /// A `data: [DONE]` sentinel, which the Responses API does not send.
    DoneSentinel = "done-sentinel", Info;
    /// An event without `sequence_number`.
    MissingSequenceNumber = "missing-sequence-number", Warning;
    /// A `sequence_number` not greater than the one before.
    SequenceNotIncreasing = "sequence-not-increasing", Error;
    /// A `sequence_number` more than one past the one before.
    SequenceGap = "sequence-gap", Warning;
    /// The first event is not `response.created`.
    CreatedNotFirst = "created-not-first", Warning;
    /// An event about an output item has no `item_id`.
    MissingItemId = "missing-item-id", Error;
    /// An event names an item no earlier `response.output_item.added` introduced.
    UnknownItem = "unknown-item", Error;
    /// `response.output_item.added` for an item id already added.
    DuplicateItem = "duplicate-item", Error;
    /// An `output_index` that disagrees with the item's, or an item added at
    /// an index other than the next one.
    OutputIndexMismatch = "output-index-mismatch", Error;
    /// An event about an item after its `response.output_item.done`.
    EventAfterItemDone = "event-after-item-done", Error;
    /// A delta, done or annotation event for a content part or reasoning
    /// summary part before its `*.part.added` (or a part done that was never added).
    PartNotAdded = "part-not-added", Error;
    /// A `*.done` event's text differs from the concatenation of its deltas.
    DoneMismatch = "done-mismatch", Error;
    /// An item (or one of its parts or streamed texts) was started and not
    /// finished before the item's or the response's end.
    ItemNotDone = "item-not-done", Error;
    /// The stream ended without `response.completed`, `response.incomplete`
    /// or `response.failed`.
    MissingTerminal = "missing-terminal", Error;
    /// A second terminal event.
    MultipleTerminal = "multiple-terminal", Error;
    /// An event after the terminal event.
    EventAfterTerminal = "event-after-terminal", Error;
    /// The terminal response's `output` disagrees with the streamed items
    /// (count, ids, types or order).
    TerminalOutputMismatch = "terminal-output-mismatch", Error;
    /// The terminal response's `id` differs from the one `response.created`
    /// announced.
    ResponseIdMismatch = "response-id-mismatch", Error;
    /// A memory cap of [`LintConfig`](super::LintConfig) was reached: checking
    /// stopped for an item, or further findings are not reported.
    LimitReached = "limit-reached", Info;
    /// Chat Completions: a tool call's first fragment has no `id` or no
    /// function `name`.
    ToolCallWithoutId = "tool-call-without-id", Error;
    /// Chat Completions: a choice never got a `finish_reason`.
    MissingFinishReason = "missing-finish-reason", Error;
    /// Anthropic Messages: the first event is not `message_start`.
    MessageStartNotFirst = "message-start-not-first", Error;
    /// Anthropic Messages: a content block started at an index other than
    /// the next one.
    BlockIndexMismatch = "block-index-mismatch", Error;
    /// Anthropic Messages: a delta of a type the block's kind does not take
    /// (a `text_delta` for a tool use, say).
    DeltaTypeMismatch = "delta-type-mismatch", Error;
    /// Anthropic Messages: `message_stop` without a `message_delta` that
    /// gave the `stop_reason`.
    MissingStopReason = "missing-stop-reason", Warning;
    /// Tool call arguments that are not a JSON object (Gemini
    /// `functionCall.args`, which clients read as an object).
    InvalidArguments = "invalid-arguments", Error;
    /// Gemini: a `functionCall` part without `name` (and not a fragment of
    /// streamed arguments).
    FunctionCallWithoutName = "function-call-without-name", Error;
    /// Gemini: an error chunk whose `error` is not the object's first
    /// member.
    ErrorNotFirst = "error-not-first", Error;
    /// Gemini: an error object without an integer `code`, or without
    /// `message` or `status`.
    IncompleteError = "incomplete-error", Warning;
    /// Gemini: no chunk carried `usageMetadata`.
    MissingUsage = "missing-usage", Warning;
    /// Gemini: a turn that thought and whose first function call has no
    /// `thoughtSignature`.
    MissingThoughtSignature = "missing-thought-signature", Warning;
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One problem the linter found: which [`Rule`], how bad, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    rule: Rule,
    severity: Severity,
    offset: u64,
    sequence_number: Option<u64>,
    message: String,
}

impl Finding {
    pub(crate) fn new(
        rule: Rule,
        severity: Severity,
        offset: u64,
        sequence_number: Option<u64>,
        message: String,
    ) -> Self {
        Self {
            rule,
            severity,
            offset,
            sequence_number,
            message,
        }
    }

    /// The rule that was broken.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// How bad it is.
    pub fn severity(&self) -> Severity {
        self.severity
    }

    /// Whether the severity is [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Byte offset in the stream of the first line of the event's block
    /// (the lines since the blank line before it, comments included, as
    /// SSE groups them); for a framing error, where the bad line or the
    /// truncated tail begins; for findings about the end of the stream, the
    /// offset of its end.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The `sequence_number` of the event, when it had one.
    pub fn sequence_number(&self) -> Option<u64> {
        self.sequence_number
    }

    /// What is wrong, in one line of lowercase prose.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Finding {
    /// `offset 123 seq 4: error event-name-mismatch: message` (`seq -` when
    /// the event had no sequence number).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "offset {} seq ", self.offset)?;
        match self.sequence_number {
            Some(n) => write!(f, "{n}")?,
            None => f.write_str("-")?,
        }
        write!(f, ": {} {}: {}", self.severity, self.rule, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn ids_are_unique_kebab_case_and_round_trip() {
        let mut ids: alloc::vec::Vec<_> = Rule::ALL.iter().map(|r| r.id()).collect();
        for id in &ids {
            assert!(
                id.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{id}"
            );
            assert_eq!(Rule::from_id(id).map(Rule::id), Some(*id));
        }
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Rule::ALL.len());
        assert_eq!(Rule::from_id("no-such-rule"), None);
    }

    #[test]
    fn display_names_offset_seq_severity_rule() {
        let f = Finding::new(Rule::MissingType, Severity::Error, 12, Some(3), "x".into());
        assert_eq!(f.to_string(), "offset 12 seq 3: error missing-type: x");
        let f = Finding::new(Rule::DoneSentinel, Severity::Info, 0, None, "y".into());
        assert_eq!(f.to_string(), "offset 0 seq -: info done-sentinel: y");
        assert!(Severity::Info < Severity::Warning && Severity::Warning < Severity::Error);
    }
}
