//! Limits, bounded memory, linear work and the truncated tail.
//!
//! * A line longer than `max_line_len`, or an event whose joined data exceeds
//!   `max_event_len`, is a typed error with the offset of the line (or of the
//!   event's block); that block is dropped, the parser resynchronises at the
//!   next blank line, and the errors are the same however the input is
//!   chunked.
//! * Memory stays bounded by the limits plus a few chunks, measured with a
//!   counting global allocator.
//! * Work stays linear: the line search examines each byte at most once, even
//!   when the input arrives one byte at a time (`bytes_scanned`).
//! * A stream that ends inside an event reports `TruncatedTail` once.
//!
//! The counting allocator is the binary's (`tests/support/counting.rs`).

use crate::common;

use crate::counting::peak_heap;
use bytes::Bytes;
use common::{bytewise, run_items, split_at, Drain, Report, Run};
use ssekit::{Frame, FrameError, FrameErrorKind, Item, Parser, ParserConfig};

// ---------------------------------------------------------------------------
// Helpers

fn small_limits() -> ParserConfig {
    let mut c = ParserConfig::default();
    c.max_line_len = 64;
    c.max_event_len = 128;
    c
}

const LINE_TOO_LONG: FrameErrorKind = FrameErrorKind::LineTooLong { limit: 64 };
const EVENT_TOO_LARGE: FrameErrorKind = FrameErrorKind::EventTooLarge { limit: 128 };

/// The reports, with errors reduced to `(kind, offset)` so expectations can
/// be written without a constructor for `FrameError`.
#[derive(Debug, PartialEq, Eq)]
enum R {
    Frame(Frame),
    Retry(u64),
    Id(String),
    Comment,
    Err(FrameErrorKind, u64),
}

fn reduce(run: &Run) -> Vec<R> {
    run.reports
        .iter()
        .map(|r| match r {
            Report::Item(Item::Frame(f)) => R::Frame(f.clone()),
            Report::Item(Item::Retry(ms)) => R::Retry(*ms),
            Report::Item(Item::LastEventId(id)) => R::Id(String::from_utf8_lossy(id).into()),
            Report::Item(Item::Comment(_)) => R::Comment,
            Report::Item(other) => panic!("unexpected {other:?}"),
            Report::Error(e) => R::Err(e.kind(), e.offset()),
        })
        .collect()
}

/// Runs `input` whole, byte by byte and cut at every position (draining
/// after each chunk and only at the end); checks all runs agree and returns
/// the whole run.
fn run_every_way(config: ParserConfig, input: &[u8]) -> Run {
    let input = Bytes::copy_from_slice(input);
    let whole = run_items(config, std::slice::from_ref(&input), Drain::EachChunk);
    for drain in [Drain::EachChunk, Drain::AtEnd] {
        let bytewise_run = run_items(config, &bytewise(&input), drain);
        assert_eq!(
            reduce(&bytewise_run),
            reduce(&whole),
            "byte by byte, {drain:?}"
        );
        assert_eq!(bytewise_run, whole, "byte by byte, {drain:?}");
        for i in 0..=input.len() {
            let run = run_items(config, &split_at(&input, &[i]), drain);
            assert_eq!(reduce(&run), reduce(&whole), "cut at {i}, {drain:?}");
            assert_eq!(run, whole, "cut at {i}, {drain:?}");
        }
    }
    whole
}

// ---------------------------------------------------------------------------
// LineTooLong

#[test]
fn line_too_long_drops_its_event_and_resumes() {
    let long = format!("data: {}", "x".repeat(100));
    let input = format!(
        "data: one\n\n\
         id: 5\nretry: 9\n{long}\ndata: more\nretry: 10\nevent: bad\n\n\
         data: two\n\n"
    );
    let long_at = input.find(&long).unwrap() as u64;
    assert_eq!(long_at, 11 + 6 + 9);
    let run = run_every_way(small_limits(), input.as_bytes());
    assert_eq!(
        reduce(&run),
        [
            R::Frame(Frame::new("one")),
            R::Retry(9),
            R::Err(LINE_TOO_LONG, long_at),
            // Fields before the error stay processed (the id is committed at
            // the blank line); the rest of the block is skipped.
            R::Frame(Frame::new("two").with_id("5")),
        ]
    );
    assert_eq!(
        (run.last_event_id.as_str(), run.reconnection_time),
        ("5", Some(9))
    );
}

