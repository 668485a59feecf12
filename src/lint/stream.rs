//! `StreamLinter`: bytes in, findings out (parses, tracks offsets, lints).

use bytes::Bytes;

use super::dialects::FrameLinter;
use super::linter::{LintConfig, ResponsesLinter};
use super::rule::{Finding, Severity};
use crate::frame::{Item, Parser, ParserConfig};

/// Lints a stream given as bytes: a [`Parser`] and a linter together, which
/// hands the linter each frame with the offset where its block begins. The
/// linter is the Responses API's [`ResponsesLinter`] unless another
/// [`FrameLinter`] is given ([`with_linter`](Self::with_linter): a
/// [`ChatLinter`](super::ChatLinter), [`AnthropicLinter`](super::AnthropicLinter),
/// [`GeminiLinter`](super::GeminiLinter), or
/// [`linter_for`](super::linter_for) a dialect known at run time).
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
/// The parser's ([`ParserConfig`]) and the linter's ([`LintConfig`]) caps.
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
pub struct StreamLinter<L = ResponsesLinter> {
    parser: Parser,
    linter: L,
    /// Bytes fed in all.
    fed: u64,
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
        StreamLinter::with_linter(parser, ResponsesLinter::with_config(lint))
    }
}

impl<L: FrameLinter> StreamLinter<L> {
    /// A stream linter that parses with `parser` and checks with `linter`.
    ///
    /// ```
    /// use ssekit::lint::{ChatLinter, Rule, StreamLinter};
    /// use ssekit::{Bytes, ParserConfig};
    ///
    /// let mut linter = StreamLinter::with_linter(ParserConfig::DEFAULT, ChatLinter::new());
    /// linter.feed(Bytes::from_static(b"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"));
    /// linter.finish();
    /// let found: Vec<Rule> = linter.drain().map(|f| f.rule()).collect();
    /// assert_eq!(found, [Rule::MissingTerminal]); // no `data: [DONE]`
    /// ```
    pub fn with_linter(parser: ParserConfig, linter: L) -> Self {
        Self {
            parser: Parser::with_config(parser),
            linter,
            fed: 0,
        }
    }

    /// Parses and lints the next chunk of the stream. Chunks may split
    /// anything anywhere.
    pub fn feed(&mut self, chunk: Bytes) {
        if chunk.is_empty() {
            return;
        }
        self.fed += chunk.len() as u64;
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
        self.linter.finish_at(self.fed);
    }

    /// The next finding not yet taken, oldest first.
    pub fn next_finding(&mut self) -> Option<Finding> {
        self.linter.next_finding()
    }

    /// Takes every finding not yet taken, oldest first.
    pub fn drain(&mut self) -> impl Iterator<Item = Finding> + '_ {
        core::iter::from_fn(move || self.linter.next_finding())
    }

    /// How many findings of this severity there were so far (see
    /// [`ResponsesLinter::count`]).
    pub fn count(&self, severity: Severity) -> u64 {
        self.linter.count(severity)
    }

    /// Whether any finding so far was an error.
    pub fn has_errors(&self) -> bool {
        self.linter.count(Severity::Error) > 0
    }

    fn drain_parser(&mut self) {
        loop {
            match self.parser.next_item() {
                Ok(Some(Item::Frame(frame))) => {
                    self.linter.feed(&frame, self.parser.frame_offset());
                }
                Ok(Some(_)) => {}
                Ok(None) => return,
                Err(e) => self.linter.frame_error(&e),
            }
        }
    }
}
