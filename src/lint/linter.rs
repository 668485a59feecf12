//! `ResponsesLinter`: the checks, event by event, over frames the caller parsed.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::core::{order_rule, Core, Names};
use super::rule::{Finding, Rule, Severity};
use crate::dialect::Dialect;
use crate::frame::{Frame, FrameError};
use crate::json::{JsonStr, ObjectView, Value};
use crate::responses::order::{
    Fault, ItemRef, ItemState, OrderConfig, OrderEvent, PartKey, PartRef, PartState, StreamOrder,
};
use crate::responses::{DecodeErrorKind, EventKind, EventRole, PartKind, ResponsesEvent, TextKind};
use crate::turn::{ResponsesReader, TurnConfig, TurnErrorKind};

config! {
    /// Memory caps of a [`ResponsesLinter`].
    ///
    /// Everything the linter keeps grows with the stream only up to these caps:
    /// past one, an [`Info`](Severity::Info) finding of rule
    /// [`LimitReached`](Rule::LimitReached) says which check stopped, and the
    /// linter goes on with the others.
    ///
    /// ```
    /// use ssekit::lint::{LintConfig, ResponsesLinter};
    ///
    /// let linter = ResponsesLinter::with_config(LintConfig::DEFAULT.with_max_text_bytes(1 << 20));
    /// assert_eq!(linter.config().max_text_bytes, 1 << 20);
    /// ```
    pub struct LintConfig {
        /// Most output items tracked (each keeps its id, type and index, for
        /// the item checks and the terminal-output comparison). Default 4096.
        /// Past it, later items are not tracked and events about them are not
        /// checked.
        max_items: usize = 4096, with_max_items;
        /// Most content parts, summary parts and streamed texts tracked, over
        /// all items. Default 65536. Past it, the part checks stop for the item
        /// that reached it.
        max_parts: usize = 65_536, with_max_parts;
        /// Most bytes of text kept: the ids and types of the tracked items, and
        /// the delta text of the open texts, kept to compare each `*.done` event
        /// with its concatenated deltas. Default 64 MiB. A text is dropped when
        /// its done event arrives; one that would pass the cap is dropped at
        /// once and its done event not compared; an item whose id would pass it
        /// is not tracked (as past [`max_items`](Self::max_items)).
        max_text_bytes: usize = 64 << 20, with_max_text_bytes;
        /// Most findings reported. Default 10000. Past it findings are counted
        /// (see [`ResponsesLinter::count`]) and summarised in one last finding, at the
        /// end, with the severity of the worst one left out.
        max_findings: usize = 10_000, with_max_findings;
    }
}

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
    fn from_event(event: &ResponsesEvent<'a>, object: ObjectView<'a>) -> Self {
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

    fn get_str(&self, key: &str) -> Option<JsonStr<'a>> {
        self.object?.get(key)?.as_json_str()
    }
}

/// What the linter keeps of a tracked item (the order checker keeps its id,
/// index, lifecycle and parts), by [`ItemRef`].
#[derive(Debug)]
struct ItemMeta {
    ty: String,
}

/// The delta text of a tracked text, by [`PartRef`] (unused for parts).
#[derive(Debug)]
struct TextBuf {
    /// The concatenated deltas; `None` once dropped at the text cap.
    text: Option<String>,
    deltas: u64,
}

