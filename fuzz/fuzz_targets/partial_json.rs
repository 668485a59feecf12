//! Fuzz target `partial_json`: `json::partial::PartialJson` on arbitrary text,
//! pushed in fuzzer-chosen pieces.
//!
//! * Nothing panics, whatever the text and however it is cut.
//! * After every piece, `current()` equals `repair()` of the whole prefix
//!   (the resumable scanner does not depend on the cuts), and is a text
//!   `serde_json` parses (unless the input holds an unpaired surrogate
//!   escape, which the JSON layer decodes as U+FFFD and `serde_json` rejects,
//!   or a number too large for an `f64`, which `serde_json` also rejects).
//! * A `push` error is the JSON validator's error for the same prefix (same
//!   kind and offset), and it is sticky.
//! * `finish()` succeeds exactly when the validator accepts the whole text,
//!   and then returns the text without its surrounding whitespace, which
//!   `serde_json` reads as the same value as the original text.
//!
//! Input layout: byte 0 `n % 8` cut points follow as one byte each (scaled
//! to the text's length); the rest, decoded as UTF-8 with replacement, is
//! the text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value as J;
use ssekit::json::partial::PartialJson;
use ssekit::json::{JsonErrorKind, Value};

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let n = usize::from(n % 8).min(rest.len());
    let (cut_bytes, text) = rest.split_at(n);
    let text = String::from_utf8_lossy(text);
    let text: &str = &text;
    let len = text.len();
    let mut cuts: Vec<usize> = cut_bytes
        .iter()
        .map(|&b| floor_boundary(text, usize::from(b) * (len + 1) / 256))
        .collect();
    cuts.push(len);
    cuts.sort_unstable();
    cuts.dedup();

    // Unpaired surrogate escapes repair fine but serde_json rejects them.
    let surrogates = text.contains("\\u") || text.contains("\\U");
    let mut p = PartialJson::new();
    let mut fresh = PartialJson::new();
    let mut start = 0;
    let mut failed = None;
    for &end in &cuts {
        let pushed = p.feed(&text[start..end]);
        start = end;
        let prefix = &text[..end];
        match pushed {
            Ok(()) => {
                assert!(failed.is_none(), "errors are sticky");
                let whole = fresh
                    .repair(prefix)
                    .expect("the same prefix repairs")
                    .map(str::to_owned);
                assert_eq!(p.current(), whole.as_deref(), "pieces vs whole at {end}");
                if let Some(cur) = p.current() {
                    if !surrogates {
                        if let Err(e) = serde_json::from_str::<J>(cur) {
                            // A number too large for an f64 is valid JSON
                            // that serde_json refuses (see the json module).
                            if e.to_string().starts_with("number out of range")
                                && Value::parse(cur).is_ok()
                            {
                                continue;
                            }
                            panic!("repair {cur:?} of {prefix:?} is not JSON: {e}");
                        }
                    }
                }
            }
            Err(e) => {
                if let Some(first) = failed {
                    assert_eq!(e, first, "sticky error");
                } else {
                    let v = Value::parse(prefix).expect_err("the validator rejects the prefix too");
                    assert_eq!(e, v, "push error vs validator on {prefix:?}");
                    failed = Some(e);
                }
            }
        }
    }
    let validated = Value::parse(text);
    match p.finish() {
        Ok(done) => {
            let done = done.to_owned();
            assert!(
                validated.is_ok(),
                "finish accepted {text:?}, validator: {validated:?}"
            );
            assert_eq!(done, text.trim_matches([' ', '\t', '\n', '\r']));
            if let Ok(j) = serde_json::from_str::<J>(text) {
                assert_eq!(serde_json::from_str::<J>(&done).ok(), Some(j));
            }
        }
        Err(e) => {
            if let Some(first) = failed {
                assert_eq!(e, first);
            } else {
                // A top-level number is only known to be complete at the
                // end, so one out of `f64` range fails there first.
                if e.kind() == JsonErrorKind::NumberOutOfRange {
                    assert_eq!(validated.err(), Some(e), "{text:?}");
                } else {
                    assert!(e.is_eof(), "finish of a text with no error so far: {e:?}");
                    assert!(
                        validated.is_err(),
                        "validator accepted {text:?}, finish: {e:?}"
                    );
                }
            }
        }
    }
    // Reuse after reset behaves like a fresh repairer.
    p.reset();
    let again = p.repair(text).map(|c| c.map(str::to_owned));
    let mut fresh = PartialJson::new();
    assert_eq!(again, fresh.repair(text).map(|c| c.map(str::to_owned)));
});
