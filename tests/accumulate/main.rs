//! The accumulators: the final response rebuilt from deltas, against each recorded stream's own final object and against hand-computed expectations, and their limits.
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

#[path = "../support/corpus.rs"]
mod corpus;
#[path = "../support/dialects.rs"]
mod dialects_common;
#[path = "../support/json_diff.rs"]
mod json_diff;
#[path = "../support/responses.rs"]
mod responses_common;

mod anthropic;
mod behaviour;
mod chat;
mod gemini;
mod props;
mod responses_corpus;
mod same_shape;
