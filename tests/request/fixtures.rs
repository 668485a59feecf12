//! One rich request per dialect (system prompt, an image, a tool call and
//! its result, reasoning sent back, tools with schemas, structured output,
//! settings), and what each must become in every dialect, written by hand.

use serde_json::{json, Value};
use ssekit::request::NotCarriedKind::{self, *};

pub(crate) const GEMINI_MODEL: &str = "gemini-2.5-flash";

fn weather_params() -> Value {
    json!({"type": "object", "properties": {"city": {"type": "string"}},
           "required": ["city"], "additionalProperties": false})
}
fn weather_params_gemini() -> Value {
    json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
}
fn reply_schema() -> Value {
    json!({"type": "object", "properties": {"reply": {"type": "string"}},
           "required": ["reply"], "additionalProperties": false})
}
fn reply_schema_gemini() -> Value {
    json!({"type": "object", "properties": {"reply": {"type": "string"}}, "required": ["reply"]})
}
fn reply_open() -> Value {
    json!({"type": "object", "properties": {"reply": {"type": "string"}}})
}

// ---- Responses --------------------------------------------------------------

pub(crate) fn responses() -> Value {
    json!({
        "model": "gpt-5",
        "instructions": "You are terse.",
        "input": [
            {"role": "developer", "content": "Answer in French."},
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "What is the weather in Paris?"},
                {"type": "input_image", "image_url": "https://example.com/sky.png", "detail": "high"}
            ]},
            {"type": "reasoning", "id": "rs_1",
             "summary": [{"type": "summary_text", "text": "Need the weather."}],
             "encrypted_content": "gAAAAencrypted"},
            {"type": "function_call", "call_id": "call_1", "name": "get_weather",
             "arguments": "{\"city\":\"Paris\"}"},
            {"type": "function_call_output", "call_id": "call_1", "output": "18C and sunny"},
            {"type": "message", "role": "assistant", "content": "Il fait 18C."},
            {"role": "user", "content": [
                {"type": "input_text", "text": "And this photo?"},
                {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "detail": "auto"}
            ]}
        ],
        "tools": [
            {"type": "function", "name": "get_weather", "description": "Weather for a city",
             "parameters": weather_params(), "strict": true},
            {"type": "web_search"}
        ],
        "tool_choice": "auto",
        "parallel_tool_calls": false,
        "text": {"format": {"type": "json_schema", "name": "answer", "schema": reply_schema(), "strict": true}},
        "max_output_tokens": 32000,
        "temperature": 0.5,
        "top_p": 0.9,
        "reasoning": {"effort": "high", "summary": "auto"},
        "stream": true,
        "store": false
    })
}

pub(crate) fn responses_to_chat() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "model": "gpt-5",
        "messages": [
            {"role": "system", "content": "You are terse."},
            {"role": "developer", "content": "Answer in French."},
            {"role": "user", "content": [
                {"type": "text", "text": "What is the weather in Paris?"},
                {"type": "image_url", "image_url": {"url": "https://example.com/sky.png", "detail": "high"}}
            ]},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function",
                 "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_1", "content": "18C and sunny"},
            {"role": "assistant", "content": "Il fait 18C."},
            {"role": "user", "content": [
                {"type": "text", "text": "And this photo?"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "auto"}}
            ]}
        ],
        "tools": [{"type": "function", "function": {"name": "get_weather",
            "description": "Weather for a city", "parameters": weather_params(), "strict": true}}],
        "tool_choice": "auto",
        "parallel_tool_calls": false,
        "response_format": {"type": "json_schema",
            "json_schema": {"name": "answer", "schema": reply_schema(), "strict": true}},
        "max_completion_tokens": 32000,
        "temperature": 0.5,
        "top_p": 0.9,
        "reasoning_effort": "high",
        "stream": true,
        "stream_options": {"include_usage": true}
    });
    let nc = vec![
        ("/input/2", Reasoning),
        ("/reasoning/summary", Unsupported),
        ("/store", UnknownField),
        ("/tools/1", Unsupported),
    ];
    (body, nc)
}

