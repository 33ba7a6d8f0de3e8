"""The language-model seam: the only module that imports `anthropic`.

`get_provider()` returns the Anthropic provider when `ANTHROPIC_API_KEY` is set and the offline
provider otherwise. Both stream replies through `stream_reply()`; the Anthropic provider runs a
bounded tool-use loop. Every call is recorded as an `LLMCall` (tokens, cost, latency) so cost
per user and per task shows in admin.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal, Protocol

import anthropic
from anthropic.types import TextBlock, ToolUseBlock, Usage
from django.conf import settings
from django.utils import timezone

from memoryhub import offline_reply
from memoryhub import text as text_analysis
from memoryhub.models import LLMCall

logger = logging.getLogger(__name__)

OFFLINE_MODEL = "offline"

# USD per million tokens (input, output), matched by the longest model-name prefix.
PRICES_PER_MILLION: dict[str, tuple[Decimal, Decimal]] = {
    "claude-opus-4-5": (Decimal("5"), Decimal("25")),
    "claude-opus-4": (Decimal("15"), Decimal("75")),
    "claude-sonnet-4": (Decimal("3"), Decimal("15")),
    "claude-3-7-sonnet": (Decimal("3"), Decimal("15")),
    "claude-haiku-4": (Decimal("1"), Decimal("5")),
    "claude-3-5-haiku": (Decimal("0.8"), Decimal("4")),
    "claude-3-haiku": (Decimal("0.25"), Decimal("1.25")),
}


class LLMError(RuntimeError):
    """The model could not be reached or refused the request."""


@dataclass(frozen=True)
class Turn:
    role: Literal["user", "assistant"]
    content: str


@dataclass(frozen=True)
class Tool:
    """A tool the model may call; `run` takes the validated input and returns text."""

    name: str
    description: str
    input_schema: dict[str, Any]
    run: Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class ReplyRequest:
    system: str
    turns: Sequence[Turn]
    user_id: int | None = None
    tools: Sequence[Tool] = ()
    # What the offline reply says it recalls; called only by the offline provider, so a reply
    # by a model never pays for the search behind it.
    recall: Callable[[], offline_reply.Recollection] | None = None
    task: str = "chat_reply"
    max_tokens: int = field(default_factory=lambda: settings.MEMORYHUB_REPLY_MAX_TOKENS)
    # The language the user writes in ("ko"/"en"), for a message with no letters to tell it
    # ("🙏"); "" when unknown.
    language: str = ""


class Provider(Protocol):
    name: str
    offline: bool

    def stream_reply(self, request: ReplyRequest) -> Iterator[str]:
        """Yield the reply's text as it is produced."""
        ...

    def complete(
        self,
        *,
        task: str,
        prompt: str,
        system: str = "",
        max_tokens: int = 64,
        user_id: int | None = None,
    ) -> str:
        """One short, non-streamed answer from the light model."""
        ...


def cost_usd(model: str, input_tokens: int, output_tokens: int) -> Decimal:
    """Estimated cost; `MEMORYHUB_LLM_PRICES` adds or overrides prices."""
    prices = {**PRICES_PER_MILLION, **settings.MEMORYHUB_LLM_PRICES}
    prefix = max((p for p in prices if model.startswith(p)), key=len, default=None)
    if prefix is None:
        if model != OFFLINE_MODEL:
            logger.warning("no price for model %s; set MEMORYHUB_LLM_PRICES", model)
        return Decimal("0")
    price_in, price_out = prices[prefix]
    total = (price_in * input_tokens + price_out * output_tokens) / Decimal(1_000_000)
    return total.quantize(Decimal("0.000001"))


def record_call(
    *,
    user_id: int | None,
    task: str,
    provider: str,
    model: str,
    input_tokens: int,
    output_tokens: int,
    started: float,
    ok: bool = True,
    error: str = "",
) -> None:
    """Store one LLM call; a failure to record never breaks the reply."""
    try:
        LLMCall.objects.create(
            user_id=user_id,
            task=task[:64],
            provider=provider,
            model=model[:128],
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_usd=cost_usd(model, input_tokens, output_tokens),
            latency_ms=int((time.monotonic() - started) * 1000),
            ok=ok,
            error=error[:500],
        )
    except Exception:  # the database may be down; the reply still matters more
        logger.exception("could not record LLM call for task %s", task)


