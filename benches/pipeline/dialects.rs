//! The Anthropic Messages and Google Gemini inputs of the pipeline bench,
//! each through ssekit and through what a Rust user writes without it:
//! `eventsource-stream` and `serde_json` into owned `#[derive(Deserialize)]`
//! types of the provider's documented shape (neither API has a typed Rust
//! SDK of async-openai's standing, so the types are written here, the way
//! such SDKs write them: an internally tagged enum of Anthropic events,
//! camelCase structs for Gemini).
//!
//! Every engine touches the same things. Anthropic: each event's type, and
//! for each `text_delta` its block index and text. Gemini: each chunk's
//! `modelVersion`, and for each text part its candidate's index and text.
//! The ssekit engines read text as its raw escaped span (O(1)), as
//! `chat-ssekit` does.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use bytes::Bytes;
use criterion::{BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput};
use serde::Deserialize;
use ssekit::anthropic::{AnthropicEvent, BlockDelta};
use ssekit::gemini::GeminiEvent;

use super::support::{self, Chunking};
use super::{Seen, CHUNKINGS, MIB};

/// One dialect's engines: a name and a run function each.
pub(crate) type Engines = [(&'static str, fn(Vec<Bytes>) -> Seen); 2];

/// The Anthropic engines.
pub(crate) const ANTHROPIC: Engines = [
    ("anthropic-ssekit", anthropic_ssekit),
    ("anthropic-serde", anthropic_serde),
];

/// The Gemini engines.
pub(crate) const GEMINI: Engines = [
    ("gemini-ssekit", gemini_ssekit),
    ("gemini-serde", gemini_serde),
];

fn anthropic_ssekit(chunks: Vec<Bytes>) -> Seen {
    super::each_frame(chunks, |frame, seen| {
        let event = AnthropicEvent::from_frame(frame).expect("ssekit: decode error");
        seen.event(event.ty().len());
        if let AnthropicEvent::ContentBlockDelta(d) = event {
            if let BlockDelta::Text(t) = d.delta {
                seen.delta(d.index, t.text.len_hint(), t.text.has_escapes());
            }
        }
    })
}

fn gemini_ssekit(chunks: Vec<Bytes>) -> Seen {
    super::each_frame(chunks, |frame, seen| {
        let GeminiEvent::Response(r) = GeminiEvent::from_frame(frame).expect("ssekit: decode")
        else {
            panic!("ssekit: not a response chunk");
        };
        seen.event(r.model_version.map_or(0, |m| m.len_hint()));
        for candidate in r.candidates.into_iter().flatten() {
            let candidate = candidate.expect("ssekit: candidate");
            let index = candidate.index_or_zero();
            let parts = candidate.content.and_then(|c| c.parts);
            for part in parts.into_iter().flatten() {
                if let Some(text) = part.expect("ssekit: part").text {
                    seen.delta(index, text.len_hint(), text.has_escapes());
                }
            }
        }
    })
}

// Fields are read by serde, and some only by it.
#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum SerdeAnthropicEvent {
    MessageStart {
        message: AnthropicMessage,
    },
    ContentBlockStart {
        index: u64,
        content_block: AnthropicBlock,
    },
    ContentBlockDelta {
        index: u64,
        delta: AnthropicDelta,
    },
    ContentBlockStop {
        index: u64,
    },
    MessageDelta {
        delta: AnthropicStop,
        usage: AnthropicUsage,
    },
    MessageStop,
    Ping,
    Error {
        error: serde_json::Value,
    },
}

impl SerdeAnthropicEvent {
    fn ty(&self) -> &'static str {
        match self {
            Self::MessageStart { .. } => "message_start",
            Self::ContentBlockStart { .. } => "content_block_start",
            Self::ContentBlockDelta { .. } => "content_block_delta",
            Self::ContentBlockStop { .. } => "content_block_stop",
            Self::MessageDelta { .. } => "message_delta",
            Self::MessageStop => "message_stop",
            Self::Ping => "ping",
            Self::Error { .. } => "error",
        }
    }
}

