//! [`TurnAccumulator`]: one accumulator over the model of a streamed turn,
//! whatever the dialect it was read from; the final answer in any
//! dialect's non-streaming shape.
//!
//! Any dialect's [`TurnReader`] feeds it (it is a [`TurnWriter`]); it keeps
//! what the events spell ([`FinalTurn`]), and
//! [`FinalTurn::write_json`] renders that as a Responses `response`, a Chat
//! `chat.completion`, an Anthropic `message` or a Gemini
//! `GenerateContentResponse`.
//!
//! ```
//! use ssekit::accumulate::TurnAccumulator;
//! use ssekit::turn::{ChatReader, Dialect, TurnReader};
//! use ssekit::{Bytes, Parser};
//!
//! let stream = concat!(
//!     "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\",",
//!     "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\n",
//!     "data: [DONE]\n\n",
//! );
//! let mut parser = Parser::new();
//! parser.feed(Bytes::from_static(stream.as_bytes()));
//! let mut reader = ChatReader::default();
//! let mut acc = TurnAccumulator::new().from_dialect(Dialect::Chat);
//! while let Some(frame) = parser.next_frame()? {
//!     acc.read(&mut reader, &frame)?;
//! }
//! acc.finish_reader(&mut reader)?;
//! let turn = acc.into_turn();
//! let message = turn.to_json(Dialect::Anthropic);
//! assert!(message.contains(r#""content":[{"type":"text","text":"Hi"}]"#));
//! assert!(message.contains(r#""stop_reason":"end_turn""#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::collections::BTreeMap;
use alloc::string::String;
use bytes::Bytes;

use super::dialect::DEFAULT_MAX_BYTES;
use super::Outcome;
use crate::frame::Frame;
use crate::json::JsonStr;
use crate::turn::answer::{Ending, FinalItem, FinalItemKind, FinalTurn};
use crate::turn::{
    DeltaKind, Dialect, ItemKind, TurnError, TurnErrorKind, TurnEvent, TurnReader, TurnWriter,
};

config! {
    /// Limits of a [`TurnAccumulator`], built like the crate's other
    /// configurations: `DEFAULT` (or `default()`) with `with_*` builders,
    /// or public fields set one by one.
    ///
    /// ```
    /// use ssekit::accumulate::{TurnAccumulator, TurnAccumulatorConfig};
    ///
    /// let config = TurnAccumulatorConfig::DEFAULT.with_max_items(8);
    /// let acc = TurnAccumulator::with_config(config);
    /// assert_eq!(acc.config().max_items, 8);
    /// assert_eq!(acc.config().max_bytes, 64 << 20);
    /// ```
    pub struct TurnAccumulatorConfig {
        /// Items (messages, reasoning, tool calls, …) of one turn. Default
        /// 4096.
        max_items: usize = 4096, with_max_items;
        /// The bytes kept: text (unescaped), ids and names, and a fixed
        /// amount per item and part. Default 64 MiB.
        max_bytes: usize = DEFAULT_MAX_BYTES, with_max_bytes;
    }
}

/// Accumulates a streamed turn, read by any dialect's [`TurnReader`], into
/// a [`FinalTurn`].
///
/// * **Items** by the reader's index, in the order they opened: message
///   text by part, reasoning text, summaries by part, signature, encrypted
///   content, tool calls (call id, name, arguments in fragments, several
///   open at once), refusals, and items only one dialect has (their type,
///   and their JSON when the reader gives it).
/// * **Usage** (the last count of each kind), **stop** (the reason and the
///   upstream's string), the upstream's **error**, and whether the stream
///   ended: [`outcome`](Self::outcome).
///
/// # Limits
///
/// [`TurnAccumulatorConfig`]: an item past `max_items`, or a fragment past
/// `max_bytes`, is not kept; the event is refused with
/// [`TurnErrorKind::TooManyItems`] or [`TurnErrorKind::TooManyBytes`]
/// (the reader gives it the upstream event's index) and the turn ends
/// [`Truncated`](Outcome::Truncated). Each event costs O(log n) in the
/// items and parts held, plus its text: linear work in any order of input.
/// Events that name an item never opened, or reopen one, are ignored (a
/// reader reports them).
#[derive(Debug, Clone)]
pub struct TurnAccumulator {
    config: TurnAccumulatorConfig,
    turn: FinalTurn,
    /// The position in `turn.items` of each reader index.
    by_index: BTreeMap<u64, usize>,
    used: usize,
    /// The first error a reader returned through [`read`](Self::read) or
    /// [`finish_reader`](Self::finish_reader).
    first_error: Option<TurnError>,
}

