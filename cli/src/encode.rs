//! `ssekit encode`: the NDJSON that `ssekit frames` prints, back to SSE bytes.
//!
//! Each line is one object `{"event", "data", "id", "retry"}`:
//!
//! * `data` (string) is required;
//! * `event` (string) defaults to `message`, and `message` is written as no
//!   `event` line at all (a reader gives `message` either way);
//! * `id` (string) is the *last event ID at dispatch*, the reader's state:
//!   an `id` line is written only when it differs from the previous frame's
//!   (`id` alone when it goes back to `""`). Left out, it stays as it was;
//! * `retry` (integer or `null`) is written as a `retry` line in the frame's
//!   own block, where `ssekit frames` found it.
//!
//! Blank lines are skipped; any other member is an error, so that a typo does
//! not silently drop a field. The frames before a bad line are written; the
//! bad line stops the command with exit status 1 and a message naming its
//! line number.

use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};

use serde_json::{Map, Value};
use ssekit::encode::Encoder;
use ssekit::Frame;

use crate::{Failure, Usage};

pub(crate) fn run(args: &[String]) -> Result<(), Failure> {
    let mut path = None;
    for arg in args {
        match arg.as_str() {
            "-" if path.is_none() => path = Some(None),
            s if s.starts_with('-') && s != "-" => {
                return Err(Usage(format!("unknown option '{s}'")).into())
            }
            s if path.is_none() => path = Some(Some(s.to_owned())),
            s => return Err(Usage(format!("unexpected argument '{s}'")).into()),
        }
    }
    let reader: Box<dyn Read> = match path.flatten() {
        Some(path) => Box::new(super::open_file(&path)?),
        None => Box::new(io::stdin().lock()),
    };
    let reader = BufReader::with_capacity(crate::READ_SIZE, reader);
    let mut out = BufWriter::new(io::stdout().lock());
    let done = encode(reader, &mut out);
    // The frames before a bad line are written either way.
    out.flush()?;
    match done {
        Ok(()) => Ok(()),
        Err(Stop::Io(e)) => Err(e.into()),
        Err(Stop::BadLine(message)) => {
            eprintln!("ssekit: {message}");
            Err(Failure::Exit(1))
        }
    }
}

/// Why encoding stopped.
enum Stop {
    /// Reading or writing failed (exit status 2).
    Io(io::Error),
    /// A line is not what `frames` prints (exit status 1); the message names it.
    BadLine(String),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

fn bad_line(line: usize, what: impl std::fmt::Display) -> Stop {
    Stop::BadLine(format!("line {line}: {what}"))
}

/// Encodes each line as it comes; what is written goes out whenever the
/// lines read so far are all encoded, before the next read waits.
fn encode<R: Read>(mut reader: BufReader<R>, out: &mut impl Write) -> Result<(), Stop> {
    let mut encoder = Encoder::new();
    let mut last_id = String::new();
    let mut buf = Vec::new();
    let mut wire = Vec::new();
    for number in 1.. {
        if reader.buffer().is_empty() {
            out.flush()?;
        }
        buf.clear();
        if reader.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let text = std::str::from_utf8(&buf).map_err(|e| bad_line(number, e))?;
        if text.trim().is_empty() {
            continue;
        }
        let frame = frame(text, &mut last_id).map_err(|e| bad_line(number, e))?;
        wire.clear();
        encoder
            .frame(&mut wire, &frame)
            .map_err(|e| bad_line(number, e))?;
        out.write_all(&wire)?;
    }
    Ok(())
}

/// The frame one line describes; `last_id` is the id of the frame before.
fn frame(text: &str, last_id: &mut String) -> Result<Frame, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let sse = ["data:", "event:", "id:", "retry:", ":"]
            .iter()
            .any(|field| text.starts_with(field));
        if sse {
            // The usual mistake: a raw stream where the JSON lines go.
            "this is a raw SSE stream, but encode reads the JSON lines that `ssekit frames` \
             prints (run `ssekit frames FILE | ssekit encode`)"
                .to_owned()
        } else {
            format!("invalid JSON: {e} (encode reads the JSON lines that `ssekit frames` prints)")
        }
    })?;
    let Value::Object(object) = value else {
        return Err("expected a JSON object {\"event\", \"data\", \"id\", \"retry\"}".into());
    };
    if let Some(key) = object
        .keys()
        .find(|k| !matches!(k.as_str(), "event" | "data" | "id" | "retry"))
    {
        return Err(format!("unknown member \"{key}\""));
    }
    let data = string(&object, "data")?.ok_or("missing \"data\"")?;
    let mut frame = Frame::new(data);
    match string(&object, "event")? {
        Some("message") | None => {}
        Some(event) => frame = frame.with_event(event),
    }
    if let Some(id) = string(&object, "id")? {
        id.clone_into(last_id);
    }
    frame = frame.with_id(last_id.as_str());
    match object.get("retry") {
        None | Some(Value::Null) => {}
        Some(v) => {
            let ms = v.as_u64().ok_or_else(|| {
                format!("\"retry\" must be a non-negative integer or null, not {v}")
            })?;
            frame = frame.with_retry(Some(ms));
        }
    }
    Ok(frame)
}

/// The string member `key`, if present.
fn string<'a>(object: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, String> {
    match object.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(v) => Err(format!("\"{key}\" must be a string, not {v}")),
    }
}
