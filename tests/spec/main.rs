//! The WHATWG "interpreting an event stream" algorithm: hand-written spec cases (each split at every byte), the public conformance vectors, and the recorded corpus streams framed at several chunkings.
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

#[path = "../support/corpus.rs"]
mod corpus;

mod cases;
mod conformance;
mod recorded;
