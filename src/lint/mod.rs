//! Checks a Responses API stream (and Chat Completions, Anthropic Messages
//! and Gemini streams) against what real clients require.
//!
//! Gateways and proxies that re-emit Responses streams break real clients
//! when an event, a field or an order is missing: the Codex CLI reports
//! "ReasoningSummaryDelta without active item" or "stream closed before
//! response.completed", the Vercel AI SDK keys tool calls by
//! `output_index`, SDK accumulators look items up by `item_id`. The linter
//! replays the processing flow those clients implement and reports each
//! departure as a [`Finding`]: a [`Rule`] with a stable id, a [`Severity`],
//! the byte offset of the event's block in the stream and the event's
//! `sequence_number`.
//!
//! # Example
//!
//! ```
//! use ssekit::lint::{has_errors, lint_bytes, ResponsesLinter, Rule};
//!
//! let stream = concat!(
//!     "event: response.created\n",
//!     "data: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"output\":[]}}\n\n",
//!     "event: response.output_text.delta\n",
//!     "data: {\"type\":\"response.output_text.delta\",\"sequence_number\":1,\"item_id\":\"msg_1\",",
//!     "\"output_index\":0,\"content_index\":0,\"delta\":\"Hi\"}\n\n",
//! );
//! let findings = lint_bytes(ResponsesLinter::new(), stream.as_bytes());
//! for f in &findings {
//!     println!("{f}"); // offset 118 seq 1: error unknown-item: `response.output_text.delta` for item msg_1, …
//! }
//! let rules: Vec<Rule> = findings.iter().map(|f| f.rule()).collect();
//! assert_eq!(rules, [Rule::UnknownItem, Rule::MissingTerminal]);
//! assert_eq!((findings[0].offset(), findings[0].sequence_number()), (118, Some(1)));
//! assert!(has_errors(&findings));
//! ```
//!
//! For a stream parsed elsewhere, feed a [`ResponsesLinter`] frames with their
//! offsets; for bytes arriving in chunks, a [`StreamLinter`].
//!
//! # Rules
//!
//! | id | severity | reported when |
//! | --- | --- | --- |
//! | `sse-error` | error | the SSE framing failed: a parser limit was exceeded (the event is lost) or the stream ended inside an event |
//! | `invalid-json` | error | an event's data is not JSON, or not a JSON object (the message has the offset in the data) |
//! | `missing-type` | error | the data has no string `type` |
//! | `event-name-mismatch` | error | the SSE `event:` name is not the data's `type` (a stream with no `event:` lines is fine: clients read `type`) |
//! | `invalid-event` | error | a known event type lacks a field its type requires or has one of the wrong kind (as [`ResponsesEvent::parse`](crate::responses::ResponsesEvent::parse) and `validate` decide; it already tolerates what real streams omit) |
//! | `unknown-event-type` | info | a type this version does not know; it is not checked further |
//! | `done-sentinel` | info | `data: [DONE]`, which the Responses API does not send (OpenRouter does); clients must skip it |
//! | `missing-sequence-number` | warning | no `sequence_number`: once while no event had one (early-2025 streams), then each event that lacks one after numbered events |
//! | `sequence-not-increasing` | error | a `sequence_number` not greater than the highest before it |
//! | `sequence-gap` | warning | a `sequence_number` more than one past the one before (events lost) |
//! | `created-not-first` | warning | the first event is not `response.created` (a stream resumed with `starting_after` begins later) |
//! | `missing-item-id` | error | a delta, done, part or tool-status event has no `item_id` (the shell-command and legacy code events, which carry none by design, are matched by `output_index`) |
//! | `unknown-item` | error | such an event, or `response.output_item.done`, names an item no earlier `response.output_item.added` introduced (the Codex CLI's "… without active item") |
//! | `duplicate-item` | error | an item, part or streamed text added or done twice |
//! | `output-index-mismatch` | error | an item added at an `output_index` other than the number of items before it, or an event whose `output_index` differs from its item's |
//! | `event-after-item-done` | error | an event about an item after its `response.output_item.done`, or a delta after its text's `*.done` |
//! | `part-not-added` | error | an `output_text` / `refusal` / `reasoning_text` delta, done or annotation before `response.content_part.added` for its `content_index`; a `reasoning_summary_text` one before `response.reasoning_summary_part.added` for its `summary_index`; a shell-command delta before `response.shell_call_command.added`; a part done that was never added. Reported once per text |
//! | `done-mismatch` | error | a `*.done` event's `text` / `refusal` / `arguments` / `input` / `code` / `diff` / `command` differs from the concatenation of its deltas (compared unescaped), or is non-empty after no deltas |
//! | `item-not-done` | error | an item still open at the terminal event, or an item done while a part it added is not done or a text has deltas but no `*.done`; a **warning** at `response.failed` |
//! | `missing-terminal` | error | the stream ended without `response.completed`, `response.incomplete` or `response.failed`; a **warning** when an `error` event came before the end |
//! | `multiple-terminal` | error | a second terminal event |
//! | `event-after-terminal` | error | any other event after the terminal one (`[DONE]` is only `done-sentinel`) |
//! | `terminal-output-mismatch` | error | the terminal response's `output` differs from the streamed items in count, or in `id` or `type` at some position (items in `output_index` order); a **warning** at `response.failed`, and when `response.completed` has no `output` at all |
//! | `response-id-mismatch` | error | `response.in_progress` or a terminal event names another response `id` than the first lifecycle event |
//! | `limit-reached` | info | a [`LintConfig`] cap was reached and a check stopped (for an item, its parts or its text); the summary of findings past `max_findings` has the severity of the worst one left out |
//!
//! ## Chat Completions and Anthropic Messages streams
//!
//! [`ChatLinter`] and [`AnthropicLinter`] check the other two dialects with
//! the rules that apply to them (the shared ids keep their meaning: an
//! "item" is a choice or a content block there), plus six of their own:
//!
//! | id | severity | reported when |
//! | --- | --- | --- |
//! | `tool-call-without-id` | error | Chat: a tool call's first fragment has no `id` or no `function.name` (clients cannot start the call) |
//! | `missing-finish-reason` | error | Chat: the stream ended with a choice that never got a `finish_reason` (or no choice at all), without an error chunk |
//! | `message-start-not-first` | error | Anthropic: the first event (pings and errors aside) is not `message_start` |
//! | `block-index-mismatch` | error | Anthropic: a content block started at an index other than the number of blocks before it (SDKs append blocks) |
//! | `delta-type-mismatch` | error | Anthropic: a delta the block's kind does not take (`text_delta` / `citations_delta` for text, `thinking_delta` / `signature_delta` for thinking, `input_json_delta` for tool use) |
//! | `missing-stop-reason` | warning | Anthropic: `message_stop` without a `message_delta` that gave the `stop_reason` |
//!
//! Chat: `event-after-item-done` is a delta after its choice's
//! `finish_reason`; `missing-terminal` is a stream without `data: [DONE]`
//! (a warning: OpenAI sends it, some compatible servers do not);
//! `event-after-terminal` anything after it. Anthropic: `unknown-item` is a
//! delta or stop for a block never started, `duplicate-item` a block
//! started or stopped twice, `item-not-done` a block still open at
//! `message_stop`, `missing-terminal` a stream without `message_stop`.
//! [`lint_bytes`] runs any of the linters over a stream in memory, and
//! [`linter_for`] picks one for a [`Dialect`] known at run
//! time.
//!
//! ## Gemini streams
//!
//! [`GeminiLinter`] is built on the lint core over the turn model: the
//! Gemini [reader](crate::turn::GeminiReader) replays the stream, and its
//! faults map to the shared rules in one place (`invalid-json`,
//! `invalid-event`, `event-after-terminal` for anything after an error
//! chunk, `missing-finish-reason` when candidate 0 never got a
//! `finishReason` and the prompt was not blocked: a cut stream, which
//! clients cannot tell from a whole one). Its own rules, from how
//! google-genai and @ai-sdk/google parse these streams: `done-sentinel` is
//! an **error** (google-genai parses every `data:` as JSON and raises);
//! `duplicate-item` is a function call `id` in a second part (clients run
//! the call twice); `event-after-item-done` is a **warning** for content
//! after a candidate's `finishReason`, unless every chunk of the candidate
//! had one (Vertex AI's way); `missing-finish-reason` also covers the other
//! candidates; and these:
//!
//! | id | severity | reported when |
//! | --- | --- | --- |
//! | `invalid-arguments` | error | Gemini: a `functionCall.args` that is not a JSON object (google-genai's `args` is a dict; a call comes whole, not in fragments) |
//! | `function-call-without-name` | error | Gemini: a `functionCall` part without `name` that is not a fragment of streamed arguments (`partialArgs`, `willContinue`): clients drop it |
//! | `error-not-first` | error | Gemini: an error chunk whose first member is not `error` (google-genai spots errors by the text `{"error":` and reads it as an empty answer) |
//! | `incomplete-error` | warning | Gemini: an error object without an integer `code`, a `message` or a `status` (google-genai compares the code with 400; @ai-sdk/google's schema requires the strings) |
//! | `missing-usage` | warning | Gemini: no chunk had `usageMetadata`, and no error chunk ended the stream (clients report no token counts) |
//! | `missing-thought-signature` | warning | Gemini: the turn thought (thought parts or `thoughtsTokenCount`) and its first function call has no `thoughtSignature` (Gemini 3 refuses the next request without it) |
//!
//! ## Decisions
//!
//! * **`error` is not a terminal event.** The API sends `error` and then
//!   `response.failed`; a stream that ends after `error` alone has told the
//!   client it failed, but clients that wait for a terminal event (the
//!   Codex CLI) still report a disconnect, so it is a `missing-terminal`
//!   warning, not an error. An `error` after the terminal event is an
//!   `event-after-terminal` error.
//! * **A failed response may be unfinished.** At `response.failed`, open
//!   items and an `output` that does not list the streamed items are
//!   warnings: the server stopped, and clients read the `error` (Codex CLI,
//!   Vercel AI SDK), not the items.
//! * **Sequence numbers start anywhere**: a resumed stream begins past 0.
//!   Only order and gaps are checked.
//! * **One finding per cause**: an item the stream never added is reported
//!   at each event about it (each is a client failure), but a missing part
//!   once per text, and a stream without any sequence numbers once.
//! * **After the terminal event** only `event-after-terminal` /
//!   `multiple-terminal` and the per-event checks (JSON, `type`, name,
//!   sequence) run.
//!
//! # Memory
//!
//! The linter keeps, per output item, its id, type, index and the state of
//! its parts, and for each open streamed text the concatenated deltas until
//! the done event; [`LintConfig`] caps each. Findings wait in a queue until
//! taken. [`lint_bytes`] returns them all (at most
//! [`LintConfig::max_findings`] plus one summary).

