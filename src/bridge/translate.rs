//! The bridge as a reader followed by a writer: any dialect to any other.

use alloc::boxed::Box;
use alloc::string::String;
use bytes::Bytes;

use super::{Bridge, BridgeConfig, BridgeError, BridgeErrorKind};
use crate::frame::Frame;
use crate::turn::{
    AnthropicReader, AnthropicWriter, ChatReader, ChatWriter, Dialect, GeminiReader, GeminiWriter,
    ResponsesReader, ResponsesTurnWriter, TurnConfig, TurnError, TurnErrorKind, TurnEvent,
    TurnReader, TurnWriter,
};

/// A bridge built from a dialect's [`TurnReader`] and another's (or the
/// same) [`TurnWriter`]: each upstream frame is read into turn events and
/// written at once.
///
/// | from \ to | Responses | Chat | Anthropic | Gemini |
/// | --- | --- | --- | --- | --- |
/// | Responses | [`ResponsesReader`] · [`ResponsesTurnWriter`] | … · [`ChatWriter`] | … · [`AnthropicWriter`] | … · [`GeminiWriter`] |
/// | Chat | [`ChatReader`] · … | | | |
/// | Anthropic | [`AnthropicReader`] · … | | | |
/// | Gemini | [`GeminiReader`] · … | | | |
///
/// [`translate`] picks the pair at run time.
///
/// An upstream that breaks its protocol gets a [`BridgeError`] with the
/// upstream event's position, and the downstream gets its dialect's failed
/// end (Responses `response.failed`, Anthropic `event: error`, a Chat
/// error chunk and `[DONE]`, a Gemini error object). A keep-alive of the
/// upstream (an Anthropic `ping`, an SSE comment through [`BytesBridge`](super::BytesBridge))
/// becomes the downstream's.
///
/// ```
/// use ssekit::bridge::{BytesBridge, Translate};
/// use ssekit::turn::{ChatReader, AnthropicWriter, TurnConfig};
/// use ssekit::Bytes;
///
/// let upstream = concat!(
///     r#"data: {"id":"c1","model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"}}]}"#, "\n\n",
///     r#"data: {"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#, "\n\n",
/// );
/// let config = TurnConfig::default();
/// let mut bridge = BytesBridge::new(Translate::from_parts(ChatReader::new(&config), AnthropicWriter::new(config)));
/// bridge.feed(Bytes::from_static(upstream.as_bytes()))?;
/// bridge.finish()?; // no [DONE]: complete all the same
/// let out = String::from_utf8(bridge.take().to_vec()).unwrap();
/// assert!(out.starts_with("event: message_start\n"));
/// assert!(out.contains(r#""delta":{"type":"text_delta","text":"Hi"}"#));
/// assert!(out.ends_with("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"));
/// # Ok::<(), ssekit::bridge::BridgeError>(())
/// ```
#[derive(Debug)]
pub struct Translate<R, W> {
    reader: R,
    writer: W,
    failed: bool,
}

impl<R: TurnReader, W: TurnWriter> Translate<R, W> {
    /// This reader followed by this writer.
    pub fn from_parts(reader: R, writer: W) -> Self {
        Self {
            reader,
            writer,
            failed: false,
        }
    }

    /// The reader (its [`skipped`](TurnReader::skipped) choices, its count
    /// of events).
    pub fn reader(&self) -> &R {
        &self.reader
    }

    /// The writer.
    pub fn writer(&self) -> &W {
        &self.writer
    }

    fn fail(&mut self, e: TurnError) -> BridgeError {
        self.failed = true;
        let err = BridgeError::new(kind(e.kind()), e.event_index());
        let mut message = String::new();
        {
            use core::fmt::Write;
            let _ = write!(message, "{err}");
        }
        self.writer.fail("server_error", &message);
        err
    }

    fn done(&self) -> bool {
        self.failed || self.writer.is_finished()
    }
}

