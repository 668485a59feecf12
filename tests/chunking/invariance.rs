//! Chunking invariance: however a stream is cut into chunks, the parser
//! reports the same frames, items, errors and end state as for the whole
//! stream in one chunk; and for the whole stream, the frames are those of a
//! naive reference parser written from the WHATWG algorithm
//! (`common/oracle.rs`).

use crate::common;

use bytes::Bytes;
use common::oracle::{self, OracleEvent};
use common::{bytewise, run_frames, run_frames_ref, run_items, split_at, Drain, Run};
use proptest::prelude::*;
use proptest::sample::select;
use ssekit::{Frame, FrameError, FrameErrorKind, Parser, ParserConfig, Utf8Mode};

const BOM: &[u8] = b"\xEF\xBB\xBF";

// ---------------------------------------------------------------------------
// Helpers

fn default_config() -> ParserConfig {
    ParserConfig::default()
}

fn frame_as_oracle(f: &Frame) -> OracleEvent {
    OracleEvent {
        event: f.event().to_owned(),
        data: f.data().to_owned(),
        id: f.id().to_owned(),
        retry: f.retry(),
    }
}

/// Checks that every way of running the parser over `chunks` agrees with
/// `whole` (the run over the stream in one chunk).
fn assert_same_as_whole(config: ParserConfig, whole: &Run, chunks: &[Bytes], what: &str) {
    for drain in [Drain::EachChunk, Drain::AtEnd] {
        let run = run_items(config, chunks, drain);
        assert_eq!(&run, whole, "{what}, {drain:?}, chunks {chunks:?}");
        let frames = run_frames(config, chunks, drain);
        assert_eq!(
            frames,
            whole.frames_and_errors(),
            "next_frame: {what}, {drain:?}"
        );
    }
}

/// Runs `input` whole, then at every single cut position, every pair of cut
/// positions (if `pairs`) and byte by byte, and checks all agree. Returns the
/// whole run.
fn assert_every_split(config: ParserConfig, input: &[u8], pairs: bool) -> Run {
    let input = Bytes::copy_from_slice(input);
    let whole = run_items(config, std::slice::from_ref(&input), Drain::EachChunk);
    assert_eq!(whole.offset, input.len() as u64);
    for i in 0..=input.len() {
        assert_same_as_whole(
            config,
            &whole,
            &split_at(&input, &[i]),
            &format!("cut at {i}"),
        );
        if pairs {
            for j in i..=input.len() {
                let what = format!("cuts at {i}, {j}");
                assert_same_as_whole(config, &whole, &split_at(&input, &[i, j]), &what);
            }
        }
    }
    assert_same_as_whole(config, &whole, &bytewise(&input), "byte by byte");
    whole
}

fn frames_of(chunks: &[&[u8]]) -> Vec<Frame> {
    let chunks: Vec<Bytes> = chunks.iter().map(|c| Bytes::copy_from_slice(c)).collect();
    run_items(default_config(), &chunks, Drain::EachChunk).frames()
}

/// An independent model of the truncated tail: `(offset, len)` of the bytes
/// discarded at end of stream, per the documented rule: the stream ended in a
/// block that has had a non-comment line (offset = the block's first byte,
/// after the terminator of the blank line before it, or after a leading
/// BOM), or else inside an unterminated line (offset = the line's first
/// byte). Default limits only.
fn expected_tail(input: &[u8]) -> Option<(u64, u64)> {
    let len = input.len();
    let mut pos = if input.starts_with(BOM) { BOM.len() } else { 0 };
    let mut block_start = pos;
    let mut block_has_field = false;
    let tail = |start: usize| Some((start as u64, (len - start) as u64));
    loop {
        let Some(i) = input[pos..].iter().position(|&b| b == b'\n' || b == b'\r') else {
            return if block_has_field {
                tail(block_start)
            } else if pos < len {
                tail(pos)
            } else {
                None
            };
        };
        let end = pos + i;
        let next = if input[end..].starts_with(b"\r\n") {
            end + 2
        } else {
            end + 1
        };
        let line = &input[pos..end];
        if line.is_empty() {
            block_start = next;
            block_has_field = false;
        } else if line[0] != b':' {
            block_has_field = true;
        }
        pos = next;
    }
}

