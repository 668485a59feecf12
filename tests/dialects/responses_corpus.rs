//! The Responses views against the recorded corpus and the research
//! inventory (`../shared/{corpus,research}`):
//!
//! * every event of every Responses stream decodes, and every event whose
//!   type is in the inventory decodes to its typed variant, never `Unknown`;
//! * differential: every field a view exposes equals what `serde_json::Value`
//!   gives for the same key, down through nested views and arrays, and every
//!   field it does not expose is absent or `null` there;
//! * the inventory cross-check: every inventory event, item, part and
//!   annotation type has a variant exposing every inventory field;
//! * a generated sample of every inventory event and item type, with all
//!   its fields, decodes with every field present.

use crate::responses_common;

use std::collections::BTreeSet;

use responses_common::{inventory, responses_streams};
use serde_json::{json, Value as J};
use ssekit::responses::{Annotation, ContentPart, FieldValue, Fields, OutputItem, ResponsesEvent};

/// Compares every field of `view` with the JSON object `json`.
fn diff_view(view: &dyn Fields<'_>, json: &J, path: &str, failures: &mut Vec<String>) {
    let Some(obj) = json.as_object() else {
        failures.push(format!("{path}: view of a non-object {json}"));
        return;
    };
    let mut seen = BTreeSet::new();
    view.for_each_field(&mut |name, value| {
        seen.insert(name);
        let at = format!("{path}.{name}");
        match obj.get(name) {
            Some(j) if !j.is_null() => diff_value(value, j, &at, failures),
            _ => failures.push(format!("{at}: exposed but absent or null in JSON")),
        }
    });
    for name in view.field_names() {
        if !seen.contains(name) && obj.get(*name).is_some_and(|j| !j.is_null()) {
            failures.push(format!("{path}.{name}: in JSON but not exposed"));
        }
    }
}

fn diff_value(value: FieldValue<'_, '_>, j: &J, at: &str, failures: &mut Vec<String>) {
    let ok = match value {
        FieldValue::Str(s) => j.as_str() == Some(&*s.unescape()),
        FieldValue::U64(x) => j.as_u64() == Some(x),
        FieldValue::I64(x) => j.as_i64() == Some(x),
        FieldValue::F64(x) => j
            .as_f64()
            .is_some_and(|y| y == x || (y - x).abs() <= 1e-15 * x.abs()),
        FieldValue::Bool(b) => j.as_bool() == Some(b),
        FieldValue::Raw(r) => serde_json::from_str::<J>(r.get()).ok().as_ref() == Some(j),
        FieldValue::Object(o) => {
            diff_view(o, j, at, failures);
            true
        }
        FieldValue::Array(a) => {
            let Some(arr) = j.as_array() else {
                failures.push(format!("{at}: array view of {j}"));
                return;
            };
            let mut i = 0;
            a.for_each_element(&mut |e| {
                let here = format!("{at}[{i}]");
                match (e, arr.get(i)) {
                    (Ok(v), Some(j)) => diff_value(v, j, &here, failures),
                    (Err(e), _) => failures.push(format!("{here}: {e}")),
                    (Ok(_), None) => failures.push(format!("{here}: extra element")),
                }
                i += 1;
            });
            if i != arr.len() {
                failures.push(format!("{at}: {i} elements, JSON has {}", arr.len()));
            }
            true
        }
        other => {
            failures.push(format!("{at}: unexpected {other:?}"));
            true
        }
    };
    if !ok {
        failures.push(format!("{at}: view {value:?} != JSON {j}"));
    }
}

