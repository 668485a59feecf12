//! [`ResponsesAccumulator`]: the events of a Responses API stream → the final
//! response, as the API would return it.

mod item;

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use self::item::{input_key, part_mut, set_capped, ItemState, Part, Parts};
use super::{AccumulateError, AccumulateErrorKind, JsonValue, Outcome};
use crate::json::partial::PartialJson;
use crate::json::{JsonError, JsonStr, RawJson};
pub use crate::responses::order::SequenceInfo;
use crate::responses::order::{Fault, ItemRef, OrderConfig, OrderEvent, StreamOrder};
use crate::responses::{ContentPart, OutputItem, ResponsesEvent};
use crate::views::Field;

config! {
    /// Limits of a [`ResponsesAccumulator`].
    ///
    /// ```
    /// use ssekit::accumulate::ResponsesAccumulatorConfig;
    ///
    /// let config = ResponsesAccumulatorConfig::DEFAULT.with_max_bytes(1 << 20);
    /// assert_eq!(config.max_items, 4096);
    ///
    /// // Or set a field of the default:
    /// let mut config = ResponsesAccumulatorConfig::default();
    /// config.max_bytes = 1 << 20;
    /// assert_eq!(config, ResponsesAccumulatorConfig::DEFAULT.with_max_bytes(1 << 20));
    /// ```
    pub struct ResponsesAccumulatorConfig {
        /// The bytes kept, counted from the input as it arrives: delta text,
        /// `*.done` texts that replace it, and the JSON text of the response,
        /// item, part and annotation objects and partial images. A response or
        /// item object that replaces an earlier one gives back the earlier
        /// one's count; other replacements do not, so the count is an upper
        /// bound of what is kept. Default 64 MiB.
        max_bytes: usize = 64 << 20, with_max_bytes;
        /// Output items. Default 4096.
        max_items: usize = 4096, with_max_items;
        /// Entries of one list: content parts, summary parts, shell commands,
        /// annotations of a part, partial images of an item. Default 4096.
        max_parts: usize = 4096, with_max_parts;
        /// Findings kept; later ones are counted in
        /// [`FinalResponse::anomalies_dropped`]. Default 1024.
        max_anomalies: usize = 1024, with_max_anomalies;
        /// Whether to keep a [`PartialJson`] repair of every function, custom
        /// tool and MCP call's input up to date, for
        /// [`ItemSnapshot::partial_arguments`]. Default `true`.
        partial_arguments: bool = true, with_partial_arguments;
    }
}

/// Something a stream did that a well-formed stream does not. Recorded by
/// the accumulator, which carries on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Anomaly {
    /// What.
    pub kind: AnomalyKind,
    /// The position of the event among the events fed (from 0); for
    /// anomalies made by [`finish`](ResponsesAccumulator::finish), the number
    /// of events fed.
    pub event_index: u64,
    /// The event's `sequence_number`, if it had one.
    pub sequence_number: Option<u64>,
}

/// The kinds of [`Anomaly`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnomalyKind {
    /// Sequence numbers were skipped: `expected` came next, `found` did.
    SequenceGap {
        /// The previous number plus one.
        expected: u64,
        /// The number found.
        found: u64,
    },
    /// An event without a sequence number after events with one (`[DONE]`
    /// aside). Streams with no numbers at all (before mid-2025) make no
    /// such anomaly.
    MissingSequenceNumber,
    /// A sequence number not greater than the previous one.
    SequenceRegression {
        /// The previous number.
        previous: u64,
        /// The number found.
        found: u64,
    },
    /// An event about an item that `output_item.added` had not introduced
    /// (yet).
    EventBeforeItem {
        /// The item's `output_index`.
        output_index: u64,
    },
    /// An event's `item_id` is not the id of the item at its
    /// `output_index`, or the terminal response's `output` gives the item
    /// another id (the streamed id is kept).
    ItemIdMismatch {
        /// The item's `output_index`.
        output_index: u64,
    },
    /// A `*.done` event's text is not the concatenation of the deltas before
    /// it (the done text is kept).
    DoneMismatch {
        /// The item's `output_index`.
        output_index: u64,
        /// The field: `text`, `refusal`, `summary`, `arguments`, `input`,
        /// `code`, `diff`, `command`.
        field: &'static str,
    },
    /// A delta after its text's `*.done` event (not applied).
    DeltaAfterDone {
        /// The item's `output_index`.
        output_index: u64,
    },
    /// `output_item.done` carries a text different from the one built from
    /// the events (the built one is kept).
    ItemMismatch {
        /// The item's `output_index`.
        output_index: u64,
        /// The member: `content`, `summary`, `arguments`, `input`, `code`.
        field: &'static str,
    },
    /// An event after the terminal event.
    EventAfterTerminal,
    /// A second terminal event (the later one wins).
    SecondTerminal,
    /// An `error` event.
    ErrorEvent,
    /// An item object (`output_item.added` / `.done`) whose `type` differs
    /// from the type the item had (from an earlier object or implied by its
    /// events). The new type is kept; texts built for the old type that the
    /// new one has no place for are not in the output.
    ItemTypeChanged {
        /// The item's `output_index`.
        output_index: u64,
    },
    /// A second item with the id of an earlier one, at another
    /// `output_index`. Both stay in the output, as sent.
    DuplicateItemId {
        /// The later item's `output_index`.
        output_index: u64,
        /// The `output_index` of the item that had the id first.
        other: u64,
    },
    /// An item of the terminal response's `output` that the stream never
    /// sent as events (it is taken from there).
    ItemNotStreamed {
        /// The `output_index` given to it: its position in `output`, or
        /// past the last item when that is taken.
        output_index: u64,
    },
}

impl fmt::Display for Anomaly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            AnomalyKind::SequenceGap { expected, found } => {
                write!(f, "sequence_number {found} where {expected} was expected")?
            }
            AnomalyKind::MissingSequenceNumber => {
                f.write_str("event without a sequence_number after numbered events")?
            }
            AnomalyKind::SequenceRegression { previous, found } => {
                write!(f, "sequence_number {found} after {previous}")?
            }
            AnomalyKind::EventBeforeItem { output_index } => write!(
                f,
                "event for output_index {output_index} before its output_item.added"
            )?,
            AnomalyKind::ItemIdMismatch { output_index } => write!(
                f,
                "item_id differs from the id of output item {output_index}"
            )?,
            AnomalyKind::DoneMismatch {
                output_index,
                field,
            } => write!(
                f,
                "done {field} of output item {output_index} differs from its deltas"
            )?,
            AnomalyKind::DeltaAfterDone { output_index } => write!(
                f,
                "delta for output item {output_index} after its done event"
            )?,
            AnomalyKind::ItemMismatch {
                output_index,
                field,
            } => write!(
                f,
                "output_item.done {field} of item {output_index} differs from its events"
            )?,
            AnomalyKind::EventAfterTerminal => f.write_str("event after the terminal event")?,
            AnomalyKind::SecondTerminal => f.write_str("second terminal event")?,
            AnomalyKind::ErrorEvent => f.write_str("error event")?,
            AnomalyKind::ItemTypeChanged { output_index } => {
                write!(f, "output item {output_index} changed its type")?
            }
            AnomalyKind::DuplicateItemId {
                output_index,
                other,
            } => write!(
                f,
                "output item {output_index} has the id of output item {other}"
            )?,
            AnomalyKind::ItemNotStreamed { output_index } => write!(
                f,
                "output item {output_index} only in the terminal response, never streamed"
            )?,
        }
        write!(f, " (event {}", self.event_index)?;
        if let Some(n) = self.sequence_number {
            write!(f, ", sequence_number {n}")?;
        }
        f.write_str(")")
    }
}

/// The terminal event seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Terminal {
    Completed,
    Incomplete,
    Failed,
}