// ---------------------------------------------------------------------------
// The reference parser checks itself on a few hand-worked cases.

#[test]
fn oracle_self_check() {
    let ev = |event: &str, data: &str, id: &str, retry| OracleEvent {
        event: event.into(),
        data: data.into(),
        id: id.into(),
        retry,
    };
    let out = oracle::parse(
        b"\xEF\xBB\xBFdata: a\r\ndata:b\rid: 1\nretry: 5\n\nevent: e\ndata\n\ndata: x",
    );
    assert_eq!(
        out.events,
        [ev("message", "a\nb", "1", Some(5)), ev("e", "", "1", None)]
    );
    assert_eq!(
        (out.retries.as_slice(), out.last_event_id.as_str()),
        (&[5][..], "1")
    );

    let out = oracle::parse(b"id: a\0b\nretry: 1x\nretry:\n:c\ndata:  two\n\n\n");
    assert_eq!(out.events, [ev("message", " two", "", None)]);
    assert!(out.retries.is_empty());

    let out = oracle::parse(b"id: 3\n\nretry: 99999999999999999999999\nevent: x\n\ndata: \xFF\n\n");
    assert_eq!(out.events, [ev("message", "\u{FFFD}", "3", None)]);
    assert_eq!(
        (out.retries.as_slice(), out.last_event_id.as_str()),
        (&[u64::MAX][..], "3")
    );
}

#[test]
fn tail_model_self_check() {
    assert_eq!(expected_tail(b"data: x\n"), Some((0, 8)));
    assert_eq!(expected_tail(b"data: a\n\ndata: x\n"), Some((9, 8)));
    assert_eq!(expected_tail(b"data: a\r\n\r\ndata: x"), Some((11, 7)));
    assert_eq!(expected_tail(b"data: a\n\n: c\n"), None);
    assert_eq!(expected_tail(b"data: a\n\n: c"), Some((9, 3)));
    assert_eq!(expected_tail(b"\xEF\xBB"), Some((0, 2)));
    assert_eq!(expected_tail(b"\xEF\xBB\xBF"), None);
    assert_eq!(expected_tail(b"\xEF\xBB\xBFdata: x\n"), Some((3, 8)));
}

// ---------------------------------------------------------------------------
// Targeted splits of tricky inputs.

#[test]
fn every_split_of_tricky_inputs() {
    let inputs: &[&[u8]] = &[
        b"data: a\r\n\r\ndata: b\r\n\r\n",
        b"event: e\rdata: 1\rdata: 2\r\rid: 9\r\r",
        b"\xEF\xBB\xBFdata: bom\n\n",
        b"\xEF\xBB\xBF\xEF\xBB\xBFdata: two boms\n\n",
        b"\xEF\xBBdata: half a bom\n\ndata: x\n\n",
        "data: café € 😀\n\n".as_bytes(),
        b"data: x\n\n",
        b"data:x\ndata: y\n\n: comment\nretry: 10\nid: 1\n\n",
        b"data: \xC3\n\ndata: \xE2\x82\n\n",
    ];
    for input in inputs {
        assert_every_split(default_config(), input, true);
    }
}

#[test]
fn every_split_of_inputs_with_a_tail() {
    // The truncated-tail error must be the same for every chunking.
    let inputs: &[&[u8]] = &[
        b"data: a\n\ndata: b\n",
        b"data: a\n\n: comment",
        b"data: a\n\n:comment\n",
        b"data: a\r\n\r\ndata: b\r\n",
        b"data: a\r\n\r\n: c\r\ndata: b",
        b"data: a\r\r",
        b"\xEF\xBB",
        b"\xEF\xBB\xBF",
        b"\xEF\xBB\xBFdata",
    ];
    for input in inputs {
        let whole = assert_every_split(default_config(), input, true);
        let mut tail = whole.errors().into_iter().map(|e| match e.kind() {
            FrameErrorKind::TruncatedTail { len } => (e.offset(), len),
            other => panic!("unexpected {other:?}"),
        });
        assert_eq!(
            tail.next_back(),
            expected_tail(input),
            "{:?}",
            Bytes::copy_from_slice(input)
        );
    }
}

