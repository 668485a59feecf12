//! The cost of the Responses accumulator on top of the typed pipeline.
//!
//! Run: `cargo bench --bench accumulate`
//!
//! One input, the standard synthetic Responses stream
//! (`support::responses_stream(8 MiB, SEED)`: 30,066 events, almost all
//! `response.output_text.delta`), fed in 4 KiB chunks (pre-sliced
//! `Vec<Bytes>`, cloned outside the timed region). Two engines:
//!
//! * `pipeline`: `Parser`, `ResponsesEvent::from_frame`, and the event's type
//!   touched (the `ssekit` engine of `benches/pipeline.rs`);
//! * `pipeline+accumulate`: the same, every event fed to a
//!   `ResponsesAccumulator`, and `finish()` at the end (the final response
//!   built as a `JsonValue`);
//! * `pipeline+turn`: `Parser`, the Responses reader into the turn model,
//!   every turn event kept by a `TurnAccumulator` (the one accumulator over
//!   the model), and the final turn at the end.
//!
//! Every iteration asserts the event count; the accumulating ones also that
//! the assembled output text has the length of the completed response's.
//! After criterion, the engines run again in turns (best of
//! `SSEKIT_BENCH_ROUNDS` passes, default 7) and the ratios are printed.
//!
//! `SSEKIT_ACCUMULATE_ONLY=<pipeline|accumulate|turn>/<passes>` runs one engine
//! that many times and exits (no criterion): the driver for callgrind
//! instruction counts (see `BENCHMARKS.md`).

mod support;

use std::hint::black_box;
use std::time::{Duration, Instant};

use bytes::Bytes;
use criterion::{BatchSize, Criterion, Throughput};
use ssekit::accumulate::{Outcome, ResponsesAccumulator, TurnAccumulator};
use ssekit::responses::ResponsesEvent;
use ssekit::turn::{Dialect, FinalItemKind, ResponsesReader};

use support::Chunking;

/// The pipeline alone: the number of events and a checksum.
fn pipeline(chunks: Vec<Bytes>) -> (usize, u64) {
    let mut parser = ssekit::Parser::new();
    let (mut events, mut sum) = (0, 0u64);
    for chunk in chunks {
        parser.feed(chunk);
        while let Some(frame) = parser.next_frame().expect("frame") {
            let event = ResponsesEvent::from_frame(&frame).expect("decode");
            events += 1;
            sum = sum.wrapping_add(black_box(event.ty().len()) as u64);
        }
    }
    (events, sum)
}

/// The pipeline and the accumulator: the number of events and the length
/// of the assembled output text.
fn accumulate(chunks: Vec<Bytes>) -> (usize, usize) {
    let mut parser = ssekit::Parser::new();
    let mut acc = ResponsesAccumulator::new();
    let mut events = 0;
    for chunk in chunks {
        parser.feed(chunk);
        while let Some(frame) = parser.next_frame().expect("frame") {
            let event = ResponsesEvent::from_frame(&frame).expect("decode");
            events += 1;
            acc.feed(&event).expect("within the limits");
        }
    }
    let response = black_box(acc.finish());
    assert_eq!(response.outcome(), Outcome::Completed);
    (events, response.output_text().len())
}

/// The pipeline, the Responses reader and `TurnAccumulator`: the number of
/// frames and the length of the assembled message text.
fn turn(chunks: Vec<Bytes>) -> (usize, usize) {
    let mut parser = ssekit::Parser::new();
    let mut reader = ResponsesReader::default();
    let mut acc = TurnAccumulator::new().from_dialect(Dialect::Responses);
    let mut events = 0;
    for chunk in chunks {
        parser.feed(chunk);
        while let Some(frame) = parser.next_frame().expect("frame") {
            events += 1;
            acc.read(&mut reader, &frame).expect("a well-formed stream");
        }
    }
    acc.finish_reader(&mut reader).expect("a complete stream");
    assert_eq!(acc.outcome(), Outcome::Completed);
    let turn = black_box(acc.into_turn());
    let text = turn
        .items()
        .iter()
        .filter(|i| matches!(i.kind(), FinalItemKind::Message))
        .flat_map(|i| i.text_parts().map(|(_, t)| t.len()))
        .sum();
    (events, text)
}

