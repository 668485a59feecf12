"""Reads streams with an official Python client and prints what the client assembled.

Usage: python judge.py <client>, with a JSON array of {"id", "base_url"} on standard input;
prints one JSON line per case: {"id", "ok", "error", "shape", "value"}, where `shape` says how
`value` reads ("responses", "chat", "anthropic": the client's final object in that API's shape;
"neutral": {text, reasoning, tools, usage, stop} assembled from the client's typed events).
Each case is bounded by a timeout; retries are off, the key is a dummy, and every URL is the
test's loopback server.
"""

import json
import os
import sys
import warnings

# pydantic warns when it serializes an item type outside a union it declares;
# the value is still dumped, and the test reads standard output only.
warnings.filterwarnings("ignore", category=UserWarning)

TIMEOUT = float(os.environ.get("SSEKIT_CLIENT_TIMEOUT_MS", "20000")) / 1000
KEY = "sk-ssekit-test"
MODEL = "ssekit-model"


_HTTP = {}


def shared_http(sdk):
    """One HTTP client per SDK for the whole run: building one per case (its TLS context)
    costs more than reading the stream."""
    if sdk.__name__ not in _HTTP:
        _HTTP[sdk.__name__] = sdk.DefaultHttpxClient()
    return _HTTP[sdk.__name__]


def openai_client(base):
    import openai

    return openai.OpenAI(
        api_key=KEY,
        base_url=base,
        max_retries=0,
        timeout=TIMEOUT,
        http_client=shared_http(openai),
    )


def responses_create(base):
    """client.responses.create(stream=True): the events as typed by the client, assembled the
    way its users do (text and reasoning deltas, function calls from output_item.done, usage
    and status from the terminal event's response)."""
    client = openai_client(base)
    text, reasoning, tools, terminal = [], [], [], None
    for event in client.responses.create(model=MODEL, input="hi", stream=True):
        t = event.type
        if t == "response.output_text.delta":
            text.append(event.delta)
        elif t in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            reasoning.append(event.delta)
        elif t == "response.output_item.done" and event.item.type == "function_call":
            tools.append({"name": event.item.name, "arguments": event.item.arguments})
        elif t in ("response.completed", "response.incomplete", "response.failed"):
            terminal = event.response
        elif t == "error":
            raise RuntimeError(f"error event: {event.message}")
    if terminal is None:
        raise RuntimeError("no terminal event")
    usage = terminal.usage
    reason = terminal.incomplete_details.reason if terminal.incomplete_details else None
    status = terminal.status if reason is None else f"{terminal.status}:{reason}"
    return "neutral", {
        "text": "".join(text),
        "reasoning": "".join(reasoning),
        "tools": tools,
        "usage": {
            "input": usage.input_tokens if usage else None,
            "output": usage.output_tokens if usage else None,
        },
        "stop": "responses:" + status,
    }


def responses_stream(base):
    """client.responses.stream() + get_final_response()."""
    client = openai_client(base)
    with client.responses.stream(model=MODEL, input="hi") as stream:
        for _ in stream:
            pass
        final = stream.get_final_response()
    return "responses", final.model_dump(mode="json", warnings=False)


