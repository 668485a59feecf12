//! Sans-IO, zero-copy Server-Sent Events for LLM streams.
//!
//! `ssekit` parses `text/event-stream` bodies incrementally, exactly as the
//! WHATWG HTML standard's "interpreting an event stream" algorithm says, and
//! hands out [`Frame`]s whose data is a slice of the input [`Bytes`] whenever
//! it lay in one chunk. It contains no networking code, starts no tasks and
//! reads no clock: you feed it bytes from any source, it hands events out.
//! On top of the frames it decodes the events of four LLM streaming APIs
//! (OpenAI Responses, OpenAI Chat Completions, Anthropic Messages, Google
//! Gemini) into typed views, rebuilds final responses from their deltas,
//! checks streams against what clients require, writes streams, and
//! translates one dialect's stream into another's.
//!
//! ```text
//!  bytes in ──► framing (lines, spans) ──► Parser ──► Frame (Bytes-backed, 'static)
//!               no alloc, offsets only      limits      data sliced from the chunk
//! ```
//!
//! # Example: parsing chunks as they arrive
//!
//! ```
//! use ssekit::{Bytes, Parser};
//!
//! let mut parser = Parser::new();
//! let mut seen = Vec::new();
//! // Chunks may split lines, CRLF pairs and UTF-8 sequences anywhere.
//! for chunk in ["event: response.output_text.delta\nda", "ta: {\"delta\":\"Hi\"}\n\n"] {
//!     parser.feed(Bytes::from(chunk));
//!     while let Some(frame) = parser.next_frame()? {
//!         seen.push((frame.event().to_owned(), frame.data().to_owned()));
//!     }
//! }
//! parser.finish()?; // Err if the stream was cut inside an event
//! assert_eq!(seen, [("response.output_text.delta".to_owned(), r#"{"delta":"Hi"}"#.to_owned())]);
//! # Ok::<(), ssekit::FrameError>(())
//! ```
//!
//! # Typed views of LLM stream events
//!
//! On top of the frames, four dialects decode event data into typed views
//! that borrow from the frame and allocate nothing: [`responses`] (the
//! OpenAI Responses API, every event type), [`chat`] (OpenAI Chat Completions
//! chunks, `[DONE]` and error chunks, and what compatible providers add),
//! [`anthropic`] (Anthropic Messages events) and [`gemini`] (Google Gemini
//! `streamGenerateContent` chunks). Unknown event, item, block and delta types pass through as
//! `Unknown` / `Other` with their raw JSON, never as errors, and so does an
//! object that does not fit its type, with what did not fit: errors are for
//! data that is not a JSON object (the rule is on
//! [`DecodeError`](responses::DecodeError)).
//! They are built on
//! [`json`], zero-allocation JSON primitives whose strings ([`json::JsonStr`])
//! keep their escapes until you ask for the text.
//!
//! [`accumulate`] sits on top: [`accumulate::ResponsesAccumulator`] turns the
//! events of a Responses stream into the final response, in the API's shape,
//! with live snapshots while it streams, and reports the faults of the
//! stream (skipped sequence numbers, a missing terminal event) instead of
//! hiding them; [`accumulate::ChatAccumulator`] and
//! [`accumulate::AnthropicAccumulator`] and [`accumulate::GeminiAccumulator`]
//! do the same for Chat Completions, Anthropic Messages and Gemini streams.
//!
//! [`lint`] checks a stream against what real clients of its dialect
//! require (Responses, Chat Completions, Anthropic Messages), each departure
//! a finding with a rule id and a stream offset.
//!
//! [`turn`] is the model of a streamed assistant turn that every dialect is
//! read into and written out of: a reader and a writer per dialect.
//! [`bridge`] is a reader and a writer together: any dialect's stream into
//! any other's, event by event ([`bridge::translate`]), for gateways that
//! put one API in front of another.
//!
//! Each layer has its own small error type; [`Error`] takes any of them by
//! `From`, for applications that want one `?`-able type. [`Reconnect`] is a
//! sans-IO reconnection policy (the server's `retry`, backoff with jitter,
//! the `Last-Event-ID` to send) for resuming a stream that broke off.
//!
//! # Example: writing a Responses stream
//!
//! [`responses::writer::ResponsesWriter`] writes the events a Responses API server
//! sends, sequence numbers, item ids and done events included, so that the
//! stream is well-formed whatever order the calls come in;
//! [`encode::Encoder`] writes any frames.
//!
//! ```
//! use ssekit::responses::writer::ResponsesWriter;
//! use ssekit::responses::ResponsesEvent;
//! use ssekit::Parser;
//!
//! let mut writer = ResponsesWriter::new("resp_1", "my-model", 1_767_225_600);
//! writer.start_message("msg_1")?;
//! writer.text_delta("Hello")?;
//! writer.complete()?; // finishes the message, then response.completed
//! let wire = writer.take(); // Bytes, for the response body
//! assert!(wire.starts_with(b"event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,"));
//!
//! let mut parser = Parser::new();
//! parser.feed(wire);
//! let mut last = None;
//! while let Some(frame) = parser.next_frame()? {
//!     if let ResponsesEvent::ResponseCompleted(done) = ResponsesEvent::from_frame(&frame)? {
//!         last = done.sequence_number;
//!     }
//! }
//! assert_eq!(last, Some(8)); // created, in_progress, 2 added, delta, 3 done, completed
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What the parser guarantees
//!
//! * **The same frames however the input is chunked**, including a CR at the
//!   end of one chunk and its LF at the start of the next, a byte order mark
//!   split across chunks, and UTF-8 sequences split anywhere.
//! * **Zero copies** for data that is one `data:` line inside one chunk
//!   ([`Frame::is_zero_copy`]); data spanning chunks or lines is copied once,
//!   into buffers that are reused (and so are small reads, gathered into one
//!   buffer: see [`Parser::feed`]).
//! * **Linear time**: every byte is searched once, however small the chunks
//!   (twice for small reads: once when it arrives, once when it is parsed).
//! * **Bounded memory**: lines and events are limited by [`ParserConfig`];
//!   exceeding a limit is a [`FrameError`] with the stream offset, after which
//!   the parser skips to the next event and goes on.
//! * **Nothing lost silently**: a stream cut inside an event is reported by
//!   [`Parser::finish`]; `retry` and `id` fields of blocks that dispatch no
//!   event are reported by [`Parser::next_item`]; invalid UTF-8 becomes
//!   U+FFFD as the standard says, or an error in [`Utf8Mode::Strict`].
//! * **No panics** on any input (every layer has a fuzz target).
//! * **`unsafe` in two places only**, each block with the argument for why
//!   it is sound: the byte kernels (SIMD intrinsics behind safe functions,
//!   with scalar twins they are tested against, also under Miri), and the
//!   text the parser has checked once as UTF-8, read without a second check.
//!   The rest of the crate denies `unsafe` code. Built with
//!   `RUSTFLAGS="--cfg ssekit_disable_simd"`, the crate compiles no SIMD
//!   kernel of its own (its dependencies `memchr` and `simdutf8` still
//!   choose theirs).
//!
//! # Crate features
//!
//! * `std` (default): links the standard library. Without it the crate is
//!   `#![no_std]` and needs only `alloc`; the [`framing`] line splitter needs
//!   no allocator at all.
//! * `stream`: `adapters::FrameStream`, a `futures_core::Stream` of frames
//!   over any stream of byte chunks (an HTTP client's response body), and
//!   `adapters::EventStream`, of owned typed events, whose `accumulate()`
//!   gives the final response and its outcome even for a cut stream. Needs
//!   no runtime and works without `std`.
//! * `codec`: `adapters::SseCodec`, a `tokio_util::codec` decoder and
//!   encoder of frames, for `FramedRead` / `FramedWrite` over tokio I/O.
//!   Implies `std`.
//! * `serde`: `serde::Deserialize` for the events and views of every
//!   dialect ([`responses`], [`chat`], [`anthropic`], [`gemini`]). Borrowed
//!   events deserialize from `serde_json` (with its `raw_value` feature)
//!   over borrowed input, decoding the value's raw text exactly as their
//!   `parse` does; the owned forms deserialize from any deserializer, and
//!   serialize (`serde::Serialize`) as their JSON, so a gateway can log
//!   them. Works without `std`.
//! * `request`: `request::translate`, request bodies translated
//!   between the four dialects (with what could not be carried, listed),
//!   and upstream errors in the client's dialect, for gateways. Adds
//!   `serde_json`; works without `std`.
//!
//! The `ssekit` command-line tool is a package of its own, `ssekit-cli`.
#![cfg_attr(
    feature = "stream",
    doc = r#"
