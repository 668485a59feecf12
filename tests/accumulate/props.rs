//! Properties of the Responses accumulator:
//!
//! * `partial_arguments()` of a streaming function call: for arbitrary JSON
//!   arguments (serialized by `serde_json`, compactly or prettily) cut into
//!   arbitrary deltas, the live value after every delta is valid JSON that
//!   approximates the final arguments and every later live value (a string
//!   a prefix, an array a prefix whose last element approximates, an object
//!   a subset with at most one member still growing), and after the last
//!   delta it equals the full parse;
//! * events keyed by index, not arrival: the events of several items,
//!   interleaved in any order (each item's own events in order), assemble
//!   to the same response as item after item.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use ssekit::accumulate::ResponsesAccumulator;
use ssekit::responses::ResponsesEvent;

/// Whether `partial` is a possible earlier state of `full`, written from
/// the `PartialJson` contract: scalars equal; a string a prefix; an array a
/// prefix of the full elements, all equal but the last, which approximates;
/// an object a subset of the full members, all equal but at most one, which
/// approximates.
fn approximates(partial: &Value, full: &Value) -> bool {
    match (partial, full) {
        (Value::String(p), Value::String(f)) => f.starts_with(p.as_str()),
        (Value::Array(p), Value::Array(f)) => {
            p.len() <= f.len()
                && p.iter().zip(f).enumerate().all(|(i, (a, b))| {
                    if i + 1 == p.len() {
                        approximates(a, b)
                    } else {
                        a == b
                    }
                })
        }
        (Value::Object(p), Value::Object(f)) => {
            let growing = p.iter().filter(|(k, v)| f.get(*k) != Some(*v)).count();
            growing <= 1
                && p.iter()
                    .all(|(k, v)| f.get(k).is_some_and(|w| approximates(v, w)))
        }
        _ => partial == full,
    }
}

fn arb_value() -> impl Strategy<Value = Value> {
    let text = "[a-z \"\\\\/\n\u{e9}\u{1F600}]{0,12}";
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        text.prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(("[a-z]{1,6}", inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Arguments: an object of arbitrary values.
fn arb_arguments() -> impl Strategy<Value = Value> {
    prop::collection::vec(("[a-z]{1,8}", arb_value()), 0..6)
        .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>()))
}

/// `text` cut at the given char positions (fractions of its length).
fn cut(text: &str, cuts: &[f64]) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|f| (f * chars.len() as f64) as usize)
        .collect();
    at.push(0);
    at.push(chars.len());
    at.sort_unstable();
    at.dedup();
    at.windows(2)
        .map(|w| chars[w[0]..w[1]].iter().collect())
        .collect()
}

fn event(v: Value) -> String {
    v.to_string()
}

fn feed(acc: &mut ResponsesAccumulator, text: &str) {
    acc.feed(&ResponsesEvent::parse(text).unwrap()).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn partial_arguments_grow_towards_the_full_parse(
        args in arb_arguments(),
        pretty in any::<bool>(),
        cuts in prop::collection::vec(0.0f64..1.0, 0..12),
    ) {
        let text = if pretty { serde_json::to_string_pretty(&args) } else { serde_json::to_string(&args) }.unwrap();
        let mut acc = ResponsesAccumulator::new();
        feed(&mut acc, &event(json!({"type": "response.output_item.added", "output_index": 0,
            "item": {"type": "function_call", "id": "fc", "call_id": "c", "name": "f", "arguments": ""}})));
        let mut shown: Vec<Value> = Vec::new();
        for piece in cut(&text, &cuts) {
            feed(&mut acc, &event(json!({"type": "response.function_call_arguments.delta",
                "item_id": "fc", "output_index": 0, "delta": piece})));
            let live = acc.item(0).unwrap().partial_arguments().expect("a prefix of valid JSON");
            if let Some(live) = live {
                let v: Value = serde_json::from_str(live).expect("the live value is JSON");
                prop_assert!(approximates(&v, &args), "{live} does not approximate {args}");
                if let Some(prev) = shown.last() {
                    prop_assert!(approximates(prev, &v), "{prev} then {v}");
                }
                shown.push(v);
            }
        }
        let last = acc.item(0).unwrap().partial_arguments().unwrap().expect("complete");
        prop_assert_eq!(serde_json::from_str::<Value>(last).unwrap(), args.clone());
        prop_assert_eq!(acc.item(0).unwrap().arguments(), Some(text.as_str()));
        let r = acc.finish();
        prop_assert_eq!(r.output()[0].get("arguments").and_then(|a| a.as_str()), Some(text.as_str()));
    }

    #[test]
    fn arrival_order_does_not_matter(
        texts in prop::collection::vec(prop::collection::vec("[a-z \n\"]{1,5}", 1..5), 1..5),
        seed in any::<u64>(),
    ) {
        // Item i is a message whose part j streams texts[i][j] as deltas of
        // one character each.
        let mut events: Vec<Vec<String>> = Vec::new();
        for (i, parts) in texts.iter().enumerate() {
            let id = format!("msg_{i}");
            let mut stream = vec![event(json!({"type": "response.output_item.added", "output_index": i,
                "item": {"type": "message", "id": id, "role": "assistant", "content": []}}))];
            for (j, text) in parts.iter().enumerate() {
                for c in text.chars() {
                    stream.push(event(json!({"type": "response.output_text.delta", "item_id": id,
                        "output_index": i, "content_index": j, "delta": c.to_string()})));
                }
            }
            events.push(stream);
        }
        let in_order: Vec<&String> = events.iter().flatten().collect();
        // Interleave the per-part streams at random, keeping each part's
        // deltas in their order (deltas carry no index within a part).
        let mut cursors = vec![0usize; events.len()];
        let mut shuffled = Vec::new();
        let mut state = seed | 1;
        while shuffled.len() < in_order.len() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let live: Vec<usize> = (0..events.len()).filter(|&k| cursors[k] < events[k].len()).collect();
            let k = live[(state % live.len() as u64) as usize];
            shuffled.push(&events[k][cursors[k]]);
            cursors[k] += 1;
        }
        let assemble = |evs: &[&String]| {
            let mut acc = ResponsesAccumulator::new();
            for e in evs {
                feed(&mut acc, e);
            }
            acc.finish().json().to_string()
        };
        let a = assemble(&in_order);
        let b = assemble(&shuffled);
        prop_assert_eq!(&a, &b);
        let v: Value = serde_json::from_str(&a).unwrap();
        for (i, parts) in texts.iter().enumerate() {
            for (j, text) in parts.iter().enumerate() {
                prop_assert_eq!(v["output"][i]["content"][j]["text"].as_str(), Some(text.as_str()));
            }
        }
    }
}

#[test]
fn approximates_is_what_it_says() {
    assert!(approximates(
        &json!({"a": "x"}),
        &json!({"a": "xy", "b": 1})
    ));
    assert!(!approximates(
        &json!({"a": "x", "b": [1]}),
        &json!({"a": "xy", "b": [1, 2]})
    ));
    assert!(approximates(&json!([1, "a"]), &json!([1, "ab", 3])));
    assert!(!approximates(&json!([2]), &json!([1, 2])));
    assert!(!approximates(&json!({"c": 1}), &json!({"a": 1})));
    assert!(!approximates(&json!(1), &json!(12)));
}
