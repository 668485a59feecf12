//! The zero-copy promise, checked by pointer: data that is one `data:` line
//! inside one input chunk is a slice of that chunk (and `is_zero_copy()`
//! says so); data that spans chunks or lines, or had to be repaired, is a
//! copy (and `is_zero_copy()` says that). Plus the auto traits and size of
//! the public types.

use std::ops::Range;

use bytes::Bytes;
use ssekit::{Frame, FrameError, Item, Parser, ParserConfig};

/// The address range of a chunk's bytes.
fn range_of(chunk: &Bytes) -> Range<usize> {
    let start = chunk.as_ptr() as usize;
    start..start + chunk.len()
}

/// Whether `frame`'s data lies inside `chunk`, and at which offset.
fn offset_in(frame: &Frame, chunk: &Bytes) -> Option<usize> {
    let data = frame.data_bytes();
    let r = range_of(chunk);
    let start = data.as_ptr() as usize;
    (r.contains(&start) && start + data.len() <= r.end).then(|| start - r.start)
}

/// Feeds `chunks` (keeping handles to them) and returns the frames.
fn frames(chunks: &[Bytes]) -> Vec<Frame> {
    let mut p = Parser::new();
    let mut out = Vec::new();
    for c in chunks {
        p.feed(c.clone());
        while let Some(f) = p.next_frame().unwrap() {
            out.push(f);
        }
    }
    p.finish().unwrap();
    out
}

fn heap(s: &[u8]) -> Bytes {
    Bytes::from(s.to_vec())
}

#[test]
fn one_line_in_one_chunk_is_a_slice_of_it() {
    let chunk = heap(b"event: e\nid: 1\ndata: hello world\n\n");
    let f = &frames(std::slice::from_ref(&chunk))[0];
    assert_eq!(f.data(), "hello world");
    assert_eq!(
        offset_in(f, &chunk),
        Some(21),
        "data is not the chunk's bytes"
    );
    assert!(f.is_zero_copy());

    // Static chunks too.
    let chunk = Bytes::from_static(b"data: static\n\n");
    let f = &frames(std::slice::from_ref(&chunk))[0];
    assert_eq!(offset_in(f, &chunk), Some(6));
    assert!(f.is_zero_copy());
}

#[test]
fn every_event_of_a_chunk_is_a_slice_of_it() {
    let chunk = heap(b"data: a\n\ndata: bb\r\n\r\ndata:ccc\r\r");
    let fs = frames(std::slice::from_ref(&chunk));
    let got: Vec<(&str, Option<usize>, bool)> = fs
        .iter()
        .map(|f| (f.data(), offset_in(f, &chunk), f.is_zero_copy()))
        .collect();
    assert_eq!(
        got,
        [
            ("a", Some(6), true),
            ("bb", Some(15), true),
            ("ccc", Some(26), true)
        ]
    );
}

#[test]
fn line_inside_one_chunk_with_blank_line_in_the_next() {
    // The data line lies inside the first chunk; only the dispatching blank
    // line (or the LF of a split CRLF) comes later.
    for second in [&b"\n"[..], b"\n\n"] {
        let first = heap(if second.len() == 1 {
            b"data: hello\n"
        } else {
            b"data: hello\r"
        });
        let f = &frames(&[first.clone(), heap(second)])[0];
        assert_eq!(f.data(), "hello");
        assert_eq!(offset_in(f, &first), Some(6));
        assert!(f.is_zero_copy());
    }
}

#[test]
fn data_spanning_chunks_is_copied() {
    let (a, b) = (heap(b"data: hel"), heap(b"lo\n\n"));
    let f = &frames(&[a.clone(), b.clone()])[0];
    assert_eq!(f.data(), "hello");
    assert_eq!((offset_in(f, &a), offset_in(f, &b)), (None, None));
    assert!(!f.is_zero_copy());

    // The field name split from its value counts as spanning too.
    let (a, b) = (heap(b"da"), heap(b"ta: hello\n\n"));
    let f = &frames(&[a.clone(), b.clone()])[0];
    assert_eq!(f.data(), "hello");
    assert_eq!((offset_in(f, &a), offset_in(f, &b)), (None, None));
    assert!(!f.is_zero_copy());
}

#[test]
fn data_of_several_lines_is_copied() {
    let chunk = heap(b"data: a\ndata: b\n\n");
    let f = &frames(std::slice::from_ref(&chunk))[0];
    assert_eq!(f.data(), "a\nb");
    assert_eq!(offset_in(f, &chunk), None);
    assert!(!f.is_zero_copy());
}

#[test]
fn invalid_utf8_data_is_copied() {
    let chunk = heap(b"data: a\xFFb\n\n");
    let f = &frames(std::slice::from_ref(&chunk))[0];
    assert_eq!(f.data(), "a\u{FFFD}b");
    assert_eq!(offset_in(f, &chunk), None);
    assert!(!f.is_zero_copy());
}

#[test]
fn frames_outlive_parser_and_chunks() {
    let f = {
        let chunk = heap(b"data: kept alive\n\n");
        frames(&[chunk])[0].clone()
    };
    assert_eq!(f.data(), "kept alive");
    assert!(f.is_zero_copy());
}

#[test]
fn auto_traits_and_size() {
    fn frame_like<T: Send + Sync + 'static + Clone>() {}
    fn send_sync<T: Send + Sync>() {}
    fn error_like<T: std::error::Error + Send + Sync + 'static>() {}
    frame_like::<Frame>();
    frame_like::<Item>();
    send_sync::<Parser>();
    send_sync::<ParserConfig>();
    error_like::<FrameError>();

    let size = std::mem::size_of::<Frame>();
    eprintln!(
        "size_of::<Frame>() = {size}, size_of::<Parser>() = {}",
        std::mem::size_of::<Parser>()
    );
    // Four `Bytes` handles (event, data, id, raw wire bytes), retry, flag.
    assert!(size <= 152, "Frame grew to {size} bytes");
}
