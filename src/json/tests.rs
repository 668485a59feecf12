//! Properties of the JSON layer, with `serde_json` as the oracle.
//!
//! * Unescaping equals the string `serde_json` encoded (or decoded), for
//!   arbitrary strings and for every way of escaping them.
//! * Escaped UTF-16 is accepted exactly when it is well formed.
//! * Every value `serde_json` writes is accepted and walks back to the same
//!   value; every proper prefix of it fails with `Eof`, never another kind.
//! * On token soup and on mutated JSON, this scanner accepts exactly what
//!   `serde_json` accepts, and when both
//!   accept, they read the same value.
//! * Nothing panics on any input.

use std::borrow::ToOwned;
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, vec};

use proptest::prelude::*;

use super::*;

/// Strings that stress escaping: any char, weighted towards the ones JSON
/// must or may escape.
fn arb_string() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![
        '"',
        '\\',
        '/',
        '\n',
        '\r',
        '\t',
        '\u{8}',
        '\u{c}',
        '\0',
        '\u{1f}',
        '\u{7f}',
        'é',
        '€',
        '😀',
        '\u{ffff}',
        '\u{10000}',
        '\u{10ffff}',
        'u',
        'a',
    ]);
    prop::collection::vec(prop_oneof![any::<char>(), special], 0..32)
        .prop_map(|cs| cs.into_iter().collect())
}

/// Encodes `s` as a JSON string literal, choosing per character (from
/// `choice`) between raw text, a short escape and `\u` escapes in either case.
fn escape_variously(s: &str, choice: &[u8]) -> String {
    let mut out = String::from("\"");
    for (n, c) in s.chars().enumerate() {
        let pick = choice.get(n % choice.len().max(1)).copied().unwrap_or(0) % 4;
        let short = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '/' => Some("\\/"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            _ => None,
        };
        let must_escape = c < ' ' || c == '"' || c == '\\';
        match (pick, short) {
            (0, _) if !must_escape => out.push(c),
            (1, Some(e)) => out.push_str(e),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    if pick == 3 {
                        out.push_str(&format!("\\u{u:04X}"));
                    } else {
                        out.push_str(&format!("\\u{u:04x}"));
                    }
                }
            }
        }
    }
    out.push('"');
    out
}

fn arb_json() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value as J;
    let leaf = prop_oneof![
        Just(J::Null),
        any::<bool>().prop_map(J::Bool),
        any::<i64>().prop_map(J::from),
        any::<u64>().prop_map(J::from),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(J::from),
        arb_string().prop_map(J::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(J::Array),
            prop::collection::vec((arb_string(), inner), 0..6)
                .prop_map(|m| J::Object(m.into_iter().collect())),
        ]
    })
}

/// Token soup: pieces of JSON, valid and not, concatenated.
pub(crate) fn arb_soup() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"a\"",
        "\"",
        "\\",
        "\\u",
        "d800",
        "\\udc00",
        "0",
        "-",
        "1",
        "2",
        ".",
        "e",
        "E",
        "+",
        "true",
        "fals",
        "null",
        "nul",
        " ",
        "\n",
        "\u{1}",
        "x",
        "\"\\n\"",
        "\"\\ud83d\\ude00\"",
        "\"\\ud800\"",
        "1e400",
        "\"k\":",
        "é",
        "\u{feff}",
        "\"\\x\"",
        "0.5",
        "01",
        "[]",
        "{}",
    ]);
    prop::collection::vec(token, 0..16).prop_map(|ts| ts.concat())
}

/// Reads a walked value back into a `serde_json::Value`.
fn to_serde(v: Value<'_>) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(b),
        Value::Number(n) => serde_json::from_str(n.as_str()).expect("serde_json reads the number"),
        Value::String(s) => J::String(s.unescape().into_owned()),
        Value::Object(o) => J::Object(
            o.members()
                .map(|(k, v)| (k.unescape().into_owned(), to_serde(v)))
                .collect(),
        ),
        Value::Array(a) => J::Array(a.iter().map(to_serde).collect()),
    }
}

