//! Varied synthetic streams for the framing bench: event sizes drawn from
//! the sizes of recorded LLM streams, so that no single event shape sets
//! the speed a bench reports.
//!
//! Each dialect's event sizes follow a table of quantiles measured on the
//! recorded streams of the corpus beside the repository
//! (`../shared/corpus`) by `tools/corpus-event-sizes.py`
//! (every event pooled, a recording counting as at most 200 events so that
//! one long recording does not stand for its dialect). A size is drawn by
//! inverse transform: a uniform `u` in `[0, 1)`, the two quantiles around
//! it, and log-linear interpolation between them (the mean of the drawn
//! sizes is within 10% of the recorded mean in each dialect). An event of
//! the drawn size is then written in that dialect's shape (its `event:`
//! line or none, its JSON envelope) with its text field filled to the size
//! from the pieces the other generators use (words, punctuation, JSON
//! escapes, code, and, for one event in 20, raw multi-byte UTF-8: 1.7-4.4% of
//! the events end up with some, where 4-5% of the recorded events have
//! some). No recorded byte is copied.
//!
//! All streams use LF line ends, and every block that has a field has a
//! `data` field (the memchr baseline of the framing bench relies on this).

use core::fmt::Write as _;

use super::synth::{Rng, CODE, ESCAPES, PUNCT, UNICODE, WORDS};

/// The probabilities of the quantile tables.
const PROBS: [f64; 27] = [
    0.0, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70, 0.75,
    0.80, 0.85, 0.90, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999, 1.0,
];

/// Event sizes in bytes (blank line included) of the recorded Responses
/// streams at the probabilities of [`PROBS`]: mostly deltas of 200-300
/// bytes, a tail of lifecycle events up to 137 KB (mean about 500 bytes).
pub const RESPONSES_SIZES: [u32; 27] = [
    14, 206, 251, 256, 257, 259, 259, 259, 259, 260, 260, 261, 262, 263, 266, 268, 279, 456, 581,
    841, 1088, 1293, 2476, 4348, 7661, 92838, 137215,
];

/// The same for the recorded Chat Completions streams (chunks of one
/// token, or with log probabilities; the `[DONE]` line is the 14).
pub const CHAT_SIZES: [u32; 27] = [
    14, 259, 263, 283, 306, 316, 317, 318, 319, 320, 321, 323, 329, 553, 601, 633, 649, 681, 697,
    729, 745, 761, 777, 793, 841, 2889, 2889,
];

/// The same for the recorded Anthropic Messages streams (pings of 35
/// bytes, text deltas of 120-180, server tool results up to 40 KB).
pub const ANTHROPIC_SIZES: [u32; 27] = [
    35, 76, 88, 119, 121, 123, 125, 128, 131, 133, 135, 137, 139, 141, 145, 147, 151, 158, 182,
    318, 497, 720, 16964, 26284, 35171, 40077, 40077,
];

/// Chat chunks are drawn within this range of sizes.
pub const CHAT_RANGE: (usize, usize) = (100, 800);

/// Tool-argument events are drawn within this range of sizes (40 KiB on
/// average).
pub const ARGS_RANGE: (usize, usize) = (32 << 10, 48 << 10);

/// A size drawn from a quantile table, by inverse transform, interpolated
/// log-linearly between neighbouring quantiles (the tails span two orders
/// of magnitude; linear interpolation there would overstate the mean).
pub fn draw(rng: &mut Rng, table: &[u32; 27]) -> usize {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let i = PROBS
        .windows(2)
        .position(|w| u < w[1])
        .unwrap_or(PROBS.len() - 2);
    let (p0, p1) = (PROBS[i], PROBS[i + 1]);
    let (q0, q1) = (f64::from(table[i]), f64::from(table[i + 1]));
    (q0 * (q1 / q0).powf((u - p0) / (p1 - p0))).round() as usize
}

/// One event in this many draws its text with raw multi-byte UTF-8 pieces
/// (short events may draw none; in the recorded streams, 4-5% of the
/// events of each dialect carry some).
pub const NON_ASCII_ONE_IN: usize = 20;

/// Appends JSON-escaped text of exactly `n` bytes to `out`: whole pieces
/// (70% words, 10% punctuation, 6% JSON escapes, 9% raw multi-byte UTF-8
/// where `non_ascii`, more words otherwise, 5% code, as the token
/// generator draws them), then ASCII letters for the last few bytes, so
/// that no character is cut.
pub fn fill(rng: &mut Rng, out: &mut String, n: usize, non_ascii: bool) {
    let end = out.len() + n;
    loop {
        let piece = match rng.below(100) {
            0..=69 => rng.pick(WORDS),
            70..=79 => rng.pick(PUNCT),
            80..=85 => ESCAPES[rng.below(ESCAPES.len())].0,
            86..=94 if non_ascii => UNICODE[rng.below(UNICODE.len())].0,
            86..=94 => rng.pick(WORDS),
            _ => rng.pick(CODE),
        };
        if out.len() + piece.len() > end {
            break;
        }
        out.push_str(piece);
    }
    let rest = end - out.len();
    rng.push_alnum(out, rest);
}

