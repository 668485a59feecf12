//! An upstream's HTTP error, in the client's dialect.

use alloc::string::{String, ToString};

use serde_json::{json, Value};

use super::Dialect;

/// The kind of an API error, common to the four dialects (the table of
/// each dialect's names for it is in the [module docs](super#errors-between-dialects)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The request is malformed or refused as it is.
    InvalidRequest,
    /// Missing or bad credentials.
    Authentication,
    /// The credentials may not do this.
    Permission,
    /// No such model or resource.
    NotFound,
    /// The request body is too large.
    RequestTooLarge,
    /// Too many requests, or a quota is spent.
    RateLimit,
    /// The upstream failed.
    Server,
    /// The upstream is overloaded; try later.
    Overloaded,
    /// The upstream took too long.
    Timeout,
}

impl ErrorKind {
    fn status(self) -> u16 {
        match self {
            ErrorKind::InvalidRequest => 400,
            ErrorKind::Authentication => 401,
            ErrorKind::Permission => 403,
            ErrorKind::NotFound => 404,
            ErrorKind::RequestTooLarge => 413,
            ErrorKind::RateLimit => 429,
            ErrorKind::Server => 500,
            ErrorKind::Overloaded => 503,
            ErrorKind::Timeout => 504,
        }
    }
    fn from_status(status: u16) -> ErrorKind {
        match status {
            401 => ErrorKind::Authentication,
            403 => ErrorKind::Permission,
            404 => ErrorKind::NotFound,
            413 => ErrorKind::RequestTooLarge,
            429 => ErrorKind::RateLimit,
            503 | 529 => ErrorKind::Overloaded,
            408 | 504 => ErrorKind::Timeout,
            400..=499 => ErrorKind::InvalidRequest,
            _ => ErrorKind::Server,
        }
    }
    fn openai(self) -> (&'static str, Option<&'static str>) {
        match self {
            ErrorKind::InvalidRequest => ("invalid_request_error", None),
            ErrorKind::Authentication => ("authentication_error", None),
            ErrorKind::Permission => ("permission_error", None),
            ErrorKind::NotFound => ("invalid_request_error", Some("not_found")),
            ErrorKind::RequestTooLarge => ("invalid_request_error", Some("request_too_large")),
            ErrorKind::RateLimit => ("rate_limit_error", None),
            ErrorKind::Server => ("server_error", None),
            ErrorKind::Overloaded => ("server_error", Some("overloaded")),
            ErrorKind::Timeout => ("server_error", Some("timeout")),
        }
    }
    fn anthropic(self) -> &'static str {
        match self {
            ErrorKind::InvalidRequest => "invalid_request_error",
            ErrorKind::Authentication => "authentication_error",
            ErrorKind::Permission => "permission_error",
            ErrorKind::NotFound => "not_found_error",
            ErrorKind::RequestTooLarge => "request_too_large",
            ErrorKind::RateLimit => "rate_limit_error",
            ErrorKind::Server => "api_error",
            ErrorKind::Overloaded => "overloaded_error",
            ErrorKind::Timeout => "timeout_error",
        }
    }
    fn gemini(self) -> &'static str {
        match self {
            ErrorKind::InvalidRequest | ErrorKind::RequestTooLarge => "INVALID_ARGUMENT",
            ErrorKind::Authentication => "UNAUTHENTICATED",
            ErrorKind::Permission => "PERMISSION_DENIED",
            ErrorKind::NotFound => "NOT_FOUND",
            ErrorKind::RateLimit => "RESOURCE_EXHAUSTED",
            ErrorKind::Server => "INTERNAL",
            ErrorKind::Overloaded => "UNAVAILABLE",
            ErrorKind::Timeout => "DEADLINE_EXCEEDED",
        }
    }
}

/// An error in the client's dialect.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TranslatedError {
    /// The HTTP status to answer with.
    pub status: u16,
    /// The error body.
    pub body: Value,
    /// The kind read from the upstream's error.
    pub kind: ErrorKind,
    /// The upstream's message (its body's text when that is not an error
    /// object of its dialect, cut to 1,000 characters).
    pub message: String,
}

