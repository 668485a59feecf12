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

use super::{Combine, Dialect, StopReason, TurnUsage};

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

    /// Keeps `raw` under `key`, combined with what was kept as `how`
    /// says. Returns the bytes added (a replacement counts the new value
    /// whole, the old one returned by the second number), or `None` past
    /// [`MAX_EXTRAS`] distinct members.
    ///
    /// Work: O(size of `raw`) to append, push or join; a merge rewrites the
    /// kept object, O((m + n) log m) for its m members and `raw`'s n.
    pub(crate) fn put(
        &mut self,
        dialect: Dialect,
        key: &str,
        raw: &str,
        how: Combine,
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
            let mut value = String::new();
            combine(&mut value, raw, how);
            let added = key.len() + value.len();
            self.0.push((dialect, String::from(key), value));
            return Some((added, 0));
        };
        let old = &mut self.0[at].2;
        let before = old.len();
        if !combine(old, raw, how) {
            return Some((old.len(), before));
        }
        let after = old.len();
        Some((after.saturating_sub(before), before.saturating_sub(after)))
    }
}

/// The largest kept object a [`Combine::Merge`] merges into; a larger one
/// is replaced.
pub(crate) const MAX_MERGED: usize = 4096;

/// Combines `raw` into `kept` (empty: nothing kept) as `how` says;
/// `false` when it replaced what was kept.
fn combine(kept: &mut String, raw: &str, how: Combine) -> bool {
    let inner = |a: &str, open: char, close: char| -> Option<usize> {
        (a.len() >= 2 && a.starts_with(open) && a.ends_with(close))
            .then(|| a[1..a.len() - 1].trim().len())
    };
    let array = |a: &str| inner(a, '[', ']');
    match how {
        Combine::Append if !kept.is_empty() => {
            if let (Some(had), Some(added)) = (array(kept), array(raw)) {
                if added > 0 {
                    kept.pop();
                    if had > 0 {
                        kept.push(',');
                    }
                    kept.push_str(raw[1..raw.len() - 1].trim());
                    kept.push(']');
                }
                return true;
            }
        }
        Combine::Push => {
            match array(kept) {
                Some(had) => {
                    kept.pop();
                    if had > 0 {
                        kept.push(',');
                    }
                }
                None => {
                    kept.clear();
                    kept.push('[');
                }
            }
            kept.push_str(raw);
            kept.push(']');
            return true;
        }
        // A kept object past MAX_MERGED is replaced: each merge re-reads
        // what was kept, and the work of many must stay linear.
        Combine::Merge if kept.len() <= MAX_MERGED => {
            if let Some(merged) = merge_objects(kept, raw) {
                *kept = merged;
                return true;
            }
        }
        // Both string literals: the pieces' escaped text joined is the
        // joined text, escaped.
        Combine::Concat if inner(kept, '"', '"').is_some() && inner(raw, '"', '"').is_some() => {
            kept.pop();
            kept.push_str(&raw[1..]);
            return true;
        }
        _ => {}
    }
    kept.clear();
    kept.push_str(raw);
    false
}

