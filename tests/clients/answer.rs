//! The answer of a stream in neutral terms (text, reasoning, tool calls,
//! usage, stop reason), read from a client's final object in its API's shape
//! or from the crate's accumulator of the upstream dialect, and the
//! comparison of two answers field by field.

use serde_json::Value as J;
use ssekit::accumulate::{
    AnthropicAccumulator, ChatAccumulator, GeminiAccumulator, Outcome, ResponsesAccumulator,
};
use ssekit::responses::ResponsesEvent;
use ssekit::{Bytes, Frame, Parser};

/// The four stream dialects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Responses,
    Chat,
    Anthropic,
    Gemini,
}

impl Dialect {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Dialect::Responses => "responses",
            Dialect::Chat => "chat",
            Dialect::Anthropic => "anthropic",
            Dialect::Gemini => "gemini",
        }
    }
}

/// One tool call: the function's name and its arguments as JSON (the text
/// when it is not JSON).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Call {
    pub(crate) name: String,
    pub(crate) arguments: J,
}

/// What a stream answered. `None`: the reader does not report the field (it
/// is not compared).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Answer {
    pub(crate) text: Option<String>,
    pub(crate) reasoning: Option<String>,
    pub(crate) refusal: Option<String>,
    pub(crate) tools: Option<Vec<Call>>,
    pub(crate) usage_in: Option<u64>,
    pub(crate) usage_out: Option<u64>,
    /// One vocabulary for every dialect (the Vercel AI SDK's): `stop`,
    /// `length`, `content-filter`, `tool-calls`, `error`, `other`; `none`
    /// when the stream gave no reason.
    pub(crate) stop: Option<String>,
}

fn args(text: &str) -> J {
    serde_json::from_str(text).unwrap_or_else(|_| J::String(text.to_owned()))
}

fn s(v: &J) -> &str {
    v.as_str().unwrap_or_default()
}

fn arr(v: &J) -> &[J] {
    v.as_array().map(Vec::as_slice).unwrap_or_default()
}

/// Chat `finish_reason` in the neutral vocabulary.
fn chat_stop(reason: Option<&str>) -> String {
    match reason {
        None => "none",
        Some("stop") => "stop",
        Some("length") => "length",
        Some("tool_calls" | "function_call") => "tool-calls",
        Some("content_filter") => "content-filter",
        Some(_) => "other",
    }
    .to_owned()
}

/// Anthropic `stop_reason` in the neutral vocabulary.
fn anthropic_stop(reason: Option<&str>) -> String {
    match reason {
        None => "none",
        // `pause_turn`: the turn ended for now (the client sends it back to
        // go on), which the AI SDK reports as `stop`.
        Some("end_turn" | "stop_sequence" | "pause_turn") => "stop",
        Some("max_tokens" | "model_context_window_exceeded") => "length",
        Some("tool_use") => "tool-calls",
        Some("refusal") => "content-filter",
        Some(_) => "other",
    }
    .to_owned()
}

/// Gemini `finishReason` in the neutral vocabulary (a turn that calls
/// functions stops with `STOP`).
fn gemini_stop(reason: Option<&str>, has_tools: bool) -> String {
    match reason {
        None => "none",
        Some("STOP") if has_tools => "tool-calls",
        Some("STOP") => "stop",
        Some("MAX_TOKENS") => "length",
        Some(
            "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY",
        ) => "content-filter",
        Some(_) => "other",
    }
    .to_owned()
}

/// A Responses status (`completed`, `incomplete:<reason>`, `failed`) in the
/// neutral vocabulary.
fn responses_stop(status: &str, has_tools: bool) -> String {
    match status {
        "completed" if has_tools => "tool-calls",
        "completed" => "stop",
        "incomplete:max_output_tokens" => "length",
        "incomplete:content_filter" => "content-filter",
        "failed" => "error",
        _ => "other",
    }
    .to_owned()
}

/// A Responses response object.
pub(crate) fn from_responses(r: &J) -> Answer {
    let (mut text, mut reasoning, mut refusal, mut tools) =
        (String::new(), String::new(), String::new(), Vec::new());
    for item in arr(&r["output"]) {
        match s(&item["type"]) {
            "message" => {
                for part in arr(&item["content"]) {
                    match s(&part["type"]) {
                        "output_text" => text.push_str(s(&part["text"])),
                        "refusal" => refusal.push_str(s(&part["refusal"])),
                        _ => {}
                    }
                }
            }
            "reasoning" => {
                for part in arr(&item["summary"]).iter().chain(arr(&item["content"])) {
                    reasoning.push_str(s(&part["text"]));
                }
            }
            "function_call" => tools.push(Call {
                name: s(&item["name"]).to_owned(),
                arguments: args(s(&item["arguments"])),
            }),
            _ => {}
        }
    }
    let status = match r["incomplete_details"]["reason"].as_str() {
        Some(reason) => format!("{}:{reason}", s(&r["status"])),
        None => s(&r["status"]).to_owned(),
    };
    Answer {
        stop: Some(responses_stop(&status, !tools.is_empty())),
        text: Some(text),
        reasoning: Some(reasoning),
        refusal: Some(refusal),
        tools: Some(tools),
        usage_in: r["usage"]["input_tokens"].as_u64(),
        usage_out: r["usage"]["output_tokens"].as_u64(),
    }
}

