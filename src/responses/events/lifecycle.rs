//! The response lifecycle and output items.

use super::super::{Lazy, OutputItem, Response};
use crate::json::RawJson;

event_view! {
    /// Emitted when the model response is complete.
    ///
    /// `response.completed`
    pub struct ResponseCompleted<'a> = "response.completed" {
        /// The response object, as it stands at this event.
        response: req Lazy<'a, Response<'a>>,
        /// Usage reported by GitHub Copilot (not in the spec), as raw JSON.
        copilot_usage: opt RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// An event that is emitted when a response is created.
    ///
    /// `response.created`
    pub struct ResponseCreated<'a> = "response.created" {
        /// The response object, as it stands at this event.
        response: req Lazy<'a, Response<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when the response is in progress.
    ///
    /// `response.in_progress`
    pub struct ResponseInProgress<'a> = "response.in_progress" {
        /// The response object, as it stands at this event.
        response: req Lazy<'a, Response<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// An event that is emitted when a response fails.
    ///
    /// `response.failed`
    pub struct ResponseFailed<'a> = "response.failed" {
        /// The response object, as it stands at this event.
        response: req Lazy<'a, Response<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// An event that is emitted when a response finishes as incomplete.
    ///
    /// `response.incomplete`
    pub struct ResponseIncomplete<'a> = "response.incomplete" {
        /// The response object, as it stands at this event.
        response: req Lazy<'a, Response<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a new output item is added.
    ///
    /// `response.output_item.added`
    pub struct OutputItemAdded<'a> = "response.output_item.added" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The output item (partial in `output_item.added`, final in `output_item.done`).
        item: req Lazy<'a, OutputItem<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when an output item is marked done.
    ///
    /// `response.output_item.done`
    pub struct OutputItemDone<'a> = "response.output_item.done" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The output item (partial in `output_item.added`, final in `output_item.done`).
        item: req Lazy<'a, OutputItem<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a response is queued and waiting to be processed.
    ///
    /// `response.queued`
    pub struct ResponseQueued<'a> = "response.queued" {
        /// The response object, as it stands at this event.
        response: req Lazy<'a, Response<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}
