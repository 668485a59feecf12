//! Typed, borrowing views of OpenAI Chat Completions stream chunks
//! (`POST /v1/chat/completions` with `stream: true`), and of the
//! OpenAI-compatible servers that speak the same dialect (DeepSeek, vLLM,
//! OpenRouter, …).
//!
//! A Chat Completions stream has `data:` lines only: each frame is one
//! `chat.completion.chunk` object, an `{"error": {…}}` object when the
//! server fails after the HTTP 200, or the `[DONE]` sentinel that ends the
//! stream. [`ChatEvent::parse`] tells the three apart:
//! [`ChatEvent::Chunk`] ([`ChatChunk`]), [`ChatEvent::Error`]
//! ([`ChatErrorChunk`]: any object with a non-null `error` member, as
//! openai-python decides, even if it also has `choices`) and
//! [`ChatEvent::Done`].
//!
//! # Decoding
//!
//! The data is decoded in one pass that validates the JSON and fills the
//! view as it goes, allocating nothing. Views borrow from the data: strings
//! are [`JsonStr`](crate::json::JsonStr), numbers are typed, nested objects
//! are nested views ([`ChoiceDelta`], [`Delta`], [`ToolCallChunk`],
//! [`ChatUsage`], …), arrays are lazy [`List`]s decoded as they are
//! iterated, and what the views do not model is kept as
//! [`RawJson`]. The `index` of a choice and of a tool call fragment are
//! required; everything else is optional (a chunk without `choices` has an
//! empty list), a JSON `null` counts as absent, and unknown members are
//! ignored. What OpenAI-compatible servers add is exposed too: the
//! reasoning fields (`delta.reasoning_content` of DeepSeek, Qwen, vLLM and
//! Z.ai, `delta.reasoning` and `delta.reasoning_details` of OpenRouter),
//! Mistral's list-valued `delta.content` with its `thinking` parts
//! ([`ChatContent`]), Azure's `prompt_filter_results` and
//! `content_filter_results` and OpenRouter's `annotations` (as raw JSON).
//!
//! Data that does not fit follows the crate's one rule (see
//! [`DecodeError`]): data that is not a JSON object (nor `[DONE]`) is a
//! [`DecodeError`]; an object whose members do not fit (a string where
//! `created` should be a number) is not an error but [`ChatEvent::Unknown`],
//! with its raw JSON and what did not fit; a choice that does not fit is an
//! error for that choice only, when `choices` is iterated.
//!
//! Every view implements [`Fields`], so generic
//! code can visit every field of a chunk without allocating.
//!
//! With the `serde` feature, [`ChatEvent`] and the views implement serde's
//! borrowed `Deserialize` (through serde_json's `raw_value`, as for the
//! [Responses events](crate::responses#serde)), and [`OwnedChatEvent`]
//! deserializes from any deserializer.
//!
//! # Example
//!
//! ```
//! use ssekit::chat::ChatEvent;
//! use ssekit::{Bytes, Parser};
//!
//! let mut parser = Parser::new();
//! parser.feed(Bytes::from_static(
//!     b"data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\
//!       \"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\\n\"},\
//!       \"finish_reason\":null}]}\n\ndata: [DONE]\n\n",
//! ));
//! let mut text = String::new();
//! while let Some(frame) = parser.next_frame()? {
//!     match ChatEvent::from_frame(&frame)? {
//!         ChatEvent::Chunk(chunk) => {
//!             assert_eq!(chunk.created, Some(1));
//!             for choice in chunk.choices {
//!                 let choice = choice?;
//!                 if let Some(content) = choice.delta.and_then(|d| d.content) {
//!                     content.unescape_into(&mut text); // no allocation per chunk
//!                 }
//!             }
//!         }
//!         ChatEvent::Error(e) => panic!("server error: {:?}", e.error.message),
//!         ChatEvent::Done => break,
//!         _ => {} // future variants
//!     }
//! }
//! assert_eq!(text, "Hi\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod chunk;
mod content;
mod owned;
#[cfg(feature = "serde")]
mod serde;

pub use crate::views::{DecodeError, DecodeErrorKind};
pub use crate::views::{
    HeadList, HeadListIntoIter, HeadListIter, List, ListIter, Owned, ViewFamily,
};
pub use chunk::*;
pub use content::{ChatContent, ContentPart, TextPart, ThinkingPart};
pub use owned::OwnedChatEvent;

use crate::frame::Frame;
use crate::json::{ObjectScanner, ObjectView, RawJson};
use crate::views::trim_json_ws;
use crate::views::{FieldValue, Fields};

