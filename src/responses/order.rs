//! The one model of the order of a Responses stream: sequence numbers,
//! terminal events, and the lifecycle of items, parts and texts. Sans-IO:
//! [`StreamOrder::feed`] takes what an [`OrderEvent`] says (its
//! [`EventKind`], `sequence_number`, `output_index`, `item_id`, part index
//! and item `id`) and returns the [`Fault`]s it finds, with their
//! [`Position`], and the tracked item and part the event is about. The
//! accumulator ([`ResponsesAccumulator`]) turns the faults into anomalies and
//! the linter ([`ResponsesLinter`]) into rule findings with their severities.
//!
//! The rules:
//!
//! * Sequence numbers count up by one. A number not greater than the
//!   previous one is a [`Fault::SequenceRegression`]; a number more than one
//!   past the highest so far is a [`Fault::SequenceGap`] (so a number
//!   replayed or reordered below the highest is not counted as a gap again
//!   when the stream goes on). An event without a number is a
//!   [`Fault::MissingSequenceNumber`] (streams from before mid-2025 have
//!   none at all: consumers decide how to weigh it).
//! * One terminal event (`response.completed`, `.incomplete`, `.failed`)
//!   ends the stream: another is a [`Fault::SecondTerminal`], any other
//!   event after it a [`Fault::EventAfterTerminal`]. Items still open when
//!   the first comes are a [`Fault::ItemsNotDone`].
//! * The `[DONE]` sentinel ([`EventKind::Done`]) is never a fault.
//! * `output_item.added` introduces an item, at the `output_index` that
//!   counts the items added before it ([`Fault::UnexpectedOutputIndex`]),
//!   with an id no earlier item had ([`Fault::ItemAddedTwice`]);
//!   `output_item.done` ends it, once ([`Fault::ItemDoneTwice`]), after its
//!   parts and texts ([`Fault::ItemDoneWithOpenParts`]).
//! * Every other event about an item names it by its `item_id` (the shell
//!   command events and the legacy code events by `output_index`): an item
//!   never added is a [`Fault::ItemNotAdded`], a missing `item_id` a
//!   [`Fault::MissingItemId`], an `output_index` other than the item's a
//!   [`Fault::OutputIndexMismatch`], an event after the item's done a
//!   [`Fault::EventAfterItemDone`].
//! * Parts (content parts by `content_index`, summary parts by
//!   `summary_index`, shell commands by `command_index`) are added once
//!   ([`Fault::PartAddedTwice`]) and done once ([`Fault::PartDoneTwice`]);
//!   an event about a part never added is a [`Fault::PartNotAdded`] (for a
//!   text, once). A text (by its [`TextKind`] and part index) has deltas,
//!   then one done event ([`Fault::TextDoneTwice`]); a delta after it is a
//!   [`Fault::TextAfterDone`].
//!
//! Memory is bounded by [`OrderConfig`]: past
//! [`max_items`](OrderConfig::max_items) items ([`Fault::TooManyItems`],
//! once) later items are not tracked, and events about unknown items are no
//! longer reported; past [`max_parts`](OrderConfig::max_parts) parts and
//! texts ([`Fault::TooManyParts`], once per item) the part checks of the
//! item stop. Nothing is allocated but to track a new item or part.
//!
//! ```
//! use ssekit::json::JsonStr;
//! use ssekit::responses::order::{Fault, OrderEvent, StreamOrder};
//! use ssekit::responses::{EventKind, TextKind};
//!
//! let mut order = StreamOrder::new();
//! let checked = order.feed(&OrderEvent::new(EventKind::ResponseCreated, Some(0)));
//! assert_eq!(checked.fault_count(), 0);
//! order.feed(&OrderEvent::new(EventKind::Keepalive, Some(3)));
//! let faults = order.faults();
//! assert_eq!(faults[0].fault, Fault::SequenceGap { expected: 1, found: 3 });
//! assert_eq!(faults[0].position.event_index, 1);
//!
//! // A function call: added, its arguments, done; then a late delta.
//! let id = Some(JsonStr::parse(r#""fc_1""#)?);
//! let added = OrderEvent::new(EventKind::OutputItemAdded, Some(4)).output_index(Some(0)).item(id);
//! assert_eq!(order.feed(&added).fault_count(), 0);
//! let delta = |n| OrderEvent::new(EventKind::FunctionCallArgumentsDelta, Some(n))
//!     .output_index(Some(0))
//!     .item_id(id);
//! assert_eq!(order.feed(&delta(5)).fault_count(), 0);
//! let done = OrderEvent::new(EventKind::FunctionCallArgumentsDone, Some(6))
//!     .output_index(Some(0))
//!     .item_id(id);
//! assert_eq!(order.feed(&done).fault_count(), 0);
//! order.feed(&delta(7));
//! let faults: Vec<_> = order.faults().iter().map(|f| f.fault).collect();
//! assert_eq!(faults, [Fault::TextAfterDone { text: TextKind::FunctionArguments }]);
//!
//! // The stream ends with the call still open, then ends again.
//! order.feed(&OrderEvent::new(EventKind::ResponseCompleted, Some(8)));
//! let faults: Vec<_> = order.faults().iter().map(|f| f.fault).collect();
//! assert_eq!(faults, [Fault::ItemsNotDone { open: 1 }]);
//! assert_eq!(order.open_items().next().map(|it| it.id), Some("fc_1"));
//! order.feed(&OrderEvent::new(EventKind::ResponseFailed, Some(9)));
//! let faults = order.faults();
//! assert_eq!(
//!     faults[0].fault,
//!     Fault::SecondTerminal { first: EventKind::ResponseCompleted }
//! );
//! # Ok::<(), ssekit::json::JsonError>(())
//! ```
//!
//! [`ResponsesAccumulator`]: crate::accumulate::ResponsesAccumulator
//! [`ResponsesLinter`]: crate::lint::ResponsesLinter

use alloc::boxed::Box;
use alloc::collections::BTreeMap;

use super::{EventKind, EventRole, PartKind, ResponsesEvent, TextKind};
use crate::json::JsonStr;