#[test]
fn crlf_split_is_one_terminator() {
    let expected = [Frame::new("a"), Frame::new("b")];
    assert_eq!(
        frames_of(&[b"data: a\r", b"\n\r", b"\ndata: b\r\n\r\n"]),
        expected
    );
    assert_eq!(
        frames_of(&[
            b"data: a\r",
            b"",
            b"\n",
            b"\r",
            b"",
            b"\n",
            b"data: b\r\n\r",
            b"\n"
        ]),
        expected
    );
    // A CR at the end of a chunk followed by a CR is a blank line.
    assert_eq!(frames_of(&[b"data: a\r", b"\rdata: b\r", b"\r"]), expected);
}

#[test]
fn crlf_split_blank_line_does_not_shift_the_next_block() {
    // "data: a\r\n\r\n" is 11 bytes: the block "data: b\n" starts at 11
    // however the blank line's CRLF is cut.
    let input = Bytes::from_static(b"data: a\r\n\r\ndata: b\n");
    let expected = tail_error(std::slice::from_ref(&input));
    assert_eq!(
        (expected.offset(), expected.kind()),
        (11, FrameErrorKind::TruncatedTail { len: 8 })
    );
    let cut = split_at(&input, &[10]); // "data: a\r\n\r" | "\ndata: b\n"
    assert_eq!(tail_error(&cut), expected, "blank line's CRLF split");
}

fn tail_error(chunks: &[Bytes]) -> FrameError {
    let run = run_items(default_config(), chunks, Drain::EachChunk);
    *run.errors().last().expect("a truncated tail")
}

#[test]
fn bom_split_1_2_and_2_1() {
    let expected = [Frame::new("x")];
    assert_eq!(frames_of(&[b"\xEF", b"\xBB\xBFdata: x\n\n"]), expected);
    assert_eq!(frames_of(&[b"\xEF\xBB", b"\xBFdata: x\n\n"]), expected);
    assert_eq!(
        frames_of(&[b"\xEF", b"\xBB", b"\xBF", b"data: x\n\n"]),
        expected
    );
    assert_eq!(frames_of(&[b"\xEF\xBB\xBF", b"data: x\n\n"]), expected);
    // Only one BOM is stripped: a second one is part of the field name.
    assert_eq!(
        frames_of(&[b"\xEF\xBB\xBF\xEF", b"\xBB\xBFdata: x\n\ndata: y\n\n"]),
        [Frame::new("y")]
    );
    // A partial BOM split off is content, not dropped.
    assert_eq!(frames_of(&[b"\xEF", b"\xBB:\n\ndata: x\n\n"]), expected);
}

#[test]
fn bom_then_tail_offsets() {
    // The tail of a stream that begins with a BOM starts after the BOM,
    // whether the cut block's last line is terminated or not.
    assert_eq!(
        tail_error(&[Bytes::from_static(b"\xEF\xBB\xBFdata: x")]).offset(),
        3
    );
    assert_eq!(
        tail_error(&[Bytes::from_static(b"\xEF\xBB\xBFdata: x\n")]).offset(),
        3
    );
}

#[test]
fn utf8_code_point_split() {
    let text = "data: é€😀\n\n";
    let input = Bytes::from_static(text.as_bytes());
    for i in 0..=input.len() {
        for j in i..=input.len() {
            let frames = run_items(
                default_config(),
                &split_at(&input, &[i, j]),
                Drain::EachChunk,
            );
            assert_eq!(frames.frames(), [Frame::new("é€😀")], "cuts at {i}, {j}");
        }
    }
    // An invalid sequence split across chunks is one U+FFFD, as if whole.
    assert_eq!(
        frames_of(&[b"data: \xE2", b"\x82\n\n"]),
        [Frame::new("\u{FFFD}")]
    );
    assert_eq!(
        frames_of(&[b"event: \xF0\x9F", b"\x98\x80\ndata\n\n"]),
        [Frame::new("").with_event("😀")]
    );
}

#[test]
fn data_prefix_split() {
    let expected = [Frame::new("x")];
    assert_eq!(frames_of(&[b"da", b"ta: x\n\n"]), expected);
    assert_eq!(frames_of(&[b"data:", b" x\n\n"]), expected);
    assert_eq!(
        frames_of(&[b"data", b":", b" ", b"x", b"\n", b"\n"]),
        expected
    );
    // The optional space is one byte, whichever chunk it is in.
    assert_eq!(frames_of(&[b"data: ", b" x\n\n"]), [Frame::new(" x")]);
    assert_eq!(
        frames_of(&[b"id", b": 1\nretry", b": 7\ndata: x\n\n"]),
        [Frame::new("x").with_id("1").with_retry(Some(7))]
    );
}

