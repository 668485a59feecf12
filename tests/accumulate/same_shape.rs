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
//! `AnthropicAccumulator` is left out: it reads through the turn reader
//! and renders through the turn, so the comparison would be of the code
//! with itself; `anthropic.rs` checks it against a reference of its own.
//!
//! A stream whose two answers differ for a reason understood is one row of
//! [`KNOWN`] with that reason; a row that no longer differs fails the test,
//! so the table only shrinks.

use std::path::Path;

use bytes::Bytes;
use ssekit::accumulate::{
    ChatAccumulator, GeminiAccumulator, ResponsesAccumulator, TurnAccumulator,
};
use ssekit::bridge::AnyReader;
use ssekit::responses::ResponsesEvent;
use ssekit::turn::{write_choices_json, ChatReader, Dialect, GeminiReader, TurnConfig};
use ssekit::Frame;

use crate::{corpus, dialects_common};

/// Streams whose two answers differ, with the reason.
const KNOWN: &[(&str, &str)] = &[];

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

/// The dialect accumulator's answer, fed as `ssekit assemble` feeds it;
/// `None` for a dialect whose accumulator is the turn's.
fn by_dialect(d: Dialect, frames: &[Frame]) -> Option<String> {
    Some(match d {
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
        Dialect::Anthropic => return None,
        Dialect::Gemini => {
            let mut acc = GeminiAccumulator::new();
            for f in frames {
                let _ = acc.feed(f);
            }
            acc.finish().to_json()
        }
    })
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
        let Some(want) = by_dialect(d, &frames) else {
            continue;
        };
        let got = by_turn(d, &frames);
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
        // 74 streams, 9 of them Anthropic's (not compared), none known to differ.
        assert!(same >= 65, "only {same} streams compared the same");
    }
    assert!(
        differ.is_empty(),
        "{} streams the same; {} not as listed:\n{}",
        same,
        differ.len(),
        differ.join("\n")
    );
}
