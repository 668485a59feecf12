//! Helpers: run a translation, list a body's leaves, compare.

use serde_json::Value;
use ssekit::request::{translate, NotCarriedKind, RequestConfig, Source, Translated};
use ssekit::turn::Dialect;

use super::fixtures::GEMINI_MODEL;

pub(crate) const DIALECTS: [Dialect; 4] = Dialect::ALL;

pub(crate) fn source(d: Dialect, model: &str, stream: bool) -> Source<'_> {
    match d {
        Dialect::Responses => Source::Responses,
        Dialect::Chat => Source::Chat,
        Dialect::Anthropic => Source::Anthropic,
        _ => Source::Gemini { model, stream },
    }
}

pub(crate) fn fixture(d: Dialect) -> Value {
    match d {
        Dialect::Responses => super::fixtures::responses(),
        Dialect::Chat => super::fixtures::chat(),
        Dialect::Anthropic => super::fixtures::anthropic(),
        _ => super::fixtures::gemini(),
    }
}

/// Translates a fixture of dialect `from` (Gemini's URL: [`GEMINI_MODEL`], streaming).
pub(crate) fn run(body: &Value, from: Dialect, to: Dialect) -> Translated {
    let bytes = serde_json::to_vec(body).unwrap();
    translate(
        &bytes,
        source(from, GEMINI_MODEL, true),
        to,
        &RequestConfig::default(),
    )
    .unwrap_or_else(|e| panic!("{from:?} -> {to:?}: {e}"))
}

pub(crate) fn not_carried(t: &Translated) -> Vec<(String, NotCarriedKind)> {
    t.not_carried
        .iter()
        .map(|n| (n.path.clone(), n.kind))
        .collect()
}

/// Every leaf of `v` (strings and numbers) with its JSON pointer.
pub(crate) fn leaves(v: &Value, path: &str, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(o) => {
            for (k, v) in o {
                let k = k.replace('~', "~0").replace('/', "~1");
                leaves(v, &format!("{path}/{k}"), out);
            }
        }
        Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                leaves(v, &format!("{path}/{i}"), out);
            }
        }
        Value::String(_) | Value::Number(_) => out.push((path.to_owned(), v.clone())),
        Value::Bool(_) | Value::Null => {}
    }
}

/// Whether `needle` (a source leaf) shows in the target's leaves: equal
/// (strings without regard to case, for Gemini's upper-case type names),
/// or one string inside another when the shorter has 8 bytes or more (a
/// base64 payload inside a data URL, a data URL split in two), or, for JSON
/// text, every leaf of the JSON it holds.
fn found(needle: &Value, hay: &[(String, Value)]) -> bool {
    if let Value::String(s) = needle {
        if let Ok(inner @ Value::Object(_)) = serde_json::from_str::<Value>(s) {
            let mut ls = Vec::new();
            leaves(&inner, "", &mut ls);
            if ls.iter().all(|(_, l)| found(l, hay)) {
                return true;
            }
        }
    }
    hay.iter().any(|(_, h)| match (needle, h) {
        (Value::String(a), Value::String(b)) => {
            a.eq_ignore_ascii_case(b)
                || (a.len().min(b.len()) >= 8 && (a.contains(b.as_str()) || b.contains(a.as_str())))
        }
        (a, b) => a == b,
    })
}

/// The generic "no silent drop" check: every string or number in the
/// source is in the target, or sits under a path listed as not carried, or
/// is a value the translation rewrites by design (listed by the test: a
/// role, a type tag, an effort turned into a budget…).
pub(crate) fn assert_no_silent_drop(src: &Value, t: &Translated, rewritten: &[&str], what: &str) {
    let mut src_leaves = Vec::new();
    leaves(src, "", &mut src_leaves);
    let mut out_leaves = Vec::new();
    leaves(&t.body, "", &mut out_leaves);
    if let Some(m) = &t.model {
        out_leaves.push(("model".into(), Value::String(m.clone())));
    }
    // Tool arguments are JSON text in the OpenAI dialects: their leaves count.
    for (p, v) in out_leaves.clone() {
        if let Some(Ok(inner @ Value::Object(_))) = v.as_str().map(serde_json::from_str::<Value>) {
            leaves(&inner, &p, &mut out_leaves);
        }
    }
    let covered = |p: &str| {
        t.not_carried.iter().any(|n| {
            p == n.path || (p.starts_with(&n.path) && p.as_bytes().get(n.path.len()) == Some(&b'/'))
        })
    };
    let tag = |p: &str| {
        let last = p.rsplit('/').next().unwrap_or("");
        matches!(last, "type" | "role")
            || rewritten
                .iter()
                .any(|r| p == *r || p.starts_with(&format!("{r}/")))
    };
    let mut missing = Vec::new();
    for (p, v) in &src_leaves {
        if !covered(p) && !found(v, &out_leaves) && !tag(p) {
            missing.push(format!("{p} = {v}"));
        }
    }
    assert!(
        missing.is_empty(),
        "{what}: dropped without a word: {missing:#?}"
    );
}
