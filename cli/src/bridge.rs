//! `ssekit bridge`: translates a recorded stream into another dialect with
//! [`ssekit::bridge`] and writes the translated SSE stream.
//!
//! Any of the four dialects translates into any other (or into itself,
//! which normalises a stream): [`ssekit::bridge::boxed`] reads the upstream
//! into the turn model and writes the target dialect.
//!
//! Exit status: 0 when the upstream was translated whole; 1 when the
//! upstream broke its protocol or ended early (the output then ends with the
//! target dialect's error end, and the error goes to standard error); 2 for
//! usage and I/O errors.

use std::io::{self, BufWriter, Write};

use ssekit::bridge::{Bridge, BridgeConfig};
use ssekit::Frame;

use crate::events::{detect, Dialect};
use crate::{each_frame_or_comment, parse_input, Failure, Usage};

pub(crate) fn bridge(args: &[String]) -> Result<(), Failure> {
    let mut to = None;
    let mut from: Option<Dialect> = None;
    let input = parse_input(args, |opt, rest| {
        let mut value = |name: &str| {
            rest.next()
                .cloned()
                .ok_or_else(|| Usage(format!("{name} needs a value")))
        };
        match opt {
            "--to" => {
                let v = value("--to")?;
                to = Some(v.parse::<Dialect>().map_err(|_| {
                    Usage(format!(
                        "--to takes responses, chat, anthropic or gemini, not '{v}'"
                    ))
                })?);
                Ok(true)
            }
            "--from" => {
                let v = value("--from")?;
                from = match v.as_str() {
                    "auto" => None,
                    _ => Some(v.parse::<Dialect>().map_err(|_| {
                        Usage(format!(
                            "--from takes responses, chat, anthropic, gemini or auto, not '{v}'"
                        ))
                    })?),
                };
                Ok(true)
            }
            _ => Ok(false),
        }
    })?;
    let to = to.ok_or_else(|| {
        Usage("bridge needs --to responses, --to chat, --to anthropic or --to gemini".into())
    })?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut state = State {
        to,
        bridge: None,
        pending: Vec::new(),
        error: None,
    };
    if let Some(dialect) = from {
        state.bridge = Some(make(to, dialect));
    }
    let state = std::cell::RefCell::new(state);
    let seen = each_frame_or_comment(
        &input,
        &mut out,
        |out, start, frame| {
            let mut state = state.borrow_mut();
            state.frame(start, frame)?;
            state.write(out)
        },
        |out| {
            let mut state = state.borrow_mut();
            if let Some(b) = state.bridge.as_mut() {
                b.upstream_comment();
            }
            // A comment before the dialect is known has nothing to keep
            // alive yet.
            state.write(out)
        },
    )?;
    let mut state = state.into_inner();
    if state.bridge.is_none() {
        eprintln!("ssekit: no event tells the upstream's dialect; give it with --from");
        out.flush()?;
        return Err(Failure::Exit(1));
    }
    if seen.problems > 0 {
        if let Some(b) = state.bridge.as_mut() {
            b.abort(
                "server_error",
                "the upstream broke a parser limit or was cut",
            );
        }
        state
            .error
            .get_or_insert_with(|| "the upstream stream was damaged".into());
    }
    if let Some(b) = state.bridge.as_mut() {
        if let Err(e) = b.finish() {
            state.error.get_or_insert_with(|| e.to_string());
        }
        let n = b.not_carried();
        if n > 0 {
            eprintln!(
                "ssekit: warning: {n} upstream item(s) (hosted tools, server tool results) \
                 have no form in the output dialect and were left out"
            );
        }
    }
    state.write(&mut out)?;
    out.flush()?;
    if let Some(e) = state.error {
        eprintln!("ssekit: {e}");
        return Err(Failure::Exit(1));
    }
    Ok(())
}

struct State {
    to: Dialect,
    bridge: Option<Box<dyn Bridge>>,
    /// Frames before the dialect was known, with their stream offsets.
    pending: Vec<(u64, Frame)>,
    /// The first bridge error.
    error: Option<String>,
}

impl State {
    fn frame(&mut self, start: u64, frame: Frame) -> Result<(), Failure> {
        if self.bridge.is_none() {
            match detect(&frame) {
                Some(dialect) => self.bridge = Some(make(self.to, dialect)),
                None => {
                    // Frames that name no dialect are kept until one does,
                    // up to the bytes `lint` sniffs before it gives up.
                    if start > crate::lint::MAX_SNIFF {
                        eprintln!(
                            "ssekit: no event in the first {} bytes tells the upstream's \
                             dialect; give it with --from",
                            crate::lint::MAX_SNIFF
                        );
                        return Err(Failure::Exit(1));
                    }
                    self.pending.push((start, frame));
                    return Ok(());
                }
            }
            for (at, f) in std::mem::take(&mut self.pending) {
                self.push(at, &f);
            }
        }
        self.push(start, &frame);
        Ok(())
    }

    fn push(&mut self, start: u64, frame: &Frame) {
        let Some(b) = self.bridge.as_mut() else {
            return;
        };
        if b.is_finished() {
            return;
        }
        if let Err(e) = b.push_frame(frame) {
            let e = e.with_stream_offset(start);
            self.error.get_or_insert_with(|| e.to_string());
        }
    }

    fn write(&mut self, out: &mut impl Write) -> Result<(), Failure> {
        if let Some(b) = self.bridge.as_mut() {
            out.write_all(&b.take())?;
        }
        Ok(())
    }
}

/// The bridge from `from` to `to`: the upstream's reader and the target's
/// writer.
fn make(to: Dialect, from: Dialect) -> Box<dyn Bridge> {
    ssekit::bridge::boxed(from, to, &BridgeConfig::default())
}
