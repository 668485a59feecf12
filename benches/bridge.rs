//! The bridge per event, beside the typed pipeline it is built on.
//!
//! Run: `cargo bench --bench bridge` (append `-- <filter>`, e.g. `-- chat`).
//!
//! Inputs: the synthetic Chat Completions and Anthropic Messages streams
//! (`support::chat()`, `support::anthropic()`, 4 MiB each, one token per
//! event) and the synthetic Responses stream (`support::responses()`,
//! 8 MiB), fed in 4 KiB reads. For each, two engines, both from bytes:
//!
//! * `typed`: `Parser` and the dialect's view (`ChatEvent::from_frame`,
//!   `AnthropicEvent::from_frame`, `ResponsesEvent::from_frame`), touching the
//!   delta's raw span: what a consumer of the upstream pays.
//! * `bridge`: `Parser` and the bridge's `push_frame` (which decodes the
//!   same view and writes the translated event), the output taken and
//!   dropped after every event, as a gateway sends it.
//!
//! Throughput is in events (criterion prints time per event). Every
//! iteration asserts the event count, and the bridge's output length.
//!
//! `SSEKIT_BRIDGE_ONLY=<input>/<engine>[/<passes>]` runs one engine and
//! exits (no criterion): the driver for callgrind instruction counts:
//!
//! ```sh
//! cargo bench --bench bridge --no-run
//! SSEKIT_BRIDGE_ONLY=chat/bridge valgrind --tool=callgrind \
//!     --toggle-collect='bridge::run*' target/release/deps/bridge-*
//! ```

mod support;

use std::hint::black_box;
use std::time::Duration;

use bytes::Bytes;
use criterion::{BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput};
use ssekit::anthropic::AnthropicEvent;
use ssekit::bridge::{AnthropicToResponses, Bridge, ChatToResponses, ResponsesToChat};
use ssekit::chat::ChatEvent;
use ssekit::responses::ResponsesEvent;
use ssekit::Parser;

use support::{Chunking, Input};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Engine {
    Typed,
    Bridge,
}

impl Engine {
    fn name(self) -> &'static str {
        match self {
            Engine::Typed => "typed",
            Engine::Bridge => "bridge",
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

/// Runs `engine` over `input`'s chunks.
#[inline(never)]
fn run(input: &str, engine: Engine, chunks: Vec<Bytes>) -> Seen {
    let mut parser = Parser::new();
    let mut bridge: Box<dyn Bridge> = match input {
        "chat" => Box::new(ChatToResponses::new()),
        "anthropic" => Box::new(AnthropicToResponses::new()),
        _ => Box::new(ResponsesToChat::new()),
    };
    let mut seen = Seen { events: 0, sum: 0 };
    for chunk in chunks {
        parser.feed(chunk);
        while let Some(frame) = parser.next_frame().expect("frames") {
            seen.events += 1;
            match engine {
                Engine::Bridge => {
                    bridge.push_frame(&frame).expect("bridges");
                    seen.sum += black_box(bridge.take()).len();
                }
                Engine::Typed => seen.sum += typed(input, &frame),
            }
        }
    }
    if engine == Engine::Bridge {
        bridge.finish().expect("ends");
        seen.sum += bridge.take().len();
    }
    seen
}

/// The typed view of one frame; the delta's raw length.
fn typed(input: &str, frame: &ssekit::Frame) -> usize {
    match input {
        "chat" => match ChatEvent::from_frame(frame).expect("decodes") {
            ChatEvent::Chunk(c) => c
                .first_choice()
                .and_then(|c| c.ok())
                .and_then(|c| c.delta)
                .and_then(|d| d.content)
                .and_then(|c| c.as_text())
                .map_or(0, |t| t.raw().len()),
            _ => 0,
        },
        "anthropic" => match AnthropicEvent::from_frame(frame).expect("decodes") {
            AnthropicEvent::ContentBlockDelta(d) => black_box(d).index as usize,
            _ => 0,
        },
        _ => match ResponsesEvent::from_frame(frame).expect("decodes") {
            ResponsesEvent::OutputTextDelta(d) => d.delta.raw().len(),
            _ => 0,
        },
    }
}

fn inputs() -> Vec<Input> {
    vec![support::chat(), support::anthropic(), support::responses()]
}

fn main() {
    let inputs = inputs();
    if let Ok(spec) = std::env::var("SSEKIT_BRIDGE_ONLY") {
        let mut parts = spec.split('/');
        let name = parts.next().unwrap_or_default();
        let engine = match parts.next() {
            Some("typed") => Engine::Typed,
            _ => Engine::Bridge,
        };
        let passes: usize = parts.next().and_then(|p| p.parse().ok()).unwrap_or(1);
        let input = inputs
            .iter()
            .find(|i| i.name == name)
            .expect("input chat, anthropic or responses");
        for _ in 0..passes {
            let seen = run(name, engine, Chunking::Bytes(4096).split(&input.bytes));
            assert_eq!(seen.events, input.frames);
            println!(
                "{name}/{}: {} events, sum {}",
                engine.name(),
                seen.events,
                seen.sum
            );
        }
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    for input in &inputs {
        let mut group = c.benchmark_group(format!("bridge/{}", input.name));
        group.sample_size(10);
        group.sampling_mode(SamplingMode::Flat);
        group.warm_up_time(Duration::from_millis(300));
        group.measurement_time(Duration::from_secs(2));
        group.throughput(Throughput::Elements(input.frames as u64));
        let chunks = Chunking::Bytes(4096).split(&input.bytes);
        let reference = run(input.name, Engine::Bridge, chunks.clone());
        assert_eq!(reference.events, input.frames, "{} event count", input.name);
        for engine in [Engine::Typed, Engine::Bridge] {
            group.bench_with_input(
                BenchmarkId::new(engine.name(), "4KiB"),
                &chunks,
                |b, chunks| {
                    b.iter_batched(
                        || chunks.clone(),
                        |chunks| {
                            let seen = run(input.name, engine, chunks);
                            assert_eq!(seen.events, input.frames);
                            if engine == Engine::Bridge {
                                assert_eq!(seen.sum, reference.sum, "bridge output length");
                            }
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
