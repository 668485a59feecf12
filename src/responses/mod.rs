//! Typed, borrowing views of OpenAI Responses API stream events, and a
//! [`writer`] of Responses streams.
//!
//! [`EventKind`] lists the event types and their roles; [`order`] checks a
//! stream's order (sequence numbers, items and parts, the terminal event).
//!
//! [`ResponsesEvent`] has one variant per event type of the Responses stream:
//! the 58 of the official union, 11 seen outside it (`keepalive`,
//! `response.compaction.compacting`, the apply_patch diff events, backend
//! and WebSocket extensions) and 9 legacy names, each holding a view struct
//! ([`OutputTextDelta`], [`ResponseCompleted`], …); any other type decodes to
//! [`ResponsesEvent::Unknown`] with its raw JSON, never to an error; the
//! `[DONE]` sentinel decodes to [`ResponsesEvent::Done`].
//!
//! # Decoding
//!
//! [`ResponsesEvent::from_frame`] picks the view from the SSE `event:` name
//! when there is one (and checks it against the data's `type`), else from
//! the `type` member; [`ResponsesEvent::parse`] reads the data alone. Either
//! way the data is decoded in one pass that validates the JSON and fills the
//! view as it goes, allocating nothing. (When `type` is not the first member,
//! as in streams re-serialized with sorted keys, it is found first, and the
//! object read a second time.)
//!
//! Views borrow from the data: strings are [`JsonStr`] (read them with
//! `as_str()` when they have no escapes, or compare, format or unescape them
//! without allocating), numbers are typed, nested objects are nested views
//! ([`Response`], [`OutputItem`], [`ContentPart`], [`Annotation`],
//! [`Usage`], [`ErrorInfo`]), arrays are lazy [`List`]s decoded as they are
//! iterated, and what the views do not model is kept as [`RawJson`].
//!
//! The large payloads of the rarer events (the `response` of the lifecycle
//! events, the `item` of `output_item.*`, the `part` of `content_part.*` and
//! `reasoning_summary_part.*`, the `annotation`, the nested `error`) are
//! [`Lazy`]: validated as JSON objects with the event, decoded by
//! [`Lazy::get`] when read, so that a [`ResponsesEvent`] is no bigger than a
//! text delta's view (160 bytes). A field of the wrong kind inside such a
//! payload is an error of `get`; [`ResponsesEvent::validate`] reads them all
//! (`parse` then `validate` is the whole event decoded at once).
//!
//! Fields the spec requires are plain fields, and their absence makes the
//! event [`ResponsesEvent::Unknown`], with its raw JSON and a [`DecodeError`]
//! naming the event type and field (see [`DecodeError`] for the rule; data
//! that is not a JSON object is the only error of `parse`), except where real
//! streams are known to omit them: `sequence_number` is always optional
//! (early-2025 streams have none), as are `logprobs` on text events, `name`
//! on `function_call_arguments.done`, `annotation`, and the members of
//! `error` (which comes in two shapes: see [`ErrorEvent`]). Every field of
//! the nested views is optional, since `response.output_item.added` carries
//! partial items. A JSON `null` counts as absent. Unknown members are
//! ignored; if a key appears twice, the last one wins.
//!
//! # Keeping events
//!
//! Views borrow; to keep an event past its buffer, take an
//! [`OwnedResponsesEvent`] ([`OwnedResponsesEvent::from_frame`] shares the
//! frame's bytes, [`ResponsesEvent::to_owned`] copies the text) or, for a
//! nested view, an [`Owned`] (`item.to_owned()`). Their `get()` decodes the
//! kept text again: one pass over it, no allocation.
//!
//! # Visiting fields
//!
//! Every view implements [`Fields`]: [`Fields::for_each_field`] hands each
//! present field to a closure as a [`FieldValue`], nested views and arrays
//! included, so generic code (a logger, a differential test, the CLI) reads
//! every field without knowing the view's type and without allocating.
//!
//! # serde
//!
//! With the `serde` feature, `ResponsesEvent<'a>` and every view implement
//! `serde::Deserialize<'de>`. The borrowed views take the value's raw JSON
//! text through `serde_json`'s `RawValue` protocol and decode it with this
//! module's decoder, so `serde_json::from_str::<ResponsesEvent>` (or a field
//! `#[serde(borrow)] event: ResponsesEvent<'a>` of your own struct) gives
//! exactly what [`ResponsesEvent::parse`] gives, borrowing from the input. This
//! needs `serde_json`'s `raw_value` feature and a borrowed input (`from_str`,
//! `from_slice`); other deserializers cannot hand out raw text, and fail
//! with an error that says so. [`OwnedResponsesEvent`] and [`Owned`]
//! deserialize from any deserializer (`simd_json`, `serde_json::Value`, a
//! reader): they write the value out as JSON text (one allocation) and
//! decode that.
//!
//! # Example
//!
//! ```
//! use ssekit::responses::ResponsesEvent;
//! use ssekit::{Bytes, Parser};
//!
//! let mut parser = Parser::new();
//! parser.feed(Bytes::from_static(
//!     b"event: response.output_text.delta\n\
//!       data: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\
//!       \"output_index\":0,\"content_index\":0,\"delta\":\"Hi\\n\",\"sequence_number\":4}\n\n",
//! ));
//! let frame = parser.next_frame()?.unwrap();
//! match ResponsesEvent::from_frame(&frame)? {
//!     ResponsesEvent::OutputTextDelta(d) => {
//!         assert_eq!(d.output_index, 0);
//!         assert_eq!(d.sequence_number, Some(4));
//!         assert_eq!(d.item_id.as_str(), Some("msg_1")); // a slice of the frame
//!         assert_eq!(d.delta, "Hi\n"); // compared unescaped, without allocating
//!     }
//!     other => panic!("unexpected {}", other.ty()),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[macro_use]
mod macros;
mod accessors;
mod events;
mod items;
mod kind;
pub mod order;
mod owned;
mod response;
#[cfg(feature = "serde")]
mod serde;
#[cfg(test)]
mod tests;
pub mod writer;

