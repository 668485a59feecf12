//! The `ssekit` binary: `frames`, `events`, `assemble`, `lint` and `encode` on the corpus and on bad input (exit codes, messages).
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

#[path = "../support/cli.rs"]
mod cli;
#[path = "../support/corpus.rs"]
mod corpus;
#[path = "../support/dialects.rs"]
mod dialects_common;
#[path = "../support/responses.rs"]
mod responses_common;

mod assemble;
mod commands;
mod encode;
mod lint;