/// Walks everything reachable from `v` with an explicit stack and uses every
/// accessor; returns the number of values seen.
fn exercise(v: Value<'_>) -> usize {
    let mut stack = vec![v];
    let mut seen = 0;
    while let Some(v) = stack.pop() {
        seen += 1;
        let raw = v.as_raw_json();
        assert!(!raw.get().is_empty());
        match v {
            Value::Null | Value::Bool(_) => {}
            Value::Number(n) => {
                let _ = (n.as_u64(), n.as_i64(), n.as_f64(), n.is_integer());
            }
            Value::String(s) => {
                let u = s.unescape();
                assert!(u.len() <= s.len_hint());
                assert_eq!(s, &*u);
                assert_eq!(s.to_string(), *u);
                assert_eq!(s.chars().collect::<String>(), *u);
                assert_eq!(s.has_escapes(), s.raw().contains('\\'));
            }
            Value::Object(o) => {
                for (k, v) in o.members() {
                    let _ = k.unescape();
                    stack.push(v);
                }
            }
            Value::Array(a) => stack.extend(a.iter()),
        }
    }
    seen
}

/// Applies `edits` (insert, delete or replace one character, at a position
/// taken modulo the length) to `text`.
pub(crate) fn mutate(mut text: String, edits: Vec<(usize, u8, String)>) -> String {
    for (at, op, token) in edits {
        let mut i = at % (text.len() + 1);
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        let next = text[i..].chars().next().map_or(i, |c| i + c.len_utf8());
        match op {
            0 => text.insert_str(i, &token),
            1 => text.replace_range(i..next, ""),
            _ => text.replace_range(i..next, &token),
        }
    }
    text
}

/// The one-pass `ObjectScanner` yields exactly the members of
/// `ObjectView::parse` and then nothing, or the same first error.
fn scanner_agrees_with_validator(text: &str) -> Result<(), TestCaseError> {
    fn shape<'a>((k, v): (JsonStr<'a>, Value<'a>)) -> (&'a str, bool, &'a str, Option<bool>) {
        let escaped = v.as_json_str().map(|s| s.has_escapes());
        (k.raw(), k.has_escapes(), v.as_raw_json().get(), escaped)
    }
    let mut scanned: Vec<_> = ObjectScanner::new(text).collect();
    match ObjectView::parse(text) {
        Ok(o) => {
            let want: Vec<_> = o.members().map(shape).collect();
            let got: Result<Vec<_>, _> = scanned.into_iter().map(|m| m.map(shape)).collect();
            prop_assert_eq!(got, Ok(want), "{:?}", text);
        }
        Err(e) => {
            let last = scanned.pop();
            prop_assert_eq!(last.map(|m| m.err()), Some(Some(e)), "{:?}", text);
            prop_assert!(scanned.iter().all(Result::is_ok), "{:?}", text);
        }
    }
    Ok(())
}

