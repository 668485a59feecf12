//! Hand-written cases from the WHATWG HTML algorithm "interpreting an event
//! stream" (HTML Living Standard, Server-sent events: "Parsing an event
//! stream" and "Interpreting an event stream"), black-box through the
//! public API.
//!
//! Every expected value below was worked out from the specification text,
//! never by running the parser. Every case is run whole, split into two
//! chunks at every byte position, and one byte at a time, and must give the
//! same items, errors and final state each time: the spec defines the parse
//! of the byte stream, not of its chunks.

use bytes::Bytes;
use ssekit::{Frame, FrameErrorKind, Item, Parser, ParserConfig, Utf8Mode};

// ---------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------

/// One thing the parser reported, in stream order.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Out {
    Item(Item),
    Err(FrameErrorKind, u64),
}

/// A `message` event with this data, no id, no retry in its block.
fn msg(data: &str) -> Out {
    Out::Item(Item::Frame(Frame::new(data)))
}

fn frame(f: Frame) -> Out {
    Out::Item(Item::Frame(f))
}

fn retry(ms: u64) -> Out {
    Out::Item(Item::Retry(ms))
}

/// A blank line committed this last event ID for a block that dispatched nothing.
fn id_commit(id: &str) -> Out {
    Out::Item(Item::LastEventId(Bytes::copy_from_slice(id.as_bytes())))
}

fn comment(text: &[u8]) -> Out {
    Out::Item(Item::Comment(Bytes::copy_from_slice(text)))
}

fn tail(offset: u64, len: u64) -> Out {
    Out::Err(FrameErrorKind::TruncatedTail { len }, offset)
}

fn bad_utf8(offset: u64) -> Out {
    Out::Err(FrameErrorKind::InvalidUtf8, offset)
}

/// What one run over a chunking produced.
#[derive(Debug, PartialEq, Eq)]
struct Run {
    out: Vec<Out>,
    last_event_id: String,
    reconnection_time: Option<u64>,
}

/// Drains `next_item` until the parser needs more input. Errors do not end
/// the stream, so they are recorded and the loop goes on.
fn drain(p: &mut Parser, out: &mut Vec<Out>) {
    for _ in 0..100_000 {
        match p.next_item() {
            Ok(Some(item)) => out.push(Out::Item(item)),
            Ok(None) => return,
            Err(e) => out.push(Out::Err(e.kind(), e.offset())),
        }
    }
    panic!("next_item never returned Ok(None)");
}

/// Feeds `chunks` (draining after each), then finishes the stream.
fn run(config: ParserConfig, chunks: &[&[u8]]) -> Run {
    let mut p = Parser::with_config(config);
    let mut out = Vec::new();
    for chunk in chunks {
        p.feed(Bytes::copy_from_slice(chunk));
        drain(&mut p, &mut out);
    }
    if let Err(e) = p.finish() {
        out.push(Out::Err(e.kind(), e.offset()));
    }
    drain(&mut p, &mut out);
    // The tail is reported once.
    assert_eq!(p.finish(), Ok(()), "finish() reported twice");
    Run {
        out,
        last_event_id: p.last_event_id().to_owned(),
        reconnection_time: p.reconnection_time(),
    }
}

/// Every chunking a case is run under: whole, every split into two chunks,
/// one byte at a time.
fn chunkings(input: &[u8]) -> Vec<(String, Vec<&[u8]>)> {
    let mut all = vec![("whole".to_owned(), vec![input])];
    for i in 1..input.len() {
        all.push((format!("split at {i}"), vec![&input[..i], &input[i..]]));
    }
    all.push(("byte-wise".to_owned(), input.chunks(1).collect()));
    all
}

/// A spec case: the input, the expected outcome, and options.
struct Case<'a> {
    name: &'a str,
    input: Vec<u8>,
    expect: Vec<Out>,
    last_id: &'a str,
    utf8: Utf8Mode,
    extra_chunkings: Vec<Vec<&'a [u8]>>,
}

fn case<'a>(name: &'a str, input: impl AsRef<[u8]>, expect: Vec<Out>) -> Case<'a> {
    Case {
        name,
        input: input.as_ref().to_vec(),
        expect,
        last_id: "",
        utf8: Utf8Mode::Replace,
        extra_chunkings: Vec::new(),
    }
}

