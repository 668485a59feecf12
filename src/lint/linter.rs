//! `Linter`: the checks, event by event, over frames the caller parsed.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use super::reports::Reports;
use super::rule::{Finding, Rule, Severity};
use crate::frame::{Frame, FrameError};
use crate::json::{JsonStr, ObjectView, Value};
use crate::responses::order::{Fault, StreamOrder};
use crate::responses::{DecodeErrorKind, EventKind, EventRole, PartKind, ResponseEvent, TextKind};

/// Memory caps of a [`Linter`].
///
/// Everything the linter keeps grows with the stream only up to these caps:
/// past one, an [`Info`](Severity::Info) finding of rule
/// [`LimitReached`](Rule::LimitReached) says which check stopped, and the
/// linter goes on with the others.
///
/// ```
/// use ssekit::lint::{LintConfig, Linter};
///
/// let linter = Linter::with_config(LintConfig::DEFAULT.with_max_text_bytes(1 << 20));
/// assert_eq!(linter.config().max_text_bytes, 1 << 20);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct LintConfig {
    /// Most output items tracked (each keeps its id, type and index, for
    /// the item checks and the terminal-output comparison). Default 4096.
    /// Past it, later items are not tracked and events about them are not
    /// checked.
    pub max_items: usize,
    /// Most content parts, summary parts and streamed texts tracked, over
    /// all items. Default 65536. Past it, the part checks stop for the item
    /// that reached it.
    pub max_parts: usize,
    /// Most bytes of text kept: the ids and types of the tracked items, and
    /// the delta text of the open texts, kept to compare each `*.done` event
    /// with its concatenated deltas. Default 64 MiB. A text is dropped when
    /// its done event arrives; one that would pass the cap is dropped at
    /// once and its done event not compared; an item whose id would pass it
    /// is not tracked (as past [`max_items`](Self::max_items)).
    pub max_text_bytes: usize,
    /// Most findings reported. Default 10000. Past it findings are counted
    /// (see [`Linter::count`]) and summarised in one last finding, at the
    /// end, with the severity of the worst one left out.
    pub max_findings: usize,
}

impl LintConfig {
    /// The default caps: 4096 items, 65536 parts, 64 MiB of text, 10000 findings.
    pub const DEFAULT: Self = Self {
        max_items: 4096,
        max_parts: 1 << 16,
        max_text_bytes: 64 << 20,
        max_findings: 10_000,
    };

    /// This configuration with another [`max_items`](Self::max_items).
    #[must_use]
    pub const fn with_max_items(mut self, items: usize) -> Self {
        self.max_items = items;
        self
    }

    /// This configuration with another [`max_parts`](Self::max_parts).
    #[must_use]
    pub const fn with_max_parts(mut self, parts: usize) -> Self {
        self.max_parts = parts;
        self
    }

    /// This configuration with another [`max_text_bytes`](Self::max_text_bytes).
    #[must_use]
    pub const fn with_max_text_bytes(mut self, bytes: usize) -> Self {
        self.max_text_bytes = bytes;
        self
    }

    /// This configuration with another [`max_findings`](Self::max_findings).
    #[must_use]
    pub const fn with_max_findings(mut self, findings: usize) -> Self {
        self.max_findings = findings;
        self
    }
}

impl Default for LintConfig {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The kind of part a delta belongs to, with the key of its index.
/// A part kind as the messages name it.
fn part_name(kind: PartKind) -> &'static str {
    match kind {
        PartKind::Content => "content part",
        PartKind::Summary => "summary part",
        PartKind::Command => "shell command",
    }
}

/// The members of an event the checks read: from its typed view when it
/// decodes, else from one lenient walk over its members.
#[derive(Default)]
struct Members<'a> {
    /// The `type`, unescaped (`None` when absent or not a string).
    ty: Option<Cow<'a, str>>,
    /// Whether the event has a (non-null) `sequence_number`.
    has_sequence_number: bool,
    sequence_number: Option<u64>,
    item_id: Option<JsonStr<'a>>,
    output_index: Option<u64>,
    content_index: Option<u64>,
    summary_index: Option<u64>,
    command_index: Option<u64>,
    delta: Option<JsonStr<'a>>,
    item: Option<ObjectView<'a>>,
    response: Option<ObjectView<'a>>,
    object: Option<ObjectView<'a>>,
}

impl<'a> Members<'a> {
    /// From a decoded event (not `Unknown` nor `Done`): no walk.
    fn from_event(event: &ResponseEvent<'a>, object: ObjectView<'a>) -> Self {
        let k = event.members();
        Self {
            ty: Some(Cow::Borrowed(event.ty())),
            has_sequence_number: event.sequence_number().is_some(),
            sequence_number: event.sequence_number(),
            item_id: k.item_id,
            output_index: k.output_index,
            content_index: k.content_index,
            summary_index: k.summary_index,
            command_index: k.command_index,
            delta: k.delta,
            item: k.item,
            response: k.response,
            object: Some(object),
        }
    }

