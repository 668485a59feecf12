//! The linters per event, one per dialect, beside the typed decoding of
//! the same stream.
//!
//! Run: `cargo bench --bench lint` (append `-- <filter>`, e.g. `-- chat`).
//!
//! Inputs: the synthetic assistant turn of the bridge bench
//! (`support::turns()`: reasoning, text, tool calls with streamed
//! arguments; 16 384 deltas with escapes and non-ASCII text) in each of the
//! four dialects, fed in 4 KiB reads to a `StreamLinter` with the
//! dialect's linter, findings drained after every read. The streams are
//! well formed: every iteration asserts that no finding is an error.
//! Throughput is in upstream events.
//!
//! After criterion, each linter runs again (best of `SSEKIT_BENCH_ROUNDS`
//! passes, default 7) and its time per event and heap allocations per
//! event (the tests' counting allocator, `tests/support/counting.rs`) are printed on one line each.
//! `SSEKIT_LINT_ONLY=1` prints only those lines (no criterion): run two
//! builds of this bench in turns to compare them.

mod support;

#[path = "../tests/support/counting.rs"]
mod counting;

use std::hint::black_box;
use std::time::{Duration, Instant};

use bytes::Bytes;
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput};
use ssekit::lint::{linter_for, LintConfig, Severity, StreamLinter};
use ssekit::turn::Dialect;
use ssekit::ParserConfig;

use support::Chunking;

fn dialect(name: &str) -> Dialect {
    match name {
        "chat" => Dialect::Chat,
        "anthropic" => Dialect::Anthropic,
        "responses" => Dialect::Responses,
        _ => Dialect::Gemini,
    }
}

/// Lints the chunks; returns the number of error findings.
fn lint(d: Dialect, chunks: Vec<Bytes>) -> u64 {
    let mut linter =
        StreamLinter::with_linter(ParserConfig::DEFAULT, linter_for(d, LintConfig::DEFAULT));
    let mut errors = 0;
    for chunk in chunks {
        linter.feed(chunk);
        errors += linter
            .drain()
            .filter(|f| f.severity() == Severity::Error)
            .count() as u64;
    }
    linter.finish();
    errors
        + linter
            .drain()
            .filter(|f| f.severity() == Severity::Error)
            .count() as u64
}

fn main() {
    let inputs = support::turns();
    let only = std::env::var("SSEKIT_LINT_ONLY").is_ok();
    if !only {
        let mut c = Criterion::default().configure_from_args();
        let mut group = c.benchmark_group("lint/4KiB");
        group.sample_size(20);
        group.measurement_time(Duration::from_secs(5));
        for input in &inputs {
            let d = dialect(input.name);
            let chunks = Chunking::Bytes(4096).split(&input.bytes);
            group.throughput(Throughput::Elements(input.frames as u64));
            group.bench_with_input(BenchmarkId::from_parameter(input.name), &chunks, |b, ch| {
                b.iter_batched(
                    || ch.clone(),
                    |ch| assert_eq!(lint(d, ch), 0),
                    BatchSize::LargeInput,
                )
            });
        }
        group.finish();
        c.final_summary();
        if std::env::args().any(|a| a == "--list" || a == "--test") {
            return;
        }
    }
    let rounds: usize = std::env::var("SSEKIT_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(7);
    for input in &inputs {
        let d = dialect(input.name);
        let chunks = Chunking::Bytes(4096).split(&input.bytes);
        let mut best = Duration::MAX;
        let mut allocs = 0;
        for _ in 0..rounds {
            let c = chunks.clone();
            let t = Instant::now();
            let (errors, n) = counting::allocations(|| black_box(lint(d, c)));
            best = best.min(t.elapsed());
            assert_eq!(errors, 0);
            allocs = n;
        }
        let events = input.frames as f64;
        println!(
            "lint {:<9} {:>6} events, best of {rounds}: {:>7.1} ns/event, {:>7.1} MiB/s, \
             {:.4} allocations/event ({allocs} per stream)",
            input.name,
            input.frames,
            best.as_secs_f64() * 1e9 / events,
            input.bytes.len() as f64 / (1 << 20) as f64 / best.as_secs_f64(),
            allocs as f64 / events,
        );
    }
}
