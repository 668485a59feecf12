//! The state of one output item while it streams, and its final JSON.

use alloc::collections::btree_map::{BTreeMap, Entry};
use alloc::string::String;
use alloc::vec::Vec;

use super::super::JsonValue;
use crate::json::partial::PartialJson;
use crate::json::{JsonError, JsonStr};

/// A text built from deltas and, finally, from a `*.done` event.
#[derive(Debug, Clone, Default)]
pub(super) struct Text {
    /// The text so far.
    pub(super) buf: String,
    /// Whether a delta or a `*.done` event has set it.
    pub(super) seen: bool,
    /// Whether a `*.done` event has set it (later deltas are ignored).
    pub(super) done: bool,
}

impl Text {
    /// Appends a delta; `false` when the text is already done (the delta is
    /// not applied).
    pub(super) fn push(&mut self, delta: &JsonStr<'_>) -> bool {
        if self.done {
            return false;
        }
        self.seen = true;
        delta.unescape_into(&mut self.buf);
        true
    }

    /// Sets the final text; `false` when it differs from the text built so
    /// far (which had deltas or an earlier `*.done`).
    pub(super) fn finish(&mut self, text: &JsonStr<'_>) -> bool {
        let agrees = !self.seen || *text == self.buf.as_str();
        if !agrees || !self.seen {
            self.buf.clear();
            text.unescape_into(&mut self.buf);
        }
        self.seen = true;
        self.done = true;
        agrees
    }
}

/// A content part, summary part or shell command, by its index.
#[derive(Debug, Clone, Default)]
pub(super) struct Part {
    /// `content_index`, `summary_index` or `command_index`.
    pub(super) index: u64,
    /// The part's type (`output_text`, `refusal`, `reasoning_text`,
    /// `summary_text`), from its events.
    pub(super) ty: Option<&'static str>,
    /// The part object of the latest `*_part.added` / `.done` event.
    pub(super) base: Option<JsonValue>,
    /// The text (of an `output_text`, `reasoning_text` or `summary_text`
    /// part) or refusal.
    pub(super) text: Text,
    /// Annotations by `annotation_index`.
    pub(super) annotations: BTreeMap<u64, JsonValue>,
    /// The elements of the deltas' `logprobs` arrays, comma-separated JSON.
    pub(super) logprobs: String,
    /// Whether any delta carried `logprobs`.
    pub(super) has_logprobs: bool,
    /// The `logprobs` of `output_text.done`, when it carried them.
    pub(super) done_logprobs: Option<JsonValue>,
}

/// Parts by their index: a map, so that no order of indexes makes an
/// insert shift the others (work stays linear in the events, whatever
/// order an upstream sends them in).
pub(super) type Parts = BTreeMap<u64, Part>;

/// Finds the part with `index`, inserting it (when fewer than `max` are
/// held) if absent. `None` when the list is full. O(log n).
pub(super) fn part_mut(parts: &mut Parts, index: u64, max: usize) -> Option<&mut Part> {
    let full = parts.len() >= max;
    match parts.entry(index) {
        Entry::Occupied(e) => Some(e.into_mut()),
        Entry::Vacant(_) if full => None,
        Entry::Vacant(e) => Some(e.insert(Part {
            index,
            ..Part::default()
        })),
    }
}

/// Sets `map[key]`, unless the map is full (`max` keys) and `key` is new:
/// then `false`. O(log n).
pub(super) fn set_capped<T>(map: &mut BTreeMap<u64, T>, key: u64, value: T, max: usize) -> bool {
    let full = map.len() >= max;
    match map.entry(key) {
        Entry::Occupied(mut e) => {
            e.insert(value);
            true
        }
        Entry::Vacant(_) if full => false,
        Entry::Vacant(e) => {
            e.insert(value);
            true
        }
    }
}

