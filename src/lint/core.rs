//! The lint core over the turn model: a dialect's reader replays the
//! stream, and the faults it finds (order, lifecycle, end, indexes) become
//! findings here, in one place, whatever the dialect. The readers go on
//! past a fault when their writer hears it ([`TurnWriter::fault`]): the
//! core's [`Observed`] takes every fault, so one event may have several.
//! The linters built on it ([`ChatLinter`](super::ChatLinter),
//! [`AnthropicLinter`](super::AnthropicLinter),
//! [`GeminiLinter`](super::GeminiLinter)) add their dialect's own rules
//! beside it. [`ResponsesLinter`](super::ResponsesLinter) reads through a
//! checked Responses reader into the core's writer and takes the rule and
//! severity of each order fault from [`order_rule`]; it words their
//! messages itself (they name the items and parts the order checker
//! tracks) and keeps its own checks beside them.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::linter::LintConfig;
use super::reports::Reports;
use super::rule::{Rule, Severity};
use crate::dialect::Dialect;
use crate::frame::FrameError;
use crate::responses::order::Fault;
use crate::turn::{TurnError, TurnErrorKind, TurnEvent, TurnWriter};
use crate::views::{DecodeError, DecodeErrorKind};

/// The finding for data that does not decode: not JSON (or not an
/// object), no `type`, a `type` the `event:` name contradicts, or a field
/// of the wrong kind.
pub(super) fn decode_finding(reports: &mut Reports, e: &DecodeError, offset: u64) {
    let rule = match e.kind() {
        DecodeErrorKind::Json(_) | DecodeErrorKind::NotAnObject => Rule::InvalidJson,
        DecodeErrorKind::MissingField { field: "type" } => Rule::MissingType,
        DecodeErrorKind::TypeMismatch => Rule::EventNameMismatch,
        _ => Rule::InvalidEvent,
    };
    reports.rule(rule, offset, format!("{e}"));
}

/// How a dialect's stream says it is over, for messages.
fn end_marker(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Responses => "`response.completed`, `response.incomplete` or `response.failed`",
        Dialect::Chat => "a `finish_reason`",
        Dialect::Anthropic => "`message_stop`",
        Dialect::Gemini => "a `finishReason` or a `promptFeedback.blockReason`",
    }
}

/// What a dialect linter read of the event, for the words of a finding
/// about it: its `type`, and the type of the fragment it carries.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Names<'a> {
    /// The event's type (`""` when the dialect has none).
    pub(super) ty: &'a str,
    /// The type of the fragment (an Anthropic delta's), or `""`.
    pub(super) delta: &'a str,
}

/// How a dialect calls an item, for messages.
fn item_name(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Chat => "tool calls",
        Dialect::Anthropic => "content blocks",
        Dialect::Responses | Dialect::Gemini => "items",
    }
}

