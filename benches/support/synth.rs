//! Deterministic synthetic SSE streams for the benches.
//!
//! Nothing here is recorded data: every stream is generated from a seed by a
//! tiny PRNG, in the *shape* of real streams (OpenAI Responses events as the
//! API sends them; the synthetic shapes other SSE crates publish benches for).
//! Each generator returns the wire bytes and the number of frames (dispatched
//! events: blocks with at least one `data` line) a conforming parser yields.
//!
//! All streams use LF line endings only, and every block that has a field has
//! a `data` field, so "blank lines that end a block holding a non-comment
//! line" is also the frame count (the memchr baseline relies on this).

use core::fmt::Write as _;

/// SplitMix64: a tiny, good-enough, seeded PRNG (no `rand` dependency).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for this seed.
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x005E_EC0D_E5EE_C0DE)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`; the modulo bias is irrelevant here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    pub(super) fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    pub(super) fn push_alnum(&mut self, out: &mut String, n: usize) {
        const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for _ in 0..n {
            out.push(ALNUM[self.below(ALNUM.len())] as char);
        }
    }

    pub(super) fn push_hex(&mut self, out: &mut String, n: usize) {
        const HEX: &[u8] = b"0123456789abcdef";
        for _ in 0..n {
            out.push(HEX[self.below(16)] as char);
        }
    }
}

// Delta pieces, as they appear inside a JSON string (already escaped), with
// the number of characters each decodes to. Deltas are built from 1-3 pieces
// and kept to 1-12 decoded characters, like real model tokens.
pub(super) const WORDS: &[&str] = &[
    " the",
    " a",
    " to",
    " of",
    " and",
    " in",
    " is",
    " that",
    " it",
    " for",
    " you",
    " with",
    " on",
    " as",
    " this",
    " be",
    " are",
    " can",
    " stream",
    " model",
    " event",
    " token",
    " parser",
    " response",
    " data",
    " line",
    " bytes",
    " chunk",
    " value",
    " output",
    " text",
    " function",
    " request",
    " server",
    " client",
    " buffer",
    " message",
    " example",
    " here",
    " we",
    " will",
    " each",
    " when",
    " not",
    " by",
    " from",
    " an",
    " or",
    " if",
    " has",
    "ing",
    "ed",
    "ly",
    "s",
    "er",
    "tion",
    " Rust",
    " JSON",
    " API",
    " SSE",
    " HTTP",
    "Hello",
    " How",
    " assist",
    " today",
    " I",
    " great",
    " question",
    " Let",
    " me",
    " explain",
];
pub(super) const PUNCT: &[&str] = &[
    ".", ",", "!", "?", ":", ";", " -", ")", " (", "'s", " 1", " 2", "0",
];
// JSON escapes: (escaped form, decoded char count).
pub(super) const ESCAPES: &[(&str, usize)] = &[
    ("\\n", 1),
    ("\\n\\n", 2),
    (".\\n\\n", 3),
    (" \\\"", 2),
    ("\\\"", 1),
    ("\\\",", 2),
    (" caf\\u00e9", 5),
    (" na\\u00efve", 6),
    ("\\u2014", 1),
    (" \\u201c", 2),
    ("\\u201d", 1),
    ("\\\\", 1),
    ("\\t", 1),
    (" \\u00fcber", 5),
];
// Raw (unescaped) non-ASCII UTF-8: (text, decoded char count).
pub(super) const UNICODE: &[(&str, usize)] = &[
    (" café", 5),
    (" naïve", 6),
    (" 日本", 3),
    ("語", 1),
    (" 中文", 3),
    ("内容", 2),
    (" 🙂", 2),
    (" Ünïcödé", 8),
    ("—", 1),
    (" €", 2),
    (" Привет", 7),
    (" ñ", 2),
    (" 👋🏽", 3),
];
pub(super) const CODE: &[&str] = &[
    " `", "`", " {", "}", " fn", "()", " =>", " let", " x", "::", "<T>", "[]",
];

/// One delta: its JSON-escaped form and decoded length in characters.
fn delta(rng: &mut Rng, out: &mut String) -> usize {
    out.clear();
    let pieces = if rng.chance(1, 4) { 2 } else { 1 };
    let mut chars = 0;
    for _ in 0..pieces {
        let (piece, n): (&str, usize) = match rng.below(100) {
            0..=69 => {
                let w = rng.pick(WORDS);
                (w, w.chars().count())
            }
            70..=79 => {
                let p = rng.pick(PUNCT);
                (p, p.chars().count())
            }
            80..=85 => ESCAPES[rng.below(ESCAPES.len())],
            86..=94 => UNICODE[rng.below(UNICODE.len())],
            _ => {
                let c = rng.pick(CODE);
                (c, c.chars().count())
            }
        };
        if chars + n > 12 {
            break;
        }
        out.push_str(piece);
        chars += n;
    }
    if chars == 0 {
        out.push_str(" x");
        chars = 2;
    }
    chars
}

const MODEL: &str = "gpt-4o-mini-2024-07-18";
const CREATED_AT: u64 = 1_758_064_478;

struct Writer {
    out: Vec<u8>,
    frames: usize,
    seq: u64,
    line: String,
}

impl Writer {
    /// Writes one event: `event: <ty>` and one `data:` line whose JSON begins
    /// with `"type"` and `"sequence_number"` (as the API orders them).
    fn event(&mut self, ty: &str, rest: &str) {
        self.line.clear();
        let _ = write!(
            self.line,
            "event: {ty}\ndata: {{\"type\":\"{ty}\",\"sequence_number\":{}{rest}}}\n\n",
            self.seq
        );
        self.out.extend_from_slice(self.line.as_bytes());
        self.seq += 1;
        self.frames += 1;
    }

    fn keep_alive(&mut self) {
        self.out.extend_from_slice(b": keep-alive\n\n");
    }
}

fn response_object(id: &str, status: &str, output: &str, usage: &str) -> String {
    format!(
        "{{\"id\":\"{id}\",\"object\":\"response\",\"created_at\":{CREATED_AT},\"status\":\"{status}\",\
\"background\":false,\"error\":null,\"incomplete_details\":null,\"instructions\":null,\
\"max_output_tokens\":null,\"max_tool_calls\":null,\"model\":\"{MODEL}\",\"output\":[{output}],\
\"parallel_tool_calls\":true,\"previous_response_id\":null,\"prompt_cache_key\":null,\
\"reasoning\":{{\"effort\":null,\"summary\":null}},\"safety_identifier\":null,\"service_tier\":\"auto\",\
\"store\":true,\"temperature\":1.0,\"text\":{{\"format\":{{\"type\":\"text\"}},\"verbosity\":\"medium\"}},\
\"tool_choice\":\"auto\",\"tools\":[],\"top_logprobs\":0,\"top_p\":1.0,\"truncation\":\"disabled\",\
\"usage\":{usage},\"user\":null,\"metadata\":{{}}}}"
    )
}

fn message_item(id: &str, status: &str, text: Option<&str>) -> String {
    let content = match text {
        Some(t) => {
            format!(
                "{{\"type\":\"output_text\",\"annotations\":[],\"logprobs\":[],\"text\":\"{t}\"}}"
            )
        }
        None => String::new(),
    };
    format!(
        "{{\"id\":\"{id}\",\"type\":\"message\",\"status\":\"{status}\",\"content\":[{content}],\"role\":\"assistant\"}}"
    )
}

/// A synthetic OpenAI Responses stream of at least `target_bytes` bytes, and
/// its frame count.
///
/// It is one response: `response.created`, `response.in_progress`, then
/// message items (`output_item.added`, `content_part.added`, many
/// `response.output_text.delta` events with `sequence_number`, `item_id`,
/// `obfuscation`, deltas of 1-12 characters with JSON escapes and raw
/// non-ASCII text, then `output_text.done`, `content_part.done`,
/// `output_item.done`) until the size is reached, then `response.completed`
/// carrying every item's full text. A `: keep-alive` comment block appears
/// now and then (about one per 300 events). The same seed gives the same bytes.
pub fn responses_stream(target_bytes: usize, seed: u64) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(seed);
    let mut w = Writer {
        out: Vec::with_capacity(target_bytes + (1 << 20)),
        frames: 0,
        seq: 0,
        line: String::new(),
    };
    let mut resp_id = String::from("resp_");
    rng.push_hex(&mut resp_id, 50);

    let initial = response_object(&resp_id, "in_progress", "", "null");
    w.event("response.created", &format!(",\"response\":{initial}"));
    w.event("response.in_progress", &format!(",\"response\":{initial}"));

    let mut done_items: Vec<String> = Vec::new();
    let mut delta_buf = String::new();
    let mut obf = String::new();
    let mut output_tokens = 0usize;
    let mut output_index = 0usize;
    while w.out.len() < target_bytes {
        let mut item_id = String::from("msg_");
        rng.push_hex(&mut item_id, 50);
        w.event(
            "response.output_item.added",
            &format!(
                ",\"output_index\":{output_index},\"item\":{}",
                message_item(&item_id, "in_progress", None)
            ),
        );
        let ids = format!(
            ",\"item_id\":\"{item_id}\",\"output_index\":{output_index},\"content_index\":0"
        );
        w.event(
            "response.content_part.added",
            &format!("{ids},\"part\":{{\"type\":\"output_text\",\"annotations\":[],\"logprobs\":[],\"text\":\"\"}}"),
        );
        let mut text = String::new();
        let deltas = rng.range(400, 4000);
        let mut rest = String::new();
        for _ in 0..deltas {
            if w.out.len() >= target_bytes {
                break;
            }
            let chars = delta(&mut rng, &mut delta_buf);
            text.push_str(&delta_buf);
            obf.clear();
            rng.push_alnum(&mut obf, 16usize.saturating_sub(chars).max(2));
            rest.clear();
            let _ = write!(
                rest,
                "{ids},\"delta\":\"{delta_buf}\",\"logprobs\":[],\"obfuscation\":\"{obf}\""
            );
            w.event("response.output_text.delta", &rest);
            output_tokens += 1;
            if rng.chance(1, 300) {
                w.keep_alive();
            }
        }
        w.event(
            "response.output_text.done",
            &format!("{ids},\"text\":\"{text}\",\"logprobs\":[]"),
        );
        w.event(
            "response.content_part.done",
            &format!(
                "{ids},\"part\":{{\"type\":\"output_text\",\"annotations\":[],\"logprobs\":[],\"text\":\"{text}\"}}"
            ),
        );
        let item = message_item(&item_id, "completed", Some(&text));
        w.event(
            "response.output_item.done",
            &format!(",\"output_index\":{output_index},\"item\":{item}"),
        );
        done_items.push(item);
        output_index += 1;
    }
    let usage = format!(
        "{{\"input_tokens\":11,\"input_tokens_details\":{{\"cached_tokens\":0}},\"output_tokens\":{output_tokens},\
\"output_tokens_details\":{{\"reasoning_tokens\":0}},\"total_tokens\":{}}}",
        output_tokens + 11
    );
    let completed = response_object(&resp_id, "completed", &done_items.join(","), &usage);
    w.event("response.completed", &format!(",\"response\":{completed}"));
    (w.out, w.frames)
}

/// `count` tiny events, `data: {"t":"a"}` (the small-event shape sse-stream
/// and sse-core bench with).
pub fn tiny_events(count: usize) -> (Vec<u8>, usize) {
    (b"data: {\"t\":\"a\"}\n\n".repeat(count), count)
}

/// `count` events of one `data:` line of about `line_len` bytes each, the
/// large-payload shape sse-stream and sse-core bench with
/// (`data: payload data: wordword...`).
pub fn data_lines(count: usize, line_len: usize) -> (Vec<u8>, usize) {
    let event = format!("data: payload data: {}\n\n", "word".repeat(line_len / 4));
    (event.repeat(count).into_bytes(), count)
}

/// `count` keep-alive comment blocks (`: keep-alive`, blank line), then one
/// final event so that the frame count (1) proves the whole stream was read.
pub fn keep_alives(count: usize) -> (Vec<u8>, usize) {
    let mut out = b": keep-alive\n\n".repeat(count);
    out.extend_from_slice(b"event: done\ndata: [DONE]\n\n");
    (out, 1)
}

/// One event whose single `data:` line is at least `min_line_len` bytes: a
/// Responses `image_generation_call.partial_image` event carrying a
/// base64 image (deterministic noise), the kind of line that arrives in many
/// small reads.
pub fn one_long_line(min_line_len: usize, seed: u64) -> (Vec<u8>, usize) {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(min_line_len + 512);
    out.extend_from_slice(b"event: response.image_generation_call.partial_image\n");
    let line_start = out.len();
    out.extend_from_slice(
        b"data: {\"type\":\"response.image_generation_call.partial_image\",\"sequence_number\":7,\"item_id\":\"ig_0123456789abcdef\",\"output_index\":0,\"partial_image_index\":0,\"partial_image_b64\":\"",
    );
    let mut x = 0u64;
    let mut left = 0;
    while out.len() - line_start < min_line_len {
        if left == 0 {
            x = rng.next_u64();
            left = 10;
        }
        out.push(B64[(x & 63) as usize]);
        x >>= 6;
        left -= 1;
    }
    out.extend_from_slice(b"==\"}\n\n");
    (out, 1)
}

/// A synthetic OpenAI Chat Completions stream of at least `target_bytes`:
/// `data:`-only lines (no `event:`, no `id:`), one chunk per token as
/// `chat.completion.chunk` objects with `id`, `object`, `created`, `model`,
/// `system_fingerprint` and one choice whose `delta.content` is a 1-12
/// character token (JSON escapes and non-ASCII included), a final chunk with
/// `finish_reason`, a usage chunk with empty `choices`, then `data: [DONE]`.
pub fn chat_stream(target_bytes: usize, seed: u64) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(target_bytes + 4096);
    let mut frames = 0;
    let mut id = String::from("chatcmpl-");
    rng.push_alnum(&mut id, 29);
    let head = format!(
        "data: {{\"id\":\"{id}\",\"object\":\"chat.completion.chunk\",\"created\":{CREATED_AT},\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_5f20662549\",\"choices\":[{{\"index\":0,\"delta\":"
    );
    let mut line = String::new();
    let mut token = String::new();
    line.push_str(&head);
    line.push_str("{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    out.extend_from_slice(line.as_bytes());
    frames += 1;
    let mut tokens = 0usize;
    while out.len() < target_bytes {
        delta(&mut rng, &mut token);
        line.clear();
        line.push_str(&head);
        let _ = write!(
            line,
            "{{\"content\":\"{token}\"}},\"logprobs\":null,\"finish_reason\":null}}]}}\n\n"
        );
        out.extend_from_slice(line.as_bytes());
        frames += 1;
        tokens += 1;
    }
    line.clear();
    line.push_str(&head);
    line.push_str("{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n\n");
    out.extend_from_slice(line.as_bytes());
    let _ = write!(
        out_string(&mut line),
        "data: {{\"id\":\"{id}\",\"object\":\"chat.completion.chunk\",\"created\":{CREATED_AT},\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_5f20662549\",\"choices\":[],\"usage\":{{\"prompt_tokens\":11,\"completion_tokens\":{tokens},\"total_tokens\":{}}}}}\n\ndata: [DONE]\n\n",
        tokens + 11
    );
    out.extend_from_slice(line.as_bytes());
    frames += 3;
    (out, frames)
}

/// A synthetic Anthropic Messages stream of at least `target_bytes`:
/// `event:` + `data:` pairs as the API sends them (`message_start`, a
/// `content_block_start`, many `content_block_delta` events with
/// `text_delta` tokens and a `ping` now and then, `content_block_stop`,
/// `message_delta` with usage, `message_stop`).
pub fn anthropic_stream(target_bytes: usize, seed: u64) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(target_bytes + 4096);
    let mut frames = 0;
    let mut id = String::from("msg_01");
    rng.push_alnum(&mut id, 22);
    let mut line = String::new();
    let mut event = |out: &mut Vec<u8>, name: &str, data: &str| {
        out.extend_from_slice(format!("event: {name}\ndata: {data}\n\n").as_bytes());
        frames += 1;
    };
    event(
        &mut out,
        "message_start",
        &format!("{{\"type\":\"message_start\",\"message\":{{\"id\":\"{id}\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{{\"input_tokens\":25,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":1}}}}}}"),
    );
    event(
        &mut out,
        "content_block_start",
        "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
    );
    event(&mut out, "ping", "{\"type\": \"ping\"}");
    let mut token = String::new();
    let mut tokens = 0usize;
    while out.len() < target_bytes {
        delta(&mut rng, &mut token);
        line.clear();
        let _ = write!(
            line,
            "{{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":\"{token}\"}}}}"
        );
        event(&mut out, "content_block_delta", &line);
        tokens += 1;
        if rng.chance(1, 500) {
            event(&mut out, "ping", "{\"type\": \"ping\"}");
        }
    }
    event(
        &mut out,
        "content_block_stop",
        "{\"type\":\"content_block_stop\",\"index\":0}",
    );
    event(
        &mut out,
        "message_delta",
        &format!("{{\"type\":\"message_delta\",\"delta\":{{\"stop_reason\":\"end_turn\",\"stop_sequence\":null}},\"usage\":{{\"output_tokens\":{tokens}}}}}"),
    );
    event(&mut out, "message_stop", "{\"type\":\"message_stop\"}");
    (out, frames)
}

fn out_string(s: &mut String) -> &mut String {
    s.clear();
    s
}

/// A synthetic Google Gemini stream (`streamGenerateContent?alt=sse`) of at
/// least `target_bytes`, shaped like the corpus recording: CRLF line ends,
/// `data:` lines only (no `event:`, no `id:`, no `[DONE]`), JSON with a
/// space after each colon, one `GenerateContentResponse` chunk per token:
/// one candidate whose `content.parts` holds one text part (JSON escapes and
/// non-ASCII included) and `role`, the cumulative `usageMetadata`,
/// `modelVersion` and `responseId`; the last chunk adds `finishReason`.
pub fn gemini_stream(target_bytes: usize, seed: u64) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(target_bytes + 4096);
    let mut frames = 0;
    let mut id = String::new();
    rng.push_alnum(&mut id, 23);
    let mut line = String::new();
    let mut token = String::new();
    let mut tokens = 0usize;
    let mut chunk = |out: &mut Vec<u8>,
                     line: &mut String,
                     text: &str,
                     tokens: usize,
                     last: bool| {
        line.clear();
        let finish = if last {
            ",\"finishReason\": \"STOP\""
        } else {
            ""
        };
        let _ = write!(
            line,
            "data: {{\"candidates\": [{{\"content\": {{\"parts\": [{{\"text\": \"{text}\"}}],\"role\": \"model\"}}{finish}}}],\
             \"usageMetadata\": {{\"promptTokenCount\": 15,\"candidatesTokenCount\": {tokens},\"totalTokenCount\": {},\
             \"promptTokensDetails\": [{{\"modality\": \"TEXT\",\"tokenCount\": 15}}]}},\
             \"modelVersion\": \"gemini-2.5-flash\",\"responseId\": \"{id}\"}}\r\n\r\n",
            tokens + 15
        );
        out.extend_from_slice(line.as_bytes());
        frames += 1;
    };
    while out.len() < target_bytes {
        delta(&mut rng, &mut token);
        tokens += 1;
        chunk(&mut out, &mut line, &token, tokens, false);
    }
    chunk(&mut out, &mut line, "", tokens, true);
    (out, frames)
}

/// One part of a synthetic assistant turn, rendered alike in every dialect.
#[derive(Debug, Clone)]
pub enum Segment {
    /// A reasoning (thinking) item: its deltas, JSON-escaped.
    Reasoning(Vec<String>),
    /// A text item: its deltas, JSON-escaped.
    Text(Vec<String>),
    /// A tool call: its id, name and argument fragments (raw JSON text
    /// without backslashes or control characters, so escaping it is only
    /// `"` to `\"`; the fragments joined are one JSON object).
    Call {
        /// The call's id (`call_…`).
        id: String,
        /// The function's name.
        name: &'static str,
        /// The arguments, fragment by fragment.
        args: Vec<String>,
    },
}

