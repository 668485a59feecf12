//! Framing throughput: ssekit against the other Rust SSE parsers and a
//! memchr newline-scan baseline, on identical inputs and chunkings.
//!
//! Run: `cargo bench --bench framing`
//! (append `-- <filter>` to run part of it, e.g. `-- responses/`).
//!
//! Inputs (`benches/support`, generated from a seed, LF line ends): the
//! LLM streams `responses` (8 MiB), `chat` and `anthropic` (4 MiB each),
//! whose event sizes are drawn from the sizes of recorded streams of each
//! dialect (`support::varied`: quantile tables measured by
//! `tools/corpus-event-sizes.py`; Chat chunks kept within 100-800 bytes),
//! with text of words, JSON escapes and raw multi-byte UTF-8; `data40k`,
//! 64 tool-argument events of 32-48 KiB that are not pure ASCII; and the
//! shapes other SSE crates bench with (`tiny`, `keepalive`) and a 1 MiB
//! line fed one byte at a time (`line1MiB`). The LLM streams and `data40k`
//! are read in 16 B, 1,460 B and 4 KiB reads, one event per read, and
//! whole.
//!
//! Engines, each in its fastest reasonable mode, all fed the same pre-sliced
//! `Vec<Bytes>` (prepared outside the timed region with `iter_batched`; every
//! engine consumes and drops the same chunks):
//!
//! * `ssekit`: `Parser::feed` each chunk, drain `next_frame`, read
//!   `frame.data()`; `finish()` at the end.
//! * `ssekit-ref`: the same with `next_frame_ref` (borrowed frames).
//! * `memchr`: the cheapest correct frame counter for these LF-only inputs:
//!   `memchr_iter(b'\n')` over each chunk, counting blank lines that end a
//!   block holding a non-comment line, with the state that crosses chunks.
//! * `sse-core`: its sans-IO `SseDecoder::next(&mut Bytes)` directly, the
//!   payload limit raised from 512 KiB to 32 MiB (ssekit's default event
//!   limit) so the 1 MiB line is legal for it too.
//! * `sse-stream` (default features: memchr, simdutf8): `SseByteStream` (its
//!   documented fast path for byte streams) over `futures::stream::iter`.
//! * `sseer`: `EventStream` over `futures::stream::iter` of `Bytes`.
//! * `sse-parse`: its sans-IO `SseParser` (`feed(&[u8])`, `next_event`),
//!   with a 32 MiB block cap (its default is none).
//! * `eventsource-stream`: `Eventsource` over `futures::stream::iter`.
//!
//! Streams are driven by `futures::executor::block_on`; `stream::iter` is
//! always ready, so the only async cost is the `poll_next` calls themselves.
//! Every engine counts frames (events with data) and every iteration asserts
//! the expected count.
//!
//! Before an engine is measured on an input it is probed once, on a helper
//! thread, on growing prefixes of the input and then the whole of it: a
//! probe that exceeds its time budget (quadratic behaviour), panics, or ends
//! with the wrong frame count takes the engine out of that benchmark, with a
//! printed note. At the end the bench prints (and writes next to criterion's
//! output, as `framing-summary.md`) a table of MiB/s and the ratios the
//! targets are stated in, all from this run.
//!
//! Environment: `SSEKIT_BENCH_PROBE_SECS` (probe budget per pass, default 2);
//! `SSEKIT_FRAMING_ONLY=<input>/<engine>/<chunking>[/<passes>]` runs one
//! engine alone, without criterion, for a profiler (see `only`);
//! `SSEKIT_FRAMING_PAIRED=<rounds>` times the cells that have targets
//! with the engines taking turns, and prints the median of each round's
//! ratios with the verdicts (see `paired`; about a minute for 15 rounds);
//! `SSEKIT_BENCH_DUMP_DIR=<dir>` writes every generated input there as
//! `<name>.sse` for inspection.

mod support;

use std::convert::Infallible;
use std::fmt::Write as _;
use std::hint::black_box;
use std::num::NonZeroUsize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant, SystemTime};

use bytes::Bytes;
use criterion::{BatchSize, BenchmarkId, Criterion, SamplingMode, Throughput};
use futures::executor::block_on;
use futures::StreamExt as _;

use support::{Chunking, Input};

// ---------------------------------------------------------------------------
// Engines

/// Receives the frames an engine dispatches.
trait Sink {
    /// One frame with `len` bytes of data; `false` asks the engine to stop
    /// (used only to cancel probes).
    fn frame(&mut self, len: usize) -> bool;

    /// Whether the engine sees the whole stream (so an unfinished tail is a
    /// failure), not a probe's prefix of it that may end mid-event.
    fn whole_stream(&self) -> bool {
        true
    }
}

/// The timed sink: counts, and keeps the length observable.
struct Count(usize);

impl Sink for Count {
    #[inline(always)]
    fn frame(&mut self, len: usize) -> bool {
        black_box(len);
        self.0 += 1;
        true
    }
}

/// The probe sink: counts, and stops when cancelled.
struct ProbeSink<'a> {
    frames: usize,
    cancel: &'a AtomicBool,
    whole: bool,
    /// A frame was refused because the probe was cancelled.
    refused: bool,
}