    /// The lenient walk, for an event whose typed view does not decode.
    fn read(object: ObjectView<'a>) -> Self {
        let mut m = Self {
            object: Some(object),
            ..Self::default()
        };
        for (key, value) in object.members() {
            // The last of duplicate keys, as `ObjectView::get` and
            // serde_json::Value; null is absent.
            let value = (!value.is_null()).then_some(value);
            let u64 = value.as_ref().and_then(Value::as_u64);
            let str = value.as_ref().and_then(Value::as_json_str);
            let object = value.as_ref().and_then(Value::as_object);
            match &*key.unescape() {
                "type" => m.ty = str.map(|t| t.unescape()),
                "sequence_number" => {
                    m.has_sequence_number = value.is_some();
                    m.sequence_number = u64;
                }
                "item_id" => m.item_id = str,
                "output_index" => m.output_index = u64,
                "content_index" => m.content_index = u64,
                "summary_index" => m.summary_index = u64,
                "command_index" => m.command_index = u64,
                "delta" => m.delta = str,
                "item" => m.item = object,
                "response" => m.response = object,
                _ => {}
            }
        }
        m
    }

    fn index(&self, kind: PartKind) -> Option<u64> {
        match kind {
            PartKind::Content => self.content_index,
            PartKind::Summary => self.summary_index,
            PartKind::Command => self.command_index,
        }
    }

    fn output_index(&self) -> Option<u64> {
        self.output_index
    }

    fn get_str(&self, key: &str) -> Option<JsonStr<'a>> {
        self.object?.get(key)?.as_json_str()
    }
}

#[derive(Debug)]
struct PartState {
    kind: PartKind,
    index: u64,
    done: bool,
}

#[derive(Debug)]
struct TextState {
    spec: TextKind,
    index: Option<u64>,
    /// The concatenated deltas; `None` once dropped at the text cap.
    text: Option<String>,
    deltas: u64,
    done: bool,
    /// A missing part was reported for this text already.
    part_reported: bool,
}

#[derive(Debug)]
struct ItemState {
    /// Shared with the key of `Linter::by_id`.
    id: Arc<str>,
    ty: String,
    output_index: Option<u64>,
    done: bool,
    /// In the order added (for the messages).
    parts: Vec<PartState>,
    /// Where each part of `parts` is, by kind and index: O(log n) lookups.
    part_at: BTreeMap<(PartKind, u64), usize>,
    texts: Vec<TextState>,
    /// Where each text of `texts` is, by kind and index.
    text_at: BTreeMap<(TextKind, Option<u64>), usize>,
    /// The part cap was reached while tracking this item: its part checks stopped.
    parts_capped: bool,
}

impl ItemState {
    /// The tracked part of this kind at this index.
    /// O(log n).
    fn part_mut(&mut self, kind: PartKind, index: u64) -> Option<&mut PartState> {
        let at = *self.part_at.get(&(kind, index))?;
        self.parts.get_mut(at)
    }

    /// Whether a part of this kind at this index is tracked. O(log n).
    fn has_part(&self, kind: PartKind, index: u64) -> bool {
        self.part_at.contains_key(&(kind, index))
    }

    /// Tracks a new part (not tracked yet).
    fn add_part(&mut self, kind: PartKind, index: u64) {
        self.part_at.insert((kind, index), self.parts.len());
        self.parts.push(PartState {
            kind,
            index,
            done: false,
        });
    }

    /// The position in `texts` of the text of `spec` at `index`. O(log n).
    fn text_at(&self, spec: TextKind, index: Option<u64>) -> Option<usize> {
        self.text_at.get(&(spec, index)).copied()
    }

    /// `item msg_1` or `item at output_index 2` (for an item with no id).
    fn label(&self) -> String {
        if self.id.is_empty() {
            match self.output_index {
                Some(i) => format!("the {} item at output_index {i}", self.ty),
                None => format!("a {} item", self.ty),
            }
        } else {
            format!("item {}", self.id)
        }
    }
}

/// Where an event is: for each finding about it.
#[derive(Clone, Copy)]
struct At {
    offset: u64,
    seq: Option<u64>,
}