#[test]
fn one_byte_chunking_of_a_long_stream() {
    let mut input = Vec::new();
    for i in 0..200 {
        input.extend_from_slice(
            format!("id: {i}\r\nevent: e{i}\rdata: {i}\ndata: é\r\n\r\n").as_bytes(),
        );
    }
    let input = Bytes::from(input);
    let whole = run_items(
        default_config(),
        std::slice::from_ref(&input),
        Drain::EachChunk,
    );
    assert_eq!(whole.frames().len(), 200);
    assert_eq!(
        run_items(default_config(), &bytewise(&input), Drain::EachChunk),
        whole
    );
    let frame = &whole.frames()[199];
    assert_eq!(
        (frame.event(), frame.data(), frame.id()),
        ("e199", "199\né", "199")
    );
}

#[test]
fn finish_is_idempotent_and_feed_after_finish_resumes() {
    let mut p = Parser::new();
    p.feed(Bytes::from_static(b"data: a\n\n"));
    assert_eq!(p.next_frame(), Ok(Some(Frame::new("a"))));
    assert_eq!(p.finish(), Ok(()));
    assert_eq!(p.finish(), Ok(()));
    assert_eq!(p.next_frame(), Ok(None));
    // Feeding after finish() goes on with the same stream.
    p.feed(Bytes::from_static(b"data: b\n\ndata: c"));
    assert_eq!(p.next_frame(), Ok(Some(Frame::new("b"))));
    assert_eq!(p.next_frame(), Ok(None));
    let e = p.finish().unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (FrameErrorKind::TruncatedTail { len: 7 }, 18)
    );
    assert_eq!(p.finish(), Ok(()));
}

// ---------------------------------------------------------------------------
// Strategies: an "SSE-ish" grammar, mixed with arbitrary bytes.

fn bytes_of(options: &'static [&'static [u8]]) -> impl Strategy<Value = Vec<u8>> {
    select(options).prop_map(<[u8]>::to_vec)
}

/// A piece of a field value.
fn value_atom() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => bytes_of(&[b"a", b"xyz", b"hello", b"{\"k\":1}", b"message"]),
        2 => bytes_of(&[b" ", b"  ", b":", b": ", b"\t"]),
        2 => bytes_of(&[b"0", b"7", b"42", b"3000", b"18446744073709551615", b"99999999999999999999999"]),
        1 => bytes_of(&[b"\0", b"a\0b"]),
        // Valid non-ASCII: 2, 3 and 4-byte code points, and U+FEFF itself.
        2 => bytes_of(&[b"\xC3\xA9", b"\xE2\x82\xAC", b"\xF0\x9F\x98\x80", BOM]),
        // Invalid UTF-8: stray continuation, truncated sequences, a
        // surrogate, overlong, 0xFF.
        2 => bytes_of(&[b"\x80", b"\xC3", b"\xE2\x82", b"\xF0\x9F\x98", b"\xED\xA0\x80", b"\xC0\xAF", b"\xFF"]),
        1 => prop::collection::vec(any::<u8>(), 1..4),
    ]
}

fn value() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(value_atom(), 0..4).prop_map(|v| v.concat())
}

fn field_name() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        8 => bytes_of(&[b"data", b"event", b"id", b"retry"]),
        2 => bytes_of(&[b"", b"dat", b"datas", b"Data", b"ID", b"retr", b" data", b"data ", b"x", b"\xEF\xBB\xBFdata"]),
    ]
}

fn separator() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => bytes_of(&[b""]),
        3 => bytes_of(&[b": "]),
        2 => bytes_of(&[b":"]),
        1 => bytes_of(&[b":  ", b"::", b": :"]),
    ]
}

