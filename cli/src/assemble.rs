//! `ssekit assemble`: the final response of a stream, as one JSON object.
//!
//! Responses streams go through [`ResponsesAccumulator`], Chat Completions
//! streams through [`ChatAccumulator`], Anthropic Messages streams through
//! [`AnthropicAccumulator`] and Gemini streams through [`GeminiAccumulator`]. The result is printed even when the stream was
//! cut, and the exit status says so (1).
//!
//! With `--as D`, the stream is read by its dialect's turn reader into a
//! [`TurnAccumulator`] and the final answer is printed in dialect D's
//! non-streaming shape, whatever the stream's dialect.

use std::io::{self, Write};

use ssekit::accumulate::{
    AnthropicAccumulator, ChatAccumulator, GeminiAccumulator, Outcome, ResponsesAccumulator,
    TurnAccumulator,
};
use ssekit::bridge::AnyReader;
use ssekit::responses::ResponsesEvent;
use ssekit::turn::{self, TurnConfig};
use ssekit::Frame;

use crate::events::{detect, Choice, Dialect};
use crate::{each_frame, parse_dialect_input, Failure, Input, Usage};

/// Runs `ssekit assemble [--dialect D] [--as D] [--chunk N] [FILE]`.
pub(crate) fn assemble(args: &[String]) -> Result<(), Failure> {
    let (args, target) = take_as(args)?;
    let (input, choice) = parse_dialect_input(&args)?;
    if let Some(to) = target {
        return assemble_as(&input, choice, to);
    }
    let mut assembler = Assembler {
        acc: match choice {
            Choice::Fixed(d) => Some(Acc::new(d)),
            Choice::Auto => None,
        },
        pending: Vec::new(),
    };
    // One object at the end: nothing to write while the stream runs.
    each_frame(&input, &mut io::sink(), |_, start, frame| {
        assembler.frame(start, frame);
        Ok(())
    })?;
    // Frames that never told a dialect are read as Responses events.
    let mut acc = assembler
        .acc
        .unwrap_or_else(|| Acc::new(Dialect::Responses));
    for (start, frame) in std::mem::take(&mut assembler.pending) {
        acc.feed(start, &frame);
    }
    acc.finish()
}

/// The accumulator of the stream's dialect.
enum Acc {
    Responses {
        /// Boxed: the accumulator holds its order checker's fault list.
        acc: Box<ResponsesAccumulator>,
        /// A limit error stopped the accumulation.
        stopped: bool,
    },
    Chat(ChatAccumulator),
    Anthropic(AnthropicAccumulator),
    Gemini(GeminiAccumulator),
}

impl Acc {
    fn new(dialect: Dialect) -> Self {
        match dialect {
            Dialect::Responses => Acc::Responses {
                acc: Box::new(ResponsesAccumulator::new()),
                stopped: false,
            },
            Dialect::Chat => Acc::Chat(ChatAccumulator::new()),
            Dialect::Anthropic => Acc::Anthropic(AnthropicAccumulator::new()),
            Dialect::Gemini => Acc::Gemini(GeminiAccumulator::new()),
        }
    }

    /// Decodes and applies one event; an event that does not decode is a
    /// warning, and skipped.
    fn feed(&mut self, start: u64, frame: &Frame) {
        let skipped = |e: &dyn std::fmt::Display| {
            eprintln!("ssekit: warning: event at byte {start} skipped: {e}");
        };
        match self {
            Acc::Responses { acc, stopped } => {
                if *stopped {
                    return;
                }
                match ResponsesEvent::from_frame(frame).and_then(ResponsesEvent::strict) {
                    Ok(event) => *stopped = acc.feed(&event).is_err(),
                    Err(e) => skipped(&e),
                }
            }
            Acc::Chat(acc) => {
                if let Err(e) = acc.feed(frame) {
                    eprintln!("ssekit: warning: event at byte {start}: {e}");
                }
            }
            Acc::Anthropic(acc) => {
                if let Err(e) = acc.feed(frame) {
                    eprintln!("ssekit: warning: event at byte {start}: {e}");
                }
            }
            // The accumulator decodes the frame: an event that does not
            // decode is its error, and skipped.
            Acc::Gemini(acc) => {
                if let Err(e) = acc.feed(frame) {
                    eprintln!("ssekit: warning: event at byte {start}: {e}");
                }
            }
        }
    }

