//! One writer per dialect: the neutral [`Request`] out as a body.

use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{json, Map, Value};

use super::model::*;
use super::schema::to_gemini;
use super::{Dialect, NotCarried, NotCarriedKind, RequestConfig};

pub(crate) fn write(
    req: &Request,
    to: Dialect,
    config: &RequestConfig,
    out: &mut Vec<NotCarried>,
) -> (Value, Option<String>) {
    let mut w = Writer {
        out,
        body: Map::new(),
    };
    match to {
        Dialect::Chat => w.chat(req),
        Dialect::Anthropic => w.anthropic(req, config),
        Dialect::Gemini => w.gemini(req),
        _ => w.responses(req),
    }
    let model = req.model.as_ref().map(|m| m.value.clone());
    (Value::Object(w.body), model)
}

struct Writer<'o> {
    out: &'o mut Vec<NotCarried>,
    body: Map<String, Value>,
}

fn text_only(parts: &[Part]) -> Option<String> {
    let mut text = String::new();
    for p in parts {
        match &p.kind {
            PartKind::Text(t) => text.push_str(t),
            _ => return None,
        }
    }
    Some(text)
}

/// Tool results first, the rest after, each in order.
fn results_first(parts: &[Part]) -> impl Iterator<Item = &Part> {
    let is_result = |p: &&Part| matches!(p.kind, PartKind::ToolResult { .. });
    parts
        .iter()
        .filter(is_result)
        .chain(parts.iter().filter(move |p| !is_result(p)))
}

fn media_url(media: &Media) -> Option<String> {
    match media {
        Media::Url(u) => Some(u.clone()),
        Media::Base64 { mime, data } => Some(data_url(mime, data)),
        Media::FileId { .. } => None,
    }
}

