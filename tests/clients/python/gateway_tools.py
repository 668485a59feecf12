"""A multi-turn exchange with a tool call through the gateway of tests/gateway, as a user of the
official google-genai client writes it: ask with a function declaration (the first turn streamed),
send the function response back with the call's id and name (the second turn not streamed), print
the final answer.

Usage: python gateway_tools.py genai <gateway base URL>; prints one JSON line:
{"ok", "error", "call": {"id", "name", "args"}, "text"}."""

import json
import sys

KEY = "sk-client-key"
QUESTION = "What is the weather in Paris?"
RESULT = "18C and sunny"


def genai(base):
    from google import genai
    from google.genai import types

    client = genai.Client(
        api_key=KEY,
        http_options=types.HttpOptions(
            base_url=base,
            api_version="v1beta",
            timeout=20000,
            retry_options=types.HttpRetryOptions(attempts=1),
        ),
    )
    tool = types.Tool(
        function_declarations=[
            types.FunctionDeclaration(
                name="get_weather",
                description="The weather",
                parameters=types.Schema(
                    type="OBJECT",
                    properties={"city": types.Schema(type="STRING", description="The city")},
                    required=["city"],
                ),
            )
        ]
    )
    config = types.GenerateContentConfig(
        tools=[tool],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    contents = [types.Content(role="user", parts=[types.Part(text=QUESTION)])]
    parts = []
    for chunk in client.models.generate_content_stream(
        model="gemini-test", contents=contents, config=config
    ):
        for cand in chunk.candidates or []:
            parts.extend((cand.content and cand.content.parts) or [])
    call = next(p.function_call for p in parts if p.function_call)
    contents += [
        types.Content(role="model", parts=parts),
        types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        id=call.id, name=call.name, response={"output": RESULT}
                    )
                )
            ],
        ),
    ]
    answer = client.models.generate_content(model="gemini-test", contents=contents, config=config)
    text = "".join(
        p.text or ""
        for p in (answer.candidates[0].content.parts or [])
        if p.text and not p.thought
    )
    return {"call": {"id": call.id, "name": call.name, "args": dict(call.args or {})}, "text": text}


if __name__ == "__main__":
    name, base = sys.argv[1], sys.argv[2]
    try:
        out = {"ok": True, **{"genai": genai}[name](base)}
    except Exception as e:  # the test reads the error
        out = {"ok": False, "error": f"{type(e).__name__}: {e}"[:2000]}
    print(json.dumps(out))
