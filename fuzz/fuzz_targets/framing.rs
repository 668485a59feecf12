//! Fuzz target `framing`: the SSE frame parser (and its line splitter) must
//! give the same outcome however the stream is chunked, and agree with a
//! naive reference parser written for clarity, under default and small limits.
//!
//! Input layout (an input shorter than the header means "all defaults"):
//!
//! | bytes     | meaning                                                          |
//! | --------- | ---------------------------------------------------------------- |
//! | 0         | flags: bit 0 small `max_line_len`, bit 1 small `max_event_len`,  |
//! |           | bit 2 strict UTF-8, bit 3 limits x16, bit 4 chunk-pattern mode,   |
//! |           | bit 5 frames without raw bytes (`keep_raw` off)                   |
//! | 1         | `max_line_len` (when bit 0)                                      |
//! | 2         | `max_event_len` (when bit 1)                                     |
//! | 3         | `n = byte % 16`: how many split points follow                    |
//! | 4..4+2n   | split points, u16 little endian (positions modulo len + 1, or    |
//! |           | in pattern mode chunk sizes `v % 7 + 1`, cycled)                 |
//! | rest      | the SSE stream                                                   |
//!
//! Each stream is parsed whole, one byte at a time, at the split points and
//! in the chunk pattern, with `next_item` and with `next_frame`, draining
//! after every chunk or only after `finish`, and after a `reset` of a parser
//! left mid-stream. Every run must give the same items, errors (kind and
//! offset), `finish` result, `last_event_id` and `reconnection_time`; the
//! whole-stream run must equal the reference parser's. Every parser run
//! must account for every byte (`Parser::tally` adds up to the stream's
//! length, its truncated count is the reported tail, and it is the same
//! however the stream is chunked), and every frame's raw wire bytes
//! (`Frame::raw`) must parse again into the same frame.
#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use ssekit::framing::{LineSplitter, Step, BOM};
use ssekit::{Frame, FrameError, FrameErrorKind, Item, Parser, ParserConfig, Tally, Utf8Mode};

/// One outcome of `next_item` / `next_frame`, owned and comparable field by field.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ev {
    Frame {
        has_type: bool,
        event: String,
        data: String,
        id: String,
        retry: Option<u64>,
    },
    Retry(u64),
    LastEventId(Vec<u8>),
    Comment(Vec<u8>),
    /// An `Item` variant this harness does not know yet.
    Other(String),
    Error(FrameErrorKind, u64),
}

/// Everything observable about one parse of a stream.
#[derive(Debug)]
struct Trace {
    events: Vec<Ev>,
    finish: Result<(), Ev>,
    last_event_id: String,
    reconnection_time: Option<u64>,
    /// `Parser::tally` at the end (the reference parser keeps none).
    tally: Option<Tally>,
}

impl PartialEq for Trace {
    /// Tallies are compared when both runs kept one.
    fn eq(&self, other: &Self) -> bool {
        (
            &self.events,
            &self.finish,
            &self.last_event_id,
            self.reconnection_time,
        ) == (
            &other.events,
            &other.finish,
            &other.last_event_id,
            other.reconnection_time,
        ) && match (self.tally, other.tally) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        }
    }
}

/// A frame's raw wire bytes, when it has them, parse again (behind a blank
/// line, so that a leading U+FEFF is not a byte order mark) under the same
/// configuration into the same event type, data and retry.
fn check_raw(f: &Frame, cfg: ParserConfig) {
    let Some(raw) = f.raw() else { return };
    assert!(cfg.keep_raw, "raw bytes kept unasked");
    assert!(matches!(raw.last(), Some(b'\n' | b'\r')), "raw {raw:?}");
    let mut p = Parser::with_config(cfg);
    p.feed(Bytes::from_static(b"\n"));
    p.feed(raw.clone());
    let again = p
        .next_frame()
        .expect("raw bytes parse")
        .expect("raw bytes hold a frame");
    assert_eq!(
        (again.event(), again.data(), again.retry()),
        (f.event(), f.data(), f.retry()),
        "raw {raw:?}"
    );
    assert_eq!(again.raw(), Some(raw));
    assert_eq!(p.next_frame(), Ok(None));
    assert_eq!(p.finish(), Ok(()));
}

impl Trace {
    /// The events with the end-of-stream error, if any, appended: what a
    /// caller sees who drains only after `finish`.
    fn combined(&self) -> Vec<Ev> {
        let mut all = self.events.clone();
        if let Err(e) = &self.finish {
            all.push(e.clone());
        }
        all
    }
}

