//! The hold of the sequential writers: a dialect whose items cannot
//! interleave (Anthropic content blocks, Responses items as the writer
//! writes them) gets one item at a time. Fragments of an item that opened
//! while another is open are held, copied once, until the open one ends;
//! then the held item is replayed, and what it gets afterwards passes
//! straight through. The one place a fragment does not leave in the push
//! that brought it.

use alloc::collections::{BTreeMap, VecDeque};
use alloc::string::String;
use alloc::vec::Vec;

use super::{DeltaKind, ItemKind, TurnError, TurnErrorKind, TurnEvent};
use crate::json::{JsonStr, RawJson};

/// A held event; its strings are ranges of `Hold::text`, quoted.
#[derive(Debug, Clone, Copy)]
enum Held {
    Start {
        index: u64,
        kind: HeldKind,
    },
    Delta {
        index: u64,
        kind: DeltaKind,
        part: u32,
        text: Span,
    },
    End {
        index: u64,
    },
}

impl Held {
    fn index(&self) -> u64 {
        match *self {
            Held::Start { index, .. } | Held::Delta { index, .. } | Held::End { index } => index,
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum HeldKind {
    Message,
    Reasoning,
    Refusal,
    ToolCall {
        call_id: Option<Span>,
        name: Option<Span>,
    },
    Other {
        dialect: super::Dialect,
        ty: Span,
        raw: Option<Span>,
    },
}

#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    escaped: bool,
}

/// Orders interleaved items one after another for a sequential writer.
///
/// Work is linear: each held event is copied once and replayed once; the
/// events of one item are chained (`next`), so that replaying an item
/// walks its own events only, and the waiting items are found by index in
/// a map.
#[derive(Debug, Default)]
pub(crate) struct Hold {
    /// The item passing through.
    current: Option<u64>,
    /// Items waiting, in the order they opened.
    order: VecDeque<u64>,
    /// Each waiting item's first and last held event (positions in `held`).
    waiting: BTreeMap<u64, (usize, usize)>,
    /// Held events, each with the position of its item's next one
    /// (`usize::MAX` for none).
    held: Vec<(Held, usize)>,
    text: String,
    max: usize,
}

impl Hold {
    pub(crate) fn new(max: usize) -> Self {
        Self {
            max,
            ..Self::default()
        }
    }

    /// Whether item `index` is waiting.
    fn is_waiting(&self, index: u64) -> bool {
        self.waiting.contains_key(&index)
    }

    /// Holds `h`, chained after its item's last event.
    fn push(&mut self, h: Held) {
        let at = self.held.len();
        self.held.push((h, usize::MAX));
        let index = h.index();
        match self.waiting.get_mut(&index) {
            Some((_, last)) => {
                let prev = core::mem::replace(last, at);
                if let Some(p) = self.held.get_mut(prev) {
                    p.1 = at;
                }
            }
            None => {
                self.waiting.insert(index, (at, at));
                self.order.push_back(index);
            }
        }
    }

    fn span(&mut self, s: JsonStr<'_>) -> Result<Span, TurnError> {
        let need = s.raw().len() + 2;
        if self.text.len().saturating_add(need) > self.max {
            return Err(TurnError::new(
                TurnErrorKind::HoldExceeded { limit: self.max },
                0,
            ));
        }
        let start = self.text.len();
        self.text.push('"');
        self.text.push_str(s.raw());
        self.text.push('"');
        Ok(Span {
            start,
            end: self.text.len(),
            escaped: s.has_escapes(),
        })
    }

    fn plain(&mut self, s: &str) -> Result<Span, TurnError> {
        if self.text.len().saturating_add(s.len()) > self.max {
            return Err(TurnError::new(
                TurnErrorKind::HoldExceeded { limit: self.max },
                0,
            ));
        }
        let start = self.text.len();
        self.text.push_str(s);
        Ok(Span {
            start,
            end: self.text.len(),
            escaped: false,
        })
    }

    fn str(text: &str, span: Span) -> JsonStr<'_> {
        JsonStr::new(&text[span.start..span.end], span.escaped)
    }

    /// Passes `event` to `out`, or holds it; replays what waited when the
    /// item passing through ends.
    pub(crate) fn event<F>(&mut self, event: &TurnEvent<'_>, out: &mut F) -> Result<(), TurnError>
    where
        F: FnMut(&TurnEvent<'_>) -> Result<(), TurnError>,
    {
        match *event {
            TurnEvent::ItemStart { index, item } => {
                if self.current.is_none() && self.order.is_empty() {
                    self.current = Some(index);
                    return out(event);
                }
                let kind = match item {
                    ItemKind::Message => HeldKind::Message,
                    ItemKind::Reasoning => HeldKind::Reasoning,
                    ItemKind::Refusal => HeldKind::Refusal,
                    ItemKind::ToolCall { call_id, name } => HeldKind::ToolCall {
                        call_id: call_id.map(|s| self.span(s)).transpose()?,
                        name: name.map(|s| self.span(s)).transpose()?,
                    },
                    ItemKind::Other { dialect, ty, raw } => HeldKind::Other {
                        dialect,
                        ty: self.plain(ty)?,
                        raw: raw.map(|r| self.plain(r.get())).transpose()?,
                    },
                };
                self.push(Held::Start { index, kind });
                Ok(())
            }
            TurnEvent::Delta {
                index,
                kind,
                part,
                text,
            } if self.is_waiting(index) => {
                let text = self.span(text)?;
                self.push(Held::Delta {
                    index,
                    kind,
                    part,
                    text,
                });
                Ok(())
            }
            TurnEvent::ItemEnd { index, .. } if self.is_waiting(index) => {
                self.push(Held::End { index });
                Ok(())
            }
            TurnEvent::ItemEnd { index, .. } if self.current == Some(index) => {
                out(event)?;
                self.current = None;
                self.replay(out)
            }
            TurnEvent::End | TurnEvent::Stop(_) => {
                // Whatever waits is replayed before the turn ends (the
                // writer closes an item left open).
                while !self.order.is_empty() {
                    if let Some(index) = self.current.take() {
                        out(&TurnEvent::ItemEnd { index, whole: None })?;
                    }
                    self.replay(out)?;
                }
                out(event)
            }
            TurnEvent::Error(_) => {
                self.order.clear();
                self.waiting.clear();
                self.held.clear();
                self.text.clear();
                out(event)
            }
            _ => out(event),
        }
    }

    /// Replays waiting items, first opened first, until one stays open.
    fn replay<F>(&mut self, out: &mut F) -> Result<(), TurnError>
    where
        F: FnMut(&TurnEvent<'_>) -> Result<(), TurnError>,
    {
        while self.current.is_none() {
            let Some(index) = self.order.pop_front() else {
                break;
            };
            let Some((first, _)) = self.waiting.remove(&index) else {
                continue;
            };
            self.current = Some(index);
            let mut at = first;
            while let Some(&(h, next)) = self.held.get(at) {
                let text = &self.text;
                let s = |span| Hold::str(text, span);
                let event = match h {
                    Held::Start { index, kind } => TurnEvent::ItemStart {
                        index,
                        item: match kind {
                            HeldKind::Message => ItemKind::Message,
                            HeldKind::Reasoning => ItemKind::Reasoning,
                            HeldKind::Refusal => ItemKind::Refusal,
                            HeldKind::ToolCall { call_id, name } => ItemKind::ToolCall {
                                call_id: call_id.map(s),
                                name: name.map(s),
                            },
                            HeldKind::Other { dialect, ty, raw } => ItemKind::Other {
                                dialect,
                                ty: &text[ty.start..ty.end],
                                // Held as the reader gave it: one JSON value.
                                raw: raw.map(|r| RawJson::new(&text[r.start..r.end])),
                            },
                        },
                    },
                    Held::Delta {
                        index,
                        kind,
                        part,
                        text,
                    } => TurnEvent::Delta {
                        index,
                        kind,
                        part,
                        text: s(text),
                    },
                    Held::End { index } => {
                        self.current = None;
                        TurnEvent::ItemEnd { index, whole: None }
                    }
                };
                out(&event)?;
                at = next;
            }
        }
        if self.order.is_empty() {
            // Nothing waits: the held text and events are spent.
            self.held.clear();
            self.text.clear();
        }
        Ok(())
    }
}
