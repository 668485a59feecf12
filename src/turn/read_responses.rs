//! The Responses reader.

use alloc::collections::BTreeMap;
use alloc::string::String;

use super::{
    as_json_str, DeltaKind, Dialect, Extra, ItemKind, Stop, StopReason, TurnConfig, TurnError,
    TurnErrorKind, TurnEvent, TurnReader, TurnStart, TurnUsage, TurnWriter, UpstreamError,
};
use crate::frame::Frame;
use crate::json::{JsonStr, RawJson};
use crate::responses::order::{Checked, OrderConfig, OrderEvent, StreamOrder};
use crate::responses::{ContentPart, EventKind, Lazy, OutputItem, Response, ResponsesEvent};
use crate::views::Field;

/// An item, by its output index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    /// A message whose kind (text or refusal) its first part will say.
    PendingMessage,
    /// An item only Responses has (a hosted tool call): it starts at its
    /// `output_item.done`, whole.
    PendingOther,
    Open,
    Done,
}

/// Reads an OpenAI Responses stream into turn events. Items keep their
/// `output_index` as their model index.
///
/// | upstream | model |
/// | --- | --- |
/// | `response.created` (or the first lifecycle event) | start |
/// | a `message` item | a message item (a refusal item when its part is a `refusal`) |
/// | `output_text.delta`, `refusal.delta` | text, refusal |
/// | a `reasoning` item; `reasoning_summary_text.delta` (by `summary_index`), `reasoning_text.delta` | a reasoning item; summary, reasoning text; its `encrypted_content` at `output_item.done` as encrypted content |
/// | a `function_call` item, `function_call_arguments.delta` | a tool call item, arguments (arguments in the added item, too) |
/// | other items (hosted tools) | an item of the other kind |
/// | a done event (`output_text.done`, `function_call_arguments.done`, …) | what its whole value adds to the deltas, as a last fragment |
/// | `output_item.done` | item end |
/// | `response.completed` / `.incomplete` | usage, stop (`max_output_tokens` → max tokens, `content_filter`), end |
/// | `response.failed`, `error` | error |
/// | `keepalive` | keep-alive |
/// | each lifecycle event's `response`; a started item's `output_item.added` / `.done` object, its parts' `*_part.added` / `.done` objects and its text deltas' and done events' `logprobs` (the first four parts); an `error` event's `type`, `code`, `message`, `param`, and a terminal event after it | [`Extra`]s `response`, `item`, `part.N`, `summary_part.N`, `logprobs.N` (appended), `done_logprobs.N`, `error.*`, `terminal`: what a final answer in Responses' own shape needs and the model has no word for; each only where the event carries it |
///
/// Faults: a delta of an item never added, an item added twice, more items
/// than [`TurnConfig::max_items`], an event that does not decode, a stream
/// without a terminal event. A [`checked`](Self::checked) reader also runs
/// the order checker ([`StreamOrder`]: sequence numbers, the terminal
/// event, items and parts by id and index) and reports each of its faults
/// as a [`TurnErrorKind::Order`], and a first event that is not
/// `response.created` as a [`TurnErrorKind::StartNotFirst`] (a stream
/// resumed with `starting_after` begins later); it reads past both.
#[derive(Debug)]
pub struct ResponsesReader {
    max_items: usize,
    events: u64,
    started: bool,
    items: BTreeMap<u64, Item>,
    /// The unescaped bytes the deltas of each part gave, by (kind, output
    /// index, part), to send what its done event adds; and whether a delta
    /// of the part carried `logprobs` (handed on once when empty).
    parts: BTreeMap<(u64, DeltaKind, u64), (usize, bool)>,
    /// An `error` event ended the stream before a terminal event.
    errored: bool,
    scratch: String,
    rest: String,
    ended: bool,
    /// The order checker of a [`checked`](Self::checked) reader.
    order: Option<alloc::boxed::Box<StreamOrder>>,
}

