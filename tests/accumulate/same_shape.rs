//! The turn accumulator against each dialect's own accumulator: every
//! recorded stream read by its dialect's turn reader into a
//! `TurnAccumulator` and rendered in that same dialect must give the JSON
//! text the dialect's accumulator gives (`ssekit assemble`'s output),
//! byte for byte. The dialect accumulators are the reference here: each is
//! checked against the stream's own final object and hand-written
//! references in this binary's other modules. The Chat accumulator is a
//! face over the same reader and rendering: for Chat this compares its
//! reading (a reader per choice started where the choice first appears,
//! fed only that choice) with a reader per choice reading every chunk.
//!
//! A stream whose two answers differ for a reason understood is one row of
//! [`KNOWN`] with that reason; a row that no longer differs fails the test,
//! so the table only shrinks.

use std::path::Path;

use bytes::Bytes;
use ssekit::accumulate::{
    AnthropicAccumulator, ChatAccumulator, GeminiAccumulator, ResponsesAccumulator, TurnAccumulator,
};
use ssekit::anthropic::AnthropicEvent;
use ssekit::bridge::AnyReader;
use ssekit::gemini::GeminiEvent;
use ssekit::responses::ResponsesEvent;
use ssekit::turn::{write_choices_json, ChatReader, Dialect, GeminiReader, TurnConfig};
use ssekit::Frame;

use crate::{corpus, dialects_common};

/// Streams whose two answers differ, with the reason.
const KNOWN: &[(&str, &str)] = &[(
    "tests/data/gemini/signatures.sse",
    "signatures on text parts: the turn model keeps one text item per run of text, with one \
         signature, where the Gemini accumulator starts a new part after each signed part",
)];

/// Every stream: the corpus, the hand-written streams of `tests/data`, the
/// shipped samples.
fn streams() -> Vec<(String, Vec<u8>)> {
    let root = corpus::repository();
    let mut out = Vec::new();
    if let Some(dir) = corpus::corpus_dir() {
        out.extend(corpus::sse_files(&dir));
    }
    for sub in ["tests/data/chat", "tests/data/gemini", "samples"] {
        let dir = root.join(sub);
        if Path::new(&dir).is_dir() {
            out.extend(
                corpus::sse_files(&dir)
                    .into_iter()
                    .map(|(n, b)| (format!("{sub}/{n}"), b)),
            );
        }
    }
    out
}

/// The dialect accumulator's answer, fed as `ssekit assemble` feeds it.
fn by_dialect(d: Dialect, frames: &[Frame]) -> String {
    match d {
        Dialect::Responses => {
            let mut acc = ResponsesAccumulator::new();
            for f in frames {
                if let Ok(e) = ResponsesEvent::from_frame(f).and_then(ResponsesEvent::strict) {
                    if acc.feed(&e).is_err() {
                        break;
                    }
                }
            }
            acc.finish().json().to_string()
        }
        Dialect::Chat => {
            let mut acc = ChatAccumulator::new();
            for f in frames {
                let _ = acc.feed(f);
            }
            acc.finish().to_json()
        }
        Dialect::Anthropic => {
            let mut acc = AnthropicAccumulator::new();
            for f in frames {
                if let Ok(e) = AnthropicEvent::from_frame(f).and_then(AnthropicEvent::strict) {
                    let _ = acc.feed(&e);
                }
            }
            acc.finish().to_json()
        }
        Dialect::Gemini => {
            let mut acc = GeminiAccumulator::new();
            for f in frames {
                if let Ok(e) = GeminiEvent::from_frame(f) {
                    let _ = acc.feed(&e);
                }
            }
            acc.finish().to_json()
        }
    }
}

/// The turn accumulator's answer in the stream's own dialect: Gemini's
/// candidates and Chat's choices each read by a reader of their own.
fn by_turn(d: Dialect, frames: &[Frame]) -> String {
    let read = |mut reader: AnyReader| {
        let mut acc = TurnAccumulator::new().from_dialect(d);
        for f in frames {
            let _ = acc.read(&mut reader, f);
        }
        let _ = acc.finish_reader(&mut reader);
        (reader, acc.into_turn())
    };
    let (first, turn) = read(AnyReader::new(d, &TurnConfig::default()));
    let mut turns = vec![turn];
    match &first {
        AnyReader::Gemini(g) => {
            for k in g.other_candidates() {
                let reader = GeminiReader::default().candidate(k);
                turns.push(read(AnyReader::Gemini(reader)).1);
            }
        }
        AnyReader::Chat(c) => {
            for k in c.other_choices() {
                turns.push(read(AnyReader::Chat(ChatReader::default().choice(k))).1);
            }
        }
        _ => {}
    }
    let mut out = String::new();
    write_choices_json(d, &turns.iter().collect::<Vec<_>>(), &mut out);
    out
}

/// The first byte where `a` and `b` differ, with some text either side.
fn first_difference(a: &str, b: &str) -> String {
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let around = |s: &str| {
        let mut from = at.saturating_sub(60).min(s.len());
        while !s.is_char_boundary(from) {
            from -= 1;
        }
        let mut to = (at + 60).min(s.len());
        while !s.is_char_boundary(to) {
            to += 1;
        }
        s[from..to].to_string()
    };
    format!(
        "at byte {at}:\n    dialect: …{}…\n    turn:    …{}…",
        around(a),
        around(b)
    )
}

#[test]
fn each_stream_renders_in_its_dialect_as_its_accumulator_does() {
    let mut differ = Vec::new();
    let mut same = 0;
    for (name, bytes) in streams() {
        let frames = dialects_common::frames(Bytes::from(bytes));
        let Some(d) = frames.iter().find_map(Dialect::detect) else {
            continue;
        };
        let (want, got) = (by_dialect(d, &frames), by_turn(d, &frames));
        let known = KNOWN.iter().any(|(n, _)| *n == name);
        match (want == got, known) {
            (true, false) => same += 1,
            (false, true) => {}
            (true, true) => differ.push(format!("{name}: listed in KNOWN but now the same")),
            (false, false) => {
                differ.push(format!("{name} ({d:?}): {}", first_difference(&want, &got)))
            }
        }
    }
    if corpus::corpus_dir().is_some() {
        assert!(same >= 73, "only {same} streams compared the same");
    }
    assert!(
        differ.is_empty(),
        "{} streams the same; {} not as listed:\n{}",
        same,
        differ.len(),
        differ.join("\n")
    );
}