/// A delta of varied size: mostly one token (1-12 characters), sometimes a
/// few, now and then a run of up to 60 (a server that flushes late), so
/// event sizes follow a long-tailed distribution.
fn varied_delta(rng: &mut Rng, out: &mut String) {
    let pieces = match rng.below(100) {
        0..=74 => 1,
        75..=94 => rng.range(2, 5),
        _ => rng.range(6, 60),
    };
    out.clear();
    let mut piece = String::new();
    for _ in 0..pieces {
        delta(rng, &mut piece);
        out.push_str(&piece);
    }
}

/// Argument words: ASCII and raw non-ASCII, never a backslash or a quote.
fn arg_word(rng: &mut Rng) -> &'static str {
    if rng.chance(1, 6) {
        UNICODE[rng.below(UNICODE.len())].0
    } else {
        rng.pick(WORDS)
    }
}

/// The plan of a synthetic turn of `deltas` text and reasoning delta
/// events: reasoning (20-200 deltas) and text (20-800 deltas) items in
/// turn, a reasoning item first, then 2-4 tool calls whose arguments
/// (a JSON object with a long string, a number, a list) come in 10-300
/// fragments of 1-5 words.
pub fn turn_plan(deltas: usize, seed: u64) -> Vec<Segment> {
    let mut rng = Rng::new(seed ^ 0x7E57);
    let mut plan = Vec::new();
    let mut count = 0;
    let mut buf = String::new();
    while count < deltas {
        let reasoning = plan.len() % 2 == 0;
        let n = if reasoning {
            rng.range(20, 200)
        } else {
            rng.range(20, 800)
        };
        let n = n.min(deltas - count);
        let items: Vec<String> = (0..n)
            .map(|_| {
                varied_delta(&mut rng, &mut buf);
                buf.clone()
            })
            .collect();
        count += n;
        if reasoning {
            plan.push(Segment::Reasoning(items));
        } else {
            plan.push(Segment::Text(items));
        }
    }
    const NAMES: &[&str] = &["get_weather", "search_docs", "run_query", "read_file"];
    for _ in 0..rng.range(2, 4) {
        let mut id = String::from("call_");
        rng.push_alnum(&mut id, 24);
        let mut args = vec![String::from("{\"query\": \"")];
        for _ in 0..rng.range(10, 300) {
            let mut frag = String::new();
            for _ in 0..rng.range(1, 5) {
                frag.push_str(arg_word(&mut rng));
            }
            args.push(frag);
        }
        args.push(format!("\", \"limit\": {}, ", rng.range(1, 500)));
        args.push(format!(
            "\"tags\": [\"{}\", \"{}\"]}}",
            rng.pick(WORDS).trim(),
            arg_word(&mut rng).trim()
        ));
        plan.push(Segment::Call {
            id,
            name: rng.pick(NAMES),
            args,
        });
    }
    plan
}

