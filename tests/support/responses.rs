//! Helpers shared by the `responses_*` tests: the corpus and the research
//! inventory (both in `../shared` beside the crate), and a walker that
//! touches every field of a view without allocating.
#![allow(dead_code)]

use bytes::Bytes;
use ssekit::responses::{FieldValue, Fields};
use ssekit::{Frame, Parser};

use crate::corpus;
pub(crate) use corpus::corpus_dir;
use corpus::shared_dir;

/// The parsed research inventories of events and items
/// (`$SSEKIT_RESEARCH`, else `../shared/research`).
pub(crate) fn inventory() -> Option<(serde_json::Value, serde_json::Value)> {
    let dir = shared_dir("SSEKIT_RESEARCH", "research")?;
    let read = |name: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(dir.join(name)).expect("read inventory");
        serde_json::from_str(&text).expect("inventory is JSON")
    };
    Some((read("responses-events.json"), read("responses-items.json")))
}

/// Every Responses-dialect stream of the corpus (`*responses*.sse`), by
/// name, as frames.
pub(crate) fn responses_streams() -> Option<Vec<(String, Vec<Frame>)>> {
    let dir = corpus_dir()?;
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("read corpus dir") {
        let path = entry.expect("dir entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.contains("-responses-") && name.ends_with(".sse")) {
            continue;
        }
        let mut parser = Parser::new();
        parser.feed(Bytes::from(std::fs::read(&path).expect("read stream")));
        let mut frames = Vec::new();
        while let Some(frame) = parser.next_frame().expect("frames") {
            frames.push(frame);
        }
        parser.finish().expect("finish");
        out.push((name, frames));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "no Responses streams in {}", dir.display());
    Some(out)
}

/// Reads every field of `view`, nested views and array elements included,
/// into a checksum, without allocating. Returns the number of values read.
pub(crate) fn touch_all(view: &dyn Fields<'_>, sum: &mut u64) -> usize {
    let mut n = 0;
    view.for_each_field(&mut |name, value| {
        *sum = sum.wrapping_add(name.len() as u64);
        n += touch_value(value, sum);
    });
    n
}

fn touch_value(value: FieldValue<'_, '_>, sum: &mut u64) -> usize {
    match value {
        FieldValue::Str(s) => {
            *sum = s.chars().fold(*sum, |a, c| a.wrapping_add(c as u64));
            1
        }
        FieldValue::U64(x) => {
            *sum = sum.wrapping_add(x);
            1
        }
        FieldValue::I64(x) => {
            *sum = sum.wrapping_add(x as u64);
            1
        }
        FieldValue::F64(x) => {
            *sum = sum.wrapping_add(x.to_bits());
            1
        }
        FieldValue::Bool(b) => {
            *sum = sum.wrapping_add(u64::from(b));
            1
        }
        FieldValue::Raw(r) => {
            *sum = sum.wrapping_add(r.get().len() as u64);
            1
        }
        FieldValue::Object(o) => 1 + touch_all(o, sum),
        FieldValue::Array(a) => {
            let mut n = 1;
            a.for_each_element(&mut |e| match e {
                Ok(v) => n += touch_value(v, sum),
                Err(_) => *sum = sum.wrapping_add(1),
            });
            n
        }
        _ => 0,
    }
}
