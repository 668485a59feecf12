//! No data panics the Chat Completions decoder: arbitrary strings, JSON-ish
//! strings, and corpus chunks that are cut or have bytes replaced. Whatever
//! decodes is then walked completely (lazy arrays and nested views
//! included), which must not panic either.

mod dialects_common;

use std::sync::OnceLock;

use proptest::prelude::*;
use ssekit::chat::ChatEvent;

fn decode_and_walk(data: &str) {
    match ChatEvent::parse(data) {
        Ok(event) => {
            let mut sum = 0;
            dialects_common::touch_all(&event, &mut sum);
            let _ = (event.raw(), event.to_owned().get());
        }
        Err(e) => {
            let _ = (e.to_string(), e.kind(), e.offset());
        }
    }
}

/// The data of some corpus chunks (empty when the corpus is missing).
fn corpus_events() -> &'static [String] {
    static EVENTS: OnceLock<Vec<String>> = OnceLock::new();
    EVENTS.get_or_init(|| {
        let Some(streams) = dialects_common::streams("chat") else {
            return Vec::new();
        };
        streams
            .iter()
            .flat_map(|(_, frames)| frames.iter().step_by(7))
            .map(|f| f.data().to_owned())
            .collect()
    })
}

/// Replaces the char at a byte position (rounded down to a boundary), or
/// cuts the text there.
fn mutate(s: &str, at: usize, with: &str, cut: bool) -> String {
    let mut at = at % (s.len() + 1);
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    if cut {
        return s[..at].to_owned();
    }
    let mut end = (at + 1).min(s.len());
    while !s.is_char_boundary(end) {
        end += 1;
    }
    format!("{}{}{}", &s[..at], with, &s[end..])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        decode_and_walk(&s);
    }

    #[test]
    fn json_like_strings_never_panic(s in r#"[\[\]{}",:0-9a-z_. \\eE+\-]{0,64}"#) {
        decode_and_walk(&s);
        decode_and_walk(&format!(r#"{{"choices":[{s}]}}"#));
        decode_and_walk(&format!(r#"{{"choices":[{{"index":0,"delta":{{"tool_calls":[{s}]}}}}]}}"#));
        decode_and_walk(&format!(r#"{{"error":{s}}}"#));
        decode_and_walk(&format!(r#"{{"choices":[],"usage":{{{s}}}}}"#));
    }

    #[test]
    fn mutated_corpus_chunks_never_panic(
        pick in any::<usize>(),
        at in any::<usize>(),
        with in prop::sample::select(vec!["", "\"", "{", "}", "[", "]", ",", ":", "null", "1", "-1.5e9", "\\", "\\u00", "é", "true", "\"error\":1,"]),
        cut in any::<bool>(),
    ) {
        let events = corpus_events();
        if !events.is_empty() {
            let event = &events[pick % events.len()];
            decode_and_walk(&mutate(event, at, with, cut));
        }
    }
}
