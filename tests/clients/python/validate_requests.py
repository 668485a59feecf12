"""Validates request bodies with the official Python SDKs' own types.

Reads a JSON array of {"name", "dialect", "body"} from the file named on the
command line and prints one JSON line per case: {"name", "ok", "error"}.

* gemini: google-genai's pydantic models (`Content`, `Tool`, `ToolConfig`,
  `GenerationConfig`), which forbid unknown fields; the body may hold only
  the fields of a `generateContent` request.
* anthropic, chat, responses: the SDKs' request TypedDicts
  (`MessageCreateParamsStreaming`, `CompletionCreateParamsStreaming`,
  `ResponseCreateParamsStreaming`) through pydantic's `TypeAdapter`, which
  checks required fields, literals and types (unknown keys are allowed by
  TypedDicts); lazily validated iterables are walked so that every element
  is checked.
"""

import json
import sys
from collections.abc import Iterator

from pydantic import TypeAdapter
from google.genai import types as g
from anthropic.types import message_create_params as amp
from openai.types.chat import completion_create_params as ccp
from openai.types.responses import response_create_params as rcp

ADAPTERS = {
    "anthropic": (TypeAdapter(amp.MessageCreateParamsStreaming), TypeAdapter(amp.MessageCreateParamsNonStreaming)),
    "chat": (TypeAdapter(ccp.CompletionCreateParamsStreaming), TypeAdapter(ccp.CompletionCreateParamsNonStreaming)),
    "responses": (TypeAdapter(rcp.ResponseCreateParamsStreaming), TypeAdapter(rcp.ResponseCreateParamsNonStreaming)),
}

GEMINI_FIELDS = {
    "contents": None,
    "systemInstruction": g.Content,
    "tools": g.Tool,
    "toolConfig": g.ToolConfig,
    "generationConfig": g.GenerationConfig,
    "safetySettings": None,
}


def walk(v):
    """Forces pydantic's lazy iterable validation, element by element."""
    if isinstance(v, dict):
        for x in v.values():
            walk(x)
    elif isinstance(v, (list, tuple)):
        for x in v:
            walk(x)
    elif isinstance(v, Iterator):
        for x in v:
            walk(x)


def gemini(body):
    for key, value in body.items():
        if key not in GEMINI_FIELDS:
            raise ValueError(f"unknown field {key}")
        if key == "contents":
            for c in value:
                g.Content.model_validate(c)
        elif key == "tools":
            for t in value:
                g.Tool.model_validate(t)
        elif key == "safetySettings":
            for t in value:
                g.SafetySetting.model_validate(t)
        else:
            GEMINI_FIELDS[key].model_validate(value)


def check(case):
    body = case["body"]
    if case["dialect"] == "gemini":
        gemini(body)
        return
    streaming, non_streaming = ADAPTERS[case["dialect"]]
    adapter = streaming if body.get("stream") else non_streaming
    walk(adapter.validate_python(body))


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    for case in cases:
        try:
            check(case)
            out = {"name": case["name"], "ok": True, "error": None}
        except Exception as e:  # the SDK's validation error, reported per case
            out = {"name": case["name"], "ok": False, "error": str(e)[:2000]}
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
