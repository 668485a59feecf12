//! [`FinalTurn`]: a finished turn, owned, in the model's terms; and its
//! rendering as any dialect's non-streaming answer.
//!
//! The accumulator ([`TurnAccumulator`](crate::accumulate::TurnAccumulator))
//! builds it from [`TurnEvent`](super::TurnEvent)s; each dialect's writer
//! module renders it in that dialect's shape (`render` beside the writer, so
//! that a dialect's field names and stop reasons have one home).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Dialect, StopReason, TurnUsage};

/// What a [`FinalItem`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FinalItemKind {
    /// Assistant text.
    Message,
    /// Reasoning, with its summaries, signature or encrypted content.
    Reasoning,
    /// A client-side tool (function) call.
    ToolCall {
        /// The call id, when the upstream gave one.
        call_id: Option<String>,
        /// The function's name.
        name: Option<String>,
    },
    /// A refusal.
    Refusal,
    /// An item only the upstream's dialect has (a hosted tool call, a
    /// server tool result): its type, and its JSON when the reader gave it.
    /// Rendered, as given, in its own dialect's shape only.
    Other {
        /// The dialect whose item it is.
        dialect: Dialect,
        /// The item's or block's `type`.
        ty: String,
        /// Its JSON, as the upstream wrote it.
        raw: Option<String>,
    },
}

/// The [`Extra`](super::Extra) members kept for the turn or for one item:
/// the last value of each `(dialect, key)`, arrays appended to when asked.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Extras(Vec<(Dialect, String, String)>);

/// The distinct members kept for the turn, or for one item.
pub(crate) const MAX_EXTRAS: usize = 64;

impl Extras {
    /// The JSON kept under `key` for `dialect`.
    pub(crate) fn get(&self, dialect: Dialect, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(d, k, _)| *d == dialect && k == key)
            .map(|(_, _, v)| v.as_str())
    }

    /// Every member kept for `dialect`, in the order they first came.
    pub(crate) fn of(&self, dialect: Dialect) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.0
            .iter()
            .filter(move |(d, _, _)| *d == dialect)
            .map(|(_, k, v)| (k.as_str(), v.as_str()))
    }

    /// Keeps `raw` under `key`: replacing, or (`append`, both arrays)
    /// appending its elements. Returns the bytes added (a replacement
    /// counts the new value whole, the old one returned by the second
    /// number), or `None` past [`MAX_EXTRAS`] distinct members.
    pub(crate) fn put(
        &mut self,
        dialect: Dialect,
        key: &str,
        raw: &str,
        append: bool,
    ) -> Option<(usize, usize)> {
        let raw = raw.trim();
        let at = self
            .0
            .iter()
            .position(|(d, k, _)| *d == dialect && k == key);
        let Some(at) = at else {
            if self.0.len() >= MAX_EXTRAS {
                return None;
            }
            self.0.push((dialect, String::from(key), String::from(raw)));
            return Some((key.len() + raw.len(), 0));
        };
        let old = &mut self.0[at].2;
        let inner = |a: &str| -> Option<usize> {
            (a.len() >= 2 && a.starts_with('[') && a.ends_with(']'))
                .then(|| a[1..a.len() - 1].trim().len())
        };
        match (append, inner(old), inner(raw)) {
            (true, Some(kept), Some(added)) => {
                let before = old.len();
                if added > 0 {
                    old.pop();
                    if kept > 0 {
                        old.push(',');
                    }
                    old.push_str(raw[1..raw.len() - 1].trim());
                    old.push(']');
                }
                Some((old.len() - before, 0))
            }
            _ => {
                let freed = old.len();
                old.clear();
                old.push_str(raw);
                Some((raw.len(), freed))
            }
        }
    }
}

/// One item of a finished turn: what its fragments spelled, by kind and
/// part (all text unescaped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalItem {
    pub(crate) kind: FinalItemKind,
    pub(crate) text: BTreeMap<u32, String>,
    pub(crate) reasoning: BTreeMap<u32, String>,
    pub(crate) summary: BTreeMap<u32, String>,
    pub(crate) refusal: String,
    pub(crate) arguments: String,
    pub(crate) signature: String,
    pub(crate) encrypted: String,
    pub(crate) extras: Extras,
    pub(crate) done: bool,
}

impl FinalItem {
    pub(crate) fn new(kind: FinalItemKind) -> Self {
        Self {
            kind,
            text: BTreeMap::new(),
            reasoning: BTreeMap::new(),
            summary: BTreeMap::new(),
            refusal: String::new(),
            arguments: String::new(),
            signature: String::new(),
            encrypted: String::new(),
            extras: Extras::default(),
            done: false,
        }
    }

    /// What the item is.
    pub fn kind(&self) -> &FinalItemKind {
        &self.kind
    }

    /// Its answer text, by part (the Responses content index; 0 elsewhere).
    pub fn text_parts(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        self.text.iter().map(|(k, v)| (*k, v.as_str()))
    }

    /// Its reasoning text, by part.
    pub fn reasoning_parts(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        self.reasoning.iter().map(|(k, v)| (*k, v.as_str()))
    }

