//! Output text, refusals, content parts and annotations.

use super::super::{Annotation, ContentPart, Lazy, Logprobs};
use crate::json::JsonStr;

event_view! {
    /// Emitted when a new content part is added.
    ///
    /// `response.content_part.added`
    pub struct ContentPartAdded<'a> = "response.content_part.added" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The content part.
        part: req Lazy<'a, ContentPart<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a content part is done.
    ///
    /// `response.content_part.done`
    pub struct ContentPartDone<'a> = "response.content_part.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The content part.
        part: req Lazy<'a, ContentPart<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when there is a partial refusal text.
    ///
    /// `response.refusal.delta`
    pub struct RefusalDelta<'a> = "response.refusal.delta" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The text appended by this event.
        delta: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when refusal text is finalized.
    ///
    /// `response.refusal.done`
    pub struct RefusalDone<'a> = "response.refusal.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The refusal text.
        refusal: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when there is an additional text delta.
    ///
    /// `response.output_text.delta`
    pub struct OutputTextDelta<'a> = "response.output_text.delta" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The text appended by this event.
        delta: req JsonStr<'a>,
        /// Log probabilities of the tokens (absent unless requested).
        logprobs: opt Logprobs<'a>,
        /// Random padding that hides the delta's length (sent by the API, not declared in the
        /// spec).
        obfuscation: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when text content is finalized.
    ///
    /// `response.output_text.done`
    pub struct OutputTextDone<'a> = "response.output_text.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The complete text.
        text: req JsonStr<'a>,
        /// Log probabilities of the tokens (absent unless requested).
        logprobs: opt Logprobs<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when an annotation is added to output text content.
    ///
    /// `response.output_text.annotation.added`
    pub struct OutputTextAnnotationAdded<'a> = "response.output_text.annotation.added" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The index of the annotation in the content part's `annotations`.
        annotation_index: req u64,
        /// The annotation added to the text.
        annotation: opt Lazy<'a, Annotation<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: legacy name (old SDK/spec versions only).
    ///
    /// `response.output_text_annotation.added`
    pub struct LegacyOutputTextAnnotationAdded<'a> = "response.output_text_annotation.added" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The index of the annotation in the content part's `annotations`.
        annotation_index: req u64,
        /// The annotation added to the text.
        annotation: opt Lazy<'a, Annotation<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}
