"""Tasks carry ids, never user text (issue 13 line 8): the broker's files keep what passes
through them, so the worker reads the text by id."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from celery.app.task import Task
from celery.exceptions import Retry
from django.utils import timezone

from conversations.models import ChatSession, Message
from conversations.services import chat, imports, recovery, sessions
from conversations.tasks import exchange_extract
from memories.models import ExtractionRun, Memory
from memories.services import extraction
from memoryhub import llm
from tests.anthropic_fake import FakeAnthropic, failing

pytestmark = pytest.mark.django_db

_PLAIN = (int, float, bool, type(None))


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """Every task published by any path, written down instead of sent."""
    sent: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def apply_async(self: Task, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        sent.append((self.name, tuple(args or ()), dict(kwargs or {})))

    monkeypatch.setattr(Task, "apply_async", apply_async)
    return sent


def _only_ids(value: Any) -> bool:
    if isinstance(value, list | tuple):
        return all(_only_ids(v) for v in value)
    return isinstance(value, _PLAIN)


def test_no_task_of_a_chat_an_import_or_the_recovery_job_carries_text(
    user, published, django_capture_on_commit_callbacks
):
    session = chat.chat_session_create(user=user)
    with django_capture_on_commit_callbacks(execute=True):
        chat.chat_exchange(session=session, content="기억해줘: 나는 고수를 싫어해.")
        chat.chat_exchange(session=session, content="I prefer window seats.")
        sessions.session_end(session=session)
    started = timezone.now() - timedelta(days=3)
    replied = started + timedelta(minutes=1)
    messages = [
        {"role": "user", "content": "바이올린 레슨 다시 시작했어.", "created_at": started},
        {"role": "assistant", "content": "어떤 곡이요?", "created_at": replied},
    ]
    for message in messages:
        message["created_at"] = message["created_at"].isoformat()
    payload = {"sessions": [{"started_at": started.isoformat(), "messages": messages}]}
    with django_capture_on_commit_callbacks(execute=True):
        record = imports.history_import_create(user=user, payload=payload)
    imports.history_import_run(
        import_id=record.pk, finalize=lambda sid: imports.session_import_finalize(session_id=sid)
    )
    recovery.work_requeue_unpublished(now=timezone.now() + timedelta(hours=1))

    names = {name for name, _, _ in published}
    assert {"conversations.tasks.exchange_extract", "conversations.tasks.messages_embed"} <= names
    carrying = [(n, a, k) for n, a, k in published if not _only_ids([*a, *k.values()])]
    assert carrying == []


def test_the_extraction_task_reads_the_exchange_by_id_and_a_rerun_changes_nothing(
    user, monkeypatch
):
    session = ChatSession.objects.create(user=user)
    question = Message.objects.create(
        session=session, user=user, role="user", content="기억해줘: 나는 매운 음식을 좋아해."
    )
    Message.objects.create(
        session=session, user=user, role="assistant", content="알겠어요!", reply_to=question
    )
    seen: list[dict[str, Any]] = []
    real = extraction.memory_extract_from_exchange
    monkeypatch.setattr(
        extraction, "memory_extract_from_exchange", lambda **kw: seen.append(kw) or real(**kw)
    )

    first = exchange_extract.apply(kwargs={"message_id": question.pk}).get()
    second = exchange_extract.apply(kwargs={"message_id": question.pk}).get()

    assert first["status"] == "done" and second["status"] == "skipped"
    assert seen[0]["user_text"] == question.content
    assert seen[0]["assistant_text"] == "알겠어요!"
    assert seen[0]["observed_at"] == question.created_at
    assert seen[0]["source_session_id"] == session.pk
    assert Memory.objects.filter(user=user).count() == 1


def test_an_unsearchable_reply_is_not_given_to_extraction(user, monkeypatch):
    session = ChatSession.objects.create(user=user)
    question = Message.objects.create(session=session, user=user, role="user", content="hi")
    Message.objects.create(
        session=session,
        user=user,
        role="assistant",
        content="[budget spent]",
        reply_to=question,
        searchable=False,
    )
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(
        extraction,
        "memory_extract_from_exchange",
        lambda **kw: seen.append(kw) or extraction.ExtractionResult(status="done"),
    )

    exchange_extract(message_id=question.pk)

    assert seen[0]["assistant_text"] == ""


def test_the_extraction_task_of_a_deleted_message_extracts_nothing(user):
    assert exchange_extract(message_id=987654321) == {
        "status": "source_deleted",
        "memory_ids": [],
    }
    assert not ExtractionRun.objects.exists()


def test_the_extraction_task_is_acknowledged_late_and_requeued_on_worker_loss():
    assert exchange_extract.acks_late is True
    assert exchange_extract.reject_on_worker_lost is True


def test_an_unreachable_model_is_retried_then_recorded_as_a_failure(user):
    llm.set_provider(llm.AnthropicProvider(client=FakeAnthropic([failing(529)] * 10).client()))
    session = ChatSession.objects.create(user=user)
    question = Message.objects.create(
        session=session, user=user, role="user", content="나는 커피를 좋아해"
    )

    with pytest.raises(Retry):
        exchange_extract.apply(kwargs={"message_id": question.pk}, throw=True)
    final = exchange_extract.apply(kwargs={"message_id": question.pk}, retries=3).get()

    assert final["status"] == "failed"
    run = ExtractionRun.objects.get(source_message_id=question.pk)
    assert run.status == "failed" and "unreachable" in run.error
    assert run.source_session_id == session.pk