/// The bridge's kind for a turn error.
fn kind(k: TurnErrorKind) -> BridgeErrorKind {
    match k {
        TurnErrorKind::Decode(e) => BridgeErrorKind::Decode(e),
        TurnErrorKind::UnknownIndex { index } => BridgeErrorKind::UnknownIndex { index },
        TurnErrorKind::IndexClosed { index }
        | TurnErrorKind::DuplicateIndex { index }
        | TurnErrorKind::DuplicateEnd { index } => BridgeErrorKind::IndexClosed { index },
        TurnErrorKind::TooManyItems { limit } => BridgeErrorKind::TooManyItems { limit },
        TurnErrorKind::ContentAfterFinish | TurnErrorKind::ContentAfterStop { .. } => {
            BridgeErrorKind::ContentAfterFinish
        }
        // A call that cannot start: its fragments name an index never
        // started.
        TurnErrorKind::CallWithoutId { call, .. } => BridgeErrorKind::UnknownIndex { index: call },
        TurnErrorKind::Truncated => BridgeErrorKind::Truncated,
        TurnErrorKind::Writer(w) => BridgeErrorKind::Writer(w),
        other => BridgeErrorKind::Turn(other),
    }
}

impl<R: TurnReader, W: TurnWriter> Bridge for Translate<R, W> {
    fn push_frame(&mut self, frame: &Frame) -> Result<(), BridgeError> {
        if self.done() {
            return Err(BridgeError::new(
                BridgeErrorKind::Finished,
                self.reader.events(),
            ));
        }
        match self.reader.read(frame, &mut self.writer) {
            Ok(()) => Ok(()),
            Err(e) => {
                // A writer's error carries no position: the event is the
                // one just read.
                let e = TurnError::new(e.kind(), self.reader.events().saturating_sub(1));
                Err(self.fail(e))
            }
        }
    }

    fn finish(&mut self) -> Result<(), BridgeError> {
        if self.done() {
            return Ok(());
        }
        match self.reader.finish(&mut self.writer) {
            Ok(()) if self.writer.is_finished() => Ok(()),
            Ok(()) => Err(self.fail(TurnError::new(
                TurnErrorKind::Truncated,
                self.reader.events(),
            ))),
            Err(e) => {
                let e = TurnError::new(e.kind(), self.reader.events());
                Err(self.fail(e))
            }
        }
    }

    fn abort(&mut self, code: &str, message: &str) {
        self.failed = true;
        self.writer.fail(code, message);
    }

    fn take(&mut self) -> Bytes {
        self.writer.take()
    }

    fn keep_alive(&mut self) {
        if !self.done() {
            let _ = self.writer.write(&TurnEvent::KeepAlive);
        }
    }

    fn is_finished(&self) -> bool {
        self.done()
    }

    fn events(&self) -> u64 {
        self.reader.events()
    }

    fn not_carried(&self) -> u64 {
        self.writer.not_carried()
    }

    fn wants_comments(&self) -> bool {
        true
    }
}

/// A reader of any dialect, chosen at run time.
#[derive(Debug)]
#[non_exhaustive]
pub enum AnyReader {
    /// Responses.
    Responses(ResponsesReader),
    /// Chat Completions.
    Chat(ChatReader),
    /// Anthropic Messages.
    Anthropic(AnthropicReader),
    /// Gemini.
    Gemini(GeminiReader),
}

impl AnyReader {
    /// The reader of `dialect`.
    pub fn new(dialect: Dialect, config: &TurnConfig) -> Self {
        match dialect {
            Dialect::Chat => Self::Chat(ChatReader::new(config)),
            Dialect::Anthropic => Self::Anthropic(AnthropicReader::new(config)),
            Dialect::Gemini => Self::Gemini(GeminiReader::new(config)),
            _ => Self::Responses(ResponsesReader::new(config)),
        }
    }
}

impl TurnReader for AnyReader {
    fn read<W: TurnWriter + ?Sized>(
        &mut self,
        frame: &Frame,
        out: &mut W,
    ) -> Result<(), TurnError> {
        match self {
            Self::Responses(r) => r.read(frame, out),
            Self::Chat(r) => r.read(frame, out),
            Self::Anthropic(r) => r.read(frame, out),
            Self::Gemini(r) => r.read(frame, out),
        }
    }

    fn finish<W: TurnWriter + ?Sized>(&mut self, out: &mut W) -> Result<(), TurnError> {
        match self {
            Self::Responses(r) => r.finish(out),
            Self::Chat(r) => r.finish(out),
            Self::Anthropic(r) => r.finish(out),
            Self::Gemini(r) => r.finish(out),
        }
    }

    fn events(&self) -> u64 {
        match self {
            Self::Responses(r) => r.events(),
            Self::Chat(r) => r.events(),
            Self::Anthropic(r) => r.events(),
            Self::Gemini(r) => r.events(),
        }
    }

