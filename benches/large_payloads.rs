//! Large single events: does simd-json beat ssekit's native decoder where
//! the payload is big? (The answer is in `BENCHMARKS.md`.)
//!
//! Run: `cargo bench --bench large_payloads --features serde`
//! (without `serde` the two engines that feed ssekit's owned form through a
//! serde deserializer are left out; append `-- <filter>` to run part of it).
//!
//! Payloads (generated here from a seed, checked with `serde_json`):
//!
//! * `completed`: `response.completed` carrying a whole response (reasoning,
//!   eight messages of ~10 KiB of prose, three function calls, the tools and
//!   usage): ~107 KiB;
//! * `fc-10k`, `fc-100k`: `response.output_item.done` of a `function_call`
//!   whose `arguments` (a JSON text holding source code, so dense in `\"`
//!   and `\\n`) is 10 / 100 KiB;
//! * `rs-10k`, `rs-100k`: `response.output_item.done` of a `reasoning` item
//!   with 10 / 100 KiB of base64 `encrypted_content` and a short summary;
//! * `gemini-40k`: one Gemini `GenerateContentResponse` chunk of ~40 KiB (a
//!   thought part and three long text parts, safety ratings, usage).
//!
//! Engines. "Payload" means the long strings of the event (the arguments,
//! the encrypted content, every text of a message, a summary or a Gemini
//! part); engines that read it return the total of their *unescaped*
//! lengths, which every iteration asserts against the `serde_json::Value`
//! reference. The simd-json engines copy the data into a reused scratch
//! `Vec` first (simd-json parses in place); the copy is part of their cost,
//! as it is for a user who holds the data in a `Frame` or `&str`.
//!
//! Borrowed / validating path:
//! * `ssekit-validate`: `RawJson::parse`, the validation alone;
//! * `ssekit-parse`: `ResponsesEvent::parse` + `validate()` (the lazy
//!   payloads decoded too) / `GeminiEvent::parse`;
//! * `ssekit-read`: `ResponsesEvent::parse`, then the payload views decoded
//!   and every payload string unescaped into a reused `String`;
//! * `serde_json-raw`: `serde_json::from_str::<&RawValue>` (validation);
//! * `serde_json-typed`: `serde_json::from_str` into borrowed structs
//!   (`Cow<str>`: borrowed unless escaped) modelling the same fields;
//! * `simd-tape`: copy + `fill_tape_padded` into a reused tape, payload
//!   read from the tape (simd-json's cheapest path);
//! * `simd-borrowed`: copy + `to_borrowed_value_with_buffers`, payload read
//!   from the DOM;
//! * `simd-serde`: copy + `simd_json::serde::from_slice_with_buffers` into
//!   the same borrowed structs.
//!
//! Owned path:
//! * `ssekit-owned`: `OwnedResponsesEvent::parse` / `OwnedGeminiEvent::parse`
//!   (decode, lazy payloads included, and keep a copy of the text);
//! * `ssekit-owned-sj`, `ssekit-owned-simd` (feature `serde`): the same
//!   owned forms through `serde::Deserialize`, from `serde_json::from_str`
//!   and from `simd_json::serde::from_slice` (copy included);
//! * `serde_json-owned`: `serde_json::from_str` into the structs with
//!   `String` fields;
//! * `simd-owned`: copy + `simd_json::serde::from_slice_with_buffers` into
//!   those;
//! * `simd-owned-value`: copy + `to_owned_value_with_buffers`.
//!
//! After criterion, every engine runs again in turns (round-robin, best of
//! `SSEKIT_BENCH_ROUNDS` rounds, default 7) and the bench prints the table of
//! ns/event, MB/s and the ratio to `ssekit-parse` (or `ssekit-owned`), with
//! criterion's medians beside them, and writes it to
//! `large-payloads-summary.md` in criterion's directory.
//!
//! `SSEKIT_LARGE_ONLY=<engine>/<payload>[/<passes>]` runs one cell and exits
//! (no criterion), for callgrind:
//! `valgrind --tool=callgrind --toggle-collect='large_payloads::run*' <bin>`
//! gives the instructions of `passes` events (default 200).

mod support;

use std::borrow::Cow;
use std::fmt;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use criterion::{BenchmarkId, Criterion, Throughput};
use serde::de::{Deserializer, Visitor};
use serde::Deserialize;
use simd_json::prelude::*;
use ssekit::gemini::{GeminiEvent, OwnedGeminiEvent};
use ssekit::json::{JsonStr, RawJson};
use ssekit::responses::{ContentPart, OutputItem, OwnedResponsesEvent, ResponsesEvent};

use support::synth::Rng;

// ---------------------------------------------------------------------------
// Payloads

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `response.completed`
    Completed,
    /// `response.output_item.done`
    ItemDone,
    /// A Gemini chunk.
    Gemini,
}