pub(crate) fn responses_to_anthropic() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "model": "gpt-5",
        "max_tokens": 32000,
        "system": [{"type": "text", "text": "You are terse."}, {"type": "text", "text": "Answer in French."}],
        "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "What is the weather in Paris?"},
                {"type": "image", "source": {"type": "url", "url": "https://example.com/sky.png"}}
            ]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Paris"}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "call_1", "content": "18C and sunny"}
            ]},
            {"role": "assistant", "content": [{"type": "text", "text": "Il fait 18C."}]},
            {"role": "user", "content": [
                {"type": "text", "text": "And this photo?"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
            ]}
        ],
        "tools": [{"name": "get_weather", "description": "Weather for a city",
                   "input_schema": weather_params(), "strict": true}],
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": true},
        "temperature": 0.5,
        "top_p": 0.9,
        "output_config": {"format": {"type": "json_schema", "schema": reply_schema()}},
        "stream": true
    });
    let nc = vec![
        ("/input/1/content/1/detail", Unsupported),
        ("/input/2", Reasoning),
        ("/input/6/content/1/detail", Unsupported),
        ("/reasoning/effort", Unsupported),
        ("/reasoning/summary", Unsupported),
        ("/store", UnknownField),
        ("/text/format/name", Unsupported),
        ("/text/format/strict", Unsupported),
        ("/tools/1", Unsupported),
    ];
    (body, nc)
}

pub(crate) fn responses_to_gemini() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "systemInstruction": {"parts": [{"text": "You are terse."}, {"text": "Answer in French."}]},
        "contents": [
            {"role": "user", "parts": [
                {"text": "What is the weather in Paris?"},
                {"fileData": {"fileUri": "https://example.com/sky.png", "mimeType": "image/png"}}
            ]},
            {"role": "model", "parts": [
                {"functionCall": {"id": "call_1", "name": "get_weather", "args": {"city": "Paris"}}}
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "call_1", "name": "get_weather", "response": {"output": "18C and sunny"}}}
            ]},
            {"role": "model", "parts": [{"text": "Il fait 18C."}]},
            {"role": "user", "parts": [
                {"text": "And this photo?"},
                {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}
            ]}
        ],
        "tools": [{"functionDeclarations": [{"name": "get_weather", "description": "Weather for a city",
                                             "parameters": weather_params_gemini()}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "generationConfig": {
            "temperature": 0.5, "topP": 0.9, "maxOutputTokens": 32000,
            "responseMimeType": "application/json", "responseSchema": reply_schema_gemini(),
            "thinkingConfig": {"thinkingBudget": 24576, "includeThoughts": true}
        }
    });
    let nc = vec![
        ("/input/1/content/1/detail", Unsupported),
        ("/input/2", Reasoning),
        ("/input/6/content/1/detail", Unsupported),
        ("/parallel_tool_calls", Unsupported),
        ("/store", UnknownField),
        ("/text/format/name", Unsupported),
        ("/text/format/schema/additionalProperties", SchemaKeyword),
        ("/text/format/strict", Unsupported),
        ("/tools/0/parameters/additionalProperties", SchemaKeyword),
        ("/tools/0/strict", Unsupported),
        ("/tools/1", Unsupported),
    ];
    (body, nc)
}

// ---- Chat Completions -------------------------------------------------------

fn nullable_city() -> Value {
    json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
           "properties": {"city": {"type": ["string", "null"]}}, "required": ["city"]})
}

pub(crate) fn chat() -> Value {
    json!({
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": [
                {"type": "text", "text": "Weather in Paris?"},
                {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,/9j/4AAQ", "detail": "low"}}
            ]},
            {"role": "assistant", "content": null, "reasoning_content": "Need the weather.",
             "tool_calls": [{"id": "call_9", "type": "function",
                 "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]},
            {"role": "tool", "tool_call_id": "call_9", "content": "18C"},
            {"role": "assistant", "content": "18C in Paris."},
            {"role": "user", "content": "Thanks"}
        ],
        "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather",
                   "parameters": nullable_city()}}],
        "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
        "parallel_tool_calls": true,
        "response_format": {"type": "json_schema", "json_schema": {"name": "reply", "schema": reply_open()}},
        "max_completion_tokens": 20000,
        "temperature": 0.2,
        "top_p": 1,
        "stop": ["END"],
        "reasoning_effort": "low",
        "stream": true,
        "stream_options": {"include_usage": true},
        "seed": 7
    })
}