/// A Chat completion object: its choice 0.
pub(crate) fn from_chat(c: &J) -> Answer {
    let choice = arr(&c["choices"])
        .iter()
        .find(|ch| ch["index"].as_u64() == Some(0))
        .cloned()
        .unwrap_or(J::Null);
    let m = &choice["message"];
    let mut reasoning = String::new();
    for key in ["reasoning_content", "reasoning"] {
        reasoning.push_str(s(&m[key]));
    }
    let tools = arr(&m["tool_calls"])
        .iter()
        .map(|t| Call {
            name: s(&t["function"]["name"]).to_owned(),
            arguments: args(s(&t["function"]["arguments"])),
        })
        .collect();
    Answer {
        text: Some(s(&m["content"]).to_owned()),
        reasoning: Some(reasoning),
        refusal: Some(s(&m["refusal"]).to_owned()),
        tools: Some(tools),
        usage_in: c["usage"]["prompt_tokens"].as_u64(),
        usage_out: c["usage"]["completion_tokens"].as_u64(),
        stop: Some(chat_stop(choice["finish_reason"].as_str())),
    }
}

/// An Anthropic message object.
pub(crate) fn from_anthropic(m: &J) -> Answer {
    let (mut text, mut reasoning, mut tools) = (String::new(), String::new(), Vec::new());
    for block in arr(&m["content"]) {
        match s(&block["type"]) {
            "text" => text.push_str(s(&block["text"])),
            "thinking" => reasoning.push_str(s(&block["thinking"])),
            "tool_use" => tools.push(Call {
                name: s(&block["name"]).to_owned(),
                arguments: block["input"].clone(),
            }),
            _ => {}
        }
    }
    Answer {
        text: Some(text),
        reasoning: Some(reasoning),
        refusal: None,
        tools: Some(tools),
        usage_in: anthropic_input(&m["usage"]),
        usage_out: m["usage"]["output_tokens"].as_u64(),
        stop: Some(anthropic_stop(m["stop_reason"].as_str())),
    }
}

/// The input tokens of an Anthropic usage object, as the other dialects
/// count them: Anthropic's `input_tokens` leaves out the tokens read from or
/// written to the prompt cache, which its documentation adds back
/// (`input_tokens + cache_creation_input_tokens + cache_read_input_tokens`
/// is the prompt), where OpenAI's and Gemini's prompt counts include them.
fn anthropic_input(usage: &J) -> Option<u64> {
    let input = usage["input_tokens"].as_u64()?;
    let cached = ["cache_creation_input_tokens", "cache_read_input_tokens"]
        .iter()
        .map(|k| usage[*k].as_u64().unwrap_or(0))
        .sum::<u64>();
    Some(input + cached)
}

/// A Gemini response object: its candidate 0.
pub(crate) fn from_gemini(g: &J) -> Answer {
    let cand = arr(&g["candidates"])
        .iter()
        .find(|c| c["index"].as_u64().unwrap_or(0) == 0)
        .cloned()
        .unwrap_or(J::Null);
    let (mut text, mut reasoning, mut tools) = (String::new(), String::new(), Vec::new());
    for part in arr(&cand["content"]["parts"]) {
        if let Some(call) = part.get("functionCall") {
            tools.push(Call {
                name: s(&call["name"]).to_owned(),
                arguments: call
                    .get("args")
                    .cloned()
                    .unwrap_or(J::Object(Default::default())),
            });
        } else if let Some(t) = part["text"].as_str() {
            if part["thought"].as_bool() == Some(true) {
                reasoning.push_str(t);
            } else {
                text.push_str(t);
            }
        }
    }
    let stop = match cand["finishReason"].as_str() {
        // A prompt blocked before any candidate.
        None if g["promptFeedback"]["blockReason"].is_string() => "content-filter".to_owned(),
        reason => gemini_stop(reason, !tools.is_empty()),
    };
    // Counts left out are zero; the output counts every generated token,
    // thoughts included, as the other dialects count theirs.
    let usage = g.get("usageMetadata").filter(|u| u.is_object());
    Answer {
        text: Some(text),
        reasoning: Some(reasoning),
        refusal: None,
        tools: Some(tools),
        usage_in: usage.map(|u| u["promptTokenCount"].as_u64().unwrap_or(0)),
        usage_out: usage.map(|u| {
            u["candidatesTokenCount"].as_u64().unwrap_or(0)
                + u["thoughtsTokenCount"].as_u64().unwrap_or(0)
        }),
        stop: Some(stop),
    }
}