impl TextBuf {
    const NEW: Self = Self {
        text: Some(String::new()),
        deltas: 0,
    };
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
/// use ssekit::lint::{ResponsesLinter, Rule};
/// use ssekit::Frame;
///
/// let mut linter = ResponsesLinter::new();
/// let frame = Frame::new(r#"{"type":"response.created","response":{"id":"r"},"sequence_number":0}"#)
///     .with_event("response.in_progress");
/// linter.feed(&frame, 0);
/// linter.finish();
/// let rules: Vec<Rule> = linter.drain().map(|f| f.rule()).collect();
/// assert_eq!(rules, [Rule::EventNameMismatch, Rule::MissingTerminal]);
/// assert!(linter.has_errors());
/// ```
#[derive(Debug)]
pub struct ResponsesLinter {
    config: LintConfig,
    /// The findings, and the writer that hears the reader's faults.
    pub(super) core: Core,
    /// JSON events seen (`[DONE]` not counted).
    events: u64,
    /// The reader, checked: its order checker ([`StreamOrder`]) keeps the
    /// sequence numbers, the terminal event, items and parts, and reports
    /// their faults to the core.
    reader: ResponsesReader,
    /// An event without `sequence_number` was reported while no event had one.
    missing_seq_reported: bool,
    /// By the order checker's [`ItemRef`].
    items: Vec<ItemMeta>,
    /// By the order checker's [`PartRef`].
    texts: Vec<TextBuf>,
    text_bytes: usize,
    response_id: Option<String>,
    saw_error_event: bool,
    /// The first terminal event's `output` was compared with the items:
    /// later terminal events are faults of their own and are not compared
    /// again (each comparison walks every tracked item).
    output_compared: bool,
    end_offset: u64,
    finished: bool,
}

impl Default for ResponsesLinter {
    fn default() -> Self {
        Self::new()
    }
}

impl ResponsesLinter {
    /// A linter with the default [`LintConfig`].
    pub fn new() -> Self {
        Self::with_config(LintConfig::DEFAULT)
    }

    /// A linter with these caps.
    pub fn with_config(config: LintConfig) -> Self {
        Self {
            core: Core::new(Dialect::Responses, config),
            config,
            events: 0,
            reader: ResponsesReader::checked(
                &TurnConfig::default(),
                OrderConfig::DEFAULT
                    .with_max_items(config.max_items)
                    .with_max_parts(config.max_parts),
            ),
            missing_seq_reported: false,
            items: Vec::new(),
            texts: Vec::new(),
            text_bytes: 0,
            response_id: None,
            saw_error_event: false,
            output_compared: false,
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
        self.core.reports.next()
    }

    /// Takes every finding not yet taken, oldest first.
    pub fn drain(&mut self) -> impl Iterator<Item = Finding> + '_ {
        self.core.reports.drain()
    }