    fn skipped(&self) -> u64 {
        match self {
            Self::Responses(r) => r.skipped(),
            Self::Chat(r) => r.skipped(),
            Self::Anthropic(r) => r.skipped(),
            Self::Gemini(r) => r.skipped(),
        }
    }
}

/// A writer of any dialect, chosen at run time.
// One per stream, made once: boxing the largest would allocate for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
#[non_exhaustive]
pub enum AnyWriter {
    /// Responses.
    Responses(ResponsesTurnWriter),
    /// Chat Completions.
    Chat(ChatWriter),
    /// Anthropic Messages.
    Anthropic(AnthropicWriter),
    /// Gemini.
    Gemini(GeminiWriter),
}

impl AnyWriter {
    /// The writer of `dialect`.
    pub fn new(dialect: Dialect, config: TurnConfig) -> Self {
        match dialect {
            Dialect::Chat => Self::Chat(ChatWriter::new(config)),
            Dialect::Anthropic => Self::Anthropic(AnthropicWriter::new(config)),
            Dialect::Gemini => Self::Gemini(GeminiWriter::new(config)),
            _ => Self::Responses(ResponsesTurnWriter::new(config)),
        }
    }
}

impl TurnWriter for AnyWriter {
    fn wants_extras(&self) -> bool {
        match self {
            Self::Responses(w) => w.wants_extras(),
            Self::Chat(w) => w.wants_extras(),
            Self::Anthropic(w) => w.wants_extras(),
            Self::Gemini(w) => w.wants_extras(),
        }
    }

    fn write(&mut self, event: &TurnEvent<'_>) -> Result<(), TurnError> {
        match self {
            Self::Responses(w) => w.write(event),
            Self::Chat(w) => w.write(event),
            Self::Anthropic(w) => w.write(event),
            Self::Gemini(w) => w.write(event),
        }
    }

    fn fail(&mut self, code: &str, message: &str) {
        match self {
            Self::Responses(w) => w.fail(code, message),
            Self::Chat(w) => w.fail(code, message),
            Self::Anthropic(w) => w.fail(code, message),
            Self::Gemini(w) => w.fail(code, message),
        }
    }

    fn not_carried(&self) -> u64 {
        match self {
            Self::Responses(w) => w.not_carried(),
            Self::Chat(w) => w.not_carried(),
            Self::Anthropic(w) => w.not_carried(),
            Self::Gemini(w) => w.not_carried(),
        }
    }

    fn take(&mut self) -> Bytes {
        match self {
            Self::Responses(w) => w.take(),
            Self::Chat(w) => w.take(),
            Self::Anthropic(w) => w.take(),
            Self::Gemini(w) => w.take(),
        }
    }

    fn is_finished(&self) -> bool {
        match self {
            Self::Responses(w) => w.is_finished(),
            Self::Chat(w) => w.is_finished(),
            Self::Anthropic(w) => w.is_finished(),
            Self::Gemini(w) => w.is_finished(),
        }
    }
}

/// The bridge from `from` to `to`, picked at run time (what
/// `ssekit bridge --from D --to D` runs).
///
/// ```
/// use ssekit::bridge::{translate, BridgeConfig, BytesBridge};
/// use ssekit::turn::Dialect;
/// use ssekit::Bytes;
///
/// let mut bridge = BytesBridge::new(translate(Dialect::Gemini, Dialect::Chat, &BridgeConfig::default()));
/// bridge.feed(Bytes::from_static(br#"data: {"candidates":[{"content":{"parts":[{"text":"Hi"}]},"finishReason":"STOP"}],"responseId":"r1","modelVersion":"g"}
///
/// "#))?;
/// bridge.finish()?;
/// let out = String::from_utf8(bridge.take().to_vec()).unwrap();
/// assert!(out.contains(r#""delta":{"content":"Hi"}"#));
/// assert!(out.ends_with("data: [DONE]\n\n"));
/// # Ok::<(), ssekit::bridge::BridgeError>(())
/// ```
pub fn translate(
    from: Dialect,
    to: Dialect,
    config: &BridgeConfig,
) -> Translate<AnyReader, AnyWriter> {
    let turn = turn_config(config);
    Translate::from_parts(AnyReader::new(from, &turn), AnyWriter::new(to, turn))
}

