//! Full pipeline throughput: bytes in, typed Responses events out.
//!
//! Run: `cargo bench --bench pipeline`
//! (append `-- <filter>` to run part of it, e.g. `-- 4KiB`).
//!
//! One input, the standard synthetic Responses stream
//! (`support::responses_stream(8 MiB, SEED)`), fed in 16 B and 4 KiB chunks
//! (pre-sliced `Vec<Bytes>`, cloned outside the timed region). Every engine
//! frames the stream, decodes every event and, for each one, touches the
//! same things: its `type`, and for `response.output_text.delta` events the
//! `sequence_number` and the delta text. Every iteration asserts the event
//! count and the delta count.
//!
//! * `ssekit`: `Parser`, `ResponsesEvent::from_frame`; the type is the
//!   variant, the delta is `d.delta` read as its raw escaped span (length and
//!   `has_escapes`, both O(1)), which is what the view hands out without
//!   work.
//! * `ssekit-unescape`: the same, and the delta unescaped into a reused
//!   `String` (the cost of getting the text as a `&str` in every case).
//! * `async-openai`: what Rust users do today: `eventsource-stream`'s
//!   `EventStream` and `serde_json::from_str::<ResponseStreamEvent>` (an
//!   owned, typed event: `String` delta).
//! * `serde_json-value`: ssekit framing + `serde_json::from_str::<Value>`.
//! * `simd-json-borrowed`: ssekit framing + `simd_json::to_borrowed_value`
//!   (with reused `Buffers`) on a reused scratch `Vec` the frame's data is
//!   copied into (simd-json parses in place and needs `&mut [u8]`).
//! * `simd-json-tape`: simd-json's cheapest path: the data copied into a
//!   reused, padded scratch `Vec`, `fill_tape_padded` into a reused `Tape`,
//!   fields read from the tape. No DOM is built.
//!
//! Streams (eventsource-stream) run under `futures::executor::block_on`
//! over `futures::stream::iter`. After criterion, every engine runs again
//! in turns (round-robin, best of `SSEKIT_BENCH_ROUNDS` passes, default 7),
//! so that load from other processes on a shared machine hits all engines
//! alike; the bench prints tables of MiB/s, events/s and the target ratios,
//! from those best passes and from criterion's medians, all from this run,
//! and writes them to `pipeline-summary.md` in criterion's output directory.
//!
//! A second input, the standard synthetic Chat Completions stream
//! (`support::chat_stream`, 4 MiB), goes through three engines
//! (`chat-ssekit`: `Parser::next_frame_ref` (borrowed frames) and
//! `ChatEvent::parse`, the chunk's `model` and each
//! choice's `index` and `delta.content` as a raw span; `chat-ssekit-unescape`:
//! the content unescaped into a reused `String`; `chat-async-openai`:
//! `eventsource-stream` and `serde_json::from_str::<CreateChatCompletionStreamResponse>`),
//! in criterion's `pipeline-chat` group and in the interleaved rounds, with
//! their own table in the summary.
//!
//! Two more inputs, 4 MiB synthetic Anthropic Messages and Gemini streams
//! (`support::anthropic_stream`, `support::gemini_stream`), go through
//! `anthropic-ssekit` / `anthropic-serde` and `gemini-ssekit` /
//! `gemini-serde` (ssekit's views against eventsource-stream + serde_json
//! into derived types; see `pipeline/dialects.rs`), in criterion's
//! `pipeline-dialects` group and in the interleaved rounds.
//!
//! `SSEKIT_PIPELINE_ONLY=<engine>/<16B|4KiB>[/<passes>]` runs one engine
//! (a `chat-` engine on the Chat input, an `anthropic-` or `gemini-` engine
//! on its own input) and exits (no criterion): the
//! driver for callgrind instruction counts.
//! `SSEKIT_PIPELINE_DUMP=<file>` writes the input stream to `<file>` first.

mod support;

#[path = "pipeline/dialects.rs"]
mod dialects;

use std::convert::Infallible;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::pin::pin;
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use criterion::{BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput};
use futures::executor::block_on;
use futures::StreamExt as _;
use simd_json::prelude::*;
use ssekit::chat::ChatEvent;
use ssekit::responses::ResponsesEvent;

use support::Chunking;

