//! Content blocks (of `content_block_start`), their deltas (of
//! `content_block_delta`) and citations.

use crate::json::{JsonStr, RawJson};
use crate::views::List;

tagged! {
    /// A content block, as `content_block_start` opens it (empty: its text,
    /// thinking or input arrive in deltas), or as an element of
    /// [`Message::content`](super::Message::content).
    pub enum ContentBlock<'a> {
        /// `"type": "text"`.
        Text(TextBlock) = "text",
        /// `"type": "thinking"`.
        Thinking(ThinkingBlock) = "thinking",
        /// `"type": "redacted_thinking"`.
        RedactedThinking(RedactedThinkingBlock) = "redacted_thinking",
        /// `"type": "tool_use"`.
        ToolUse(ToolUseBlock) = "tool_use",
        /// `"type": "server_tool_use"`.
        ServerToolUse(ToolUseBlock) = "server_tool_use",
        /// `"type": "web_search_tool_result"`.
        WebSearchToolResult(ToolResultBlock) = "web_search_tool_result",
        /// `"type": "web_fetch_tool_result"`.
        WebFetchToolResult(ToolResultBlock) = "web_fetch_tool_result",
        /// `"type": "code_execution_tool_result"`.
        CodeExecutionToolResult(ToolResultBlock) = "code_execution_tool_result",
        /// `"type": "bash_code_execution_tool_result"`.
        BashCodeExecutionToolResult(ToolResultBlock) = "bash_code_execution_tool_result",
        /// `"type": "text_editor_code_execution_tool_result"`.
        TextEditorCodeExecutionToolResult(ToolResultBlock) = "text_editor_code_execution_tool_result",
        /// `"type": "tool_search_tool_result"`.
        ToolSearchToolResult(ToolResultBlock) = "tool_search_tool_result",
        /// `"type": "container_upload"`.
        ContainerUpload(ContainerUploadBlock) = "container_upload",
        /// `"type": "compaction"` (beta).
        Compaction(CompactionBlock) = "compaction",
    }
}

view! {
    /// A text block.
    pub struct TextBlock<'a> {
        /// The text (empty at `content_block_start`).
        text: opt JsonStr<'a>,
        /// Its citations.
        citations: opt List<'a, Citation<'a>>,
    }
}

view! {
    /// A thinking block.
    pub struct ThinkingBlock<'a> {
        /// The thinking text (empty at `content_block_start`).
        thinking: opt JsonStr<'a>,
        /// The signature (empty at `content_block_start`; sent in a
        /// `signature_delta`).
        signature: opt JsonStr<'a>,
    }
}

view! {
    /// A redacted thinking block: encrypted, passed back verbatim.
    pub struct RedactedThinkingBlock<'a> {
        /// The encrypted thinking.
        data: opt JsonStr<'a>,
    }
}

view! {
    /// A `tool_use` or `server_tool_use` block.
    pub struct ToolUseBlock<'a> {
        /// The call ID (`toolu_…`, `srvtoolu_…`).
        id: opt JsonStr<'a>,
        /// The tool's name.
        name: opt JsonStr<'a>,
        /// The input (`{}` at `content_block_start`; it arrives as
        /// `input_json_delta` fragments).
        input: opt RawJson<'a>,
        /// Who called the tool (newer API versions).
        caller: opt RawJson<'a>,
    }
}

view! {
    /// The result of a server tool: web search or fetch, code execution,
    /// tool search. The content's shape depends on the tool and is kept as
    /// raw JSON.
    pub struct ToolResultBlock<'a> {
        /// The ID of the `server_tool_use` block this answers.
        tool_use_id: opt JsonStr<'a>,
        /// The result (or an error object).
        content: opt RawJson<'a>,
        /// Who called the tool (newer API versions).
        caller: opt RawJson<'a>,
    }
}

view! {
    /// A file uploaded to the code execution container.
    pub struct ContainerUploadBlock<'a> {
        /// The file ID.
        file_id: opt JsonStr<'a>,
    }
}

view! {
    /// A compaction block (beta): a summary of earlier context.
    pub struct CompactionBlock<'a> {
        /// The summary (`null` at `content_block_start`).
        content: opt JsonStr<'a>,
        /// The summary, encrypted.
        encrypted_content: opt JsonStr<'a>,
    }
}