/// `kept` (an object, or empty for none) with `raw`'s members merged in:
/// each non-null member replaces the kept one of the same (unescaped) name
/// in place, or follows the kept ones. `None` when either is not an object.
fn merge_objects(kept: &str, raw: &str) -> Option<String> {
    use crate::json::Value;
    let new = Value::parse(raw).ok()?.as_object()?;
    let old = match kept {
        "" => None,
        kept => Some(Value::parse(kept).ok()?.as_object()?),
    };
    // Key as written, value; and where each unescaped name is.
    let mut members: Vec<(&str, &str)> = Vec::new();
    let mut at: BTreeMap<alloc::borrow::Cow<'_, str>, usize> = BTreeMap::new();
    let all = old.iter().flat_map(|o| o.members()).chain(new.members());
    for (key, value) in all {
        if value.is_null() {
            continue;
        }
        let (k, v) = (key.as_raw_json().get(), value.as_raw_json().get());
        match at.get(&key.unescape()) {
            Some(&i) => members[i].1 = v,
            None => {
                at.insert(key.unescape(), members.len());
                members.push((k, v));
            }
        }
    }
    let mut out = String::from("{");
    for (i, (k, v)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(k);
        out.push(':');
        out.push_str(v);
    }
    out.push('}');
    Some(out)
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

    /// A tool call's function name (`None` for other items, or when the
    /// upstream never named the call).
    pub fn name(&self) -> Option<&str> {
        match &self.kind {
            FinalItemKind::ToolCall { name, .. } => name.as_deref(),
            _ => None,
        }
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
    // Runs without a line break copied whole: most JSON has none.
    let mut rest = json;
    while let Some(at) = memchr::memchr2(b'\n', b'\r', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        out.push(' ');
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
}

/// The JSON string kept as an extra, unescaped; `None` when absent or not
/// a string.
pub(crate) fn kept_str<'t>(kept: Option<&'t str>) -> Option<alloc::borrow::Cow<'t, str>> {
    match crate::json::RawJson::parse(kept?).ok()?.value() {
        crate::json::Value::String(s) => Some(s.unescape()),
        _ => None,
    }
}

#[cfg(test)]
mod extras_tests {
    use super::*;

    #[test]
    fn one_line_makes_each_line_break_a_space() {
        let mut out = String::from(">");
        push_one_line("{\r\n\"a\":\n1,\r\"b\":\"\\n\"}\n", &mut out);
        assert_eq!(out, ">{  \"a\": 1, \"b\":\"\\n\"} ");
        out.clear();
        push_one_line("[1,2]", &mut out);
        assert_eq!(out, "[1,2]");
    }

    #[test]
    fn replaces_appends_and_bounds() {
        let mut e = Extras::default();
        let d = Dialect::Chat;
        let (r, a) = (Combine::Replace, Combine::Append);
        assert_eq!(e.put(d, "tier", "\"a\"", r), Some((7, 0)));
        assert_eq!(e.put(d, "tier", " \"bb\" ", r), Some((4, 3)));
        assert_eq!(e.get(d, "tier"), Some("\"bb\""));
        assert_eq!(e.get(Dialect::Gemini, "tier"), None);
        // Arrays appended: empty ones add nothing, the first element takes no comma.
        assert_eq!(e.put(d, "lp", "[]", a), Some((4, 0)));
        assert_eq!(e.put(d, "lp", "[ 1 ]", a), Some((1, 0)));
        assert_eq!(e.put(d, "lp", "[]", a), Some((0, 0)));
        assert_eq!(e.put(d, "lp", "[2,3]", a), Some((4, 0)));
        assert_eq!(e.get(d, "lp"), Some("[1,2,3]"));
        let v: serde_json::Value = serde_json::from_str(e.get(d, "lp").unwrap()).unwrap();
        assert_eq!(v, serde_json::json!([1, 2, 3]));
        // Appending a non-array replaces.
        assert_eq!(e.put(d, "lp", "{}", a), Some((2, 7)));
        assert_eq!(e.of(d).count(), 2);
        for i in 2..MAX_EXTRAS {
            assert!(e.put(d, &alloc::format!("k{i}"), "1", r).is_some());
        }
        assert_eq!(e.put(d, "one-more", "1", r), None);
        assert!(
            e.put(d, "tier", "1", r).is_some(),
            "a kept key still replaces"
        );
    }

