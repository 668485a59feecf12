//! The parser's state that several paths change, grouped so that each rule
//! about it is kept in one place: the byte accounting behind [`Tally`]
//! ([`Accounts`]), and the skip state and data length of the open block
//! with the hold budget they decide ([`Intake`]).
//!
//! Both keep their fields private: every path changes them through the
//! methods here, so a rule that ties two fields together (a block's comment
//! bytes and its end; the data length and the hold budget) cannot be
//! forgotten by one path.

use super::config::{ParserConfig, Utf8Mode};
use super::hold::MAX_HELD;
use super::tally::Tally;

/// What the bytes of an ended block are counted as (an index of
/// [`Accounts`]' counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Settle {
    Dispatched,
    Ignored,
    Dropped,
    /// Not a kind of block: the comment lines of dispatched and ignored
    /// blocks.
    Comments,
}

/// Where the bytes parsed so far went (see [`Tally`]). Bytes are counted
/// when their block ends, by [`end_block`](Self::end_block), the one place
/// that counts a block: every path that ends a block (the line path at a
/// blank line, the whole-event paths) calls it.
#[derive(Debug)]
pub(super) struct Accounts {
    /// Indexed by [`Settle`].
    counts: [u64; 4],
    /// Stream offset up to which bytes are counted.
    settled: u64,
    /// What the block that ended at `settled` was counted as.
    last_settle: Settle,
    /// Bytes of the comment lines of the open block (counted as comments
    /// when it ends, with the block when it is dropped).
    comments: u64,
    /// Stream offset just past the last comment line.
    last_comment_end: u64,
}

impl Accounts {
    pub(super) const fn new() -> Self {
        Self {
            counts: [0; 4],
            settled: 0,
            last_settle: Settle::Ignored,
            comments: 0,
            last_comment_end: 0,
        }
    }

    /// Comment lines of the open block, `bytes` long in all (terminators
    /// included), the last of which ends at stream offset `end`.
    #[inline(always)]
    pub(super) fn comments(&mut self, bytes: u64, end: u64) {
        self.comments += bytes;
        self.last_comment_end = end;
    }

    /// The open block is dropped after an error: its comment lines are
    /// counted with it (as dropped), not as comments.
    pub(super) fn drop_comments(&mut self) {
        self.comments = 0;
    }

    /// Ends the open block at `line_end` (past its blank line): its bytes,
    /// from the end of the last block on, are counted as `settle` says,
    /// but for its comment lines, which are counted as comments.
    #[inline(always)]
    pub(super) fn end_block(&mut self, line_end: u64, settle: Settle) {
        let comments = core::mem::take(&mut self.comments);
        self.counts[settle as usize] += line_end - self.settled - comments;
        self.counts[Settle::Comments as usize] += comments;
        self.settled = line_end;
        self.last_settle = settle;
    }

    /// The LF at stream offset `at` completes a CR that ended the last
    /// chunk: it belongs to that line, so it is counted as the line was.
    /// (If you change how lines are counted, change this too: it is the one
    /// byte counted after its line.)
    pub(super) fn late_lf(&mut self, at: u64) {
        if self.settled == at {
            // The CR was a blank line that ended a block.
            self.settled += 1;
            self.counts[self.last_settle as usize] += 1;
        } else if self.last_comment_end == at {
            self.comments += 1;
            self.last_comment_end += 1;
        }
        // Otherwise it ends a field line of the open block, whose bytes are
        // counted with the block.
    }

    /// The tally: the counts, and at the end of a finished stream (`end`:
    /// its length) the rest, with the truncated tail (`tail`: where it
    /// starts, and whether it is the whole open block).
    pub(super) fn tally(&self, end: Option<(u64, Option<(u64, bool)>)>) -> Tally {
        let [dispatched, ignored, dropped, comments] = self.counts;
        let mut t = Tally {
            dispatched,
            comments,
            ignored,
            dropped,
            truncated: 0,
        };
        let Some((end, tail)) = end else {
            return t;
        };
        let comments = self.comments;
        match tail {
            // The tail is the whole open block, its comments included.
            Some((start, true)) => {
                t.ignored += start - self.settled;
                t.truncated += end - start;
            }
            // An unfinished line after the block's comments.
            Some((start, false)) => {
                t.comments += comments;
                t.ignored += start - self.settled - comments;
                t.truncated += end - start;
            }
            None => {
                t.comments += comments;
                t.ignored += end - self.settled - comments;
            }
        }
        t
    }
}

/// Lines being discarded after an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Skip {
    No,
    /// The rest of the current (too long) line, then the rest of its block.
    Line,
    /// Lines up to the next blank line.
    Block,
}

/// What decides how many bytes of small reads may be held (see `hold`):
/// the skip state, the data length of the open block, whether items are
/// reported, and the configuration. The budget, [`hold_max`](Self::hold_max),
/// is derived from them whenever one changes, here, so `feed` reads one
/// field and no path has to remember to lower it.
#[derive(Debug)]
pub(super) struct Intake {
    skip: Skip,
    /// Bytes of data in the open block (joined with LFs).
    data_len: usize,
    /// Items are reported (`Parser::next_item` was called).
    items: bool,
    /// Held bytes allowed by the configuration: `0` in strict UTF-8 mode,
    /// else `min(MAX_HELD, max_line_len)`.
    cap: usize,
    max_event_len: usize,
    /// Always `hold_limit()` of the fields above.
    hold_max: usize,
}

impl Intake {
    pub(super) fn new(config: &ParserConfig) -> Self {
        let cap = if config.utf8 == Utf8Mode::Replace {
            MAX_HELD.min(config.max_line_len)
        } else {
            0
        };
        let mut intake = Self {
            skip: Skip::No,
            data_len: 0,
            items: false,
            cap,
            max_event_len: config.max_event_len,
            hold_max: 0,
        };
        intake.derive();
        intake
    }

    /// The most bytes of small reads that may be held now (`0`: none).
    /// Holding must not delay anything the parser reports, so nothing is
    /// held when items are reported line by line, in strict UTF-8 mode, or
    /// after an error (lines are being skipped), and never as many bytes as
    /// could reach a limit.
    #[inline(always)]
    pub(super) fn hold_max(&self) -> usize {
        self.hold_max
    }

    #[inline(always)]
    fn derive(&mut self) {
        self.hold_max = if self.skip == Skip::No && !self.items {
            self.cap
                .min(self.max_event_len.saturating_sub(self.data_len))
        } else {
            0
        };
    }

    #[inline(always)]
    pub(super) fn skip(&self) -> Skip {
        self.skip
    }

    #[inline]
    pub(super) fn set_skip(&mut self, skip: Skip) {
        self.skip = skip;
        self.derive();
    }

    #[inline(always)]
    pub(super) fn data_len(&self) -> usize {
        self.data_len
    }

    #[inline]
    pub(super) fn set_data_len(&mut self, len: usize) {
        self.data_len = len;
        self.derive();
    }

    /// Items are reported from now on: nothing more is held.
    pub(super) fn report_items(&mut self) {
        self.items = true;
        self.derive();
    }

    /// Whether items are reported.
    pub(super) fn items(&self) -> bool {
        self.items
    }
}
