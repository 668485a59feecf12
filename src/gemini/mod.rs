//! Typed, borrowing views of Google Gemini stream chunks
//! (`models/*:streamGenerateContent?alt=sse`, on the Gemini API and on
//! Vertex AI, which send the same shape).
//!
//! A Gemini stream has `data:` lines only, usually with CRLF line endings:
//! no `event:` names, no `id:`, no `[DONE]` and no closing event (the stream
//! just ends). Each frame is one `GenerateContentResponse` object
//! ([`GenerateContentResponse`]): `candidates[].content.parts[]` with the new
//! text, thoughts (`thought: true`), whole function calls, code and its
//! results; `finishReason` and safety, citation and grounding metadata per
//! candidate; cumulative `usageMetadata`; `modelVersion` and `responseId`. A
//! failure after the HTTP 200 arrives as an `{"error": {…}}` object
//! ([`GeminiErrorChunk`]).
//!
//! # Decoding
//!
//! [`GeminiEvent::parse`] decodes the data in one pass that validates the
//! JSON and fills the view, allocating nothing. Views borrow from the data:
//! strings are [`JsonStr`](crate::json::JsonStr), numbers are typed, nested
//! objects are views, arrays are lazy [`List`]s decoded as they are
//! iterated, and what the views do not model (function arguments, grounding
//! chunks) is kept as [`RawJson`]. Every field is optional (a JSON `null`
//! counts as absent) and unknown members are ignored. A [`Part`] has no
//! `type`: [`Part::kind`] tells what it holds by the member present, and a
//! part of a kind this version does not model is [`PartKind::Other`], its
//! JSON in [`Part::raw`].
//!
//! Data that does not fit follows the crate's one rule (see
//! [`DecodeError`]): data that is not a JSON object is a [`DecodeError`]; a
//! JSON object whose shape is unexpected (a string where `candidates`
//! should be a list) is not an error but [`GeminiEvent::Unknown`], with its
//! raw JSON and what did not fit. An element of a list that does not fit is
//! an error for that element only, when it is iterated.
//!
//! Every view implements [`Fields`], so generic code can visit every field
//! of a chunk without allocating. With the `serde` feature, [`GeminiEvent`]
//! and the views implement serde's borrowed `Deserialize` (through
//! serde_json's `raw_value`, as for the
//! [Responses events](crate::responses#serde)), and [`OwnedGeminiEvent`]
//! deserializes from any deserializer.
//!
//! # Example
//!
//! ```
//! use ssekit::gemini::{GeminiEvent, PartKind};
//! use ssekit::{Bytes, Parser};
//!
//! let mut parser = Parser::new();
//! parser.feed(Bytes::from_static(
//!     b"data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hi\\n\"}],\"role\": \"model\"}}]}\r\n\r\n\
//!       data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"there\"}],\"role\": \"model\"},\
//!       \"finishReason\": \"STOP\"}],\"usageMetadata\": {\"totalTokenCount\": 9}}\r\n\r\n",
//! ));
//! let mut text = String::new();
//! while let Some(frame) = parser.next_frame()? {
//!     let GeminiEvent::Response(chunk) = GeminiEvent::from_frame(&frame)? else {
//!         panic!("an error or an unexpected shape");
//!     };
//!     for candidate in chunk.candidates.into_iter().flatten() {
//!         let candidate = candidate?;
//!         assert_eq!(candidate.index_or_zero(), 0);
//!         for part in candidate.content.and_then(|c| c.parts).into_iter().flatten() {
//!             let part = part?;
//!             if part.kind() == PartKind::Text {
//!                 part.text.unwrap().unescape_into(&mut text); // no allocation per chunk
//!             }
//!         }
//!     }
//! }
//! assert_eq!(text, "Hi\nthere");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod owned;
pub(crate) mod partial_args;
mod response;
#[cfg(feature = "serde")]
mod serde;

pub use crate::views::{DecodeError, DecodeErrorKind};
pub use crate::views::{List, ListIter, Owned, ViewFamily};
pub use owned::OwnedGeminiEvent;
pub use response::*;

use crate::frame::Frame;
use crate::json::{ObjectScanner, ObjectView, RawJson};
use crate::views::trim_json_ws;
use crate::views::{FieldValue, Fields};

