//! The official clients are the judge: each recorded stream, bridged into
//! another dialect (or served as recorded, to its own dialect), is served
//! over loopback HTTP to the official client libraries of the target
//! dialect, and what each client assembled (text, reasoning, tool calls,
//! usage, stop reason) must equal the upstream's answer as the crate's
//! accumulator of the upstream dialect assembles it.
//!
//! A direction is one row of [`DIRECTIONS`]; a client is one row of
//! [`CLIENTS`]; a difference that is understood is one row of [`KNOWN`],
//! with its reason, printed when the test runs (an entry that no longer
//! matches anything fails, so the table stays true).
//!
//! The clients are pinned: `tests/clients/node` (`npm ci`) and
//! `tests/clients/python/requirements.txt` (into the venv
//! `tests/clients/.venv`); `.ci/run` installs both. Under `CI=true` a missing
//! runtime or package is a failure; elsewhere the test says loudly on
//! standard error what it skipped. The whole matrix is written to
//! `target/tmp/clients-matrix.md`.
//!
//! Environment: `SSEKIT_CLIENTS_FILTER=<text>` runs only the streams whose
//! name contains it; `SSEKIT_CLIENTS_DUMP=<dir>` writes each translated
//! stream there; `SSEKIT_CLIENTS_NODE` and `SSEKIT_CLIENTS_PYTHON` name the
//! interpreters (default `node`, and the venv's `python`).
//!
//! Each client runs as one process over all its cases (two processes at a
//! time), each case bounded by a request timeout and each process by
//! [`harness::run_timeout`]; the server answers on 127.0.0.1 only and at
//! most twice the number of cases.

#[path = "../support/corpus.rs"]
mod corpus;

mod answer;
mod final_answer;
mod harness;

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::Path;

use answer::{diff, from_shape, upstream, Answer, Call, Dialect, Upstream};
use harness::{run_client, Runtime, Server};
use ssekit::accumulate::Outcome;
use ssekit::bridge::{
    translate, AnthropicToResponses, Bridge, BridgeConfig, BytesBridge, ChatToResponses,
    GeminiToResponses, ResponsesToChat,
};
use ssekit::turn::Dialect as TurnDialect;
use ssekit::Bytes;

/// A translated stream, and the bridge's error when it ended the stream
/// early (the stream then ends as its dialect ends a failed one).
type Translated = (Vec<u8>, Option<String>);

/// One direction: streams of `from`, translated by `translate` (named
/// `via`), read by the clients of `to`.
struct Direction {
    from: Dialect,
    via: &'static str,
    to: Dialect,
    translate: fn(&[u8]) -> Translated,
}

/// The twelve directions, and each dialect as recorded
/// (which checks the harness against the upstream's own clients). A new
/// writer is one row here.
const DIRECTIONS: &[Direction] = &[
    Direction {
        from: Dialect::Chat,
        via: "ChatToResponses",
        to: Dialect::Responses,
        translate: chat_to_responses,
    },
    Direction {
        from: Dialect::Anthropic,
        via: "AnthropicToResponses",
        to: Dialect::Responses,
        translate: anthropic_to_responses,
    },
    Direction {
        from: Dialect::Gemini,
        via: "GeminiToResponses",
        to: Dialect::Responses,
        translate: gemini_to_responses,
    },
    Direction {
        from: Dialect::Responses,
        via: "ResponsesToChat",
        to: Dialect::Chat,
        translate: responses_to_chat,
    },
    Direction {
        from: Dialect::Responses,
        via: "ResponsesToAnthropic",
        to: Dialect::Anthropic,
        translate: responses_to_anthropic,
    },
    Direction {
        from: Dialect::Chat,
        via: "ChatToAnthropic",
        to: Dialect::Anthropic,
        translate: chat_to_anthropic,
    },
    Direction {
        from: Dialect::Gemini,
        via: "GeminiToAnthropic",
        to: Dialect::Anthropic,
        translate: gemini_to_anthropic,
    },
    Direction {
        from: Dialect::Responses,
        via: "ResponsesToGemini",
        to: Dialect::Gemini,
        translate: responses_to_gemini,
    },
    Direction {
        from: Dialect::Chat,
        via: "ChatToGemini",
        to: Dialect::Gemini,
        translate: chat_to_gemini,
    },
    Direction {
        from: Dialect::Anthropic,
        via: "AnthropicToGemini",
        to: Dialect::Gemini,
        translate: anthropic_to_gemini,
    },
    Direction {
        from: Dialect::Anthropic,
        via: "AnthropicToChat",
        to: Dialect::Chat,
        translate: anthropic_to_chat,
    },
    Direction {
        from: Dialect::Gemini,
        via: "GeminiToChat",
        to: Dialect::Chat,
        translate: gemini_to_chat,
    },
    Direction {
        from: Dialect::Responses,
        via: "ResponsesToResponses",
        to: Dialect::Responses,
        translate: responses_to_responses,
    },
    Direction {
        from: Dialect::Anthropic,
        via: "AnthropicToAnthropic",
        to: Dialect::Anthropic,
        translate: anthropic_to_anthropic,
    },
    Direction {
        from: Dialect::Responses,
        via: "raw",
        to: Dialect::Responses,
        translate: raw,
    },
    Direction {
        from: Dialect::Chat,
        via: "raw",
        to: Dialect::Chat,
        translate: raw,
    },
    Direction {
        from: Dialect::Anthropic,
        via: "raw",
        to: Dialect::Anthropic,
        translate: raw,
    },
    Direction {
        from: Dialect::Gemini,
        via: "raw",
        to: Dialect::Gemini,
        translate: raw,
    },
];

