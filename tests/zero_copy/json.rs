//! The JSON layer allocates nothing: validating, walking, comparing and
//! formatting events, and unescaping strings without escapes, make no heap
//! allocation. Unescaping a string with escapes into a `Cow` makes exactly one.
//!
//! A counting global allocator wraps the system one. It counts only while
//! this thread's flag is on, so the harness's own allocations (and the test's
//! setup) are not counted.

use std::borrow::Cow;
use std::fmt::Write as _;

use ssekit::json::{find_key, JsonStr, ObjectScanner, ObjectView, RawJson, Value};

use crate::counting;
use counting::allocations;

/// A `fmt::Write` into a fixed buffer on the stack.
struct StackWriter {
    buf: [u8; 256],
    len: usize,
}

impl std::fmt::Write for StackWriter {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        self.buf
            .get_mut(self.len..end)
            .ok_or(std::fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

const EVENTS: &[&str] = &[
    r#"{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_67c9","output_index":0,"content_index":0,"delta":"Hello\n\"world\" \u00e9\ud83d\ude00","logprobs":[]}"#,
    r#"{"type":"response.created","sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1741290958,"status":"in_progress","error":null,"output":[],"temperature":1.0,"top_p":1.0,"metadata":{},"tools":[{"type":"function","name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"strict":true}],"usage":null}}"#,
    r#"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":\"Par"}}]},"finish_reason":null}]}"#,
];

#[test]
fn the_json_layer_does_not_allocate() {
    // Setup outside the measurement.
    let escaped = JsonStr::parse(r#""Hello\n\"world\" \u00e9\ud83d\ude00""#).unwrap();
    let plain = JsonStr::parse(r#""response.output_text.delta""#).unwrap();
    let mut reused = String::with_capacity(64);

    let (sum, n) = allocations(|| {
        let mut sum = 0;
        for data in EVENTS {
            // Validate, dispatch, walk every member, read every scalar.
            let event = ObjectView::parse(data).unwrap();
            let ty = find_key(data, "type").unwrap();
            sum += ty.map_or(0, |t| t.as_json_str().unwrap().len_hint());
            // A stack of pending values on the stack: no `Vec`.
            let mut stack = [Value::Null; 128];
            let mut depth = 1;
            stack[0] = Value::Object(event);
            while depth > 0 {
                depth -= 1;
                match stack[depth] {
                    Value::String(s) => {
                        if let Cow::Borrowed(b) = plain.unescape() {
                            sum += b.len();
                        }
                        if !s.has_escapes() {
                            assert!(matches!(s.unescape(), Cow::Borrowed(_)));
                        }
                        sum += s.chars().count();
                    }
                    Value::Number(x) => sum += x.as_f64().unwrap() as usize,
                    Value::Object(o) => {
                        for (k, v) in o {
                            sum += usize::from(k == "type");
                            stack[depth] = v;
                            depth += 1;
                        }
                    }
                    Value::Array(a) => {
                        for v in a {
                            stack[depth] = v;
                            depth += 1;
                        }
                    }
                    Value::Bool(b) => sum += usize::from(b),
                    Value::Null => sum += 1,
                }
            }
            sum += RawJson::parse(data).unwrap().get().len();
            // The one-pass decoder path.
            for member in ObjectScanner::new(data) {
                let (key, value) = member.unwrap();
                sum += usize::from(key == "delta") + value.as_raw_json().get().len();
            }
        }
        // Escaped strings: compared, iterated, formatted and unescaped into a
        // reused buffer, all without allocating.
        assert!(escaped == "Hello\n\"world\" é😀");
        assert!(escaped != "Hello");
        sum += escaped.chars().count();
        let mut out = StackWriter {
            buf: [0; 256],
            len: 0,
        };
        write!(out, "{escaped}").unwrap();
        assert_eq!(&out.buf[..out.len], "Hello\n\"world\" é😀".as_bytes());
        escaped.unescape_into(&mut reused);
        sum
    });
    assert!(sum > 0);
    assert_eq!(reused, "Hello\n\"world\" é😀");
    assert_eq!(n, 0, "allocations in the JSON layer");

    // The one allocation: unescaping an escaped string into a new `String`.
    let (owned, n) = allocations(|| escaped.unescape());
    assert!(matches!(owned, Cow::Owned(_)));
    assert_eq!(n, 1);
}