const MIB: f64 = (1 << 20) as f64;
const DELTA: &str = "response.output_text.delta";

/// What an engine saw: events, delta events, and a checksum of what it
/// touched (kept observable so nothing is optimised away).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Seen {
    events: usize,
    deltas: usize,
    sum: u64,
}

impl Seen {
    #[inline(always)]
    fn event(&mut self, ty_len: usize) {
        self.events += 1;
        self.sum = self.sum.wrapping_add(black_box(ty_len) as u64);
    }

    #[inline(always)]
    fn delta(&mut self, seq: u64, text_len: usize, flag: bool) {
        self.deltas += 1;
        self.sum = self
            .sum
            .wrapping_add(black_box(seq))
            .wrapping_add(black_box(text_len) as u64)
            .wrapping_add(u64::from(black_box(flag)));
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Engine {
    Ssekit,
    SsekitUnescape,
    AsyncOpenai,
    SerdeJsonValue,
    SimdJsonBorrowed,
    SimdJsonTape,
}

impl Engine {
    const ALL: [Engine; 6] = [
        Engine::Ssekit,
        Engine::SsekitUnescape,
        Engine::AsyncOpenai,
        Engine::SerdeJsonValue,
        Engine::SimdJsonBorrowed,
        Engine::SimdJsonTape,
    ];

    fn name(self) -> &'static str {
        match self {
            Engine::Ssekit => "ssekit",
            Engine::SsekitUnescape => "ssekit-unescape",
            Engine::AsyncOpenai => "async-openai",
            Engine::SerdeJsonValue => "serde_json-value",
            Engine::SimdJsonBorrowed => "simd-json-borrowed",
            Engine::SimdJsonTape => "simd-json-tape",
        }
    }

    fn run(self, chunks: Vec<Bytes>) -> Seen {
        match self {
            Engine::Ssekit => run_ssekit(chunks, false),
            Engine::SsekitUnescape => run_ssekit(chunks, true),
            Engine::AsyncOpenai => run_async_openai(chunks),
            Engine::SerdeJsonValue => frames(chunks, serde_value()),
            Engine::SimdJsonBorrowed => frames(chunks, simd_borrowed()),
            Engine::SimdJsonTape => frames(chunks, simd_tape()),
        }
    }
}

fn run_ssekit(chunks: Vec<Bytes>, unescape: bool) -> Seen {
    let mut seen = Seen::default();
    let mut text = String::new();
    let mut parser = ssekit::Parser::new();
    for chunk in chunks {
        parser.feed(chunk);
        while let Some(frame) = parser.next_frame().expect("ssekit: frame error") {
            let event = ResponsesEvent::from_frame(&frame).expect("ssekit: decode error");
            seen.event(event.ty().len());
            if let ResponsesEvent::OutputTextDelta(d) = &event {
                let seq = d.sequence_number.expect("sequence_number");
                if unescape {
                    text.clear();
                    d.delta.unescape_into(&mut text);
                    seen.delta(seq, text.len(), d.delta.has_escapes());
                } else {
                    seen.delta(seq, d.delta.len_hint(), d.delta.has_escapes());
                }
            }
        }
    }
    parser.finish().expect("ssekit: unfinished event");
    seen
}

fn run_async_openai(chunks: Vec<Bytes>) -> Seen {
    use async_openai::types::responses::ResponseStreamEvent;
    eventsource(chunks, |data, seen| {
        let decoded: ResponseStreamEvent =
            serde_json::from_str(data).expect("async-openai: decode error");
        // The type is the variant (serde's tag); `event.event` is the SSE
        // name, which the other engines do not read.
        seen.event(discriminant_byte(&decoded));
        if let ResponseStreamEvent::ResponseOutputTextDelta(d) = &decoded {
            seen.delta(d.sequence_number, d.delta.len(), false);
        }
    })
}

/// `eventsource-stream` over the chunks, with `each` called on the data of
/// every event.
fn eventsource(chunks: Vec<Bytes>, mut each: impl FnMut(&str, &mut Seen)) -> Seen {
    let stream = eventsource_stream::EventStream::new(futures::stream::iter(
        chunks.into_iter().map(Ok::<_, Infallible>),
    ));
    block_on(async {
        let mut seen = Seen::default();
        let mut stream = pin!(stream);
        while let Some(event) = stream.next().await {
            each(&event.expect("eventsource-stream: error").data, &mut seen);
        }
        seen
    })
}

/// A small number that depends on the variant.
fn discriminant_byte<T>(v: &T) -> usize {
    use std::hash::{Hash, Hasher};
    struct Low(u64);
    impl Hasher for Low {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = self.0.wrapping_mul(31).wrapping_add(u64::from(b));
            }
        }
    }
    let mut h = Low(0);
    std::mem::discriminant(v).hash(&mut h);
    h.finish() as usize & 0xff
}