/// One output item, keyed by `output_index`.
#[derive(Debug, Clone, Default)]
pub(super) struct ItemState {
    pub(super) output_index: u64,
    /// The item's `id` (from the item, else from the first event's `item_id`).
    pub(super) id: Option<String>,
    /// The item's `type` (from the item, else implied by its events).
    pub(super) ty: Option<String>,
    /// The latest status: from the item, or from progress events until the
    /// item is done.
    pub(super) status: Option<String>,
    /// The item object of the latest `output_item.added` / `.done` (or of
    /// the terminal response's `output`, for an item not streamed).
    pub(super) base: Option<JsonValue>,
    /// The length of the JSON text `base` was read from.
    pub(super) base_len: usize,
    /// `output_item.added` seen.
    pub(super) added: bool,
    /// `output_item.done` seen.
    pub(super) done: bool,
    /// Message content parts, or a reasoning item's `content`.
    pub(super) content: Parts,
    /// A reasoning item's `summary` parts.
    pub(super) summary: Parts,
    /// The streamed input of a call: function or MCP `arguments`, custom
    /// tool `input`, code interpreter `code`, apply_patch `diff`.
    pub(super) input: Text,
    /// `name` of `function_call_arguments.done`.
    pub(super) name: Option<String>,
    /// Shell commands by `command_index`.
    pub(super) commands: Parts,
    /// Partial images of an image generation call, by
    /// `partial_image_index`: the base64 text.
    pub(super) partial_images: BTreeMap<u64, String>,
    /// The live repair of `input` (function, custom tool and MCP calls).
    pub(super) partial: Option<PartialJson>,
    /// The first error of `partial`.
    pub(super) partial_error: Option<JsonError>,
}

/// Which member of an item the streamed `input` is.
pub(super) fn input_key(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "function_call" | "mcp_call" => "arguments",
        "custom_tool_call" => "input",
        "code_interpreter_call" => "code",
        "apply_patch_call" => "diff",
        _ => return None,
    })
}

impl ItemState {
    /// Resets the live repair of `input` to its current text.
    pub(super) fn repair_input(&mut self) {
        if let Some(p) = self.partial.as_mut() {
            p.reset();
            self.partial_error = p.feed(&self.input.buf).err();
        }
    }

    /// The item in the API's shape: the latest item object from the stream,
    /// with every member the accumulator built from events set from them.
    pub(super) fn to_json(&self) -> JsonValue {
        self.clone().into_json()
    }

    /// [`to_json`](Self::to_json), moving the texts instead of copying them.
    pub(super) fn into_json(mut self) -> JsonValue {
        let fresh = self.base.is_none();
        let mut obj = match self.base.take() {
            Some(b @ JsonValue::Object(_)) => b,
            _ => JsonValue::object(),
        };
        if let Some(ty) = &self.ty {
            obj.set("type", ty.as_str().into());
        }
        if let Some(id) = self.id.take() {
            obj.set("id", id.into());
        }
        if let Some(status) = self.status.take() {
            if fresh || obj.has("status") {
                obj.set("status", status.into());
            }
        }
        let ty = self.ty.as_deref().unwrap_or("");
        match ty {
            "message" if !self.content.is_empty() || !obj.has("content") => {
                let base = take(&mut obj, "content");
                let content = merge_parts(base, self.content, message_part);
                obj.set("content", content);
            }
            "reasoning" => {
                if !self.summary.is_empty() || !obj.has("summary") {
                    let base = take(&mut obj, "summary");
                    let summary =
                        merge_parts(base, self.summary, |p, b| text_part(p, b, "summary_text"));
                    obj.set("summary", summary);
                }
                if !self.content.is_empty() {
                    let base = take(&mut obj, "content");
                    let content =
                        merge_parts(base, self.content, |p, b| text_part(p, b, "reasoning_text"));
                    obj.set("content", content);
                }
            }
            "shell_call" if !self.commands.is_empty() => {
                let mut action = take(&mut obj, "action").unwrap_or_else(JsonValue::object);
                let base = take(&mut action, "commands");
                let commands = merge_parts(base, self.commands, |p, _| JsonValue::from(p.text.buf));
                action.set("commands", commands);
                obj.set("action", action);
            }
            _ => {}
        }
        if let (Some(key), true) = (input_key(ty), self.input.seen) {
            let text = JsonValue::from(core::mem::take(&mut self.input.buf));
            if key == "diff" {
                let mut op = take(&mut obj, "operation").unwrap_or_else(JsonValue::object);
                op.set("diff", text);
                obj.set("operation", op);
            } else {
                obj.set(key, text);
            }
        }
        if ty == "function_call" && !obj.has("name") {
            if let Some(name) = self.name.take() {
                obj.set("name", name.into());
            }
        }
        obj
    }
}

