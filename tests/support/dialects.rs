//! Helpers shared by the `chat_*` and `anthropic_*` tests: the corpus
//! (`../shared/corpus` beside the crate, or `$SSEKIT_CORPUS`), a walker that
//! touches every field of a view without allocating, and the differential
//! comparison of a view with `serde_json::Value`.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use bytes::Bytes;
use serde_json::Value as J;
use ssekit::responses::{FieldValue, Fields};
use ssekit::{Frame, Parser};

use crate::corpus as shared;

/// The corpus directory, or `None` (skip, with a notice a user sees) when it
/// is missing outside CI.
pub(crate) fn corpus_dir() -> Option<PathBuf> {
    shared::corpus_dir()
}

/// The frames of a whole stream.
pub(crate) fn frames(bytes: Bytes) -> Vec<Frame> {
    let mut parser = Parser::new();
    parser.feed(bytes);
    let mut frames = Vec::new();
    while let Some(frame) = parser.next_frame().expect("frames") {
        frames.push(frame);
    }
    parser.finish().expect("finish");
    frames
}

/// Every stream of the corpus whose file name contains `-{dialect}-`, by
/// name, as frames.
pub(crate) fn streams(dialect: &str) -> Option<Vec<(String, Vec<Frame>)>> {
    let dir = corpus_dir()?;
    let needle = format!("-{dialect}-");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("read corpus dir") {
        let path = entry.expect("dir entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.contains(&needle) && name.ends_with(".sse")) {
            continue;
        }
        let bytes = std::fs::read(&path).expect("read stream");
        out.push((name, frames(Bytes::from(bytes))));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "no {dialect} streams in {}", dir.display());
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

/// Compares every field of `view` with the JSON object `json`: each exposed
/// field equals the JSON value of its key (down through nested views and
/// arrays), and each field the view declares but did not report is absent
/// or `null` in the JSON. Returns the number of values compared.
pub(crate) fn diff_view(
    view: &dyn Fields<'_>,
    json: &J,
    path: &str,
    failures: &mut Vec<String>,
) -> usize {
    let Some(obj) = json.as_object() else {
        failures.push(format!("{path}: view of a non-object {json}"));
        return 0;
    };
    let mut seen = BTreeSet::new();
    let mut n = 0;
    view.for_each_field(&mut |name, value| {
        seen.insert(name);
        let at = format!("{path}.{name}");
        match obj.get(name) {
            Some(j) if !j.is_null() => n += diff_value(value, j, &at, failures),
            _ => failures.push(format!("{at}: exposed but absent or null in JSON")),
        }
    });
    for name in view.field_names() {
        if !seen.contains(name) && obj.get(*name).is_some_and(|j| !j.is_null()) {
            failures.push(format!("{path}.{name}: in JSON but not exposed"));
        }
    }
    n
}

fn diff_value(value: FieldValue<'_, '_>, j: &J, at: &str, failures: &mut Vec<String>) -> usize {
    let ok = match value {
        FieldValue::Str(s) => j.as_str() == Some(&*s.unescape()),
        FieldValue::U64(x) => j.as_u64() == Some(x),
        FieldValue::I64(x) => j.as_i64() == Some(x),
        FieldValue::F64(x) => j
            .as_f64()
            .is_some_and(|y| y == x || (y - x).abs() <= 1e-15 * x.abs()),
        FieldValue::Bool(b) => j.as_bool() == Some(b),
        FieldValue::Raw(r) => serde_json::from_str::<J>(r.get()).ok().as_ref() == Some(j),
        FieldValue::Object(o) => return 1 + diff_view(o, j, at, failures),
        FieldValue::Array(a) => {
            let Some(arr) = j.as_array() else {
                failures.push(format!("{at}: array view of {j}"));
                return 1;
            };
            let (mut i, mut n) = (0, 1);
            a.for_each_element(&mut |e| {
                let here = format!("{at}[{i}]");
                match (e, arr.get(i)) {
                    (Ok(v), Some(j)) => n += diff_value(v, j, &here, failures),
                    (Err(e), _) => failures.push(format!("{here}: {e}")),
                    (Ok(_), None) => failures.push(format!("{here}: extra element")),
                }
                i += 1;
            });
            if i != arr.len() {
                failures.push(format!("{at}: {i} elements, JSON has {}", arr.len()));
            }
            return n;
        }
        other => {
            failures.push(format!("{at}: unexpected {other:?}"));
            return 0;
        }
    };
    if !ok {
        failures.push(format!("{at}: view {value:?} != JSON {j}"));
    }
    1
}

/// Replaces the char at a byte position (rounded down to a boundary), or
/// cuts the text there.
pub(crate) fn mutate(s: &str, at: usize, with: &str, cut: bool) -> String {
    let mut at = at % (s.len() + 1);
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    if cut {
        return s[..at].to_owned();
    }
    let mut end = (at + 1).min(s.len());
    while !s.is_char_boundary(end) {
        end += 1;
    }
    format!("{}{}{}", &s[..at], with, &s[end..])
}

/// The data of every seventh frame of each corpus stream of `dialect`, read
/// once per test binary (empty when the corpus is missing): the seeds the
/// `*_props` tests cut and mutate.
pub(crate) fn sampled_data(dialect: &'static str) -> &'static [String] {
    use std::collections::BTreeMap;
    use std::sync::{Mutex, OnceLock};
    static SAMPLES: OnceLock<Mutex<BTreeMap<&'static str, &'static [String]>>> = OnceLock::new();
    let mut samples = SAMPLES.get_or_init(Default::default).lock().unwrap();
    samples.entry(dialect).or_insert_with(|| {
        let data: Vec<String> = streams(dialect)
            .unwrap_or_default()
            .iter()
            .flat_map(|(_, frames)| frames.iter().step_by(7))
            .map(|f| f.data().to_owned())
            .collect();
        Vec::leak(data)
    })
}
