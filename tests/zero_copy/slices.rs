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

/// The data of zero-copy frames is checked for UTF-8 once per chunk (the
/// rest of the chunk with the first such frame): frames before, between and
/// after invalid or cut-off sequences in one chunk still come out right,
/// invalid ones repaired (and copied), valid ones sliced from the chunk.
#[test]
fn utf8_checked_once_per_chunk_still_repairs_each_frame() {
    let chunk =
        heap(b"data: \xc3\xa91\n\ndata: a\xffb\n\ndata: \xc3\xbc2\n\ndata: \xff\n\ndata: ok\n\n");
    let out = frames(std::slice::from_ref(&chunk));
    let got: Vec<_> = out.iter().map(|f| (f.data(), f.is_zero_copy())).collect();
    assert_eq!(
        got,
        [
            ("é1", true),
            ("a\u{FFFD}b", false),
            ("ü2", true),
            ("\u{FFFD}", false),
            ("ok", true),
        ]
    );
    for f in out.iter().filter(|f| f.is_zero_copy()) {
        assert!(offset_in(f, &chunk).is_some());
    }

    // A chunk that ends inside a character: the frame before it is sliced,
    // the character is completed from the next chunk (a copy).
    let chunks = [
        heap(b"data: x\n\ndata: \xc3"),
        heap(b"\xa9\n\ndata: \xc3\xa9\n\n"),
    ];
    let out = frames(&chunks);
    let got: Vec<_> = out.iter().map(|f| (f.data(), f.is_zero_copy())).collect();
    assert_eq!(got, [("x", true), ("é", false), ("é", true)]);
    assert_eq!(offset_in(&out[2], &chunks[1]), Some(9));
}

/// `event: <the last known name>` LF is taken without a line search; every
/// other way of writing the line (CRLF, CR, no space, another name, split
/// across chunks, after a CR that ended the last chunk) gives what it gave
/// before: the same frames and tally as when fed one byte at a time, where
/// no line is whole in a chunk.
#[test]
fn known_event_line_shortcut_changes_nothing() {
    let stream: &[u8] = b"event: response.output_text.delta\ndata: 1\n\n\
event: response.output_text.delta\ndata: 2\n\n\
event: response.output_text.delta\r\ndata: 3\r\n\r\n\
event:response.output_text.delta\ndata: 4\n\n\
event: response.output_text.delta \ndata: 5\n\n\
event: response.output_text.deltas\ndata: 6\n\n\
event: response.created\ndata: 7\n\n\
event: response.output_text.delta\revent: response.output_text.delta\ndata: 8\n\n\
event: response.output_text.delta\n\n\
data: 9\n\n";
    let whole = Bytes::from_static(stream);
    let by_byte: Vec<Bytes> = (0..stream.len()).map(|i| whole.slice(i..i + 1)).collect();
    let tally = |chunks: &[Bytes]| {
        let mut p = Parser::new();
        let mut out = Vec::new();
        for c in chunks {
            p.feed(c.clone());
            while let Some(f) = p.next_frame().unwrap() {
                out.push((f.event().to_owned(), f.data().to_owned()));
            }
        }
        p.finish().unwrap();
        (out, p.tally(), p.bytes_scanned() <= stream.len() as u64)
    };
    let expected = tally(&by_byte);
    assert_eq!(expected.0.len(), 9);
    assert_eq!(
        expected.0[0],
        ("response.output_text.delta".into(), "1".into())
    );
    assert_eq!(expected.0[3].0, "response.output_text.delta");
    assert_eq!(expected.0[4].0, "response.output_text.delta ");
    assert_eq!(expected.0[5].0, "response.output_text.deltas");
    assert_eq!(expected.0[8], ("message".into(), "9".into()));
    assert_eq!(tally(std::slice::from_ref(&whole)), expected);
    // Every split point of the stream into two chunks, including right
    // after a CR.
    for at in 1..stream.len() {
        let two = [whole.slice(..at), whole.slice(at..)];
        assert_eq!(tally(&two), expected, "split at {at}");
    }
}
