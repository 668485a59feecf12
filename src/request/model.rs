//! The neutral model of a request that every dialect is read into and
//! written out of. Every value keeps the JSON pointer it came from, so that
//! a writer that cannot say it reports where it was.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Number, Value};

/// A value and the JSON pointer of its source.
#[derive(Debug, Clone)]
pub(crate) struct Field<T> {
    pub(crate) value: T,
    pub(crate) path: String,
}

pub(crate) fn field<T>(value: T, path: &str) -> Field<T> {
    Field {
        value,
        path: path.into(),
    }
}

#[derive(Debug, Default)]
pub(crate) struct Request {
    pub(crate) model: Option<Field<String>>,
    pub(crate) stream: Option<Field<bool>>,
    pub(crate) system: Vec<System>,
    pub(crate) messages: Vec<Message>,
    pub(crate) tools: Vec<Tool>,
    pub(crate) tool_choice: Option<Field<ToolChoice>>,
    pub(crate) parallel_tool_calls: Option<Field<bool>>,
    pub(crate) format: Option<Format>,
    pub(crate) max_tokens: Option<Field<u64>>,
    pub(crate) temperature: Option<Field<Number>>,
    pub(crate) top_p: Option<Field<Number>>,
    pub(crate) top_k: Option<Field<Number>>,
    pub(crate) stop: Option<Field<Vec<String>>>,
    pub(crate) effort: Option<Field<String>>,
    pub(crate) budget: Option<Field<i64>>,
    /// Ask for reasoning summaries / thoughts back (Responses
    /// `reasoning.summary`, Gemini `includeThoughts`).
    pub(crate) summary: Option<Field<String>>,
}

#[derive(Debug)]
pub(crate) struct System {
    pub(crate) text: String,
    pub(crate) developer: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    User,
    Assistant,
}

#[derive(Debug)]
pub(crate) struct Message {
    pub(crate) role: Role,
    pub(crate) parts: Vec<Part>,
}

#[derive(Debug)]
pub(crate) struct Part {
    pub(crate) kind: PartKind,
    pub(crate) path: String,
    /// A Gemini `thoughtSignature` on the part.
    pub(crate) signature: Option<Field<String>>,
}

#[derive(Debug)]
pub(crate) enum PartKind {
    Text(String),
    Image {
        media: Media,
        detail: Option<Field<String>>,
    },
    File {
        media: Media,
        filename: Option<Field<String>>,
    },
    ToolCall {
        id: String,
        name: String,
        args: Args,
    },
    ToolResult {
        call_id: String,
        content: Vec<Part>,
        is_error: Option<Field<bool>>,
    },
    /// Reasoning signed or encrypted by its provider: carried only towards
    /// `origin` (the identity translation).
    Reasoning,
}

#[derive(Debug, Clone)]
pub(crate) enum Media {
    Url(String),
    Base64 {
        mime: String,
        data: String,
    },
    /// A file stored by the provider of `vendor` (OpenAI's ids serve both
    /// OpenAI dialects).
    FileId {
        vendor: Vendor,
        id: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Vendor {
    OpenAi,
    Anthropic,
}

/// Tool-call arguments: JSON text (OpenAI dialects) or an object.
#[derive(Debug)]
pub(crate) enum Args {
    /// The text as sent, and the object it holds when it is one.
    Text {
        text: String,
        object: Option<Value>,
    },
    Object(Value),
}

impl Args {
    pub(crate) fn from_text(text: &str) -> Args {
        let object = match serde_json::from_str::<Value>(text) {
            Ok(v @ Value::Object(_)) => Some(v),
            _ => None,
        };
        Args::Text {
            text: text.into(),
            object,
        }
    }
    /// The arguments as JSON text, as they came when they came as text.
    pub(crate) fn to_text(&self) -> String {
        match self {
            Args::Text { text, .. } => text.clone(),
            Args::Object(v) => v.to_string(),
        }
    }
    /// The arguments as an object, if they are one.
    pub(crate) fn object(&self) -> Option<&Value> {
        match self {
            Args::Text { object, .. } => object.as_ref(),
            Args::Object(v) => Some(v),
        }
    }
}

#[derive(Debug)]
pub(crate) enum Tool {
    Function {
        name: String,
        description: Option<String>,
        parameters: Option<Field<Value>>,
        strict: Option<Field<bool>>,
    },
    /// A tool the provider runs (web search, code execution…).
    Hosted { path: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ToolChoice {
    Auto,
    None,
    Required,
    Function(String),
}

#[derive(Debug)]
pub(crate) enum FormatKind {
    Text,
    JsonObject,
    JsonSchema {
        name: Option<Field<String>>,
        description: Option<Field<String>>,
        schema: Field<Value>,
        strict: Option<Field<bool>>,
    },
}

#[derive(Debug)]
pub(crate) struct Format {
    pub(crate) kind: FormatKind,
    pub(crate) path: String,
}

/// Effort → thinking budget (the table in the module docs).
pub(crate) fn effort_budget(effort: &str) -> Option<i64> {
    Some(match effort {
        "none" => 0,
        "minimal" => 1024,
        "low" => 2048,
        "medium" => 8192,
        "high" => 24576,
        "xhigh" | "max" => 32768,
        _ => return None,
    })
}

/// Thinking budget → effort: the nearest effort at or above it.
pub(crate) fn budget_effort(budget: i64) -> &'static str {
    match budget {
        i64::MIN..=-1 => "medium",
        0..=1024 => "minimal",
        1025..=2048 => "low",
        2049..=8192 => "medium",
        _ => "high",
    }
}

/// `data:<mime>;base64,<data>` → (mime, data).
pub(crate) fn parse_data_url(url: &str) -> Option<(&str, &str)> {
    let rest = url.strip_prefix("data:")?;
    let (head, data) = rest.split_once(',')?;
    let mime = head.strip_suffix(";base64")?;
    Some((mime, data))
}

pub(crate) fn data_url(mime: &str, data: &str) -> String {
    alloc::format!("data:{mime};base64,{data}")
}

/// A JSON pointer one step below `path`.
pub(crate) fn child(path: &str, key: &str) -> String {
    let mut out = String::with_capacity(path.len() + key.len() + 1);
    out.push_str(path);
    out.push('/');
    for c in key.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn index(path: &str, i: usize) -> String {
    alloc::format!("{path}/{i}")
}
