//! One reader per dialect: a parsed body into the neutral [`Request`].

use alloc::borrow::ToOwned;
use alloc::collections::{BTreeMap, VecDeque};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Number, Value};

use super::model::*;
use super::{NotCarried, NotCarriedKind, RequestConfig, RequestError, RequestErrorKind, Source};

type Obj = Map<String, Value>;
type R<T> = Result<T, RequestError>;

pub(crate) fn read(
    body: &Value,
    from: Source<'_>,
    config: &RequestConfig,
    out: &mut Vec<NotCarried>,
) -> R<Request> {
    let mut r = Reader {
        config,
        out,
        req: Request::default(),
        calls: Vec::new(),
        call_ids: BTreeMap::new(),
        unanswered: BTreeMap::new(),
    };
    let root = r.obj(body, "")?;
    match from {
        Source::Responses => r.responses(root)?,
        Source::Chat => r.chat(root)?,
        Source::Anthropic => r.anthropic(root)?,
        Source::Gemini { model, stream } => {
            r.req.model = Some(field(model.to_owned(), ""));
            r.req.stream = Some(field(stream, ""));
            r.gemini(root)?;
        }
    }
    Ok(r.req)
}

/// A call made so far: its id, and whether a result answered it.
struct Call {
    id: String,
    answered: bool,
}

struct Reader<'c> {
    config: &'c RequestConfig,
    out: &'c mut Vec<NotCarried>,
    req: Request,
    calls: Vec<Call>,
    /// Call id → index in `calls`.
    call_ids: BTreeMap<String, usize>,
    /// Tool name → indexes of its calls not yet answered, in order.
    unanswered: BTreeMap<String, VecDeque<usize>>,
}

fn wrong(t: &'static str, path: &str) -> RequestError {
    RequestError::at(RequestErrorKind::WrongType(t), path)
}

impl<'c> Reader<'c> {
    // ---- JSON access, each with its path ------------------------------