/// Deltas, `*.done` events and items of a Responses API stream → the final
/// response.
///
/// Feed it every event with [`feed`](Self::feed); read the state at any
/// moment ([`item`](Self::item), [`items`](Self::items),
/// [`status`](Self::status), …; all but [`output_text`](Self::output_text)
/// borrow and allocate nothing); call
/// [`finish`](Self::finish) at the end of the stream for the
/// [`FinalResponse`].
///
/// # What is built from events, and what is kept as sent
///
/// Items are keyed by `output_index`; content parts by `content_index`,
/// summary parts by `summary_index`, shell commands by `command_index`,
/// annotations by `annotation_index`, partial images by
/// `partial_image_index`, never by arrival order. Each item's JSON starts
/// from the latest item object the stream sent for it (`output_item.done`,
/// else `output_item.added`, else the element of the terminal response's
/// `output`), and the members the accumulator builds from events are laid
/// over it:
///
/// | item `type` | built from events |
/// | --- | --- |
/// | every item | `type`, `id`, `status` (progress events such as `web_search_call.searching` until the item is done) |
/// | `message` | `content`: `output_text` parts (`text`, `annotations`, `logprobs`) and `refusal` parts |
/// | `reasoning` | `summary` (`summary_text` parts), `content` (`reasoning_text` parts) |
/// | `function_call` | `arguments`, `name` (from `function_call_arguments.done` when the item has none) |
/// | `custom_tool_call` | `input` |
/// | `mcp_call` | `arguments` |
/// | `code_interpreter_call` | `code` |
/// | `apply_patch_call` | `operation.diff` |
/// | `shell_call` | `action.commands` |
///
/// Everything else is kept as the stream sent it in the item objects: the
/// `call_id`, `name` and `encrypted_content` of the items above, the
/// `action` of web searches, `queries` and `results` of file searches,
/// `outputs` of code interpreter calls, `result` of image generation calls,
/// `tools` of `mcp_list_tools`, and all of `computer_call`,
/// `local_shell_call`, `mcp_approval_request`, `compaction`, the `*_output`
/// items and item types this version does not know. Partial images are kept
/// ([`ItemSnapshot::partial_images`]) but are not part of the API's item;
/// `shell_call_output_content` and audio events are not modeled.
///
/// # Findings, not failures
///
/// Streams break in small ways: a sequence number skipped, a delta before
/// its item, a `*.done` text that is not the concatenation of the deltas.
/// The accumulator keeps going and records a [`Anomaly`]; where the stream
/// disagrees with itself, the `*.done` event's text wins over the deltas,
/// and the text built from events wins over the item object (an item that
/// the terminal response names with another id keeps its streamed id). A
/// stream that ends without `response.completed`, `.incomplete` or
/// `.failed` gives a response whose [`Outcome`] is
/// [`Truncated`](Outcome::Truncated) (or [`Failed`](Outcome::Failed), when
/// an `error` event came), never a silent success.
///
/// # Bounded memory
///
/// [`ResponsesAccumulatorConfig`] bounds the bytes kept (delta text, JSON objects),
/// the items, the parts per list and the anomalies; past a bound,
/// [`ResponsesAccumulator::feed`] fails with an [`AccumulateError`] and the
/// event is not applied. The error is sticky: every later call fails too,
/// and [`finish`](ResponsesAccumulator::finish) still hands out what was
/// built, marked by [`FinalResponse::limit_error`].
///
/// # Example
///
/// ```
/// use ssekit::accumulate::{Outcome, ResponsesAccumulator};
/// use ssekit::responses::ResponsesEvent;
/// use ssekit::{Bytes, Parser};
///
/// let stream = concat!(
///     "data: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\",\"output\":[]}}\n\n",
///     "data: {\"type\":\"response.output_item.added\",\"sequence_number\":1,\"output_index\":0,\"item\":{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_1\",\"name\":\"weather\",\"arguments\":\"\",\"status\":\"in_progress\"}}\n\n",
///     "data: {\"type\":\"response.function_call_arguments.delta\",\"sequence_number\":2,\"item_id\":\"fc_1\",\"output_index\":0,\"delta\":\"{\\\"city\\\": \\\"San\"}\n\n",
///     "data: {\"type\":\"response.function_call_arguments.delta\",\"sequence_number\":3,\"item_id\":\"fc_1\",\"output_index\":0,\"delta\":\" Jose\\\"}\"}\n\n",
///     "data: {\"type\":\"response.completed\",\"sequence_number\":4,\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"usage\":{\"total_tokens\":9}}}\n\n",
/// );
/// let mut parser = Parser::new();
/// parser.feed(Bytes::from_static(stream.as_bytes()));
/// let mut acc = ResponsesAccumulator::new();
/// let mut shown = Vec::new();
/// while let Some(frame) = parser.next_frame()? {
///     acc.feed(&ResponsesEvent::from_frame(&frame)?)?;
///     if let Some(call) = acc.item(0) {
///         // The live value of the arguments, for a UI.
///         shown.push(call.partial_arguments().ok().flatten().map(str::to_owned));
///     }
/// }
/// assert_eq!(shown[1].as_deref(), Some(r#"{"city": "San"}"#));
///
/// let response = acc.finish();
/// assert_eq!(response.outcome(), Outcome::Completed);
/// assert!(response.anomalies().is_empty());
/// assert_eq!(
///     response.json().to_string(),
///     r#"{"id":"resp_1","status":"completed","usage":{"total_tokens":9},"output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"weather","arguments":"{\"city\": \"San Jose\"}","status":"in_progress"}]}"#,
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ResponsesAccumulator {
    config: ResponsesAccumulatorConfig,
    /// Items in the order they were first seen (never shifted, whatever
    /// order the indexes come in).
    items: Vec<ItemState>,
    /// `output_index` → position in `items`.
    by_index: BTreeMap<u64, usize>,
    /// Item id → position in `items` of the first item with that id.
    by_id: BTreeMap<String, usize>,
    /// The response object of the latest lifecycle event, its `output`
    /// left empty.
    response: Option<JsonValue>,
    response_len: usize,
    /// The ids of the terminal response's `output` items, by position.
    terminal_ids: Vec<Option<String>>,
    /// The items of the terminal response's `output` that the stream had
    /// not finished when it came (by position): only these are copied.
    terminal_items: Vec<(usize, JsonValue)>,
    status: Option<String>,
    terminal: Option<Terminal>,
    /// The error of an `error` event: `{type, code, message, param}`.
    error_event: Option<JsonValue>,
    anomalies: Vec<Anomaly>,
    anomalies_dropped: u64,
    order: StreamOrder,
    /// The order checker found no item introduced at the current event's
    /// `output_index`.
    unintroduced: bool,
    /// The order checker's item of the current event.
    checked_item: Option<ItemRef>,
    /// An order checker's item found by an `item_id` equal to the id of the
    /// item at this index in `items`.
    same_id: Option<(ItemRef, usize)>,
    events: u64,
    bytes: usize,
    limit_error: Option<AccumulateError>,
    /// Index into `items` of the last item looked up.
    last_item: usize,
}

/// Where an event is, for anomalies and errors.
#[derive(Clone, Copy)]
struct At {
    event_index: u64,
    sequence_number: Option<u64>,
}

impl ResponsesAccumulator {
    /// An accumulator with the default [`ResponsesAccumulatorConfig`].
    pub fn new() -> Self {
        Self::with_config(ResponsesAccumulatorConfig::default())
    }

    /// An accumulator with the given limits.
    pub fn with_config(config: ResponsesAccumulatorConfig) -> Self {
        Self {
            order: StreamOrder::with_config(OrderConfig::DEFAULT.with_max_items(config.max_items)),
            config,
            ..Self::default()
        }
    }

    /// The limits this accumulator was made with.
    pub fn config(&self) -> &ResponsesAccumulatorConfig {
        &self.config
    }

