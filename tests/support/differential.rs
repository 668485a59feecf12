//! The differential check of issue 11: each dialect's typed view against
//! `serde_json::Value` on the same event data. One copy, included by the
//! `differential` fuzz target (`fuzz/fuzz_targets/differential.rs`) and by
//! `tests/differential.rs` with `#[path = ...] mod differential;`.
//!
//! The rules, each in its own function below:
//!
//! 1. [`never_accept_what_serde_rejects`]: if `serde_json` rejects the data
//!    (a number out of `f64` range, a lone surrogate, bad syntax), the view
//!    rejects it too. Only the `[DONE]` sentinel is exempt.
//! 2. [`known_type_agrees`]: a view that decodes a known event type agrees
//!    with `serde_json`'s `type` (the last duplicate member wins there). A
//!    type taken from the SSE event name is fine when the data has none.
//! 3. [`unknown_type_is_unknown`]: a view that says `Unknown` does so only
//!    for a type that no variant models, and reports that type.
//! 4. [`chat_kind_agrees`]: a Chat frame is an error chunk exactly when
//!    `serde_json`'s `error` member is non-null.
//! 5. [`fields_agree`], recursively through nested views and arrays: every
//!    `type`, id, index and delta text the view exposes equals `serde_json`'s
//!    value for that key, and every one it models but leaves absent is absent
//!    or `null` there.
//! 6. [`nested_kind_agrees`]: a nested tagged object (Anthropic `delta`,
//!    `content_block`; Responses `item`, `part`, ...) that the view decodes
//!    as `Other` does not have a `type` its enum models.
//!
//! 7. [`errors_only_for_what_is_not_an_object`]: a decode error means
//!    `serde_json` rejects the data or reads something other than an object
//!    (the crate's rule: valid JSON is never an error).
//! 8. [`unfit_is_an_object`]: an object that does not fit (a required field
//!    missing, a field of the wrong kind) decodes to `Unknown` with its
//!    error, and reports `serde_json`'s `type` (or none).
//!
//! 9. [`owned_gives_back`]: an owned form made from a decoded event
//!    (`to_owned`, or `from_frame` of the frame) gives that event back.
//!
//! A list element or lazy payload that does not fit is an error of that
//! element when read: the rules compare the rest.
#![allow(dead_code)]

use serde_json::{Map, Value as J};
use ssekit::anthropic::{AnthropicEvent, BlockDelta, Citation, ContentBlock, OwnedAnthropicEvent};
use ssekit::chat::{ChatEvent, OwnedChatEvent};
use ssekit::json::JsonStr;
use ssekit::responses::{
    Annotation, ContentPart, DecodeError, FieldValue, Fields, OutputItem, OwnedResponsesEvent,
    ResponsesEvent,
};
use ssekit::Frame;

/// A disagreement between a view and `serde_json`, described for a human.
pub(crate) type Verdict = Result<(), String>;

/// The dialect whose view decodes the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// OpenAI Responses: `ResponsesEvent`.
    Responses,
    /// Chat Completions: `ChatEvent`.
    Chat,
    /// Anthropic Messages: `AnthropicEvent`.
    Anthropic,
}

impl Dialect {
    /// Every dialect.
    pub(crate) const ALL: [Dialect; 3] = [Dialect::Responses, Dialect::Chat, Dialect::Anthropic];

    /// The dialect a fuzz input's selector byte picks.
    pub(crate) fn from_byte(b: u8) -> Self {
        Self::ALL[usize::from(b) % Self::ALL.len()]
    }

    /// The selector byte of this dialect.
    pub(crate) fn byte(self) -> u8 {
        match self {
            Dialect::Responses => 0,
            Dialect::Chat => 1,
            Dialect::Anthropic => 2,
        }
    }

