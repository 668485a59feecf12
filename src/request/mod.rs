//! Request translation between the four dialects' request bodies, for
//! gateways (feature `request`).
//!
//! A gateway that puts one API in front of another must translate the
//! request body before it can bridge the stream. [`translate`] reads a body
//! of one dialect (OpenAI Responses `POST /v1/responses`, Chat Completions
//! `POST /v1/chat/completions`, Anthropic `POST /v1/messages`, Gemini
//! `models/{model}:generateContent`) into one neutral model of the request
//! and writes it out as another dialect's body. What the target cannot say
//! comes back in [`Translated::not_carried`], each entry with the JSON
//! pointer of the source field and a [`NotCarriedKind`]: nothing is dropped
//! silently, and the caller decides whether to refuse the request or go on.
//! Identity translations return the body as it came (after the same checks),
//! with `stream_options.include_usage` set towards Chat and `max_tokens`
//! filled in towards Anthropic.
//!
//! ```
//! use ssekit::request::{translate, RequestConfig, Source};
//! use ssekit::turn::Dialect;
//!
//! let body = br#"{"model":"gpt-5","instructions":"Be brief.","stream":true,
//!   "input":[{"role":"user","content":"Hi"}],
//!   "tools":[{"type":"web_search"}]}"#;
//! let out = translate(body, Source::Responses, Dialect::Chat, &RequestConfig::default())?;
//! assert_eq!(out.body["messages"][0]["content"], "Be brief.");
//! assert_eq!(out.body["stream_options"]["include_usage"], true);
//! assert_eq!(out.not_carried[0].path, "/tools/0"); // a hosted tool: Chat has none
//! # Ok::<(), ssekit::request::RequestError>(())
//! ```
//!
//! # The model, and the rules it follows
//!
//! * System, developer and `instructions` text is gathered at the top of the
//!   request (Anthropic and Gemini have one system prompt); towards Chat each
//!   piece is a `system` or `developer` message, towards Responses the first
//!   (unless it is a developer message) is `instructions` and the others are
//!   `system` or `developer` messages at the head of `input`.
//! * Consecutive turns of the same role are merged into one; tool results
//!   belong to the user side (a Chat `tool` message, a Responses
//!   `function_call_output` item, an Anthropic `tool_result` block, a Gemini
//!   `functionResponse` part in a `user` turn).
//! * Every tool result must answer a call made earlier in the body, by call
//!   id; one that does not is [`RequestErrorKind::UnknownCallId`] with its
//!   path. Gemini `functionResponse` parts without an `id` answer the
//!   earliest unanswered `functionCall` of the same name (calls without an id
//!   are named `call_{content}_{part}` after their position); towards Gemini
//!   both carry the id, and the response's `name` is the call's.
//! * Tool arguments are JSON text in Responses and Chat and objects in
//!   Anthropic and Gemini; text that is not a JSON object is not carried
//!   towards the latter (the call goes with `{}`).
//! * Tool results towards Gemini are `{"output": text}` (`{"error": text}`
//!   when the source marks the result as an error); from Gemini, a response
//!   of that shape gives its text and any other object its JSON text.
//! * Reasoning that the provider signed or encrypted (Responses `reasoning`
//!   items, Anthropic `thinking` and `redacted_thinking` blocks, Gemini
//!   `thought` parts and `thoughtSignature`s) is carried only towards its own
//!   dialect, that is by the identity translation: another provider cannot
//!   check it.
//! * Reasoning effort and thinking budgets: `minimal` ↔ 1024 tokens, `low` ↔
//!   2048, `medium` ↔ 8192, `high` ↔ 24576, `xhigh`/`max` → 32768, `none` →
//!   thinking disabled (budget 0); a budget maps back to the nearest effort
//!   at or above it (0 → `minimal`, Gemini's dynamic `-1` → `medium`).
//!   Anthropic requires `1024 <= budget_tokens < max_tokens` (all three
//!   dialects count reasoning inside the output cap): a budget that does not
//!   fit becomes half of `max_tokens`, and below 2048 thinking is left out
//!   and the effort or budget listed as not carried. Thinking is left out
//!   (and listed) too when the request forces a tool or sets a temperature
//!   other than 1, a `top_k`, or a `top_p` below 0.95, which Anthropic
//!   refuses with thinking.
//! * Tool schemas towards Gemini are cut to its OpenAPI subset (`type`,
//!   `format`, `description`, `nullable`, `enum`, `properties`, `required`,
//!   `items`, `anyOf`, bounds…); every other keyword is listed with its path.
//!   A type list with `"null"` becomes `nullable: true`. From Gemini,
//!   upper-case type names are lower-cased.
//! * Towards Chat, `max_completion_tokens` is written, and with `stream:
//!   true` so is `stream_options: {"include_usage": true}`; towards
//!   Anthropic a missing `max_tokens` is [`RequestConfig::default_max_tokens`].
//!   Gemini's model and streaming choice live in the URL: give them in
//!   [`Source::Gemini`], and find them in [`Translated::model`] and
//!   [`Translated::stream`] when Gemini is the target.
//! * Towards Responses an assistant's earlier text is an input message
//!   whose `content` is a string (the output-message form needs the item id
//!   and status the API gave), and every input image has a `detail` (`auto`
//!   when the source has none), as the API's types require.
//! * Fields a reader does not know are listed as
//!   [`NotCarriedKind::UnknownField`], whatever the target.
//!
//! # The sixteen directions
//!
//! Rows are sources, columns targets; each cell lists what the source may
//! hold that the target does not take (everything else is carried). All
//! directions carry: system text, user and assistant text, images given as
//! URLs or base64, function tools with their schemas, tool calls and their
//! results tied by call id, `tool_choice` (auto, none, required, one
//! function), structured output given as a JSON schema, max tokens,
//! temperature, top_p, reasoning effort or budget, and `stream`.
//!
//! | from \ to | Responses | Chat | Anthropic | Gemini |
//! | --- | --- | --- | --- | --- |
//! | Responses | everything | hosted tools, reasoning items, `reasoning.summary`, item ids and status, refusals | hosted tools, reasoning items, `json_object`, schema name and `strict`, image `detail`, file ids, `reasoning.summary`, item ids | hosted tools, reasoning items, `parallel_tool_calls`, image `detail`, file ids, schema name and `strict`, tool `strict`, schema keywords outside Gemini's subset, non-text tool output, item ids |
//! | Chat | `stop`, `reasoning_content`, audio, refusals | everything | `json_object`, schema name and `strict`, image `detail`, file ids, `reasoning_content` | `parallel_tool_calls`, image `detail`, file ids, schema name and `strict`, tool `strict`, schema keywords, `reasoning_content` |
//! | Anthropic | `stop_sequences`, `top_k`, thinking blocks, hosted (server) tools, `is_error`, `cache_control`, Anthropic file ids | `top_k`, thinking blocks, hosted tools, `is_error`, `cache_control`, documents other than base64, images in tool results | everything | thinking blocks, hosted tools, `disable_parallel_tool_use`, `cache_control`, tool `strict`, images in tool results, schema keywords |
//! | Gemini | `stopSequences`, `topK`, thought parts and signatures, hosted tools (`googleSearch`…), `safetySettings` | `topK`, thoughts and signatures, `includeThoughts`, hosted tools, `safetySettings` | thoughts and signatures, `includeThoughts`, hosted tools, `safetySettings` | everything |
//!
//! Fields none of the others has (`metadata`, `store`, `previous_response_id`,
//! `seed`, `n`, `logprobs`, `service_tier`, `cachedContent`…) are listed as not
//! carried in every cross-dialect direction.
//! Towards Anthropic, a reasoning effort or budget is also listed when
//! thinking cannot be enabled with the request's other settings (the rules
//! above); towards Responses and Chat, a tool result marked as an error
//! (Anthropic `is_error`, a Gemini `{"error": …}` response) keeps its text,
//! and the mark is listed.
//!
//! # Limits
//!
//! [`RequestConfig`] bounds the body's bytes, its nesting depth (checked by
//! one pass over the bytes before anything is parsed) and the length of any
//! array in it (messages, items, parts, tools); the work is linear in the
//! body's size.
//!
//! # Errors between dialects
//!
//! [`translate_error`] turns an upstream's HTTP error (status and body in
//! its dialect) into the client dialect's status and body, through one
//! [`ErrorKind`]:
//!
//! | kind | status | OpenAI `error.type` | Anthropic `error.type` | Gemini `error.status` |
//! | --- | --- | --- | --- | --- |
//! | `InvalidRequest` | 400 | `invalid_request_error` | `invalid_request_error` | `INVALID_ARGUMENT` (also read: `FAILED_PRECONDITION`, `OUT_OF_RANGE`) |
//! | `Authentication` | 401 | `authentication_error` (also read: code `invalid_api_key`) | `authentication_error` | `UNAUTHENTICATED` |
//! | `Permission` | 403 | `permission_error` | `permission_error` | `PERMISSION_DENIED` |
//! | `NotFound` | 404 | `invalid_request_error` (code `not_found`) | `not_found_error` | `NOT_FOUND` |
//! | `RequestTooLarge` | 413 | `invalid_request_error` (code `request_too_large`) | `request_too_large` | `INVALID_ARGUMENT` |
//! | `RateLimit` | 429 | `rate_limit_error` (also read: `insufficient_quota`, `tokens`, `requests`) | `rate_limit_error` | `RESOURCE_EXHAUSTED` |
//! | `Server` | 500 | `server_error` | `api_error` | `INTERNAL` (also read: `UNKNOWN`) |
//! | `Overloaded` | 503 (529 towards Anthropic) | `server_error` (code `overloaded`) | `overloaded_error` | `UNAVAILABLE` |
//! | `Timeout` | 504 | `server_error` (code `timeout`) | `timeout_error` | `DEADLINE_EXCEEDED` |
//!
//! The kind is read from the body's type when the dialect's vocabulary
//! names one, else from the status (other 4xx: `InvalidRequest`, other
//! 5xx: `Server`).

