//! The accumulators over arbitrary event sequences: never panic, keep their
//! memory count within the configured limit, and always produce valid JSON.
//!
//! Input layout: byte 0 picks the dialect (`% 4`: Responses, Chat
//! Completions, Anthropic Messages, Gemini) and byte 1 the memory limit (small, so
//! the limit paths are reached); the rest is an SSE stream, parsed whole,
//! each frame decoded as an event of that dialect and fed to its
//! accumulator. Frames that do not decode are skipped, as a client would.
//! The same frames are then read by the dialect's turn reader into a
//! `TurnAccumulator` under the same limit, and the turn rendered in every
//! dialect's shape (Chat with every choice, Gemini with every candidate)
//! must be valid JSON.
//! Seeds: the corpus streams behind a two-byte header (`seed-corpus.sh`).
#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use ssekit::accumulate::{
    AnthropicAccumulator, ChatAccumulator, GeminiAccumulator, ResponsesAccumulator,
    ResponsesAccumulatorConfig,
};
use ssekit::accumulate::{TurnAccumulator, TurnAccumulatorConfig};
use ssekit::bridge::AnyReader;
use ssekit::responses::ResponsesEvent;
use ssekit::turn::{write_choices_json, ChatReader, Dialect, GeminiReader, TurnConfig};
use ssekit::{Frame, Parser, ParserConfig};

fn frames(stream: &[u8]) -> Vec<Frame> {
    let config = ParserConfig::default()
        .with_max_line_len(1 << 16)
        .with_max_event_len(1 << 16);
    let mut parser = Parser::with_config(config);
    parser.feed(Bytes::copy_from_slice(stream));
    let mut out = Vec::new();
    loop {
        match parser.next_frame() {
            Ok(Some(frame)) => out.push(frame),
            Ok(None) => break,
            Err(_) => continue,
        }
    }
    let _ = parser.finish();
    out
}

fn valid_json(text: &str) {
    if let Err(e) = serde_json::from_str::<serde_json::Value>(text) {
        panic!("assembled JSON does not parse: {e}: {text}");
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let max_bytes = 64 + usize::from(data[1]) * 64;
    let frames = frames(&data[2..]);
    let dialect = match data[0] % 4 {
        0 => Dialect::Responses,
        1 => Dialect::Chat,
        3 => Dialect::Gemini,
        _ => Dialect::Anthropic,
    };
    turn(dialect, max_bytes, &frames);
    match data[0] % 4 {
        0 => {
            let mut config = ResponsesAccumulatorConfig::default();
            config.max_bytes = max_bytes;
            config.max_items = 8;
            config.max_parts = 8;
            config.max_anomalies = 16;
            let mut acc = ResponsesAccumulator::with_config(config);
            for frame in &frames {
                if let Ok(event) = ResponsesEvent::from_frame(frame) {
                    let _ = acc.feed(&event);
                    assert!(acc.bytes() <= max_bytes, "{} > {max_bytes}", acc.bytes());
                    // Snapshots are always readable.
                    for item in acc.items() {
                        let _ = item.partial_arguments();
                        let _ = item.text();
                    }
                }
            }
            let done = acc.finish();
            assert!(done.anomalies().len() <= 16);
            valid_json(&done.json().to_string());
        }
        1 => {
            let mut acc = ChatAccumulator::with_config(
                ssekit::accumulate::ChatAccumulatorConfig::DEFAULT.with_max_bytes(max_bytes),
            );
            for frame in &frames {
                let _ = acc.feed(frame);
                assert!(acc.used_bytes() <= max_bytes);
                if let Some(choice) = acc.snapshot().choices().next() {
                    let _ = choice.content();
                    for call in choice.tool_calls() {
                        let _ = call.partial_arguments();
                    }
                }
            }
            valid_json(&acc.finish().to_json());
        }
        3 => {
            let mut acc = GeminiAccumulator::with_config(
                ssekit::accumulate::GeminiAccumulatorConfig::DEFAULT.with_max_bytes(max_bytes),
            );
            for frame in &frames {
                let _ = acc.feed(frame);
                assert!(acc.used_bytes() <= max_bytes);
            }
            valid_json(&acc.finish().to_json());
        }
        _ => {
            let mut acc = AnthropicAccumulator::with_config(
                ssekit::accumulate::AnthropicAccumulatorConfig::DEFAULT.with_max_bytes(max_bytes),
            );
            for frame in &frames {
                let _ = acc.feed(frame);
                assert!(acc.used_bytes() <= max_bytes);
                // Snapshots are readable after every frame.
                for block in acc.snapshot().content() {
                    let _ = (block.text(), block.partial_input());
                }
            }
            valid_json(&acc.finish().to_json());
        }
    }
});

/// The frames read into the turn model and rendered in every shape.
fn turn(dialect: Dialect, max_bytes: usize, frames: &[Frame]) {
    let read = |mut reader: AnyReader| {
        let config = TurnAccumulatorConfig::DEFAULT
            .with_max_bytes(max_bytes)
            .with_max_items(8);
        let mut acc = TurnAccumulator::with_config(config).from_dialect(dialect);
        for frame in frames {
            let _ = acc.read(&mut reader, frame);
        }
        let _ = acc.finish_reader(&mut reader);
        (reader, acc.into_turn())
    };
    let (first, turn) = read(AnyReader::new(dialect, &TurnConfig::default()));
    for to in Dialect::ALL {
        valid_json(&turn.to_json(to));
    }
    let mut turns = vec![turn];
    match &first {
        AnyReader::Gemini(g) => {
            for k in g.other_candidates().take(4) {
                turns.push(read(AnyReader::Gemini(GeminiReader::default().candidate(k))).1);
            }
        }
        AnyReader::Chat(c) => {
            for k in c.other_choices().take(4) {
                turns.push(read(AnyReader::Chat(ChatReader::default().choice(k))).1);
            }
        }
        _ => {}
    }
    let mut out = String::new();
    write_choices_json(dialect, &turns.iter().collect::<Vec<_>>(), &mut out);
    valid_json(&out);
}