struct Payload {
    name: &'static str,
    kind: Kind,
    data: String,
    /// The payload's unescaped length, from `serde_json::Value`.
    expect: usize,
}

/// Words of prose: ASCII, accented and non-Latin words, an emoji (raw
/// UTF-8, as the APIs send it).
const WORDS: &[&str] = &[
    "the",
    "a",
    "stream",
    "parser",
    "event",
    "token",
    "buffer",
    "response",
    "model",
    "value",
    "function",
    "returns",
    "each",
    "chunk",
    "when",
    "is",
    "of",
    "and",
    "to",
    "in",
    "that",
    "we",
    "naïve",
    "café",
    "Größe",
    "задача",
    "数据",
    "→",
    "—",
    "🙂",
    "über",
    "résumé",
];

fn prose(rng: &mut Rng, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 64);
    while s.len() < bytes {
        match rng.below(40) {
            0 => s.push_str("\n\n"),
            1 => s.push_str(" \"quoted\""),
            2 => s.push_str(" `C:\\temp\\out.txt`"),
            3 => s.push_str("\n- "),
            4 => s.push('.'),
            _ => {
                s.push(' ');
                s.push_str(WORDS[rng.below(WORDS.len())]);
            }
        }
    }
    s
}

/// Source code, as a tool call writing a file would carry it.
fn code(rng: &mut Rng, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 128);
    let mut n = 0;
    while s.len() < bytes {
        n += 1;
        let indent = "    ".repeat(rng.below(3));
        match rng.below(5) {
            0 => writeln!(
                s,
                "{indent}let v{n} = parse(\"{}\", {n})?;",
                WORDS[rng.below(22)]
            ),
            1 => writeln!(
                s,
                "{indent}println!(\"{{}}: {{:?}}\\n\", name, v{});",
                n - 1
            ),
            2 => writeln!(
                s,
                "{indent}// {} {}",
                WORDS[rng.below(WORDS.len())],
                WORDS[rng.below(WORDS.len())]
            ),
            3 => writeln!(
                s,
                "{indent}if x{n} > {} {{ return Err(\"too big\".into()); }}",
                rng.below(1000)
            ),
            _ => writeln!(
                s,
                "{indent}map.insert(\"k{n}\".to_string(), \"\\t{}\");",
                rng.below(99)
            ),
        }
        .expect("write");
    }
    s
}

fn base64(rng: &mut Rng, bytes: usize) -> String {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::from("gAAAAABo");
    while s.len() < bytes {
        s.push(B64[rng.below(64)] as char);
    }
    s.push_str("==");
    s
}

fn alnum(rng: &mut Rng, n: usize) -> String {
    const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    (0..n)
        .map(|_| ALNUM[rng.below(ALNUM.len())] as char)
        .collect()
}

/// A JSON string literal.
fn q(s: &str) -> String {
    serde_json::to_string(s).expect("string")
}