# Example: an HTTP body, through the `stream` adapter

With the `stream` feature, any stream of byte chunks becomes a stream of
frames; here the chunks come from `futures::stream::iter`, and they split
an event anywhere, as network reads do.

```
use futures::{executor::block_on, stream, StreamExt};
use ssekit::adapters::SseStreamExt;
use ssekit::responses::ResponsesEvent;

let body = stream::iter([
    Ok::<_, std::io::Error>("event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","),
    Ok("\"item_id\":\"m\",\"output_index\":0,\"content_index\":0,\"delta\":\"Hi\"}\n\n"),
]);
let mut frames = body.sse_frames();
block_on(async {
    while let Some(frame) = frames.next().await {
        let frame = frame?;
        if let ResponsesEvent::OutputTextDelta(d) = ResponsesEvent::from_frame(&frame)?.strict()? {
            assert_eq!(d.delta, "Hi");
        }
    }
    Ok::<_, Box<dyn std::error::Error>>(())
})?;
# Ok::<_, Box<dyn std::error::Error>>(())
```

Over a reqwest response it is the same with `response.bytes_stream()`
(see [`adapters`] and `examples/live_deltas.rs`, which serves a captured
stream on 127.0.0.1 and prints its text as it arrives):

```no_run
use futures::StreamExt;
use ssekit::adapters::SseStreamExt;
use ssekit::responses::ResponsesEvent;

async fn print_text(url: &str) -> Result<(), Box<dyn std::error::Error>> {
    let response = reqwest::Client::new().get(url).send().await?.error_for_status()?;
    let mut frames = response.bytes_stream().sse_frames();
    while let Some(frame) = frames.next().await {
        let frame = frame?;
        if let ResponsesEvent::OutputTextDelta(d) = ResponsesEvent::from_frame(&frame)?.strict()? {
            print!("{}", d.delta); // unescaped as it is printed
        }
    }
    Ok(())
}
# let _ = print_text;
```
"#
)]
#![cfg_attr(
    feature = "codec",
    doc = r#"
