//! `ssekit`: inspect recorded Server-Sent Event streams.
//!
//! ```text
//! ssekit frames [--strict] [--chunk N] [FILE]
//! ssekit events [--strict] [--dialect responses|chat|anthropic|gemini|auto] [--chunk N] [FILE]
//! ssekit encode [FILE]
//! ssekit assemble [--dialect responses|chat|anthropic|gemini|auto] [--chunk N] [FILE]
//! ssekit lint [--json] [--dialect responses|chat|anthropic|gemini|auto] [--chunk N] [FILE]
//! ssekit bridge --to responses|chat|anthropic|gemini [--from D] [--chunk N] [FILE]
//! ```
//!
//! Reads FILE (or standard input), parses it as an SSE stream and prints one
//! JSON object per dispatched event as soon as it is read: its SSE fields
//! (`frames`), or the fields its typed view decoded (`events`). Warnings go
//! to standard error. `encode` goes the other way: it reads what `frames`
//! prints and writes the SSE stream. `ssekit <command> --help` prints a
//! command's options and an example (see `help.rs`).
//!
//! Exit status, the same for every command: 0 when all went well; 1 when the
//! command found a problem in the input it is there to report (`lint`: an
//! error finding; `assemble`: a stream that ended early; `encode`: a line it
//! cannot read); 2 for usage and I/O errors.

mod assemble;
mod bridge;
mod encode;
mod events;
mod help;
mod lint;
mod view_json;

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use ssekit::{Bytes, Frame, Item, Parser};

use events::{Choice, Events, Unavailable};

/// A usage error: exit status 2.
struct Usage(String);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(Usage(msg))) => {
            // A short answer; the whole usage is for `--help`.
            eprintln!(
                "ssekit: {msg}\nRun 'ssekit --help' for the commands, \
                 'ssekit <command> --help' for a command's options."
            );
            ExitCode::from(2)
        }
        Err(Failure::Unavailable(e)) => {
            eprintln!("ssekit: {e}");
            ExitCode::from(2)
        }
        Err(Failure::Exit(status)) => ExitCode::from(status),
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            eprintln!("ssekit: {e}");
            ExitCode::from(2)
        }
    }
}

enum Failure {
    Usage(Usage),
    /// A dialect this build has no views for: exit status 2.
    Unavailable(Unavailable),
    Io(io::Error),
    /// The message is out already: exit with this status.
    Exit(u8),
}

impl From<Unavailable> for Failure {
    fn from(e: Unavailable) -> Self {
        Self::Unavailable(e)
    }
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
    // `--help` anywhere after a command is that command's help, not an
    // unknown option.
    if rest.iter().any(|a| a == "-h" || a == "--help") {
        let text = match command.as_str() {
            "help" | "-h" | "--help" | "-V" | "--version" => help::TOOL,
            name => help::of(name).ok_or_else(|| Usage(format!("unknown command '{name}'")))?,
        };
        print!("{text}");
        return Ok(());
    }
    match command.as_str() {
        "-V" | "--version" => {
            println!("ssekit {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        "frames" => frames(rest),
        "events" => events(rest),
        "encode" => encode::run(rest),
        "assemble" => assemble::assemble(rest),
        "lint" => lint::lint(rest),
        "bridge" => bridge::bridge(rest),
        "-h" | "--help" => {
            print!("{}", help::TOOL);
            Ok(())
        }
        // `ssekit help` and `ssekit help <command>`.
        "help" => {
            let text = match rest {
                [] => help::TOOL,
                [name] => {
                    help::of(name).ok_or_else(|| Usage(format!("unknown command '{name}'")))?
                }
                _ => return Err(Usage("help takes one command".into()).into()),
            };
            print!("{text}");
            Ok(())
        }
        other => Err(Usage(format!("unknown command '{other}'")).into()),
    }
}

/// Options shared by the commands that read a stream.
struct Input {
    /// `--chunk N`: feed the parser exactly N bytes at a time (the last
    /// piece may be shorter); without it, whatever each read returns.
    chunk: Option<usize>,
    path: Option<String>,
}

/// The most bytes one read asks for when no `--chunk` is given.
pub(crate) const READ_SIZE: usize = 64 * 1024;

/// Parses the options of `Input`; `extra` is offered every other option
/// first, with the remaining arguments (to take its value from), and says
/// whether it took it.
fn parse_input(
    args: &[String],
    mut extra: impl FnMut(&str, &mut std::slice::Iter<'_, String>) -> Result<bool, Usage>,
) -> Result<Input, Usage> {
    let mut input = Input {
        chunk: None,
        path: None,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg.starts_with("--") && arg != "--chunk" && extra(arg, &mut args)? {
            continue;
        }
        match arg.as_str() {
            "--chunk" => {
                let n = args
                    .next()
                    .ok_or_else(|| Usage("--chunk needs a value".into()))?;
                input.chunk = match n.parse::<usize>() {
                    Ok(n) if n > 0 => Some(n),
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

/// Opens `path` for reading; errors name the path (a directory too, which
/// `open` accepts and only the first read refuses).
fn open_file(path: &str) -> io::Result<File> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{path}: {e}"));
    let file = File::open(path).map_err(named)?;
    if file.metadata().map_err(named)?.is_dir() {
        return Err(io::Error::other(format!(
            "{path}: is a directory, not a stream"
        )));
    }
    Ok(file)
}

/// Reads the stream and hands each piece to `each` as soon as it is read:
/// what each read returns (at most 64 KiB), so that a live stream's events
/// go out as they arrive; or, with `--chunk N`, pieces of exactly N bytes
/// (the last may be shorter), each read to the full before it is handed on.
fn read_chunks(
    input: &Input,
    mut each: impl FnMut(Bytes) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let mut reader: Box<dyn Read> = match &input.path {
        Some(path) => Box::new(open_file(path)?),
        None => Box::new(io::stdin().lock()),
    };
    // One buffer for every read; each piece is copied out of it, exactly
    // as long as it is, so that a frame held for long pins no more memory
    // than its own bytes.
    let mut buf = vec![0; input.chunk.unwrap_or(READ_SIZE)];
    loop {
        let mut filled = 0;
        while filled < buf.len() {
            match reader.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            }
            if input.chunk.is_none() {
                break;
            }
        }
        if filled == 0 {
            return Ok(());
        }
        each(Bytes::copy_from_slice(&buf[..filled]))?;
    }
}

/// The input options plus `--dialect D` (default `auto`), for `events`,
/// `assemble` and `lint`.
fn parse_dialect_input(args: &[String]) -> Result<(Input, Choice), Usage> {
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
                "--dialect takes responses, chat, anthropic, gemini or auto, not '{value}'"
            ))
        })?;
        Ok(true)
    })?;
    Ok((input, choice))
}