/// ssekit framing, with `decode` called on each frame's data.
fn frames(chunks: Vec<Bytes>, mut decode: impl FnMut(&str, &mut Seen)) -> Seen {
    each_frame(chunks, |frame, seen| decode(frame.data(), seen))
}

/// ssekit framing, with `each` called on each frame.
fn each_frame(chunks: Vec<Bytes>, mut each: impl FnMut(&ssekit::Frame, &mut Seen)) -> Seen {
    let mut seen = Seen::default();
    let mut parser = ssekit::Parser::new();
    for chunk in chunks {
        parser.feed(chunk);
        while let Some(frame) = parser.next_frame().expect("ssekit: frame error") {
            each(&frame, &mut seen);
        }
    }
    parser.finish().expect("ssekit: unfinished event");
    seen
}

fn serde_value() -> impl FnMut(&str, &mut Seen) {
    |data, seen| {
        let v: serde_json::Value = serde_json::from_str(data).expect("serde_json: decode error");
        let ty = v["type"].as_str().expect("type");
        seen.event(ty.len());
        if ty == DELTA {
            let seq = v["sequence_number"].as_u64().expect("sequence_number");
            let delta = v["delta"].as_str().expect("delta");
            seen.delta(seq, delta.len(), false);
        }
    }
}

fn simd_borrowed() -> impl FnMut(&str, &mut Seen) {
    let mut scratch: Vec<u8> = Vec::new();
    let mut buffers = simd_json::Buffers::default();
    move |data, seen| {
        scratch.clear();
        scratch.extend_from_slice(data.as_bytes());
        let v = simd_json::to_borrowed_value_with_buffers(&mut scratch, &mut buffers)
            .expect("simd-json: decode error");
        let ty = v.get_str("type").expect("type");
        seen.event(ty.len());
        if ty == DELTA {
            let seq = v.get_u64("sequence_number").expect("sequence_number");
            let delta = v.get_str("delta").expect("delta");
            seen.delta(seq, delta.len(), false);
        }
    }
}

fn simd_tape() -> impl FnMut(&str, &mut Seen) {
    let mut scratch: Vec<u8> = Vec::new();
    let mut buffers = simd_json::Buffers::default();
    let mut spare: simd_json::Tape<'static> = simd_json::Tape(Vec::new());
    move |data, seen| {
        scratch.clear();
        scratch.extend_from_slice(data.as_bytes());
        scratch.resize(data.len() + simd_json::INPUT_PADDING, 0);
        let mut tape = std::mem::replace(&mut spare, simd_json::Tape(Vec::new())).reset();
        simd_json::fill_tape_padded(&mut scratch, data.len(), &mut buffers, &mut tape)
            .expect("simd-json: decode error");
        {
            let v = tape.as_value();
            let ty = v.get_str("type").expect("type");
            seen.event(ty.len());
            if ty == DELTA {
                let seq = v.get_u64("sequence_number").expect("sequence_number");
                let delta = v.get_str("delta").expect("delta");
                seen.delta(seq, delta.len(), false);
            }
        }
        spare = tape.reset();
    }
}

// ---------------------------------------------------------------------------
// The Chat Completions pipeline

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChatEngine {
    Ssekit,
    SsekitUnescape,
    AsyncOpenai,
}

impl ChatEngine {
    const ALL: [ChatEngine; 3] = [
        ChatEngine::Ssekit,
        ChatEngine::SsekitUnescape,
        ChatEngine::AsyncOpenai,
    ];