fn bridge<B: Bridge>(b: B, input: &[u8]) -> Translated {
    let mut bridge = BytesBridge::new(b);
    let mut out = Vec::new();
    let mut error = bridge
        .feed(Bytes::copy_from_slice(input))
        .err()
        .map(|e| e.to_string());
    out.extend_from_slice(&bridge.take());
    if let Err(e) = bridge.finish() {
        error.get_or_insert(e.to_string());
    }
    out.extend_from_slice(&bridge.take());
    (out, error)
}

fn chat_to_responses(input: &[u8]) -> Translated {
    bridge(ChatToResponses::new(), input)
}

fn anthropic_to_responses(input: &[u8]) -> Translated {
    bridge(AnthropicToResponses::new(), input)
}

fn gemini_to_responses(input: &[u8]) -> Translated {
    bridge(GeminiToResponses::new(), input)
}

fn responses_to_chat(input: &[u8]) -> Translated {
    bridge(ResponsesToChat::new(), input)
}

/// The bridge picked at run time, as `ssekit bridge --from --to` picks it.
fn any(from: TurnDialect, to: TurnDialect, input: &[u8]) -> Translated {
    bridge(translate(from, to, &BridgeConfig::default()), input)
}

fn responses_to_anthropic(input: &[u8]) -> Translated {
    any(TurnDialect::Responses, TurnDialect::Anthropic, input)
}

fn chat_to_anthropic(input: &[u8]) -> Translated {
    any(TurnDialect::Chat, TurnDialect::Anthropic, input)
}

fn gemini_to_anthropic(input: &[u8]) -> Translated {
    any(TurnDialect::Gemini, TurnDialect::Anthropic, input)
}

fn responses_to_gemini(input: &[u8]) -> Translated {
    any(TurnDialect::Responses, TurnDialect::Gemini, input)
}

fn chat_to_gemini(input: &[u8]) -> Translated {
    any(TurnDialect::Chat, TurnDialect::Gemini, input)
}

fn anthropic_to_gemini(input: &[u8]) -> Translated {
    any(TurnDialect::Anthropic, TurnDialect::Gemini, input)
}

fn anthropic_to_chat(input: &[u8]) -> Translated {
    any(TurnDialect::Anthropic, TurnDialect::Chat, input)
}

fn gemini_to_chat(input: &[u8]) -> Translated {
    any(TurnDialect::Gemini, TurnDialect::Chat, input)
}

/// Through the turn model into the same dialect: hosted tool items are
/// written as the upstream gave them.
fn responses_to_responses(input: &[u8]) -> Translated {
    any(TurnDialect::Responses, TurnDialect::Responses, input)
}

fn anthropic_to_anthropic(input: &[u8]) -> Translated {
    any(TurnDialect::Anthropic, TurnDialect::Anthropic, input)
}

fn raw(input: &[u8]) -> Translated {
    (input.to_vec(), None)
}

/// One official client: its name in its judge script, its runtime, the
/// dialect it reads.
struct Client {
    name: &'static str,
    runtime: Runtime,
    dialect: Dialect,
}

