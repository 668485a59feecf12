//! Nothing lost: every byte of a stream is accounted for, and a frame's raw
//! wire bytes (`Frame::raw`) are what a proxy can forward unchanged.
//!
//! * `Parser::tally` against an independent oracle written here from the
//!   definitions (lines split at CRLF / LF / CR on the whole input, blocks
//!   ended by blank lines): for arbitrary SSE-ish streams with arbitrary
//!   bytes mixed in, at arbitrary chunkings, each byte is in exactly one of
//!   dispatched frames, comments, ignored blocks, or the truncated tail that
//!   `finish()` reports, and the categories add up to the input length.
//! * With small limits and strict UTF-8, where blocks are dropped: the
//!   categories still add up to the input length, are the same however the
//!   input is chunked, a dropped byte always comes with a reported error,
//!   and the truncated count is the length `finish()` reported.
//! * `Frame::raw`: a slice of the input chunk (pointer range checked, no
//!   copy), from the block's first line through its blank line; parsing it
//!   again gives the same frame; `None` when the block spans chunks.

use bytes::Bytes;
use proptest::prelude::*;
use ssekit::{Frame, FrameErrorKind, Item, Parser, ParserConfig, Tally, Utf8Mode};

// ---------------------------------------------------------------------------
// The oracle: categories of every byte, from the definitions.

#[derive(Debug, Default, PartialEq, Eq)]
struct Expected {
    dispatched: u64,
    comments: u64,
    ignored: u64,
    truncated: u64,
}

fn oracle(input: &[u8]) -> Expected {
    let mut e = Expected::default();
    let len = input.len();
    // A leading BOM is not a line; it goes with the first block.
    let mut i = if input.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let mut unit_start = 0; // where the current block's bytes begin
    let mut comments = 0; // bytes of the current block's comment lines
    let mut has_data = false;
    let mut first_field_block: Option<usize> = None; // first line, once a field is seen
    let mut first_line: Option<usize> = None;
    while let Some(rel) = input[i..].iter().position(|&b| b == b'\n' || b == b'\r') {
        let end = i + rel;
        let term = if input[end] == b'\r' && input.get(end + 1) == Some(&b'\n') {
            2
        } else {
            1
        };
        let line = &input[i..end];
        let line_end = end + term;
        if line.is_empty() {
            let unit = (line_end - unit_start) as u64;
            if has_data {
                e.dispatched += unit - comments;
            } else {
                e.ignored += unit - comments;
            }
            e.comments += comments;
            (comments, has_data, first_field_block, first_line) = (0, false, None, None);
            unit_start = line_end;
        } else {
            let first = *first_line.get_or_insert(i);
            if line[0] == b':' {
                comments += (line_end - i) as u64;
            } else {
                first_field_block.get_or_insert(first);
                let name = line.split(|&b| b == b':').next().unwrap();
                has_data |= name == b"data";
            }
        }
        i = line_end;
    }
    // End of stream: `input[i..]` is an unfinished line, if not empty.
    let tail_start = match first_field_block {
        Some(start) => Some((start, true)),
        None if i < len => Some((i, false)),
        None => None,
    };
    match tail_start {
        Some((start, true)) => {
            e.ignored += (start - unit_start) as u64;
            e.truncated += (len - start) as u64;
        }
        Some((start, false)) => {
            e.comments += comments;
            e.ignored += (start - unit_start) as u64 - comments;
            e.truncated += (len - start) as u64;
        }
        None => {
            e.comments += comments;
            e.ignored += (len - unit_start) as u64 - comments;
        }
    }
    e
}

fn expected(t: Tally) -> Expected {
    assert_eq!(t.dropped, 0, "no limits were exceeded");
    Expected {
        dispatched: t.dispatched,
        comments: t.comments,
        ignored: t.ignored,
        truncated: t.truncated,
    }
}

