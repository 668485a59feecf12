//! Frames, comments and `retry` fields to wire bytes, for servers and
//! proxies that send Server-Sent Events.
//!
//! [`Encoder`] writes any frames. The writer of whole OpenAI Responses
//! streams is [`responses::writer`](crate::responses::writer).
//!
//! The encoder writes what the [`Parser`](crate::Parser) reads back as the
//! same frames. Three rules make that so:
//!
//! * every `data` line is written as `data: ` + value, so a value that starts
//!   with a space keeps it (the parser removes exactly the one space we add);
//! * data is split at every line break, CRLF counting as one, so an empty
//!   line, a trailing LF or an empty data field survive the trip. SSE has no
//!   way to carry a CR inside data: CR and CRLF come back as LF;
//! * the last event ID is part of the stream's state, so the encoder writes
//!   an `id` line only when a frame's id differs from the one the reader
//!   already has, including a change back to `""`.

use alloc::vec::Vec;
use bytes::{BufMut, Bytes};
use core::fmt;

use crate::Frame;

mod json;

pub use json::push_json_str;

/// The headers of an SSE response, as `(name, value)` pairs: what a
/// server or gateway sends with a body written by [`Encoder`] or
/// [`ResponsesWriter`](crate::responses::writer::ResponsesWriter).
///
/// * `content-type: text/event-stream`: what makes it an event stream
///   (browsers' `EventSource` refuses anything else; add `; charset=utf-8`
///   if you like, the stream is UTF-8 either way);
/// * `cache-control: no-cache`: no cache may keep or replay it;
/// * `x-accel-buffering: no`: nginx (and proxies that follow it) pass each
///   chunk on at once instead of buffering the response.
///
/// Send no `content-length` (the body's length is not known: HTTP/1.1 sends
/// it chunked, HTTP/2 and 3 in frames), and do not compress the body
/// unless every chunk is flushed through the compressor. With axum the
/// array is itself a set of response headers:
/// `(SSE_HEADERS, axum::body::Body::from_stream(body))`.
///
/// ```
/// let headers: std::collections::HashMap<_, _> = ssekit::encode::SSE_HEADERS.into_iter().collect();
/// assert_eq!(headers["content-type"], "text/event-stream");
/// ```
pub const SSE_HEADERS: [(&str, &str); 3] = [
    ("content-type", "text/event-stream"),
    ("cache-control", "no-cache"),
    ("x-accel-buffering", "no"),
];

/// Why a frame or comment cannot be written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The event type contains CR or LF, which would end its line early.
    EventNameLineBreak,
    /// The id contains CR or LF, which would end its line early.
    IdLineBreak,
    /// The id contains NUL: readers ignore such an `id` field.
    IdNul,
}

/// An error of the encoder: nothing was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeError {
    kind: EncodeErrorKind,
    position: usize,
}

impl EncodeError {
    #[cold]
    fn new(kind: EncodeErrorKind, position: usize) -> Self {
        Self { kind, position }
    }

    /// What is wrong.
    pub fn kind(&self) -> EncodeErrorKind {
        self.kind
    }

    /// Byte position of the offending character in the event type or id.
    pub fn position(&self) -> usize {
        self.position
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            EncodeErrorKind::EventNameLineBreak => "line break in event type",
            EncodeErrorKind::IdLineBreak => "line break in id",
            EncodeErrorKind::IdNul => "nul in id",
        };
        write!(f, "{what} at byte {}", self.position)
    }
}

impl core::error::Error for EncodeError {}

/// Writes SSE streams.
///
/// # Example
///
/// ```
/// use ssekit::{encode::Encoder, Frame};
///
/// let mut encoder = Encoder::new();
/// let mut wire = Vec::new();
/// encoder.comment(&mut wire, "keep-alive");
/// encoder.frame(&mut wire, &Frame::new("two\nlines").with_event("note").with_id("1"))?;
/// assert_eq!(wire, b": keep-alive\nid: 1\nevent: note\ndata: two\ndata: lines\n\n");
/// # Ok::<(), ssekit::encode::EncodeError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct Encoder {
    last_id: Bytes,
}

impl Encoder {
    /// An encoder at the start of a stream (the reader's last event ID is `""`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes one frame: its `id` line if the id changed, its `event` line
    /// unless the type is the default `message`, its `retry` line, its data
    /// lines, and the blank line that dispatches it.
    ///
    /// # Errors
    ///
    /// When the event type or id cannot be carried by SSE (see
    /// [`EncodeErrorKind`]); nothing is written then.
    pub fn frame<B: BufMut>(&mut self, out: &mut B, frame: &Frame) -> Result<(), EncodeError> {
        if let Some(i) = memchr::memchr2(b'\r', b'\n', frame.event().as_bytes()) {
            return Err(EncodeError::new(EncodeErrorKind::EventNameLineBreak, i));
        }
        let id = frame.id().as_bytes();
        if let Some(i) = memchr::memchr2(b'\r', b'\n', id) {
            return Err(EncodeError::new(EncodeErrorKind::IdLineBreak, i));
        }
        if let Some(i) = memchr::memchr(0, id) {
            return Err(EncodeError::new(EncodeErrorKind::IdNul, i));
        }
        if id != &self.last_id[..] {
            if id.is_empty() {
                out.put_slice(b"id\n");
            } else {
                field(out, b"id: ", id);
            }
            self.last_id = Bytes::copy_from_slice(id);
        }
        if frame.has_event_type() {
            field(out, b"event: ", frame.event().as_bytes());
        }
        if let Some(ms) = frame.retry() {
            retry(out, ms);
        }
        lines(out, b"data: ", frame.data().as_bytes());
        out.put_u8(b'\n');
        Ok(())
    }

