//! Hostile inputs: each gets a typed error or the specification's answer,
//! never a panic, a stack overflow or unbounded memory. Peak heap is
//! measured with the counting allocator of `tests/support/counting.rs`
//! (per thread, so the tests of this binary may run in parallel) and
//! asserted against the configured limits plus one chunk.
//!
//! Big streams are generated on the fly from one reused chunk, never held
//! whole: the chunk is allocated before the measurement, so the peak is
//! what the parser itself holds. Sizes are chosen so that the debug-mode
//! suite (what `cargo test` runs) stays within seconds; the full sizes of
//! issue 6 (a 1 GiB line, a 100 MB value in 1-byte chunks, 10^7 events) run
//! in the `#[ignore]`d `full_size_*` tests, which `.ci/run` runs in release
//! mode through `tests/hostile_release/` (`cargo test --release
//! --manifest-path tests/hostile_release/Cargo.toml -- --ignored
//! --nocapture`: that package builds this file without the main crate's
//! dev-dependencies); in debug mode the 10^8 one-byte feeds alone would take
//! minutes.
//!
//! A global allocator cannot be written without `unsafe impl GlobalAlloc`,
//! which the support file allows for itself; the library keeps
//! `#![deny(unsafe_code)]`.

use crate::counting;
use counting::peak_heap;

use bytes::Bytes;
use ssekit::anthropic::AnthropicEvent;
use ssekit::chat::ChatEvent;
use ssekit::json::partial::PartialJson;
use ssekit::json::{JsonErrorKind, ObjectView, Value, MAX_DEPTH};
use ssekit::responses::{DecodeErrorKind, ResponsesEvent};
use ssekit::{Frame, FrameError, FrameErrorKind, Item, Parser, ParserConfig, Utf8Mode};

/// Everything a parser reported while it was drained.
#[derive(Debug, Default)]
struct Seen {
    frames: u64,
    data_bytes: u64,
    errors: Vec<FrameError>,
}

fn drain(parser: &mut Parser, seen: &mut Seen) {
    loop {
        match parser.next_frame() {
            Ok(Some(f)) => {
                seen.frames += 1;
                seen.data_bytes += f.data().len() as u64;
            }
            Ok(None) => return,
            Err(e) => seen.errors.push(e),
        }
    }
}

/// Feeds `prefix`, then `chunk` `times` times, then `suffix`, draining after
/// every feed; returns what was seen, the peak heap during it, and the parser.
fn feed_repeated(
    config: ParserConfig,
    prefix: &'static [u8],
    chunk: &Bytes,
    times: u64,
    suffix: &'static [u8],
) -> (Seen, u64, Parser) {
    let mut parser = Parser::with_config(config);
    let mut seen = Seen::default();
    seen.errors.reserve(16);
    let ((), peak) = peak_heap(|| {
        parser.feed(Bytes::from_static(prefix));
        drain(&mut parser, &mut seen);
        for _ in 0..times {
            parser.feed(chunk.clone());
            drain(&mut parser, &mut seen);
        }
        parser.feed(Bytes::from_static(suffix));
        drain(&mut parser, &mut seen);
    });
    (seen, peak, parser)
}

fn kinds(errors: &[FrameError]) -> Vec<(FrameErrorKind, u64)> {
    errors.iter().map(|e| (e.kind(), e.offset())).collect()
}

// ---------------------------------------------------------------------------
// A line without end.