impl<'a> Case<'a> {
    /// The last event ID string expected after the stream ends (default "").
    fn last_id(mut self, id: &'a str) -> Self {
        self.last_id = id;
        self
    }

    fn strict(mut self) -> Self {
        self.utf8 = Utf8Mode::Strict;
        self
    }

    /// Also run these chunks, which must concatenate to the input.
    fn chunks(mut self, chunks: &[&'a [u8]]) -> Self {
        assert_eq!(
            chunks.concat(),
            self.input,
            "{}: chunks do not make the input",
            self.name
        );
        self.extra_chunkings.push(chunks.to_vec());
        self
    }

    fn check(self) {
        let mut config = ParserConfig::default();
        config.utf8 = self.utf8;
        // The reconnection time is whatever the last valid retry field set.
        let reconnection_time = self.expect.iter().rev().find_map(|o| match o {
            Out::Item(Item::Retry(ms)) => Some(*ms),
            _ => None,
        });
        let expected = Run {
            out: self.expect.clone(),
            last_event_id: self.last_id.to_owned(),
            reconnection_time,
        };
        let mut runs = chunkings(&self.input);
        for (i, c) in self.extra_chunkings.iter().enumerate() {
            runs.push((format!("given chunking #{i} {:?}", c), c.clone()));
        }
        for (how, chunks) in runs {
            let got = run(config, &chunks);
            assert_eq!(
                got,
                expected,
                "case {:?} ({how}), input {:?}",
                self.name,
                String::from_utf8_lossy(&self.input)
            );
        }
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

// ---------------------------------------------------------------------------
// Byte order mark: "One leading U+FEFF BYTE ORDER MARK character must be
// ignored if any are present." The UTF-8 decode step strips it; only one.
// ---------------------------------------------------------------------------

#[test]
fn bom_at_start_is_stripped() {
    let input = [BOM, b"data: x\n\n"].concat();
    case("leading BOM", &input, vec![msg("x")])
        .chunks(&[b"\xEF", b"\xBB\xBF", b"data: x\n\n"]) // BOM split 1+2
        .chunks(&[b"\xEF\xBB", b"\xBF", b"data: x\n\n"]) // BOM split 2+1
        .chunks(&[b"\xEF", b"\xBB", b"\xBF", b"data: x\n\n"])
        .chunks(&[b"\xEF\xBB\xBF", b"data: x\n\n"])
        .check();
    // A stream that is nothing but a BOM holds no event and no tail.
    case("BOM only", BOM, vec![]).check();
    // The BOM is counted in stream offsets ("counted from its first byte").
    case(
        "BOM, then an unterminated line",
        [BOM, b"data: x"].concat(),
        vec![tail(3, 7)],
    )
    .check();
}

#[test]
fn only_one_bom_is_stripped() {
    // The second U+FEFF is content: the field name is "\u{FEFF}data", an
    // unknown field, so the block dispatches nothing.
    let input = [BOM, BOM, b"data: x\n\ndata: y\n\n"].concat();
    case("two BOMs", &input, vec![msg("y")]).check();
}

#[test]
fn bom_mid_stream_is_content() {
    let input = [b"data: a\n\n".as_slice(), BOM, b"data: b\n\ndata: c\n\n"].concat();
    case(
        "BOM after the first event",
        &input,
        vec![msg("a"), msg("c")],
    )
    .check();
    // U+FEFF inside a value is kept.
    case(
        "BOM inside a value",
        "data: a\u{FEFF}b\n\n",
        vec![msg("a\u{FEFF}b")],
    )
    .check();
}

#[test]
fn partial_bom_then_other_byte_is_content() {
    // EF BB followed by 'd' is not a BOM. UTF-8 decode turns the truncated
    // sequence EF BB into one U+FFFD, so the first field name is
    // "\u{FFFD}data": unknown, ignored, nothing dispatched.
    case(
        "EF BB data",
        b"\xEF\xBBdata: x\n\ndata: y\n\n",
        vec![msg("y")],
    )
    .check();
    case("EF data", b"\xEFdata: x\n\ndata: y\n\n", vec![msg("y")]).check();
    // EF BB then a line end: a line holding U+FFFD, an unknown field, and a
    // blank line. No event.
    case("EF BB LF", b"\xEF\xBB\n\ndata: y\n\n", vec![msg("y")]).check();
    // EF at end of stream: an unterminated line of one byte.
    case("lone EF at EOF", b"\xEF", vec![tail(0, 1)]).check();
    case("EF BB at EOF", b"\xEF\xBB", vec![tail(0, 2)]).check();
    // In a value, the bytes are decoded like any other.
    case(
        "partial BOM in strict mode",
        b"\xEF\xBBdata: x\n\ndata: y\n\n",
        vec![bad_utf8(0), msg("y")],
    )
    .strict()
    .check();
}

// ---------------------------------------------------------------------------
// Line ends: "Lines must be separated by either a U+000D CARRIAGE RETURN
// U+000A LINE FEED (CRLF) character pair, a single U+000A LINE FEED (LF)
// character, or a single U+000D CARRIAGE RETURN (CR) character."
// ---------------------------------------------------------------------------

#[test]
fn line_ends() {
    case("LF", "data: a\ndata: b\n\n", vec![msg("a\nb")]).check();
    case("CRLF", "data: a\r\ndata: b\r\n\r\n", vec![msg("a\nb")]).check();
    case("CR", "data: a\rdata: b\r\r", vec![msg("a\nb")]).check();
    case(
        "mixed",
        "data: a\rdata: b\r\ndata: c\n\n",
        vec![msg("a\nb\nc")],
    )
    .check();
    // CR CR LF: the first CR ends "data: a", the CR LF pair is the blank line.
    case(
        "CR then CRLF",
        "data: a\r\r\ndata: b\n\n",
        vec![msg("a"), msg("b")],
    )
    .check();
    // LF CR: LF ends the line, CR alone is a blank line; nothing pending at EOF.
    case("LF then lone CR at EOF", "data: a\n\r", vec![msg("a")]).check();
    // CR LF LF: one line end, then a blank line.
    case(
        "CRLF then LF",
        "data: a\r\n\ndata: b\n\n",
        vec![msg("a"), msg("b")],
    )
    .check();
}

#[test]
fn cr_at_chunk_end() {
    // Followed by LF: one CRLF terminator, not a line end plus a blank line
    // (which would dispatch "a" early).
    case("CR|LF", "data: a\r\ndata: b\r\n\r\n", vec![msg("a\nb")])
        .chunks(&[b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"])
        .check();
    // Followed by another byte: a lone CR terminator.
    case("CR|other", "data: a\rdata: b\n\n", vec![msg("a\nb")])
        .chunks(&[b"data: a\r", b"data: b\n\n"])
        .check();
    // Followed by CR: a line end and a blank line.
    case("CR|CR", "data: a\r\r", vec![msg("a")])
        .chunks(&[b"data: a\r", b"\r"])
        .check();
    case(
        "CR|CR|LF",
        "data: a\r\r\ndata: b\n\n",
        vec![msg("a"), msg("b")],
    )
    .chunks(&[b"data: a\r", b"\r", b"\n", b"data: b\n\n"])
    .check();
    // Followed by end of stream: the CR was a terminator; nothing pending.
    case(
        "CR at EOF ends the blank line",
        "data: a\n\r",
        vec![msg("a")],
    )
    .chunks(&[b"data: a\n", b"\r"])
    .check();
}

// ---------------------------------------------------------------------------
// Lines: "If the line starts with a U+003A COLON character (:) — Ignore the
// line." "If the line contains a colon — field is the characters before the
// first colon, value the characters after it; if value starts with a
// U+0020 SPACE character, remove it." "Otherwise, the string is not empty
// but does not contain a colon — the whole line is the field name and the
// empty string is the value."
// ---------------------------------------------------------------------------

#[test]
fn comments() {
    // Comments dispatch nothing; next_item reports the bytes after the colon.
    case(
        "comment lines",
        ": hello\n:\n: \n::x\ndata: x\n\n",
        vec![
            comment(b" hello"),
            comment(b""),
            comment(b" "),
            comment(b":x"),
            msg("x"),
        ],
    )
    .check();
    case("comment-only block", ": ping\n\n", vec![comment(b" ping")]).check();
    // A colon-first line is a comment even if it looks like a field.
    case(":data", ":data: x\n\n", vec![comment(b"data: x")]).check();
    // A comment inside a block does not interrupt it.
    case(
        "comment inside a block",
        "data: a\n: c\ndata: b\n\n",
        vec![comment(b" c"), msg("a\nb")],
    )
    .check();
}

#[test]
fn field_without_colon_has_empty_value() {
    // "data" alone appends "" + LF to the data buffer; the buffer is "\n",
    // not empty, so an event dispatches, with the final LF removed: "".
    case("bare data", "data\n\n", vec![msg("")]).check();
    case("two bare data", "data\ndata\n\n", vec![msg("\n")]).check();
    // "event" alone sets the type to "", which dispatches as "message".
    case("bare event", "event\ndata: x\n\n", vec![msg("x")]).check();
}

#[test]
fn one_leading_space_is_removed() {
    case("no space", "data:x\n\n", vec![msg("x")]).check();
    case("one space", "data: x\n\n", vec![msg("x")]).check();
    case("two spaces keep one", "data:  x\n\n", vec![msg(" x")]).check();
    case("tab is not removed", "data:\tx\n\n", vec![msg("\tx")]).check();
    case("trailing space kept", "data: x \n\n", vec![msg("x ")]).check();
    case("only a space", "data: \n\n", vec![msg("")]).check();
    // The same rule holds for other fields.
    case(
        "event two spaces",
        "event:  e\ndata: x\n\n",
        vec![frame(Frame::new("x").with_event(" e"))],
    )
    .check();
    case(
        "id two spaces",
        "id:  7\ndata: x\n\n",
        vec![frame(Frame::new("x").with_id(" 7"))],
    )
    .last_id(" 7")
    .check();
}

#[test]
fn data_lines_join_with_lf_and_final_lf_is_removed() {
    // WHATWG stock-ticker example.
    case(
        "three lines",
        "data: YHOO\ndata: +2\ndata: 10\n\n",
        vec![msg("YHOO\n+2\n10")],
    )
    .check();
    case(
        "empty middle line",
        "data: a\ndata:\ndata: b\n\n",
        vec![msg("a\n\nb")],
    )
    .check();
    // Buffer "a\n\n": only the last LF is removed.
    case("empty last line", "data: a\ndata:\n\n", vec![msg("a\n")]).check();
    case("empty first line", "data:\ndata: a\n\n", vec![msg("\na")]).check();
}

#[test]
fn blank_line_without_data_dispatches_nothing() {
    // "If the data buffer is an empty string, set the data buffer and the
    // event type buffer to the empty string and return."
    case("blank lines only", "\n\n\r\n\r", vec![]).check();
    case(
        "event reset by an empty block",
        "event: ping\n\ndata: x\n\n",
        vec![msg("x")],
    )
    .check();
    case("unknown field only", "foo: bar\n\n", vec![]).check();
}

#[test]
fn event_type() {
    case(
        "event sets type",
        "event: add\ndata: x\n\n",
        vec![frame(Frame::new("x").with_event("add"))],
    )
    .check();
    // Last event field wins; empty means "message".
    case("empty event value", "event:\ndata: y\n\n", vec![msg("y")]).check();
    case(
        "event then empty event",
        "event: add\nevent:\ndata: y\n\n",
        vec![msg("y")],
    )
    .check();
    case(
        "type resets after dispatch",
        "event: add\ndata: x\n\ndata: y\n\n",
        vec![frame(Frame::new("x").with_event("add")), msg("y")],
    )
    .check();
    case(
        "event after data in the block",
        "data: x\nevent: late\n\n",
        vec![frame(Frame::new("x").with_event("late"))],
    )
    .check();
}

#[test]
fn has_event_type_is_false_for_default_and_empty() {
    let mut p = Parser::new();
    p.feed(Bytes::from_static(
        b"data: a\n\nevent:\ndata: b\n\nevent: message\ndata: c\n\n",
    ));
    let a = p.next_frame().unwrap().unwrap();
    let b = p.next_frame().unwrap().unwrap();
    let c = p.next_frame().unwrap().unwrap();
    assert_eq!((a.event(), a.has_event_type()), ("message", false));
    assert_eq!((b.event(), b.has_event_type()), ("message", false));
    assert_eq!((c.event(), c.has_event_type()), ("message", true));
}

// ---------------------------------------------------------------------------
// id: "If the field value does not contain U+0000 NULL, then set the last
// event ID buffer to the field value. Otherwise, ignore the field." At
// dispatch, step 1: "Set the last event ID string of the event source to
// the value of the last event ID buffer. The buffer does not get reset, so
// the last event ID string of the event source remains set to this value
// until the next time it is set by the server." Step 1 comes before the
// empty-data check, so blocks without data commit the id too.
// ---------------------------------------------------------------------------

#[test]
fn id_field() {
    case(
        "id with NUL ignored",
        "id: 1\ndata: a\n\nid: x\0y\ndata: b\n\n",
        vec![
            frame(Frame::new("a").with_id("1")),
            frame(Frame::new("b").with_id("1")),
        ],
    )
    .last_id("1")
    .check();
    // An ignored id sets nothing, so its block commits nothing new.
    case(
        "NUL id in an empty block",
        "id: 1\n\nid: \0\n\n",
        vec![id_commit("1")],
    )
    .last_id("1")
    .check();
    case(
        "id persists across events",
        "id: 7\ndata: a\n\ndata: b\n\n",
        vec![
            frame(Frame::new("a").with_id("7")),
            frame(Frame::new("b").with_id("7")),
        ],
    )
    .last_id("7")
    .check();
    case(
        "id after data in the same block",
        "data: a\nid: 5\n\n",
        vec![frame(Frame::new("a").with_id("5"))],
    )
    .last_id("5")
    .check();
    case(
        "id committed at a blank line without dispatch",
        "id: 42\n\ndata: hi\n\n",
        vec![id_commit("42"), frame(Frame::new("hi").with_id("42"))],
    )
    .last_id("42")
    .check();
    case("id only stream", "id: 9\n\n", vec![id_commit("9")])
        .last_id("9")
        .check();
    // "id" with no colon: the value is "", which resets the last event ID.
    case(
        "bare id resets",
        "id: 1\ndata: a\n\nid\ndata: b\n\n",
        vec![frame(Frame::new("a").with_id("1")), msg("b")],
    )
    .last_id("")
    .check();
    case(
        "bare id in an empty block",
        "id: 1\n\nid\n\n",
        vec![id_commit("1"), id_commit("")],
    )
    .check();
    // An id in a block cut off by EOF is never committed.
    case(
        "id in the truncated tail",
        "data: a\n\nid: 9\n",
        vec![msg("a"), tail(9, 6)],
    )
    .last_id("")
    .check();
}

#[test]
fn id_is_committed_only_at_the_blank_line() {
    let mut p = Parser::new();
    p.feed(Bytes::from_static(b"id: 5\n"));
    assert_eq!(p.next_item().unwrap(), None);
    assert_eq!(p.last_event_id(), "", "committed before the blank line");
    p.feed(Bytes::from_static(b"\n"));
    assert_eq!(
        p.next_item().unwrap(),
        Some(Item::LastEventId(Bytes::from_static(b"5")))
    );
    assert_eq!(p.last_event_id(), "5");
    p.finish().unwrap();
}

// ---------------------------------------------------------------------------
// retry: "If the field value consists of only ASCII digits, then interpret
// the field value as an integer in base ten, and set the event stream's
// reconnection time to that integer. Otherwise, ignore the field."
// ssekit reports each accepted value as Item::Retry when processed;
// Frame::retry() is the value set in that event's own block only.
// ---------------------------------------------------------------------------

#[test]
fn retry_field() {
    case(
        "valid retry in the event's block",
        "retry: 3000\ndata: a\n\n",
        vec![retry(3000), frame(Frame::new("a").with_retry(Some(3000)))],
    )
    .check();
    case("retry: 0", "retry: 0\n\n", vec![retry(0)]).check();
    case("leading zeros", "retry: 007\n\n", vec![retry(7)]).check();
    for bad in [
        "retry: 12 \n",
        "retry: 1a\n",
        "retry:\n",
        "retry: \n",
        "retry\n",
        "retry: +1\n",
        "retry: -1\n",
        "retry:  1\n",
        "retry: 1.5\n",
        "retry: \u{0661}\n",
    ] {
        let input = format!("{bad}data: x\n\n");
        case(bad, &input, vec![msg("x")]).check();
    }
    // The spec's integer is unbounded; ssekit saturates.
    case(
        "huge retry saturates",
        "retry: 99999999999999999999999999\n\n",
        vec![retry(u64::MAX)],
    )
    .check();
    case(
        "u64::MAX exactly",
        "retry: 18446744073709551615\n\n",
        vec![retry(u64::MAX)],
    )
    .check();
    case(
        "u64::MAX + 1",
        "retry: 18446744073709551616\n\n",
        vec![retry(u64::MAX)],
    )
    .check();
    // An invalid retry after a valid one leaves the valid one in force.
    case(
        "invalid after valid",
        "retry: 1\nretry: x\ndata: a\n\n",
        vec![retry(1), frame(Frame::new("a").with_retry(Some(1)))],
    )
    .check();
    // Last valid retry in a block wins.
    case(
        "two valid",
        "retry: 1\nretry: 2\ndata: a\n\n",
        vec![
            retry(1),
            retry(2),
            frame(Frame::new("a").with_retry(Some(2))),
        ],
    )
    .check();
}

#[test]
fn frame_retry_is_set_in_its_own_block_only() {
    // A retry in a block that dispatches nothing is reported as an item but
    // does not attach to the next event's Frame::retry().
    case(
        "retry-only block",
        "retry: 5000\n\ndata: x\n\n",
        vec![retry(5000), msg("x")],
    )
    .check();
    // And a block's retry does not carry over to the next event.
    case(
        "retry does not carry over",
        "retry: 5\ndata: a\n\ndata: b\n\n",
        vec![
            retry(5),
            frame(Frame::new("a").with_retry(Some(5))),
            msg("b"),
        ],
    )
    .check();
}

// ---------------------------------------------------------------------------
// Field names: "Otherwise: The field is ignored." Names compare literally.
// ---------------------------------------------------------------------------

#[test]
fn unknown_fields_are_ignored_and_names_are_case_sensitive() {
    case(
        "unknown and miscased",
        "foo: bar\nData: x\nDATA: y\ndata : z\n data: w\nEvent: e\nID: 1\nRetry: 1\ndata: keep\n\n",
        vec![msg("keep")],
    )
    .check();
    case("Data alone", "Data: x\n\n", vec![]).check();
}

#[test]
fn colon_in_value() {
    case("data", "data: a:b: c\n\n", vec![msg("a:b: c")]).check();
    case(
        "event",
        "event: a:b\ndata: x\n\n",
        vec![frame(Frame::new("x").with_event("a:b"))],
    )
    .check();
    case("empty name", ": x\n\n", vec![comment(b" x")]).check();
}

// ---------------------------------------------------------------------------
// End of stream: "Once the end of the file is reached, any pending data
// must be discarded. (If the file ends in the middle of an event, before
// the final empty line, the incomplete event is not dispatched.)" ssekit
// reports what it discarded as TruncatedTail { len } at the offset where
// the block (or the unterminated line) began.
// ---------------------------------------------------------------------------

#[test]
fn incomplete_block_at_eof() {
    // "data: kept\n\n" is bytes 0..12; the rest is 11 bytes.
    case(
        "terminated lines, no blank line",
        "data: kept\n\ndata: lost\n",
        vec![msg("kept"), tail(12, 11)],
    )
    .check();
    case(
        "mid-line",
        "data: kept\n\ndata: hal",
        vec![msg("kept"), tail(12, 9)],
    )
    .check();
    case(
        "spec example 'data:' at the end",
        "data\n\ndata\ndata\n\ndata:\n",
        vec![msg(""), msg("\n"), tail(17, 6)],
    )
    .check();
    // A block of non-data fields is pending too, comments included in its length.
    case(
        "event field, then a comment",
        "data: a\n\nevent: x\n: c\n",
        vec![msg("a"), comment(b" c"), tail(9, 13)],
    )
    .check();
    case(
        "whole stream is one incomplete block",
        "id: 3\n",
        vec![tail(0, 6)],
    )
    .check();
}

/// The offset of a truncated tail is where its block begins, however the
/// stream was chunked: after a CRLF blank line, that is after the LF, even
/// when the CR ended one chunk and the LF began the next.
#[test]
fn tail_offset_after_a_crlf_blank_line_is_chunking_invariant() {
    case(
        "tail after a CRLF blank line",
        "data: a\n\r\ndata: x\n",
        vec![msg("a"), tail(10, 8)],
    )
    .chunks(&[b"data: a\n\r", b"\ndata: x\n"])
    .check();
    case(
        "tail after a CR blank line",
        "data: a\n\rdata: x\n",
        vec![msg("a"), tail(9, 8)],
    )
    .check();
}

/// The leading BOM is not part of the first block: a tail that starts
/// there begins after it, whether or not its last line was terminated
/// (an unterminated first line is reported at offset 3, see
/// `bom_at_start_is_stripped`; a terminated one must be too).
#[test]
fn tail_offset_after_a_leading_bom() {
    case(
        "BOM, then an incomplete block",
        [BOM, b"data: x\n"].concat(),
        vec![tail(3, 8)],
    )
    .check();
}

/// Same root cause as the tail offset above, seen through a limit error:
/// EventTooLarge carries the offset of its block, which must not depend on
/// where the CR and LF of the blank line before it fell.
#[test]
fn event_too_large_offset_after_a_split_crlf_blank_line() {
    let input = b"data: a\n\r\ndata: abcd\n\n";
    let mut config = ParserConfig::default();
    config.max_event_len = 3;
    for chunks in [vec![&input[..]], vec![&input[..9], &input[9..]]] {
        let got = run(config, &chunks);
        // The second block starts at byte 10, after "data: a\n\r\n".
        let want = vec![
            msg("a"),
            Out::Err(FrameErrorKind::EventTooLarge { limit: 3 }, 10),
        ];
        assert_eq!(got.out, want, "chunks {chunks:?}");
    }
}

#[test]
fn comment_only_tail_is_not_reported() {
    // Comments dispatch nothing and leave no pending data.
    case(
        "comment tail",
        "data: a\n\n: ping\n",
        vec![msg("a"), comment(b" ping")],
    )
    .check();
    case(
        "comments only",
        ": a\n: b\n",
        vec![comment(b" a"), comment(b" b")],
    )
    .check();
    // An unterminated line is pending, even a comment (its end is unknown).
    case(
        "unterminated comment",
        "data: a\n\n: pin",
        vec![msg("a"), tail(9, 5)],
    )
    .check();
}

// ---------------------------------------------------------------------------
// UTF-8: "Event streams are always decoded as UTF-8" with the UTF-8 decode
// algorithm, which replaces each maximal invalid subsequence with U+FFFD.
// Utf8Mode::Strict instead reports the first invalid byte and drops the
// event, then goes on.
// ---------------------------------------------------------------------------

#[test]
fn invalid_utf8_is_replaced() {
    case("0xFF", b"data: a\xFFb\n\n", vec![msg("a\u{FFFD}b")]).check();
    // E2 82 is the prefix of a 3-byte sequence: one U+FFFD for both bytes.
    case(
        "truncated sequence",
        b"data: \xE2\x82x\n\n",
        vec![msg("\u{FFFD}x")],
    )
    .check();
    case(
        "truncated at line end",
        b"data: \xF0\x9F\x98\n\n",
        vec![msg("\u{FFFD}")],
    )
    .check();
    // ED A0 80 (an encoded surrogate): ED's second byte must be 80..9F, so
    // each of the three bytes is its own maximal subpart.
    case(
        "surrogate",
        b"data: \xED\xA0\x80\n\n",
        vec![msg("\u{FFFD}\u{FFFD}\u{FFFD}")],
    )
    .check();
    case(
        "overlong",
        b"data: \xC0\xAF\n\n",
        vec![msg("\u{FFFD}\u{FFFD}")],
    )
    .check();
    case(
        "in event and id",
        b"event: \xFF\nid: \xFE\ndata: x\n\n",
        vec![frame(
            Frame::new("x").with_event("\u{FFFD}").with_id("\u{FFFD}"),
        )],
    )
    .last_id("\u{FFFD}")
    .check();
    // Invalid bytes in a data line that spans chunks (the split runs cover it).
    case(
        "0xFF, two lines",
        b"data: \xFF\ndata: \xC3\n\n",
        vec![msg("\u{FFFD}\n\u{FFFD}")],
    )
    .check();
}

#[test]
fn multibyte_characters_survive_every_split() {
    // The split runs cut each sequence between every pair of its bytes.
    case("2 bytes", "data: \u{e9}\n\n", vec![msg("\u{e9}")]).check();
    case("3 bytes", "data: \u{20AC}\n\n", vec![msg("\u{20AC}")]).check();
    case("4 bytes", "data: \u{1F600}\n\n", vec![msg("\u{1F600}")]).check();
    case(
        "ZWJ sequence",
        "data: \u{1F469}\u{200D}\u{1F4BB}\n\n",
        vec![msg("\u{1F469}\u{200D}\u{1F4BB}")],
    )
    .check();
    case(
        "strict, 4 bytes",
        "data: \u{1F600}\n\n",
        vec![msg("\u{1F600}")],
    )
    .strict()
    .check();
}

#[test]
fn strict_utf8_reports_the_first_bad_byte_and_goes_on() {
    // "data: a\n\n" is 0..9, "data: b" 9..16, so 0xFF is at byte 16. Its
    // block is dropped up to the next blank line; the stream goes on.
    case(
        "strict 0xFF",
        b"data: a\n\ndata: b\xFFc\ndata: more\n\ndata: d\n\n",
        vec![msg("a"), bad_utf8(16), msg("d")],
    )
    .strict()
    .check();
    // A truncated sequence: the first byte of it is reported.
    case(
        "strict truncated",
        b"data: \xE2\x82x\n\ndata: d\n\n",
        vec![bad_utf8(6), msg("d")],
    )
    .strict()
    .check();
    // A bad line after good ones in the same block drops the whole block.
    case(
        "strict later line",
        b"data: a\ndata: \xFF\n\ndata: d\n\n",
        vec![bad_utf8(14), msg("d")],
    )
    .strict()
    .check();
}

#[test]
fn nul_in_data_is_kept() {
    case("NUL", "data: a\0b\n\n", vec![msg("a\0b")]).check();
    case(
        "NUL in event",
        "event: a\0b\ndata: x\n\n",
        vec![frame(Frame::new("x").with_event("a\0b"))],
    )
    .check();
}

// ---------------------------------------------------------------------------
// Everything at once: item order, in-block Frame::retry, id commits.
// ---------------------------------------------------------------------------

#[test]
fn mixed_stream_item_order() {
    let input = ": hi\n\
                 retry: 100\n\
                 id: 1\n\
                 \n\
                 event: e\n\
                 data: x\n\
                 retry: 200\n\
                 \n\
                 data: y\n\
                 \n\
                 retry: 300\n\
                 : bye\n\
                 \n";
    case(
        "mixed",
        input,
        vec![
            comment(b" hi"),
            retry(100),
            id_commit("1"),
            // The retry item comes when its field is processed, before the
            // blank line that dispatches the frame.
            retry(200),
            frame(
                Frame::new("x")
                    .with_event("e")
                    .with_id("1")
                    .with_retry(Some(200)),
            ),
            frame(Frame::new("y").with_id("1")),
            retry(300),
            comment(b" bye"),
        ],
    )
    .last_id("1")
    .check();

    // next_frame reports only the frames, in the same order.
    let mut p = Parser::new();
    p.feed(Bytes::from(input));
    let mut frames = Vec::new();
    while let Some(f) = p.next_frame().unwrap() {
        frames.push(f);
    }
    p.finish().unwrap();
    assert_eq!(
        frames,
        [
            Frame::new("x")
                .with_event("e")
                .with_id("1")
                .with_retry(Some(200)),
            Frame::new("y").with_id("1"),
        ]
    );
    assert_eq!(p.reconnection_time(), Some(300));
}
