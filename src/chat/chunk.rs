//! The views of a `chat.completion.chunk`: the chunk, its choices, their
//! deltas, tool call fragments, log probabilities and usage.

use super::ChatContent;
use crate::json::{JsonStr, RawJson};
use crate::views::{HeadList, List};

view! {
    /// One `chat.completion.chunk`: the metadata repeated on every chunk, the
    /// choices' deltas, and (on the extra last chunk, when
    /// `stream_options.include_usage` is set) the usage.
    ///
    /// Every field is optional, since OpenAI-compatible servers omit some:
    /// some send chunks with no `choices` at all (only `id`, `model`,
    /// `usage`), which read as an empty list.
    pub struct ChatChunk<'a> {
        /// The completion ID (`chatcmpl-…`), the same on every chunk.
        id: opt JsonStr<'a>,
        /// Always `chat.completion.chunk`.
        object: opt JsonStr<'a>,
        /// Unix time (seconds) of creation, the same on every chunk.
        created: opt u64,
        /// The model that served the request.
        model: opt JsonStr<'a>,
        /// The choices' deltas (empty on the usage chunk, and when absent).
        /// The first choice is decoded with the chunk (see [`HeadList`]).
        choices: dflt HeadList<'a, ChoiceDelta<'a>>,
        /// Token usage: on the extra last chunk only (`null` elsewhere).
        usage: opt ChatUsage<'a>,
        /// The service tier that served the request.
        service_tier: opt JsonStr<'a>,
        /// The backend configuration fingerprint (deprecated).
        system_fingerprint: opt JsonStr<'a>,
        /// Random padding against length side channels.
        obfuscation: opt JsonStr<'a>,
        /// Moderation results, on a moderation chunk.
        moderation: opt RawJson<'a>,
        /// The upstream provider (OpenRouter; not in the spec).
        provider: opt JsonStr<'a>,
        /// Azure's prompt content-filter results (not in the spec).
        prompt_filter_results: opt RawJson<'a>,
    }
}

view! {
    /// One element of a chunk's `choices`.
    pub struct ChoiceDelta<'a> {
        /// The choice's index: the key for accumulating its deltas.
        index: req u64,
        /// What this chunk adds to the choice's message.
        delta: opt Delta<'a>,
        /// `stop`, `length`, `tool_calls`, `content_filter` or
        /// `function_call`; `None` until the choice's last content chunk.
        finish_reason: opt JsonStr<'a>,
        /// Log probabilities of the delta's tokens, when requested.
        logprobs: opt ChoiceLogprobs<'a>,
        /// The provider's own finish reason (OpenRouter; not in the spec).
        native_finish_reason: opt JsonStr<'a>,
        /// Azure's content-filter results for this choice (not in the spec),
        /// as raw JSON.
        content_filter_results: opt RawJson<'a>,
    }
}

view! {
    /// The `delta` of a choice: fragments to append to the message.
    ///
    /// Every field is optional; unknown members are ignored.
    pub struct Delta<'a> {
        /// `assistant` (or `developer`, `system`, `user`, `tool`); usually on
        /// the first chunk only.
        role: opt JsonStr<'a>,
        /// A text fragment, or (Mistral) a list of typed parts, reasoning
        /// included (see [`ChatContent`]).
        content: opt ChatContent<'a>,
        /// A refusal text fragment.
        refusal: opt JsonStr<'a>,
        /// Tool call fragments, keyed by their `index`.
        tool_calls: opt List<'a, ToolCallChunk<'a>>,
        /// The deprecated predecessor of `tool_calls`.
        function_call: opt FunctionCallChunk<'a>,
        /// A reasoning fragment (DeepSeek, older vLLM; not in the spec).
        reasoning_content: opt JsonStr<'a>,
        /// A reasoning fragment (newer vLLM, OpenRouter; not in the spec).
        reasoning: opt JsonStr<'a>,
        /// Structured reasoning fragments (OpenRouter; not in the spec).
        reasoning_details: opt RawJson<'a>,
        /// Citations of web search results (OpenRouter; not in the spec),
        /// as raw JSON.
        annotations: opt RawJson<'a>,
    }
}

view! {
    /// One fragment of a tool call in `delta.tool_calls`.
    ///
    /// Only `index` is sent on every fragment; `id`, `type` and the
    /// function's `name` come on the first fragment of a call, and the
    /// `arguments` (JSON text) in pieces to concatenate by `index`.
    pub struct ToolCallChunk<'a> {
        /// The call's index: the key for accumulating its fragments.
        index: req u64,
        /// The call ID (first fragment only).
        id: opt JsonStr<'a>,
        /// `function` (first fragment only).
        ty["type"]: opt JsonStr<'a>,
        /// The function's name and an arguments fragment.
        function: opt FunctionCallChunk<'a>,
    }
}