/// Lints a Responses API stream given as frames.
///
/// Feed it every frame of one stream in order with the byte offset where
/// the frame's block begins ([`feed`](Self::feed)), the parser's errors
/// ([`frame_error`](Self::frame_error)), then [`finish`](Self::finish); take
/// the findings out as they come ([`next_finding`](Self::next_finding),
/// [`drain`](Self::drain)). The [module docs](super) list the rules.
/// [`StreamLinter`](super::StreamLinter) does the parsing and the offsets
/// for you, from bytes, and finds where each block begins exactly. Driving
/// a [`Parser`](crate::Parser) yourself, [`Parser::offset`](crate::Parser::offset)
/// read after the previous frame is a fair approximation: the next frame's
/// block begins there or after blank lines, comments and blocks that
/// dispatched nothing.
///
/// # Memory
///
/// Bounded by [`LintConfig`]: the tracked items, parts and delta text have
/// caps, and the findings queue holds what the caller has not yet taken
/// (drain it after each frame to keep it small).
///
/// # Example
///
/// ```
/// use ssekit::lint::{Linter, Rule};
/// use ssekit::Frame;
///
/// let mut linter = Linter::new();
/// let frame = Frame::new(r#"{"type":"response.created","response":{"id":"r"},"sequence_number":0}"#)
///     .with_event("response.in_progress");
/// linter.feed(&frame, 0);
/// linter.finish();
/// let rules: Vec<Rule> = linter.drain().map(|f| f.rule()).collect();
/// assert_eq!(rules, [Rule::EventNameMismatch, Rule::MissingTerminal]);
/// assert!(linter.has_errors());
/// ```
#[derive(Debug)]
pub struct Linter {
    config: LintConfig,
    reports: Reports,
    /// JSON events seen (`[DONE]` not counted).
    events: u64,
    /// Sequence numbers and the terminal event.
    order: StreamOrder,
    /// An event without `sequence_number` was reported while no event had one.
    missing_seq_reported: bool,
    items: Vec<ItemState>,
    by_id: BTreeMap<Arc<str>, usize>,
    /// The last tracked item added at each `output_index`.
    by_output_index: BTreeMap<u64, usize>,
    /// Items added in all, tracked or not.
    items_added: u64,
    items_capped: bool,
    parts_tracked: usize,
    text_bytes: usize,
    response_id: Option<String>,
    saw_error_event: bool,
    end_offset: u64,
    finished: bool,
}

impl Default for Linter {
    fn default() -> Self {
        Self::new()
    }
}

impl Linter {
    /// A linter with the default [`LintConfig`].
    pub fn new() -> Self {
        Self::with_config(LintConfig::DEFAULT)
    }

    /// A linter with these caps.
    pub fn with_config(config: LintConfig) -> Self {
        Self {
            reports: Reports::new(&config),
            config,
            events: 0,
            order: StreamOrder::new(),
            missing_seq_reported: false,
            items: Vec::new(),
            by_id: BTreeMap::new(),
            by_output_index: BTreeMap::new(),
            items_added: 0,
            items_capped: false,
            parts_tracked: 0,
            text_bytes: 0,
            response_id: None,
            saw_error_event: false,
            end_offset: 0,
            finished: false,
        }
    }

    /// The caps this linter was made with.
    pub fn config(&self) -> &LintConfig {
        &self.config
    }

    /// The next finding not yet taken, oldest first.
    pub fn next_finding(&mut self) -> Option<Finding> {
        self.reports.next()
    }

