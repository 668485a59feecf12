//! What the readers' tests share: a writer that keeps the extras a reader
//! hands on, and a stream of `data:` frames.

use alloc::string::String;
use alloc::vec::Vec;

use bytes::Bytes;

use super::{Combine, Dialect, TurnError, TurnEvent, TurnWriter};
use crate::{Frame, Parser};

/// An extra as a reader handed it on: its item, key, JSON and how it
/// combines.
pub(crate) type Kept = (Option<u64>, String, String, Combine);

/// `(item, key, raw, how)` as a [`Kept`].
pub(crate) fn kept(item: Option<u64>, key: &str, raw: &str, how: Combine) -> Kept {
    (item, String::from(key), String::from(raw), how)
}

/// `(item, key, raw)` appended to what came before, or replacing it.
pub(crate) fn kept_appended(item: Option<u64>, key: &str, raw: &str, append: bool) -> Kept {
    let how = if append {
        Combine::Append
    } else {
        Combine::Replace
    };
    kept(item, key, raw, how)
}

/// Keeps the extras of one dialect (any other dialect's fails the test)
/// and counts the other events.
pub(crate) struct KeepExtras {
    dialect: Dialect,
    pub(crate) extras: Vec<Kept>,
    pub(crate) others: usize,
}

impl KeepExtras {
    pub(crate) fn new(dialect: Dialect) -> Self {
        Self {
            dialect,
            extras: Vec::new(),
            others: 0,
        }
    }

    /// The extras kept since the last call (one frame's, when called after
    /// each read).
    pub(crate) fn take_extras(&mut self) -> Vec<Kept> {
        core::mem::take(&mut self.extras)
    }
}

impl TurnWriter for KeepExtras {
    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        match event {
            TurnEvent::Extra(e) => {
                assert_eq!(e.dialect, self.dialect);
                self.extras
                    .push(kept(e.item, e.key, e.raw.get(), e.combine));
            }
            _ => self.others += 1,
        }
        Ok(())
    }
    fn wants_extras(&self) -> bool {
        true
    }
    fn fail(&mut self, _: &str, _: &str) {}
    fn take(&mut self) -> Bytes {
        Bytes::new()
    }
    fn is_finished(&self) -> bool {
        false
    }
}

/// Each of `events` as one `data:` frame.
pub(crate) fn frames(events: &[&str]) -> Vec<Frame> {
    let mut p = Parser::new();
    for e in events {
        p.feed(Bytes::from(alloc::format!("data: {e}\n\n")));
    }
    let mut out = Vec::new();
    while let Ok(Some(f)) = p.next_frame() {
        out.push(f);
    }
    assert_eq!(out.len(), events.len());
    out
}
