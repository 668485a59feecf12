//! Proof that `ssekit` with `default-features = false` needs only `core` and
//! `alloc`: this `#![no_std]` static library defines its own panic handler,
//! which collides with `std`'s (error: found duplicate lang item `panic_impl`)
//! as soon as any crate in the graph links `std`.
//!
//! `ssekit_no_std_check()` parses a small stream and returns a checksum-ish
//! count, so the parser is really compiled and linked, not just named.
#![no_std]

extern crate alloc;

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use ssekit::{Parser, ParserConfig};

/// A bump allocator over a static arena; `dealloc` frees nothing.
struct Bump {
    arena: UnsafeCell<[u8; ARENA]>,
    next: AtomicUsize,
}

const ARENA: usize = 1 << 20;

// SAFETY: the arena is only handed out in disjoint pieces, reserved atomically.
unsafe impl Sync for Bump {}

unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let base = self.arena.get() as usize;
        let mut cur = self.next.load(Ordering::Relaxed);
        loop {
            let start = (base + cur).next_multiple_of(layout.align()) - base;
            let end = match start.checked_add(layout.size()) {
                Some(end) if end <= ARENA => end,
                _ => return core::ptr::null_mut(),
            };
            match self
                .next
                .compare_exchange_weak(cur, end, Ordering::Relaxed, Ordering::Relaxed)
            {
                // SAFETY: `start..end` lies inside the arena and was reserved by this call alone.
                Ok(_) => return unsafe { (self.arena.get() as *mut u8).add(start) },
                Err(seen) => cur = seen,
            }
        }
    }

    unsafe fn dealloc(&self, _ptr: *mut u8, _layout: Layout) {}
}

#[global_allocator]
static ALLOC: Bump = Bump {
    arena: UnsafeCell::new([0; ARENA]),
    next: AtomicUsize::new(0),
};

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        core::hint::spin_loop();
    }
}

/// Parses a fixed stream split into chunks; returns the number of frames
/// times 1000 plus the total data length, or `usize::MAX` on any error
/// (expected: 2 frames, "hello" + "wor\nld" = 11 bytes, so 2011).
#[no_mangle]
pub extern "C" fn ssekit_no_std_check() -> usize {
    let mut config = ParserConfig::default();
    config.max_line_len = 1024;
    let mut parser = Parser::with_config(config);
    let mut frames = 0;
    let mut len = 0;
    for chunk in [
        &b"\xEF\xBB\xBFevent: greet\r\ndata: hel"[..],
        b"lo\r",
        b"\n\r\ndata: wor\ndata: ld\n\n",
    ] {
        parser.feed(Bytes::from_static(chunk));
        loop {
            match parser.next_frame() {
                Ok(Some(frame)) => {
                    frames += 1;
                    len += frame.data().len();
                }
                Ok(None) => break,
                Err(_) => return usize::MAX,
            }
        }
    }
    if parser.finish().is_err() {
        return usize::MAX;
    }
    frames * 1000 + len
}