    /// Writes a comment (ignored by readers; a keep-alive, for instance). A
    /// comment with line breaks is written as several comment lines.
    pub fn comment<B: BufMut>(&mut self, out: &mut B, text: &str) {
        lines(out, b": ", text.as_bytes());
    }

    /// Writes a `retry` field on its own: the reader's reconnection time
    /// changes, and no event is dispatched.
    pub fn retry<B: BufMut>(&mut self, out: &mut B, ms: u64) {
        retry(out, ms);
        out.put_u8(b'\n');
    }

    /// Encodes a frame into a new buffer.
    ///
    /// # Errors
    ///
    /// As [`frame`](Self::frame).
    pub fn to_vec(&mut self, frame: &Frame) -> Result<Vec<u8>, EncodeError> {
        let mut out = Vec::new();
        self.frame(&mut out, frame)?;
        Ok(out)
    }

    /// Writes one frame to an [`std::io::Write`].
    ///
    /// # Errors
    ///
    /// An [`std::io::Error`] of kind `InvalidInput` wrapping the
    /// [`EncodeError`] when the frame cannot be encoded, or the writer's error.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn write_frame<W: std::io::Write>(
        &mut self,
        w: &mut W,
        frame: &Frame,
    ) -> std::io::Result<()> {
        let mut buf = Vec::new();
        let before = self.last_id.clone();
        if let Err(e) = self.frame(&mut buf, frame) {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, e));
        }
        w.write_all(&buf).inspect_err(|_| self.last_id = before)
    }
}

fn field<B: BufMut>(out: &mut B, name: &[u8], value: &[u8]) {
    out.put_slice(name);
    out.put_slice(value);
    out.put_u8(b'\n');
}

fn retry<B: BufMut>(out: &mut B, ms: u64) {
    let mut digits = [0u8; 20];
    field(out, b"retry: ", crate::json::decimal(ms, &mut digits));
}

/// Writes `text` as one `prefix` line per line of text (CRLF, LF or CR
/// breaks); an empty text is one empty line.
pub(crate) fn lines<B: BufMut>(out: &mut B, prefix: &[u8], mut text: &[u8]) {
    loop {
        match memchr::memchr2(b'\r', b'\n', text) {
            Some(i) => {
                field(out, prefix, &text[..i]);
                let skip = if text[i] == b'\r' && text.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                text = &text[i + skip..];
            }
            None => {
                field(out, prefix, text);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Parser;
    use alloc::string::ToString;

    fn parse(wire: &[u8]) -> Vec<Frame> {
        let mut p = Parser::new();
        p.feed(Bytes::copy_from_slice(wire));
        let mut out = Vec::new();
        while let Some(f) = p.next_frame().unwrap() {
            out.push(f);
        }
        p.finish().unwrap();
        out
    }

    #[test]
    fn tricky_data_survives() {
        for data in [
            "", " lead", "  two", "trail\n", "\n", "\n\n", "a\n\nb", ":colon", "data: x",
        ] {
            let f = Frame::new(data);
            assert_eq!(parse(&Encoder::new().to_vec(&f).unwrap()), [f], "{data:?}");
        }
    }

    #[test]
    fn cr_and_crlf_become_lf() {
        let wire = Encoder::new().to_vec(&Frame::new("a\r\nb\rc")).unwrap();
        assert_eq!(wire, b"data: a\ndata: b\ndata: c\n\n");
        assert_eq!(parse(&wire)[0].data(), "a\nb\nc");
    }

    #[test]
    fn id_written_only_when_it_changes() {
        let mut e = Encoder::new();
        let mut wire = Vec::new();
        for f in [
            Frame::new("1").with_id("a"),
            Frame::new("2").with_id("a"),
            Frame::new("3"),
            Frame::new("4").with_retry(Some(1500)),
        ] {
            e.frame(&mut wire, &f).unwrap();
        }
        assert_eq!(
            wire,
            b"id: a\ndata: 1\n\ndata: 2\n\nid\ndata: 3\n\nretry: 1500\ndata: 4\n\n".as_slice()
        );
        let back = parse(&wire);
        assert_eq!(
            back.iter().map(Frame::id).collect::<Vec<_>>(),
            ["a", "a", "", ""]
        );
        assert_eq!(back[3].retry(), Some(1500));
    }

    #[test]
    fn unencodable_names_are_errors() {
        let mut e = Encoder::new();
        let mut out = Vec::new();
        let err = e
            .frame(&mut out, &Frame::new("x").with_event("a\nb"))
            .unwrap_err();
        assert_eq!(err.kind(), EncodeErrorKind::EventNameLineBreak);
        assert_eq!(err.to_string(), "line break in event type at byte 1");
        assert_eq!(
            e.frame(&mut out, &Frame::new("x").with_id("1\r"))
                .unwrap_err()
                .kind(),
            EncodeErrorKind::IdLineBreak
        );
        assert_eq!(
            e.frame(&mut out, &Frame::new("x").with_id("\0"))
                .unwrap_err()
                .kind(),
            EncodeErrorKind::IdNul
        );
        assert!(out.is_empty());
    }

    #[test]
    fn comments_and_retry() {
        let mut e = Encoder::new();
        let mut out = Vec::new();
        e.comment(&mut out, "a\nb");
        e.retry(&mut out, 0);
        e.retry(&mut out, u64::MAX);
        assert_eq!(
            out,
            b": a\n: b\nretry: 0\n\nretry: 18446744073709551615\n\n".as_slice()
        );
        assert!(parse(&out).is_empty());
    }
}