/// One line, without its terminator.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        8 => (field_name(), separator(), value()).prop_map(|(n, s, v)| [n, s, v].concat()),
        // A retry field with digits (valid), saturating digits, or junk.
        2 => (bytes_of(&[b"retry:", b"retry: ", b"retry:  "]), value()).prop_map(|(r, v)| [r, v].concat()),
        1 => value().prop_map(|v| [&b"id: "[..], &v, b"\0"].concat()),
        2 => value().prop_map(|v| [&b":"[..], &v].concat()),
        4 => Just(Vec::new()),
        1 => prop::collection::vec(any::<u8>(), 0..12),
    ]
}

fn terminator() -> impl Strategy<Value = &'static [u8]> {
    prop_oneof![
        4 => Just(&b"\n"[..]),
        2 => Just(&b"\r"[..]),
        3 => Just(&b"\r\n"[..]),
        // No terminator: the line runs into the next one, or is the
        // stream's unterminated tail.
        1 => Just(&b""[..]),
    ]
}

fn sse_ish() -> impl Strategy<Value = Vec<u8>> {
    (
        bytes_of(&[
            b"",
            b"",
            b"",
            BOM,
            b"\xEF\xBB\xBF\xEF\xBB\xBF",
            b"\xEF",
            b"\xEF\xBB",
            b"\xEF\xBB\xBF\n",
        ]),
        prop::collection::vec((line(), terminator()), 0..24),
    )
        .prop_map(|(prefix, lines)| {
            let mut out = prefix;
            for (line, term) in lines {
                out.extend_from_slice(&line);
                out.extend_from_slice(term);
            }
            out
        })
}

/// Streams: mostly SSE-ish, some arbitrary bytes, some bytes from the
/// alphabet that matters to the splitter.
fn stream() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        10 => sse_ish(),
        1 => prop::collection::vec(any::<u8>(), 0..256),
        1 => prop::collection::vec(select(&b"\r\n\r\n: dataid\xEF\xBB\xBF\0"[..]), 0..128),
        // SSE-ish with arbitrary bytes spliced in.
        2 => (sse_ish(), prop::collection::vec(any::<u8>(), 1..16), any::<prop::sample::Index>())
            .prop_map(|(mut s, junk, at)| {
                let at = at.index(s.len() + 1);
                s.splice(at..at, junk);
                s
            }),
    ]
}

/// A stream and a sorted list of cut positions (repeats, 0 and the length
/// included, which give empty chunks).
fn stream_and_cuts() -> impl Strategy<Value = (Vec<u8>, Vec<usize>)> {
    stream().prop_flat_map(|s| {
        let len = s.len();
        let cuts = prop_oneof![
            4 => prop::collection::vec(0..=len, 0..12),
            1 => prop::collection::vec(0..=len, 0..64),
        ]
        .prop_map(|mut c| {
            c.sort_unstable();
            c
        });
        (Just(s), cuts)
    })
}

/// Parser configurations: mostly the defaults; small limits so that
/// limit errors happen (and must be chunking-invariant too); strict UTF-8.
fn config() -> impl Strategy<Value = ParserConfig> {
    prop_oneof![
        3 => Just(ParserConfig::default()),
        2 => (0usize..40, 0usize..60, any::<bool>()).prop_map(|(line, event, strict)| {
            let mut c = ParserConfig::default();
            c.max_line_len = line;
            c.max_event_len = event;
            if strict {
                c.utf8 = Utf8Mode::Strict;
            }
            c
        }),
        1 => Just({
            let mut c = ParserConfig::default();
            c.utf8 = Utf8Mode::Strict;
            c
        }),
    ]
}

