//! The one model of the order of a Responses stream: sequence numbers and
//! terminal events. Sans-IO: [`StreamOrder::feed`] takes each event's
//! [`EventKind`] and `sequence_number` and returns the [`Fault`]s it finds,
//! with their [`Position`]; it allocates nothing and does O(1) work per
//! event. The accumulator ([`ResponseAccumulator`]) turns the faults into
//! findings and the linter into rule findings with their severities.
//!
//! The rules:
//!
//! * Sequence numbers count up by one. A number not greater than the
//!   previous one is a [`Fault::SequenceRegression`]; a number more than one
//!   past the highest so far is a [`Fault::SequenceGap`] (so a number
//!   replayed or reordered below the highest is not counted as a gap again
//!   when the stream goes on). An event without a number is a
//!   [`Fault::MissingSequenceNumber`] (streams from before mid-2025 have
//!   none at all: consumers decide how to weigh it).
//! * One terminal event (`response.completed`, `.incomplete`, `.failed`)
//!   ends the stream: another is a [`Fault::SecondTerminal`], any other
//!   event after it a [`Fault::EventAfterTerminal`].
//! * The `[DONE]` sentinel ([`EventKind::Done`]) is never a fault.
//!
//! ```
//! use ssekit::responses::order::{Fault, StreamOrder};
//! use ssekit::responses::EventKind;
//!
//! let mut order = StreamOrder::new();
//! assert_eq!(order.feed(EventKind::ResponseCreated, Some(0)).count(), 0);
//! let faults: Vec<_> = order.feed(EventKind::OutputTextDelta, Some(3)).collect();
//! assert_eq!(faults[0].fault, Fault::SequenceGap { expected: 1, found: 3 });
//! assert_eq!(faults[0].position.event_index, 1);
//! order.feed(EventKind::ResponseCompleted, Some(4));
//! let faults: Vec<_> = order.feed(EventKind::ResponseFailed, Some(5)).collect();
//! assert_eq!(
//!     faults[0].fault,
//!     Fault::SecondTerminal { first: EventKind::ResponseCompleted }
//! );
//! ```
//!
//! [`ResponseAccumulator`]: crate::accumulate::ResponseAccumulator

use super::{EventKind, EventRole};

/// A fault in the order of a stream. See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// Sequence numbers were skipped: `expected` (the highest so far plus
    /// one) came next, `found` did.
    SequenceGap {
        /// The highest number so far plus one.
        expected: u64,
        /// The number found.
        found: u64,
    },
    /// A sequence number not greater than the previous one.
    SequenceRegression {
        /// The previous number.
        previous: u64,
        /// The number found.
        found: u64,
    },
    /// An event without a sequence number.
    MissingSequenceNumber {
        /// The highest number so far; `None` when no event had one.
        highest: Option<u64>,
    },
    /// An event after the terminal event.
    EventAfterTerminal {
        /// The terminal event.
        terminal: EventKind,
    },
    /// A second terminal event.
    SecondTerminal {
        /// The first terminal event.
        first: EventKind,
    },
}

/// Where a fault is: the event's index among those fed (from 0) and its
/// sequence number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Position {
    /// The event's index among the events fed, from 0.
    pub event_index: u64,
    /// The event's `sequence_number`, if it has one.
    pub sequence_number: Option<u64>,
}

/// A [`Fault`] and the [`Position`] of the event that shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OrderFault {
    /// What is wrong.
    pub fault: Fault,
    /// Where.
    pub position: Position,
}

/// The sequence numbers seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct SequenceInfo {
    /// The first number seen.
    pub first: Option<u64>,
    /// The last number seen.
    pub last: Option<u64>,
    /// Events with a number.
    pub numbered: u64,
    /// Events without one (`[DONE]` included).
    pub unnumbered: u64,
    /// Numbers skipped: the sum of the gaps (each measured from the highest
    /// number before it, so the sum is at most the highest number).
    pub missing: u64,
    /// Numbers not greater than their predecessor.
    pub regressions: u64,
}

/// The order checker. See the [module docs](self).
#[derive(Debug, Clone, Default)]
pub struct StreamOrder {
    events: u64,
    sequence: SequenceInfo,
    highest: Option<u64>,
    terminal: Option<EventKind>,
}

/// The faults of one event, in the order they are found (the sequence
/// number's first): at most two.
#[derive(Debug, Clone)]
pub struct OrderFaults {
    faults: [Option<OrderFault>; 2],
    next: usize,
}

impl Iterator for OrderFaults {
    type Item = OrderFault;

    fn next(&mut self) -> Option<OrderFault> {
        while let Some(slot) = self.faults.get_mut(self.next) {
            self.next += 1;
            if let Some(fault) = slot.take() {
                return Some(fault);
            }
        }
        None
    }
}

