//! Small reads (chunks of at most 256 bytes) are held by the parser until
//! they complete an event. Holding must not change what the parser reports,
//! nor when: these tests pin the cases where a held byte could otherwise be
//! late (a `retry` field, the truncated tail at `finish`, comments through
//! `next_item`, a limit), beside the chunking proptests that compare every
//! chunking with the whole input.

use bytes::Bytes;
use ssekit::{FrameErrorKind, Item, Parser, ParserConfig};

/// A parser past the start of the stream (where nothing is held, since a
/// byte order mark may be pending) with one event read.
fn started(config: ParserConfig) -> Parser {
    let mut p = Parser::with_config(config);
    p.feed(Bytes::from_static(b"data: a\n\n"));
    assert_eq!(p.next_frame().unwrap().unwrap().data(), "a");
    p
}

fn feed_all(p: &mut Parser, reads: &[&'static [u8]]) -> Vec<String> {
    let mut out = Vec::new();
    for r in reads {
        p.feed(Bytes::from_static(r));
        while let Some(f) = p.next_frame().unwrap() {
            out.push(f.data().to_owned());
        }
    }
    out
}

#[test]
fn an_event_completed_by_a_small_read_is_dispatched_at_once() {
    let mut p = started(ParserConfig::default());
    assert!(feed_all(&mut p, &[b"data", b": b", b"\n"]).is_empty());
    assert_eq!(feed_all(&mut p, &[b"\n"]), ["b"]);
    // Two events and the start of a third in one read, after a held start.
    assert_eq!(
        feed_all(&mut p, &[b"data: c", b"\n\ndata: d\n\ndata: e"]),
        ["c", "d"]
    );
    assert_eq!(feed_all(&mut p, &[b"\n\n"]), ["e"]);
}

#[test]
fn a_retry_field_takes_effect_when_its_line_ends() {
    let mut p = started(ParserConfig::default());
    assert!(feed_all(&mut p, &[b"retry: 1", b"50\n", b"data: x"]).is_empty());
    assert_eq!(p.reconnection_time(), Some(150));
}

#[test]
fn finish_reports_the_held_tail_itself() {
    let mut p = started(ParserConfig::default());
    assert!(feed_all(&mut p, &[b"event: x\n", b"data: b"]).is_empty());
    // Nothing is pending: the held bytes say nothing until the stream ends.
    assert!(!p.has_pending_input());
    assert_eq!(
        p.offset(),
        9,
        "the next byte to parse is the first one held"
    );
    let err = p.finish().unwrap_err();
    assert_eq!(err.kind(), FrameErrorKind::TruncatedTail { len: 16 });
    assert_eq!(err.offset(), 9);
    assert_eq!(p.finish(), Ok(()), "reported once");
    assert_eq!(p.next_frame(), Ok(None));
    assert_eq!(p.offset(), 25);
    assert_eq!(p.tally().total(), 25);
}

#[test]
fn next_item_reports_comments_that_were_held() {
    let mut p = started(ParserConfig::default());
    assert!(feed_all(&mut p, &[b": one\n", b": tw"]).is_empty());
    assert_eq!(
        p.next_item(),
        Ok(Some(Item::Comment(Bytes::from_static(b" one"))))
    );
    assert_eq!(p.next_item(), Ok(None));
    // From now on small reads are parsed as they come.
    p.feed(Bytes::from_static(b"o\n"));
    assert_eq!(
        p.next_item(),
        Ok(Some(Item::Comment(Bytes::from_static(b" two"))))
    );
}

#[test]
fn a_limit_is_reported_when_the_line_crosses_it() {
    let mut config = ParserConfig::default();
    config.max_line_len = 40;
    let mut p = started(config);
    // 32 bytes of a data line: within the limit, held.
    p.feed(Bytes::from_static(b"data: 0123456789012345678901234"));
    assert_eq!(p.next_frame(), Ok(None));
    // The read that takes the line past 40 bytes gets the error at once.
    p.feed(Bytes::from_static(b"0123456789"));
    let err = p.next_frame().unwrap_err();
    assert_eq!(err.kind(), FrameErrorKind::LineTooLong { limit: 40 });
    assert_eq!(err.offset(), 9);
}

#[test]
fn a_cr_hands_everything_over() {
    let mut p = started(ParserConfig::default());
    assert!(feed_all(&mut p, &[b"data: b", b"\r"]).is_empty());
    assert_eq!(feed_all(&mut p, &[b"\n", b"\r\n"]), ["b"]);
}

#[test]
fn held_bytes_are_bounded() {
    // A line with no end, in small reads: at most 8 KiB is held; past that
    // the line is gathered (and bounded) by the line path.
    let mut p = started(ParserConfig::default());
    let piece = Bytes::from(vec![b'x'; 200]);
    p.feed(Bytes::from_static(b"data: "));
    let mut fed = 15;
    for _ in 0..100 {
        p.feed(piece.clone());
        fed += 200;
        assert_eq!(p.next_frame(), Ok(None));
        let held = fed - p.offset();
        assert!(held <= 8192, "{held} bytes held");
    }
    p.feed(Bytes::from_static(b"\n\n"));
    let f = p.next_frame().unwrap().unwrap();
    assert_eq!(f.data().len(), 20_000);
}

/// Reads of 16 to 32 bytes that end lines are held when none of those lines
/// is blank or a `retry` line (the held path finds the cuts of such a read
/// all at once): after every read, what the parser reports (frames, the
/// reconnection time, the last event ID) is what a parser that holds
/// nothing reports (`next_item` turns holding off), for every read size
/// from 16 to 32 bytes and every offset of the first cut.
#[test]
fn tiny_reads_that_end_lines_report_what_unheld_reads_do() {
    let stream: &[u8] =
        b"data: a\n\nevent: delta\ndata: {\"t\":\"bcd\"}\n\nid: 7\nretry: 150\ndata: e\n\n\
        event: x\nretry: 9\n\ndata: fghijklmnopqrstu\nretry: 12345\ndata: v\n\n: c\nevent: y\n\
        data: w\n\nretry: 3\ndata: z\n\n";
    let observe =
        |p: &Parser, frames: usize| (frames, p.reconnection_time(), p.last_event_id().to_owned());
    for size in 16..=32 {
        for first in 0..size {
            let mut held = started(ParserConfig::default());
            let mut unheld = started(ParserConfig::default());
            let (mut a, mut b) = (0, 0);
            let mut at = 0;
            let mut cut = first.max(1);
            while at < stream.len() {
                let end = cut.min(stream.len());
                let read = Bytes::copy_from_slice(&stream[at..end]);
                held.feed(read.clone());
                while held.next_frame().unwrap().is_some() {
                    a += 1;
                }
                unheld.feed(read);
                while let Some(item) = unheld.next_item().unwrap() {
                    b += usize::from(matches!(item, Item::Frame(_)));
                }
                assert_eq!(
                    observe(&held, a),
                    observe(&unheld, b),
                    "reads of {size} B, first cut at {first}, after byte {end}"
                );
                at = end;
                cut = end + size;
            }
            assert_eq!(a, 6, "reads of {size} B, first cut at {first}");
        }
    }
}

/// What a parser reports after a read: each frame's data, or the error's
/// kind and offset.
fn reports(p: &mut Parser, items: bool) -> Vec<Result<String, (FrameErrorKind, u64)>> {
    let mut out = Vec::new();
    loop {
        let next = if items {
            p.next_item().map(|i| match i {
                Some(Item::Frame(f)) => Some(Some(f.data().to_owned())),
                Some(_) => Some(None),
                None => None,
            })
        } else {
            p.next_frame().map(|f| f.map(|f| Some(f.data().to_owned())))
        };
        match next {
            Ok(Some(Some(data))) => out.push(Ok(data)),
            Ok(Some(None)) => {}
            Ok(None) => return out,
            Err(e) => out.push(Err((e.kind(), e.offset()))),
        }
    }
}

/// The data of a block parsed after a cut (here a `retry` line) leaves less
/// room under `max_event_len` for what is held after it: a tiny read that
/// would take the held bytes past that room is handed over, so the event's
/// limit is reported at the read that crosses it, as without holding. With
/// one data line before the cut, with two, and with two parsed at two cuts.
/// The last three cases fail in a release build too if the room is not
/// lowered (their crossing read ends the line, so the parser that does not
/// hold reports the error at that read); in a debug build `feed` also
/// asserts that it never holds more than the room left.
#[test]
fn data_parsed_before_a_cut_lowers_what_may_be_held_after_it() {
    let cases: [&[&'static [u8]]; 6] = [
        &[
            b"data: 0123456789\n",
            b"retry: 1\ndata: ab",
            b"cdefghijklmnopqrstuvwxyz",
            b"\n\n",
        ],
        &[
            b"data: 01234\ndata: 5678\n",
            b"retry: 1\ndata: ab",
            b"cdefghijklmnopqrstuvwxyz",
            b"\n\n",
        ],
        // The second data line is parsed at a later cut than the first.
        &[
            b"data: 01234\n",
            b"retry: 1\ndata: 5",
            b"678\nretry: 2\ndata: a",
            b"bcdefghijklmnopqrstu",
            b"vwxyz\n\n",
        ],
        // The crossing read ends the line, and no block: without the lower
        // room it would be held, and the error would come one read late.
        &[
            b"data: 0123456789\n",
            b"retry: 1\ndata: ab",
            b"cdefghijklmnopqrstuvwxyz\n",
            b"\n",
        ],
        &[
            b"data: 01234\ndata: 5678\n",
            b"retry: 1\ndata: ab",
            b"cdefghijklmnopqrstuvwxyz\n",
            b"\n",
        ],
        &[
            b"data: 0\n",
            b"retry: 1\ndata: 12",
            b"3456789012\nretry: 2\ndata: a",
            b"bcdefghijklmnopqrstuvw\n",
            b"\n",
        ],
    ];
    for reads in cases {
        let text: Vec<_> = reads.iter().map(|r| String::from_utf8_lossy(r)).collect();
        let mut config = ParserConfig::default();
        config.max_event_len = 36;
        let mut held = started(config);
        let mut unheld = started(config);
        let mut errors = 0;
        for (i, read) in reads.iter().enumerate() {
            held.feed(Bytes::from_static(read));
            unheld.feed(Bytes::from_static(read));
            let (a, b) = (reports(&mut held, false), reports(&mut unheld, true));
            assert_eq!(a, b, "after read {i} of {text:?}");
            errors += a.iter().filter(|r| r.is_err()).count();
        }
        assert_eq!(errors, 1, "{text:?}: the event crosses its limit once");
    }
}
