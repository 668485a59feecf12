//! The x86_64 kernels: one file per instruction set.
//!
//! The value intrinsics (compares, masks) are called bare inside the
//! kernels, which are `unsafe fn`s with the instruction set enabled: Rust
//! 1.87 and later make them safe there, and earlier compilers accept them
//! in the body of an `unsafe fn`. Every load, store and call that has a
//! precondition is in a block of its own that says why it holds.

pub(crate) mod avx2;
pub(crate) mod sse2;