pub use crate::views::{
    DecodeError, DecodeErrorKind, Field, FieldElements, FieldValue, Fields, Lazy, List, ListIter,
    Owned, ViewFamily,
};
pub use events::*;
pub use items::*;
pub use kind::{EventRole, PartKind, TextKind};
pub use owned::OwnedResponsesEvent;
pub use response::*;

use crate::frame::Frame;
use crate::json::{JsonStr, ObjectScanner, RawJson, Value};
use crate::views::trim_json_ws;

macro_rules! response_events {
    ($( $(#[$meta:meta])* $variant:ident($view:ident) = $ty:literal => $role:expr, )*) => {
        /// One event of a Responses API stream, decoded into a view that
        /// borrows from the event's data.
        ///
        /// See the [module docs](self) for how events are decoded.
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub enum ResponsesEvent<'a> {
            $( $(#[$meta])* $variant($view<'a>), )*
            /// An event type this version does not model, or an object
            /// that does not fit the type it names: decoding passes both on
            /// rather than failing (see [`DecodeError`] for the rule).
            Unknown {
                /// The event's `type`, as in the input (the last one when
                /// there are several; empty when there is none or it is not
                /// a string).
                ty: JsonStr<'a>,
                /// The whole event, validated.
                raw: RawJson<'a>,
                /// `None` for a type this version does not model; for an
                /// object that does not fit, what did not: a missing field
                /// (`type` included), a field of the wrong kind, or
                /// [`DecodeErrorKind::TypeMismatch`] (a `type` that
                /// disagrees with the SSE event name).
                error: Option<DecodeError>,
            },
            /// The `[DONE]` sentinel that some servers and proxies send last.
            Done,
        }

        /// The modeled event types, as a small index to dispatch on.
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum Kind {
            $( $variant, )*
        }

        impl Kind {
            fn ty(self) -> &'static str {
                self.public().ty()
            }

            fn public(self) -> EventKind {
                match self {
                    $( Self::$variant => EventKind::$variant, )*
                }
            }
        }

        /// The type of a Responses event, without its data: one variant per
        /// modeled type (as [`ResponsesEvent`]), [`Unknown`](Self::Unknown)
        /// and [`Done`](Self::Done). It carries the type string
        /// ([`ty`](Self::ty)) and what the type does in a stream
        /// ([`role`](Self::role)), so code that sorts events reads this
        /// table instead of lists of strings of its own.
        ///
        /// ```
        /// use ssekit::responses::{EventKind, EventRole, TextKind};
        ///
        /// let kind = EventKind::from_type("response.output_text.delta");
        /// assert_eq!(kind, EventKind::OutputTextDelta);
        /// assert_eq!(kind.ty(), "response.output_text.delta");
        /// assert_eq!(kind.role(), EventRole::Delta(TextKind::OutputText));
        /// assert_eq!(EventKind::from_type("response.future"), EventKind::Unknown);
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum EventKind {
            $( $(#[$meta])* $variant, )*
            /// A type this version does not model.
            Unknown,
            /// The `[DONE]` sentinel.
            Done,
        }

        impl EventKind {
            /// Every modeled kind (not [`Unknown`](Self::Unknown) nor
            /// [`Done`](Self::Done)), in the order of [`ResponsesEvent::TYPES`].
            pub const ALL: &'static [EventKind] = &[$( Self::$variant, )*];

            /// The kind of an event type (compared as written, no escapes):
            /// [`Unknown`](Self::Unknown) for a type no variant models.
            /// `"[DONE]"` is [`Done`](Self::Done).
            pub fn from_type(ty: &str) -> Self {
                match ResponsesEvent::kind_of(ty.as_bytes()) {
                    Some(kind) => kind.public(),
                    None if ty == "[DONE]" => Self::Done,
                    None => Self::Unknown,
                }
            }

            /// The event type, as the `type` member and the SSE `event:`
            /// name spell it; `"[DONE]"` for [`Done`](Self::Done), `""` for
            /// [`Unknown`](Self::Unknown).
            pub const fn ty(self) -> &'static str {
                match self {
                    $( Self::$variant => $ty, )*
                    Self::Unknown => "",
                    Self::Done => "[DONE]",
                }
            }

            /// What events of this kind do in a stream.
            pub const fn role(self) -> EventRole {
                use EventRole::*;
                match self {
                    $( Self::$variant => $role, )*
                    Self::Unknown | Self::Done => EventRole::Other,
                }
            }
        }

        impl<'a> ResponsesEvent<'a> {
            /// The event types with their own variant.
            pub const TYPES: &'static [&'static str] = &[$($ty),*];

            /// The `&'static` form of a known event type.
            fn known(ty: &str) -> Option<&'static str> {
                Self::kind_of_str(ty).map(Kind::ty)
            }

            /// The variant of a known event type.
            #[inline]
            fn kind_of_str(ty: &str) -> Option<Kind> {
                Self::kind_of(ty.as_bytes())
            }

            /// The correlation keys of the event (see `accessors.rs`).
            #[inline]
            fn keys(&self) -> accessors::Keys<'a> {
                match self {
                    $( Self::$variant(v) => v.keys(), )*
                    Self::Unknown { .. } | Self::Done => accessors::Keys::NONE,
                }
            }

            /// The event's kind: its type and role, without its data.
            /// [`EventKind::Unknown`] for every [`Unknown`](Self::Unknown),
            /// also one whose `ty()` names a known type it does not fit.
            pub fn kind(&self) -> EventKind {
                match self {
                    $( Self::$variant(_) => EventKind::$variant, )*
                    Self::Unknown { .. } => EventKind::Unknown,
                    Self::Done => EventKind::Done,
                }
            }

            /// The variant of a known event type, given as bytes: the SSE
            /// event name is matched without checking it is UTF-8 first
            /// (every known name is ASCII).
            fn kind_of(ty: &[u8]) -> Option<Kind> {
                // The deltas first: they are nearly every event of a stream.
                // (`==` on slices, not byte-string patterns, which compile
                // to one comparison per byte.)
                if ty == b"response.output_text.delta" {
                    return Some(Kind::OutputTextDelta);
                }
                if ty == b"response.function_call_arguments.delta" {
                    return Some(Kind::FunctionCallArgumentsDelta);
                }
                if ty == b"response.reasoning_summary_text.delta" {
                    return Some(Kind::ReasoningSummaryTextDelta);
                }
                $( if ty == $ty.as_bytes() { return Some(Kind::$variant); } )*
                None
            }

            /// The JSON keys of the fields of a known event type's view
            /// (without `type`), or `None` for an unknown type.
            pub fn fields_of(ty: &str) -> Option<&'static [&'static str]> {
                match ty {
                    $( $ty => Some($view::FIELDS), )*
                    _ => None,
                }
            }

            /// Decodes the members of a known type's view. `text` is the
            /// event's text (`data` without surrounding whitespace); `check`
            /// whether a `type` member must match.
            fn decode_kind(
                kind: Kind,
                members: ObjectScanner<'a>,
                data: &'a str,
                text: &'a str,
                check: bool,
            ) -> Result<Self, DecodeError> {
                match kind {
                    $(
                        Kind::$variant => $crate::views::decode::decode_apart::<$view<'a>, _>(members, data, Some(text), check.then_some($ty))
                            .map_err(|e| e.with_event_type($ty))
                            .map(Self::$variant),
                    )*
                }
            }

            /// The event type: a constant for the modeled variants;
            /// `"[DONE]"` for [`Done`](Self::Done); for
            /// [`Unknown`](Self::Unknown), the raw text of its `type`
            /// (escapes as they stand).
            pub fn ty(&self) -> &'a str {
                match self {
                    $( Self::$variant(_) => $ty, )*
                    Self::Unknown { ty, .. } => ty.raw(),
                    Self::Done => "[DONE]",
                }
            }

            /// The event's JSON text, as in the input; `None` for
            /// [`Done`](Self::Done).
            pub fn raw(&self) -> Option<RawJson<'a>> {
                match self {
                    $( Self::$variant(v) => Some(v.raw()), )*
                    Self::Unknown { raw, .. } => Some(*raw),
                    Self::Done => None,
                }
            }

            /// Decodes the event's [`Lazy`] payloads (the response object of
            /// the lifecycle events, the item, part, annotation or error of
            /// the others), which its decoder validated as JSON objects but
            /// left undecoded, and reports the first error, naming the
            /// event type: with [`parse`](Self::parse), this is the decode
            /// of the whole event at once. `Ok` for an event without them.
            ///
            /// # Errors
            ///
            /// The [`DecodeError`] of a payload field of the wrong kind, or
            /// an [`Unknown`](Self::Unknown)'s [`decode_error`](Self::decode_error):
            /// the event's type is known but its members do not fit it.
            pub fn validate(&self) -> Result<(), DecodeError> {
                match self {
                    $( Self::$variant(v) => v.check_fields().map_err(|e| e.with_event_type($ty)), )*
                    Self::Unknown { error: Some(e), .. } => Err(*e),
                    Self::Unknown { error: None, .. } | Self::Done => Ok(()),
                }
            }

            /// What did not fit, for an [`Unknown`](Self::Unknown) that is
            /// an object that does not fit its type (see [`DecodeError`]
            /// for the rule); `None` for every other event, a type this
            /// version does not model included. The same as
            /// [`Fields::decode_error`].
            pub fn decode_error(&self) -> Option<DecodeError> {
                match self {
                    Self::Unknown { error, .. } => *error,
                    _ => None,
                }
            }

            strict_reading!(ResponsesEvent, "responses", r#"{"type":"response.output_text.delta"}"#);

            /// The event's `sequence_number`, if it has one (streams from
            /// before mid-2025 do not). For an unknown event it is looked up
            /// in the raw JSON.
            pub fn sequence_number(&self) -> Option<u64> {
                match self {
                    $( Self::$variant(v) => v.sequence_number, )*
                    Self::Unknown { raw, .. } => raw.value().get("sequence_number")?.as_u64(),
                    Self::Done => None,
                }
            }
        }

        impl<'a> Fields<'a> for ResponsesEvent<'a> {
            fn field_names(&self) -> &'static [&'static str] {
                match self {
                    $( Self::$variant(_) => $view::FIELDS, )*
                    Self::Unknown { .. } | Self::Done => &[],
                }
            }
            fn decode_error(&self) -> Option<DecodeError> {
                ResponsesEvent::decode_error(self)
            }
            fn for_each_field(&self, f: &mut dyn FnMut(&'static str, FieldValue<'a, '_>)) {
                match self {
                    $(
                        Self::$variant(v) => {
                            f("type", FieldValue::Str(JsonStr::new(concat!("\"", $ty, "\""), false)));
                            v.for_each_field(f);
                        }
                    )*
                    // An object that does not fit may have no string `type`
                    // (then `ty` is empty): none is made up for it.
                    Self::Unknown { ty, raw, error } => {
                        if error.is_none() || !ty.is_empty() || crate::views::has_string_type(*raw) {
                            f("type", FieldValue::Str(*ty));
                        }
                    }
                    Self::Done => {}
                }
            }
        }
    };
}