    /// Applies one event.
    ///
    /// Costs O(length of the event's text) plus O(log n) map lookups among
    /// the items and parts (nothing shifts, whatever order the indexes come
    /// in); a delta appends to a buffer that is reused, so a
    /// stream of deltas allocates amortised O(log length) times per text.
    /// Events that are not about the response (`keepalive`, `[DONE]`, audio,
    /// unknown types) only count towards the sequence numbers.
    ///
    /// # Errors
    ///
    /// An [`AccumulateError`] when the event would exceed a limit of the
    /// [`ResponsesAccumulatorConfig`]; the event is not applied, and every later call
    /// returns the same error. An [`AccumulateErrorKind::Decode`] error when
    /// [`ResponsesEvent::validate`] fails (a lazy payload of the event does
    /// not decode, or the event is an [`Unknown`](ResponsesEvent::Unknown)
    /// that does not fit its type): that event is not applied, nor
    /// counted, as if it had failed to decode before it was fed; later
    /// events are applied.
    pub fn feed(&mut self, event: &ResponsesEvent<'_>) -> Result<(), AccumulateError> {
        if let Some(e) = self.limit_error {
            return Err(e);
        }
        if let Err(e) = event.validate() {
            let kind = AccumulateErrorKind::Decode(e);
            return Err(AccumulateError::new(
                kind,
                self.events,
                event.sequence_number(),
            ));
        }
        let at = At {
            event_index: self.events,
            sequence_number: event.sequence_number(),
        };
        self.events += 1;
        self.unintroduced = false;
        let checked = self.order.feed(&OrderEvent::from_event(event));
        self.checked_item = checked.item();
        for i in 0..checked.fault_count() {
            let Some(&f) = self.order.faults().get(i) else {
                break;
            };
            let kind = match f.fault {
                Fault::SequenceGap { expected, found } => {
                    AnomalyKind::SequenceGap { expected, found }
                }
                Fault::SequenceRegression { previous, found } => {
                    AnomalyKind::SequenceRegression { previous, found }
                }
                // Streams with no numbers at all (before mid-2025) are fine.
                Fault::MissingSequenceNumber { highest: None } => continue,
                Fault::MissingSequenceNumber { highest: Some(_) } => {
                    AnomalyKind::MissingSequenceNumber
                }
                Fault::SecondTerminal { .. } => {
                    self.find(at, AnomalyKind::EventAfterTerminal);
                    AnomalyKind::SecondTerminal
                }
                Fault::EventAfterTerminal { .. } => AnomalyKind::EventAfterTerminal,
                // No item was introduced at the event's `output_index`:
                // the item made there for it is reported (see `item_at`).
                Fault::ItemNotAdded { .. } | Fault::OutputIndexMismatch { .. } => {
                    self.unintroduced = true;
                    continue;
                }
                Fault::TextAfterDone { .. } => AnomalyKind::DeltaAfterDone {
                    output_index: event.output_index().unwrap_or(0),
                },
                // The linter's concerns; what the accumulator builds does
                // not depend on them.
                _ => continue,
            };
            self.find(at, kind);
        }
        let result = self.apply(event, at);
        if let Err(e) = result {
            self.limit_error = Some(e);
        }
        result
    }

    fn find(&mut self, at: At, kind: AnomalyKind) {
        if self.anomalies.len() < self.config.max_anomalies {
            self.anomalies.push(Anomaly {
                kind,
                event_index: at.event_index,
                sequence_number: at.sequence_number,
            });
        } else {
            self.anomalies_dropped += 1;
        }
    }

    fn error(&self, at: At, kind: AccumulateErrorKind) -> AccumulateError {
        AccumulateError::new(kind, at.event_index, at.sequence_number)
    }

    /// Counts `n` more bytes kept, failing past the limit.
    fn grow(&mut self, at: At, n: usize) -> Result<(), AccumulateError> {
        let total = self.bytes.saturating_add(n);
        if total > self.config.max_bytes {
            let limit = self.config.max_bytes;
            return Err(self.error(at, AccumulateErrorKind::TooManyBytes { limit }));
        }
        self.bytes = total;
        Ok(())
    }

    fn parts_error(&self, at: At) -> AccumulateError {
        let limit = self.config.max_parts;
        self.error(at, AccumulateErrorKind::TooManyParts { limit })
    }

    /// The index in `items` of the item at `output_index`, creating it (with
    /// an anomaly) if no event has introduced it.
    fn item_at(
        &mut self,
        at: At,
        output_index: u64,
        item_id: Option<JsonStr<'_>>,
        implied_ty: &'static str,
        introduces: bool,
    ) -> Result<usize, AccumulateError> {
        let found = match self.items.get(self.last_item) {
            Some(it) if it.output_index == output_index => Some(self.last_item),
            _ => self.by_index.get(&output_index).copied(),
        };
        let idx = match found {
            Some(idx) => idx,
            None => {
                if self.items.len() >= self.config.max_items {
                    let limit = self.config.max_items;
                    return Err(self.error(at, AccumulateErrorKind::TooManyItems { limit }));
                }
                if !introduces && self.unintroduced {
                    self.unintroduced = false;
                    self.find(at, AnomalyKind::EventBeforeItem { output_index });
                }
                let mut it = ItemState {
                    output_index,
                    ..ItemState::default()
                };
                if !implied_ty.is_empty() {
                    it.ty = Some(implied_ty.into());
                }
                if self.config.partial_arguments
                    && matches!(
                        implied_ty,
                        "function_call" | "custom_tool_call" | "mcp_call"
                    )
                {
                    it.partial = Some(PartialJson::new());
                }
                let idx = self.items.len();
                self.items.push(it);
                self.by_index.insert(output_index, idx);
                idx
            }
        };
        self.last_item = idx;
        let checked = self.checked_item.map(|x| (x, idx));
        if let (Some(id), false) = (item_id, checked.is_some() && checked == self.same_id) {
            let item = &mut self.items[idx];
            match &item.id {
                Some(known) if id != known.as_str() => {
                    self.find(at, AnomalyKind::ItemIdMismatch { output_index });
                }
                // The order checker found the item by this id: later events
                // it finds by the same id have it too (until `set_item`).
                Some(_) => self.same_id = checked,
                None => {
                    let id = id.unescape().into_owned();
                    item.id = Some(id.clone());
                    self.claim_id(at, idx, id);
                }
            }
        }
        Ok(idx)
    }

    /// Records that the item at `idx` goes by `id`; an anomaly when another
    /// item already does (both stay in the output, as sent).
    fn claim_id(&mut self, at: At, idx: usize, id: String) {
        let first = *self.by_id.entry(id).or_insert(idx);
        if first != idx {
            let output_index = self.items[idx].output_index;
            let other = self.items[first].output_index;
            self.find(
                at,
                AnomalyKind::DuplicateItemId {
                    output_index,
                    other,
                },
            );
        }
    }

    /// Appends a delta to an item's `input`.
    fn push_input(
        &mut self,
        at: At,
        output_index: u64,
        item_id: Option<JsonStr<'_>>,
        ty: &'static str,
        delta: &JsonStr<'_>,
    ) -> Result<(), AccumulateError> {
        self.grow(at, delta.len_hint())?;
        let idx = self.item_at(at, output_index, item_id, ty, false)?;
        let item = &mut self.items[idx];
        let before = item.input.buf.len();
        if !item.input.push(delta) {
            // A delta after the text's done event (`Fault::TextAfterDone`).
            return Ok(());
        }
        if let Some(p) = item.partial.as_mut() {
            if item.partial_error.is_none() {
                item.partial_error = p.feed(&item.input.buf[before..]).err();
            }
        }
        Ok(())
    }

    /// Sets an item's `input` from a `*.done` event.
    fn finish_input(
        &mut self,
        at: At,
        output_index: u64,
        item_id: Option<JsonStr<'_>>,
        ty: &'static str,
        field: &'static str,
        text: &JsonStr<'_>,
    ) -> Result<(), AccumulateError> {
        let idx = self.item_at(at, output_index, item_id, ty, false)?;
        let item = &mut self.items[idx];
        let seen = item.input.buf.len();
        let agrees = item.input.finish(text);
        if !agrees || seen == 0 {
            item.repair_input();
        }
        let len = item.input.buf.len();
        if !agrees {
            self.find(
                at,
                AnomalyKind::DoneMismatch {
                    output_index,
                    field,
                },
            );
        }
        self.grow(at, len.saturating_sub(seen))
    }

    /// The part at `index` of an item's content, summary or commands.
    fn part_at(
        &mut self,
        at: At,
        idx: usize,
        list: List,
        index: u64,
    ) -> Result<&mut Part, AccumulateError> {
        let max = self.config.max_parts;
        let err = self.parts_error(at);
        let item = &mut self.items[idx];
        let parts = match list {
            List::Content => &mut item.content,
            List::Summary => &mut item.summary,
            List::Commands => &mut item.commands,
        };
        part_mut(parts, index, max).ok_or(err)
    }

    /// Appends a delta to a part's text.
    fn push_part(
        &mut self,
        at: At,
        key: PartKey<'_>,
        part_ty: &'static str,
        delta: &JsonStr<'_>,
    ) -> Result<(), AccumulateError> {
        self.push_text(at, key, part_ty, delta, None)
    }