    #[test]
    fn pushes_elements() {
        let mut e = Extras::default();
        let d = Dialect::Anthropic;
        let p = Combine::Push;
        // Nothing kept: a one-element array.
        assert_eq!(e.put(d, "c", r#"{"a":1}"#, p), Some((1 + 9, 0)));
        assert_eq!(e.put(d, "c", r#" {"b":2} "#, p), Some((8, 0)));
        // After an array given whole, empty or not.
        assert_eq!(e.put(d, "e", "[]", Combine::Append), Some((3, 0)));
        assert_eq!(e.put(d, "e", "3", p), Some((1, 0)));
        assert_eq!(e.put(d, "e", "[4]", p), Some((4, 0)));
        // A value that is not an array gives way to one.
        assert_eq!(e.put(d, "x", "true", Combine::Replace), Some((5, 0)));
        assert_eq!(e.put(d, "x", "1", p), Some((0, 1)));
        let get = |k| serde_json::from_str::<serde_json::Value>(e.get(d, k).unwrap()).unwrap();
        assert_eq!(get("c"), serde_json::json!([{"a": 1}, {"b": 2}]));
        assert_eq!(get("e"), serde_json::json!([3, [4]]));
        assert_eq!(get("x"), serde_json::json!([1]));
    }

    #[test]
    fn a_large_kept_object_is_replaced_not_merged() {
        let mut e = Extras::default();
        let d = Dialect::Anthropic;
        let big = alloc::format!(r#"{{"a":"{}"}}"#, "x".repeat(MAX_MERGED));
        e.put(d, "u", &big, Combine::Merge);
        e.put(d, "u", r#"{"b":1}"#, Combine::Merge);
        assert_eq!(e.get(d, "u"), Some(r#"{"b":1}"#));
        // Under the bound, merged.
        e.put(d, "u", r#"{"c":2}"#, Combine::Merge);
        assert_eq!(e.get(d, "u"), Some(r#"{"b":1,"c":2}"#));
    }

    #[test]
    fn merges_objects_member_by_member() {
        let mut e = Extras::default();
        let d = Dialect::Anthropic;
        let m = Combine::Merge;
        // The first object: nulls left out, written compact, keys as written.
        e.put(
            d,
            "u",
            r#"{ "in": 5, "out": 1, "tier": null, "c\u0061che": {"x": 0} }"#,
            m,
        );
        assert_eq!(
            e.get(d, "u"),
            Some(r#"{"in":5,"out":1,"c\u0061che":{"x": 0}}"#)
        );
        // Replaced in place (names compared unescaped), null leaves, new after.
        let (added, freed) = e
            .put(
                d,
                "u",
                r#"{"out":20,"in":null,"cache":{"x":1},"geo":"eu"}"#,
                m,
            )
            .unwrap();
        let want = r#"{"in":5,"out":20,"c\u0061che":{"x":1},"geo":"eu"}"#;
        assert_eq!(e.get(d, "u"), Some(want));
        let before = r#"{"in":5,"out":1,"c\u0061che":{"x": 0}}"#.len();
        assert_eq!((added, freed), (want.len() - before, 0));
        let v: serde_json::Value = serde_json::from_str(want).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"in": 5, "out": 20, "cache": {"x": 1}, "geo": "eu"})
        );
        // Shorter after: the bytes freed.
        e.put(d, "s", r#"{"a":100}"#, m);
        assert_eq!(e.put(d, "s", r#"{"a":1}"#, m), Some((0, 2)));
        // Not an object: it replaces.
        assert_eq!(e.put(d, "s", "[1]", m), Some((3, 7)));
        assert_eq!(e.get(d, "s"), Some("[1]"));
    }

    #[test]
    fn joins_strings() {
        let mut e = Extras::default();
        let d = Dialect::Anthropic;
        let c = Combine::Concat;
        assert_eq!(e.put(d, "t", r#""a\n""#, c), Some((1 + 5, 0)));
        assert_eq!(e.put(d, "t", r#""\"b""#, c), Some((3, 0)));
        assert_eq!(e.put(d, "t", r#""""#, c), Some((0, 0)));
        let v: serde_json::Value = serde_json::from_str(e.get(d, "t").unwrap()).unwrap();
        assert_eq!(v, serde_json::json!("a\n\"b"));
        // Not a string: it replaces.
        assert_eq!(e.put(d, "t", "7", c), Some((1, 8)));
    }
}