    /// The event types with their own variant (Chat has no `type`).
    fn event_types(self) -> &'static [&'static str] {
        match self {
            Dialect::Responses => ResponsesEvent::TYPES,
            Dialect::Chat => &[],
            Dialect::Anthropic => AnthropicEvent::TYPES,
        }
    }

    /// The types the tagged enum behind the field `key` models, for the
    /// nested objects of this dialect that are tagged by their `type`.
    fn nested_types(self, key: &str) -> Option<&'static [&'static str]> {
        match (self, key) {
            (Dialect::Responses, "item" | "output") => Some(OutputItem::TYPES),
            (Dialect::Responses, "part" | "content" | "summary") => Some(ContentPart::TYPES),
            (Dialect::Responses, "annotation" | "annotations") => Some(Annotation::TYPES),
            (Dialect::Anthropic, "content_block" | "content") => Some(ContentBlock::TYPES),
            (Dialect::Anthropic, "delta") => Some(BlockDelta::TYPES),
            (Dialect::Anthropic, "citation" | "citations") => Some(Citation::TYPES),
            _ => None,
        }
    }
}

/// The dialect of a corpus stream, by its file name (`*-chat-*`,
/// `*-anthropic-*`, `*-responses-*`); `None` for the others.
pub(crate) fn dialect_of_stream(name: &str) -> Option<Dialect> {
    if name.contains("-chat-") {
        Some(Dialect::Chat)
    } else if name.contains("-anthropic-") {
        Some(Dialect::Anthropic)
    } else if name.contains("-responses-") {
        Some(Dialect::Responses)
    } else {
        None
    }
}

/// A fuzz input: the dialect byte; the SSE event name and a line feed (an
/// empty line for none: event names never hold a line feed); the data.
pub(crate) fn encode_input(dialect: Dialect, event: Option<&str>, data: &str) -> Vec<u8> {
    let mut input = vec![dialect.byte()];
    input.extend_from_slice(event.unwrap_or("").as_bytes());
    input.push(b'\n');
    input.extend_from_slice(data.as_bytes());
    input
}

/// Decodes a fuzz input (see [`encode_input`]; without a line feed, all of
/// it after the dialect byte is data); `None` when it is empty. Bytes that
/// are not UTF-8 become U+FFFD.
pub(crate) fn decode_input(input: &[u8]) -> Option<(Dialect, Option<String>, String)> {
    let (dialect, rest) = input.split_first()?;
    let (event, data) = match rest.iter().position(|&b| b == b'\n') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (&[][..], rest),
    };
    let event = (!event.is_empty()).then(|| String::from_utf8_lossy(event).into_owned());
    let data = String::from_utf8_lossy(data).into_owned();
    Some((Dialect::from_byte(*dialect), event, data))
}

/// Runs every decode path of `dialect` on `data` (with the SSE event name
/// `event`, if any) and applies the rules to each; the first disagreement,
/// described with the input.
pub(crate) fn check(dialect: Dialect, event: Option<&str>, data: &str) -> Verdict {
    let json = serde_json::from_str::<J>(data).map_err(|e| e.to_string());
    let mut frame = Frame::new(data);
    if let Some(name) = event {
        frame = frame.with_event(name);
    }
    let result = match dialect {
        Dialect::Responses => {
            let named = event.filter(|n| ResponsesEvent::TYPES.contains(n));
            check_responses("parse", ResponsesEvent::parse(data), None, data, &json)
                .and_then(|()| match event {
                    Some(name) => check_responses(
                        "parse_named",
                        ResponsesEvent::parse_named(name, data),
                        named,
                        data,
                        &json,
                    ),
                    None => Ok(()),
                })
                .and_then(|()| {
                    let ev = ResponsesEvent::from_frame(&frame);
                    check_responses("from_frame", ev, named, data, &json)
                })
        }
        Dialect::Chat => check_chat("parse", ChatEvent::parse(data), data, &json)
            .and_then(|()| check_chat("from_frame", ChatEvent::from_frame(&frame), data, &json)),
        Dialect::Anthropic => {
            let named = event.filter(|n| AnthropicEvent::TYPES.contains(n));
            check_anthropic("parse", AnthropicEvent::parse(data), None, data, &json)
                .and_then(|()| match event {
                    Some(name) => check_anthropic(
                        "parse_named",
                        AnthropicEvent::parse_named(name, data),
                        named,
                        data,
                        &json,
                    ),
                    None => Ok(()),
                })
                .and_then(|()| {
                    let ev = AnthropicEvent::from_frame(&frame);
                    check_anthropic("from_frame", ev, named, data, &json)
                })
        }
    };
    let result = result.and_then(|()| owned_gives_back(dialect, &frame));
    result.map_err(|e| format!("{dialect:?} (event {event:?}) {e}\n  data: {data}"))
}