    fn name(self) -> &'static str {
        match self {
            ChatEngine::Ssekit => "chat-ssekit",
            ChatEngine::SsekitUnescape => "chat-ssekit-unescape",
            ChatEngine::AsyncOpenai => "chat-async-openai",
        }
    }

    fn run(self, chunks: Vec<Bytes>) -> Seen {
        match self {
            ChatEngine::Ssekit => run_ssekit_chat(chunks, false),
            ChatEngine::SsekitUnescape => run_ssekit_chat(chunks, true),
            ChatEngine::AsyncOpenai => run_async_openai_chat(chunks),
        }
    }
}

/// Each chunk: its `model`; each choice with `delta.content`: its index
/// and the content. `[DONE]` is skipped by every engine.
fn run_ssekit_chat(chunks: Vec<Bytes>, unescape: bool) -> Seen {
    let mut seen = Seen::default();
    let mut text = String::new();
    let mut parser = ssekit::Parser::new();
    for chunk in chunks {
        parser.feed(chunk);
        // Borrowed frames: the crate's fastest way to read a stream whose
        // events are decoded at once (see BENCHMARKS.md).
        while let Some(frame) = parser.next_frame_ref().expect("ssekit: frame error") {
            // The event borrowed, as the Responses engine reads its events.
            let event = ChatEvent::parse(frame.data()).expect("ssekit: decode error");
            let chunk = match &event {
                ChatEvent::Chunk(chunk) => chunk,
                ChatEvent::Done => continue,
                _ => panic!("ssekit: an error chunk or one that does not fit"),
            };
            seen.event(chunk.model.map_or(0, |m| m.len_hint()));
            // Every choice read: the first, decoded with the chunk, lent
            // rather than copied out of it (`head`), then the others.
            let mut read = |choice: &ssekit::chat::ChoiceDelta<'_>| {
                let Some(content) = choice
                    .delta
                    .as_ref()
                    .and_then(|d| d.content)
                    .and_then(|c| c.as_text())
                else {
                    return;
                };
                if unescape {
                    text.clear();
                    content.unescape_into(&mut text);
                    seen.delta(choice.index, text.len(), content.has_escapes());
                } else {
                    seen.delta(choice.index, content.len_hint(), content.has_escapes());
                }
            };
            if let Some(choice) = chunk.choices.head() {
                read(choice);
            }
            for choice in chunk.choices.rest() {
                read(&choice.expect("ssekit: choice"));
            }
        }
    }
    parser.finish().expect("ssekit: unfinished event");
    seen
}

fn run_async_openai_chat(chunks: Vec<Bytes>) -> Seen {
    use async_openai::types::chat::CreateChatCompletionStreamResponse;
    eventsource(chunks, |data, seen| {
        if data == "[DONE]" {
            return;
        }
        let chunk: CreateChatCompletionStreamResponse =
            serde_json::from_str(data).expect("async-openai: decode error");
        seen.event(chunk.model.len());
        for choice in &chunk.choices {
            if let Some(content) = &choice.delta.content {
                seen.delta(u64::from(choice.index), content.len(), false);
            }
        }
    })
}

/// The Chat engines in criterion's `pipeline-chat` group.
fn bench_chat(c: &mut Criterion, input: &Bytes, reference: Seen) {
    let mut group = c.benchmark_group("pipeline-chat");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    group.throughput(Throughput::Bytes(input.len() as u64));
    for chunking in CHUNKINGS {
        let chunks = chunking.split(input);
        for engine in ChatEngine::ALL {
            group.bench_with_input(
                BenchmarkId::new(engine.name(), chunking.label()),
                &chunks,
                |b, chunks| {
                    b.iter_batched(
                        || chunks.clone(),
                        |chunks| {
                            let seen = engine.run(chunks);
                            assert_eq!(
                                (seen.events, seen.deltas),
                                (reference.events, reference.deltas),
                                "{}",
                                engine.name()
                            );
                            seen
                        },
                        BatchSize::PerIteration,
                    );
                },
            );
        }
    }
    group.finish();
}