/// Function-call arguments: a JSON object text whose own serialisation
/// (as the `arguments` string) is at least `bytes` long.
fn arguments(rng: &mut Rng, bytes: usize) -> String {
    // Escaping as a JSON string inside a JSON string roughly adds 15%.
    let body = code(rng, bytes * 8 / 10);
    let mut args = format!(
        r#"{{"path":"src/gen/module_{}.rs","content":{},"overwrite":true}}"#,
        rng.below(100),
        q(&body)
    );
    while q(&args).len() < bytes {
        args.insert_str(
            args.len() - 1,
            &format!(r#","note_{}":{}"#, rng.below(1 << 20), q(&prose(rng, 200))),
        );
    }
    args
}

fn function_call_item(rng: &mut Rng, arg_bytes: usize) -> String {
    format!(
        r#"{{"id":"fc_{}","type":"function_call","status":"completed","arguments":{},"call_id":"call_{}","name":"write_file"}}"#,
        alnum(rng, 48),
        q(&arguments(rng, arg_bytes)),
        alnum(rng, 24)
    )
}

fn reasoning_item(rng: &mut Rng, enc_bytes: usize) -> String {
    format!(
        r#"{{"id":"rs_{}","type":"reasoning","encrypted_content":{},"summary":[{{"type":"summary_text","text":{}}}]}}"#,
        alnum(rng, 48),
        q(&base64(rng, enc_bytes)),
        q(&prose(rng, 600))
    )
}

fn message_item(rng: &mut Rng, text_bytes: usize) -> String {
    format!(
        r#"{{"id":"msg_{}","type":"message","status":"completed","content":[{{"type":"output_text","annotations":[],"logprobs":[],"text":{}}}],"role":"assistant"}}"#,
        alnum(rng, 48),
        q(&prose(rng, text_bytes))
    )
}

fn item_done(rng: &mut Rng, item: String) -> String {
    format!(
        r#"{{"type":"response.output_item.done","sequence_number":{},"output_index":1,"item":{item}}}"#,
        rng.below(5000)
    )
}

fn completed(rng: &mut Rng) -> String {
    let mut output = vec![reasoning_item(rng, 8 << 10)];
    for i in 0..8 {
        output.push(message_item(rng, 10 << 10));
        if i % 3 == 1 {
            output.push(function_call_item(rng, 4 << 10));
        }
    }
    let tools = r#"[{"type":"function","name":"write_file","description":"Write a file to the workspace, replacing it if `overwrite` is set.","parameters":{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"},"overwrite":{"type":"boolean"}},"required":["path","content"],"additionalProperties":false},"strict":true},{"type":"web_search_preview","search_context_size":"medium"}]"#;
    format!(
        concat!(
            r#"{{"type":"response.completed","sequence_number":{},"response":{{"id":"resp_{}","object":"response","created_at":1756315696,"status":"completed","background":false,"error":null,"incomplete_details":null,"instructions":"You are a helpful assistant.","max_output_tokens":null,"max_tool_calls":null,"model":"gpt-5-2025-08-07","output":[{}],"#,
            r#""parallel_tool_calls":true,"previous_response_id":null,"prompt_cache_key":null,"reasoning":{{"effort":"medium","summary":"auto"}},"safety_identifier":null,"service_tier":"default","store":true,"temperature":1.0,"text":{{"format":{{"type":"text"}},"verbosity":"medium"}},"tool_choice":"auto","tools":{},"top_logprobs":0,"top_p":1.0,"truncation":"disabled","#,
            r#""usage":{{"input_tokens":1234,"input_tokens_details":{{"cached_tokens":1024}},"output_tokens":30112,"output_tokens_details":{{"reasoning_tokens":2048}},"total_tokens":31346}},"user":null,"metadata":{{}}}}}}"#
        ),
        rng.below(5000),
        alnum(rng, 48),
        output.join(","),
        tools
    )
}

fn gemini(rng: &mut Rng) -> String {
    let mut parts = vec![format!(
        r#"{{"text":{},"thought":true}}"#,
        q(&prose(rng, 6 << 10))
    )];
    for _ in 0..3 {
        parts.push(format!(r#"{{"text":{}}}"#, q(&prose(rng, 11 << 10))));
    }
    let rating =
        |c: &str| format!(r#"{{"category":"HARM_CATEGORY_{c}","probability":"NEGLIGIBLE"}}"#);
    let ratings = [
        "HATE_SPEECH",
        "DANGEROUS_CONTENT",
        "HARASSMENT",
        "SEXUALLY_EXPLICIT",
    ]
    .map(rating);
    format!(
        r#"{{"candidates":[{{"content":{{"parts":[{}],"role":"model"}},"finishReason":"STOP","index":0,"safetyRatings":[{}]}}],"usageMetadata":{{"promptTokenCount":812,"candidatesTokenCount":9630,"totalTokenCount":11890,"thoughtsTokenCount":1448}},"modelVersion":"gemini-2.5-pro","responseId":"{}"}}"#,
        parts.join(","),
        ratings.join(","),
        alnum(rng, 22)
    )
}

/// The reference: the payload's unescaped length, from `serde_json::Value`
/// (which also checks that the data is valid JSON).
fn reference(kind: Kind, data: &str) -> usize {
    use serde_json::Value;
    let v: Value = serde_json::from_str(data).expect("the generated payload is JSON");
    let s = |v: Option<&Value>| v.and_then(Value::as_str).map_or(0, str::len);
    let texts = |v: Option<&Value>| {
        v.and_then(Value::as_array)
            .map_or(0, |a| a.iter().map(|p| s(p.get("text"))).sum())
    };
    let item = |it: &Value| {
        s(it.get("arguments"))
            + s(it.get("encrypted_content"))
            + texts(it.get("summary"))
            + texts(it.get("content"))
    };
    match kind {
        Kind::ItemDone => item(&v["item"]),
        Kind::Completed => v["response"]["output"]
            .as_array()
            .expect("output")
            .iter()
            .map(item)
            .sum(),
        Kind::Gemini => v["candidates"]
            .as_array()
            .expect("candidates")
            .iter()
            .map(|c| texts(c["content"].get("parts")))
            .sum(),
    }
}

fn payloads() -> Vec<Payload> {
    let mut rng = Rng::new(support::SEED);
    let make = |name, kind, data: String| {
        let expect = reference(kind, &data);
        Payload {
            name,
            kind,
            data,
            expect,
        }
    };
    let p = vec![
        make("completed", Kind::Completed, completed(&mut rng)),
        make("fc-10k", Kind::ItemDone, {
            let it = function_call_item(&mut rng, 10 << 10);
            item_done(&mut rng, it)
        }),
        make("fc-100k", Kind::ItemDone, {
            let it = function_call_item(&mut rng, 100 << 10);
            item_done(&mut rng, it)
        }),
        make("rs-10k", Kind::ItemDone, {
            let it = reasoning_item(&mut rng, 10 << 10);
            item_done(&mut rng, it)
        }),
        make("rs-100k", Kind::ItemDone, {
            let it = reasoning_item(&mut rng, 100 << 10);
            item_done(&mut rng, it)
        }),
        make("gemini-40k", Kind::Gemini, gemini(&mut rng)),
    ];
    p
}

// ---------------------------------------------------------------------------
// Structs for serde_json and simd-json (serde), generic over the string
// type: `BStr` (borrowed unless escaped, as `#[serde(borrow)] Cow<str>`) or
// `String`.

/// A string that borrows from the input when the deserializer lets it.
struct BStr<'a>(Cow<'a, str>);

impl AsRef<str> for BStr<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for BStr<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = BStr<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(BStr(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(BStr(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(BStr(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

#[derive(Deserialize)]
struct TItemDone<S> {
    #[serde(rename = "type")]
    ty: S,
    sequence_number: Option<u64>,
    output_index: u64,
    item: TItem<S>,
}

#[derive(Deserialize)]
struct TItem<S> {
    #[serde(rename = "type")]
    ty: S,
    id: Option<S>,
    status: Option<S>,
    call_id: Option<S>,
    name: Option<S>,
    arguments: Option<S>,
    encrypted_content: Option<S>,
    role: Option<S>,
    summary: Option<Vec<TPart<S>>>,
    content: Option<Vec<TPart<S>>>,
}

#[derive(Deserialize)]
struct TPart<S> {
    #[serde(rename = "type")]
    ty: S,
    text: Option<S>,
}

#[derive(Deserialize)]
struct TCompleted<S> {
    #[serde(rename = "type")]
    ty: S,
    sequence_number: Option<u64>,
    response: TResponse<S>,
}

#[derive(Deserialize)]
struct TResponse<S> {
    id: Option<S>,
    object: Option<S>,
    status: Option<S>,
    created_at: Option<f64>,
    model: Option<S>,
    output: Option<Vec<TItem<S>>>,
    usage: Option<TUsage>,
}

#[derive(Deserialize)]
struct TUsage {
    input_tokens: u64,
    output_tokens: u64,
    total_tokens: u64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TGemini<S> {
    candidates: Option<Vec<TCandidate<S>>>,
    usage_metadata: Option<TGeminiUsage>,
    model_version: Option<S>,
    response_id: Option<S>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TCandidate<S> {
    content: Option<TContent<S>>,
    finish_reason: Option<S>,
    index: Option<u64>,
}

#[derive(Deserialize)]
struct TContent<S> {
    parts: Option<Vec<TGeminiPart<S>>>,
    role: Option<S>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TGeminiPart<S> {
    text: Option<S>,
    thought: Option<bool>,
    thought_signature: Option<S>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TGeminiUsage {
    prompt_token_count: Option<u64>,
    candidates_token_count: Option<u64>,
    total_token_count: Option<u64>,
}

fn t_len<S: AsRef<str>>(s: &Option<S>) -> usize {
    s.as_ref().map_or(0, |s| s.as_ref().len())
}

fn t_parts<S: AsRef<str>>(p: &Option<Vec<TPart<S>>>) -> usize {
    p.as_ref().map_or(0, |p| {
        p.iter()
            .map(|p| {
                black_box(&p.ty);
                t_len(&p.text)
            })
            .sum()
    })
}

fn t_item<S: AsRef<str>>(it: &TItem<S>) -> usize {
    black_box((&it.ty, &it.id, &it.status, &it.call_id, &it.name, &it.role));
    t_len(&it.arguments)
        + t_len(&it.encrypted_content)
        + t_parts(&it.summary)
        + t_parts(&it.content)
}

/// What the typed engines read: the payload's unescaped length (and the
/// other fields touched through `black_box`).
trait Typed<S>: Sized {
    fn payload(&self) -> usize;
}

impl<S: AsRef<str>> Typed<S> for TItemDone<S> {
    fn payload(&self) -> usize {
        black_box((&self.ty, self.sequence_number, self.output_index));
        t_item(&self.item)
    }
}

impl<S: AsRef<str>> Typed<S> for TCompleted<S> {
    fn payload(&self) -> usize {
        let r = &self.response;
        black_box((
            &self.ty,
            self.sequence_number,
            &r.id,
            &r.object,
            &r.status,
            r.created_at,
        ));
        black_box((
            &r.model,
            r.usage
                .as_ref()
                .map(|u| (u.input_tokens, u.output_tokens, u.total_tokens)),
        ));
        r.output.as_ref().map_or(0, |o| o.iter().map(t_item).sum())
    }
}

impl<S: AsRef<str>> Typed<S> for TGemini<S> {
    fn payload(&self) -> usize {
        black_box((&self.model_version, &self.response_id));
        black_box(self.usage_metadata.as_ref().map(|u| {
            (
                u.prompt_token_count,
                u.candidates_token_count,
                u.total_token_count,
            )
        }));
        let cands = self.candidates.as_ref().map_or(&[][..], Vec::as_slice);
        cands
            .iter()
            .map(|c| {
                black_box((&c.finish_reason, c.index));
                let Some(content) = &c.content else { return 0 };
                black_box(&content.role);
                content.parts.as_ref().map_or(0, |ps| {
                    ps.iter()
                        .map(|p| {
                            black_box((p.thought, &p.thought_signature));
                            t_len(&p.text)
                        })
                        .sum()
                })
            })
            .sum()
    }
}

// ---------------------------------------------------------------------------
// Readers for ssekit's views and simd-json's values

fn ss_unescape(s: Option<JsonStr<'_>>, buf: &mut String) -> usize {
    let Some(s) = s else { return 0 };
    buf.clear();
    s.unescape_into(buf);
    buf.len()
}

fn ss_parts(parts: Option<ssekit::gemini::List<'_, ContentPart<'_>>>, buf: &mut String) -> usize {
    let Some(parts) = parts else { return 0 };
    parts
        .iter()
        .map(|p| match p.expect("part") {
            ContentPart::OutputText(t) => ss_unescape(t.text, buf),
            ContentPart::SummaryText(t) => ss_unescape(t.text, buf),
            _ => 0,
        })
        .sum()
}

fn ss_item(item: &OutputItem<'_>, buf: &mut String) -> usize {
    match item {
        OutputItem::FunctionCall(c) => {
            black_box((c.id, c.call_id, c.name, c.status));
            ss_unescape(c.arguments, buf)
        }
        OutputItem::Reasoning(r) => {
            black_box((r.id, r.status));
            ss_unescape(r.encrypted_content, buf) + ss_parts(r.summary, buf)
        }
        OutputItem::Message(m) => {
            black_box((m.id, m.role, m.status));
            ss_parts(m.content, buf)
        }
        _ => 0,
    }
}

fn ss_read(kind: Kind, data: &str, buf: &mut String) -> usize {
    if kind == Kind::Gemini {
        let GeminiEvent::Response(r) = GeminiEvent::parse(data).expect("decode") else {
            panic!("not a response")
        };
        black_box((r.model_version, r.response_id));
        let Some(cands) = r.candidates else { return 0 };
        return cands
            .iter()
            .map(|c| {
                let c = c.expect("candidate");
                black_box((c.finish_reason, c.index));
                let Some(parts) = c.content.and_then(|c| c.parts) else {
                    return 0;
                };
                parts
                    .iter()
                    .map(|p| {
                        let p = p.expect("part");
                        black_box((p.thought, p.thought_signature));
                        ss_unescape(p.text, buf)
                    })
                    .sum()
            })
            .sum();
    }
    match ResponsesEvent::parse(data).expect("decode") {
        ResponsesEvent::OutputItemDone(e) => {
            black_box((e.output_index, e.sequence_number));
            ss_item(&e.item.get().expect("item"), buf)
        }
        ResponsesEvent::ResponseCompleted(e) => {
            let r = e.response.get().expect("response");
            black_box((r.id, r.object, r.status, r.created_at, r.model, r.usage));
            r.output.map_or(0, |o| {
                o.iter().map(|it| ss_item(&it.expect("item"), buf)).sum()
            })
        }
        _ => panic!("unexpected event"),
    }
}

fn tape_len(v: Option<simd_json::tape::Value<'_, '_>>) -> usize {
    v.and_then(|v| v.as_str().map(str::len)).unwrap_or(0)
}

fn tape_texts(v: Option<simd_json::tape::Value<'_, '_>>) -> usize {
    let Some(a) = v.and_then(|v| v.as_array()) else {
        return 0;
    };
    a.iter().map(|p| tape_len(p.get("text"))).sum()
}

fn tape_item(it: simd_json::tape::Value<'_, '_>) -> usize {
    black_box((tape_len(it.get("type")), tape_len(it.get("id"))));
    tape_len(it.get("arguments"))
        + tape_len(it.get("encrypted_content"))
        + tape_texts(it.get("summary"))
        + tape_texts(it.get("content"))
}

fn tape_read(kind: Kind, v: simd_json::tape::Value<'_, '_>) -> usize {
    match kind {
        Kind::ItemDone => {
            black_box((
                tape_len(v.get("type")),
                v.get("output_index").and_then(|n| n.as_u64()),
            ));
            tape_item(v.get("item").expect("item"))
        }
        Kind::Completed => {
            black_box(tape_len(v.get("type")));
            let r = v.get("response").expect("response");
            black_box((tape_len(r.get("id")), tape_len(r.get("model"))));
            let o = r.get("output").and_then(|o| o.as_array()).expect("output");
            o.iter().map(tape_item).sum()
        }
        Kind::Gemini => {
            let c = v
                .get("candidates")
                .and_then(|c| c.as_array())
                .expect("candidates");
            c.iter()
                .map(|c| tape_texts(c.get("content").and_then(|c| c.get("parts"))))
                .sum()
        }
    }
}

fn dom_len<V: ValueAsScalar>(v: Option<&V>) -> usize {
    v.and_then(|v| v.as_str().map(str::len)).unwrap_or(0)
}

/// Readers of the payload from a simd-json DOM (borrowed or owned value).
macro_rules! dom_reader {
    ($name:ident, $v:ty) => {
        fn $name(kind: Kind, v: &$v) -> usize {
            fn texts(v: Option<&$v>) -> usize {
                v.and_then(|v| v.as_array())
                    .map_or(0, |a| a.iter().map(|p| dom_len(p.get("text"))).sum())
            }
            fn item(it: &$v) -> usize {
                black_box((dom_len(it.get("type")), dom_len(it.get("id"))));
                dom_len(it.get("arguments"))
                    + dom_len(it.get("encrypted_content"))
                    + texts(it.get("summary"))
                    + texts(it.get("content"))
            }
            match kind {
                Kind::ItemDone => {
                    black_box((
                        dom_len(v.get("type")),
                        v.get("output_index").and_then(|n| n.as_u64()),
                    ));
                    item(v.get("item").expect("item"))
                }
                Kind::Completed => {
                    black_box(dom_len(v.get("type")));
                    let r = v.get("response").expect("response");
                    black_box((dom_len(r.get("id")), dom_len(r.get("model"))));
                    let o = r.get("output").and_then(|o| o.as_array()).expect("output");
                    o.iter().map(item).sum()
                }
                Kind::Gemini => {
                    let c = v
                        .get("candidates")
                        .and_then(|c| c.as_array())
                        .expect("candidates");
                    c.iter()
                        .map(|c| texts(c.get("content").and_then(|c| c.get("parts"))))
                        .sum()
                }
            }
        }
    };
}

dom_reader!(borrowed_read, simd_json::BorrowedValue<'_>);
dom_reader!(owned_read, simd_json::OwnedValue);

// ---------------------------------------------------------------------------
// Engines

const ENGINES: &[&str] = &[
    "ssekit-validate",
    "ssekit-parse",
    "ssekit-read",
    "serde_json-raw",
    "serde_json-typed",
    "simd-tape",
    "simd-borrowed",
    "simd-serde",
    "ssekit-owned",
    #[cfg(feature = "serde")]
    "ssekit-owned-sj",
    #[cfg(feature = "serde")]
    "ssekit-owned-simd",
    "serde_json-owned",
    "simd-owned",
    "simd-owned-value",
];

/// Engines on the owned path (compared with `ssekit-owned`).
fn owned(engine: &str) -> bool {
    engine.contains("owned")
}

struct Scratch {
    buf: Vec<u8>,
    buffers: simd_json::Buffers,
    spare: simd_json::Tape<'static>,
    text: String,
}

impl Scratch {
    fn new() -> Self {
        Self {
            buf: Vec::with_capacity(256 << 10),
            buffers: simd_json::Buffers::new(256 << 10),
            spare: simd_json::Tape(Vec::with_capacity(64 << 10)),
            text: String::with_capacity(256 << 10),
        }
    }
}

/// Typed decoding with serde_json or simd-json (serde), into `T<S>`.
fn typed<'a, T: Deserialize<'a> + Typed<S>, S>(
    simd: Option<(&'a mut Vec<u8>, &mut simd_json::Buffers)>,
    data: &'a str,
) -> usize {
    let t: T = match simd {
        Some((buf, buffers)) => {
            simd_json::serde::from_slice_with_buffers(buf, buffers).expect("simd-json serde")
        }
        None => serde_json::from_str(data).expect("serde_json"),
    };
    t.payload()
}

fn typed_kind<'a, S: AsRef<str> + Deserialize<'a>>(
    kind: Kind,
    simd: Option<(&'a mut Vec<u8>, &mut simd_json::Buffers)>,
    data: &'a str,
) -> usize {
    match kind {
        Kind::ItemDone => typed::<TItemDone<S>, S>(simd, data),
        Kind::Completed => typed::<TCompleted<S>, S>(simd, data),
        Kind::Gemini => typed::<TGemini<S>, S>(simd, data),
    }
}

/// Decodes one event with `engine`; returns what the engine checks: the
/// payload's unescaped length, or (validation and the owned forms) the
/// length of the JSON text it accepted.
#[inline(always)]
fn decode(engine: &str, p: &Payload, s: &mut Scratch) -> usize {
    let data = p.data.as_str();
    match engine {
        "ssekit-validate" => RawJson::parse(data).expect("valid").get().len(),
        "ssekit-parse" => {
            if p.kind == Kind::Gemini {
                let e = GeminiEvent::parse(data).expect("decode");
                matches!(e, GeminiEvent::Response(_))
                    .then_some(data.len())
                    .unwrap_or(0)
            } else {
                let e = ResponsesEvent::parse(data).expect("decode");
                e.validate().expect("payloads");
                e.raw().expect("raw").get().len()
            }
        }
        "ssekit-read" => ss_read(p.kind, data, &mut s.text),
        "serde_json-raw" => {
            let raw: &serde_json::value::RawValue = serde_json::from_str(data).expect("valid");
            raw.get().len()
        }
        "serde_json-typed" => typed_kind::<BStr<'_>>(p.kind, None, data),
        "simd-tape" => {
            s.buf.clear();
            s.buf.extend_from_slice(data.as_bytes());
            s.buf.resize(data.len() + simd_json::INPUT_PADDING, 0);
            let mut tape = std::mem::replace(&mut s.spare, simd_json::Tape(Vec::new())).reset();
            simd_json::fill_tape_padded(&mut s.buf, data.len(), &mut s.buffers, &mut tape)
                .expect("valid");
            let n = tape_read(p.kind, tape.as_value());
            s.spare = tape.reset();
            n
        }
        "simd-borrowed" => {
            s.buf.clear();
            s.buf.extend_from_slice(data.as_bytes());
            let v = simd_json::to_borrowed_value_with_buffers(&mut s.buf, &mut s.buffers)
                .expect("valid");
            borrowed_read(p.kind, &v)
        }
        "simd-serde" => {
            let Scratch { buf, buffers, .. } = s;
            buf.clear();
            buf.extend_from_slice(data.as_bytes());
            typed_kind::<BStr<'_>>(p.kind, Some((buf, buffers)), "")
        }
        "ssekit-owned" => {
            if p.kind == Kind::Gemini {
                black_box(OwnedGeminiEvent::parse(data).expect("decode"))
                    .as_str()
                    .len()
            } else {
                black_box(OwnedResponsesEvent::parse(data).expect("decode"))
                    .as_str()
                    .len()
            }
        }
        #[cfg(feature = "serde")]
        "ssekit-owned-sj" => {
            if p.kind == Kind::Gemini {
                let e: OwnedGeminiEvent = serde_json::from_str(data).expect("decode");
                black_box(e).as_str().len()
            } else {
                let e: OwnedResponsesEvent = serde_json::from_str(data).expect("decode");
                black_box(e).as_str().len()
            }
        }
        #[cfg(feature = "serde")]
        "ssekit-owned-simd" => {
            let Scratch { buf, buffers, .. } = s;
            buf.clear();
            buf.extend_from_slice(data.as_bytes());
            if p.kind == Kind::Gemini {
                let e: OwnedGeminiEvent =
                    simd_json::serde::from_slice_with_buffers(buf, buffers).expect("decode");
                black_box(e).as_str().len()
            } else {
                let e: OwnedResponsesEvent =
                    simd_json::serde::from_slice_with_buffers(buf, buffers).expect("decode");
                black_box(e).as_str().len()
            }
        }
        "serde_json-owned" => typed_kind::<String>(p.kind, None, data),
        "simd-owned" => {
            let Scratch { buf, buffers, .. } = s;
            buf.clear();
            buf.extend_from_slice(data.as_bytes());
            typed_kind::<String>(p.kind, Some((buf, buffers)), "")
        }
        "simd-owned-value" => {
            let Scratch { buf, buffers, .. } = s;
            buf.clear();
            buf.extend_from_slice(data.as_bytes());
            let v = simd_json::to_owned_value_with_buffers(buf, buffers).expect("valid");
            owned_read(p.kind, &v)
        }
        other => panic!("unknown engine {other}; one of {ENGINES:?}"),
    }
}

/// What `engine` must return for `p`.
fn expected(engine: &str, p: &Payload) -> usize {
    match engine {
        "ssekit-validate" | "ssekit-parse" | "serde_json-raw" => p.data.len(),
        // The owned forms keep the JSON text; via serde it is written again
        // (the same text here: no whitespace, no escapes that differ).
        e if e.starts_with("ssekit-owned") => p.data.len(),
        _ => p.expect,
    }
}

/// `passes` events with one engine (the callgrind target).
#[inline(never)]
fn run(engine: &str, p: &Payload, s: &mut Scratch, passes: usize) -> usize {
    let want = expected(engine, p);
    for _ in 0..passes {
        assert_eq!(
            decode(engine, black_box(p), s),
            want,
            "{engine} on {}",
            p.name
        );
    }
    passes
}

// ---------------------------------------------------------------------------
// The driver

fn main() {
    let payloads = payloads();
    let mut scratch = Scratch::new();

    if let Ok(only) = std::env::var("SSEKIT_LARGE_ONLY") {
        let mut it = only.split('/');
        let engine = it.next().expect("engine");
        let name = it.next().expect("payload");
        let passes = it.next().map_or(200, |n| n.parse().expect("passes"));
        let p = payloads
            .iter()
            .find(|p| p.name == name)
            .expect("payload name");
        let n = run(engine, p, &mut scratch, passes);
        println!("{engine} on {name}: {n} events of {} bytes", p.data.len());
        return;
    }
    // Every engine agrees with the reference once, before anything is timed.
    for p in &payloads {
        for e in ENGINES {
            run(e, p, &mut scratch, 1);
        }
    }
    for p in &payloads {
        println!(
            "{}: {} bytes of JSON, payload {} bytes unescaped",
            p.name,
            p.data.len(),
            p.expect
        );
    }

    let started = SystemTime::now();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
        .configure_from_args();
    {
        let mut g = c.benchmark_group("large");
        for p in &payloads {
            g.throughput(Throughput::Bytes(p.data.len() as u64));
            for e in ENGINES {
                let want = expected(e, p);
                g.bench_with_input(BenchmarkId::new(*e, p.name), p, |b, p| {
                    b.iter(|| assert_eq!(decode(e, black_box(p), &mut scratch), want));
                });
            }
        }
        g.finish();
    }
    c.final_summary();

    let rounds: usize = std::env::var("SSEKIT_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(7);
    let mut out = String::new();
    writeln!(
        out,
        "| payload | bytes | engine | ns/event (interleaved best of {rounds}) | MB/s | ÷ ssekit | criterion median ns | ÷ ssekit |"
    )
    .expect("write");
    writeln!(
        out,
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |"
    )
    .expect("write");
    let dir = criterion_dir();
    for p in &payloads {
        // Enough events per turn for ~5 ms of ssekit-parse.
        let t = Instant::now();
        run("ssekit-parse", p, &mut scratch, 10);
        let per = t.elapsed().as_secs_f64() / 10.0;
        let n = ((5e-3 / per) as usize).clamp(5, 100_000);
        let mut best = vec![f64::INFINITY; ENGINES.len()];
        for _ in 0..rounds {
            for (i, e) in ENGINES.iter().enumerate() {
                let t = Instant::now();
                run(e, p, &mut scratch, n);
                best[i] = best[i].min(t.elapsed().as_secs_f64() / n as f64);
            }
        }
        let base = |e: &str| {
            if owned(e) {
                "ssekit-owned"
            } else {
                "ssekit-parse"
            }
        };
        let idx = |e: &str| ENGINES.iter().position(|x| *x == e).expect("engine");
        for (i, e) in ENGINES.iter().enumerate() {
            let med = median(&dir, started, e, p.name);
            let med_base = median(&dir, started, base(e), p.name);
            let (m, mr) = match (med, med_base) {
                (Some(m), Some(b)) => (format!("{:.0}", m), format!("{:.2}×", m / b)),
                _ => ("–".into(), "–".into()),
            };
            writeln!(
                out,
                "| {} | {} | {e} | {:.0} | {:.0} | {:.2}× | {m} | {mr} |",
                p.name,
                p.data.len(),
                best[i] * 1e9,
                p.data.len() as f64 / best[i] / 1e6,
                best[i] / best[idx(base(e))],
            )
            .expect("write");
        }
    }
    println!("\n{out}");
    let _ = std::fs::write(dir.join("large-payloads-summary.md"), &out);
}

fn criterion_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir).join("criterion");
    }
    let exe = std::env::current_exe().expect("current exe");
    exe.ancestors()
        .nth(3)
        .map(|t| t.join("criterion"))
        .unwrap_or_else(|| PathBuf::from("target/criterion"))
}

/// Criterion's median ns per event of `large/engine/payload`, if measured
/// in this run.
fn median(dir: &std::path::Path, since: SystemTime, engine: &str, payload: &str) -> Option<f64> {
    let path = dir
        .join("large")
        .join(engine)
        .join(payload)
        .join("new")
        .join("estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    v.get("median")?.get("point_estimate")?.as_f64()
}
