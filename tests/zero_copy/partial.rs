//! `PartialJson` reuses its buffers: once they have grown to the size of the
//! texts being repaired, repairing from scratch, pushing deltas, reading the
//! repair and finishing allocate nothing.
//!
//! A counting global allocator wraps the system one. It counts only while
//! this thread's flag is on, and per thread, so the harness's own
//! allocations, the test's setup and the tests running in parallel are not
//! counted.

use ssekit::json::partial::PartialJson;

use crate::counting;
use counting::allocations;

/// Tool-call arguments with nesting, escapes, a surrogate pair, numbers and
/// literals: every rule of the repair is exercised by some prefix.
const ARGUMENTS: &str = r#"{"location": "San Francisco, CA", "unit": "celsius",
 "days": [1, 2.5, -3e-2], "note": "line\none \"quoted\" \ud83d\ude00 é",
 "options": {"hourly": true, "alerts": null, "sources": [{"id": 7, "w": false}]}}"#;

/// The pieces of `ARGUMENTS` as a model might stream them.
fn deltas(size: usize) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut rest = ARGUMENTS;
    while !rest.is_empty() {
        let mut cut = size.min(rest.len());
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (piece, tail) = rest.split_at(cut);
        out.push(piece);
        rest = tail;
    }
    out
}

/// Repairs every prefix from scratch, returning a checksum of the repairs.
fn repair_every_prefix(p: &mut PartialJson) -> usize {
    let mut sum = 0;
    for (i, _) in ARGUMENTS.char_indices() {
        sum += p.repair(&ARGUMENTS[..i]).unwrap().map_or(0, str::len);
    }
    sum
}

/// Pushes the deltas, reading the repair after each; then finishes.
fn stream(p: &mut PartialJson, deltas: &[&str]) -> usize {
    p.reset();
    let mut sum = 0;
    for d in deltas {
        p.feed(d).unwrap();
        sum += p.current().map_or(0, str::len);
    }
    sum + p.finish().unwrap().len()
}

#[test]
fn repairing_prefixes_allocates_nothing_once_warm() {
    let mut p = PartialJson::new();
    let (cold, n) = allocations(|| repair_every_prefix(&mut p));
    assert!(n > 0, "the first repairs grow the buffers");
    let (warm, n) = allocations(|| repair_every_prefix(&mut p));
    assert_eq!(warm, cold);
    assert_eq!(n, 0, "repairs after warm-up allocated");
}

#[test]
fn streaming_deltas_allocates_nothing_once_warm() {
    for size in [1, 3, 16, 1000] {
        let pieces = deltas(size);
        let mut p = PartialJson::new();
        let cold = stream(&mut p, &pieces);
        let (warm, n) = allocations(|| stream(&mut p, &pieces));
        assert_eq!(warm, cold);
        assert_eq!(n, 0, "deltas of {size} bytes allocated after warm-up");
    }
}

#[test]
fn with_capacity_allocates_nothing_for_texts_that_fit() {
    // Whatever the chunking, the buffers never hold more than the text and
    // its closing tail.
    for size in [1, 2, 5, 64, 1000] {
        let pieces = deltas(size);
        let (_, n) = allocations(|| {
            let mut p = PartialJson::with_capacity(ARGUMENTS.len());
            stream(&mut p, &pieces)
        });
        // The one allocation of each buffer in `with_capacity`.
        assert_eq!(n, 2, "deltas of {size} bytes");
    }
    let mut p = PartialJson::with_capacity(ARGUMENTS.len());
    let (_, n) = allocations(|| repair_every_prefix(&mut p));
    assert_eq!(n, 0);
    // Even an all-open text: its tail is longer than the text.
    let deep = "[".repeat(ARGUMENTS.len().min(ssekit::json::MAX_DEPTH));
    let mut p = PartialJson::with_capacity(deep.len());
    let (r, n) = allocations(|| p.repair(&deep).map(|r| r.map(str::len)));
    assert_eq!(r, Ok(Some(2 * deep.len())));
    assert_eq!(n, 0);
}

#[test]
fn a_new_repairer_allocates_nothing() {
    let (p, n) = allocations(PartialJson::new);
    assert_eq!(n, 0);
    assert_eq!(p.current(), None);
}