#[test]
fn line_too_long_in_one_chunk_and_in_one_byte_chunks() {
    // The same error, with the same offset, whichever way the line arrives.
    let input = Bytes::from(format!(
        "data: a\n\ndata: {}\n\ndata: b\n\n",
        "y".repeat(200)
    ));
    let expected = [
        R::Frame(Frame::new("a")),
        R::Err(LINE_TOO_LONG, 9),
        R::Frame(Frame::new("b")),
    ];
    let whole = run_items(
        small_limits(),
        std::slice::from_ref(&input),
        Drain::EachChunk,
    );
    assert_eq!(reduce(&whole), expected);
    let one_byte = run_items(small_limits(), &bytewise(&input), Drain::EachChunk);
    assert_eq!(reduce(&one_byte), expected);
    assert_eq!(one_byte, whole);
}

#[test]
fn line_length_limit_boundary() {
    // 64 bytes (without the terminator) is allowed, 65 is not.
    let ok = format!("data: {}", "a".repeat(58));
    let too_long = format!("data: {}", "b".repeat(59));
    assert_eq!((ok.len(), too_long.len()), (64, 65));
    let input = format!("{ok}\r\n\r\n{too_long}\r\n\r\n");
    let run = run_every_way(small_limits(), input.as_bytes());
    assert_eq!(
        reduce(&run),
        [
            R::Frame(Frame::new("a".repeat(58))),
            R::Err(LINE_TOO_LONG, 68)
        ]
    );
}

#[test]
fn line_too_long_applies_to_every_kind_of_line() {
    // A comment, an id and an unknown field: each too long, each dropping
    // the block it stands in.
    let long = "z".repeat(80);
    let input = format!(
        "data: a\n:{long}\n\n\
         id: {long}\ndata: b\n\n\
         {long}\n\n\
         data: c\n\n"
    );
    let at = |needle: &str| input.find(needle).unwrap() as u64;
    let run = run_every_way(small_limits(), input.as_bytes());
    assert_eq!(
        reduce(&run),
        [
            R::Err(LINE_TOO_LONG, at(":z")),
            R::Err(LINE_TOO_LONG, at("id: z")),
            R::Err(LINE_TOO_LONG, at("\n\nzz") + 2),
            R::Frame(Frame::new("c")),
        ]
    );
    assert_eq!(run.last_event_id, "");
}

#[test]
fn line_too_long_at_end_of_stream() {
    // An overlong unterminated line: the limit error as soon as it is seen,
    // then the tail (from the start of its block) at the end.
    let input = format!("data: a\n\nid: 1\ndata: {}", "q".repeat(300));
    let run = run_every_way(small_limits(), input.as_bytes());
    let tail = (input.len() - 9) as u64;
    assert_eq!(
        reduce(&run),
        [
            R::Frame(Frame::new("a")),
            R::Err(LINE_TOO_LONG, 15),
            R::Err(FrameErrorKind::TruncatedTail { len: tail }, 9),
        ]
    );
}

#[test]
fn line_too_long_after_a_split_crlf() {
    let input = format!(
        "data: a\r\n\r\ndata: {}\r\n\r\ndata: b\r\n\r\n",
        "y".repeat(70)
    );
    let run = run_every_way(small_limits(), input.as_bytes());
    assert_eq!(
        reduce(&run),
        [
            R::Frame(Frame::new("a")),
            R::Err(LINE_TOO_LONG, 11),
            R::Frame(Frame::new("b"))
        ]
    );
}

// ---------------------------------------------------------------------------
// EventTooLarge

#[test]
fn event_too_large_drops_its_event_and_resumes() {
    // Three 50-byte data values join to 152 bytes > 128; each line is
    // within the line limit.
    let line = format!("data: {}\n", "d".repeat(50));
    let input = format!(
        "data: one\n\n\
         event: big\nid: 7\n{line}{line}{line}data: after\nid: 8\n\n\
         data: two\n\n"
    );
    let run = run_every_way(small_limits(), input.as_bytes());
    assert_eq!(
        reduce(&run),
        [
            R::Frame(Frame::new("one")),
            // Offset: the start of the dropped event's block.
            R::Err(EVENT_TOO_LARGE, 11),
            // The dropped block's event type does not leak into the next
            // event; its id (processed before the error) is kept.
            R::Frame(Frame::new("two").with_id("7")),
        ]
    );
}