impl Default for ResponsesReader {
    fn default() -> Self {
        Self::new(&TurnConfig::default())
    }
}

fn lazy<'a, T: Field<'a>>(payload: &Lazy<'a, T>) -> T {
    payload.get().unwrap_or_else(|_| T::fallback())
}

/// The names of the item extras of one part, by its index (content or
/// summary index): the reader hands each on as it comes, the render of a
/// turn read from Responses reads them. Parts past these are not carried.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PartKeys {
    /// A message part's `logprobs`: the deltas' arrays joined.
    pub(crate) logprobs: &'static str,
    /// A message part's `logprobs` as its `output_text.done` gives them.
    pub(crate) done_logprobs: &'static str,
    /// The part object of the latest `content_part.added` / `.done`.
    pub(crate) part: &'static str,
    /// The part object of the latest `reasoning_summary_part.added` /
    /// `.done`.
    pub(crate) summary_part: &'static str,
}

macro_rules! part_keys {
    ($($n:literal),*) => {
        [$(PartKeys {
            logprobs: concat!("logprobs.", $n),
            done_logprobs: concat!("done_logprobs.", $n),
            part: concat!("part.", $n),
            summary_part: concat!("summary_part.", $n),
        }),*]
    };
}

/// The part extras of the first parts of an item.
pub(crate) const PART_KEYS: [PartKeys; 4] = part_keys!(0, 1, 2, 3);

/// The extras of the part `index`, when it is carried.
pub(crate) fn part_keys(index: u64) -> Option<&'static PartKeys> {
    usize::try_from(index).ok().and_then(|i| PART_KEYS.get(i))
}

/// The turn extra that says a terminal event came after an `error` event
/// (whose members the extras `error.*` hold).
const TERMINAL: RawJson<'static> = RawJson::new("true");

impl ResponsesReader {
    /// A reader with this config's limits.
    pub fn new(config: &TurnConfig) -> Self {
        Self {
            max_items: config.max_items,
            events: 0,
            started: false,
            items: BTreeMap::new(),
            parts: BTreeMap::new(),
            errored: false,
            scratch: String::new(),
            rest: String::new(),
            ended: false,
            order: None,
        }
    }

    /// A reader that also checks the stream's order with a [`StreamOrder`]
    /// of these limits, and reports its faults to the writer
    /// ([`TurnWriter::fault`]) as [`TurnErrorKind::Order`], in the order the
    /// checker found them, before the event is read.
    pub fn checked(config: &TurnConfig, order: OrderConfig) -> Self {
        let mut reader = Self::new(config);
        reader.order = Some(alloc::boxed::Box::new(StreamOrder::with_config(order)));
        reader
    }

    /// The order checker of a [`checked`](Self::checked) reader.
    pub fn order(&self) -> Option<&StreamOrder> {
        self.order.as_deref()
    }

    /// Checks the order of one event (a reader that is not
    /// [`checked`](Self::checked) checks nothing and returns `None`), and
    /// reports each fault the checker finds to `out`, then a first event
    /// that is not `response.created`. A caller that reads
    /// events it cannot decode (a linter) gives their keys as it read
    /// them; [`read`](TurnReader::read) checks each decoded event itself.
    ///
    /// # Errors
    ///
    /// What `out` returns for a fault (by default, none: order faults are
    /// read past).
    pub fn check<W: TurnWriter + ?Sized>(
        &mut self,
        event: &OrderEvent<'_>,
        out: &mut W,
    ) -> Result<Option<Checked>, TurnError> {
        let Some(order) = self.order.as_deref_mut() else {
            return Ok(None);
        };
        let checked = order.feed(event);
        for f in order.faults() {
            let error = TurnError::new(TurnErrorKind::Order(f.fault), f.position.event_index);
            out.fault(error)?;
        }
        if order.events() == 1 && event.kind() != EventKind::ResponseCreated {
            out.fault(TurnError::new(TurnErrorKind::StartNotFirst, 0))?;
        }
        Ok(Some(checked))
    }

