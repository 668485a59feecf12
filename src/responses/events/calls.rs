//! Function calls and custom tool calls.

use crate::json::JsonStr;

event_view! {
    /// Emitted when there is a partial function-call arguments delta.
    ///
    /// `response.function_call_arguments.delta`
    pub struct FunctionCallArgumentsDelta<'a> = "response.function_call_arguments.delta" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
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
    /// Emitted when function-call arguments are finalized.
    ///
    /// `response.function_call_arguments.done`
    pub struct FunctionCallArgumentsDone<'a> = "response.function_call_arguments.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The name of the called function.
        name: opt JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The arguments, as a JSON text in a string.
        arguments: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Event representing a delta (partial update) to the input of a custom tool call.
    ///
    /// `response.custom_tool_call_input.delta`
    pub struct CustomToolCallInputDelta<'a> = "response.custom_tool_call_input.delta" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The text appended by this event.
        delta: req JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Event indicating that input for a custom tool call is complete.
    ///
    /// `response.custom_tool_call_input.done`
    pub struct CustomToolCallInputDone<'a> = "response.custom_tool_call_input.done" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The input.
        input: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}
