//! `ssekit bridge`: translates a recorded stream into another dialect with
//! [`ssekit::bridge`] and writes the translated SSE stream.
//!
//! Exit status: 0 when the upstream was translated whole; 1 when the
//! upstream broke its protocol or ended early (the output then ends with
//! `response.failed`, or an error chunk and `[DONE]`, and the error goes to
//! standard error); 2 for usage and I/O errors, and for a pair of dialects
//! the bridge does not translate.

use std::io::{self, BufWriter, Write};

use ssekit::bridge::{
    AnthropicToResponses, Bridge, ChatToResponses, GeminiToResponses, ResponsesToChat,
};
use ssekit::Frame;

use crate::events::{detect, Dialect};
use crate::{each_frame, parse_input, Failure, Usage};

/// The `--to` option.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Responses,
    Chat,
}

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
                to = Some(match v.as_str() {
                    "responses" => Target::Responses,
                    "chat" => Target::Chat,
                    _ => return Err(Usage(format!("--to takes responses or chat, not '{v}'"))),
                });
                Ok(true)
            }
            "--from" => {
                let v = value("--from")?;
                from = match v.as_str() {
                    "responses" => Some(Dialect::Responses),
                    "chat" => Some(Dialect::Chat),
                    "anthropic" => Some(Dialect::Anthropic),
                    "gemini" => Some(Dialect::Gemini),
                    "auto" => None,
                    _ => {
                        return Err(Usage(format!(
                            "--from takes responses, chat, anthropic, gemini or auto, not '{v}'"
                        )))
                    }
                };
                Ok(true)
            }
            _ => Ok(false),
        }
    })?;
    let to = to.ok_or_else(|| Usage("bridge needs --to responses or --to chat".into()))?;
    let mut out = BufWriter::new(io::stdout().lock());
    let mut state = State {
        to,
        bridge: None,
        pending: Vec::new(),
        error: None,
    };
    if let Some(dialect) = from {
        state.bridge = Some(make(to, dialect)?);
    }
    let seen = each_frame(&input, &mut out, |out, start, frame| {
        state.frame(start, frame)?;
        state.write(out)
    })?;
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
    to: Target,
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
                Some(dialect) => self.bridge = Some(make(self.to, dialect)?),
                None => {
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

/// The bridge from `from` to `to`; exit status 2 for a pair it does not
/// translate.
fn make(to: Target, from: Dialect) -> Result<Box<dyn Bridge>, Failure> {
    Ok(match (to, from) {
        (Target::Responses, Dialect::Chat) => Box::new(ChatToResponses::new()),
        (Target::Responses, Dialect::Anthropic) => Box::new(AnthropicToResponses::new()),
        (Target::Responses, Dialect::Gemini) => Box::new(GeminiToResponses::new()),
        (Target::Chat, Dialect::Responses) => Box::new(ResponsesToChat::new()),
        (to, from) => {
            let to = match to {
                Target::Responses => "responses",
                Target::Chat => "chat",
            };
            eprintln!(
                "ssekit: bridge translates chat, anthropic and gemini to responses, and \
                 responses to chat; this is {} stream (--to {to})",
                from.describe()
            );
            return Err(Failure::Exit(2));
        }
    })
}
