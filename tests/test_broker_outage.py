"""A write the database committed is acknowledged even when the broker is down at that moment:
publishing its follow-up task fails quietly (logged), and beat's recovery job queues it later
(tests/test_recovery.py covers that half)."""

from __future__ import annotations

from typing import Any

import pytest
from kombu.exceptions import OperationalError

from conversations import tasks as conversation_tasks
from conversations.models import Message
from memories import tasks as memory_tasks

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    attempts: list[str] = []

    def refuse(name: str) -> Any:
        def publish(*args: Any, **kwargs: Any) -> None:
            attempts.append(name)
            raise OperationalError("Error 111 connecting to the broker. Connection refused.")

        return publish

    for module, name in (
        (conversation_tasks, "messages_embed"),
        (conversation_tasks, "session_compact"),
        (conversation_tasks, "topic_finalize"),
        (conversation_tasks, "history_import_run"),
        (conversation_tasks, "exchange_extract"),
        (memory_tasks, "memories_refresh_access"),
    ):
        monkeypatch.setattr(getattr(module, name), "delay", refuse(name))
    return attempts


def test_a_chat_message_is_answered_and_kept_while_the_broker_is_down(api, user, broker_down):
    session = api.post("/api/v1/sessions/", {}, format="json").json()

    response = api.post(
        f"/api/v1/sessions/{session['id']}/messages/",
        {"content": "기억해줘: 나는 고수를 싫어해."},
        format="json",
    )

    assert response.status_code == 201, response.content
    assert Message.objects.filter(user=user).count() == 2
    assert "exchange_extract" in broker_down


def test_an_import_is_accepted_and_stored_while_the_broker_is_down(api, user, broker_down):
    payload = {"sessions": [{"started_at": "2026-11-01T09:00:00+00:00", "messages": [
        {"role": "user", "content": "hello", "created_at": "2026-11-01T09:00:00+00:00"},
    ]}]}  # fmt: skip

    response = api.post("/api/v1/imports/", payload, format="json")

    assert response.status_code == 202, response.content
    assert broker_down == ["history_import_run"]
    status = api.get(f"/api/v1/imports/{response.json()['id']}/").json()
    assert status["status"] == "queued"  # beat's recovery job publishes it again