# --- Anthropic --------------------------------------------------------------------------------


def llm_calls_erase_for_user(*, user_id: int) -> int:
    """Delete the user's records of model calls (erasing all their data); how many."""
    deleted, _ = LLMCall.objects.filter(user_id=user_id).delete()
    return deleted


def _block_param(block: Any) -> dict[str, Any]:
    if isinstance(block, TextBlock):
        return {"type": "text", "text": block.text}
    if isinstance(block, ToolUseBlock):
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    raise LLMError(f"unexpected content block {block.type!r}")


class AnthropicProvider:
    name = "anthropic"
    offline = False

    def __init__(self, client: Any | None = None) -> None:
        self._client = client or anthropic.Anthropic(
            api_key=settings.ANTHROPIC_API_KEY,
            timeout=settings.MEMORYHUB_LLM_TIMEOUT_SECONDS,
            max_retries=2,
        )

    def stream_reply(self, request: ReplyRequest) -> Iterator[str]:
        from memoryhub import budget

        budget.token_budget_check(user_id=request.user_id)
        model = settings.MEMORYHUB_CHAT_MODEL
        messages: list[dict[str, Any]] = [
            {"role": turn.role, "content": turn.content} for turn in request.turns
        ]
        tools_by_name = {tool.name: tool for tool in request.tools}
        tool_params = [
            {"name": t.name, "description": t.description, "input_schema": t.input_schema}
            for t in request.tools
        ]
        calls_left = settings.MEMORYHUB_MAX_TOOL_CALLS
        # A model that keeps asking for tools after they are forbidden is cut off here,
        # so one reply never costs more than MEMORYHUB_MAX_TOOL_CALLS + 2 requests.
        tool_rounds_left = calls_left + 1
        while True:
            kwargs: dict[str, Any] = {
                "model": model,
                "max_tokens": request.max_tokens,
                "system": request.system,
                "messages": messages,
            }
            if tool_params:
                kwargs["tools"] = tool_params
                # Past the limit the model must answer with what it has.
                kwargs["tool_choice"] = {"type": "auto" if calls_left > 0 else "none"}
            started = time.monotonic()
            try:
                with self._client.messages.stream(**kwargs) as stream:
                    yield from stream.text_stream
                    final = stream.get_final_message()
            except anthropic.APIError as exc:
                self._record(
                    user_id=request.user_id,
                    task=request.task,
                    model=model,
                    started=started,
                    error=exc,
                )
                raise LLMError(str(exc)) from exc
            self._record(
                user_id=request.user_id,
                task=request.task,
                model=model,
                started=started,
                usage=final.usage,
            )
            uses = [block for block in final.content if isinstance(block, ToolUseBlock)]
            if final.stop_reason != "tool_use" or not uses:
                return
            if tool_rounds_left <= 0:
                logger.warning("reply stopped: the model asked for tools past the limit")
                return
            tool_rounds_left -= 1
            messages.append(
                {"role": "assistant", "content": [_block_param(b) for b in final.content]}
            )
            results = []
            for use in uses:
                tool = tools_by_name.get(use.name)
                if tool is None or calls_left <= 0:
                    output, is_error = f"Tool {use.name!r} is not available now.", True
                else:
                    calls_left -= 1
                    output, is_error = _run_tool(tool, use.input)
                results.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": use.id,
                        "content": output,
                        "is_error": is_error,
                    }
                )
            messages.append({"role": "user", "content": results})
            yield "\n"

    def complete(
        self,
        *,
        task: str,
        prompt: str,
        system: str = "",
        max_tokens: int = 64,
        user_id: int | None = None,
    ) -> str:
        from memoryhub import budget

        budget.token_budget_check(user_id=user_id)
        model = settings.MEMORYHUB_LIGHT_MODEL
        started = time.monotonic()
        try:
            extra: dict[str, Any] = {"system": system} if system else {}
            response = self._client.messages.create(
                model=model,
                max_tokens=max_tokens,
                messages=[{"role": "user", "content": prompt}],
                **extra,
            )
        except anthropic.APIError as exc:
            self._record(user_id=user_id, task=task, model=model, started=started, error=exc)
            raise LLMError(str(exc)) from exc
        self._record(user_id=user_id, task=task, model=model, started=started, usage=response.usage)
        return "".join(block.text for block in response.content if isinstance(block, TextBlock))

    def _record(
        self,
        *,
        user_id: int | None,
        task: str,
        model: str,
        started: float,
        usage: Usage | None = None,
        error: anthropic.APIError | None = None,
    ) -> None:
        """Record one request to the API: the tokens it used, or the error it failed with."""
        record_call(
            user_id=user_id,
            task=task,
            provider=self.name,
            model=model,
            input_tokens=usage.input_tokens if usage is not None else 0,
            output_tokens=usage.output_tokens if usage is not None else 0,
            started=started,
            ok=error is None,
            error=str(error) if error is not None else "",
        )