mod error_map;
mod model;
mod read;
mod schema;
mod write;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde_json::Value;

pub use crate::turn::Dialect;
pub use error_map::{translate_error, ErrorKind, TranslatedError};

/// The dialect of a request body, with what Gemini keeps in the URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source<'a> {
    /// OpenAI Responses (`POST /v1/responses`).
    Responses,
    /// OpenAI Chat Completions (`POST /v1/chat/completions`).
    Chat,
    /// Anthropic Messages (`POST /v1/messages`).
    Anthropic,
    /// Gemini `models/{model}:generateContent` or `:streamGenerateContent`.
    Gemini {
        /// The model named in the URL.
        model: &'a str,
        /// Whether the URL asked for `streamGenerateContent`.
        stream: bool,
    },
}

impl Source<'_> {
    /// The dialect of the body.
    pub fn dialect(&self) -> Dialect {
        match self {
            Source::Responses => Dialect::Responses,
            Source::Chat => Dialect::Chat,
            Source::Anthropic => Dialect::Anthropic,
            Source::Gemini { .. } => Dialect::Gemini,
        }
    }
}

/// Limits and defaults of [`translate`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RequestConfig {
    /// The largest body, in bytes (default 16 MiB).
    pub max_body_bytes: usize,
    /// The deepest nesting of arrays and objects (default 64).
    pub max_depth: usize,
    /// The longest array anywhere in the body: messages, items, parts,
    /// tools (default 10,000).
    pub max_items: usize,
    /// `max_tokens` towards Anthropic, which requires it, when the source
    /// has none (default 4096).
    pub default_max_tokens: u64,
}

