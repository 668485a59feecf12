//! Helpers shared by the integration tests that declare `mod common;`: the
//! reference parser ([`oracle`]) and a driver that runs `ssekit::Parser` over
//! a chunked stream and records everything it reports.
#![allow(dead_code)]

#[path = "oracle.rs"]
pub(crate) mod oracle;

use bytes::Bytes;
use ssekit::{Frame, FrameError, Item, Parser, ParserConfig};

/// One thing the parser reported, in stream order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Report {
    /// `Ok(Some(item))` from `next_item`.
    Item(Item),
    /// An error from `next_item` or from `finish`.
    Error(FrameError),
}

/// When the driver takes output out of the parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Drain {
    /// After every `feed`, until `Ok(None)`; then `finish`, then drain again.
    EachChunk,
    /// Feed every chunk, call `finish` (so input is still queued), then drain.
    AtEnd,
}

/// Everything observable about one run of the parser over a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Run {
    /// Items and errors, in order; an error returned by `finish` itself is
    /// placed where it was returned, which is after every item either way.
    pub reports: Vec<Report>,
    /// `last_event_id()` at the end.
    pub last_event_id: String,
    /// `reconnection_time()` at the end.
    pub reconnection_time: Option<u64>,
    /// `offset()` at the end.
    pub offset: u64,
}

impl Run {
    /// The dispatched frames, without the errors.
    pub(crate) fn frames(&self) -> Vec<Frame> {
        self.reports
            .iter()
            .filter_map(|r| match r {
                Report::Item(Item::Frame(f)) => Some(f.clone()),
                _ => None,
            })
            .collect()
    }

    /// Frames and errors, in order: what a `next_frame` loop sees.
    pub(crate) fn frames_and_errors(&self) -> Vec<Result<Frame, FrameError>> {
        self.reports
            .iter()
            .filter_map(|r| match r {
                Report::Item(Item::Frame(f)) => Some(Ok(f.clone())),
                Report::Item(_) => None,
                Report::Error(e) => Some(Err(*e)),
            })
            .collect()
    }

    /// The errors alone.
    pub(crate) fn errors(&self) -> Vec<FrameError> {
        self.reports
            .iter()
            .filter_map(|r| match r {
                Report::Error(e) => Some(*e),
                Report::Item(_) => None,
            })
            .collect()
    }

    /// The `Item::Retry` values, in order.
    pub(crate) fn retries(&self) -> Vec<u64> {
        self.reports
            .iter()
            .filter_map(|r| match r {
                Report::Item(Item::Retry(ms)) => Some(*ms),
                _ => None,
            })
            .collect()
    }
}

/// `input` cut at `cuts` (sorted; repeats and the ends give empty chunks).
pub(crate) fn split_at(input: &Bytes, cuts: &[usize]) -> Vec<Bytes> {
    let mut chunks = Vec::with_capacity(cuts.len() + 1);
    let mut prev = 0;
    for &cut in cuts {
        assert!(
            prev <= cut && cut <= input.len(),
            "cuts must be sorted and in range"
        );
        chunks.push(input.slice(prev..cut));
        prev = cut;
    }
    chunks.push(input.slice(prev..));
    chunks
}

/// `input` in chunks of one byte.
pub(crate) fn bytewise(input: &Bytes) -> Vec<Bytes> {
    (0..input.len()).map(|i| input.slice(i..i + 1)).collect()
}

/// Takes items out of `parser` until it needs more input.
fn drain_items(parser: &mut Parser, reports: &mut Vec<Report>, budget: &mut usize) {
    loop {
        *budget = budget
            .checked_sub(1)
            .expect("the parser keeps reporting without progress");
        match parser.next_item() {
            Ok(Some(item)) => reports.push(Report::Item(item)),
            Ok(None) => return,
            Err(e) => reports.push(Report::Error(e)),
        }
    }
}

/// Runs a parser with `config` over `chunks`, using `next_item`.
pub(crate) fn run_items(config: ParserConfig, chunks: &[Bytes], drain: Drain) -> Run {
    let total: usize = chunks.iter().map(Bytes::len).sum();
    // Every report consumes at least one byte of input, the tail error aside.
    let mut budget = 2 * total + chunks.len() + 16;
    let mut parser = Parser::with_config(config);
    let mut reports = Vec::new();
    for chunk in chunks {
        parser.feed(chunk.clone());
        if drain == Drain::EachChunk {
            drain_items(&mut parser, &mut reports, &mut budget);
        }
    }
    if let Err(e) = parser.finish() {
        reports.push(Report::Error(e));
    }
    drain_items(&mut parser, &mut reports, &mut budget);
    // The end of the stream is reported once.
    assert_eq!(parser.finish(), Ok(()), "a second finish() reports nothing");
    assert_eq!(parser.next_item(), Ok(None), "nothing after the end");
    let scanned = parser.bytes_scanned();
    assert!(
        scanned <= total as u64,
        "scanned {scanned} bytes of {total}"
    );
    // Small reads are searched once more, on arrival: at most once each.
    let prescanned = parser.bytes_prescanned();
    assert!(
        prescanned <= total as u64,
        "searched {prescanned} bytes of {total} on arrival"
    );
    Run {
        reports,
        last_event_id: parser.last_event_id().to_owned(),
        reconnection_time: parser.reconnection_time(),
        offset: parser.offset(),
    }
}

/// Runs a parser with `config` over `chunks`, using `next_frame`; returns
/// the frames and errors in order.
pub(crate) fn run_frames(
    config: ParserConfig,
    chunks: &[Bytes],
    drain: Drain,
) -> Vec<Result<Frame, FrameError>> {
    run_frames_with(config, chunks, drain, Parser::next_frame)
}

/// [`run_frames`] through [`Parser::next_frame_ref`], each borrowed frame
/// copied into an owned one.
pub(crate) fn run_frames_ref(
    config: ParserConfig,
    chunks: &[Bytes],
    drain: Drain,
) -> Vec<Result<Frame, FrameError>> {
    run_frames_with(config, chunks, drain, |p| {
        p.next_frame_ref().map(|f| f.map(|f| f.to_frame()))
    })
}

fn run_frames_with(
    config: ParserConfig,
    chunks: &[Bytes],
    drain: Drain,
    mut next: impl FnMut(&mut Parser) -> Result<Option<Frame>, FrameError>,
) -> Vec<Result<Frame, FrameError>> {
    let total: usize = chunks.iter().map(Bytes::len).sum();
    let mut budget = 2 * total + chunks.len() + 16;
    let mut parser = Parser::with_config(config);
    let mut out = Vec::new();
    let mut drain_frames = |parser: &mut Parser, out: &mut Vec<_>| loop {
        budget = budget
            .checked_sub(1)
            .expect("the parser keeps reporting without progress");
        match next(parser) {
            Ok(Some(frame)) => out.push(Ok(frame)),
            Ok(None) => return,
            Err(e) => out.push(Err(e)),
        }
    };
    for chunk in chunks {
        parser.feed(chunk.clone());
        if drain == Drain::EachChunk {
            drain_frames(&mut parser, &mut out);
        }
    }
    if let Err(e) = parser.finish() {
        out.push(Err(e));
    }
    drain_frames(&mut parser, &mut out);
    out
}