fn err(e: FrameError) -> Ev {
    Ev::Error(e.kind(), e.offset())
}

fn item(i: Item) -> Ev {
    match i {
        Item::Frame(f) => {
            assert_eq!(f.data_bytes().as_ref(), f.data().as_bytes());
            Ev::Frame {
                has_type: f.has_event_type(),
                event: f.event().into(),
                data: f.data().into(),
                id: f.id().into(),
                retry: f.retry(),
            }
        }
        Item::Retry(ms) => Ev::Retry(ms),
        Item::LastEventId(id) => Ev::LastEventId(id.to_vec()),
        Item::Comment(c) => Ev::Comment(c.to_vec()),
        other => Ev::Other(format!("{other:?}")),
    }
}

/// Takes everything the parser has for now. Every item or error stands for at
/// least one input byte, so more than `2 * total + 8` of them means a loop.
fn drain(p: &mut Parser, items: bool, out: &mut Vec<Ev>, total: usize) {
    let bound = 2 * total + 8;
    let mut n = 0;
    loop {
        n += 1;
        assert!(n <= bound, "parser keeps reporting without consuming input");
        let r = if items {
            p.next_item()
        } else {
            p.next_frame().map(|f| f.map(Item::Frame))
        };
        match r {
            Ok(Some(i)) => {
                if let Item::Frame(f) = &i {
                    check_raw(f, *p.config());
                }
                out.push(item(i))
            }
            Ok(None) => return,
            Err(e) => out.push(err(e)),
        }
    }
}

/// Feeds `chunks` and drains `next_frame_ref` after each, then finishes:
/// the borrowed frames (read as text through the `frame::text` module, which
/// reads checked text without a second check) and errors, in order.
fn run_refs(cfg: ParserConfig, chunks: &[&[u8]]) -> Vec<Ev> {
    let total: usize = chunks.iter().map(|c| c.len()).sum();
    let mut p = Parser::with_config(cfg);
    let mut out = Vec::new();
    let drain_refs = |p: &mut Parser, out: &mut Vec<Ev>| {
        for _ in 0..2 * total + 8 {
            match p.next_frame_ref() {
                Ok(Some(f)) => {
                    // Every text is read whole, as a client would.
                    let _ = (f.event().len(), f.data().chars().count(), f.id().len());
                    out.push(item(Item::Frame(f.to_frame())));
                }
                Ok(None) => return,
                Err(e) => out.push(err(e)),
            }
        }
        panic!("parser keeps reporting without consuming input");
    };
    for c in chunks {
        p.feed(Bytes::copy_from_slice(c));
        drain_refs(&mut p, &mut out);
    }
    if let Err(e) = p.finish() {
        out.push(err(e));
    }
    drain_refs(&mut p, &mut out);
    out
}

/// Feeds `chunks`, draining after each one (`drain_each`) or only after
/// `finish`, and returns what was observed.
fn run_on(p: &mut Parser, chunks: &[&[u8]], items: bool, drain_each: bool) -> Trace {
    let total: usize = chunks.iter().map(|c| c.len()).sum();
    let mut events = Vec::new();
    for c in chunks {
        p.feed(Bytes::copy_from_slice(c));
        if drain_each {
            drain(p, items, &mut events, total);
        }
    }
    let finish = p.finish().map_err(err);
    let mut after = Vec::new();
    drain(p, items, &mut after, total);
    if drain_each {
        // All input was parsed before `finish`, so it reported the end itself.
        assert!(after.is_empty(), "items after finish: {after:?}");
    } else {
        events.extend(after);
    }
    // The end-of-stream error is reported once.
    assert_eq!(p.finish(), Ok(()));
    assert_eq!(p.next_item(), Ok(None));
    assert_eq!(p.offset(), total as u64, "offset after the whole stream");
    assert!(
        p.bytes_scanned() <= total as u64,
        "line search examined a byte twice"
    );
    assert!(
        p.bytes_prescanned() <= total as u64,
        "a small read was searched twice on arrival"
    );
    // Every byte is accounted for, the truncated tail as reported.
    let tally = p.tally();
    assert_eq!(tally.total(), total as u64, "{tally:?}");
    let tail = finish
        .as_ref()
        .err()
        .into_iter()
        .chain(&events)
        .find_map(|e| match e {
            Ev::Error(FrameErrorKind::TruncatedTail { len }, _) => Some(*len),
            _ => None,
        });
    assert_eq!(tally.truncated, tail.unwrap_or(0), "{tally:?}");
    let dropping = events.iter().any(
        |e| matches!(e, Ev::Error(k, _) if !matches!(k, FrameErrorKind::TruncatedTail { .. })),
    );
    assert!(
        tally.dropped + tally.truncated > 0 || !dropping,
        "{tally:?}"
    );
    if !dropping {
        assert_eq!(tally.dropped, 0);
    }
    Trace {
        events,
        finish,
        last_event_id: p.last_event_id().into(),
        reconnection_time: p.reconnection_time(),
        tally: Some(tally),
    }
}