    /// Appends a delta to a part's text and, when the delta has them, the
    /// elements of its `logprobs` array to the part's (one lookup for both).
    fn push_text(
        &mut self,
        at: At,
        key: PartKey<'_>,
        part_ty: &'static str,
        delta: &JsonStr<'_>,
        logprobs: Option<RawJson<'_>>,
    ) -> Result<(), AccumulateError> {
        let elements = logprobs.map(|raw| {
            raw.get()
                .trim()
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .unwrap_or("")
                .trim()
        });
        let extra = elements.map_or(0, |e| e.len() + 1);
        self.grow(at, delta.len_hint() + extra)?;
        let idx = self.item_at(at, key.output_index, key.item_id, key.item_ty, false)?;
        let part = self.part_at(at, idx, key.list, key.index)?;
        part.ty.get_or_insert(part_ty);
        if !part.text.push(delta) {
            // A delta after the text's done event (`Fault::TextAfterDone`).
            return Ok(());
        }
        if let Some(elements) = elements {
            part.has_logprobs = true;
            if !elements.is_empty() {
                if !part.logprobs.is_empty() {
                    part.logprobs.push(',');
                }
                part.logprobs.push_str(elements);
            }
        }
        Ok(())
    }

    /// Sets a part's text from a `*.done` event.
    fn finish_part(
        &mut self,
        at: At,
        key: PartKey<'_>,
        part_ty: &'static str,
        field: &'static str,
        text: &JsonStr<'_>,
    ) -> Result<(), AccumulateError> {
        let idx = self.item_at(at, key.output_index, key.item_id, key.item_ty, false)?;
        let part = self.part_at(at, idx, key.list, key.index)?;
        part.ty.get_or_insert(part_ty);
        let seen = part.text.buf.len();
        let agrees = part.text.finish(text);
        let len = part.text.buf.len();
        if !agrees {
            let output_index = key.output_index;
            self.find(
                at,
                AnomalyKind::DoneMismatch {
                    output_index,
                    field,
                },
            );
        }
        self.grow(at, len.saturating_sub(seen))
    }

