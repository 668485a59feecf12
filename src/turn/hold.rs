//! The hold of the sequential writers: a dialect whose items cannot
//! interleave (Anthropic content blocks, Responses items as the writer
//! writes them) gets one item at a time. Fragments of an item that opened
//! while another is open are held, copied once, until the open one ends;
//! then the held item is replayed, and what it gets afterwards passes
//! straight through. The one place a fragment does not leave in the push
//! that brought it.

use alloc::string::String;
use alloc::vec::Vec;

use super::{DeltaKind, ItemKind, TurnError, TurnErrorKind, TurnEvent};
use crate::json::JsonStr;

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
        ty: Span,
    },
}

#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    escaped: bool,
}

/// Orders interleaved items one after another for a sequential writer.
#[derive(Debug, Default)]
pub(crate) struct Hold {
    /// The item passing through.
    current: Option<u64>,
    /// Items waiting, in the order they opened (their events in `held`).
    waiting: Vec<u64>,
    held: Vec<Held>,
    /// Spare for replaying.
    spare: Vec<Held>,
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
        self.waiting.contains(&index)
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
                if self.current.is_none() && self.waiting.is_empty() {
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
                    ItemKind::Other { ty, .. } => HeldKind::Other {
                        ty: self.plain(ty)?,
                    },
                };
                self.waiting.push(index);
                self.held.push(Held::Start { index, kind });
                Ok(())
            }
            TurnEvent::Delta {
                index,
                kind,
                part,
                text,
            } if self.is_waiting(index) => {
                let text = self.span(text)?;
                self.held.push(Held::Delta {
                    index,
                    kind,
                    part,
                    text,
                });
                Ok(())
            }
            TurnEvent::ItemEnd { index, .. } if self.is_waiting(index) => {
                self.held.push(Held::End { index });
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
                while !self.waiting.is_empty() {
                    if let Some(index) = self.current.take() {
                        out(&TurnEvent::ItemEnd { index, whole: None })?;
                    }
                    self.replay(out)?;
                }
                out(event)
            }
            TurnEvent::Error(_) => {
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
        while self.current.is_none() && !self.waiting.is_empty() {
            let index = self.waiting.remove(0);
            self.current = Some(index);
            let mut held = core::mem::take(&mut self.held);
            self.spare.clear();
            let mut result = Ok(());
            for h in held.drain(..) {
                if h.index() != index {
                    self.spare.push(h);
                    continue;
                }
                if result.is_err() {
                    continue;
                }
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
                            HeldKind::Other { ty } => ItemKind::Other {
                                ty: &text[ty.start..ty.end],
                                raw: None,
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
                result = out(&event);
            }
            core::mem::swap(&mut self.held, &mut self.spare);
            self.spare = held;
            if self.held.is_empty() {
                self.text.clear();
            }
            result?;
        }
        Ok(())
    }
}
