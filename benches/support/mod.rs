//! Shared by the benches: deterministic synthetic inputs and chunkings.
//!
//! Use from a bench with `mod support;`. Every input comes with the number of
//! frames a conforming parser dispatches for it, so each bench can assert it.
#![allow(dead_code, unreachable_pub)]

pub mod synth;
pub mod varied;

use bytes::Bytes;

pub use synth::{
    anthropic_stream, anthropic_turn_stream, chat_stream, chat_turn_stream, data_lines,
    gemini_turn_stream, keep_alives, one_long_line, responses_stream, responses_turn_stream,
    tiny_events, turn_plan,
};

/// The seed of the standard Responses stream.
pub const SEED: u64 = 0x055E_2025;

/// The standard size of the synthetic Responses stream: 8 MiB (it ends a
/// little past this, once the open item and the response are closed).
pub const RESPONSES_BYTES: usize = 8 << 20;

/// How an input is cut into reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chunking {
    /// Reads of this many bytes (the last one may be shorter).
    Bytes(usize),
    /// The whole input in one read.
    Whole,
    /// One read per event: cut after each blank line (`\n\n`), the way
    /// LLM servers flush (LF-only inputs).
    Events,
}

impl Chunking {
    /// The chunkings every stream is fed in: 16 B, a TCP segment (1460 B),
    /// 4 KiB, and whole.
    pub const STANDARD: [Chunking; 4] = [
        Chunking::Bytes(16),
        Chunking::Bytes(1460),
        Chunking::Bytes(4096),
        Chunking::Whole,
    ];

    /// A short label for bench ids: `16B`, `1460B`, `4KiB`, `whole`.
    pub fn label(self) -> String {
        match self {
            Chunking::Bytes(n) if n >= 1024 && n % 1024 == 0 => format!("{}KiB", n / 1024),
            Chunking::Bytes(n) => format!("{n}B"),
            Chunking::Whole => "whole".to_owned(),
            Chunking::Events => "event".to_owned(),
        }
    }

    /// `input` cut into reads: `Bytes` slices sharing one buffer, so cloning
    /// the list costs one reference count per chunk and no copies.
    pub fn split(self, input: &Bytes) -> Vec<Bytes> {
        match self {
            Chunking::Whole => vec![input.clone()],
            Chunking::Events => {
                let mut out = Vec::new();
                let mut start = 0;
                for end in memchr::memmem::find_iter(input, b"\n\n") {
                    out.push(input.slice(start..end + 2));
                    start = end + 2;
                }
                if start < input.len() {
                    out.push(input.slice(start..));
                }
                out
            }
            Chunking::Bytes(n) => {
                assert!(n > 0);
                (0..input.len())
                    .step_by(n)
                    .map(|i| input.slice(i..input.len().min(i + n)))
                    .collect()
            }
        }
    }
}

/// A named input with its expected frame count.
#[derive(Debug, Clone)]
pub struct Input {
    /// Short name, used as the criterion group.
    pub name: &'static str,
    /// What it is, for reports.
    pub about: &'static str,
    /// The wire bytes.
    pub bytes: Bytes,
    /// The frames (dispatched events) a conforming parser yields.
    pub frames: usize,
}

impl Input {
    fn new(name: &'static str, about: &'static str, (bytes, frames): (Vec<u8>, usize)) -> Self {
        Self {
            name,
            about,
            bytes: Bytes::from(bytes),
            frames,
        }
    }
}

/// The standard synthetic Responses stream (at least 8 MiB).
pub fn responses() -> Input {
    Input::new(
        "responses",
        "synthetic OpenAI Responses stream, mostly short output_text.delta events",
        responses_stream(RESPONSES_BYTES, SEED),
    )
}

/// The synthetic Chat Completions stream (at least 4 MiB).
pub fn chat() -> Input {
    Input::new(
        "chat",
        "synthetic Chat Completions stream, `data:`-only chunks of one token",
        chat_stream(4 << 20, SEED),
    )
}