/// One frame of a Gemini stream, decoded into a view that borrows from the
/// frame's data. See the [module docs](self).
// Boxing the response would allocate; the event is a transient stack value.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum GeminiEvent<'a> {
    /// A `GenerateContentResponse` chunk.
    Response(GenerateContentResponse<'a>),
    /// An error sent in the stream: `{"error": {…}}`.
    Error(GeminiErrorChunk<'a>),
    /// A JSON object of a shape the views do not expect (a field of the
    /// wrong JSON kind). Never produced for data that is not JSON.
    Unknown {
        /// The whole object, validated.
        raw: RawJson<'a>,
        /// What did not fit.
        error: DecodeError,
    },
}

impl<'a> GeminiEvent<'a> {
    /// Decodes the data of one frame.
    ///
    /// An object with a non-null `error` member decodes to
    /// [`Error`](Self::Error); any other object to
    /// [`Response`](Self::Response), or to [`Unknown`](Self::Unknown) when a
    /// member has an unexpected JSON kind. One pass over the data, nothing
    /// allocated (a second pass only for error chunks and unexpected shapes).
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] when the data is not a JSON object (invalid JSON,
    /// an array, a string, `[DONE]`).
    pub fn parse(data: &'a str) -> Result<Self, DecodeError> {
        let text = trim_json_ws(data);
        const {
            assert!(
                !crate::views::has_field(GenerateContentResponse::FIELDS, "error"),
                "the watched `error` key must not be a field of the chunk"
            )
        };
        // The chunk decoded in its place in the event, not moved there.
        let mut event = Ok(Self::Response(GenerateContentResponse::fallback_view()));
        if let Ok(Self::Response(chunk)) = &mut event {
            let mut members = crate::json::WatchKey::new(ObjectScanner::new(data), "error");
            let read = GenerateContentResponse::decode_members_inline(
                &mut members,
                data,
                Some(text),
                None,
                chunk,
            );
            if members.seen() || read.is_err() {
                let result = read.and(event);
                event = Self::parse_slow(data, text, result);
            }
        }
        event
    }

    /// An error chunk, or a chunk that failed: validate it all, then look
    /// for `error`.
    #[cold]
    fn parse_slow(
        data: &'a str,
        text: &'a str,
        result: Result<Self, DecodeError>,
    ) -> Result<Self, DecodeError> {
        let object = ObjectView::parse(data).map_err(DecodeError::json)?;
        let raw = RawJson::new(text);
        let decoded = match object.get("error") {
            Some(e) if !e.is_null() => {
                GeminiErrorChunk::decode_members(object.members(), data, Some(text), None)
                    .map(Self::Error)
            }
            _ => result,
        };
        Ok(decoded.unwrap_or_else(|error| Self::Unknown { raw, error }))
    }

    /// Decodes a frame's data (see [`parse`](Self::parse)). Gemini streams
    /// have no event names; a frame's name, if any, is ignored.
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse).
    pub fn from_frame(frame: &'a Frame) -> Result<Self, DecodeError> {
        Self::parse(frame.data())
    }

    /// The frame's JSON text, as in the input.
    pub fn raw(&self) -> RawJson<'a> {
        match self {
            Self::Response(r) => r.raw(),
            Self::Error(e) => e.raw(),
            Self::Unknown { raw, .. } => *raw,
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

    strict_reading!(GeminiEvent, "gemini", r#"{"candidates":{}}"#, validate);

    /// Whether this is an [`Error`](Self::Error).
    pub fn is_error(&self) -> bool {
        matches!(self, Self::Error(_))
    }
}

impl<'a> Fields<'a> for GeminiEvent<'a> {
    fn field_names(&self) -> &'static [&'static str] {
        match self {
            Self::Response(_) => GenerateContentResponse::FIELDS,
            Self::Error(_) => GeminiErrorChunk::FIELDS,
            Self::Unknown { .. } => &[],
        }
    }
    fn decode_error(&self) -> Option<DecodeError> {
        GeminiEvent::decode_error(self)
    }
    fn for_each_field(&self, f: &mut dyn FnMut(&'static str, FieldValue<'a, '_>)) {
        match self {
            Self::Response(r) => r.for_each_field(f),
            Self::Error(e) => e.for_each_field(f),
            Self::Unknown { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_tell_their_kind_by_the_member_present() {
        let data = r#"{"candidates":[{"content":{"role":"model","parts":[
            {"text":"plan","thought":true},
            {"text":"answer","thoughtSignature":"c2ln"},
            {"functionCall":{"name":"f","args":{"a":1}}},
            {"executableCode":{"language":"PYTHON","code":"print(1)"}},
            {"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"1\n"}},
            {"inlineData":{"mimeType":"image/png","data":"iVBO"}},
            {"thoughtSignature":"b25seQ=="},
            {"newKind":{"x":1}}
        ]},"finishReason":"STOP"}]}"#;
        let GeminiEvent::Response(r) = GeminiEvent::parse(data).unwrap() else {
            panic!()
        };
        let candidate = r.candidates.unwrap().first().unwrap().unwrap();
        assert_eq!(candidate.index, None);
        assert_eq!(candidate.index_or_zero(), 0);
        assert_eq!(candidate.finish_reason.unwrap(), "STOP");
        let kinds: alloc::vec::Vec<PartKind> = candidate
            .content
            .unwrap()
            .parts
            .unwrap()
            .iter()
            .map(|p| p.unwrap().kind())
            .collect();
        assert_eq!(
            kinds,
            [
                PartKind::Thought,
                PartKind::Text,
                PartKind::FunctionCall,
                PartKind::ExecutableCode,
                PartKind::CodeExecutionResult,
                PartKind::InlineData,
                PartKind::Other,
                PartKind::Other,
            ]
        );
    }

    #[test]
    fn errors_unexpected_shapes_and_non_objects() {
        let e = GeminiEvent::parse(
            r#"{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}"#,
        )
        .unwrap();
        let GeminiEvent::Error(e) = e else { panic!() };
        assert_eq!(e.error.code, Some(503));
        assert_eq!(e.error.status.unwrap(), "UNAVAILABLE");

        let odd = GeminiEvent::parse(r#"{"candidates":"none","responseId":"r"}"#).unwrap();
        let GeminiEvent::Unknown { raw, error } = odd else {
            panic!("{odd:?}")
        };
        assert_eq!(raw.get(), r#"{"candidates":"none","responseId":"r"}"#);
        assert_eq!(
            error.kind(),
            DecodeErrorKind::WrongType {
                field: "candidates"
            }
        );
        // An `error` that is not an object is an unexpected shape, too.
        assert!(matches!(
            GeminiEvent::parse(r#"{"error":"boom"}"#),
            Ok(GeminiEvent::Unknown { .. })
        ));
        // `null` error: a plain (empty) response.
        assert!(matches!(
            GeminiEvent::parse(r#"{"error":null,"modelVersion":"m"}"#),
            Ok(GeminiEvent::Response(_))
        ));
        for bad in ["[DONE]", "[{}]", "{\"candidates\":", ""] {
            assert!(GeminiEvent::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pretty_printed_vertex_chunks_decode() {
        let data = "{\n  \"candidates\": [\n    {\n      \"content\": {\n        \"role\": \"model\",\n        \"parts\": [\n          {\n            \"text\": \"Hello\"\n          }\n        ]\n      },\n      \"safetyRatings\": [\n        {\n          \"category\": \"HARM_CATEGORY_HATE_SPEECH\",\n          \"probability\": \"NEGLIGIBLE\",\n          \"probabilityScore\": 0.05,\n          \"severity\": \"HARM_SEVERITY_NEGLIGIBLE\",\n          \"severityScore\": 0.07\n        }\n      ]\n    }\n  ],\n  \"createTime\": \"2024-05-01T00:00:00.000000Z\"\n}\n";
        let GeminiEvent::Response(r) = GeminiEvent::parse(data).unwrap() else {
            panic!()
        };
        assert_eq!(r.raw().get(), data.trim());
        let c = r.candidates.unwrap().first().unwrap().unwrap();
        let rating = c.safety_ratings.unwrap().first().unwrap().unwrap();
        assert_eq!(rating.probability_score, Some(0.05));
        assert_eq!(r.create_time.unwrap(), "2024-05-01T00:00:00.000000Z");
    }
}
