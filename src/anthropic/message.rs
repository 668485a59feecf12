//! The message object of `message_start`, usage, and the `delta` of
//! `message_delta`.

use super::blocks::ContentBlock;
use crate::json::{JsonStr, RawJson};
use crate::views::List;

view! {
    /// The message of `message_start`: its metadata, with an empty `content`
    /// and no stop reason yet.
    ///
    /// Every field is optional (the API sends them all; proxies may not).
    pub struct Message<'a> {
        /// The message ID (`msg_…`).
        id: opt JsonStr<'a>,
        /// Always `message`.
        ty["type"]: opt JsonStr<'a>,
        /// Always `assistant`.
        role: opt JsonStr<'a>,
        /// The content blocks (empty at `message_start`).
        content: opt List<'a, ContentBlock<'a>>,
        /// The model that served the request.
        model: opt JsonStr<'a>,
        /// Why the model stopped (`None` at `message_start`).
        stop_reason: opt JsonStr<'a>,
        /// The stop sequence that matched, if one did.
        stop_sequence: opt JsonStr<'a>,
        /// Details of the stop (newer API versions).
        stop_details: opt RawJson<'a>,
        /// Token usage so far.
        usage: opt Usage<'a>,
        /// The code execution container used.
        container: opt Container<'a>,
    }
}

view! {
    /// Token usage: of `message_start.message` and (cumulative) of
    /// `message_delta`.
    ///
    /// `input_tokens` and `output_tokens` are required at `message_start`;
    /// `message_delta` only requires `output_tokens`. All are optional here.
    pub struct Usage<'a> {
        /// Input tokens (after the last cache breakpoint).
        input_tokens: opt u64,
        /// Output tokens.
        output_tokens: opt u64,
        /// Input tokens written to the cache.
        cache_creation_input_tokens: opt u64,
        /// Input tokens read from the cache.
        cache_read_input_tokens: opt u64,
        /// Cache writes by time to live.
        cache_creation: opt CacheCreation<'a>,
        /// Server tool requests.
        server_tool_use: opt ServerToolUsage<'a>,
        /// The service tier that served the request (`standard`, `priority`, `batch`).
        service_tier: opt JsonStr<'a>,
        /// Where inference ran.
        inference_geo: opt JsonStr<'a>,
        /// Breakdown of the output tokens.
        output_tokens_details: opt OutputTokensDetails<'a>,
        /// Per-iteration usage (compaction, beta), as raw JSON.
        iterations: opt RawJson<'a>,
    }
}

view! {
    /// Cache writes by time to live.
    pub struct CacheCreation<'a> {
        /// Written with a 5-minute TTL.
        ephemeral_5m_input_tokens: opt u64,
        /// Written with a 1-hour TTL.
        ephemeral_1h_input_tokens: opt u64,
    }
}

view! {
    /// Server tool requests of a message.
    pub struct ServerToolUsage<'a> {
        /// Web search requests.
        web_search_requests: opt u64,
        /// Web fetch requests.
        web_fetch_requests: opt u64,
    }
}

view! {
    /// Breakdown of the output tokens.
    pub struct OutputTokensDetails<'a> {
        /// Tokens spent thinking.
        thinking_tokens: opt u64,
    }
}

view! {
    /// A code execution container.
    pub struct Container<'a> {
        /// The container ID.
        id: opt JsonStr<'a>,
        /// When it expires (RFC 3339).
        expires_at: opt JsonStr<'a>,
    }
}

view! {
    /// The `delta` of `message_delta`: how the message ended.
    pub struct MessageDeltaBody<'a> {
        /// `end_turn`, `max_tokens`, `stop_sequence`, `tool_use`,
        /// `pause_turn`, `refusal` or `model_context_window_exceeded` (an
        /// open vocabulary).
        stop_reason: opt JsonStr<'a>,
        /// The stop sequence that matched, if one did.
        stop_sequence: opt JsonStr<'a>,
        /// Details of the stop (newer API versions).
        stop_details: opt RawJson<'a>,
        /// The code execution container used.
        container: opt Container<'a>,
    }
}

view! {
    /// The `error` of an `error` event.
    pub struct ApiError<'a> {
        /// `overloaded_error`, `api_error`, `rate_limit_error`, … (an open
        /// vocabulary).
        ty["type"]: opt JsonStr<'a>,
        /// A human-readable message.
        message: opt JsonStr<'a>,
    }
}