/// The synthetic Anthropic Messages stream (at least 4 MiB).
pub fn anthropic() -> Input {
    Input::new(
        "anthropic",
        "synthetic Anthropic Messages stream, `event:` + `data:` text deltas",
        anthropic_stream(4 << 20, SEED),
    )
}

/// The framing bench's Responses stream (at least 8 MiB): event sizes
/// drawn from those of recorded Responses streams.
pub fn varied_responses() -> Input {
    Input::new(
        "responses",
        "synthetic Responses stream, event sizes drawn from recorded streams (deltas of 200-300 bytes, lifecycle events to 137 KB)",
        varied::responses(RESPONSES_BYTES, SEED),
    )
}

/// The framing bench's Chat Completions stream (at least 4 MiB): chunk
/// sizes drawn from those of recorded Chat streams, within 100-800 bytes.
pub fn varied_chat() -> Input {
    Input::new(
        "chat",
        "synthetic Chat Completions stream, `data:`-only chunks of 100-800 bytes drawn from recorded streams",
        varied::chat(4 << 20, SEED),
    )
}

/// The framing bench's Anthropic Messages stream (at least 4 MiB): event
/// sizes drawn from those of recorded Anthropic streams.
pub fn varied_anthropic() -> Input {
    Input::new(
        "anthropic",
        "synthetic Anthropic Messages stream, event sizes drawn from recorded streams (pings, deltas, tool results to 40 KB)",
        varied::anthropic(4 << 20, SEED),
    )
}

/// The framing bench's large events: 64 tool-argument events of 32-48 KiB
/// (40 KiB on average) with JSON escapes and some multi-byte UTF-8.
pub fn tool_arguments_40k() -> Input {
    Input::new(
        "data40k",
        "64 tool-argument events of 32-48 KiB, JSON escapes and some multi-byte UTF-8",
        varied::tool_arguments(64, SEED),
    )
}

/// The delta events of the synthetic turn the bridge bench reads in every
/// dialect.
pub const TURN_DELTAS: usize = 16_384;

/// One synthetic turn ([`turn_plan`]: reasoning, text, tool calls; deltas
/// of varied size with escapes and non-ASCII text) in each of the four
/// dialects, named `chat`, `anthropic`, `responses`, `gemini`.
pub fn turns() -> Vec<Input> {
    let plan = turn_plan(TURN_DELTAS, SEED);
    vec![
        Input::new(
            "chat",
            "synthetic Chat Completions turn: reasoning_content, content, tool_calls",
            chat_turn_stream(&plan),
        ),
        Input::new(
            "anthropic",
            "synthetic Anthropic Messages turn: thinking, text and tool_use blocks",
            anthropic_turn_stream(&plan, SEED),
        ),
        Input::new(
            "responses",
            "synthetic OpenAI Responses turn: reasoning, message and function_call items",
            responses_turn_stream(&plan, SEED),
        ),
        Input::new(
            "gemini",
            "synthetic Gemini turn: thought and text parts, whole functionCall parts",
            gemini_turn_stream(&plan),
        ),
    ]
}

/// 100 000 tiny events `data: {"t":"a"}` (sse-stream's and sse-core's shape).
pub fn tiny() -> Input {
    Input::new(
        "tiny",
        "100k tiny events `data: {\"t\":\"a\"}`",
        tiny_events(100_000),
    )
}

/// 64 events with one 40 KB data line each (sse-stream's and sse-core's shape).
pub fn data_40k() -> Input {
    Input::new(
        "data40k",
        "64 events, one 40 KB data line each",
        data_lines(64, 40_000),
    )
}

/// 200 000 keep-alive comments, then one event (sse-stream's and sse-core's
/// keep-alive shape, plus the event that makes the count prove the end).
pub fn keep_alive() -> Input {
    Input::new(
        "keepalive",
        "200k `: keep-alive` blocks, then one event",
        keep_alives(200_000),
    )
}

/// One event with a 1 MiB data line (to be fed in 1 B reads).
pub fn long_line() -> Input {
    Input::new(
        "line1MiB",
        "one event with a 1 MiB data line",
        one_long_line(1 << 20, SEED),
    )
}
