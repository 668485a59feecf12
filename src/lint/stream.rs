//! `StreamLinter`: bytes in, findings out (parses, tracks offsets, lints).

use alloc::collections::VecDeque;
use alloc::vec::Vec;
use bytes::Bytes;

use super::linter::{LintConfig, Linter};
use super::rule::{Finding, Severity};
use crate::frame::{Item, Parser, ParserConfig};
use crate::framing::BOM;

/// Lints a Responses API stream given as bytes: a [`Parser`] and a
/// [`Linter`] together, which hands the linter each frame with the offset
/// where its block begins.
///
/// Feed the chunks as they arrive ([`feed`](Self::feed)), call
/// [`finish`](Self::finish) at the end, and take the findings out between
/// ([`next_finding`](Self::next_finding), [`drain`](Self::drain)). The
/// findings are the same however the input is chunked.
///
/// An event's offset is that of the first line of its block: the lines
/// since the blank line before it (comment lines included), as the SSE
/// specification groups them.
///
/// # Memory
///
/// The parser's ([`ParserConfig`]) and the linter's ([`LintConfig`]) caps,
/// plus handles to the chunks fed since the parser last reported an item
/// (which the parser holds anyway).
///
/// ```
/// use ssekit::lint::{Rule, StreamLinter};
/// use ssekit::Bytes;
///
/// let mut linter = StreamLinter::new();
/// linter.feed(Bytes::from_static(b"event: response.created\ndata: {\"type\":\"response.cre"));
/// linter.feed(Bytes::from_static(b"ated\",\"response\":{\"id\":\"r\"},\"sequence_number\":0}\n\n"));
/// linter.finish();
/// let found: Vec<_> = linter.drain().map(|f| (f.rule(), f.offset())).collect();
/// assert_eq!(found, [(Rule::MissingTerminal, 101)]); // at the end of the stream
/// ```
#[derive(Debug)]
pub struct StreamLinter {
    parser: Parser,
    linter: Linter,
    blocks: Blocks,
}

/// Finds where blocks begin: scans the bytes the parser has parsed, once,
/// line by line, keeping handles to the chunks not yet scanned.
#[derive(Debug, Default)]
struct Blocks {
    /// Chunks fed and not wholly scanned, with the offset of each one's start.
    chunks: VecDeque<(u64, Bytes)>,
    /// Bytes fed in all.
    fed: u64,
    /// Scanned up to here.
    pos: u64,
    at_line_start: bool,
    /// The last byte scanned was a CR ending a line: an LF next is part of it.
    after_cr: bool,
    /// How many bytes of a byte order mark began the stream (3: all of it;
    /// `None`: there is none, or it is over).
    bom: Option<u8>,
    /// Start of the first line of the block being scanned, if it has one.
    block: Option<u64>,
    /// Start of the last block a blank line ended.
    ended: u64,
}

impl Blocks {
    fn new() -> Self {
        Self {
            at_line_start: true,
            bom: Some(0),
            ..Self::default()
        }
    }

    fn feed(&mut self, chunk: Bytes) {
        self.chunks.push_back((self.fed, chunk.clone()));
        self.fed += chunk.len() as u64;
    }

