//! Fuzz target `json`: the JSON layer's validator, views and strings against
//! `serde_json`, on arbitrary text.
//!
//! * `Value::parse` accepts exactly what `serde_json` accepts when it reads
//!   the text as its `Value` (numbers out of `f64` range and unpaired
//!   surrogate escapes are rejected by both), for texts nested at most
//!   `MAX_DEPTH` deep; deeper texts are an error (`TooDeep`), never a stack
//!   overflow.
//! * Where `serde_json` also decodes the text into its `Value`, the walk of
//!   the views gives the same value: strings through `unescape`,
//!   `unescape_into`, `chars`, `==` and `as_str`; numbers through `as_u64`,
//!   `as_i64` and `as_f64`; objects through `members` and `ObjectScanner`
//!   (the last duplicate wins, as in `serde_json`), and `get` and `find_key`
//!   find the last member of each key.
//! * `JsonStr::parse` agrees with `serde_json::from_str::<String>`.
//! * An error's offset is within the text, and a text cut short fails with
//!   `Eof` or succeeds, never with another kind (the error kinds say so).
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value as J;
use ssekit::json::{find_key, JsonErrorKind, JsonStr, ObjectScanner, ObjectView, Value, MAX_DEPTH};

/// Nesting depth of a text that `serde_json` skips: brackets outside strings.
fn depth(s: &str) -> usize {
    let (mut d, mut max, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for &b in s.as_bytes() {
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                d += 1;
                max = max.max(d);
            }
            b']' | b'}' => d = d.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Checks one string view against the string serde_json decoded.
fn check_str(s: JsonStr<'_>, want: &str) {
    assert_eq!(s.unescape(), want, "unescape of {:?}", s.raw());
    let mut out = String::from("x");
    s.unescape_into(&mut out);
    assert_eq!(&out[1..], want);
    assert_eq!(s.chars().collect::<String>(), want);
    assert!(s == want, "== of {:?}", s.raw());
    assert_eq!(s.to_string(), want);
    match s.as_str() {
        Some(plain) => {
            assert!(!s.has_escapes());
            assert_eq!(plain, want);
        }
        None => assert!(s.has_escapes()),
    }
    assert_eq!(s.is_empty(), want.is_empty());
}

/// Compares a view with serde_json's value for the same text.
fn check(v: Value<'_>, j: &J) {
    match (v, j) {
        (Value::Null, J::Null) => {}
        (Value::Bool(a), J::Bool(b)) => assert_eq!(a, *b),
        (Value::Number(n), J::Number(m)) => {
            assert_eq!(n.as_u64(), m.as_u64(), "as_u64 of {}", n.as_str());
            // serde_json reads `-0` (no fraction or exponent) as the float
            // -0.0; the JSON layer as the integer 0. A known difference.
            if n.as_str() == "-0" {
                assert_eq!((n.as_i64(), m.as_f64()), (Some(0), Some(-0.0)));
            } else {
                assert_eq!(n.as_i64(), m.as_i64(), "as_i64 of {}", n.as_str());
            }
            assert_eq!(n.as_f64(), m.as_f64(), "as_f64 of {}", n.as_str());
            assert_eq!(v.as_u64(), m.as_u64());
        }
        (Value::String(s), J::String(t)) => check_str(s, t),
        (Value::Array(a), J::Array(b)) => {
            assert_eq!(a.iter().count(), b.len());
            assert_eq!(a.is_empty(), b.is_empty());
            for (x, y) in a.iter().zip(b) {
                check(x, y);
            }
        }
        (Value::Object(o), J::Object(m)) => {
            // The last duplicate wins, in serde_json and in `get`.
            let mut last = std::collections::BTreeMap::new();
            for (k, v) in o.members() {
                last.insert(k.unescape().into_owned(), v);
            }
            assert_eq!(last.len(), m.len());
            for (k, jv) in m {
                check(*last.get(k.as_str()).expect("key present"), jv);
                let got = o.get(k).expect("get finds the key");
                assert_eq!(
                    got.as_raw_json().get(),
                    last[k.as_str()].as_raw_json().get()
                );
            }
            assert_eq!(o.is_empty(), m.is_empty());
            // The validating scanner walks the same members.
            let scanned: Vec<_> = ObjectScanner::new(o.as_raw_json().get())
                .map(|m| m.expect("a valid object scans"))
                .map(|(k, v)| (k.raw(), v.as_raw_json().get()))
                .collect();
            let walked: Vec<_> = o
                .members()
                .map(|(k, v)| (k.raw(), v.as_raw_json().get()))
                .collect();
            assert_eq!(scanned, walked);
            for (k, _) in m.iter().take(4) {
                let found = find_key(o.as_raw_json().get(), k).expect("valid object");
                assert_eq!(
                    found.map(|v| v.as_raw_json().get()),
                    Some(last[k.as_str()].as_raw_json().get())
                );
            }
        }
        (v, j) => panic!("view {:?} vs serde_json {j}", v.as_raw_json().get()),
    }
}

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let s: &str = &s;

    let ours = Value::parse(s);
    let skipped = serde_json::from_str::<J>(s);
    match &ours {
        Ok(_) => assert!(depth(s) <= MAX_DEPTH, "accepted nesting {}", depth(s)),
        Err(e) => {
            assert!(e.offset() <= s.len(), "{e:?} beyond {}", s.len());
            let _ = e.to_string();
        }
    }
    if depth(s) <= MAX_DEPTH {
        assert_eq!(
            ours.is_ok(),
            skipped.is_ok(),
            "ssekit {ours:?} vs serde_json {skipped:?} on {s:?}"
        );
    } else if skipped.is_ok() {
        // Valid but too deep: refused with `TooDeep`, without recursing.
        assert_eq!(ours.as_ref().unwrap_err().kind(), JsonErrorKind::TooDeep);
    }

    // Every prefix of a valid text is valid or merely incomplete (Eof);
    // checked at a few cut points to keep the target fast.
    if ours.is_ok() {
        let n = s.len();
        for cut in [n / 3, n / 2, n.saturating_sub(1)] {
            if cut < n
                && s.is_char_boundary(cut)
                && !s[cut..].trim_matches([' ', '\t', '\n', '\r']).is_empty()
            {
                if let Err(e) = Value::parse(&s[..cut]) {
                    // A top-level number is complete at the end of its text:
                    // `999…9` may be out of range where `999…9e-400` is not.
                    let bare_number = e.kind() == JsonErrorKind::NumberOutOfRange
                        && s[..cut]
                            .trim()
                            .bytes()
                            .all(|c| b"0123456789+-.eE".contains(&c));
                    assert!(
                        e.is_eof() || bare_number || s[..cut].trim().is_empty(),
                        "prefix {:?} of a valid text: {e:?}",
                        &s[..cut]
                    );
                }
            }
        }
    }

    if let (Ok(v), Ok(j)) = (ours, serde_json::from_str::<J>(s)) {
        check(v, &j);
        if j.is_object() {
            assert!(ObjectView::parse(s).is_ok());
        }
    }

    // A text that is one string literal.
    match (JsonStr::parse(s), serde_json::from_str::<String>(s)) {
        (Ok(ours), Ok(theirs)) => check_str(ours, &theirs),
        (Ok(ours), Err(e)) => panic!("{s:?}: ssekit reads a string {ours:?}, serde_json {e}"),
        (Err(e), Ok(_)) => panic!("{s:?}: serde_json reads a string, ssekit {e:?}"),
        (Err(_), Err(_)) => {}
    }
});