/// A fault in the order of a stream. See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// Sequence numbers were skipped: `expected` (the highest so far plus
    /// one) came next, `found` did.
    SequenceGap {
        /// The highest number so far plus one.
        expected: u64,
        /// The number found.
        found: u64,
    },
    /// A sequence number not greater than the previous one.
    SequenceRegression {
        /// The previous number.
        previous: u64,
        /// The number found.
        found: u64,
    },
    /// An event without a sequence number.
    MissingSequenceNumber {
        /// The highest number so far; `None` when no event had one.
        highest: Option<u64>,
    },
    /// An event after the terminal event.
    EventAfterTerminal {
        /// The terminal event.
        terminal: EventKind,
    },
    /// A second terminal event.
    SecondTerminal {
        /// The first terminal event.
        first: EventKind,
    },
    /// The first terminal event came while items added were not done.
    /// [`StreamOrder::open_items`] names them.
    ItemsNotDone {
        /// How many.
        open: u64,
    },
    /// `output_item.added` for the id of an item added before. The event is
    /// not counted as an item.
    ItemAddedTwice,
    /// `output_item.added` at an `output_index` other than the number of
    /// items added before it.
    UnexpectedOutputIndex {
        /// The number of items added before.
        expected: u64,
        /// The event's `output_index`.
        found: u64,
    },
    /// An event (`output_item.done` included) about an item that no
    /// `output_item.added` introduced: its `item_id` (or, for the events
    /// that name their item by `output_index`, that index) is unknown. Not
    /// reported once [`StreamOrder::items_capped`]: the item may be one not
    /// tracked. The event is not checked further.
    ItemNotAdded {
        /// Whether the event names its item by `output_index` (it has no
        /// `item_id`, or is an `output_item.done` whose item has no `id`).
        by_output_index: bool,
    },
    /// An event about an item, without the `item_id` its type carries. The
    /// item is looked up by `output_index` instead (silently not found when
    /// there is none).
    MissingItemId,
    /// An event's `output_index` is not the one its item was added at.
    OutputIndexMismatch {
        /// The index the item was added at.
        added_at: u64,
        /// The event's `output_index`.
        found: u64,
    },
    /// `output_item.done` for an item already done.
    ItemDoneTwice,
    /// `output_item.done` for an item with parts added but not done, or
    /// texts with deltas but no done event. [`StreamOrder::parts`] names
    /// them.
    ItemDoneWithOpenParts {
        /// How many.
        open: u64,
    },
    /// An event about an item after its `output_item.done`. The event is
    /// not checked further, but for a [`TextAfterDone`](Self::TextAfterDone)
    /// when it is a delta of a text already done. ([`Checked::item`]
    /// still names the item.)
    EventAfterItemDone,
    /// A part added a second time.
    PartAddedTwice {
        /// The part's kind.
        kind: PartKind,
        /// Its index.
        index: u64,
    },
    /// A part done a second time.
    PartDoneTwice {
        /// The part's kind.
        kind: PartKind,
        /// Its index.
        index: u64,
    },
    /// An event about a part that no `*_part.added` (or
    /// `shell_call_command.added`) introduced: the part's done event, an
    /// annotation, or (once per text) the events of a text that belongs to
    /// a part.
    PartNotAdded {
        /// The part's kind.
        kind: PartKind,
        /// Its index.
        index: u64,
    },
    /// A delta after its text's done event.
    TextAfterDone {
        /// The text.
        text: TextKind,
    },
    /// A text's done event a second time.
    TextDoneTwice {
        /// The text.
        text: TextKind,
    },
    /// An item added past [`OrderConfig::max_items`]: it and the later ones
    /// are not tracked (events about them are not checked). Reported once.
    TooManyItems {
        /// The limit.
        limit: usize,
    },
    /// A part or text past [`OrderConfig::max_parts`]: the part checks of
    /// the item stop. Reported once per item.
    TooManyParts {
        /// The limit.
        limit: usize,
    },
}

impl core::fmt::Display for Fault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let part = |kind: &PartKind| match kind {
            PartKind::Content => "content part",
            PartKind::Summary => "summary part",
            PartKind::Command => "command",
        };
        match self {
            Self::SequenceGap { expected, found } => {
                write!(f, "sequence number {found} where {expected} was next")
            }
            Self::SequenceRegression { previous, found } => {
                write!(f, "sequence number {found} after {previous}")
            }
            Self::MissingSequenceNumber { .. } => f.write_str("an event without a sequence number"),
            Self::EventAfterTerminal { terminal } => {
                write!(f, "an event after `{}`", terminal.ty())
            }
            Self::SecondTerminal { first } => {
                write!(f, "a second terminal event after `{}`", first.ty())
            }
            Self::ItemsNotDone { open } => write!(f, "the stream ended with {open} items not done"),
            Self::ItemAddedTwice => f.write_str("an item added twice"),
            Self::UnexpectedOutputIndex { expected, found } => {
                write!(
                    f,
                    "an item added at output_index {found} where {expected} was next"
                )
            }
            Self::ItemNotAdded { .. } => f.write_str("an event about an item never added"),
            Self::MissingItemId => f.write_str("an event about an item without its item_id"),
            Self::OutputIndexMismatch { added_at, found } => {
                write!(f, "output_index {found} for an item added at {added_at}")
            }
            Self::ItemDoneTwice => f.write_str("an item done twice"),
            Self::ItemDoneWithOpenParts { open } => {
                write!(f, "an item done with {open} parts or texts not done")
            }
            Self::EventAfterItemDone => f.write_str("an event about an item already done"),
            Self::PartAddedTwice { kind, index } => {
                write!(f, "{} {index} added twice", part(kind))
            }
            Self::PartDoneTwice { kind, index } => write!(f, "{} {index} done twice", part(kind)),
            Self::PartNotAdded { kind, index } => {
                write!(f, "{} {index} never added", part(kind))
            }
            Self::TextAfterDone { text } => {
                write!(f, "a {} delta after its done event", text.name())
            }
            Self::TextDoneTwice { text } => write!(f, "{} done twice", text.name()),
            Self::TooManyItems { limit } => write!(f, "more than {limit} items"),
            Self::TooManyParts { limit } => write!(f, "more than {limit} parts"),
        }
    }
}

/// Where a fault is: the event's index among those fed (from 0) and its
/// sequence number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Position {
    /// The event's index among the events fed, from 0.
    pub event_index: u64,
    /// The event's `sequence_number`, if it has one.
    pub sequence_number: Option<u64>,
}

/// A [`Fault`] and the [`Position`] of the event that shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OrderFault {
    /// What is wrong.
    pub fault: Fault,
    /// Where.
    pub position: Position,
}

/// The sequence numbers seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct SequenceInfo {
    /// The first number seen.
    pub first: Option<u64>,
    /// The last number seen.
    pub last: Option<u64>,
    /// Events with a number.
    pub numbered: u64,
    /// Events without one (`[DONE]` included).
    pub unnumbered: u64,
    /// Numbers skipped: the sum of the gaps (each measured from the highest
    /// number before it, so the sum is at most the highest number).
    pub missing: u64,
    /// Numbers not greater than their predecessor.
    pub regressions: u64,
}

config! {
    /// Limits of a [`StreamOrder`]: what it tracks grows with the stream only
    /// up to these.
    ///
    /// ```
    /// use ssekit::responses::order::{OrderConfig, StreamOrder};
    ///
    /// let order = StreamOrder::with_config(OrderConfig::DEFAULT.with_max_items(16));
    /// assert_eq!(order.config().max_items, 16);
    /// ```
    pub struct OrderConfig {
        /// Items tracked (each keeps its id). Default 4096.
        max_items: usize = 4096, with_max_items;
        /// Parts and texts tracked, over all items. Default 65536.
        max_parts: usize = 1 << 16, with_max_parts;
    }
}

/// What the checker reads of one event: its kind and sequence number, and
/// the keys that name its item and part.
///
/// [`from_event`](Self::from_event) takes them from a decoded event; the
/// builder methods set them from anywhere else (a lenient read of an event
/// that does not decode, a test).
#[derive(Debug, Clone, Copy)]
pub struct OrderEvent<'a> {
    kind: EventKind,
    sequence_number: Option<u64>,
    output_index: Option<u64>,
    item_id: Option<JsonStr<'a>>,
    index: Option<u64>,
    item: Option<Option<JsonStr<'a>>>,
    untracked: bool,
}

impl<'a> OrderEvent<'a> {
    /// An event of this kind and sequence number, with no keys.
    pub const fn new(kind: EventKind, sequence_number: Option<u64>) -> Self {
        Self {
            kind,
            sequence_number,
            output_index: None,
            item_id: None,
            index: None,
            item: None,
            untracked: false,
        }
    }