/// The rule, severity and message of a reader's fault: the one map from
/// the readers' vocabulary ([`TurnErrorKind`]) to lint rules. `None` for a
/// decode error, which [`decode_finding`] words. `failed`: an error event
/// came before (a stream that ends after one has told its client why).
fn fault(
    dialect: Dialect,
    kind: TurnErrorKind,
    names: Names<'_>,
    failed: bool,
) -> Option<(Rule, Severity, String)> {
    let anthropic = dialect == Dialect::Anthropic;
    let (rule, message) = match kind {
        TurnErrorKind::Decode(_) => return None,
        TurnErrorKind::UnknownIndex { index } if anthropic => (
            Rule::UnknownItem,
            format!(
                "`{}` for block {index}, which no `content_block_start` began",
                names.ty
            ),
        ),
        TurnErrorKind::UnknownIndex { index } => (
            Rule::UnknownItem,
            format!("a fragment or end of item {index}, which never started"),
        ),
        TurnErrorKind::IndexClosed { index } if anthropic => (
            Rule::EventAfterItemDone,
            format!("block {index}: a delta after its `content_block_stop`"),
        ),
        TurnErrorKind::IndexClosed { index } => (
            Rule::EventAfterItemDone,
            format!("a fragment of item {index} after it was complete"),
        ),
        TurnErrorKind::DuplicateEnd { index } => (
            Rule::DuplicateItem,
            format!("block {index}: a second `content_block_stop`"),
        ),
        TurnErrorKind::DuplicateIndex { index } => (
            Rule::DuplicateItem,
            format!("block {index} started a second time"),
        ),
        TurnErrorKind::IndexSkipped { index, next } => (
            Rule::BlockIndexMismatch,
            format!(
                "block {index} started after {next} block(s): SDKs append blocks, so \
                 indexes must count up from 0"
            ),
        ),
        TurnErrorKind::DeltaMismatch { index } => (
            Rule::DeltaTypeMismatch,
            format!(
                "block {index}: a `{}` for a block of another kind",
                names.delta
            ),
        ),
        TurnErrorKind::TooManyItems { limit } => (
            Rule::LimitReached,
            format!(
                "more than {limit} {}: later ones are not checked",
                item_name(dialect)
            ),
        ),
        TurnErrorKind::TooManyChoices { limit } => (
            Rule::LimitReached,
            format!("more than {limit} choices: later ones are not checked"),
        ),
        TurnErrorKind::TooManyBytes { limit } => (
            Rule::LimitReached,
            format!("more than {limit} bytes kept: later events are not checked"),
        ),
        TurnErrorKind::ContentAfterFinish | TurnErrorKind::SecondEnd => {
            let second = kind == TurnErrorKind::SecondEnd;
            let rule = if second {
                Rule::MultipleTerminal
            } else {
                Rule::EventAfterTerminal
            };
            let message = match (dialect, second) {
                (Dialect::Chat, true) => {
                    "a second `data: [DONE]`: clients stop reading at the first `[DONE]`".into()
                }
                (Dialect::Chat, false) => {
                    "an event after `data: [DONE]`: clients stop reading at the first `[DONE]`"
                        .into()
                }
                (Dialect::Anthropic, true) => "a second `message_stop`: the message is over".into(),
                (Dialect::Anthropic, false) => {
                    "an event after `message_stop`: the message is over".into()
                }
                (Dialect::Gemini, _) => "an event after an error chunk (google-genai raises at \
                                         the error and reads no further)"
                    .into(),
                _ => format!("an event after the stream's end ({})", end_marker(dialect)),
            };
            (rule, message)
        }
        TurnErrorKind::DuplicateStart if anthropic => {
            (Rule::DuplicateItem, "a second `message_start`".into())
        }
        TurnErrorKind::DuplicateStart => (Rule::DuplicateItem, "the turn started twice".into()),
        TurnErrorKind::StartNotFirst if dialect == Dialect::Responses => (
            Rule::CreatedNotFirst,
            format!(
                "the first event is `{}`, not `response.created` (a resumed stream?)",
                names.ty
            ),
        ),
        TurnErrorKind::StartNotFirst => (
            Rule::MessageStartNotFirst,
            format!(
                "the first event is `{}`, not `message_start` (SDKs have no message to add it to)",
                names.ty
            ),
        ),
        TurnErrorKind::NoStopReason => (
            Rule::MissingStopReason,
            "`message_stop` without a `message_delta` that gave the `stop_reason`".into(),
        ),
        TurnErrorKind::ItemNotClosed { index } => (
            Rule::ItemNotDone,
            format!("block {index} was never stopped (`content_block_stop`)"),
        ),
        TurnErrorKind::UnknownEvent => (
            Rule::UnknownEventType,
            format!("`{}`: an event type this version does not know", names.ty),
        ),
        TurnErrorKind::ContentAfterStop { choice } => (
            Rule::EventAfterItemDone,
            format!(
                "choice {choice}: a delta after its `finish_reason` (clients have closed the \
                 message)"
            ),
        ),
        TurnErrorKind::CallWithoutId {
            choice,
            call,
            no_id,
            no_name,
        } => {
            let missing = match (no_id, no_name) {
                (true, true) => "`id` and `function.name`",
                (true, false) => "`id`",
                _ => "`function.name`",
            };
            (
                Rule::ToolCallWithoutId,
                format!(
                    "choice {choice}, tool call {call}: its first fragment has no {missing} \
                     (clients cannot start the call)"
                ),
            )
        }
        TurnErrorKind::ChoiceNotStopped { choice } => (
            Rule::MissingFinishReason,
            format!("choice {choice} never got a `finish_reason` (the stream was cut?)"),
        ),
        TurnErrorKind::NoChoices => (Rule::MissingFinishReason, "no chunk had a choice".into()),
        TurnErrorKind::MissingEnd => {
            let severity = if failed {
                Severity::Info
            } else {
                Severity::Warning
            };
            return Some((
                Rule::MissingTerminal,
                severity,
                "the stream ended without `data: [DONE]` (OpenAI sends it; clients that wait \
                 for it report a disconnect)"
                    .into(),
            ));
        }
        TurnErrorKind::Truncated if anthropic => {
            let severity = if failed {
                Severity::Warning
            } else {
                Severity::Error
            };
            return Some((
                Rule::MissingTerminal,
                severity,
                "the stream ended without `message_stop` (clients report a disconnect)".into(),
            ));
        }
        TurnErrorKind::Truncated => {
            // Where a finish reason is the end (Gemini has no end event), a
            // stream without one was cut: clients that take the last
            // finish reason see none and show the partial answer.
            let rule = match dialect {
                Dialect::Gemini | Dialect::Chat => Rule::MissingFinishReason,
                Dialect::Responses | Dialect::Anthropic => Rule::MissingTerminal,
            };
            (
                rule,
                format!(
                    "the stream ended without {} (cut? clients show the partial answer as if \
                     it were whole)",
                    end_marker(dialect)
                ),
            )
        }
        TurnErrorKind::InvalidArguments => (
            Rule::InvalidArguments,
            "streamed tool call arguments (`partialArgs`) out of document order or at a path \
             that cannot be read: the piece is left out of the call"
                .into(),
        ),
        // A writer's limits: the core's sink writes nothing, so these do not
        // arise; said as a stopped check if they ever do.
        _ => (Rule::LimitReached, format!("the reader stopped: {kind:?}")),
    };
    Some((rule, rule.default_severity(), message))
}