/// [`translate`], boxed as a `dyn Bridge`.
pub fn boxed(from: Dialect, to: Dialect, config: &BridgeConfig) -> Box<dyn Bridge + Send> {
    Box::new(translate(from, to, config))
}

/// The turn config of a bridge config.
pub fn turn_config(config: &BridgeConfig) -> TurnConfig {
    let mut t = TurnConfig::default();
    t.id.clone_from(&config.response_id);
    t.model.clone_from(&config.model);
    t.created = config.created_at;
    t.max_items = config.max_items;
    t.max_kept_bytes = config.max_kept_bytes;
    t.max_held_bytes = config.max_held_bytes;
    t
}

/// Chat Completions chunks → Responses events. See [`ChatReader`] for
/// what is read and [`ResponsesTurnWriter`] for what is written.
pub type ChatToResponses = Translate<ChatReader, ResponsesTurnWriter>;
/// Anthropic Messages events → Responses events. See [`AnthropicReader`]
/// and [`ResponsesTurnWriter`].
pub type AnthropicToResponses = Translate<AnthropicReader, ResponsesTurnWriter>;
/// Gemini chunks → Responses events. See [`GeminiReader`] and
/// [`ResponsesTurnWriter`]. A Gemini stream has no end event: the terminal
/// event is written by [`finish`](Bridge::finish).
pub type GeminiToResponses = Translate<GeminiReader, ResponsesTurnWriter>;
/// Responses events → Chat Completions chunks. See [`ResponsesReader`] and
/// [`ChatWriter`].
pub type ResponsesToChat = Translate<ResponsesReader, ChatWriter>;

macro_rules! direction {
    ($reader:ident, $writer:ident, $event:ty) => {
        impl Default for Translate<$reader, $writer> {
            fn default() -> Self {
                Self::with_config(BridgeConfig::default())
            }
        }

        impl Translate<$reader, $writer> {
            /// A bridge with the default [`BridgeConfig`].
            pub fn new() -> Self {
                Self::default()
            }

            /// A bridge with this config.
            pub fn with_config(config: BridgeConfig) -> Self {
                let turn = turn_config(&config);
                Self::from_parts($reader::new(&turn), $writer::new(turn))
            }

            /// Translates one decoded upstream event (what
            /// [`push_frame`](Bridge::push_frame) does after decoding).
            ///
            /// # Errors
            ///
            /// As [`push_frame`](Bridge::push_frame).
            pub fn push(&mut self, event: &$event) -> Result<(), BridgeError> {
                if self.done() {
                    return Err(BridgeError::new(
                        BridgeErrorKind::Finished,
                        self.reader.events(),
                    ));
                }
                match self.reader.read_event(event, &mut self.writer) {
                    Ok(()) => Ok(()),
                    Err(e) => {
                        let e = TurnError::new(e.kind(), self.reader.events().saturating_sub(1));
                        Err(self.fail(e))
                    }
                }
            }
        }
    };
}

direction!(ChatReader, ResponsesTurnWriter, crate::chat::ChatEvent<'_>);
direction!(
    AnthropicReader,
    ResponsesTurnWriter,
    crate::anthropic::AnthropicEvent<'_>
);
direction!(
    GeminiReader,
    ResponsesTurnWriter,
    crate::gemini::GeminiEvent<'_>
);
direction!(
    ResponsesReader,
    ChatWriter,
    crate::responses::ResponsesEvent<'_>
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Frame;

    /// The bridge's `max_held_bytes` reaches the writer: towards Gemini a
    /// tool call's arguments are held until the call ends.
    #[test]
    fn the_hold_limit_reaches_the_writer() {
        let config = BridgeConfig {
            max_held_bytes: 8,
            ..BridgeConfig::default()
        };
        let mut bridge = translate(Dialect::Chat, Dialect::Gemini, &config);
        let start = r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":""}}]}}]}"#;
        let args = r#"{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\": \"Paris\"}"}}]}}]}"#;
        bridge.push_frame(&Frame::new(start)).unwrap();
        let err = bridge.push_frame(&Frame::new(args)).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                BridgeErrorKind::Turn(TurnErrorKind::HoldExceeded { limit: 8 })
            ),
            "{err}"
        );
        // With the default limit the same call goes through.
        let mut bridge = translate(Dialect::Chat, Dialect::Gemini, &BridgeConfig::default());
        bridge.push_frame(&Frame::new(start)).unwrap();
        bridge.push_frame(&Frame::new(args)).unwrap();
    }
}
