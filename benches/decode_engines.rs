//! simd-json as a decoding engine? A standalone driver comparing ssekit's own
//! JSON decoding with simd-json's in-situ parse, per event, on the frames of
//! the synthetic Responses stream (framed before anything is measured).
//!
//! Run: `cargo bench --bench decode_engines -- [engine|all] [small|large|every] [passes]`
//!
//! * `all` (the default) times every engine, interleaved, best of 5 runs,
//!   and prints ns/event and MiB/s of JSON per engine and size class.
//! * one engine name runs just that engine `passes` times (default 20):
//!   for `valgrind --tool=callgrind --toggle-collect=<driver's run fn>`,
//!   or whole-program counts minus the `none` engine's (same setup, no
//!   decoding). See `BENCHMARKS.md`.
//!
//! Size classes: `small` = events under 1 KiB of data (the
//! `output_text.delta` events, ~200 B), `large` = the rest (`*.done`,
//! `response.created`/`completed`: 0.5–164 KiB), `every` = all.
//!
//! Engines (each touches the type, and the `sequence_number` and delta of
//! delta events):
//! * `none`: reads the data's length only (the baseline to subtract);
//! * `ssekit-validate`: `RawJson::parse` (the crate's JSON validation only);
//! * `ssekit`: `ResponsesEvent::from_frame`, the whole typed decode;
//! * `simd-tape`: data copied to a reused padded scratch `Vec`,
//!   `simd_json::fill_tape_padded` into a reused `Tape` (reused `Buffers`),
//!   fields read from the tape: the cheapest simd-json path;
//! * `simd-tape-full`: `simd-tape`, then every field of the delta view
//!   filled from the tape (the work a simd-json engine behind
//!   `ResponsesEvent` would do for that event; other events: type only);
//! * `simd-borrowed`: data copied to a reused scratch `Vec`,
//!   `to_borrowed_value_with_buffers` (a DOM: allocates per object/array).

mod support;

use std::hint::black_box;
use std::time::Instant;

use bytes::Bytes;
use simd_json::prelude::*;
use ssekit::json::RawJson;
use ssekit::responses::ResponsesEvent;
use ssekit::{Frame, Parser};

const DELTA: &str = "response.output_text.delta";
const ENGINES: [&str; 6] = [
    "none",
    "ssekit-validate",
    "ssekit",
    "simd-tape",
    "simd-tape-full",
    "simd-borrowed",
];

struct Scratch {
    buf: Vec<u8>,
    buffers: simd_json::Buffers,
    spare: simd_json::Tape<'static>,
}

#[inline(never)]
fn run(engine: &str, frames: &[Frame], s: &mut Scratch) -> u64 {
    let mut sum = 0u64;
    match engine {
        "none" => {
            for f in frames {
                sum = sum.wrapping_add(black_box(f.data()).len() as u64);
            }
        }
        "ssekit-validate" => {
            for f in frames {
                let raw = RawJson::parse(f.data()).expect("valid");
                sum = sum.wrapping_add(raw.get().len() as u64);
            }
        }
        "ssekit" => {
            for f in frames {
                let event = ResponsesEvent::from_frame(f).expect("decode");
                sum = sum.wrapping_add(event.ty().len() as u64);
                if let ResponsesEvent::OutputTextDelta(d) = &event {
                    sum = sum
                        .wrapping_add(d.sequence_number.expect("seq"))
                        .wrapping_add(d.delta.len_hint() as u64)
                        .wrapping_add(u64::from(d.delta.has_escapes()));
                }
            }
        }
        "simd-tape" => {
            for f in frames {
                let data = f.data();
                s.buf.clear();
                s.buf.extend_from_slice(data.as_bytes());
                s.buf.resize(data.len() + simd_json::INPUT_PADDING, 0);
                let mut tape = std::mem::replace(&mut s.spare, simd_json::Tape(Vec::new())).reset();
                simd_json::fill_tape_padded(&mut s.buf, data.len(), &mut s.buffers, &mut tape)
                    .expect("valid");
                {
                    let v = tape.as_value();
                    let ty = v.get_str("type").expect("type");
                    sum = sum.wrapping_add(ty.len() as u64);
                    if ty == DELTA {
                        sum = sum
                            .wrapping_add(v.get_u64("sequence_number").expect("seq"))
                            .wrapping_add(v.get_str("delta").expect("delta").len() as u64);
                    }
                }
                s.spare = tape.reset();
            }
        }
        "simd-tape-full" => {
            for f in frames {
                let data = f.data();
                s.buf.clear();
                s.buf.extend_from_slice(data.as_bytes());
                s.buf.resize(data.len() + simd_json::INPUT_PADDING, 0);
                let mut tape = std::mem::replace(&mut s.spare, simd_json::Tape(Vec::new())).reset();
                simd_json::fill_tape_padded(&mut s.buf, data.len(), &mut s.buffers, &mut tape)
                    .expect("valid");
                sum = sum.wrapping_add(delta_view(tape.as_value()));
                s.spare = tape.reset();
            }
        }
        "simd-borrowed" => {
            for f in frames {
                let data = f.data();
                s.buf.clear();
                s.buf.extend_from_slice(data.as_bytes());
                let v = simd_json::to_borrowed_value_with_buffers(&mut s.buf, &mut s.buffers)
                    .expect("valid");
                let ty = v.get_str("type").expect("type");
                sum = sum.wrapping_add(ty.len() as u64);
                if ty == DELTA {
                    sum = sum
                        .wrapping_add(v.get_u64("sequence_number").expect("seq"))
                        .wrapping_add(v.get_str("delta").expect("delta").len() as u64);
                }
            }
        }
        other => panic!("unknown engine {other}; one of {ENGINES:?} or all"),
    }
    sum
}

