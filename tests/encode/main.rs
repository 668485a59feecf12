//! The encoder and the Responses writer: `parse(encode(frames)) == frames` at any chunking, and the writer's events and errors.
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

mod roundtrip;
mod writer;