impl Sink for ProbeSink<'_> {
    fn frame(&mut self, len: usize) -> bool {
        black_box(len);
        self.frames += 1;
        let go = !self.cancel.load(Relaxed);
        self.refused |= !go;
        go
    }

    fn whole_stream(&self) -> bool {
        self.whole
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Engine {
    Ssekit,
    SsekitRef,
    Memchr,
    SseCore,
    SseStream,
    Sseer,
    SseParse,
    EventsourceStream,
}

impl Engine {
    const ALL: [Engine; 8] = [
        Engine::Ssekit,
        Engine::SsekitRef,
        Engine::Memchr,
        Engine::SseCore,
        Engine::SseStream,
        Engine::Sseer,
        Engine::SseParse,
        Engine::EventsourceStream,
    ];
    const PEERS: [Engine; 5] = [
        Engine::SseCore,
        Engine::SseStream,
        Engine::Sseer,
        Engine::SseParse,
        Engine::EventsourceStream,
    ];

    fn name(self) -> &'static str {
        match self {
            Engine::Ssekit => "ssekit",
            Engine::SsekitRef => "ssekit-ref",
            Engine::Memchr => "memchr-scan",
            Engine::SseCore => "sse-core",
            Engine::SseStream => "sse-stream",
            Engine::Sseer => "sseer",
            Engine::SseParse => "sse-parse",
            Engine::EventsourceStream => "eventsource-stream",
        }
    }

    fn run<I: Iterator<Item = Bytes>, S: Sink>(self, chunks: I, sink: &mut S) {
        match self {
            Engine::Ssekit => run_ssekit(chunks, sink),
            Engine::SsekitRef => run_ssekit_ref(chunks, sink),
            Engine::Memchr => run_memchr(chunks, sink),
            Engine::SseCore => run_sse_core(chunks, sink),
            Engine::SseStream => run_sse_stream(chunks, sink),
            Engine::Sseer => run_sseer(chunks, sink),
            Engine::SseParse => run_sse_parse(chunks, sink),
            Engine::EventsourceStream => run_eventsource_stream(chunks, sink),
        }
    }
}

fn run_ssekit<I: Iterator<Item = Bytes>, S: Sink>(chunks: I, sink: &mut S) {
    let mut parser = ssekit::Parser::new();
    for chunk in chunks {
        parser.feed(chunk);
        while let Some(frame) = parser.next_frame().expect("ssekit: frame error") {
            if !sink.frame(frame.data().len()) {
                return;
            }
        }
    }
    if let Err(e) = parser.finish() {
        assert!(!sink.whole_stream(), "ssekit: {e}");
    }
}

/// `ssekit-ref`: the borrowed frames of `Parser::next_frame_ref` (no
/// reference counts, no `Frame` moves), data read as `&str`.
fn run_ssekit_ref<I: Iterator<Item = Bytes>, S: Sink>(chunks: I, sink: &mut S) {
    let mut parser = ssekit::Parser::new();
    for chunk in chunks {
        parser.feed(chunk);
        while let Some(frame) = parser.next_frame_ref().expect("ssekit: frame error") {
            if !sink.frame(frame.data().len()) {
                return;
            }
        }
    }
    if let Err(e) = parser.finish() {
        assert!(!sink.whole_stream(), "ssekit: {e}");
    }
}

/// Counts frames of an LF-only stream: blank lines that end a block in which
/// some line did not start with `:`. The state carried across chunks is
/// whether a line is open (and its first byte) and whether the block has a
/// field line.
fn run_memchr<I: Iterator<Item = Bytes>, S: Sink>(chunks: I, sink: &mut S) {
    let mut open = false; // a line started in an earlier chunk is still open
    let mut open_first = 0u8; // its first byte
    let mut block = false; // the current block has a non-comment line
    for chunk in chunks {
        let c = &chunk[..];
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', c) {
            let first = if open {
                Some(open_first)
            } else if nl > start {
                Some(c[start])
            } else {
                None
            };
            open = false;
            match first {
                None => {
                    if block {
                        block = false;
                        if !sink.frame(0) {
                            return;
                        }
                    }
                }
                Some(b) => block |= b != b':',
            }
            start = nl + 1;
        }
        if start < c.len() && !open {
            open = true;
            open_first = c[start];
        }
    }
}

/// The least work a parser that hands out each line as checked text must do
/// (single-engine mode only, `copy-floor`): per LF-only line, `memchr2` for
/// its end, a copy of the pieces of a line that spans reads into one buffer,
/// and `simdutf8` over the line; a blank line after a field line is a frame.
fn run_copy_floor<I: Iterator<Item = Bytes>, S: Sink>(chunks: I, sink: &mut S) {
    let mut buf: Vec<u8> = Vec::new();
    let mut block = false;
    for chunk in chunks {
        let mut c = &chunk[..];
        while let Some(end) = memchr::memchr2(b'\n', b'\r', c) {
            let line: &[u8] = if buf.is_empty() {
                &c[..end]
            } else {
                buf.extend_from_slice(&c[..end]);
                &buf
            };
            if line.is_empty() {
                if block {
                    block = false;
                    if !sink.frame(0) {
                        return;
                    }
                }
            } else {
                assert!(simdutf8::basic::from_utf8(line).is_ok());
                block |= line[0] != b':';
            }
            buf.clear();
            c = &c[end + 1..];
        }
        buf.extend_from_slice(c);
    }
}

