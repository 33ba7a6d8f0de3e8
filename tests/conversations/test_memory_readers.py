"""`allowed_readers` holds for every reader: REST callers are agents (issue 13, line 7)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conversations.services.context import context_preview
from memories.models import Reader

pytestmark = pytest.mark.django_db

QUESTION = "What do I drink every morning?"


def _write(api: Any, content: str, **fields: Any) -> str:
    response = api.post(
        "/api/v1/memories/", {"type": "preference", "content": content, **fields}, format="json"
    )
    assert response.status_code == 201, response.content
    return str(response.json()["id"])


def _agent_sees(api: Any, text: str) -> bool:
    context = api.post("/api/v1/context/", {"message": QUESTION}, format="json")
    search = api.post("/api/v1/search/", {"query": QUESTION, "k": 20}, format="json")
    assert (context.status_code, search.status_code) == (200, 200)
    return text in json.dumps([context.json(), search.json()], ensure_ascii=False)


def test_a_high_sensitivity_memory_never_reaches_an_agent_but_the_users_page_shows_it(
    api, client, user
):
    _write(api, "I drink matcha latte every morning", sensitivity="high")
    _write(api, "I drink black coffee every morning")

    memories = api.post("/api/v1/context/", {"message": QUESTION}, format="json").json()
    client.force_login(user)
    page = client.get("/memories/").content.decode()

    assert [m["content"] for m in memories["memories"]] == ["I drink black coffee every morning"]
    assert not _agent_sees(api, "matcha")
    assert "matcha latte" in page


def test_a_memory_whose_readers_exclude_agents_stays_out_of_search_and_context(api):
    _write(api, "I drink matcha latte every morning", allowed_readers=["assistant"])

    assert not _agent_sees(api, "matcha")


def test_a_memory_open_to_every_reader_reaches_an_agent(api):
    _write(api, "I drink matcha latte every morning", allowed_readers=["*"])

    memories = api.post("/api/v1/context/", {"message": QUESTION}, format="json").json()

    assert [m["content"] for m in memories["memories"]] == ["I drink matcha latte every morning"]


def test_the_chat_assistant_still_gets_a_high_sensitivity_memory(api, user):
    _write(api, "I drink matcha latte every morning", sensitivity="high")

    for_assistant = context_preview(
        user=user, content=QUESTION, session=None, reader=Reader.ASSISTANT
    )
    for_agent = context_preview(user=user, content=QUESTION, session=None, reader=Reader.AGENT)

    assert [m.content for m in for_assistant.memories] == ["I drink matcha latte every morning"]
    assert for_agent.memories == []
