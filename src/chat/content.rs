//! `delta.content`: a text fragment, or (Mistral) a list of typed parts.

use core::fmt;

use crate::json::{JsonStr, Value};
use crate::views::{wrong_type, DecodeError, Field, FieldValue, List, Sealed};

/// The `content` of a [`Delta`](super::Delta): a text fragment as OpenAI
/// sends it, or a list of typed parts as Mistral does (`[{"type": "text",
/// "text": "…"}]`, and for reasoning models `[{"type": "thinking",
/// "thinking": [{"type": "text", "text": "…"}]}]`).
///
/// Compares equal to a `&str` when it is text with that (unescaped) value.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum ChatContent<'a> {
    /// A text fragment.
    Text(JsonStr<'a>),
    /// A list of content parts, decoded as it is iterated.
    Parts(List<'a, ContentPart<'a>>),
}

impl<'a> ChatContent<'a> {
    /// The text fragment; `None` for a list of parts.
    pub fn as_text(&self) -> Option<JsonStr<'a>> {
        match self {
            Self::Text(s) => Some(*s),
            Self::Parts(_) => None,
        }
    }

    /// The list of parts; `None` for a text fragment.
    pub fn as_parts(&self) -> Option<List<'a, ContentPart<'a>>> {
        match self {
            Self::Text(_) => None,
            Self::Parts(p) => Some(*p),
        }
    }

    /// Appends the answer text, unescaped, to `out`: the text fragment, or
    /// the `text` parts of the list (thinking parts are left out: see
    /// [`thinking_into`](Self::thinking_into)). Parts that do not decode
    /// are skipped.
    pub fn unescape_into(&self, out: &mut alloc::string::String) {
        match self {
            Self::Text(s) => s.unescape_into(out),
            Self::Parts(parts) => {
                for part in parts.iter().flatten() {
                    if let ContentPart::Text(t) = part {
                        if let Some(text) = t.text {
                            text.unescape_into(out);
                        }
                    }
                }
            }
        }
    }

    /// Appends the reasoning text, unescaped, to `out`: the `text` parts
    /// inside the `thinking` parts of the list (nothing for a text
    /// fragment). Parts that do not decode are skipped.
    pub fn thinking_into(&self, out: &mut alloc::string::String) {
        for part in self.as_parts().into_iter().flatten().flatten() {
            if let ContentPart::Thinking(t) = part {
                for inner in t.thinking.into_iter().flatten().flatten() {
                    if let ContentPart::Text(text) = inner {
                        if let Some(text) = text.text {
                            text.unescape_into(out);
                        }
                    }
                }
            }
        }
    }
}

impl PartialEq<str> for ChatContent<'_> {
    fn eq(&self, other: &str) -> bool {
        matches!(self, Self::Text(s) if *s == *other)
    }
}

impl PartialEq<&str> for ChatContent<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl fmt::Display for ChatContent<'_> {
    /// The text fragment, unescaped; a list as its JSON text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Text(s) => fmt::Display::fmt(s, f),
            Self::Parts(p) => fmt::Display::fmt(&p.as_raw_json(), f),
        }
    }
}

impl Sealed for ChatContent<'_> {}
impl<'a> Field<'a> for ChatContent<'a> {
    fn from_value(value: Value<'a>, base: &'a str) -> Result<Self, DecodeError> {
        match value {
            Value::String(s) => Ok(Self::Text(s)),
            Value::Array(_) => List::from_value(value, base).map(Self::Parts),
            _ => Err(wrong_type(base, &value)),
        }
    }
    fn field_value(&self) -> FieldValue<'a, '_> {
        match self {
            Self::Text(s) => FieldValue::Str(*s),
            Self::Parts(p) => p.field_value(),
        }
    }
    fn fallback() -> Self {
        Self::Text(JsonStr::default())
    }
}

tagged! {
    /// One part of a list-valued `delta.content` (Mistral). Other types
    /// (`image_url`, `reference`, …) decode to `Other` with their JSON.
    pub enum ContentPart<'a> {
        /// `"type": "text"`.
        Text(TextPart) = "text",
        /// `"type": "thinking"`: reasoning, as a list of parts.
        Thinking(ThinkingPart) = "thinking",
    }
}

view! {
    /// A text part.
    pub struct TextPart<'a> = "text" {
        /// The text fragment.
        text: opt JsonStr<'a>,
    }
}

view! {
    /// A thinking part: reasoning text, itself a list of (text) parts.
    pub struct ThinkingPart<'a> = "thinking" {
        /// The reasoning, as parts (usually one `text` part).
        thinking: opt List<'a, ContentPart<'a>>,
        /// Whether the thinking is closed (Mistral uses it for prefixes).
        closed: opt bool,
        /// A signature of the reasoning, when the server sends one.
        signature: opt JsonStr<'a>,
    }
}