fn run_sse_core<I: Iterator<Item = Bytes>, S: Sink>(chunks: I, sink: &mut S) {
    let limit = NonZeroUsize::new(32 << 20).expect("nonzero");
    let mut decoder = sse_core::SseDecoder::with_limit(limit);
    for mut chunk in chunks {
        while let Some(event) = decoder.next(&mut chunk) {
            match event.expect("sse-core: payload too large") {
                sse_core::SseEvent::Message(m) => {
                    if !sink.frame(m.data.len()) {
                        return;
                    }
                }
                sse_core::SseEvent::Retry(_) => {}
            }
        }
    }
}

fn run_sse_stream<I: Iterator<Item = Bytes>, S: Sink>(chunks: I, sink: &mut S) {
    let stream =
        sse_stream::SseByteStream::new(futures::stream::iter(chunks.map(Ok::<_, Infallible>)));
    block_on(async {
        let mut stream = pin!(stream);
        while let Some(event) = stream.next().await {
            // sse-stream also yields blocks without data (metadata only);
            // those are not frames.
            if let Some(data) = event.expect("sse-stream: error").data {
                if !sink.frame(data.len()) {
                    return;
                }
            }
        }
    });
}

fn run_sseer<I: Iterator<Item = Bytes>, S: Sink>(chunks: I, sink: &mut S) {
    let stream = sseer::EventStream::new(futures::stream::iter(chunks.map(Ok::<_, Infallible>)));
    block_on(async {
        let mut stream = pin!(stream);
        while let Some(event) = stream.next().await {
            let event = event.expect("sseer: error");
            if !sink.frame(event.data.len()) {
                return;
            }
        }
    });
}

/// `sse-parse`: its sans-IO `SseParser` (`feed(&[u8])`, `next_event()`),
/// with a 32 MiB block cap as ssekit's default event limit (its default is
/// none).
fn run_sse_parse<I: Iterator<Item = Bytes>, S: Sink>(chunks: I, sink: &mut S) {
    let mut parser = sse_parse::SseParser::new().max_buffer(32 << 20);
    for chunk in chunks {
        parser.feed(&chunk);
        while let Some(event) = parser.next_event() {
            if !sink.frame(event.data.len()) {
                return;
            }
        }
    }
    parser.finish();
    while let Some(event) = parser.next_event() {
        if !sink.frame(event.data.len()) {
            return;
        }
    }
}

fn run_eventsource_stream<I: Iterator<Item = Bytes>, S: Sink>(chunks: I, sink: &mut S) {
    let stream = eventsource_stream::EventStream::new(futures::stream::iter(
        chunks.map(Ok::<_, Infallible>),
    ));
    block_on(async {
        let mut stream = pin!(stream);
        while let Some(event) = stream.next().await {
            let event = event.expect("eventsource-stream: error");
            if !sink.frame(event.data.len()) {
                return;
            }
        }
    });
}

// ---------------------------------------------------------------------------
// Probes: correctness and feasibility before measuring

enum Probe {
    /// One full pass gave the expected count, in this time.
    Ok(Duration),
    /// Left out of this benchmark, with the reason.
    Skip(String),
}

/// The first `len` bytes of the chunked input, chunked the same way.
fn prefix(chunks: &[Bytes], len: usize) -> Vec<Bytes> {
    let mut out = Vec::new();
    let mut have = 0;
    for c in chunks {
        if have >= len {
            break;
        }
        let take = c.len().min(len - have);
        out.push(c.slice(..take));
        have += take;
    }
    out
}

enum Pass {
    Done { frames: usize, elapsed: Duration },
    Cancelled { consumed: u64, elapsed: Duration },
    Panicked(String),
}

/// One pass of `engine` over `chunks` on a helper thread, cancelled (at the
/// next chunk or frame) once `budget` has passed.
fn pass(engine: Engine, chunks: Vec<Bytes>, whole: bool, budget: Duration) -> Pass {
    let cancel = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    // Whether the engine was actually cut short (by a refused chunk or frame).
    let stopped = AtomicBool::new(false);
    let consumed = AtomicU64::new(0);
    std::thread::scope(|s| {
        let worker = s.spawn(|| {
            let mut sink = ProbeSink {
                frames: 0,
                cancel: &cancel,
                whole,
                refused: false,
            };
            let t = Instant::now();
            let it = chunks
                .into_iter()
                .take_while(|_| {
                    let go = !cancel.load(Relaxed);
                    if !go {
                        stopped.store(true, Relaxed);
                    }
                    go
                })
                .inspect(|c| {
                    consumed.fetch_add(c.len() as u64, Relaxed);
                });
            let r = catch_unwind(AssertUnwindSafe(|| engine.run(it, &mut sink)));
            let elapsed = t.elapsed();
            if sink.refused {
                stopped.store(true, Relaxed);
            }
            finished.store(true, Relaxed);
            (sink.frames, elapsed, r)
        });
        let deadline = Instant::now() + budget;
        while !finished.load(Relaxed) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        cancel.store(true, Relaxed);
        let (frames, elapsed, r) = worker.join().expect("probe thread");
        match r {
            Err(e) => Pass::Panicked(
                e.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_else(|| "panic".to_owned()),
            ),
            Ok(()) if stopped.load(Relaxed) || elapsed > budget => Pass::Cancelled {
                consumed: consumed.load(Relaxed),
                elapsed,
            },
            Ok(()) => Pass::Done { frames, elapsed },
        }
    })
}

