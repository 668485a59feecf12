//! Output items, content parts, annotations and log probabilities: the
//! nested views of the events, decoded from the object they stand in.
//!
//! Every field is optional, because `response.output_item.added` carries
//! partial items (an `image_generation_call` with only `id` and `status`, a
//! `web_search_call` without its `action`). Types this version does not
//! model decode to the `Other` variant of their enum, never to an error.

use super::List;
use crate::json::{JsonStr, RawJson};

tagged! {
    /// An item of a response's `output`: a message, a reasoning item, a tool
    /// call or a tool call's output.
    ///
    /// Decoded from the `item` of `response.output_item.added` / `.done` and
    /// from the elements of [`Response::output`](super::Response::output).
    pub enum OutputItem<'a> {
        /// `"type": "message"`.
        Message(MessageItem) = "message",
        /// `"type": "file_search_call"`.
        FileSearchCall(FileSearchCallItem) = "file_search_call",
        /// `"type": "function_call"`.
        FunctionCall(FunctionCallItem) = "function_call",
        /// `"type": "function_call_output"`.
        FunctionCallOutput(FunctionCallOutputItem) = "function_call_output",
        /// `"type": "web_search_call"`.
        WebSearchCall(WebSearchCallItem) = "web_search_call",
        /// `"type": "computer_call"`.
        ComputerCall(ComputerCallItem) = "computer_call",
        /// `"type": "computer_call_output"`.
        ComputerCallOutput(ComputerCallOutputItem) = "computer_call_output",
        /// `"type": "reasoning"`.
        Reasoning(ReasoningItem) = "reasoning",
        /// `"type": "program"`.
        Program(ProgramItem) = "program",
        /// `"type": "program_output"`.
        ProgramOutput(ProgramOutputItem) = "program_output",
        /// `"type": "tool_search_call"`.
        ToolSearchCall(ToolSearchCallItem) = "tool_search_call",
        /// `"type": "tool_search_output"`.
        ToolSearchOutput(ToolSearchOutputItem) = "tool_search_output",
        /// `"type": "additional_tools"`.
        AdditionalTools(AdditionalToolsItem) = "additional_tools",
        /// `"type": "compaction"`.
        Compaction(CompactionItem) = "compaction",
        /// `"type": "image_generation_call"`.
        ImageGenerationCall(ImageGenerationCallItem) = "image_generation_call",
        /// `"type": "code_interpreter_call"`.
        CodeInterpreterCall(CodeInterpreterCallItem) = "code_interpreter_call",
        /// `"type": "local_shell_call"`.
        LocalShellCall(LocalShellCallItem) = "local_shell_call",
        /// `"type": "local_shell_call_output"`.
        LocalShellCallOutput(LocalShellCallOutputItem) = "local_shell_call_output",
        /// `"type": "shell_call"`.
        ShellCall(ShellCallItem) = "shell_call",
        /// `"type": "shell_call_output"`.
        ShellCallOutput(ShellCallOutputItem) = "shell_call_output",
        /// `"type": "apply_patch_call"`.
        ApplyPatchCall(ApplyPatchCallItem) = "apply_patch_call",
        /// `"type": "apply_patch_call_output"`.
        ApplyPatchCallOutput(ApplyPatchCallOutputItem) = "apply_patch_call_output",
        /// `"type": "mcp_call"`.
        McpCall(McpCallItem) = "mcp_call",
        /// `"type": "mcp_list_tools"`.
        McpListTools(McpListToolsItem) = "mcp_list_tools",
        /// `"type": "mcp_approval_request"`.
        McpApprovalRequest(McpApprovalRequestItem) = "mcp_approval_request",
        /// `"type": "mcp_approval_response"`.
        McpApprovalResponse(McpApprovalResponseItem) = "mcp_approval_response",
        /// `"type": "custom_tool_call"`.
        CustomToolCall(CustomToolCallItem) = "custom_tool_call",
        /// `"type": "custom_tool_call_output"`.
        CustomToolCallOutput(CustomToolCallOutputItem) = "custom_tool_call_output",
    }
}

