//! What each Responses event type does in a stream, as data: the
//! [`EventRole`] of every [`EventKind`] (the kinds themselves are generated
//! from the one table of event types in `responses/mod.rs`), the
//! [`PartKind`]s of the parts items stream, and the [`TextKind`]s of the
//! texts streamed as deltas. The accumulator, the linter and the order
//! checker read these instead of lists of type strings of their own.

use super::EventKind;

/// What an event type does in the stream's lifecycle. See [`EventKind::role`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EventRole {
    /// `response.created`, `response.in_progress`, `response.queued`: the
    /// response object before it ends.
    Lifecycle,
    /// `response.completed`, `response.incomplete`, `response.failed`: the
    /// last event of a response.
    Terminal,
    /// `response.output_item.added`: an output item begins.
    ItemAdded,
    /// `response.output_item.done`: an output item is complete.
    ItemDone,
    /// A part of an item begins (`response.content_part.added`, …).
    PartAdded(PartKind),
    /// A part of an item is complete (`response.content_part.done`, …).
    PartDone(PartKind),
    /// A fragment of a streamed text (`response.output_text.delta`, …).
    Delta(TextKind),
    /// The whole of a streamed text (`response.output_text.done`, …).
    TextDone(TextKind),
    /// Another event about one item (tool progress, an annotation, a
    /// partial image), with the kind of part it is about, if any.
    ItemEvent(Option<PartKind>),
    /// `error`: not terminal, but the stream may end after it.
    Error,
    /// About no item (`keepalive`, audio, backend extensions), the `[DONE]`
    /// sentinel and unknown types.
    Other,
}

impl EventRole {
    /// Whether the role ends a response (see [`Terminal`](Self::Terminal)).
    #[inline]
    pub fn is_terminal(self) -> bool {
        self == Self::Terminal
    }
}

/// The parts an item streams one by one, each keyed by its own index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum PartKind {
    /// A message's (or reasoning item's) content part, by `content_index`.
    Content,
    /// A reasoning summary part, by `summary_index`.
    Summary,
    /// A shell call's command, by `command_index`.
    Command,
}

impl PartKind {
    /// The event that adds a part of this kind.
    pub fn added_event(self) -> EventKind {
        match self {
            Self::Content => EventKind::ContentPartAdded,
            Self::Summary => EventKind::ReasoningSummaryPartAdded,
            Self::Command => EventKind::ShellCallCommandAdded,
        }
    }

    /// The JSON key of the index that numbers parts of this kind.
    pub fn index_field(self) -> &'static str {
        match self {
            Self::Content => "content_index",
            Self::Summary => "summary_index",
            Self::Command => "command_index",
        }
    }
}

macro_rules! text_kinds {
    ($(
        $(#[$meta:meta])*
        $kind:ident = $name:literal, $field:literal, $part:expr, $needs:literal, $by_index:literal;
    )*) => {
        /// A text streamed as deltas, then whole in a done event.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum TextKind {
            $( $(#[$meta])* $kind, )*
        }

        impl TextKind {
            /// The text's name: the event types' stem
            /// (`response.<name>.delta`), as messages name it.
            pub fn name(self) -> &'static str {
                match self { $( Self::$kind => $name, )* }
            }

            /// The member of the done event that holds the whole text.
            pub fn done_field(self) -> &'static str {
                match self { $( Self::$kind => $field, )* }
            }

            /// The part the text belongs to, by whose index it is keyed.
            pub fn part(self) -> Option<PartKind> {
                match self { $( Self::$kind => $part, )* }
            }

            /// Whether that part is added (by its own event) before the
            /// text's events.
            pub fn needs_part(self) -> bool {
                match self { $( Self::$kind => $needs, )* }
            }

            /// Whether the text's events name their item by `output_index`
            /// only (they carry no `item_id`).
            pub fn by_output_index(self) -> bool {
                match self { $( Self::$kind => $by_index, )* }
            }
        }
    };
}

text_kinds! {
    /// `response.output_text.*`.
    OutputText = "output_text", "text", Some(PartKind::Content), true, false;
    /// `response.refusal.*`.
    Refusal = "refusal", "refusal", Some(PartKind::Content), true, false;
    /// `response.reasoning_text.*`.
    ReasoningText = "reasoning_text", "text", Some(PartKind::Content), true, false;
    /// `response.reasoning.*` (legacy).
    LegacyReasoning = "reasoning", "text", Some(PartKind::Content), false, false;
    /// `response.reasoning_summary_text.*`.
    SummaryText = "reasoning_summary_text", "text", Some(PartKind::Summary), true, false;
    /// `response.reasoning_summary.*` (legacy).
    LegacySummary = "reasoning_summary", "text", Some(PartKind::Summary), false, false;
    /// `response.function_call_arguments.*`.
    FunctionArguments = "function_call_arguments", "arguments", None, false, false;
    /// `response.custom_tool_call_input.*`.
    CustomInput = "custom_tool_call_input", "input", None, false, false;
    /// `response.code_interpreter_call_code.*`.
    Code = "code_interpreter_call_code", "code", None, false, false;
    /// `response.code_interpreter_call.code.*` (legacy).
    LegacyCode = "code_interpreter_call.code", "code", None, false, true;
    /// `response.mcp_call_arguments.*`.
    McpArguments = "mcp_call_arguments", "arguments", None, false, false;
    /// `response.mcp_call.arguments_*` (legacy).
    LegacyMcpArguments = "mcp_call.arguments", "arguments", None, false, false;
    /// `response.apply_patch_call_operation_diff.*`.
    PatchDiff = "apply_patch_call_operation_diff", "diff", None, false, false;
    /// `response.shell_call_command.delta` / `.done`.
    ShellCommand = "shell_call_command", "command", Some(PartKind::Command), true, true;
}