# Example: tokio I/O, through the codec

With the `codec` feature, [`adapters::SseCodec`] reads frames from any
`AsyncRead` with `FramedRead` and writes them with `FramedWrite`; here
the bytes are an in-memory buffer.

```
use futures::StreamExt;
use ssekit::adapters::SseCodec;
use tokio_util::codec::FramedRead;

let input: &[u8] = b"event: ping\ndata: 1\n\n: comment\ndata: two\ndata: lines\n\n";
let runtime = tokio::runtime::Builder::new_current_thread().build()?;
let frames = runtime.block_on(FramedRead::new(input, SseCodec::new()).collect::<Vec<_>>());
let frames = frames.into_iter().collect::<Result<Vec<_>, _>>()?;
assert_eq!(frames[0].event(), "ping");
assert_eq!(frames[1].data(), "two\nlines");
# Ok::<_, Box<dyn std::error::Error>>(())
```
"#
)]
#![no_std]
// `unsafe` is allowed in two modules only, `simd` (the byte kernels) and
// `frame::text` (text checked once as UTF-8); see their docs. Every block
// there has a `// SAFETY:` argument and does one unsafe thing.
#![deny(unsafe_code)]
#![deny(
    clippy::undocumented_unsafe_blocks,
    clippy::multiple_unsafe_ops_per_block
)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc(test(attr(deny(warnings))))]

extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

#[macro_use]
mod config;
#[macro_use]
mod views;
pub mod accumulate;
#[cfg(any(feature = "stream", feature = "codec"))]
#[cfg_attr(docsrs, doc(cfg(any(feature = "stream", feature = "codec"))))]
pub mod adapters;
pub mod anthropic;
pub mod bridge;
pub mod chat;
mod dialect;
pub mod encode;
mod error;
mod frame;
pub mod framing;
pub mod gemini;
pub mod json;
pub mod lint;
#[cfg(feature = "request")]
#[cfg_attr(docsrs, doc(cfg(feature = "request")))]
pub mod request;
pub mod responses;
mod simd;
pub mod turn;

pub use bytes::Bytes;
pub use dialect::{Dialect, UnknownDialect};
pub use error::Error;
pub use frame::{
    Frame, FrameError, FrameErrorKind, FrameRef, Item, Parser, ParserConfig, Reconnect, Tally,
    Utf8Mode,
};

/// The README's examples, compiled and run as doctests so they cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