impl StreamOrder {
    /// A checker at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks one event: its kind and its `sequence_number`. O(1).
    pub fn feed(&mut self, kind: EventKind, sequence_number: Option<u64>) -> OrderFaults {
        let position = Position {
            event_index: self.events,
            sequence_number,
        };
        self.events += 1;
        let at = |fault| OrderFault { fault, position };
        let done = kind == EventKind::Done;
        let sequence = self.sequence(sequence_number, done).map(at);
        let terminal = match self.terminal {
            _ if done => None,
            Some(first) if kind.role() == EventRole::Terminal => {
                Some(Fault::SecondTerminal { first })
            }
            Some(terminal) => Some(Fault::EventAfterTerminal { terminal }),
            None => {
                if kind.role() == EventRole::Terminal {
                    self.terminal = Some(kind);
                }
                None
            }
        };
        OrderFaults {
            faults: [sequence, terminal.map(at)],
            next: 0,
        }
    }

    fn sequence(&mut self, n: Option<u64>, done: bool) -> Option<Fault> {
        let seq = &mut self.sequence;
        let Some(n) = n else {
            seq.unnumbered += 1;
            return (!done).then_some(Fault::MissingSequenceNumber {
                highest: self.highest,
            });
        };
        seq.numbered += 1;
        let previous = seq.last.replace(n);
        seq.first.get_or_insert(n);
        let highest = self.highest;
        self.highest = Some(highest.map_or(n, |h| h.max(n)));
        let (Some(previous), Some(highest)) = (previous, highest) else {
            return None;
        };
        if n <= previous {
            seq.regressions += 1;
            Some(Fault::SequenceRegression { previous, found: n })
        } else if n > highest.saturating_add(1) {
            seq.missing = seq.missing.saturating_add(n - highest - 1);
            Some(Fault::SequenceGap {
                expected: highest + 1,
                found: n,
            })
        } else {
            None
        }
    }

    /// The events fed.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The sequence numbers seen.
    pub fn sequence_info(&self) -> SequenceInfo {
        self.sequence
    }

    /// The highest sequence number so far.
    pub fn highest_sequence_number(&self) -> Option<u64> {
        self.highest
    }

    /// The first terminal event, once one was fed.
    pub fn terminal(&self) -> Option<EventKind> {
        self.terminal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn faults(events: &[(EventKind, Option<u64>)]) -> Vec<(u64, Fault)> {
        let mut order = StreamOrder::new();
        events
            .iter()
            .flat_map(|&(kind, n)| order.feed(kind, n).collect::<Vec<_>>())
            .map(|f| (f.position.event_index, f.fault))
            .collect()
    }

    #[test]
    fn regressions_by_the_previous_number_gaps_by_the_highest() {
        use EventKind::Keepalive as K;
        let seq = |ns: &[u64]| faults(&ns.iter().map(|&n| (K, Some(n))).collect::<Vec<_>>());
        assert_eq!(
            seq(&[1, 2, 4, 3, 5]),
            [
                (
                    2,
                    Fault::SequenceGap {
                        expected: 3,
                        found: 4
                    }
                ),
                (
                    3,
                    Fault::SequenceRegression {
                        previous: 4,
                        found: 3
                    }
                ),
            ]
        );
        assert_eq!(
            seq(&[5, 2, 3, 3]),
            [
                (
                    1,
                    Fault::SequenceRegression {
                        previous: 5,
                        found: 2
                    }
                ),
                (
                    3,
                    Fault::SequenceRegression {
                        previous: 3,
                        found: 3
                    }
                ),
            ]
        );
        let mut order = StreamOrder::new();
        for n in [0, u64::MAX - 1, 0, u64::MAX] {
            order.feed(K, Some(n)).for_each(drop);
        }
        let info = order.sequence_info();
        assert_eq!((info.missing, info.regressions), (u64::MAX - 2, 1));
        assert_eq!((info.first, info.last), (Some(0), Some(u64::MAX)));
    }

    #[test]
    fn missing_numbers_terminal_events_and_the_done_sentinel() {
        use EventKind::*;
        assert_eq!(
            faults(&[
                (ResponseCreated, None),
                (Keepalive, Some(1)),
                (Done, None),
                (ResponseIncomplete, None),
                (Keepalive, Some(2)),
                (ResponseCompleted, Some(3)),
                (Done, None),
            ]),
            [
                (0, Fault::MissingSequenceNumber { highest: None }),
                (3, Fault::MissingSequenceNumber { highest: Some(1) }),
                (
                    4,
                    Fault::EventAfterTerminal {
                        terminal: ResponseIncomplete
                    }
                ),
                (
                    5,
                    Fault::SecondTerminal {
                        first: ResponseIncomplete
                    }
                ),
            ]
        );
    }
}
