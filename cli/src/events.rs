//! `ssekit events`: one JSON object per event, written from the event's typed
//! view (see [`view_json`](crate::view_json)).
//!
//! Each dialect is one function that takes a frame and writes one line
//! ([`WriteEvent`]); [`Dialect::writer`] picks it. Adding a dialect's views to
//! this build is one arm there. `--dialect auto` picks the dialect per stream
//! from its first telling event ([`detect`]).
//!
//! No frame is dropped: a frame whose data does not decode (not JSON, or not
//! the dialect's shape) prints an object that says so,
//! `{"type": T, "undecodable": true, "error": "...", "offset": N}` (see
//! [`Events::write`]), and a warning.

use std::fmt;
use std::io::Write;

use ssekit::anthropic::AnthropicEvent;
use ssekit::chat::ChatEvent;
use ssekit::gemini::GeminiEvent;
use ssekit::json::{find_key, ObjectView, Value};
use ssekit::responses::{DecodeError, ResponsesEvent};
use ssekit::Frame;

use crate::view_json::{Line, Unwritable};
use crate::Failure;

/// The dialect of a stream: which views decode its events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// OpenAI Responses.
    Responses,
    /// OpenAI Chat Completions chunks.
    Chat,
    /// Anthropic Messages.
    Anthropic,
    /// Google Gemini `streamGenerateContent` chunks.
    Gemini,
}

impl Dialect {
    /// The dialect in a sentence: "a Chat Completions".
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Self::Responses => "an OpenAI Responses",
            Self::Chat => "an OpenAI Chat Completions",
            Self::Anthropic => "an Anthropic Messages",
            Self::Gemini => "a Google Gemini",
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Responses => "responses",
            Self::Chat => "chat",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
        }
    }

    /// The function that writes one event of this dialect, or `None` when
    /// this build has no views for it.
    fn writer(self) -> Option<WriteEvent> {
        match self {
            Self::Responses => Some(responses),
            Self::Chat => Some(chat),
            Self::Anthropic => Some(anthropic),
            Self::Gemini => Some(gemini),
        }
    }
}

/// The dialects this build can write, for messages.
fn available() -> String {
    [
        Dialect::Responses,
        Dialect::Chat,
        Dialect::Anthropic,
        Dialect::Gemini,
    ]
    .into_iter()
    .filter(|d| d.writer().is_some())
    .map(Dialect::name)
    .collect::<Vec<_>>()
    .join(", ")
}

/// The `--dialect` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// This dialect, whatever the stream holds.
    Fixed(Dialect),
    /// Detected per stream ([`detect`]).
    Auto,
}

impl Choice {
    pub(crate) fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "responses" => Self::Fixed(Dialect::Responses),
            "chat" => Self::Fixed(Dialect::Chat),
            "anthropic" => Self::Fixed(Dialect::Anthropic),
            "gemini" => Self::Fixed(Dialect::Gemini),
            "auto" => Self::Auto,
            _ => return None,
        })
    }
}

/// A dialect this build cannot write: exit status 2.
#[derive(Debug)]
pub(crate) struct Unavailable {
    dialect: Dialect,
    /// Whether `auto` detected it (else it was asked for).
    detected: bool,
}

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.dialect.name();
        if self.detected {
            write!(f, "the stream looks like the {name} dialect, which is")?;
        } else {
            write!(f, "the {name} dialect is")?;
        }
        write!(
            f,
            " not available in this build (available: {})",
            available()
        )
    }
}

/// Writes one event as one JSON object into `line` (without the newline).
/// On error the line is left incomplete, and is dropped.
type WriteEvent = fn(&Frame, &mut Line) -> Result<(), Skip>;

/// Why an event printed nothing.
#[derive(Debug)]
enum Skip {
    /// Its data did not decode into its view.
    Decode(DecodeError),
    /// Its view decoded but could not be written out.
    Unwritable(Unwritable),
}

impl From<DecodeError> for Skip {
    fn from(e: DecodeError) -> Self {
        Self::Decode(e)
    }
}

impl From<Unwritable> for Skip {
    fn from(e: Unwritable) -> Self {
        Self::Unwritable(e)
    }
}

