//! parse(encode(frames)) == frames, however the wire bytes are chunked.

use proptest::prelude::*;
use ssekit::encode::Encoder;
use ssekit::{Bytes, Frame, Parser};

/// Text with the characters that make encoding hard: line breaks of every
/// kind, leading spaces, colons, NUL, non-ASCII.
fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("\n".to_owned()),
            Just("\r".to_owned()),
            Just("\r\n".to_owned()),
            Just(" ".to_owned()),
            Just(":".to_owned()),
            Just("\0".to_owned()),
            Just("data".to_owned()),
            "[a-z]{1,4}",
            "\\PC{1,3}",
        ],
        0..8,
    )
    .prop_map(|parts| parts.concat())
}

/// A name SSE can carry: no CR, LF (nor NUL, for ids).
fn name() -> impl Strategy<Value = String> {
    "[^\r\n\0]{0,6}"
}

fn frame() -> impl Strategy<Value = Frame> {
    (text(), name(), name(), proptest::option::of(any::<u64>())).prop_map(
        |(data, event, id, retry)| {
            Frame::new(data)
                .with_event(event)
                .with_id(id)
                .with_retry(retry)
        },
    )
}

/// What the reader sees: SSE turns CR and CRLF in data into LF.
fn normalized(f: &Frame) -> Frame {
    let data = f.data().replace("\r\n", "\n").replace('\r', "\n");
    Frame::new(data)
        .with_event(f.event())
        .with_id(f.id())
        .with_retry(f.retry())
}

fn parse_in_chunks(wire: &[u8], cuts: &[usize]) -> Vec<Frame> {
    let wire = Bytes::copy_from_slice(wire);
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (wire.len() + 1)).collect();
    cuts.sort_unstable();
    let mut parser = Parser::new();
    let mut frames = Vec::new();
    let mut start = 0;
    for end in cuts.into_iter().chain([wire.len()]) {
        parser.feed(wire.slice(start..end));
        start = end;
        while let Some(f) = parser.next_frame().expect("encoder output is always valid") {
            frames.push(f);
        }
    }
    parser.finish().expect("encoder output ends every event");
    frames
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn encode_then_parse_gives_the_frames_back(
        frames in proptest::collection::vec(frame(), 0..6),
        cuts in proptest::collection::vec(any::<usize>(), 0..6),
    ) {
        let mut encoder = Encoder::new();
        let mut wire = Vec::new();
        for f in &frames {
            encoder.frame(&mut wire, f).unwrap();
        }
        let expected: Vec<Frame> = frames.iter().map(normalized).collect();
        prop_assert_eq!(parse_in_chunks(&wire, &cuts), expected);
    }
}