fn frames(args: &[String]) -> Result<(), Failure> {
    let (args, strict) = take_flag(args, "--strict");
    let input = parse_input(&args, |_, _| Ok(false))?;
    let mut out = BufWriter::new(io::stdout().lock());
    let seen = each_frame(&input, &mut out, |out, _, frame| {
        Ok(write_frame(out, &frame)?)
    })?;
    out.flush()?;
    seen.verdict(strict, 0)
}

fn events(args: &[String]) -> Result<(), Failure> {
    let (args, strict) = take_flag(args, "--strict");
    let (input, choice) = parse_dialect_input(&args)?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut events = Events::new(choice)?;
    let seen = each_frame(&input, &mut out, |out, start, frame| {
        events.frame(out, start, frame)
    })?;
    events.finish(&mut out)?;
    out.flush()?;
    let undecodable = events::UNDECODABLE.load(std::sync::atomic::Ordering::Relaxed);
    seen.verdict(strict, undecodable)
}

/// `args` without `flag`, and whether it was there.
fn take_flag(args: &[String], flag: &str) -> (Vec<String>, bool) {
    let rest: Vec<String> = args.iter().filter(|a| *a != flag).cloned().collect();
    let found = rest.len() < args.len();
    (rest, found)
}

/// What a command that reads a stream saw of it.
#[derive(Default)]
struct Seen {
    frames: u64,
    /// Limit errors and a truncated tail (each already warned about).
    problems: u64,
}

impl Seen {
    /// Says when the input held no event at all; with `--strict`, exit
    /// status 1 for that, for a problem, or for an event that did not decode.
    fn verdict(&self, strict: bool, undecodable: u64) -> Result<(), Failure> {
        if self.frames == 0 {
            eprintln!(
                "ssekit: no SSE events found in the input (an event is `data:` lines ended by a blank line)"
            );
        }
        if strict && (self.frames == 0 || self.problems > 0 || undecodable > 0) {
            return Err(Failure::Exit(1));
        }
        Ok(())
    }
}

/// Parses the input and hands `each` every frame with the stream offset
/// where its block began (after the previous event), and `out` to write
/// it to; limit errors and a truncated tail become warnings. `out` is
/// flushed once the frames of each read are handed on, before the next
/// read, which may wait for the stream's next bytes.
fn each_frame<W: Write>(
    input: &Input,
    out: &mut W,
    each: impl FnMut(&mut W, u64, Frame) -> Result<(), Failure>,
) -> Result<Seen, Failure> {
    each_frame_or_comment(input, out, each, |_| Ok(()))
}

/// [`each_frame`], also calling `comment` for each SSE comment line (a
/// keep-alive, for the bridge to pass on).
fn each_frame_or_comment<W: Write>(
    input: &Input,
    out: &mut W,
    mut each: impl FnMut(&mut W, u64, Frame) -> Result<(), Failure>,
    mut comment: impl FnMut(&mut W) -> Result<(), Failure>,
) -> Result<Seen, Failure> {
    let mut parser = Parser::new();
    let mut start = 0;
    let mut seen = Seen::default();
    read_chunks(input, |chunk| {
        parser.feed(chunk);
        drain(
            &mut parser,
            &mut start,
            &mut seen,
            out,
            &mut each,
            &mut comment,
        )?;
        out.flush()?;
        Ok(())
    })?;
    if let Err(e) = parser.finish() {
        seen.problems += 1;
        eprintln!("ssekit: warning: {e}");
    }
    drain(
        &mut parser,
        &mut start,
        &mut seen,
        out,
        &mut each,
        &mut comment,
    )?;
    Ok(seen)
}

/// Hands on every frame the parser has ready, counting it, and tells of
/// every comment; limit errors become warnings.
fn drain<W: Write>(
    parser: &mut Parser,
    start: &mut u64,
    seen: &mut Seen,
    out: &mut W,
    each: &mut impl FnMut(&mut W, u64, Frame) -> Result<(), Failure>,
    comment: &mut impl FnMut(&mut W) -> Result<(), Failure>,
) -> Result<(), Failure> {
    loop {
        match parser.next_item() {
            Ok(Some(Item::Frame(frame))) => {
                let at = std::mem::replace(start, parser.offset());
                seen.frames += 1;
                each(out, at, frame)?;
            }
            Ok(Some(Item::Comment(_))) => comment(out)?,
            Ok(Some(_)) => {}
            Ok(None) => return Ok(()),
            Err(e) => {
                *start = parser.offset();
                seen.problems += 1;
                eprintln!("ssekit: warning: {e}");
            }
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