fn run(cfg: ParserConfig, chunks: &[&[u8]], items: bool, drain_each: bool) -> Trace {
    run_on(&mut Parser::with_config(cfg), chunks, items, drain_each)
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The WHATWG "interpreting an event stream" algorithm over the whole input,
/// written for clarity, plus ssekit's documented limits, strict UTF-8 mode
/// and end-of-stream report.
fn reference(input: &[u8], cfg: &ParserConfig) -> Trace {
    let strict = cfg.utf8 == Utf8Mode::Strict;
    let line_too_long = FrameErrorKind::LineTooLong {
        limit: cfg.max_line_len,
    };
    let mut events = Vec::new();
    let mut pos = if input.starts_with(&BOM) {
        BOM.len()
    } else {
        0
    };

    // The current block.
    let mut block_offset = 0u64;
    let mut block_fields = false; // had a non-comment line
    let mut skipping = false; // dropped after an error, up to the next blank line
    let mut data: Option<Vec<u8>> = None;
    let mut event: Vec<u8> = Vec::new();
    let mut retry: Option<u64> = None;
    let mut id_in_block = false;
    // Stream state.
    let mut id_buf = String::new();
    let mut last_id = String::new();
    let mut reconnection = None;

    let finish = loop {
        let Some(i) = input[pos..].iter().position(|&b| b == b'\r' || b == b'\n') else {
            // End of stream: an unterminated line, if any, is discarded.
            let tail_line = pos < input.len();
            // A stream that is only part of a BOM is held as a possible BOM, not as a line.
            let bom_prefix = !input.is_empty() && input.len() < BOM.len() && BOM.starts_with(input);
            if tail_line && !skipping && !bom_prefix && input.len() - pos > cfg.max_line_len {
                events.push(Ev::Error(line_too_long, pos as u64));
                skipping = true;
            }
            let start = if block_fields || skipping {
                Some(block_offset)
            } else if tail_line {
                Some(pos as u64)
            } else {
                None
            };
            break match start {
                Some(s) => Err(Ev::Error(
                    FrameErrorKind::TruncatedTail {
                        len: input.len() as u64 - s,
                    },
                    s,
                )),
                None => Ok(()),
            };
        };
        let i = pos + i;
        let line = &input[pos..i];
        let next = if input[i] == b'\r' && input.get(i + 1) == Some(&b'\n') {
            i + 2
        } else {
            i + 1
        };
        let line_start = pos as u64;
        let line_end = next as u64;
        pos = next;

        macro_rules! fail {
            ($kind:expr, $at:expr) => {{
                events.push(Ev::Error($kind, $at));
                data = None;
                event.clear();
                retry = None;
                id_in_block = false;
                skipping = true;
                continue;
            }};
        }

        if skipping {
            if line.is_empty() {
                skipping = false;
                last_id = id_buf.clone();
                data = None;
                event.clear();
                retry = None;
                id_in_block = false;
                block_offset = line_end;
                block_fields = false;
            }
            continue;
        }
        if line.len() > cfg.max_line_len {
            fail!(line_too_long, line_start);
        }
        if strict {
            if let Err(e) = core::str::from_utf8(line) {
                fail!(
                    FrameErrorKind::InvalidUtf8,
                    line_start + e.valid_up_to() as u64
                );
            }
        }
        if line.is_empty() {
            // Dispatch.
            last_id = id_buf.clone();
            let had_id = core::mem::replace(&mut id_in_block, false);
            let ev = core::mem::take(&mut event);
            let r = retry.take();
            block_offset = line_end;
            block_fields = false;
            match data.take() {
                None => {
                    if had_id {
                        events.push(Ev::LastEventId(last_id.clone().into_bytes()));
                    }
                }
                Some(d) => events.push(Ev::Frame {
                    has_type: !ev.is_empty(),
                    event: if ev.is_empty() {
                        "message".into()
                    } else {
                        lossy(&ev)
                    },
                    data: lossy(&d),
                    id: id_buf.clone(),
                    retry: r,
                }),
            }
            continue;
        }
        if line[0] == b':' {
            events.push(Ev::Comment(line[1..].to_vec()));
            continue;
        }
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(c) => {
                let v = &line[c + 1..];
                (&line[..c], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (line, &[][..]),
        };
        block_fields = true;
        match name {
            b"data" => {
                let new_len = match &data {
                    None => value.len(),
                    Some(d) => d.len() + 1 + value.len(),
                };
                if new_len > cfg.max_event_len {
                    fail!(
                        FrameErrorKind::EventTooLarge {
                            limit: cfg.max_event_len
                        },
                        block_offset
                    );
                }
                match &mut data {
                    None => data = Some(value.to_vec()),
                    Some(d) => {
                        d.push(b'\n');
                        d.extend_from_slice(value);
                    }
                }
            }
            b"event" => event = value.to_vec(),
            b"id" => {
                if !value.contains(&0) {
                    id_buf = lossy(value);
                    id_in_block = true;
                }
            }
            b"retry" => {
                if !value.is_empty() && value.iter().all(u8::is_ascii_digit) {
                    let ms = value.iter().fold(0u64, |n, d| {
                        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
                    });
                    reconnection = Some(ms);
                    retry = Some(ms);
                    events.push(Ev::Retry(ms));
                }
            }
            _ => {}
        }
    };
    Trace {
        events,
        finish,
        last_event_id: last_id,
        reconnection_time: reconnection,
        tally: None,
    }
}

/// The terminated lines of `input` (BOM stripped) and the unterminated rest.
fn reference_lines(input: &[u8]) -> (Vec<Vec<u8>>, Vec<u8>) {
    let mut pos = if input.starts_with(&BOM) {
        BOM.len()
    } else {
        0
    };
    let mut lines = Vec::new();
    while let Some(i) = input[pos..].iter().position(|&b| b == b'\r' || b == b'\n') {
        let i = pos + i;
        lines.push(input[pos..i].to_vec());
        pos = if input[i] == b'\r' && input.get(i + 1) == Some(&b'\n') {
            i + 2
        } else {
            i + 1
        };
    }
    (lines, input[pos..].to_vec())
}

/// The lines the no-alloc splitter finds in `chunks`, and what it has pending.
fn splitter_lines(chunks: &[&[u8]]) -> (Vec<Vec<u8>>, Vec<u8>) {
    let total: usize = chunks.iter().map(|c| c.len()).sum();
    let mut s = LineSplitter::new();
    let mut lines = Vec::new();
    let mut cur = Vec::new();
    let mut steps = 0;
    for c in chunks {
        let mut rest: &[u8] = c;
        loop {
            steps += 1;
            assert!(
                steps <= 2 * total + 2 * chunks.len() + 8,
                "splitter makes no progress"
            );
            match s.next_line(rest) {
                Step::Replay(held) => {
                    assert!(!held.is_empty() && cur.is_empty());
                    cur.extend_from_slice(held);
                }
                Step::Partial { start } => {
                    cur.extend_from_slice(&rest[start..]);
                    break;
                }
                Step::Line { start, end, next } => {
                    assert!(start <= end && end < next && next <= rest.len());
                    cur.extend_from_slice(&rest[start..end]);
                    lines.push(core::mem::take(&mut cur));
                    rest = &rest[next..];
                    if rest.is_empty() {
                        break;
                    }
                }
            }
        }
    }
    assert!(s.scanned() <= total as u64);
    let mut pending = s.held().to_vec();
    pending.extend_from_slice(&cur);
    (lines, pending)
}

struct Input<'a> {
    cfg: ParserConfig,
    splits: Vec<usize>,
    pattern: bool,
    stream: &'a [u8],
}

fn parse_input(data: &[u8]) -> Input<'_> {
    let mut cfg = ParserConfig::default().with_raw(true);
    if data.len() < 4 {
        return Input {
            cfg,
            splits: Vec::new(),
            pattern: false,
            stream: data,
        };
    }
    let (flags, line_lim, event_lim) = (data[0], data[1], data[2]);
    let n = usize::from(data[3] % 16).min((data.len() - 4) / 2);
    let scale = if flags & 8 != 0 { 16 } else { 1 };
    if flags & 1 != 0 {
        cfg.max_line_len = usize::from(line_lim) * scale;
    }
    if flags & 2 != 0 {
        cfg.max_event_len = usize::from(event_lim) * scale;
    }
    if flags & 4 != 0 {
        cfg.utf8 = Utf8Mode::Strict;
    }
    if flags & 32 != 0 {
        cfg.keep_raw = false;
    }
    let splits = data[4..4 + 2 * n]
        .chunks_exact(2)
        .map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])))
        .collect();
    Input {
        cfg,
        splits,
        pattern: flags & 16 != 0,
        stream: &data[4 + 2 * n..],
    }
}

