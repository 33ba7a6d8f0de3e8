"""Fixtures for the memories tests: writing memories, extracting from text, a fake Anthropic."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from memories.models import Memory, MemoryVersion
from memories.services import extraction, revision
from memoryhub import llm
from tests.anthropic_fake import FakeAnthropic


@pytest.fixture
def remember(user: Any) -> Callable[..., Memory]:
    """Write a memory as the user would (POST /memories/)."""

    def write(content: str, type: str = "fact", *, owner: Any = None, **fields: Any) -> Memory:
        return revision.memory_create(user=owner or user, type=type, content=content, **fields)

    return write


@pytest.fixture
def say(user: Any) -> Callable[..., extraction.ExtractionResult]:
    """Run extraction on one user message, as after a chat exchange."""

    def extract(
        text: str,
        *,
        at: datetime | None = None,
        message_id: int | None = None,
        owner: Any = None,
        reply: str = "",
    ) -> extraction.ExtractionResult:
        return extraction.memory_extract_from_exchange(
            user_id=(owner or user).pk,
            user_text=text,
            assistant_text=reply,
            source_message_id=message_id,
            source_session_id=None,
            observed_at=at,
        )

    return extract


@pytest.fixture
def anthropic() -> Callable[[list[Any]], FakeAnthropic]:
    """Install the Anthropic provider talking to a scripted fake Messages API."""

    def install(responses: list[Any]) -> FakeAnthropic:
        fake = FakeAnthropic(responses)
        llm.set_provider(llm.AnthropicProvider(client=fake.client()))
        return fake

    return install


def current(memory: Memory) -> Memory:
    """The memory as stored now."""
    return Memory.objects.select_related("current_version").get(pk=memory.pk)


def version_of(memory: Memory) -> MemoryVersion:
    """The memory's current version (always set once a memory is written)."""
    assert memory.current_version is not None
    return memory.current_version