impl Default for RequestConfig {
    fn default() -> Self {
        RequestConfig {
            max_body_bytes: 16 << 20,
            max_depth: 64,
            max_items: 10_000,
            default_max_tokens: 4096,
        }
    }
}

impl RequestConfig {
    /// The default limits.
    pub fn new() -> Self {
        Self::default()
    }
    /// With `max_body_bytes`.
    pub fn with_max_body_bytes(mut self, n: usize) -> Self {
        self.max_body_bytes = n;
        self
    }
    /// With `max_depth`.
    pub fn with_max_depth(mut self, n: usize) -> Self {
        self.max_depth = n;
        self
    }
    /// With `max_items`.
    pub fn with_max_items(mut self, n: usize) -> Self {
        self.max_items = n;
        self
    }
    /// With `default_max_tokens`.
    pub fn with_default_max_tokens(mut self, n: u64) -> Self {
        self.default_max_tokens = n;
        self
    }
}

/// A translated request.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Translated {
    /// The body in the target dialect.
    pub body: Value,
    /// The model: for a Gemini target it goes in the URL (the body has none).
    pub model: Option<String>,
    /// Whether the request streams: for a Gemini target, call
    /// `streamGenerateContent?alt=sse` when it is true.
    pub stream: bool,
    /// What the target could not take, in source order.
    pub not_carried: Vec<NotCarried>,
}