    /// Records a part object from `*_part.added` / `.done`.
    fn set_part(
        &mut self,
        at: At,
        key: PartKey<'_>,
        part: &ContentPart<'_>,
        done: bool,
    ) -> Result<(), AccumulateError> {
        let raw = part.raw();
        self.grow(at, raw.get().len())?;
        let idx = self.item_at(at, key.output_index, key.item_id, key.item_ty, false)?;
        let p = self.part_at(at, idx, key.list, key.index)?;
        let ty: Option<&'static str> = match part {
            ContentPart::OutputText(_) => Some("output_text"),
            ContentPart::Refusal(_) => Some("refusal"),
            ContentPart::ReasoningText(_) => Some("reasoning_text"),
            ContentPart::SummaryText(_) => Some("summary_text"),
            _ => None,
        };
        if let Some(ty) = ty {
            p.ty = Some(ty);
        }
        let text = match part {
            ContentPart::OutputText(t) => t.text,
            ContentPart::Refusal(r) => r.refusal,
            ContentPart::ReasoningText(t) => t.text,
            ContentPart::SummaryText(t) => t.text,
            _ => None,
        };
        let mut mismatch = false;
        if let (true, Some(text)) = (done, text) {
            if !p.text.seen {
                p.text.finish(&text);
            } else {
                mismatch = text != p.text.buf.as_str();
            }
        }
        p.base = Some(JsonValue::from_view(&raw.value()));
        if mismatch {
            let (output_index, field) = (key.output_index, key.list.field(p.ty));
            self.find(
                at,
                AnomalyKind::DoneMismatch {
                    output_index,
                    field,
                },
            );
        }
        Ok(())
    }

    /// Records an item object from `output_item.added` / `.done`.
    fn set_item(
        &mut self,
        at: At,
        output_index: u64,
        item: &OutputItem<'_>,
        done: bool,
    ) -> Result<(), AccumulateError> {
        let raw = item.raw();
        let value = JsonValue::from_view(&raw.value());
        let ty = item.ty();
        let implied = known_type(ty);
        let idx = self.item_at(at, output_index, None, implied, true)?;
        self.same_id = None; // the item object may rename it
        let old_len = self.items[idx].base_len;
        let len = raw.get().len();
        // The item object is kept (replacing the one before) unless an
        // `added` comes after the item's `done`; only then does the count
        // change, so that it always matches the `base_len`s it sums.
        let replaces = done || !self.items[idx].done;
        if replaces {
            if len > old_len {
                self.grow(at, len - old_len)?;
            } else {
                self.bytes -= old_len - len;
            }
        }
        let partial_arguments = self.config.partial_arguments;
        let it = &mut self.items[idx];
        let id = value.get("id").and_then(JsonValue::as_str);
        let id_mismatch = matches!((&it.id, id), (Some(a), Some(b)) if a != b);
        let new_id = id
            .filter(|id| it.id.as_deref() != Some(*id))
            .map(String::from);
        if let Some(id) = id {
            it.id = Some(id.into());
        }
        // An item object of another type than the item's events or earlier
        // object said: what was built for the old type may not fit the new.
        let retyped = it.ty.as_deref().is_some_and(|old| old != ty);
        if it.ty.as_deref() != Some(ty) {
            it.ty = Some(
                value
                    .get("type")
                    .and_then(JsonValue::as_str)
                    .unwrap_or(ty)
                    .into(),
            );
        }
        if partial_arguments
            && it.partial.is_none()
            && matches!(ty, "function_call" | "custom_tool_call" | "mcp_call")
        {
            it.partial = Some(PartialJson::new());
            it.repair_input();
        }
        if let Some(status) = value.get("status").and_then(JsonValue::as_str) {
            if done || !it.done {
                it.status = Some(status.into());
            }
        }
        let mut mismatches: Vec<&'static str> = Vec::new();
        if done {
            it.done = true;
            item_mismatches(it, &value, &mut mismatches);
        } else {
            it.added = true;
        }
        if replaces {
            it.base = Some(value);
            it.base_len = len;
        }
        if id_mismatch {
            self.find(at, AnomalyKind::ItemIdMismatch { output_index });
        }
        if retyped {
            self.find(at, AnomalyKind::ItemTypeChanged { output_index });
        }
        if let Some(id) = new_id {
            self.claim_id(at, idx, id);
        }
        for field in mismatches {
            self.find(
                at,
                AnomalyKind::ItemMismatch {
                    output_index,
                    field,
                },
            );
        }
        Ok(())
    }

    /// Sets the status of an item from a progress event.
    fn progress(
        &mut self,
        at: At,
        output_index: u64,
        item_id: JsonStr<'_>,
        ty: &'static str,
        status: &'static str,
    ) -> Result<(), AccumulateError> {
        let idx = self.item_at(at, output_index, Some(item_id), ty, false)?;
        let it = &mut self.items[idx];
        if !it.done {
            it.status = Some(status.into());
        }
        Ok(())
    }

    /// Records the response object of a lifecycle event.
    fn set_response(
        &mut self,
        at: At,
        raw: RawJson<'_>,
        terminal: Option<Terminal>,
    ) -> Result<(), AccumulateError> {
        // The members but `output`, whose place is kept.
        let mut members = Vec::new();
        let mut output = None;
        if let Some(obj) = raw.value().as_object() {
            for (key, value) in obj.members() {
                if key == "output" {
                    output = Some(value);
                    members.push(("output".into(), JsonValue::Array(Vec::new())));
                } else {
                    members.push((key.unescape().into_owned(), JsonValue::from_view(&value)));
                }
            }
        }
        let output_len = output.map_or(0, |o| o.as_raw_json().get().len());
        let len = raw.get().len() - output_len;
        if len > self.response_len {
            self.grow(at, len - self.response_len)?;
        } else {
            self.bytes -= self.response_len - len;
        }
        self.response_len = len;
        if let Some(t) = terminal {
            self.terminal = Some(t);
            if let Some(list) = output.and_then(|o| o.as_array()) {
                self.terminal_ids.clear();
                self.terminal_items.clear();
                for (i, item) in list.iter().enumerate() {
                    if i >= self.config.max_items {
                        let limit = self.config.max_items;
                        return Err(self.error(at, AccumulateErrorKind::TooManyItems { limit }));
                    }
                    let id = item
                        .get("id")
                        .and_then(|v| v.as_json_str())
                        .map(|id| id.unescape().into_owned());
                    let finished = id.as_ref().is_some_and(|id| {
                        self.by_id.get(id).is_some_and(|&at| self.items[at].done)
                    });
                    self.terminal_ids.push(id);
                    if !finished {
                        self.grow(at, item.as_raw_json().get().len())?;
                        self.terminal_items.push((i, JsonValue::from_view(&item)));
                    }
                }
            }
        }
        let value = JsonValue::Object(members);
        if let Some(s) = value.get("status").and_then(JsonValue::as_str) {
            self.status = Some(s.into());
        } else if let Some(t) = terminal {
            let s = match t {
                Terminal::Completed => "completed",
                Terminal::Incomplete => "incomplete",
                Terminal::Failed => "failed",
            };
            self.status = Some(s.into());
        }
        self.response = Some(value);
        Ok(())
    }

    fn apply(&mut self, event: &ResponsesEvent<'_>, at: At) -> Result<(), AccumulateError> {
        use ResponsesEvent as E;
        match event {
            E::ResponseCreated(e) => self.set_response(at, e.response.raw(), None),
            E::ResponseInProgress(e) => self.set_response(at, e.response.raw(), None),
            E::ResponseQueued(e) => self.set_response(at, e.response.raw(), None),
            E::ResponseCompleted(e) => {
                self.set_response(at, e.response.raw(), Some(Terminal::Completed))
            }
            E::ResponseIncomplete(e) => {
                self.set_response(at, e.response.raw(), Some(Terminal::Incomplete))
            }
            E::ResponseFailed(e) => self.set_response(at, e.response.raw(), Some(Terminal::Failed)),
            E::ErrorEvent(e) => {
                self.find(at, AnomalyKind::ErrorEvent);
                let mut err = JsonValue::object();
                for (key, value) in [
                    ("type", e.error_type()),
                    ("code", e.code()),
                    ("message", e.message()),
                    ("param", e.param()),
                ] {
                    if let Some(v) = value {
                        err.set(key, v.unescape().into_owned().into());
                    }
                }
                let len = e.raw().get().len();
                self.grow(at, len)?;
                self.error_event = Some(err);
                Ok(())
            }
            E::OutputItemAdded(e) => self.set_item(
                at,
                e.output_index,
                &e.item.get().unwrap_or_else(|_| Field::fallback()),
                false,
            ),
            E::OutputItemDone(e) => self.set_item(
                at,
                e.output_index,
                &e.item.get().unwrap_or_else(|_| Field::fallback()),
                true,
            ),

            // Message content.
            E::ContentPartAdded(e) => {
                let key = PartKey::content(e.output_index, e.item_id, "message", e.content_index);
                self.set_part(
                    at,
                    key,
                    &e.part.get().unwrap_or_else(|_| Field::fallback()),
                    false,
                )
            }
            E::ContentPartDone(e) => {
                let key = PartKey::content(e.output_index, e.item_id, "message", e.content_index);
                self.set_part(
                    at,
                    key,
                    &e.part.get().unwrap_or_else(|_| Field::fallback()),
                    true,
                )
            }
            E::OutputTextDelta(e) => {
                let key = PartKey::content(e.output_index, e.item_id, "message", e.content_index);
                let logprobs = e.logprobs.as_ref().map(|l| l.as_raw_json());
                self.push_text(at, key, "output_text", &e.delta, logprobs)
            }
            E::OutputTextDone(e) => {
                let key = PartKey::content(e.output_index, e.item_id, "message", e.content_index);
                self.finish_part(at, key, "output_text", "text", &e.text)?;
                if let Some(lp) = &e.logprobs {
                    let raw = lp.as_raw_json();
                    self.grow(at, raw.get().len())?;
                    let idx = self.item_at(at, key.output_index, None, "", false)?;
                    let p = self.part_at(at, idx, key.list, key.index)?;
                    p.done_logprobs = Some(JsonValue::from_view(&raw.value()));
                }
                Ok(())
            }
            E::RefusalDelta(e) => {
                let key = PartKey::content(e.output_index, e.item_id, "message", e.content_index);
                self.push_part(at, key, "refusal", &e.delta)
            }
            E::RefusalDone(e) => {
                let key = PartKey::content(e.output_index, e.item_id, "message", e.content_index);
                self.finish_part(at, key, "refusal", "refusal", &e.refusal)
            }
            E::OutputTextAnnotationAdded(e) => self.annotation(
                at,
                e.output_index,
                e.item_id,
                e.content_index,
                e.annotation_index,
                e.raw(),
            ),
            E::LegacyOutputTextAnnotationAdded(e) => self.annotation(
                at,
                e.output_index,
                e.item_id,
                e.content_index,
                e.annotation_index,
                e.raw(),
            ),

            // Reasoning.
            E::ReasoningSummaryPartAdded(e) => {
                let key = PartKey::summary(e.output_index, e.item_id, e.summary_index);
                self.set_part(
                    at,
                    key,
                    &e.part.get().unwrap_or_else(|_| Field::fallback()),
                    false,
                )
            }
            E::ReasoningSummaryPartDone(e) => {
                let key = PartKey::summary(e.output_index, e.item_id, e.summary_index);
                self.set_part(
                    at,
                    key,
                    &e.part.get().unwrap_or_else(|_| Field::fallback()),
                    true,
                )
            }
            E::ReasoningSummaryTextDelta(e) => {
                let key = PartKey::summary(e.output_index, e.item_id, e.summary_index);
                self.push_part(at, key, "summary_text", &e.delta)
            }
            E::ReasoningSummaryTextDone(e) => {
                let key = PartKey::summary(e.output_index, e.item_id, e.summary_index);
                self.finish_part(at, key, "summary_text", "summary", &e.text)
            }
            E::LegacyReasoningSummaryDelta(e) => match e.delta.value().as_json_str() {
                Some(delta) => {
                    let key = PartKey::summary(e.output_index, e.item_id, e.summary_index);
                    self.push_part(at, key, "summary_text", &delta)
                }
                None => Ok(()),
            },
            E::LegacyReasoningSummaryDone(e) => {
                let key = PartKey::summary(e.output_index, e.item_id, e.summary_index);
                self.finish_part(at, key, "summary_text", "summary", &e.text)
            }
            E::ReasoningTextDelta(e) => {
                let key = PartKey::reasoning(e.output_index, e.item_id, e.content_index);
                self.push_part(at, key, "reasoning_text", &e.delta)
            }
            E::ReasoningTextDone(e) => {
                let key = PartKey::reasoning(e.output_index, e.item_id, e.content_index);
                self.finish_part(at, key, "reasoning_text", "text", &e.text)
            }
            E::LegacyReasoningDelta(e) => match e.delta.value().as_json_str() {
                Some(delta) => {
                    let key = PartKey::reasoning(e.output_index, e.item_id, e.content_index);
                    self.push_part(at, key, "reasoning_text", &delta)
                }
                None => Ok(()),
            },
            E::LegacyReasoningDone(e) => {
                let key = PartKey::reasoning(e.output_index, e.item_id, e.content_index);
                self.finish_part(at, key, "reasoning_text", "text", &e.text)
            }

            // Calls.
            E::FunctionCallArgumentsDelta(e) => {
                let id = Some(e.item_id);
                self.push_input(at, e.output_index, id, "function_call", &e.delta)
            }
            E::FunctionCallArgumentsDone(e) => {
                let id = Some(e.item_id);
                let ty = "function_call";
                self.finish_input(at, e.output_index, id, ty, "arguments", &e.arguments)?;
                if let Some(name) = e.name {
                    let idx = self.item_at(at, e.output_index, None, ty, false)?;
                    self.items[idx].name = Some(name.unescape().into_owned());
                }
                Ok(())
            }
            E::CustomToolCallInputDelta(e) => {
                let id = Some(e.item_id);
                self.push_input(at, e.output_index, id, "custom_tool_call", &e.delta)
            }
            E::CustomToolCallInputDone(e) => {
                let (id, ty) = (Some(e.item_id), "custom_tool_call");
                self.finish_input(at, e.output_index, id, ty, "input", &e.input)
            }
            E::McpCallArgumentsDelta(e) => {
                let id = Some(e.item_id);
                self.push_input(at, e.output_index, id, "mcp_call", &e.delta)
            }
            E::McpCallArgumentsDone(e) => {
                let (id, ty) = (Some(e.item_id), "mcp_call");
                self.finish_input(at, e.output_index, id, ty, "arguments", &e.arguments)
            }
            E::LegacyMcpCallArgumentsDelta(e) => match e.delta.value().as_json_str() {
                Some(delta) => {
                    let id = Some(e.item_id);
                    self.push_input(at, e.output_index, id, "mcp_call", &delta)
                }
                None => Ok(()),
            },
            E::LegacyMcpCallArgumentsDone(e) => match e.arguments.value().as_json_str() {
                Some(args) => {
                    let (id, ty) = (Some(e.item_id), "mcp_call");
                    self.finish_input(at, e.output_index, id, ty, "arguments", &args)
                }
                None => Ok(()),
            },
            E::CodeInterpreterCallCodeDelta(e) => {
                let id = Some(e.item_id);
                self.push_input(at, e.output_index, id, "code_interpreter_call", &e.delta)
            }
            E::CodeInterpreterCallCodeDone(e) => {
                let (id, ty) = (Some(e.item_id), "code_interpreter_call");
                self.finish_input(at, e.output_index, id, ty, "code", &e.code)
            }
            E::LegacyCodeInterpreterCallCodeDelta(e) => {
                self.push_input(at, e.output_index, None, "code_interpreter_call", &e.delta)
            }
            E::LegacyCodeInterpreterCallCodeDone(e) => {
                let ty = "code_interpreter_call";
                self.finish_input(at, e.output_index, None, ty, "code", &e.code)
            }
            E::ApplyPatchCallOperationDiffDelta(e) => {
                let id = Some(e.item_id);
                self.push_input(at, e.output_index, id, "apply_patch_call", &e.delta)
            }
            E::ApplyPatchCallOperationDiffDone(e) => {
                let (id, ty) = (Some(e.item_id), "apply_patch_call");
                self.finish_input(at, e.output_index, id, ty, "diff", &e.diff)
            }
            E::ShellCallCommandAdded(e) => {
                let key = PartKey::command(e.output_index, e.command_index);
                self.grow(at, e.command.len_hint())?;
                let idx = self.item_at(at, key.output_index, None, key.item_ty, false)?;
                let p = self.part_at(at, idx, key.list, key.index)?;
                if !p.text.seen {
                    p.text.buf.clear();
                    e.command.unescape_into(&mut p.text.buf);
                    p.text.seen = !p.text.buf.is_empty();
                }
                Ok(())
            }
            E::ShellCallCommandDelta(e) => {
                let key = PartKey::command(e.output_index, e.command_index);
                self.push_part(at, key, "command", &e.delta)
            }
            E::ShellCallCommandDone(e) => {
                let key = PartKey::command(e.output_index, e.command_index);
                self.finish_part(at, key, "command", "command", &e.command)
            }

            // Progress of built-in tools.
            E::WebSearchCallInProgress(e) => self.progress(
                at,
                e.output_index,
                e.item_id,
                "web_search_call",
                "in_progress",
            ),
            E::WebSearchCallSearching(e) => self.progress(
                at,
                e.output_index,
                e.item_id,
                "web_search_call",
                "searching",
            ),
            E::WebSearchCallCompleted(e) => self.progress(
                at,
                e.output_index,
                e.item_id,
                "web_search_call",
                "completed",
            ),
            E::FileSearchCallInProgress(e) => self.progress(
                at,
                e.output_index,
                e.item_id,
                "file_search_call",
                "in_progress",
            ),
            E::FileSearchCallSearching(e) => self.progress(
                at,
                e.output_index,
                e.item_id,
                "file_search_call",
                "searching",
            ),
            E::FileSearchCallCompleted(e) => self.progress(
                at,
                e.output_index,
                e.item_id,
                "file_search_call",
                "completed",
            ),
            E::CodeInterpreterCallInProgress(e) => {
                let ty = "code_interpreter_call";
                self.progress(at, e.output_index, e.item_id, ty, "in_progress")
            }
            E::CodeInterpreterCallInterpreting(e) => {
                let ty = "code_interpreter_call";
                self.progress(at, e.output_index, e.item_id, ty, "interpreting")
            }
            E::CodeInterpreterCallCompleted(e) => {
                let ty = "code_interpreter_call";
                self.progress(at, e.output_index, e.item_id, ty, "completed")
            }
            E::ImageGenerationCallInProgress(e) => {
                let ty = "image_generation_call";
                self.progress(at, e.output_index, e.item_id, ty, "in_progress")
            }
            E::ImageGenerationCallGenerating(e) => {
                let ty = "image_generation_call";
                self.progress(at, e.output_index, e.item_id, ty, "generating")
            }
            E::ImageGenerationCallCompleted(e) => {
                let ty = "image_generation_call";
                self.progress(at, e.output_index, e.item_id, ty, "completed")
            }
            E::ImageGenerationCallPartialImage(e) => {
                self.grow(at, e.partial_image_b64.len_hint())?;
                let ty = "image_generation_call";
                let idx = self.item_at(at, e.output_index, Some(e.item_id), ty, false)?;
                let max = self.config.max_parts;
                let err = self.parts_error(at);
                let images = &mut self.items[idx].partial_images;
                let image = e.partial_image_b64.unescape().into_owned();
                if set_capped(images, e.partial_image_index, image, max) {
                    Ok(())
                } else {
                    Err(err)
                }
            }
            E::McpCallInProgress(e) => {
                self.progress(at, e.output_index, e.item_id, "mcp_call", "in_progress")
            }
            E::McpCallCompleted(e) => {
                self.progress(at, e.output_index, e.item_id, "mcp_call", "completed")
            }
            E::McpCallFailed(e) => {
                self.progress(at, e.output_index, e.item_id, "mcp_call", "failed")
            }
            E::McpListToolsInProgress(e) => self.progress(
                at,
                e.output_index,
                e.item_id,
                "mcp_list_tools",
                "in_progress",
            ),
            E::McpListToolsCompleted(e) => {
                self.progress(at, e.output_index, e.item_id, "mcp_list_tools", "completed")
            }
            E::McpListToolsFailed(e) => {
                self.progress(at, e.output_index, e.item_id, "mcp_list_tools", "failed")
            }
            E::CompactionCompacting(e) => self
                .item_at(at, e.output_index, Some(e.item_id), "compaction", false)
                .map(drop),
            // Not about the response's output, or not modeled (see the
            // module docs).
            _ => Ok(()),
        }
    }

    /// Records an annotation by its index.
    fn annotation(
        &mut self,
        at: At,
        output_index: u64,
        item_id: JsonStr<'_>,
        content_index: u64,
        annotation_index: u64,
        event: RawJson<'_>,
    ) -> Result<(), AccumulateError> {
        let Some(annotation) = event.value().get("annotation") else {
            return Ok(());
        };
        let raw = annotation.as_raw_json();
        self.grow(at, raw.get().len())?;
        let key = PartKey::content(output_index, item_id, "message", content_index);
        let idx = self.item_at(at, output_index, key.item_id, "message", false)?;
        let max = self.config.max_parts;
        let err = self.parts_error(at);
        let p = self.part_at(at, idx, key.list, key.index)?;
        p.ty.get_or_insert("output_text");
        let value = JsonValue::from_view(&annotation);
        if set_capped(&mut p.annotations, annotation_index, value, max) {
            Ok(())
        } else {
            Err(err)
        }
    }

    // ---- Snapshot accessors

    /// The output item at `output_index`, as far as it has streamed.
    pub fn item(&self, output_index: u64) -> Option<ItemSnapshot<'_>> {
        let &i = self.by_index.get(&output_index)?;
        Some(ItemSnapshot(&self.items[i]))
    }

    /// The output item with the `id`.
    pub fn item_by_id(&self, id: &str) -> Option<ItemSnapshot<'_>> {
        let current = |&i: &usize| self.items[i].id.as_deref() == Some(id);
        match self.by_id.get(id).filter(|i| current(i)) {
            Some(&i) => Some(ItemSnapshot(&self.items[i])),
            // The item that had the id first goes by another now.
            None => self
                .items
                .iter()
                .find(|it| it.id.as_deref() == Some(id))
                .map(ItemSnapshot),
        }
    }

    /// The output items so far, in `output_index` order.
    pub fn items(&self) -> impl ExactSizeIterator<Item = ItemSnapshot<'_>> + '_ {
        self.by_index
            .values()
            .map(|&i| ItemSnapshot(&self.items[i]))
    }

    /// The response `id`, once a lifecycle event has carried it.
    pub fn response_id(&self) -> Option<&str> {
        self.response.as_ref()?.get("id")?.as_str()
    }

    /// The response's latest `status` (`queued`, `in_progress`, `completed`, …).
    pub fn status(&self) -> Option<&str> {
        self.status.as_deref()
    }

    /// Whether a terminal event (`response.completed`, `.incomplete`,
    /// `.failed`) has arrived.
    pub fn is_terminated(&self) -> bool {
        self.terminal.is_some()
    }

    /// The anomalies so far.
    pub fn anomalies(&self) -> &[Anomaly] {
        &self.anomalies
    }

    /// The sequence numbers seen so far.
    pub fn sequence(&self) -> SequenceInfo {
        self.order.sequence_info()
    }

    /// The events fed so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The bytes kept, as counted against [`ResponsesAccumulatorConfig::max_bytes`].
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The text of every `output_text` part of every message so far,
    /// concatenated (what the SDKs call `output_text`).
    pub fn output_text(&self) -> String {
        let mut out = String::new();
        for it in self.by_index.values().map(|&i| &self.items[i]) {
            if it.ty.as_deref() == Some("message") {
                for p in it.content.values() {
                    if p.ty.unwrap_or("output_text") == "output_text" {
                        out.push_str(&p.text.buf);
                    }
                }
            }
        }
        out
    }

    /// Ends the stream: the final response.
    ///
    /// Items of the terminal response's `output` that were never streamed
    /// are taken from there (with a [`AnomalyKind::ItemNotStreamed`]); an
    /// `error` event with no terminal event makes the response `failed`
    /// with that error; no terminal event makes it
    /// [`Truncated`](Outcome::Truncated).
    pub fn finish(mut self) -> FinalResponse {
        let at = At {
            event_index: self.events,
            sequence_number: None,
        };
        let ids = core::mem::take(&mut self.terminal_ids);
        let listed: BTreeSet<&str> = ids.iter().flatten().map(String::as_str).collect();
        let unnamed_listed = ids.iter().any(Option::is_none);
        let terminal_items = core::mem::take(&mut self.terminal_items);
        for (i, value) in terminal_items {
            // Matched by id (a recording may leave out an item, so positions
            // in `output` need not be output indexes), else by position.
            let position = i as u64;
            let id = value.get("id").and_then(JsonValue::as_str);
            let streamed = match id {
                Some(id) => self.by_id.get(id),
                None => self.by_index.get(&position),
            };
            if let Some(&idx) = streamed {
                // Streamed, but never done: the terminal object is the
                // latest word on the members not built from events.
                let it = &mut self.items[idx];
                if !it.done {
                    if let Some(s) = value.get("status").and_then(JsonValue::as_str) {
                        it.status = Some(s.into());
                    }
                    it.base = Some(value);
                }
                continue;
            }
            let taken = self.by_index.get(&position).copied();
            if let (Some(_), Some(idx)) = (id, taken) {
                // The item at this position goes by another id here: the
                // same item renamed, unless its own id is elsewhere.
                let own_listed = match self.items[idx].id.as_deref() {
                    Some(own) => listed.contains(own),
                    None => unnamed_listed,
                };
                if !own_listed {
                    let output_index = self.items[idx].output_index;
                    self.find(at, AnomalyKind::ItemIdMismatch { output_index });
                    continue;
                }
            }
            // Its position is taken: after the last item. (Saturating: an
            // item may sit at u64::MAX; the output is ordered by a stable
            // sort, so two items at the same index both stay, in order.)
            let output_index = match taken {
                Some(_) => self
                    .by_index
                    .last_key_value()
                    .map_or(0, |(&last, _)| last.saturating_add(1)),
                None => position,
            };
            self.find(at, AnomalyKind::ItemNotStreamed { output_index });
            let it = ItemState {
                output_index,
                id: id.map(Into::into),
                ty: value
                    .get("type")
                    .and_then(JsonValue::as_str)
                    .map(Into::into),
                status: value
                    .get("status")
                    .and_then(JsonValue::as_str)
                    .map(Into::into),
                base: Some(value),
                ..ItemState::default()
            };
            let idx = self.items.len();
            if let Some(id) = &it.id {
                self.by_id.entry(id.clone()).or_insert(idx);
            }
            self.by_index.entry(output_index).or_insert(idx);
            self.items.push(it);
        }
        let outcome = match (self.terminal, &self.error_event) {
            (Some(Terminal::Completed), _) => Outcome::Completed,
            (Some(Terminal::Incomplete), _) => Outcome::Incomplete,
            (Some(Terminal::Failed), _) | (None, Some(_)) => Outcome::Failed,
            (None, None) => Outcome::Truncated,
        };
        let mut json = match self.response.take() {
            Some(r @ JsonValue::Object(_)) => r,
            _ => {
                let mut r = JsonValue::object();
                r.set("object", "response".into());
                r
            }
        };
        if let (None, Some(err)) = (self.terminal, self.error_event.clone()) {
            json.set("status", "failed".into());
            json.set("error", err);
        } else if !json.has("status") {
            if let Some(s) = &self.status {
                json.set("status", s.as_str().into());
            }
        }
        let mut items = core::mem::take(&mut self.items);
        items.sort_by_key(|it| it.output_index); // stable: O(n log n)
        let output = items.into_iter().map(ItemState::into_json).collect();
        json.set("output", JsonValue::Array(output));
        FinalResponse {
            json,
            outcome,
            error_event: self.error_event,
            anomalies: self.anomalies,
            anomalies_dropped: self.anomalies_dropped,
            sequence: self.order.sequence_info(),
            events: self.events,
            limit_error: self.limit_error,
        }
    }
}