/// Raw JSON text as the content of a JSON string (the argument fragments
/// hold no backslash or control character, so only quotes need escaping).
fn escape_quotes(raw: &str) -> String {
    raw.replace('"', "\\\"")
}

/// The number of delta events in a plan.
fn plan_deltas(plan: &[Segment]) -> usize {
    plan.iter()
        .map(|s| match s {
            Segment::Reasoning(d) | Segment::Text(d) => d.len(),
            Segment::Call { args, .. } => args.len(),
        })
        .sum()
}

/// The turn of [`turn_plan`] as Chat Completions chunks: a role chunk,
/// `delta.reasoning_content` and `delta.content` chunks, `delta.tool_calls`
/// (the first chunk of a call with its id and name), a `finish_reason`
/// chunk, a usage chunk, `[DONE]`.
pub fn chat_turn_stream(plan: &[Segment]) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let mut frames = 0;
    let head = format!(
        "data: {{\"id\":\"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG\",\"object\":\"chat.completion.chunk\",\"created\":{CREATED_AT},\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_5f20662549\",\"choices\":[{{\"index\":0,\"delta\":"
    );
    let mut chunk = |out: &mut Vec<u8>, delta: &str, finish: &str| {
        out.extend_from_slice(head.as_bytes());
        out.extend_from_slice(
            format!("{delta},\"logprobs\":null,\"finish_reason\":{finish}}}]}}\n\n").as_bytes(),
        );
        frames += 1;
    };
    chunk(
        &mut out,
        "{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null}",
        "null",
    );
    let mut calls = 0;
    for seg in plan {
        match seg {
            Segment::Reasoning(d) => {
                for t in d {
                    chunk(
                        &mut out,
                        &format!("{{\"reasoning_content\":\"{t}\"}}"),
                        "null",
                    );
                }
            }
            Segment::Text(d) => {
                for t in d {
                    chunk(&mut out, &format!("{{\"content\":\"{t}\"}}"), "null");
                }
            }
            Segment::Call { id, name, args } => {
                chunk(
                    &mut out,
                    &format!("{{\"tool_calls\":[{{\"index\":{calls},\"id\":\"{id}\",\"type\":\"function\",\"function\":{{\"name\":\"{name}\",\"arguments\":\"\"}}}}]}}"),
                    "null",
                );
                for a in args {
                    chunk(
                        &mut out,
                        &format!(
                            "{{\"tool_calls\":[{{\"index\":{calls},\"function\":{{\"arguments\":\"{}\"}}}}]}}",
                            escape_quotes(a)
                        ),
                        "null",
                    );
                }
                calls += 1;
            }
        }
    }
    let finish = if calls > 0 {
        "\"tool_calls\""
    } else {
        "\"stop\""
    };
    chunk(&mut out, "{}", finish);
    let n = plan_deltas(plan);
    out.extend_from_slice(
        format!(
            "data: {{\"id\":\"chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG\",\"object\":\"chat.completion.chunk\",\"created\":{CREATED_AT},\"model\":\"gpt-4o-2024-08-06\",\"system_fingerprint\":\"fp_5f20662549\",\"choices\":[],\"usage\":{{\"prompt_tokens\":11,\"completion_tokens\":{n},\"total_tokens\":{}}}}}\n\ndata: [DONE]\n\n",
            n + 11
        )
        .as_bytes(),
    );
    frames += 2;
    (out, frames)
}