    /// How many findings of this severity there were so far, taken or not,
    /// those past [`LintConfig::max_findings`] included.
    pub fn count(&self, severity: Severity) -> u64 {
        self.core.reports.count(severity)
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
        let decoded = ResponsesEvent::parse(data).and_then(ResponsesEvent::strict);
        let typed = match &decoded {
            Ok(ResponsesEvent::Unknown { .. } | ResponsesEvent::Done) | Err(_) => None,
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
        let role = kind.role();
        let (event, added) = self.order_event(kind, role, &m);
        let capped_before = self.order().is_some_and(StreamOrder::items_capped);
        // The core's writer hears the order faults; it refuses none.
        let checked = self.reader.check(&event, &mut self.core.observed);
        let (item, part) = match checked {
            Ok(Some(c)) => (c.item(), c.part()),
            _ => (None, None),
        };
        let mut faults = [None; 6];
        let mut k = 0;
        let mut not_first = false;
        for e in self.core.observed.faults() {
            match e.kind() {
                TurnErrorKind::Order(f) => {
                    if let Some(slot) = faults.get_mut(k) {
                        *slot = Some(f);
                        k += 1;
                    }
                }
                TurnErrorKind::StartNotFirst => not_first = true,
                _ => {}
            }
        }
        self.core.observed.clear_faults();
        let mut after_terminal: Option<(Fault, EventKind)> = None;
        let mut item_faults = [None; 6];
        let mut n = 0;
        for f in faults.into_iter().flatten() {
            match f {
                Fault::EventAfterTerminal { terminal } => after_terminal = Some((f, terminal)),
                Fault::SecondTerminal { first } => after_terminal = Some((f, first)),
                Fault::SequenceGap { .. }
                | Fault::SequenceRegression { .. }
                | Fault::MissingSequenceNumber { .. } => self.sequence_fault(at, &m, f),
                fault => {
                    if let Some(slot) = item_faults.get_mut(n) {
                        *slot = Some(fault);
                        n += 1;
                    }
                }
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
        match decoded {
            Ok(ResponsesEvent::Unknown { .. }) => self.report(
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
        if not_first {
            let names = Names { ty: &ty, delta: "" };
            let kind = TurnErrorKind::StartNotFirst;
            self.core.report_at(kind, (at.offset, at.seq), names);
        }
        if let Some((fault, terminal)) = after_terminal {
            let terminal = terminal.ty();
            let what = match fault {
                Fault::SecondTerminal { .. } => "a second terminal event",
                _ => "an event",
            };
            let (rule, severity) = order_rule(fault, false);
            let msg = format!("{what}, `{ty}`, after `{terminal}`");
            self.report(rule, severity, at, msg);
            return;
        }
        let event = Checked {
            at,
            ty: &ty,
            m: &m,
            role,
            item,
        };
        for fault in item_faults.into_iter().flatten() {
            self.item_fault(&event, fault);
            if fault == Fault::EventAfterItemDone {
                break; // not checked further
            }
        }
        if let Some((id, ty_len)) = added {
            let duplicate = item_faults.contains(&Some(Fault::ItemAddedTwice));
            self.track_item(&event, id, ty_len, capped_before || duplicate);
        }
        let refused = item_faults.iter().flatten().any(|f| {
            matches!(
                f,
                Fault::EventAfterItemDone
                    | Fault::TextAfterDone { .. }
                    | Fault::TextDoneTwice { .. }
            )
        });
        match role {
            EventRole::Lifecycle => self.lifecycle(at, &ty, &m),
            EventRole::Terminal => {
                let open = item_faults
                    .into_iter()
                    .flatten()
                    .find(|f| matches!(f, Fault::ItemsNotDone { .. }));
                self.terminal(at, kind, &m, open)
            }
            EventRole::ItemDone => {
                if let (Some(item), false) = (item, refused) {
                    self.free_texts(item);
                }
            }
            EventRole::PartAdded(PartKind::Command) => {
                // The command's text starts with the value `added` carries.
                if let (Some(item), Some(t), Some(initial)) = (item, part, m.get_str("command")) {
                    self.append(at, item, t, initial, false);
                }
            }
            EventRole::Delta(_) if !refused => {
                // A delta that is not a string is an `invalid-event` from the typed view.
                if let (Some(item), Some(t), Some(delta)) = (item, part, m.delta) {
                    self.append(at, item, t, delta, true);
                }
            }
            EventRole::TextDone(spec) if !refused => {
                if let (Some(item), Some(t)) = (item, part) {
                    self.text_done(&event, item, t, spec);
                }
            }
            EventRole::Error => self.saw_error_event = true,
            _ => {}
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
        let order = self.order();
        if order.and_then(StreamOrder::terminal).is_none() {
            let open = order.map_or(0, StreamOrder::open_item_count);
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
        self.core.reports.finish(at.offset);
    }

    fn report(&mut self, rule: Rule, severity: Severity, at: At, message: String) {
        self.core
            .reports
            .report(rule, severity, (at.offset, at.seq), message);
    }

    /// Reports a fault of the sequence numbers (see `responses::order`).
    fn sequence_fault(&mut self, at: At, m: &Members<'_>, fault: Fault) {
        let msg = match fault {
            // A value that is not an integer is an `invalid-event` from the typed view.
            Fault::MissingSequenceNumber { .. } if m.has_sequence_number => return,
            Fault::MissingSequenceNumber {
                highest: Some(last),
            } => format!("no `sequence_number`, after events numbered up to {last}"),
            Fault::MissingSequenceNumber { highest: None } if !self.missing_seq_reported => {
                self.missing_seq_reported = true;
                "no `sequence_number` (older streams and some proxies omit it; \
                 further events without one are not reported until one has it)"
                    .into()
            }
            Fault::SequenceRegression { previous, found } => {
                format!("`sequence_number` {found} after {previous}")
            }
            Fault::SequenceGap { expected, found } => format!(
                "`sequence_number` jumps from {} to {found}: {} number(s) missing",
                expected - 1,
                found - expected
            ),
            _ => return,
        };
        let (rule, severity) = order_rule(fault, false);
        self.report(rule, severity, at, msg);
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

    fn terminal(&mut self, at: At, kind: EventKind, m: &Members<'_>, open: Option<Fault>) {
        let ty = kind.ty();
        self.lifecycle(at, ty, m);
        // A failed response may stop anywhere, and clients read its `error`,
        // not its items: what is unfinished or unlisted is only a warning.
        let severity = if kind == EventKind::ResponseFailed {
            Severity::Warning
        } else {
            Severity::Error
        };
        if let Some(fault) = open {
            let (rule, severity) = order_rule(fault, kind == EventKind::ResponseFailed);
            // `Fault::ItemsNotDone`: the checker names them.
            let open: Vec<ItemRef> = (self.order().into_iter())
                .flat_map(StreamOrder::open_items)
                .map(|it| it.at)
                .collect();
            for item in open {
                let ty = self.items.get(item.index()).map_or("", |i| i.ty.as_str());
                let msg = format!(
                    "{} ({ty}) was added but not done before `{}`",
                    self.label(item),
                    kind.ty()
                );
                self.report(rule, severity, at, msg);
            }
        }
        if core::mem::replace(&mut self.output_compared, true) {
            return;
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
        if self.order().is_some_and(StreamOrder::items_capped) {
            let msg = format!(
                "`{ty}` output not compared: more than {} items were added",
                self.config.max_items
            );
            self.report(Rule::LimitReached, Severity::Info, at, msg);
            return;
        }
        let mut streamed: Vec<(ItemState<'_>, &str)> = (self.order().into_iter())
            .flat_map(StreamOrder::items)
            .map(|it| {
                (
                    it,
                    self.items.get(it.at.index()).map_or("", |m| m.ty.as_str()),
                )
            })
            .collect();
        streamed.sort_by_key(|(i, _)| i.output_index.unwrap_or(u64::MAX));
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
        for (i, ((id, kind), (item, item_ty))) in listed.iter().zip(&streamed).enumerate() {
            let id_differs = id.is_some_and(|id| id != item.id) && !item.id.is_empty();
            let kind_differs = kind.is_some_and(|k| k != *item_ty);
            if id_differs || kind_differs {
                let show = |s: &Option<JsonStr<'_>>| match s {
                    Some(s) => format!("{s}"),
                    None => "(none)".into(),
                };
                problems.push(format!(
                    "output[{i}] is {} `{}`, the stream's item there is {} `{}`",
                    show(kind),
                    show(id),
                    item_ty,
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

    /// What the order checker reads of an event; for `output_item.added`,
    /// the unescaped id and the length of the type the linter would keep.
    fn order_event<'m>(
        &self,
        kind: EventKind,
        role: EventRole,
        m: &Members<'m>,
    ) -> (OrderEvent<'m>, Option<(String, usize)>) {
        let index = match role {
            EventRole::PartAdded(p) | EventRole::PartDone(p) | EventRole::ItemEvent(Some(p)) => {
                m.index(p)
            }
            EventRole::Delta(t) | EventRole::TextDone(t) => t.part().and_then(|p| m.index(p)),
            _ => None,
        };
        let mut event = OrderEvent::new(kind, m.sequence_number)
            .output_index(m.output_index)
            .item_id(m.item_id)
            .part_index(index);
        let mut added = None;
        if let (EventRole::ItemAdded | EventRole::ItemDone, Some(item)) = (role, m.item) {
            let id = item.get("id").and_then(|v| v.as_json_str());
            event = event.item(id);
            if role == EventRole::ItemAdded {
                let ty = item.get("type").and_then(|v| v.as_json_str());
                let id = id.map(|s| s.unescape().into_owned()).unwrap_or_default();
                let ty_len = ty.map_or(0, |s| s.unescape().len());
                // An item's id and type count against the text cap (they
                // are kept to the end), so hostile ids cannot grow memory
                // past it either.
                if self.text_bytes + id.len() + ty_len > self.config.max_text_bytes {
                    event = event.untracked();
                }
                added = Some((id, ty_len));
            }
        }
        (event, added)
    }

    /// Keeps the type of an item the order checker tracks from now on, or
    /// says that the text cap stopped the item tracking.
    fn track_item(&mut self, e: &Checked<'_, '_>, id: String, ty_len: usize, quiet: bool) {
        match e.item {
            Some(item) if item.index() == self.items.len() => {
                let ty =
                    e.m.item
                        .and_then(|i| i.get("type")?.as_json_str())
                        .map(|s| s.unescape().into_owned())
                        .unwrap_or_default();
                self.text_bytes += id.len() + ty_len;
                self.items.push(ItemMeta { ty });
            }
            Some(_) => {}
            None => {
                let full = self.text_bytes + id.len() + ty_len > self.config.max_text_bytes;
                if full && !quiet {
                    let msg = format!(
                        "more than {} bytes of ids and text kept: later items are not tracked \
                         and events about them not checked",
                        self.config.max_text_bytes
                    );
                    self.report(Rule::LimitReached, Severity::Info, e.at, msg);
                }
            }
        }
    }

    /// The order checker of the reader.
    fn order(&self) -> Option<&StreamOrder> {
        self.reader.order()
    }

    /// The parts and texts of a tracked item.
    fn parts(&self, item: ItemRef) -> impl Iterator<Item = PartState> + '_ {
        self.order().into_iter().flat_map(move |o| o.parts(item))
    }

    /// `item msg_1` or `item at output_index 2` (for an item with no id).
    fn label(&self, item: ItemRef) -> String {
        let ty = self.items.get(item.index()).map_or("", |i| i.ty.as_str());
        match self.order().and_then(|o| o.item(item)) {
            Some(it) if !it.id.is_empty() => format!("item {}", it.id),
            Some(ItemState {
                output_index: Some(i),
                ..
            }) => format!("the {ty} item at output_index {i}"),
            _ => format!("a {ty} item"),
        }
    }

    /// Reports a fault of the order of items and parts (see
    /// `responses::order`) under its rule.
    fn item_fault(&mut self, e: &Checked<'_, '_>, fault: Fault) {
        let (at, ty) = (e.at, e.ty);
        let label = || e.item.map(|i| self.label(i)).unwrap_or_default();
        let item_id = || {
            e.m.item
                .and_then(|i| i.get("id")?.as_json_str())
                .map(|s| s.unescape().into_owned())
                .unwrap_or_default()
        };
        let msg = match fault {
            Fault::ItemAddedTwice => format!("item {} was already added", item_id()),
            Fault::UnexpectedOutputIndex { expected, found } => format!(
                "item {} added at output_index {found}, but {expected} item(s) came before it",
                item_id()
            ),
            Fault::TooManyItems { limit } => format!(
                "more than {limit} items: later items are not tracked and events about them \
                 not checked"
            ),
            Fault::ItemNotAdded { .. } if e.role == EventRole::ItemDone => {
                let what = match e.m.item.and_then(|i| i.get("id")?.as_json_str()) {
                    Some(id) => format!("item {id}"),
                    None => "an item with no id".into(),
                };
                format!("`response.output_item.done` for {what}, which was never added")
            }
            Fault::ItemNotAdded {
                by_output_index: true,
            } => match e.m.output_index {
                Some(i) => format!("`{ty}` for output_index {i}, where no item was added"),
                None => format!("`{ty}` has no `output_index`"),
            },
            Fault::ItemNotAdded { .. } => format!(
                "`{ty}` for item {}, which no earlier `response.output_item.added` introduced",
                e.m.item_id.map(|s| format!("{s}")).unwrap_or_default()
            ),
            Fault::MissingItemId => format!("`{ty}` has no `item_id`"),
            Fault::OutputIndexMismatch { added_at, found } => format!(
                "`{ty}` for {} has output_index {found}, the item was added at {added_at}",
                label()
            ),
            Fault::ItemDoneTwice => format!("{} is done a second time", label()),
            Fault::ItemDoneWithOpenParts { .. } => {
                let Some(item) = e.item else { return };
                let mut open = Vec::new();
                for p in self.parts(item).filter(|p| !p.done) {
                    if let PartKey::Part(kind, index) = p.key {
                        open.push(format!("{} {index}", part_name(kind)));
                    }
                }
                for p in self.parts(item).filter(|p| !p.done && p.has_delta) {
                    if let PartKey::Text(spec, _) = p.key {
                        open.push(format!("{} (deltas without `.done`)", spec.name()));
                    }
                }
                format!(
                    "{} is done with unfinished parts: {}",
                    label(),
                    open.join(", ")
                )
            }
            Fault::EventAfterItemDone => format!(
                "`{ty}` for {} after its `response.output_item.done`",
                label()
            ),
            Fault::PartAddedTwice { kind, index } => format!(
                "{} {index} of {} was already added",
                part_name(kind),
                label()
            ),
            Fault::PartDoneTwice { kind, index } => {
                format!("{} {index} of {} is done twice", part_name(kind), label())
            }
            Fault::PartNotAdded { kind, index } if matches!(e.role, EventRole::PartDone(_)) => {
                format!(
                    "`{ty}` for {} {index} of {}, which `{}` never added",
                    part_name(kind),
                    label(),
                    kind.added_event().ty()
                )
            }
            Fault::PartNotAdded { kind, index } => format!(
                "`{ty}` for {} {index} of {} before `{}`",
                part_name(kind),
                label(),
                kind.added_event().ty()
            ),
            Fault::TextAfterDone { .. } => {
                format!("`{ty}` for {} after its `.done` event", label())
            }
            Fault::TextDoneTwice { .. } => format!("`{ty}` for {} a second time", label()),
            Fault::TooManyParts { limit } => format!(
                "more than {limit} parts and texts tracked: part and done checks stop for {}",
                label()
            ),
            // `ItemsNotDone` is reported with the terminal event's checks.
            _ => return,
        };
        let (rule, severity) = order_rule(fault, false);
        self.report(rule, severity, at, msg);
    }

    /// Drops the kept delta text of a done item.
    fn free_texts(&mut self, item: ItemRef) {
        let order = self.reader.order();
        for p in order.into_iter().flat_map(|o| o.parts(item)) {
            if let Some(text) = self.texts.get_mut(p.at.index()).and_then(|t| t.text.take()) {
                self.text_bytes -= text.len();
            }
        }
    }

    /// The kept text of a tracked text, made if new.
    fn text_buf(&mut self, t: PartRef) -> &mut TextBuf {
        let i = t.index();
        if self.texts.len() <= i {
            self.texts.resize_with(i + 1, || TextBuf::NEW);
        }
        &mut self.texts[i]
    }

    fn append(&mut self, at: At, item: ItemRef, t: PartRef, piece: JsonStr<'_>, is_delta: bool) {
        let max = self.config.max_text_bytes;
        let text_bytes = self.text_bytes;
        let buf = self.text_buf(t);
        if is_delta {
            buf.deltas += 1;
        }
        let Some(text) = &mut buf.text else { return };
        if text_bytes + piece.len_hint() > max {
            let dropped = text.len();
            buf.text = None;
            self.text_bytes -= dropped;
            let spec = match self.parts(item).find(|p| p.at == t).map(|p| p.key) {
                Some(PartKey::Text(spec, _)) => spec.name(),
                _ => "",
            };
            let msg = format!(
                "{spec} text of {} is not compared with its done event: \
                 more than {max} bytes of delta text kept",
                self.label(item)
            );
            self.report(Rule::LimitReached, Severity::Info, at, msg);
            return;
        }
        let before = text.len();
        piece.unescape_into(text);
        let grown = text.len() - before;
        self.text_bytes += grown;
    }

    fn text_done(&mut self, e: &Checked<'_, '_>, item: ItemRef, t: PartRef, spec: TextKind) {
        let buf = self.text_buf(t);
        let kept = buf.text.take();
        let deltas = buf.deltas;
        if let Some(kept) = &kept {
            self.text_bytes -= kept.len();
        }
        let (Some(kept), Some(done)) = (kept, e.m.get_str(spec.done_field())) else {
            return;
        };
        if done == kept.as_str() {
            return;
        }
        let (ty, label) = (e.ty, self.label(item));
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
        self.report(Rule::DoneMismatch, Severity::Error, e.at, msg);
    }
}

/// An event as the order checker saw it: for the findings about it.
struct Checked<'e, 'a> {
    at: At,
    ty: &'e str,
    m: &'e Members<'a>,
    role: EventRole,
    item: Option<ItemRef>,
}