mod core;
mod dialects;
mod gemini;
mod linter;
mod reports;
mod rule;
mod stream;
#[cfg(test)]
mod tests;

pub use dialects::{lint_bytes, AnthropicLinter, ChatLinter, FrameLinter};
pub use gemini::GeminiLinter;
pub use linter::{LintConfig, ResponsesLinter};
pub use rule::{Finding, Rule, Severity};
pub use stream::StreamLinter;

use crate::Dialect;
use alloc::boxed::Box;

/// The linter of a dialect known only at run time, with these caps: for
/// [`StreamLinter::with_linter`] or [`lint_bytes`].
///
/// ```
/// use ssekit::lint::{lint_bytes, linter_for, LintConfig, Rule};
/// use ssekit::Dialect;
///
/// let cut = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hi\"}]}}],\"usageMetadata\":{}}\r\n\r\n";
/// let findings = lint_bytes(linter_for(Dialect::Gemini, LintConfig::DEFAULT), cut.as_bytes());
/// assert_eq!(findings[0].rule(), Rule::MissingFinishReason);
/// assert_eq!(findings[0].offset(), cut.len() as u64); // at the end of the stream
/// ```
pub fn linter_for(dialect: Dialect, config: LintConfig) -> Box<dyn FrameLinter + Send> {
    match dialect {
        Dialect::Responses => Box::new(ResponsesLinter::with_config(config)),
        Dialect::Chat => Box::new(ChatLinter::with_config(config)),
        Dialect::Anthropic => Box::new(AnthropicLinter::with_config(config)),
        Dialect::Gemini => Box::new(GeminiLinter::with_config(config)),
    }
}

/// Whether any of these findings is an error (a stream that lints clean has
/// none; warnings and information do not count).
///
/// ```
/// let clean = ssekit::lint::lint_bytes(ssekit::lint::ResponsesLinter::new(), b"");
/// assert!(ssekit::lint::has_errors(&clean)); // an empty stream has no terminal event
/// ```
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(Finding::is_error)
}