/// What a simd-json engine behind `OutputTextDelta` would do after the
/// tape: walk the members once and fill every field of the view (type
/// checked, numbers typed, strings borrowed, `logprobs` counted), as
/// ssekit's decoder does in its single pass. Other events: the type only
/// (so on them this is a lower bound).
#[inline(always)]
fn delta_view(v: simd_json::tape::Value<'_, '_>) -> u64 {
    let obj = v.as_object().expect("object");
    let ty = obj.get("type").expect("type");
    let ty = ty.as_str().expect("type");
    if ty != DELTA {
        return ty.len() as u64;
    }
    let mut sum = ty.len() as u64;
    for (k, val) in &obj {
        // Strings are borrowed from the (unescaped in place) scratch buffer.
        let n = match k {
            "type" => 0,
            "item_id" | "delta" | "obfuscation" => black_box(val.as_str().expect(k)).len() as u64,
            "output_index" | "content_index" | "sequence_number" => val.as_u64().expect(k),
            "logprobs" => val.as_array().expect("logprobs").len() as u64,
            _ => 0,
        };
        sum = sum.wrapping_add(n);
    }
    sum
}

fn main() {
    // `cargo bench` passes `--bench`; ignore flags.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let engine = args.first().map_or("all", String::as_str);
    let class = args.get(1).map_or("every", String::as_str);
    let passes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);

    let (bytes, expected) = support::responses_stream(support::RESPONSES_BYTES, support::SEED);
    let input = Bytes::from(bytes);
    let mut parser = Parser::new();
    let mut all = Vec::with_capacity(expected);
    for chunk in support::Chunking::Bytes(4096).split(&input) {
        parser.feed(chunk);
        while let Some(frame) = parser.next_frame().expect("frame") {
            all.push(frame);
        }
    }
    parser.finish().expect("finish");
    assert_eq!(all.len(), expected);
    let classes: Vec<(&str, Vec<Frame>)> = ["small", "large", "every"]
        .into_iter()
        .map(|c| {
            let pick = |f: &Frame| match c {
                "small" => f.data().len() < 1024,
                "large" => f.data().len() >= 1024,
                _ => true,
            };
            (c, all.iter().filter(|f| pick(f)).cloned().collect())
        })
        .collect();
    let mut scratch = Scratch {
        buf: Vec::with_capacity(256 << 10),
        buffers: simd_json::Buffers::new(256 << 10),
        spare: simd_json::Tape(Vec::with_capacity(64 << 10)),
    };

    if engine != "all" {
        let frames = &classes
            .iter()
            .find(|(c, _)| *c == class)
            .expect("class: small, large or every")
            .1;
        let mut sum = 0u64;
        for _ in 0..passes {
            sum = sum.wrapping_add(run(engine, frames, &mut scratch));
        }
        let bytes: usize = frames.iter().map(|f| f.data().len()).sum();
        println!(
            "{engine} {class}: {passes} passes × {} events ({bytes} bytes of JSON), checksum {sum:x}",
            frames.len()
        );
        return;
    }

    println!("| class | events | avg bytes | engine | ns/event | MiB/s of JSON |");
    println!("| --- | ---: | ---: | --- | ---: | ---: |");
    for (class, frames) in &classes {
        let bytes: usize = frames.iter().map(|f| f.data().len()).sum();
        let mut best = [f64::INFINITY; ENGINES.len()];
        for _ in 0..5 {
            for (i, e) in ENGINES.iter().enumerate() {
                let t = Instant::now();
                black_box(run(e, frames, &mut scratch));
                best[i] = best[i].min(t.elapsed().as_secs_f64());
            }
        }
        for (i, e) in ENGINES.iter().enumerate() {
            println!(
                "| {class} | {} | {} | {e} | {:.1} | {:.0} |",
                frames.len(),
                bytes / frames.len().max(1),
                best[i] * 1e9 / frames.len() as f64,
                bytes as f64 / (1 << 20) as f64 / best[i]
            );
        }
    }
}