/// One source field the target could not take.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NotCarried {
    /// The JSON pointer (RFC 6901) of the field in the source body.
    pub path: String,
    /// Why.
    pub kind: NotCarriedKind,
}

/// Why a field was not carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NotCarriedKind {
    /// The reader does not know the field.
    UnknownField,
    /// The target has no equivalent (a hosted tool, `stop` towards
    /// Responses, an image's `detail` towards Anthropic…).
    Unsupported,
    /// Signed or encrypted reasoning, which only its own provider accepts.
    Reasoning,
    /// A JSON-schema keyword outside Gemini's schema subset.
    SchemaKeyword,
    /// Tool-result content other than text, where the target takes only text.
    ToolResultContent,
    /// Tool-call arguments that are not a JSON object.
    InvalidArguments,
}

impl NotCarried {
    pub(crate) fn new(path: impl Into<String>, kind: NotCarriedKind) -> Self {
        NotCarried {
            path: path.into(),
            kind,
        }
    }
}

/// A body that cannot be translated.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RequestError {
    /// What is wrong.
    pub kind: RequestErrorKind,
    /// The JSON pointer of the offending value ("" for the whole body).
    pub path: String,
    /// For invalid JSON, the byte offset serde_json stopped at.
    pub offset: Option<usize>,
}

/// What is wrong with a body.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RequestErrorKind {
    /// Not JSON; `line` and `column` as serde_json reports them.
    InvalidJson {
        /// 1-based line.
        line: usize,
        /// 1-based column (bytes).
        column: usize,
    },
    /// The body is longer than [`RequestConfig::max_body_bytes`].
    TooLarge,
    /// Nested deeper than [`RequestConfig::max_depth`].
    TooDeep,
    /// An array longer than [`RequestConfig::max_items`].
    TooManyItems,
    /// A value of the wrong JSON type; the type expected.
    WrongType(&'static str),
    /// A required field is missing.
    MissingField,
    /// A value outside its field's vocabulary (an unknown role, say).
    InvalidValue,
    /// A tool result answers no call made before it.
    UnknownCallId,
}

impl RequestError {
    pub(crate) fn at(kind: RequestErrorKind, path: impl Into<String>) -> Self {
        RequestError {
            kind,
            path: path.into(),
            offset: None,
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            RequestErrorKind::InvalidJson { line, column } => {
                write!(f, "invalid json at line {line} column {column}")?;
                if let Some(offset) = self.offset {
                    write!(f, " (byte {offset})")?;
                }
                return Ok(());
            }
            RequestErrorKind::TooLarge => f.write_str("request body too large")?,
            RequestErrorKind::TooDeep => f.write_str("request body nested too deep")?,
            RequestErrorKind::TooManyItems => f.write_str("array too long")?,
            RequestErrorKind::WrongType(t) => write!(f, "expected {t}")?,
            RequestErrorKind::MissingField => f.write_str("missing field")?,
            RequestErrorKind::InvalidValue => f.write_str("invalid value")?,
            RequestErrorKind::UnknownCallId => f.write_str("tool result for an unknown call id")?,
        }
        write!(
            f,
            " at {}",
            if self.path.is_empty() {
                "/"
            } else {
                &self.path
            }
        )
    }
}