/// The length of the completed response's output text, independently:
/// every `output_text.done` text, unescaped by serde_json.
fn expected_text_len(input: &Bytes) -> usize {
    let text = std::str::from_utf8(input).unwrap();
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|d| d.contains("\"response.output_text.done\""))
        .map(|d| {
            let v: serde_json::Value = serde_json::from_str(d).unwrap();
            v["text"].as_str().unwrap().len()
        })
        .sum()
}

fn main() {
    let input = support::responses();
    let chunks = Chunking::Bytes(4096).split(&input.bytes);

    if let Ok(only) = std::env::var("SSEKIT_ACCUMULATE_ONLY") {
        let (engine, passes) = only.split_once('/').unwrap_or((&only, "1"));
        let passes: usize = passes.parse().expect("passes");
        for _ in 0..passes {
            match engine {
                "pipeline" => assert_eq!(pipeline(chunks.clone()).0, input.frames),
                "accumulate" => assert_eq!(accumulate(chunks.clone()).0, input.frames),
                "turn" => assert_eq!(turn(chunks.clone()).0, input.frames),
                other => panic!("unknown engine {other}"),
            }
        }
        return;
    }

    let text_len = expected_text_len(&input.bytes);
    assert_eq!(accumulate(chunks.clone()), (input.frames, text_len));
    assert_eq!(turn(chunks.clone()), (input.frames, text_len));

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("accumulate/4KiB");
    group.throughput(Throughput::Bytes(input.bytes.len() as u64));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("pipeline", |b| {
        b.iter_batched(
            || chunks.clone(),
            |c| assert_eq!(pipeline(c).0, input.frames),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("pipeline+accumulate", |b| {
        b.iter_batched(
            || chunks.clone(),
            |c| assert_eq!(accumulate(c), (input.frames, text_len)),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("pipeline+turn", |b| {
        b.iter_batched(
            || chunks.clone(),
            |c| assert_eq!(turn(c), (input.frames, text_len)),
            BatchSize::LargeInput,
        )
    });
    group.finish();
    c.final_summary();

    // Interleaved passes: load from other processes hits both alike.
    let listing = std::env::args().any(|a| a == "--list" || a == "--test");
    if listing {
        return;
    }
    let rounds: usize = std::env::var("SSEKIT_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(7);
    let (mut best_p, mut best_a, mut best_t) = (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        let c = chunks.clone();
        let t = Instant::now();
        black_box(pipeline(c));
        best_p = best_p.min(t.elapsed());
        let c = chunks.clone();
        let t = Instant::now();
        black_box(accumulate(c));
        best_a = best_a.min(t.elapsed());
        let c = chunks.clone();
        let t = Instant::now();
        black_box(turn(c));
        best_t = best_t.min(t.elapsed());
    }
    let mib = input.bytes.len() as f64 / (1 << 20) as f64;
    println!(
        "interleaved, best of {rounds}: pipeline {:.1} MiB/s, pipeline+accumulate {:.1} MiB/s, \
         ratio (pipeline+accumulate ÷ pipeline time) {:.3}",
        mib / best_p.as_secs_f64(),
        mib / best_a.as_secs_f64(),
        best_a.as_secs_f64() / best_p.as_secs_f64(),
    );
    println!(
        "interleaved, best of {rounds}: pipeline+turn {:.1} MiB/s, \
         ratio (pipeline+turn ÷ pipeline time) {:.3}",
        mib / best_t.as_secs_f64(),
        best_t.as_secs_f64() / best_p.as_secs_f64(),
    );
}