    /// Scans up to `to` (at most the bytes fed), and drops the chunks
    /// wholly scanned. Linear in the bytes scanned.
    fn scan_to(&mut self, to: u64) {
        while self.pos < to {
            let Some((start, chunk)) = self.chunks.front() else {
                return;
            };
            let (start, chunk) = (*start, chunk.clone());
            let end = start + chunk.len() as u64;
            if self.pos >= end {
                self.chunks.pop_front();
                continue;
            }
            let stop = (to.min(end) - start) as usize;
            let mut i = (self.pos - start) as usize;
            while i < stop {
                let b = chunk[i];
                let at = start + i as u64;
                i += 1;
                if let Some(n) = self.bom {
                    if at < 3 && b == BOM[n as usize] {
                        self.bom = Some(n + 1);
                        continue;
                    }
                    self.bom = None;
                    if n > 0 && n < 3 {
                        // Not a BOM after all: its bytes began the first line.
                        self.block = Some(0);
                        self.at_line_start = false;
                    }
                }
                if core::mem::take(&mut self.after_cr) && b == b'\n' {
                    continue;
                }
                match b {
                    b'\n' | b'\r' => {
                        if self.at_line_start {
                            if let Some(block) = self.block.take() {
                                self.ended = block;
                            }
                        }
                        self.at_line_start = true;
                        self.after_cr = b == b'\r';
                    }
                    _ => {
                        if self.at_line_start && self.block.is_none() {
                            self.block = Some(at);
                        }
                        self.at_line_start = false;
                        // The rest of the line.
                        i = memchr::memchr2(b'\n', b'\r', &chunk[i..stop]).map_or(stop, |k| i + k);
                    }
                }
            }
            self.pos = start + stop as u64;
        }
    }
}

impl Default for StreamLinter {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamLinter {
    /// A stream linter with the default parser and linter configurations.
    pub fn new() -> Self {
        Self::with_config(ParserConfig::DEFAULT, LintConfig::DEFAULT)
    }

    /// A stream linter with these configurations.
    pub fn with_config(parser: ParserConfig, lint: LintConfig) -> Self {
        Self {
            parser: Parser::with_config(parser),
            linter: Linter::with_config(lint),
            blocks: Blocks::new(),
        }
    }

    /// Parses and lints the next chunk of the stream. Chunks may split
    /// anything anywhere.
    pub fn feed(&mut self, chunk: Bytes) {
        if chunk.is_empty() {
            return;
        }
        self.blocks.feed(chunk.clone());
        self.parser.feed(chunk);
        self.drain_parser();
    }

    /// Marks the end of the stream: reports a truncated tail and runs the
    /// end-of-stream checks, at the offset of the stream's end. Calling it
    /// again does nothing.
    pub fn finish(&mut self) {
        if let Err(e) = self.parser.finish() {
            self.linter.frame_error(&e);
        }
        self.drain_parser();
        self.linter.finish_at(self.blocks.fed);
        self.blocks.chunks.clear();
    }

    /// The next finding not yet taken, oldest first.
    pub fn next_finding(&mut self) -> Option<Finding> {
        self.linter.next_finding()
    }

    /// Takes every finding not yet taken, oldest first.
    pub fn drain(&mut self) -> impl Iterator<Item = Finding> + '_ {
        self.linter.drain()
    }

    /// How many findings of this severity there were so far (see
    /// [`Linter::count`]).
    pub fn count(&self, severity: Severity) -> u64 {
        self.linter.count(severity)
    }

    /// Whether any finding so far was an error.
    pub fn has_errors(&self) -> bool {
        self.linter.has_errors()
    }

    fn drain_parser(&mut self) {
        loop {
            let item = self.parser.next_item();
            // Items are reported at line ends: the scan stays on lines.
            self.blocks.scan_to(self.parser.offset());
            match item {
                // The blank line that dispatched the frame ended its block.
                Ok(Some(Item::Frame(frame))) => self.linter.feed(&frame, self.blocks.ended),
                Ok(Some(_)) => {}
                Ok(None) => return,
                Err(e) => self.linter.frame_error(&e),
            }
        }
    }
}

/// Lints a whole Responses API stream held in memory, and returns every
/// finding in stream order. See [`has_errors`](super::has_errors).
///
/// ```
/// let stream = b"data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\ndata: [DONE]\n\n";
/// let findings = ssekit::lint::lint_bytes(stream);
/// let rules: Vec<&str> = findings.iter().map(|f| f.rule().id()).collect();
/// assert_eq!(rules, ["missing-sequence-number", "done-sentinel", "missing-terminal"]);
/// assert!(ssekit::lint::has_errors(&findings));
/// ```
pub fn lint_bytes(input: &[u8]) -> Vec<Finding> {
    let mut linter = StreamLinter::new();
    linter.feed(Bytes::copy_from_slice(input));
    linter.finish();
    linter.drain().collect()
}
