//! Errors, audio, transport and backend events.

use super::super::{ErrorInfo, Lazy};
use crate::json::{JsonStr, RawJson};

event_view! {
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

event_view! {
    /// Emitted when the audio response is complete.
    ///
    /// `response.audio.done`
    pub struct AudioDone<'a> = "response.audio.done" {
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
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

event_view! {
    /// Emitted when the full audio transcript is completed.
    ///
    /// `response.audio.transcript.done`
    pub struct AudioTranscriptDone<'a> = "response.audio.transcript.done" {
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// An error during streaming, in either of its two shapes:
    ///
    /// * flat, as the spec declares it:
    ///   `{"type":"error","code":…,"message":…,"param":…,"sequence_number":…}`;
    /// * nested, as the API actually sends it:
    ///   `{"type":"error","sequence_number":…,"error":{"type":…,"code":…,"message":…,"param":…}}`.
    ///
    /// [`code`](Self::code), [`message`](Self::message) and
    /// [`param`](Self::param) read either shape (the nested one decoded as
    /// they read it; a nested `error` that does not decode reads as absent).
    ///
    /// `error`
    pub struct ErrorEvent<'a> = "error" {
        /// The error code (flat shape).
        code: opt JsonStr<'a>,
        /// A human-readable message (flat shape).
        message: opt JsonStr<'a>,
        /// The request parameter the error is about (flat shape).
        param: opt JsonStr<'a>,
        /// The error (nested shape).
        error: opt Lazy<'a, ErrorInfo<'a>>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

impl<'a> ErrorEvent<'a> {
    /// The error code, from either shape (the flat member first).
    pub fn code(&self) -> Option<JsonStr<'a>> {
        self.code.or_else(|| self.error.as_ref()?.get().ok()?.code)
    }

    /// The message, from either shape (the flat member first).
    pub fn message(&self) -> Option<JsonStr<'a>> {
        self.message
            .or_else(|| self.error.as_ref()?.get().ok()?.message)
    }

    /// The parameter the error is about, from either shape.
    pub fn param(&self) -> Option<JsonStr<'a>> {
        self.param
            .or_else(|| self.error.as_ref()?.get().ok()?.param)
    }

    /// The error's type (`insufficient_quota`, `invalid_request_error`, …);
    /// only the nested shape has one.
    pub fn error_type(&self) -> Option<JsonStr<'a>> {
        self.error.as_ref()?.get().ok()?.ty
    }
}

event_view! {
    /// Not in the official union: seen in the wild / in some SDKs, not in current spec.
    ///
    /// `response.compaction.compacting`
    pub struct CompactionCompacting<'a> = "response.compaction.compacting" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The agent (beta multi-agent only), as raw JSON.
        agent: opt RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: handled by openai-node, not in spec.
    ///
    /// `keepalive`
    pub struct Keepalive<'a> = "keepalive" {
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: backend-specific (Codex/ChatGPT), not in spec.
    ///
    /// `response.metadata`
    pub struct ResponseMetadata<'a> = "response.metadata" {
        /// Response headers, as raw JSON.
        headers: opt RawJson<'a>,
        /// Backend metadata, as raw JSON.
        metadata: opt RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: backend-specific, WebSocket only.
    ///
    /// `codex.rate_limits`
    pub struct CodexRateLimits<'a> = "codex.rate_limits" {
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: in spec, WebSocket beta union only.
    ///
    /// `response.inject.created`
    pub struct InjectCreated<'a> = "response.inject.created" {
        /// The ID of the response.
        response_id: req JsonStr<'a>,
        /// The WebSocket stream the event belongs to.
        stream_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: in spec, WebSocket beta union only.
    ///
    /// `response.inject.failed`
    pub struct InjectFailed<'a> = "response.inject.failed" {
        /// The ID of the response.
        response_id: req JsonStr<'a>,
        /// The input.
        input: req RawJson<'a>,
        /// The error.
        error: req Lazy<'a, ErrorInfo<'a>>,
        /// The WebSocket stream the event belongs to.
        stream_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: async-openai only (WebSocket); not in current spec.
    ///
    /// `response.steer.accepted`
    pub struct SteerAccepted<'a> = "response.steer.accepted" {
        /// The steering request, as raw JSON.
        steer: req RawJson<'a>,
        /// The WebSocket stream the event belongs to.
        stream_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: async-openai only (WebSocket); not in current spec.
    ///
    /// `response.steer.failed`
    pub struct SteerFailed<'a> = "response.steer.failed" {
        /// The steering request, as raw JSON.
        steer: req RawJson<'a>,
        /// The error.
        error: req Lazy<'a, ErrorInfo<'a>>,
        /// The WebSocket stream the event belongs to.
        stream_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: async-openai only (WebSocket); not in current spec.
    ///
    /// `response.steer.pending`
    pub struct SteerPending<'a> = "response.steer.pending" {
        /// The steering request, as raw JSON.
        steer: req RawJson<'a>,
        /// The reason.
        reason: req JsonStr<'a>,
        /// The input still required, as raw JSON.
        required_input: req RawJson<'a>,
        /// The WebSocket stream the event belongs to.
        stream_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}