view! {
    /// The function of a tool call fragment (or of the deprecated
    /// `delta.function_call`).
    pub struct FunctionCallChunk<'a> {
        /// The function's name (first fragment only).
        name: opt JsonStr<'a>,
        /// A fragment of the arguments' JSON text.
        arguments: opt JsonStr<'a>,
    }
}

view! {
    /// The log probabilities of a choice's delta.
    pub struct ChoiceLogprobs<'a> {
        /// Of the content tokens.
        content: opt List<'a, TokenLogprob<'a>>,
        /// Of the refusal tokens.
        refusal: opt List<'a, TokenLogprob<'a>>,
    }
}

view! {
    /// The log probability of one token, with the most likely alternatives.
    pub struct TokenLogprob<'a> {
        /// The token.
        token: opt JsonStr<'a>,
        /// Its log probability.
        logprob: opt f64,
        /// The token's UTF-8 bytes.
        bytes: opt List<'a, u64>,
        /// The most likely tokens at this position.
        top_logprobs: opt List<'a, TopLogprob<'a>>,
    }
}

view! {
    /// One of the most likely tokens at a position, in a [`TokenLogprob`].
    pub struct TopLogprob<'a> {
        /// The token.
        token: opt JsonStr<'a>,
        /// Its log probability.
        logprob: opt f64,
        /// The token's UTF-8 bytes.
        bytes: opt List<'a, u64>,
    }
}

view! {
    /// Token usage (`CompletionUsage`), on the usage chunk.
    pub struct ChatUsage<'a> {
        /// Prompt tokens.
        prompt_tokens: opt u64,
        /// Completion tokens.
        completion_tokens: opt u64,
        /// Prompt plus completion tokens.
        total_tokens: opt u64,
        /// Breakdown of the prompt tokens.
        prompt_tokens_details: opt PromptTokensDetails<'a>,
        /// Breakdown of the completion tokens.
        completion_tokens_details: opt CompletionTokensDetails<'a>,
        /// Prompt tokens read from the cache (DeepSeek; not in the spec).
        prompt_cache_hit_tokens: opt u64,
        /// Prompt tokens not in the cache (DeepSeek; not in the spec).
        prompt_cache_miss_tokens: opt u64,
        /// The cost in credits (OpenRouter; not in the spec).
        cost: opt f64,
        /// The cost's breakdown (OpenRouter; not in the spec).
        cost_details: opt RawJson<'a>,
        /// Whether the request used the caller's own key (OpenRouter; not in
        /// the spec).
        is_byok: opt bool,
    }
}

view! {
    /// Breakdown of the prompt tokens.
    pub struct PromptTokensDetails<'a> {
        /// Tokens read from the prompt cache.
        cached_tokens: opt u64,
        /// Audio input tokens.
        audio_tokens: opt u64,
        /// Text input tokens.
        text_tokens: opt u64,
        /// Image input tokens.
        image_tokens: opt u64,
        /// Tokens written to the prompt cache.
        cache_write_tokens: opt u64,
    }
}

view! {
    /// Breakdown of the completion tokens.
    pub struct CompletionTokensDetails<'a> {
        /// Tokens spent on reasoning.
        reasoning_tokens: opt u64,
        /// Audio output tokens.
        audio_tokens: opt u64,
        /// Predicted tokens that appeared in the completion.
        accepted_prediction_tokens: opt u64,
        /// Predicted tokens that did not.
        rejected_prediction_tokens: opt u64,
        /// Text output tokens.
        text_tokens: opt u64,
        /// Image output tokens (not in the spec).
        image_tokens: opt u64,
    }
}

view! {
    /// The data of an error sent after the HTTP 200: `{"error": {…}}`.
    ///
    /// It has no `type` discriminator; any object with a non-null `error`
    /// member is one (as openai-python decides). Other members (OpenRouter
    /// sends the chunk's `id`, `model` and `choices` too) are in
    /// [`raw`](Self::raw).
    pub struct ChatErrorChunk<'a> {
        /// The error.
        error: req ChatError<'a>,
    }
}

view! {
    /// An error's details.
    pub struct ChatError<'a> {
        /// A human-readable message.
        message: opt JsonStr<'a>,
        /// The error's type (`server_error`, `invalid_request_error`, …).
        ty["type"]: opt JsonStr<'a>,
        /// The request parameter the error is about.
        param: opt JsonStr<'a>,
        /// The error code: a string (OpenAI) or a number (OpenRouter sends
        /// HTTP statuses), kept as raw JSON.
        code: opt RawJson<'a>,
    }
}

impl<'a> ChatChunk<'a> {
    /// The first choice, decoded: the only one unless `n > 1` was requested.
    /// `None` when `choices` is empty (the usage chunk).
    pub fn first_choice(&self) -> Option<Result<ChoiceDelta<'a>, crate::views::DecodeError>> {
        self.choices.first()
    }
}
