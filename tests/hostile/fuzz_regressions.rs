//! Inputs the fuzz targets (`fuzz/`) stopped on, kept as regression tests.
//! None was a crash of the library: each was a difference from `serde_json`
//! that the harness had to learn, or a behaviour worth pinning down. The
//! answers below were checked by hand against `serde_json` and the docs.

use serde_json::Value as J;
use ssekit::chat::ChatEvent;
use ssekit::json::partial::PartialJson;
use ssekit::json::Value;
use ssekit::responses::{FieldValue, Fields};

/// `json` target: `-0` is the integer 0 for the JSON layer; `serde_json`
/// reads it as the float -0.0 (so its `as_i64` is `None`).
#[test]
fn negative_zero_reads_as_the_integer_zero() {
    let n = Value::parse("-0").unwrap().as_number().unwrap();
    assert_eq!(
        (n.as_i64(), n.as_u64(), n.as_f64()),
        (Some(0), None, Some(-0.0))
    );
    let j: J = serde_json::from_str("-0").unwrap();
    assert_eq!(
        (j.as_i64(), j.as_u64(), j.as_f64()),
        (None, None, Some(-0.0))
    );
}

/// `partial_json` target: a number too large for an `f64` is rejected, by
/// the repair as soon as the number ends and by the JSON layer, with the
/// same error at the number's first byte, as `serde_json` rejects it
/// (issue 11: our output must never be JSON that `serde_json` cannot read).
#[test]
fn a_number_too_large_for_f64_is_rejected_as_serde_json_does() {
    use ssekit::json::JsonErrorKind;
    let want = |e: ssekit::json::JsonError| (e.kind(), e.offset());
    let want_ok = (JsonErrorKind::NumberOutOfRange, 0);
    let mut p = PartialJson::new();
    p.feed("9e43").unwrap();
    assert_eq!(p.current(), None); // a number is shown only once it ends
    assert_eq!(p.feed("6\r").map_err(want), Err(want_ok));
    assert_eq!(p.finish().map_err(want), Err(want_ok));
    let mut p = PartialJson::new();
    p.feed("9e436").unwrap();
    assert_eq!(p.finish().map_err(want), Err(want_ok));
    assert_eq!(
        Value::parse("9e436").map(|_| ()).map_err(want),
        Err(want_ok)
    );
    let e = serde_json::from_str::<J>("9e436").unwrap_err();
    assert!(e.to_string().starts_with("number out of range"), "{e}");
}

/// `decode` target: a chat chunk whose choice lacks its `index` decodes
/// (choices are lazy); walking the choices yields that element as an error,
/// not as a wrong value.
#[test]
fn a_lazy_element_that_does_not_fit_is_an_error_when_walked() {
    let data = r#"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"delta":{"content":"x"}}]}"#;
    let ev = ChatEvent::parse(data).unwrap();
    let mut seen = Vec::new();
    ev.for_each_field(&mut |name, value| {
        if let FieldValue::Array(a) = value {
            a.for_each_element(&mut |e| {
                seen.push((name, e.map(|_| ()).map_err(|e| e.to_string())))
            });
        }
    });
    assert_eq!(seen.len(), 1);
    let (name, result) = &seen[0];
    assert_eq!(*name, "choices");
    assert!(result.as_ref().unwrap_err().contains("index"), "{result:?}");
}
