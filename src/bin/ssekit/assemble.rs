//! `ssekit assemble`: the final response of a stream, as one JSON object.
//!
//! Responses streams go through [`ResponseAccumulator`]; the response is
//! printed even when the stream was cut (its `status` is then the last one
//! announced) and the exit status says so. Chat Completions and Anthropic
//! streams are not supported yet: exit status 2.

use std::io::{self, Write};

use ssekit::accumulate::{Outcome, ResponseAccumulator};
use ssekit::responses::ResponseEvent;
use ssekit::Frame;

use crate::events::{detect, Choice, Dialect};
use crate::{each_frame, parse_input, Failure, Usage};

/// Runs `ssekit assemble [--dialect D] [--chunk N] [FILE]`.
pub(crate) fn assemble(args: &[String]) -> Result<(), Failure> {
    let mut choice = Choice::Auto;
    let input = parse_input(args, |opt, rest| {
        if opt != "--dialect" {
            return Ok(false);
        }
        let value = rest
            .next()
            .ok_or_else(|| Usage("--dialect needs a value".into()))?;
        choice = Choice::parse(value).ok_or_else(|| {
            Usage(format!(
                "--dialect takes responses, chat, anthropic or auto, not '{value}'"
            ))
        })?;
        Ok(true)
    })?;
    if let Choice::Fixed(dialect) = choice {
        unsupported(dialect, false)?;
    }
    let mut assembler = Assembler {
        dialect: match choice {
            Choice::Fixed(d) => Some(d),
            Choice::Auto => None,
        },
        pending: Vec::new(),
        acc: ResponseAccumulator::new(),
        stopped: false,
    };
    each_frame(&input, |start, frame| assembler.frame(start, frame))?;
    // Frames that never told a dialect are read as Responses events.
    for (start, frame) in std::mem::take(&mut assembler.pending) {
        assembler.feed(start, &frame);
    }
    let response = assembler.acc.finish();
    for finding in response.findings() {
        eprintln!("ssekit: warning: {finding}");
    }
    if response.findings_dropped() > 0 {
        let n = response.findings_dropped();
        eprintln!("ssekit: warning: {n} more findings not shown");
    }
    let mut out = io::stdout().lock();
    writeln!(out, "{}", response.json())?;
    out.flush()?;
    let mut failed = false;
    if let Some(e) = response.limit_error() {
        eprintln!("ssekit: error: {e}; the response is what was assembled before it");
        failed = true;
    }
    if response.outcome() == Outcome::Truncated {
        eprintln!(
            "ssekit: error: the stream ended without response.completed, .incomplete or \
             .failed: the response is truncated"
        );
        failed = true;
    }
    if failed {
        Err(Failure::Exit(1))
    } else {
        Ok(())
    }
}

/// The dialects this command cannot assemble yet: a message, exit status 2.
fn unsupported(dialect: Dialect, detected: bool) -> Result<(), Failure> {
    if dialect == Dialect::Responses {
        return Ok(());
    }
    let name = dialect.name();
    let what = if detected {
        format!("the stream looks like the {name} dialect, which is")
    } else {
        format!("the {name} dialect is")
    };
    eprintln!("ssekit: assemble: {what} not supported yet (supported: responses)");
    Err(Failure::Exit(2))
}

struct Assembler {
    /// The stream's dialect, once known.
    dialect: Option<Dialect>,
    /// Frames seen before `auto` could tell the dialect, with their offsets.
    pending: Vec<(u64, Frame)>,
    acc: ResponseAccumulator,
    /// A limit error stopped the accumulation.
    stopped: bool,
}

impl Assembler {
    fn frame(&mut self, start: u64, frame: Frame) -> Result<(), Failure> {
        if self.dialect.is_none() {
            let Some(dialect) = detect(&frame) else {
                self.pending.push((start, frame));
                return Ok(());
            };
            unsupported(dialect, true)?;
            self.dialect = Some(dialect);
            for (start, pending) in std::mem::take(&mut self.pending) {
                self.feed(start, &pending);
            }
        }
        self.feed(start, &frame);
        Ok(())
    }

    /// Decodes and applies one event; an event that does not decode is a
    /// warning, and skipped.
    fn feed(&mut self, start: u64, frame: &Frame) {
        if self.stopped {
            return;
        }
        match ResponseEvent::from_frame(frame) {
            Ok(event) => self.stopped = self.acc.feed(&event).is_err(),
            Err(e) => eprintln!("ssekit: warning: event at byte {start} skipped: {e}"),
        }
    }
}
