"""A fake Anthropic API that answers by what is asked (for flows with many LLM steps)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2 as httpx

from tests.anthropic_fake import message_body, stream_body

Rule = tuple[str, Callable[[str], str]]


class ScriptedAnthropic:
    """Streams `reply` for chat requests; answers other prompts by the first matching rule."""

    def __init__(self, rules: list[Rule], reply: str = "네, 기억하고 있어요.") -> None:
        self.rules = rules
        self.reply = reply
        self.prompts: list[str] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        body: dict[str, Any] = json.loads(request.content)
        if body.get("stream"):
            return httpx.Response(
                200, content=stream_body(text=self.reply),
                headers={"content-type": "text/event-stream"},
            )  # fmt: skip
        prompt = body["messages"][-1]["content"]
        prompt = prompt if isinstance(prompt, str) else json.dumps(prompt, ensure_ascii=False)
        self.prompts.append(prompt)
        for needle, answer in self.rules:
            if needle in prompt:
                return httpx.Response(200, json=message_body(answer(prompt)))
        return httpx.Response(200, json=message_body("?"))

    def client(self) -> anthropic.Anthropic:
        return anthropic.Anthropic(
            api_key="test-key", max_retries=0,
            http_client=httpx.Client(transport=httpx.MockTransport(self.handler)),
        )  # fmt: skip