    fn obj<'v>(&self, v: &'v Value, path: &str) -> R<&'v Obj> {
        v.as_object().ok_or_else(|| wrong("object", path))
    }
    fn arr<'v>(&self, v: &'v Value, path: &str) -> R<&'v [Value]> {
        let a = v.as_array().ok_or_else(|| wrong("array", path))?;
        if a.len() > self.config.max_items {
            return Err(RequestError::at(RequestErrorKind::TooManyItems, path));
        }
        Ok(a)
    }
    fn str<'v>(&self, v: &'v Value, path: &str) -> R<&'v str> {
        v.as_str().ok_or_else(|| wrong("string", path))
    }
    fn req<'v>(&self, o: &'v Obj, key: &str, path: &str) -> R<&'v Value> {
        o.get(key)
            .ok_or_else(|| RequestError::at(RequestErrorKind::MissingField, child(path, key)))
    }
    fn req_str<'v>(&self, o: &'v Obj, key: &str, path: &str) -> R<&'v str> {
        self.str(self.req(o, key, path)?, &child(path, key))
    }
    fn opt_str(&self, o: &Obj, key: &str, path: &str) -> R<Option<String>> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => Ok(Some(self.str(v, &child(path, key))?.to_owned())),
        }
    }
    fn opt_str_f(&self, o: &Obj, key: &str, path: &str) -> R<Option<Field<String>>> {
        Ok(self
            .opt_str(o, key, path)?
            .map(|s| field(s, &child(path, key))))
    }
    fn opt_bool(&self, o: &Obj, key: &str, path: &str) -> R<Option<Field<bool>>> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(field(*b, &child(path, key)))),
            Some(_) => Err(wrong("boolean", &child(path, key))),
        }
    }
    fn opt_num(&self, o: &Obj, key: &str, path: &str) -> R<Option<Field<Number>>> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(Some(field(n.clone(), &child(path, key)))),
            Some(_) => Err(wrong("number", &child(path, key))),
        }
    }
    fn opt_u64(&self, o: &Obj, key: &str, path: &str) -> R<Option<Field<u64>>> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) => Ok(Some(field(n, &child(path, key)))),
                None => Err(wrong("non-negative integer", &child(path, key))),
            },
        }
    }
    fn opt_obj<'v>(&self, o: &'v Obj, key: &str, path: &str) -> R<Option<&'v Obj>> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => Ok(Some(self.obj(v, &child(path, key))?)),
        }
    }

    /// Lists every key of `o` not in `known` as not carried.
    fn known(&mut self, o: &Obj, path: &str, known: &[&str]) {
        for k in o.keys() {
            if !known.contains(&k.as_str()) {
                self.out.push(NotCarried::new(
                    child(path, k),
                    NotCarriedKind::UnknownField,
                ));
            }
        }
    }
    fn drop_at(&mut self, path: String, kind: NotCarriedKind) {
        self.out.push(NotCarried::new(path, kind));
    }

    // ---- building the model --------------------------------------------

    /// Adds a part to the conversation. Calls and reasoning belong to the
    /// assistant's side and results to the user's, whatever turn holds them
    /// (a body may misplace them; every target has them on those sides).
    fn push(&mut self, role: Role, part: Part) {
        let role = match part.kind {
            PartKind::ToolCall { .. } | PartKind::Reasoning => Role::Assistant,
            PartKind::ToolResult { .. } => Role::User,
            _ => role,
        };
        match self.req.messages.last_mut() {
            Some(m) if m.role == role => m.parts.push(part),
            _ => self.req.messages.push(Message {
                role,
                parts: alloc::vec![part],
            }),
        }
    }
    fn part(&mut self, role: Role, kind: PartKind, path: String) {
        self.push(
            role,
            Part {
                kind,
                path,
                signature: None,
            },
        );
    }
    fn call(&mut self, id: String, name: String, args: Args, path: String) -> Part {
        let index = self.calls.len();
        self.calls.push(Call {
            id: id.clone(),
            answered: false,
        });
        // The first call of an id is the one its results answer.
        self.call_ids.entry(id.clone()).or_insert(index);
        self.unanswered
            .entry(name.clone())
            .or_default()
            .push_back(index);
        Part {
            kind: PartKind::ToolCall { id, name, args },
            path,
            signature: None,
        }
    }
    /// The call a result answers: by id, else (Gemini without ids) the
    /// earliest unanswered call of that name. Map lookups, so that many
    /// calls and results cost O(n log n), not O(n²).
    fn answer(&mut self, id: Option<&str>, name: Option<&str>, path: &str) -> R<String> {
        let found = match (id, name) {
            (Some(id), _) => self.call_ids.get(id).copied(),
            (None, Some(name)) => {
                let queue = self.unanswered.get_mut(name);
                let mut found = None;
                if let Some(queue) = queue {
                    // Calls answered by id meanwhile are skipped (and dropped).
                    while let Some(i) = queue.pop_front() {
                        if !self.calls[i].answered {
                            found = Some(i);
                            break;
                        }
                    }
                }
                found
            }
            (None, None) => None,
        };
        match found.and_then(|i| self.calls.get_mut(i)) {
            Some(c) => {
                c.answered = true;
                Ok(c.id.clone())
            }
            None => Err(RequestError::at(RequestErrorKind::UnknownCallId, path)),
        }
    }
    fn system(&mut self, text: String, developer: bool) {
        self.req.system.push(System { text, developer });
    }
    fn effort(&mut self, v: &Value, path: &str) -> R<()> {
        let e = self.str(v, path)?;
        if effort_budget(e).is_none() {
            return Err(RequestError::at(RequestErrorKind::InvalidValue, path));
        }
        self.req.effort = Some(field(e.to_owned(), path));
        Ok(())
    }

    fn tool_fn(&mut self, o: &Obj, path: &str, params_key: &str, known: &[&str]) -> R<()> {
        self.known(o, path, known);
        let name = self.req_str(o, "name", path)?.to_owned();
        let description = self.opt_str(o, "description", path)?;
        let parameters = match o.get(params_key) {
            None | Some(Value::Null) => None,
            Some(v) => {
                let p = child(path, params_key);
                self.obj(v, &p)?;
                Some(field(v.clone(), &p))
            }
        };
        let strict = self.opt_bool(o, "strict", path)?;
        self.req.tools.push(Tool::Function {
            name,
            description,
            parameters,
            strict,
        });
        Ok(())
    }

    fn openai_tool_choice(&mut self, v: &Value, path: &str, chat: bool) -> R<()> {
        let choice = match v {
            Value::String(s) => match s.as_str() {
                "auto" => ToolChoice::Auto,
                "none" => ToolChoice::None,
                "required" => ToolChoice::Required,
                _ => return Err(RequestError::at(RequestErrorKind::InvalidValue, path)),
            },
            Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("function") => {
                if chat {
                    let f = self.obj(self.req(o, "function", path)?, &child(path, "function"))?;
                    ToolChoice::Function(
                        self.req_str(f, "name", &child(path, "function"))?
                            .to_owned(),
                    )
                } else {
                    ToolChoice::Function(self.req_str(o, "name", path)?.to_owned())
                }
            }
            Value::Object(_) => {
                self.drop_at(path.to_owned(), NotCarriedKind::Unsupported);
                return Ok(());
            }
            _ => return Err(wrong("string or object", path)),
        };
        self.req.tool_choice = Some(field(choice, path));
        Ok(())
    }

    /// An OpenAI `json_schema` format object (Responses `text.format`, or
    /// Chat's `response_format.json_schema`).
    fn openai_format(&mut self, o: &Obj, path: &str, chat: bool) -> R<()> {
        let ty = self.req_str(o, "type", path)?;
        let kind = match ty {
            "text" => {
                self.known(o, path, &["type"]);
                FormatKind::Text
            }
            "json_object" => {
                self.known(o, path, &["type"]);
                FormatKind::JsonObject
            }
            "json_schema" => {
                let (inner, ipath) = if chat {
                    self.known(o, path, &["type", "json_schema"]);
                    let p = child(path, "json_schema");
                    (self.obj(self.req(o, "json_schema", path)?, &p)?, p)
                } else {
                    (o, path.to_owned())
                };
                let known: &[&str] = if chat {
                    &["name", "schema", "strict", "description"]
                } else {
                    &["type", "name", "schema", "strict", "description"]
                };
                self.known(inner, &ipath, known);
                let sp = child(&ipath, "schema");
                let schema = self.req(inner, "schema", &ipath)?;
                self.obj(schema, &sp)?;
                FormatKind::JsonSchema {
                    name: self.opt_str_f(inner, "name", &ipath)?,
                    description: self.opt_str_f(inner, "description", &ipath)?,
                    schema: field(schema.clone(), &sp),
                    strict: self.opt_bool(inner, "strict", &ipath)?,
                }
            }
            _ => {
                return Err(RequestError::at(
                    RequestErrorKind::InvalidValue,
                    child(path, "type"),
                ))
            }
        };
        self.req.format = Some(Format {
            kind,
            path: path.to_owned(),
        });
        Ok(())
    }

    fn stop(&mut self, v: &Value, path: &str) -> R<()> {
        let stops = match v {
            Value::Null => return Ok(()),
            Value::String(s) => alloc::vec![s.clone()],
            v => {
                let a = self.arr(v, path)?;
                let mut stops = Vec::with_capacity(a.len());
                for (i, s) in a.iter().enumerate() {
                    stops.push(self.str(s, &index(path, i))?.to_owned());
                }
                stops
            }
        };
        self.req.stop = Some(field(stops, path));
        Ok(())
    }

    // ---- OpenAI Responses -----------------------------------------------

    fn responses(&mut self, root: &Obj) -> R<()> {
        self.known(
            root,
            "",
            &[
                "model",
                "input",
                "instructions",
                "tools",
                "tool_choice",
                "parallel_tool_calls",
                "text",
                "max_output_tokens",
                "temperature",
                "top_p",
                "reasoning",
                "stream",
            ],
        );
        self.req.model = self.opt_str_f(root, "model", "")?;
        self.req.stream = self.opt_bool(root, "stream", "")?;
        if let Some(t) = self.opt_str(root, "instructions", "")? {
            self.system(t, false);
        }
        match root.get("input") {
            None => {}
            Some(Value::String(s)) => {
                self.part(Role::User, PartKind::Text(s.clone()), "/input".into())
            }
            Some(v) => {
                let items = self.arr(v, "/input")?;
                for (i, item) in items.iter().enumerate() {
                    self.responses_item(item, &index("/input", i))?;
                }
            }
        }
        if let Some(v) = root.get("tools") {
            for (i, t) in self.arr(v, "/tools")?.iter().enumerate() {
                let p = index("/tools", i);
                let o = self.obj(t, &p)?;
                if o.get("type").and_then(Value::as_str) == Some("function") {
                    self.tool_fn(
                        o,
                        &p,
                        "parameters",
                        &["type", "name", "description", "parameters", "strict"],
                    )?;
                } else {
                    self.req.tools.push(Tool::Hosted { path: p });
                }
            }
        }
        if let Some(v) = root.get("tool_choice") {
            self.openai_tool_choice(v, "/tool_choice", false)?;
        }
        self.req.parallel_tool_calls = self.opt_bool(root, "parallel_tool_calls", "")?;
        if let Some(text) = self.opt_obj(root, "text", "")? {
            self.known(text, "/text", &["format"]);
            if let Some(f) = self.opt_obj(text, "format", "/text")? {
                self.openai_format(f, "/text/format", false)?;
            }
        }
        self.req.max_tokens = self.opt_u64(root, "max_output_tokens", "")?;
        self.req.temperature = self.opt_num(root, "temperature", "")?;
        self.req.top_p = self.opt_num(root, "top_p", "")?;
        if let Some(r) = self.opt_obj(root, "reasoning", "")? {
            self.known(r, "/reasoning", &["effort", "summary"]);
            if let Some(e) = r.get("effort").filter(|v| !v.is_null()) {
                self.effort(e, "/reasoning/effort")?;
            }
            self.req.summary = self.opt_str_f(r, "summary", "/reasoning")?;
        }
        Ok(())
    }

    fn responses_item(&mut self, item: &Value, path: &str) -> R<()> {
        let o = self.obj(item, path)?;
        let ty = match o.get("type") {
            None => "message",
            Some(t) => self.str(t, &child(path, "type"))?,
        };
        match ty {
            "message" => {
                let role = self.req_str(o, "role", path)?;
                let (role, system) = match role {
                    "user" => (Role::User, None),
                    "assistant" => (Role::Assistant, None),
                    "system" => (Role::User, Some(false)),
                    "developer" => (Role::User, Some(true)),
                    _ => {
                        return Err(RequestError::at(
                            RequestErrorKind::InvalidValue,
                            child(path, "role"),
                        ))
                    }
                };
                self.known(o, path, &["type", "role", "content"]);
                let cp = child(path, "content");
                let content = self.req(o, "content", path)?;
                if let Some(developer) = system {
                    let text = self.text_of(content, &cp, &["input_text", "text"])?;
                    self.system(text, developer);
                    return Ok(());
                }
                if let Value::String(s) = content {
                    self.part(role, PartKind::Text(s.clone()), cp);
                    return Ok(());
                }
                for (i, p) in self.arr(content, &cp)?.iter().enumerate() {
                    let pp = index(&cp, i);
                    if let Some(part) = self.responses_content(p, &pp)? {
                        self.push(role, part);
                    }
                }
            }
            "function_call" => {
                self.known(o, path, &["type", "call_id", "name", "arguments"]);
                let id = self.req_str(o, "call_id", path)?.to_owned();
                let name = self.req_str(o, "name", path)?.to_owned();
                let args = Args::from_text(self.req_str(o, "arguments", path)?);
                let part = self.call(id, name, args, path.to_owned());
                self.push(Role::Assistant, part);
            }
            "function_call_output" => {
                self.known(o, path, &["type", "call_id", "output"]);
                let id = self.req_str(o, "call_id", path)?;
                let call_id = self.answer(Some(id), None, &child(path, "call_id"))?;
                let op = child(path, "output");
                let output = self.req(o, "output", path)?;
                let content = match output {
                    Value::String(s) => alloc::vec![Part {
                        kind: PartKind::Text(s.clone()),
                        path: op,
                        signature: None
                    }],
                    v => {
                        let mut parts = Vec::new();
                        for (i, p) in self.arr(v, &op)?.iter().enumerate() {
                            if let Some(part) = self.responses_content(p, &index(&op, i))? {
                                parts.push(part);
                            }
                        }
                        parts
                    }
                };
                self.part(
                    Role::User,
                    PartKind::ToolResult {
                        call_id,
                        content,
                        is_error: None,
                    },
                    path.to_owned(),
                );
            }
            "reasoning" => self.part(Role::Assistant, PartKind::Reasoning, path.to_owned()),
            _ => self.drop_at(path.to_owned(), NotCarriedKind::Unsupported),
        }
        Ok(())
    }

    /// A Responses content part; `None` when it is not carried.
    fn responses_content(&mut self, v: &Value, path: &str) -> R<Option<Part>> {
        let o = self.obj(v, path)?;
        let ty = self.req_str(o, "type", path)?;
        let kind = match ty {
            "input_text" | "output_text" => {
                self.known(o, path, &["type", "text"]);
                PartKind::Text(self.req_str(o, "text", path)?.to_owned())
            }
            "input_image" => {
                self.known(o, path, &["type", "image_url", "file_id", "detail"]);
                let media = if let Some(url) = self.opt_str(o, "image_url", path)? {
                    url_media(url)
                } else if let Some(id) = self.opt_str(o, "file_id", path)? {
                    Media::FileId {
                        vendor: Vendor::OpenAi,
                        id,
                    }
                } else {
                    return Err(RequestError::at(
                        RequestErrorKind::MissingField,
                        child(path, "image_url"),
                    ));
                };
                PartKind::Image {
                    media,
                    detail: self.opt_str_f(o, "detail", path)?,
                }
            }
            "input_file" => {
                self.known(
                    o,
                    path,
                    &["type", "file_data", "file_id", "file_url", "filename"],
                );
                let media = if let Some(data) = self.opt_str(o, "file_data", path)? {
                    url_media(data)
                } else if let Some(url) = self.opt_str(o, "file_url", path)? {
                    Media::Url(url)
                } else if let Some(id) = self.opt_str(o, "file_id", path)? {
                    Media::FileId {
                        vendor: Vendor::OpenAi,
                        id,
                    }
                } else {
                    return Err(RequestError::at(
                        RequestErrorKind::MissingField,
                        child(path, "file_data"),
                    ));
                };
                PartKind::File {
                    media,
                    filename: self.opt_str_f(o, "filename", path)?,
                }
            }
            _ => {
                self.drop_at(path.to_owned(), NotCarriedKind::Unsupported);
                return Ok(None);
            }
        };
        Ok(Some(Part {
            kind,
            path: path.to_owned(),
            signature: None,
        }))
    }

    /// The text of system content: a string, or text parts of `types`.
    fn text_of(&mut self, v: &Value, path: &str, types: &[&str]) -> R<String> {
        if let Value::String(s) = v {
            return Ok(s.clone());
        }
        let mut text = String::new();
        for (i, p) in self.arr(v, path)?.iter().enumerate() {
            if let Some(t) = self.text_block(p, &index(path, i), types)? {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&t);
            }
        }
        Ok(text)
    }

    /// The text of one text block whose type is in `types`; other blocks
    /// are not carried.
    fn text_block(&mut self, p: &Value, pp: &str, types: &[&str]) -> R<Option<String>> {
        let o = self.obj(p, pp)?;
        let ty = self.req_str(o, "type", pp)?;
        if !types.contains(&ty) {
            self.drop_at(pp.to_owned(), NotCarriedKind::Unsupported);
            return Ok(None);
        }
        self.known(o, pp, &["type", "text"]);
        Ok(Some(self.req_str(o, "text", pp)?.to_owned()))
    }

    // ---- OpenAI Chat Completions ----------------------------------------

    fn chat(&mut self, root: &Obj) -> R<()> {
        self.known(
            root,
            "",
            &[
                "model",
                "messages",
                "tools",
                "tool_choice",
                "parallel_tool_calls",
                "response_format",
                "max_completion_tokens",
                "max_tokens",
                "temperature",
                "top_p",
                "stop",
                "reasoning_effort",
                "stream",
                "stream_options",
            ],
        );
        self.req.model = self.opt_str_f(root, "model", "")?;
        self.req.stream = self.opt_bool(root, "stream", "")?;
        if let Some(so) = self.opt_obj(root, "stream_options", "")? {
            // Usage is always reported by the other dialects' streams.
            self.known(so, "/stream_options", &["include_usage"]);
        }
        let msgs = self.req(root, "messages", "")?;
        for (i, m) in self.arr(msgs, "/messages")?.iter().enumerate() {
            self.chat_message(m, &index("/messages", i))?;
        }
        if let Some(v) = root.get("tools") {
            for (i, t) in self.arr(v, "/tools")?.iter().enumerate() {
                let p = index("/tools", i);
                let o = self.obj(t, &p)?;
                if o.get("type").and_then(Value::as_str) == Some("function") {
                    self.known(o, &p, &["type", "function"]);
                    let fp = child(&p, "function");
                    let f = self.obj(self.req(o, "function", &p)?, &fp)?;
                    self.tool_fn(
                        f,
                        &fp,
                        "parameters",
                        &["name", "description", "parameters", "strict"],
                    )?;
                } else {
                    self.req.tools.push(Tool::Hosted { path: p });
                }
            }
        }
        if let Some(v) = root.get("tool_choice") {
            self.openai_tool_choice(v, "/tool_choice", true)?;
        }
        self.req.parallel_tool_calls = self.opt_bool(root, "parallel_tool_calls", "")?;
        if let Some(f) = self.opt_obj(root, "response_format", "")? {
            self.openai_format(f, "/response_format", true)?;
        }
        self.req.max_tokens = self.opt_u64(root, "max_completion_tokens", "")?;
        if let Some(m) = self.opt_u64(root, "max_tokens", "")? {
            if self.req.max_tokens.is_none() {
                self.req.max_tokens = Some(m);
            } else {
                self.drop_at(m.path, NotCarriedKind::Unsupported);
            }
        }
        self.req.temperature = self.opt_num(root, "temperature", "")?;
        self.req.top_p = self.opt_num(root, "top_p", "")?;
        if let Some(s) = root.get("stop") {
            self.stop(s, "/stop")?;
        }
        if let Some(e) = root.get("reasoning_effort").filter(|v| !v.is_null()) {
            self.effort(e, "/reasoning_effort")?;
        }
        Ok(())
    }

    fn chat_message(&mut self, m: &Value, path: &str) -> R<()> {
        let o = self.obj(m, path)?;
        let role = self.req_str(o, "role", path)?;
        let cp = child(path, "content");
        match role {
            "system" | "developer" => {
                self.known(o, path, &["role", "content"]);
                let text = self.text_of(self.req(o, "content", path)?, &cp, &["text"])?;
                self.system(text, role == "developer");
            }
            "user" => {
                self.known(o, path, &["role", "content"]);
                let content = self.req(o, "content", path)?;
                self.chat_content(content, &cp, Role::User)?;
            }
            "assistant" => {
                self.known(o, path, &["role", "content", "tool_calls"]);
                match o.get("content") {
                    None | Some(Value::Null) => {}
                    Some(c) => self.chat_content(c, &cp, Role::Assistant)?,
                }
                if let Some(calls) = o.get("tool_calls") {
                    let tp = child(path, "tool_calls");
                    for (i, c) in self.arr(calls, &tp)?.iter().enumerate() {
                        let p = index(&tp, i);
                        let co = self.obj(c, &p)?;
                        self.known(co, &p, &["id", "type", "function"]);
                        let fp = child(&p, "function");
                        let f = self.obj(self.req(co, "function", &p)?, &fp)?;
                        self.known(f, &fp, &["name", "arguments"]);
                        let id = self.req_str(co, "id", &p)?.to_owned();
                        let name = self.req_str(f, "name", &fp)?.to_owned();
                        let args = Args::from_text(self.req_str(f, "arguments", &fp)?);
                        let part = self.call(id, name, args, p);
                        self.push(Role::Assistant, part);
                    }
                }
            }
            "tool" => {
                self.known(o, path, &["role", "content", "tool_call_id"]);
                let id = self.req_str(o, "tool_call_id", path)?;
                let call_id = self.answer(Some(id), None, &child(path, "tool_call_id"))?;
                let content = self.req(o, "content", path)?;
                let content = if let Value::String(s) = content {
                    alloc::vec![Part {
                        kind: PartKind::Text(s.clone()),
                        path: cp,
                        signature: None
                    }]
                } else {
                    let mut parts = Vec::new();
                    for (i, p) in self.arr(content, &cp)?.iter().enumerate() {
                        if let Some(part) = self.chat_part(p, &index(&cp, i))? {
                            parts.push(part);
                        }
                    }
                    parts
                };
                self.part(
                    Role::User,
                    PartKind::ToolResult {
                        call_id,
                        content,
                        is_error: None,
                    },
                    path.to_owned(),
                );
            }
            _ => self.drop_at(path.to_owned(), NotCarriedKind::Unsupported),
        }
        Ok(())
    }

    fn chat_content(&mut self, content: &Value, path: &str, role: Role) -> R<()> {
        if let Value::String(s) = content {
            self.part(role, PartKind::Text(s.clone()), path.to_owned());
            return Ok(());
        }
        for (i, p) in self.arr(content, path)?.iter().enumerate() {
            if let Some(part) = self.chat_part(p, &index(path, i))? {
                self.push(role, part);
            }
        }
        Ok(())
    }

    fn chat_part(&mut self, v: &Value, path: &str) -> R<Option<Part>> {
        let o = self.obj(v, path)?;
        let ty = self.req_str(o, "type", path)?;
        let kind = match ty {
            "text" => {
                self.known(o, path, &["type", "text"]);
                PartKind::Text(self.req_str(o, "text", path)?.to_owned())
            }
            "image_url" => {
                self.known(o, path, &["type", "image_url"]);
                let ip = child(path, "image_url");
                let i = self.obj(self.req(o, "image_url", path)?, &ip)?;
                self.known(i, &ip, &["url", "detail"]);
                PartKind::Image {
                    media: url_media(self.req_str(i, "url", &ip)?.to_owned()),
                    detail: self.opt_str_f(i, "detail", &ip)?,
                }
            }
            "file" => {
                self.known(o, path, &["type", "file"]);
                let fp = child(path, "file");
                let f = self.obj(self.req(o, "file", path)?, &fp)?;
                self.known(f, &fp, &["file_data", "file_id", "filename"]);
                let media = if let Some(d) = self.opt_str(f, "file_data", &fp)? {
                    url_media(d)
                } else if let Some(id) = self.opt_str(f, "file_id", &fp)? {
                    Media::FileId {
                        vendor: Vendor::OpenAi,
                        id,
                    }
                } else {
                    return Err(RequestError::at(
                        RequestErrorKind::MissingField,
                        child(&fp, "file_data"),
                    ));
                };
                PartKind::File {
                    media,
                    filename: self.opt_str_f(f, "filename", &fp)?,
                }
            }
            _ => {
                self.drop_at(path.to_owned(), NotCarriedKind::Unsupported);
                return Ok(None);
            }
        };
        Ok(Some(Part {
            kind,
            path: path.to_owned(),
            signature: None,
        }))
    }

    // ---- Anthropic Messages ---------------------------------------------

    fn anthropic(&mut self, root: &Obj) -> R<()> {
        self.known(
            root,
            "",
            &[
                "model",
                "messages",
                "system",
                "max_tokens",
                "temperature",
                "top_p",
                "top_k",
                "stop_sequences",
                "stream",
                "tools",
                "tool_choice",
                "thinking",
                "output_config",
            ],
        );
        self.req.model = self.opt_str_f(root, "model", "")?;
        self.req.stream = self.opt_bool(root, "stream", "")?;
        // One system entry per text block, so that the blocks survive a
        // round trip through dialects with several system messages.
        match root.get("system") {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) => self.system(s.clone(), false),
            Some(s) => {
                for (i, b) in self.arr(s, "/system")?.iter().enumerate() {
                    if let Some(t) = self.text_block(b, &index("/system", i), &["text"])? {
                        self.system(t, false);
                    }
                }
            }
        }
        let msgs = self.req(root, "messages", "")?;
        for (i, m) in self.arr(msgs, "/messages")?.iter().enumerate() {
            let p = index("/messages", i);
            let o = self.obj(m, &p)?;
            self.known(o, &p, &["role", "content"]);
            let role = match self.req_str(o, "role", &p)? {
                "user" => Role::User,
                "assistant" => Role::Assistant,
                _ => {
                    return Err(RequestError::at(
                        RequestErrorKind::InvalidValue,
                        child(&p, "role"),
                    ))
                }
            };
            let cp = child(&p, "content");
            match self.req(o, "content", &p)? {
                Value::String(s) => self.part(role, PartKind::Text(s.clone()), cp),
                c => {
                    for (j, b) in self.arr(c, &cp)?.iter().enumerate() {
                        if let Some(part) = self.anthropic_block(b, &index(&cp, j))? {
                            self.push(role, part);
                        }
                    }
                }
            }
        }
        self.req.max_tokens = self.opt_u64(root, "max_tokens", "")?;
        self.req.temperature = self.opt_num(root, "temperature", "")?;
        self.req.top_p = self.opt_num(root, "top_p", "")?;
        self.req.top_k = self.opt_num(root, "top_k", "")?;
        if let Some(s) = root.get("stop_sequences") {
            self.stop(s, "/stop_sequences")?;
        }
        if let Some(v) = root.get("tools") {
            for (i, t) in self.arr(v, "/tools")?.iter().enumerate() {
                let p = index("/tools", i);
                let o = self.obj(t, &p)?;
                let custom = o.contains_key("input_schema")
                    && o.get("type").is_none_or(|t| t.as_str() == Some("custom"));
                if custom {
                    self.tool_fn(
                        o,
                        &p,
                        "input_schema",
                        &["type", "name", "description", "input_schema", "strict"],
                    )?;
                } else {
                    self.req.tools.push(Tool::Hosted { path: p });
                }
            }
        }
        if let Some(tc) = self.opt_obj(root, "tool_choice", "")? {
            let p = "/tool_choice";
            self.known(tc, p, &["type", "name", "disable_parallel_tool_use"]);
            let choice = match self.req_str(tc, "type", p)? {
                "auto" => ToolChoice::Auto,
                "any" => ToolChoice::Required,
                "none" => ToolChoice::None,
                "tool" => ToolChoice::Function(self.req_str(tc, "name", p)?.to_owned()),
                _ => {
                    return Err(RequestError::at(
                        RequestErrorKind::InvalidValue,
                        "/tool_choice/type",
                    ))
                }
            };
            self.req.tool_choice = Some(field(choice, p));
            if let Some(d) = self.opt_bool(tc, "disable_parallel_tool_use", p)? {
                self.req.parallel_tool_calls = Some(field(!d.value, &d.path));
            }
        }
        if let Some(t) = self.opt_obj(root, "thinking", "")? {
            let p = "/thinking";
            match self.req_str(t, "type", p)? {
                "enabled" => {
                    self.known(t, p, &["type", "budget_tokens"]);
                    let b = self.req(t, "budget_tokens", p)?;
                    let b = b
                        .as_i64()
                        .ok_or_else(|| wrong("integer", "/thinking/budget_tokens"))?;
                    self.req.budget = Some(field(b, "/thinking/budget_tokens"));
                }
                "disabled" => {
                    self.known(t, p, &["type"]);
                    self.req.budget = Some(field(0, "/thinking"));
                }
                _ => self.drop_at(p.to_owned(), NotCarriedKind::Unsupported),
            }
        }
        if let Some(oc) = self.opt_obj(root, "output_config", "")? {
            let p = "/output_config";
            self.known(oc, p, &["format", "effort"]);
            if let Some(e) = oc.get("effort").filter(|v| !v.is_null()) {
                self.effort(e, "/output_config/effort")?;
            }
            if let Some(f) = self.opt_obj(oc, "format", p)? {
                let fp = "/output_config/format";
                self.known(f, fp, &["type", "schema"]);
                if self.req_str(f, "type", fp)? != "json_schema" {
                    return Err(RequestError::at(
                        RequestErrorKind::InvalidValue,
                        "/output_config/format/type",
                    ));
                }
                let sp = "/output_config/format/schema";
                let schema = self.req(f, "schema", fp)?;
                self.obj(schema, sp)?;
                self.req.format = Some(Format {
                    kind: FormatKind::JsonSchema {
                        name: None,
                        description: None,
                        schema: field(schema.clone(), sp),
                        strict: None,
                    },
                    path: fp.into(),
                });
            }
        }
        Ok(())
    }

    fn anthropic_source(&mut self, o: &Obj, path: &str) -> R<Media> {
        let sp = child(path, "source");
        let s = self.obj(self.req(o, "source", path)?, &sp)?;
        Ok(match self.req_str(s, "type", &sp)? {
            "base64" => {
                self.known(s, &sp, &["type", "media_type", "data"]);
                Media::Base64 {
                    mime: self.req_str(s, "media_type", &sp)?.to_owned(),
                    data: self.req_str(s, "data", &sp)?.to_owned(),
                }
            }
            "url" => {
                self.known(s, &sp, &["type", "url"]);
                Media::Url(self.req_str(s, "url", &sp)?.to_owned())
            }
            "file" => {
                self.known(s, &sp, &["type", "file_id"]);
                Media::FileId {
                    vendor: Vendor::Anthropic,
                    id: self.req_str(s, "file_id", &sp)?.to_owned(),
                }
            }
            _ => {
                return Err(RequestError::at(
                    RequestErrorKind::InvalidValue,
                    child(&sp, "type"),
                ))
            }
        })
    }

    fn anthropic_block(&mut self, v: &Value, path: &str) -> R<Option<Part>> {
        let o = self.obj(v, path)?;
        let ty = self.req_str(o, "type", path)?;
        let kind = match ty {
            "text" => {
                self.known(o, path, &["type", "text"]);
                PartKind::Text(self.req_str(o, "text", path)?.to_owned())
            }
            "image" => {
                self.known(o, path, &["type", "source"]);
                PartKind::Image {
                    media: self.anthropic_source(o, path)?,
                    detail: None,
                }
            }
            "document" => {
                let s = o
                    .get("source")
                    .and_then(|s| s.get("type"))
                    .and_then(Value::as_str);
                if !matches!(s, Some("base64" | "url" | "file")) {
                    self.drop_at(path.to_owned(), NotCarriedKind::Unsupported);
                    return Ok(None);
                }
                self.known(o, path, &["type", "source", "title"]);
                PartKind::File {
                    media: self.anthropic_source(o, path)?,
                    filename: self.opt_str_f(o, "title", path)?,
                }
            }
            "tool_use" => {
                self.known(o, path, &["type", "id", "name", "input"]);
                let id = self.req_str(o, "id", path)?.to_owned();
                let name = self.req_str(o, "name", path)?.to_owned();
                let input = self.req(o, "input", path)?;
                self.obj(input, &child(path, "input"))?;
                return Ok(Some(self.call(
                    id,
                    name,
                    Args::Object(input.clone()),
                    path.to_owned(),
                )));
            }
            "tool_result" => {
                self.known(o, path, &["type", "tool_use_id", "content", "is_error"]);
                let id = self.req_str(o, "tool_use_id", path)?;
                let call_id = self.answer(Some(id), None, &child(path, "tool_use_id"))?;
                let cp = child(path, "content");
                let content = match o.get("content") {
                    None => Vec::new(),
                    Some(Value::String(s)) => alloc::vec![Part {
                        kind: PartKind::Text(s.clone()),
                        path: cp,
                        signature: None
                    }],
                    Some(c) => {
                        let mut parts = Vec::new();
                        for (i, b) in self.arr(c, &cp)?.iter().enumerate() {
                            let bp = index(&cp, i);
                            let bt = b.get("type").and_then(Value::as_str);
                            if !matches!(bt, Some("text" | "image" | "document")) {
                                self.drop_at(bp, NotCarriedKind::Unsupported);
                                continue;
                            }
                            if let Some(p) = self.anthropic_block(b, &bp)? {
                                parts.push(p);
                            }
                        }
                        parts
                    }
                };
                PartKind::ToolResult {
                    call_id,
                    content,
                    is_error: self.opt_bool(o, "is_error", path)?,
                }
            }
            "thinking" | "redacted_thinking" => PartKind::Reasoning,
            _ => {
                self.drop_at(path.to_owned(), NotCarriedKind::Unsupported);
                return Ok(None);
            }
        };
        Ok(Some(Part {
            kind,
            path: path.to_owned(),
            signature: None,
        }))
    }

    // ---- Gemini -----------------------------------------------------------

    fn gemini(&mut self, root: &Obj) -> R<()> {
        self.known(
            root,
            "",
            &[
                "contents",
                "systemInstruction",
                "tools",
                "toolConfig",
                "generationConfig",
            ],
        );
        if let Some(si) = self.opt_obj(root, "systemInstruction", "")? {
            let p = "/systemInstruction";
            self.known(si, p, &["parts", "role"]);
            let parts = self.req(si, "parts", p)?;
            for (i, part) in self
                .arr(parts, "/systemInstruction/parts")?
                .iter()
                .enumerate()
            {
                let pp = index("/systemInstruction/parts", i);
                let po = self.obj(part, &pp)?;
                let Some(t) = self.opt_str(po, "text", &pp)? else {
                    self.drop_at(pp, NotCarriedKind::Unsupported);
                    continue;
                };
                self.known(po, &pp, &["text"]);
                self.system(t, false);
            }
        }
        let contents = self.req(root, "contents", "")?;
        for (i, c) in self.arr(contents, "/contents")?.iter().enumerate() {
            let p = index("/contents", i);
            let o = self.obj(c, &p)?;
            self.known(o, &p, &["role", "parts"]);
            let role = match self.opt_str(o, "role", &p)?.as_deref() {
                None | Some("user") | Some("function") => Role::User,
                Some("model") => Role::Assistant,
                Some(_) => {
                    return Err(RequestError::at(
                        RequestErrorKind::InvalidValue,
                        child(&p, "role"),
                    ))
                }
            };
            let pp = child(&p, "parts");
            for (j, part) in self.arr(self.req(o, "parts", &p)?, &pp)?.iter().enumerate() {
                if let Some(part) = self.gemini_part(part, &index(&pp, j), i, j)? {
                    self.push(role, part);
                }
            }
        }
        if let Some(v) = root.get("tools") {
            for (i, t) in self.arr(v, "/tools")?.iter().enumerate() {
                let p = index("/tools", i);
                let o = self.obj(t, &p)?;
                for (k, val) in o {
                    let kp = child(&p, k);
                    if k != "functionDeclarations" {
                        self.req.tools.push(Tool::Hosted { path: kp });
                        continue;
                    }
                    for (j, d) in self.arr(val, &kp)?.iter().enumerate() {
                        let dp = index(&kp, j);
                        let d = self.obj(d, &dp)?;
                        let key = if d.contains_key("parametersJsonSchema") {
                            "parametersJsonSchema"
                        } else {
                            "parameters"
                        };
                        self.tool_fn(
                            d,
                            &dp,
                            key,
                            &["name", "description", "parameters", "parametersJsonSchema"],
                        )?;
                        if let Some(Tool::Function {
                            parameters: Some(ps),
                            ..
                        }) = self.req.tools.last_mut()
                        {
                            if key == "parameters" {
                                ps.value = super::schema::from_gemini(&ps.value);
                            }
                        }
                    }
                }
            }
        }
        if let Some(tc) = self.opt_obj(root, "toolConfig", "")? {
            self.known(tc, "/toolConfig", &["functionCallingConfig"]);
            if let Some(f) = self.opt_obj(tc, "functionCallingConfig", "/toolConfig")? {
                let p = "/toolConfig/functionCallingConfig";
                self.known(f, p, &["mode", "allowedFunctionNames"]);
                let names = match f.get("allowedFunctionNames") {
                    None => Vec::new(),
                    Some(v) => self
                        .arr(v, "/toolConfig/functionCallingConfig/allowedFunctionNames")?
                        .to_vec(),
                };
                let choice = match self.opt_str(f, "mode", p)?.as_deref() {
                    None | Some("AUTO") | Some("MODE_UNSPECIFIED") => ToolChoice::Auto,
                    Some("NONE") => ToolChoice::None,
                    Some("ANY") | Some("VALIDATED") => match names.as_slice() {
                        [Value::String(n)] => ToolChoice::Function(n.clone()),
                        _ => ToolChoice::Required,
                    },
                    Some(_) => {
                        return Err(RequestError::at(
                            RequestErrorKind::InvalidValue,
                            "/toolConfig/functionCallingConfig/mode",
                        ))
                    }
                };
                let one = matches!(choice, ToolChoice::Function(_));
                if !names.is_empty() && !one {
                    self.drop_at(
                        "/toolConfig/functionCallingConfig/allowedFunctionNames".into(),
                        NotCarriedKind::Unsupported,
                    );
                }
                self.req.tool_choice = Some(field(choice, p));
            }
        }
        if let Some(g) = self.opt_obj(root, "generationConfig", "")? {
            let p = "/generationConfig";
            self.known(
                g,
                p,
                &[
                    "temperature",
                    "topP",
                    "topK",
                    "maxOutputTokens",
                    "stopSequences",
                    "responseMimeType",
                    "responseSchema",
                    "responseJsonSchema",
                    "thinkingConfig",
                ],
            );
            self.req.temperature = self.opt_num(g, "temperature", p)?;
            self.req.top_p = self.opt_num(g, "topP", p)?;
            self.req.top_k = self.opt_num(g, "topK", p)?;
            self.req.max_tokens = self.opt_u64(g, "maxOutputTokens", p)?;
            if let Some(s) = g.get("stopSequences") {
                self.stop(s, "/generationConfig/stopSequences")?;
            }
            let mime = self.opt_str(g, "responseMimeType", p)?;
            let (schema, sp) = match (g.get("responseJsonSchema"), g.get("responseSchema")) {
                (Some(s), _) => (Some(s.clone()), "/generationConfig/responseJsonSchema"),
                (None, Some(s)) => (
                    Some(super::schema::from_gemini(s)),
                    "/generationConfig/responseSchema",
                ),
                (None, None) => (None, ""),
            };
            if let Some(s) = &schema {
                self.obj(s, sp)?;
            }
            let kind = match (mime.as_deref(), schema) {
                (_, Some(s)) => Some(FormatKind::JsonSchema {
                    name: None,
                    description: None,
                    schema: field(s, sp),
                    strict: None,
                }),
                (Some("application/json"), None) => Some(FormatKind::JsonObject),
                (Some("text/plain"), None) => Some(FormatKind::Text),
                (Some(_), None) => {
                    self.drop_at(
                        "/generationConfig/responseMimeType".into(),
                        NotCarriedKind::Unsupported,
                    );
                    None
                }
                (None, None) => None,
            };
            if let Some(kind) = kind {
                self.req.format = Some(Format {
                    kind,
                    path: "/generationConfig".into(),
                });
            }
            if let Some(t) = self.opt_obj(g, "thinkingConfig", p)? {
                let tp = "/generationConfig/thinkingConfig";
                self.known(
                    t,
                    tp,
                    &["thinkingBudget", "includeThoughts", "thinkingLevel"],
                );
                if let Some(b) = t.get("thinkingBudget") {
                    let b = b.as_i64().ok_or_else(|| {
                        wrong("integer", "/generationConfig/thinkingConfig/thinkingBudget")
                    })?;
                    self.req.budget =
                        Some(field(b, "/generationConfig/thinkingConfig/thinkingBudget"));
                }
                if let Some(l) = t.get("thinkingLevel") {
                    let lp = "/generationConfig/thinkingConfig/thinkingLevel";
                    let l = self.str(l, lp)?.to_ascii_lowercase();
                    if effort_budget(&l).is_none() {
                        return Err(RequestError::at(RequestErrorKind::InvalidValue, lp));
                    }
                    self.req.effort = Some(field(l, lp));
                }
                if let Some(inc) = self.opt_bool(t, "includeThoughts", tp)? {
                    if inc.value {
                        self.req.summary = Some(field("auto".to_string(), &inc.path));
                    }
                }
            }
        }
        Ok(())
    }

    fn gemini_part(&mut self, v: &Value, path: &str, ci: usize, pi: usize) -> R<Option<Part>> {
        let o = self.obj(v, path)?;
        let signature = self.opt_str_f(o, "thoughtSignature", path)?;
        if o.get("thought").and_then(Value::as_bool) == Some(true) {
            return Ok(Some(Part {
                kind: PartKind::Reasoning,
                path: path.to_owned(),
                signature: None,
            }));
        }
        let kind = if let Some(t) = o.get("text") {
            self.known(o, path, &["text", "thought", "thoughtSignature"]);
            PartKind::Text(self.str(t, &child(path, "text"))?.to_owned())
        } else if let Some(d) = o.get("inlineData") {
            self.known(o, path, &["inlineData", "thoughtSignature"]);
            let dp = child(path, "inlineData");
            let d = self.obj(d, &dp)?;
            self.known(d, &dp, &["mimeType", "data"]);
            let mime = self.req_str(d, "mimeType", &dp)?.to_owned();
            let media = Media::Base64 {
                data: self.req_str(d, "data", &dp)?.to_owned(),
                mime: mime.clone(),
            };
            media_part(media, &mime)
        } else if let Some(d) = o.get("fileData") {
            self.known(o, path, &["fileData", "thoughtSignature"]);
            let dp = child(path, "fileData");
            let d = self.obj(d, &dp)?;
            self.known(d, &dp, &["mimeType", "fileUri"]);
            let mime = self.opt_str(d, "mimeType", &dp)?.unwrap_or_default();
            media_part(
                Media::Url(self.req_str(d, "fileUri", &dp)?.to_owned()),
                &mime,
            )
        } else if let Some(c) = o.get("functionCall") {
            self.known(o, path, &["functionCall", "thoughtSignature"]);
            let cp = child(path, "functionCall");
            let c = self.obj(c, &cp)?;
            self.known(c, &cp, &["name", "args", "id"]);
            let name = self.req_str(c, "name", &cp)?.to_owned();
            let id = self
                .opt_str(c, "id", &cp)?
                .unwrap_or_else(|| format!("call_{ci}_{pi}"));
            let args = match c.get("args") {
                None | Some(Value::Null) => Value::Object(Map::new()),
                Some(a) => {
                    self.obj(a, &child(&cp, "args"))?;
                    a.clone()
                }
            };
            let mut part = self.call(id, name, Args::Object(args), path.to_owned());
            part.signature = signature;
            return Ok(Some(part));
        } else if let Some(r) = o.get("functionResponse") {
            self.known(o, path, &["functionResponse", "thoughtSignature"]);
            let rp = child(path, "functionResponse");
            let r = self.obj(r, &rp)?;
            self.known(r, &rp, &["name", "response", "id"]);
            let name = self.req_str(r, "name", &rp)?;
            let id = self.opt_str(r, "id", &rp)?;
            let at = if id.is_some() {
                child(&rp, "id")
            } else {
                child(&rp, "name")
            };
            let call_id = self.answer(id.as_deref(), Some(name), &at)?;
            let resp = self.req(r, "response", &rp)?;
            let resp_path = child(&rp, "response");
            let ro = self.obj(resp, &resp_path)?;
            let (text, is_error) = match (ro.len(), ro.get("output"), ro.get("error")) {
                (1, Some(Value::String(s)), _) => (s.clone(), None),
                (1, _, Some(Value::String(s))) => {
                    (s.clone(), Some(field(true, &child(&resp_path, "error"))))
                }
                _ => (resp.to_string(), None),
            };
            PartKind::ToolResult {
                call_id,
                content: alloc::vec![Part {
                    kind: PartKind::Text(text),
                    path: resp_path,
                    signature: None
                }],
                is_error,
            }
        } else {
            self.drop_at(path.to_owned(), NotCarriedKind::Unsupported);
            return Ok(None);
        };
        Ok(Some(Part {
            kind,
            path: path.to_owned(),
            signature,
        }))
    }
}

/// A URL, or a `data:` URL's media type and base64 data.
fn url_media(url: String) -> Media {
    match parse_data_url(&url) {
        Some((mime, data)) => Media::Base64 {
            mime: mime.to_owned(),
            data: data.to_owned(),
        },
        None => Media::Url(url),
    }
}

/// Gemini's media parts are images when their type says so, else files.
fn media_part(media: Media, mime: &str) -> PartKind {
    if mime.starts_with("image/") {
        PartKind::Image {
            media,
            detail: None,
        }
    } else {
        PartKind::File {
            media,
            filename: None,
        }
    }
}