/// The rules for one Responses decode. `named`: the known type the SSE
/// event name gave the decoder, if any.
fn check_responses(
    how: &str,
    result: Result<ResponsesEvent<'_>, DecodeError>,
    named: Option<&str>,
    data: &str,
    json: &Result<J, String>,
) -> Verdict {
    let at = |e: String| format!("{how}: {e}");
    let ev = match result {
        Ok(ev) => ev,
        Err(e) => return errors_only_for_what_is_not_an_object(&e, data, json).map_err(at),
    };
    if let ResponsesEvent::Done = ev {
        return done_is_the_sentinel(data).map_err(at);
    }
    let j = never_accept_what_serde_rejects(json).map_err(at)?;
    if let ResponsesEvent::Unknown {
        ty, error: Some(_), ..
    } = ev
    {
        return unfit_is_an_object(ty, j).map_err(at);
    }
    // An event whose lazy payloads do not decode is rejected, as a whole.
    if ev.validate().is_err() {
        return Ok(());
    }
    match &ev {
        ResponsesEvent::Unknown { ty, .. } => {
            unknown_type_is_unknown(*ty, j, ResponsesEvent::TYPES).map_err(at)
        }
        _ => known_type_agrees(ev.ty(), j, named)
            .and_then(|()| fields_agree(Dialect::Responses, &ev, j, "", true))
            .map_err(at),
    }
}

/// The rules for one Chat decode.
fn check_chat(
    how: &str,
    result: Result<ChatEvent<'_>, DecodeError>,
    data: &str,
    json: &Result<J, String>,
) -> Verdict {
    let at = |e: String| format!("{how}: {e}");
    let ev = match result {
        Ok(ev) => ev,
        Err(e) => return errors_only_for_what_is_not_an_object(&e, data, json).map_err(at),
    };
    if let ChatEvent::Done = ev {
        return done_is_the_sentinel(data).map_err(at);
    }
    let j = never_accept_what_serde_rejects(json).map_err(at)?;
    if let ChatEvent::Unknown { .. } = ev {
        // An object of an unexpected shape: serde_json must read an object.
        return match j {
            J::Object(_) => Ok(()),
            other => Err(at(format!("Unknown for a non-object: {other}"))),
        };
    }
    chat_kind_agrees(matches!(ev, ChatEvent::Error(_)), j)
        .and_then(|()| fields_agree(Dialect::Chat, &ev, j, "", true))
        .map_err(at)
}

/// The rules for one Anthropic decode. `named`: as for Responses.
fn check_anthropic(
    how: &str,
    result: Result<AnthropicEvent<'_>, DecodeError>,
    named: Option<&str>,
    data: &str,
    json: &Result<J, String>,
) -> Verdict {
    let at = |e: String| format!("{how}: {e}");
    let ev = match result {
        Ok(ev) => ev,
        Err(e) => return errors_only_for_what_is_not_an_object(&e, data, json).map_err(at),
    };
    let j = never_accept_what_serde_rejects(json).map_err(at)?;
    match &ev {
        AnthropicEvent::Unknown {
            ty, error: Some(_), ..
        } => unfit_is_an_object(*ty, j).map_err(at),
        AnthropicEvent::Unknown { ty, .. } => {
            unknown_type_is_unknown(*ty, j, AnthropicEvent::TYPES).map_err(at)
        }
        _ => known_type_agrees(ev.ty(), j, named)
            .and_then(|()| fields_agree(Dialect::Anthropic, &ev, j, "", true))
            .map_err(at),
    }
}