/// The Chat engines taking turns, as [`interleaved`] does; a table of
/// MiB/s and the target ratio (≥ 5× async-openai at 4 KiB).
fn chat_summary(input: &Bytes, reference: Seen, rounds: usize) -> String {
    let split: Vec<Vec<Bytes>> = CHUNKINGS.iter().map(|c| c.split(input)).collect();
    let mut best = [[f64::INFINITY; 3]; 2];
    for _ in 0..rounds {
        for (ci, chunks) in split.iter().enumerate() {
            for (ei, engine) in ChatEngine::ALL.into_iter().enumerate() {
                let chunks = chunks.clone();
                let t = std::time::Instant::now();
                let seen = black_box(engine.run(chunks));
                let dt = t.elapsed().as_secs_f64();
                assert_eq!(
                    (seen.events, seen.deltas),
                    (reference.events, reference.deltas)
                );
                best[ci][ei] = best[ci][ei].min(dt);
            }
        }
    }
    let mut md = format!(
        "### Chat Completions pipeline (interleaved, best of {rounds} passes per engine)\n\n\
         | engine | 16 B: MiB/s | 4 KiB: MiB/s |\n| --- | ---: | ---: |\n"
    );
    for (ei, engine) in ChatEngine::ALL.into_iter().enumerate() {
        let rate = |ci: usize| input.len() as f64 / MIB / best[ci][ei];
        let _ = writeln!(
            md,
            "| {} | {:.1} | {:.1} |",
            engine.name(),
            rate(0),
            rate(1)
        );
    }
    let _ = writeln!(
        md,
        "\n| target (4 KiB) | chat-ssekit | chat-ssekit-unescape |\n| --- | ---: | ---: |"
    );
    let peer = best[1][2];
    let verdict = |r: f64| if r >= 5.0 { "met" } else { "MISSED" };
    let (a, b) = (peer / best[1][0], peer / best[1][1]);
    let _ = writeln!(
        md,
        "| ≥ 5× chat-async-openai | {a:.2}× ({}) | {b:.2}× ({}) |",
        verdict(a),
        verdict(b)
    );
    md
}

// ---------------------------------------------------------------------------
// The benchmarks

const CHUNKINGS: [Chunking; 2] = [Chunking::Bytes(16), Chunking::Bytes(4096)];

fn main() {
    let started = SystemTime::now();
    let (bytes, events) = support::responses_stream(support::RESPONSES_BYTES, support::SEED);
    let input = Bytes::from(bytes);
    if let Some(path) = std::env::var_os("SSEKIT_PIPELINE_DUMP") {
        // The input as a file, to check the counts with other tools.
        std::fs::write(path, &input).expect("write the input");
    }
    // The reference: what every engine must see.
    let reference = Engine::Ssekit.run(Chunking::Bytes(4096).split(&input));
    assert_eq!(reference.events, events, "ssekit event count");
    let (chat_bytes, chat_frames) = support::chat_stream(4 << 20, support::SEED);
    let chat_input = Bytes::from(chat_bytes);
    let chat_reference = ChatEngine::AsyncOpenai.run(Chunking::Bytes(4096).split(&chat_input));
    // Every frame but `[DONE]` is a chunk.
    assert_eq!(chat_reference.events, chat_frames - 1, "chat chunk count");
    let dialect_inputs = dialects::DialectInput::all();
    if let Ok(spec) = std::env::var("SSEKIT_PIPELINE_ONLY") {
        if let Some(input) = dialects::find(&dialect_inputs, &spec) {
            dialects::only(input, &spec);
        } else if spec.starts_with("chat-") {
            let names = ChatEngine::ALL.map(ChatEngine::name);
            only(&spec, &chat_input, chat_reference, &names, |i, chunks| {
                ChatEngine::ALL[i].run(chunks)
            });
        } else {
            let names = Engine::ALL.map(Engine::name);
            only(&spec, &input, reference, &names, |i, chunks| {
                Engine::ALL[i].run(chunks)
            });
        }
        return;
    }
    println!(
        "input: synthetic Responses stream, {} bytes ({:.2} MiB), {} events, {} output_text.delta",
        input.len(),
        input.len() as f64 / MIB,
        events,
        reference.deltas
    );
    let mut c = Criterion::default().configure_from_args();
    {
        let mut group = c.benchmark_group("pipeline");
        group.sample_size(10);
        group.sampling_mode(SamplingMode::Flat);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        group.throughput(Throughput::Bytes(input.len() as u64));
        for chunking in CHUNKINGS {
            let chunks = chunking.split(&input);
            let param = chunking.label();
            for engine in Engine::ALL {
                group.bench_with_input(
                    BenchmarkId::new(engine.name(), &param),
                    &chunks,
                    |b, chunks| {
                        b.iter_batched(
                            || chunks.clone(),
                            |chunks| {
                                let seen = engine.run(chunks);
                                assert_eq!(seen.events, events, "{} event count", engine.name());
                                assert_eq!(
                                    seen.deltas,
                                    reference.deltas,
                                    "{} delta count",
                                    engine.name()
                                );
                                seen
                            },
                            BatchSize::PerIteration,
                        );
                    },
                );
            }
        }
        group.finish();
    }
    bench_chat(&mut c, &chat_input, chat_reference);
    dialects::bench(&mut c, &dialect_inputs);
    c.final_summary();
    // `cargo bench` passes `--bench`; without it (`cargo test --benches`)
    // criterion only checks that each bench runs, and so does this: no
    // interleaved passes, no report. Nor with `--list`.
    let args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|a| a == "--bench") || args.iter().any(|a| a == "--list") {
        return;
    }
    let rounds = std::env::var("SSEKIT_BENCH_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let best = interleaved(&input, reference, rounds);
    let chat = chat_summary(&chat_input, chat_reference, rounds)
        + &dialects::summary(&dialect_inputs, rounds);
    summary(started, input.len(), events, &best, rounds, &chat);
}

