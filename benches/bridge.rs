//! The bridges per event, all 12 directions, beside the typed decoding of
//! their upstream.
//!
//! Run: `cargo bench --bench bridge` (append `-- <filter>`, e.g. `-- chat`).
//!
//! Inputs: one synthetic assistant turn (`support::turns()`: a reasoning
//! item, text and reasoning items in turn, then tool calls with streamed
//! arguments; 16 384 deltas whose sizes follow a long-tailed distribution,
//! with JSON escapes and raw non-ASCII text), written in each of the four
//! dialects (Chat Completions, Anthropic Messages, OpenAI Responses, Gemini)
//! and fed in 4 KiB reads. For each input:
//!
//! * `typed`: `Parser` and the dialect's view (`ChatEvent::from_frame`,
//!   `AnthropicEvent::from_frame`, `ResponsesEvent::from_frame`,
//!   `GeminiEvent::from_frame`), touching the delta's raw span: what a
//!   consumer of the upstream pays.
//! * `to-<dialect>` for the three other dialects: `Parser` and
//!   `ssekit::bridge::translate(from, to, &BridgeConfig::default())` (the
//!   upstream's reader, which decodes the same view, and the downstream's
//!   writer), the output taken and dropped after every event, as a gateway
//!   sends it.
//!
//! Throughput is in upstream events (criterion prints time per event). The
//! expected event count is the generator's; each direction's output length
//! is measured once before its benchmark, and every iteration asserts both.
//!
//! `SSEKIT_BRIDGE_ONLY=<input>/<engine>[/<passes>]` runs one engine and
//! exits (no criterion): the driver for callgrind instruction counts.
//! `<engine>` is `typed`, a downstream dialect (`chat`, `anthropic`,
//! `responses`, `gemini`), or `bridge` (Responses, or Chat from Responses):
//!
//! ```sh
//! cargo bench --bench bridge --no-run
//! SSEKIT_BRIDGE_ONLY=chat/anthropic valgrind --tool=callgrind \
//!     --toggle-collect='bridge::run*' target/release/deps/bridge-*
//! ```

mod support;

use std::hint::black_box;
use std::time::Duration;

use bytes::Bytes;
use criterion::{BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput};
use ssekit::anthropic::AnthropicEvent;
use ssekit::bridge::{translate, Bridge, BridgeConfig};
use ssekit::chat::ChatEvent;
use ssekit::gemini::GeminiEvent;
use ssekit::responses::ResponsesEvent;
use ssekit::turn::Dialect;
use ssekit::Parser;

use support::Chunking;

/// What a run does with each frame.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Engine {
    /// The upstream dialect's typed view.
    Typed,
    /// The bridge to this dialect.
    To(Dialect),
}

fn dialect_name(d: Dialect) -> &'static str {
    d.name()
}

fn dialect(name: &str) -> Option<Dialect> {
    Dialect::ALL.into_iter().find(|&d| dialect_name(d) == name)
}

impl Engine {
    fn name(self) -> String {
        match self {
            Engine::Typed => "typed".to_owned(),
            Engine::To(d) => format!("to-{}", dialect_name(d)),
        }
    }
}

/// What a run saw: events, and a checksum (typed: delta bytes; bridge:
/// output bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen {
    events: usize,
    sum: usize,
}

/// Runs `engine` over `from`'s chunks.
#[inline(never)]
fn run(from: Dialect, engine: Engine, chunks: Vec<Bytes>) -> Seen {
    let mut parser = Parser::new();
    let mut seen = Seen { events: 0, sum: 0 };
    match engine {
        Engine::Typed => {
            for chunk in chunks {
                parser.feed(chunk);
                while let Some(frame) = parser.next_frame().expect("frames") {
                    seen.events += 1;
                    seen.sum += typed(from, &frame);
                }
            }
        }
        Engine::To(to) => {
            let mut bridge = translate(from, to, &BridgeConfig::default());
            for chunk in chunks {
                parser.feed(chunk);
                while let Some(frame) = parser.next_frame().expect("frames") {
                    seen.events += 1;
                    bridge.push_frame(&frame).expect("bridges");
                    seen.sum += black_box(bridge.take()).len();
                }
            }
            bridge.finish().expect("ends");
            seen.sum += bridge.take().len();
        }
    }
    seen
}

