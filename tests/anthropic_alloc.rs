//! Decoding anthropic events allocates nothing: every frame of every
//! `*-anthropic-*` corpus stream is decoded from its frame, and every field of
//! the view, nested views and array elements included, is read. The frames
//! are made before counting starts. The count must be 0 exactly.

// The library forbids `unsafe`; a global allocator cannot be written without it.
#![allow(unsafe_code)]

mod dialects_common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use ssekit::anthropic::MessageEvent;

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
fn decoding_every_anthropic_corpus_event_allocates_nothing() {
    let Some(streams) = dialects_common::streams("anthropic") else {
        return;
    };
    let frames: Vec<_> = streams.into_iter().flat_map(|(_, f)| f).collect();
    let ((decoded, values, errors, sum), allocs) = allocations(|| {
        let (mut decoded, mut values, mut errors, mut sum) = (0usize, 0usize, 0usize, 0u64);
        for frame in &frames {
            match MessageEvent::from_frame(frame) {
                Ok(event) => {
                    if !matches!(event, MessageEvent::Unknown { .. }) {
                        decoded += 1;
                    }
                    sum = sum.wrapping_add(event.raw().get().len() as u64);
                    values += dialects_common::touch_all(&event, &mut sum);
                }
                Err(e) => {
                    errors += 1;
                    sum = sum.wrapping_add(e.offset() as u64);
                }
            }
        }
        (decoded, values, errors, sum)
    });
    eprintln!(
        "{} frames: {decoded} typed, {values} values read, {errors} errors, \
         checksum {sum:x}: {allocs} allocations",
        frames.len()
    );
    assert_eq!(errors, 0);
    assert!(decoded > 1000, "{decoded}");
    assert_eq!(allocs, 0, "decoding allocated");
}