/// `SSEKIT_PIPELINE_ONLY=<engine>/<chunking>[/<passes>]`: runs that engine
/// over the input and exits, without criterion: the driver for
/// `valgrind --tool=callgrind --toggle-collect='pipeline::Engine::run*'`.
fn only(
    spec: &str,
    input: &Bytes,
    reference: Seen,
    names: &[&str],
    run: impl Fn(usize, Vec<Bytes>) -> Seen,
) {
    let mut parts = spec.split('/');
    let name = parts.next().unwrap_or_default();
    let chunking = match parts.next() {
        Some("16B") => Chunking::Bytes(16),
        Some("4KiB") | None => Chunking::Bytes(4096),
        Some(other) => panic!("chunking {other}: 16B or 4KiB"),
    };
    let passes: usize = parts.next().and_then(|p| p.parse().ok()).unwrap_or(1);
    let engine = names
        .iter()
        .position(|e| *e == name)
        .unwrap_or_else(|| panic!("engine {name}: one of {names:?}"));
    let chunks = chunking.split(input);
    for _ in 0..passes {
        let seen = run(engine, chunks.clone());
        assert_eq!(
            (seen.events, seen.deltas),
            (reference.events, reference.deltas)
        );
    }
    println!(
        "{name}/{}: {passes} passes × {} events",
        chunking.label(),
        reference.events
    );
}

/// Best time per pass of every engine and chunking, engines taking turns
/// (round-robin, `rounds` rounds), so that load from other processes on a
/// shared machine hits them all alike. Indexed `[chunking][engine]`.
fn interleaved(input: &Bytes, reference: Seen, rounds: usize) -> Vec<Vec<f64>> {
    let split: Vec<Vec<Bytes>> = CHUNKINGS.iter().map(|c| c.split(input)).collect();
    let mut best = vec![vec![f64::INFINITY; Engine::ALL.len()]; CHUNKINGS.len()];
    for round in 0..rounds {
        for (ci, chunks) in split.iter().enumerate() {
            for (ei, engine) in Engine::ALL.into_iter().enumerate() {
                let chunks = chunks.clone();
                let t = std::time::Instant::now();
                let seen = black_box(engine.run(chunks));
                let dt = t.elapsed().as_secs_f64();
                assert_eq!(
                    (seen.events, seen.deltas),
                    (reference.events, reference.deltas)
                );
                best[ci][ei] = best[ci][ei].min(dt);
            }
        }
        println!("interleaved round {}/{rounds} done", round + 1);
    }
    best
}

// ---------------------------------------------------------------------------
// The report, from this run's criterion estimates (median time per iteration)

fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir).join("criterion");
    }
    // <target>/release/deps/pipeline-<hash>
    let exe = std::env::current_exe().expect("current exe");
    exe.ancestors()
        .nth(3)
        .map(|t| t.join("criterion"))
        .unwrap_or_else(|| PathBuf::from("target/criterion"))
}