/// Translates an upstream's HTTP error (status and body in dialect `from`)
/// into dialect `to`: the status to answer with and the error body.
///
/// The status is kept (a 4xx stays a 4xx), except for `Overloaded`, which is
/// 529 towards Anthropic and 503 towards the others. A body that is not an
/// error of `from`'s shape keeps its text as the message.
///
/// ```
/// use ssekit::request::{translate_error, ErrorKind};
/// use ssekit::turn::Dialect;
///
/// let body = br#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
/// let e = translate_error(529, body, Dialect::Anthropic, Dialect::Chat);
/// assert_eq!((e.status, e.kind), (503, ErrorKind::Overloaded));
/// assert_eq!(e.body["error"]["message"], "Overloaded");
/// assert_eq!(e.body["error"]["type"], "server_error");
/// ```
pub fn translate_error(status: u16, body: &[u8], from: Dialect, to: Dialect) -> TranslatedError {
    let parsed: Option<Value> = serde_json::from_slice(body).ok();
    let err = parsed.as_ref().and_then(|v| v.get("error"));
    let message = err
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str)
        .map(ToString::to_string)
        .unwrap_or_else(|| String::from_utf8_lossy(body).chars().take(1000).collect());
    let named = err.and_then(|e| match from {
        Dialect::Anthropic => e
            .get("type")
            .and_then(Value::as_str)
            .and_then(anthropic_kind),
        Dialect::Gemini => e
            .get("status")
            .and_then(Value::as_str)
            .and_then(gemini_kind),
        _ => {
            let code = e.get("code").and_then(Value::as_str);
            code.and_then(openai_kind)
                .or_else(|| e.get("type").and_then(Value::as_str).and_then(openai_kind))
        }
    });
    let kind = named.unwrap_or_else(|| ErrorKind::from_status(status));
    let status = match (kind, to) {
        (ErrorKind::Overloaded, Dialect::Anthropic) => 529,
        (ErrorKind::Overloaded, _) => 503,
        _ if (400..=599).contains(&status) && status != 529 => status,
        _ => kind.status(),
    };
    let body = match to {
        Dialect::Anthropic => {
            json!({"type": "error", "error": {"type": kind.anthropic(), "message": message}})
        }
        Dialect::Gemini => {
            json!({"error": {"code": status, "message": message, "status": kind.gemini()}})
        }
        _ => {
            let (ty, code) = kind.openai();
            json!({"error": {"message": message, "type": ty, "param": null, "code": code}})
        }
    };
    TranslatedError {
        status,
        body,
        kind,
        message,
    }
}

fn openai_kind(s: &str) -> Option<ErrorKind> {
    Some(match s {
        "invalid_request_error" => ErrorKind::InvalidRequest,
        "authentication_error" | "invalid_api_key" => ErrorKind::Authentication,
        "permission_error" => ErrorKind::Permission,
        "not_found" | "model_not_found" => ErrorKind::NotFound,
        "request_too_large" => ErrorKind::RequestTooLarge,
        "rate_limit_error"
        | "rate_limit_exceeded"
        | "insufficient_quota"
        | "tokens"
        | "requests" => ErrorKind::RateLimit,
        "server_error" => ErrorKind::Server,
        "overloaded" => ErrorKind::Overloaded,
        "timeout" => ErrorKind::Timeout,
        _ => return None,
    })
}

fn anthropic_kind(s: &str) -> Option<ErrorKind> {
    Some(match s {
        "invalid_request_error" => ErrorKind::InvalidRequest,
        "authentication_error" => ErrorKind::Authentication,
        "permission_error" => ErrorKind::Permission,
        "not_found_error" => ErrorKind::NotFound,
        "request_too_large" => ErrorKind::RequestTooLarge,
        "rate_limit_error" => ErrorKind::RateLimit,
        "api_error" => ErrorKind::Server,
        "overloaded_error" => ErrorKind::Overloaded,
        "timeout_error" => ErrorKind::Timeout,
        _ => return None,
    })
}

fn gemini_kind(s: &str) -> Option<ErrorKind> {
    Some(match s {
        "INVALID_ARGUMENT" | "FAILED_PRECONDITION" | "OUT_OF_RANGE" => ErrorKind::InvalidRequest,
        "UNAUTHENTICATED" => ErrorKind::Authentication,
        "PERMISSION_DENIED" => ErrorKind::Permission,
        "NOT_FOUND" => ErrorKind::NotFound,
        "RESOURCE_EXHAUSTED" => ErrorKind::RateLimit,
        "INTERNAL" | "UNKNOWN" => ErrorKind::Server,
        "UNAVAILABLE" => ErrorKind::Overloaded,
        "DEADLINE_EXCEEDED" => ErrorKind::Timeout,
        _ => return None,
    })
}