pub(crate) fn chat_to_responses() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "model": "gpt-4o",
        "instructions": "You are terse.",
        "input": [
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "Weather in Paris?"},
                {"type": "input_image", "image_url": "data:image/jpeg;base64,/9j/4AAQ", "detail": "low"}
            ]},
            {"type": "function_call", "call_id": "call_9", "name": "get_weather",
             "arguments": "{\"city\": \"Paris\"}"},
            {"type": "function_call_output", "call_id": "call_9", "output": "18C"},
            {"type": "message", "role": "assistant", "content": "18C in Paris."},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Thanks"}]}
        ],
        "tools": [{"type": "function", "name": "get_weather", "description": "Weather",
                   "parameters": nullable_city(), "strict": false}],
        "tool_choice": {"type": "function", "name": "get_weather"},
        "parallel_tool_calls": true,
        "text": {"format": {"type": "json_schema", "name": "reply", "schema": reply_open()}},
        "max_output_tokens": 20000,
        "temperature": 0.2,
        "top_p": 1,
        "reasoning": {"effort": "low"},
        "stream": true
    });
    let nc = vec![
        ("/messages/2/reasoning_content", UnknownField),
        ("/seed", UnknownField),
        ("/stop", Unsupported),
    ];
    (body, nc)
}

pub(crate) fn chat_to_anthropic() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "model": "gpt-4o",
        "max_tokens": 20000,
        "system": "You are terse.",
        "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "Weather in Paris?"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ"}}
            ]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "call_9", "name": "get_weather", "input": {"city": "Paris"}}
            ]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_9", "content": "18C"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "18C in Paris."}]},
            {"role": "user", "content": [{"type": "text", "text": "Thanks"}]}
        ],
        "tools": [{"name": "get_weather", "description": "Weather", "input_schema": nullable_city()}],
        "tool_choice": {"type": "tool", "name": "get_weather"},
        "temperature": 0.2,
        "top_p": 1,
        "stop_sequences": ["END"],
        "output_config": {"format": {"type": "json_schema", "schema": reply_open()}},
        "stream": true
    });
    let nc = vec![
        ("/messages/1/content/1/image_url/detail", Unsupported),
        ("/messages/2/reasoning_content", UnknownField),
        ("/reasoning_effort", Unsupported),
        ("/response_format/json_schema/name", Unsupported),
        ("/seed", UnknownField),
    ];
    (body, nc)
}

pub(crate) fn chat_to_gemini() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "systemInstruction": {"parts": [{"text": "You are terse."}]},
        "contents": [
            {"role": "user", "parts": [
                {"text": "Weather in Paris?"},
                {"inlineData": {"mimeType": "image/jpeg", "data": "/9j/4AAQ"}}
            ]},
            {"role": "model", "parts": [
                {"functionCall": {"id": "call_9", "name": "get_weather", "args": {"city": "Paris"}}}
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "call_9", "name": "get_weather", "response": {"output": "18C"}}}
            ]},
            {"role": "model", "parts": [{"text": "18C in Paris."}]},
            {"role": "user", "parts": [{"text": "Thanks"}]}
        ],
        "tools": [{"functionDeclarations": [{"name": "get_weather", "description": "Weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string", "nullable": true}},
                           "required": ["city"]}}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}},
        "generationConfig": {
            "temperature": 0.2, "topP": 1, "maxOutputTokens": 20000, "stopSequences": ["END"],
            "responseMimeType": "application/json", "responseSchema": reply_open(),
            "thinkingConfig": {"thinkingBudget": 2048}
        }
    });
    let nc = vec![
        ("/messages/1/content/1/image_url/detail", Unsupported),
        ("/messages/2/reasoning_content", UnknownField),
        ("/parallel_tool_calls", Unsupported),
        ("/response_format/json_schema/name", Unsupported),
        ("/seed", UnknownField),
        ("/tools/0/function/parameters/$schema", SchemaKeyword),
    ];
    (body, nc)
}

// ---- Anthropic Messages ----------------------------------------------------

fn city() -> Value {
    json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})
}

pub(crate) fn anthropic() -> Value {
    json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 16000,
        "system": [{"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}],
        "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "Weather in Paris?"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
            ]},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Need the weather.", "signature": "sig123"},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "18C"}]}
            ]},
            {"role": "assistant", "content": "18C in Paris."},
            {"role": "user", "content": "Thanks"}
        ],
        "tools": [
            {"name": "get_weather", "description": "Weather", "input_schema": city()},
            {"type": "web_search_20250305", "name": "web_search", "max_uses": 3}
        ],
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": true},
        "thinking": {"type": "enabled", "budget_tokens": 8192},
        "temperature": 1,
        "stop_sequences": ["END"],
        "output_config": {"format": {"type": "json_schema", "schema": reply_open()}},
        "stream": true,
        "metadata": {"user_id": "u1"}
    })
}