fn proptest_config(cases: u32) -> ProptestConfig {
    // Failures are kept as deterministic tests in this file, not in
    // regression files.
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(proptest_config(512))]

    /// (a) Any chunking gives the same items, frames, errors (tail included),
    /// last event ID and reconnection time as the whole input, whether output
    /// is drained after every chunk or only at the end.
    #[test]
    fn any_chunking_matches_whole_input(config in config(), (input, cuts) in stream_and_cuts()) {
        let input = Bytes::from(input);
        let whole = run_items(config, std::slice::from_ref(&input), Drain::EachChunk);
        prop_assert_eq!(whole.offset, input.len() as u64);
        prop_assert_eq!(&run_frames(config, std::slice::from_ref(&input), Drain::EachChunk), &whole.frames_and_errors());
        let chunks = split_at(&input, &cuts);
        for drain in [Drain::EachChunk, Drain::AtEnd] {
            prop_assert_eq!(&run_items(config, &chunks, drain), &whole, "{:?}", drain);
            prop_assert_eq!(&run_frames(config, &chunks, drain), &whole.frames_and_errors());
            // Borrowed frames are the same frames, with the same errors.
            prop_assert_eq!(&run_frames_ref(config, &chunks, drain), &whole.frames_and_errors());
        }
        prop_assert_eq!(&run_frames_ref(config, std::slice::from_ref(&input), Drain::EachChunk), &whole.frames_and_errors());
        prop_assert_eq!(&run_items(config, &bytewise(&input), Drain::EachChunk), &whole, "byte by byte");
    }

    /// (b) For the whole input, the frames, retry updates, last event ID and
    /// reconnection time are the reference parser's.
    #[test]
    fn whole_input_matches_oracle(input in stream()) {
        let run = run_items(default_config(), &[Bytes::from(input.clone())], Drain::EachChunk);
        let expected = oracle::parse(&input);
        let frames: Vec<OracleEvent> = run.frames().iter().map(frame_as_oracle).collect();
        prop_assert_eq!(frames, expected.events.clone());
        prop_assert_eq!(run.retries(), expected.retries.clone());
        prop_assert_eq!(run.last_event_id.as_str(), expected.last_event_id.as_str());
        prop_assert_eq!(run.reconnection_time, expected.reconnection_time());
        // With the default limits the only possible error is the tail.
        for e in run.errors() {
            prop_assert!(matches!(e.kind(), FrameErrorKind::TruncatedTail { .. }), "{:?}", e);
        }
    }
}

proptest! {
    #![proptest_config(proptest_config(256))]

    /// (c) The truncated-tail error from `finish()` is the same for every
    /// chunking of a stream that ends inside an event.
    #[test]
    fn tail_error_is_chunking_invariant(
        (input, cuts) in stream_and_cuts(),
        tail in (line(), terminator()).prop_map(|(l, t)| [&l[..], t].concat()),
    ) {
        let input = Bytes::from([input, tail].concat());
        let tail_of = |chunks: &[Bytes]| {
            let mut p = Parser::new();
            for c in chunks {
                p.feed(c.clone());
                while p.next_frame().unwrap().is_some() {}
            }
            let end = p.finish();
            prop_assert_eq!(p.finish(), Ok(()), "reported once");
            Ok(end)
        };
        let whole = tail_of(std::slice::from_ref(&input))?;
        prop_assert_eq!(tail_of(&split_at(&input, &[input.len() / 2]))?, whole);
        prop_assert_eq!(tail_of(&split_at(&input, &cuts.iter().map(|&c| c.min(input.len())).collect::<Vec<_>>()))?, whole);
        prop_assert_eq!(tail_of(&bytewise(&input))?, whole);
    }

    /// The tail error is where the independent model says it is.
    #[test]
    fn tail_error_matches_model(input in stream()) {
        let run = run_items(default_config(), &[Bytes::from(input.clone())], Drain::EachChunk);
        let tail = run.errors().last().map(|e| match e.kind() {
            FrameErrorKind::TruncatedTail { len } => (e.offset(), len),
            other => panic!("unexpected {other:?}"),
        });
        prop_assert_eq!(tail, expected_tail(&input));
    }
}

/// Found by the `framing` fuzz target: a borrowed frame whose data line
/// comes before its event line, with invalid UTF-8 between them (in a
/// comment), lost its event name: checking the data moved the checked span
/// off the name. The borrowed frames must be the owned ones.
#[test]
fn borrowed_frames_keep_a_name_after_their_data() {
    for input in [
        &b"data: x\n: \xff\nevent: custom\n\n"[..],
        b"data: x\n: \xff\nevent: custom\nid: 7\n\ndata: y\nevent: other\n\n",
        b"event: first\ndata: \xc3\xa9\n: \xff\n\nid: \xe2\x82\xac\ndata: z\n: \xff\nevent: again\n\n",
    ] {
        let input = Bytes::from_static(input);
        let whole = run_frames(default_config(), std::slice::from_ref(&input), Drain::EachChunk);
        assert!(whole.iter().all(|f| f.as_ref().is_ok_and(|f| f.event() != "message")));
        assert_eq!(
            run_frames_ref(default_config(), std::slice::from_ref(&input), Drain::EachChunk),
            whole,
            "{input:?}"
        );
    }
}