#[test]
fn every_corpus_event_decodes_typed_and_matches_serde_json() {
    let Some(streams) = responses_streams() else {
        return;
    };
    let Some((events, _)) = inventory() else {
        return;
    };
    let known: BTreeSet<&str> = events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    let (mut decoded, mut done, mut typed) = (0, 0, BTreeSet::new());
    let mut failures = Vec::new();
    for (name, frames) in &streams {
        for (i, frame) in frames.iter().enumerate() {
            let at = format!("{name} #{i}");
            let event = match ResponsesEvent::from_frame(frame) {
                Ok(event) => event,
                Err(e) => {
                    failures.push(format!("{at}: {e}"));
                    continue;
                }
            };
            // The same event from the data alone.
            assert_eq!(
                ResponsesEvent::parse(frame.data()).as_ref(),
                Ok(&event),
                "{at}"
            );
            decoded += 1;
            if let ResponsesEvent::Done = event {
                done += 1;
                continue;
            }
            let json: J = serde_json::from_str(frame.data()).expect("corpus data is JSON");
            let ty = json["type"].as_str().unwrap_or_default();
            assert_eq!(event.ty(), ty, "{at}");
            if known.contains(ty) {
                if matches!(event, ResponsesEvent::Unknown { .. }) {
                    failures.push(format!("{at}: {ty} decoded as Unknown"));
                }
                typed.insert(ty.to_owned());
            }
            assert_eq!(
                event.sequence_number(),
                json.get("sequence_number").and_then(J::as_u64),
                "{at}"
            );
            diff_view(&event, &json, &at, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{decoded} events in {} streams ({done} [DONE]), {} types typed",
        streams.len(),
        typed.len()
    );
    assert!(
        decoded > 5000 && typed.len() >= 45,
        "{decoded} events, {} types",
        typed.len()
    );
}

/// The inventory's list of field names of an entry, without `type`.
fn inventory_fields(entry: &J) -> Vec<String> {
    entry["fields"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| *k != "type")
        .cloned()
        .collect()
}

#[test]
fn every_inventory_type_has_a_variant_exposing_every_field() {
    let Some((events, items)) = inventory() else {
        return;
    };
    let events = events.as_array().unwrap();
    assert_eq!(events.len(), ResponsesEvent::TYPES.len());
    for e in events {
        let ty = e["type"].as_str().unwrap();
        let fields = ResponsesEvent::fields_of(ty).unwrap_or_else(|| panic!("no variant for {ty}"));
        for f in inventory_fields(e) {
            assert!(fields.contains(&f.as_str()), "{ty}: field {f} not exposed");
        }
        assert!(fields.contains(&"sequence_number"), "{ty}");
    }
    type FieldsOf = fn(&str) -> &'static [&'static str];
    let tables: [(&str, &[&str], FieldsOf); 3] = [
        ("output_items", OutputItem::TYPES, OutputItem::fields_of),
        ("content_parts", ContentPart::TYPES, ContentPart::fields_of),
        ("annotations", Annotation::TYPES, Annotation::fields_of),
    ];
    for (section, types, fields_of) in tables {
        let entries = items[section].as_array().unwrap();
        assert_eq!(entries.len(), types.len(), "{section}");
        for e in entries {
            let ty = e["type"].as_str().unwrap();
            assert!(types.contains(&ty), "{section}: no variant for {ty}");
            let fields = fields_of(ty);
            for f in inventory_fields(e) {
                assert!(
                    fields.contains(&f.as_str()),
                    "{section} {ty}: field {f} not exposed"
                );
            }
        }
    }
}

/// A sample value of an inventory field.
fn sample(name: &str, ty: &str) -> J {
    match (name, ty) {
        ("response", _) => json!({"id": "resp_1", "status": "completed", "output": [
            {"type": "message", "id": "msg_1", "content": [{"type": "output_text", "text": "hi"}]}
        ], "usage": {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3,
            "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}}),
        ("item", _) => {
            json!({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"})
        }
        ("part", _) => {
            json!({"type": "output_text", "text": "t", "annotations": [], "logprobs": []})
        }
        ("annotation", _) => json!({"type": "url_citation", "url": "https://x", "start_index": 0}),
        ("error", "object") => {
            json!({"type": "invalid_request_error", "code": "c", "message": "m"})
        }
        ("logprobs", _) => {
            json!([{"token": "a", "logprob": -0.5, "top_logprobs": [{"token": "b", "logprob": -1.5}]}])
        }
        ("content" | "summary", "array") => json!([{"type": "output_text", "text": "t"}]),
        ("queries", _) => json!(["q"]),
        ("annotations", _) => json!([{"type": "file_path", "file_id": "f", "index": 1}]),
        (_, "string") => json!("s\n\"x\""),
        (_, "integer") => json!(7),
        (_, "number") => json!(1.25),
        (_, "boolean") => json!(true),
        (_, "array") => json!([1, {"a": null}]),
        _ => json!({"k": [1]}),
    }
}

/// A sample object of an inventory entry with every field.
fn sample_object(entry: &J) -> J {
    let mut obj = serde_json::Map::new();
    for (k, t) in entry["fields"].as_object().unwrap() {
        let v = if k == "type" {
            entry["type"].clone()
        } else {
            sample(k, t.as_str().unwrap_or("union"))
        };
        obj.insert(k.clone(), v);
    }
    J::Object(obj)
}

/// The names of the present fields of a view.
fn present(view: &dyn Fields<'_>) -> BTreeSet<&'static str> {
    let mut names = BTreeSet::new();
    view.for_each_field(&mut |name, _| {
        names.insert(name);
    });
    names
}

#[test]
fn generated_samples_decode_with_every_field_present() {
    let Some((events, items)) = inventory() else {
        return;
    };
    let mut failures = Vec::new();
    for e in events.as_array().unwrap() {
        let ty = e["type"].as_str().unwrap();
        let data = sample_object(e).to_string();
        match ResponsesEvent::parse(&data) {
            Ok(ResponsesEvent::Unknown { .. }) => failures.push(format!("{ty}: Unknown")),
            Ok(event) => {
                let names = present(&event);
                for f in e["fields"].as_object().unwrap().keys() {
                    if !names.contains(f.as_str()) {
                        failures.push(format!("{ty}: {f} absent"));
                    }
                }
                let json: J = serde_json::from_str(&data).unwrap();
                diff_view(&event, &json, ty, &mut failures);
            }
            Err(err) => failures.push(format!("{ty}: {err}")),
        }
    }
    // Items, parts and annotations, each inside the event that carries it.
    let carriers = [
        ("output_items", "response.output_item.done", "item"),
        ("content_parts", "response.content_part.done", "part"),
        (
            "annotations",
            "response.output_text.annotation.added",
            "annotation",
        ),
    ];
    for (section, event_ty, key) in carriers {
        for entry in items[section].as_array().unwrap() {
            let ty = entry["type"].as_str().unwrap();
            let mut event = json!({"type": event_ty, "item_id": "i", "output_index": 0,
                "content_index": 0, "annotation_index": 0});
            event[key] = sample_object(entry);
            let data = event.to_string();
            let decoded = match ResponsesEvent::parse(&data) {
                Ok(decoded) => decoded,
                Err(err) => {
                    failures.push(format!("{section} {ty}: {err}"));
                    continue;
                }
            };
            let mut nested = None;
            decoded.for_each_field(&mut |name, value| {
                if name == key {
                    if let FieldValue::Object(o) = value {
                        let names = present(o);
                        let missing: Vec<_> = entry["fields"]
                            .as_object()
                            .unwrap()
                            .keys()
                            .filter(|f| !names.contains(f.as_str()))
                            .cloned()
                            .collect();
                        nested = Some((o.field_names().is_empty(), missing));
                    }
                }
            });
            match nested {
                Some((false, missing)) if missing.is_empty() => {}
                Some((true, _)) => failures.push(format!("{section} {ty}: Other")),
                other => failures.push(format!("{section} {ty}: {other:?}")),
            }
            let json: J = serde_json::from_str(&data).unwrap();
            diff_view(&decoded, &json, ty, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