/// A `data:` line of `chunks` × 64 KiB with no line end, then a blank line
/// and one good event: one `LineTooLong` at offset 0, the good event after
/// it, and a peak heap of at most `max_line_len` (the line buffer, which
/// stops growing at the limit) plus one chunk.
fn endless_line(chunks: u64) {
    const CHUNK: usize = 64 << 10;
    let config = ParserConfig::DEFAULT; // 16 MiB lines
    let chunk = Bytes::from(vec![b'a'; CHUNK]);
    let (seen, peak, mut parser) =
        feed_repeated(config, b"data: ", &chunk, chunks, b"\n\ndata: after\n\n");
    let total = 6 + chunks * CHUNK as u64;
    let limit = config.max_line_len as u64;
    println!(
        "{} MiB line in 64 KiB chunks, max_line_len {} MiB: peak heap {peak} bytes",
        total >> 20,
        limit >> 20
    );
    assert!(
        peak <= limit + CHUNK as u64,
        "peak heap {peak} > {limit} + one chunk"
    );
    assert_eq!(
        kinds(&seen.errors),
        [(
            FrameErrorKind::LineTooLong {
                limit: config.max_line_len
            },
            0
        )]
    );
    assert_eq!(
        (seen.frames, seen.data_bytes),
        (1, 5),
        "only `after` is dispatched"
    );
    assert_eq!(parser.finish(), Ok(()));
    let t = parser.tally();
    assert_eq!((t.dropped, t.dispatched), (total + 2, 13));
}

#[test]
fn a_128_mib_line_without_end_costs_at_most_the_line_limit() {
    endless_line(2048);
}

#[test]
#[ignore = "1 GiB: run in release by .ci/run"]
fn full_size_a_1_gib_line_without_end() {
    endless_line(16384);
}

// ---------------------------------------------------------------------------
// Endless `data:` lines without a blank line.

#[test]
fn endless_data_lines_without_a_blank_line_cost_at_most_the_event_limit() {
    // 1 KiB `data:` lines, 128 MiB of them, with the default 32 MiB event
    // limit: one `EventTooLarge` at offset 0, then the rest is skipped
    // without being buffered, up to the blank line.
    const CHUNK: usize = 64 << 10;
    const CHUNKS: u64 = 2048;
    let mut line = b"data: ".to_vec();
    line.resize(1023, b'v');
    line.push(b'\n');
    let chunk = Bytes::from(line.repeat(CHUNK / 1024));
    let config = ParserConfig::DEFAULT;
    let (seen, peak, mut parser) = feed_repeated(config, b"", &chunk, CHUNKS, b"\ndata: after\n\n");
    let limit = (config.max_event_len + config.max_line_len) as u64;
    println!(
        "128 MiB of 1 KiB data lines, max_event_len 32 MiB: peak heap {peak} bytes (bound {limit} + chunk)"
    );
    // The data buffer stops at max_event_len; no line spans chunks here.
    assert!(
        peak <= config.max_event_len as u64 + CHUNK as u64,
        "peak heap {peak}"
    );
    assert_eq!(
        kinds(&seen.errors),
        [(
            FrameErrorKind::EventTooLarge {
                limit: config.max_event_len
            },
            0
        )]
    );
    assert_eq!((seen.frames, seen.data_bytes), (1, 5));
    assert_eq!(parser.finish(), Ok(()));
}

// ---------------------------------------------------------------------------
// Many tiny events.

/// `n` events `data: x\n\n`, in chunks of 7,000 events: all dispatched, and
/// nothing is held: the peak heap is the parser's few small allocations.
fn tiny_events(n: u64) {
    const PER_CHUNK: u64 = 7000;
    let chunk = Bytes::from(b"data: x\n\n".repeat(PER_CHUNK as usize));
    let (seen, peak, mut parser) =
        feed_repeated(ParserConfig::DEFAULT, b"", &chunk, n / PER_CHUNK, b"");
    println!("{} tiny events: peak heap {peak} bytes", seen.frames);
    assert_eq!(seen.frames, n / PER_CHUNK * PER_CHUNK);
    assert!(seen.errors.is_empty());
    assert!(peak <= 4096, "peak heap {peak} bytes for tiny events");
    assert_eq!(parser.finish(), Ok(()));
    assert_eq!(parser.tally().dispatched, seen.frames * 9);
}

#[test]
fn a_million_tiny_events_hold_nothing() {
    tiny_events(1_001_000);
}

