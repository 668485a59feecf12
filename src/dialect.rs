//! `Dialect`: the four stream dialects, by name, and how to tell them
//! apart from one frame.

use core::fmt;
use core::str::FromStr;

use crate::frame::Frame;
use crate::json::{ObjectView, Value};

/// The stream dialects the crate reads and writes, for choosing a reader,
/// writer, linter or accumulator at run time (the
/// [bridge](crate::bridge::boxed), [`lint::linter_for`](crate::lint::linter_for),
/// the CLI) and for naming the dialect of a typed adapter stream.
///
/// Not `#[non_exhaustive]`: a new dialect needs a reader, a writer and a
/// linter, and a `match` that names every dialect should stop compiling
/// until it has them.
///
/// ```
/// use ssekit::{Dialect, Frame};
///
/// assert_eq!("gemini".parse::<Dialect>(), Ok(Dialect::Gemini));
/// assert_eq!(Dialect::Chat.name(), "chat");
/// let chunk = Frame::new(r#"{"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}"#);
/// assert_eq!(Dialect::detect(&chunk), Some(Dialect::Gemini));
/// assert_eq!(Dialect::detect(&Frame::new("[DONE]")), None);
/// ```
// Exhaustive on purpose: every site that dispatches on a dialect (the
// bridge, `lint::linter_for`, the CLI) must handle a new one.
#[allow(clippy::exhaustive_enums)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dialect {
    /// OpenAI Responses.
    Responses,
    /// OpenAI Chat Completions.
    Chat,
    /// Anthropic Messages.
    Anthropic,
    /// Gemini `streamGenerateContent?alt=sse` (Gemini API and Vertex AI).
    Gemini,
}

/// Event names (and data `type`s) only Anthropic Messages uses.
const ANTHROPIC_TYPES: &[&str] = &[
    "message_start",
    "message_delta",
    "message_stop",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
];

impl Dialect {
    /// Every dialect.
    pub const ALL: [Dialect; 4] = [
        Dialect::Responses,
        Dialect::Chat,
        Dialect::Anthropic,
        Dialect::Gemini,
    ];

    /// The short lowercase name the CLI takes (`--dialect`, `--to`):
    /// `responses`, `chat`, `anthropic` or `gemini`. [`FromStr`] reads it
    /// back.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Responses => "responses",
            Self::Chat => "chat",
            Self::Anthropic => "anthropic",
            Self::Gemini => "gemini",
        }
    }

    /// The API's name: `OpenAI Responses`, `OpenAI Chat Completions`,
    /// `Anthropic Messages`, `Google Gemini`.
    pub const fn title(self) -> &'static str {
        match self {
            Self::Responses => "OpenAI Responses",
            Self::Chat => "OpenAI Chat Completions",
            Self::Anthropic => "Anthropic Messages",
            Self::Gemini => "Google Gemini",
        }
    }

    /// The dialect one frame tells, or `None` when it tells nothing (no
    /// event name of a known family, and data that is not a JSON object:
    /// `[DONE]`, a keep-alive, garbage).
    ///
    /// An Anthropic event name or data `type` → Anthropic; a `response.*`
    /// event name → Responses; data without `type` that is a
    /// `chat.completion.chunk` or has `choices` → Chat; data without `type`
    /// that has `candidates`, `promptFeedback` or `usageMetadata` → Gemini;
    /// any other JSON object → Responses (whose linter says best what is
    /// wrong with it).
    ///
    /// Cost: one pass over the frame's data, nothing allocated.
    pub fn detect(frame: &Frame) -> Option<Dialect> {
        if frame.has_event_type() {
            let name = frame.event();
            if ANTHROPIC_TYPES.contains(&name) {
                return Some(Self::Anthropic);
            }
            if name.starts_with("response.") {
                return Some(Self::Responses);
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
            Some(Value::String(ty)) if ANTHROPIC_TYPES.iter().any(|t| ty == *t) => Self::Anthropic,
            Some(_) => Self::Responses,
            None if chat => Self::Chat,
            None if gemini => Self::Gemini,
            None => Self::Responses,
        })
    }
}

impl fmt::Display for Dialect {
    /// The [`name`](Dialect::name).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a dialect's ([`Dialect::from_str`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownDialect;

impl fmt::Display for UnknownDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a dialect: expected responses, chat, anthropic or gemini")
    }
}

impl core::error::Error for UnknownDialect {}

impl FromStr for Dialect {
    type Err = UnknownDialect;

    /// The dialect of this [`name`](Dialect::name) (exactly: lowercase).
    ///
    /// # Errors
    ///
    /// [`UnknownDialect`] for any other string.
    fn from_str(s: &str) -> Result<Self, UnknownDialect> {
        Self::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or(UnknownDialect)
    }
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
            // A `type` wins over the keys of other dialects.
            (
                None,
                r#"{"type":"x.y","choices":[],"candidates":[]}"#,
                Some(Dialect::Responses),
            ),
            // A null `type` is no `type`.
            (None, r#"{"type":null,"choices":[]}"#, Some(Dialect::Chat)),
            // An event name of no family: the data decides.
            (
                Some("message"),
                r#"{"candidates":[]}"#,
                Some(Dialect::Gemini),
            ),
            (None, "[DONE]", None),
            (Some("ping"), "", None),
            (None, "not json", None),
        ];
        for (event, data, want) in cases {
            assert_eq!(
                Dialect::detect(&frame(event, data)),
                want,
                "{event:?} {data}"
            );
        }
    }

    #[test]
    fn names_round_trip_and_nothing_else_parses() {
        for d in Dialect::ALL {
            assert_eq!(d.name().parse::<Dialect>(), Ok(d));
            assert_eq!(alloc::format!("{d}"), d.name());
        }
        for bad in ["", "auto", "Gemini", "chat ", "openai"] {
            assert_eq!(bad.parse::<Dialect>(), Err(UnknownDialect), "{bad:?}");
        }
        let names: alloc::vec::Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
        assert_eq!(names, ["responses", "chat", "anthropic", "gemini"]);
    }
}