/// The answer a client assembled itself: `{text, reasoning, tools: [{name,
/// arguments}], usage: {input, output}, stop}`, the stop reason in the
/// neutral vocabulary or prefixed with the dialect it is written in
/// (`responses:`, `gemini:`).
pub(crate) fn from_neutral(v: &J) -> Answer {
    let tools: Vec<Call> = arr(&v["tools"])
        .iter()
        .map(|t| Call {
            name: s(&t["name"]).to_owned(),
            arguments: args(s(&t["arguments"])),
        })
        .collect();
    let stop = v["stop"].as_str().map(|raw| {
        if let Some(status) = raw.strip_prefix("responses:") {
            responses_stop(status, !tools.is_empty())
        } else if let Some(reason) = raw.strip_prefix("gemini:") {
            gemini_stop(Some(reason), !tools.is_empty())
        } else {
            raw.to_owned()
        }
    });
    Answer {
        text: Some(s(&v["text"]).to_owned()),
        reasoning: Some(s(&v["reasoning"]).to_owned()),
        refusal: None,
        tools: Some(tools),
        usage_in: v["usage"]["input"].as_u64(),
        usage_out: v["usage"]["output"].as_u64(),
        stop: Some(stop.unwrap_or_else(|| "none".to_owned())),
    }
}

/// A client's answer in the shape it reported.
pub(crate) fn from_shape(shape: &str, value: &J) -> Option<Answer> {
    Some(match shape {
        "responses" => from_responses(value),
        "chat" => from_chat(value),
        "anthropic" => from_anthropic(value),
        "neutral" => from_neutral(value),
        _ => return None,
    })
}

/// The upstream's answer as the crate's accumulator of its dialect
/// assembles it, and how the upstream stream ended.
pub(crate) struct Upstream {
    pub(crate) answer: Answer,
    pub(crate) outcome: Outcome,
    /// The reasoning parts (Responses summary and content parts) the
    /// reasoning text is made of.
    pub(crate) reasoning_parts: usize,
    /// The kinds of the items the neutral answer leaves out (hosted tools
    /// and their results, compaction, images), in order: what a direction
    /// carries or drops is listed, not compared.
    pub(crate) other_items: Vec<String>,
}

/// The kinds of the items of a final object that the neutral answer does
/// not read.
pub(crate) fn other_items(dialect: Dialect, value: &J) -> Vec<String> {
    let kinds = |items: &[J], known: &[&str]| -> Vec<String> {
        items
            .iter()
            .map(|i| s(&i["type"]).to_owned())
            .filter(|t| !known.contains(&t.as_str()))
            .collect()
    };
    match dialect {
        Dialect::Responses => kinds(
            arr(&value["output"]),
            &["message", "reasoning", "function_call"],
        ),
        Dialect::Anthropic => kinds(
            arr(&value["content"]),
            &["text", "thinking", "redacted_thinking", "tool_use"],
        ),
        Dialect::Chat => Vec::new(),
        Dialect::Gemini => arr(&value["candidates"])
            .iter()
            .filter(|c| c["index"].as_u64().unwrap_or(0) == 0)
            .flat_map(|c| arr(&c["content"]["parts"]))
            .filter_map(|p| p.as_object())
            .flat_map(|p| p.keys())
            .filter(|k| {
                !["text", "thought", "thoughtSignature", "functionCall"].contains(&k.as_str())
            })
            .cloned()
            .collect(),
    }
}

fn frames(bytes: &[u8]) -> Vec<Frame> {
    let mut parser = Parser::new();
    parser.feed(Bytes::copy_from_slice(bytes));
    let mut out = Vec::new();
    loop {
        match parser.next_frame() {
            Ok(Some(frame)) => out.push(frame),
            Ok(None) => break,
            Err(_) => continue,
        }
    }
    let _ = parser.finish();
    out
}