#[test]
fn event_length_limit_boundary() {
    // Joined data of exactly 128 bytes is allowed; an empty data line more
    // adds the joining LF and makes 129.
    let v = "e".repeat(42);
    let block = format!("data:{v}\ndata:{v}\ndata:{v}\n");
    let input = format!("{block}\n{block}data\n\ndata: z\n\n");
    let run = run_every_way(small_limits(), input.as_bytes());
    assert_eq!(
        reduce(&run),
        [
            R::Frame(Frame::new(format!("{v}\n{v}\n{v}"))),
            R::Err(EVENT_TOO_LARGE, block.len() as u64 + 1),
            R::Frame(Frame::new("z")),
        ]
    );
}

#[test]
fn event_too_large_offset_after_a_split_crlf() {
    // The block after "data: a\r\n\r\n" starts at byte 11, however the
    // blank line's CRLF is cut.
    let line = format!("data: {}\r\n", "d".repeat(50));
    let input = format!("data: a\r\n\r\n{line}{line}{line}\r\ndata: b\r\n\r\n");
    let whole = run_items(
        small_limits(),
        &[Bytes::from(input.clone())],
        Drain::EachChunk,
    );
    let expected = [
        R::Frame(Frame::new("a")),
        R::Err(EVENT_TOO_LARGE, 11),
        R::Frame(Frame::new("b")),
    ];
    assert_eq!(reduce(&whole), expected);
    let cut = split_at(&Bytes::from(input.clone()), &[10]); // "...\r\n\r" | "\n..."
    assert_eq!(
        reduce(&run_items(small_limits(), &cut, Drain::EachChunk)),
        expected
    );
    run_every_way(small_limits(), input.as_bytes());
}

// ---------------------------------------------------------------------------
// Bounded memory
//
// Each test feeds 16 MiB in fresh chunk allocations (as network reads would
// give), draining after every feed, and measures the peak of heap bytes live
// on its thread above the level at the start.

const CHUNK: usize = 4 << 10;
const TOTAL: usize = 16 << 20;

/// Feeds a 16 MiB line with no line end in `chunk`-byte chunks to a parser
/// with `max_line_len = line_limit`; returns the peak heap while feeding.
fn peak_for_one_long_line(chunk: usize, line_limit: usize) -> usize {
    let mut config = ParserConfig::default();
    config.max_line_len = line_limit;
    let mut parser = Parser::with_config(config);
    let mut reports = Vec::with_capacity(8);
    let ((), peak) = peak_heap(|| {
        let mut fed = 0;
        while fed < TOTAL {
            let mut piece = vec![b'a'; chunk];
            if fed == 0 {
                piece[..6].copy_from_slice(b"data: ");
            }
            fed += piece.len();
            parser.feed(Bytes::from(piece));
            loop {
                match parser.next_frame() {
                    Ok(Some(f)) => reports.push(Ok(f)),
                    Ok(None) => break,
                    Err(e) => reports.push(Err(e)),
                }
            }
        }
    });
    assert_eq!(reports.len(), 1, "one error, nothing else: {reports:?}");
    let e = reports[0].as_ref().unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (FrameErrorKind::LineTooLong { limit: line_limit }, 0)
    );
    // The parser resumes after the next blank line.
    parser.feed(Bytes::from_static(b"\n\ndata: after\n\n"));
    assert_eq!(parser.next_frame(), Ok(Some(Frame::new("after"))));
    assert_eq!(parser.finish(), Ok(()));
    peak as usize
}

#[test]
fn a_16_mib_line_costs_at_most_the_line_limit_plus_a_few_chunks() {
    // Bound: max_line_len (the line buffer) + 4 chunks (the chunk being
    // parsed, the one being fed, and slack for the parser's small state).
    const LINE_LIMIT: usize = 64 << 10;
    let peak = peak_for_one_long_line(CHUNK, LINE_LIMIT);
    let bound = LINE_LIMIT + 4 * CHUNK;
    println!(
        "16 MiB line, 4 KiB chunks, max_line_len 64 KiB: peak heap {peak} bytes (bound {bound})"
    );
    assert!(peak <= bound, "peak heap {peak} bytes > bound {bound}");
}