    /// Takes every finding not yet taken, oldest first.
    pub fn drain(&mut self) -> impl Iterator<Item = Finding> + '_ {
        self.reports.drain()
    }

    /// How many findings of this severity there were so far, taken or not,
    /// those past [`LintConfig::max_findings`] included.
    pub fn count(&self, severity: Severity) -> u64 {
        self.reports.count(severity)
    }

    /// Whether any finding so far was an error.
    pub fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }

    /// Reports a framing error of the parser that read the stream (a limit
    /// exceeded, a truncated tail) as an [`SseError`](Rule::SseError) at its offset.
    pub fn frame_error(&mut self, error: &FrameError) {
        self.end_offset = self.end_offset.max(error.offset());
        let at = At {
            offset: error.offset(),
            seq: None,
        };
        self.report(
            Rule::SseError,
            Severity::Error,
            at,
            format!("sse framing: {error}"),
        );
    }

    /// Checks one event. `offset` is the byte offset in the stream where the
    /// frame's block begins; it is what the findings about the event report.
    ///
    /// Cost: one pass over the event's JSON to decode its typed view (which
    /// validates it; the checks read their members from the view), two more
    /// only for an event that does not decode or is of an unknown type (the
    /// lenient member walk), one over a done event's text field, and, for a
    /// terminal event, one over its `output`; the text of deltas is copied
    /// once.
    pub fn feed(&mut self, frame: &Frame, offset: u64) {
        self.end_offset = self.end_offset.max(offset);
        let data = frame.data();
        if data.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r')) == "[DONE]" {
            let at = At { offset, seq: None };
            self.report(
                Rule::DoneSentinel,
                Severity::Info,
                at,
                "`data: [DONE]`: the Responses API sends no sentinel; clients must ignore it"
                    .into(),
            );
            return;
        }
        // Decoded once: the typed view (its lazy payloads too: an event that
        // decodes only in part is invalid); the lenient walk only when it
        // does not decode, or is of a type it does not model.
        let decoded = ResponseEvent::parse(data).and_then(|e| e.validate().map(|()| e));
        let typed = match &decoded {
            Ok(ResponseEvent::Unknown { .. } | ResponseEvent::Done) | Err(_) => None,
            Ok(e) => e
                .raw()
                .and_then(|raw| raw.value().as_object())
                .map(|o| (e, o)),
        };
        let m = match typed {
            Some((e, object)) => Members::from_event(e, object),
            None => match ObjectView::parse(data) {
                Ok(object) => Members::read(object),
                Err(e) => {
                    let at = At { offset, seq: None };
                    self.report(
                        Rule::InvalidJson,
                        Severity::Error,
                        at,
                        format!("the event's data is not a JSON object: {e} (offset in the data)"),
                    );
                    return;
                }
            },
        };
        let seq = m.sequence_number;
        let at = At { offset, seq };
        self.events += 1;
        let kind =
            m.ty.as_deref()
                .map_or(EventKind::Unknown, EventKind::from_type);
        let mut after_terminal = None;
        for f in self.order.feed(kind, seq) {
            match f.fault {
                Fault::EventAfterTerminal { terminal } => after_terminal = Some((false, terminal)),
                Fault::SecondTerminal { first } => after_terminal = Some((true, first)),
                fault => self.sequence_fault(at, &m, fault),
            }
        }
        let Some(ty) = m.ty.clone() else {
            self.report(
                Rule::MissingType,
                Severity::Error,
                at,
                "the event has no string `type` member".into(),
            );
            return;
        };
        if frame.has_event_type() && frame.event() != ty {
            self.report(
                Rule::EventNameMismatch,
                Severity::Error,
                at,
                format!(
                    "the sse `event:` name is `{}` but the data's `type` is `{ty}`",
                    frame.event()
                ),
            );
        }
        let role = kind.role();
        match decoded {
            Ok(ResponseEvent::Unknown { .. }) => self.report(
                Rule::UnknownEventType,
                Severity::Info,
                at,
                format!("unknown event type `{ty}`: not checked further"),
            ),
            Ok(_) => {}
            Err(e) if e.kind() == (DecodeErrorKind::MissingField { field: "item_id" }) => {}
            Err(e) => self.report(
                Rule::InvalidEvent,
                Severity::Error,
                at,
                format!("`{ty}` does not decode: {e}"),
            ),
        }
        if self.events == 1 && kind != EventKind::ResponseCreated {
            self.report(
                Rule::CreatedNotFirst,
                Severity::Warning,
                at,
                format!("the first event is `{ty}`, not `response.created` (a resumed stream?)"),
            );
        }
        if let Some((second, terminal)) = after_terminal {
            let terminal = terminal.ty();
            let (rule, what) = if second {
                (Rule::MultipleTerminal, "a second terminal event")
            } else {
                (Rule::EventAfterTerminal, "an event")
            };
            self.report(
                rule,
                Severity::Error,
                at,
                format!("{what}, `{ty}`, after `{terminal}`"),
            );
            return;
        }
        match role {
            EventRole::Lifecycle => self.lifecycle(at, &ty, &m),
            EventRole::Terminal => self.terminal(at, kind, &m),
            EventRole::ItemAdded => self.item_added(at, &m),
            EventRole::ItemDone => self.item_done(at, &m),
            EventRole::PartAdded(kind) => self.part_added(at, &ty, &m, kind),
            EventRole::PartDone(kind) => self.part_done(at, &ty, &m, kind),
            EventRole::Delta(spec) => self.delta(at, &ty, &m, spec),
            EventRole::TextDone(spec) => self.text_done(at, &ty, &m, spec),
            EventRole::ItemEvent(part) => {
                if let Some(idx) = self.resolve(at, &ty, &m, false) {
                    if let Some(kind) = part {
                        if let Some(index) = m.index(kind) {
                            self.require_part(at, &ty, idx, kind, index);
                        }
                    }
                }
            }
            EventRole::Error => self.saw_error_event = true,
            EventRole::Other => {}
        }
    }

    /// Marks the end of the stream and runs the end-of-stream checks; their
    /// findings report the offset of the last event fed (or error seen).
    /// Calling it again does nothing.
    pub fn finish(&mut self) {
        self.finish_at(self.end_offset);
    }

    /// As [`finish`](Self::finish), with the stream's length as the offset
    /// of the end-of-stream findings.
    pub fn finish_at(&mut self, end_offset: u64) {
        if self.finished {
            return;
        }
        self.finished = true;
        let at = At {
            offset: end_offset,
            seq: None,
        };
        if self.order.terminal().is_none() {
            let open = self.items.iter().filter(|i| !i.done).count();
            let open = match open {
                0 => String::new(),
                n => format!("; {n} item(s) still open"),
            };
            if self.saw_error_event {
                self.report(
                    Rule::MissingTerminal,
                    Severity::Warning,
                    at,
                    format!(
                        "the stream ended after an `error` event without `response.failed`: \
                         clients that wait for a terminal event report a disconnect{open}"
                    ),
                );
            } else {
                self.report(
                    Rule::MissingTerminal,
                    Severity::Error,
                    at,
                    format!(
                        "the stream ended without `response.completed`, `response.incomplete` \
                         or `response.failed` (clients report a disconnect){open}"
                    ),
                );
            }
        }
        self.reports.finish(at.offset);
    }

    fn report(&mut self, rule: Rule, severity: Severity, at: At, message: String) {
        self.reports
            .report(rule, severity, (at.offset, at.seq), message);
    }

    /// Reports a fault of the sequence numbers (see `responses::order`).
    fn sequence_fault(&mut self, at: At, m: &Members<'_>, fault: Fault) {
        match fault {
            // A value that is not an integer is an `invalid-event` from the typed view.
            Fault::MissingSequenceNumber { .. } if m.has_sequence_number => {}
            Fault::MissingSequenceNumber {
                highest: Some(last),
            } => self.report(
                Rule::MissingSequenceNumber,
                Severity::Warning,
                at,
                format!("no `sequence_number`, after events numbered up to {last}"),
            ),
            Fault::MissingSequenceNumber { highest: None } if !self.missing_seq_reported => {
                self.missing_seq_reported = true;
                self.report(
                    Rule::MissingSequenceNumber,
                    Severity::Warning,
                    at,
                    "no `sequence_number` (older streams and some proxies omit it; \
                     further events without one are not reported until one has it)"
                        .into(),
                );
            }
            Fault::SequenceRegression { previous, found } => self.report(
                Rule::SequenceNotIncreasing,
                Severity::Error,
                at,
                format!("`sequence_number` {found} after {previous}"),
            ),
            Fault::SequenceGap { expected, found } => self.report(
                Rule::SequenceGap,
                Severity::Warning,
                at,
                format!(
                    "`sequence_number` jumps from {} to {found}: {} number(s) missing",
                    expected - 1,
                    found - expected
                ),
            ),
            _ => {}
        }
    }

    fn lifecycle(&mut self, at: At, ty: &str, m: &Members<'_>) {
        let Some(id) = m.response.as_ref().and_then(|r| r.get("id")?.as_json_str()) else {
            return;
        };
        match &self.response_id {
            None => self.response_id = Some(id.unescape().into_owned()),
            Some(known) if id == known.as_str() => {}
            Some(known) => {
                let msg = format!("`{ty}` is for response `{id}`, the stream's is `{known}`");
                self.report(Rule::ResponseIdMismatch, Severity::Error, at, msg);
            }
        }
    }

    fn terminal(&mut self, at: At, kind: EventKind, m: &Members<'_>) {
        let ty = kind.ty();
        self.lifecycle(at, ty, m);
        // A failed response may stop anywhere, and clients read its `error`,
        // not its items: what is unfinished or unlisted is only a warning.
        let severity = if kind == EventKind::ResponseFailed {
            Severity::Warning
        } else {
            Severity::Error
        };
        for i in 0..self.items.len() {
            if !self.items[i].done {
                let item = &self.items[i];
                let msg = format!(
                    "{} ({}) was added but not done before `{ty}`",
                    item.label(),
                    item.ty
                );
                self.report(Rule::ItemNotDone, severity, at, msg);
            }
        }
        let Some(response) = m.response else {
            return;
        };
        let Some(output) = response.get("output").and_then(|o| o.as_array()) else {
            if kind == EventKind::ResponseCompleted {
                let msg = format!("`{ty}` has no `output` array to check against the items");
                self.report(Rule::TerminalOutputMismatch, Severity::Warning, at, msg);
            }
            return;
        };
        if self.items_capped {
            let msg = format!(
                "`{ty}` output not compared: more than {} items were added",
                self.config.max_items
            );
            self.report(Rule::LimitReached, Severity::Info, at, msg);
            return;
        }
        let mut streamed: Vec<&ItemState> = self.items.iter().collect();
        streamed.sort_by_key(|i| i.output_index.unwrap_or(u64::MAX));
        let listed: Vec<(Option<JsonStr<'_>>, Option<JsonStr<'_>>)> = output
            .iter()
            .map(|v| {
                let s = |k| v.get(k).and_then(|x| x.as_json_str());
                (s("id"), s("type"))
            })
            .collect();
        let mut problems = Vec::new();
        if listed.len() != streamed.len() {
            problems.push(format!(
                "`{ty}` output has {} item(s), the stream added {}",
                listed.len(),
                streamed.len()
            ));
        }
        for (i, ((id, kind), item)) in listed.iter().zip(&streamed).enumerate() {
            let id_differs = id.is_some_and(|id| id != *item.id) && !item.id.is_empty();
            let kind_differs = kind.is_some_and(|k| k != item.ty.as_str());
            if id_differs || kind_differs {
                let show = |s: &Option<JsonStr<'_>>| match s {
                    Some(s) => format!("{s}"),
                    None => "(none)".into(),
                };
                problems.push(format!(
                    "output[{i}] is {} `{}`, the stream's item there is {} `{}`",
                    show(kind),
                    show(id),
                    item.ty,
                    item.id
                ));
            }
        }
        if let Some(first) = problems.first() {
            let more = match problems.len() {
                1 => String::new(),
                n => format!(" (and {} more difference(s))", n - 1),
            };
            let msg = format!("{first}{more}");
            self.report(Rule::TerminalOutputMismatch, severity, at, msg);
        }
    }

    fn item_added(&mut self, at: At, m: &Members<'_>) {
        let Some(item) = m.item else {
            // `invalid-event`; the item still takes its index.
            self.items_added += 1;
            return;
        };
        let id = item.get("id").and_then(|v| v.as_json_str());
        let ty = item.get("type").and_then(|v| v.as_json_str());
        let id = id.map(|s| s.unescape().into_owned()).unwrap_or_default();
        let ty = ty.map(|s| s.unescape().into_owned()).unwrap_or_default();
        if !id.is_empty() && self.by_id.contains_key(id.as_str()) {
            let msg = format!("item {id} was already added");
            self.report(Rule::DuplicateItem, Severity::Error, at, msg);
            return;
        }
        let expected = self.items_added;
        self.items_added += 1;
        let output_index = m.output_index();
        if let Some(index) = output_index {
            if index != expected {
                let msg = format!(
                    "item {id} added at output_index {index}, but {expected} item(s) came before it"
                );
                self.report(Rule::OutputIndexMismatch, Severity::Error, at, msg);
            }
        }
        // An item's id and type count against the text cap (they are kept
        // to the end), so hostile ids cannot grow memory past it either. The
        // item and `by_id` share one allocation of the id.
        let kept = id.len() + ty.len();
        let full = self.text_bytes + kept > self.config.max_text_bytes;
        if self.items.len() >= self.config.max_items || full {
            if !self.items_capped {
                self.items_capped = true;
                let msg = if full {
                    format!(
                        "more than {} bytes of ids and text kept: later items are not tracked \
                         and events about them not checked",
                        self.config.max_text_bytes
                    )
                } else {
                    format!(
                        "more than {} items: later items are not tracked and events about them \
                         not checked",
                        self.config.max_items
                    )
                };
                self.report(Rule::LimitReached, Severity::Info, at, msg);
            }
            return;
        }
        self.text_bytes += kept;
        let id: Arc<str> = Arc::from(id);
        if !id.is_empty() {
            self.by_id.insert(Arc::clone(&id), self.items.len());
        }
        if let Some(index) = output_index {
            self.by_output_index.insert(index, self.items.len());
        }
        self.items.push(ItemState {
            id,
            ty,
            output_index,
            done: false,
            parts: Vec::new(),
            part_at: BTreeMap::new(),
            texts: Vec::new(),
            text_at: BTreeMap::new(),
            parts_capped: false,
        });
    }

    fn item_done(&mut self, at: At, m: &Members<'_>) {
        let Some(item) = m.item else {
            return; // `invalid-event`
        };
        let id = item.get("id").and_then(|v| v.as_json_str());
        let idx = match id {
            Some(id) => self.by_id.get(&*id.unescape()).copied(),
            None => self.by_output_index(m.output_index()),
        };
        let Some(idx) = idx else {
            if !self.items_capped {
                let what = match id {
                    Some(id) => format!("item {id}"),
                    None => "an item with no id".into(),
                };
                let msg = format!("`response.output_item.done` for {what}, which was never added");
                self.report(Rule::UnknownItem, Severity::Error, at, msg);
            }
            return;
        };
        if self.items[idx].done {
            let msg = format!("{} is done a second time", self.items[idx].label());
            self.report(Rule::DuplicateItem, Severity::Error, at, msg);
            return;
        }
        self.check_output_index(at, EventKind::OutputItemDone.ty(), idx, m);
        let item = &self.items[idx];
        let mut open = Vec::new();
        for p in item.parts.iter().filter(|p| !p.done) {
            open.push(format!("{} {}", part_name(p.kind), p.index));
        }
        for t in item.texts.iter().filter(|t| !t.done && t.deltas > 0) {
            open.push(format!("{} (deltas without `.done`)", t.spec.name()));
        }
        if !open.is_empty() {
            let msg = format!(
                "{} is done with unfinished parts: {}",
                item.label(),
                open.join(", ")
            );
            self.report(Rule::ItemNotDone, Severity::Error, at, msg);
        }
        let item = &mut self.items[idx];
        item.done = true;
        for t in &mut item.texts {
            if let Some(text) = t.text.take() {
                self.text_bytes -= text.len();
            }
        }
    }

    /// The last tracked item added at `index`. O(log n).
    fn by_output_index(&self, index: Option<u64>) -> Option<usize> {
        self.by_output_index.get(&index?).copied()
    }

    fn check_output_index(&mut self, at: At, ty: &str, idx: usize, m: &Members<'_>) {
        let item = &self.items[idx];
        if let (Some(got), Some(known)) = (m.output_index(), item.output_index) {
            if got != known {
                let msg = format!(
                    "`{ty}` for {} has output_index {got}, the item was added at {known}",
                    item.label()
                );
                self.report(Rule::OutputIndexMismatch, Severity::Error, at, msg);
            }
        }
    }

    /// The item an event is about, after the item checks: by `item_id`, or
    /// by `output_index` for the events that carry no `item_id`. `None`
    /// when it is unknown (reported), untracked, or already done (reported).
    fn resolve(&mut self, at: At, ty: &str, m: &Members<'_>, by_index: bool) -> Option<usize> {
        let idx = if by_index {
            let idx = self.by_output_index(m.output_index());
            if idx.is_none() && !self.items_capped {
                let msg = match m.output_index() {
                    Some(i) => format!("`{ty}` for output_index {i}, where no item was added"),
                    None => format!("`{ty}` has no `output_index`"),
                };
                self.report(Rule::UnknownItem, Severity::Error, at, msg);
            }
            idx?
        } else {
            match m.item_id {
                None => {
                    let msg = format!("`{ty}` has no `item_id`");
                    self.report(Rule::MissingItemId, Severity::Error, at, msg);
                    self.by_output_index(m.output_index())?
                }
                Some(id) => match self.by_id.get(&*id.unescape()) {
                    Some(&idx) => idx,
                    None => {
                        if !self.items_capped {
                            let msg = format!(
                                "`{ty}` for item {id}, which no earlier \
                                 `response.output_item.added` introduced"
                            );
                            self.report(Rule::UnknownItem, Severity::Error, at, msg);
                        }
                        return None;
                    }
                },
            }
        };
        self.check_output_index(at, ty, idx, m);
        if self.items[idx].done {
            let msg = format!(
                "`{ty}` for {} after its `response.output_item.done`",
                self.items[idx].label()
            );
            self.report(Rule::EventAfterItemDone, Severity::Error, at, msg);
            return None;
        }
        Some(idx)
    }

    /// Counts one more tracked part or text against the cap; false (and
    /// the item's part checks stop) past it.
    fn track_part(&mut self, at: At, idx: usize) -> bool {
        if self.items[idx].parts_capped {
            return false;
        }
        if self.parts_tracked >= self.config.max_parts {
            self.items[idx].parts_capped = true;
            let msg = format!(
                "more than {} parts and texts tracked: part and done checks stop for {}",
                self.config.max_parts,
                self.items[idx].label()
            );
            self.report(Rule::LimitReached, Severity::Info, at, msg);
            return false;
        }
        self.parts_tracked += 1;
        true
    }

    fn part_added(&mut self, at: At, ty: &str, m: &Members<'_>, kind: PartKind) {
        let by_index = kind == PartKind::Command;
        let Some(idx) = self.resolve(at, ty, m, by_index) else {
            return;
        };
        let Some(index) = m.index(kind) else { return };
        let item = &self.items[idx];
        if item.has_part(kind, index) {
            let msg = format!(
                "{} {index} of {} was already added",
                part_name(kind),
                item.label()
            );
            self.report(Rule::DuplicateItem, Severity::Error, at, msg);
            return;
        }
        if !self.track_part(at, idx) {
            return;
        }
        self.items[idx].add_part(kind, index);
        if kind == PartKind::Command {
            // The command's text starts with the value `added` carries.
            let initial = m.get_str("command");
            if let Some(t) = self.text_state(at, idx, TextKind::ShellCommand, Some(index)) {
                if let Some(initial) = initial {
                    self.append(at, idx, t, initial, false);
                }
            }
        }
    }

    fn part_done(&mut self, at: At, ty: &str, m: &Members<'_>, kind: PartKind) {
        let Some(idx) = self.resolve(at, ty, m, false) else {
            return;
        };
        let Some(index) = m.index(kind) else { return };
        let item = &mut self.items[idx];
        // The parts field alone is borrowed, so the arms can read the rest.
        let pos = item.part_at.get(&(kind, index)).copied();
        match pos.and_then(|pos| item.parts.get_mut(pos)) {
            Some(part) if part.done => {
                let msg = format!(
                    "{} {index} of {} is done twice",
                    part_name(kind),
                    item.label()
                );
                self.report(Rule::DuplicateItem, Severity::Error, at, msg);
            }
            Some(part) => part.done = true,
            None if item.parts_capped => {}
            None => {
                let msg = format!(
                    "`{ty}` for {} {index} of {}, which `{}` never added",
                    part_name(kind),
                    item.label(),
                    kind.added_event().ty()
                );
                self.report(Rule::PartNotAdded, Severity::Error, at, msg);
            }
        }
    }

    /// Reports a missing part (once per text when `text` is given).
    fn require_part(&mut self, at: At, ty: &str, idx: usize, kind: PartKind, index: u64) -> bool {
        let item = &self.items[idx];
        if item.parts_capped || item.has_part(kind, index) {
            return true;
        }
        let msg = format!(
            "`{ty}` for {} {index} of {} before `{}`",
            part_name(kind),
            item.label(),
            kind.added_event().ty()
        );
        self.report(Rule::PartNotAdded, Severity::Error, at, msg);
        false
    }

    /// The position of the text state for this spec and index in the
    /// item's texts, made if needed; `None` past the part cap.
    fn text_state(
        &mut self,
        at: At,
        idx: usize,
        spec: TextKind,
        index: Option<u64>,
    ) -> Option<usize> {
        let found = self.items[idx].text_at(spec, index);
        if found.is_some() {
            return found;
        }
        if !self.track_part(at, idx) {
            return None;
        }
        let item = &mut self.items[idx];
        item.text_at.insert((spec, index), item.texts.len());
        let texts = &mut item.texts;
        texts.push(TextState {
            spec,
            index,
            text: Some(String::new()),
            deltas: 0,
            done: false,
            part_reported: false,
        });
        Some(texts.len() - 1)
    }

    /// The part checks of a delta or done event; the text state, if tracked.
    fn text_for_event(
        &mut self,
        at: At,
        ty: &str,
        m: &Members<'_>,
        spec: TextKind,
    ) -> Option<(usize, usize)> {
        let idx = self.resolve(at, ty, m, spec.by_output_index())?;
        let index = match spec.part() {
            Some(kind) => Some(m.index(kind)?),
            None => None,
        };
        let t = self.text_state(at, idx, spec, index)?;
        if let (Some(kind), Some(index)) = (spec.part(), index) {
            if spec.needs_part() && !self.items[idx].texts[t].part_reported {
                let ok = self.require_part(at, ty, idx, kind, index);
                self.items[idx].texts[t].part_reported = !ok;
            }
        }
        Some((idx, t))
    }

    fn append(&mut self, at: At, idx: usize, t: usize, piece: JsonStr<'_>, is_delta: bool) {
        let max = self.config.max_text_bytes;
        let item = &mut self.items[idx];
        let text = &mut item.texts[t];
        if is_delta {
            text.deltas += 1;
        }
        let Some(buf) = &mut text.text else { return };
        if self.text_bytes + piece.len_hint() > max {
            self.text_bytes -= buf.len();
            text.text = None;
            let msg = format!(
                "{} text of {} is not compared with its done event: \
                 more than {max} bytes of delta text kept",
                text.spec.name(),
                item.label()
            );
            self.report(Rule::LimitReached, Severity::Info, at, msg);
            return;
        }
        let before = buf.len();
        piece.unescape_into(buf);
        self.text_bytes += buf.len() - before;
    }

    fn delta(&mut self, at: At, ty: &str, m: &Members<'_>, spec: TextKind) {
        let Some((idx, t)) = self.text_for_event(at, ty, m, spec) else {
            return;
        };
        if self.items[idx].texts[t].done {
            let msg = format!(
                "`{ty}` for {} after its `.done` event",
                self.items[idx].label()
            );
            self.report(Rule::EventAfterItemDone, Severity::Error, at, msg);
            return;
        }
        // A delta that is not a string is an `invalid-event` from the typed view.
        if let Some(delta) = m.delta {
            self.append(at, idx, t, delta, true);
        }
    }

    fn text_done(&mut self, at: At, ty: &str, m: &Members<'_>, spec: TextKind) {
        let Some((idx, t)) = self.text_for_event(at, ty, m, spec) else {
            return;
        };
        let item = &mut self.items[idx];
        let text = &mut item.texts[t];
        if text.done {
            let msg = format!("`{ty}` for {} a second time", item.label());
            self.report(Rule::DuplicateItem, Severity::Error, at, msg);
            return;
        }
        text.done = true;
        let kept = text.text.take();
        let deltas = text.deltas;
        if let (Some(PartKind::Command), Some(index)) = (spec.part(), text.index) {
            // `response.shell_call_command.done` ends the command as well as its text.
            if let Some(part) = item.part_mut(PartKind::Command, index) {
                part.done = true;
            }
        }
        if let Some(kept) = &kept {
            self.text_bytes -= kept.len();
        }
        let (Some(kept), Some(done)) = (kept, m.get_str(spec.done_field())) else {
            return;
        };
        if done == kept.as_str() {
            return;
        }
        let label = self.items[idx].label();
        let field = spec.done_field();
        let msg = if deltas == 0 {
            format!("`{ty}` for {label} has a non-empty `{field}` but no deltas came before it")
        } else {
            let at_char = done
                .chars()
                .zip(kept.chars())
                .take_while(|(a, b)| a == b)
                .count();
            let done_len: usize = done.chars().map(char::len_utf8).sum();
            format!(
                "`{ty}` for {label}: `{field}` ({done_len} bytes) differs from its {deltas} \
                 concatenated deltas ({} bytes) from character {at_char} on",
                kept.len()
            )
        };
        self.report(Rule::DoneMismatch, Severity::Error, at, msg);
    }
}