#[allow(dead_code)]
#[derive(Deserialize)]
struct AnthropicMessage {
    id: String,
    model: String,
    role: String,
    content: Vec<AnthropicBlock>,
    stop_reason: Option<String>,
    stop_sequence: Option<String>,
    usage: AnthropicUsage,
}

#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum AnthropicBlock {
    Text {
        text: String,
    },
    ToolUse {
        id: String,
        name: String,
        input: serde_json::Value,
    },
    Thinking {
        thinking: String,
    },
    #[serde(other)]
    Other,
}

#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum AnthropicDelta {
    TextDelta {
        text: String,
    },
    InputJsonDelta {
        partial_json: String,
    },
    ThinkingDelta {
        thinking: String,
    },
    SignatureDelta {
        signature: String,
    },
    #[serde(other)]
    Other,
}

#[allow(dead_code)]
#[derive(Deserialize)]
struct AnthropicStop {
    stop_reason: Option<String>,
    stop_sequence: Option<String>,
}

#[allow(dead_code)]
#[derive(Deserialize)]
struct AnthropicUsage {
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    cache_creation_input_tokens: Option<u64>,
    cache_read_input_tokens: Option<u64>,
}

fn anthropic_serde(chunks: Vec<Bytes>) -> Seen {
    super::eventsource(chunks, |data, seen| {
        let event: SerdeAnthropicEvent = serde_json::from_str(data).expect("serde: decode error");
        seen.event(event.ty().len());
        if let SerdeAnthropicEvent::ContentBlockDelta {
            index,
            delta: AnthropicDelta::TextDelta { text },
        } = &event
        {
            seen.delta(*index, text.len(), false);
        }
    })
}

#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiChunk {
    #[serde(default)]
    candidates: Vec<GeminiCandidate>,
    usage_metadata: Option<GeminiUsage>,
    model_version: Option<String>,
    response_id: Option<String>,
}

#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiCandidate {
    content: Option<GeminiContent>,
    finish_reason: Option<String>,
    #[serde(default)]
    index: u64,
}

#[allow(dead_code)]
#[derive(Deserialize)]
struct GeminiContent {
    #[serde(default)]
    parts: Vec<GeminiPart>,
    role: Option<String>,
}

#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiPart {
    text: Option<String>,
    thought: Option<bool>,
    thought_signature: Option<String>,
    function_call: Option<serde_json::Value>,
}

#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiUsage {
    prompt_token_count: Option<u64>,
    candidates_token_count: Option<u64>,
    total_token_count: Option<u64>,
}

fn gemini_serde(chunks: Vec<Bytes>) -> Seen {
    super::eventsource(chunks, |data, seen| {
        let chunk: GeminiChunk = serde_json::from_str(data).expect("serde: decode error");
        seen.event(chunk.model_version.as_ref().map_or(0, String::len));
        for candidate in &chunk.candidates {
            let parts = candidate.content.as_ref().map(|c| &c.parts[..]);
            for part in parts.unwrap_or_default() {
                if let Some(text) = &part.text {
                    seen.delta(candidate.index, text.len(), false);
                }
            }
        }
    })
}

/// One dialect's input, with the counts every engine must see.
pub(crate) struct DialectInput {
    /// `anthropic` or `gemini`.
    pub(crate) name: &'static str,
    pub(crate) bytes: Bytes,
    pub(crate) engines: Engines,
    pub(crate) reference: Seen,
}

impl DialectInput {
    /// The 4 MiB synthetic stream of each dialect, with its reference counts
    /// from the serde engine (checked against the generator's frame count).
    pub(crate) fn all() -> [DialectInput; 2] {
        let make = |name, (bytes, frames): (Vec<u8>, usize), engines: Engines| {
            let bytes = Bytes::from(bytes);
            let reference = engines[1].1(Chunking::Bytes(4096).split(&bytes));
            assert_eq!(reference.events, frames, "{name} event count");
            DialectInput {
                name,
                bytes,
                engines,
                reference,
            }
        };
        [
            make(
                "anthropic",
                support::anthropic_stream(4 << 20, support::SEED),
                ANTHROPIC,
            ),
            make(
                "gemini",
                support::synth::gemini_stream(4 << 20, support::SEED),
                GEMINI,
            ),
        ]
    }