tagged! {
    /// A content part: of a message (`output_text`, `refusal`), of a reasoning
    /// item's `content` (`reasoning_text`) or `summary` (`summary_text`).
    pub enum ContentPart<'a> {
        /// `"type": "output_text"`.
        OutputText(OutputTextPart) = "output_text",
        /// `"type": "refusal"`.
        Refusal(RefusalPart) = "refusal",
        /// `"type": "reasoning_text"`.
        ReasoningText(ReasoningTextPart) = "reasoning_text",
        /// `"type": "summary_text"`.
        SummaryText(SummaryTextPart) = "summary_text",
    }
}

tagged! {
    /// An annotation of output text: a citation or a file path.
    pub enum Annotation<'a> {
        /// `"type": "url_citation"`.
        UrlCitation(UrlCitation) = "url_citation",
        /// `"type": "file_citation"`.
        FileCitation(FileCitation) = "file_citation",
        /// `"type": "container_file_citation"`.
        ContainerFileCitation(ContainerFileCitation) = "container_file_citation",
        /// `"type": "file_path"`.
        FilePath(FilePath) = "file_path",
    }
}

/// The log probabilities of an `output_text` delta or part: a lazy array of
/// [`Logprob`].
pub type Logprobs<'a> = List<'a, Logprob<'a>>;

view! {
    /// The log probability of one output token, with the most likely
    /// alternatives when they were requested.
    pub struct Logprob<'a> {
        /// The token.
        token: opt JsonStr<'a>,
        /// Its log probability.
        logprob: opt f64,
        /// The most likely tokens at this position.
        top_logprobs: opt List<'a, TopLogprob<'a>>,
        /// The token's UTF-8 bytes, as a JSON array of numbers (sent by the API,
        /// not declared in the spec).
        bytes: opt RawJson<'a>,
    }
}

view! {
    /// One of the most likely tokens at a position, in a [`Logprob`].
    pub struct TopLogprob<'a> {
        /// The token.
        token: opt JsonStr<'a>,
        /// Its log probability.
        logprob: opt f64,
        /// The token's UTF-8 bytes, as a JSON array of numbers (not in the spec).
        bytes: opt RawJson<'a>,
    }
}

// ---- Output items

view! {
    /// An output message from the model.
    ///
    /// `"type": "message"`
    pub struct MessageItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The role of the message author.
        role: opt JsonStr<'a>,
        /// The content parts.
        content: opt List<'a, ContentPart<'a>>,
        /// `commentary` or `final_answer` (newer models).
        phase: opt JsonStr<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
    }
}

view! {
    /// The results of a file search tool call. See the [file search
    /// guide](/docs/guides/tools-file-search) for more information.
    ///
    /// `"type": "file_search_call"`
    pub struct FileSearchCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// The search queries.
        queries: opt List<'a, JsonStr<'a>>,
        /// The search results, as raw JSON.
        results: opt RawJson<'a>,
    }
}

view! {
    /// A tool call to run a function. See the [function calling
    /// guide](/docs/guides/function-calling) for more information.
    ///
    /// `"type": "function_call"`
    pub struct FunctionCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// What made the call (the model directly, or a program), as raw JSON.
        caller: opt RawJson<'a>,
        /// The namespace of the tool.
        namespace: opt JsonStr<'a>,
        /// The name of the tool or function.
        name: opt JsonStr<'a>,
        /// The arguments, as a JSON text in a string.
        arguments: opt JsonStr<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
    }
}

view! {
    /// A `function_call_output` output item.
    ///
    /// `"type": "function_call_output"`
    pub struct FunctionCallOutputItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// The name of the tool or function.
        name: opt JsonStr<'a>,
        /// The namespace of the tool.
        namespace: opt JsonStr<'a>,
        /// What made the call (the model directly, or a program), as raw JSON.
        caller: opt RawJson<'a>,
        /// The output.
        output: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// Who created the item.
        created_by: opt JsonStr<'a>,
    }
}