impl Default for TurnAccumulator {
    fn default() -> Self {
        Self::new()
    }
}

impl TurnAccumulator {
    /// An accumulator with the default limits.
    pub fn new() -> Self {
        Self::with_config(TurnAccumulatorConfig::DEFAULT)
    }

    /// An accumulator with these limits.
    pub fn with_config(config: TurnAccumulatorConfig) -> Self {
        Self {
            config,
            turn: FinalTurn::default(),
            by_index: BTreeMap::new(),
            used: 0,
            first_error: None,
        }
    }

    /// Says which dialect the turn is read from: its renderings in that
    /// same dialect then keep the upstream's own stop strings and the items
    /// only that dialect has.
    #[must_use]
    pub fn from_dialect(mut self, dialect: Dialect) -> Self {
        self.turn.source = Some(dialect);
        self
    }

    /// The limits.
    pub fn config(&self) -> &TurnAccumulatorConfig {
        &self.config
    }

    /// Reads one upstream frame with `reader` into this accumulator.
    ///
    /// # Errors
    ///
    /// The reader's error (the upstream broke its protocol) or this
    /// accumulator's (a limit), with the upstream event's index. The first
    /// is kept: [`error`](Self::error).
    pub fn read<R: TurnReader>(&mut self, reader: &mut R, frame: &Frame) -> Result<(), TurnError> {
        let r = reader.read(frame, self);
        self.keep(r)
    }

    /// Says the upstream ended, with `reader`.
    ///
    /// # Errors
    ///
    /// [`TurnErrorKind::Truncated`] for a stream cut before its end (the
    /// turn then ends [`Truncated`](Outcome::Truncated)).
    pub fn finish_reader<R: TurnReader>(&mut self, reader: &mut R) -> Result<(), TurnError> {
        let r = reader.finish(self);
        self.keep(r)
    }

    fn keep(&mut self, r: Result<(), TurnError>) -> Result<(), TurnError> {
        if let Err(e) = r {
            self.first_error.get_or_insert(e);
        }
        r
    }

    /// The first error [`read`](Self::read) or
    /// [`finish_reader`](Self::finish_reader) returned.
    pub fn error(&self) -> Option<TurnError> {
        self.first_error
    }

    /// The turn so far.
    pub fn turn(&self) -> &FinalTurn {
        &self.turn
    }

    /// The turn.
    pub fn into_turn(self) -> FinalTurn {
        self.turn
    }

    /// How the turn ended, so far: [`Failed`](Outcome::Failed) when the
    /// upstream reported an error (or stopped for one);
    /// [`Truncated`](Outcome::Truncated) when a limit dropped data or the
    /// end has not come; [`Incomplete`](Outcome::Incomplete) when it ended
    /// at max tokens, the context window, a content filter or a refusal;
    /// else [`Completed`](Outcome::Completed).
    pub fn outcome(&self) -> Outcome {
        match self.turn.ending() {
            Ending::Completed => Outcome::Completed,
            Ending::Incomplete => Outcome::Incomplete,
            Ending::Failed => Outcome::Failed,
            Ending::Cut => Outcome::Truncated,
        }
    }

    fn charge(&mut self, n: usize) -> Result<(), TurnError> {
        match self.used.checked_add(n) {
            Some(next) if next <= self.config.max_bytes => {
                self.used = next;
                Ok(())
            }
            _ => {
                self.turn.cut = true;
                let limit = self.config.max_bytes;
                Err(TurnError::new(TurnErrorKind::TooManyBytes { limit }, 0))
            }
        }
    }

    /// `s` unescaped, charged.
    fn owned(&mut self, s: Option<JsonStr<'_>>) -> Result<Option<String>, TurnError> {
        match s {
            None => Ok(None),
            Some(s) => {
                let text = s.unescape();
                self.charge(text.len())?;
                Ok(Some(text.into_owned()))
            }
        }
    }

    fn item_start(&mut self, index: u64, item: &ItemKind<'_>) -> Result<(), TurnError> {
        if self.by_index.contains_key(&index) {
            return Ok(());
        }
        let limit = self.config.max_items;
        if self.turn.items.len() >= limit {
            self.turn.cut = true;
            return Err(TurnError::new(TurnErrorKind::TooManyItems { limit }, 0));
        }
        self.charge(core::mem::size_of::<(u64, usize)>() + core::mem::size_of::<FinalItem>())?;
        let kind = match *item {
            ItemKind::Message => FinalItemKind::Message,
            ItemKind::Reasoning => FinalItemKind::Reasoning,
            ItemKind::Refusal => FinalItemKind::Refusal,
            ItemKind::ToolCall { call_id, name } => FinalItemKind::ToolCall {
                call_id: self.owned(call_id)?,
                name: self.owned(name)?,
            },
            ItemKind::Other { ty, raw, .. } => {
                let raw = raw.map(|r| r.get());
                self.charge(ty.len() + raw.map_or(0, str::len))?;
                FinalItemKind::Other {
                    ty: String::from(ty),
                    raw: raw.map(String::from),
                }
            }
        };
        self.by_index.insert(index, self.turn.items.len());
        self.turn.items.push(FinalItem::new(kind));
        Ok(())
    }

