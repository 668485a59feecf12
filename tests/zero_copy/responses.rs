//! Decoding Responses events allocates nothing: every event of every corpus
//! stream (all dialects: non-Responses events decode to `Unknown` or fail,
//! and neither may allocate) is decoded from its frame, and every field of
//! the view, nested views and array elements included, is read. The frames
//! are made before counting starts. The count must be 0 exactly.

use crate::dialects_common;

use bytes::Bytes;
use ssekit::responses::ResponsesEvent;
use ssekit::Parser;

use crate::counting;
use counting::allocations;

#[test]
fn decoding_every_corpus_event_allocates_nothing() {
    let Some(dir) = crate::corpus::corpus_dir() else {
        return;
    };
    let mut frames = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sse") {
            let mut parser = Parser::new();
            parser.feed(Bytes::from(std::fs::read(&path).unwrap()));
            while let Ok(Some(frame)) = parser.next_frame() {
                frames.push(frame);
            }
        }
    }
    assert!(frames.len() > 5000);
    let ((typed, values, errors, sum), allocs) = allocations(|| {
        let (mut typed, mut values, mut errors, mut sum) = (0usize, 0usize, 0usize, 0u64);
        for frame in &frames {
            match ResponsesEvent::from_frame(frame) {
                Ok(event) => {
                    if !matches!(event, ResponsesEvent::Unknown { .. }) {
                        typed += 1;
                    }
                    sum = sum.wrapping_add(event.sequence_number().unwrap_or(0));
                    sum = sum.wrapping_add(event.ty().len() as u64);
                    values += dialects_common::touch_all(&event, &mut sum);
                }
                // Chat and Anthropic events without a string `type`, and their
                // errors' Display goes to a stack buffer only when asked: here
                // only the kind is read.
                Err(e) => {
                    errors += 1;
                    sum = sum.wrapping_add(e.offset() as u64);
                }
            }
        }
        (typed, values, errors, sum)
    });
    eprintln!(
        "{} frames: {typed} typed events, {values} values read, {errors} errors \
         (non-Responses data), checksum {sum:x}: {allocs} allocations",
        frames.len()
    );
    assert!(typed > 5000, "{typed}");
    assert_eq!(allocs, 0, "decoding allocated");
}