/// Collects events, each written as an envelope around a text field filled
/// to the drawn size.
struct Stream {
    out: Vec<u8>,
    frames: usize,
    event: String,
    all_non_ascii: bool,
}

impl Stream {
    fn new(capacity: usize) -> Self {
        Self {
            out: Vec::with_capacity(capacity),
            frames: 0,
            event: String::new(),
            all_non_ascii: false,
        }
    }

    /// Writes `head`, text filling the event to `size` bytes (none if the
    /// envelope alone is that long or longer), `tail` and the blank line.
    /// The text is drawn with raw multi-byte UTF-8 pieces in one event in
    /// [`NON_ASCII_ONE_IN`], or in every event if `all_non_ascii`.
    fn event(&mut self, rng: &mut Rng, size: usize, head: &str, tail: &str) {
        self.event.clear();
        self.event.push_str(head);
        let envelope = head.len() + tail.len() + 2;
        let non_ascii = self.all_non_ascii || rng.below(NON_ASCII_ONE_IN) == 0;
        fill(
            rng,
            &mut self.event,
            size.saturating_sub(envelope),
            non_ascii,
        );
        self.event.push_str(tail);
        self.event.push_str("\n\n");
        self.out.extend_from_slice(self.event.as_bytes());
        self.frames += 1;
    }

    fn keep_alive(&mut self) {
        self.out.extend_from_slice(b": keep-alive\n\n");
    }

    /// The reused event string, cleared, for an event written in full.
    fn out_string(&mut self) -> &mut String {
        self.event.clear();
        &mut self.event
    }

    /// Appends the event written into [`Stream::out_string`].
    fn flush_string(&mut self) {
        self.out.extend_from_slice(self.event.as_bytes());
        self.frames += 1;
    }
}

/// A Responses stream of at least `target_bytes`, event sizes drawn from
/// [`RESPONSES_SIZES`], and its frame count.
///
/// Every event has an `event:` line and one `data:` line whose JSON starts
/// with `"type"` and `"sequence_number"`. Events up to 600 bytes are deltas
/// (`output_text`, `reasoning_summary_text`, `function_call_arguments`,
/// `code_interpreter_call_code`; the item id shortened for the smallest
/// sizes); larger ones are lifecycle events carrying the full text
/// (`output_text.done`, `content_part.done`, `output_item.done`,
/// `response.completed`). A `: keep-alive` comment block comes about once
/// per 300 events.
pub fn responses(target_bytes: usize, seed: u64) -> (Vec<u8>, usize) {
    const DELTAS: [&str; 4] = [
        "response.output_text.delta",
        "response.reasoning_summary_text.delta",
        "response.function_call_arguments.delta",
        "response.code_interpreter_call_code.delta",
    ];
    const DONE: [&str; 4] = [
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
    ];
    let mut rng = Rng::new(seed);
    let mut s = Stream::new(target_bytes + (256 << 10));
    let mut head = String::new();
    let mut tail = String::new();
    let mut id = String::new();
    let mut seq = 0u64;
    while s.out.len() < target_bytes {
        let size = draw(&mut rng, &RESPONSES_SIZES);
        head.clear();
        tail.clear();
        if size <= 600 {
            // 60% text, 20% reasoning summary, 10% each arguments and code.
            let ty = DELTAS[match rng.below(10) {
                0..=5 => 0,
                6 | 7 => 1,
                8 => 2,
                _ => 3,
            }];
            // The envelope without the id is about 150 bytes; a 50-digit id
            // as the API sends it where the size allows, down to 8 digits.
            let id_len = size.saturating_sub(175).clamp(8, 50);
            id.clear();
            rng.push_hex(&mut id, id_len);
            let _ = write!(
                head,
                "event: {ty}\ndata: {{\"type\":\"{ty}\",\"sequence_number\":{seq},\"item_id\":\"msg_{id}\",\"output_index\":0,\"content_index\":0,\"delta\":\""
            );
            tail.push_str("\",\"logprobs\":[]}");
        } else {
            let ty = DONE[rng.below(DONE.len())];
            id.clear();
            rng.push_hex(&mut id, 50);
            let _ = write!(
                head,
                "event: {ty}\ndata: {{\"type\":\"{ty}\",\"sequence_number\":{seq},\"item_id\":\"msg_{id}\",\"output_index\":0,\"content_index\":0,\"text\":\""
            );
            tail.push_str("\",\"logprobs\":[]}");
        }
        s.event(&mut rng, size, &head, &tail);
        seq += 1;
        if rng.chance(1, 300) {
            s.keep_alive();
        }
    }
    (s.out, s.frames)
}