#[test]
fn a_long_line_in_chunks_of_other_sizes_stays_bounded() {
    // The line buffer's growth is capped at max_line_len, whatever the chunk
    // size (plain doubling would reach 128,000 bytes with 1000-byte chunks).
    // Bound: max_line_len + 4 chunks.
    const LINE_LIMIT: usize = 64 << 10;
    for chunk in [1000, 3800, 5000, 40_000] {
        let peak = peak_for_one_long_line(chunk, LINE_LIMIT);
        let bound = LINE_LIMIT + 4 * chunk;
        println!("16 MiB line, {chunk}-byte chunks, max_line_len 64 KiB: peak heap {peak} bytes (bound {bound})");
        assert!(
            peak <= bound,
            "{chunk}-byte chunks: peak heap {peak} bytes > bound {bound}"
        );
    }
}

#[test]
fn a_16_mib_event_costs_at_most_the_limits_plus_a_few_chunks() {
    // 16 MiB of 1 KiB data lines in one block, with a 64 KiB event limit.
    // Bound: max_event_len + max_line_len + 4 chunks. The data buffer's growth
    // is capped at max_event_len (plain doubling with 1017-byte values would
    // reach 1017 * 128 bytes of capacity to hold at most 64 KiB).
    const EVENT_LIMIT: usize = 64 << 10;
    const LINE_LIMIT: usize = 4 << 10;
    let mut config = ParserConfig::default();
    config.max_line_len = LINE_LIMIT;
    config.max_event_len = EVENT_LIMIT;
    let mut line = b"data: ".to_vec();
    line.resize(1023, b'v');
    line.push(b'\n');
    let stream: Vec<u8> = line.iter().copied().cycle().take(TOTAL).collect();
    let mut parser = Parser::with_config(config);
    let mut errors = Vec::with_capacity(8);
    let ((), peak) = peak_heap(|| {
        for piece in stream.chunks(CHUNK) {
            parser.feed(Bytes::copy_from_slice(piece));
            loop {
                match parser.next_frame() {
                    Ok(Some(f)) => panic!("unexpected {f:?}"),
                    Ok(None) => break,
                    Err(e) => errors.push(e),
                }
            }
        }
    });
    let bound = EVENT_LIMIT + LINE_LIMIT + 4 * CHUNK;
    println!(
        "16 MiB event, 4 KiB chunks, max_event_len 64 KiB: peak heap {peak} bytes (bound {bound})"
    );
    assert!(
        peak <= bound as u64,
        "peak heap {peak} bytes > bound {bound}"
    );
    assert_eq!(errors.len(), 1);
    assert_eq!(
        (errors[0].kind(), errors[0].offset()),
        (FrameErrorKind::EventTooLarge { limit: EVENT_LIMIT }, 0)
    );
    parser.feed(Bytes::from_static(b"\ndata: after\n\n"));
    assert_eq!(parser.next_frame(), Ok(Some(Frame::new("after"))));
}

// ---------------------------------------------------------------------------
// Linear work

#[test]
fn a_1_mib_line_fed_one_byte_at_a_time_is_scanned_once() {
    const N: usize = 1 << 20;
    let mut input = b"data: ".to_vec();
    input.resize(6 + N, b'x');
    input.extend_from_slice(b"\n\n");
    let input = Bytes::from(input);
    let mut parser = Parser::new();
    let mut frames = Vec::new();
    for i in 0..input.len() {
        parser.feed(input.slice(i..i + 1));
        while let Some(f) = parser.next_frame().unwrap() {
            frames.push(f);
        }
    }
    parser.finish().unwrap();
    assert!(
        parser.bytes_scanned() <= input.len() as u64,
        "scanned {} bytes of {}",
        parser.bytes_scanned(),
        input.len()
    );
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0].data().len(), N);
    assert!(frames[0].data().bytes().all(|b| b == b'x'));
}

#[test]
fn two_thousand_events_fed_one_byte_at_a_time_are_scanned_once() {
    let mut input = Vec::new();
    for i in 0..2000 {
        // Every terminator kind, so split CRLFs are exercised too.
        let line = format!("id: {i}\r\nevent: e\rdata: {i}\ndata: x\r\n\r\n");
        input.extend_from_slice(line.as_bytes());
    }
    let input = Bytes::from(input);
    let mut parser = Parser::new();
    let mut frames = Vec::new();
    for i in 0..input.len() {
        parser.feed(input.slice(i..i + 1));
        while let Some(f) = parser.next_frame().unwrap() {
            frames.push(f);
        }
    }
    parser.finish().unwrap();
    assert!(
        parser.bytes_scanned() <= input.len() as u64,
        "scanned {} bytes of {}",
        parser.bytes_scanned(),
        input.len()
    );
    assert_eq!(frames.len(), 2000);
    for (i, f) in frames.iter().enumerate() {
        let expected = Frame::new(format!("{i}\nx"))
            .with_event("e")
            .with_id(i.to_string());
        assert_eq!(f, &expected);
    }
}

