//! Built-in tools: web and file search, code interpreter, image generation, MCP, shell and apply_patch.

use crate::json::{JsonStr, RawJson};

event_view! {
    /// Emitted when a partial code snippet is streamed by the code interpreter.
    ///
    /// `response.code_interpreter_call_code.delta`
    pub struct CodeInterpreterCallCodeDelta<'a> = "response.code_interpreter_call_code.delta" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
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
    /// Emitted when the code snippet is finalized by the code interpreter.
    ///
    /// `response.code_interpreter_call_code.done`
    pub struct CodeInterpreterCallCodeDone<'a> = "response.code_interpreter_call_code.done" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The code.
        code: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when the code interpreter call is completed.
    ///
    /// `response.code_interpreter_call.completed`
    pub struct CodeInterpreterCallCompleted<'a> = "response.code_interpreter_call.completed" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a code interpreter call is in progress.
    ///
    /// `response.code_interpreter_call.in_progress`
    pub struct CodeInterpreterCallInProgress<'a> = "response.code_interpreter_call.in_progress" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when the code interpreter is actively interpreting the code snippet.
    ///
    /// `response.code_interpreter_call.interpreting`
    pub struct CodeInterpreterCallInterpreting<'a> = "response.code_interpreter_call.interpreting" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a file search call is completed (results found).
    ///
    /// `response.file_search_call.completed`
    pub struct FileSearchCallCompleted<'a> = "response.file_search_call.completed" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a file search call is initiated.
    ///
    /// `response.file_search_call.in_progress`
    pub struct FileSearchCallInProgress<'a> = "response.file_search_call.in_progress" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a file search is currently searching.
    ///
    /// `response.file_search_call.searching`
    pub struct FileSearchCallSearching<'a> = "response.file_search_call.searching" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// A streaming event that indicated a shell command was added to a tool call.
    ///
    /// `response.shell_call_command.added`
    pub struct ShellCallCommandAdded<'a> = "response.shell_call_command.added" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the command in the shell call's action.
        command_index: req u64,
        /// The shell command.
        command: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// A streaming event that indicated a shell command was incrementally updated.
    ///
    /// `response.shell_call_command.delta`
    pub struct ShellCallCommandDelta<'a> = "response.shell_call_command.delta" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the command in the shell call's action.
        command_index: req u64,
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
    /// A streaming event that indicated a shell command was completed.
    ///
    /// `response.shell_call_command.done`
    pub struct ShellCallCommandDone<'a> = "response.shell_call_command.done" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the command in the shell call's action.
        command_index: req u64,
        /// The shell command.
        command: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// A streaming event that indicated shell call output was incrementally added.
    ///
    /// `response.shell_call_output_content.delta`
    pub struct ShellCallOutputContentDelta<'a> = "response.shell_call_output_content.delta" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the command in the shell call's action.
        command_index: req u64,
        /// The delta, as raw JSON.
        delta: req RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// A streaming event that indicated shell call output was completed.
    ///
    /// `response.shell_call_output_content.done`
    pub struct ShellCallOutputContentDone<'a> = "response.shell_call_output_content.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The index of the command in the shell call's action.
        command_index: req u64,
        /// The output, as raw JSON.
        output: req RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a web search call is completed.
    ///
    /// `response.web_search_call.completed`
    pub struct WebSearchCallCompleted<'a> = "response.web_search_call.completed" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a web search call is initiated.
    ///
    /// `response.web_search_call.in_progress`
    pub struct WebSearchCallInProgress<'a> = "response.web_search_call.in_progress" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a web search call is executing.
    ///
    /// `response.web_search_call.searching`
    pub struct WebSearchCallSearching<'a> = "response.web_search_call.searching" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when an image generation tool call has completed and the final image is available.
    ///
    /// `response.image_generation_call.completed`
    pub struct ImageGenerationCallCompleted<'a> = "response.image_generation_call.completed" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when an image generation tool call is actively generating an image (intermediate
    /// state).
    ///
    /// `response.image_generation_call.generating`
    pub struct ImageGenerationCallGenerating<'a> = "response.image_generation_call.generating" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when an image generation tool call is in progress.
    ///
    /// `response.image_generation_call.in_progress`
    pub struct ImageGenerationCallInProgress<'a> = "response.image_generation_call.in_progress" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when a partial image is available during image generation streaming.
    ///
    /// `response.image_generation_call.partial_image`
    pub struct ImageGenerationCallPartialImage<'a> = "response.image_generation_call.partial_image" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the partial image (0-based).
        partial_image_index: req u64,
        /// The partial image, base64-encoded.
        partial_image_b64: req JsonStr<'a>,
        /// The image size (a string, `1536x1024`), as raw JSON (see
        /// [`ImageGenerationCallPartialImage::settings`]).
        size: opt RawJson<'a>,
        /// The image quality (a string, `low`), as raw JSON.
        quality: opt RawJson<'a>,
        /// The image background (a string, `opaque`), as raw JSON.
        background: opt RawJson<'a>,
        /// The image format (a string, `webp`), as raw JSON.
        output_format: opt RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

impl<'a> ImageGenerationCallPartialImage<'a> {
    /// The image settings `size`, `quality`, `background` and
    /// `output_format`, as strings (`None` when absent or not a string).
    /// They are kept as [`RawJson`] so that the event stays the size of a
    /// delta (a [`JsonStr`] is 8 bytes bigger).
    pub fn settings(&self) -> [Option<JsonStr<'a>>; 4] {
        [self.size, self.quality, self.background, self.output_format]
            .map(|v| v.and_then(|v| v.value().as_json_str()))
    }
}

event_view! {
    /// Emitted when there is a delta (partial update) to the arguments of an MCP tool call.
    ///
    /// `response.mcp_call_arguments.delta`
    pub struct McpCallArgumentsDelta<'a> = "response.mcp_call_arguments.delta" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
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
    /// Emitted when the arguments for an MCP tool call are finalized.
    ///
    /// `response.mcp_call_arguments.done`
    pub struct McpCallArgumentsDone<'a> = "response.mcp_call_arguments.done" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The arguments, as a JSON text in a string.
        arguments: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when an MCP tool call has completed successfully.
    ///
    /// `response.mcp_call.completed`
    pub struct McpCallCompleted<'a> = "response.mcp_call.completed" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when an MCP tool call has failed.
    ///
    /// `response.mcp_call.failed`
    pub struct McpCallFailed<'a> = "response.mcp_call.failed" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when an MCP tool call is in progress.
    ///
    /// `response.mcp_call.in_progress`
    pub struct McpCallInProgress<'a> = "response.mcp_call.in_progress" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when the list of available MCP tools has been successfully retrieved.
    ///
    /// `response.mcp_list_tools.completed`
    pub struct McpListToolsCompleted<'a> = "response.mcp_list_tools.completed" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when the attempt to list available MCP tools has failed.
    ///
    /// `response.mcp_list_tools.failed`
    pub struct McpListToolsFailed<'a> = "response.mcp_list_tools.failed" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Emitted when the system is in the process of retrieving the list of available MCP tools.
    ///
    /// `response.mcp_list_tools.in_progress`
    pub struct McpListToolsInProgress<'a> = "response.mcp_list_tools.in_progress" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: seen in the wild, not in spec.
    ///
    /// `response.apply_patch_call_operation_diff.delta`
    pub struct ApplyPatchCallOperationDiffDelta<'a> = "response.apply_patch_call_operation_diff.delta" {
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
    /// Not in the official union: seen in the wild, not in spec.
    ///
    /// `response.apply_patch_call_operation_diff.done`
    pub struct ApplyPatchCallOperationDiffDone<'a> = "response.apply_patch_call_operation_diff.done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The complete diff.
        diff: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: legacy name (old SDK/spec versions only).
    ///
    /// `response.code_interpreter_call.code.delta`
    pub struct LegacyCodeInterpreterCallCodeDelta<'a> = "response.code_interpreter_call.code.delta" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The text appended by this event.
        delta: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: legacy name (old SDK/spec versions only).
    ///
    /// `response.code_interpreter_call.code.done`
    pub struct LegacyCodeInterpreterCallCodeDone<'a> = "response.code_interpreter_call.code.done" {
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The code.
        code: req JsonStr<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}

event_view! {
    /// Not in the official union: legacy name (old SDK/spec versions only).
    ///
    /// `response.mcp_call.arguments_delta`
    pub struct LegacyMcpCallArgumentsDelta<'a> = "response.mcp_call.arguments_delta" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
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
    /// `response.mcp_call.arguments_done`
    pub struct LegacyMcpCallArgumentsDone<'a> = "response.mcp_call.arguments_done" {
        /// The ID of the output item.
        item_id: req JsonStr<'a>,
        /// The index of the output item in the response's `output`.
        output_index: req u64,
        /// The arguments, as a JSON text in a string.
        arguments: req RawJson<'a>,
        /// The position of the event in the stream. Always optional: early-2025 streams and some
        /// proxies omit it.
        sequence_number: opt u64,
    }
}
