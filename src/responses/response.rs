//! The response object of the lifecycle events, its usage and its errors.

use super::items::OutputItem;
use super::List;
use crate::json::{JsonStr, RawJson};

view! {
    /// The response object carried by `response.created`, `.in_progress`,
    /// `.completed`, `.failed`, `.incomplete` and `.queued`.
    ///
    /// Every field is optional (the spec requires most of them, but proxies
    /// and older streams omit some). The ones clients read are typed
    /// (`id`, `status`, `model`, `usage`, `error`, `incomplete_details`,
    /// `output`); objects the views do not model are [`RawJson`].
    pub struct Response<'a> {
        /// The response ID (`resp_…`).
        id: opt JsonStr<'a>,
        /// Always `response`.
        object: opt JsonStr<'a>,
        /// `completed`, `failed`, `in_progress`, `cancelled`, `queued` or `incomplete`.
        status: opt JsonStr<'a>,
        /// Unix time (seconds) of creation.
        created_at: opt f64,
        /// Unix time (seconds) of completion.
        completed_at: opt f64,
        /// The model that served the response.
        model: opt JsonStr<'a>,
        /// Why the response failed, when it did.
        error: opt ErrorInfo<'a>,
        /// Why the response is incomplete, when it is.
        incomplete_details: opt IncompleteDetails<'a>,
        /// The output items so far.
        output: opt List<'a, OutputItem<'a>>,
        /// Token usage (present on the terminal events).
        usage: opt Usage<'a>,
        /// The system instructions (a string or an array of input items).
        instructions: opt RawJson<'a>,
        /// The output text, concatenated (an SDK convenience; rarely sent).
        output_text: opt JsonStr<'a>,
        /// Key-value metadata attached to the request.
        metadata: opt RawJson<'a>,
        /// The number of most likely tokens returned per position.
        top_logprobs: opt u64,
        /// The sampling temperature.
        temperature: opt f64,
        /// The nucleus sampling mass.
        top_p: opt f64,
        /// The frequency penalty (not in the spec; sent by some backends).
        frequency_penalty: opt f64,
        /// The presence penalty (not in the spec; sent by some backends).
        presence_penalty: opt f64,
        /// The end-user identifier (deprecated).
        user: opt JsonStr<'a>,
        /// The safety identifier of the end user.
        safety_identifier: opt JsonStr<'a>,
        /// The prompt cache key.
        prompt_cache_key: opt JsonStr<'a>,
        /// The prompt cache retention policy.
        prompt_cache_retention: opt JsonStr<'a>,
        /// Prompt cache options.
        prompt_cache_options: opt RawJson<'a>,
        /// The previous response in the conversation.
        previous_response_id: opt JsonStr<'a>,
        /// Whether the response runs in the background.
        background: opt bool,
        /// Whether the response is stored (not in the spec's required set).
        store: opt bool,
        /// The maximum number of built-in tool calls.
        max_tool_calls: opt u64,
        /// The maximum number of output tokens.
        max_output_tokens: opt u64,
        /// Text output configuration (`format`, `verbosity`).
        text: opt RawJson<'a>,
        /// The tools the model may call.
        tools: opt RawJson<'a>,
        /// How the model chooses tools (a string or an object).
        tool_choice: opt RawJson<'a>,
        /// Whether tool calls may run in parallel.
        parallel_tool_calls: opt bool,
        /// The prompt template reference.
        prompt: opt RawJson<'a>,
        /// The service tier that served the request.
        service_tier: opt JsonStr<'a>,
        /// The truncation strategy (`auto` or `disabled`).
        truncation: opt JsonStr<'a>,
        /// Reasoning configuration (`effort`, `summary`).
        reasoning: opt RawJson<'a>,
        /// Moderation results.
        moderation: opt RawJson<'a>,
        /// The conversation the response belongs to.
        conversation: opt RawJson<'a>,
    }
}

view! {
    /// Token usage of a response.
    pub struct Usage<'a> {
        /// Input tokens.
        input_tokens: opt u64,
        /// Breakdown of the input tokens.
        input_tokens_details: opt InputTokensDetails<'a>,
        /// Output tokens.
        output_tokens: opt u64,
        /// Breakdown of the output tokens.
        output_tokens_details: opt OutputTokensDetails<'a>,
        /// Input plus output tokens.
        total_tokens: opt u64,
    }
}

view! {
    /// Breakdown of a response's input tokens.
    pub struct InputTokensDetails<'a> {
        /// Tokens read from the prompt cache.
        cached_tokens: opt u64,
        /// Tokens written to the prompt cache.
        cache_write_tokens: opt u64,
    }
}

view! {
    /// Breakdown of a response's output tokens.
    pub struct OutputTokensDetails<'a> {
        /// Tokens spent on reasoning.
        reasoning_tokens: opt u64,
    }
}

view! {
    /// An error: the `error` of a failed response, the nested `error` of an
    /// `error` event, or the error of a WebSocket `inject`/`steer` failure.
    ///
    /// `code` is an open vocabulary: real streams carry codes outside the
    /// spec's enum (`context_length_exceeded`, `insufficient_quota`, …).
    pub struct ErrorInfo<'a> {
        /// The error's type (`invalid_request_error`, …), in nested error events.
        ty["type"]: opt JsonStr<'a>,
        /// The error code.
        code: opt JsonStr<'a>,
        /// A human-readable message.
        message: opt JsonStr<'a>,
        /// The request parameter the error is about.
        param: opt JsonStr<'a>,
    }
}

view! {
    /// Why a response is incomplete.
    pub struct IncompleteDetails<'a> {
        /// `max_output_tokens` or `content_filter`.
        reason: opt JsonStr<'a>,
    }
}