#[test]
fn oracle_by_hand() {
    // Checked by counting: ": ping\n" is 7 comment bytes, then "\n" 1
    // ignored; "data: hi\r\nx\n\n" 13 dispatched; "id: 1\n\n" 7 ignored;
    // "data: cut" 9 truncated.
    let input = b": ping\n\ndata: hi\r\nx\n\nid: 1\n\ndata: cut";
    let want = Expected {
        dispatched: 13,
        comments: 7,
        ignored: 8,
        truncated: 9,
    };
    assert_eq!(oracle(input), want);
    let run = drive(ParserConfig::DEFAULT, input, &[], true);
    assert_eq!(expected(run.tally), want);
    // A BOM goes with the first block; a comment-only block at the end of
    // the stream is no tail; an unfinished line after it is.
    let input = b"\xEF\xBB\xBFdata: a\n\n: c\n";
    assert_eq!(
        oracle(input),
        Expected {
            dispatched: 12,
            comments: 4,
            ..Default::default()
        }
    );
    assert_eq!(
        expected(drive(ParserConfig::DEFAULT, input, &[], true).tally),
        oracle(input)
    );
    let input = b": c\nxy";
    assert_eq!(
        oracle(input),
        Expected {
            comments: 4,
            truncated: 2,
            ..Default::default()
        }
    );
    assert_eq!(
        expected(drive(ParserConfig::DEFAULT, input, &[], true).tally),
        oracle(input)
    );
}

