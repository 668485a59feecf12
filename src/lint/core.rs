//! The lint core over the turn model: a dialect's reader replays the
//! stream, and the faults it finds (order, lifecycle, end, indexes) become
//! findings here, in one place, whatever the dialect. A linter built on it
//! ([`GeminiLinter`](super::GeminiLinter)) adds its dialect's own rules
//! beside it.

use alloc::format;
use alloc::string::String;

use super::linter::LintConfig;
use super::reports::Reports;
use super::rule::{Rule, Severity};
use crate::dialect::Dialect;
use crate::frame::FrameError;
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

/// The rule, severity and message of a reader's fault: the one map from
/// the readers' vocabulary ([`TurnErrorKind`]) to lint rules. `None` for a
/// decode error, which [`decode_finding`] words.
fn fault(dialect: Dialect, kind: TurnErrorKind) -> Option<(Rule, Severity, String)> {
    let (rule, message) = match kind {
        TurnErrorKind::Decode(_) => return None,
        TurnErrorKind::UnknownIndex { index } => (
            Rule::UnknownItem,
            format!("a fragment or end of item {index}, which never started"),
        ),
        TurnErrorKind::IndexClosed { index } => (
            Rule::EventAfterItemDone,
            format!("a fragment of item {index} after it was complete"),
        ),
        TurnErrorKind::TooManyItems { limit } => (
            Rule::LimitReached,
            format!("more than {limit} items: later ones are not checked"),
        ),
        TurnErrorKind::TooManyBytes { limit } => (
            Rule::LimitReached,
            format!("more than {limit} bytes kept: later events are not checked"),
        ),
        TurnErrorKind::ContentAfterFinish => (
            Rule::EventAfterTerminal,
            match dialect {
                Dialect::Gemini => "an event after an error chunk (google-genai raises at the \
                                    error and reads no further)"
                    .into(),
                _ => format!("an event after the stream's end ({})", end_marker(dialect)),
            },
        ),
        TurnErrorKind::DuplicateStart => (Rule::DuplicateItem, "the turn started twice".into()),
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
            "tool call arguments that are not a JSON object".into(),
        ),
        // A writer's limits: the core's sink writes nothing, so these do not
        // arise; said as a stopped check if they ever do.
        TurnErrorKind::HoldExceeded { .. } | TurnErrorKind::Writer(_) => {
            (Rule::LimitReached, format!("the reader stopped: {kind:?}"))
        }
    };
    Some((rule, rule.default_severity(), message))
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
}

impl Core {
    pub(super) fn new(dialect: Dialect, config: LintConfig) -> Self {
        Self {
            dialect,
            reports: Reports::new(&config),
            config,
            observed: Observed::default(),
            finished: false,
        }
    }

    /// Reports what the reader said of the event whose block begins at
    /// `offset`.
    pub(super) fn read(&mut self, result: Result<(), TurnError>, offset: u64) {
        let Err(e) = result else { return };
        if let TurnErrorKind::Decode(d) = e.kind() {
            return decode_finding(&mut self.reports, &d, offset);
        }
        if let Some((rule, severity, message)) = fault(self.dialect, e.kind()) {
            self.reports.report(rule, severity, (offset, None), message);
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
