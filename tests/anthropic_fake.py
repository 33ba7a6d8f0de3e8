"""A fake Anthropic Messages API behind httpx.MockTransport, for the real SDK to talk to."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2 as httpx


def _sse(events: list[dict[str, Any]]) -> bytes:
    return "".join(
        f"event: {event['type']}\ndata: {json.dumps(event, ensure_ascii=False)}\n\n"
        for event in events
    ).encode()


def stream_body(
    *,
    text: str = "",
    tool_use: dict[str, Any] | None = None,
    input_tokens: int = 30,
    output_tokens: int = 12,
    model: str = "claude-sonnet-4-6",
) -> bytes:
    """An SSE body as the Messages API streams it: text deltas, then maybe one tool_use."""
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {
                "id": "msg_fake",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": input_tokens, "output_tokens": 1},
            },
        },
    ]
    index = 0
    if text:
        events.append(
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            }
        )
        for piece in [text[i : i + 5] for i in range(0, len(text), 5)]:
            events.append(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": piece},
                }
            )
        events.append({"type": "content_block_stop", "index": index})
        index += 1
    if tool_use:
        events.append(
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {
                    "type": "tool_use",
                    "id": tool_use["id"],
                    "name": tool_use["name"],
                    "input": {},
                },
            }
        )
        events.append(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {
                    "type": "input_json_delta",
                    "partial_json": json.dumps(tool_use["input"]),
                },
            }
        )
        events.append({"type": "content_block_stop", "index": index})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use" if tool_use else "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": output_tokens},
        }
    )
    events.append({"type": "message_stop"})
    return _sse(events)


def message_body(text: str, *, input_tokens: int = 20, output_tokens: int = 1) -> dict[str, Any]:
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": "claude-haiku-4-5",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    }


class FakeAnthropic:
    """Answers each POST /v1/messages with the next scripted response; records requests."""

    def __init__(self, responses: list[Callable[[dict[str, Any]], httpx.Response]]) -> None:
        self.responses = list(responses)
        self.requests: list[dict[str, Any]] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v1/messages", request.url
        assert "test-key" in (
            request.headers.get("x-api-key", "") + request.headers.get("authorization", "")
        )
        body = json.loads(request.content)
        self.requests.append(body)
        if not self.responses:
            return httpx.Response(
                500, json={"type": "error", "error": {"type": "api_error", "message": "no script"}}
            )
        return self.responses.pop(0)(body)

    def client(self) -> anthropic.Anthropic:
        return anthropic.Anthropic(
            api_key="test-key",
            max_retries=0,
            http_client=httpx.Client(transport=httpx.MockTransport(self.handler)),
        )


def streamed(**kwargs: Any) -> Callable[[dict[str, Any]], httpx.Response]:
    body = stream_body(**kwargs)
    return lambda _request: httpx.Response(
        200, content=body, headers={"content-type": "text/event-stream"}
    )


def completed(text: str, **kwargs: Any) -> Callable[[dict[str, Any]], httpx.Response]:
    return lambda _request: httpx.Response(200, json=message_body(text, **kwargs))


def failing(status: int = 529) -> Callable[[dict[str, Any]], httpx.Response]:
    return lambda _request: httpx.Response(
        status, json={"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
    )
