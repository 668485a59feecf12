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
//! use ssekit::turn::{ChatReader, Dialect};
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
use crate::turn::answer::{Ending, FinalItem, FinalItemKind, FinalTurn, MAX_EXTRAS};
use crate::turn::{
    DeltaKind, Dialect, Extra, ItemKind, TurnError, TurnErrorKind, TurnEvent, TurnReader,
    TurnWriter,
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
            // A reader's own limit dropped an item: the turn is cut, as
            // when this accumulator's limit does.
            if matches!(e.kind(), TurnErrorKind::TooManyItems { .. }) {
                self.turn.cut = true;
            }
            self.first_error.get_or_insert(e);
        }
        r
    }

    /// The bytes counted against [`max_bytes`](TurnAccumulatorConfig::max_bytes)
    /// so far.
    pub fn used_bytes(&self) -> usize {
        self.used
    }

    /// Moves the byte limit (a face that shares one budget among several
    /// turns gives each what the others left).
    pub(crate) fn set_max_bytes(&mut self, max_bytes: usize) {
        self.config.max_bytes = max_bytes;
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
            ItemKind::Other { dialect, ty, raw } => {
                let raw = raw.map(|r| r.get());
                self.charge(ty.len() + raw.map_or(0, str::len))?;
                FinalItemKind::Other {
                    dialect,
                    ty: String::from(ty),
                    raw: raw.map(String::from),
                }
            }
        };
        self.by_index.insert(index, self.turn.items.len());
        self.turn.items.push(FinalItem::new(kind));
        Ok(())
    }

    fn extra(&mut self, extra: &Extra<'_>) -> Result<(), TurnError> {
        let extras = match extra.item {
            None => &mut self.turn.extras,
            Some(index) => match self.by_index.get(&index) {
                Some(&at) => match self.turn.items.get_mut(at) {
                    Some(item) => &mut item.extras,
                    None => return Ok(()),
                },
                None => return Ok(()),
            },
        };
        let raw = extra.raw.get();
        // Charged before it is kept: a value past the limit is refused whole.
        // `Push` onto nothing keeps `[raw]`: the most any mode adds.
        let worst = extra.key.len() + raw.len() + 2;
        if self.used.saturating_add(worst) > self.config.max_bytes {
            self.turn.cut = true;
            let limit = self.config.max_bytes;
            return Err(TurnError::new(TurnErrorKind::TooManyBytes { limit }, 0));
        }
        match extras.put(extra.dialect, extra.key, raw, extra.combine) {
            Some((added, freed)) => {
                self.used = self.used.saturating_add(added).saturating_sub(freed);
                Ok(())
            }
            None => Err(TurnError::new(
                TurnErrorKind::TooManyExtras { limit: MAX_EXTRAS },
                0,
            )),
        }
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
        // Every kind named: a new kind of fragment must choose its place.
        let (map, whole) = match kind {
            DeltaKind::Text => (Some(&mut item.text), None),
            DeltaKind::Reasoning => (Some(&mut item.reasoning), None),
            DeltaKind::Summary => (Some(&mut item.summary), None),
            DeltaKind::Signature => (None, Some(&mut item.signature)),
            DeltaKind::Encrypted => (None, Some(&mut item.encrypted)),
            DeltaKind::Arguments => (None, Some(&mut item.arguments)),
            DeltaKind::Refusal => (None, Some(&mut item.refusal)),
        };
        let (target, entry_cost) = match (map, whole) {
            (Some(map), _) => {
                let cost = if map.contains_key(&part) {
                    0
                } else {
                    core::mem::size_of::<(u32, String)>()
                };
                (map.entry(part).or_default(), cost)
            }
            (None, Some(text)) => (text, 0),
            (None, None) => return Ok(()),
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
            TurnEvent::Extra(extra) => self.extra(&extra)?,
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

    /// Yes: a rendering in the upstream's own dialect keeps them.
    fn wants_extras(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::turn::{AnthropicReader, ChatReader, StopReason, TurnStart, TurnUsage};
    use crate::Parser;
    use alloc::boxed::Box;
    use alloc::format;
    use alloc::vec::Vec;
    use proptest::prelude::*;
    use serde_json::{json, Value as J};

    fn frames(stream: &str) -> Vec<Frame> {
        let mut p = Parser::new();
        p.feed(Bytes::copy_from_slice(stream.as_bytes()));
        let mut out = Vec::new();
        while let Ok(Some(f)) = p.next_frame() {
            out.push(f);
        }
        out
    }

    fn shapes(turn: &FinalTurn) -> [J; 4] {
        Dialect::ALL.map(|d| {
            let text = turn.to_json(d);
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{d:?}: {e}: {text}"))
        })
    }

    fn chunk(body: &str) -> String {
        format!(
            "data: {{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":7,\"model\":\"m\",{body}}}\n\n"
        )
    }

    /// Text, two tool calls whose fragments interleave, usage with cached
    /// and reasoning counts; every expected value is read off the chunks.
    fn chat_stream(done: bool) -> String {
        let mut s = String::new();
        for body in [
            r#""choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]"#,
            r#""choices":[{"index":0,"delta":{"content":"lo \"x\""},"finish_reason":null}]"#,
            r#""choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"f","arguments":"{\"a\":"}}]},"finish_reason":null}]"#,
            r#""choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"g","arguments":"{}"}}]},"finish_reason":null}]"#,
            r#""choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"1}"}}]},"finish_reason":"tool_calls"}]"#,
            r#""choices":[],"usage":{"prompt_tokens":5,"completion_tokens":7,"total_tokens":12,"prompt_tokens_details":{"cached_tokens":2},"completion_tokens_details":{"reasoning_tokens":3}}"#,
        ] {
            s.push_str(&chunk(body));
        }
        if done {
            s.push_str("data: [DONE]\n\n");
        }
        s
    }

    fn read_chat(stream: &str, config: TurnAccumulatorConfig) -> (TurnAccumulator, Vec<TurnError>) {
        let mut reader = ChatReader::default();
        let mut acc = TurnAccumulator::with_config(config).from_dialect(Dialect::Chat);
        let mut errors = Vec::new();
        for f in frames(stream) {
            if let Err(e) = acc.read(&mut reader, &f) {
                errors.push(e);
            }
        }
        if let Err(e) = acc.finish_reader(&mut reader) {
            errors.push(e);
        }
        (acc, errors)
    }

    #[test]
    fn a_chat_turn_renders_in_every_shape() {
        let (acc, errors) = read_chat(&chat_stream(true), TurnAccumulatorConfig::DEFAULT);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(acc.outcome(), Outcome::Completed);
        let turn = acc.into_turn();
        assert_eq!(turn.items().len(), 3);
        let [responses, chat, anthropic, gemini] = shapes(&turn);

        let m = &chat["choices"][0]["message"];
        // Read from Chat: the upstream's own id, no prefix added.
        assert_eq!(chat["id"], "c1");
        assert_eq!(chat["object"], "chat.completion");
        assert_eq!(
            (chat["created"].clone(), chat["model"].clone()),
            (json!(7), json!("m"))
        );
        assert_eq!(m["content"], "Hello \"x\"");
        assert_eq!(m["refusal"], J::Null);
        assert_eq!(m["tool_calls"][0]["id"], "call_a");
        assert_eq!(m["tool_calls"][0]["function"]["name"], "f");
        assert_eq!(m["tool_calls"][0]["function"]["arguments"], "{\"a\":1}");
        assert_eq!(m["tool_calls"][1]["function"]["arguments"], "{}");
        assert_eq!(chat["choices"][0]["finish_reason"], "tool_calls");
        assert_eq!(
            chat["usage"],
            json!({"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12,
                   "prompt_tokens_details": {"cached_tokens": 2},
                   "completion_tokens_details": {"reasoning_tokens": 3}})
        );

        assert_eq!(anthropic["type"], "message");
        assert_eq!(anthropic["id"], "msg_c1");
        assert_eq!(
            anthropic["content"],
            json!([
                {"type": "text", "text": "Hello \"x\""},
                {"type": "tool_use", "id": "call_a", "name": "f", "input": {"a": 1}},
                {"type": "tool_use", "id": "call_b", "name": "g", "input": {}},
            ])
        );
        assert_eq!(anthropic["stop_reason"], "tool_use");
        // Input without the cache reads, which are counted apart.
        assert_eq!(
            anthropic["usage"],
            json!({"input_tokens": 3, "cache_creation_input_tokens": 0,
                   "cache_read_input_tokens": 2, "output_tokens": 7})
        );

        let c = &gemini["candidates"][0];
        assert_eq!(
            c["content"],
            json!({"parts": [
                {"text": "Hello \"x\""},
                {"functionCall": {"id": "call_a", "name": "f", "args": {"a": 1}}},
                {"functionCall": {"id": "call_b", "name": "g", "args": {}}},
            ], "role": "model"})
        );
        assert_eq!(c["finishReason"], "STOP");
        // Candidates without the thoughts, which are counted apart.
        assert_eq!(
            gemini["usageMetadata"],
            json!({"promptTokenCount": 5, "candidatesTokenCount": 4, "totalTokenCount": 12,
                   "cachedContentTokenCount": 2, "thoughtsTokenCount": 3})
        );

        assert_eq!(responses["object"], "response");
        assert_eq!(responses["status"], "completed");
        let out = responses["output"].as_array().unwrap();
        assert_eq!(out.len(), 3);
        assert_eq!(out[0]["type"], "message");
        assert_eq!(out[0]["content"][0]["text"], "Hello \"x\"");
        assert_eq!(out[1]["type"], "function_call");
        assert_eq!(
            (&out[1]["call_id"], &out[1]["name"], &out[1]["arguments"]),
            (&json!("call_a"), &json!("f"), &json!("{\"a\":1}"))
        );
        assert_eq!(out[2]["call_id"], "call_b");
        assert_eq!(responses["usage"]["input_tokens"], 5);
        assert_eq!(
            responses["usage"]["input_tokens_details"]["cached_tokens"],
            2
        );
        assert_eq!(
            responses["usage"]["output_tokens_details"]["reasoning_tokens"],
            3
        );
        assert_eq!(responses["usage"]["total_tokens"], 12);
        assert_eq!(responses["error"], J::Null);
    }

    #[test]
    fn a_cut_turn_is_truncated_and_says_so_in_each_shape() {
        let (acc, errors) = read_chat(&chat_stream(false)[..200], TurnAccumulatorConfig::DEFAULT);
        assert!(
            errors.iter().any(|e| e.kind() == TurnErrorKind::Truncated),
            "{errors:?}"
        );
        assert_eq!(acc.outcome(), Outcome::Truncated);
        assert_eq!(
            acc.error().map(|e| e.kind()),
            Some(TurnErrorKind::Truncated)
        );
        let [responses, _, anthropic, gemini] = shapes(acc.turn());
        assert_eq!(responses["status"], "in_progress");
        assert_eq!(anthropic["stop_reason"], J::Null);
        assert!(gemini["candidates"][0].get("finishReason").is_none());
    }

    /// Thinking with a signature, text, then `max_tokens`.
    const ANTHROPIC: &str = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",",
        "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude\",\"content\":[],",
        "\"stop_reason\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,",
        "\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,",
        "\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"Hmm.\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,",
        "\"delta\":{\"type\":\"signature_delta\",\"signature\":\"U2ln\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,",
        "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,",
        "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}\n\n",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":",
        "\"max_tokens\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":9}}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
    );

    fn read_anthropic(stream: &str) -> TurnAccumulator {
        let mut reader = AnthropicReader::default();
        let mut acc = TurnAccumulator::new().from_dialect(Dialect::Anthropic);
        for f in frames(stream) {
            let _ = acc.read(&mut reader, &f);
        }
        let _ = acc.finish_reader(&mut reader);
        acc
    }

    #[test]
    fn thinking_and_max_tokens_render_in_every_shape() {
        let acc = read_anthropic(ANTHROPIC);
        assert_eq!(acc.error(), None);
        assert_eq!(acc.outcome(), Outcome::Incomplete);
        let turn = acc.into_turn();
        assert_eq!(turn.stop_reason(), Some(StopReason::MaxTokens));
        assert_eq!(turn.items()[0].signature(), "U2ln");
        let [responses, chat, anthropic, gemini] = shapes(&turn);
        assert_eq!(
            anthropic["content"],
            json!([
                {"type": "thinking", "thinking": "Hmm.", "signature": "U2ln"},
                {"type": "text", "text": "Hi"},
            ])
        );
        assert_eq!(anthropic["stop_reason"], "max_tokens");
        assert_eq!(anthropic["usage"]["output_tokens"], 9);
        assert_eq!(responses["status"], "incomplete");
        assert_eq!(
            responses["incomplete_details"]["reason"],
            "max_output_tokens"
        );
        let rs = &responses["output"][0];
        assert_eq!(rs["type"], "reasoning");
        assert_eq!(
            rs["summary"],
            json!([{"type": "summary_text", "text": "Hmm."}])
        );
        assert_eq!(rs["encrypted_content"], "U2ln");
        let m = &chat["choices"][0];
        assert_eq!(m["finish_reason"], "length");
        assert_eq!(m["message"]["reasoning_content"], "Hmm.");
        assert_eq!(m["message"]["content"], "Hi");
        let parts = &gemini["candidates"][0]["content"]["parts"];
        assert_eq!(
            parts,
            &json!([{"text": "Hmm.", "thought": true, "thoughtSignature": "U2ln"}, {"text": "Hi"}])
        );
        assert_eq!(gemini["candidates"][0]["finishReason"], "MAX_TOKENS");
    }

    #[test]
    fn an_upstream_error_fails_the_turn() {
        let cut = &ANTHROPIC[..ANTHROPIC.find("event: message_delta").unwrap()];
        let stream = format!(
            "{cut}event: error\ndata: {{\"type\":\"error\",\"error\":{{\"type\":\"overloaded_error\",\"message\":\"busy\"}}}}\n\n"
        );
        let acc = read_anthropic(&stream);
        assert_eq!(acc.outcome(), Outcome::Failed);
        assert_eq!(
            acc.turn().error(),
            Some((Some("overloaded_error"), Some("busy")))
        );
        let [responses, ..] = shapes(acc.turn());
        assert_eq!(responses["status"], "failed");
        // Not a Responses code: the SDKs' list of codes is closed.
        assert_eq!(
            responses["error"],
            json!({"code": "server_error", "message": "busy"})
        );
    }

    #[test]
    fn limits_are_typed_errors_at_the_upstream_event() {
        // The second tool call opens in chunk 3 (from 0).
        let config = TurnAccumulatorConfig::DEFAULT.with_max_items(2);
        let (acc, errors) = read_chat(&chat_stream(true), config);
        assert_eq!(
            errors.first().map(|e| (e.kind(), e.event_index())),
            Some((TurnErrorKind::TooManyItems { limit: 2 }, 3))
        );
        assert_eq!(acc.turn().items().len(), 2);
        assert_eq!(acc.outcome(), Outcome::Truncated);

        // 20 bytes: the item costs more than that; nothing opens.
        let config = TurnAccumulatorConfig::DEFAULT.with_max_bytes(20);
        let (acc, errors) = read_chat(&chat_stream(true), config);
        let e = errors.first().copied().expect("an error");
        assert_eq!(e.kind(), TurnErrorKind::TooManyBytes { limit: 20 });
        assert_eq!(e.event_index(), 0);
        assert!(acc.used <= 20);
        assert_eq!(acc.outcome(), Outcome::Truncated);
        let _ = shapes(acc.turn());
    }

    #[test]
    fn extras_are_kept_by_owner_charged_and_bounded() {
        use crate::json::RawJson;
        let raw = |s: &'static str| RawJson::new(s);
        let mut acc =
            TurnAccumulator::with_config(TurnAccumulatorConfig::DEFAULT.with_max_bytes(400));
        let d = Dialect::Chat;
        acc.write(&TurnEvent::ItemStart {
            index: 3,
            item: ItemKind::Message,
        })
        .unwrap();
        let used = acc.used;
        acc.write(&TurnEvent::Extra(Extra::new(
            d,
            None,
            "service_tier",
            raw("\"flex\""),
        )))
        .unwrap();
        assert_eq!(acc.used, used + "service_tier".len() + 6);
        acc.write(&TurnEvent::Extra(
            Extra::new(d, Some(3), "logprobs", raw("[1]")).appended(),
        ))
        .unwrap();
        acc.write(&TurnEvent::Extra(
            Extra::new(d, Some(3), "logprobs", raw("[2]")).appended(),
        ))
        .unwrap();
        // An item never opened: nothing kept (its reader reports it).
        acc.write(&TurnEvent::Extra(Extra::new(
            d,
            Some(9),
            "logprobs",
            raw("[5]"),
        )))
        .unwrap();
        let turn = acc.turn();
        assert_eq!(turn.extra(d, "service_tier"), Some("\"flex\""));
        assert_eq!(turn.extra(Dialect::Anthropic, "service_tier"), None);
        assert_eq!(turn.items()[0].extra(d, "logprobs"), Some("[1,2]"));
        assert_eq!(turn.items().len(), 1);
        // Past the byte limit: refused whole, the turn cut.
        let big = alloc::string::String::from("\"") + &"x".repeat(400) + "\"";
        let big: &'static str = alloc::boxed::Box::leak(big.into_boxed_str());
        let e = acc
            .write(&TurnEvent::Extra(Extra::new(d, None, "big", raw(big))))
            .unwrap_err();
        assert_eq!(e.kind(), TurnErrorKind::TooManyBytes { limit: 400 });
        assert!(acc.used <= 400);
        assert_eq!(acc.turn().extra(d, "big"), None);
        assert_eq!(acc.outcome(), Outcome::Truncated);

        // A push onto nothing keeps `[raw]`: "k" and "[12345]", 8 bytes,
        // charged whole before it is kept.
        for max in 6..10 {
            let config = TurnAccumulatorConfig::DEFAULT.with_max_bytes(max);
            let mut acc = TurnAccumulator::with_config(config);
            let push = Extra::new(d, None, "k", raw("12345")).pushed();
            let r = acc.write(&TurnEvent::Extra(push));
            assert!(acc.used <= max, "{} > {max}", acc.used);
            assert_eq!(r.is_ok(), max >= 8, "max {max}");
        }
    }

    /// An arbitrary event, its strings owned.
    #[derive(Debug, Clone)]
    enum Op {
        Start(Option<String>, Option<String>, Option<u64>),
        Item(u64, u8, Option<String>, Option<String>),
        Delta(u64, u8, u32, String),
        End(u64),
        Usage(Option<u64>, Option<u64>, Option<u64>, Option<u64>),
        Stop(u8, Option<String>),
        Error(Option<String>, Option<String>),
        KeepAlive,
        Finish,
    }

    fn text() -> impl Strategy<Value = String> {
        "[a-z{}\\[\\]:,\"\\\\\n \u{e9}\u{1F600}0-9]{0,12}"
    }

    fn op() -> impl Strategy<Value = Op> {
        let idx = 0u64..6;
        prop_oneof![
            (
                proptest::option::of(text()),
                proptest::option::of(text()),
                proptest::option::of(any::<u64>())
            )
                .prop_map(|(a, b, c)| Op::Start(a, b, c)),
            (
                idx.clone(),
                0u8..5,
                proptest::option::of(text()),
                proptest::option::of(text())
            )
                .prop_map(|(i, k, a, b)| Op::Item(i, k, a, b)),
            (idx.clone(), 0u8..7, 0u32..4, text()).prop_map(|(i, k, p, t)| Op::Delta(i, k, p, t)),
            idx.prop_map(Op::End),
            (
                proptest::option::of(any::<u64>()),
                proptest::option::of(any::<u64>()),
                proptest::option::of(any::<u64>()),
                proptest::option::of(any::<u64>())
            )
                .prop_map(|(a, b, c, d)| Op::Usage(a, b, c, d)),
            (0u8..9, proptest::option::of(text())).prop_map(|(r, s)| Op::Stop(r, s)),
            (proptest::option::of(text()), proptest::option::of(text()))
                .prop_map(|(a, b)| Op::Error(a, b)),
            Just(Op::KeepAlive),
            Just(Op::Finish),
        ]
    }

    /// `s` as a JSON string view (the literal leaked: a test's lifetime).
    fn js(s: &str) -> JsonStr<'static> {
        let mut lit = String::new();
        crate::json::push_json_str(&mut lit, s);
        let escaped = lit.len() != s.len() + 2;
        JsonStr::new(Box::leak(lit.into_boxed_str()), escaped)
    }

    fn event(op: &Op) -> TurnEvent<'static> {
        let o = |s: &Option<String>| s.as_deref().map(js);
        match op {
            Op::Start(id, model, created) => TurnEvent::Start(TurnStart {
                id: o(id),
                model: o(model),
                created: *created,
            }),
            Op::Item(index, k, a, b) => TurnEvent::ItemStart {
                index: *index,
                item: match k {
                    0 => ItemKind::Message,
                    1 => ItemKind::Reasoning,
                    2 => ItemKind::ToolCall {
                        call_id: o(a),
                        name: o(b),
                    },
                    3 => ItemKind::Refusal,
                    _ => ItemKind::Other {
                        dialect: Dialect::Responses,
                        ty: "web_search_call",
                        raw: None,
                    },
                },
            },
            Op::Delta(index, k, part, t) => TurnEvent::Delta {
                index: *index,
                kind: [
                    DeltaKind::Text,
                    DeltaKind::Reasoning,
                    DeltaKind::Summary,
                    DeltaKind::Signature,
                    DeltaKind::Encrypted,
                    DeltaKind::Arguments,
                    DeltaKind::Refusal,
                ][usize::from(*k) % 7],
                part: *part,
                text: js(t),
            },
            Op::End(index) => TurnEvent::ItemEnd {
                index: *index,
                whole: None,
            },
            Op::Usage(a, b, c, d) => TurnEvent::Usage(TurnUsage {
                input: *a,
                output: *b,
                cached: *c,
                reasoning: *d,
            }),
            Op::Stop(r, raw) => TurnEvent::Stop(crate::turn::Stop {
                reason: [
                    StopReason::EndTurn,
                    StopReason::StopSequence,
                    StopReason::ToolUse,
                    StopReason::MaxTokens,
                    StopReason::ContextWindow,
                    StopReason::ContentFilter,
                    StopReason::Refusal,
                    StopReason::PauseTurn,
                    StopReason::Error,
                ][usize::from(*r) % 9],
                raw: o(raw),
            }),
            Op::Error(code, message) => TurnEvent::Error(crate::turn::UpstreamError {
                code: o(code),
                message: o(message),
            }),
            Op::KeepAlive => TurnEvent::KeepAlive,
            Op::Finish => TurnEvent::End,
        }
    }

    proptest! {
        /// Any sequence of events, in any order: no panic, the limits
        /// hold, and every rendering is JSON.
        #[test]
        fn any_events_keep_the_limits_and_render_json(
            ops in proptest::collection::vec(op(), 0..40),
            max_items in 0usize..5,
            max_bytes in 0usize..2000,
            source in 0usize..5,
        ) {
            let config = TurnAccumulatorConfig::DEFAULT
                .with_max_items(max_items)
                .with_max_bytes(max_bytes);
            let mut acc = TurnAccumulator::with_config(config);
            if let Some(d) = Dialect::ALL.get(source) {
                acc = acc.from_dialect(*d);
            }
            for op in &ops {
                let _ = acc.write(&event(op));
                prop_assert!(acc.used <= max_bytes);
                prop_assert!(acc.turn().items().len() <= max_items);
            }
            let _ = acc.outcome();
            for d in Dialect::ALL {
                let text = acc.turn().to_json(d);
                prop_assert!(!text.contains('\n'));
                let parsed = serde_json::from_str::<J>(&text);
                prop_assert!(parsed.is_ok(), "{:?}: {}", d, text);
            }
        }
    }
}
