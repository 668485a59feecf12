//! `Tally`: where every parsed byte of a stream went.

/// Where the bytes of a stream went, by category: see
/// [`Parser::tally`](crate::Parser::tally).
///
/// Each byte the parser has consumed is counted in exactly one field, so the
/// fields add up to the bytes parsed ([`total`](Self::total)); once the
/// stream is [finished](crate::Parser::finish) and drained, to the whole
/// stream. Bytes are counted when the block they belong to ends (at its blank
/// line, or at the end of the stream), because only then is it known what the
/// block was; the lines of a block still open are in no field yet.
///
/// A block's bytes run from the end of the previous block (so a byte order
/// mark goes with the first block) through the terminator of the blank line
/// that ends it, a CRLF whose LF came in the next chunk included. The counts
/// are the same however the stream is chunked.
///
/// ```
/// use bytes::Bytes;
/// use ssekit::Parser;
///
/// let mut parser = Parser::new();
/// parser.feed(Bytes::from_static(b": ping\n\ndata: hi\nx: y\n\nid: 1\n\ndata: cut"));
/// while parser.next_frame()?.is_some() {}
/// assert!(parser.finish().is_err()); // "data: cut" is a truncated tail
/// let tally = parser.tally();
/// assert_eq!((tally.comments, tally.dispatched, tally.ignored), (7, 15, 8));
/// assert_eq!(tally.truncated, 9);
/// assert_eq!(tally.total(), 39);
/// # Ok::<(), ssekit::FrameError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Tally {
    /// Bytes of blocks that dispatched a frame: their field lines (known or
    /// not) and blank line, terminators included, but not their comments.
    pub dispatched: u64,
    /// Bytes of comment lines (the colon, the text and the terminator) in
    /// blocks that ended normally, dispatching or not, and at the end of the
    /// stream outside a truncated tail.
    pub comments: u64,
    /// Bytes of blocks that ended without dispatching (blank lines, blocks
    /// with only `id`, `retry` or unknown fields, or without `data`) and, at
    /// the end of the stream, what follows the last block without being a
    /// truncated tail (comments aside). Their comments are counted in
    /// [`comments`](Self::comments).
    pub ignored: u64,
    /// Bytes of blocks dropped after an error (a configured limit, or
    /// invalid UTF-8 in strict mode): the whole block, comments included,
    /// through the blank line at which the parser resumed.
    pub dropped: u64,
    /// Bytes of the truncated tail that [`finish`](crate::Parser::finish)
    /// reported ([`TruncatedTail`](crate::FrameErrorKind::TruncatedTail)'s
    /// `len`), once the stream is finished and drained.
    pub truncated: u64,
}

impl Tally {
    /// The sum of all fields: every byte counted so far.
    pub fn total(&self) -> u64 {
        self.dispatched + self.comments + self.ignored + self.dropped + self.truncated
    }
}