/// Parses with both and checks that they agree.
fn agree_with_serde_json(text: &str) -> Result<(), TestCaseError> {
    let ours = Value::parse(text);
    let theirs = serde_json::from_str::<serde_json::Value>(text);
    match (ours, theirs) {
        (Ok(v), Ok(j)) => {
            prop_assert_eq!(to_serde(v), j, "{:?}", text);
            exercise(v);
        }
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => {
            prop_assert!(
                false,
                "accepted what serde_json rejects ({}): {:?}",
                e,
                text
            )
        }
        (Err(e), Ok(_)) => {
            prop_assert!(
                false,
                "rejected what serde_json accepts ({}): {:?}",
                e,
                text
            )
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn unescape_matches_what_serde_json_encoded(s in arb_string()) {
        let text = serde_json::to_string(&s).unwrap();
        let js = JsonStr::parse(&text).unwrap();
        prop_assert_eq!(js.unescape(), s.as_str());
        prop_assert_eq!(js, s.as_str());
        prop_assert_eq!(js.to_string(), s.as_str());
        prop_assert_eq!(js.chars().collect::<String>(), s.as_str());
        let mut out = String::new();
        js.unescape_into(&mut out);
        prop_assert_eq!(out, s.as_str());
        prop_assert_eq!(js.as_raw_json().get(), text.as_str());
    }

    #[test]
    fn unescape_matches_serde_json_for_any_escaping(
        s in arb_string(),
        choice in prop::collection::vec(any::<u8>(), 1..16),
    ) {
        let text = escape_variously(&s, &choice);
        let theirs: String = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&theirs, &s);
        let js = JsonStr::parse(&text).unwrap();
        prop_assert_eq!(js.unescape(), s.as_str());
        prop_assert_eq!(js, s.as_str());
        prop_assert_eq!(js.chars().collect::<String>(), s.as_str());
        // Another escaping of the same text compares equal.
        let plain = serde_json::to_string(&s).unwrap();
        prop_assert_eq!(js, JsonStr::parse(&plain).unwrap());
    }

    #[test]
    fn escaped_utf16_is_accepted_exactly_when_it_is_well_formed(
        units in prop::collection::vec(
            prop_oneof![0xD7F0u16..0xE010, any::<u16>(), Just(0x41u16)],
            0..12,
        ),
    ) {
        let mut text = String::from("\"");
        for u in &units {
            text.push_str(&format!("\\u{u:04x}"));
        }
        text.push('"');
        // The oracles: std's strict UTF-16 decoder, and serde_json.
        match String::from_utf16(&units) {
            Ok(want) => {
                let js = JsonStr::parse(&text).unwrap();
                prop_assert_eq!(js.unescape(), want.as_str());
                prop_assert_eq!(js.chars().collect::<String>(), want.as_str());
                prop_assert_eq!(js, want.as_str());
                prop_assert!(serde_json::from_str::<String>(&text).is_ok());
            }
            Err(_) => {
                let e = JsonStr::parse(&text).unwrap_err();
                prop_assert_eq!(e.kind(), JsonErrorKind::LoneSurrogate);
                prop_assert!(serde_json::from_str::<String>(&text).is_err());
            }
        }
    }

    #[test]
    fn serde_json_output_walks_back_to_the_same_value(v in arb_json()) {
        for text in [serde_json::to_string(&v).unwrap(), serde_json::to_string_pretty(&v).unwrap()] {
            let ours = Value::parse(&text).unwrap();
            // Not `v` itself: serde_json's float parsing is not exact
            // (without its `float_roundtrip` feature), and `to_serde` uses it.
            let theirs: serde_json::Value = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(to_serde(ours), theirs);
            prop_assert_eq!(RawJson::parse(&text).unwrap().get(), text.trim());
            exercise(ours);
        }
    }

    #[test]
    fn as_f64_reads_back_every_f64(x in any::<f64>().prop_filter("finite", |x| x.is_finite())) {
        let text = serde_json::to_string(&x).unwrap();
        let n = Value::parse(&text).unwrap().as_number().unwrap();
        prop_assert_eq!(n.as_f64(), Some(x));
    }

    #[test]
    fn integers_read_back(i in any::<i64>(), u in any::<u64>()) {
        let text = i.to_string();
        prop_assert_eq!(Value::parse(&text).unwrap().as_i64(), Some(i));
        let text = u.to_string();
        prop_assert_eq!(Value::parse(&text).unwrap().as_u64(), Some(u));
    }

    #[test]
    fn proper_prefixes_fail_only_with_eof(v in arb_json(), pretty in any::<bool>()) {
        let text = if pretty {
            serde_json::to_string_pretty(&v).unwrap()
        } else {
            serde_json::to_string(&v).unwrap()
        };
        for (k, _) in text.char_indices() {
            if let Err(e) = Value::parse(&text[..k]) {
                prop_assert!(e.is_eof(), "{} for prefix {:?}", e, &text[..k]);
                prop_assert_eq!(e.offset(), k);
            }
        }
    }

    #[test]
    fn accepts_what_serde_json_accepts_on_token_soup(text in arb_soup()) {
        agree_with_serde_json(&text)?;
    }

    #[test]
    fn accepts_what_serde_json_accepts_on_mutated_json(
        v in arb_json(),
        edits in prop::collection::vec((any::<usize>(), 0u8..3, arb_soup()), 1..4),
    ) {
        let text = mutate(serde_json::to_string(&v).unwrap(), edits);
        agree_with_serde_json(&text)?;
    }

    #[test]
    fn object_scanner_agrees_with_the_validator(
        members in prop::collection::vec((arb_string(), arb_json()), 0..5),
        edits in prop::collection::vec((any::<usize>(), 0u8..3, arb_soup()), 0..3),
        pretty in any::<bool>(),
    ) {
        let object = serde_json::Value::Object(members.into_iter().collect());
        let text = if pretty {
            serde_json::to_string_pretty(&object).unwrap()
        } else {
            serde_json::to_string(&object).unwrap()
        };
        scanner_agrees_with_validator(&text)?;
        // Every proper prefix: the same members as far as they go, then `Eof`.
        for (k, _) in text.char_indices() {
            scanner_agrees_with_validator(&text[..k])?;
        }
        scanner_agrees_with_validator(&mutate(text, edits))?;
    }

    #[test]
    fn object_scanner_agrees_with_the_validator_on_soup(text in arb_soup()) {
        scanner_agrees_with_validator(&format!("{{{text}"))?;
        scanner_agrees_with_validator(&text)?;
    }

    #[test]
    fn never_panics_on_any_text(s in any::<String>()) {
        if let Ok(v) = Value::parse(&s) {
            exercise(v);
        }
        let _ = find_key(&s, "type");
        let _ = JsonStr::parse(&s).map(|js| js.unescape().into_owned());
    }

    #[test]
    fn never_panics_on_any_bytes(b in prop::collection::vec(any::<u8>(), 0..64)) {
        let s = String::from_utf8_lossy(&b).into_owned();
        if let Ok(v) = Value::parse(&s) {
            exercise(v);
        }
    }
}

#[test]
fn what_serde_json_rejects_is_rejected_with_its_position() {
    use JsonErrorKind::{LoneSurrogate, NumberOutOfRange};
    for (text, kind, at) in [
        (r#""\ud800""#, LoneSurrogate, 1),
        (r#""\udc00x""#, LoneSurrogate, 1),
        (r#""a\ud83d\u0041""#, LoneSurrogate, 2),
        (r#""\ud83d\n""#, LoneSurrogate, 1),
        (r#"{"\ud800":1}"#, LoneSurrogate, 2),
        ("1e400", NumberOutOfRange, 0),
        ("[-1e400]", NumberOutOfRange, 1),
        ("[0, -3.41e666]", NumberOutOfRange, 4),
        ("9e436", NumberOutOfRange, 0),
        ("1.7976931348623159e308", NumberOutOfRange, 0),
        (&"9".repeat(310), NumberOutOfRange, 0),
    ] {
        let e = Value::parse(text).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (kind, at), "{text}");
        assert!(
            serde_json::from_str::<serde_json::Value>(text).is_err(),
            "{text}"
        );
    }
    // The edges that stay finite, and tiny numbers (which round to zero).
    for text in [
        "1.7976931348623157e308",
        "-1.7976931348623157e308",
        "1e308",
        "0.00001e312",
        "1e-400",
        "0e999999999999",
        &"9".repeat(308),
        r#""\ud83d\ude00""#,
    ] {
        assert!(Value::parse(text).is_ok(), "{text}");
        assert!(
            serde_json::from_str::<serde_json::Value>(text).is_ok(),
            "{text}"
        );
    }
    let deepest = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
    assert!(serde_json::from_str::<serde_json::Value>(&deepest).is_ok());
    assert!(Value::parse(&deepest).is_ok());
    let deeper = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
    assert!(serde_json::from_str::<serde_json::Value>(&deeper).is_err());
    assert_eq!(
        Value::parse(&deeper).unwrap_err().kind(),
        JsonErrorKind::TooDeep
    );
    // serde_json keeps the last duplicate, and so does `find_key`.
    let dup = r#"{"a":1,"a":2,"\u0061":3,"b":4}"#;
    let j: serde_json::Value = serde_json::from_str(dup).unwrap();
    assert_eq!(j["a"], 3);
    assert_eq!(find_key(dup, "a").unwrap().unwrap().as_u64(), Some(3));
}

#[test]
fn recorded_events_decode_like_serde_json() {
    // Shapes seen in recorded OpenAI Responses and Chat Completions streams.
    let events = [
        r#"{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_67c9","output_index":0,"content_index":0,"delta":"Hello\n\"world\" \u00e9\ud83d\ude00","logprobs":[]}"#,
        r#"{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1741290958,"status":"in_progress","error":null,"output":[],"temperature":1.0,"top_p":1.0,"metadata":{},"tools":[{"type":"function","name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"strict":true}],"usage":null}}"#,
        r#"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Par"}}]},"finish_reason":null}]}"#,
    ];
    for data in events {
        let j: serde_json::Value = serde_json::from_str(data).unwrap();
        let o = ObjectView::parse(data).unwrap();
        assert_eq!(to_serde(Value::Object(o)), j);
        let ty = find_key(data, "type")
            .unwrap()
            .map(|v| v.as_json_str().unwrap());
        assert_eq!(
            ty.map(|t| t.unescape().into_owned()),
            j.get("type")
                .and_then(|t| t.as_str())
                .map(ToOwned::to_owned)
        );
    }
}