    /// The kind, sequence number and keys of a decoded event.
    pub fn from_event(event: &ResponsesEvent<'a>) -> Self {
        // The delta that is nearly every event of a stream, without the
        // generic read of every view's keys.
        if let ResponsesEvent::OutputTextDelta(d) = event {
            return Self {
                kind: EventKind::OutputTextDelta,
                sequence_number: d.sequence_number,
                output_index: Some(d.output_index),
                item_id: Some(d.item_id),
                index: Some(d.content_index),
                item: None,
                untracked: false,
            };
        }
        let kind = event.kind();
        let mut e = Self::new(kind, event.sequence_number());
        let part = match kind.role() {
            EventRole::Other | EventRole::Error | EventRole::Lifecycle | EventRole::Terminal => {
                return e
            }
            EventRole::ItemAdded | EventRole::ItemDone => None,
            EventRole::PartAdded(p) | EventRole::PartDone(p) | EventRole::ItemEvent(Some(p)) => {
                Some(p)
            }
            EventRole::Delta(t) | EventRole::TextDone(t) => t.part(),
            EventRole::ItemEvent(None) => None,
        };
        let k = event.members();
        e.output_index = k.output_index;
        e.item_id = k.item_id;
        e.index = match part {
            Some(PartKind::Content) => k.content_index,
            Some(PartKind::Summary) => k.summary_index,
            Some(PartKind::Command) => k.command_index,
            None => None,
        };
        if let Some(item) = k.item {
            e.item = Some(item.get("id").and_then(|v| v.as_json_str()));
        }
        e
    }

    /// With this `output_index`.
    #[must_use]
    pub const fn output_index(mut self, output_index: Option<u64>) -> Self {
        self.output_index = output_index;
        self
    }

    /// With this `item_id`.
    #[must_use]
    pub const fn item_id(mut self, item_id: Option<JsonStr<'a>>) -> Self {
        self.item_id = item_id;
        self
    }

    /// With this index of the part the event's kind is about
    /// (`content_index`, `summary_index` or `command_index`: see
    /// [`EventRole`]).
    #[must_use]
    pub const fn part_index(mut self, index: Option<u64>) -> Self {
        self.index = index;
        self
    }

    /// For `output_item.added` / `.done`: the event has an item object,
    /// whose `id` is this. (Without one, `added` still counts as an item,
    /// and `done` is not checked.)
    #[must_use]
    pub const fn item(mut self, id: Option<JsonStr<'a>>) -> Self {
        self.item = Some(id);
        self
    }

    /// For `output_item.added`: the caller keeps nothing more of this item
    /// (its own memory budget is spent): the checker does not track it,
    /// as past [`OrderConfig::max_items`] (without the
    /// [`Fault::TooManyItems`]).
    #[must_use]
    pub const fn untracked(mut self) -> Self {
        self.untracked = true;
        self
    }

    /// The event's kind.
    pub const fn kind(&self) -> EventKind {
        self.kind
    }
}

/// An item the checker tracks: its position among the items tracked, from
/// 0, so that a caller can keep its own data about items in a `Vec`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ItemRef(u32);

impl ItemRef {
    /// The position among the items tracked, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A part or text the checker tracks: its position among the parts and
/// texts tracked (over all items), from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartRef(u32);

impl PartRef {
    /// The position among the parts and texts tracked, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a tracked part of an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum PartKey {
    /// A part added by its own event, by its index.
    Part(PartKind, u64),
    /// A streamed text, by the index of the part it belongs to, if any.
    Text(TextKind, Option<u64>),
}

/// The state of a tracked part or text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct PartState {
    /// Where it is among the parts tracked.
    pub at: PartRef,
    /// What it is.
    pub key: PartKey,
    /// Whether its done event came.
    pub done: bool,
    /// For a text, whether a delta came.
    pub has_delta: bool,
}

/// A tracked item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItemState<'s> {
    /// Where it is among the items tracked.
    pub at: ItemRef,
    /// Its `id` (empty when its item object had none).
    pub id: &'s str,
    /// The `output_index` it was added at, if the event had one.
    pub output_index: Option<u64>,
    /// Whether `output_item.done` came.
    pub done: bool,
}

const NONE: u32 = u32::MAX;

/// A delta without faults, of a text that needs no more checks but its done
/// state: the next delta of the same kind, index and item takes the fast
/// path.
#[derive(Debug, Clone, Copy)]
struct Fast {
    kind: EventKind,
    index: Option<u64>,
    item: ItemRef,
    part: PartRef,
}

#[derive(Debug, Clone)]
struct Item {
    id: Box<str>,
    output_index: Option<u64>,
    done: bool,
    parts_capped: bool,
    /// A later item was added at the same `output_index`.
    superseded: bool,
    /// The first and last of the item's parts, chained by `Part::next`.
    first: u32,
    last: u32,
}

#[derive(Debug, Clone)]
struct Part {
    key: PartKey,
    done: bool,
    has_delta: bool,
    /// For a text of a part: the part was found, or its absence reported.
    part_checked: bool,
    next: u32,
}

/// The order checker. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct StreamOrder {
    config: OrderConfig,
    events: u64,
    sequence: SequenceInfo,
    highest: Option<u64>,
    terminal: Option<EventKind>,
    items: alloc::vec::Vec<Item>,
    parts: alloc::vec::Vec<Part>,
    /// Item id → item (non-empty ids).
    by_id: BTreeMap<Box<str>, u32>,
    /// `output_index` → the last item added there.
    by_index: BTreeMap<u64, u32>,
    /// (item, key) → part.
    part_at: BTreeMap<(u32, PartKey), u32>,
    /// The item and part of the previous lookup (most events are about the
    /// same as the one before).
    last_item: u32,
    last_part_item: u32,
    last_part: u32,
    /// `output_item.added` events counted (duplicates aside).
    items_added: u64,
    /// The current (or last) event: where it is, its faults, its item and part.
    position: Position,
    faults: [OrderFault; MAX_FAULTS],
    fault_count: usize,
    cur_item: Option<ItemRef>,
    cur_part: Option<PartRef>,
    /// The last event, when the next may take the fast path.
    fast: Option<Fast>,
    open_items: u64,
    items_capped: bool,
}

/// What [`StreamOrder::feed`] found about one event: the tracked item and
/// part it is about, and how many faults it has
/// ([`StreamOrder::faults`] lists them). Small and `Copy`: checking an event
/// moves no list of faults around.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    item: Option<ItemRef>,
    part: Option<PartRef>,
    faults: usize,
}

impl Checked {
    /// The tracked item the event is about (for `output_item.added`, the
    /// item it added), when there is one: none after
    /// [`Fault::ItemNotAdded`], [`Fault::ItemAddedTwice`] and
    /// [`Fault::TooManyItems`].
    pub fn item(&self) -> Option<ItemRef> {
        self.item
    }

    /// The tracked text of a delta or text done event, or the part of a
    /// part event (for `shell_call_command.added`, the command's text).
    pub fn part(&self) -> Option<PartRef> {
        self.part
    }

    /// How many faults the event has.
    pub fn fault_count(&self) -> usize {
        self.faults
    }
}

/// The most faults one event can have (a sequence number's, a terminal
/// event's, and up to four about its item and part).
const MAX_FAULTS: usize = 6;

const NO_FAULT: OrderFault = OrderFault {
    fault: Fault::ItemAddedTwice,
    position: Position {
        event_index: 0,
        sequence_number: None,
    },
};

impl Default for StreamOrder {
    fn default() -> Self {
        Self::with_config(OrderConfig::DEFAULT)
    }
}

