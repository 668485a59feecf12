//! Partial JSON repair, against `serde_json` and the crate's own validator.
//!
//! For arbitrary JSON values, serialized compactly, prettily and with every
//! non-ASCII character escaped (so surrogate pairs are cut too):
//!
//! * every prefix repairs to valid JSON that *approximates* the final value
//!   (see [`approximates`]), made of a slice of the input and a closing tail;
//! * the repairs only grow: the repair of a prefix approximates the repair
//!   of every longer prefix;
//! * the whole text repairs to its own value;
//! * pushing the text in arbitrary pieces gives, after every piece, exactly
//!   the from-scratch repair of the text so far.
//!
//! For arbitrary strings over JSON's alphabet and for valid texts with one
//! character changed, the repairer rejects exactly what the JSON layer's
//! validator rejects as malformed (same kind, same offset), and accepts the
//! rest.

use proptest::prelude::*;
use serde_json::{Map, Number, Value};
use ssekit::json;
use ssekit::json::partial::{repair_partial_json, PartialJson};

/// Whether `partial` is a possible earlier state of `full` as the repairs
/// show it: scalars equal; a string a prefix of the full string; an array a
/// prefix of the full elements, all equal but the last, which approximates
/// its counterpart; an object a subset of the full members, all equal but
/// at most one, which approximates its counterpart.
fn approximates(partial: &Value, full: &Value) -> bool {
    match (partial, full) {
        (Value::String(p), Value::String(f)) => f.starts_with(p.as_str()),
        (Value::Array(p), Value::Array(f)) => match p.split_last() {
            None => true,
            Some((last, init)) => {
                p.len() <= f.len() && init == &f[..init.len()] && approximates(last, &f[init.len()])
            }
        },
        (Value::Object(p), Value::Object(f)) => {
            let mut inexact = 0;
            p.iter().all(|(k, v)| match f.get(k) {
                Some(w) if v == w => true,
                Some(w) if approximates(v, w) => {
                    inexact += 1;
                    inexact == 1
                }
                _ => false,
            })
        }
        _ => partial == full,
    }
}

fn approximates_opt(partial: Option<&Value>, full: &Value) -> bool {
    partial.is_none_or(|p| approximates(p, full))
}

fn arb_string() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        6 => prop::char::range('a', 'z'),
        1 => Just(' '),
        1 => Just('"'),
        1 => Just('\\'),
        1 => Just('/'),
        1 => Just('\n'),
        1 => prop::char::range('\0', '\x1f'),
        1 => Just('é'),
        1 => Just('€'),
        1 => Just('😀'),
        1 => any::<char>(),
    ];
    prop::collection::vec(ch, 0..10).prop_map(|v| v.into_iter().collect())
}

fn arb_number() -> impl Strategy<Value = Number> {
    prop_oneof![
        (0u64..20).prop_map(Number::from),
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        (-1e3f64..1e3).prop_map(|f| Number::from_f64(f).unwrap()),
        any::<f64>().prop_map(|f| Number::from_f64(f).unwrap_or(Number::from(0))),
    ]
}

fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        arb_number().prop_map(Value::Number),
        arb_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((arb_string(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// `compact` with every non-ASCII character escaped as `\uXXXX` (a
/// surrogate pair above U+FFFF), hex in upper or lower case. Non-ASCII
/// characters only occur in strings, so this keeps the value.
fn ascii_escaped(compact: &str, upper: bool) -> String {
    let mut out = String::with_capacity(compact.len());
    for c in compact.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        let mut units = [0u16; 2];
        for unit in c.encode_utf16(&mut units) {
            if upper {
                out.push_str(&format!("\\u{unit:04X}"));
            } else {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

/// The texts tested for a value.
fn serializations(v: &Value) -> Vec<String> {
    let compact = serde_json::to_string(v).unwrap();
    vec![
        ascii_escaped(&compact, false),
        ascii_escaped(&compact, true),
        format!(" \n{}\t ", serde_json::to_string_pretty(v).unwrap()),
        compact,
    ]
}

/// Char boundaries of `s`, from 0 to `s.len()` inclusive.
fn boundaries(s: &str) -> Vec<usize> {
    s.char_indices().map(|(i, _)| i).chain([s.len()]).collect()
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\n' | '\r' | '\t')
}

/// Checks that `repaired` is `text[v..c]` for the value's start `v` and
/// some `c <= text.len()`, then an optional `"` and only `]` and `}`.
fn check_shape(text: &str, repaired: &str) {
    let body = text.trim_start_matches(is_ws);
    let common = body
        .bytes()
        .zip(repaired.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let tail = &repaired[common..];
    let closers = tail.strip_prefix('"').unwrap_or(tail);
    assert!(
        closers.chars().all(|c| c == ']' || c == '}'),
        "{text:?} → {repaired:?}: tail {tail:?}"
    );
}

fn check_value(v: &Value, cuts: &[usize], pairs: &[(usize, usize)]) {
    for text in serializations(v) {
        let full: Value = serde_json::from_str(&text).unwrap();
        // A top-level number is only known to be complete at a space after
        // it (or at `finish`).
        let top_number = full.is_number() && !text.ends_with(is_ws);
        let mut repairer = PartialJson::new();
        let bounds = boundaries(&text);
        let mut repairs: Vec<Option<Value>> = Vec::with_capacity(bounds.len());
        for &p in &bounds {
            let prefix = &text[..p];
            let repaired = repairer
                .repair(prefix)
                .unwrap_or_else(|e| panic!("{prefix:?}: {e}"));
            let parsed = repaired.map(|r| {
                check_shape(&text, r);
                serde_json::from_str::<Value>(r)
                    .unwrap_or_else(|e| panic!("{prefix:?} → {r:?}: {e}"))
            });
            assert!(
                approximates_opt(parsed.as_ref(), &full),
                "{prefix:?} → {parsed:?} does not approximate {full:?}"
            );
            // Nothing to show only until a value starts, or for a scalar
            // still being read.
            if parsed.is_none() && (full.is_array() || full.is_object() || full.is_string()) {
                assert!(prefix.chars().all(is_ws), "{prefix:?}");
            }
            repairs.push(parsed);
        }
        // The repairs only grow.
        for w in repairs.windows(2) {
            assert!(
                w[1].as_ref()
                    .is_none_or(|q| approximates_opt(w[0].as_ref(), q)),
                "{text:?}: {:?} then {:?}",
                w[0],
                w[1]
            );
        }
        for &(a, b) in pairs {
            let (p, q) = (a % repairs.len(), b % repairs.len());
            let (p, q) = (p.min(q), p.max(q));
            if let Some(later) = &repairs[q] {
                assert!(
                    approximates_opt(repairs[p].as_ref(), later),
                    "{text:?}: prefixes {p} and {q}"
                );
            }
        }
        // The whole text is its own value.
        let last = repairs.last().unwrap();
        if top_number {
            assert_eq!(last, &None, "{text:?}");
        } else {
            assert_eq!(last.as_ref(), Some(&full), "{text:?}");
        }
        assert_eq!(repairer.finish(), Ok(text.trim_matches(is_ws)), "{text:?}");
        // Pushed in pieces: after each, the from-scratch repair.
        let mut incremental = PartialJson::new();
        let mut scratch = PartialJson::new();
        let mut at = 0;
        let mut cut_points: Vec<usize> = cuts.iter().map(|c| bounds[c % bounds.len()]).collect();
        cut_points.sort_unstable();
        for cut in cut_points.into_iter().chain([text.len()]) {
            if cut < at {
                continue;
            }
            incremental.feed(&text[at..cut]).unwrap();
            at = cut;
            assert_eq!(
                incremental.current(),
                scratch.repair(&text[..cut]).unwrap(),
                "{text:?} pushed up to {cut}"
            );
        }
        assert_eq!(incremental.finish(), Ok(text.trim_matches(is_ws)));
        assert_eq!(
            repair_partial_json(&text).unwrap().is_some(),
            !top_number,
            "{text:?}"
        );
    }
}

/// Whether `text`, after leading whitespace, is one whole number by JSON's
/// grammar with nothing after it, not even whitespace: a top-level number
/// that the stream may still go on with (`-5e9` yes; `-5e9e`, which no
/// suffix can mend, no; `5e9 `, which whitespace has ended, no; `1.` and
/// `-`, not yet numbers, no).
fn is_number(text: &str) -> bool {
    let t = text.trim_start_matches(is_ws).as_bytes();
    let digits = |i: usize| i + t[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = usize::from(t.first() == Some(&b'-'));
    let int_end = digits(i);
    if int_end == i || (t[i] == b'0' && int_end > i + 1) {
        return false;
    }
    i = int_end;
    if t.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return false;
        }
        i = end;
    }
    if matches!(t.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(t.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return false;
        }
        i = end;
    }
    i == t.len()
}

/// The repairer and the validator agree on every prefix of `text`: the same
/// error for a malformed one, a repair otherwise, and `finish` is the
/// validator's verdict on the whole.
fn check_agrees_with_validator(text: &str) {
    let mut repairer = PartialJson::new();
    for p in boundaries(text) {
        let prefix = &text[..p];
        let repaired = repairer.repair(prefix).map(|r| r.map(String::from));
        match json::Value::parse(prefix) {
            // A top-level number is only known to be complete at `finish`
            // (more digits, or `e-400`, may follow): out of range, it is
            // nothing yet to the repair, and an error when finished.
            Err(e) if e.kind() == json::JsonErrorKind::NumberOutOfRange && is_number(prefix) => {
                assert_eq!(repaired, Ok(None), "{prefix:?}");
                assert_eq!(repairer.finish().map(String::from), Err(e), "{prefix:?}");
            }
            Err(e) if !e.is_eof() => assert_eq!(repaired, Err(e), "{prefix:?}"),
            verdict => {
                let repaired = repaired.unwrap_or_else(|e| panic!("{prefix:?}: {e}"));
                if let Some(r) = &repaired {
                    assert!(json::Value::parse(r).is_ok(), "{prefix:?} → {r:?}");
                }
                let finished = repairer.finish().map(String::from);
                match verdict {
                    Ok(_) => assert_eq!(finished.as_deref(), Ok(prefix.trim_matches(is_ws))),
                    Err(e) => assert_eq!(finished, Err(e), "{prefix:?}"),
                }
            }
        }
    }
}

/// Strings over the bytes that matter to JSON's grammar.
fn arb_jsonish() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("{"),
        Just("}"),
        Just("["),
        Just("]"),
        Just(","),
        Just(":"),
        Just("\""),
        Just("\\"),
        Just("\\u"),
        Just("\\ud83d"),
        Just("\\ude00"),
        Just(" "),
        Just("\n"),
        Just("0"),
        Just("1"),
        Just("9"),
        Just("-"),
        Just("+"),
        Just("."),
        Just("e"),
        Just("E"),
        Just("a"),
        Just("f"),
        Just("D"),
        Just("true"),
        Just("false"),
        Just("null"),
        Just("tr"),
        Just("n"),
        Just("t"),
        Just("é"),
        Just("\t"),
        Just("\u{1}"),
        Just("x"),
        Just(r#"{"k": "#),
        Just(r#""v""#),
    ];
    prop::collection::vec(token, 0..24).prop_map(|v| v.concat())
}

/// A valid text with one character inserted, deleted or replaced.
fn arb_mutated() -> impl Strategy<Value = String> {
    (
        arb_value(),
        any::<prop::sample::Index>(),
        0..3u8,
        prop::sample::select(vec![
            '{', '}', '[', ']', ',', ':', '"', '\\', ' ', '0', '-', '.', 'e', 'x', 'u',
        ]),
    )
        .prop_map(|(v, at, op, c)| {
            let mut s = serde_json::to_string(&v).unwrap();
            let bounds = boundaries(&s);
            let i = bounds[at.index(bounds.len())];
            match op {
                0 => s.insert(i, c),
                1 if i < s.len() => {
                    s.remove(i);
                }
                _ if i < s.len() => {
                    s.remove(i);
                    s.insert(i, c);
                }
                _ => s.push(c),
            }
            s
        })
}

fn proptest_config(cases: u32) -> ProptestConfig {
    // Failures are kept as deterministic tests, not in regression files.
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(proptest_config(256))]

    #[test]
    fn prefixes_approximate_the_value(
        v in arb_value(),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
        pairs in prop::collection::vec(any::<(usize, usize)>(), 16),
    ) {
        check_value(&v, &cuts, &pairs);
    }

    #[test]
    fn agrees_with_the_validator_on_jsonish_text(text in arb_jsonish()) {
        check_agrees_with_validator(&text);
    }

    #[test]
    fn agrees_with_the_validator_on_mutated_json(text in arb_mutated()) {
        check_agrees_with_validator(&text);
    }
}

#[test]
fn approximates_is_what_it_says() {
    use serde_json::json;
    assert!(approximates(
        &json!({"a": "Sa"}),
        &json!({"a": "San", "b": 1})
    ));
    assert!(approximates(&json!([1, [2]]), &json!([1, [2, 3], 4])));
    assert!(approximates(&json!({}), &json!({"a": 1})));
    assert!(!approximates(&json!([1, 2]), &json!([1, 3])));
    assert!(!approximates(&json!([[1], 2]), &json!([[1, 2], 2])));
    assert!(!approximates(&json!({"a": "x"}), &json!({"b": "x"})));
    assert!(!approximates(
        &json!({"a": [], "b": []}),
        &json!({"a": [1], "b": [1]})
    ));
    assert!(!approximates(&json!(1), &json!(12)));
    assert!(!approximates(&json!("ab"), &json!("b")));
}

/// Found by `agrees_with_the_validator_on_mutated_json` (CI, session 10): a
/// number out of range followed by a byte that ends it is an error now, as
/// serde_json says, not a number that may still grow.
#[test]
fn out_of_range_number_with_a_stray_byte_is_an_error() {
    check_agrees_with_validator("-5.1e720368076456804e+241");
    check_agrees_with_validator("1e999.");
    check_agrees_with_validator(" 1e999 ");
    assert!(is_number(" -0.5e+7") && is_number("10"));
    assert!(!is_number("10 "));
    assert!(!is_number("-5e9e") && !is_number("01") && !is_number("1.") && !is_number("-"));
}