/// A Chat Completions stream of at least `target_bytes`: `data:`-only
/// `chat.completion.chunk` lines of sizes drawn from [`CHAT_SIZES`] and kept
/// within [`CHAT_RANGE`] (the chunk id shortened for the smallest), then
/// `data: [DONE]`; and its frame count.
pub fn chat(target_bytes: usize, seed: u64) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(seed);
    let mut s = Stream::new(target_bytes + 4096);
    let mut head = String::new();
    let mut id = String::new();
    let tail = "\"},\"logprobs\":null,\"finish_reason\":null}]}";
    while s.out.len() < target_bytes {
        let size = draw(&mut rng, &CHAT_SIZES).clamp(CHAT_RANGE.0, CHAT_RANGE.1);
        // The envelope without the id is about 90 bytes.
        let id_len = size.saturating_sub(110).clamp(4, 29);
        id.clear();
        rng.push_alnum(&mut id, id_len);
        head.clear();
        let _ = write!(
            head,
            "data: {{\"id\":\"chatcmpl-{id}\",\"object\":\"chat.completion.chunk\",\"created\":1758064478,\"model\":\"gpt-4o\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\""
        );
        s.event(&mut rng, size, &head, tail);
    }
    s.out.extend_from_slice(b"data: [DONE]\n\n");
    (s.out, s.frames + 1)
}

/// An Anthropic Messages stream of at least `target_bytes`, event sizes
/// drawn from [`ANTHROPIC_SIZES`], and its frame count: `event:` and
/// `data:` lines; a size under 60 bytes is a `ping`, under 100 a
/// `content_block_stop`, up to 2 KB a `content_block_delta` (text, thinking
/// or tool input), and above a `content_block_start` of a server tool's
/// result.
pub fn anthropic(target_bytes: usize, seed: u64) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(seed);
    let mut s = Stream::new(target_bytes + (64 << 10));
    let mut head = String::new();
    while s.out.len() < target_bytes {
        let size = draw(&mut rng, &ANTHROPIC_SIZES);
        let index = rng.below(4);
        head.clear();
        if size < 60 {
            s.out
                .extend_from_slice(b"event: ping\ndata: {\"type\": \"ping\"}\n\n");
            s.frames += 1;
            continue;
        }
        if size < 100 {
            let _ = write!(
                s.out_string(),
                "event: content_block_stop\ndata: {{\"type\":\"content_block_stop\",\"index\":{index}}}\n\n"
            );
            s.flush_string();
            continue;
        }
        let tail = if size <= 2048 {
            let (kind, field) = match rng.below(10) {
                0..=6 => ("text_delta", "text"),
                7 | 8 => ("thinking_delta", "thinking"),
                _ => ("input_json_delta", "partial_json"),
            };
            let _ = write!(
                head,
                "event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":{index},\"delta\":{{\"type\":\"{kind}\",\"{field}\":\""
            );
            "\"}}"
        } else {
            let _ = write!(
                head,
                "event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":{index},\"content_block\":{{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_01\",\"content\":[{{\"type\":\"web_search_result\",\"title\":\""
            );
            "\"}]}}"
        };
        s.event(&mut rng, size, &head, tail);
    }
    (s.out, s.frames)
}

/// `count` Responses `function_call_arguments.delta` events, each carrying
/// tool arguments of a size drawn uniformly from [`ARGS_RANGE`]: a JSON
/// object (escaped into the `delta` string) whose `content` is text and
/// code with JSON escapes and some raw multi-byte UTF-8; and the frame
/// count.
pub fn tool_arguments(count: usize, seed: u64) -> (Vec<u8>, usize) {
    const TY: &str = "response.function_call_arguments.delta";
    let mut rng = Rng::new(seed);
    let mut s = Stream::new(count * (ARGS_RANGE.1 + 512));
    s.all_non_ascii = true;
    let mut head = String::new();
    let mut id = String::new();
    for seq in 0..count {
        let size = rng.range(ARGS_RANGE.0, ARGS_RANGE.1);
        id.clear();
        rng.push_hex(&mut id, 50);
        head.clear();
        let _ = write!(
            head,
            "event: {TY}\ndata: {{\"type\":\"{TY}\",\"sequence_number\":{seq},\"item_id\":\"fc_{id}\",\"output_index\":1,\"delta\":\"{{\\\"path\\\":\\\"src/notes.md\\\",\\\"content\\\":\\\""
        );
        s.event(&mut rng, size, &head, "\\\"}\"}");
    }
    (s.out, s.frames)
}