/// One frame of a Chat Completions stream, decoded into a view that borrows
/// from the frame's data. See the [module docs](self).
// Boxing the chunk would allocate; the event is a transient stack value.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ChatEvent<'a> {
    /// A `chat.completion.chunk`.
    Chunk(ChatChunk<'a>),
    /// An error sent in the stream: `{"error": {…}}`.
    Error(ChatErrorChunk<'a>),
    /// The `[DONE]` sentinel that ends the stream.
    Done,
    /// A JSON object of a shape the views do not expect (a field of the
    /// wrong JSON kind, a choice without its `index`). Never produced for
    /// data that is not JSON.
    Unknown {
        /// The whole object, validated.
        raw: RawJson<'a>,
        /// What did not fit.
        error: DecodeError,
    },
}

impl<'a> ChatEvent<'a> {
    /// Decodes the data of one frame.
    ///
    /// `"[DONE]"` (whitespace around it allowed) decodes to
    /// [`Done`](Self::Done); an object with a non-null `error` member to
    /// [`Error`](Self::Error); any other object to [`Chunk`](Self::Chunk),
    /// or to [`Unknown`](Self::Unknown) when a member has an unexpected JSON
    /// kind. One pass over the data, nothing allocated (a second pass only
    /// for error chunks and unexpected shapes).
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] when the data is not a JSON object (invalid JSON,
    /// an array, a string other than `[DONE]`).
    pub fn parse(data: &'a str) -> Result<Self, DecodeError> {
        const {
            assert!(
                !crate::views::has_field(ChatChunk::FIELDS, "error"),
                "the watched `error` key must not be a field of the chunk"
            )
        };
        // One `event` returned on every path, and the chunk built in it:
        // a chunk with its first choice is large, and moving it costs.
        let text = trim_json_ws(data);
        let mut event = Ok(Self::Done);
        if text != "[DONE]" {
            event = Ok(Self::Chunk(ChatChunk::fallback_view()));
        }
        if let Ok(Self::Chunk(chunk)) = &mut event {
            let mut members = crate::json::WatchKey::new(ObjectScanner::new(data), "error");
            let read =
                crate::views::decode::decode_inline(&mut members, data, Some(text), None, chunk);
            if members.seen() || read.is_err() {
                let result = read.and(event);
                event = Self::parse_slow(data, text, result);
            }
        }
        event
    }

    /// An error chunk, or a chunk that failed (before or after an `error`
    /// member): validate it all, then look for `error`.
    #[cold]
    fn parse_slow(
        data: &'a str,
        text: &'a str,
        result: Result<Self, DecodeError>,
    ) -> Result<Self, DecodeError> {
        let object = ObjectView::parse(data).map_err(DecodeError::json)?;
        let decoded = match object.get("error") {
            Some(e) if !e.is_null() => {
                crate::views::decode::decode(object.members(), data, Some(text), None)
                    .map(Self::Error)
            }
            _ => result,
        };
        Ok(decoded.unwrap_or_else(|error| Self::Unknown {
            raw: RawJson::new(text),
            error,
        }))
    }

    /// Decodes a frame's data (see [`parse`](Self::parse)). Chat streams
    /// have no event names; a frame's name, if any, is ignored.
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse).
    pub fn from_frame(frame: &'a Frame) -> Result<Self, DecodeError> {
        Self::parse(frame.data())
    }

    /// The frame's JSON text, as in the input; `None` for
    /// [`Done`](Self::Done).
    pub fn raw(&self) -> Option<RawJson<'a>> {
        match self {
            Self::Chunk(c) => Some(c.raw()),
            Self::Error(e) => Some(e.raw()),
            Self::Unknown { raw, .. } => Some(*raw),
            Self::Done => None,
        }
    }

    /// What did not fit, for an [`Unknown`](Self::Unknown) (see
    /// [`DecodeError`] for the rule); `None` for every other event. The same
    /// as [`Fields::decode_error`].
    pub fn decode_error(&self) -> Option<DecodeError> {
        match self {
            Self::Unknown { error, .. } => Some(*error),
            _ => None,
        }
    }

    strict_reading!(
        ChatEvent,
        "chat",
        r#"{"id":"c","created":"x","choices":[]}"#,
        validate
    );

    /// Whether this is the [`Done`](Self::Done) sentinel.
    pub fn is_done(&self) -> bool {
        matches!(self, Self::Done)
    }
}

impl<'a> Fields<'a> for ChatEvent<'a> {
    fn field_names(&self) -> &'static [&'static str] {
        match self {
            Self::Chunk(_) => ChatChunk::FIELDS,
            Self::Error(_) => ChatErrorChunk::FIELDS,
            Self::Done | Self::Unknown { .. } => &[],
        }
    }
    fn decode_error(&self) -> Option<DecodeError> {
        ChatEvent::decode_error(self)
    }
    fn for_each_field(&self, f: &mut dyn FnMut(&'static str, FieldValue<'a, '_>)) {
        match self {
            Self::Chunk(c) => c.for_each_field(f),
            Self::Error(e) => e.for_each_field(f),
            Self::Done | Self::Unknown { .. } => {}
        }
    }
}