view! {
    /// The results of a web search tool call. See the [web search
    /// guide](/docs/guides/tools-web-search) for more information.
    ///
    /// `"type": "web_search_call"`
    pub struct WebSearchCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// The action taken, as raw JSON.
        action: opt RawJson<'a>,
    }
}

view! {
    /// A tool call to a computer use tool. See the [computer use
    /// guide](/docs/guides/tools-computer-use) for more information.
    ///
    /// `"type": "computer_call"`
    pub struct ComputerCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// The action taken, as raw JSON.
        action: opt RawJson<'a>,
        /// The actions, as raw JSON.
        actions: opt RawJson<'a>,
        /// Safety checks pending acknowledgement, as raw JSON.
        pending_safety_checks: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
    }
}

view! {
    /// A `computer_call_output` output item.
    ///
    /// `"type": "computer_call_output"`
    pub struct ComputerCallOutputItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// The safety checks acknowledged, as raw JSON.
        acknowledged_safety_checks: opt RawJson<'a>,
        /// The output.
        output: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// Who created the item.
        created_by: opt JsonStr<'a>,
    }
}

view! {
    /// A description of the chain of thought used by a reasoning model while generating a response.
    /// Be sure to include these items in your `input` to the Responses API for subsequent turns of
    /// a conversation if you are manually [managing context](/docs/guides/conversation-state).
    ///
    /// `"type": "reasoning"`
    pub struct ReasoningItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// Encrypted content, to pass back to the API.
        encrypted_content: opt JsonStr<'a>,
        /// The summary parts.
        summary: opt List<'a, ContentPart<'a>>,
        /// The content parts.
        content: opt List<'a, ContentPart<'a>>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
    }
}

view! {
    /// A `program` output item.
    ///
    /// `"type": "program"`
    pub struct ProgramItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// The code.
        code: opt JsonStr<'a>,
        /// The fingerprint of the program.
        fingerprint: opt JsonStr<'a>,
    }
}

view! {
    /// A `program_output` output item.
    ///
    /// `"type": "program_output"`
    pub struct ProgramOutputItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// The result.
        result: opt JsonStr<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
    }
}

view! {
    /// A `tool_search_call` output item.
    ///
    /// `"type": "tool_search_call"`
    pub struct ToolSearchCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// Where the search runs (`server` or `client`).
        execution: opt JsonStr<'a>,
        /// The arguments, as a JSON text in a string.
        arguments: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// Who created the item.
        created_by: opt JsonStr<'a>,
    }
}

view! {
    /// A `tool_search_output` output item.
    ///
    /// `"type": "tool_search_output"`
    pub struct ToolSearchOutputItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// Where the search runs (`server` or `client`).
        execution: opt JsonStr<'a>,
        /// The tools, as raw JSON.
        tools: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// Who created the item.
        created_by: opt JsonStr<'a>,
    }
}

view! {
    /// A `additional_tools` output item.
    ///
    /// `"type": "additional_tools"`
    pub struct AdditionalToolsItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The role of the message author.
        role: opt JsonStr<'a>,
        /// The tools, as raw JSON.
        tools: opt RawJson<'a>,
    }
}

view! {
    /// A compaction item generated by the [`v1/responses/compact`
    /// API](/docs/api-reference/responses/compact).
    ///
    /// `"type": "compaction"`
    pub struct CompactionItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// Encrypted content, to pass back to the API.
        encrypted_content: opt JsonStr<'a>,
        /// Who created the item.
        created_by: opt JsonStr<'a>,
    }
}

view! {
    /// An image generation request made by the model.
    ///
    /// `"type": "image_generation_call"`
    pub struct ImageGenerationCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// The result.
        result: opt JsonStr<'a>,
        /// The image background.
        background: opt JsonStr<'a>,
        /// The image format.
        output_format: opt JsonStr<'a>,
        /// The image quality.
        quality: opt JsonStr<'a>,
        /// The image size.
        size: opt JsonStr<'a>,
        /// The prompt the image model actually used.
        revised_prompt: opt JsonStr<'a>,
    }
}

