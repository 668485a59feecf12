//! The sixteen directions on one rich fixture per source dialect: each
//! translated body against a hand-written expected body, the not-carried
//! list exactly, the generic "no silent drop" walk, and round trips.

use serde_json::Value;
use ssekit::request::NotCarriedKind;
use ssekit::turn::Dialect::{self, *};

use super::fixtures::{self as fx, GEMINI_MODEL};
use super::support::*;

type Expected = (Value, Vec<(&'static str, NotCarriedKind)>);

fn expected(from: Dialect, to: Dialect) -> Expected {
    match (from, to) {
        (Responses, Chat) => fx::responses_to_chat(),
        (Responses, Anthropic) => fx::responses_to_anthropic(),
        (Responses, Gemini) => fx::responses_to_gemini(),
        (Chat, Responses) => fx::chat_to_responses(),
        (Chat, Anthropic) => fx::chat_to_anthropic(),
        (Chat, Gemini) => fx::chat_to_gemini(),
        (Anthropic, Responses) => fx::anthropic_to_responses(),
        (Anthropic, Chat) => fx::anthropic_to_chat(),
        (Anthropic, Gemini) => fx::anthropic_to_gemini(),
        (Gemini, Responses) => fx::gemini_to_responses(),
        (Gemini, Chat) => fx::gemini_to_chat(),
        (Gemini, Anthropic) => fx::gemini_to_anthropic(),
        // Identity: the body as it came (each fixture already has what
        // its dialect requires).
        (d, _) => (fixture(d), Vec::new()),
    }
}

fn model_of(d: Dialect) -> &'static str {
    match d {
        Responses => "gpt-5",
        Chat => "gpt-4o",
        Anthropic => "claude-sonnet-4-5",
        _ => GEMINI_MODEL,
    }
}

fn diff(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for k in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => diff(p, q, &format!("{path}/{k}"), out),
                    (p, q) => out.push(format!("{path}/{k}: {p:?} vs {q:?}")),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                diff(p, q, &format!("{path}/{i}"), out);
            }
        }
        (p, q) if p != q => out.push(format!("{path}: {p} vs {q}")),
        _ => {}
    }
}

#[test]
fn sixteen_cells_field_by_field() {
    let mut failures = Vec::new();
    for from in DIALECTS {
        for to in DIALECTS {
            let t = run(&fixture(from), from, to);
            let (body, nc) = expected(from, to);
            let mut d = Vec::new();
            diff(&t.body, &body, "", &mut d);
            if !d.is_empty() {
                failures.push(format!("{from:?} -> {to:?} body: {d:#?}"));
            }
            let nc: Vec<(String, NotCarriedKind)> =
                nc.into_iter().map(|(p, k)| (p.to_owned(), k)).collect();
            if not_carried(&t) != nc {
                failures.push(format!(
                    "{from:?} -> {to:?} not carried: {:#?} vs {nc:#?}",
                    not_carried(&t)
                ));
            }
            if t.model.as_deref() != Some(model_of(from)) || !t.stream {
                failures.push(format!(
                    "{from:?} -> {to:?}: model {:?} stream {}",
                    t.model, t.stream
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Values a direction rewrites rather than copies (effort ↔ budget, tool
/// choice spellings, Gemini's call ids made up from positions…).
fn rewritten(from: Dialect, to: Dialect) -> &'static [&'static str] {
    match (from, to) {
        (Responses, Anthropic) | (Responses, Gemini) => &["/reasoning/effort", "/tool_choice"],
        (Chat, Anthropic) => &["/reasoning_effort", "/tool_choice"],
        // `["string", "null"]` becomes `nullable: true`.
        (Chat, Gemini) => &[
            "/reasoning_effort",
            "/tool_choice",
            "/tools/0/function/parameters/properties/city/type/1",
        ],
        (Anthropic, Responses) | (Anthropic, Chat) => &["/thinking/budget_tokens", "/tool_choice"],
        (Anthropic, Gemini) => &["/tool_choice"],
        (Gemini, Responses) | (Gemini, Chat) => &[
            "/generationConfig/thinkingConfig/thinkingBudget",
            "/generationConfig/responseMimeType",
            "/toolConfig",
        ],
        (Gemini, Anthropic) => &["/generationConfig/responseMimeType", "/toolConfig"],
        _ => &[],
    }
}

#[test]
fn nothing_dropped_silently_in_any_direction() {
    for from in DIALECTS {
        for to in DIALECTS {
            let src = fixture(from);
            let t = run(&src, from, to);
            assert_no_silent_drop(
                &src,
                &t,
                rewritten(from, to),
                &format!("{from:?} -> {to:?}"),
            );
        }
    }
}

/// A → B → A keeps everything B can say: every leaf of A that B carried is
/// back, and going on to B again gives exactly the first B body (so the
/// second pass lost nothing the first had kept).
#[test]
fn round_trips() {
    for a in DIALECTS {
        for b in DIALECTS {
            let src = fixture(a);
            let there = run(&src, a, b);
            let bytes = serde_json::to_vec(&there.body).unwrap();
            let model = there.model.clone().unwrap();
            let back = ssekit::request::translate(
                &bytes,
                source(b, &model, there.stream),
                a,
                &Default::default(),
            )
            .unwrap_or_else(|e| panic!("{a:?} -> {b:?} -> back: {e}"));
            // The way back may leave out only what the way there made up
            // (a schema name A never had, say): values not in A's body.
            let mut src_leaves = Vec::new();
            leaves(&src, "", &mut src_leaves);
            for n in &back.not_carried {
                let v = there.body.pointer(&n.path);
                // The defaults the OpenAI writers fill in where their types
                // require a value.
                let default = matches!(
                    (n.path.rsplit('/').next(), v.and_then(Value::as_str)),
                    (Some("detail"), Some("auto")) | (Some("name"), Some("response"))
                );
                assert!(
                    default || v.is_some_and(|v| !src_leaves.iter().any(|(_, l)| l == v)),
                    "{a:?} -> {b:?} -> {a:?}: the way back lost {n:?} = {v:?}"
                );
            }
            // What A -> B listed is all that may be missing on return.
            let mut checked = back.clone();
            checked.not_carried = there.not_carried.clone();
            assert_no_silent_drop(
                &src,
                &checked,
                rewritten(a, b),
                &format!("{a:?} -> {b:?} -> {a:?}"),
            );
            let again = run(&back.body, a, b);
            assert_eq!(again.body, there.body, "{a:?} -> {b:?} -> {a:?} -> {b:?}");
        }
    }
}