impl core::error::Error for RequestError {}

/// Translates a request body from one dialect into another.
///
/// # Errors
///
/// A [`RequestError`] with the JSON pointer of the fault: the body is not
/// JSON, breaks a limit of `config`, has a field of the wrong type, lacks a
/// required field, or has a tool result for a call the body does not make.
///
/// Time and memory are linear in the body's length.
pub fn translate(
    body: &[u8],
    from: Source<'_>,
    to: Dialect,
    config: &RequestConfig,
) -> Result<Translated, RequestError> {
    let value = parse_json(body, config)?;
    let mut not_carried = Vec::new();
    let request = read::read(&value, from, config, &mut not_carried)?;
    if from.dialect() == to {
        not_carried.clear();
        return Ok(identity(value, request, to, config));
    }
    let (body, model) = write::write(&request, to, config, &mut not_carried);
    not_carried.sort_by(|a, b| a.path.cmp(&b.path));
    not_carried.dedup();
    Ok(Translated {
        body,
        model,
        stream: request.stream.as_ref().is_some_and(|s| s.value),
        not_carried,
    })
}

fn identity(
    mut value: Value,
    request: model::Request,
    to: Dialect,
    config: &RequestConfig,
) -> Translated {
    let stream = request.stream.as_ref().is_some_and(|s| s.value);
    let model = request.model.as_ref().map(|m| m.value.clone());
    if let Value::Object(map) = &mut value {
        match to {
            Dialect::Chat if stream => {
                let options = map
                    .entry("stream_options")
                    .or_insert_with(|| Value::Object(serde_json::Map::new()));
                if !options.is_object() {
                    // `null`, which the reader accepts as absent.
                    *options = Value::Object(serde_json::Map::new());
                }
                if let Value::Object(options) = options {
                    options.insert("include_usage".into(), Value::Bool(true));
                }
            }
            Dialect::Anthropic if map.get("max_tokens").is_none_or(Value::is_null) => {
                map.insert("max_tokens".into(), config.default_max_tokens.into());
            }
            _ => {}
        }
    }
    Translated {
        body: value,
        model,
        stream,
        not_carried: Vec::new(),
    }
}

/// Checks the size and depth limits on the bytes, then parses them.
fn parse_json(body: &[u8], config: &RequestConfig) -> Result<Value, RequestError> {
    if body.len() > config.max_body_bytes {
        return Err(RequestError {
            kind: RequestErrorKind::TooLarge,
            path: String::new(),
            offset: Some(config.max_body_bytes),
        });
    }
    check_depth(body, config.max_depth)?;
    serde_json::from_slice(body).map_err(|e| RequestError {
        kind: RequestErrorKind::InvalidJson {
            line: e.line(),
            column: e.column(),
        },
        path: String::new(),
        offset: Some(byte_offset(body, e.line(), e.column())),
    })
}

/// One pass over the bytes: the depth of brackets outside strings, so that
/// no deep value is ever parsed.
fn check_depth(body: &[u8], max_depth: usize) -> Result<(), RequestError> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in body.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max_depth {
                    return Err(RequestError {
                        kind: RequestErrorKind::TooDeep,
                        path: String::new(),
                        offset: Some(i),
                    });
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// The byte offset of serde_json's (line, column): columns count bytes, and
/// column 0 means the end of the previous line.
fn byte_offset(body: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match body[start..].iter().position(|&b| b == b'\n') {
            Some(p) => start += p + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(body.len())
}