view! {
    /// A tool call to run code.
    ///
    /// `"type": "code_interpreter_call"`
    pub struct CodeInterpreterCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// The ID of the container.
        container_id: opt JsonStr<'a>,
        /// The code.
        code: opt JsonStr<'a>,
        /// The outputs of the code (logs, images), as raw JSON.
        outputs: opt RawJson<'a>,
    }
}

view! {
    /// A tool call to run a command on the local shell.
    ///
    /// `"type": "local_shell_call"`
    pub struct LocalShellCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// The action taken, as raw JSON.
        action: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
    }
}

view! {
    /// The output of a local shell tool call.
    ///
    /// `"type": "local_shell_call_output"`
    pub struct LocalShellCallOutputItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The output.
        output: opt JsonStr<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
    }
}

view! {
    /// A tool call that executes one or more shell commands in a managed environment.
    ///
    /// `"type": "shell_call"`
    pub struct ShellCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// What made the call (the model directly, or a program), as raw JSON.
        caller: opt RawJson<'a>,
        /// The action taken, as raw JSON.
        action: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// The environment the call runs in, as raw JSON.
        environment: opt RawJson<'a>,
        /// Who created the item.
        created_by: opt JsonStr<'a>,
    }
}

view! {
    /// The output of a shell tool call that was emitted.
    ///
    /// `"type": "shell_call_output"`
    pub struct ShellCallOutputItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// What made the call (the model directly, or a program), as raw JSON.
        caller: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// The output, as raw JSON.
        output: opt RawJson<'a>,
        /// The maximum length of the output.
        max_output_length: opt u64,
        /// Who created the item.
        created_by: opt JsonStr<'a>,
    }
}

view! {
    /// A tool call that applies file diffs by creating, deleting, or updating files.
    ///
    /// `"type": "apply_patch_call"`
    pub struct ApplyPatchCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// What made the call (the model directly, or a program), as raw JSON.
        caller: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// The file operation (create, update or delete), as raw JSON.
        operation: opt RawJson<'a>,
        /// Who created the item.
        created_by: opt JsonStr<'a>,
    }
}

view! {
    /// The output emitted by an apply patch tool call.
    ///
    /// `"type": "apply_patch_call_output"`
    pub struct ApplyPatchCallOutputItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// What made the call (the model directly, or a program), as raw JSON.
        caller: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// The output.
        output: opt JsonStr<'a>,
        /// Who created the item.
        created_by: opt JsonStr<'a>,
    }
}

view! {
    /// An invocation of a tool on an MCP server.
    ///
    /// `"type": "mcp_call"`
    pub struct McpCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The label of the MCP server.
        server_label: opt JsonStr<'a>,
        /// The name of the tool or function.
        name: opt JsonStr<'a>,
        /// The arguments, as a JSON text in a string.
        arguments: opt JsonStr<'a>,
        /// The output.
        output: opt JsonStr<'a>,
        /// The error.
        error: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// The ID of the approval request.
        approval_request_id: opt JsonStr<'a>,
    }
}

view! {
    /// A list of tools available on an MCP server.
    ///
    /// `"type": "mcp_list_tools"`
    pub struct McpListToolsItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The label of the MCP server.
        server_label: opt JsonStr<'a>,
        /// The tools, as raw JSON.
        tools: opt RawJson<'a>,
        /// The error.
        error: opt JsonStr<'a>,
    }
}

view! {
    /// A request for human approval of a tool invocation.
    ///
    /// `"type": "mcp_approval_request"`
    pub struct McpApprovalRequestItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The label of the MCP server.
        server_label: opt JsonStr<'a>,
        /// The name of the tool or function.
        name: opt JsonStr<'a>,
        /// The arguments, as a JSON text in a string.
        arguments: opt JsonStr<'a>,
    }
}