/// Runs `engine` on prefixes of 256 KiB, 512 KiB, ... and then the whole
/// input, each within `budget`. Growing prefixes bound how long a quadratic
/// engine can run inside one call that cannot be cancelled, and their times
/// show how the cost grows.
fn probe(engine: Engine, chunks: &[Bytes], expected: usize, budget: Duration) -> Probe {
    let total: usize = chunks.iter().map(Bytes::len).sum();
    let mut len = total.min(256 << 10);
    let mut times: Vec<(usize, Duration)> = Vec::new();
    loop {
        let full = len >= total;
        let input = if full {
            chunks.to_vec()
        } else {
            prefix(chunks, len)
        };
        match pass(engine, input, full, budget) {
            Pass::Panicked(msg) => return Probe::Skip(format!("panicked: {msg}")),
            Pass::Cancelled { consumed, elapsed } => {
                let mut why = format!(
                    "did not finish one pass over {} in {:.1} s ({:.2} MiB consumed, {:.2} MiB/s)",
                    human(len),
                    elapsed.as_secs_f64(),
                    consumed as f64 / MIB,
                    consumed as f64 / MIB / elapsed.as_secs_f64()
                );
                why.push_str(&growth(&times));
                return Probe::Skip(why);
            }
            Pass::Done { frames, elapsed } => {
                times.push((len, elapsed));
                if full {
                    if frames != expected {
                        return Probe::Skip(format!(
                            "wrong frame count: {frames}, expected {expected}"
                        ));
                    }
                    return Probe::Ok(elapsed);
                }
                // A linear extrapolation already over budget: stop here.
                let projected = elapsed.as_secs_f64() * total as f64 / len as f64;
                if projected > 4.0 * budget.as_secs_f64() {
                    let mut why = format!(
                        "projected ≥ {:.0} s per pass ({} took {:.2} s)",
                        projected,
                        human(len),
                        elapsed.as_secs_f64()
                    );
                    why.push_str(&growth(&times));
                    return Probe::Skip(why);
                }
                len = (len * 2).min(total);
            }
        }
    }
}

/// "; time ×3.9 per ×2 input" from the last two prefix timings, if any.
fn growth(times: &[(usize, Duration)]) -> String {
    match times {
        [.., (l0, t0), (l1, t1)] if *l1 == 2 * *l0 && t0.as_secs_f64() > 1e-3 => {
            format!(
                "; time ×{:.1} when the input doubles",
                t1.as_secs_f64() / t0.as_secs_f64()
            )
        }
        _ => String::new(),
    }
}

const MIB: f64 = (1u64 << 20) as f64;

fn human(n: usize) -> String {
    if n >= 1 << 20 {
        format!("{:.1} MiB", n as f64 / MIB)
    } else {
        format!("{} KiB", n >> 10)
    }
}

// ---------------------------------------------------------------------------
// Which benchmarks criterion will run (so probes run only for those)

struct Filter {
    list_only: bool,
    exact: bool,
    pattern: Option<String>,
}

impl Filter {
    /// Mirrors criterion's command line closely enough: the first free
    /// argument is the filter. Regex filters are not interpreted; with one,
    /// everything is probed (conservative).
    fn from_args() -> Self {
        const WITH_VALUE: &[&str] = &[
            "--save-baseline",
            "-s",
            "--baseline",
            "-b",
            "--baseline-lenient",
            "--load-baseline",
            "--sample-size",
            "--warm-up-time",
            "--measurement-time",
            "--nresamples",
            "--noise-threshold",
            "--confidence-level",
            "--significance-level",
            "--profile-time",
            "--plotting-backend",
            "--output-format",
            "--color",
            "-c",
            "--format",
        ];
        let args: Vec<String> = std::env::args().skip(1).collect();
        let mut f = Filter {
            list_only: false,
            exact: false,
            pattern: None,
        };
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if a == "--list" {
                f.list_only = true;
            } else if a == "--exact" {
                f.exact = true;
            } else if WITH_VALUE.contains(&a.as_str()) {
                i += 1;
            } else if !a.starts_with('-') && f.pattern.is_none() {
                f.pattern = Some(a.clone());
            }
            i += 1;
        }
        f
    }

    fn selects(&self, id: &str) -> bool {
        match &self.pattern {
            None => true,
            Some(p) if self.exact => id == p,
            Some(p) if p.contains(|c: char| "\\.*+?()[]{}|^$".contains(c)) => true,
            Some(p) => id.contains(p.as_str()),
        }
    }
}

// ---------------------------------------------------------------------------
// The benchmarks

struct Case {
    input: Input,
    chunkings: Vec<Chunking>,
}

struct Note {
    id: String,
    why: String,
}

fn bench_case(
    c: &mut Criterion,
    case: &Case,
    filter: &Filter,
    budget: Duration,
    notes: &mut Vec<Note>,
) {
    let input = &case.input;
    let mut group = c.benchmark_group(input.name);
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(500));
    // The Responses stream carries the targets: it gets the longer window.
    group.measurement_time(if input.name == "responses" {
        Duration::from_secs(2)
    } else {
        Duration::from_millis(1500)
    });
    group.throughput(Throughput::Bytes(input.bytes.len() as u64));
    for &chunking in &case.chunkings {
        let chunks = chunking.split(&input.bytes);
        let param = chunking.label();
        for engine in Engine::ALL {
            let id = format!("{}/{}/{}", input.name, engine.name(), param);
            if filter.selects(&id) && !filter.list_only {
                match probe(engine, &chunks, input.frames, budget) {
                    Probe::Ok(t) => {
                        println!("probe {id}: one pass in {:.1} ms", t.as_secs_f64() * 1e3)
                    }
                    Probe::Skip(why) => {
                        println!("SKIPPED {id}: {why}");
                        notes.push(Note { id, why });
                        continue;
                    }
                }
            }
            let expected = input.frames;
            group.bench_with_input(
                BenchmarkId::new(engine.name(), &param),
                &chunks,
                |b, chunks| {
                    b.iter_batched(
                        || chunks.clone(),
                        |chunks| {
                            let mut count = Count(0);
                            engine.run(chunks.into_iter(), &mut count);
                            assert_eq!(count.0, expected, "{} frame count", engine.name());
                        },
                        BatchSize::PerIteration,
                    );
                },
            );
        }
    }
    group.finish();
}