/// Assembles `bytes`, a stream of `dialect`, with the accumulator of that
/// dialect. Events that do not decode, and events the accumulator refuses,
/// are left out as the accumulator leaves them out.
pub(crate) fn upstream(dialect: Dialect, bytes: &[u8]) -> Upstream {
    let frames = frames(bytes);
    let (json, outcome) = match dialect {
        Dialect::Responses => {
            let mut acc = ResponsesAccumulator::new();
            for f in &frames {
                if let Ok(e) = ResponsesEvent::from_frame(f) {
                    let _ = acc.feed(&e);
                }
            }
            let fin = acc.finish();
            (fin.json().to_string(), fin.outcome())
        }
        Dialect::Chat => {
            let mut acc = ChatAccumulator::new();
            for f in &frames {
                let _ = acc.feed(f);
            }
            let fin = acc.finish();
            (fin.to_json(), fin.outcome())
        }
        Dialect::Anthropic => {
            let mut acc = AnthropicAccumulator::new();
            for f in &frames {
                let _ = acc.feed(f);
            }
            let fin = acc.finish();
            (fin.to_json(), fin.outcome())
        }
        Dialect::Gemini => {
            let mut acc = GeminiAccumulator::new();
            for f in &frames {
                let _ = acc.feed(f);
            }
            let fin = acc.finish();
            (fin.to_json(), fin.outcome())
        }
    };
    let value: J = serde_json::from_str(&json).expect("the accumulator writes JSON");
    let mut answer = match dialect {
        Dialect::Responses => from_responses(&value),
        Dialect::Chat => from_chat(&value),
        Dialect::Anthropic => from_anthropic(&value),
        Dialect::Gemini => from_gemini(&value),
    };
    if matches!(outcome, Outcome::Failed | Outcome::Truncated) {
        answer.stop = Some("error".to_owned());
    }
    let reasoning_parts = arr(&value["output"])
        .iter()
        .filter(|item| item["type"] == "reasoning")
        .map(|item| arr(&item["summary"]).len() + arr(&item["content"]).len())
        .sum();
    Upstream {
        other_items: other_items(dialect, &value),
        answer,
        outcome,
        reasoning_parts,
    }
}

/// The fields where `got` differs from `want`, each with both values
/// (fields `got` does not report are not compared).
pub(crate) fn diff(want: &Answer, got: &Answer) -> Vec<(&'static str, String)> {
    fn show<T: std::fmt::Debug>(v: &T) -> String {
        let s = format!("{v:?}");
        if s.len() > 160 {
            let mut end = 160;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            format!("{}…", &s[..end])
        } else {
            s
        }
    }
    let mut out = Vec::new();
    let mut field = |name: &'static str, w: String, g: String, differs: bool| {
        if differs {
            out.push((name, format!("upstream {w}, client {g}")));
        }
    };
    // Two texts: where they part, with some context.
    let texts = |w: &str, g: &str| {
        let common = w
            .char_indices()
            .zip(g.chars())
            .find(|((_, a), b)| a != b)
            .map(|((i, _), _)| i)
            .unwrap_or_else(|| w.len().min(g.len()));
        let mut from = common.saturating_sub(40);
        while !w.is_char_boundary(from) {
            from -= 1;
        }
        let tail = |s: &str| {
            let rest = s.get(from..).unwrap_or_default();
            show(&rest.chars().take(80).collect::<String>())
        };
        (
            format!("{} chars, at byte {from}: {}", w.chars().count(), tail(w)),
            format!("{} chars: {}", g.chars().count(), tail(g)),
        )
    };
    if got.text.is_some() {
        let w = want.text.clone().unwrap_or_default();
        let g = got.text.clone().unwrap_or_default();
        let (ws, gs) = texts(&w, &g);
        field("text", ws, gs, w != g);
    }
    if got.reasoning.is_some() {
        let w = want.reasoning.clone().unwrap_or_default();
        let g = got.reasoning.clone().unwrap_or_default();
        let (ws, gs) = texts(&w, &g);
        field("reasoning", ws, gs, w != g);
    }
    if got.refusal.is_some() && want.refusal.is_some() {
        field(
            "refusal",
            show(&want.refusal),
            show(&got.refusal),
            want.refusal != got.refusal,
        );
    }
    if got.tools.is_some() {
        let w = want.tools.clone().unwrap_or_default();
        let g = got.tools.clone().unwrap_or_default();
        let names = |v: &[Call]| {
            v.iter()
                .map(|c| format!("{}({})", c.name, c.arguments))
                .collect::<Vec<_>>()
        };
        field("tools", show(&names(&w)), show(&names(&g)), w != g);
    }
    if want.usage_in.is_some() || want.usage_out.is_some() {
        let w = (want.usage_in, want.usage_out);
        let g = (got.usage_in, got.usage_out);
        field("usage", show(&w), show(&g), w != g);
    }
    if got.stop.is_some() {
        field(
            "stop",
            show(&want.stop),
            show(&got.stop),
            want.stop != got.stop,
        );
    }
    out
}