    /// Prints the result; exit status 1 when the stream was cut or a limit
    /// stopped the accumulation.
    fn finish(self) -> Result<(), Failure> {
        let mut out = io::stdout().lock();
        let status = match self {
            Acc::Responses { acc, .. } => return finish_responses(*acc),
            Acc::Chat(acc) => {
                let done = acc.finish();
                writeln!(out, "{}", done.to_json())?;
                done.outcome()
            }
            Acc::Anthropic(acc) => {
                let done = acc.finish();
                writeln!(out, "{}", done.to_json())?;
                done.outcome()
            }
            Acc::Gemini(acc) => {
                let done = acc.finish();
                writeln!(out, "{}", done.to_json())?;
                done.outcome()
            }
        };
        out.flush()?;
        match status {
            Outcome::Truncated => {
                eprintln!("ssekit: error: the stream ended early: the result is truncated");
                Err(Failure::Exit(1))
            }
            Outcome::Failed => {
                eprintln!("ssekit: warning: the stream reported an error (see `error`)");
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

fn finish_responses(acc: ResponsesAccumulator) -> Result<(), Failure> {
    let response = acc.finish();
    for finding in response.anomalies() {
        eprintln!("ssekit: warning: {finding}");
    }
    if response.anomalies_dropped() > 0 {
        let n = response.anomalies_dropped();
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

struct Assembler {
    /// The stream's accumulator, once its dialect is known.
    acc: Option<Acc>,
    /// Frames seen before `auto` could tell the dialect, with their offsets.
    pending: Vec<(u64, Frame)>,
}

impl Assembler {
    fn frame(&mut self, start: u64, frame: Frame) {
        let acc = match &mut self.acc {
            Some(acc) => acc,
            None => {
                let Some(dialect) = detect(&frame) else {
                    self.pending.push((start, frame));
                    return;
                };
                let acc = self.acc.insert(Acc::new(dialect));
                for (start, pending) in std::mem::take(&mut self.pending) {
                    acc.feed(start, &pending);
                }
                acc
            }
        };
        acc.feed(start, &frame);
    }
}

/// Takes `--as D` out of `args`.
fn take_as(args: &[String]) -> Result<(Vec<String>, Option<Dialect>), Usage> {
    let mut rest = Vec::new();
    let mut target = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg != "--as" {
            rest.push(arg.clone());
            continue;
        }
        let v = it
            .next()
            .ok_or_else(|| Usage("--as needs a value".into()))?;
        target = Some(match Choice::parse(v) {
            Some(Choice::Fixed(d)) => d,
            _ => {
                return Err(Usage(format!(
                    "--as takes responses, chat, anthropic or gemini, not '{v}'"
                )))
            }
        });
    }
    Ok((rest, target))
}

fn turn_dialect(d: Dialect) -> turn::Dialect {
    match d {
        Dialect::Responses => turn::Dialect::Responses,
        Dialect::Chat => turn::Dialect::Chat,
        Dialect::Anthropic => turn::Dialect::Anthropic,
        Dialect::Gemini => turn::Dialect::Gemini,
    }
}

/// The stream read into the turn model by its dialect's reader.
struct TurnAssembler {
    reader: AnyReader,
    acc: TurnAccumulator,
}

impl TurnAssembler {
    fn new(dialect: Dialect) -> Self {
        let d = turn_dialect(dialect);
        Self {
            reader: AnyReader::new(d, &TurnConfig::default()),
            acc: TurnAccumulator::new().from_dialect(d),
        }
    }

    fn feed(&mut self, start: u64, frame: &Frame) {
        if let Err(e) = self.acc.read(&mut self.reader, frame) {
            eprintln!("ssekit: warning: event at byte {start}: {e}");
        }
    }
}

/// `ssekit assemble --as D`.
fn assemble_as(input: &Input, choice: Choice, to: Dialect) -> Result<(), Failure> {
    let mut asm = match choice {
        Choice::Fixed(d) => Some(TurnAssembler::new(d)),
        Choice::Auto => None,
    };
    let mut pending: Vec<(u64, Frame)> = Vec::new();
    each_frame(input, &mut io::sink(), |_, start, frame| {
        let a = match &mut asm {
            Some(a) => a,
            None => {
                let Some(dialect) = detect(&frame) else {
                    pending.push((start, frame));
                    return Ok(());
                };
                let a = asm.insert(TurnAssembler::new(dialect));
                for (at, f) in std::mem::take(&mut pending) {
                    a.feed(at, &f);
                }
                a
            }
        };
        a.feed(start, &frame);
        Ok(())
    })?;
    // Frames that never told a dialect are read as Responses events.
    let mut asm = asm.unwrap_or_else(|| TurnAssembler::new(Dialect::Responses));
    for (start, frame) in std::mem::take(&mut pending) {
        asm.feed(start, &frame);
    }
    if let Err(e) = asm.acc.finish_reader(&mut asm.reader) {
        eprintln!("ssekit: warning: {e}");
    }
    let outcome = asm.acc.outcome();
    let turn = asm.acc.into_turn();
    let mut out = io::stdout().lock();
    writeln!(out, "{}", turn.to_json(turn_dialect(to)))?;
    out.flush()?;
    match outcome {
        Outcome::Truncated => {
            eprintln!("ssekit: error: the stream ended early: the result is truncated");
            Err(Failure::Exit(1))
        }
        Outcome::Failed => {
            eprintln!("ssekit: warning: the stream reported an error");
            Ok(())
        }
        _ => Ok(()),
    }
}