fn cases() -> Vec<Case> {
    cases_named(|_| true)
}

/// An input's name, its generator and its chunkings.
type InputSpec<'c> = (&'static str, fn() -> Input, &'c Vec<Chunking>);

/// The cases whose input name `wanted` accepts (inputs are only generated
/// for those).
fn cases_named(wanted: impl Fn(&str) -> bool) -> Vec<Case> {
    let standard = Chunking::STANDARD.to_vec();
    // The LLM streams and the tool-argument events: 16 B reads, a TCP
    // segment, 4 KiB reads, one event per read (how servers flush), and
    // the whole stream.
    let llm = vec![
        Chunking::Bytes(16),
        Chunking::Bytes(1460),
        Chunking::Bytes(4096),
        Chunking::Events,
        Chunking::Whole,
    ];
    let all: [InputSpec<'_>; 7] = [
        ("responses", support::varied_responses, &llm),
        ("chat", support::varied_chat, &llm),
        ("anthropic", support::varied_anthropic, &llm),
        ("tiny", support::tiny, &standard),
        ("data40k", support::tool_arguments_40k, &llm),
        ("keepalive", support::keep_alive, &standard),
        ("line1MiB", support::long_line, &standard),
    ];
    all.into_iter()
        .filter(|(name, ..)| wanted(name))
        .map(|(name, input, chunkings)| Case {
            input: input(),
            chunkings: if name == "line1MiB" {
                vec![Chunking::Bytes(1)]
            } else {
                chunkings.clone()
            },
        })
        .collect()
}

/// Single-engine mode, for profilers (`callgrind`, `perf`):
/// `SSEKIT_FRAMING_ONLY=<input>/<engine>/<chunking>[/<passes>]` (the ids
/// criterion prints, e.g. `responses/ssekit/4KiB/20`) runs that engine over
/// that input `passes` times (default 10), asserting the frame count each
/// time, and exits without criterion. `<engine>` may be `none` to measure
/// only the setup (input generation and slicing), to subtract it, or
/// `copy-floor` (LF-only inputs): the least work of a parser that hands out
/// checked text, the floor for the 40 KiB targets (`run_copy_floor`).
fn only(spec: &str, cases: &[Case]) {
    let parts: Vec<&str> = spec.split('/').collect();
    let [input, engine, chunking, rest @ ..] = parts.as_slice() else {
        panic!("SSEKIT_FRAMING_ONLY: expected <input>/<engine>/<chunking>[/<passes>], got {spec}");
    };
    let passes: usize = rest
        .first()
        .map_or(10, |p| p.parse().expect("passes"))
        .max(1);
    let case = cases
        .iter()
        .find(|c| c.input.name == *input)
        .unwrap_or_else(|| panic!("no input {input}"));
    let chunking = case
        .chunkings
        .iter()
        .copied()
        .find(|c| c.label() == *chunking)
        .unwrap_or_else(|| panic!("no chunking {chunking} for {input}"));
    let chunks = chunking.split(&case.input.bytes);
    if *engine == "none" {
        black_box(&chunks);
        return;
    }
    let copy_floor = *engine == "copy-floor";
    let engine = (!copy_floor).then(|| {
        Engine::ALL
            .into_iter()
            .find(|e| e.name() == *engine)
            .unwrap_or_else(|| panic!("no engine {engine}"))
    });
    // Each pass is timed as criterion times it: the chunk list is cloned
    // outside the clock (`iter_batched`), the run and the drop of the list
    // inside it.
    let mut times: Vec<Duration> = (0..passes)
        .map(|_| timed_pass(engine, &chunks, case.input.frames, spec))
        .collect();
    times.sort();
    println!(
        "{spec}: {passes} passes, {} frames each, {} bytes in {} chunks; \
         pass time best {:.4} ms, median {:.4} ms",
        case.input.frames,
        case.input.bytes.len(),
        chunks.len(),
        times[0].as_secs_f64() * 1e3,
        times[times.len() / 2].as_secs_f64() * 1e3,
    );
}

/// One pass of `engine` (`None`: the copy floor) over `chunks`, timed as
/// criterion's `iter_batched` times it: the list is cloned outside the
/// clock, the run and the drop of the list inside it. Asserts the frame
/// count (`what` names the cell in the message).
fn timed_pass(engine: Option<Engine>, chunks: &[Bytes], frames: usize, what: &str) -> Duration {
    let mut count = Count(0);
    let list = chunks.to_vec();
    let t = Instant::now();
    match engine {
        Some(engine) => engine.run(list.into_iter(), &mut count),
        None => run_copy_floor(list.into_iter(), &mut count),
    }
    let elapsed = t.elapsed();
    assert_eq!(count.0, frames, "{what}: frame count");
    elapsed
}

