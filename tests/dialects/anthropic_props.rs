//! No data panics the Anthropic Messages decoder: arbitrary strings, JSON-ish
//! strings, and corpus events that are cut or have bytes replaced. Whatever
//! decodes is then walked completely (lazy arrays and nested views
//! included), which must not panic either.

use crate::dialects_common;

use proptest::prelude::*;
use ssekit::anthropic::AnthropicEvent;

fn decode_and_walk(data: &str) {
    for event in [
        AnthropicEvent::parse(data),
        AnthropicEvent::parse_named("content_block_delta", data),
        AnthropicEvent::parse_named("content_block_start", data),
        AnthropicEvent::parse_named("message_start", data),
    ] {
        match event {
            Ok(event) => {
                let mut sum = 0;
                dialects_common::touch_all(&event, &mut sum);
                let _ = (
                    event.raw(),
                    event.ty(),
                    event.index(),
                    event.to_owned().get(),
                );
            }
            Err(e) => {
                let _ = (e.to_string(), e.kind(), e.offset());
            }
        }
    }
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
        decode_and_walk(&format!(r#"{{"type":"content_block_delta","index":0,"delta":{{{s}}}}}"#));
        decode_and_walk(&format!(r#"{{"type":"content_block_start","index":0,"content_block":{{"type":"text","citations":[{s}]}}}}"#));
        decode_and_walk(&format!(r#"{{"type":"message_start","message":{{"content":[{s}],"usage":{{{s}}}}}}}"#));
        decode_and_walk(&format!(r#"{{"type":"error","error":{s}}}"#));
    }

    #[test]
    fn mutated_corpus_events_never_panic(
        pick in any::<usize>(),
        at in any::<usize>(),
        with in prop::sample::select(vec!["", "\"", "{", "}", "[", "]", ",", ":", "null", "1", "-1.5e9", "\\", "\\u00", "é", "true", "\"type\":\"ping\","]),
        cut in any::<bool>(),
    ) {
        let events = dialects_common::sampled_data("anthropic");
        if !events.is_empty() {
            let event = &events[pick % events.len()];
            decode_and_walk(&dialects_common::mutate(event, at, with, cut));
        }
    }
}