/// A Responses event: its view's fields, `type` first; an unknown type as
/// `{"type": T, "unknown": true}`; `[DONE]` as `{"type": "[DONE]"}`.
fn responses(frame: &Frame, line: &mut Line) -> Result<(), Skip> {
    let event = ResponsesEvent::from_frame(frame)?;
    event.validate()?;
    match event {
        ResponsesEvent::Done => line.raw(r#"{"type":"[DONE]"}"#),
        ResponsesEvent::Unknown { ty, .. } => {
            line.raw(r#"{"type":"#);
            line.json_str(ty);
            line.raw(r#","unknown":true}"#);
        }
        event => line.object(&event)?,
    }
    Ok(())
}

/// A Chat Completions chunk: its fields as they come (a chunk has no `type`,
/// and none is invented); an error chunk likewise; `[DONE]` as
/// `{"type": "[DONE]"}`; an object of an unexpected shape as
/// `{"type": null, "unknown": true, "error": "..."}`.
fn chat(frame: &Frame, line: &mut Line) -> Result<(), Skip> {
    match ChatEvent::from_frame(frame)? {
        ChatEvent::Done => line.raw(r#"{"type":"[DONE]"}"#),
        ChatEvent::Unknown { error, .. } => {
            line.raw(r#"{"type":null,"unknown":true,"error":"#);
            line.str(&error.to_string());
            line.raw("}");
        }
        event => line.object(&event)?,
    }
    Ok(())
}

/// An Anthropic Messages event: its view's fields, `type` first; an unknown
/// type as `{"type": T, "unknown": true}`.
fn anthropic(frame: &Frame, line: &mut Line) -> Result<(), Skip> {
    let event = AnthropicEvent::from_frame(frame)?;
    event.validate()?;
    match event {
        AnthropicEvent::Unknown { ty, .. } => {
            line.raw(r#"{"type":"#);
            line.json_str(ty);
            line.raw(r#","unknown":true}"#);
        }
        event => line.object(&event)?,
    }
    Ok(())
}

/// A Gemini chunk: its fields as they come (no `type` is invented); an
/// error chunk likewise; an object of an unexpected shape as
/// `{"type": null, "unknown": true, "error": "..."}`.
fn gemini(frame: &Frame, line: &mut Line) -> Result<(), Skip> {
    match GeminiEvent::from_frame(frame)? {
        GeminiEvent::Unknown { error, .. } => {
            line.raw(r#"{"type":null,"unknown":true,"error":"#);
            line.str(&error.to_string());
            line.raw("}");
        }
        event => line.object(&event)?,
    }
    Ok(())
}

/// Anthropic event names (and data `type`s) no other dialect uses.
const ANTHROPIC_TYPES: &[&str] = &[
    "message_start",
    "message_delta",
    "message_stop",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
];

/// The dialect one frame tells, or `None` when it tells nothing (no event
/// name of a known family and data that is not a JSON object: `[DONE]`, a
/// keep-alive, garbage).
///
/// An Anthropic event name or data `type` → anthropic; a `response.*` event
/// name → responses; data without `type` that is a `chat.completion.chunk`
/// or has `choices` → chat; data without `type` that has `candidates`,
/// `promptFeedback` or `usageMetadata` → gemini; any other JSON object →
/// responses.
pub(crate) fn detect(frame: &Frame) -> Option<Dialect> {
    if frame.has_event_type() {
        let name = frame.event();
        if ANTHROPIC_TYPES.contains(&name) {
            return Some(Dialect::Anthropic);
        }
        if name.starts_with("response.") {
            return Some(Dialect::Responses);
        }
    }
    let object = ObjectView::parse(frame.data()).ok()?;
    let (mut ty, mut chat, mut gemini) = (None, false, false);
    for (key, value) in object.members() {
        if key == "type" && !value.is_null() {
            ty = Some(value);
        } else if key == "choices" {
            chat = true;
        } else if key == "candidates" || key == "promptFeedback" || key == "usageMetadata" {
            gemini = true;
        } else if key == "object" {
            chat |= matches!(value, Value::String(s) if s == "chat.completion.chunk");
        }
    }
    Some(match ty {
        Some(Value::String(ty)) if ANTHROPIC_TYPES.iter().any(|t| ty == *t) => Dialect::Anthropic,
        Some(_) => Dialect::Responses,
        None if chat => Dialect::Chat,
        None if gemini => Dialect::Gemini,
        None => Dialect::Responses,
    })
}

/// The `events` command over one stream: frames in, lines out.
pub(crate) struct Events {
    choice: Choice,
    /// The dialect's writer, once known.
    writer: Option<WriteEvent>,
    /// Frames seen before `auto` could tell the dialect, with their offsets.
    pending: Vec<(u64, Frame)>,
    line: Line,
}

impl Events {
    pub(crate) fn new(choice: Choice) -> Result<Self, Failure> {
        let writer = match choice {
            Choice::Fixed(dialect) => Some(dialect.writer().ok_or(Unavailable {
                dialect,
                detected: false,
            })?),
            Choice::Auto => None,
        };
        Ok(Self {
            choice,
            writer,
            pending: Vec::new(),
            line: Line::default(),
        })
    }

    /// Handles one frame, writing its line (and those of the frames held
    /// before it) to `out`; `start` is the stream offset where its block
    /// began, for warnings.
    pub(crate) fn frame(
        &mut self,
        out: &mut impl Write,
        start: u64,
        frame: Frame,
    ) -> Result<(), Failure> {
        if let Some(writer) = self.writer {
            return self.write(out, writer, start, &frame);
        }
        debug_assert_eq!(self.choice, Choice::Auto);
        let Some(dialect) = detect(&frame) else {
            self.pending.push((start, frame));
            return Ok(());
        };
        let writer = dialect.writer().ok_or(Unavailable {
            dialect,
            detected: true,
        })?;
        self.writer = Some(writer);
        for (start, pending) in std::mem::take(&mut self.pending) {
            self.write(out, writer, start, &pending)?;
        }
        self.write(out, writer, start, &frame)
    }

    /// Writes what is left (frames that never told a dialect are read as
    /// Responses events).
    pub(crate) fn finish(mut self, out: &mut impl Write) -> Result<(), Failure> {
        let writer = self.writer.unwrap_or(responses);
        for (start, pending) in std::mem::take(&mut self.pending) {
            self.write(out, writer, start, &pending)?;
        }
        Ok(())
    }

    /// Writes one line for `frame`: its view, or, when it does not decode
    /// or cannot be written, `{"type": T, "undecodable": true, "error":
    /// "...", "offset": N}`, where `T` is the event's type as far as it is
    /// known (`null` when it is not) and `N` the stream offset where the
    /// frame's block began; a warning goes to standard error as well.
    fn write(
        &mut self,
        out: &mut impl Write,
        writer: WriteEvent,
        start: u64,
        frame: &Frame,
    ) -> Result<(), Failure> {
        self.line.clear();
        if let Err(skip) = writer(frame, &mut self.line) {
            warn(start, frame, &skip);
            self.line.clear();
            self.line.raw(r#"{"type":"#);
            match event_type(frame, &skip) {
                Some(ty) => self.line.str(&ty),
                None => self.line.raw("null"),
            }
            self.line.raw(r#","undecodable":true,"error":"#);
            self.line.str(&skip.to_string());
            self.line.raw(&format!(r#","offset":{start}}}"#));
        }
        self.line.buf.push(b'\n');
        out.write_all(&self.line.buf)?;
        Ok(())
    }
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Decode(e) => e.fmt(f),
            Skip::Unwritable(e) => e.fmt(f),
        }
    }
}

/// The type of an event that did not decode, as far as it is known: from
/// the decoder, the data's `type`, or the frame's event name.
fn event_type(frame: &Frame, skip: &Skip) -> Option<String> {
    let known = match skip {
        Skip::Decode(e) => e.event_type(),
        Skip::Unwritable(_) => "",
    };
    if !known.is_empty() {
        return Some(known.to_owned());
    }
    if let Ok(Some(Value::String(ty))) = find_key(frame.data(), "type") {
        return Some(ty.to_string());
    }
    frame.has_event_type().then(|| frame.event().to_owned())
}

/// How many events did not decode (for `--strict`).
pub(crate) static UNDECODABLE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Reports an event that did not decode: where its block began in the
/// stream, its type, and why (offsets in the reason count from the start of
/// the event's data).
fn warn(start: u64, frame: &Frame, skip: &Skip) {
    UNDECODABLE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let ty = event_type(frame, skip).unwrap_or_else(|| frame.event().to_owned());
    eprintln!("ssekit: warning: undecodable event at byte {start} (type {ty}): {skip}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(event: Option<&str>, data: &str) -> Frame {
        let frame = Frame::new(data);
        match event {
            Some(name) => frame.with_event(name),
            None => frame,
        }
    }

    #[test]
    fn detects_each_dialect_from_one_frame() {
        let cases = [
            (Some("message_start"), "{}", Some(Dialect::Anthropic)),
            (
                None,
                r#"{"type":"content_block_delta","index":0}"#,
                Some(Dialect::Anthropic),
            ),
            (Some("response.created"), "{}", Some(Dialect::Responses)),
            (
                None,
                r#"{"type":"response.output_text.delta"}"#,
                Some(Dialect::Responses),
            ),
            (
                None,
                r#"{"id":"c","object":"chat.completion.chunk","choices":[]}"#,
                Some(Dialect::Chat),
            ),
            (None, r#"{"id":"c","choices":[]}"#, Some(Dialect::Chat)),
            (
                None,
                r#"{"error":{"message":"x"}}"#,
                Some(Dialect::Responses),
            ),
            (
                None,
                r#"{"candidates": [{"content": {"parts": [{"text": "Hi"}]}}]}"#,
                Some(Dialect::Gemini),
            ),
            (
                None,
                r#"{"promptFeedback":{"blockReason":"SAFETY"}}"#,
                Some(Dialect::Gemini),
            ),
            (None, r#"{"usageMetadata":{}}"#, Some(Dialect::Gemini)),
            (
                None,
                r#"{"id":"c","choices":[],"usage":null}"#,
                Some(Dialect::Chat),
            ),
            (None, "[DONE]", None),
            (Some("ping"), "", None),
        ];
        for (event, data, want) in cases {
            assert_eq!(detect(&frame(event, data)), want, "{event:?} {data}");
        }
    }

    #[test]
    fn auto_waits_for_a_telling_frame_then_keeps_order() {
        let mut events = Events::new(Choice::Auto).ok().unwrap();
        let mut out = Vec::new();
        events
            .frame(&mut out, 0, frame(Some("ping"), "[DONE]"))
            .ok()
            .unwrap();
        assert!(out.is_empty());
        events
            .frame(&mut out, 10, frame(None, r#"{"type":"x.y","a":1}"#))
            .ok()
            .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            out,
            "{\"type\":\"[DONE]\"}\n{\"type\":\"x.y\",\"unknown\":true}\n"
        );
    }
}