const CLIENTS: &[Client] = &[
    Client {
        name: "openai-py.responses.create",
        runtime: Runtime::Python,
        dialect: Dialect::Responses,
    },
    Client {
        name: "openai-py.responses.stream",
        runtime: Runtime::Python,
        dialect: Dialect::Responses,
    },
    Client {
        name: "openai-node.responses.stream",
        runtime: Runtime::Node,
        dialect: Dialect::Responses,
    },
    Client {
        name: "ai-sdk.openai.responses",
        runtime: Runtime::Node,
        dialect: Dialect::Responses,
    },
    Client {
        name: "openai-py.chat.stream",
        runtime: Runtime::Python,
        dialect: Dialect::Chat,
    },
    Client {
        name: "openai-node.chat.stream",
        runtime: Runtime::Node,
        dialect: Dialect::Chat,
    },
    Client {
        name: "ai-sdk.openai.chat",
        runtime: Runtime::Node,
        dialect: Dialect::Chat,
    },
    Client {
        name: "anthropic-py.messages.stream",
        runtime: Runtime::Python,
        dialect: Dialect::Anthropic,
    },
    Client {
        name: "anthropic-node.messages.stream",
        runtime: Runtime::Node,
        dialect: Dialect::Anthropic,
    },
    Client {
        name: "ai-sdk.anthropic",
        runtime: Runtime::Node,
        dialect: Dialect::Anthropic,
    },
    Client {
        name: "genai-py.generate_content_stream",
        runtime: Runtime::Python,
        dialect: Dialect::Gemini,
    },
    Client {
        name: "ai-sdk.google",
        runtime: Runtime::Node,
        dialect: Dialect::Gemini,
    },
];

/// The path each dialect's clients request, after the base URL.
fn request_path_ends(d: Dialect) -> &'static str {
    match d {
        Dialect::Responses => "/responses",
        Dialect::Chat => "/chat/completions",
        Dialect::Anthropic => "/v1/messages",
        Dialect::Gemini => ":streamGenerateContent?alt=sse",
    }
}

/// A difference that is understood: in `direction` (a `via` name, or `*`),
/// for streams whose tag contains `stream` (`*`: all; the tag is the
/// stream's name, ` stop=` its upstream stop reason, ` outcome=` how it
/// ended, and ` reasoning-parts` when its reasoning is made of several
/// Responses parts), read by clients
/// whose name starts with `client` (`*`: all), in `field` (`text`,
/// `reasoning`, `refusal`, `tools`, `usage`, `stop`, or `accepted` for a client that rejects the
/// stream), with why.
struct Known {
    /// A direction, several separated by `|`, or `*`.
    direction: &'static str,
    stream: &'static str,
    client: &'static str,
    field: &'static str,
    reason: &'static str,
}