/// Runs of keep-alive blocks (`: x` LF LF), which the parser skips in one
/// go when they lie in one read, against the oracle and against the
/// line-by-line path (`next_item`, which reports each comment): the same
/// tally, frames (raw bytes included) and errors at every single cut, under
/// the default limits and under a line limit the longer comments break.
#[test]
fn keep_alive_runs_are_accounted_as_single_blocks_are() {
    let inputs: [&[u8]; 5] = [
        b": ping\n\n: p\n\n:\n\ndata: a\n\n:x\n\n: c\n\nevent: e\ndata: b\n\n: tail\n\n",
        b"id: 3\n\n: a\n\n: b\n\ndata: c\n\n",
        b": a\n\n: b\r\n\n: c\n\r\n: d\n\n",
        b": a\n\n: b\n: c\n\ndata: x\n: d\n\n: e\n",
        b": a long comment line\n\n: b\n\ndata: x\n\n: another long one\n\n",
    ];
    let short_lines = ParserConfig::DEFAULT.with_raw(true).with_max_line_len(8);
    for input in inputs {
        let text = String::from_utf8_lossy(input);
        for config in [RAW, short_lines] {
            let line_path = drive(config, input, &[], true);
            if config.max_line_len == RAW.max_line_len {
                assert_eq!(expected(line_path.tally), oracle(input), "{text}");
            }
            for cut in 0..=input.len() {
                let by_line = drive(config, input, &[cut], true);
                let run = drive(config, input, &[cut], false);
                let why = format!("{text:?} cut at {cut}");
                assert_eq!(by_line.tally, line_path.tally, "{why}");
                assert_eq!(by_line.frames, line_path.frames, "{why}");
                assert_eq!(by_line.errors, line_path.errors, "{why}");
                assert_eq!(run.tally, by_line.tally, "{why}");
                assert_eq!(run.frames, by_line.frames, "{why}");
                // Raw bytes depend on the cut (a block that spans reads has
                // none): compared at the same cut.
                let raw = |d: &Driven| {
                    d.frames
                        .iter()
                        .map(|f| f.raw().cloned())
                        .collect::<Vec<_>>()
                };
                assert_eq!(raw(&run), raw(&by_line), "{why}");
                assert_eq!(run.errors, by_line.errors, "{why}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Driving the parser.

/// Default limits, frames keeping their raw bytes.
const RAW: ParserConfig = ParserConfig::DEFAULT.with_raw(true);

#[derive(Debug)]
struct Driven {
    tally: Tally,
    frames: Vec<Frame>,
    /// Kind and offset of each error, the truncated tail included.
    errors: Vec<(FrameErrorKind, u64)>,
    chunks: Vec<Bytes>,
}

fn drive(config: ParserConfig, input: &[u8], cuts: &[usize], items: bool) -> Driven {
    let whole = Bytes::copy_from_slice(input);
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (input.len() + 1)).collect();
    cuts.sort_unstable();
    let mut chunks = Vec::new();
    let mut start = 0;
    for end in cuts.into_iter().chain([input.len()]) {
        chunks.push(whole.slice(start..end));
        start = end;
    }
    let mut parser = Parser::with_config(config);
    let mut frames = Vec::new();
    let mut errors = Vec::new();
    let drain = |parser: &mut Parser,
                 frames: &mut Vec<Frame>,
                 errors: &mut Vec<(FrameErrorKind, u64)>| loop {
        let next = if items {
            parser.next_item().map(|i| match i {
                Some(Item::Frame(f)) => Some(Some(f)),
                Some(_) => Some(None),
                None => None,
            })
        } else {
            parser.next_frame().map(|f| f.map(Some))
        };
        match next {
            Ok(Some(Some(f))) => frames.push(f),
            Ok(Some(None)) => {}
            Ok(None) => break,
            Err(e) => errors.push((e.kind(), e.offset())),
        }
    };
    for chunk in &chunks {
        parser.feed(chunk.clone());
        drain(&mut parser, &mut frames, &mut errors);
    }
    if let Err(e) = parser.finish() {
        errors.push((e.kind(), e.offset()));
    }
    drain(&mut parser, &mut frames, &mut errors);
    assert!(!parser.has_pending_input());
    Driven {
        tally: parser.tally(),
        frames,
        errors,
        chunks,
    }
}

/// The truncated-tail length reported, if any.
fn reported_tail(errors: &[(FrameErrorKind, u64)]) -> u64 {
    errors
        .iter()
        .filter_map(|(k, _)| match k {
            FrameErrorKind::TruncatedTail { len } => Some(*len),
            _ => None,
        })
        .sum()
}

// ---------------------------------------------------------------------------
// Streams.

fn stream() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        4 => Just(b"data: x".to_vec()),
        2 => Just(b"data:".to_vec()),
        2 => Just(b"event: e".to_vec()),
        1 => Just(b"id: 7".to_vec()),
        1 => Just(b"retry: 15".to_vec()),
        2 => Just(b": c".to_vec()),
        1 => Just(b":".to_vec()),
        1 => Just(b"x: y".to_vec()),
        6 => Just(b"\n".to_vec()),
        2 => Just(b"\r".to_vec()),
        2 => Just(b"\r\n".to_vec()),
        1 => Just(b"\xEF\xBB\xBF".to_vec()),
        1 => Just(b"\xEF\xBB".to_vec()),
        3 => prop::collection::vec(any::<u8>(), 0..6),
    ];
    prop::collection::vec(token, 0..40).prop_map(|t| t.concat())
}

fn cuts() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(any::<usize>(), 0..12)
}

fn small_config() -> impl Strategy<Value = ParserConfig> {
    (1usize..24, 1usize..24, any::<bool>(), any::<bool>()).prop_map(|(line, event, strict, raw)| {
        ParserConfig::DEFAULT
            .with_raw(raw)
            .with_max_line_len(line)
            .with_max_event_len(event)
            .with_utf8(if strict {
                Utf8Mode::Strict
            } else {
                Utf8Mode::Replace
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_byte_is_accounted_for(input in stream(), cuts in cuts(), items in any::<bool>()) {
        let want = oracle(&input);
        let run = drive(ParserConfig::DEFAULT, &input, &cuts, items);
        prop_assert_eq!(run.tally.total(), input.len() as u64);
        prop_assert_eq!(run.tally.truncated, reported_tail(&run.errors));
        prop_assert_eq!(expected(run.tally), want);
        // One byte at a time too.
        let ones: Vec<usize> = (1..input.len()).collect();
        let run = drive(ParserConfig::DEFAULT, &input, &ones, items);
        prop_assert_eq!(expected(run.tally), oracle(&input));
    }

    #[test]
    fn every_byte_is_accounted_for_under_limits(
        input in stream(),
        cuts in cuts(),
        config in small_config(),
        items in any::<bool>(),
    ) {
        let whole = drive(config, &input, &[], items);
        let cut = drive(config, &input, &cuts, items);
        for run in [&whole, &cut] {
            let t = run.tally;
            prop_assert_eq!(t.total(), input.len() as u64, "{:?}", t);
            prop_assert_eq!(t.truncated, reported_tail(&run.errors));
            let dropping = run
                .errors
                .iter()
                .filter(|(k, _)| !matches!(k, FrameErrorKind::TruncatedTail { .. }))
                .count();
            // Each error drops its block: counted as dropped, or in the tail.
            if dropping > 0 {
                prop_assert!(t.dropped + t.truncated > 0, "{:?} {:?}", t, run.errors);
            } else {
                prop_assert_eq!(t.dropped, 0);
            }
        }
        prop_assert_eq!(whole.tally, cut.tally);
        prop_assert_eq!(whole.errors, cut.errors);
    }

    #[test]
    fn raw_bytes_reparse_to_the_same_frame(input in stream(), cuts in cuts()) {
        let run = drive(RAW, &input, &cuts, true);
        let mut raw_total = 0;
        for frame in &run.frames {
            let Some(raw) = frame.raw() else { continue };
            raw_total += raw.len();
            // Zero copy: the raw bytes lie inside one input chunk.
            let r = raw.as_ptr_range();
            prop_assert!(
                run.chunks.iter().any(|c| {
                    let c = c.as_ptr_range();
                    c.start <= r.start && r.end <= c.end
                }),
                "raw bytes are not a slice of an input chunk"
            );
            // They end with a line terminator and give back the same frame.
            prop_assert!(matches!(raw.last(), Some(b'\n' | b'\r')));
            // At the very start of a stream, a leading U+FEFF would be read
            // as a byte order mark: reparse behind a blank line.
            let again = drive(RAW, &[b"\n", &raw[..]].concat(), &[], true);
            prop_assert_eq!(again.frames.len(), 1, "{:?}", raw);
            prop_assert!(again.errors.is_empty());
            let f = &again.frames[0];
            prop_assert_eq!((f.event(), f.data(), f.retry()), (frame.event(), frame.data(), frame.retry()));
            if !f.id().is_empty() {
                prop_assert_eq!(f.id(), frame.id());
            }
            prop_assert_eq!(&f.raw().unwrap()[..], &raw[..]);
        }
        // Whole, every block is contiguous: the raw bytes of the frames are
        // their blocks, without the bytes before each block's first line.
        let whole = drive(RAW, &input, &[], true);
        prop_assert!(whole.frames.iter().all(|f| f.raw().is_some()));
        let sum: u64 = whole.frames.iter().map(|f| f.raw().unwrap().len() as u64).sum();
        prop_assert!(sum <= whole.tally.dispatched + whole.tally.comments);
        prop_assert!(raw_total as u64 <= sum);
    }
}

// ---------------------------------------------------------------------------
// Raw bytes, case by case.

fn frames_of(chunks: &[&'static [u8]]) -> Vec<Frame> {
    let mut p = Parser::with_config(RAW);
    let mut out = Vec::new();
    for c in chunks {
        p.feed(Bytes::from_static(c));
        while let Some(f) = p.next_frame().unwrap() {
            out.push(f);
        }
    }
    out
}

#[test]
fn raw_is_the_block_with_its_comments_and_fields() {
    let input: &'static [u8] =
        b"\n\n: hi\nevent: e\nid: 3\nx: y\ndata: a\ndata: b\r\n\r\ndata: c\r\r";
    let f = frames_of(&[input]);
    assert_eq!(f.len(), 2);
    assert_eq!(
        f[0].raw().unwrap().as_ref(),
        b": hi\nevent: e\nid: 3\nx: y\ndata: a\ndata: b\r\n\r\n"
    );
    assert!(!f[0].is_zero_copy(), "two data lines are joined (copied)");
    assert_eq!(f[1].raw().unwrap().as_ref(), b"data: c\r\r");
    // Slices of the input, not copies.
    let whole = input.as_ptr_range();
    for frame in &f {
        let r = frame.raw().unwrap().as_ptr_range();
        assert!(whole.start <= r.start && r.end <= whole.end);
    }
    assert_eq!(
        f[1].raw().unwrap().as_ptr(),
        input[input.len() - 9..].as_ptr()
    );
}

#[test]
fn raw_is_none_when_the_block_spans_chunks() {
    let f = frames_of(&[b"data: a\n", b"\ndata: b\n\n"]);
    assert_eq!(f[0].raw(), None);
    assert_eq!(f[1].raw().unwrap().as_ref(), b"data: b\n\n");
    // A line split across chunks.
    let f = frames_of(&[b"da", b"ta: a\n\n"]);
    assert_eq!(f[0].raw(), None);
    // A BOM before the block is not part of it.
    let f = frames_of(&[b"\xEF\xBB\xBFdata: a\n\n"]);
    assert_eq!(f[0].raw().unwrap().as_ref(), b"data: a\n\n");
    // A BOM split across chunks: the block itself is in one chunk.
    let f = frames_of(&[b"\xEF\xBB", b"\xBFdata: a\n\n"]);
    assert_eq!(f[0].raw().unwrap().as_ref(), b"data: a\n\n");
}

#[test]
fn raw_of_a_split_crlf_ends_at_the_cr() {
    let f = frames_of(&[b"data: a\r\n\r", b"\ndata: b\n\n"]);
    assert_eq!(f[0].raw().unwrap().as_ref(), b"data: a\r\n\r");
    assert_eq!(f[1].raw().unwrap().as_ref(), b"data: b\n\n");
}

#[test]
fn frames_built_or_changed_by_hand_have_no_raw() {
    assert_eq!(Frame::new("x").raw(), None);
    // Nor do frames of a parser not asked to keep them (the default).
    let mut p = Parser::new();
    p.feed(Bytes::from_static(b"data: a\n\n"));
    assert_eq!(p.next_frame().unwrap().unwrap().raw(), None);
    let parsed = frames_of(&[b"data: a\n\n"]).remove(0);
    assert!(parsed.raw().is_some());
    assert_eq!(parsed.clone().with_event("e").raw(), None);
    assert_eq!(parsed.clone().with_id("1").raw(), None);
    assert_eq!(parsed.clone().with_retry(Some(1)).raw(), None);
    assert_eq!(parsed.clone().raw(), parsed.raw());
}

#[test]
fn tally_counts_a_split_crlf_with_its_line() {
    // The LF completing a CRLF comes in the next chunk: it is counted with
    // the line the CR ended, as when the stream is whole.
    let input = b": c\r\ndata: a\r\n\r\n: d\r\n";
    for cut in 0..=input.len() {
        let run = drive(ParserConfig::DEFAULT, input, &[cut], true);
        assert_eq!(expected(run.tally), oracle(input), "cut at {cut}");
    }
    assert_eq!(
        oracle(input),
        Expected {
            dispatched: 11,
            comments: 10,
            ..Default::default()
        }
    );
}

#[test]
fn tally_of_a_dropped_block() {
    // "data: 0123456789" exceeds a 10-byte line: the block is dropped
    // through its blank line (17 + 8 + 1 bytes), then "data: ok\n\n" dispatches.
    let config = ParserConfig::DEFAULT.with_max_line_len(10);
    let input = b"data: 0123456789\ndata: x\n\ndata: ok\n\n";
    for cut in 0..=input.len() {
        let run = drive(config, input, &[cut], false);
        let t = run.tally;
        assert_eq!(
            (t.dropped, t.dispatched, t.total()),
            (26, 10, 36),
            "cut at {cut}"
        );
        assert_eq!(run.errors, [(FrameErrorKind::LineTooLong { limit: 10 }, 0)]);
    }
}

/// A `data` line that straddles two reads (the event at every 4 KiB read
/// boundary, which the parser dispatches without its line-by-line path):
/// the same frames, offsets, raw bytes and tally as the stream in one read,
/// at every cut, by `next_frame` and by `next_frame_ref`.
#[test]
fn an_event_whose_data_line_straddles_two_reads_is_the_same() {
    let input: &[u8] = b": c\nretry: 5\nid: 7\nevent: e\ndata: h\xc3\xa9llo\n\n\
        event: e\ndata: x\xff\n\ndata: {\"a\":1}\n\nid: 8\n: k\ndata: z\n\n: tail\n";
    type Seen = (String, String, String, Option<u64>, u64, Option<Vec<u8>>);
    let run = |cut: usize, borrowed: bool| {
        let mut p = Parser::with_config(RAW);
        let mut seen: Vec<Seen> = Vec::new();
        for piece in [&input[..cut], &input[cut..]] {
            p.feed(Bytes::copy_from_slice(piece));
            if borrowed {
                while let Some(f) = p.next_frame_ref().unwrap() {
                    let f = (
                        f.event().to_owned(),
                        f.data().to_owned(),
                        f.id().to_owned(),
                        f.retry(),
                    );
                    seen.push((f.0, f.1, f.2, f.3, p.frame_offset(), None));
                }
            } else {
                while let Some(f) = p.next_frame().unwrap() {
                    let raw = f.raw().map(|r| r.to_vec());
                    let f = (
                        f.event().to_owned(),
                        f.data().to_owned(),
                        f.id().to_owned(),
                        f.retry(),
                    );
                    seen.push((f.0, f.1, f.2, f.3, p.frame_offset(), raw));
                }
            }
        }
        p.finish().unwrap();
        (seen, p.tally(), p.last_event_id().to_owned())
    };
    for borrowed in [false, true] {
        let (whole, tally, id) = run(input.len(), borrowed);
        assert_eq!(whole.len(), 4);
        assert_eq!(whole[0].1, "h\u{e9}llo");
        assert_eq!(whole[1].1, "x\u{fffd}");
        for cut in 0..=input.len() {
            let (seen, t, i) = run(cut, borrowed);
            // Raw bytes exist only for blocks inside one read.
            let strip = |s: &[Seen]| {
                s.iter()
                    .map(|f| (f.0.clone(), f.1.clone(), f.2.clone(), f.3, f.4))
                    .collect::<Vec<_>>()
            };
            assert_eq!(strip(&seen), strip(&whole), "cut {cut} borrowed {borrowed}");
            for (a, b) in seen.iter().zip(&whole) {
                if a.5.is_some() {
                    assert_eq!(a.5, b.5, "cut {cut}");
                }
            }
            assert_eq!(
                (t, i.as_str()),
                (tally, id.as_str()),
                "cut {cut} borrowed {borrowed}"
            );
        }
    }
}

/// Borrowed frames of events that straddle reads lend the parser's line
/// buffer until the next call; owned frames, items and `finish` must find
/// it empty. Calls go through `next_frame_ref`, `next_frame` and
/// `next_item` (one frame each) in an order where each follows each, over
/// events that straddle the cuts, and each frame must be the one the whole
/// stream gives.
#[test]
fn borrowed_owned_and_item_calls_mix_over_straddling_events() {
    let input: &[u8] = b"data: first\n\nevent: e\ndata: second line\n\nretry: 9\ndata: third\n\n\
        data: fourth\n\ndata: fifth\n\ndata: sixth, the last\n\n";
    let want: Vec<(String, String, Option<u64>)> = [
        ("message", "first", None),
        ("e", "second line", None),
        ("message", "third", Some(9)),
        ("message", "fourth", None),
        ("message", "fifth", None),
        ("message", "sixth, the last", None),
    ]
    .map(|(e, d, r)| (e.to_owned(), d.to_owned(), r))
    .to_vec();
    // Every ordered pair of the three calls occurs in this cycle.
    const ORDER: [usize; 9] = [0, 0, 1, 1, 2, 2, 0, 2, 1];
    for first in 0..ORDER.len() {
        for size in [3, 5, 7, 11, 16, 23] {
            let mut p = Parser::new();
            let mut seen = Vec::new();
            let mut turn = first;
            for piece in input.chunks(size) {
                p.feed(Bytes::copy_from_slice(piece));
                loop {
                    let got = match ORDER[turn % ORDER.len()] {
                        0 => p
                            .next_frame_ref()
                            .unwrap()
                            .map(|f| (f.event().to_owned(), f.data().to_owned(), f.retry())),
                        1 => p
                            .next_frame()
                            .unwrap()
                            .map(|f| (f.event().to_owned(), f.data().to_owned(), f.retry())),
                        _ => match p.next_item().unwrap() {
                            Some(Item::Frame(f)) => {
                                Some((f.event().to_owned(), f.data().to_owned(), f.retry()))
                            }
                            Some(_) => continue,
                            None => None,
                        },
                    };
                    let Some(got) = got else { break };
                    seen.push(got);
                    turn += 1;
                }
            }
            p.finish().unwrap();
            assert_eq!(seen, want, "reads of {size} B, first call {first}");
        }
    }
}

/// `finish` after a borrowed frame that lent the line buffer: the tail is
/// the bytes after that event alone.
#[test]
fn finish_after_a_lent_frame_reports_only_the_tail() {
    for tail in [
        &b"data: x"[..],
        b"data: a longer tail that is not held at all, being long",
    ] {
        let mut p = Parser::new();
        p.feed(Bytes::from_static(b"data: a\n\ndata: ab"));
        assert_eq!(
            p.next_frame_ref().unwrap().map(|f| f.data().to_owned()),
            Some("a".into())
        );
        assert!(p.next_frame_ref().unwrap().is_none());
        p.feed(Bytes::from_static(b"cd\n\n"));
        assert_eq!(
            p.next_frame_ref().unwrap().map(|f| f.data().to_owned()),
            Some("abcd".into())
        );
        p.feed(Bytes::copy_from_slice(tail));
        assert!(p.next_frame_ref().unwrap().is_none());
        let e = p.finish().unwrap_err();
        assert_eq!(
            e.kind(),
            FrameErrorKind::TruncatedTail {
                len: tail.len() as u64
            }
        );
        assert_eq!(p.tally().truncated, tail.len() as u64);
    }
}