def _run_tool(tool: Tool, tool_input: Any) -> tuple[str, bool]:
    if not isinstance(tool_input, dict):
        return "Tool input must be a JSON object.", True
    try:
        return tool.run(tool_input), False
    except ValueError as exc:  # bad input from the model: tell it, do not crash the reply
        return f"Invalid input: {exc}", True


# --- offline ----------------------------------------------------------------------------------


class OfflineProvider:
    """A real local mode: answers with what it recalls, in the message's language, and says
    plainly that it runs without a language model."""

    name = "offline"
    offline = True

    def stream_reply(self, request: ReplyRequest) -> Iterator[str]:
        started = time.monotonic()
        message = request.turns[-1].content if request.turns else ""
        words = self.reply_text(message, request)
        output = ""
        for index, word in enumerate(words.split(" ")):
            chunk = word if index == 0 else " " + word
            output += chunk
            yield chunk
        record_call(
            user_id=request.user_id,
            task=request.task,
            provider=self.name,
            model=OFFLINE_MODEL,
            input_tokens=text_analysis.estimate_tokens(request.system + message),
            output_tokens=text_analysis.estimate_tokens(output),
            started=started,
        )

    def reply_text(self, message: str, request: ReplyRequest) -> str:
        recollection = (
            request.recall()
            if request.recall is not None
            else offline_reply.Recollection(question=True)
        )
        language = (
            text_analysis.detect_language(message)
            if text_analysis.has_letters(message) or not request.language
            else request.language
        )
        return offline_reply.compose(
            language=language,
            question=recollection.question,
            kind=recollection.kind,
            recalled=recollection.items,
            today=timezone.localdate(),
            small_talk=recollection.small_talk,
        )

    def complete(
        self,
        *,
        task: str,
        prompt: str,
        system: str = "",
        max_tokens: int = 64,
        user_id: int | None = None,
    ) -> str:
        raise LLMError("the offline provider has no model; callers use their local path")


_provider: Provider | None = None


def get_provider() -> Provider:
    global _provider
    if _provider is None:
        _provider = OfflineProvider() if is_offline() else AnthropicProvider()
    return _provider


def provider_for(*, user_id: int | None) -> Provider:
    """The provider for background work of one user: the offline provider once the user's
    daily token budget is spent (memory keeps working, at no cost), else `get_provider()`."""
    from memoryhub import budget

    provider = get_provider()
    if not provider.offline and budget.token_budget_exhausted(user_id=user_id):
        return OfflineProvider()
    return provider


def set_provider(provider: Provider | None) -> None:
    """Replace the provider (tests, or a process that changes its key); None resets."""
    global _provider
    _provider = provider


def is_offline() -> bool:
    if _provider is not None:
        return _provider.offline
    return not settings.ANTHROPIC_API_KEY
