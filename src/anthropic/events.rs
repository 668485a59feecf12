//! The event views of a Messages stream.

use super::blocks::{BlockDelta, ContentBlock};
use super::message::{ApiError, Message, MessageDeltaBody, Usage};
use crate::json::RawJson;

view! {
    /// The first event: the message's metadata, with empty content.
    pub struct MessageStart<'a> = "message_start" {
        /// The message.
        message: req Message<'a>,
    }
}

view! {
    /// A content block opens at `index`, empty.
    pub struct ContentBlockStart<'a> = "content_block_start" {
        /// The block's index in the message's content.
        index: req u64,
        /// The block, empty (or complete, for server tool results).
        content_block: req ContentBlock<'a>,
    }
}

view! {
    /// A fragment of the block at `index`.
    pub struct ContentBlockDelta<'a> = "content_block_delta" {
        /// The block's index in the message's content.
        index: req u64,
        /// The fragment.
        delta: req BlockDelta<'a>,
    }
}

view! {
    /// The block at `index` is complete.
    pub struct ContentBlockStop<'a> = "content_block_stop" {
        /// The block's index in the message's content.
        index: req u64,
    }
}

view! {
    /// How the message ended, and its cumulative usage.
    pub struct MessageDelta<'a> = "message_delta" {
        /// The stop reason and sequence.
        delta: req MessageDeltaBody<'a>,
        /// Cumulative usage (required by the API; optional here).
        usage: opt Usage<'a>,
        /// Context management applied (beta).
        context_management: opt RawJson<'a>,
    }
}

view! {
    /// The last event of a stream.
    pub struct MessageStop<'a> = "message_stop" {}
}

view! {
    /// A keep-alive, anywhere in the stream, any number of times.
    pub struct Ping<'a> = "ping" {}
}

view! {
    /// An error in the stream (`overloaded_error`, …).
    pub struct ErrorEvent<'a> = "error" {
        /// The error.
        error: req ApiError<'a>,
    }
}