/// The target for a cell of an LLM stream: 2× the fastest peer
/// (`peer`), or 60% of the memchr scan where 2× the peer would exceed
/// that. Returns the engine the ratio is taken against and the ratio
/// wanted.
fn llm_target(peer: Engine, peer_rate: f64, scan_rate: Option<f64>) -> (Engine, f64) {
    match scan_rate {
        Some(scan) if 2.0 * peer_rate > 0.6 * scan => (Engine::Memchr, 0.6),
        _ => (peer, 2.0),
    }
}

/// A target as the tables state it: `≥ 2× sse-stream`, `≥ 0.60× memchr scan`.
fn target_text(by: Engine, want: f64) -> String {
    match by {
        Engine::Memchr => format!("≥ {want:.2}× memchr scan"),
        _ => format!("≥ {want}× {}", by.name()),
    }
}

/// The cells that have targets: `(input, chunking)`.
const TARGET_CELLS: [(&str, &str); 12] = [
    ("responses", "4KiB"),
    ("responses", "event"),
    ("responses", "16B"),
    ("chat", "4KiB"),
    ("chat", "event"),
    ("chat", "16B"),
    ("anthropic", "4KiB"),
    ("anthropic", "event"),
    ("anthropic", "16B"),
    ("data40k", "1460B"),
    ("data40k", "4KiB"),
    ("data40k", "event"),
];

/// The median of `v` (sorted here; the mean of the two middle values when
/// their number is even).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Paired mode, for ratios that the load moves less:
/// `SSEKIT_FRAMING_PAIRED=<rounds>` times the cells with targets without
/// criterion. In each round every engine but eventsource-stream (8–140×
/// behind in every such cell, and seconds per pass at 16 B) runs in turn,
/// starting one engine later each round, over the same chunk list (cloned
/// outside the clock, as criterion's `iter_batched` has it); a measurement
/// is as many passes as take `ssekit-ref` about 20 ms. A round's ratio is
/// taken between measurements of that round only, so a change of load
/// between rounds cancels out; the table gives the median of the rounds'
/// ratios, and the target verdicts from them (the rule of the criterion
/// summary: 2× the fastest peer, or 60% of the memchr scan where that is
/// lower; 1.5× sse-core and ahead of every peer on 40 KiB events).
fn paired(rounds: usize) {
    let engines: Vec<Engine> = Engine::ALL
        .into_iter()
        .filter(|e| *e != Engine::EventsourceStream)
        .collect();
    let pos = |e: Engine| engines.iter().position(|x| *x == e).expect("engine");
    let peers: Vec<Engine> = Engine::PEERS
        .into_iter()
        .filter(|e| engines.contains(e))
        .collect();
    let load = || std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "paired mode: {rounds} rounds per cell, engines in turn; load average at start: {}",
        load().split_whitespace().next().unwrap_or("?")
    );
    let mut md = String::from(
        "| cell | ssekit-ref MiB/s | ÷ sse-core | ÷ sse-stream | ÷ sseer | ÷ sse-parse | ÷ memchr scan | target | ssekit-ref (ssekit) | verdict |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |\n",
    );
    for (input, chunking) in TARGET_CELLS {
        let cases = cases_named(|name| name == input);
        let case = &cases[0];
        let chunks = case
            .chunkings
            .iter()
            .copied()
            .find(|c| c.label() == chunking)
            .expect("target chunking")
            .split(&case.input.bytes);
        let run = |e: Engine, passes: usize| {
            let what = format!("{input}/{}/{chunking}", e.name());
            let total: Duration = (0..passes)
                .map(|_| timed_pass(Some(e), &chunks, case.input.frames, &what))
                .sum();
            total.as_secs_f64() / passes as f64
        };
        let one = run(Engine::SsekitRef, 3);
        let passes = ((0.02 / one).ceil() as usize).max(1);
        // times[round][engine], seconds per pass
        let mut times = vec![vec![0.0; engines.len()]; rounds];
        for (r, row) in times.iter_mut().enumerate() {
            for k in 0..engines.len() {
                let i = (r + k) % engines.len();
                row[i] = run(engines[i], passes);
            }
        }
        let mib = case.input.bytes.len() as f64 / MIB;
        let rate = |e: Engine| {
            let mut v: Vec<f64> = times.iter().map(|t| mib / t[pos(e)]).collect();
            median(&mut v)
        };
        // The median over rounds of `by`'s time ÷ `e`'s time.
        let ratio = |e: Engine, by: Engine| {
            let mut v: Vec<f64> = times.iter().map(|t| t[pos(by)] / t[pos(e)]).collect();
            median(&mut v)
        };
        let best_peer = peers
            .iter()
            .copied()
            .max_by(|a, b| rate(*a).total_cmp(&rate(*b)))
            .expect("a peer");
        let want = if input == "data40k" {
            (Engine::SseCore, 1.5)
        } else {
            llm_target(best_peer, rate(best_peer), Some(rate(Engine::Memchr)))
        };
        let target = target_text(want.0, want.1);
        let got_ref = ratio(Engine::SsekitRef, want.0);
        let got_owned = ratio(Engine::Ssekit, want.0);
        let mut verdict = if got_ref.max(got_owned) >= want.1 {
            "met"
        } else {
            "MISSED"
        }
        .to_owned();
        if input == "data40k" {
            // Also ahead of every peer, by the better of the two engines.
            let behind: Vec<&str> = peers
                .iter()
                .filter(|p| ratio(Engine::SsekitRef, **p).max(ratio(Engine::Ssekit, **p)) < 1.0)
                .map(|p| p.name())
                .collect();
            if !behind.is_empty() {
                verdict = format!("{verdict}; behind {}", behind.join(", "));
            }
        }
        let f = |r: f64| format!("{r:.2}×");
        let line = format!(
            "| {input}/{chunking} | {} | {} | {} | {} | {} | {} | {target} | {} ({}) | {verdict} |",
            fmt_rate(rate(Engine::SsekitRef)),
            f(ratio(Engine::SsekitRef, Engine::SseCore)),
            f(ratio(Engine::SsekitRef, Engine::SseStream)),
            f(ratio(Engine::SsekitRef, Engine::Sseer)),
            f(ratio(Engine::SsekitRef, Engine::SseParse)),
            f(ratio(Engine::SsekitRef, Engine::Memchr)),
            f(got_ref),
            f(got_owned),
        );
        println!("{line}");
        md.push_str(&line);
        md.push('\n');
    }
    println!(
        "\nload average at end: {}\n\n{md}",
        load().split_whitespace().next().unwrap_or("?")
    );
}

