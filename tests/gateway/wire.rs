//! What a client of each dialect gets, read by hand from the wire with
//! serde_json: the text, the tool calls, the error, the keep-alives. These
//! readers share no code with the crate, so that they can judge it.

use serde_json::Value as J;
use ssekit::turn::Dialect;

/// A tool call: its id (when the dialect has one), name and arguments.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Call {
    pub(crate) id: Option<String>,
    pub(crate) name: String,
    pub(crate) args: J,
}

/// What a client gets out of an answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Answer {
    pub(crate) text: String,
    pub(crate) calls: Vec<Call>,
    pub(crate) error: Option<String>,
    /// Keep-alives: comment lines, blank lines that end no event, and
    /// Anthropic `ping` events.
    pub(crate) keep_alives: usize,
    /// The events (data fields) read.
    pub(crate) events: usize,
    /// Whether the stream ended as its dialect ends one (`[DONE]`,
    /// `response.completed`/`failed`, `message_stop`, a `finishReason`).
    pub(crate) ended: bool,
}

/// The SSE events of `body` (event name, data), by the WHATWG rules as far
/// as these streams need them, and the keep-alives.
pub(crate) fn sse(body: &[u8]) -> (Vec<(Option<String>, String)>, usize) {
    let text = String::from_utf8_lossy(body);
    let mut events = Vec::new();
    let (mut event, mut data, mut pending, mut keep_alives) = (None, None::<String>, false, 0);
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            if let Some(d) = data.take() {
                events.push((event.take(), d));
            } else if !pending {
                keep_alives += 1;
            }
            event = None;
            pending = false;
            continue;
        }
        if line.starts_with(':') {
            keep_alives += 1;
            pending = true;
            continue;
        }
        pending = true;
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => event = Some(value.to_owned()),
            "data" => match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => data = Some(value.to_owned()),
            },
            _ => {}
        }
    }
    // The body's last line is followed by nothing: not a keep-alive.
    if text.ends_with('\n') && keep_alives > 0 && !pending && data.is_none() {
        keep_alives -= 1;
    }
    (events, keep_alives)
}

fn args_of(text: &str) -> J {
    if text.is_empty() {
        return J::Object(Default::default());
    }
    serde_json::from_str(text).unwrap_or(J::String(text.to_owned()))
}

fn s(v: &J) -> Option<String> {
    v.as_str().map(str::to_owned)
}

/// What a streaming client of `dialect` gets from `body`.
pub(crate) fn stream(dialect: Dialect, body: &[u8]) -> Answer {
    let (events, keep_alives) = sse(body);
    let mut a = Answer {
        keep_alives,
        events: events.len(),
        ..Answer::default()
    };
    // Arguments in fragments, by the dialect's index of the call.
    let mut args: Vec<(u64, String)> = Vec::new();
    let slot = |args: &mut Vec<(u64, String)>, i: u64| -> usize {
        match args.iter().position(|(k, _)| *k == i) {
            Some(p) => p,
            None => {
                args.push((i, String::new()));
                args.len() - 1
            }
        }
    };
    for (name, data) in &events {
        if data == "[DONE]" {
            a.ended = true;
            continue;
        }
        let Ok(v) = serde_json::from_str::<J>(data) else {
            a.error = Some(format!("not JSON: {data}"));
            continue;
        };
        match dialect {
            Dialect::Chat => {
                if let Some(m) = v["error"]["message"].as_str() {
                    a.error = Some(m.to_owned());
                }
                let delta = &v["choices"][0]["delta"];
                if let Some(t) = delta["content"].as_str() {
                    a.text.push_str(t);
                }
                for call in delta["tool_calls"].as_array().into_iter().flatten() {
                    let i = call["index"].as_u64().unwrap_or(0);
                    let p = slot(&mut args, i);
                    if p == a.calls.len() {
                        a.calls.push(Call {
                            id: s(&call["id"]),
                            name: call["function"]["name"].as_str().unwrap_or("").to_owned(),
                            args: J::Null,
                        });
                    }
                    if let Some(f) = call["function"]["arguments"].as_str() {
                        args[p].1.push_str(f);
                    }
                }
            }
            Dialect::Anthropic => {
                let ty = v["type"].as_str().unwrap_or("");
                assert_eq!(name.as_deref(), Some(ty), "event name and type agree");
                match ty {
                    "content_block_start" if v["content_block"]["type"] == "tool_use" => {
                        let i = v["index"].as_u64().unwrap_or(0);
                        slot(&mut args, i);
                        a.calls.push(Call {
                            id: s(&v["content_block"]["id"]),
                            name: s(&v["content_block"]["name"]).unwrap_or_default(),
                            args: J::Null,
                        });
                    }
                    "content_block_delta" => {
                        let d = &v["delta"];
                        if d["type"] == "text_delta" {
                            a.text.push_str(d["text"].as_str().unwrap_or(""));
                        } else if d["type"] == "input_json_delta" {
                            let p = slot(&mut args, v["index"].as_u64().unwrap_or(0));
                            args[p].1.push_str(d["partial_json"].as_str().unwrap_or(""));
                        }
                    }
                    "message_stop" => a.ended = true,
                    // Anthropic's keep-alive is an event of its own.
                    "ping" => a.keep_alives += 1,
                    "error" => {
                        a.ended = true;
                        a.error = s(&v["error"]["message"]);
                    }
                    _ => {}
                }
            }
            Dialect::Gemini => {
                if let Some(m) = v["error"]["message"].as_str() {
                    a.error = Some(m.to_owned());
                    a.ended = true;
                }
                let c = &v["candidates"][0];
                for part in c["content"]["parts"].as_array().into_iter().flatten() {
                    if part["thought"] == true {
                        continue;
                    }
                    if let Some(t) = part["text"].as_str() {
                        a.text.push_str(t);
                    }
                    if part["functionCall"].is_object() {
                        let f = &part["functionCall"];
                        a.calls.push(Call {
                            id: s(&f["id"]),
                            name: s(&f["name"]).unwrap_or_default(),
                            args: f["args"].clone(),
                        });
                    }
                }
                if c["finishReason"].is_string() {
                    a.ended = true;
                }
            }
            _ => {
                let ty = v["type"].as_str().unwrap_or("");
                assert_eq!(name.as_deref(), Some(ty), "event name and type agree");
                let i = v["output_index"].as_u64().unwrap_or(0);
                match ty {
                    "response.output_text.delta" => {
                        a.text.push_str(v["delta"].as_str().unwrap_or(""));
                    }
                    "response.output_item.added" if v["item"]["type"] == "function_call" => {
                        slot(&mut args, i);
                        a.calls.push(Call {
                            id: s(&v["item"]["call_id"]),
                            name: s(&v["item"]["name"]).unwrap_or_default(),
                            args: J::Null,
                        });
                    }
                    "response.function_call_arguments.delta" => {
                        let p = slot(&mut args, i);
                        args[p].1.push_str(v["delta"].as_str().unwrap_or(""));
                    }
                    "response.completed" | "response.incomplete" => a.ended = true,
                    "response.failed" => {
                        a.ended = true;
                        a.error = s(&v["response"]["error"]["message"]);
                    }
                    "error" => a.error = s(&v["message"]),
                    _ => {}
                }
            }
        }
    }
    if dialect != Dialect::Gemini {
        for (call, (_, text)) in a.calls.iter_mut().zip(&args) {
            call.args = args_of(text);
        }
    }
    a
}

