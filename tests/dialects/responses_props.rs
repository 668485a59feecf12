//! No data panics the Responses decoder: arbitrary strings, JSON-ish
//! strings, and corpus events that are truncated, cut, or have bytes
//! replaced. Whatever decodes is then walked completely (lazy arrays and
//! nested views included), which must not panic either.

use crate::dialects_common;
use crate::responses_common;

use std::sync::OnceLock;

use proptest::prelude::*;
use ssekit::responses::ResponsesEvent;

/// Decodes `data` (with and without an event name) and walks the result.
fn decode_and_walk(data: &str) {
    for event in [
        ResponsesEvent::parse(data),
        ResponsesEvent::parse_named("response.output_text.delta", data),
        ResponsesEvent::parse_named("response.completed", data),
        ResponsesEvent::parse_named("error", data),
    ] {
        match event {
            Ok(event) => {
                let mut sum = 0;
                dialects_common::touch_all(&event, &mut sum);
                let _ = (event.ty(), event.sequence_number());
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
}

/// The data of every Responses corpus event (empty when the corpus is missing).
fn corpus_events() -> &'static [String] {
    static EVENTS: OnceLock<Vec<String>> = OnceLock::new();
    EVENTS.get_or_init(|| {
        let Some(streams) = responses_common::responses_streams() else {
            return Vec::new();
        };
        // Keep it small: the events of distinct types, the first of each.
        let mut seen = std::collections::BTreeSet::new();
        streams
            .iter()
            .flat_map(|(_, frames)| frames)
            .filter(|f| seen.insert((f.event().to_owned(), f.data().len() / 4096)))
            .map(|f| f.data().to_owned())
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        decode_and_walk(&s);
    }

    #[test]
    fn arbitrary_bytes_through_frames_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        let mut parser = ssekit::Parser::new();
        parser.feed(ssekit::Bytes::from([b"event: response.output_text.delta\ndata: ".as_slice(), &bytes, b"\n\n"].concat()));
        parser.feed(ssekit::Bytes::from(bytes));
        while let Ok(Some(frame)) = parser.next_frame() {
            if let Ok(event) = ResponsesEvent::from_frame(&frame) {
                let mut sum = 0;
                dialects_common::touch_all(&event, &mut sum);
            }
            decode_and_walk(frame.data());
        }
    }

    #[test]
    fn json_like_strings_never_panic(s in r#"[\[\]{}",:0-9a-z_. \\eE+\-]{0,64}"#) {
        decode_and_walk(&s);
        decode_and_walk(&format!(r#"{{"type":"response.output_text.delta",{s}}}"#));
        decode_and_walk(&format!(r#"{{"type":"response.completed","response":{{"output":[{s}]}}}}"#));
    }

    #[test]
    fn mutated_corpus_events_never_panic(
        pick in any::<usize>(),
        at in any::<usize>(),
        with in prop::sample::select(vec!["", "\"", "{", "}", "[", "]", ",", ":", "null", "1", "-1.5e9", "\\", "\\u00", "é", "true"]),
        cut in any::<bool>(),
    ) {
        let events = corpus_events();
        if !events.is_empty() {
            let event = &events[pick % events.len()];
            decode_and_walk(&dialects_common::mutate(event, at, with, cut));
        }
    }
}