impl StreamOrder {
    /// A checker at the start of a stream, with the default [`OrderConfig`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A checker with these limits.
    pub fn with_config(config: OrderConfig) -> Self {
        Self {
            config,
            events: 0,
            sequence: SequenceInfo::default(),
            highest: None,
            terminal: None,
            items: alloc::vec::Vec::new(),
            parts: alloc::vec::Vec::new(),
            by_id: BTreeMap::new(),
            by_index: BTreeMap::new(),
            part_at: BTreeMap::new(),
            last_item: NONE,
            last_part_item: NONE,
            last_part: NONE,
            items_added: 0,
            position: NO_FAULT.position,
            faults: [NO_FAULT; MAX_FAULTS],
            fault_count: 0,
            cur_item: None,
            cur_part: None,
            fast: None,
            open_items: 0,
            items_capped: false,
        }
    }

    /// The limits.
    pub fn config(&self) -> &OrderConfig {
        &self.config
    }

    /// Checks one event.
    ///
    /// Costs O(1) when the event is about the item and part of the event
    /// before it (a stream of deltas), else O(log n) map lookups among the
    /// n ≤ [`max_items`](OrderConfig::max_items) items and
    /// [`max_parts`](OrderConfig::max_parts) parts tracked (nothing
    /// shifts, whatever order the indexes come in), plus, for an event that
    /// names its item by an `item_id` with escapes, one unescaped copy of
    /// it. Allocates only to track a new item or part, so never once the
    /// limits are reached; the first terminal event counts the open items
    /// in O(1).
    #[inline]
    pub fn feed(&mut self, event: &OrderEvent<'_>) -> Checked {
        match self.feed_fast(event) {
            Some(checked) => checked,
            None => self.feed_slow(event),
        }
    }

    /// The common case in O(1) without a lookup: a delta of the same text
    /// as the event before, which was a delta without faults, numbered one
    /// past it.
    #[inline]
    fn feed_fast(&mut self, e: &OrderEvent<'_>) -> Option<Checked> {
        let fast = self.fast.as_ref()?;
        let (Some(n), Some(last), Some(id)) = (e.sequence_number, self.sequence.last, e.item_id)
        else {
            return None;
        };
        if e.kind != fast.kind
            || e.index != fast.index
            || Some(last) != self.highest
            || n != last.wrapping_add(1)
            || n == 0
        {
            return None;
        }
        let item = self.items.get(fast.item.index())?;
        if e.output_index != item.output_index || id != *item.id {
            return None;
        }
        let checked = Checked {
            item: Some(fast.item),
            part: Some(fast.part),
            faults: 0,
        };
        self.events += 1;
        self.fault_count = 0;
        self.sequence.numbered += 1;
        self.sequence.last = Some(n);
        self.highest = Some(n);
        Some(checked)
    }

    fn feed_slow(&mut self, event: &OrderEvent<'_>) -> Checked {
        self.fast = None;
        self.position = Position {
            event_index: self.events,
            sequence_number: event.sequence_number,
        };
        self.events += 1;
        self.fault_count = 0;
        self.cur_item = None;
        self.cur_part = None;
        let kind = event.kind;
        let done = kind == EventKind::Done;
        if let Some(f) = self.sequence(event.sequence_number, done) {
            self.push(f);
        }
        let role = kind.role();
        match self.terminal {
            _ if done => {}
            Some(first) if role == EventRole::Terminal => {
                self.push(Fault::SecondTerminal { first })
            }
            Some(terminal) => self.push(Fault::EventAfterTerminal { terminal }),
            None if role == EventRole::Terminal => {
                self.terminal = Some(kind);
                if self.open_items > 0 {
                    let open = self.open_items;
                    self.push(Fault::ItemsNotDone { open });
                }
            }
            None => {}
        }
        self.items_and_parts(event, role);
        if let (EventRole::Delta(t), Some(item), Some(part), 0) =
            (role, self.cur_item, self.cur_part, self.fault_count)
        {
            // The next delta of this text may take the fast path, unless its
            // part is still to be checked or it names its item by index.
            let checked = self.parts.get(part.index()).is_some_and(|p| p.part_checked);
            let named = self
                .items
                .get(item.index())
                .is_some_and(|it| !it.id.is_empty());
            if named && !t.by_output_index() && (checked || !t.needs_part()) {
                let (kind, index) = (event.kind, event.index);
                self.fast = Some(Fast {
                    kind,
                    index,
                    item,
                    part,
                });
            }
        }
        Checked {
            item: self.cur_item,
            part: self.cur_part,
            faults: self.fault_count,
        }
    }

    /// The faults of the last event fed, in the order they were found (the
    /// sequence number's first).
    pub fn faults(&self) -> &[OrderFault] {
        self.faults.get(..self.fault_count).unwrap_or(&[])
    }

    fn push(&mut self, fault: Fault) {
        if let Some(slot) = self.faults.get_mut(self.fault_count) {
            *slot = OrderFault {
                fault,
                position: self.position,
            };
            self.fault_count += 1;
        }
    }

    fn sequence(&mut self, n: Option<u64>, done: bool) -> Option<Fault> {
        let seq = &mut self.sequence;
        let Some(n) = n else {
            seq.unnumbered += 1;
            return (!done).then_some(Fault::MissingSequenceNumber {
                highest: self.highest,
            });
        };
        seq.numbered += 1;
        let previous = seq.last.replace(n);
        seq.first.get_or_insert(n);
        let highest = self.highest;
        self.highest = Some(highest.map_or(n, |h| h.max(n)));
        let (Some(previous), Some(highest)) = (previous, highest) else {
            return None;
        };
        if n <= previous {
            seq.regressions += 1;
            Some(Fault::SequenceRegression { previous, found: n })
        } else if n > highest.saturating_add(1) {
            seq.missing = seq.missing.saturating_add(n - highest - 1);
            Some(Fault::SequenceGap {
                expected: highest + 1,
                found: n,
            })
        } else {
            None
        }
    }

