//! Chunking invariance and accounting: any chunking gives the same items as the whole input and as the reference parser; every input byte is accounted for; limits, bounded memory and linear work hold however the input arrives.
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

// The counting allocator needs `unsafe impl GlobalAlloc`; the package denies
// unsafe code elsewhere.
#![allow(unsafe_code)]

#[path = "../support/common.rs"]
mod common;
#[path = "../support/counting.rs"]
mod counting;

mod accounting;
mod invariance;
mod limits;
mod small_reads;
