//! Zero-copy and zero-allocation: frame data is a slice of the input, and decoding, accumulating and linting allocate nothing per event in steady state (counted with a per-thread counting allocator).
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

// The counting allocator needs `unsafe impl GlobalAlloc`; the package denies
// unsafe code elsewhere.
#![allow(unsafe_code)]

#[path = "../../benches/support/mod.rs"]
mod bench_support;
#[path = "../support/corpus.rs"]
mod corpus;
#[path = "../support/counting.rs"]
mod counting;
#[path = "../support/dialects.rs"]
mod dialects_common;

mod accumulate;
mod anthropic;
mod chat;
mod framing;
mod gemini;
mod json;
mod partial;
mod pipeline;
mod responses;
mod slices;
mod turn;