fn main() {
    let started = SystemTime::now();
    let filter = Filter::from_args();
    let budget = Duration::from_secs_f64(
        std::env::var("SSEKIT_BENCH_PROBE_SECS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2.0),
    );
    if let Ok(rounds) = std::env::var("SSEKIT_FRAMING_PAIRED") {
        paired(
            rounds
                .parse()
                .expect("SSEKIT_FRAMING_PAIRED: a number of rounds"),
        );
        return;
    }
    if let Ok(spec) = std::env::var("SSEKIT_FRAMING_ONLY") {
        let input = spec.split('/').next().unwrap_or_default();
        only(&spec, &cases_named(|name| name == input));
        return;
    }
    let cases = cases();
    if std::env::var_os("SSEKIT_FRAMING_SUMMARY_ONLY").is_some() {
        // The tables again, from the estimates criterion keeps in
        // target/criterion (of the last run of each cell), without benching.
        summary(SystemTime::UNIX_EPOCH, &cases, &[]);
        return;
    }
    if let Some(dir) = std::env::var_os("SSEKIT_BENCH_DUMP_DIR") {
        // For inspecting the generated inputs: `<dir>/<name>.sse`.
        for case in &cases {
            let path = PathBuf::from(&dir).join(format!("{}.sse", case.input.name));
            std::fs::write(&path, &case.input.bytes).expect("write dump");
        }
    }
    if !filter.list_only {
        for case in &cases {
            println!(
                "input {}: {} — {} bytes ({:.2} MiB), {} frames",
                case.input.name,
                case.input.about,
                case.input.bytes.len(),
                case.input.bytes.len() as f64 / MIB,
                case.input.frames
            );
        }
    }
    let mut c = Criterion::default().configure_from_args();
    let mut notes = Vec::new();
    for case in &cases {
        bench_case(&mut c, case, &filter, budget, &mut notes);
    }
    c.final_summary();
    if !filter.list_only {
        summary(started, &cases, &notes);
    }
}

// ---------------------------------------------------------------------------
// The report: MiB/s per engine and the target ratios, from this run's
// criterion estimates (median time per iteration).

fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(dir).join("criterion");
    }
    // <target>/release/deps/framing-<hash>
    let exe = std::env::current_exe().expect("current exe");
    exe.ancestors()
        .nth(3)
        .map(|t| t.join("criterion"))
        .unwrap_or_else(|| PathBuf::from("target/criterion"))
}

