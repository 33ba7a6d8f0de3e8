"""The "Connected agents" pages (issue 17 lines 3 and 5): connect an agent and see its token
once with configuration to paste, pause, trust, revoke, and what each agent read and wrote,
in Korean and English; agent calls in the access log."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from memories.models import Agent
from memories.selectors.agents import agent_authenticate
from memories.services.agents import agent_call_record, agent_create, agent_memory_add
from tests.memories.test_pages_i18n import _english_left

pytestmark = pytest.mark.django_db

KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


def _text(response) -> str:
    return unescape(response.content.decode())


def _pre(html: str, element_id: str) -> str:
    found = re.search(rf'<pre class="agent-config" id="{element_id}">(.*?)</pre>', html, re.S)
    assert found, element_id
    return unescape(found.group(1))


def test_connecting_an_agent_shows_its_token_once_with_configuration(logged_in, user):
    response = logged_in.post(
        reverse("account:agents"), {"name": "Claude Code", "access": "read,write"}, **EN
    )

    assert response.status_code == 200
    agent = Agent.objects.get(user=user)
    assert agent.scopes == ["read", "write"]
    html = _text(response)
    token = re.search(r'id="agent-token"[^>]*value="([^"]+)"', html).group(1)
    assert agent_authenticate(token=token) == agent
    desktop = json.loads(_pre(html, "config-desktop"))["mcpServers"]["memoryhub"]
    assert desktop["command"] == "npx" and "mcp-remote" in desktop["args"]
    assert "http://testserver/mcp/" in desktop["args"]
    assert desktop["env"]["AUTH_HEADER"] == f"Bearer {token}"
    cursor = json.loads(_pre(html, "config-cursor"))["mcpServers"]["memoryhub"]
    assert cursor == {
        "url": "http://testserver/mcp/",
        "headers": {"Authorization": f"Bearer {token}"},
    }
    assert _pre(html, "config-code") == (
        "claude mcp add --transport http memoryhub http://testserver/mcp/ "
        f'--header "Authorization: Bearer {token}"'
    )
    # Never again: the list page shows a placeholder, not the token.
    again = _text(logged_in.get(reverse("account:agents"), **EN))
    assert token not in again and "Bearer <token>" in again


def test_a_bad_name_connects_nothing(logged_in):
    response = logged_in.post(reverse("account:agents"), {"name": "  ", "access": "read"}, **EN)

    assert response.status_code == 400
    assert not Agent.objects.exists()


def test_pause_trust_and_revoke_from_the_page(logged_in, user):
    agent, token = agent_create(user=user, name="Cursor", scopes=["read", "write"])
    change = reverse("account:agent-change", args=[agent.pk])

    logged_in.post(change, {"action": "pause"})
    agent.refresh_from_db()
    assert agent.paused_at is not None
    logged_in.post(change, {"action": "resume"})
    logged_in.post(change, {"action": "trust"})
    logged_in.post(change, {"action": "allow_sensitive"})
    agent.refresh_from_db()
    assert agent.paused_at is None and agent.trusted and agent.may_read_sensitive

    response = logged_in.post(change, {"action": "revoke", "back": "detail"})

    assert response.status_code == 302
    assert response["Location"] == reverse("account:agent", args=[agent.pk])
    assert agent_authenticate(token=token) is None
    logged_in.post(change, {"action": "resume"})
    agent.refresh_from_db()
    assert agent.revoked_at is not None  # a revoked agent stays revoked


def test_another_users_agent_is_404_on_every_page(logged_in, other_user):
    theirs, _ = agent_create(user=other_user, name="theirs", scopes=["read"])

    assert logged_in.get(reverse("account:agent", args=[theirs.pk])).status_code == 404
    response = logged_in.post(
        reverse("account:agent-change", args=[theirs.pk]), {"action": "revoke"}
    )
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None
    assert "theirs" not in _text(logged_in.get(reverse("account:agents")))


def test_the_agent_page_shows_what_it_read_and_wrote(logged_in, user, remember):
    agent, _ = agent_create(user=user, name="Claude Desktop", scopes=["read", "write"])
    read = remember("나는 재즈 음악을 즐겨 들어", "preference")
    written = agent_memory_add(agent=agent, content="I am training for a half marathon")
    agent_call_record(agent=agent, tool="search_memory", memory_ids=[read.pk])
    agent_call_record(agent=agent, tool="add_memory", memory_ids=[written.pk])

    html = _text(logged_in.get(reverse("account:agent", args=[agent.pk]), **EN))

    assert "I am training for a half marathon" in html
    assert "Searched your memories" in html and "Added a memory" in html
    assert reverse("memories:detail", args=[read.pk]) in html
    assert "나는 재즈 음악을 즐겨 들어" not in html  # the log holds ids, not text


def test_agent_calls_are_in_the_access_log_under_the_agents_name(logged_in, user, remember):
    agent, _ = agent_create(user=user, name="My laptop agent", scopes=["read"])
    memory = remember("I keep bees on my roof", "fact")
    agent_call_record(agent=agent, tool="list_memories", memory_ids=[memory.pk])

    html = _text(logged_in.get(reverse("memories:access-log"), **EN))

    assert "My laptop agent" in html and "Listed your memories" in html
    assert reverse("memories:detail", args=[memory.pk]) in html
    assert "I keep bees on my roof" not in html


def test_a_refused_agent_call_is_logged_as_tried_and_refused_never_as_the_act(logged_in, user):
    agent, _ = agent_create(user=user, name="Phone agent", scopes=["read", "write"])
    agent_call_record(agent=agent, tool="forget_memory", memory_ids=[], outcome="not_found")
    agent_call_record(agent=agent, tool="add_memory", memory_ids=[], outcome="refused")

    for url in (reverse("memories:access-log"), reverse("account:agent", args=[agent.pk])):
        english = _text(logged_in.get(url, **EN))
        korean = _text(logged_in.get(url, **KO))

        assert "Tried to forget a memory (no such memory)" in english, url
        assert "Tried to add a memory (refused: nothing was stored)" in english, url
        assert "Forgot a memory" not in english and "Added a memory" not in english, url
        assert "기억 지우기를 시도함 (찾는 기억 없음)" in korean, url
        assert "기억 추가를 시도함 (거절됨" in korean, url
        assert "기억을 지움" not in korean and "기억을 추가함" not in korean, url


def test_the_pages_are_linked_from_the_memories_navigation(logged_in):
    html = _text(logged_in.get(reverse("memories:list"), **EN))

    assert reverse("account:agents") in html


def test_the_agents_pages_in_korean_leave_no_english_behind(logged_in, user, remember):
    agent, _ = agent_create(user=user, name="데스크톱", scopes=["read", "write"])
    written = agent_memory_add(agent=agent, content="나는 주말마다 요가를 해")
    agent_call_record(agent=agent, tool="search_memory", memory_ids=[written.pk])
    agent_call_record(agent=agent, tool="forget_memory", memory_ids=[])

    for url in (
        reverse("account:agents"),
        reverse("account:agent", args=[agent.pk]),
        reverse("memories:access-log"),
    ):
        response = logged_in.get(url, **KO)
        assert _english_left(response) == [], url
    created = logged_in.post(reverse("account:agents"), {"name": "커서", "access": "read"}, **KO)
    assert _english_left(created) == []
    assert "연결된 에이전트" in _text(created)


def test_the_pages_load_no_inline_script(logged_in, user):
    agent_create(user=user, name="x", scopes=["read"])

    html = _text(logged_in.get(reverse("account:agents")))

    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert " onclick=" not in html and " style=" not in html


def test_a_memory_an_agent_wrote_names_it_in_korean(logged_in, user):
    agent, _ = agent_create(user=user, name="노트북 에이전트", scopes=["read", "write"])
    memory = agent_memory_add(agent=agent, content="나는 매주 수요일에 테니스를 쳐")

    response = logged_in.get(reverse("memories:detail", args=[memory.pk]), **KO)

    assert _english_left(response) == []
    html = _text(response)
    assert "노트북 에이전트" in html and reverse("account:agent", args=[agent.pk]) in html
