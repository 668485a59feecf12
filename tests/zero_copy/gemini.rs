//! Decoding Gemini chunks allocates nothing: every frame of the corpus
//! Gemini stream and of the hand-written streams of `tests/data/gemini` is
//! decoded from its frame, and every field of the view, nested views, parts
//! and list elements included, is read. The frames are made before counting
//! starts. The count must be 0 exactly.

use crate::counting;
use crate::dialects_common;

use counting::allocations;
use ssekit::gemini::GeminiEvent;
use ssekit::{Bytes, Parser};

#[test]
fn decoding_every_gemini_event_allocates_nothing() {
    let mut frames = Vec::new();
    if let Some(streams) = dialects_common::streams("gemini") {
        frames.extend(streams.into_iter().flat_map(|(_, f)| f));
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gemini");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sse") {
            let mut parser = Parser::new();
            parser.feed(Bytes::from(std::fs::read(path).unwrap()));
            while let Some(frame) = parser.next_frame().unwrap() {
                frames.push(frame);
            }
        }
    }
    let ((decoded, values, sum), allocs) = allocations(|| {
        let (mut decoded, mut values, mut sum) = (0usize, 0usize, 0u64);
        for frame in &frames {
            let event = GeminiEvent::from_frame(frame).expect("every frame decodes");
            decoded += 1;
            sum = sum.wrapping_add(event.raw().get().len() as u64);
            values += dialects_common::touch_all(&event, &mut sum);
        }
        (decoded, values, sum)
    });
    eprintln!("{decoded} frames, {values} values read, checksum {sum:x}: {allocs} allocations");
    assert!(decoded >= 20, "{decoded}");
    assert!(values > 300, "{values}");
    assert_eq!(allocs, 0, "decoding allocated");
}
