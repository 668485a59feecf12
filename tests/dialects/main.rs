//! The typed views of every dialect (Responses, Chat Completions, Anthropic Messages, Gemini) and the JSON layer under them: recorded streams decoded and compared with serde_json, properties, owned and serde forms.
//!
//! One test binary; each module below was once a binary of its own. Shared
//! helpers live in `tests/support/`.

#[path = "../support/corpus.rs"]
mod corpus;
#[path = "../support/dialects.rs"]
mod dialects_common;
#[path = "../support/responses.rs"]
mod responses_common;

mod anthropic_behaviour;
mod anthropic_corpus;
mod anthropic_props;
mod chat_behaviour;
mod chat_corpus;
mod chat_props;
mod chat_shapes;
mod gemini_views;
mod json_corpus;
mod owned;
mod partial_json;
mod responses_corpus;
mod responses_props;
mod responses_serde;
mod serde;