/// The typed view of one frame; the delta's raw length (Anthropic: the
/// block index).
fn typed(from: Dialect, frame: &ssekit::Frame) -> usize {
    match from {
        Dialect::Chat => match ChatEvent::from_frame(frame).expect("decodes") {
            ChatEvent::Chunk(c) => c
                .first_choice()
                .and_then(|c| c.ok())
                .and_then(|c| c.delta)
                .and_then(|d| d.content)
                .and_then(|c| c.as_text())
                .map_or(0, |t| t.raw().len()),
            _ => 0,
        },
        Dialect::Anthropic => match AnthropicEvent::from_frame(frame).expect("decodes") {
            AnthropicEvent::ContentBlockDelta(d) => black_box(d).index as usize,
            _ => 0,
        },
        Dialect::Responses => match ResponsesEvent::from_frame(frame).expect("decodes") {
            ResponsesEvent::OutputTextDelta(d) => d.delta.raw().len(),
            _ => 0,
        },
        Dialect::Gemini => match GeminiEvent::from_frame(frame).expect("decodes") {
            GeminiEvent::Response(r) => r
                .candidates
                .into_iter()
                .flatten()
                .next()
                .and_then(|c| c.ok())
                .and_then(|c| c.content)
                .and_then(|c| c.parts)
                .into_iter()
                .flatten()
                .next()
                .and_then(|p| p.ok())
                .and_then(|p| p.text)
                .map_or(0, |t| t.raw().len()),
            _ => 0,
        },
    }
}

/// The engines for an upstream: typed, then the three bridges.
fn engines(from: Dialect) -> impl Iterator<Item = Engine> {
    std::iter::once(Engine::Typed).chain(
        Dialect::ALL
            .into_iter()
            .filter(move |&d| d != from)
            .map(Engine::To),
    )
}

fn main() {
    let inputs = support::turns();
    if let Ok(spec) = std::env::var("SSEKIT_BRIDGE_ONLY") {
        let mut parts = spec.split('/');
        let name = parts.next().unwrap_or_default();
        let input = inputs
            .iter()
            .find(|i| i.name == name)
            .expect("input chat, anthropic, responses or gemini");
        let from = dialect(name).expect("a dialect");
        let engine = match parts.next() {
            Some("typed") => Engine::Typed,
            Some(to) if dialect(to).is_some_and(|d| d != from) => {
                Engine::To(dialect(to).expect("checked"))
            }
            _ if from == Dialect::Responses => Engine::To(Dialect::Chat),
            _ => Engine::To(Dialect::Responses),
        };
        let passes: usize = parts.next().and_then(|p| p.parse().ok()).unwrap_or(1);
        for _ in 0..passes {
            let seen = run(from, engine, Chunking::Bytes(4096).split(&input.bytes));
            assert_eq!(seen.events, input.frames);
            println!(
                "{name}/{}: {} bytes, {} events, sum {}",
                engine.name(),
                input.bytes.len(),
                seen.events,
                seen.sum
            );
        }
        return;
    }
    // Defaults set before the command line, so `--sample-size`,
    // `--warm-up-time` and `--measurement-time` override them.
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    for input in &inputs {
        let from = dialect(input.name).expect("a dialect");
        let mut group = c.benchmark_group(format!("bridge/{}", input.name));
        group.sampling_mode(SamplingMode::Flat);
        group.throughput(Throughput::Elements(input.frames as u64));
        let chunks = Chunking::Bytes(4096).split(&input.bytes);
        for engine in engines(from) {
            // Measured once, before the benchmark; each iteration must match.
            let reference = run(from, engine, chunks.clone());
            assert_eq!(reference.events, input.frames, "{} event count", input.name);
            group.bench_with_input(
                BenchmarkId::new(engine.name(), "4KiB"),
                &chunks,
                |b, chunks| {
                    b.iter_batched(
                        || chunks.clone(),
                        |chunks| {
                            let seen = run(from, engine, chunks);
                            assert_eq!(seen.events, input.frames, "event count");
                            assert_eq!(seen.sum, reference.sum, "output length");
                            seen
                        },
                        BatchSize::PerIteration,
                    );
                },
            );
        }
        group.finish();
    }
    c.final_summary();
}