/// The turn of [`turn_plan`] as Anthropic Messages events: `message_start`,
/// one block per segment (`thinking` with `thinking_delta`s and a
/// `signature_delta`, `text` with `text_delta`s, `tool_use` with
/// `input_json_delta`s), a `ping` now and then, `message_delta`,
/// `message_stop`.
pub fn anthropic_turn_stream(plan: &[Segment], seed: u64) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut frames = 0;
    let mut event = |out: &mut Vec<u8>, name: &str, data: &str| {
        out.extend_from_slice(format!("event: {name}\ndata: {data}\n\n").as_bytes());
        frames += 1;
    };
    event(
        &mut out,
        "message_start",
        "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_01XFDUDYJgAACzvnptvVoYEL\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":25,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":1}}}",
    );
    event(&mut out, "ping", "{\"type\": \"ping\"}");
    let mut calls = false;
    for (index, seg) in plan.iter().enumerate() {
        let (start, kind, field, deltas): (String, &str, &str, Vec<String>) = match seg {
            Segment::Reasoning(d) => (
                "{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}".into(),
                "thinking_delta",
                "thinking",
                d.clone(),
            ),
            Segment::Text(d) => (
                "{\"type\":\"text\",\"text\":\"\"}".into(),
                "text_delta",
                "text",
                d.clone(),
            ),
            Segment::Call { id, name, args } => {
                calls = true;
                (
                    format!("{{\"type\":\"tool_use\",\"id\":\"toolu_{}\",\"name\":\"{name}\",\"input\":{{}}}}", &id[5..]),
                    "input_json_delta",
                    "partial_json",
                    args.iter().map(|a| escape_quotes(a)).collect(),
                )
            }
        };
        event(
            &mut out,
            "content_block_start",
            &format!(
                "{{\"type\":\"content_block_start\",\"index\":{index},\"content_block\":{start}}}"
            ),
        );
        for d in &deltas {
            event(
                &mut out,
                "content_block_delta",
                &format!("{{\"type\":\"content_block_delta\",\"index\":{index},\"delta\":{{\"type\":\"{kind}\",\"{field}\":\"{d}\"}}}}"),
            );
            if rng.chance(1, 500) {
                event(&mut out, "ping", "{\"type\": \"ping\"}");
            }
        }
        if let Segment::Reasoning(_) = seg {
            let mut sig = String::new();
            let n = rng.range(200, 400);
            rng.push_alnum(&mut sig, n);
            event(
                &mut out,
                "content_block_delta",
                &format!("{{\"type\":\"content_block_delta\",\"index\":{index},\"delta\":{{\"type\":\"signature_delta\",\"signature\":\"{sig}\"}}}}"),
            );
        }
        event(
            &mut out,
            "content_block_stop",
            &format!("{{\"type\":\"content_block_stop\",\"index\":{index}}}"),
        );
    }
    let stop = if calls { "tool_use" } else { "end_turn" };
    event(
        &mut out,
        "message_delta",
        &format!("{{\"type\":\"message_delta\",\"delta\":{{\"stop_reason\":\"{stop}\",\"stop_sequence\":null}},\"usage\":{{\"output_tokens\":{}}}}}", plan_deltas(plan)),
    );
    event(&mut out, "message_stop", "{\"type\":\"message_stop\"}");
    (out, frames)
}

