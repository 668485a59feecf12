//! Event names that LLM streams repeat: the OpenAI Responses event types of
//! `../shared/research/responses-events.json` and Anthropic's Messages events.
//! A frame whose event name is one of these holds a static string, so it costs
//! neither a reference count nor a UTF-8 check.

/// Known event names, sorted by length then bytes.
pub(crate) static KNOWN: [&str; 86] = [
    "ping",
    "error",
    "message",
    "keepalive",
    "message_stop",
    "message_delta",
    "message_start",
    "response.failed",
    "response.queued",
    "response.created",
    "codex.rate_limits",
    "response.metadata",
    "content_block_stop",
    "response.completed",
    "content_block_delta",
    "content_block_start",
    "response.audio.done",
    "response.incomplete",
    "response.audio.delta",
    "response.in_progress",
    "response.refusal.done",
    "response.steer.failed",
    "response.inject.failed",
    "response.refusal.delta",
    "response.steer.pending",
    "response.inject.created",
    "response.reasoning.done",
    "response.steer.accepted",
    "response.mcp_call.failed",
    "response.reasoning.delta",
    "response.output_item.done",
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.added",
    "response.output_text.delta",
    "response.content_part.added",
    "response.mcp_call.completed",
    "response.reasoning_text.done",
    "response.mcp_call.in_progress",
    "response.reasoning_text.delta",
    "response.audio.transcript.done",
    "response.compaction.compacting",
    "response.mcp_list_tools.failed",
    "response.audio.transcript.delta",
    "response.reasoning_summary.done",
    "response.mcp_call.arguments_done",
    "response.mcp_call_arguments.done",
    "response.reasoning_summary.delta",
    "response.shell_call_command.done",
    "response.mcp_call.arguments_delta",
    "response.mcp_call_arguments.delta",
    "response.mcp_list_tools.completed",
    "response.shell_call_command.added",
    "response.shell_call_command.delta",
    "response.web_search_call.completed",
    "response.web_search_call.searching",
    "response.file_search_call.completed",
    "response.file_search_call.searching",
    "response.mcp_list_tools.in_progress",
    "response.custom_tool_call_input.done",
    "response.reasoning_summary_part.done",
    "response.reasoning_summary_text.done",
    "response.web_search_call.in_progress",
    "response.custom_tool_call_input.delta",
    "response.file_search_call.in_progress",
    "response.function_call_arguments.done",
    "response.output_text.annotation.added",
    "response.output_text_annotation.added",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_text.delta",
    "response.function_call_arguments.delta",
    "response.shell_call_output_content.done",
    "response.code_interpreter_call.code.done",
    "response.code_interpreter_call.completed",
    "response.code_interpreter_call_code.done",
    "response.image_generation_call.completed",
    "response.shell_call_output_content.delta",
    "response.code_interpreter_call.code.delta",
    "response.code_interpreter_call_code.delta",
    "response.image_generation_call.generating",
    "response.code_interpreter_call.in_progress",
    "response.image_generation_call.in_progress",
    "response.code_interpreter_call.interpreting",
    "response.image_generation_call.partial_image",
    "response.apply_patch_call_operation_diff.done",
    "response.apply_patch_call_operation_diff.delta",
];

/// The static copy of `name`, if it is a known event name.
pub(crate) fn known(name: &[u8]) -> Option<&'static str> {
    let first = KNOWN.partition_point(|k| k.len() < name.len());
    KNOWN[first..]
        .iter()
        .take_while(|k| k.len() == name.len())
        .find(|k| k.as_bytes() == name)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_and_found() {
        assert!(KNOWN
            .windows(2)
            .all(|w| (w[0].len(), w[0]) < (w[1].len(), w[1])));
        for k in KNOWN {
            assert_eq!(known(k.as_bytes()), Some(k));
        }
        assert_eq!(known(b"response.output_text.deltaX"), None);
        assert_eq!(known(b""), None);
    }
}
