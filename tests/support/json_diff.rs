//! Field-by-field comparison of two `serde_json::Value`s, for the
//! accumulator tests: every difference is reported by its path. A test binary
//! takes it with `#[path = "support/json_diff.rs"] mod json_diff;`.
#![allow(dead_code)]

use serde_json::Value as J;

/// Compares `actual` with `expected` recursively; pushes one line per
/// difference (`path: expected … got …`) to `failures`. Returns the number of
/// leaf values compared.
pub(crate) fn diff(path: &str, expected: &J, actual: &J, failures: &mut Vec<String>) -> usize {
    match (expected, actual) {
        (J::Object(e), J::Object(a)) => {
            let mut n = 0;
            for (k, ev) in e {
                match a.get(k) {
                    Some(av) => n += diff(&format!("{path}.{k}"), ev, av, failures),
                    None => failures.push(format!("{path}.{k}: missing (expected {})", short(ev))),
                }
            }
            for k in a.keys().filter(|k| !e.contains_key(*k)) {
                failures.push(format!("{path}.{k}: unexpected {}", short(&a[k])));
            }
            n
        }
        (J::Array(e), J::Array(a)) => {
            if e.len() != a.len() {
                failures.push(format!(
                    "{path}: {} elements expected, got {}",
                    e.len(),
                    a.len()
                ));
            }
            e.iter()
                .zip(a)
                .enumerate()
                .map(|(i, (ev, av))| diff(&format!("{path}[{i}]"), ev, av, failures))
                .sum()
        }
        (e, a) => {
            if e != a {
                failures.push(format!("{path}: expected {}, got {}", short(e), short(a)));
            }
            1
        }
    }
}

fn short(v: &J) -> String {
    let s = v.to_string();
    if s.len() > 120 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(120).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

/// Every frame of an SSE body.
pub(crate) fn frames(body: &[u8]) -> Vec<ssekit::Frame> {
    let mut parser = ssekit::Parser::new();
    parser.feed(ssekit::Bytes::copy_from_slice(body));
    let mut frames = Vec::new();
    while let Some(frame) = parser.next_frame().expect("frames") {
        frames.push(frame);
    }
    parser.finish().expect("finish");
    frames
}