    /// Its reasoning summaries, by summary index.
    pub fn summary_parts(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        self.summary.iter().map(|(k, v)| (*k, v.as_str()))
    }

    /// Its answer text, every part joined.
    pub fn text(&self) -> String {
        self.text.values().map(String::as_str).collect()
    }

    /// Its refusal text.
    pub fn refusal(&self) -> &str {
        &self.refusal
    }

    /// A tool call's arguments (JSON text as the upstream spelled it).
    pub fn arguments(&self) -> &str {
        &self.arguments
    }

    /// A reasoning signature (Anthropic `signature`, Gemini
    /// `thoughtSignature`), empty when none came.
    pub fn signature(&self) -> &str {
        &self.signature
    }

    /// Encrypted reasoning (Anthropic `redacted_thinking` data, Responses
    /// `encrypted_content`), empty when none came.
    pub fn encrypted(&self) -> &str {
        &self.encrypted
    }

    /// The JSON of the item's [`Extra`](super::Extra) member `key` of
    /// `dialect` (the last given, or its arrays joined).
    pub fn extra(&self, dialect: Dialect, key: &str) -> Option<&str> {
        self.extras.get(dialect, key)
    }

    /// Every [`Extra`](super::Extra) member of the item kept for `dialect`:
    /// name and JSON, in the order they first came.
    pub fn extras(&self, dialect: Dialect) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.extras.of(dialect)
    }

    /// Whether the item ended.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The reasoning as one text: summaries, then reasoning text (a turn
    /// read from one dialect has one or the other).
    pub(crate) fn thinking(&self) -> String {
        let mut s = String::new();
        for t in self.summary.values().chain(self.reasoning.values()) {
            s.push_str(t);
        }
        s
    }
}

/// How a finished turn ended, for the renderings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// Ended as its dialect ends a complete answer.
    Completed,
    /// Ended early by a limit of the model: max tokens, the context
    /// window, a content filter, a refusal.
    Incomplete,
    /// The upstream reported an error.
    Failed,
    /// Cut: no end, or an accumulator limit dropped data.
    Cut,
}

/// A finished turn: start, items in the order they opened, usage, stop,
/// error and how it ended. Built by
/// [`TurnAccumulator`](crate::accumulate::TurnAccumulator); rendered in any
/// dialect's non-streaming shape by [`write_json`](Self::write_json).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FinalTurn {
    pub(crate) source: Option<Dialect>,
    pub(crate) id: Option<String>,
    pub(crate) model: Option<String>,
    pub(crate) created: Option<u64>,
    pub(crate) items: Vec<FinalItem>,
    pub(crate) usage: TurnUsage,
    pub(crate) stop: Option<(StopReason, Option<String>)>,
    pub(crate) error: Option<(Option<String>, Option<String>)>,
    /// The upstream's end came.
    pub(crate) ended: bool,
    /// A limit dropped data, or the reader said the stream was cut.
    pub(crate) cut: bool,
    pub(crate) extras: Extras,
}

impl FinalTurn {
    /// The dialect the turn was read from, when the accumulator was told.
    pub fn source(&self) -> Option<Dialect> {
        self.source
    }

    /// The upstream's id.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The model.
    pub fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }

    /// The creation time, Unix seconds.
    pub fn created(&self) -> Option<u64> {
        self.created
    }

    /// The items, in the order they opened.
    pub fn items(&self) -> &[FinalItem] {
        &self.items
    }

    /// The token counts (the last given of each).
    pub fn usage(&self) -> TurnUsage {
        self.usage
    }

    /// Why the turn stopped, when it said.
    pub fn stop_reason(&self) -> Option<StopReason> {
        self.stop.as_ref().map(|s| s.0)
    }

    /// The upstream's own string for the stop reason.
    pub fn stop_raw(&self) -> Option<&str> {
        self.stop.as_ref().and_then(|s| s.1.as_deref())
    }

    /// The upstream's error: its code and message, when it reported one.
    pub fn error(&self) -> Option<(Option<&str>, Option<&str>)> {
        self.error
            .as_ref()
            .map(|(c, m)| (c.as_deref(), m.as_deref()))
    }

    /// Whether the upstream's end came.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// The JSON of the turn's [`Extra`](super::Extra) member `key` of
    /// `dialect` (the last given, or its arrays joined).
    pub fn extra(&self, dialect: Dialect, key: &str) -> Option<&str> {
        self.extras.get(dialect, key)
    }

    /// Every [`Extra`](super::Extra) member of the turn kept for
    /// `dialect`: name and JSON, in the order they first came.
    pub fn extras(&self, dialect: Dialect) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.extras.of(dialect)
    }

    pub(crate) fn ending(&self) -> Ending {
        if self.error.is_some() || self.stop_reason() == Some(StopReason::Error) {
            return Ending::Failed;
        }
        if self.cut || !self.ended {
            return Ending::Cut;
        }
        match self.stop_reason() {
            Some(
                StopReason::MaxTokens
                | StopReason::ContextWindow
                | StopReason::ContentFilter
                | StopReason::Refusal,
            ) => Ending::Incomplete,
            _ => Ending::Completed,
        }
    }

    /// The upstream's stop string, when the turn was read from `dialect`
    /// (a round trip keeps it exactly).
    pub(crate) fn own_stop(&self, dialect: Dialect) -> Option<&str> {
        if self.source == Some(dialect) {
            self.stop_raw()
        } else {
            None
        }
    }

    /// Writes the turn as `dialect`'s non-streaming answer, one compact JSON
    /// object: a Responses `response`, a Chat `chat.completion`, an
    /// Anthropic `message`, a Gemini `GenerateContentResponse`. What each
    /// writes, and what a dialect cannot say, is documented on its writer
    /// ([`ResponsesTurnWriter`](super::ResponsesTurnWriter),
    /// [`ChatWriter`](super::ChatWriter),
    /// [`AnthropicWriter`](super::AnthropicWriter),
    /// [`GeminiWriter`](super::GeminiWriter)).
    ///
    /// O(size of the turn).
    pub fn write_json(&self, dialect: Dialect, out: &mut String) {
        match dialect {
            Dialect::Responses => super::write_responses::render(self, out),
            Dialect::Chat => super::write_chat::render(self, out),
            Dialect::Anthropic => super::write_anthropic::render(self, out),
            Dialect::Gemini => super::write_gemini::render(self, out),
        }
    }

    /// [`write_json`](Self::write_json) into a new `String`.
    pub fn to_json(&self, dialect: Dialect) -> String {
        let mut out = String::new();
        self.write_json(dialect, &mut out);
        out
    }
}