    fn names(&self) -> Vec<&'static str> {
        self.engines.iter().map(|e| e.0).collect()
    }
}

/// The dialect engines in criterion's `pipeline-dialects` group.
pub(crate) fn bench(c: &mut Criterion, inputs: &[DialectInput]) {
    let mut group = c.benchmark_group("pipeline-dialects");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for input in inputs {
        group.throughput(Throughput::Bytes(input.bytes.len() as u64));
        for chunking in CHUNKINGS {
            let chunks = chunking.split(&input.bytes);
            for (name, run) in input.engines {
                group.bench_with_input(
                    BenchmarkId::new(name, chunking.label()),
                    &chunks,
                    |b, chunks| {
                        b.iter_batched(
                            || chunks.clone(),
                            |chunks| {
                                let seen = run(chunks);
                                input.check(name, seen);
                                seen
                            },
                            BatchSize::PerIteration,
                        );
                    },
                );
            }
        }
    }
    group.finish();
}

impl DialectInput {
    fn check(&self, engine: &str, seen: Seen) {
        assert_eq!(
            (seen.events, seen.deltas),
            (self.reference.events, self.reference.deltas),
            "{engine}"
        );
    }
}

/// The dialect engines taking turns (best of `rounds` passes each, as the
/// other inputs' summaries do): a table of MiB/s and the ratio of ssekit to
/// the serde path. No target is set for these two dialects; the figures
/// stand beside the Chat and Responses ones.
pub(crate) fn summary(inputs: &[DialectInput], rounds: usize) -> String {
    let mut md = format!(
        "\n### Anthropic and Gemini pipelines (interleaved, best of {rounds} passes per engine)\n\n\
         | engine | 16 B: MiB/s | 4 KiB: MiB/s |\n| --- | ---: | ---: |\n"
    );
    let mut ratios = String::new();
    for input in inputs {
        let split: Vec<Vec<Bytes>> = CHUNKINGS.iter().map(|c| c.split(&input.bytes)).collect();
        let mut best = [[f64::INFINITY; 2]; 2];
        for _ in 0..rounds {
            for (ci, chunks) in split.iter().enumerate() {
                for (ei, (name, run)) in input.engines.into_iter().enumerate() {
                    let chunks = chunks.clone();
                    let t = std::time::Instant::now();
                    let seen = black_box(run(chunks));
                    let dt = t.elapsed().as_secs_f64();
                    input.check(name, seen);
                    best[ci][ei] = best[ci][ei].min(dt);
                }
            }
        }
        for (ei, (name, _)) in input.engines.into_iter().enumerate() {
            let rate = |ci: usize| input.bytes.len() as f64 / MIB / best[ci][ei];
            let _ = writeln!(md, "| {name} | {:.1} | {:.1} |", rate(0), rate(1));
        }
        let _ = writeln!(
            ratios,
            "| {} | {:.2}× | {:.2}× |",
            input.name,
            best[0][1] / best[0][0],
            best[1][1] / best[1][0]
        );
    }
    let _ = write!(
        md,
        "\n| ssekit ÷ serde path | 16 B | 4 KiB |\n| --- | ---: | ---: |\n{ratios}"
    );
    md
}

/// `SSEKIT_PIPELINE_ONLY=<anthropic|gemini>-<engine>/…`: the input whose
/// engines include that name, if any.
pub(crate) fn find<'i>(inputs: &'i [DialectInput], spec: &str) -> Option<&'i DialectInput> {
    let name = spec.split('/').next().unwrap_or_default();
    inputs
        .iter()
        .find(|i| i.engines.iter().any(|e| e.0 == name))
}

/// Runs [`super::only`] for that input.
pub(crate) fn only(input: &DialectInput, spec: &str) {
    let names = input.names();
    super::only(spec, &input.bytes, input.reference, &names, |i, chunks| {
        input.engines[i].1(chunks)
    });
}
