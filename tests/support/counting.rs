//! A counting global allocator for the allocation tests. A test binary takes
//! it with `#[path = "support/counting.rs"] mod counting;`, which installs it.
//!
//! It wraps the system allocator and counts only allocations made on the
//! current thread while [`measure`] runs, so the harness, other tests running
//! in parallel and the test's own setup are not counted.

// The package denies `unsafe`; a global allocator cannot be written without it.
#![allow(unsafe_code, dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn count(size: usize) {
    if ON.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
        let _ = BYTES.try_with(|n| n.set(n.get() + size as u64));
    }
}

/// Heap bytes live on this thread change by `delta` (counted while on).
fn live(delta: i64) {
    if ON.try_with(Cell::get).unwrap_or(false) {
        let _ = LIVE.try_with(|live| {
            let now = live.get() + delta;
            live.set(now);
            let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
        });
    }
}

// SAFETY: every call is forwarded to `System` unchanged; this only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        live(layout.size() as i64);
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        live(layout.size() as i64);
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        live(new_size as i64 - layout.size() as i64);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        live(-(layout.size() as i64));
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f`, and returns what it returned with the number of heap allocations
/// (reallocations included) it made on this thread and the bytes they asked for.
pub(crate) fn measure<R>(f: impl FnOnce() -> R) -> (R, u64, u64) {
    let (a0, b0) = (ALLOCS.with(Cell::get), BYTES.with(Cell::get));
    ON.with(|on| on.set(true));
    let r = f();
    ON.with(|on| on.set(false));
    (r, ALLOCS.with(Cell::get) - a0, BYTES.with(Cell::get) - b0)
}

/// Runs `f`, and returns what it returned with the peak of heap bytes live on
/// this thread during it, above the level at its start (memory allocated
/// before and freed during `f` lowers the level, so it is not a credit: the
/// peak is never below zero).
pub(crate) fn peak_heap<R>(f: impl FnOnce() -> R) -> (R, u64) {
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    ON.with(|on| on.set(true));
    let r = f();
    ON.with(|on| on.set(false));
    (r, PEAK.with(Cell::get).max(0) as u64)
}

/// Runs `f`, and returns what it returned with the number of heap allocations
/// it made on this thread.
pub(crate) fn allocations<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let (r, allocs, _) = measure(f);
    (r, allocs)
}
