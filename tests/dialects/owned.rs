//! Chat and Anthropic nested views keep their text in an `Owned<_>`, as the
//! Responses nested views do (one machinery for the three dialects).

use ssekit::anthropic::{AnthropicEvent, ContentBlock};
use ssekit::chat::{ChatEvent, ChoiceDelta, Owned};

#[test]
fn anthropic_block_outlives_its_data() {
    let kept = {
        let data = String::from(
            r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#,
        );
        let AnthropicEvent::ContentBlockStart(start) = AnthropicEvent::parse(&data).unwrap() else {
            panic!("not a content_block_start");
        };
        start.content_block.to_owned()
    };
    let ContentBlock::ToolUse(call) = kept.get() else {
        panic!("not a tool_use block");
    };
    assert_eq!(call.name.unwrap(), "get_weather");
    assert_eq!(kept.clone(), kept);
    assert!(kept.as_str().starts_with(r#"{"type":"tool_use""#));
}

#[test]
fn chat_choice_outlives_its_data() {
    let kept: Owned<ChoiceDelta<'static>> = {
        let data = String::from(
            r#"{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}"#,
        );
        let ChatEvent::Chunk(chunk) = ChatEvent::parse(&data).unwrap() else {
            panic!("not a chunk");
        };
        chunk.choices.first().unwrap().unwrap().to_owned()
    };
    let choice = kept.get();
    assert_eq!(choice.index, 0);
    assert_eq!(choice.delta.unwrap().content.unwrap(), "Hi");
    assert_eq!(
        Owned::<ChoiceDelta<'static>>::parse(kept.as_str()).unwrap(),
        kept
    );
}