    fn error(&self, kind: TurnErrorKind) -> TurnError {
        TurnError::new(kind, self.events.saturating_sub(1))
    }

    /// Reads one decoded event.
    ///
    /// # Errors
    ///
    /// As [`TurnReader::read`].
    pub fn read_event<W: TurnWriter + ?Sized>(
        &mut self,
        event: &ResponsesEvent<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        let r = match event.validate() {
            Ok(()) => self.event(event, out),
            Err(e) => Err(self.error(TurnErrorKind::Decode(e))),
        };
        r.map_err(|e| e.at(at))
    }

    fn start<W: TurnWriter + ?Sized>(
        &mut self,
        r: &Response<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        out.write(&TurnEvent::Start(TurnStart {
            id: r.id,
            model: r.model,
            created: r.created_at.map(|t| t as u64),
        }))
    }

    /// A member of the final response the model has no word for, as the
    /// upstream gave it.
    fn extra<W: TurnWriter + ?Sized>(
        item: Option<u64>,
        key: &'static str,
        raw: RawJson<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if !out.wants_extras() {
            return Ok(());
        }
        out.write(&TurnEvent::Extra(Extra::new(
            Dialect::Responses,
            item,
            key,
            raw,
        )))
    }

    /// A lifecycle event's `response`: the turn starts (once), and the
    /// object is handed on whole as the turn's `response` extra (the latest
    /// replaces the earlier: the final response is the last one's settings,
    /// with the output built from the items).
    fn lifecycle<'e, W: TurnWriter + ?Sized>(
        &mut self,
        response: &Lazy<'e, Response<'e>>,
        out: &mut W,
    ) -> Result<Response<'e>, TurnError> {
        let r = lazy(response);
        self.start(&r, out)?;
        Self::extra(None, "response", response.raw(), out)?;
        Ok(r)
    }

    /// A part object of a `*_part.added` / `.done` event, for an item
    /// that started.
    fn part<W: TurnWriter + ?Sized>(
        &mut self,
        index: u64,
        part: u64,
        raw: RawJson<'_>,
        summary: bool,
        out: &mut W,
    ) -> Result<(), TurnError> {
        let Some(keys) = part_keys(part) else {
            return Ok(());
        };
        if !matches!(self.items.get(&index), Some(Item::Open | Item::Done)) {
            return Ok(());
        }
        let key = if summary {
            keys.summary_part
        } else {
            keys.part
        };
        Self::extra(Some(index), key, raw, out)
    }

    /// A text delta's `logprobs`, appended to its part's: an empty array
    /// only when the part had none (it says that the part has them).
    fn logprobs<W: TurnWriter + ?Sized>(
        index: u64,
        part: u64,
        raw: RawJson<'_>,
        had: bool,
        out: &mut W,
    ) -> Result<(), TurnError> {
        let Some(keys) = part_keys(part) else {
            return Ok(());
        };
        let empty = raw
            .get()
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .is_some_and(|r| r.trim().is_empty());
        if empty && had {
            return Ok(());
        }
        if !out.wants_extras() {
            return Ok(());
        }
        let extra = Extra::new(Dialect::Responses, Some(index), keys.logprobs, raw).appended();
        out.write(&TurnEvent::Extra(extra))
    }

    fn usage<W: TurnWriter + ?Sized>(
        &mut self,
        r: &Response<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        let Some(u) = &r.usage else {
            return Ok(());
        };
        out.write(&TurnEvent::Usage(TurnUsage {
            input: u.input_tokens,
            output: u.output_tokens,
            cached: u
                .input_tokens_details
                .as_ref()
                .and_then(|d| d.cached_tokens),
            reasoning: u
                .output_tokens_details
                .as_ref()
                .and_then(|d| d.reasoning_tokens),
        }))
    }

    /// The item `index`, which must be open; a pending message opens as
    /// `kind`.
    fn open<W: TurnWriter + ?Sized>(
        &mut self,
        index: u64,
        refusal: bool,
        out: &mut W,
    ) -> Result<(), TurnError> {
        match self.items.get(&index) {
            None => Err(self.error(TurnErrorKind::UnknownIndex { index })),
            Some(Item::Done) => Err(self.error(TurnErrorKind::IndexClosed { index })),
            Some(Item::Open) => Ok(()),
            // No text or reasoning of its own.
            Some(Item::PendingOther) => Err(self.error(TurnErrorKind::UnknownIndex { index })),
            Some(Item::PendingMessage) => {
                self.items.insert(index, Item::Open);
                let item = if refusal {
                    ItemKind::Refusal
                } else {
                    ItemKind::Message
                };
                out.write(&TurnEvent::ItemStart { index, item })
            }
        }
    }

    /// A text or reasoning fragment of an item never added opens one: a
    /// stream resumed with `starting_after` begins inside an item. (A
    /// call's arguments cannot: its name is unknown.)
    fn implicit<W: TurnWriter + ?Sized>(
        &mut self,
        index: u64,
        kind: DeltaKind,
        out: &mut W,
    ) -> Result<(), TurnError> {
        if self.items.contains_key(&index) || kind == DeltaKind::Arguments {
            return Ok(());
        }
        let limit = self.max_items;
        if self.items.len() >= limit {
            return Err(self.error(TurnErrorKind::TooManyItems { limit }));
        }
        if matches!(kind, DeltaKind::Reasoning | DeltaKind::Summary) {
            self.items.insert(index, Item::Open);
            return out.write(&TurnEvent::ItemStart {
                index,
                item: ItemKind::Reasoning,
            });
        }
        self.items.insert(index, Item::PendingMessage);
        Ok(())
    }

    /// A fragment of an item; `logprobs`, a text delta's, handed on.
    fn delta<W: TurnWriter + ?Sized>(
        &mut self,
        index: u64,
        kind: DeltaKind,
        part: u64,
        text: JsonStr<'_>,
        logprobs: Option<RawJson<'_>>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.implicit(index, kind, out)?;
        self.open(index, kind == DeltaKind::Refusal, out)?;
        let n = match text.as_str() {
            Some(t) => t.len(),
            None => {
                self.scratch.clear();
                text.unescape_into(&mut self.scratch);
                self.scratch.len()
            }
        };
        let at = (index, kind, part);
        let had_logprobs = match self.parts.get_mut(&at) {
            Some((emitted, seen)) => {
                *emitted += n;
                let had = *seen;
                *seen |= logprobs.is_some();
                had
            }
            None => {
                let limit = self.max_items;
                if self.parts.len() >= limit {
                    return Err(self.error(TurnErrorKind::TooManyItems { limit }));
                }
                self.parts.insert(at, (n, logprobs.is_some()));
                false
            }
        };
        if !text.is_empty() {
            out.write(&TurnEvent::Delta {
                index,
                kind,
                part: part as u32,
                text,
            })?;
        }
        match logprobs {
            Some(raw) => Self::logprobs(index, part, raw, had_logprobs, out),
            None => Ok(()),
        }
    }

    /// A done event with the whole text: sends what the deltas did not.
    fn done<W: TurnWriter + ?Sized>(
        &mut self,
        index: u64,
        kind: DeltaKind,
        part: u64,
        whole: JsonStr<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.implicit(index, kind, out)?;
        self.open(index, kind == DeltaKind::Refusal, out)?;
        let at = (index, kind, part);
        let (emitted, logprobs) = self.parts.get(&at).copied().unwrap_or((0, false));
        let mut text = core::mem::take(&mut self.scratch);
        text.clear();
        whole.unescape_into(&mut text);
        // The part now holds the whole: a later done event of the item
        // (`output_item.done`) adds nothing the deltas and this gave.
        if self.parts.len() >= self.max_items && !self.parts.contains_key(&at) {
            self.scratch = text;
            return Err(self.error(TurnErrorKind::TooManyItems {
                limit: self.max_items,
            }));
        }
        self.parts.insert(at, (text.len().max(emitted), logprobs));
        let mut r = Ok(());
        if let Some(rest) = text.get(emitted..).filter(|r| !r.is_empty()) {
            let rest = as_json_str(rest, &mut self.rest);
            r = out.write(&TurnEvent::Delta {
                index,
                kind,
                part: part as u32,
                text: rest,
            });
        }
        self.scratch = text;
        r
    }

    fn event<W: TurnWriter + ?Sized>(
        &mut self,
        event: &ResponsesEvent<'_>,
        out: &mut W,
    ) -> Result<(), TurnError> {
        use ResponsesEvent as E;
        if self.ended {
            let terminal = match event {
                E::Done => return Ok(()),
                E::ResponseCompleted(e) => Some(e.response.raw()),
                E::ResponseIncomplete(e) => Some(e.response.raw()),
                E::ResponseFailed(e) => Some(e.response.raw()),
                _ => None,
            };
            if let (Some(raw), true) = (terminal, self.errored) {
                // The final response is the terminal one, not the error's.
                self.errored = false;
                Self::extra(None, "response", raw, out)?;
                Self::extra(None, "terminal", TERMINAL, out)?;
            }
            return Err(self.error(TurnErrorKind::ContentAfterFinish));
        }
        match event {
            E::ResponseCreated(e) => self.lifecycle(&e.response, out).map(drop),
            E::ResponseInProgress(e) => self.lifecycle(&e.response, out).map(drop),
            E::ResponseQueued(e) => self.lifecycle(&e.response, out).map(drop),
            E::OutputItemAdded(added) => {
                let index = added.output_index;
                if self.items.contains_key(&index) {
                    return Err(self.error(TurnErrorKind::IndexClosed { index }));
                }
                let limit = self.max_items;
                if self.items.len() >= limit {
                    return Err(self.error(TurnErrorKind::TooManyItems { limit }));
                }
                let item = lazy(&added.item);
                let kind = match &item {
                    OutputItem::Message(_) => {
                        self.items.insert(index, Item::PendingMessage);
                        return Ok(());
                    }
                    OutputItem::Reasoning(_) => ItemKind::Reasoning,
                    OutputItem::FunctionCall(call) => ItemKind::ToolCall {
                        call_id: call.call_id,
                        name: call.name,
                    },
                    _ => {
                        self.items.insert(index, Item::PendingOther);
                        return Ok(());
                    }
                };
                self.items.insert(index, Item::Open);
                out.write(&TurnEvent::ItemStart { index, item: kind })?;
                Self::extra(Some(index), "item", added.item.raw(), out)?;
                if let OutputItem::FunctionCall(call) = &item {
                    if let Some(args) = call.arguments {
                        self.delta(index, DeltaKind::Arguments, 0, args, None, out)?;
                    }
                }
                Ok(())
            }
            E::ContentPartAdded(p) => {
                let refusal = matches!(lazy(&p.part), ContentPart::Refusal(_));
                self.open(p.output_index, refusal, out)?;
                self.part(p.output_index, p.content_index, p.part.raw(), false, out)
            }
            E::ContentPartDone(p) => {
                self.part(p.output_index, p.content_index, p.part.raw(), false, out)
            }
            E::ReasoningSummaryPartAdded(p) => {
                self.part(p.output_index, p.summary_index, p.part.raw(), true, out)
            }
            E::ReasoningSummaryPartDone(p) => {
                self.part(p.output_index, p.summary_index, p.part.raw(), true, out)
            }
            E::OutputTextDelta(d) => {
                let (index, part) = (d.output_index, d.content_index);
                let logprobs = d.logprobs.as_ref().map(|l| l.as_raw_json());
                self.delta(index, DeltaKind::Text, part, d.delta, logprobs, out)
            }
            E::OutputTextDone(d) => {
                let (index, part) = (d.output_index, d.content_index);
                self.done(index, DeltaKind::Text, part, d.text, out)?;
                match (&d.logprobs, part_keys(part)) {
                    (Some(l), Some(keys)) => {
                        Self::extra(Some(index), keys.done_logprobs, l.as_raw_json(), out)
                    }
                    _ => Ok(()),
                }
            }
            E::RefusalDelta(d) => self.delta(
                d.output_index,
                DeltaKind::Refusal,
                d.content_index,
                d.delta,
                None,
                out,
            ),
            E::RefusalDone(d) => self.done(
                d.output_index,
                DeltaKind::Refusal,
                d.content_index,
                d.refusal,
                out,
            ),
            E::ReasoningSummaryTextDelta(d) => self.delta(
                d.output_index,
                DeltaKind::Summary,
                d.summary_index,
                d.delta,
                None,
                out,
            ),
            E::ReasoningSummaryTextDone(d) => self.done(
                d.output_index,
                DeltaKind::Summary,
                d.summary_index,
                d.text,
                out,
            ),
            E::ReasoningTextDelta(d) => self.delta(
                d.output_index,
                DeltaKind::Reasoning,
                d.content_index,
                d.delta,
                None,
                out,
            ),
            E::ReasoningTextDone(d) => self.done(
                d.output_index,
                DeltaKind::Reasoning,
                d.content_index,
                d.text,
                out,
            ),
            E::FunctionCallArgumentsDelta(d) => {
                self.delta(d.output_index, DeltaKind::Arguments, 0, d.delta, None, out)
            }
            E::FunctionCallArgumentsDone(d) => {
                self.done(d.output_index, DeltaKind::Arguments, 0, d.arguments, out)
            }
            E::OutputItemDone(done) => {
                let index = done.output_index;
                let item = lazy(&done.item);
                if !self.items.contains_key(&index) {
                    // An item given whole at its done event: open it.
                    let limit = self.max_items;
                    if self.items.len() >= limit {
                        return Err(self.error(TurnErrorKind::TooManyItems { limit }));
                    }
                    match &item {
                        OutputItem::Message(_) => {
                            self.items.insert(index, Item::PendingMessage);
                        }
                        OutputItem::Reasoning(_) | OutputItem::FunctionCall(_) => {
                            return Err(self.error(TurnErrorKind::UnknownIndex { index }));
                        }
                        _ => {
                            self.items.insert(index, Item::PendingOther);
                        }
                    }
                }
                if self.items.get(&index) == Some(&Item::PendingOther) {
                    // Whole now: carried as the upstream gave it.
                    self.items.insert(index, Item::Done);
                    out.write(&TurnEvent::ItemStart {
                        index,
                        item: ItemKind::Other {
                            dialect: Dialect::Responses,
                            ty: item.ty(),
                            raw: Some(done.item.raw()),
                        },
                    })?;
                    return out.write(&TurnEvent::ItemEnd { index, whole: None });
                }
                self.open(index, false, out)?;
                match &item {
                    OutputItem::Reasoning(r) => {
                        if let Some(enc) = r.encrypted_content.filter(|e| !e.is_empty()) {
                            out.write(&TurnEvent::Delta {
                                index,
                                kind: DeltaKind::Encrypted,
                                part: 0,
                                text: enc,
                            })?;
                        }
                    }
                    OutputItem::FunctionCall(call) => {
                        // Arguments given only here.
                        if let Some(args) = call.arguments {
                            self.done(index, DeltaKind::Arguments, 0, args, out)?;
                        }
                    }
                    _ => {}
                }
                // The item as the upstream finished it: its id, status and
                // members the model has no word for.
                Self::extra(Some(index), "item", done.item.raw(), out)?;
                // This item's parts only (the map is ordered by item).
                while let Some((&k, _)) = self.parts.range((index, DeltaKind::Text, 0)..).next() {
                    if k.0 != index {
                        break;
                    }
                    self.parts.remove(&k);
                }
                self.items.insert(index, Item::Done);
                out.write(&TurnEvent::ItemEnd { index, whole: None })
            }
            E::ResponseCompleted(e) => {
                let r = self.lifecycle(&e.response, out)?;
                self.usage(&r, out)?;
                out.write(&TurnEvent::Stop(Stop {
                    reason: StopReason::EndTurn,
                    raw: r.status,
                }))?;
                self.ended = true;
                out.write(&TurnEvent::End)
            }
            E::ResponseIncomplete(e) => {
                let r = self.lifecycle(&e.response, out)?;
                self.usage(&r, out)?;
                let why = r.incomplete_details.as_ref().and_then(|d| d.reason);
                let reason = if why.is_some_and(|r| r == "content_filter") {
                    StopReason::ContentFilter
                } else {
                    StopReason::MaxTokens
                };
                out.write(&TurnEvent::Stop(Stop { reason, raw: why }))?;
                self.ended = true;
                out.write(&TurnEvent::End)
            }
            E::ResponseFailed(e) => {
                let r = lazy(&e.response);
                Self::extra(None, "response", e.response.raw(), out)?;
                self.usage(&r, out)?;
                let err = r.error.as_ref();
                self.ended = true;
                out.write(&TurnEvent::Error(UpstreamError {
                    code: err.and_then(|e| e.code),
                    message: err.and_then(|e| e.message),
                }))
            }
            E::ErrorEvent(e) => {
                let inner = e.error.as_ref().map(lazy);
                self.ended = true;
                self.errored = true;
                // The error as the final response states it, member by
                // member (either shape of the event).
                for (key, value) in [
                    ("error.type", e.error_type()),
                    ("error.code", e.code()),
                    ("error.message", e.message()),
                    ("error.param", e.param()),
                ] {
                    if let Some(v) = value {
                        Self::extra(None, key, v.as_raw_json(), out)?;
                    }
                }
                out.write(&TurnEvent::Error(UpstreamError {
                    code: e.code.or(inner.as_ref().and_then(|i| i.code)),
                    message: e.message.or(inner.as_ref().and_then(|i| i.message)),
                }))
            }
            E::Done => Err(self.error(TurnErrorKind::Truncated)),
            E::Unknown { ty, .. } if *ty == "keepalive" => out.write(&TurnEvent::KeepAlive),
            _ => Ok(()),
        }
    }
}