// ---------------------------------------------------------------------------
// Truncated tail

fn finish_after(chunks: &[&'static [u8]]) -> (Vec<Frame>, Result<(), FrameError>) {
    let mut p = Parser::new();
    let mut frames = Vec::new();
    for c in chunks {
        p.feed(Bytes::from_static(c));
        while let Some(f) = p.next_frame().unwrap() {
            frames.push(f);
        }
    }
    let end = p.finish();
    // Reported once.
    assert_eq!(p.finish(), Ok(()));
    assert_eq!(p.next_frame(), Ok(None));
    (frames, end)
}

fn tail(len: u64, offset: u64) -> (FrameErrorKind, u64) {
    (FrameErrorKind::TruncatedTail { len }, offset)
}

fn kind_offset(r: Result<(), FrameError>) -> Option<(FrameErrorKind, u64)> {
    r.err().map(|e| (e.kind(), e.offset()))
}

#[test]
fn truncated_tail_after_a_field_line() {
    let (frames, end) = finish_after(&[b"data: x\n"]);
    assert!(frames.is_empty());
    assert_eq!(kind_offset(end), Some(tail(8, 0)));
}

#[test]
fn truncated_tail_after_a_complete_event() {
    let (frames, end) = finish_after(&[b"data: a\n\ndata: x\n"]);
    assert_eq!(frames, [Frame::new("a")]);
    assert_eq!(kind_offset(end), Some(tail(8, 9)));
    // Inside an unterminated line.
    let (_, end) = finish_after(&[b"data: a\n\ndata: x"]);
    assert_eq!(kind_offset(end), Some(tail(7, 9)));
    // An unterminated comment after a blank line is still a cut line.
    let (_, end) = finish_after(&[b"data: a\n\n: pi", b"ng"]);
    assert_eq!(kind_offset(end), Some(tail(6, 9)));
}

#[test]
fn a_stream_ending_in_a_comment_line_is_complete() {
    let (frames, end) = finish_after(&[b"data: a\n\n: keep-alive\n"]);
    assert_eq!((frames, end), (vec![Frame::new("a")], Ok(())));
    let (_, end) = finish_after(&[b"data: a\n\n: one\r\n:two\r"]);
    assert_eq!(end, Ok(()));
    let (_, end) = finish_after(&[b""]);
    assert_eq!(end, Ok(()));
}

#[test]
fn truncated_tail_is_reported_once() {
    let mut p = Parser::new();
    p.feed(Bytes::from_static(b"data: x\n"));
    assert_eq!(p.next_frame(), Ok(None));
    assert_eq!(kind_offset(p.finish()), Some(tail(8, 0)));
    assert_eq!(p.finish(), Ok(()));
    assert_eq!(p.next_frame(), Ok(None));
    assert_eq!(p.finish(), Ok(()));
}

#[test]
fn truncated_tail_with_input_still_queued_comes_from_next_frame() {
    let mut p = Parser::new();
    p.feed(Bytes::from_static(b"data: a\n\n"));
    p.feed(Bytes::from_static(b"data: x\n"));
    // Nothing parsed yet: finish() cannot know about the tail.
    assert_eq!(p.finish(), Ok(()));
    assert_eq!(p.next_frame(), Ok(Some(Frame::new("a"))));
    let e = p.next_frame().unwrap_err();
    assert_eq!((e.kind(), e.offset()), tail(8, 9));
    assert_eq!(p.next_frame(), Ok(None));
    assert_eq!(p.finish(), Ok(()));
    assert_eq!(p.next_frame(), Ok(None));
}

#[test]
fn truncated_tail_after_a_limit_error() {
    // A block dropped for a limit and cut by the end of the stream: the tail
    // starts at the block.
    let input = format!("data: a\n\nid: 3\ndata: {}\ndata: b\n", "w".repeat(70));
    let run = run_every_way(small_limits(), input.as_bytes());
    let len = (input.len() - 9) as u64;
    assert_eq!(
        reduce(&run),
        [
            R::Frame(Frame::new("a")),
            R::Err(LINE_TOO_LONG, 15),
            R::Err(FrameErrorKind::TruncatedTail { len }, 9)
        ]
    );
    // The id before the error was processed but never committed.
    assert_eq!(run.last_event_id, "");
}
