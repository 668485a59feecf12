//! `ssekit lint`: checks an OpenAI Responses, Chat Completions, Anthropic
//! Messages or Gemini stream (`--dialect`, or the first event tells which)
//! with [`ssekit::lint`] and prints one line per finding.
//!
//! Exit status: 0 when there is no error finding, 1 when there is, 2 for
//! usage and I/O errors.

use std::io::{self, BufWriter, Write};

use ssekit::lint::{linter_for, Finding, FrameLinter, LintConfig, Severity, StreamLinter};
use ssekit::{Bytes, Parser, ParserConfig};

use crate::events::{describe, detect, Choice, Dialect};
use crate::{parse_dialect_input, read_chunks, Failure};

/// The most bytes read (and kept) before the first event that tells the
/// dialect.
pub(crate) const MAX_SNIFF: u64 = 1 << 20;

/// The linter for the dialect the stream turned out to be.
enum Active {
    /// No event decoded yet: the chunks so far, and a parser looking for
    /// the first event that tells the dialect.
    Sniffing(Vec<Bytes>, Parser),
    Linting(StreamLinter<Box<dyn FrameLinter>>),
}

impl Active {
    fn feed(&mut self, chunk: Bytes) -> Result<(), Failure> {
        match self {
            Self::Sniffing(chunks, parser) => {
                chunks.push(chunk.clone());
                parser.feed(chunk);
                while let Ok(Some(frame)) = parser.next_frame() {
                    if let Some(dialect) = detect(&frame) {
                        return self.start(dialect);
                    }
                }
                if parser.offset() > MAX_SNIFF {
                    // Nothing told the dialect in the first MiB: the
                    // Responses rules say what is wrong with it.
                    return self.start(Dialect::Responses);
                }
                Ok(())
            }
            Self::Linting(linter) => {
                linter.feed(chunk);
                Ok(())
            }
        }
    }

    /// Switches to `dialect`'s linter and feeds it the chunks read so far.
    fn start(&mut self, dialect: Dialect) -> Result<(), Failure> {
        let chunks = match self {
            Self::Sniffing(chunks, _) => std::mem::take(chunks),
            Self::Linting(_) => return Ok(()),
        };
        if dialect != Dialect::Responses {
            eprintln!("ssekit: linting {} stream", describe(dialect));
        }
        let linter: Box<dyn FrameLinter> = linter_for(dialect, LintConfig::DEFAULT);
        *self = Self::Linting(StreamLinter::with_linter(ParserConfig::DEFAULT, linter));
        chunks.into_iter().try_for_each(|chunk| self.feed(chunk))
    }

    fn finish(&mut self) -> Result<(), Failure> {
        if matches!(self, Self::Sniffing(..)) {
            // No event told the dialect: the Responses rules say what is missing.
            self.start(Dialect::Responses)?;
        }
        if let Self::Linting(linter) = self {
            linter.finish();
        }
        Ok(())
    }

    fn next_finding(&mut self) -> Option<Finding> {
        match self {
            Self::Sniffing(..) => None,
            Self::Linting(linter) => linter.next_finding(),
        }
    }

    fn count(&self, severity: Severity) -> u64 {
        match self {
            Self::Sniffing(..) => 0,
            Self::Linting(linter) => linter.count(severity),
        }
    }
}

pub(crate) fn lint(args: &[String]) -> Result<(), Failure> {
    let (args, json) = crate::take_flag(args, "--json");
    let (input, choice) = parse_dialect_input(&args)?;
    let mut out = BufWriter::new(io::stdout().lock());
    // The dialect decides the rules: given, or told by the first event.
    let mut linter = Active::Sniffing(Vec::new(), Parser::new());
    if let Choice::Fixed(dialect) = choice {
        linter.start(dialect)?;
    }
    let read = read_chunks(&input, |chunk| {
        linter.feed(chunk)?;
        write_all(&mut out, &mut linter, json)?;
        // Findings go out as they are found, before the next read waits.
        out.flush()?;
        Ok(())
    });
    if let Err(e) = read {
        // What was found before the error is still worth printing.
        out.flush().ok();
        return Err(e);
    }
    linter.finish()?;
    write_all(&mut out, &mut linter, json)?;
    if !json {
        writeln!(
            out,
            "{} error(s), {} warning(s), {} info",
            linter.count(Severity::Error),
            linter.count(Severity::Warning),
            linter.count(Severity::Info)
        )?;
    }
    out.flush()?;
    if linter.count(Severity::Error) > 0 {
        return Err(Failure::Exit(1));
    }
    Ok(())
}

fn write_all(out: &mut impl Write, linter: &mut Active, json: bool) -> Result<(), Failure> {
    while let Some(finding) = linter.next_finding() {
        if json {
            write_json(out, &finding)?;
        } else {
            writeln!(out, "{finding}")?;
        }
    }
    Ok(())
}

/// `{"rule", "severity", "offset", "sequence_number", "message"}` on one line.
fn write_json(out: &mut impl Write, f: &Finding) -> io::Result<()> {
    write!(
        out,
        "{{\"rule\":\"{}\",\"severity\":\"{}\",\"offset\":{},\"sequence_number\":",
        f.rule().id(),
        f.severity(),
        f.offset()
    )?;
    match f.sequence_number() {
        Some(n) => write!(out, "{n}")?,
        None => out.write_all(b"null")?,
    }
    out.write_all(b",\"message\":")?;
    serde_json::to_writer(&mut *out, f.message())?;
    out.write_all(b"}\n")
}
