//! The async adapters over real HTTP on loopback: the corpus and the encoder's output served with hyper/axum and read with reqwest through the stream adapter and the codec.
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

#[path = "../support/corpus.rs"]
mod corpus;
#[allow(dead_code)] // its `main` is the example's, not the test's
#[path = "../../examples/relay.rs"]
mod relay;
#[allow(dead_code)] // its `main` is the example's, not the test's
#[path = "../../examples/resume.rs"]
mod resume;

mod http;
mod loopback;
