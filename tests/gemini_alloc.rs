//! Decoding Gemini chunks allocates nothing: every frame of the corpus
//! Gemini stream and of the hand-written streams of `tests/data/gemini` is
//! decoded from its frame, and every field of the view, nested views, parts
//! and list elements included, is read. The frames are made before counting
//! starts. The count must be 0 exactly.

// The library forbids `unsafe`; a global allocator cannot be written without it.
#![allow(unsafe_code)]

mod dialects_common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use ssekit::gemini::GeminiEvent;
use ssekit::{Bytes, Parser};

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: forwards every call to `System` unchanged; it only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Heap allocations made by `f` on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = ALLOCS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (r, ALLOCS.load(Ordering::Relaxed) - before)
}

#[test]
fn decoding_every_gemini_event_allocates_nothing() {
    let mut frames = Vec::new();
    if let Some(streams) = dialects_common::streams("gemini") {
        frames.extend(streams.into_iter().flat_map(|(_, f)| f));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gemini");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sse") {
            let mut parser = Parser::new();
            parser.feed(Bytes::from(std::fs::read(path).unwrap()));
            while let Some(frame) = parser.next_frame().unwrap() {
                frames.push(frame);
            }
        }
    }
    let ((decoded, values, sum), allocs) = allocations(|| {
        let (mut decoded, mut values, mut sum) = (0usize, 0usize, 0u64);
        for frame in &frames {
            let event = GeminiEvent::from_frame(frame).expect("every frame decodes");
            decoded += 1;
            sum = sum.wrapping_add(event.raw().get().len() as u64);
            values += dialects_common::touch_all(&event, &mut sum);
        }
        (decoded, values, sum)
    });
    eprintln!("{decoded} frames, {values} values read, checksum {sum:x}: {allocs} allocations");
    assert!(decoded >= 20, "{decoded}");
    assert!(values > 300, "{values}");
    assert_eq!(allocs, 0, "decoding allocated");
}