#[test]
fn raw_bytes_kept_for_tiny_events_allocate_nothing_per_frame() {
    // `keep_raw`: each frame holds a slice of the chunk, a reference count,
    // not an allocation. The chunk is one shared buffer fed again and again.
    let chunk = Bytes::from(b"data: x\n\n".repeat(7000));
    let mut parser = Parser::with_config(ParserConfig::DEFAULT.with_raw(true));
    let ((frames, raw_bytes), allocs) = counting::allocations(|| {
        let (mut frames, mut raw_bytes) = (0u64, 0u64);
        for _ in 0..20 {
            parser.feed(chunk.clone());
            while let Some(f) = parser.next_frame().unwrap() {
                frames += 1;
                raw_bytes += f.raw().map_or(0, |r| r.len() as u64);
            }
        }
        (frames, raw_bytes)
    });
    println!("{frames} frames with raw bytes: {allocs} allocations");
    assert_eq!((frames, raw_bytes), (140_000, 140_000 * 9));
    // At most one: the chunk's buffer becoming shared at its first slice.
    assert!(allocs <= 1, "{allocs} allocations");
}

#[test]
#[ignore = "10^7 events: run in release by .ci/run"]
fn full_size_ten_million_tiny_events() {
    tiny_events(10_003_000);
}

// ---------------------------------------------------------------------------
// A long value in 1-byte chunks.

/// A `data:` value of `len` bytes fed one byte at a time (one static
/// 1-byte chunk, fed `len` times), with `max_line_len` = `max_event_len` =
/// `limit`: dispatched whole if it fits, else one `LineTooLong`. Peak heap:
/// at most the limit plus one chunk (the line buffer; the frame's data is
/// that buffer, frozen, not a copy).
fn value_in_one_byte_chunks(len: u64, limit: usize) {
    let config = ParserConfig::DEFAULT
        .with_max_line_len(limit)
        .with_max_event_len(limit);
    let byte = Bytes::from_static(b"x");
    let (seen, peak, mut parser) = feed_repeated(config, b"data: ", &byte, len, b"\n\n");
    println!(
        "{len}-byte value in 1-byte chunks, limits {limit}: peak heap {peak} bytes, {} frames",
        seen.frames
    );
    // One chunk is one byte here; 64 bytes cover the shared headers of the
    // buffer handles.
    assert!(
        peak <= limit as u64 + 1 + 64,
        "peak heap {peak} > limit {limit} + 1 + 64"
    );
    if len + 6 <= limit as u64 {
        assert_eq!((seen.frames, seen.data_bytes), (1, len));
        assert!(seen.errors.is_empty());
    } else {
        assert_eq!(seen.frames, 0);
        assert_eq!(
            kinds(&seen.errors),
            [(FrameErrorKind::LineTooLong { limit }, 0)]
        );
    }
    assert_eq!(parser.finish(), Ok(()));
}

#[test]
fn a_2_mib_value_in_one_byte_chunks_is_dispatched_within_its_limit() {
    value_in_one_byte_chunks(2 << 20, 3 << 20);
}

#[test]
fn a_value_over_the_limit_in_one_byte_chunks_costs_at_most_the_limit() {
    value_in_one_byte_chunks(2 << 20, 1 << 20);
}

#[test]
#[ignore = "10^8 feeds: run in release by .ci/run"]
fn full_size_a_100_mb_value_in_one_byte_chunks() {
    value_in_one_byte_chunks(100_000_000, 128 << 20);
    value_in_one_byte_chunks(100_000_000, ParserConfig::DEFAULT.max_line_len);
}

// ---------------------------------------------------------------------------
// Deep nesting, through every layer that reads JSON.

fn nested(depth: usize) -> String {
    let mut s = "[".repeat(depth);
    s.push_str(&"]".repeat(depth));
    s
}