const KNOWN: &[Known] = &[
    // The clients' own rules, seen on the recorded streams as well.
    Known {
        direction: "*",
        stream: "stop=content-filter",
        client: "openai-py.responses.stream",
        field: "accepted",
        reason: "get_final_response() raises unless the stream ends with response.completed; \
                 a blocked answer ends with response.incomplete (content_filter)",
    },
    Known {
        direction: "*",
        stream: "stop=content-filter",
        client: "openai-py.chat.stream",
        field: "accepted",
        reason: "get_final_completion() raises ContentFilterFinishReasonError on \
                 finish_reason content_filter",
    },
    // What a dialect cannot say.
    Known {
        direction: "ChatToAnthropic",
        stream: "refusal",
        client: "*",
        field: "text",
        reason: "Anthropic has no refusal block: the writer writes Chat's refusal as a \
                 text block (its stop_reason refusal is the API's own classifier stopping \
                 the turn, which this upstream did not say)",
    },
    Known {
        direction: "ChatToGemini",
        stream: "refusal",
        client: "*",
        field: "text",
        reason: "Gemini has no refusal part: the writer writes Chat's refusal as a text part",
    },
    Known {
        direction: "*",
        stream: "refusal",
        client: "ai-sdk.openai",
        field: "text",
        reason: "the AI SDK has no refusal part: it reports the refusal as text",
    },
    Known {
        direction: "*",
        stream: "refusal",
        client: "ai-sdk.openai",
        field: "stop",
        reason: "the AI SDK reports a refusal as finishReason content-filter",
    },
    Known {
        direction: "*",
        stream: "*",
        client: "openai-node.chat.stream",
        field: "reasoning",
        reason: "the Node chat stream helper keeps only the last fragment of a delta field \
                 it does not model (reasoning_content, reasoning): it assigns, not appends",
    },
    Known {
        direction: "*",
        stream: "*",
        client: "ai-sdk.openai.chat",
        field: "reasoning",
        reason: "@ai-sdk/openai .chat() does not read reasoning_content or reasoning \
                 (@ai-sdk/deepseek and @ai-sdk/openai-compatible do)",
    },
    Known {
        direction: "ResponsesToChat",
        stream: "reasoning-parts",
        client: "openai-py.chat.stream",
        field: "reasoning",
        reason: "Chat has one reasoning string: the bridge joins the Responses reasoning \
                 parts with a blank line, the neutral answer joins them with nothing",
    },
    // The recorded streams read by their own dialect's clients: what the
    // clients make of the providers' own streams.
    Known {
        direction: "raw",
        stream: "vercel-anthropic-compaction",
        client: "ai-sdk.anthropic",
        field: "text",
        reason: "the AI SDK reads a compaction block's summary as text",
    },
    Known {
        direction: "raw",
        stream: "vercel-anthropic-compaction",
        client: "ai-sdk.anthropic",
        field: "usage",
        reason: "the AI SDK adds up the usage of every iteration (the compaction's and the \
                 message's); the message's own usage counts the message only",
    },
    Known {
        direction: "raw",
        stream: "data/gemini/cut.sse",
        client: "*",
        field: "stop",
        reason: "Gemini has no end-of-stream event: a client cannot tell a cut stream \
                 from one that ended without a finish reason",
    },
    Known {
        direction: "raw",
        stream: "data/gemini/thinking-function-call.sse",
        client: "genai-py",
        field: "accepted",
        reason: "the hand-written stream's thoughtSignature is not valid base64, which \
                 google-genai checks (it types the field as bytes)",
    },
    Known {
        direction: "raw",
        stream: "data/gemini/two-candidates.sse",
        client: "ai-sdk.google",
        field: "text",
        reason: "@ai-sdk/google reads candidates[0] of each chunk whatever its index; this \
                 stream's second chunk lists candidate 1 first",
    },
    Known {
        direction: "raw",
        stream: "-responses-",
        client: "ai-sdk.openai.responses",
        field: "reasoning",
        reason: "@ai-sdk/openai .responses() reads reasoning summaries, not reasoning_text \
                 content parts",
    },
    Known {
        direction: "raw|ResponsesToResponses",
        stream: "-responses-",
        client: "ai-sdk.openai.responses",
        field: "tools",
        reason: "the AI SDK reports apply_patch, local_shell and shell calls (tools the \
                 client runs) as tool calls; the neutral answer counts function calls only",
    },
    Known {
        direction: "raw|ResponsesToResponses",
        stream: "-responses-",
        client: "ai-sdk.openai.responses",
        field: "stop",
        reason: "with those calls counted as tool calls, the AI SDK's finish reason is \
                 tool-calls",
    },
    Known {
        direction: "raw",
        stream: "-responses-",
        client: "openai-node.responses.stream",
        field: "accepted",
        reason: "the Node stream helper throws on event types it does not know \
                 (apply_patch_call_operation_diff, shell_call_command), on a delta for an \
                 output index it has not seen (the phase recording keeps only some events) \
                 and on a first event other than response.created (a resumed background \
                 stream)",
    },
    Known {
        direction: "raw",
        stream: "background-resumed",
        client: "openai-py.responses.stream",
        field: "accepted",
        reason: "a resumed background stream starts after response.created, which the \
                 stream helper requires first",
    },
    Known {
        direction: "raw",
        stream: "vercel-responses-phase-unicode-escapes",
        client: "*",
        field: "text",
        reason: "the recording keeps only some of its output_text deltas; the clients that \
                 join deltas have part of the text",
    },
    Known {
        direction: "raw",
        stream: "-chat-",
        client: "openai-py.chat.stream",
        field: "accepted",
        reason: "the Python chat stream helper asserts on a chunk without object \
                 (langchain glm4 recording)",
    },
    Known {
        direction: "raw",
        stream: "openaipython-chat-multiple-choices",
        client: "ai-sdk.openai.chat",
        field: "text",
        reason: "@ai-sdk/openai .chat() joins the deltas of every choice into one text",
    },
    Known {
        direction: "raw",
        stream: "pydanticai-chat-moderation",
        client: "openai-",
        field: "usage",
        reason: "the stream helpers set usage from every chunk in turn; this stream's last \
                 chunk (moderation) says usage: null, which erases the counts",
    },
    Known {
        direction: "raw",
        stream: "pydanticai-chat-openrouter-comments-error",
        client: "ai-sdk.openai.chat",
        field: "stop",
        reason: "the chunk before the error says finish_reason length, which the AI SDK \
                 reports; the accumulator reports the error",
    },
    Known {
        direction: "raw",
        stream: "data/chat/mistral-thinking-parts",
        client: "*",
        field: "text",
        reason: "Mistral's content is a list of parts, not the string the SDKs model",
    },
    Known {
        direction: "raw",
        stream: "data/chat/mistral-thinking-parts",
        client: "openai-py.chat.stream",
        field: "reasoning",
        reason: "Mistral's thinking is a content part the SDK does not read as reasoning",
    },
    Known {
        direction: "raw",
        stream: "data/chat/mistral-thinking-parts",
        client: "ai-sdk.openai.chat",
        field: "accepted",
        reason: "Mistral's list content fails the AI SDK's chunk schema",
    },
    Known {
        direction: "raw|ResponsesToResponses",
        stream: "openaidotnet-responses-mcp",
        client: "ai-sdk.openai.responses",
        field: "accepted",
        reason: "@ai-sdk/openai validates each event against its own schemas, which have \
                 no mcp_call item",
    },
    Known {
        direction: "raw",
        stream: "data/chat/no-choices.sse",
        client: "*",
        field: "accepted",
        reason: "a chunk without choices (this provider's usage chunk) fails every chat \
                 client: KeyError, \"chunk.choices is not iterable\", type validation",
    },
]; // KNOWN

