//! Fuzz target `bridge`: every bridge, on any upstream bytes, must not
//! panic, must write the same bytes however the upstream is chunked, and
//! must end its downstream well-formed: towards Responses, no error finding
//! of the linter (Codex rules) and exactly one terminal event; towards Chat,
//! exactly one `data: [DONE]`, at the end.
//!
//! Input layout (an input shorter than the header means "Chat, whole"):
//!
//! | bytes     | meaning                                                        |
//! | --------- | -------------------------------------------------------------- |
//! | 0         | bits 0-1: the bridge (0 Chat, 1 Anthropic, 2 Gemini → Responses; |
//! |           | 3 Responses → Chat); bit 2: tiny limits (`max_items` 2,        |
//! |           | `max_kept_bytes` 256, `max_held_bytes` 64); bit 3 set: any     |
//! |           | direction, `translate(from, to)` with from = bits 4-5 and to = |
//! |           | bits 6-7 (Responses, Chat, Anthropic, Gemini), checked for no  |
//! |           | panic, the same bytes at any chunking and a finished end       |
//! | 1         | `n = byte % 16`: how many split points follow                  |
//! | 2..2+2n   | split points, u16 little endian (positions modulo len + 1)     |
//! | rest      | the upstream SSE stream                                        |
#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use ssekit::bridge::{
    AnthropicToResponses, Bridge, BridgeConfig, BytesBridge, ChatToResponses, GeminiToResponses,
    ResponsesToChat,
};

fn make(which: u8, config: BridgeConfig) -> Box<dyn Bridge> {
    if which & 8 != 0 {
        use ssekit::turn::Dialect;
        let dialect = |bits: u8| match bits & 3 {
            0 => Dialect::Responses,
            1 => Dialect::Chat,
            2 => Dialect::Anthropic,
            _ => Dialect::Gemini,
        };
        return ssekit::bridge::boxed(dialect(which >> 4), dialect(which >> 6), &config);
    }
    match which & 3 {
        0 => Box::new(ChatToResponses::with_config(config)),
        1 => Box::new(AnthropicToResponses::with_config(config)),
        2 => Box::new(GeminiToResponses::with_config(config)),
        _ => Box::new(ResponsesToChat::with_config(config)),
    }
}

struct Boxed(Box<dyn Bridge>);

impl Bridge for Boxed {
    fn push_frame(&mut self, frame: &ssekit::Frame) -> Result<(), ssekit::bridge::BridgeError> {
        self.0.push_frame(frame)
    }
    fn finish(&mut self) -> Result<(), ssekit::bridge::BridgeError> {
        self.0.finish()
    }
    fn abort(&mut self, code: &str, message: &str) {
        self.0.abort(code, message)
    }
    fn take(&mut self) -> Bytes {
        self.0.take()
    }
    fn keep_alive(&mut self) {
        self.0.keep_alive()
    }
    fn is_finished(&self) -> bool {
        self.0.is_finished()
    }
    fn events(&self) -> u64 {
        self.0.events()
    }
}

fn run(which: u8, config: &BridgeConfig, stream: &[u8], cuts: &[usize]) -> Vec<u8> {
    let mut b = BytesBridge::new(Boxed(make(which, config.clone())));
    let mut out = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain([&stream.len()]) {
        let _ = b.feed(Bytes::copy_from_slice(&stream[from..cut]));
        out.extend_from_slice(&b.take());
        from = cut;
    }
    let _ = b.finish();
    out.extend_from_slice(&b.take());
    assert!(
        b.get_ref().is_finished(),
        "finish always ends the downstream"
    );
    out
}

fuzz_target!(|input: &[u8]| {
    let (which, stream, mut cuts) = if input.len() < 2 {
        (0, input, Vec::new())
    } else {
        let n = usize::from(input[1] % 16);
        let header = (2 + 2 * n).min(input.len());
        let stream = &input[header..];
        let cuts: Vec<usize> = input[2..header]
            .chunks_exact(2)
            .map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])) % (stream.len() + 1))
            .collect();
        (input[0], stream, cuts)
    };
    cuts.sort_unstable();
    let mut config = BridgeConfig::default();
    if which & 4 != 0 {
        config = config.with_max_items(2).with_max_kept_bytes(256);
        config.max_held_bytes = 64;
    }
    let whole = run(which, &config, stream, &[]);
    let cut = run(which, &config, stream, &cuts);
    assert!(whole == cut, "chunking changed the output");
    if which & 8 != 0 {
        return;
    }
    if which & 3 == 3 {
        let text = String::from_utf8_lossy(&whole);
        assert_eq!(text.matches("data: [DONE]\n\n").count(), 1, "{text}");
        assert!(text.ends_with("data: [DONE]\n\n"), "{text}");
    } else {
        let findings = ssekit::lint::lint_bytes(ssekit::lint::ResponsesLinter::new(), &whole);
        let errors: Vec<_> = findings.iter().filter(|f| f.is_error()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        let text = String::from_utf8_lossy(&whole);
        let terminals = ["completed", "incomplete", "failed"]
            .iter()
            .map(|t| text.matches(&format!("event: response.{t}\n")).count())
            .sum::<usize>();
        assert_eq!(terminals, 1, "{text}");
    }
});