/// The rule and severity of a fault of a Responses stream's order (the
/// checked reader's [`TurnErrorKind::Order`]): the one map from the order
/// checker's vocabulary to lint rules. The Responses linter words the
/// messages (they name the items and parts the checker tracks). `failed`:
/// the terminal event is `response.failed`, after which what is unfinished
/// is only a warning (clients read the error, not the items).
pub(super) fn order_rule(fault: Fault, failed: bool) -> (Rule, Severity) {
    use Severity::{Error, Info, Warning};
    match fault {
        Fault::SequenceGap { .. } => (Rule::SequenceGap, Warning),
        Fault::SequenceRegression { .. } => (Rule::SequenceNotIncreasing, Error),
        Fault::MissingSequenceNumber { .. } => (Rule::MissingSequenceNumber, Warning),
        Fault::EventAfterTerminal { .. } => (Rule::EventAfterTerminal, Error),
        Fault::SecondTerminal { .. } => (Rule::MultipleTerminal, Error),
        Fault::ItemsNotDone { .. } if failed => (Rule::ItemNotDone, Warning),
        Fault::ItemsNotDone { .. } | Fault::ItemDoneWithOpenParts { .. } => {
            (Rule::ItemNotDone, Error)
        }
        Fault::ItemAddedTwice
        | Fault::ItemDoneTwice
        | Fault::PartAddedTwice { .. }
        | Fault::PartDoneTwice { .. }
        | Fault::TextDoneTwice { .. } => (Rule::DuplicateItem, Error),
        Fault::UnexpectedOutputIndex { .. } | Fault::OutputIndexMismatch { .. } => {
            (Rule::OutputIndexMismatch, Error)
        }
        Fault::ItemNotAdded { .. } => (Rule::UnknownItem, Error),
        Fault::MissingItemId => (Rule::MissingItemId, Error),
        Fault::EventAfterItemDone | Fault::TextAfterDone { .. } => {
            (Rule::EventAfterItemDone, Error)
        }
        Fault::PartNotAdded { .. } => (Rule::PartNotAdded, Error),
        Fault::TooManyItems { .. } | Fault::TooManyParts { .. } => (Rule::LimitReached, Info),
    }
}

/// What the reader said about the turn, as far as the shared checks and a
/// dialect's own rules need it. The reader's [`TurnWriter`]: it writes
/// nothing and refuses nothing.
#[derive(Debug, Default)]
pub(super) struct Observed {
    /// A `Usage` event came.
    pub(super) usage: bool,
    /// An `Error` event came: the upstream reported a failure.
    pub(super) failed: bool,
    /// A `Stop` event came.
    pub(super) stopped: bool,
    /// The faults the reader read past, oldest first, until the core
    /// reports them (after each event).
    faults: Vec<TurnError>,
}