impl TurnReader for ResponsesReader {
    fn read<W: TurnWriter + ?Sized>(
        &mut self,
        frame: &Frame,
        out: &mut W,
    ) -> Result<(), TurnError> {
        self.events += 1;
        let at = self.events - 1;
        let event = ResponsesEvent::from_frame(frame)
            .and_then(ResponsesEvent::strict)
            .map_err(|e| TurnError::new(TurnErrorKind::Decode(e), at))?;
        if self.order.is_some() {
            self.check(&OrderEvent::from_event(&event), out)
                .map_err(|e| e.at(at))?;
        }
        self.event(&event, out).map_err(|e| e.at(at))
    }

    fn finish<W: TurnWriter + ?Sized>(&mut self, _out: &mut W) -> Result<(), TurnError> {
        if self.ended {
            return Ok(());
        }
        Err(TurnError::new(TurnErrorKind::Truncated, self.events))
    }

    fn events(&self) -> u64 {
        self.events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    use crate::turn::testing::{self, kept_appended as x, KeepExtras, Kept};

    /// Each line a `data:` frame; what the reader hands on as extras, and
    /// its errors.
    fn extras(lines: &[&str]) -> (Vec<Kept>, Vec<TurnErrorKind>) {
        let mut reader = ResponsesReader::default();
        let mut out = KeepExtras::new(Dialect::Responses);
        let mut errors = Vec::new();
        for f in testing::frames(lines) {
            if let Err(e) = reader.read(&f, &mut out) {
                errors.push(e.kind());
            }
        }
        (out.extras, errors)
    }

    const CREATED: &str = r#"{"id":"resp_1","status":"in_progress","tools":[],"output":[]}"#;
    const ADDED_PART: &str = r#"{"type":"output_text","annotations":[],"text":""}"#;
    const LP: &str = r#"[{"token":"!","logprob":-0.5}]"#;
    const DONE_PART: &str = r#"{"type":"output_text","annotations":[],"text":"Hi!"}"#;
    const ITEM: &str =
        r#"{"id":"msg_1","type":"message","status":"completed","content":[],"role":"assistant"}"#;
    const CALL: &str =
        r#"{"id":"fc_1","type":"function_call","call_id":"c","name":"f","arguments":""}"#;
    const DONE: &str = r#"{"id":"resp_1","status":"completed","output":[]}"#;

    #[test]
    fn hands_on_response_objects_items_parts_and_logprobs() {
        let created = alloc::format!(r#"{{"type":"response.created","response":{CREATED}}}"#);
        let (got, errors) = extras(&[
            &created,
            // A message is pending until its first part: its added object
            // is not handed on (no item to hold it yet).
            r#"{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_1","type":"message","content":[]}}"#,
            &alloc::format!(
                r#"{{"type":"response.content_part.added","item_id":"msg_1","output_index":0,"content_index":0,"part":{ADDED_PART}}}"#
            ),
            // An empty array says the part has logprobs, once.
            r#"{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi","logprobs":[]}"#,
            &alloc::format!(
                r#"{{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"!","logprobs":{LP}}}"#
            ),
            r#"{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"","logprobs":[ ]}"#,
            r#"{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":""}"#,
            r#"{"type":"response.output_text.done","item_id":"msg_1","output_index":0,"content_index":0,"text":"Hi!","logprobs":[1]}"#,
            &alloc::format!(
                r#"{{"type":"response.content_part.done","item_id":"msg_1","output_index":0,"content_index":0,"part":{DONE_PART}}}"#
            ),
            &alloc::format!(
                r#"{{"type":"response.output_item.done","output_index":0,"item":{ITEM}}}"#
            ),
            &alloc::format!(
                r#"{{"type":"response.output_item.added","output_index":1,"item":{CALL}}}"#
            ),
            r#"{"type":"response.reasoning_summary_part.added","item_id":"fc_1","output_index":1,"summary_index":5,"part":{}}"#,
            &alloc::format!(r#"{{"type":"response.completed","response":{DONE}}}"#),
        ]);
        assert_eq!(errors, []);
        assert_eq!(
            got,
            [
                x(None, "response", CREATED, false),
                x(Some(0), "part.0", ADDED_PART, false),
                x(Some(0), "logprobs.0", "[]", true),
                x(Some(0), "logprobs.0", LP, true),
                x(Some(0), "done_logprobs.0", "[1]", false),
                x(Some(0), "part.0", DONE_PART, false),
                x(Some(0), "item", ITEM, false),
                x(Some(1), "item", CALL, false),
                // Summary index 5: past the parts carried.
                x(None, "response", DONE, false),
            ]
        );
    }

    #[test]
    fn an_error_event_then_a_terminal_one() {
        let failed = r#"{"id":"resp_1","status":"failed","error":{"code":"q","message":"m"}}"#;
        let (got, errors) = extras(&[
            r#"{"type":"error","error":{"type":"t","code":"q","message":"m\u00e9","param":null}}"#,
            &alloc::format!(r#"{{"type":"response.failed","response":{failed}}}"#),
            r#"{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"x"}"#,
        ]);
        // A null param is no string: not handed on.
        assert_eq!(
            got,
            [
                x(None, "error.type", r#""t""#, false),
                x(None, "error.code", r#""q""#, false),
                x(None, "error.message", r#""m\u00e9""#, false),
                x(None, "response", failed, false),
                x(None, "terminal", "true", false),
            ]
        );
        assert_eq!(
            errors,
            [
                TurnErrorKind::ContentAfterFinish,
                TurnErrorKind::ContentAfterFinish
            ]
        );
    }
}