impl Known {
    fn matches(&self, via: &str, stream: &str, client: &str, field: &str) -> bool {
        (self.direction == "*" || self.direction.split('|').any(|d| d == via))
            && (self.stream == "*" || stream.contains(self.stream))
            && (self.client == "*" || client.starts_with(self.client))
            && self.field == field
    }
}

/// The dialect of a recorded stream, from its name (`{source}-{dialect}-…`)
/// or its directory (`tests/data/{dialect}/`).
fn dialect_of(name: &str) -> Option<Dialect> {
    [
        Dialect::Responses,
        Dialect::Chat,
        Dialect::Anthropic,
        Dialect::Gemini,
    ]
    .into_iter()
    .find(|d| {
        name.contains(&format!("-{}-", d.name()))
            || name.starts_with(&format!("data/{}/", d.name()))
    })
}

/// Every stream: the shared corpus (when present) and `tests/data`.
fn streams() -> Vec<(String, Dialect, Vec<u8>)> {
    let mut out = Vec::new();
    if let Some(dir) = corpus::corpus_dir() {
        for (name, bytes) in corpus::sse_files(&dir) {
            if let Some(d) = dialect_of(&name) {
                out.push((name, d, bytes));
            }
        }
    }
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for sub in ["chat", "gemini"] {
        for (name, bytes) in corpus::sse_files(&data.join(sub)) {
            let name = format!("data/{sub}/{name}");
            if let Some(d) = dialect_of(&name) {
                out.push((name, d, bytes));
            }
        }
    }
    out
}