impl Writer<'_> {
    fn drop(&mut self, path: &str, kind: NotCarriedKind) {
        self.out.push(NotCarried::new(path, kind));
    }
    fn drop_opt<T>(&mut self, f: &Option<Field<T>>, kind: NotCarriedKind) {
        if let Some(f) = f {
            self.out.push(NotCarried::new(f.path.as_str(), kind));
        }
    }
    fn set(&mut self, key: &str, v: impl Into<Value>) {
        self.body.insert(key.into(), v.into());
    }
    /// Parts every writer reports the same way: reasoning and Gemini
    /// signatures (never carried across dialects).
    fn common(&mut self, p: &Part) -> bool {
        self.drop_opt(&p.signature, NotCarriedKind::Reasoning);
        if matches!(p.kind, PartKind::Reasoning) {
            self.drop(&p.path, NotCarriedKind::Reasoning);
            return true;
        }
        false
    }
    fn hosted(&mut self, req: &Request) {
        for t in &req.tools {
            if let Tool::Hosted { path } = t {
                self.drop(path, NotCarriedKind::Unsupported);
            }
        }
    }
    fn effort(&self, req: &Request) -> Option<String> {
        match (&req.effort, &req.budget) {
            (Some(e), _) => Some(e.value.clone()),
            (None, Some(b)) => Some(budget_effort(b.value).to_owned()),
            _ => None,
        }
    }
    fn budget(&self, req: &Request) -> Option<i64> {
        match (&req.budget, &req.effort) {
            (Some(b), _) => Some(b.value),
            (None, Some(e)) => effort_budget(&e.value),
            _ => None,
        }
    }
    /// A call id → name table, for targets that name tool results.
    fn names(req: &Request) -> BTreeMap<&str, &str> {
        let mut names = BTreeMap::new();
        for m in &req.messages {
            for p in &m.parts {
                if let PartKind::ToolCall { id, name, .. } = &p.kind {
                    names.insert(id.as_str(), name.as_str());
                }
            }
        }
        names
    }

    /// An image or file part in an OpenAI dialect (`responses` for the
    /// Responses shape, else Chat's).
    fn openai_media(&mut self, p: &Part, responses: bool) -> Option<Value> {
        let url = |m: &Media| media_url(m);
        match &p.kind {
            PartKind::Image { media, detail } => {
                let mut o = Map::new();
                match media {
                    Media::FileId {
                        vendor: Vendor::OpenAi,
                        id,
                    } if responses => {
                        o.insert("file_id".into(), id.clone().into());
                    }
                    m => match url(m) {
                        Some(u) => {
                            o.insert(if responses { "image_url" } else { "url" }.into(), u.into());
                        }
                        None => {
                            self.drop(&p.path, NotCarriedKind::Unsupported);
                            return None;
                        }
                    },
                }
                match detail {
                    Some(d) => {
                        o.insert("detail".into(), d.value.clone().into());
                    }
                    // Responses requires it; `auto` is the API's default.
                    None if responses => {
                        o.insert("detail".into(), "auto".into());
                    }
                    None => {}
                }
                Some(if responses {
                    o.insert("type".into(), "input_image".into());
                    Value::Object(o)
                } else {
                    json!({"type": "image_url", "image_url": o})
                })
            }
            PartKind::File { media, filename } => {
                let mut o = Map::new();
                match media {
                    Media::FileId {
                        vendor: Vendor::OpenAi,
                        id,
                    } => {
                        o.insert("file_id".into(), id.clone().into());
                    }
                    Media::Base64 { mime, data } => {
                        o.insert("file_data".into(), data_url(mime, data).into());
                    }
                    Media::Url(u) if responses => {
                        o.insert("file_url".into(), u.clone().into());
                    }
                    _ => {
                        self.drop(&p.path, NotCarriedKind::Unsupported);
                        return None;
                    }
                }
                if let Some(f) = filename {
                    o.insert("filename".into(), f.value.clone().into());
                }
                Some(if responses {
                    o.insert("type".into(), "input_file".into());
                    Value::Object(o)
                } else {
                    json!({"type": "file", "file": o})
                })
            }
            _ => None,
        }
    }

    fn json_schema_format(&mut self, req: &Request, chat: bool) {
        let Some(f) = &req.format else { return };
        let v = match &f.kind {
            FormatKind::Text => json!({"type": "text"}),
            FormatKind::JsonObject => json!({"type": "json_object"}),
            FormatKind::JsonSchema {
                name,
                description,
                schema,
                strict,
            } => {
                let mut o = Map::new();
                let name = name.as_ref().map_or("response", |n| n.value.as_str());
                o.insert("name".into(), name.into());
                if let Some(d) = description {
                    o.insert("description".into(), d.value.clone().into());
                }
                o.insert("schema".into(), schema.value.clone());
                if let Some(s) = strict {
                    o.insert("strict".into(), s.value.into());
                }
                if chat {
                    json!({"type": "json_schema", "json_schema": o})
                } else {
                    let mut v = Map::new();
                    v.insert("type".into(), "json_schema".into());
                    v.extend(o);
                    Value::Object(v)
                }
            }
        };
        if chat {
            self.set("response_format", v);
        } else {
            self.set("text", json!({ "format": v }));
        }
    }

    fn openai_common(&mut self, req: &Request, chat: bool) {
        let mut tools = Vec::new();
        for t in &req.tools {
            if let Tool::Function {
                name,
                description,
                parameters,
                strict,
            } = t
            {
                let mut o = Map::new();
                o.insert("name".into(), name.clone().into());
                if let Some(d) = description {
                    o.insert("description".into(), d.clone().into());
                }
                let params = parameters.as_ref().map_or(Value::Null, |p| p.value.clone());
                let strict = strict.as_ref().is_some_and(|s| s.value);
                if chat {
                    if !params.is_null() {
                        o.insert("parameters".into(), params);
                    }
                    if strict {
                        o.insert("strict".into(), true.into());
                    }
                    tools.push(json!({"type": "function", "function": o}));
                } else {
                    // Responses requires both fields, and its `strict`
                    // defaults to true: say false when the source did not
                    // ask for strict schemas.
                    o.insert("parameters".into(), params);
                    o.insert("strict".into(), strict.into());
                    let mut v = Map::new();
                    v.insert("type".into(), "function".into());
                    v.extend(o);
                    tools.push(Value::Object(v));
                }
            }
        }
        self.hosted(req);
        if !tools.is_empty() {
            self.set("tools", tools);
        }
        if let Some(tc) = &req.tool_choice {
            let v = match &tc.value {
                ToolChoice::Auto => json!("auto"),
                ToolChoice::None => json!("none"),
                ToolChoice::Required => json!("required"),
                ToolChoice::Function(n) if chat => {
                    json!({"type": "function", "function": {"name": n}})
                }
                ToolChoice::Function(n) => json!({"type": "function", "name": n}),
            };
            self.set("tool_choice", v);
        }
        if let Some(p) = &req.parallel_tool_calls {
            self.set("parallel_tool_calls", p.value);
        }
        self.json_schema_format(req, chat);
        if let Some(t) = &req.temperature {
            self.set("temperature", t.value.clone());
        }
        if let Some(t) = &req.top_p {
            self.set("top_p", t.value.clone());
        }
        self.drop_opt(&req.top_k, NotCarriedKind::Unsupported);
        if let Some(s) = &req.stream {
            self.set("stream", s.value);
            if chat && s.value {
                self.set("stream_options", json!({"include_usage": true}));
            }
        }
    }

    // ---- Responses ----------------------------------------------------------

    fn responses(&mut self, req: &Request) {
        if let Some(m) = &req.model {
            self.set("model", m.value.clone());
        }
        // The first system text is `instructions`; the others (and a first
        // developer text) are messages at the head of `input`, so that
        // system and developer roles survive.
        let mut input = Vec::new();
        for (i, s) in req.system.iter().enumerate() {
            if i == 0 && !s.developer {
                self.set("instructions", s.text.clone());
            } else {
                let role = if s.developer { "developer" } else { "system" };
                input.push(json!({"role": role, "content": s.text}));
            }
        }
        for m in &req.messages {
            let mut pending: Vec<Value> = Vec::new();
            let role = match m.role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            let flush = |pending: &mut Vec<Value>, input: &mut Vec<Value>| {
                if !pending.is_empty() {
                    input.push(json!({"type": "message", "role": role, "content": core::mem::take(pending)}));
                }
            };
            for p in &m.parts {
                if self.common(p) {
                    continue;
                }
                match &p.kind {
                    // An assistant's text goes as an easy input message of its
                    // own (content a string): the output-message form needs
                    // the item id and status the API gave, which another
                    // dialect's history does not have.
                    PartKind::Text(t) if m.role == Role::Assistant => {
                        flush(&mut pending, &mut input);
                        input.push(json!({"type": "message", "role": "assistant", "content": t}));
                    }
                    PartKind::Text(t) => pending.push(json!({"type": "input_text", "text": t})),
                    PartKind::Image { .. } | PartKind::File { .. } if m.role == Role::User => {
                        if let Some(v) = self.openai_media(p, true) {
                            pending.push(v);
                        }
                    }
                    PartKind::ToolCall { id, name, args } => {
                        flush(&mut pending, &mut input);
                        input.push(json!({"type": "function_call", "call_id": id, "name": name, "arguments": args.to_text()}));
                    }
                    PartKind::ToolResult {
                        call_id,
                        content,
                        is_error,
                    } => {
                        flush(&mut pending, &mut input);
                        if let Some(e) = is_error.as_ref().filter(|e| e.value) {
                            self.drop(&e.path, NotCarriedKind::Unsupported);
                        }
                        let output = match text_only(content) {
                            Some(t) if content.len() <= 1 => Value::String(t),
                            _ => {
                                let mut parts = Vec::new();
                                for c in content {
                                    match &c.kind {
                                        PartKind::Text(t) => {
                                            parts.push(json!({"type": "input_text", "text": t}))
                                        }
                                        _ => {
                                            if let Some(v) = self.openai_media(c, true) {
                                                parts.push(v);
                                            }
                                        }
                                    }
                                }
                                Value::Array(parts)
                            }
                        };
                        input.push(json!({"type": "function_call_output", "call_id": call_id, "output": output}));
                    }
                    _ => self.drop(&p.path, NotCarriedKind::Unsupported),
                }
            }
            flush(&mut pending, &mut input);
        }
        self.set("input", input);
        self.openai_common(req, false);
        self.drop_opt(&req.stop, NotCarriedKind::Unsupported);
        if let Some(t) = &req.max_tokens {
            self.set("max_output_tokens", t.value);
        }
        let mut reasoning = Map::new();
        if let Some(e) = self.effort(req) {
            reasoning.insert("effort".into(), e.into());
        }
        if let Some(s) = &req.summary {
            reasoning.insert("summary".into(), s.value.clone().into());
        }
        if !reasoning.is_empty() {
            self.set("reasoning", reasoning);
        }
    }

    // ---- Chat Completions -----------------------------------------------------

    fn chat(&mut self, req: &Request) {
        if let Some(m) = &req.model {
            self.set("model", m.value.clone());
        }
        let mut messages = Vec::new();
        for s in &req.system {
            let role = if s.developer { "developer" } else { "system" };
            messages.push(json!({"role": role, "content": s.text}));
        }
        for m in &req.messages {
            let mut content: Vec<Value> = Vec::new();
            let mut texts: Vec<&str> = Vec::new();
            let mut calls = Vec::new();
            for p in results_first(&m.parts) {
                if self.common(p) {
                    continue;
                }
                match &p.kind {
                    PartKind::Text(t) => {
                        texts.push(t);
                        content.push(json!({"type": "text", "text": t}));
                    }
                    PartKind::Image { .. } | PartKind::File { .. } if m.role == Role::User => {
                        if let Some(v) = self.openai_media(p, false) {
                            content.push(v);
                        }
                    }
                    PartKind::ToolCall { id, name, args } => calls.push(json!({
                        "id": id, "type": "function",
                        "function": {"name": name, "arguments": args.to_text()}
                    })),
                    PartKind::ToolResult {
                        call_id,
                        content: rc,
                        is_error,
                    } => {
                        if let Some(e) = is_error.as_ref().filter(|e| e.value) {
                            self.drop(&e.path, NotCarriedKind::Unsupported);
                        }
                        let mut text = String::new();
                        for c in rc {
                            match &c.kind {
                                PartKind::Text(t) => text.push_str(t),
                                _ => self.drop(&c.path, NotCarriedKind::ToolResultContent),
                            }
                        }
                        messages.push(
                            json!({"role": "tool", "tool_call_id": call_id, "content": text}),
                        );
                    }
                    _ => self.drop(&p.path, NotCarriedKind::Unsupported),
                }
            }
            let body = if content.len() == texts.len() && texts.len() == 1 {
                Some(Value::String(texts[0].to_owned()))
            } else if content.is_empty() {
                None
            } else {
                Some(Value::Array(content))
            };
            match m.role {
                Role::User => {
                    if let Some(b) = body {
                        messages.push(json!({"role": "user", "content": b}));
                    }
                }
                Role::Assistant => {
                    if body.is_none() && calls.is_empty() {
                        continue;
                    }
                    let mut o = Map::new();
                    o.insert("role".into(), "assistant".into());
                    o.insert("content".into(), body.unwrap_or(Value::Null));
                    if !calls.is_empty() {
                        o.insert("tool_calls".into(), calls.into());
                    }
                    messages.push(Value::Object(o));
                }
            }
        }
        self.set("messages", messages);
        self.openai_common(req, true);
        if let Some(t) = &req.max_tokens {
            self.set("max_completion_tokens", t.value);
        }
        if let Some(s) = &req.stop {
            self.set("stop", s.value.clone());
        }
        if let Some(e) = self.effort(req) {
            self.set("reasoning_effort", e);
        }
        self.drop_opt(&req.summary, NotCarriedKind::Unsupported);
    }

    // ---- Anthropic ------------------------------------------------------------

    fn anthropic_media(&mut self, p: &Part) -> Option<Value> {
        let (media, ty) = match &p.kind {
            PartKind::Image { media, detail } => {
                self.drop_opt(detail, NotCarriedKind::Unsupported);
                (media, "image")
            }
            PartKind::File { media, .. } => (media, "document"),
            _ => return None,
        };
        let source = match media {
            Media::Base64 { mime, data } => {
                json!({"type": "base64", "media_type": mime, "data": data})
            }
            Media::Url(u) => json!({"type": "url", "url": u}),
            Media::FileId {
                vendor: Vendor::Anthropic,
                id,
            } => json!({"type": "file", "file_id": id}),
            Media::FileId { .. } => {
                self.drop(&p.path, NotCarriedKind::Unsupported);
                return None;
            }
        };
        let mut o = json!({"type": ty, "source": source});
        if let PartKind::File {
            filename: Some(f), ..
        } = &p.kind
        {
            o["title"] = f.value.clone().into();
        }
        Some(o)
    }

    fn anthropic(&mut self, req: &Request, config: &RequestConfig) {
        if let Some(m) = &req.model {
            self.set("model", m.value.clone());
        }
        let max = req
            .max_tokens
            .as_ref()
            .map_or(config.default_max_tokens, |m| m.value);
        self.set("max_tokens", max);
        match req.system.as_slice() {
            [] => {}
            [one] => self.set("system", one.text.clone()),
            many => {
                let blocks: Vec<Value> = many
                    .iter()
                    .map(|s| json!({"type": "text", "text": s.text}))
                    .collect();
                self.set("system", blocks);
            }
        }
        let mut messages: Vec<(Role, Vec<Value>)> = Vec::new();
        for m in &req.messages {
            let mut blocks = Vec::new();
            for p in results_first(&m.parts) {
                if self.common(p) {
                    continue;
                }
                match &p.kind {
                    PartKind::Text(t) => blocks.push(json!({"type": "text", "text": t})),
                    PartKind::Image { .. } | PartKind::File { .. } if m.role == Role::User => {
                        if let Some(b) = self.anthropic_media(p) {
                            blocks.push(b);
                        }
                    }
                    PartKind::Image { .. } | PartKind::File { .. } => {
                        self.drop(&p.path, NotCarriedKind::Unsupported)
                    }
                    PartKind::ToolCall { id, name, args } => {
                        let input = match args.object() {
                            Some(v) => v.clone(),
                            None => {
                                self.drop(&p.path, NotCarriedKind::InvalidArguments);
                                json!({})
                            }
                        };
                        blocks.push(
                            json!({"type": "tool_use", "id": id, "name": name, "input": input}),
                        );
                    }
                    PartKind::ToolResult {
                        call_id,
                        content,
                        is_error,
                    } => {
                        let mut o = json!({"type": "tool_result", "tool_use_id": call_id});
                        match text_only(content) {
                            Some(t) if content.len() <= 1 => o["content"] = t.into(),
                            _ => {
                                let mut inner = Vec::new();
                                for c in content {
                                    match &c.kind {
                                        PartKind::Text(t) => {
                                            inner.push(json!({"type": "text", "text": t}))
                                        }
                                        _ => {
                                            if let Some(b) = self.anthropic_media(c) {
                                                inner.push(b);
                                            }
                                        }
                                    }
                                }
                                o["content"] = inner.into();
                            }
                        }
                        if let Some(e) = is_error {
                            o["is_error"] = e.value.into();
                        }
                        blocks.push(o);
                    }
                    PartKind::Reasoning => {}
                }
            }
            push_turn(&mut messages, m.role, blocks);
        }
        self.set("messages", turns_json(messages, "assistant", "content"));
        let mut tools = Vec::new();
        for t in &req.tools {
            if let Tool::Function {
                name,
                description,
                parameters,
                strict,
            } = t
            {
                let mut o = Map::new();
                o.insert("name".into(), name.clone().into());
                if let Some(d) = description {
                    o.insert("description".into(), d.clone().into());
                }
                let schema = parameters.as_ref().map_or_else(
                    || json!({"type": "object", "properties": {}}),
                    |p| p.value.clone(),
                );
                o.insert("input_schema".into(), schema);
                if let Some(s) = strict {
                    o.insert("strict".into(), s.value.into());
                }
                tools.push(Value::Object(o));
            }
        }
        self.hosted(req);
        if !tools.is_empty() {
            self.set("tools", tools);
        }
        let mut choice = req.tool_choice.as_ref().map(|tc| match &tc.value {
            ToolChoice::Auto => json!({"type": "auto"}),
            ToolChoice::None => json!({"type": "none"}),
            ToolChoice::Required => json!({"type": "any"}),
            ToolChoice::Function(n) => json!({"type": "tool", "name": n}),
        });
        if let Some(p) = &req.parallel_tool_calls {
            if !p.value {
                let c = choice.get_or_insert_with(|| json!({"type": "auto"}));
                if c["type"] != "none" {
                    c["disable_parallel_tool_use"] = true.into();
                }
            }
        }
        if let Some(c) = choice {
            self.set("tool_choice", c);
        }
        if let Some(t) = &req.temperature {
            self.set("temperature", t.value.clone());
        }
        if let Some(t) = &req.top_p {
            self.set("top_p", t.value.clone());
        }
        if let Some(t) = &req.top_k {
            self.set("top_k", t.value.clone());
        }
        if let Some(s) = &req.stop {
            self.set("stop_sequences", s.value.clone());
        }
        // Anthropic wants 1024 <= budget_tokens < max_tokens; both caps count
        // reasoning and answer together, as Responses' and Gemini's do.
        // Thinking also refuses a forced tool choice, a temperature other
        // than 1, any top_k and a top_p below 0.95: with those the request's
        // explicit settings win and thinking is left out.
        let budget = match self.budget(req) {
            Some(b) if b < 0 => effort_budget("medium"),
            b => b,
        };
        let forced = matches!(
            req.tool_choice.as_ref().map(|c| &c.value),
            Some(ToolChoice::Required | ToolChoice::Function(_))
        );
        let sampled = req
            .temperature
            .as_ref()
            .is_some_and(|t| t.value.as_f64() != Some(1.0))
            || req.top_k.is_some()
            || req
                .top_p
                .as_ref()
                .is_some_and(|t| t.value.as_f64().is_none_or(|p| p < 0.95));
        let enabled = match budget {
            Some(0) | None => None,
            Some(_) if forced || sampled => None,
            Some(b) if (b.max(1024) as u64) < max => Some(b.max(1024)),
            Some(_) if max >= 2048 => Some((max / 2) as i64),
            Some(_) => None,
        };
        match (budget, enabled) {
            (None, _) => {}
            (Some(0), _) => self.set("thinking", json!({"type": "disabled"})),
            (Some(_), Some(b)) => {
                self.set("thinking", json!({"type": "enabled", "budget_tokens": b}))
            }
            (Some(_), None) => {
                let path = match (&req.budget, &req.effort) {
                    (Some(b), _) => b.path.clone(),
                    (None, Some(e)) => e.path.clone(),
                    _ => String::new(),
                };
                self.drop(&path, NotCarriedKind::Unsupported);
            }
        }
        self.drop_opt(&req.summary, NotCarriedKind::Unsupported);
        if let Some(f) = &req.format {
            match &f.kind {
                FormatKind::Text => {}
                FormatKind::JsonObject => self.drop(&f.path, NotCarriedKind::Unsupported),
                FormatKind::JsonSchema {
                    name,
                    description,
                    schema,
                    strict,
                } => {
                    self.drop_opt(name, NotCarriedKind::Unsupported);
                    self.drop_opt(description, NotCarriedKind::Unsupported);
                    self.drop_opt(strict, NotCarriedKind::Unsupported);
                    self.set(
                        "output_config",
                        json!({"format": {"type": "json_schema", "schema": schema.value}}),
                    );
                }
            }
        }
        if let Some(s) = &req.stream {
            self.set("stream", s.value);
        }
    }

    // ---- Gemini ---------------------------------------------------------------

    fn gemini_media(&mut self, p: &Part) -> Option<Value> {
        let (media, detail, filename) = match &p.kind {
            PartKind::Image { media, detail } => (media, detail.as_ref(), None),
            PartKind::File { media, filename } => (media, None, filename.as_ref()),
            _ => return None,
        };
        if let Some(d) = detail {
            self.drop(&d.path, NotCarriedKind::Unsupported);
        }
        if let Some(f) = filename {
            self.drop(&f.path, NotCarriedKind::Unsupported);
        }
        match media {
            Media::Base64 { mime, data } => {
                Some(json!({"inlineData": {"mimeType": mime, "data": data}}))
            }
            Media::Url(u) => {
                let mut o = json!({"fileUri": u});
                if let Some(m) = mime_of_url(u) {
                    o["mimeType"] = m.into();
                }
                Some(json!({ "fileData": o }))
            }
            Media::FileId { .. } => {
                self.drop(&p.path, NotCarriedKind::Unsupported);
                None
            }
        }
    }

    fn gemini(&mut self, req: &Request) {
        let names = Self::names(req);
        if !req.system.is_empty() {
            let parts: Vec<Value> = req.system.iter().map(|s| json!({"text": s.text})).collect();
            self.set("systemInstruction", json!({ "parts": parts }));
        }
        let mut contents: Vec<(Role, Vec<Value>)> = Vec::new();
        for m in &req.messages {
            let mut parts = Vec::new();
            for p in &m.parts {
                if self.common(p) {
                    continue;
                }
                match &p.kind {
                    PartKind::Text(t) => parts.push(json!({ "text": t })),
                    PartKind::Image { .. } | PartKind::File { .. } => {
                        if let Some(v) = self.gemini_media(p) {
                            parts.push(v);
                        }
                    }
                    PartKind::ToolCall { id, name, args } => {
                        let args = match args.object() {
                            Some(v) => v.clone(),
                            None => {
                                self.drop(&p.path, NotCarriedKind::InvalidArguments);
                                json!({})
                            }
                        };
                        parts.push(json!({"functionCall": {"id": id, "name": name, "args": args}}));
                    }
                    PartKind::ToolResult {
                        call_id,
                        content,
                        is_error,
                    } => {
                        let mut text = String::new();
                        for c in content {
                            match &c.kind {
                                PartKind::Text(t) => text.push_str(t),
                                _ => self.drop(&c.path, NotCarriedKind::ToolResultContent),
                            }
                        }
                        let key = if is_error.as_ref().is_some_and(|e| e.value) {
                            "error"
                        } else {
                            "output"
                        };
                        let name = names.get(call_id.as_str()).copied().unwrap_or_default();
                        parts.push(json!({"functionResponse": {"id": call_id, "name": name, "response": {key: text}}}));
                    }
                    PartKind::Reasoning => {}
                }
            }
            push_turn(&mut contents, m.role, parts);
        }
        self.set("contents", turns_json(contents, "model", "parts"));
        let mut decls = Vec::new();
        for t in &req.tools {
            if let Tool::Function {
                name,
                description,
                parameters,
                strict,
            } = t
            {
                let mut o = Map::new();
                o.insert("name".into(), name.clone().into());
                if let Some(d) = description {
                    o.insert("description".into(), d.clone().into());
                }
                if let Some(p) = parameters {
                    o.insert("parameters".into(), to_gemini(&p.value, &p.path, self.out));
                }
                self.drop_opt(strict, NotCarriedKind::Unsupported);
                decls.push(Value::Object(o));
            }
        }
        self.hosted(req);
        if !decls.is_empty() {
            self.set("tools", json!([{ "functionDeclarations": decls }]));
        }
        if let Some(tc) = &req.tool_choice {
            let v = match &tc.value {
                ToolChoice::Auto => json!({"mode": "AUTO"}),
                ToolChoice::None => json!({"mode": "NONE"}),
                ToolChoice::Required => json!({"mode": "ANY"}),
                ToolChoice::Function(n) => json!({"mode": "ANY", "allowedFunctionNames": [n]}),
            };
            self.set("toolConfig", json!({ "functionCallingConfig": v }));
        }
        self.drop_opt(&req.parallel_tool_calls, NotCarriedKind::Unsupported);
        let mut g = Map::new();
        if let Some(t) = &req.temperature {
            g.insert("temperature".into(), t.value.clone().into());
        }
        if let Some(t) = &req.top_p {
            g.insert("topP".into(), t.value.clone().into());
        }
        if let Some(t) = &req.top_k {
            g.insert("topK".into(), t.value.clone().into());
        }
        if let Some(t) = &req.max_tokens {
            g.insert("maxOutputTokens".into(), t.value.into());
        }
        if let Some(s) = &req.stop {
            g.insert("stopSequences".into(), s.value.clone().into());
        }
        if let Some(f) = &req.format {
            match &f.kind {
                FormatKind::Text => {
                    g.insert("responseMimeType".into(), "text/plain".into());
                }
                FormatKind::JsonObject => {
                    g.insert("responseMimeType".into(), "application/json".into());
                }
                FormatKind::JsonSchema {
                    name,
                    description,
                    schema,
                    strict,
                } => {
                    self.drop_opt(name, NotCarriedKind::Unsupported);
                    self.drop_opt(description, NotCarriedKind::Unsupported);
                    self.drop_opt(strict, NotCarriedKind::Unsupported);
                    g.insert("responseMimeType".into(), "application/json".into());
                    g.insert(
                        "responseSchema".into(),
                        to_gemini(&schema.value, &schema.path, self.out),
                    );
                }
            }
        }
        let mut thinking = Map::new();
        if let Some(b) = self.budget(req) {
            thinking.insert("thinkingBudget".into(), b.into());
        }
        if req.summary.is_some() {
            thinking.insert("includeThoughts".into(), true.into());
        }
        if !thinking.is_empty() {
            g.insert("thinkingConfig".into(), thinking.into());
        }
        if !g.is_empty() {
            self.set("generationConfig", g);
        }
    }
}

/// The media type of a URL's file extension, for Gemini's `fileData`.
fn mime_of_url(url: &str) -> Option<&'static str> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        _ => return None,
    })
}

/// Adds a turn's blocks or parts: to the last turn when it has the same
/// role (Anthropic and Gemini want the roles to alternate), else as a new
/// turn. A turn with nothing in it is left out.
fn push_turn(turns: &mut Vec<(Role, Vec<Value>)>, role: Role, items: Vec<Value>) {
    if items.is_empty() {
        return;
    }
    match turns.last_mut() {
        Some((r, last)) if *r == role => last.extend(items),
        _ => turns.push((role, items)),
    }
}

/// The turns as `{"role": "user" | assistant, key: [...]}` objects.
fn turns_json(turns: Vec<(Role, Vec<Value>)>, assistant: &str, key: &str) -> Vec<Value> {
    turns
        .into_iter()
        .map(|(r, items)| {
            let role = if r == Role::User { "user" } else { assistant };
            let mut o = Map::new();
            o.insert("role".into(), role.into());
            o.insert(key.into(), Value::Array(items));
            Value::Object(o)
        })
        .collect()
}