/// Which list of an item a part is in.
#[derive(Clone, Copy)]
enum List {
    Content,
    Summary,
    Commands,
}

impl List {
    /// The name of a part's text field, for anomalies.
    fn field(self, ty: Option<&'static str>) -> &'static str {
        match (self, ty) {
            (Self::Summary, _) => "summary",
            (Self::Commands, _) => "command",
            (Self::Content, Some("refusal")) => "refusal",
            (Self::Content, _) => "text",
        }
    }
}

/// Where a part is.
#[derive(Clone, Copy)]
struct PartKey<'e> {
    output_index: u64,
    item_id: Option<JsonStr<'e>>,
    item_ty: &'static str,
    list: List,
    index: u64,
}

impl<'e> PartKey<'e> {
    fn content(output_index: u64, item_id: JsonStr<'e>, ty: &'static str, index: u64) -> Self {
        Self {
            output_index,
            item_id: Some(item_id),
            item_ty: ty,
            list: List::Content,
            index,
        }
    }

    fn reasoning(output_index: u64, item_id: JsonStr<'e>, index: u64) -> Self {
        Self::content(output_index, item_id, "reasoning", index)
    }

    fn summary(output_index: u64, item_id: JsonStr<'e>, index: u64) -> Self {
        Self {
            list: List::Summary,
            ..Self::content(output_index, item_id, "reasoning", index)
        }
    }