/// Rule 9: the owned forms give back the event they were made from: by
/// `to_owned` of the decoded event (`parse` and `from_frame`), and by the
/// owned `from_frame` of the frame.
fn owned_gives_back(dialect: Dialect, frame: &Frame) -> Verdict {
    fn same<T: PartialEq + core::fmt::Debug>(how: &str, got: T, want: T) -> Verdict {
        if got == want {
            Ok(())
        } else {
            Err(format!("{how}: the owned form gives {got:?}, not {want:?}"))
        }
    }
    let data = frame.data();
    // `to_owned` keeps the event's text without the whitespace around it,
    // so an error's offset moves with leading whitespace: compared without.
    let trimmed = data.trim_start_matches([' ', '\t', '\n', '\r']).len() == data.len();
    match dialect {
        Dialect::Responses => {
            if let Some(ev) = ResponsesEvent::parse(data).ok().filter(|_| trimmed) {
                same("parse, to_owned", ev.to_owned().get(), ev)?;
            }
            if let Ok(ev) = ResponsesEvent::from_frame(frame) {
                if trimmed {
                    same("from_frame, to_owned", ev.to_owned().get(), ev.clone())?;
                }
                let owned = OwnedResponsesEvent::from_frame(frame)
                    .map_err(|e| format!("owned from_frame fails: {e}"))?;
                same("owned from_frame", owned.get(), ev)?;
            }
        }
        Dialect::Chat => {
            if let Ok(ev) = ChatEvent::from_frame(frame) {
                let owned = OwnedChatEvent::from_frame(frame)
                    .map_err(|e| format!("owned from_frame fails: {e}"))?;
                same("owned from_frame", owned.get(), ev)?;
            }
        }
        Dialect::Anthropic => {
            if let Some(ev) = AnthropicEvent::parse(data).ok().filter(|_| trimmed) {
                same("parse, to_owned", ev.to_owned().get(), ev)?;
            }
            if let Ok(ev) = AnthropicEvent::from_frame(frame) {
                if trimmed {
                    same("from_frame, to_owned", ev.to_owned().get(), ev.clone())?;
                }
                let owned = OwnedAnthropicEvent::from_frame(frame)
                    .map_err(|e| format!("owned from_frame fails: {e}"))?;
                same("owned from_frame", owned.get(), ev)?;
            }
        }
    }
    Ok(())
}

/// `[DONE]` (with JSON whitespace around it) is the only non-JSON data a
/// view accepts.
fn done_is_the_sentinel(data: &str) -> Verdict {
    if data.trim_matches([' ', '\t', '\n', '\r']) == "[DONE]" {
        Ok(())
    } else {
        Err("the view decodes Done from data that is not `[DONE]`".into())
    }
}

/// Rule 1: the view accepted the data, so `serde_json` must have too.
fn never_accept_what_serde_rejects(json: &Result<J, String>) -> Result<&J, String> {
    json.as_ref()
        .map_err(|e| format!("the view accepts data serde_json rejects ({e})"))
}

/// Rule 2: the view decoded the known type `ty`; `serde_json`'s `type` is
/// that type, or absent when the decoder was given `ty` by the event name.
fn known_type_agrees(ty: &str, j: &J, named: Option<&str>) -> Verdict {
    match j.get("type") {
        Some(J::String(t)) if t == ty => Ok(()),
        None if named == Some(ty) => Ok(()),
        other => Err(format!(
            "the view decodes type {ty:?}, serde_json reads `type` {}",
            show(other)
        )),
    }
}

/// Rule 3: the view says Unknown with type `ty`; `serde_json`'s `type` is
/// the same string, and not one the view models.
fn unknown_type_is_unknown(ty: JsonStr<'_>, j: &J, known: &[&str]) -> Verdict {
    match j.get("type") {
        Some(J::String(t)) if known.contains(&t.as_str()) => Err(format!(
            "the view decodes Unknown, serde_json reads the known type {t:?}"
        )),
        Some(J::String(t)) if *t == ty.unescape() => Ok(()),
        other => Err(format!(
            "the view decodes Unknown with type {:?}, serde_json reads `type` {}",
            ty.raw(),
            show(other)
        )),
    }
}

