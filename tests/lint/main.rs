//! The stream linter: recorded streams, every rule broken on purpose, and the writer's output linting clean.
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

#[path = "../support/corpus.rs"]
mod corpus;

mod corpus_streams;
mod dialects;
mod gemini;
mod mutations;
mod props;
mod writer_output;
