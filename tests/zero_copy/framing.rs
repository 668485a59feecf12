//! Steady-state allocations of the parser on the recorded corpus: feeding
//! 4 KiB chunks of one shared buffer, or 16-byte chunks (small reads, which
//! the parser gathers into one buffer it reuses), taking and dropping
//! frames, and finishing must not allocate (budget: 0.01 allocations per
//! frame).
//!
//! The binary's counting allocator (`tests/support/counting.rs`) counts
//! only this thread's allocations while the measurement runs, so the
//! harness, other tests and the setup are not counted.
//!
//! The corpus is found at `$SSEKIT_CORPUS`, else at the shared default;
//! missing, the test is skipped (with a notice), except under `CI=true`.

use crate::corpus;
use corpus::corpus_dir;
use std::path::PathBuf;

use bytes::Bytes;
use ssekit::{Frame, Parser};

use crate::counting;
use counting::measure;

const WARM_UP: usize = 64 << 10;
const BUDGET_PER_FRAME: f64 = 0.01;

/// What one measured run cost.
#[derive(Default)]
struct Tally {
    allocs: u64,
    bytes: u64,
    frames: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.allocs += other.allocs;
        self.bytes += other.bytes;
        self.frames += other.frames;
    }

    fn per_frame(&self) -> f64 {
        self.allocs as f64 / self.frames as f64
    }
}

/// Parses `chunks` with a new parser, counting allocations from chunk
/// `warm` on (the chunks before it are parsed uncounted). With `keep`, the
/// measured frames are kept alive until the end (in a vector reserved in
/// advance) instead of being dropped at once.
fn run(chunks: &[Bytes], warm: usize, keep: bool) -> Tally {
    let warm = warm.min(chunks.len());
    let mut p = Parser::new();
    for chunk in &chunks[..warm] {
        p.feed(chunk.clone());
        while p.next_frame().unwrap().is_some() {}
    }
    let rest = chunks[warm..].to_vec();
    let mut kept: Vec<Frame> = Vec::with_capacity(if keep { 1 << 16 } else { 0 });
    let mut frames = 0;
    let ((), allocs, bytes) = measure(|| {
        for chunk in rest {
            p.feed(chunk);
            while let Some(frame) = p.next_frame().unwrap() {
                frames += 1;
                if keep {
                    kept.push(frame);
                } else {
                    drop(frame);
                }
            }
        }
        p.finish().unwrap();
    });
    assert!(kept.len() < 1 << 16, "reserve more for kept frames");
    Tally {
        allocs,
        bytes,
        frames,
    }
}

#[test]
fn steady_state_allocations_per_frame() {
    steady_state_allocations(4096);
}

#[test]
fn steady_state_allocations_per_frame_in_small_reads() {
    steady_state_allocations(16);
}

fn steady_state_allocations(chunk: usize) {
    let Some(dir) = corpus_dir() else { return };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sse"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());

    let (mut steady, mut steady_kept, mut cold) =
        (Tally::default(), Tally::default(), Tally::default());
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let all = Bytes::from(std::fs::read(path).unwrap());
        // `Bytes::from(Vec)` makes a "promotable" buffer: its first clone or
        // slice allocates the shared header. Slice it once before counting
        // so that allocation is the test's, not the parser's. All chunks are
        // cut before counting starts too.
        let _promote = all.slice(0..0);
        let chunks: Vec<Bytes> = all.chunks(chunk).map(|c| all.slice_ref(c)).collect();

        // Asserted: steady state, after the first 64 KiB of the stream,
        // frames dropped as they come.
        let t = run(&chunks, WARM_UP / chunk, false);
        if t.frames > 0 {
            eprintln!(
                "{name}: {} allocations ({} bytes) for {} steady-state frames",
                t.allocs, t.bytes, t.frames
            );
        }
        steady.add(&t);
        // For the record: the same with the frames kept alive (they share
        // the buffer a line spanning chunks was gathered in), and whole
        // streams from a new parser.
        steady_kept.add(&run(&chunks, WARM_UP / chunk, true));
        cold.add(&run(&chunks, 0, false));
    }

    eprintln!(
        "steady state (after {} KiB, {chunk}-byte chunks, frames dropped): {} allocations, \
         {} bytes, {} frames: {:.4} allocations/frame",
        WARM_UP >> 10,
        steady.allocs,
        steady.bytes,
        steady.frames,
        steady.per_frame()
    );
    eprintln!(
        "steady state, frames kept alive: {} allocations, {} bytes: {:.4} allocations/frame",
        steady_kept.allocs,
        steady_kept.bytes,
        steady_kept.per_frame()
    );
    eprintln!(
        "whole streams from a new parser, frames dropped: {} allocations, {} frames: \
         {:.4} allocations/frame",
        cold.allocs,
        cold.frames,
        cold.per_frame()
    );
    assert!(steady.frames > 0, "no stream longer than the warm-up");
    assert!(
        steady.per_frame() <= BUDGET_PER_FRAME,
        "{:.4} allocations per frame in steady state (budget {BUDGET_PER_FRAME})",
        steady.per_frame()
    );
}
