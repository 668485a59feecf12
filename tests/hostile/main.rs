//! Hostile upstreams: linear work in every layer under adversarial orders (the full-size runs are `--ignored`; see tests/hostile_release), the view decoders agreeing with serde_json on inputs where JSON readers can disagree, and every fuzz finding kept as a regression test.
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

// The counting allocator needs `unsafe impl GlobalAlloc`; the package denies
// unsafe code elsewhere.
#![allow(unsafe_code)]

#[path = "../support/corpus.rs"]
mod corpus;
#[path = "../support/counting.rs"]
mod counting;
#[path = "../support/differential.rs"]
mod differential;
#[path = "../support/work_ratio.rs"]
mod work_ratio;

mod fuzz_regressions;
mod layers;
mod readers_agree;