def chat_stream(base):
    """client.chat.completions.stream() + get_final_completion()."""
    client = openai_client(base)
    with client.chat.completions.stream(
        model=MODEL, messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        for _ in stream:
            pass
        final = stream.get_final_completion()
    return "chat", final.model_dump(mode="json", warnings=False)


def anthropic_stream(base):
    """client.messages.stream() + get_final_message()."""
    import anthropic

    client = anthropic.Anthropic(
        api_key=KEY,
        base_url=base,
        max_retries=0,
        timeout=TIMEOUT,
        http_client=shared_http(anthropic),
    )
    with client.messages.stream(
        model=MODEL, max_tokens=1024, messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        for _ in stream:
            pass
        final = stream.get_final_message()
    return "anthropic", final.model_dump(mode="json", warnings=False)


def genai_stream(base):
    """client.models.generate_content_stream(): the chunks as typed by the client, assembled
    the way its users do (text and thought parts, function calls, the last usage and finish
    reason)."""
    from google import genai
    from google.genai import types

    client = genai.Client(
        api_key=KEY,
        http_options=types.HttpOptions(
            base_url=base,
            api_version="v1beta",
            timeout=int(TIMEOUT * 1000),
            retry_options=types.HttpRetryOptions(attempts=1),
        ),
    )
    return "neutral", genai_answer(
        client.models.generate_content_stream(model="gemini-2.5-flash", contents="hi")
    )


# Required members the pinned SDK's models have that the API added after the corpus was
# recorded: a recorded object that lacks only these is what the API sent then, and passes.
# Only an upstream's own object rendered in its own dialect (a case whose id ends `-own`)
# may lack them: the writers write every one.
NEWER_THAN_RECORDINGS = {("usage", "input_tokens_details", "cache_write_tokens")}
OWN_OBJECT = False


def strictly(model, body, newer=frozenset()):
    """Validates `body` with `model`; errors other than a missing member of `newer` raise."""
    from pydantic import ValidationError

    try:
        model.model_validate(body)
    except ValidationError as e:
        rest = [x for x in e.errors() if not (x["type"] == "missing" and tuple(x["loc"]) in newer)]
        if rest:
            raise


def responses_final(base):
    """client.responses.create() without stream: the client's Response, and the same body
    validated strictly by the SDK's pydantic model (required fields and types)."""
    from openai.types.responses import Response

    client = openai_client(base)
    raw = client.responses.with_raw_response.create(model=MODEL, input="hi")
    newer = NEWER_THAN_RECORDINGS if OWN_OBJECT else frozenset()
    strictly(Response, json.loads(raw.http_response.text), newer)
    final = raw.parse()
    return "responses", final.model_dump(mode="json", warnings=False)


def chat_final(base):
    """client.chat.completions.create() without stream, and the body validated strictly.

    A choice whose finish_reason is null (a stream that failed before the choice said why it
    stopped, rendered as the upstream sent it) is validated with that one member set, and the
    reply says so under "null_finish_reason": the test accepts it only for a failed stream."""
    from openai.types.chat import ChatCompletion

    client = openai_client(base)
    raw = client.chat.completions.with_raw_response.create(
        model=MODEL, messages=[{"role": "user", "content": "hi"}]
    )
    body = json.loads(raw.http_response.text)
    unsaid = [c for c in body.get("choices") or [] if c.get("finish_reason") is None]
    for choice in unsaid:
        choice["finish_reason"] = "stop"
    ChatCompletion.model_validate(body)
    final = raw.parse().model_dump(mode="json", warnings=False)
    if unsaid:
        final["null_finish_reason"] = True
    return "chat", final


def anthropic_final(base):
    """client.messages.create() without stream, and the body validated strictly."""
    import anthropic
    from anthropic.types import Message

    client = anthropic.Anthropic(
        api_key=KEY,
        base_url=base,
        max_retries=0,
        timeout=TIMEOUT,
        http_client=shared_http(anthropic),
    )
    raw = client.messages.with_raw_response.create(
        model=MODEL, max_tokens=1024, messages=[{"role": "user", "content": "hi"}]
    )
    Message.model_validate(json.loads(raw.http_response.text))
    final = raw.parse()
    return "anthropic", final.model_dump(mode="json", warnings=False)


def genai_final(base):
    """client.models.generate_content(): the client's GenerateContentResponse (which
    google-genai validates with its pydantic model), read as its users read it."""
    from google import genai
    from google.genai import types

    client = genai.Client(
        api_key=KEY,
        http_options=types.HttpOptions(
            base_url=base,
            api_version="v1beta",
            timeout=int(TIMEOUT * 1000),
            retry_options=types.HttpRetryOptions(attempts=1),
        ),
    )
    r = client.models.generate_content(model="gemini-2.5-flash", contents="hi")
    return "neutral", genai_answer([r])


def genai_answer(chunks):
    """The neutral answer of GenerateContentResponse objects, in order."""
    text, reasoning, tools = [], [], []
    usage, finish, blocked = None, None, False
    for chunk in chunks:
        if chunk.usage_metadata is not None:
            usage = chunk.usage_metadata
        if chunk.prompt_feedback is not None and chunk.prompt_feedback.block_reason is not None:
            blocked = True
        for cand in chunk.candidates or []:
            if (cand.index or 0) != 0:
                continue
            if cand.finish_reason is not None:
                finish = cand.finish_reason
            for part in (cand.content.parts if cand.content and cand.content.parts else []):
                if part.function_call is not None:
                    tools.append(
                        {
                            "name": part.function_call.name,
                            "arguments": json.dumps(part.function_call.args or {}),
                        }
                    )
                elif part.text is not None:
                    (reasoning if part.thought else text).append(part.text)
    stop = None
    if finish is not None:
        stop = "gemini:" + (finish.value if hasattr(finish, "value") else str(finish))
    elif blocked:
        # A prompt blocked before any candidate, in the neutral vocabulary.
        stop = "content-filter"
    return {
        "text": "".join(text),
        "reasoning": "".join(reasoning),
        "tools": tools,
        "usage": {
            "input": (usage.prompt_token_count or 0) if usage else None,
            # Every generated token, thoughts included, as the other dialects count them.
            "output": (usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0)
            if usage
            else None,
        },
        "stop": stop,
    }


CLIENTS = {
    "openai-py.responses.create": responses_create,
    "openai-py.responses.stream": responses_stream,
    "openai-py.chat.stream": chat_stream,
    "anthropic-py.messages.stream": anthropic_stream,
    "genai-py.generate_content_stream": genai_stream,
    "openai-py.responses.create.final": responses_final,
    "openai-py.chat.create.final": chat_final,
    "anthropic-py.messages.create.final": anthropic_final,
    "genai-py.generate_content.final": genai_final,
}


def main():
    global OWN_OBJECT
    name = sys.argv[1] if len(sys.argv) > 1 else ""
    run = CLIENTS.get(name)
    if run is None:
        print(f"unknown client {name}; known: {', '.join(CLIENTS)}", file=sys.stderr)
        sys.exit(2)
    for case in json.load(sys.stdin):
        OWN_OBJECT = case["id"].endswith("-own")
        try:
            shape, value = run(case["base_url"])
            line = {"id": case["id"], "ok": True, "error": None, "shape": shape, "value": value}
        except Exception as e:  # the client's rejection is the finding
            msg = f"{type(e).__name__}: {e}"[:2000]
            line = {"id": case["id"], "ok": False, "error": msg, "shape": None, "value": None}
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
