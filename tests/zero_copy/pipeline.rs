//! Allocations per event of the full pipeline the `pipeline` bench measures
//! (ssekit `Parser` + `ResponsesEvent::from_frame`, touching the type, the
//! `sequence_number` and the delta), on the bench's own input: the
//! synthetic Responses stream, in 16 B and 4 KiB chunks.
//!
//! Counted from the first byte with a new parser (the parser's buffers grow
//! to fit the stream's longest spanning line once), and in steady state
//! (after the first 64 KiB). Asserted: at most 1 allocation per 1,000
//! events in the 4 KiB steady state. Measured (release): 7 allocations over
//! 29,820 events, all from the framing (decoding allocates nothing:
//! `tests/responses_alloc.rs`). A per-frame trace showed where: 4 before
//! the first `response.output_text.done` (17.9 KB, the longest line so
//! far) and 3 before `response.completed` (168 KB); none at any delta.
//! For the record the test also prints the figure for the path most Rust
//! users take today (eventsource-stream + async-openai's typed event).
//!
//! Counted with the counting allocator of `tests/support/counting.rs`.

use crate::bench_support as support;
use crate::counting;

use std::convert::Infallible;

use bytes::Bytes;
use counting::allocations;
use futures::StreamExt as _;
use ssekit::responses::ResponsesEvent;
use ssekit::Parser;
use support::Chunking;

const WARM_UP: usize = 64 << 10;

/// Feeds `chunks` to `parser`, decoding and touching every event; returns
/// the events seen.
fn pipeline(parser: &mut Parser, chunks: Vec<Bytes>, sum: &mut u64) -> usize {
    let mut events = 0;
    for chunk in chunks {
        parser.feed(chunk);
        while let Some(frame) = parser.next_frame().unwrap() {
            let event = ResponsesEvent::from_frame(&frame).unwrap();
            events += 1;
            *sum = sum.wrapping_add(event.ty().len() as u64);
            if let ResponsesEvent::OutputTextDelta(d) = &event {
                *sum = sum
                    .wrapping_add(d.sequence_number.unwrap())
                    .wrapping_add(d.delta.len_hint() as u64)
                    .wrapping_add(u64::from(d.delta.has_escapes()));
            }
        }
    }
    events
}

/// (allocations, events) for the whole stream from a new parser, and for
/// the steady state after `WARM_UP` bytes.
fn ssekit(input: &Bytes, chunking: Chunking) -> ((u64, usize), (u64, usize)) {
    let chunks = chunking.split(input);
    let mut sum = 0;

    let mut parser = Parser::new();
    let all = chunks.clone();
    let (events, allocs) = allocations(|| {
        let n = pipeline(&mut parser, all, &mut sum);
        parser.finish().unwrap();
        n
    });
    let cold = (allocs, events);

    let Chunking::Bytes(size) = chunking else {
        unreachable!()
    };
    let warm = WARM_UP / size;
    let mut parser = Parser::new();
    pipeline(&mut parser, chunks[..warm].to_vec(), &mut sum);
    let rest = chunks[warm..].to_vec();
    let (events, allocs) = allocations(|| {
        let n = pipeline(&mut parser, rest, &mut sum);
        parser.finish().unwrap();
        n
    });
    std::hint::black_box(sum);
    (cold, (allocs, events))
}

/// (allocations, events) of eventsource-stream + async-openai's typed event
/// on the whole stream.
fn async_openai(input: &Bytes, chunking: Chunking) -> (u64, usize) {
    use async_openai::types::responses::ResponseStreamEvent;
    let chunks = chunking.split(input);
    let (events, allocs) = allocations(|| {
        let stream = eventsource_stream::EventStream::new(futures::stream::iter(
            chunks.into_iter().map(Ok::<_, Infallible>),
        ));
        futures::executor::block_on(async {
            let mut stream = std::pin::pin!(stream);
            let mut n = 0;
            while let Some(event) = stream.next().await {
                let e: ResponseStreamEvent = serde_json::from_str(&event.unwrap().data).unwrap();
                std::hint::black_box(&e);
                n += 1;
            }
            n
        })
    });
    (allocs, events)
}

#[test]
fn pipeline_allocations_per_event() {
    let (bytes, expected) = support::responses_stream(support::RESPONSES_BYTES, support::SEED);
    // Like the framing allocation test: `Bytes::from(Vec)` allocates a shared
    // header at its first slice; take it before counting.
    let input = Bytes::from(bytes);
    let _promote = input.slice(0..0);
    let per = |(a, n): (u64, usize)| a as f64 / n as f64;
    let mut steady_4k = None;
    for chunking in [Chunking::Bytes(16), Chunking::Bytes(4096)] {
        let (cold, steady) = ssekit(&input, chunking);
        assert_eq!(cold.1, expected);
        eprintln!(
            "ssekit pipeline, {}: whole stream {} allocations / {} events = {:.4}/event; \
             steady state (after {} KiB) {} / {} = {:.4}/event",
            chunking.label(),
            cold.0,
            cold.1,
            per(cold),
            WARM_UP >> 10,
            steady.0,
            steady.1,
            per(steady),
        );
        if chunking == Chunking::Bytes(4096) {
            steady_4k = Some(steady);
        }
    }
    // The peer, for the record (16 B is slow for it: 4 KiB only).
    let peer = async_openai(&input, Chunking::Bytes(4096));
    assert_eq!(peer.1, expected);
    eprintln!(
        "eventsource-stream + async-openai, 4KiB: {} allocations / {} events = {:.1}/event",
        peer.0,
        peer.1,
        per(peer)
    );
    let steady = steady_4k.unwrap();
    assert!(
        per(steady) <= 0.001,
        "4 KiB steady state: {} allocations over {} events",
        steady.0,
        steady.1
    );
}
