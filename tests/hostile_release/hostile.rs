//! The hostile-input layers of `tests/hostile/layers.rs`, built from this
//! small package (only `ssekit` and `bytes`) so that the release build for the
//! full-size runs compiles four crates, not every dev-dependency of ssekit.

// The counting allocator needs `unsafe impl GlobalAlloc`.
#![allow(unsafe_code)]

#[path = "../support/counting.rs"]
mod counting;
#[path = "../support/work_ratio.rs"]
mod work_ratio;

#[path = "../hostile/layers.rs"]
mod layers;