tagged! {
    /// The `delta` of `content_block_delta`: a fragment to append to the
    /// block at its `index`.
    pub enum BlockDelta<'a> {
        /// `"type": "text_delta"`: append to a text block.
        Text(TextDelta) = "text_delta",
        /// `"type": "input_json_delta"`: append to a tool use's input JSON.
        InputJson(InputJsonDelta) = "input_json_delta",
        /// `"type": "thinking_delta"`: append to a thinking block.
        Thinking(ThinkingDelta) = "thinking_delta",
        /// `"type": "signature_delta"`: a thinking block's signature.
        Signature(SignatureDelta) = "signature_delta",
        /// `"type": "citations_delta"`: a citation of a text block.
        Citations(CitationsDelta) = "citations_delta",
        /// `"type": "compaction_delta"` (beta).
        Compaction(CompactionDelta) = "compaction_delta",
    }
}

view! {
    /// A text fragment.
    pub struct TextDelta<'a> {
        /// The text.
        text: req JsonStr<'a>,
    }
}

view! {
    /// A fragment of a tool use's input JSON text; may be empty.
    /// Concatenate them and parse at `content_block_stop`.
    pub struct InputJsonDelta<'a> {
        /// The JSON text fragment.
        partial_json: req JsonStr<'a>,
    }
}

view! {
    /// A thinking fragment.
    pub struct ThinkingDelta<'a> {
        /// The thinking text.
        thinking: req JsonStr<'a>,
    }
}

view! {
    /// A thinking block's signature, sent once before `content_block_stop`.
    pub struct SignatureDelta<'a> {
        /// The signature.
        signature: req JsonStr<'a>,
    }
}

view! {
    /// A citation added to a text block.
    pub struct CitationsDelta<'a> {
        /// The citation.
        citation: req Citation<'a>,
    }
}

view! {
    /// A compaction fragment (beta).
    pub struct CompactionDelta<'a> {
        /// The summary text.
        content: opt JsonStr<'a>,
        /// The summary, encrypted.
        encrypted_content: opt JsonStr<'a>,
    }
}

tagged! {
    /// A citation of a text block.
    pub enum Citation<'a> {
        /// `"type": "char_location"`: a character range of a plain-text document.
        CharLocation(DocumentCitation) = "char_location",
        /// `"type": "page_location"`: a page range of a PDF.
        PageLocation(DocumentCitation) = "page_location",
        /// `"type": "content_block_location"`: a range of a custom content document.
        ContentBlockLocation(DocumentCitation) = "content_block_location",
        /// `"type": "web_search_result_location"`: a web search result.
        WebSearchResultLocation(WebSearchResultLocation) = "web_search_result_location",
        /// `"type": "search_result_location"`: a search result block.
        SearchResultLocation(SearchResultLocation) = "search_result_location",
    }
}

view! {
    /// A citation of a document: by characters, pages or content blocks
    /// (the fields of the other two kinds are `None`).
    pub struct DocumentCitation<'a> {
        /// The cited text.
        cited_text: opt JsonStr<'a>,
        /// The document's index in the request.
        document_index: opt u64,
        /// The document's title.
        document_title: opt JsonStr<'a>,
        /// The file ID of the document, when it was uploaded.
        file_id: opt JsonStr<'a>,
        /// First character (`char_location`).
        start_char_index: opt u64,
        /// End character, exclusive (`char_location`).
        end_char_index: opt u64,
        /// First page (`page_location`).
        start_page_number: opt u64,
        /// End page, exclusive (`page_location`).
        end_page_number: opt u64,
        /// First block (`content_block_location`).
        start_block_index: opt u64,
        /// End block, exclusive (`content_block_location`).
        end_block_index: opt u64,
    }
}

view! {
    /// A citation of a web search result.
    pub struct WebSearchResultLocation<'a> {
        /// The cited text.
        cited_text: opt JsonStr<'a>,
        /// The result's URL.
        url: opt JsonStr<'a>,
        /// The result's title.
        title: opt JsonStr<'a>,
        /// An opaque reference to the result.
        encrypted_index: opt JsonStr<'a>,
    }
}

view! {
    /// A citation of a search result content block.
    pub struct SearchResultLocation<'a> {
        /// The cited text.
        cited_text: opt JsonStr<'a>,
        /// The search result's index.
        search_result_index: opt u64,
        /// The search result's source.
        source: opt JsonStr<'a>,
        /// The search result's title.
        title: opt JsonStr<'a>,
        /// First block.
        start_block_index: opt u64,
        /// End block, exclusive.
        end_block_index: opt u64,
    }
}
