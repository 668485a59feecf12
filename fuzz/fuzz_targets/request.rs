//! Fuzz target `request`: request translation on any bytes must not panic;
//! a body it writes is one its target dialect's reader accepts; every path
//! it lists as not carried points into the source body; the identity lists
//! nothing.
//!
//! Input layout (an empty input is skipped):
//!
//! | bytes | meaning                                                            |
//! | ----- | ------------------------------------------------------------------ |
//! | 0     | bits 0-1: the source dialect, bits 2-3: the target (Responses,    |
//! |       | Chat, Anthropic, Gemini); bit 4: tiny limits (`max_items` 3,      |
//! |       | `max_depth` 6); bit 5: Gemini's URL says streaming                 |
//! | rest  | the request body                                                   |
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use ssekit::request::{translate, RequestConfig, Source};
use ssekit::turn::Dialect;

fn source(d: Dialect, model: &str, stream: bool) -> Source<'_> {
    match d {
        Dialect::Responses => Source::Responses,
        Dialect::Chat => Source::Chat,
        Dialect::Anthropic => Source::Anthropic,
        _ => Source::Gemini { model, stream },
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&head, body)) = data.split_first() else {
        return;
    };
    let from = Dialect::ALL[usize::from(head & 3)];
    let to = Dialect::ALL[usize::from((head >> 2) & 3)];
    let config = if head & 16 != 0 {
        RequestConfig::default().with_max_items(3).with_max_depth(6)
    } else {
        RequestConfig::default()
    };
    let Ok(t) = translate(body, source(from, "m", head & 32 != 0), to, &config) else {
        return;
    };
    if from == to {
        assert!(t.not_carried.is_empty());
    }
    let src: Value = serde_json::from_slice(body).expect("translated, so JSON");
    for n in &t.not_carried {
        assert!(
            src.pointer(&n.path).is_some(),
            "not carried {n:?} is not in the source"
        );
    }
    let out = serde_json::to_vec(&t.body).unwrap();
    let model = t.model.clone().unwrap_or_default();
    if let Err(e) = translate(
        &out,
        source(to, &model, t.stream),
        to,
        &RequestConfig::default(),
    ) {
        panic!("{from:?} -> {to:?} wrote a body its reader refuses: {e}");
    }
});
