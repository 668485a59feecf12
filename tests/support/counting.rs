//! A counting global allocator for the allocation tests. A test binary takes
//! it with `#[path = "support/counting.rs"] mod counting;`, which installs it.
//!
//! It wraps the system allocator and counts only allocations made on the
//! current thread while [`measure`] runs, so the harness, other tests running
//! in parallel and the test's own setup are not counted.

// The library forbids `unsafe`; a global allocator cannot be written without it.
#![allow(unsafe_code, dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

fn count(size: usize) {
    if ON.try_with(Cell::get).unwrap_or(false) {
        let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
        let _ = BYTES.try_with(|n| n.set(n.get() + size as u64));
    }
}

// SAFETY: every call is forwarded to `System` unchanged; this only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
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

/// Runs `f`, and returns what it returned with the number of heap allocations
/// it made on this thread.
pub(crate) fn allocations<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let (r, allocs, _) = measure(f);
    (r, allocs)
}