/// Rule 7: the view rejected the data, so `serde_json` rejects it too or
/// reads something other than an object.
fn errors_only_for_what_is_not_an_object(
    e: &DecodeError,
    data: &str,
    json: &Result<J, String>,
) -> Verdict {
    match json {
        Ok(J::Object(_)) => Err(format!(
            "the view rejects an object serde_json reads: {e} ({} bytes)",
            data.len()
        )),
        _ => Ok(()),
    }
}

/// Rule 8: the view says `Unknown` with an error (an object that does not
/// fit its type); `serde_json` reads an object, and the view's type is
/// `serde_json`'s `type` when that is a string, else empty.
fn unfit_is_an_object(ty: JsonStr<'_>, j: &J) -> Verdict {
    let J::Object(_) = j else {
        return Err(format!("Unknown with an error for a non-object: {j}"));
    };
    let want = match j.get("type") {
        Some(J::String(t)) => t.as_str(),
        _ => "",
    };
    if ty.unescape() == want {
        Ok(())
    } else {
        Err(format!(
            "the view decodes Unknown with type {:?}, serde_json reads `type` {}",
            ty.raw(),
            show(j.get("type"))
        ))
    }
}

/// Rule 4: a Chat frame is an error chunk exactly when `error` is non-null.
fn chat_kind_agrees(is_error: bool, j: &J) -> Verdict {
    let has_error = j.get("error").is_some_and(|e| !e.is_null());
    if is_error == has_error {
        Ok(())
    } else {
        Err(format!(
            "the view decodes {}, serde_json reads `error` {}",
            if is_error {
                "an error chunk"
            } else {
                "a chunk"
            },
            show(j.get("error"))
        ))
    }
}

/// The fields rule 5 compares: types, ids, indexes and delta text.
fn compared(key: &str) -> bool {
    is_type_key(key) || is_id_key(key) || is_index_key(key) || is_text_key(key)
}

fn is_type_key(key: &str) -> bool {
    matches!(key, "type" | "object")
}

fn is_id_key(key: &str) -> bool {
    key == "id" || key.ends_with("_id")
}

fn is_index_key(key: &str) -> bool {
    key == "index" || key.ends_with("_index") || key == "sequence_number"
}

fn is_text_key(key: &str) -> bool {
    matches!(
        key,
        "delta" | "text" | "partial_json" | "thinking" | "content" | "refusal" | "arguments"
    )
}

/// Rule 5: the compared fields of `view` agree with the JSON object `j`.
/// `top`: the event itself, whose `type` rules 2 and 3 have checked.
fn fields_agree(dialect: Dialect, view: &dyn Fields<'_>, j: &J, path: &str, top: bool) -> Verdict {
    let Some(obj) = j.as_object() else {
        return Err(format!(
            "{path}: the view decodes an object, serde_json reads {}",
            show(Some(j))
        ));
    };
    let mut verdict = Ok(());
    let mut seen = Vec::new();
    view.for_each_field(&mut |key, value| {
        seen.push(key);
        if verdict.is_ok() && !(top && key == "type") {
            verdict = field_agrees(dialect, key, value, obj.get(key), &format!("{path}.{key}"));
        }
    });
    verdict?;
    absent_fields_agree(view, obj, &seen, path)
}

/// Rule 5, the other way: a compared field the view models but did not
/// decode (absent, or last `null`) is absent or `null` for `serde_json`.
fn absent_fields_agree(
    view: &dyn Fields<'_>,
    obj: &Map<String, J>,
    seen: &[&str],
    path: &str,
) -> Verdict {
    for key in view.field_names() {
        if compared(key) && !seen.contains(key) {
            if let Some(v) = obj.get(*key).filter(|v| !v.is_null()) {
                return Err(format!(
                    "{path}.{key}: absent in the view, serde_json reads {}",
                    show(Some(v))
                ));
            }
        }
    }
    Ok(())
}