/// Median seconds per pass of `pipeline/engine/param`, if measured in this run.
fn measured(dir: &Path, since: SystemTime, engine: &str, param: &str) -> Option<f64> {
    let path = dir
        .join("pipeline")
        .join(engine)
        .join(param)
        .join("new")
        .join("estimates.json");
    if std::fs::metadata(&path).ok()?.modified().ok()? < since {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    Some(v.get("median")?.get("point_estimate")?.as_f64()? * 1e-9)
}

fn summary(
    started: SystemTime,
    bytes: usize,
    events: usize,
    best: &[Vec<f64>],
    rounds: usize,
    chat: &str,
) {
    let dir = criterion_dir();
    let params: Vec<String> = CHUNKINGS.iter().map(|c| c.label()).collect();
    let idx = |e: Engine| Engine::ALL.iter().position(|x| *x == e).expect("engine");
    let best_of = |e: Engine, ci: usize| Some(best[ci][idx(e)]).filter(|t| t.is_finite());
    let median_of = |e: Engine, ci: usize| measured(&dir, started, e.name(), &params[ci]);
    let mut md = String::new();
    for (title, secs) in [
        (
            format!("interleaved, best of {rounds} passes per engine"),
            &best_of as &dyn Fn(Engine, usize) -> Option<f64>,
        ),
        (
            "criterion, median of the samples, engines one after another".to_owned(),
            &median_of,
        ),
    ] {
        let _ = writeln!(
            md,
            "### Throughput ({title}; higher is better)\n\n\
             | engine | 16 B: MiB/s | 16 B: Mevents/s | 4 KiB: MiB/s | 4 KiB: Mevents/s |\n\
             | --- | ---: | ---: | ---: | ---: |"
        );
        for e in Engine::ALL {
            let _ = write!(md, "| {} |", e.name());
            for ci in 0..params.len() {
                match secs(e, ci) {
                    Some(s) => {
                        let _ = write!(
                            md,
                            " {:.1} | {:.2} |",
                            bytes as f64 / MIB / s,
                            events as f64 / s / 1e6
                        );
                    }
                    None => md.push_str(" – | – |"),
                }
            }
            md.push('\n');
        }
        let _ = writeln!(
            md,
            "\n#### Ratios ({title}): ssekit ÷ engine, time per pass\n\n\
             | ÷ engine | 16 B | 4 KiB |\n| --- | ---: | ---: |"
        );
        for base in [Engine::Ssekit, Engine::SsekitUnescape] {
            for e in Engine::ALL {
                if matches!(e, Engine::Ssekit | Engine::SsekitUnescape) {
                    continue;
                }
                let _ = write!(md, "| {} ÷ {} |", base.name(), e.name());
                for ci in 0..params.len() {
                    match (secs(base, ci), secs(e, ci)) {
                        (Some(a), Some(b)) => {
                            let _ = write!(md, " {:.2}× |", b / a);
                        }
                        _ => md.push_str(" – |"),
                    }
                }
                md.push('\n');
            }
        }
        let _ = writeln!(
            md,
            "\n#### Targets ({title}; 4 KiB chunks)\n\n\
             | target | ssekit | ssekit-unescape |\n| --- | ---: | ---: |"
        );
        let four = params.iter().position(|p| p == "4KiB").expect("4KiB");
        for (what, peer, need) in [
            ("≥ 5× async-openai", Engine::AsyncOpenai, 5.0),
            ("≥ 2× simd-json-borrowed", Engine::SimdJsonBorrowed, 2.0),
        ] {
            let _ = write!(md, "| {what} |");
            for base in [Engine::Ssekit, Engine::SsekitUnescape] {
                match (secs(base, four), secs(peer, four)) {
                    (Some(a), Some(b)) => {
                        let r = b / a;
                        let verdict = if r >= need { "met" } else { "MISSED" };
                        let _ = write!(md, " {r:.2}× ({verdict}) |");
                    }
                    _ => md.push_str(" – |"),
                }
            }
            md.push('\n');
        }
        md.push('\n');
    }
    md.push_str(chat);
    println!("\n{md}");
    let out = dir.join("pipeline-summary.md");
    if std::fs::create_dir_all(&dir).is_ok() && std::fs::write(&out, &md).is_ok() {
        println!("(written to {})", out.display());
    }
}