impl Observed {
    /// The faults heard and not yet reported, oldest first.
    pub(super) fn faults(&self) -> &[TurnError] {
        &self.faults
    }

    /// Forgets the faults heard (their linter reported them).
    pub(super) fn clear_faults(&mut self) {
        self.faults.clear();
    }
}

impl TurnWriter for Observed {
    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        match event {
            TurnEvent::Usage(_) => self.usage = true,
            TurnEvent::Error(_) => self.failed = true,
            TurnEvent::Stop(_) => self.stopped = true,
            _ => {}
        }
        Ok(())
    }

    fn fault(&mut self, error: TurnError) -> Result<(), TurnError> {
        self.faults.push(error);
        Ok(())
    }

    fn fail(&mut self, _code: &str, _message: &str) {}

    fn take(&mut self) -> bytes::Bytes {
        bytes::Bytes::new()
    }

    fn is_finished(&self) -> bool {
        false
    }
}

/// The shared half of a linter over the turn model: the findings queue,
/// what the reader observed, and the map of its faults to rules.
#[derive(Debug)]
pub(super) struct Core {
    dialect: Dialect,
    pub(super) config: LintConfig,
    pub(super) reports: Reports,
    pub(super) observed: Observed,
    finished: bool,
    /// A limit's finding was reported.
    limit_reported: bool,
}

impl Core {
    pub(super) fn new(dialect: Dialect, config: LintConfig) -> Self {
        Self {
            dialect,
            reports: Reports::new(&config),
            config,
            observed: Observed::default(),
            finished: false,
            limit_reported: false,
        }
    }

    /// Reports what the reader said of the event whose block begins at
    /// `offset`: the faults it read past, then its error.
    pub(super) fn read(&mut self, result: Result<(), TurnError>, offset: u64) {
        self.read_named(result, offset, Names::default());
    }

    /// As [`read`](Self::read), with the event's names for the messages.
    pub(super) fn read_named(
        &mut self,
        result: Result<(), TurnError>,
        offset: u64,
        names: Names<'_>,
    ) {
        for i in 0..self.observed.faults.len() {
            let kind = self.observed.faults[i].kind();
            self.report(kind, offset, names);
        }
        self.observed.faults.clear();
        if let Err(e) = result {
            self.report(e.kind(), offset, names);
        }
    }

    fn report(&mut self, kind: TurnErrorKind, offset: u64, names: Names<'_>) {
        self.report_at(kind, (offset, None), names);
    }

    /// Reports one fault of the event at `offset` with this
    /// `sequence_number`, under the rule the map gives it.
    pub(super) fn report_at(
        &mut self,
        kind: TurnErrorKind,
        (offset, seq): (u64, Option<u64>),
        names: Names<'_>,
    ) {
        if let TurnErrorKind::Decode(d) = kind {
            return decode_finding(&mut self.reports, &d, offset);
        }
        // A check that stopped says so once; what it no longer tracks is
        // not reported as unknown.
        let limit = matches!(
            kind,
            TurnErrorKind::TooManyItems { .. } | TurnErrorKind::TooManyChoices { .. }
        );
        if limit && core::mem::replace(&mut self.limit_reported, true) {
            return;
        }
        if self.limit_reported && matches!(kind, TurnErrorKind::UnknownIndex { .. }) {
            return;
        }
        let failed = self.observed.failed;
        if let Some((rule, severity, message)) = fault(self.dialect, kind, names, failed) {
            self.reports.report(rule, severity, (offset, seq), message);
        }
    }

    /// Reports a framing error of the parser that read the stream.
    pub(super) fn frame_error(&mut self, error: &FrameError) {
        self.reports.rule(
            Rule::SseError,
            error.offset(),
            format!("sse framing: {error}"),
        );
    }

    /// The end of the stream: reports the reader's verdict at `end_offset`.
    /// Returns `false` when the end was already checked.
    pub(super) fn finish(&mut self, result: Result<(), TurnError>, end_offset: u64) -> bool {
        if core::mem::replace(&mut self.finished, true) {
            return false;
        }
        self.read(result, end_offset);
        true
    }

    /// Whether the end was checked.
    pub(super) fn is_finished(&self) -> bool {
        self.finished
    }
}
