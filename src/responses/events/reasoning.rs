//! Reasoning text and reasoning summaries.

use super::super::{ContentPart, Lazy};
use crate::json::{JsonStr, RawJson};

event_view! {
    /// Emitted when a new reasoning summary part is added.
    ///
    /// `response.reasoning_summary_part.added`
    pub struct ReasoningSummaryPartAdded<'a> = "response.reasoning_summary_part.added" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the summary part in the reasoning item's `summary`.
        summary_index: req u64,
        /// The content part.
        part: req Lazy<'a, ContentPart<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a reasoning summary part is completed.
    ///
    /// `response.reasoning_summary_part.done`
    pub struct ReasoningSummaryPartDone<'a> = "response.reasoning_summary_part.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the summary part in the reasoning item's `summary`.
        summary_index: req u64,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// The content part.
        part: req Lazy<'a, ContentPart<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a delta is added to a reasoning summary text.
    ///
    /// `response.reasoning_summary_text.delta`
    pub struct ReasoningSummaryTextDelta<'a> = "response.reasoning_summary_text.delta" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the summary part in the reasoning item's `summary`.
        summary_index: req u64,
        /// The text appended by this event.
        delta: req JsonStr<'a>,
        /// Random padding that hides the delta's length (sent by the API, not declared in the
        /// spec).
        obfuscation: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a reasoning summary text is completed.
    ///
    /// `response.reasoning_summary_text.done`
    pub struct ReasoningSummaryTextDone<'a> = "response.reasoning_summary_text.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the summary part in the reasoning item's `summary`.
        summary_index: req u64,
        /// The complete text.
        text: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a delta is added to a reasoning text.
    ///
    /// `response.reasoning_text.delta`
    pub struct ReasoningTextDelta<'a> = "response.reasoning_text.delta" {
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
    /// Emitted when a reasoning text is completed.
    ///
    /// `response.reasoning_text.done`
    pub struct ReasoningTextDone<'a> = "response.reasoning_text.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The complete text.
        text: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: legacy name (old SDK/spec versions only).
    ///
    /// `response.reasoning.delta`
    pub struct LegacyReasoningDelta<'a> = "response.reasoning.delta" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The delta, as raw JSON.
        delta: req RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: legacy name (old SDK/spec versions only).
    ///
    /// `response.reasoning.done`
    pub struct LegacyReasoningDone<'a> = "response.reasoning.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the content part in the item's `content`.
        content_index: req u64,
        /// The complete text.
        text: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: legacy name (old SDK/spec versions only).
    ///
    /// `response.reasoning_summary.delta`
    pub struct LegacyReasoningSummaryDelta<'a> = "response.reasoning_summary.delta" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the summary part in the reasoning item's `summary`.
        summary_index: req u64,
        /// The delta, as raw JSON.
        delta: req RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: legacy name (old SDK/spec versions only).
    ///
    /// `response.reasoning_summary.done`
    pub struct LegacyReasoningSummaryDone<'a> = "response.reasoning_summary.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the summary part in the reasoning item's `summary`.
        summary_index: req u64,
        /// The complete text.
        text: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}