/// Takes the member `key` out of an object, leaving `null` in its place
/// (so that setting it again keeps the member's position).
fn take(obj: &mut JsonValue, key: &str) -> Option<JsonValue> {
    obj.get_mut(key)
        .map(core::mem::take)
        .filter(|v| !v.is_null())
}

/// The parts of an array: the base array's elements by position, each part
/// built from events laid over the element at its index (or appended, in
/// index order, past the end).
fn merge_parts(
    base: Option<JsonValue>,
    parts: Parts,
    build: impl Fn(Part, Option<JsonValue>) -> JsonValue,
) -> JsonValue {
    let mut out: Vec<JsonValue> = match base {
        Some(JsonValue::Array(a)) => a,
        _ => Vec::new(),
    };
    for p in parts.into_values() {
        match usize::try_from(p.index).ok().filter(|&i| i < out.len()) {
            Some(i) => {
                let old = core::mem::take(&mut out[i]);
                out[i] = build(p, Some(old));
            }
            None => out.push(build(p, None)),
        }
    }
    JsonValue::Array(out)
}

/// The base object of a part: its own event's part, else the element of the
/// item's array, else an empty object.
fn part_base(p: &mut Part, in_item: Option<JsonValue>) -> JsonValue {
    match (p.base.take(), in_item) {
        (Some(b @ JsonValue::Object(_)), _) => b,
        (_, Some(b @ JsonValue::Object(_))) => b,
        _ => JsonValue::object(),
    }
}

/// A reasoning `summary_text` or `reasoning_text` part.
fn text_part(mut p: Part, in_item: Option<JsonValue>, default_ty: &'static str) -> JsonValue {
    let mut obj = part_base(&mut p, in_item);
    if !obj.has("type") {
        obj.set("type", p.ty.unwrap_or(default_ty).into());
    }
    if p.text.seen || !obj.has("text") {
        obj.set("text", p.text.buf.into());
    }
    obj
}

/// A message part: `output_text` (text, annotations, logprobs) or
/// `refusal`.
fn message_part(mut p: Part, in_item: Option<JsonValue>) -> JsonValue {
    let mut obj = part_base(&mut p, in_item);
    let ty = match (p.ty, obj.get("type").and_then(JsonValue::as_str)) {
        (Some(t), _) => t,
        (None, Some("refusal")) => "refusal",
        _ => "output_text",
    };
    obj.set("type", ty.into());
    if ty == "refusal" {
        if p.text.seen || !obj.has("refusal") {
            obj.set("refusal", p.text.buf.into());
        }
        return obj;
    }
    if p.text.seen || !obj.has("text") {
        obj.set("text", p.text.buf.into());
    }
    if !p.annotations.is_empty() {
        let list = p.annotations.into_values().collect();
        obj.set("annotations", JsonValue::Array(list));
    } else if !obj.has("annotations") {
        obj.set("annotations", JsonValue::Array(Vec::new()));
    }
    if let (Some(done), false) = (p.done_logprobs, p.has_logprobs) {
        obj.set("logprobs", done);
    } else if p.has_logprobs {
        let mut text = String::with_capacity(p.logprobs.len() + 2);
        text.push('[');
        text.push_str(&p.logprobs);
        text.push(']');
        // Each element was validated when its event was decoded.
        if let Ok(v) = JsonValue::parse(&text) {
            obj.set("logprobs", v);
        }
    }
    obj
}