    fn delta(
        &mut self,
        index: u64,
        kind: DeltaKind,
        part: u32,
        text: JsonStr<'_>,
    ) -> Result<(), TurnError> {
        let Some(&at) = self.by_index.get(&index) else {
            return Ok(());
        };
        let limit = self.config.max_bytes;
        let Some(item) = self.turn.items.get_mut(at) else {
            return Ok(());
        };
        if item.done {
            return Ok(());
        }
        let parts = match kind {
            DeltaKind::Text => Some(&mut item.text),
            DeltaKind::Reasoning => Some(&mut item.reasoning),
            DeltaKind::Summary => Some(&mut item.summary),
            _ => None,
        };
        let (target, entry_cost) = match parts {
            Some(map) => {
                let cost = if map.contains_key(&part) {
                    0
                } else {
                    core::mem::size_of::<(u32, String)>()
                };
                (map.entry(part).or_default(), cost)
            }
            None => (
                match kind {
                    DeltaKind::Signature => &mut item.signature,
                    DeltaKind::Encrypted => &mut item.encrypted,
                    DeltaKind::Arguments => &mut item.arguments,
                    _ => &mut item.refusal,
                },
                0,
            ),
        };
        let start = target.len();
        text.unescape_into(target);
        let added = (target.len() - start).saturating_add(entry_cost);
        match self.used.checked_add(added) {
            Some(next) if next <= limit => {
                self.used = next;
                Ok(())
            }
            _ => {
                target.truncate(start);
                // An entry made for this fragment stays, empty: its cost
                // is small and fixed, and the turn is cut anyway.
                self.turn.cut = true;
                Err(TurnError::new(TurnErrorKind::TooManyBytes { limit }, 0))
            }
        }
    }
}

impl TurnWriter for TurnAccumulator {
    /// Keeps one event.
    ///
    /// # Errors
    ///
    /// [`TurnErrorKind::TooManyItems`] or [`TurnErrorKind::TooManyBytes`]:
    /// what did not fit was not kept, and the turn ends truncated.
    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        match *event {
            TurnEvent::Start(start) => {
                if self.turn.id.is_none() {
                    self.turn.id = self.owned(start.id)?;
                }
                if self.turn.model.is_none() {
                    self.turn.model = self.owned(start.model)?;
                }
                self.turn.created = self.turn.created.or(start.created);
            }
            TurnEvent::ItemStart { index, ref item } => self.item_start(index, item)?,
            TurnEvent::Delta {
                index,
                kind,
                part,
                text,
            } => self.delta(index, kind, part, text)?,
            TurnEvent::ItemEnd { index, .. } => {
                if let Some(&at) = self.by_index.get(&index) {
                    if let Some(item) = self.turn.items.get_mut(at) {
                        item.done = true;
                    }
                }
            }
            TurnEvent::Usage(u) => self.turn.usage.merge(&u),
            TurnEvent::Stop(stop) => {
                let raw = self.owned(stop.raw)?;
                if let Some((_, Some(old))) = self.turn.stop.replace((stop.reason, raw)) {
                    self.used = self.used.saturating_sub(old.len());
                }
            }
            TurnEvent::Error(e) => {
                // The turn fails whether or not its text fits.
                self.turn.error.get_or_insert((None, None));
                let code = self.owned(e.code)?;
                let message = self.owned(e.message)?;
                self.turn.error = Some((code, message));
            }
            TurnEvent::End => self.turn.ended = true,
            _ => {}
        }
        Ok(())
    }

    fn fail(&mut self, code: &str, message: &str) {
        if self.turn.error.is_none() {
            self.turn.error = Some((Some(String::from(code)), Some(String::from(message))));
        }
    }

    /// Nothing: an accumulator writes no bytes.
    fn take(&mut self) -> Bytes {
        Bytes::new()
    }

    fn is_finished(&self) -> bool {
        self.turn.ended || self.turn.error.is_some()
    }
}