/// The turn of [`turn_plan`] as Gemini chunks (CRLF, `data:` only, a space
/// after each colon): one chunk per delta, a text part (`"thought": true`
/// for reasoning), each tool call whole in one chunk as a `functionCall`
/// part, the cumulative `usageMetadata`, and `finishReason` on the last.
pub fn gemini_turn_stream(plan: &[Segment]) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let mut frames = 0;
    let mut tokens = 0usize;
    let mut chunk = |out: &mut Vec<u8>, part: &str, last: bool| {
        tokens += 1;
        let finish = if last {
            ",\"finishReason\": \"STOP\""
        } else {
            ""
        };
        out.extend_from_slice(
            format!(
                "data: {{\"candidates\": [{{\"content\": {{\"parts\": [{part}],\"role\": \"model\"}}{finish}}}],\
                 \"usageMetadata\": {{\"promptTokenCount\": 15,\"candidatesTokenCount\": {tokens},\"totalTokenCount\": {},\
                 \"promptTokensDetails\": [{{\"modality\": \"TEXT\",\"tokenCount\": 15}}]}},\
                 \"modelVersion\": \"gemini-2.5-flash\",\"responseId\": \"HfCJaPiWBo7Vz7IPqMbT2QM\"}}\r\n\r\n",
                tokens + 15
            )
            .as_bytes(),
        );
        frames += 1;
    };
    for seg in plan {
        match seg {
            Segment::Reasoning(d) => {
                for t in d {
                    chunk(
                        &mut out,
                        &format!("{{\"text\": \"{t}\",\"thought\": true}}"),
                        false,
                    );
                }
            }
            Segment::Text(d) => {
                for t in d {
                    chunk(&mut out, &format!("{{\"text\": \"{t}\"}}"), false);
                }
            }
            Segment::Call { name, args, .. } => {
                chunk(
                    &mut out,
                    &format!(
                        "{{\"functionCall\": {{\"name\": \"{name}\",\"args\": {}}}}}",
                        args.concat()
                    ),
                    false,
                );
            }
        }
    }
    chunk(&mut out, "{\"text\": \"\"}", true);
    (out, frames)
}