/// Median MiB/s of `group/engine/param`, if it was measured in this run.
fn measured(
    dir: &std::path::Path,
    since: SystemTime,
    bytes: usize,
    group: &str,
    engine: &str,
    param: &str,
) -> Option<f64> {
    let path = dir
        .join(group)
        .join(engine)
        .join(param)
        .join("new")
        .join("estimates.json");
    let meta = std::fs::metadata(&path).ok()?;
    if meta.modified().ok()? < since {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
    let ns = v.get("median")?.get("point_estimate")?.as_f64()?;
    Some(bytes as f64 / MIB / (ns * 1e-9))
}

fn summary(started: SystemTime, cases: &[Case], notes: &[Note]) {
    let dir = criterion_dir();
    let mut md = String::new();
    let mut any = false;
    let _ = writeln!(
        md,
        "### Throughput, MiB/s (median of the samples; higher is better)\n"
    );
    let mut head = String::from("| input | chunks |");
    let mut rule = String::from("| --- | --- |");
    for e in Engine::ALL {
        let _ = write!(head, " {} |", e.name());
        rule.push_str(" ---: |");
    }
    let _ = writeln!(md, "{head}\n{rule}");
    // (input, chunking) -> engine -> MiB/s
    let mut table: Vec<(&str, String, Vec<Option<f64>>)> = Vec::new();
    for case in cases {
        for &ch in &case.chunkings {
            let param = ch.label();
            let row: Vec<Option<f64>> = Engine::ALL
                .iter()
                .map(|e| {
                    measured(
                        &dir,
                        started,
                        case.input.bytes.len(),
                        case.input.name,
                        e.name(),
                        &param,
                    )
                })
                .collect();
            let skipped: Vec<bool> = Engine::ALL
                .iter()
                .map(|e| {
                    let id = format!("{}/{}/{}", case.input.name, e.name(), param);
                    notes.iter().any(|n| n.id == id)
                })
                .collect();
            if row.iter().all(Option::is_none) && !skipped.iter().any(|s| *s) {
                continue;
            }
            any = true;
            let mut line = format!("| {} | {} |", case.input.name, param);
            for (v, s) in row.iter().zip(&skipped) {
                match (v, s) {
                    (Some(v), _) => {
                        let _ = write!(line, " {} |", fmt_rate(*v));
                    }
                    (None, true) => line.push_str(" skipped¹ |"),
                    (None, false) => line.push_str(" – |"),
                }
            }
            let _ = writeln!(md, "{line}");
            table.push((case.input.name, param, row));
        }
    }
    if !any {
        return;
    }
    if !notes.is_empty() {
        let _ = writeln!(md, "\n¹ Left out after the probe pass:\n");
        for n in notes {
            let _ = writeln!(md, "- `{}`: {}", n.id, n.why);
        }
    }

    let idx = |e: Engine| Engine::ALL.iter().position(|x| *x == e).expect("engine");
    let ratio = |row: &[Option<f64>], e: Engine| -> Option<f64> {
        Some(row[idx(Engine::Ssekit)]? / row[idx(e)]?)
    };
    let best_peer = |row: &[Option<f64>]| -> Option<(Engine, f64)> {
        Engine::PEERS
            .iter()
            .filter_map(|e| row[idx(*e)].map(|v| (*e, v)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    };

    let _ = writeln!(
        md,
        "\n### Ratios (ssekit ÷ engine, same run)\n\n| input | chunks | ÷ sse-stream | ÷ sse-core | ÷ sseer | ÷ eventsource-stream | ÷ best peer | ÷ memchr-scan |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    for (name, param, row) in &table {
        let f = |r: Option<f64>| r.map_or("–".to_owned(), |r| format!("{r:.2}×"));
        let best = best_peer(row).and_then(|(e, v)| Some((e, row[idx(Engine::Ssekit)]? / v)));
        let best = best.map_or("–".to_owned(), |(e, r)| format!("{r:.2}× ({})", e.name()));
        let _ = writeln!(
            md,
            "| {name} | {param} | {} | {} | {} | {} | {best} | {} |",
            f(ratio(row, Engine::SseStream)),
            f(ratio(row, Engine::SseCore)),
            f(ratio(row, Engine::Sseer)),
            f(ratio(row, Engine::EventsourceStream)),
            f(ratio(row, Engine::Memchr)),
        );
    }

    // The targets, for the owned (`ssekit`) and borrowed
    // (`ssekit-ref`) engines.
    let row_of = |input: &str, param: &str| {
        table
            .iter()
            .find(|(n, p, _)| *n == input && p == param)
            .map(|t| &t.2)
    };
    let of = |row: &[Option<f64>], e: Engine, by: Engine| Some(row[idx(e)]? / row[idx(by)]?);
    let _ = writeln!(
        md,
        "\n### Targets\n\nIn a cell where 2× the best peer would exceed 60% of the memchr scan, \
         the target is 60% of the scan.\n\n| target | ssekit | ssekit-ref | verdict (best of the two) |\n| --- | ---: | ---: | --- |"
    );
    let mut check = |what: String, got: [Option<f64>; 2], want: f64| {
        let f = |g: Option<f64>| g.map_or("–".to_owned(), |g| format!("{g:.2}×"));
        let best = got.iter().flatten().copied().reduce(f64::max);
        let verdict = match best {
            Some(g) if g >= want => "met",
            Some(_) => "MISSED",
            None => "not measured",
        };
        let _ = writeln!(md, "| {what} | {} | {} | {verdict} |", f(got[0]), f(got[1]));
    };
    for input in ["responses", "chat", "anthropic"] {
        for param in ["4KiB", "event", "16B"] {
            let Some(row) = row_of(input, param) else {
                continue;
            };
            let Some((peer, peer_rate)) = best_peer(row) else {
                continue;
            };
            let (by, want) = llm_target(peer, peer_rate, row[idx(Engine::Memchr)]);
            let got = [Engine::Ssekit, Engine::SsekitRef].map(|e| of(row, e, by));
            check(
                format!("{input} {param}: {}", target_text(by, want)),
                got,
                want,
            );
        }
    }
    if let Some(row) = row_of("responses", "4KiB") {
        let got = [Engine::Ssekit, Engine::SsekitRef].map(|e| of(row, e, Engine::Memchr));
        check("responses 4KiB: ≥ 0.40× memchr scan".into(), got, 0.4);
    }
    for param in ["1460B", "4KiB", "event"] {
        let Some(row) = row_of("data40k", param) else {
            continue;
        };
        let got = [Engine::Ssekit, Engine::SsekitRef].map(|e| of(row, e, Engine::SseCore));
        check(format!("data40k {param}: ≥ 1.5× sse-core"), got, 1.5);
        if let Some((peer, rate)) = best_peer(row) {
            let got = [Engine::Ssekit, Engine::SsekitRef].map(|e| Some(row[idx(e)]? / rate));
            check(
                format!("data40k {param}: ahead of every peer ({})", peer.name()),
                got,
                1.0,
            );
        }
    }

    println!("\n{md}");
    let out = dir.join("framing-summary.md");
    if std::fs::create_dir_all(&dir).is_ok() && std::fs::write(&out, &md).is_ok() {
        println!("(written to {})", out.display());
    }
}

fn fmt_rate(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}