/// What a non-streaming client of `dialect` gets from the JSON `body`.
pub(crate) fn answer(dialect: Dialect, body: &[u8]) -> Answer {
    let v: J = serde_json::from_slice(body).expect("the answer is JSON");
    let mut a = Answer {
        ended: true,
        ..Answer::default()
    };
    match dialect {
        Dialect::Chat => {
            a.error = s(&v["error"]["message"]);
            let m = &v["choices"][0]["message"];
            a.text = m["content"].as_str().unwrap_or("").to_owned();
            for c in m["tool_calls"].as_array().into_iter().flatten() {
                a.calls.push(Call {
                    id: s(&c["id"]),
                    name: s(&c["function"]["name"]).unwrap_or_default(),
                    args: args_of(c["function"]["arguments"].as_str().unwrap_or("")),
                });
            }
        }
        Dialect::Anthropic => {
            if v["type"] == "error" {
                a.error = s(&v["error"]["message"]);
            }
            for b in v["content"].as_array().into_iter().flatten() {
                match b["type"].as_str() {
                    Some("text") => a.text.push_str(b["text"].as_str().unwrap_or("")),
                    Some("tool_use") => a.calls.push(Call {
                        id: s(&b["id"]),
                        name: s(&b["name"]).unwrap_or_default(),
                        args: b["input"].clone(),
                    }),
                    _ => {}
                }
            }
        }
        Dialect::Gemini => {
            a.error = s(&v["error"]["message"]);
            for part in v["candidates"][0]["content"]["parts"]
                .as_array()
                .into_iter()
                .flatten()
            {
                if part["thought"] == true {
                    continue;
                }
                if let Some(t) = part["text"].as_str() {
                    a.text.push_str(t);
                }
                if part["functionCall"].is_object() {
                    let f = &part["functionCall"];
                    a.calls.push(Call {
                        id: s(&f["id"]),
                        name: s(&f["name"]).unwrap_or_default(),
                        args: f["args"].clone(),
                    });
                }
            }
        }
        _ => {
            a.error = s(&v["error"]["message"]);
            for item in v["output"].as_array().into_iter().flatten() {
                match item["type"].as_str() {
                    Some("message") => {
                        for c in item["content"].as_array().into_iter().flatten() {
                            if c["type"] == "output_text" {
                                a.text.push_str(c["text"].as_str().unwrap_or(""));
                            }
                        }
                    }
                    Some("function_call") => a.calls.push(Call {
                        id: s(&item["call_id"]),
                        name: s(&item["name"]).unwrap_or_default(),
                        args: args_of(item["arguments"].as_str().unwrap_or("")),
                    }),
                    _ => {}
                }
            }
        }
    }
    a
}
