//! Generic accessors of [`ResponseEvent`]: the correlation keys that many
//! event types share (`item_id`, `output_index`, `content_index`,
//! `summary_index`), without matching on every variant.

use super::ResponseEvent;
use crate::json::JsonStr;

impl<'a> ResponseEvent<'a> {
    /// The event's `item_id`, for the event types that carry one (deltas,
    /// `*.done`, content and summary parts, tool call progress).
    ///
    /// `None` for the other types, including `output_item.added` / `.done`
    /// (whose item has its own `id`) and unknown events.
    ///
    /// ```
    /// use ssekit::responses::ResponseEvent;
    ///
    /// let event = ResponseEvent::parse(
    ///     r#"{"type":"response.output_text.delta","item_id":"msg_1","output_index":2,"content_index":0,"delta":"Hi"}"#,
    /// )?;
    /// assert_eq!(event.item_id().and_then(|id| id.as_str()), Some("msg_1"));
    /// assert_eq!(event.output_index(), Some(2));
    /// assert_eq!(event.content_index(), Some(0));
    /// assert_eq!(event.summary_index(), None);
    /// # Ok::<(), ssekit::responses::DecodeError>(())
    /// ```
    pub fn item_id(&self) -> Option<JsonStr<'a>> {
        match self {
            Self::ContentPartAdded(v) => Some(v.item_id),
            Self::ContentPartDone(v) => Some(v.item_id),
            Self::RefusalDelta(v) => Some(v.item_id),
            Self::RefusalDone(v) => Some(v.item_id),
            Self::OutputTextDelta(v) => Some(v.item_id),
            Self::OutputTextDone(v) => Some(v.item_id),
            Self::OutputTextAnnotationAdded(v) => Some(v.item_id),
            Self::LegacyOutputTextAnnotationAdded(v) => Some(v.item_id),
            Self::ReasoningSummaryPartAdded(v) => Some(v.item_id),
            Self::ReasoningSummaryPartDone(v) => Some(v.item_id),
            Self::ReasoningSummaryTextDelta(v) => Some(v.item_id),
            Self::ReasoningSummaryTextDone(v) => Some(v.item_id),
            Self::ReasoningTextDelta(v) => Some(v.item_id),
            Self::ReasoningTextDone(v) => Some(v.item_id),
            Self::LegacyReasoningDelta(v) => Some(v.item_id),
            Self::LegacyReasoningDone(v) => Some(v.item_id),
            Self::LegacyReasoningSummaryDelta(v) => Some(v.item_id),
            Self::LegacyReasoningSummaryDone(v) => Some(v.item_id),
            Self::FunctionCallArgumentsDelta(v) => Some(v.item_id),
            Self::FunctionCallArgumentsDone(v) => Some(v.item_id),
            Self::CustomToolCallInputDelta(v) => Some(v.item_id),
            Self::CustomToolCallInputDone(v) => Some(v.item_id),
            Self::CodeInterpreterCallCodeDelta(v) => Some(v.item_id),
            Self::CodeInterpreterCallCodeDone(v) => Some(v.item_id),
            Self::CodeInterpreterCallCompleted(v) => Some(v.item_id),
            Self::CodeInterpreterCallInProgress(v) => Some(v.item_id),
            Self::CodeInterpreterCallInterpreting(v) => Some(v.item_id),
            Self::FileSearchCallCompleted(v) => Some(v.item_id),
            Self::FileSearchCallInProgress(v) => Some(v.item_id),
            Self::FileSearchCallSearching(v) => Some(v.item_id),
            Self::ShellCallOutputContentDelta(v) => Some(v.item_id),
            Self::ShellCallOutputContentDone(v) => Some(v.item_id),
            Self::WebSearchCallCompleted(v) => Some(v.item_id),
            Self::WebSearchCallInProgress(v) => Some(v.item_id),
            Self::WebSearchCallSearching(v) => Some(v.item_id),
            Self::ImageGenerationCallCompleted(v) => Some(v.item_id),
            Self::ImageGenerationCallGenerating(v) => Some(v.item_id),
            Self::ImageGenerationCallInProgress(v) => Some(v.item_id),
            Self::ImageGenerationCallPartialImage(v) => Some(v.item_id),
            Self::McpCallArgumentsDelta(v) => Some(v.item_id),
            Self::McpCallArgumentsDone(v) => Some(v.item_id),
            Self::McpCallCompleted(v) => Some(v.item_id),
            Self::McpCallFailed(v) => Some(v.item_id),
            Self::McpCallInProgress(v) => Some(v.item_id),
            Self::McpListToolsCompleted(v) => Some(v.item_id),
            Self::McpListToolsFailed(v) => Some(v.item_id),
            Self::McpListToolsInProgress(v) => Some(v.item_id),
            Self::ApplyPatchCallOperationDiffDelta(v) => Some(v.item_id),
            Self::ApplyPatchCallOperationDiffDone(v) => Some(v.item_id),
            Self::LegacyMcpCallArgumentsDelta(v) => Some(v.item_id),
            Self::LegacyMcpCallArgumentsDone(v) => Some(v.item_id),
            Self::CompactionCompacting(v) => Some(v.item_id),
            _ => None,
        }
    }

    /// The event's `output_index`: the position of the output item it is
    /// about. `None` for lifecycle events, `error`, transport events and
    /// unknown events.
    pub fn output_index(&self) -> Option<u64> {
        match self {
            Self::OutputItemAdded(v) => Some(v.output_index),
            Self::OutputItemDone(v) => Some(v.output_index),
            Self::ContentPartAdded(v) => Some(v.output_index),
            Self::ContentPartDone(v) => Some(v.output_index),
            Self::RefusalDelta(v) => Some(v.output_index),
            Self::RefusalDone(v) => Some(v.output_index),
            Self::OutputTextDelta(v) => Some(v.output_index),
            Self::OutputTextDone(v) => Some(v.output_index),
            Self::OutputTextAnnotationAdded(v) => Some(v.output_index),
            Self::LegacyOutputTextAnnotationAdded(v) => Some(v.output_index),
            Self::ReasoningSummaryPartAdded(v) => Some(v.output_index),
            Self::ReasoningSummaryPartDone(v) => Some(v.output_index),
            Self::ReasoningSummaryTextDelta(v) => Some(v.output_index),
            Self::ReasoningSummaryTextDone(v) => Some(v.output_index),
            Self::ReasoningTextDelta(v) => Some(v.output_index),
            Self::ReasoningTextDone(v) => Some(v.output_index),
            Self::LegacyReasoningDelta(v) => Some(v.output_index),
            Self::LegacyReasoningDone(v) => Some(v.output_index),
            Self::LegacyReasoningSummaryDelta(v) => Some(v.output_index),
            Self::LegacyReasoningSummaryDone(v) => Some(v.output_index),
            Self::FunctionCallArgumentsDelta(v) => Some(v.output_index),
            Self::FunctionCallArgumentsDone(v) => Some(v.output_index),
            Self::CustomToolCallInputDelta(v) => Some(v.output_index),
            Self::CustomToolCallInputDone(v) => Some(v.output_index),
            Self::CodeInterpreterCallCodeDelta(v) => Some(v.output_index),
            Self::CodeInterpreterCallCodeDone(v) => Some(v.output_index),
            Self::CodeInterpreterCallCompleted(v) => Some(v.output_index),
            Self::CodeInterpreterCallInProgress(v) => Some(v.output_index),
            Self::CodeInterpreterCallInterpreting(v) => Some(v.output_index),
            Self::FileSearchCallCompleted(v) => Some(v.output_index),
            Self::FileSearchCallInProgress(v) => Some(v.output_index),
            Self::FileSearchCallSearching(v) => Some(v.output_index),
            Self::ShellCallCommandAdded(v) => Some(v.output_index),
            Self::ShellCallCommandDelta(v) => Some(v.output_index),
            Self::ShellCallCommandDone(v) => Some(v.output_index),
            Self::ShellCallOutputContentDelta(v) => Some(v.output_index),
            Self::ShellCallOutputContentDone(v) => Some(v.output_index),
            Self::WebSearchCallCompleted(v) => Some(v.output_index),
            Self::WebSearchCallInProgress(v) => Some(v.output_index),
            Self::WebSearchCallSearching(v) => Some(v.output_index),
            Self::ImageGenerationCallCompleted(v) => Some(v.output_index),
            Self::ImageGenerationCallGenerating(v) => Some(v.output_index),
            Self::ImageGenerationCallInProgress(v) => Some(v.output_index),
            Self::ImageGenerationCallPartialImage(v) => Some(v.output_index),
            Self::McpCallArgumentsDelta(v) => Some(v.output_index),
            Self::McpCallArgumentsDone(v) => Some(v.output_index),
            Self::McpCallCompleted(v) => Some(v.output_index),
            Self::McpCallFailed(v) => Some(v.output_index),
            Self::McpCallInProgress(v) => Some(v.output_index),
            Self::McpListToolsCompleted(v) => Some(v.output_index),
            Self::McpListToolsFailed(v) => Some(v.output_index),
            Self::McpListToolsInProgress(v) => Some(v.output_index),
            Self::ApplyPatchCallOperationDiffDelta(v) => Some(v.output_index),
            Self::ApplyPatchCallOperationDiffDone(v) => Some(v.output_index),
            Self::LegacyCodeInterpreterCallCodeDelta(v) => Some(v.output_index),
            Self::LegacyCodeInterpreterCallCodeDone(v) => Some(v.output_index),
            Self::LegacyMcpCallArgumentsDelta(v) => Some(v.output_index),
            Self::LegacyMcpCallArgumentsDone(v) => Some(v.output_index),
            Self::CompactionCompacting(v) => Some(v.output_index),
            _ => None,
        }
    }

    /// The event's `content_index`: the position of the content part (of a
    /// message, or of a reasoning item's `content`) it is about.
    pub fn content_index(&self) -> Option<u64> {
        match self {
            Self::ContentPartAdded(v) => Some(v.content_index),
            Self::ContentPartDone(v) => Some(v.content_index),
            Self::RefusalDelta(v) => Some(v.content_index),
            Self::RefusalDone(v) => Some(v.content_index),
            Self::OutputTextDelta(v) => Some(v.content_index),
            Self::OutputTextDone(v) => Some(v.content_index),
            Self::OutputTextAnnotationAdded(v) => Some(v.content_index),
            Self::LegacyOutputTextAnnotationAdded(v) => Some(v.content_index),
            Self::ReasoningTextDelta(v) => Some(v.content_index),
            Self::ReasoningTextDone(v) => Some(v.content_index),
            Self::LegacyReasoningDelta(v) => Some(v.content_index),
            Self::LegacyReasoningDone(v) => Some(v.content_index),
            _ => None,
        }
    }

    /// The event's `summary_index`: the position of the reasoning summary
    /// part it is about.
    pub fn summary_index(&self) -> Option<u64> {
        match self {
            Self::ReasoningSummaryPartAdded(v) => Some(v.summary_index),
            Self::ReasoningSummaryPartDone(v) => Some(v.summary_index),
            Self::ReasoningSummaryTextDelta(v) => Some(v.summary_index),
            Self::ReasoningSummaryTextDone(v) => Some(v.summary_index),
            Self::LegacyReasoningSummaryDelta(v) => Some(v.summary_index),
            Self::LegacyReasoningSummaryDone(v) => Some(v.summary_index),
            _ => None,
        }
    }
}
