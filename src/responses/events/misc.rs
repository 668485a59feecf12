//! Errors, audio, transport and backend events.

#[allow(unused_imports)]
use super::super::{Annotation, ContentPart, ErrorInfo, List, Logprobs, OutputItem, Response};
#[allow(unused_imports)]
use crate::json::{JsonStr, RawJson};

view! {
    /// Emitted when there is a partial audio response.
    ///
    /// `response.audio.delta`
    pub struct AudioDelta<'a> = "response.audio.delta" {
        /// The text appended by this event.
        delta: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Emitted when the audio response is complete.
    ///
    /// `response.audio.done`
    pub struct AudioDone<'a> = "response.audio.done" {
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Emitted when there is a partial transcript of audio.
    ///
    /// `response.audio.transcript.delta`
    pub struct AudioTranscriptDelta<'a> = "response.audio.transcript.delta" {
        /// The text appended by this event.
        delta: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Emitted when the full audio transcript is completed.
    ///
    /// `response.audio.transcript.done`
    pub struct AudioTranscriptDone<'a> = "response.audio.transcript.done" {
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Emitted when an error occurs.
    ///
    /// `error`
    pub struct ErrorEvent<'a> = "error" {
        /// The code.
        code: opt JsonStr<'a>,
        /// The `message` field (string).
        message: opt JsonStr<'a>,
        /// The `param` field (string).
        param: opt JsonStr<'a>,
        /// The `error` field (object).
        error: opt ErrorInfo<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Not in the official union: seen in the wild / in some SDKs, not in current spec.
    ///
    /// `response.compaction.compacting`
    pub struct CompactionCompacting<'a> = "response.compaction.compacting" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The `agent` field (object).
        agent: opt RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Not in the official union: handled by openai-node, not in spec.
    ///
    /// `keepalive`
    pub struct Keepalive<'a> = "keepalive" {
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Not in the official union: backend-specific (Codex/ChatGPT), not in spec.
    ///
    /// `response.metadata`
    pub struct ResponseMetadata<'a> = "response.metadata" {
        /// The `headers` field (object).
        headers: opt RawJson<'a>,
        /// The `metadata` field (object).
        metadata: opt RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Not in the official union: backend-specific, WebSocket only.
    ///
    /// `codex.rate_limits`
    pub struct CodexRateLimits<'a> = "codex.rate_limits" {
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Not in the official union: in spec, WebSocket beta union only.
    ///
    /// `response.inject.created`
    pub struct InjectCreated<'a> = "response.inject.created" {
        /// The `response_id` field (string).
        response_id: req JsonStr<'a>,
        /// The `stream_id` field (string).
        stream_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Not in the official union: in spec, WebSocket beta union only.
    ///
    /// `response.inject.failed`
    pub struct InjectFailed<'a> = "response.inject.failed" {
        /// The `response_id` field (string).
        response_id: req JsonStr<'a>,
        /// The `input` field (array).
        input: req RawJson<'a>,
        /// The `error` field (object).
        error: req ErrorInfo<'a>,
        /// The `stream_id` field (string).
        stream_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Not in the official union: async-openai only (WebSocket); not in current spec.
    ///
    /// `response.steer.accepted`
    pub struct SteerAccepted<'a> = "response.steer.accepted" {
        /// The `steer` field (object).
        steer: req RawJson<'a>,
        /// The `stream_id` field (string).
        stream_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Not in the official union: async-openai only (WebSocket); not in current spec.
    ///
    /// `response.steer.failed`
    pub struct SteerFailed<'a> = "response.steer.failed" {
        /// The `steer` field (object).
        steer: req RawJson<'a>,
        /// The `error` field (object).
        error: req ErrorInfo<'a>,
        /// The `stream_id` field (string).
        stream_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

view! {
    /// Not in the official union: async-openai only (WebSocket); not in current spec.
    ///
    /// `response.steer.pending`
    pub struct SteerPending<'a> = "response.steer.pending" {
        /// The `steer` field (object).
        steer: req RawJson<'a>,
        /// The `reason` field (string).
        reason: req JsonStr<'a>,
        /// The `required_input` field (array).
        required_input: req RawJson<'a>,
        /// The `stream_id` field (string).
        stream_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}
