//! JSON schemas between JSON Schema (OpenAI, Anthropic) and Gemini's
//! OpenAPI subset.

use alloc::string::ToString;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::model::{child, index};
use super::{NotCarried, NotCarriedKind};

/// The keywords Gemini's `Schema` takes.
const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// `schema` cut to Gemini's subset; each keyword left out is listed with
/// its path under `path`.
pub(crate) fn to_gemini(schema: &Value, path: &str, out: &mut Vec<NotCarried>) -> Value {
    let Value::Object(o) = schema else {
        return schema.clone();
    };
    let mut m = Map::new();
    for (k, v) in o {
        let kp = child(path, k);
        if !GEMINI_KEYWORDS.contains(&k.as_str()) {
            out.push(NotCarried::new(kp, NotCarriedKind::SchemaKeyword));
            continue;
        }
        let v = match (k.as_str(), v) {
            ("properties", Value::Object(props)) => Value::Object(
                props
                    .iter()
                    .map(|(name, s)| (name.clone(), to_gemini(s, &child(&kp, name), out)))
                    .collect(),
            ),
            ("items", s) => to_gemini(s, &kp, out),
            ("anyOf", Value::Array(a)) => Value::Array(
                a.iter()
                    .enumerate()
                    .map(|(i, s)| to_gemini(s, &index(&kp, i), out))
                    .collect(),
            ),
            ("type", Value::Array(types)) => {
                let real: Vec<&Value> = types
                    .iter()
                    .filter(|t| t.as_str() != Some("null"))
                    .collect();
                if real.len() == 1 {
                    if real.len() != types.len() {
                        m.insert("nullable".into(), Value::Bool(true));
                    }
                    real[0].clone()
                } else {
                    out.push(NotCarried::new(kp, NotCarriedKind::SchemaKeyword));
                    continue;
                }
            }
            (_, v) => v.clone(),
        };
        m.insert(k.clone(), v);
    }
    Value::Object(m)
}

/// A Gemini schema as JSON Schema: type names in lower case, `nullable`
/// folded into the type.
pub(crate) fn from_gemini(schema: &Value) -> Value {
    let Value::Object(o) = schema else {
        return schema.clone();
    };
    let nullable = o.get("nullable").and_then(Value::as_bool) == Some(true);
    let mut m = Map::new();
    for (k, v) in o {
        let v = match (k.as_str(), v) {
            ("nullable", _) => continue,
            ("type", Value::String(t)) => {
                let t = Value::String(t.to_ascii_lowercase());
                if nullable {
                    Value::Array(alloc::vec![t, Value::String("null".to_string())])
                } else {
                    t
                }
            }
            ("properties", Value::Object(props)) => Value::Object(
                props
                    .iter()
                    .map(|(name, s)| (name.clone(), from_gemini(s)))
                    .collect(),
            ),
            ("items", s) => from_gemini(s),
            ("anyOf", Value::Array(a)) => Value::Array(a.iter().map(from_gemini).collect()),
            (_, v) => v.clone(),
        };
        m.insert(k.clone(), v);
    }
    Value::Object(m)
}