/// The turn of [`turn_plan`] as OpenAI Responses events: `response.created`
/// and `in_progress`, then one output item per segment (a `reasoning` item
/// with a summary part and `reasoning_summary_text.delta`s, a `message`
/// with `output_text.delta`s, a `function_call` with
/// `function_call_arguments.delta`s; each with its `added`/`done` events and
/// whole texts), `response.completed` with every item, and a `: keep-alive`
/// comment now and then.
pub fn responses_turn_stream(plan: &[Segment], seed: u64) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(seed);
    let mut w = Writer {
        out: Vec::new(),
        frames: 0,
        seq: 0,
        line: String::new(),
    };
    let mut resp_id = String::from("resp_");
    rng.push_hex(&mut resp_id, 50);
    let initial = response_object(&resp_id, "in_progress", "", "null");
    w.event("response.created", &format!(",\"response\":{initial}"));
    w.event("response.in_progress", &format!(",\"response\":{initial}"));
    let mut done_items = Vec::new();
    let mut obf = String::new();
    for (oi, seg) in plan.iter().enumerate() {
        let mut item_id = String::new();
        rng.push_hex(&mut item_id, 48);
        let (added, delta_ty, done_ty, ids, deltas): (String, &str, &str, String, Vec<String>) =
            match seg {
                Segment::Reasoning(d) => {
                    item_id.insert_str(0, "rs_");
                    let ids = format!(
                        ",\"item_id\":\"{item_id}\",\"output_index\":{oi},\"summary_index\":0"
                    );
                    w.event(
                        "response.output_item.added",
                        &format!(",\"output_index\":{oi},\"item\":{{\"id\":\"{item_id}\",\"type\":\"reasoning\",\"summary\":[]}}"),
                    );
                    w.event(
                        "response.reasoning_summary_part.added",
                        &format!("{ids},\"part\":{{\"type\":\"summary_text\",\"text\":\"\"}}"),
                    );
                    (
                        String::new(),
                        "response.reasoning_summary_text.delta",
                        "response.reasoning_summary_text.done",
                        ids,
                        d.clone(),
                    )
                }
                Segment::Text(d) => {
                    item_id.insert_str(0, "msg_");
                    let ids = format!(
                        ",\"item_id\":\"{item_id}\",\"output_index\":{oi},\"content_index\":0"
                    );
                    w.event(
                        "response.output_item.added",
                        &format!(
                            ",\"output_index\":{oi},\"item\":{}",
                            message_item(&item_id, "in_progress", None)
                        ),
                    );
                    w.event(
                        "response.content_part.added",
                        &format!("{ids},\"part\":{{\"type\":\"output_text\",\"annotations\":[],\"logprobs\":[],\"text\":\"\"}}"),
                    );
                    (
                        String::new(),
                        "response.output_text.delta",
                        "response.output_text.done",
                        ids,
                        d.clone(),
                    )
                }
                Segment::Call { id, name, args } => {
                    item_id.insert_str(0, "fc_");
                    let ids = format!(",\"item_id\":\"{item_id}\",\"output_index\":{oi}");
                    let added = format!("{{\"id\":\"{item_id}\",\"type\":\"function_call\",\"status\":\"in_progress\",\"arguments\":\"\",\"call_id\":\"{id}\",\"name\":\"{name}\"}}");
                    w.event(
                        "response.output_item.added",
                        &format!(",\"output_index\":{oi},\"item\":{added}"),
                    );
                    (
                        format!("\"call_id\":\"{id}\",\"name\":\"{name}\""),
                        "response.function_call_arguments.delta",
                        "response.function_call_arguments.done",
                        ids,
                        args.iter().map(|a| escape_quotes(a)).collect(),
                    )
                }
            };
        let mut whole = String::new();
        for d in &deltas {
            whole.push_str(d);
            obf.clear();
            let n = rng.range(2, 16);
            rng.push_alnum(&mut obf, n);
            w.event(
                delta_ty,
                &format!("{ids},\"delta\":\"{d}\",\"obfuscation\":\"{obf}\""),
            );
            if rng.chance(1, 300) {
                w.keep_alive();
            }
        }
        let item = match seg {
            Segment::Reasoning(_) => {
                w.event(done_ty, &format!("{ids},\"text\":\"{whole}\""));
                w.event(
                    "response.reasoning_summary_part.done",
                    &format!("{ids},\"part\":{{\"type\":\"summary_text\",\"text\":\"{whole}\"}}"),
                );
                format!("{{\"id\":\"{item_id}\",\"type\":\"reasoning\",\"summary\":[{{\"type\":\"summary_text\",\"text\":\"{whole}\"}}]}}")
            }
            Segment::Text(_) => {
                w.event(
                    done_ty,
                    &format!("{ids},\"text\":\"{whole}\",\"logprobs\":[]"),
                );
                w.event(
                    "response.content_part.done",
                    &format!("{ids},\"part\":{{\"type\":\"output_text\",\"annotations\":[],\"logprobs\":[],\"text\":\"{whole}\"}}"),
                );
                message_item(&item_id, "completed", Some(&whole))
            }
            Segment::Call { .. } => {
                w.event(done_ty, &format!("{ids},\"arguments\":\"{whole}\""));
                format!("{{\"id\":\"{item_id}\",\"type\":\"function_call\",\"status\":\"completed\",\"arguments\":\"{whole}\",{added}}}")
            }
        };
        w.event(
            "response.output_item.done",
            &format!(",\"output_index\":{oi},\"item\":{item}"),
        );
        done_items.push(item);
    }
    let n = plan_deltas(plan);
    let usage = format!(
        "{{\"input_tokens\":11,\"input_tokens_details\":{{\"cached_tokens\":0}},\"output_tokens\":{n},\
\"output_tokens_details\":{{\"reasoning_tokens\":0}},\"total_tokens\":{}}}",
        n + 11
    );
    let completed = response_object(&resp_id, "completed", &done_items.join(","), &usage);
    w.event("response.completed", &format!(",\"response\":{completed}"));
    (w.out, w.frames)
}
