//! Frames and typed events from async byte sources, and HTTP bodies from
//! writers (features `stream` and `codec`).
//!
//! The [`Parser`](crate::Parser) does no I/O. These adapters drive it from the
//! two usual shapes of async input, and neither starts tasks or needs a
//! particular runtime:
//!
//! | feature  | type | reads from | for |
//! | -------- | ---- | ---------- | --- |
//! | `stream` | `FrameStream`, made by `SseStreamExt::sse_frames` | any `Stream<Item = Result<B, E>>` with `B: Into<Bytes>` | HTTP client bodies: reqwest's `bytes_stream()`, hyper and axum bodies as data streams |
//! | `stream` | `EventStream`, made by `SseStreamExt::responses_events` / `chat_events` / `anthropic_events` / `gemini_events` | the same | owned typed events, and with `accumulate()` the final response and how the stream ended |
//! | `codec`  | `SseCodec` | any `tokio::io::AsyncRead` through `tokio_util::codec::FramedRead` (and writes through `FramedWrite`) | sockets, pipes, child processes; serving streams |
//!
//! Both yield the frames of [`Parser::next_frame`](crate::Parser::next_frame)
//! with the same zero-copy slicing, keep transport errors apart from
//! [`FrameError`](crate::FrameError)s, and report a stream cut inside an event
//! as [`TruncatedTail`](crate::FrameErrorKind::TruncatedTail) when the input
//! ends.
#![cfg_attr(
    feature = "stream",
    doc = r#"
# `stream`: frames from a stream of chunks

[`SseStreamExt::sse_frames`] wraps any stream of byte chunks, here made with
`futures::stream::iter`; chunks may split lines anywhere.

```
use futures::{executor::block_on, stream, StreamExt};
use ssekit::adapters::{SseStreamExt, StreamError};
use ssekit::FrameErrorKind;

let chunks = stream::iter([
    Ok::<_, std::io::Error>("event: greeting\ndata: hel"),
    Ok("lo\n\ndata: cut o"),
    Ok("ff"),
]);
let mut frames = chunks.sse_frames();
block_on(async {
    let frame = frames.next().await.expect("one event")?;
    assert_eq!((frame.event(), frame.data()), ("greeting", "hello"));

    // The chunks ended inside an event: reported, then the stream ends.
    match frames.next().await {
        Some(Err(StreamError::Frame(e))) => {
            assert_eq!(e.kind(), FrameErrorKind::TruncatedTail { len: 13 })
        }
        other => panic!("expected the truncated tail, got {other:?}"),
    }
    assert!(frames.next().await.is_none());
    Ok::<_, StreamError<std::io::Error>>(())
})?;
# Ok::<_, StreamError<std::io::Error>>(())
```

With an HTTP client, the body's chunk stream goes in as it is. A
[`StreamError::Transport`] carries the client's error;
[`FrameStream::parser`] gives the last event ID to reconnect with.

```no_run
use futures::StreamExt;
use ssekit::adapters::SseStreamExt;

async fn print_events(url: &str) -> Result<(), Box<dyn std::error::Error>> {
    let response = reqwest::Client::new()
        .get(url)
        .header("accept", "text/event-stream")
        .send()
        .await?
        .error_for_status()?;
    let mut frames = response.bytes_stream().sse_frames();
    while let Some(frame) = frames.next().await {
        let frame = frame?;
        println!("{}: {}", frame.event(), frame.data());
    }
    println!("resume from: {:?}", frames.parser().last_event_id());
    Ok(())
}
# let _ = print_events;
```
"#
)]
#![cfg_attr(
    feature = "codec",
    doc = r#"
# `codec`: frames from and to `AsyncRead` / `AsyncWrite`

[`SseCodec`] decodes with `FramedRead` from any `AsyncRead` (here a byte
slice) and encodes with `FramedWrite` to any `AsyncWrite` (here a `Vec<u8>`).

```
use futures::{SinkExt, StreamExt};
use ssekit::adapters::{CodecError, SseCodec};
use ssekit::Frame;
use tokio_util::codec::{FramedRead, FramedWrite};

let runtime = tokio::runtime::Builder::new_current_thread().build()?;
runtime.block_on(async {
    let input: &[u8] = b"id: 1\ndata: first\n\n: keep-alive\n\ndata: second\n\n";
    let mut frames = FramedRead::new(input, SseCodec::new());
    let first = frames.next().await.expect("an event")?;
    assert_eq!((first.id(), first.data()), ("1", "first"));
    let second = frames.next().await.expect("an event")?;
    assert_eq!((second.id(), second.data()), ("1", "second"));
    assert!(frames.next().await.is_none());

    let mut out = FramedWrite::new(Vec::new(), SseCodec::new());
    out.send(Frame::new("two\nlines").with_event("note")).await?;
    assert_eq!(out.get_ref().as_slice(), b"event: note\ndata: two\ndata: lines\n\n");
    Ok::<_, CodecError>(())
})?;
# Ok::<_, Box<dyn std::error::Error>>(())
```
"#
)]

#[cfg(feature = "stream")]
mod body;
#[cfg(feature = "codec")]
mod codec;
#[cfg(feature = "stream")]
mod events;
#[cfg(feature = "stream")]
mod stream;

#[cfg(feature = "stream")]
#[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
pub use body::{FrameBody, ResponsesBody};
#[cfg(feature = "codec")]
#[cfg_attr(docsrs, doc(cfg(feature = "codec")))]
pub use codec::{CodecError, SseCodec};
#[cfg(feature = "stream")]
#[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
pub use events::{
    AnthropicDialect, ChatDialect, Collected, Dialect, EventStream, GeminiDialect, ResponsesDialect,
};
#[cfg(feature = "stream")]
#[cfg_attr(docsrs, doc(cfg(feature = "stream")))]
pub use stream::{FrameStream, SseStreamExt, StreamError};
