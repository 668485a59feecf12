//! L1: SSE frames over `Bytes`. May depend on: `framing`, `bytes`, `alloc`.

mod config;
mod error;
mod hold;
mod names;
mod output;
mod parser;
mod reconnect;
mod reserve;
mod state;
mod tally;
mod text;

pub use config::{ParserConfig, Utf8Mode};
pub use error::{FrameError, FrameErrorKind};
pub(crate) use output::validated_str;
pub use output::{Frame, FrameRef, Item};
pub use parser::Parser;
pub use reconnect::Reconnect;
pub use tally::Tally;