/// Writes to the terminal's standard error, which `cargo test` does not
/// capture.
fn loud(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// One case: a stream, in a direction, read by a client.
struct Case {
    id: String,
    direction: usize,
    stream: usize,
    client: usize,
}

/// How a case went.
/// An accepted reply's answer against the upstream's: each field that
/// differs, what differs, and the reason `known` gives for it; one without
/// a reason is also a failure.
pub(crate) fn differences(
    reply: &harness::Reply,
    want: &Answer,
    mut known: impl FnMut(&'static str) -> Option<&'static str>,
    label: &str,
    failures: &mut Vec<String>,
) -> Vec<(&'static str, String, Option<&'static str>)> {
    let got = reply
        .shape
        .as_deref()
        .and_then(|s| from_shape(s, &reply.value))
        .unwrap_or_default();
    let mut out = Vec::new();
    for (field, what) in diff(want, &got) {
        let reason = known(field);
        if reason.is_none() {
            failures.push(format!("{label}: {field} differs: {what}"));
        }
        out.push((field, what, reason));
    }
    out
}

enum Verdict {
    Equal,
    /// Accepted, with differences: each field, what differs, and the reason
    /// when it is known.
    Differs(Vec<(&'static str, String, Option<&'static str>)>),
    /// Rejected: the client's error, and the reason when it is expected.
    Rejected(String, Option<String>),
}

#[test]
fn official_clients_read_every_direction() {
    let ci = std::env::var("CI").as_deref() == Ok("true");
    // Runtimes.
    let mut commands = HashMap::new();
    let mut skipped = Vec::new();
    for rt in [Runtime::Node, Runtime::Python] {
        match rt.command() {
            Ok(cmd) => {
                commands.insert(rt, cmd);
            }
            Err(why) if ci => panic!("CI=true and the {} clients cannot run: {why}", rt.name()),
            Err(why) => skipped.push(format!("{} clients: {why}", rt.name())),
        }
    }
    for s in &skipped {
        loud(&format!(
            "SKIPPED (official clients): {s}; their checks did not run. \
             Install them as .ci/run does (its clients_install step)."
        ));
    }
    if commands.is_empty() {
        return;
    }

    // SSEKIT_CLIENTS_FILTER=<text>: only the streams whose name contains it.
    let filter = std::env::var("SSEKIT_CLIENTS_FILTER").unwrap_or_default();
    let streams: Vec<_> = streams()
        .into_iter()
        .filter(|(name, _, _)| name.contains(&filter))
        .collect();
    // SSEKIT_CLIENTS_DUMP=<dir>: each translated stream is written there.
    let dump = std::env::var_os("SSEKIT_CLIENTS_DUMP").map(std::path::PathBuf::from);
    let uppers: Vec<Upstream> = streams.iter().map(|(_, d, b)| upstream(*d, b)).collect();
    // Translations, once per (direction, stream).
    let mut bodies = HashMap::new();
    let mut translated: BTreeMap<(usize, usize), (Bytes, Option<String>)> = BTreeMap::new();
    // Items outside the neutral answer: the upstream's, and the written
    // stream's as the target dialect's accumulator reads it.
    let mut others: BTreeMap<(usize, usize), (Vec<String>, Vec<String>)> = BTreeMap::new();
    let mut cases = Vec::new();
    for (di, dir) in DIRECTIONS.iter().enumerate() {
        for (si, (_, d, bytes)) in streams.iter().enumerate() {
            if *d != dir.from {
                continue;
            }
            let (out, err) = (dir.translate)(bytes);
            let out = Bytes::from(out);
            if let Some(dump) = &dump {
                let file = format!("{}.{}.sse", dir.via, streams[si].0.replace('/', "_"));
                let _ = std::fs::create_dir_all(dump);
                let _ = std::fs::write(dump.join(file), &out);
            }
            others.insert(
                (di, si),
                (
                    uppers[si].other_items.clone(),
                    upstream(dir.to, &out).other_items,
                ),
            );
            translated.insert((di, si), (out.clone(), err));
            for (ci, client) in CLIENTS.iter().enumerate() {
                if client.dialect != dir.to || !commands.contains_key(&client.runtime) {
                    continue;
                }
                let id = format!("d{di}s{si}c{ci}");
                bodies.insert(id.clone(), out.clone());
                cases.push(Case {
                    id,
                    direction: di,
                    stream: si,
                    client: ci,
                });
            }
        }
    }
    let server = Server::start(bodies, cases.len() * 2 + 16);
    let base = server.base.clone();

    // One process per client over all its cases; two at a time.
    let jobs: Vec<usize> = (0..CLIENTS.len())
        .filter(|&ci| cases.iter().any(|c| c.client == ci))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(HashMap::new());
    let stderrs = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&ci) = jobs.get(k) else { break };
                let client = &CLIENTS[ci];
                let (program, script) = &commands[&client.runtime];
                let mine: Vec<(String, String)> = cases
                    .iter()
                    .filter(|c| c.client == ci)
                    .map(|c| (c.id.clone(), format!("{base}/c/{}", c.id)))
                    .collect();
                let t0 = std::time::Instant::now();
                let (replies, err) = run_client(program, script, client.name, &mine);
                let took = t0.elapsed();
                stderrs
                    .lock()
                    .unwrap()
                    .push((client.name, mine.len(), took, replies.len(), err));
                results.lock().unwrap().extend(replies);
            });
        }
    });
    let requests = server.requests.lock().unwrap().clone();
    drop(server);
    let results = results.into_inner().unwrap();
    let mut by_id: HashMap<&str, Vec<&str>> = HashMap::new();
    for path in &requests {
        if let Some(id) = path.strip_prefix("/c/").and_then(|r| r.split('/').next()) {
            let key = cases.iter().find(|c| c.id == id).map(|c| c.id.as_str());
            if let Some(key) = key {
                by_id.entry(key).or_default().push(path);
            }
        }
    }

    // Verdicts.
    let mut failures = Vec::new();
    let mut used_known = vec![false; KNOWN.len()];
    let mut verdicts = Vec::new();
    for case in &cases {
        let dir = &DIRECTIONS[case.direction];
        let (stream, _, _) = &streams[case.stream];
        let client = &CLIENTS[case.client];
        let up = &uppers[case.stream];
        let label = format!("{} | {} | {}", dir.via, stream, client.name);
        // The client asked once, at its dialect's path.
        let paths = by_id.get(case.id.as_str()).cloned().unwrap_or_default();
        if paths.len() != 1 || !paths[0].ends_with(request_path_ends(client.dialect)) {
            failures.push(format!("{label}: requests {paths:?}"));
        }
        let tag = format!(
            "{stream} stop={} outcome={}{}",
            up.answer.stop.as_deref().unwrap_or("none"),
            up.outcome.as_str(),
            if up.reasoning_parts > 1 {
                " reasoning-parts"
            } else {
                ""
            }
        );
        let known = |field: &str| {
            KNOWN
                .iter()
                .position(|k| k.matches(dir.via, &tag, client.name, field))
        };
        let verdict = match results.get(&case.id) {
            Some(r) if r.ok => {
                let reason = |field| {
                    known(field).map(|k| {
                        used_known[k] = true;
                        KNOWN[k].reason
                    })
                };
                match differences(r, &up.answer, reason, &label, &mut failures) {
                    out if out.is_empty() => Verdict::Equal,
                    out => Verdict::Differs(out),
                }
            }
            other => {
                let error = match other {
                    Some(r) => r.error.clone().unwrap_or_default(),
                    None => "no reply (the client process ended or was killed)".to_owned(),
                };
                let reason = if up.outcome != Outcome::Completed {
                    Some(format!(
                        "the upstream stream itself ended {}",
                        up.outcome.as_str()
                    ))
                } else {
                    known("accepted").map(|k| {
                        used_known[k] = true;
                        KNOWN[k].reason.to_owned()
                    })
                };
                if reason.is_none() {
                    failures.push(format!("{label}: rejected: {error}"));
                }
                Verdict::Rejected(error, reason)
            }
        };
        verdicts.push((case, verdict));
    }
    let everything_ran = skipped.is_empty() && filter.is_empty() && corpus::corpus_dir().is_some();
    if everything_ran {
        for (k, used) in KNOWN.iter().zip(&used_known) {
            if !used {
                failures.push(format!(
                    "known difference no longer seen (remove it): {} | {} | {} | {}",
                    k.direction, k.stream, k.client, k.field
                ));
            }
        }
    }

    // The matrix.
    let mut md =
        String::from("| direction | stream | client | verdict |\n| --- | --- | --- | --- |\n");
    let mut summary: BTreeMap<(usize, usize), [usize; 4]> = BTreeMap::new();
    for (case, verdict) in &verdicts {
        let dir = &DIRECTIONS[case.direction];
        let (stream, _, _) = &streams[case.stream];
        let client = &CLIENTS[case.client];
        let mut bridge_note = match &translated[&(case.direction, case.stream)].1 {
            Some(e) => format!(" (bridge: {e})"),
            None => String::new(),
        };
        let (up_items, written_items) = &others[&(case.direction, case.stream)];
        if !up_items.is_empty() || !written_items.is_empty() {
            bridge_note.push_str(&format!(
                " (items outside the answer: upstream {up_items:?}, written {written_items:?})"
            ));
        }
        let s = summary.entry((case.direction, case.client)).or_default();
        s[0] += 1;
        let text = match verdict {
            Verdict::Equal => {
                s[1] += 1;
                "accepted, equal".to_owned()
            }
            Verdict::Differs(d) => {
                s[2] += 1;
                let parts: Vec<String> = d
                    .iter()
                    .map(|(f, what, reason)| match reason {
                        Some(r) => format!("{f}: {what} [expected: {r}]"),
                        None => format!("{f}: {what} [UNEXPECTED]"),
                    })
                    .collect();
                format!("accepted, differs: {}", parts.join("; "))
            }
            Verdict::Rejected(e, reason) => {
                s[3] += 1;
                match reason {
                    Some(r) => format!("rejected [expected: {r}]: {e}"),
                    None => format!("rejected [UNEXPECTED]: {e}"),
                }
            }
        };
        let esc = |s: &str| s.replace('|', "\\|").replace('\n', " ");
        md.push_str(&format!(
            "| {} → {} | {} | {} | {}{} |\n",
            esc(dir.via),
            dir.to.name(),
            esc(stream),
            client.name,
            esc(&text),
            esc(&bridge_note)
        ));
    }
    let mut report = String::from(
        "official clients: direction, client: cases, accepted and equal, accepted with \
         known or unexpected differences, rejected\n",
    );
    for ((di, ci), [n, eq, differs, rejected]) in &summary {
        let dir = &DIRECTIONS[*di];
        report.push_str(&format!(
            "  {:>20} {:>9} → {:<9} {:<34} {n:>3} cases: {eq:>3} equal, {differs:>3} differ, {rejected:>3} rejected\n",
            dir.via,
            dir.from.name(),
            dir.to.name(),
            CLIENTS[*ci].name,
        ));
    }
    for (name, n, took, answered, err) in stderrs.lock().unwrap().iter() {
        report.push_str(&format!("  {name}: {n} cases in {took:.1?}\n"));
        // A client's standard error matters when some of its cases got no
        // reply.
        let err = err.trim();
        if answered < n && !err.is_empty() {
            report.push_str(&format!(
                "    {} cases without a reply; stderr: {}\n",
                n - answered,
                err.chars().take(2000).collect::<String>()
            ));
        }
    }
    // The expected differences, one line per reason with its cases counted.
    let mut reasons: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (case, verdict) in &verdicts {
        let found: Vec<String> = match verdict {
            Verdict::Differs(d) => d
                .iter()
                .filter_map(|(f, _, r)| r.map(|r| format!("{f}: {r}")))
                .collect(),
            Verdict::Rejected(_, Some(r)) => vec![format!("rejected: {r}")],
            _ => Vec::new(),
        };
        for r in found {
            reasons.entry(r).or_default().push(format!(
                "{} {} {}",
                DIRECTIONS[case.direction].via, streams[case.stream].0, CLIENTS[case.client].name
            ));
        }
    }
    // What each direction does with the items outside the neutral answer.
    let mut carried: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for ((di, _), (up_items, written_items)) in &others {
        if !up_items.is_empty() {
            let c = carried.entry(*di).or_default();
            c.0 += 1;
            if written_items.is_empty() {
                c.1 += 1;
            }
        }
    }
    for (di, (with, dropped)) in &carried {
        let dir = &DIRECTIONS[*di];
        report.push_str(&format!(
            "  {} {} → {}: {with} streams with items outside the answer (hosted tools, \
             compaction, ...); the written stream has none of them in {dropped}\n",
            dir.via,
            dir.from.name(),
            dir.to.name()
        ));
    }
    report.push_str("expected differences (each case is in the matrix file):\n");
    for (reason, cases) in &reasons {
        report.push_str(&format!("  {:>3} × {reason}\n", cases.len()));
    }
    let matrix = Path::new(env!("CARGO_TARGET_TMPDIR")).join("clients-matrix.md");
    let _ = std::fs::write(&matrix, &md);
    report.push_str(&format!("  the whole matrix: {}\n", matrix.display()));
    loud(&report);
    assert!(
        failures.is_empty(),
        "{} unexpected results:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Hand-written answers of a few small streams: they check the accumulators
/// and the reading of their output that every verdict above rests on.
#[test]
fn hand_written_answers_equal_the_accumulators() {
    let Some(dir) = corpus::corpus_dir() else {
        return;
    };
    let call = |name: &str, args: serde_json::Value| Call {
        name: name.to_owned(),
        arguments: args,
    };
    let cases: Vec<(&str, Dialect, Answer)> = vec![
        (
            "openaipython-chat-multiple-tool-calls.sse",
            Dialect::Chat,
            Answer {
                text: Some(String::new()),
                reasoning: Some(String::new()),
                refusal: Some(String::new()),
                tools: Some(vec![
                    call(
                        "GetWeatherArgs",
                        serde_json::json!({"city": "Edinburgh", "country": "GB", "units": "c"}),
                    ),
                    call(
                        "get_stock_price",
                        serde_json::json!({"ticker": "AAPL", "exchange": "NASDAQ"}),
                    ),
                ]),
                usage_in: Some(149),
                usage_out: Some(60),
                stop: Some("tool-calls".into()),
            },
        ),
        (
            "simonwllm-responses-tool-use.sse",
            Dialect::Responses,
            Answer {
                text: Some(String::new()),
                reasoning: Some(String::new()),
                refusal: Some(String::new()),
                tools: Some(vec![call(
                    "multiply",
                    serde_json::json!({"a": 1231, "b": 2331}),
                )]),
                usage_in: Some(58),
                usage_out: Some(23),
                stop: Some("tool-calls".into()),
            },
        ),
        (
            "openllmetry-anthropic-tool-use.sse",
            Dialect::Anthropic,
            Answer {
                text: Some(
                    "Certainly! I'd be happy to help you with information about the current \
                     weather and time in New York. To provide you with accurate information, \
                     I'll need to use two different tools. Let's start with the weather and \
                     then check the time."
                        .into(),
                ),
                reasoning: Some(String::new()),
                refusal: None,
                tools: Some(vec![
                    call(
                        "get_weather",
                        serde_json::json!({"location": "New York, NY", "unit": "fahrenheit"}),
                    ),
                    call(
                        "get_time",
                        serde_json::json!({"timezone": "America/New_York"}),
                    ),
                ]),
                // `message_delta` usage is cumulative: 165 is the total.
                usage_in: Some(514),
                usage_out: Some(165),
                stop: Some("tool-calls".into()),
            },
        ),
        (
            "pydanticai-gemini-crlf.sse",
            Dialect::Gemini,
            Answer {
                text: Some("The capital of France is Paris.\n".into()),
                reasoning: Some(String::new()),
                refusal: None,
                tools: Some(Vec::new()),
                usage_in: Some(13),
                usage_out: Some(8),
                stop: Some("stop".into()),
            },
        ),
    ];
    for (name, dialect, want) in cases {
        let bytes = std::fs::read(dir.join(name)).expect("the corpus stream");
        let got = upstream(dialect, &bytes);
        assert_eq!(got.outcome, Outcome::Completed, "{name}");
        assert_eq!(got.answer, want, "{name}");
    }
}