response_events! {
        /// `response.completed`
        ResponseCompleted(ResponseCompleted) = "response.completed" => Terminal,
        /// `response.created`
        ResponseCreated(ResponseCreated) = "response.created" => Lifecycle,
        /// `response.in_progress`
        ResponseInProgress(ResponseInProgress) = "response.in_progress" => Lifecycle,
        /// `response.failed`
        ResponseFailed(ResponseFailed) = "response.failed" => Terminal,
        /// `response.incomplete`
        ResponseIncomplete(ResponseIncomplete) = "response.incomplete" => Terminal,
        /// `response.output_item.added`
        OutputItemAdded(OutputItemAdded) = "response.output_item.added" => ItemAdded,
        /// `response.output_item.done`
        OutputItemDone(OutputItemDone) = "response.output_item.done" => ItemDone,
        /// `response.queued`
        ResponseQueued(ResponseQueued) = "response.queued" => Lifecycle,
        /// `response.content_part.added`
        ContentPartAdded(ContentPartAdded) = "response.content_part.added" => PartAdded(PartKind::Content),
        /// `response.content_part.done`
        ContentPartDone(ContentPartDone) = "response.content_part.done" => PartDone(PartKind::Content),
        /// `response.refusal.delta`
        RefusalDelta(RefusalDelta) = "response.refusal.delta" => Delta(TextKind::Refusal),
        /// `response.refusal.done`
        RefusalDone(RefusalDone) = "response.refusal.done" => TextDone(TextKind::Refusal),
        /// `response.output_text.delta`
        OutputTextDelta(OutputTextDelta) = "response.output_text.delta" => Delta(TextKind::OutputText),
        /// `response.output_text.done`
        OutputTextDone(OutputTextDone) = "response.output_text.done" => TextDone(TextKind::OutputText),
        /// `response.output_text.annotation.added`
        OutputTextAnnotationAdded(OutputTextAnnotationAdded) = "response.output_text.annotation.added" => ItemEvent(Some(PartKind::Content)),
        /// `response.output_text_annotation.added` (not in the official union)
        LegacyOutputTextAnnotationAdded(LegacyOutputTextAnnotationAdded) = "response.output_text_annotation.added" => ItemEvent(Some(PartKind::Content)),
        /// `response.reasoning_summary_part.added`
        ReasoningSummaryPartAdded(ReasoningSummaryPartAdded) = "response.reasoning_summary_part.added" => PartAdded(PartKind::Summary),
        /// `response.reasoning_summary_part.done`
        ReasoningSummaryPartDone(ReasoningSummaryPartDone) = "response.reasoning_summary_part.done" => PartDone(PartKind::Summary),
        /// `response.reasoning_summary_text.delta`
        ReasoningSummaryTextDelta(ReasoningSummaryTextDelta) = "response.reasoning_summary_text.delta" => Delta(TextKind::SummaryText),
        /// `response.reasoning_summary_text.done`
        ReasoningSummaryTextDone(ReasoningSummaryTextDone) = "response.reasoning_summary_text.done" => TextDone(TextKind::SummaryText),
        /// `response.reasoning_text.delta`
        ReasoningTextDelta(ReasoningTextDelta) = "response.reasoning_text.delta" => Delta(TextKind::ReasoningText),
        /// `response.reasoning_text.done`
        ReasoningTextDone(ReasoningTextDone) = "response.reasoning_text.done" => TextDone(TextKind::ReasoningText),
        /// `response.reasoning.delta` (not in the official union)
        LegacyReasoningDelta(LegacyReasoningDelta) = "response.reasoning.delta" => Delta(TextKind::LegacyReasoning),
        /// `response.reasoning.done` (not in the official union)
        LegacyReasoningDone(LegacyReasoningDone) = "response.reasoning.done" => TextDone(TextKind::LegacyReasoning),
        /// `response.reasoning_summary.delta` (not in the official union)
        LegacyReasoningSummaryDelta(LegacyReasoningSummaryDelta) = "response.reasoning_summary.delta" => Delta(TextKind::LegacySummary),
        /// `response.reasoning_summary.done` (not in the official union)
        LegacyReasoningSummaryDone(LegacyReasoningSummaryDone) = "response.reasoning_summary.done" => TextDone(TextKind::LegacySummary),
        /// `response.function_call_arguments.delta`
        FunctionCallArgumentsDelta(FunctionCallArgumentsDelta) = "response.function_call_arguments.delta" => Delta(TextKind::FunctionArguments),
        /// `response.function_call_arguments.done`
        FunctionCallArgumentsDone(FunctionCallArgumentsDone) = "response.function_call_arguments.done" => TextDone(TextKind::FunctionArguments),
        /// `response.custom_tool_call_input.delta`
        CustomToolCallInputDelta(CustomToolCallInputDelta) = "response.custom_tool_call_input.delta" => Delta(TextKind::CustomInput),
        /// `response.custom_tool_call_input.done`
        CustomToolCallInputDone(CustomToolCallInputDone) = "response.custom_tool_call_input.done" => TextDone(TextKind::CustomInput),
        /// `response.code_interpreter_call_code.delta`
        CodeInterpreterCallCodeDelta(CodeInterpreterCallCodeDelta) = "response.code_interpreter_call_code.delta" => Delta(TextKind::Code),
        /// `response.code_interpreter_call_code.done`
        CodeInterpreterCallCodeDone(CodeInterpreterCallCodeDone) = "response.code_interpreter_call_code.done" => TextDone(TextKind::Code),
        /// `response.code_interpreter_call.completed`
        CodeInterpreterCallCompleted(CodeInterpreterCallCompleted) = "response.code_interpreter_call.completed" => ItemEvent(None),
        /// `response.code_interpreter_call.in_progress`
        CodeInterpreterCallInProgress(CodeInterpreterCallInProgress) = "response.code_interpreter_call.in_progress" => ItemEvent(None),
        /// `response.code_interpreter_call.interpreting`
        CodeInterpreterCallInterpreting(CodeInterpreterCallInterpreting) = "response.code_interpreter_call.interpreting" => ItemEvent(None),
        /// `response.file_search_call.completed`
        FileSearchCallCompleted(FileSearchCallCompleted) = "response.file_search_call.completed" => ItemEvent(None),
        /// `response.file_search_call.in_progress`
        FileSearchCallInProgress(FileSearchCallInProgress) = "response.file_search_call.in_progress" => ItemEvent(None),
        /// `response.file_search_call.searching`
        FileSearchCallSearching(FileSearchCallSearching) = "response.file_search_call.searching" => ItemEvent(None),
        /// `response.shell_call_command.added`
        ShellCallCommandAdded(ShellCallCommandAdded) = "response.shell_call_command.added" => PartAdded(PartKind::Command),
        /// `response.shell_call_command.delta`
        ShellCallCommandDelta(ShellCallCommandDelta) = "response.shell_call_command.delta" => Delta(TextKind::ShellCommand),
        /// `response.shell_call_command.done`
        ShellCallCommandDone(ShellCallCommandDone) = "response.shell_call_command.done" => TextDone(TextKind::ShellCommand),
        /// `response.shell_call_output_content.delta`
        ShellCallOutputContentDelta(ShellCallOutputContentDelta) = "response.shell_call_output_content.delta" => ItemEvent(None),
        /// `response.shell_call_output_content.done`
        ShellCallOutputContentDone(ShellCallOutputContentDone) = "response.shell_call_output_content.done" => ItemEvent(None),
        /// `response.web_search_call.completed`
        WebSearchCallCompleted(WebSearchCallCompleted) = "response.web_search_call.completed" => ItemEvent(None),
        /// `response.web_search_call.in_progress`
        WebSearchCallInProgress(WebSearchCallInProgress) = "response.web_search_call.in_progress" => ItemEvent(None),
        /// `response.web_search_call.searching`
        WebSearchCallSearching(WebSearchCallSearching) = "response.web_search_call.searching" => ItemEvent(None),
        /// `response.image_generation_call.completed`
        ImageGenerationCallCompleted(ImageGenerationCallCompleted) = "response.image_generation_call.completed" => ItemEvent(None),
        /// `response.image_generation_call.generating`
        ImageGenerationCallGenerating(ImageGenerationCallGenerating) = "response.image_generation_call.generating" => ItemEvent(None),
        /// `response.image_generation_call.in_progress`
        ImageGenerationCallInProgress(ImageGenerationCallInProgress) = "response.image_generation_call.in_progress" => ItemEvent(None),
        /// `response.image_generation_call.partial_image`
        ImageGenerationCallPartialImage(ImageGenerationCallPartialImage) = "response.image_generation_call.partial_image" => ItemEvent(None),
        /// `response.mcp_call_arguments.delta`
        McpCallArgumentsDelta(McpCallArgumentsDelta) = "response.mcp_call_arguments.delta" => Delta(TextKind::McpArguments),
        /// `response.mcp_call_arguments.done`
        McpCallArgumentsDone(McpCallArgumentsDone) = "response.mcp_call_arguments.done" => TextDone(TextKind::McpArguments),
        /// `response.mcp_call.completed`
        McpCallCompleted(McpCallCompleted) = "response.mcp_call.completed" => ItemEvent(None),
        /// `response.mcp_call.failed`
        McpCallFailed(McpCallFailed) = "response.mcp_call.failed" => ItemEvent(None),
        /// `response.mcp_call.in_progress`
        McpCallInProgress(McpCallInProgress) = "response.mcp_call.in_progress" => ItemEvent(None),
        /// `response.mcp_list_tools.completed`
        McpListToolsCompleted(McpListToolsCompleted) = "response.mcp_list_tools.completed" => ItemEvent(None),
        /// `response.mcp_list_tools.failed`
        McpListToolsFailed(McpListToolsFailed) = "response.mcp_list_tools.failed" => ItemEvent(None),
        /// `response.mcp_list_tools.in_progress`
        McpListToolsInProgress(McpListToolsInProgress) = "response.mcp_list_tools.in_progress" => ItemEvent(None),
        /// `response.apply_patch_call_operation_diff.delta` (not in the official union)
        ApplyPatchCallOperationDiffDelta(ApplyPatchCallOperationDiffDelta) = "response.apply_patch_call_operation_diff.delta" => Delta(TextKind::PatchDiff),
        /// `response.apply_patch_call_operation_diff.done` (not in the official union)
        ApplyPatchCallOperationDiffDone(ApplyPatchCallOperationDiffDone) = "response.apply_patch_call_operation_diff.done" => TextDone(TextKind::PatchDiff),
        /// `response.code_interpreter_call.code.delta` (not in the official union)
        LegacyCodeInterpreterCallCodeDelta(LegacyCodeInterpreterCallCodeDelta) = "response.code_interpreter_call.code.delta" => Delta(TextKind::LegacyCode),
        /// `response.code_interpreter_call.code.done` (not in the official union)
        LegacyCodeInterpreterCallCodeDone(LegacyCodeInterpreterCallCodeDone) = "response.code_interpreter_call.code.done" => TextDone(TextKind::LegacyCode),
        /// `response.mcp_call.arguments_delta` (not in the official union)
        LegacyMcpCallArgumentsDelta(LegacyMcpCallArgumentsDelta) = "response.mcp_call.arguments_delta" => Delta(TextKind::LegacyMcpArguments),
        /// `response.mcp_call.arguments_done` (not in the official union)
        LegacyMcpCallArgumentsDone(LegacyMcpCallArgumentsDone) = "response.mcp_call.arguments_done" => TextDone(TextKind::LegacyMcpArguments),
        /// `response.audio.delta`
        AudioDelta(AudioDelta) = "response.audio.delta" => Other,
        /// `response.audio.done`
        AudioDone(AudioDone) = "response.audio.done" => Other,
        /// `response.audio.transcript.delta`
        AudioTranscriptDelta(AudioTranscriptDelta) = "response.audio.transcript.delta" => Other,
        /// `response.audio.transcript.done`
        AudioTranscriptDone(AudioTranscriptDone) = "response.audio.transcript.done" => Other,
        /// `error`
        ErrorEvent(ErrorEvent) = "error" => Error,
        /// `response.compaction.compacting` (not in the official union)
        CompactionCompacting(CompactionCompacting) = "response.compaction.compacting" => ItemEvent(None),
        /// `keepalive` (not in the official union)
        Keepalive(Keepalive) = "keepalive" => Other,
        /// `response.metadata` (not in the official union)
        ResponseMetadata(ResponseMetadata) = "response.metadata" => Other,
        /// `codex.rate_limits` (not in the official union)
        CodexRateLimits(CodexRateLimits) = "codex.rate_limits" => Other,
        /// `response.inject.created` (not in the official union)
        InjectCreated(InjectCreated) = "response.inject.created" => Other,
        /// `response.inject.failed` (not in the official union)
        InjectFailed(InjectFailed) = "response.inject.failed" => Other,
        /// `response.steer.accepted` (not in the official union)
        SteerAccepted(SteerAccepted) = "response.steer.accepted" => Other,
        /// `response.steer.failed` (not in the official union)
        SteerFailed(SteerFailed) = "response.steer.failed" => Other,
        /// `response.steer.pending` (not in the official union)
        SteerPending(SteerPending) = "response.steer.pending" => Other,
}

