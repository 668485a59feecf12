//! `ssekit`: inspect recorded Server-Sent Event streams.
//!
//! ```text
//! ssekit frames [--chunk N] [FILE]
//! ```
//!
//! Reads FILE (or standard input), parses it as an SSE stream and prints one
//! JSON object per dispatched event. Warnings go to standard error; the exit
//! status is non-zero only for usage (2) and I/O (1) errors.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use bytes::{Bytes, BytesMut};
use ssekit::{Frame, Parser};

const USAGE: &str = "\
usage: ssekit <command> [options] [FILE]

commands:
  frames [--chunk N] [FILE]   print each dispatched event as one JSON object per line:
                              {\"event\", \"data\", \"id\", \"retry\"}
                              --chunk N feeds the parser N bytes at a time (default 65536)

FILE defaults to standard input. Warnings (limits, a truncated tail) go to standard error.
";

/// A usage error: exit status 2.
struct Usage(String);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(Usage(msg))) => {
            eprintln!("ssekit: {msg}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            eprintln!("ssekit: {e}");
            ExitCode::from(1)
        }
    }
}

enum Failure {
    Usage(Usage),
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

impl From<Usage> for Failure {
    fn from(e: Usage) -> Self {
        Self::Usage(e)
    }
}

fn run(args: &[String]) -> Result<(), Failure> {
    let Some((command, rest)) = args.split_first() else {
        return Err(Usage("no command given".into()).into());
    };
    match command.as_str() {
        "frames" => frames(rest),
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            Ok(())
        }
        other => Err(Usage(format!("unknown command '{other}'")).into()),
    }
}

/// Options shared by the commands that read a stream.
struct Input {
    chunk: usize,
    path: Option<String>,
}

fn parse_input(args: &[String]) -> Result<Input, Usage> {
    let mut input = Input {
        chunk: 64 * 1024,
        path: None,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--chunk" => {
                let n = args
                    .next()
                    .ok_or_else(|| Usage("--chunk needs a value".into()))?;
                input.chunk = match n.parse::<usize>() {
                    Ok(n) if n > 0 => n,
                    _ => {
                        return Err(Usage(format!(
                            "--chunk takes a positive integer, not '{n}'"
                        )))
                    }
                };
            }
            "-" if input.path.is_none() => input.path = None,
            s if s.starts_with('-') && s != "-" => {
                return Err(Usage(format!("unknown option '{s}'")));
            }
            s => {
                if input.path.is_some() {
                    return Err(Usage(format!("unexpected argument '{s}'")));
                }
                input.path = Some(s.to_owned());
            }
        }
    }
    Ok(input)
}

/// Reads the stream in chunks of exactly `chunk` bytes (the last may be
/// shorter) and hands each to `each`.
fn read_chunks(
    input: &Input,
    mut each: impl FnMut(Bytes) -> io::Result<()>,
) -> Result<(), Failure> {
    let mut reader: Box<dyn Read> = match &input.path {
        Some(path) => Box::new(
            File::open(path).map_err(|e| io::Error::new(e.kind(), format!("{path}: {e}")))?,
        ),
        None => Box::new(io::stdin().lock()),
    };
    let mut buf = BytesMut::new();
    loop {
        buf.resize(input.chunk, 0);
        let mut filled = 0;
        while filled < input.chunk {
            match reader.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        if filled == 0 {
            return Ok(());
        }
        buf.truncate(filled);
        each(buf.split().freeze())?;
    }
}

fn frames(args: &[String]) -> Result<(), Failure> {
    let input = parse_input(args)?;
    let stdout = io::stdout().lock();
    let mut out = BufWriter::new(stdout);
    let mut parser = Parser::new();
    read_chunks(&input, |chunk| {
        parser.feed(chunk);
        drain(&mut parser, &mut out)
    })?;
    if let Err(e) = parser.finish() {
        eprintln!("ssekit: warning: {e}");
    }
    drain(&mut parser, &mut out)?;
    out.flush()?;
    Ok(())
}

/// Prints every frame the parser has ready; limit errors become warnings.
fn drain(parser: &mut Parser, out: &mut impl Write) -> io::Result<()> {
    loop {
        match parser.next_frame() {
            Ok(Some(frame)) => write_frame(out, &frame)?,
            Ok(None) => return Ok(()),
            Err(e) => eprintln!("ssekit: warning: {e}"),
        }
    }
}

fn write_frame(out: &mut impl Write, frame: &Frame) -> io::Result<()> {
    out.write_all(b"{\"event\":")?;
    serde_json::to_writer(&mut *out, frame.event())?;
    out.write_all(b",\"data\":")?;
    serde_json::to_writer(&mut *out, frame.data())?;
    out.write_all(b",\"id\":")?;
    serde_json::to_writer(&mut *out, frame.id())?;
    match frame.retry() {
        Some(ms) => writeln!(out, ",\"retry\":{ms}}}"),
        None => out.write_all(b",\"retry\":null}\n"),
    }
}
