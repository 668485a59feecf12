//! Sans-IO, zero-copy Server-Sent Events for LLM streams.
//!
//! (Crate docs are filled in with the README; see below.)
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc(test(attr(deny(warnings))))]

extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod framing;
mod frame;

pub use frame::{Frame, FrameError, FrameErrorKind, Item, Parser, ParserConfig, Utf8Mode};