fn chunk_at<'a>(stream: &'a [u8], splits: &[usize]) -> Vec<&'a [u8]> {
    let mut at: Vec<usize> = splits.iter().map(|s| s % (stream.len() + 1)).collect();
    at.sort_unstable();
    let mut chunks = Vec::new();
    let mut prev = 0;
    for a in at {
        chunks.push(&stream[prev..a]); // empty chunks too: feeding one must change nothing
        prev = a;
    }
    chunks.push(&stream[prev..]);
    chunks
}

fn chunk_pattern<'a>(stream: &'a [u8], sizes: &[usize]) -> Vec<&'a [u8]> {
    let sizes: Vec<usize> = if sizes.is_empty() {
        vec![2]
    } else {
        sizes.iter().map(|s| s % 7 + 1).collect()
    };
    let mut chunks = Vec::new();
    let mut rest = stream;
    for size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (head, tail) = rest.split_at((*size).min(rest.len()));
        chunks.push(head);
        rest = tail;
    }
    chunks
}

fuzz_target!(|data: &[u8]| {
    let Input {
        cfg,
        splits,
        pattern,
        stream,
    } = parse_input(data);

    let whole: Vec<&[u8]> = vec![stream];
    let bytes: Vec<&[u8]> = stream.chunks(1).collect();
    let chunks = if pattern {
        chunk_pattern(stream, &splits)
    } else {
        chunk_at(stream, &splits)
    };

    // The oracle.
    let expected = run(cfg, &whole, true, true);
    assert_eq!(
        expected,
        reference(stream, &cfg),
        "whole stream vs reference parser"
    );

    // Chunking invariance, draining after every chunk.
    assert_eq!(
        run(cfg, &bytes, true, true),
        expected,
        "1-byte chunks vs whole"
    );
    assert_eq!(
        run(cfg, &chunks, true, true),
        expected,
        "chunks {chunks:?} vs whole"
    );

    // Draining only after `finish`: the end-of-stream error moves into the sequence.
    let undrained = run(cfg, &chunks, true, false);
    assert_eq!(undrained.finish, Ok(()));
    assert_eq!(
        undrained.events,
        expected.combined(),
        "undrained chunks vs whole"
    );
    assert_eq!(
        (&undrained.last_event_id, undrained.reconnection_time),
        (&expected.last_event_id, expected.reconnection_time)
    );

    // `next_frame` reports exactly the frames and errors of `next_item`.
    let frames_only: Vec<Ev> = expected
        .events
        .iter()
        .filter(|e| matches!(e, Ev::Frame { .. } | Ev::Error(..)))
        .cloned()
        .collect();
    let with_finish: Vec<Ev> = frames_only
        .iter()
        .cloned()
        .chain(expected.finish.clone().err())
        .collect();
    for c in [&whole, &chunks, &bytes] {
        assert_eq!(run_refs(cfg, c), with_finish, "next_frame_ref vs next_item");
    }
    for c in [&whole, &chunks] {
        let t = run(cfg, c, false, true);
        assert_eq!(t.events, frames_only, "next_frame vs next_item");
        assert_eq!(
            (&t.finish, &t.last_event_id, t.reconnection_time),
            (
                &expected.finish,
                &expected.last_event_id,
                expected.reconnection_time
            )
        );
    }

    // `reset` of a parser left mid-stream gives a fresh parser.
    let mut p = Parser::with_config(cfg);
    for c in chunks.iter().take(chunks.len() / 2 + 1) {
        p.feed(Bytes::copy_from_slice(c));
        drain(&mut p, true, &mut Vec::new(), stream.len());
    }
    p.reset();
    assert_eq!(run_on(&mut p, &chunks, true, true), expected, "after reset");

    // The line splitter alone.
    let lines = reference_lines(stream);
    assert_eq!(splitter_lines(&whole), lines, "splitter, whole");
    assert_eq!(splitter_lines(&bytes), lines, "splitter, 1-byte chunks");
    assert_eq!(splitter_lines(&chunks), lines, "splitter, chunks");
});
