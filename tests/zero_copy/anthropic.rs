//! Decoding anthropic events allocates nothing: every frame of every
//! `*-anthropic-*` corpus stream is decoded from its frame, and every field of
//! the view, nested views and array elements included, is read. The frames
//! are made before counting starts. The count must be 0 exactly.

use crate::counting;
use crate::dialects_common;

use counting::allocations;
use ssekit::anthropic::AnthropicEvent;

#[test]
fn decoding_every_anthropic_corpus_event_allocates_nothing() {
    let Some(streams) = dialects_common::streams("anthropic") else {
        return;
    };
    let frames: Vec<_> = streams.into_iter().flat_map(|(_, f)| f).collect();
    let ((decoded, values, errors, sum), allocs) = allocations(|| {
        let (mut decoded, mut values, mut errors, mut sum) = (0usize, 0usize, 0usize, 0u64);
        for frame in &frames {
            match AnthropicEvent::from_frame(frame) {
                Ok(event) => {
                    if !matches!(event, AnthropicEvent::Unknown { .. }) {
                        decoded += 1;
                    }
                    sum = sum.wrapping_add(event.raw().get().len() as u64);
                    values += dialects_common::touch_all(&event, &mut sum);
                }
                Err(e) => {
                    errors += 1;
                    sum = sum.wrapping_add(e.offset() as u64);
                }
            }
        }
        (decoded, values, errors, sum)
    });
    eprintln!(
        "{} frames: {decoded} typed, {values} values read, {errors} errors, \
         checksum {sum:x}: {allocs} allocations",
        frames.len()
    );
    assert_eq!(errors, 0);
    assert!(decoded > 1000, "{decoded}");
    assert_eq!(allocs, 0, "decoding allocated");
}