pub(crate) fn anthropic_to_responses() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "model": "claude-sonnet-4-5",
        "instructions": "You are terse.",
        "input": [
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "Weather in Paris?"},
                {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "detail": "auto"}
            ]},
            {"type": "function_call", "call_id": "toolu_1", "name": "get_weather",
             "arguments": "{\"city\":\"Paris\"}"},
            {"type": "function_call_output", "call_id": "toolu_1", "output": "18C"},
            {"type": "message", "role": "assistant", "content": "18C in Paris."},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Thanks"}]}
        ],
        "tools": [{"type": "function", "name": "get_weather", "description": "Weather",
                   "parameters": city(), "strict": false}],
        "tool_choice": "auto",
        "parallel_tool_calls": false,
        "text": {"format": {"type": "json_schema", "name": "response", "schema": reply_open()}},
        "max_output_tokens": 16000,
        "temperature": 1,
        "reasoning": {"effort": "medium"},
        "stream": true
    });
    let nc = vec![
        ("/messages/1/content/0", Reasoning),
        ("/metadata", UnknownField),
        ("/stop_sequences", Unsupported),
        ("/system/0/cache_control", UnknownField),
        ("/tools/1", Unsupported),
    ];
    (body, nc)
}

pub(crate) fn anthropic_to_chat() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "model": "claude-sonnet-4-5",
        "messages": [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": [
                {"type": "text", "text": "Weather in Paris?"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
            ]},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "toolu_1", "type": "function",
                "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
            {"role": "tool", "tool_call_id": "toolu_1", "content": "18C"},
            {"role": "assistant", "content": "18C in Paris."},
            {"role": "user", "content": "Thanks"}
        ],
        "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather",
                   "parameters": city()}}],
        "tool_choice": "auto",
        "parallel_tool_calls": false,
        "response_format": {"type": "json_schema", "json_schema": {"name": "response", "schema": reply_open()}},
        "max_completion_tokens": 16000,
        "temperature": 1,
        "stop": ["END"],
        "reasoning_effort": "medium",
        "stream": true,
        "stream_options": {"include_usage": true}
    });
    let nc = vec![
        ("/messages/1/content/0", Reasoning),
        ("/metadata", UnknownField),
        ("/system/0/cache_control", UnknownField),
        ("/tools/1", Unsupported),
    ];
    (body, nc)
}

pub(crate) fn anthropic_to_gemini() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "systemInstruction": {"parts": [{"text": "You are terse."}]},
        "contents": [
            {"role": "user", "parts": [
                {"text": "Weather in Paris?"},
                {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}
            ]},
            {"role": "model", "parts": [
                {"functionCall": {"id": "toolu_1", "name": "get_weather", "args": {"city": "Paris"}}}
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"id": "toolu_1", "name": "get_weather", "response": {"output": "18C"}}}
            ]},
            {"role": "model", "parts": [{"text": "18C in Paris."}]},
            {"role": "user", "parts": [{"text": "Thanks"}]}
        ],
        "tools": [{"functionDeclarations": [{"name": "get_weather", "description": "Weather", "parameters": city()}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "generationConfig": {
            "temperature": 1, "maxOutputTokens": 16000, "stopSequences": ["END"],
            "responseMimeType": "application/json", "responseSchema": reply_open(),
            "thinkingConfig": {"thinkingBudget": 8192}
        }
    });
    let nc = vec![
        ("/messages/1/content/0", Reasoning),
        ("/metadata", UnknownField),
        ("/system/0/cache_control", UnknownField),
        ("/tool_choice/disable_parallel_tool_use", Unsupported),
        ("/tools/1", Unsupported),
    ];
    (body, nc)
}

// ---- Gemini -----------------------------------------------------------------

pub(crate) fn gemini() -> Value {
    json!({
        "systemInstruction": {"parts": [{"text": "You are terse."}]},
        "contents": [
            {"role": "user", "parts": [
                {"text": "Weather in Paris?"},
                {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}
            ]},
            {"role": "model", "parts": [
                {"text": "Let me think.", "thought": true},
                {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                 "thoughtSignature": "c2lnbmF0dXJl"}
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "get_weather", "response": {"output": "18C"}}}
            ]},
            {"role": "model", "parts": [{"text": "18C in Paris."}]},
            {"role": "user", "parts": [{"text": "Thanks"}]}
        ],
        "tools": [
            {"functionDeclarations": [{"name": "get_weather", "description": "Weather",
                "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING", "nullable": true}},
                               "required": ["city"]}}]},
            {"googleSearch": {}}
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY"}},
        "generationConfig": {
            "temperature": 0.7, "topP": 0.95, "topK": 40, "maxOutputTokens": 8000,
            "stopSequences": ["END"], "responseMimeType": "application/json",
            "responseSchema": {"type": "OBJECT", "properties": {"reply": {"type": "STRING"}}},
            "thinkingConfig": {"thinkingBudget": 2048, "includeThoughts": true}
        },
        "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}]
    })
}

