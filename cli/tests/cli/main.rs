//! The `ssekit` binary: `frames`, `events`, `assemble`, `lint`, `encode` and
//! `bridge` on the corpus and on bad input (exit codes, messages), live
//! output, and each command's help.
//!
//! The helpers for the corpus and the sample streams are the library's test
//! helpers, in the repository's `tests/support/`.

mod cli;
#[path = "../../../tests/support/corpus.rs"]
mod corpus;
#[path = "../../../tests/support/dialects.rs"]
mod dialects_common;
#[path = "../../../tests/support/responses.rs"]
mod responses_common;

mod assemble;
mod bridge;
mod commands;
mod encode;
mod lint;
mod live;