    fn command(output_index: u64, index: u64) -> Self {
        Self {
            output_index,
            item_id: None,
            item_ty: "shell_call",
            list: List::Commands,
            index,
        }
    }
}

/// The `&'static` form of a known item type (for implied types), or `""`.
fn known_type(ty: &str) -> &'static str {
    const KNOWN: &[&str] = &[
        "message",
        "reasoning",
        "function_call",
        "custom_tool_call",
        "mcp_call",
        "code_interpreter_call",
        "apply_patch_call",
        "shell_call",
    ];
    KNOWN.iter().find(|k| **k == ty).copied().unwrap_or("")
}

/// The members of `output_item.done`'s item that disagree with the texts
/// built from events.
fn item_mismatches(it: &ItemState, item: &JsonValue, out: &mut Vec<&'static str>) {
    let ty = it.ty.as_deref().unwrap_or("");
    if let (Some(key), true) = (input_key(ty), it.input.seen) {
        let sent = if key == "diff" {
            item.get("operation").and_then(|o| o.get("diff"))
        } else {
            item.get(key)
        };
        if sent
            .and_then(JsonValue::as_str)
            .is_some_and(|s| s != it.input.buf)
        {
            out.push(key);
        }
    }
    let none = Parts::new();
    let lists: [(&'static str, &Parts, &'static str); 2] = match ty {
        "message" => [("content", &it.content, ""), ("", &none, "")],
        "reasoning" => [
            ("summary", &it.summary, "text"),
            ("content", &it.content, "text"),
        ],
        _ => return,
    };
    for (key, parts, text_key) in lists {
        let Some(sent) = item.get(key).and_then(JsonValue::as_array) else {
            continue;
        };
        for p in parts.values().filter(|p| p.text.seen) {
            let Some(elem) = usize::try_from(p.index).ok().and_then(|i| sent.get(i)) else {
                continue;
            };
            let text_key = match (text_key, p.ty) {
                ("", Some("refusal")) => "refusal",
                ("", _) => "text",
                (k, _) => k,
            };
            if elem
                .get(text_key)
                .and_then(JsonValue::as_str)
                .is_some_and(|s| s != p.text.buf)
            {
                out.push(key);
                break;
            }
        }
    }
}