impl<'a> ResponsesEvent<'a> {
    /// Decodes the data of one event, choosing the view by its `type`.
    ///
    /// `"[DONE]"` (whitespace around it allowed) decodes to
    /// [`Done`](Self::Done); a type with no variant, to
    /// [`Unknown`](Self::Unknown). Nothing is allocated.
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] when the data is not a JSON object. An object that
    /// has no string `type`, lacks a field its type requires or has a field
    /// of the wrong JSON kind is not an error but
    /// [`Unknown`](Self::Unknown), with the raw JSON and what did not fit
    /// (see [`DecodeError`] for the rule):
    ///
    /// ```
    /// use ssekit::responses::{DecodeErrorKind, ResponsesEvent};
    ///
    /// let data = r#"{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0}"#;
    /// let event = ResponsesEvent::parse(data)?;
    /// let ResponsesEvent::Unknown { ty, error: Some(error), .. } = event else { panic!() };
    /// assert_eq!(ty, "response.output_text.delta");
    /// assert_eq!(error.kind(), DecodeErrorKind::MissingField { field: "delta" });
    ///
    /// assert!(ResponsesEvent::parse(r#"{"type":"response.output_text.delta""#).is_err());
    /// # Ok::<(), ssekit::responses::DecodeError>(())
    /// ```
    pub fn parse(data: &'a str) -> Result<Self, DecodeError> {
        Self::parse_typed(data).or_else(|e| Self::unfit(data, e, None))
    }

    /// A decoder's failure on `data` (decoded as `named`, the SSE event
    /// name's kind, if given), under the rule of [`DecodeError`]:
    /// [`Unknown`](Self::Unknown) with the error when `data` is a JSON
    /// object, else the error. When the decoder stopped before a later
    /// `type` that disagrees, that `type` decides, as in serde_json: it is
    /// decoded by it (or, with an event name, it is a type mismatch).
    #[cold]
    fn unfit(data: &'a str, e: DecodeError, named: Option<Kind>) -> Result<Self, DecodeError> {
        let decode_by = |ty| {
            let kind = Self::kind_of_json(ty)?;
            let text = trim_json_ws(data);
            Some(Self::decode_kind(
                kind,
                ObjectScanner::new(data),
                data,
                text,
                false,
            ))
        };
        Ok(
            match crate::views::unfit(data, e, named.map(Kind::ty), decode_by)? {
                crate::views::Unfit::Event(event) => event,
                crate::views::Unfit::Unknown { ty, raw, error } => Self::Unknown { ty, raw, error },
            },
        )
    }

    /// [`parse`](Self::parse), but a shape error may come before a JSON
    /// error later in the text.
    fn parse_typed(data: &'a str) -> Result<Self, DecodeError> {
        let text = trim_json_ws(data);
        if text == "[DONE]" {
            return Ok(Self::Done);
        }
        let mut members = ObjectScanner::new(data);
        // Fast path: `type` first, as the API sends it. Then the view is
        // decoded from the rest of the same walk, which checks that any
        // later `type` member agrees.
        let mut first = true;
        let ty = loop {
            let Some(member) = members.next() else {
                return Err(DecodeError::new(
                    DecodeErrorKind::MissingField { field: "type" },
                    0,
                ));
            };
            let (key, value) = member.map_err(DecodeError::json)?;
            if key.as_str() == Some("type") || (key.has_escapes() && key == "type") {
                match value {
                    Value::String(ty) => break ty,
                    _ => break JsonStr::default(), // the last `type` decides, below
                }
            }
            first = false;
        };
        let decoded = match Self::kind_of_json(ty) {
            Some(kind) if first => Self::decode_kind(kind, members, data, text, true),
            // Members before `type` were skipped: walk again.
            Some(kind) => Self::decode_kind(kind, ObjectScanner::new(data), data, text, true),
            None => {
                // Unknown (or not a string): validate the rest, and look for
                // a later `type` that says otherwise.
                if crate::views::first_type_stands(members, ty)? {
                    return Ok(Self::Unknown {
                        ty,
                        raw: RawJson::new(text),
                        error: None,
                    });
                }
                Err(DecodeError::new(DecodeErrorKind::TypeMismatch, 0))
            }
        };
        match decoded {
            // Duplicate `type` members that disagree: the last one wins, as
            // in serde_json::Value, JavaScript and Python.
            Err(e) if crate::views::type_disputed(&e) => Self::parse_last_type(data, text),
            decoded => decoded,
        }
    }

    /// Decodes `data` as the view of `kind`, named by the SSE event: every
    /// `type` member must agree with it, or at least the last one (which
    /// is the one that counts, as in serde_json::Value).
    fn decode_named(kind: Kind, data: &'a str) -> Result<Self, DecodeError> {
        Self::decode_named_typed(kind, data).or_else(|e| Self::unfit(data, e, Some(kind)))
    }

    /// [`decode_named`](Self::decode_named), but a shape error may come
    /// before a JSON error later in the text.
    fn decode_named_typed(kind: Kind, data: &'a str) -> Result<Self, DecodeError> {
        let text = trim_json_ws(data);
        match Self::decode_kind(kind, ObjectScanner::new(data), data, text, true) {
            Err(e) if crate::views::type_disputed(&e) => match crate::views::last_type(data)? {
                Some(ty) if Self::kind_of_json(ty) == Some(kind) => {
                    Self::decode_kind(kind, ObjectScanner::new(data), data, text, false)
                }
                _ => Err(e),
            },
            decoded => decoded,
        }
    }

    /// [`parse`](Self::parse) of an object whose `type` members disagree:
    /// decoded by the last one.
    #[cold]
    fn parse_last_type(data: &'a str, text: &'a str) -> Result<Self, DecodeError> {
        let ty = crate::views::last_type(data)?.unwrap_or_default();
        match Self::kind_of_json(ty) {
            Some(kind) => Self::decode_kind(kind, ObjectScanner::new(data), data, text, false),
            None => Ok(Self::Unknown {
                ty,
                raw: RawJson::new(text),
                error: None,
            }),
        }
    }

    /// The variant of a known event type given as a JSON string, compared
    /// unescaped (`"response.output_text.d\u0065lta"` is a text delta, as
    /// for every JSON reader). Allocates nothing.
    fn kind_of_json(ty: JsonStr<'_>) -> Option<Kind> {
        match ty.as_str() {
            Some(plain) => Self::kind_of_str(plain),
            None => Self::TYPES
                .iter()
                .find(|known| ty == **known)
                .and_then(|known| Self::kind_of_str(known)),
        }
    }

    /// Decodes an event given its SSE event name: when `event` is a known
    /// type, that view is decoded directly and the data's `type`, if
    /// present, must match it; otherwise this is [`parse`](Self::parse).
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse). When the name and the data's `type`
    /// differ, the event is [`Unknown`](Self::Unknown) with
    /// [`DecodeErrorKind::TypeMismatch`].
    pub fn parse_named(event: &str, data: &'a str) -> Result<Self, DecodeError> {
        match Self::kind_of_str(event) {
            Some(kind) => Self::decode_named(kind, data),
            None => Self::parse(data),
        }
    }

    /// Decodes a frame: by its event name when it has one (see
    /// [`parse_named`](Self::parse_named)), else by its data's `type`.
    ///
    /// The view borrows from the frame, which owns its bytes; to keep the
    /// event longer than the frame, keep the frame (it is cheap to clone).
    ///
    /// # Errors
    ///
    /// As [`parse_named`](Self::parse_named).
    pub fn from_frame(frame: &'a Frame) -> Result<Self, DecodeError> {
        // The event name is matched as bytes: a known name is ASCII, and an
        // unknown one is not read (the data's `type` decides).
        match Self::kind_of(frame.event.as_str().as_bytes()) {
            Some(kind) => Self::decode_named(kind, frame.data()),
            None => Self::parse(frame.data()),
        }
    }
}