#[test]
fn deeply_nested_json_is_an_error_in_every_layer_never_a_stack_overflow() {
    const DEPTH: usize = 1 << 20;
    let deep = nested(DEPTH);
    let deep_objects = format!("{}1{}", "{\"a\":".repeat(DEPTH), "}".repeat(DEPTH));

    // The JSON layer: `TooDeep` where the limit is crossed.
    for text in [&deep, &deep_objects] {
        let ((), peak) = peak_heap(|| {
            let e = Value::parse(text).unwrap_err();
            assert_eq!(e.kind(), JsonErrorKind::TooDeep);
        });
        assert_eq!(peak, 0, "the scanner allocates nothing");
    }
    assert_eq!(Value::parse(&deep).unwrap_err().offset(), MAX_DEPTH);
    assert!(Value::parse(&nested(MAX_DEPTH)).is_ok());

    // Tool arguments as an object member: the views refuse the event.
    let item = format!(
        r#"{{"type":"response.output_item.done","output_index":0,"sequence_number":1,"item":{{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":{deep}}}}}"#
    );
    let e = ResponsesEvent::parse(&item).unwrap_err();
    assert!(
        matches!(e.kind(), DecodeErrorKind::Json(j) if j.kind() == JsonErrorKind::TooDeep),
        "{e:?}"
    );
    let e = AnthropicEvent::parse(&format!(r#"{{"type":"content_block_start","index":0,"content_block":{{"type":"tool_use","id":"t","name":"f","input":{deep}}}}}"#)).unwrap_err();
    assert!(
        matches!(e.kind(), DecodeErrorKind::Json(j) if j.kind() == JsonErrorKind::TooDeep),
        "{e:?}"
    );
    let e = ChatEvent::parse(&format!(r#"{{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{{"index":0,"delta":{{"x":{deep}}}}}]}}"#)).unwrap_err();
    assert!(
        matches!(e.kind(), DecodeErrorKind::Json(j) if j.kind() == JsonErrorKind::TooDeep),
        "{e:?}"
    );
    assert!(ObjectView::parse(&format!(r#"{{"a":{deep}}}"#)).is_err());

    // Tool arguments as a JSON string (how they stream): the views take the
    // string as it is; the partial-JSON repairer refuses it, deltas or whole.
    let escaped = deep.clone(); // brackets need no escaping
    let delta = format!(
        r#"{{"type":"response.function_call_arguments.delta","item_id":"fc","output_index":0,"sequence_number":2,"delta":"{escaped}"}}"#
    );
    match ResponsesEvent::parse(&delta).unwrap() {
        ResponsesEvent::FunctionCallArgumentsDelta(d) => assert_eq!(d.delta.raw().len(), 2 * DEPTH),
        other => panic!("{other:?}"),
    }
    let mut partial = PartialJson::new();
    let ((), peak) = peak_heap(|| {
        let mut err = None;
        for piece in deep.as_bytes().chunks(4096) {
            if let Err(e) = partial.feed(std::str::from_utf8(piece).unwrap()) {
                err = Some(e);
                break;
            }
        }
        let e = err.expect("too deep");
        assert_eq!((e.kind(), e.offset()), (JsonErrorKind::TooDeep, MAX_DEPTH));
    });
    println!("partial JSON, {DEPTH} open brackets in 4 KiB deltas: peak heap {peak} bytes");
    assert!(peak <= 2 * 4096, "the repairer stops at the error: {peak}");
    assert_eq!(partial.finish().unwrap_err().kind(), JsonErrorKind::TooDeep);
    let mut partial = PartialJson::new();
    assert_eq!(
        partial.repair(&deep).unwrap_err().kind(),
        JsonErrorKind::TooDeep
    );

    // Through the frame parser too: a 2 MiB data line is one frame.
    let mut parser = Parser::new();
    parser.feed(Bytes::from(format!("data: {item}\n\n")));
    let frame = parser.next_frame().unwrap().unwrap();
    assert!(ResponsesEvent::from_frame(&frame).is_err());
}

// ---------------------------------------------------------------------------
// Invalid UTF-8 and NUL bytes everywhere.

#[test]
fn invalid_utf8_and_nul_bytes_in_every_field() {
    let stream: &[u8] = b"\xFF\x00: c\xC3\x00\n\
        event: e\xC3\x28\x00\n\
        id: \xF0\x9F\n\
        retry: 1\x002\n\
        da\xFFta: no\n\
        data: \xE2\x82\x00\xFF{\"a\":\"\x00\"}\n\
        \n\
        id: ok\x00\n\
        data: \xED\xA0\x80\n\n";
    // Replace mode: U+FFFD for each invalid sequence, the specification's
    // answer; an id with NUL is ignored; a retry that is not all digits too.
    let mut parser = Parser::new();
    let mut items = Vec::new();
    for b in stream {
        parser.feed(Bytes::copy_from_slice(&[*b]));
        while let Some(i) = parser.next_item().unwrap() {
            items.push(i);
        }
    }
    assert_eq!(parser.finish(), Ok(()));
    let frames: Vec<&Frame> = items
        .iter()
        .filter_map(|i| match i {
            Item::Frame(f) => Some(f),
            _ => None,
        })
        .collect();
    assert_eq!(frames.len(), 2);
    assert_eq!(frames[0].event(), "e\u{FFFD}(\0");
    assert_eq!(frames[0].id(), "\u{FFFD}");
    assert_eq!(frames[0].data(), "\u{FFFD}\0\u{FFFD}{\"a\":\"\0\"}");
    assert_eq!(frames[0].retry(), None);
    assert_eq!(frames[1].id(), "\u{FFFD}", "`id: ok\\0` is ignored");
    assert_eq!(
        frames[1].data(),
        "\u{FFFD}\u{FFFD}\u{FFFD}",
        "a surrogate is 3 invalid bytes"
    );
    assert_eq!(parser.reconnection_time(), None);
    // The views: a raw NUL in a JSON string is a typed error.
    let with_nul = "{\"type\":\"x\",\"delta\":\"a\0b\"}";
    let e = ResponsesEvent::parse(with_nul).unwrap_err();
    assert!(
        matches!(e.kind(), DecodeErrorKind::Json(j) if j.kind() == JsonErrorKind::ControlCharacter),
        "{e:?}"
    );
    assert_eq!(e.offset(), 22); // the NUL
    let escaped = r#"{"type":"x","delta":"a\u0000b"}"#;
    assert!(ResponsesEvent::parse(escaped).is_ok());

    // Strict mode: a typed error at the first invalid byte of each event,
    // which is dropped; parsing goes on.
    let strict = ParserConfig::DEFAULT.with_utf8(Utf8Mode::Strict);
    let mut parser = Parser::with_config(strict);
    parser.feed(Bytes::from_static(stream));
    let mut seen = Seen::default();
    drain(&mut parser, &mut seen);
    assert_eq!(parser.finish(), Ok(()));
    assert_eq!(
        kinds(&seen.errors),
        [
            (FrameErrorKind::InvalidUtf8, 0),
            (FrameErrorKind::InvalidUtf8, 83)
        ]
    );
    assert_eq!(&stream[83..86], b"\xED\xA0\x80");
    assert_eq!(seen.frames, 0);
}

// ---------------------------------------------------------------------------
// Huge numbers.

#[test]
fn huge_numbers_in_retry_sequence_number_and_indexes() {
    // `retry` saturates at u64::MAX, even with a megabyte of digits, in
    // linear time.
    let mut stream = b"retry: ".to_vec();
    stream.extend(std::iter::repeat_n(b'9', 1 << 20));
    stream.extend_from_slice(
        b"\ndata: x\n\nretry: 18446744073709551615\n\nretry: 18446744073709551616\n\n",
    );
    let mut parser = Parser::new();
    parser.feed(Bytes::from(stream));
    let f = parser.next_frame().unwrap().unwrap();
    assert_eq!(f.retry(), Some(u64::MAX));
    let mut items = Vec::new();
    while let Some(i) = parser.next_item().unwrap() {
        items.push(i);
    }
    assert_eq!(items, [Item::Retry(u64::MAX), Item::Retry(u64::MAX)]);

    // `sequence_number` and indexes past u64: a typed error naming the field.
    for (field, value) in [
        ("sequence_number", "18446744073709551616"),
        ("output_index", "18446744073709551616"),
        ("output_index", "-1"),
        ("sequence_number", "1.5"),
    ] {
        let data = format!(
            r#"{{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"sequence_number":0,"delta":"x","{field}":{value}}}"#
        );
        // One member of that name: the huge one.
        let data = data.replacen(&format!(r#""{field}":0,"#), "", 1);
        // Valid JSON: `Unknown`, with the error.
        let e = ResponsesEvent::parse(&data)
            .unwrap()
            .decode_error()
            .unwrap();
        assert_eq!(
            e.kind(),
            DecodeErrorKind::WrongType { field },
            "{field}: {value:.20}: {e:?}"
        );
    }
    // A number past f64's range is not JSON that serde_json reads: rejected
    // by the JSON layer, at the number.
    for value in ["1e400", &"9".repeat(100_000)] {
        let data = format!(
            r#"{{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":{value},"delta":"x"}}"#
        );
        let e = ResponsesEvent::parse(&data).unwrap_err();
        match e.kind() {
            DecodeErrorKind::Json(j) => {
                assert_eq!(j.kind(), ssekit::json::JsonErrorKind::NumberOutOfRange);
                assert_eq!(j.offset(), data.find(&value[..5]).unwrap());
            }
            other => panic!("{other:?}"),
        }
    }
    // At the edge, u64::MAX itself is a value.
    let data = r#"{"type":"response.output_text.delta","item_id":"m","output_index":18446744073709551615,"content_index":0,"sequence_number":18446744073709551615,"delta":"x"}"#;
    let ev = ResponsesEvent::parse(data).unwrap();
    assert_eq!(ev.sequence_number(), Some(u64::MAX));
    // Anthropic and Chat indexes.
    let e = AnthropicEvent::parse(r#"{"type":"content_block_stop","index":18446744073709551616}"#)
        .unwrap()
        .decode_error()
        .unwrap();
    assert!(
        matches!(e.kind(), DecodeErrorKind::WrongType { .. }),
        "{e:?}"
    );
    let e = ChatEvent::parse(
        r#"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":1e999,"delta":{}}]}"#,
    );
    match e {
        Err(e) => assert!(
            matches!(
                e.kind(),
                DecodeErrorKind::WrongType { .. } | DecodeErrorKind::Json(_)
            ),
            "{e:?}"
        ),
        Ok(ChatEvent::Chunk(c)) => {
            // Choices are decoded lazily: the element is the error.
            let first = c.choices.iter().next().unwrap();
            assert!(first.is_err(), "{first:?}");
        }
        Ok(other) => panic!("{other:?}"),
    }
}

// ---- Work bounds: n and 4n adversarially ordered events per layer -------

use crate::work_ratio;

/// Not a check by itself: the workload the `work_ratio_*` tests measure,
/// run in a child process under valgrind. Does nothing without
/// `SSEKIT_WORK_PROBE`.
#[test]
#[ignore = "a probe: run by the work_ratio_* tests"]
fn work_probe() {
    work_ratio::probe();
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_chat_accumulator() {
    work_ratio::check("chat", 5_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_anthropic_accumulator() {
    work_ratio::check("anthropic", 5_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_responses_accumulator() {
    work_ratio::check("responses", 5_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_linter() {
    work_ratio::check("lint", 4_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_responses_writer() {
    work_ratio::check("writer", 5_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_parser_and_views() {
    work_ratio::check("views", 5_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_long_lines() {
    work_ratio::check("long-line", 5_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_partial_json() {
    work_ratio::check("partial", 5_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_bridge_chat() {
    work_ratio::check("bridge-chat", 5_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_bridge_anthropic() {
    work_ratio::check("bridge-anthropic", 5_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_bridge_to_chat() {
    work_ratio::check("bridge-to-chat", 5_000);
}

#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_gemini_accumulator() {
    work_ratio::check("gemini", 5_000);
}

/// `TurnAccumulator` fed by each dialect's reader over that dialect's
/// adversarial input.
#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_turn_accumulator() {
    for dialect in ["chat", "anthropic", "gemini", "responses"] {
        work_ratio::check(&format!("turn-acc-{dialect}"), 2_000);
    }
}

/// The turn model's bridges, all 12 directions, each over its source's
/// adversarial input.
#[test]
#[ignore = "valgrind: run in release by .ci/run"]
fn work_ratio_turn_bridges() {
    for from in ["chat", "anthropic", "gemini", "responses"] {
        for to in ["chat", "anthropic", "gemini", "responses"] {
            work_ratio::check(&format!("turn-{from}-{to}"), 2_000);
        }
    }
}