    fn items_and_parts(&mut self, e: &OrderEvent<'_>, role: EventRole) {
        let by_index = match role {
            EventRole::ItemAdded => return self.item_added(e),
            EventRole::ItemDone => return self.item_done(e),
            EventRole::PartAdded(kind) => kind == PartKind::Command,
            EventRole::PartDone(_) | EventRole::ItemEvent(_) => false,
            EventRole::Delta(t) | EventRole::TextDone(t) => t.by_output_index(),
            _ => return,
        };
        let Some(item) = self.resolve(e, by_index) else {
            return;
        };
        self.cur_item = Some(ItemRef(item));
        if self.items[item as usize].done {
            self.push(Fault::EventAfterItemDone);
            // A delta of a text done too says so (nothing is tracked anew).
            if let EventRole::Delta(t) = role {
                if let Some(index) = self.text_index(e, t) {
                    if let Some(p) = self.find_part(item, PartKey::Text(t, index)) {
                        if self.parts[p as usize].done {
                            self.push(Fault::TextAfterDone { text: t });
                        }
                    }
                }
            }
            return;
        }
        match role {
            EventRole::PartAdded(kind) => {
                let Some(index) = e.index else { return };
                let key = PartKey::Part(kind, index);
                if self.find_part(item, key).is_some() {
                    self.push(Fault::PartAddedTwice { kind, index });
                    return;
                }
                let Some(p) = self.add_part(item, key) else {
                    return;
                };
                self.cur_part = Some(PartRef(p));
                if kind == PartKind::Command {
                    // The command's text starts with the value `added` carries.
                    let key = PartKey::Text(TextKind::ShellCommand, Some(index));
                    self.cur_part = self.text(item, key).map(PartRef);
                }
            }
            EventRole::PartDone(kind) => {
                let Some(index) = e.index else { return };
                let key = PartKey::Part(kind, index);
                match self.find_part(item, key) {
                    Some(p) => {
                        self.cur_part = Some(PartRef(p));
                        if self.parts[p as usize].done {
                            self.push(Fault::PartDoneTwice { kind, index });
                        }
                        self.parts[p as usize].done = true;
                    }
                    None if self.items[item as usize].parts_capped => {}
                    None => self.push(Fault::PartNotAdded { kind, index }),
                }
            }
            EventRole::ItemEvent(Some(kind)) => {
                let Some(index) = e.index else { return };
                if !self.items[item as usize].parts_capped
                    && self.find_part(item, PartKey::Part(kind, index)).is_none()
                {
                    self.push(Fault::PartNotAdded { kind, index });
                }
            }
            EventRole::Delta(t) | EventRole::TextDone(t) => {
                let Some(index) = self.text_index(e, t) else {
                    return;
                };
                let Some(p) = self.text(item, PartKey::Text(t, index)) else {
                    return;
                };
                self.cur_part = Some(PartRef(p));
                if let (Some(kind), Some(index), true) = (t.part(), index, t.needs_part()) {
                    if !self.parts[p as usize].part_checked {
                        let capped = self.items[item as usize].parts_capped;
                        let found =
                            capped || self.find_part(item, PartKey::Part(kind, index)).is_some();
                        if !found {
                            self.push(Fault::PartNotAdded { kind, index });
                        }
                        self.parts[p as usize].part_checked = !capped;
                    }
                }
                let text_done = self.parts[p as usize].done;
                if matches!(role, EventRole::Delta(_)) {
                    if text_done {
                        self.push(Fault::TextAfterDone { text: t });
                    } else {
                        self.parts[p as usize].has_delta = true;
                    }
                } else if text_done {
                    self.push(Fault::TextDoneTwice { text: t });
                } else {
                    self.parts[p as usize].done = true;
                    if let (Some(PartKind::Command), Some(index)) = (t.part(), index) {
                        // `shell_call_command.done` ends the command as well as its text.
                        if let Some(c) =
                            self.find_part(item, PartKey::Part(PartKind::Command, index))
                        {
                            self.parts[c as usize].done = true;
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The part index of a text's events: `Some(None)` for a text of no
    /// part, `None` when the event lacks the index its text needs.
    fn text_index(&self, e: &OrderEvent<'_>, t: TextKind) -> Option<Option<u64>> {
        match t.part() {
            Some(_) => e.index.map(Some),
            None => Some(None),
        }
    }

    /// The item an event is about: by its `item_id`, or by `output_index`
    /// for the events that name their item so.
    fn resolve(&mut self, e: &OrderEvent<'_>, by_index: bool) -> Option<u32> {
        let item = if by_index {
            let item = self.at_index(e.output_index);
            if item.is_none() && !self.items_capped {
                let by_output_index = true;
                self.push(Fault::ItemNotAdded { by_output_index });
            }
            item?
        } else {
            match e.item_id {
                None => {
                    self.push(Fault::MissingItemId);
                    self.at_index(e.output_index)?
                }
                Some(id) => match self.by_id(id) {
                    Some(item) => item,
                    None => {
                        if !self.items_capped {
                            let by_output_index = false;
                            self.push(Fault::ItemNotAdded { by_output_index });
                        }
                        return None;
                    }
                },
            }
        };
        self.check_index(item, e.output_index);
        Some(item)
    }

    fn check_index(&mut self, item: u32, found: Option<u64>) {
        if let (Some(found), Some(added_at)) = (found, self.items[item as usize].output_index) {
            if found != added_at {
                self.push(Fault::OutputIndexMismatch { added_at, found });
            }
        }
    }

    /// The last item added at `index`.
    fn at_index(&mut self, index: Option<u64>) -> Option<u32> {
        let index = index?;
        if let Some(it) = self.items.get(self.last_item as usize) {
            if it.output_index == Some(index) && !it.superseded {
                return Some(self.last_item);
            }
        }
        let item = *self.by_index.get(&index)?;
        self.last_item = item;
        Some(item)
    }

    /// The item with the `id`.
    #[inline]
    fn by_id(&mut self, id: JsonStr<'_>) -> Option<u32> {
        if let Some(it) = self.items.get(self.last_item as usize) {
            if !it.id.is_empty() && id == *it.id {
                return Some(self.last_item);
            }
        }
        self.by_id_lookup(id)
    }

    #[inline(never)]
    fn by_id_lookup(&mut self, id: JsonStr<'_>) -> Option<u32> {
        let item = *self.by_id.get(&*id.unescape())?;
        self.last_item = item;
        Some(item)
    }

    fn item_added(&mut self, e: &OrderEvent<'_>) {
        let Some(id) = e.item else {
            // No item object: it still takes its index.
            self.items_added += 1;
            return;
        };
        let id = id.map(|id| id.unescape()).unwrap_or_default();
        if !id.is_empty() && self.by_id.contains_key(&*id) {
            self.push(Fault::ItemAddedTwice);
            return;
        }
        let expected = self.items_added;
        self.items_added += 1;
        if let Some(found) = e.output_index {
            if found != expected {
                self.push(Fault::UnexpectedOutputIndex { expected, found });
            }
        }
        if e.untracked || self.items.len() >= self.config.max_items.min(NONE as usize) {
            if !self.items_capped && !e.untracked {
                let limit = self.config.max_items;
                self.push(Fault::TooManyItems { limit });
            }
            self.items_capped = true;
            return;
        }
        let item = self.items.len() as u32;
        let id: Box<str> = id.into();
        if !id.is_empty() {
            self.by_id.insert(id.clone(), item);
        }
        if let Some(index) = e.output_index {
            if let Some(old) = self.by_index.insert(index, item) {
                self.items[old as usize].superseded = true;
            }
        }
        self.items.push(Item {
            id,
            output_index: e.output_index,
            done: false,
            parts_capped: false,
            superseded: false,
            first: NONE,
            last: NONE,
        });
        self.open_items += 1;
        self.last_item = item;
        self.cur_item = Some(ItemRef(item));
    }

    fn item_done(&mut self, e: &OrderEvent<'_>) {
        let Some(id) = e.item else {
            return;
        };
        let item = match id {
            Some(id) => self.by_id(id),
            None => self.at_index(e.output_index),
        };
        let Some(item) = item else {
            if !self.items_capped {
                let by_output_index = id.is_none();
                self.push(Fault::ItemNotAdded { by_output_index });
            }
            return;
        };
        self.cur_item = Some(ItemRef(item));
        if self.items[item as usize].done {
            self.push(Fault::ItemDoneTwice);
            return;
        }
        self.check_index(item, e.output_index);
        let open = self
            .chain(item)
            .filter(|p| !p.done && (p.has_delta || matches!(p.key, PartKey::Part(..))))
            .count() as u64;
        if open > 0 {
            self.push(Fault::ItemDoneWithOpenParts { open });
        }
        self.items[item as usize].done = true;
        self.open_items -= 1;
    }

    fn chain(&self, item: u32) -> impl Iterator<Item = &Part> + '_ {
        let mut next = self.items.get(item as usize).map_or(NONE, |it| it.first);
        core::iter::from_fn(move || {
            let p = self.parts.get(next as usize)?;
            next = p.next;
            Some(p)
        })
    }

    #[inline]
    fn find_part(&mut self, item: u32, key: PartKey) -> Option<u32> {
        if self.last_part_item == item {
            if let Some(p) = self.parts.get(self.last_part as usize) {
                if p.key == key {
                    return Some(self.last_part);
                }
            }
        }
        let p = *self.part_at.get(&(item, key))?;
        self.last_part_item = item;
        self.last_part = p;
        Some(p)
    }

    /// The text at `key`, tracked if new; `None` past the part limit.
    fn text(&mut self, item: u32, key: PartKey) -> Option<u32> {
        match self.find_part(item, key) {
            Some(p) => Some(p),
            None => {
                let p = self.add_part(item, key)?;
                self.last_part = p;
                self.last_part_item = item;
                Some(p)
            }
        }
    }

    fn add_part(&mut self, item: u32, key: PartKey) -> Option<u32> {
        let it = &mut self.items[item as usize];
        if it.parts_capped {
            return None;
        }
        if self.parts.len() >= self.config.max_parts.min(NONE as usize) {
            it.parts_capped = true;
            let limit = self.config.max_parts;
            self.push(Fault::TooManyParts { limit });
            return None;
        }
        let p = self.parts.len() as u32;
        match self.parts.get_mut(it.last as usize) {
            Some(last) => last.next = p,
            None => it.first = p,
        }
        it.last = p;
        self.parts.push(Part {
            key,
            done: false,
            has_delta: false,
            part_checked: false,
            next: NONE,
        });
        self.part_at.insert((item, key), p);
        Some(p)
    }

    /// The events fed.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The sequence numbers seen.
    pub fn sequence_info(&self) -> SequenceInfo {
        self.sequence
    }

    /// The highest sequence number so far.
    pub fn highest_sequence_number(&self) -> Option<u64> {
        self.highest
    }

    /// The first terminal event, once one was fed.
    pub fn terminal(&self) -> Option<EventKind> {
        self.terminal
    }

    /// Whether an item was not tracked (past
    /// [`max_items`](OrderConfig::max_items), or
    /// [`untracked`](OrderEvent::untracked)): events about unknown items
    /// are then not reported.
    pub fn items_capped(&self) -> bool {
        self.items_capped
    }

    /// Whether the part limit stopped the part checks of `item`.
    pub fn parts_capped(&self, item: ItemRef) -> bool {
        self.items
            .get(item.index())
            .is_some_and(|it| it.parts_capped)
    }

    /// A tracked item.
    pub fn item(&self, item: ItemRef) -> Option<ItemState<'_>> {
        let it = self.items.get(item.index())?;
        Some(ItemState {
            at: item,
            id: &it.id,
            output_index: it.output_index,
            done: it.done,
        })
    }

    /// The tracked items, in the order they were added.
    pub fn items(&self) -> impl ExactSizeIterator<Item = ItemState<'_>> + '_ {
        self.items.iter().enumerate().map(|(i, it)| ItemState {
            at: ItemRef(i as u32),
            id: &it.id,
            output_index: it.output_index,
            done: it.done,
        })
    }

    /// The tracked items not done, in the order they were added. O(items).
    pub fn open_items(&self) -> impl Iterator<Item = ItemState<'_>> + '_ {
        self.items().filter(|it| !it.done)
    }

    /// How many tracked items are not done. O(1).
    pub fn open_item_count(&self) -> u64 {
        self.open_items
    }

    /// The tracked parts and texts of `item`, in the order they were first
    /// seen.
    pub fn parts(&self, item: ItemRef) -> impl Iterator<Item = PartState> + '_ {
        let mut next = self.items.get(item.index()).map_or(NONE, |it| it.first);
        core::iter::from_fn(move || {
            let at = next;
            let p = self.parts.get(at as usize)?;
            next = p.next;
            Some(PartState {
                at: PartRef(at),
                key: p.key,
                done: p.done,
                has_delta: p.has_delta,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn faults_read_as_sentences() {
        use crate::turn::{TurnError, TurnErrorKind};
        let gap = Fault::SequenceGap {
            expected: 3,
            found: 5,
        };
        let e = TurnError::new(TurnErrorKind::Order(gap), 7);
        assert_eq!(
            alloc::format!("{e}"),
            "out of order: sequence number 5 where 3 was next at upstream event 7"
        );
        let part = Fault::PartNotAdded {
            kind: PartKind::Summary,
            index: 2,
        };
        assert_eq!(alloc::format!("{part}"), "summary part 2 never added");
        let after = Fault::EventAfterTerminal {
            terminal: EventKind::ResponseCompleted,
        };
        assert_eq!(
            alloc::format!("{after}"),
            "an event after `response.completed`"
        );
    }

    fn faults(events: &[(EventKind, Option<u64>)]) -> Vec<(u64, Fault)> {
        let mut order = StreamOrder::new();
        events
            .iter()
            .flat_map(|&(kind, n)| {
                order.feed(&OrderEvent::new(kind, n));
                order.faults().to_vec()
            })
            .map(|f| (f.position.event_index, f.fault))
            .collect()
    }

    /// An event in the tests: its kind and keys; sequence numbers are
    /// given in order by `run`, so that only item and part faults show.
    #[derive(Clone, Copy)]
    struct E {
        kind: EventKind,
        output_index: Option<u64>,
        item_id: Option<&'static str>,
        index: Option<u64>,
        item: Option<Option<&'static str>>,
    }

    fn e(kind: EventKind) -> E {
        E {
            kind,
            output_index: None,
            item_id: None,
            index: None,
            item: None,
        }
    }

    impl E {
        fn at(mut self, output_index: u64) -> Self {
            self.output_index = Some(output_index);
            self
        }
        fn id(mut self, id: &'static str) -> Self {
            self.item_id = Some(id);
            self
        }
        fn part(mut self, index: u64) -> Self {
            self.index = Some(index);
            self
        }
        fn item(mut self, id: Option<&'static str>) -> Self {
            self.item = Some(id);
            self
        }
    }

    /// `"…"` of a plain id.
    fn quoted(id: &'static str) -> JsonStr<'static> {
        let text: &'static str =
            alloc::boxed::Box::leak(alloc::format!("\"{id}\"").into_boxed_str());
        JsonStr::parse(text).unwrap()
    }

    fn order_event(ev: &E, n: u64) -> OrderEvent<'static> {
        let mut o = OrderEvent::new(ev.kind, Some(n))
            .output_index(ev.output_index)
            .item_id(ev.item_id.map(quoted))
            .part_index(ev.index);
        if let Some(id) = ev.item {
            o = o.item(id.map(quoted));
        }
        o
    }

    /// The faults of each event but the sequence numbers' (numbered 0, 1, …).
    fn run_with(order: &mut StreamOrder, events: &[E]) -> Vec<(u64, Fault)> {
        let mut out = Vec::new();
        for (n, ev) in events.iter().enumerate() {
            order.feed(&order_event(ev, n as u64));
            for f in order.faults() {
                out.push((f.position.event_index, f.fault));
            }
        }
        out
    }

    fn run(events: &[E]) -> Vec<(u64, Fault)> {
        run_with(&mut StreamOrder::new(), events)
    }

    use EventKind as K;

    fn added(at: u64, id: &'static str) -> E {
        e(K::OutputItemAdded).at(at).item(Some(id))
    }
    fn done(at: u64, id: &'static str) -> E {
        e(K::OutputItemDone).at(at).item(Some(id))
    }
    fn part_added(at: u64, id: &'static str, index: u64) -> E {
        e(K::ContentPartAdded).at(at).id(id).part(index)
    }
    fn part_done(at: u64, id: &'static str, index: u64) -> E {
        e(K::ContentPartDone).at(at).id(id).part(index)
    }
    fn text_delta(at: u64, id: &'static str, index: u64) -> E {
        e(K::OutputTextDelta).at(at).id(id).part(index)
    }
    fn text_done(at: u64, id: &'static str, index: u64) -> E {
        e(K::OutputTextDone).at(at).id(id).part(index)
    }

    /// A message with one text part, and a function call: no faults.
    fn clean() -> Vec<E> {
        vec![
            e(K::ResponseCreated),
            added(0, "msg_1"),
            part_added(0, "msg_1", 0),
            text_delta(0, "msg_1", 0),
            text_delta(0, "msg_1", 0),
            text_done(0, "msg_1", 0),
            part_done(0, "msg_1", 0),
            done(0, "msg_1"),
            added(1, "fc_1"),
            e(K::FunctionCallArgumentsDelta).at(1).id("fc_1"),
            e(K::FunctionCallArgumentsDone).at(1).id("fc_1"),
            done(1, "fc_1"),
            e(K::ResponseCompleted),
        ]
    }

    #[test]
    fn a_well_ordered_stream_has_no_faults() {
        let mut order = StreamOrder::new();
        assert_eq!(run_with(&mut order, &clean()), []);
        assert_eq!(order.items().len(), 2);
        assert_eq!(order.open_item_count(), 0);
        let msg = order.items().next().unwrap().at;
        // The part and its text, in the order first seen.
        let keys: Vec<_> = order.parts(msg).map(|p| (p.key, p.done)).collect();
        assert_eq!(
            keys,
            [
                (PartKey::Part(PartKind::Content, 0), true),
                (PartKey::Text(TextKind::OutputText, Some(0)), true),
            ]
        );
    }

    #[test]
    fn items_added_twice_at_an_unexpected_index_and_done_twice() {
        let mut events = clean();
        events.insert(2, added(0, "msg_1"));
        // Not counted: fc_1 at 1 is still expected.
        assert_eq!(run(&events), [(2, Fault::ItemAddedTwice)]);

        let mut events = clean();
        events[8] = added(3, "fc_1");
        for ev in &mut events[9..12] {
            ev.output_index = Some(3);
        }
        assert_eq!(
            run(&events),
            [(
                8,
                Fault::UnexpectedOutputIndex {
                    expected: 1,
                    found: 3
                }
            )]
        );

        let mut events = clean();
        events.insert(8, done(0, "msg_1"));
        assert_eq!(run(&events), [(8, Fault::ItemDoneTwice)]);
    }

    #[test]
    fn events_about_items_never_added() {
        // By item_id, by output_index (shell commands), and an item done
        // with no id at an index where nothing was added.
        let events = [
            e(K::ResponseCreated),
            text_delta(0, "msg_9", 0),
            e(K::ShellCallCommandDelta).at(4).part(0),
            e(K::OutputItemDone).at(5).item(None),
            done(0, "msg_9"),
        ];
        let not_added = |by_output_index| Fault::ItemNotAdded { by_output_index };
        assert_eq!(
            run(&events),
            [
                (1, not_added(false)),
                (2, not_added(true)),
                (3, not_added(true)),
                (4, not_added(false)),
            ]
        );
    }

    #[test]
    fn missing_item_id_falls_back_to_the_output_index() {
        let mut events = clean();
        events[3].item_id = None;
        // Found at output_index 0, so the text goes on as before.
        assert_eq!(run(&events), [(3, Fault::MissingItemId)]);
        // Nothing at that index: only the missing id is reported.
        let mut events = clean();
        events[3].item_id = None;
        events[3].output_index = Some(7);
        assert_eq!(run(&events), [(3, Fault::MissingItemId)]);
    }

    #[test]
    fn an_output_index_other_than_the_items() {
        let mut events = clean();
        events[9].output_index = Some(0);
        events[11].output_index = Some(2);
        assert_eq!(
            run(&events),
            [
                (
                    9,
                    Fault::OutputIndexMismatch {
                        added_at: 1,
                        found: 0
                    }
                ),
                (
                    11,
                    Fault::OutputIndexMismatch {
                        added_at: 1,
                        found: 2
                    }
                ),
            ]
        );
    }

    #[test]
    fn an_item_done_with_open_parts_and_texts() {
        let mut events = clean();
        events.remove(6); // content_part.done
        events.remove(9); // function_call_arguments.done
                          // The message's part, not done; the call's text, deltas but no done.
        assert_eq!(
            run(&events),
            [
                (6, Fault::ItemDoneWithOpenParts { open: 1 }),
                (9, Fault::ItemDoneWithOpenParts { open: 1 }),
            ]
        );
        let mut events = clean();
        events.remove(5); // output_text.done: the text is open
        assert_eq!(
            run(&events),
            [(6, Fault::ItemDoneWithOpenParts { open: 1 })]
        );
        // A text without deltas is not open.
        let events = [
            added(0, "fc_1"),
            e(K::FunctionCallArgumentsDone).at(0).id("fc_1"),
            done(0, "fc_1"),
        ];
        assert_eq!(run(&events), []);
    }

    #[test]
    fn events_after_the_items_done() {
        let mut events = clean();
        // A part after the item's done; a delta of a text done, after it.
        events.insert(8, part_added(0, "msg_1", 1));
        events.insert(9, text_delta(0, "msg_1", 0));
        assert_eq!(
            run(&events),
            [
                (8, Fault::EventAfterItemDone),
                (9, Fault::EventAfterItemDone),
                (
                    9,
                    Fault::TextAfterDone {
                        text: TextKind::OutputText
                    }
                ),
            ]
        );
    }

    #[test]
    fn parts_added_twice_done_twice_and_never_added() {
        let mut events = clean();
        events.insert(3, part_added(0, "msg_1", 0));
        events.insert(8, part_done(0, "msg_1", 0));
        assert_eq!(
            run(&events),
            [
                (
                    3,
                    Fault::PartAddedTwice {
                        kind: PartKind::Content,
                        index: 0
                    }
                ),
                (
                    8,
                    Fault::PartDoneTwice {
                        kind: PartKind::Content,
                        index: 0
                    }
                ),
            ]
        );
        // No part added: once for the text (two deltas and a done), once
        // for the part's done event, once for an annotation.
        let mut events = clean();
        events.remove(2);
        events.insert(5, e(K::OutputTextAnnotationAdded).at(0).id("msg_1").part(0));
        let not_added = Fault::PartNotAdded {
            kind: PartKind::Content,
            index: 0,
        };
        assert_eq!(
            run(&events),
            [(2, not_added), (5, not_added), (6, not_added)]
        );
        // The legacy reasoning text belongs to no part added by an event.
        let events = [
            added(0, "rs_1"),
            e(K::LegacyReasoningDelta).at(0).id("rs_1").part(0),
            e(K::LegacyReasoningDone).at(0).id("rs_1").part(0),
            done(0, "rs_1"),
        ];
        assert_eq!(run(&events), []);
    }

    #[test]
    fn texts_after_their_done_and_done_twice() {
        let mut events = clean();
        events.insert(6, text_delta(0, "msg_1", 0));
        events.insert(7, text_done(0, "msg_1", 0));
        // The refusal on the same part is another text.
        events.insert(8, e(K::RefusalDelta).at(0).id("msg_1").part(0));
        assert_eq!(
            run(&events),
            [
                (
                    6,
                    Fault::TextAfterDone {
                        text: TextKind::OutputText
                    }
                ),
                (
                    7,
                    Fault::TextDoneTwice {
                        text: TextKind::OutputText
                    }
                ),
                (10, Fault::ItemDoneWithOpenParts { open: 1 }),
            ]
        );
    }

    #[test]
    fn a_shell_commands_done_ends_the_command() {
        let events = [
            added(0, "sh_1"),
            e(K::ShellCallCommandAdded).at(0).part(0),
            e(K::ShellCallCommandDelta).at(0).part(0),
            e(K::ShellCallCommandDone).at(0).part(0),
            done(0, "sh_1"),
        ];
        let mut order = StreamOrder::new();
        assert_eq!(run_with(&mut order, &events), []);
        // `added` hands out the command's text, which its deltas use.
        let mut order = StreamOrder::new();
        order.feed(&order_event(&events[0], 0));
        let text = order.feed(&order_event(&events[1], 1)).part();
        assert_eq!(order.feed(&order_event(&events[2], 2)).part(), text);
        assert!(text.is_some());
    }

    #[test]
    fn items_not_done_at_the_terminal_event() {
        let mut events = clean();
        events.remove(11); // fc_1's done
        events.insert(1, added(0, "msg_1"));
        let mut order = StreamOrder::new();
        assert_eq!(
            run_with(&mut order, &events),
            [
                (2, Fault::ItemAddedTwice),
                (12, Fault::ItemsNotDone { open: 1 })
            ]
        );
        let open: Vec<_> = order.open_items().map(|it| it.id).collect();
        assert_eq!(open, ["fc_1"]);
    }

    #[test]
    fn too_many_items_once_then_unknown_items_are_not_reported() {
        let mut order = StreamOrder::with_config(OrderConfig::DEFAULT.with_max_items(1));
        let events = [
            added(0, "a"),
            added(1, "b"),
            added(2, "c"),
            text_delta(1, "b", 0),
            done(1, "b"),
        ];
        assert_eq!(
            run_with(&mut order, &events),
            [(1, Fault::TooManyItems { limit: 1 })]
        );
        assert!(order.items_capped());
        assert_eq!(order.items().len(), 1);
        // An item the caller does not keep is not tracked either, quietly.
        let mut order = StreamOrder::new();
        let untracked = order_event(&added(0, "a"), 0).untracked();
        assert_eq!(order.feed(&untracked).fault_count(), 0);
        assert!(order.items_capped());
        let delta = order_event(&text_delta(0, "a", 0), 1);
        assert_eq!(order.feed(&delta).fault_count(), 0);
    }

    #[test]
    fn too_many_parts_once_per_item_then_its_part_checks_stop() {
        let mut order = StreamOrder::with_config(OrderConfig::DEFAULT.with_max_parts(2));
        let events = [
            added(0, "msg_1"),
            part_added(0, "msg_1", 0),
            text_delta(0, "msg_1", 0),
            part_added(0, "msg_1", 1),
            text_delta(0, "msg_1", 1),
            part_done(0, "msg_1", 1),
            part_done(0, "msg_1", 7),
            added(1, "msg_2"),
            text_delta(1, "msg_2", 0),
        ];
        assert_eq!(
            run_with(&mut order, &events),
            [
                (3, Fault::TooManyParts { limit: 2 }),
                (8, Fault::TooManyParts { limit: 2 }),
            ]
        );
        let msg_1 = order.items().next().unwrap().at;
        assert!(order.parts_capped(msg_1));
    }

    #[test]
    fn items_are_found_by_id_whatever_the_order_of_events() {
        // Two items interleaved, ids looked up past the one-item cache, an
        // id with escapes, and a later item at the same output_index.
        let mut order = StreamOrder::new();
        let events = [
            added(0, "a"),
            added(1, "b"),
            text_delta(0, "a", 0),
            text_delta(1, "b", 0),
            text_delta(0, "a", 0),
        ];
        let faults = run_with(&mut order, &events);
        let not_added = Fault::PartNotAdded {
            kind: PartKind::Content,
            index: 0,
        };
        assert_eq!(faults, [(2, not_added), (3, not_added)]);
        let escaped = JsonStr::parse(r#""\u0061""#).unwrap();
        let ev = OrderEvent::new(K::OutputTextDelta, Some(5))
            .output_index(Some(0))
            .item_id(Some(escaped))
            .part_index(Some(0));
        let f = order.feed(&ev);
        assert_eq!(f.item().map(ItemRef::index), Some(0));
        assert_eq!(f.fault_count(), 0);
    }

    /// The fast path for the next delta of a text hides no fault: another
    /// id, index, part or number after a run of deltas is checked in full.
    #[test]
    fn a_run_of_deltas_then_a_change_is_checked_in_full() {
        let mut order = StreamOrder::new();
        let events = [
            added(0, "a"),
            part_added(0, "a", 0),
            text_delta(0, "a", 0),
            text_delta(0, "a", 0),
            text_delta(0, "b", 0),
            text_delta(0, "a", 0),
            text_delta(5, "a", 0),
            text_delta(0, "a", 0),
            text_delta(0, "a", 3),
        ];
        assert_eq!(
            run_with(&mut order, &events),
            [
                (
                    4,
                    Fault::ItemNotAdded {
                        by_output_index: false
                    }
                ),
                (
                    6,
                    Fault::OutputIndexMismatch {
                        added_at: 0,
                        found: 5
                    }
                ),
                (
                    8,
                    Fault::PartNotAdded {
                        kind: PartKind::Content,
                        index: 3
                    }
                ),
            ]
        );
        // A number skipped, then one repeated, after a run.
        let delta = |n| order_event(&text_delta(0, "a", 0), n);
        order.feed(&delta(9));
        order.feed(&delta(11));
        assert_eq!(
            order.faults()[0].fault,
            Fault::SequenceGap {
                expected: 10,
                found: 11
            }
        );
        order.feed(&delta(12));
        order.feed(&delta(12));
        assert_eq!(
            order.faults()[0].fault,
            Fault::SequenceRegression {
                previous: 12,
                found: 12
            }
        );
        assert_eq!(order.events(), 13);
        assert_eq!(order.sequence_info().numbered, 13);
    }

    #[test]
    fn regressions_by_the_previous_number_gaps_by_the_highest() {
        use EventKind::Keepalive as K;
        let seq = |ns: &[u64]| faults(&ns.iter().map(|&n| (K, Some(n))).collect::<Vec<_>>());
        assert_eq!(
            seq(&[1, 2, 4, 3, 5]),
            [
                (
                    2,
                    Fault::SequenceGap {
                        expected: 3,
                        found: 4
                    }
                ),
                (
                    3,
                    Fault::SequenceRegression {
                        previous: 4,
                        found: 3
                    }
                ),
            ]
        );
        assert_eq!(
            seq(&[5, 2, 3, 3]),
            [
                (
                    1,
                    Fault::SequenceRegression {
                        previous: 5,
                        found: 2
                    }
                ),
                (
                    3,
                    Fault::SequenceRegression {
                        previous: 3,
                        found: 3
                    }
                ),
            ]
        );
        let mut order = StreamOrder::new();
        for n in [0, u64::MAX - 1, 0, u64::MAX] {
            order.feed(&OrderEvent::new(K, Some(n)));
        }
        let info = order.sequence_info();
        assert_eq!((info.missing, info.regressions), (u64::MAX - 2, 1));
        assert_eq!((info.first, info.last), (Some(0), Some(u64::MAX)));
    }

    #[test]
    fn missing_numbers_terminal_events_and_the_done_sentinel() {
        use EventKind::*;
        assert_eq!(
            faults(&[
                (ResponseCreated, None),
                (Keepalive, Some(1)),
                (Done, None),
                (ResponseIncomplete, None),
                (Keepalive, Some(2)),
                (ResponseCompleted, Some(3)),
                (Done, None),
            ]),
            [
                (0, Fault::MissingSequenceNumber { highest: None }),
                (3, Fault::MissingSequenceNumber { highest: Some(1) }),
                (
                    4,
                    Fault::EventAfterTerminal {
                        terminal: ResponseIncomplete
                    }
                ),
                (
                    5,
                    Fault::SecondTerminal {
                        first: ResponseIncomplete
                    }
                ),
            ]
        );
    }
}