view! {
    /// A response to an MCP approval request.
    ///
    /// `"type": "mcp_approval_response"`
    pub struct McpApprovalResponseItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID of the approval request.
        approval_request_id: opt JsonStr<'a>,
        /// Whether the request was approved.
        approve: opt bool,
        /// The reason.
        reason: opt JsonStr<'a>,
    }
}

view! {
    /// A call to a custom tool created by the model.
    ///
    /// `"type": "custom_tool_call"`
    pub struct CustomToolCallItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// What made the call (the model directly, or a program), as raw JSON.
        caller: opt RawJson<'a>,
        /// The namespace of the tool.
        namespace: opt JsonStr<'a>,
        /// The name of the tool or function.
        name: opt JsonStr<'a>,
        /// The input.
        input: opt JsonStr<'a>,
    }
}

view! {
    /// ResponseCustomToolCallOutputItem
    ///
    /// `"type": "custom_tool_call_output"`
    pub struct CustomToolCallOutputItem<'a> {
        /// The item ID.
        id: opt JsonStr<'a>,
        /// The ID that ties the call to its output.
        call_id: opt JsonStr<'a>,
        /// What made the call (the model directly, or a program), as raw JSON.
        caller: opt RawJson<'a>,
        /// The output.
        output: opt RawJson<'a>,
        /// The item's status (`in_progress`, `completed`, …).
        status: opt JsonStr<'a>,
        /// Who created the item.
        created_by: opt JsonStr<'a>,
    }
}

// ---- Content parts

view! {
    /// A text output from the model.
    ///
    /// `"type": "output_text"`
    pub struct OutputTextPart<'a> {
        /// The text.
        text: opt JsonStr<'a>,
        /// The annotations (citations) of the text.
        annotations: opt List<'a, Annotation<'a>>,
        /// Log probabilities of the tokens (absent unless requested).
        logprobs: opt Logprobs<'a>,
    }
}

view! {
    /// A refusal from the model.
    ///
    /// `"type": "refusal"`
    pub struct RefusalPart<'a> {
        /// The refusal text.
        refusal: opt JsonStr<'a>,
    }
}

view! {
    /// Reasoning text from the model.
    ///
    /// `"type": "reasoning_text"`
    pub struct ReasoningTextPart<'a> {
        /// The text.
        text: opt JsonStr<'a>,
    }
}

view! {
    /// A summary text from the model.
    ///
    /// `"type": "summary_text"`
    pub struct SummaryTextPart<'a> {
        /// The text.
        text: opt JsonStr<'a>,
    }
}

// ---- Annotations

view! {
    /// A citation for a web resource used to generate a model response.
    ///
    /// `"type": "url_citation"`
    pub struct UrlCitation<'a> {
        /// The URL.
        url: opt JsonStr<'a>,
        /// The index of the first character the annotation covers.
        start_index: opt u64,
        /// The index just past the last character the annotation covers.
        end_index: opt u64,
        /// The title of the page.
        title: opt JsonStr<'a>,
    }
}

view! {
    /// A citation to a file.
    ///
    /// `"type": "file_citation"`
    pub struct FileCitation<'a> {
        /// The ID of the file.
        file_id: opt JsonStr<'a>,
        /// The index of the cited position in the text.
        index: opt u64,
        /// The name of the file.
        filename: opt JsonStr<'a>,
    }
}

view! {
    /// A citation for a container file used to generate a model response.
    ///
    /// `"type": "container_file_citation"`
    pub struct ContainerFileCitation<'a> {
        /// The ID of the container.
        container_id: opt JsonStr<'a>,
        /// The ID of the file.
        file_id: opt JsonStr<'a>,
        /// The index of the first character the annotation covers.
        start_index: opt u64,
        /// The index just past the last character the annotation covers.
        end_index: opt u64,
        /// The name of the file.
        filename: opt JsonStr<'a>,
    }
}

view! {
    /// A path to a file.
    ///
    /// `"type": "file_path"`
    pub struct FilePath<'a> {
        /// The ID of the file.
        file_id: opt JsonStr<'a>,
        /// The index of the cited position in the text.
        index: opt u64,
    }
}