fn city_nullable() -> Value {
    json!({"type": "object", "properties": {"city": {"type": ["string", "null"]}}, "required": ["city"]})
}

pub(crate) fn gemini_to_responses() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "model": GEMINI_MODEL,
        "instructions": "You are terse.",
        "input": [
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "Weather in Paris?"},
                {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "detail": "auto"}
            ]},
            {"type": "function_call", "call_id": "call_1_1", "name": "get_weather",
             "arguments": "{\"city\":\"Paris\"}"},
            {"type": "function_call_output", "call_id": "call_1_1", "output": "18C"},
            {"type": "message", "role": "assistant", "content": "18C in Paris."},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Thanks"}]}
        ],
        "tools": [{"type": "function", "name": "get_weather", "description": "Weather",
                   "parameters": city_nullable(), "strict": false}],
        "tool_choice": "required",
        "text": {"format": {"type": "json_schema", "name": "response", "schema": reply_open()}},
        "max_output_tokens": 8000,
        "temperature": 0.7,
        "top_p": 0.95,
        "reasoning": {"effort": "low", "summary": "auto"},
        "stream": true
    });
    let nc = vec![
        ("/contents/1/parts/0", Reasoning),
        ("/contents/1/parts/1/thoughtSignature", Reasoning),
        ("/generationConfig/stopSequences", Unsupported),
        ("/generationConfig/topK", Unsupported),
        ("/safetySettings", UnknownField),
        ("/tools/1/googleSearch", Unsupported),
    ];
    (body, nc)
}

pub(crate) fn gemini_to_chat() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "model": GEMINI_MODEL,
        "messages": [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": [
                {"type": "text", "text": "Weather in Paris?"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
            ]},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1_1", "type": "function",
                "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]},
            {"role": "tool", "tool_call_id": "call_1_1", "content": "18C"},
            {"role": "assistant", "content": "18C in Paris."},
            {"role": "user", "content": "Thanks"}
        ],
        "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather",
                   "parameters": city_nullable()}}],
        "tool_choice": "required",
        "response_format": {"type": "json_schema", "json_schema": {"name": "response", "schema": reply_open()}},
        "max_completion_tokens": 8000,
        "temperature": 0.7,
        "top_p": 0.95,
        "stop": ["END"],
        "reasoning_effort": "low",
        "stream": true,
        "stream_options": {"include_usage": true}
    });
    let nc = vec![
        ("/contents/1/parts/0", Reasoning),
        ("/contents/1/parts/1/thoughtSignature", Reasoning),
        (
            "/generationConfig/thinkingConfig/includeThoughts",
            Unsupported,
        ),
        ("/generationConfig/topK", Unsupported),
        ("/safetySettings", UnknownField),
        ("/tools/1/googleSearch", Unsupported),
    ];
    (body, nc)
}

pub(crate) fn gemini_to_anthropic() -> (Value, Vec<(&'static str, NotCarriedKind)>) {
    let body = json!({
        "model": GEMINI_MODEL,
        "max_tokens": 8000,
        "system": "You are terse.",
        "messages": [
            {"role": "user", "content": [
                {"type": "text", "text": "Weather in Paris?"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
            ]},
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "call_1_1", "name": "get_weather", "input": {"city": "Paris"}}
            ]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1_1", "content": "18C"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "18C in Paris."}]},
            {"role": "user", "content": [{"type": "text", "text": "Thanks"}]}
        ],
        "tools": [{"name": "get_weather", "description": "Weather", "input_schema": city_nullable()}],
        "tool_choice": {"type": "any"},
        "temperature": 0.7,
        "top_p": 0.95,
        "top_k": 40,
        "stop_sequences": ["END"],
        "output_config": {"format": {"type": "json_schema", "schema": reply_open()}},
        "stream": true
    });
    let nc = vec![
        ("/contents/1/parts/0", Reasoning),
        ("/contents/1/parts/1/thoughtSignature", Reasoning),
        (
            "/generationConfig/thinkingConfig/includeThoughts",
            Unsupported,
        ),
        (
            "/generationConfig/thinkingConfig/thinkingBudget",
            Unsupported,
        ),
        ("/safetySettings", UnknownField),
        ("/tools/1/googleSearch", Unsupported),
    ];
    (body, nc)
}
