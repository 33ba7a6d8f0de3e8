"""Every way text enters drops the invisible characters that reorder or hide what it says
(`memoryhub.validation.visible_text`): what a person reads and approves is what is stored, and
no keyword, tag or memory carries an invisible character.

Each test sends text with bidi controls and zero-width characters through one entry path, runs
the tasks that path queued as a worker would, then scans every stored text of the user (the
same scan as `manage.py score_secrets`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from bench.management.commands import score_secrets
from conversations.models import Message
from conversations.services import chat, sessions
from memories.logic.extraction_schema import ExtractedItem
from memories.models import Memory, MemoryStatus
from memories.services import extraction, memory_tool, revision
from memories.services.agents import agent_create, agent_memory_add

pytestmark = pytest.mark.django_db(transaction=True)

HIDDEN = re.compile("[\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# A reversed name shown forwards by an override, and a keyword split by zero-width characters.
REVERSED = "나는 \u202e울산\u202c에 살고 \u2067주말\u2069마다 등산을 좋아해"
SPLIT_KO = "나는\u200b 광주\u200d에서 일하고\ufeff 매일 자전거를 타"
SPLIT_EN = "I work as a ba\u200bker in Da\u2060ejeon and I \u202elove\u202c sourdough"


def _run(action: Callable[[], Any]) -> Any:
    recorder = score_secrets.Recorder()
    with score_secrets.recording(recorder):
        result = action()
        score_secrets.drain(recorder)
    return result


def _hidden_in_stored_texts(user: Any) -> list[str]:
    return sorted(
        {
            place
            for place, text in score_secrets.stored_texts(user_ids=[user.pk], since={})
            if HIDDEN.search(text)
        }
    )


@pytest.mark.parametrize("text", [REVERSED, SPLIT_KO, SPLIT_EN])
def test_text_said_in_chat_is_stored_visible_everywhere(user, text):
    session = chat.chat_session_create(user=user)

    def say() -> None:
        chat.chat_exchange(session=session, content=text)
        sessions.session_end(session=session)

    _run(say)

    stored = Message.objects.get(user=user, role=Message.Role.USER).content
    assert stored == HIDDEN.sub("", text)
    assert _hidden_in_stored_texts(user) == []


def test_a_zero_width_split_word_becomes_a_memory_and_keyword_without_it(user):
    session = chat.chat_session_create(user=user)

    _run(
        lambda: chat.chat_exchange(
            session=session, content="기억해줘: 나는\u200b 광주\u200d에 살아"
        )
    )

    version = Memory.objects.get(user=user).current_version
    assert "광주" in version.content and not HIDDEN.search(version.content)
    assert not [t for t in version.tokens if HIDDEN.search(t)]
    keywords = Message.objects.get(user=user, role=Message.Role.USER).keywords
    assert "광주" in keywords


def test_text_sent_to_the_chat_api_comes_back_and_is_searched_visible(user, api):
    session_id = api.post("/api/v1/sessions/", {}, format="json").json()["id"]

    response = _run(
        lambda: api.post(
            f"/api/v1/sessions/{session_id}/messages/", {"content": SPLIT_EN}, format="json"
        )
    )

    assert response.status_code == 201
    assert response.json()["user_message"]["content"] == HIDDEN.sub("", SPLIT_EN)
    assert _hidden_in_stored_texts(user) == []


def test_a_message_of_hidden_characters_alone_is_blank_and_refused(user, api):
    session_id = api.post("/api/v1/sessions/", {}, format="json").json()["id"]

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/",
        {"content": "\u200b\u202e\ufeff"},
        format="json",
    )

    assert response.status_code == 400
    assert not Message.objects.filter(user=user).exists()


def test_text_typed_on_the_chat_page_is_stored_visible(client, user):
    client.force_login(user)
    session = chat.chat_session_create(user=user)

    response = _run(
        lambda: client.post(
            reverse("chat:message-create", args=[session.pk]), {"content": REVERSED}
        )
    )

    assert response.status_code == 302
    assert _hidden_in_stored_texts(user) == []


def test_a_memory_edited_on_the_page_is_stored_as_it_reads(client, user):
    client.force_login(user)
    memory = revision.memory_create(user=user, type="fact", content="I live in Seoul")

    response = client.post(
        reverse("memories:edit", args=[memory.pk]),
        {"content": "I live in \u202enapeJ\u202c", "type": "fact", "sensitivity": "normal"},
    )

    assert response.status_code == 302
    memory.refresh_from_db()
    assert memory.current_version.content == "I live in napeJ"


def test_a_memory_written_or_edited_through_the_api_is_stored_as_it_reads(user, api):
    created = api.post("/api/v1/memories/", {"type": "fact", "content": SPLIT_EN}, format="json")
    patched = api.patch(
        f"/api/v1/memories/{created.json()['id']}/",
        {"content": "I live in \u202enapeJ\u202c"},
        format="json",
    )

    assert created.status_code == 201
    assert created.json()["content"] == HIDDEN.sub("", SPLIT_EN)
    assert patched.status_code == 200
    assert patched.json()["content"] == "I live in napeJ"
    assert _hidden_in_stored_texts(user) == []


def _import_payload(text: str) -> dict[str, Any]:
    now = timezone.now().isoformat()
    return {
        "sessions": [
            {
                "started_at": now,
                "messages": [
                    {
                        "role": "user",
                        "content": text,
                        "created_at": now,
                        "speaker": "min\u200bji\u202e",
                        "external_id": "ext-hidden-1",
                    },
                    {"role": "assistant", "content": f"알겠어, {text}", "created_at": now},
                ],
            }
        ]
    }


def test_an_import_through_the_api_is_stored_visible(user, api):
    response = _run(lambda: api.post("/api/v1/imports/", _import_payload(SPLIT_KO), format="json"))

    assert response.status_code == 202
    assert Message.objects.get(user=user, external_id="ext-hidden-1").speaker == "minji"
    assert _hidden_in_stored_texts(user) == []


def test_an_import_by_command_is_stored_visible(tmp_path, django_user_model):
    path = tmp_path / "history.json"
    path.write_text(json.dumps(_import_payload(REVERSED), ensure_ascii=False))

    _run(lambda: call_command("import_history", str(path), "--user", "haneul"))

    user = django_user_model.objects.get(username="haneul")
    assert Message.objects.filter(user=user).count() == 2
    assert _hidden_in_stored_texts(user) == []


def test_a_memory_an_agent_adds_is_stored_as_the_user_will_read_it(user):
    agent, _token = agent_create(user=user, name="desk\u200btop", scopes=["read", "write"])

    memory = agent_memory_add(agent=agent, content="User lives in \u202enodgnaB\u202c and walks")

    assert memory.status == MemoryStatus.PENDING
    assert memory.current_version.content == "User lives in nodgnaB and walks"
    assert _hidden_in_stored_texts(user) == []


def test_a_memory_written_or_edited_with_claudes_memory_tool_is_stored_as_it_reads(user):
    memory_tool.memory_tool_execute(
        user=user,
        command={
            "command": "create",
            "path": "/memories/fact/home.md",
            "file_text": "User's home town is \u202enamugniY\u202c\u200b",
        },
    )
    memory = Memory.objects.get(user=user)
    assert memory.current_version.content == "User's home town is namugniY"

    memory_tool.memory_tool_execute(
        user=user,
        command={
            "command": "str_replace",
            "path": f"/memories/fact/{memory.pk}.md",
            "old_str": "nam\u200bugniY",
            "new_str": "Yeo\u2060su",
        },
    )

    memory.refresh_from_db()
    assert memory.current_version.content == "User's home town is Yeosu"


def test_a_models_extracted_memory_is_stored_as_it_reads(user):
    item = ExtractedItem(
        type="preference",
        content="User prefers \u202eaet\u202c over coffee\u200b",
        importance=0.5,
        stated_by_user=True,
        confidence=0.9,
    )

    stored = extraction.memory_store_candidate(user_id=user.pk, item=item)

    assert stored.memory.current_version.content == "User prefers aet over coffee"