/// The borrowed frames' quick path (one `data` line and a blank line, after
/// an optional repeated `event` line) hands everything it does not take to
/// the general path: data that is not UTF-8 (decoded with replacements), a
/// frame still held or lent by the call before (released first), a data
/// line that spans reads. Expected frames written by hand; the owned frames
/// must be the same, and so must the byte accounting.
#[test]
fn borrowed_frames_leave_the_quick_path_where_they_must() {
    let long_a = "a".repeat(300);
    let long_b = "b".repeat(40);
    let long_c = "c".repeat(40);
    // (reads, frames as (event type, data, id)).
    type Case<'a> = (Vec<Vec<u8>>, Vec<(&'a str, String, &'a str)>);
    let cases: Vec<Case<'_>> = vec![
        // Not UTF-8, then text, in one read.
        (
            vec![b"data: \xff\n\ndata: ok\n\n".to_vec()],
            vec![
                ("message", "\u{fffd}".into(), ""),
                ("message", "ok".into(), ""),
            ],
        ),
        // A repeated event type: text, text, a cut character, text.
        (
            vec![
                b"event: a\ndata: 1\n\n".to_vec(),
                b"event: a\ndata: \xe2\x82\xac\n\nevent: a\ndata: \xe2\x82\n\nevent: a\ndata: z\n\n"
                    .to_vec(),
            ],
            vec![
                ("a", "1".into(), ""),
                ("a", "\u{20ac}".into(), ""),
                ("a", "\u{fffd}".into(), ""),
                ("a", "z".into(), ""),
            ],
        ),
        // A data line that spans reads (the first too long to be held),
        // whose frame is lent from the line buffer; then a quick one in the
        // same read.
        (
            vec![
                format!("data: {long_a}").into_bytes(),
                b"def\n\ndata: x\n\n".to_vec(),
            ],
            vec![
                ("message", format!("{long_a}def"), ""),
                ("message", "x".into(), ""),
            ],
        ),
        // A frame held by the parser (two data lines), then a quick one.
        (
            vec![b"data: a\ndata: b\n\ndata: c\n\n".to_vec()],
            vec![("message", "a\nb".into(), ""), ("message", "c".into(), "")],
        ),
        // An id set by the general path, kept by the quick one.
        (
            vec![b"id: 7\ndata: x\n\ndata: y\n\n".to_vec()],
            vec![("message", "x".into(), "7"), ("message", "y".into(), "7")],
        ),
        // Data lines long enough for the vector pass over the line: all
        // ASCII (the line is the checked span itself), then a byte that is
        // not UTF-8 after 40 ASCII ones.
        (
            vec![format!("data: {long_b}\n\n").into_bytes(), {
                let mut read = format!("data: {long_c}").into_bytes();
                read.extend_from_slice(b"\xff\n\n");
                read
            }],
            vec![
                ("message", long_b.clone(), ""),
                ("message", format!("{long_c}\u{fffd}"), ""),
            ],
        ),
    ];
    for (reads, expected) in cases {
        let mut owned = Parser::new();
        let mut borrowed = Parser::new();
        let (mut from_owned, mut from_borrowed) = (Vec::new(), Vec::new());
        for read in &reads {
            owned.feed(Bytes::copy_from_slice(read));
            borrowed.feed(Bytes::copy_from_slice(read));
            while let Some(f) = owned.next_frame().unwrap() {
                from_owned.push((f.event().to_owned(), f.data().to_owned(), f.id().to_owned()));
            }
            while let Some(f) = borrowed.next_frame_ref().unwrap() {
                from_borrowed.push((f.event().to_owned(), f.data().to_owned(), f.id().to_owned()));
            }
        }
        let expected: Vec<_> = expected
            .into_iter()
            .map(|(e, d, i)| (e.to_owned(), d, i.to_owned()))
            .collect();
        assert_eq!(from_borrowed, expected, "{reads:?}");
        assert_eq!(from_owned, expected, "{reads:?}");
        assert_eq!(borrowed.tally(), owned.tally(), "{reads:?}");
    }
}
