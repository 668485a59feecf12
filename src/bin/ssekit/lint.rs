//! `ssekit lint`: checks a Responses API stream with [`ssekit::lint`] and
//! prints one line per finding.
//!
//! Exit status: 0 when there is no error finding, 1 when there is, 2 for
//! usage and I/O errors.

use std::io::{self, BufWriter, Write};

use ssekit::lint::{Finding, Severity, StreamLinter};

use ssekit::Parser;

use crate::events::{detect, Dialect};
use crate::{parse_input, read_chunks, Failure};

pub(crate) fn lint(args: &[String]) -> Result<(), Failure> {
    let mut json = false;
    let input = parse_input(args, |opt, _| {
        json |= opt == "--json";
        Ok(opt == "--json")
    })?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut linter = StreamLinter::new();
    // The first event tells the dialect: the rules are the Responses API's,
    // and another dialect's stream would only collect Responses errors.
    let mut sniff = Some(Parser::new());
    let read = read_chunks(&input, |chunk| {
        if let Some(parser) = sniff.as_mut() {
            parser.feed(chunk.clone());
            while let Ok(Some(frame)) = parser.next_frame() {
                match detect(&frame) {
                    Some(Dialect::Responses) => sniff = None,
                    Some(other) => {
                        eprintln!(
                            "ssekit: this is {} stream: lint checks OpenAI Responses streams \
                             (`ssekit assemble` reads this dialect)",
                            other.describe()
                        );
                        return Err(Failure::Exit(2));
                    }
                    None => continue,
                }
                break;
            }
        }
        linter.feed(chunk);
        write_all(&mut out, &mut linter, json)
    });
    if let Err(e) = read {
        // What was found before the error is still worth printing.
        out.flush().ok();
        return Err(e);
    }
    linter.finish();
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
    if linter.has_errors() {
        return Err(Failure::Exit(1));
    }
    Ok(())
}

fn write_all(out: &mut impl Write, linter: &mut StreamLinter, json: bool) -> Result<(), Failure> {
    for finding in linter.drain() {
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