/// Writes several finished turns as one `dialect` answer, in the order
/// given: the candidates of a Gemini `GenerateContentResponse` (each read
/// by a [`GeminiReader`](super::GeminiReader) per
/// [`candidate`](super::GeminiReader::candidate)), or the choices of a
/// Chat `chat.completion` read from Chat (a
/// [`ChatReader`](super::ChatReader) per
/// [`choice`](super::ChatReader::choice)); the answer's own members come
/// from the first. The other answers are written from the first turn
/// alone, as [`FinalTurn::write_json`] writes it; no turns write `{}`.
pub fn write_choices_json(dialect: Dialect, turns: &[&FinalTurn], out: &mut String) {
    match (dialect, turns.first()) {
        (Dialect::Gemini, _) => super::write_gemini::render_candidates(turns, out),
        (Dialect::Chat, _) => super::write_chat::render_choices(turns, out),
        (_, Some(first)) => first.write_json(dialect, out),
        (_, None) => out.push_str("{}"),
    }
}

/// Writes `args` (JSON text) as a JSON value on one line: line breaks
/// outside strings (where JSON allows them only as whitespace) become
/// spaces; `None` when it is not a JSON object (empty text is `{}`).
pub(crate) fn object_args(args: &str, out: &mut String) -> bool {
    let args = args.trim();
    let args = if args.is_empty() { "{}" } else { args };
    if crate::json::ObjectView::parse(args).is_err() {
        return false;
    }
    push_one_line(args, out);
    true
}

/// Appends validated JSON text with its line breaks (whitespace) made
/// spaces.
pub(crate) fn push_one_line(json: &str, out: &mut String) {
    out.reserve(json.len());
    for c in json.chars() {
        out.push(if c == '\n' || c == '\r' { ' ' } else { c });
    }
}

#[cfg(test)]
mod extras_tests {
    use super::*;

    #[test]
    fn replaces_appends_and_bounds() {
        let mut e = Extras::default();
        let d = Dialect::Chat;
        assert_eq!(e.put(d, "tier", "\"a\"", false), Some((7, 0)));
        assert_eq!(e.put(d, "tier", " \"bb\" ", false), Some((4, 3)));
        assert_eq!(e.get(d, "tier"), Some("\"bb\""));
        assert_eq!(e.get(Dialect::Gemini, "tier"), None);
        // Arrays appended: empty ones add nothing, the first element takes no comma.
        assert_eq!(e.put(d, "lp", "[]", true), Some((4, 0)));
        assert_eq!(e.put(d, "lp", "[ 1 ]", true), Some((1, 0)));
        assert_eq!(e.put(d, "lp", "[]", true), Some((0, 0)));
        assert_eq!(e.put(d, "lp", "[2,3]", true), Some((4, 0)));
        assert_eq!(e.get(d, "lp"), Some("[1,2,3]"));
        let v: serde_json::Value = serde_json::from_str(e.get(d, "lp").unwrap()).unwrap();
        assert_eq!(v, serde_json::json!([1, 2, 3]));
        // Appending a non-array replaces.
        assert_eq!(e.put(d, "lp", "{}", true), Some((2, 7)));
        assert_eq!(e.of(d).count(), 2);
        for i in 2..MAX_EXTRAS {
            assert!(e.put(d, &alloc::format!("k{i}"), "1", false).is_some());
        }
        assert_eq!(e.put(d, "one-more", "1", false), None);
        assert!(
            e.put(d, "tier", "1", false).is_some(),
            "a kept key still replaces"
        );
    }
}
