//! `ssekit events`: one JSON object per event, written from the event's typed
//! view (see [`view_json`](crate::view_json)).
//!
//! Each dialect is one function that takes a frame and writes one line
//! ([`WriteEvent`]); [`writer_of`] picks it. Adding a dialect's views to
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
use ssekit::json::{find_key, Value};
use ssekit::responses::{DecodeError, ResponsesEvent};
use ssekit::Frame;

use crate::view_json::{Line, Unwritable};
use crate::Failure;

pub(crate) use ssekit::Dialect;

/// The dialect in a sentence: "an OpenAI Chat Completions".
pub(crate) fn describe(dialect: Dialect) -> String {
    let title = dialect.title();
    let article = if title.starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {title}")
}

/// The function that writes one event of this dialect, or `None` when
/// this build has no views for it.
fn writer_of(dialect: Dialect) -> Option<WriteEvent> {
    match dialect {
        Dialect::Responses => Some(responses),
        Dialect::Chat => Some(chat),
        Dialect::Anthropic => Some(anthropic),
        Dialect::Gemini => Some(gemini),
    }
}

/// The dialects this build can write, for messages.
fn available() -> String {
    Dialect::ALL
        .into_iter()
        .filter(|d| writer_of(*d).is_some())
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
        match s {
            "auto" => Some(Self::Auto),
            _ => s.parse().ok().map(Self::Fixed),
        }
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

/// The dialect one frame tells ([`Dialect::detect`]), or `None` when it
/// tells nothing.
pub(crate) fn detect(frame: &Frame) -> Option<Dialect> {
    Dialect::detect(frame)
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
            Choice::Fixed(dialect) => Some(writer_of(dialect).ok_or(Unavailable {
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
        let writer = writer_of(dialect).ok_or(Unavailable {
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