/// A read-only view of one output item while it streams.
#[derive(Debug, Clone, Copy)]
pub struct ItemSnapshot<'s>(&'s ItemState);

impl<'s> ItemSnapshot<'s> {
    /// The item's `output_index`.
    pub fn output_index(&self) -> u64 {
        self.0.output_index
    }

    /// The item's `type` (`message`, `function_call`, …): from its item
    /// object, else implied by its events.
    pub fn item_type(&self) -> Option<&'s str> {
        self.0.ty.as_deref()
    }

    /// The item's `id`.
    pub fn id(&self) -> Option<&'s str> {
        self.0.id.as_deref()
    }

    /// The item's latest status.
    pub fn status(&self) -> Option<&'s str> {
        self.0.status.as_deref()
    }

    /// Whether `output_item.done` has arrived for it.
    pub fn is_done(&self) -> bool {
        self.0.done
    }

    /// The text of content part `content_index`: an `output_text` or
    /// `refusal` of a message, a `reasoning_text` of a reasoning item.
    pub fn part_text(&self, content_index: u64) -> Option<&'s str> {
        self.0
            .content
            .get(&content_index)
            .map(|p| p.text.buf.as_str())
    }

    /// The type of content part `content_index` (`output_text`, `refusal`,
    /// `reasoning_text`).
    pub fn part_type(&self, content_index: u64) -> Option<&'static str> {
        self.0.content.get(&content_index).and_then(|p| p.ty)
    }

    /// The text of all content parts, concatenated (for a message: its
    /// output text and refusals; for a reasoning item: its reasoning text).
    /// Allocates only when there is more than one part.
    pub fn text(&self) -> alloc::borrow::Cow<'s, str> {
        let parts = &self.0.content;
        match (parts.len(), parts.values().next()) {
            (0, _) | (_, None) => "".into(),
            (1, Some(one)) => one.text.buf.as_str().into(),
            _ => parts
                .values()
                .map(|p| p.text.buf.as_str())
                .collect::<String>()
                .into(),
        }
    }

    /// The text of reasoning summary part `summary_index`.
    pub fn summary_text(&self, summary_index: u64) -> Option<&'s str> {
        self.0
            .summary
            .get(&summary_index)
            .map(|p| p.text.buf.as_str())
    }

    /// The number of content parts and of summary parts seen.
    pub fn part_counts(&self) -> (usize, usize) {
        (self.0.content.len(), self.0.summary.len())
    }

    /// The streamed input of a call, as received so far: the `arguments` of
    /// a function or MCP call, the `input` of a custom tool call, the `code`
    /// of a code interpreter call, the `diff` of an apply_patch call. `None`
    /// before any of it has arrived.
    pub fn arguments(&self) -> Option<&'s str> {
        self.0.input.seen.then_some(self.0.input.buf.as_str())
    }

    /// The best-effort value of the arguments received so far, as a
    /// complete JSON text (see [`PartialJson`]): `{"location": "San` →
    /// `{"location": "San"}`. `Ok(None)` before any value has started, and
    /// for items that are not function, custom tool or MCP calls (or when
    /// [`ResponsesAccumulatorConfig::partial_arguments`] is off).
    ///
    /// # Errors
    ///
    /// The [`JsonError`] of text that no continuation can make valid JSON
    /// (a custom tool's free-form input, for instance).
    pub fn partial_arguments(&self) -> Result<Option<&'s str>, JsonError> {
        match (&self.0.partial, self.0.partial_error) {
            (_, Some(e)) => Err(e),
            (Some(p), None) => Ok(p.current()),
            (None, None) => Ok(None),
        }
    }

    /// The `name` of a function call: from its item, else from
    /// `function_call_arguments.done`.
    pub fn name(&self) -> Option<&'s str> {
        self.base_str("name").or(self.0.name.as_deref())
    }

    /// The `call_id` of a call, from its item.
    pub fn call_id(&self) -> Option<&'s str> {
        self.base_str("call_id")
    }

    /// Shell commands so far, by `command_index`.
    pub fn commands(&self) -> impl Iterator<Item = &'s str> + 's {
        self.0.commands.values().map(|p| p.text.buf.as_str())
    }

    /// Partial images of an image generation call: `(partial_image_index,
    /// base64)`, in index order.
    pub fn partial_images(&self) -> impl Iterator<Item = (u64, &'s str)> + 's {
        self.0.partial_images.iter().map(|(i, s)| (*i, s.as_str()))
    }

    /// The latest item object the stream sent for it (`output_item.done`,
    /// else `output_item.added`), as sent.
    pub fn item_json(&self) -> Option<&'s JsonValue> {
        self.0.base.as_ref()
    }

    /// The item as it would be in the final response now.
    pub fn to_json(&self) -> JsonValue {
        self.0.to_json()
    }

    fn base_str(&self, key: &str) -> Option<&'s str> {
        self.0.base.as_ref()?.get(key)?.as_str()
    }
}

/// The final response of a stream, from [`ResponsesAccumulator::finish`].
///
/// [`json`](Self::json) is the response in the API's shape (the response
/// object of the last lifecycle event, with `output` assembled from the
/// stream); the rest says how the stream went.
#[derive(Debug, Clone, PartialEq)]
pub struct FinalResponse {
    json: JsonValue,
    outcome: Outcome,
    error_event: Option<JsonValue>,
    anomalies: Vec<Anomaly>,
    anomalies_dropped: u64,
    sequence: SequenceInfo,
    events: u64,
    limit_error: Option<AccumulateError>,
}

impl FinalResponse {
    /// The response object, in the API's shape.
    pub fn json(&self) -> &JsonValue {
        &self.json
    }

    /// The response object, in the API's shape.
    pub fn into_json(self) -> JsonValue {
        self.json
    }

    /// How the stream ended.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// Whether the stream ended without a terminal event.
    pub fn is_truncated(&self) -> bool {
        self.outcome == Outcome::Truncated
    }

    /// The output items, in `output_index` order.
    pub fn output(&self) -> &[JsonValue] {
        self.json
            .get("output")
            .and_then(JsonValue::as_array)
            .unwrap_or(&[])
    }

    /// The response `id`.
    pub fn id(&self) -> Option<&str> {
        self.json.get("id")?.as_str()
    }

    /// The response `status`: the terminal event's, or the last announced
    /// (`in_progress` for most truncated streams), or `failed` after an
    /// `error` event.
    pub fn status(&self) -> Option<&str> {
        self.json.get("status")?.as_str()
    }

    /// `usage`, when the terminal event carried it.
    pub fn usage(&self) -> Option<&JsonValue> {
        self.json.get("usage").filter(|u| !u.is_null())
    }

    /// The `error` of a failed response, or of an `error` event.
    pub fn error(&self) -> Option<&JsonValue> {
        self.json
            .get("error")
            .filter(|e| !e.is_null())
            .or(self.error_event.as_ref())
    }

    /// `incomplete_details` of an incomplete response.
    pub fn incomplete_details(&self) -> Option<&JsonValue> {
        self.json.get("incomplete_details").filter(|e| !e.is_null())
    }

    /// The text of every `output_text` part of every message, concatenated.
    pub fn output_text(&self) -> String {
        let mut out = String::new();
        for item in self.output() {
            if item.get("type").and_then(JsonValue::as_str) != Some("message") {
                continue;
            }
            for part in item
                .get("content")
                .and_then(JsonValue::as_array)
                .unwrap_or(&[])
            {
                if part.get("type").and_then(JsonValue::as_str) == Some("output_text") {
                    out.push_str(part.get("text").and_then(JsonValue::as_str).unwrap_or(""));
                }
            }
        }
        out
    }

    /// The anomalies, in the order they were made.
    pub fn anomalies(&self) -> &[Anomaly] {
        &self.anomalies
    }

    /// Anomalies past [`ResponsesAccumulatorConfig::max_anomalies`], not kept.
    pub fn anomalies_dropped(&self) -> u64 {
        self.anomalies_dropped
    }

    /// The sequence numbers seen.
    pub fn sequence(&self) -> SequenceInfo {
        self.sequence
    }

    /// The events fed.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The limit error that stopped the accumulation, if one did: the
    /// response is then what had been built before it.
    pub fn limit_error(&self) -> Option<AccumulateError> {
        self.limit_error
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for FinalResponse {
    /// Serializes the response object ([`json`](Self::json)).
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(ser)
    }
}
