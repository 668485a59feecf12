//! Fuzz target `encode`: the encoder's round trip. Arbitrary frames,
//! comments and `retry` fields are encoded; the wire bytes, parsed whole and
//! at fuzzer-chosen split points, give back exactly the frames (with CR and
//! CRLF in data read as LF, which is all SSE can carry) and the `retry`
//! values, in order, with no error at `finish`. Frames whose event type or
//! id SSE cannot carry must be refused with the position of the offending
//! byte, writing nothing.
#![no_main]

use bytes::Bytes;
use libfuzzer_sys::arbitrary::{Arbitrary, Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use ssekit::encode::{EncodeErrorKind, Encoder};
use ssekit::{Frame, Item, Parser};

/// Text drawn mostly from the characters that make encoding hard.
fn text(u: &mut Unstructured<'_>) -> Result<String> {
    const PIECES: &[&str] = &[
        "\n", "\r", "\r\n", " ", ":", "\0", "data", "id", "event: x", "é", "\u{feff}", "",
    ];
    let mut s = String::new();
    for _ in 0..u.int_in_range(0..=8)? {
        if u.ratio(1, 3)? {
            s.push_str(<&str>::arbitrary(u)?);
        } else {
            s.push_str(u.choose(PIECES)?);
        }
    }
    Ok(s)
}

#[derive(Debug)]
enum Op {
    Frame(Frame),
    Comment(String),
    Retry(u64),
}

fn op(u: &mut Unstructured<'_>) -> Result<Op> {
    Ok(match u.int_in_range(0..=9)? {
        0 => Op::Comment(text(u)?),
        1 => Op::Retry(u64::arbitrary(u)?),
        _ => {
            let data = text(u)?;
            let event = if u.ratio(1, 2)? {
                text(u)?
            } else {
                String::new()
            };
            let id = if u.ratio(1, 3)? {
                text(u)?
            } else {
                String::new()
            };
            let retry = if u.ratio(1, 5)? {
                Some(u64::arbitrary(u)?)
            } else {
                None
            };
            Op::Frame(
                Frame::new(data)
                    .with_event(event)
                    .with_id(id)
                    .with_retry(retry),
            )
        }
    })
}

/// What the reader sees: SSE turns CR and CRLF in data into LF.
fn normalized(f: &Frame) -> Frame {
    let data = f.data().replace("\r\n", "\n").replace('\r', "\n");
    Frame::new(data)
        .with_event(f.event())
        .with_id(f.id())
        .with_retry(f.retry())
}

#[derive(Debug, PartialEq)]
enum Seen {
    Frame(Frame),
    Retry(u64),
}

fn parse(wire: &Bytes, cuts: &[usize]) -> Vec<Seen> {
    let mut parser = Parser::new();
    let mut seen = Vec::new();
    let mut start = 0;
    let drain = |parser: &mut Parser, seen: &mut Vec<Seen>| {
        while let Some(item) = parser
            .next_item()
            .expect("encoded bytes parse without error")
        {
            match item {
                Item::Frame(f) => {
                    if let Some(ms) = f.retry() {
                        // A frame's own retry is reported first as an item.
                        assert_eq!(seen.pop(), Some(Seen::Retry(ms)));
                    }
                    seen.push(Seen::Frame(f));
                }
                Item::Retry(ms) => seen.push(Seen::Retry(ms)),
                _ => {}
            }
        }
    };
    for &end in cuts.iter().chain([&wire.len()]) {
        parser.feed(wire.slice(start..end));
        start = end;
        drain(&mut parser, &mut seen);
    }
    parser.finish().expect("the encoder ends every event");
    drain(&mut parser, &mut seen);
    seen
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let mut ops = Vec::new();
    while ops.len() < 16 && !u.is_empty() {
        match op(&mut u) {
            Ok(o) => ops.push(o),
            Err(_) => break,
        }
    }
    let mut encoder = Encoder::new();
    let mut wire = Vec::new();
    let mut expected = Vec::new();
    for o in &ops {
        match o {
            Op::Frame(f) => {
                let before = wire.len();
                match encoder.frame(&mut wire, f) {
                    Ok(()) => expected.push(Seen::Frame(normalized(f))),
                    Err(e) => {
                        assert_eq!(wire.len(), before, "a refused frame wrote nothing");
                        let (field, crlf_nul): (&str, &[u8]) = match e.kind() {
                            EncodeErrorKind::EventNameLineBreak => (f.event(), b"\r\n"),
                            EncodeErrorKind::IdLineBreak => (f.id(), b"\r\n"),
                            EncodeErrorKind::IdNul => (f.id(), b"\0"),
                            other => panic!("unknown error kind {other:?}"),
                        };
                        assert!(
                            crlf_nul.contains(&field.as_bytes()[e.position()]),
                            "{e:?} in {field:?}"
                        );
                    }
                }
            }
            Op::Comment(c) => encoder.comment(&mut wire, c),
            Op::Retry(ms) => {
                encoder.retry(&mut wire, *ms);
                expected.push(Seen::Retry(*ms));
            }
        }
    }
    let wire = Bytes::from(wire);
    let mut cuts: Vec<usize> = (0..u.int_in_range(0..=6).unwrap_or(0))
        .map(|_| u.int_in_range(0..=wire.len()).unwrap_or(0))
        .collect();
    cuts.sort_unstable();
    assert_eq!(parse(&wire, &[]), expected, "whole: {wire:?}");
    assert_eq!(parse(&wire, &cuts), expected, "cut at {cuts:?}: {wire:?}");
    let ones: Vec<usize> = (1..wire.len()).collect();
    if wire.len() <= 512 {
        assert_eq!(parse(&wire, &ones), expected, "1-byte chunks: {wire:?}");
    }
});