/// Rule 5 for one field `key` whose value the view decoded as `value` and
/// `serde_json` as `j` (`None`: absent). Nested views and arrays recurse.
fn field_agrees(
    dialect: Dialect,
    key: &str,
    value: FieldValue<'_, '_>,
    j: Option<&J>,
    at: &str,
) -> Verdict {
    match value {
        FieldValue::Str(s) if compared(key) => strings_agree(s, j, at),
        FieldValue::U64(n) if is_index_key(key) => integers_agree(i128::from(n), j, at),
        FieldValue::I64(n) if is_index_key(key) => integers_agree(i128::from(n), j, at),
        FieldValue::Object(o) => match j {
            Some(j) => nested_kind_agrees(dialect, key, o, j, at)
                .and_then(|()| fields_agree(dialect, o, j, at, false)),
            None => Err(format!(
                "{at}: the view decodes an object, serde_json has none"
            )),
        },
        FieldValue::Array(a) => arrays_agree(dialect, key, a, j, at),
        _ => Ok(()),
    }
}

/// A string field: `serde_json` has a string, equal to the view's unescaped.
fn strings_agree(s: JsonStr<'_>, j: Option<&J>, at: &str) -> Verdict {
    match j {
        Some(J::String(t)) if *t == s.unescape() => Ok(()),
        other => Err(format!(
            "{at}: the view reads {:?}, serde_json reads {}",
            s.unescape(),
            show(other)
        )),
    }
}

/// An index field: `serde_json` has the same integer.
fn integers_agree(n: i128, j: Option<&J>, at: &str) -> Verdict {
    let theirs = j.and_then(|j| {
        j.as_u64()
            .map(i128::from)
            .or_else(|| j.as_i64().map(i128::from))
    });
    if theirs == Some(n) {
        Ok(())
    } else {
        Err(format!(
            "{at}: the view reads the integer {n}, serde_json reads {}",
            show(j)
        ))
    }
}

/// An array field: `serde_json` has an array of as many elements, and each
/// element the view decodes agrees (elements that fail to decode are the
/// view being stricter, and only counted).
fn arrays_agree(
    dialect: Dialect,
    key: &str,
    a: &dyn ssekit::responses::FieldElements<'_>,
    j: Option<&J>,
    at: &str,
) -> Verdict {
    let Some(J::Array(arr)) = j else {
        return Err(format!(
            "{at}: the view decodes an array, serde_json reads {}",
            show(j)
        ));
    };
    let mut verdict = Ok(());
    let mut i = 0;
    a.for_each_element(&mut |e| {
        if let (Ok(v), true) = (e, verdict.is_ok()) {
            verdict = field_agrees(dialect, key, v, arr.get(i), &format!("{at}[{i}]"));
        }
        i += 1;
    });
    verdict?;
    if i == arr.len() {
        Ok(())
    } else {
        Err(format!(
            "{at}: the view has {i} elements, serde_json {}",
            arr.len()
        ))
    }
}

/// Rule 6: a nested object of a tagged enum that the view decodes as its
/// `Other` variant (which exposes no fields; every modeled variant has some,
/// see `every_tagged_variant_has_fields` in tests/differential.rs) must not
/// have a `type` the enum models.
fn nested_kind_agrees(dialect: Dialect, key: &str, o: &dyn Fields<'_>, j: &J, at: &str) -> Verdict {
    let Some(types) = dialect.nested_types(key) else {
        return Ok(());
    };
    match j.get("type") {
        Some(J::String(t)) if o.field_names().is_empty() && types.contains(&t.as_str()) => {
            Err(format!(
                "{at}: the view decodes an unknown kind, serde_json reads the known type {t:?}"
            ))
        }
        _ => Ok(()),
    }
}

/// A JSON value (or its absence) for a message, cut short.
fn show(j: Option<&J>) -> String {
    match j {
        None => "nothing (absent)".into(),
        Some(j) => {
            let s = j.to_string();
            match s.char_indices().nth(120) {
                Some((i, _)) => format!("{}…", &s[..i]),
                None => s,
            }
        }
    }
}
