"""Nothing lost between commit and publish (issue 7 lines 3-4): the settings that make a task
survive its worker, and the beat job that queues again work whose task was never published."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from conversations import tasks as conversation_tasks
from conversations.models import ChatSession, HistoryImport, Message, Topic
from conversations.services import chat, imports, recovery, sessions
from memories.models import ExtractionRun, Memory
from memoryhub.celery import app
from memoryhub.locks import exclusive

TASKS = {
    "exchange_extract": conversation_tasks.exchange_extract,
    "messages_embed": conversation_tasks.messages_embed,
    "topic_finalize": conversation_tasks.topic_finalize,
    "session_finalize": conversation_tasks.session_finalize,
    "history_import_run": conversation_tasks.history_import_run,
    "session_import_finalize": conversation_tasks.session_import_finalize,
    "messages_backfill": conversation_tasks.messages_backfill,
    "session_compact": conversation_tasks.session_compact,
}


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Every publish is dropped (the crash between commit and publish) and written down."""
    sent: list[tuple[str, dict[str, Any]]] = []
    for name, task in TASKS.items():
        monkeypatch.setattr(task, "delay", lambda _n=name, **kw: sent.append((_n, kw)))
    return sent


def _run(sent: list[tuple[str, dict[str, Any]]]) -> None:
    """Run what was published, the way a worker would (task bodies, in order)."""
    while sent:
        name, kwargs = sent.pop(0)
        TASKS[name](**kwargs)


def _later(minutes: float) -> Any:
    return timezone.now() + timedelta(minutes=minutes)


def test_the_visibility_timeout_outlasts_the_longest_task_and_tasks_are_acked_late():
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility > settings.CELERY_TASK_TIME_LIMIT > settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert app.conf.broker_transport_options["visibility_timeout"] == visibility
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    for name, task in app.tasks.items():
        if name.startswith(("conversations.", "memories.")):
            assert task.acks_late and task.reject_on_worker_lost, name


def test_the_recovery_job_is_on_the_beat_schedule():
    entry = settings.CELERY_BEAT_SCHEDULE["requeue-unpublished-work"]
    assert entry["task"] == conversation_tasks.work_requeue_unpublished.name
    assert float(entry["schedule"]) < settings.MEMORYHUB_RECOVERY_GRACE_MINUTES * 60  # type: ignore[arg-type]


@pytest.mark.django_db
def test_an_exchange_whose_extraction_was_never_published_is_extracted_once_after_the_grace(
    user, published, django_capture_on_commit_callbacks
):
    session = chat.chat_session_create(user=user)
    with django_capture_on_commit_callbacks(execute=True):
        exchange = chat.chat_exchange(session=session, content="I prefer green tea to coffee.")
    assert "exchange_extract" in {name for name, _ in published}
    published.clear()  # the broker never got them

    assert recovery.work_requeue_unpublished().total == 0  # inside the grace period
    requeued = recovery.work_requeue_unpublished(now=_later(6))

    assert requeued.extractions == 1 and requeued.embeddings == 1
    extraction = next(kw for name, kw in published if name == "exchange_extract")
    # The ids (the message's and its owner's), never the text.
    assert extraction == {"message_id": exchange.user_message.pk, "user_id": user.pk}
    _run(published)
    assert Memory.objects.filter(user=user).count() == 1
    assert not Message.objects.filter(
        session=session, searchable=True, context_embedding__isnull=True
    ).exists()

    # Nothing is left to recover, even once the markers have expired.
    from django.core.cache import cache

    cache.clear()
    assert recovery.work_requeue_unpublished(now=_later(30)).total == 0


@pytest.mark.django_db
def test_work_still_waiting_is_queued_again_once_per_grace_period_and_a_rerun_adds_nothing(
    user, published, django_capture_on_commit_callbacks
):
    session = chat.chat_session_create(user=user)
    with django_capture_on_commit_callbacks(execute=True):
        chat.chat_exchange(session=session, content="나는 매운 음식을 좋아해.")
    published.clear()

    first = recovery.work_requeue_unpublished(now=_later(6))
    again = recovery.work_requeue_unpublished(now=_later(7))
    assert first.extractions == 1 and again.total == 0

    twice = [*published, *published]  # the original publish was only slow after all
    published.clear()
    _run(twice)
    assert ExtractionRun.objects.filter(user=user).count() == 1
    assert Memory.objects.filter(user=user).count() == 1


@pytest.mark.django_db
def test_a_session_left_ending_is_finalized_after_the_grace(
    user, published, django_capture_on_commit_callbacks
):
    session = chat.chat_session_create(user=user)
    with django_capture_on_commit_callbacks(execute=True):
        chat.chat_exchange(session=session, content="Next.js App Router 설정했어.")
        sessions.session_end(session=session)
    published.clear()

    assert recovery.work_requeue_unpublished(now=_later(1)).sessions == 0  # first seen now
    requeued = recovery.work_requeue_unpublished(now=_later(7))

    assert requeued.sessions == 1
    _run(published)
    session.refresh_from_db()
    assert session.status == ChatSession.Status.ENDED and session.tags
    assert recovery.work_requeue_unpublished(now=_later(60)).sessions == 0


@pytest.mark.django_db
def test_a_closed_topic_never_finalized_is_finalized(
    user, published, django_capture_on_commit_callbacks
):
    session = chat.chat_session_create(user=user)
    with django_capture_on_commit_callbacks(execute=True):
        chat.chat_exchange(session=session, content="바이올린 레슨 다시 시작했어.")
    topic = Topic.objects.get(session=session)
    Topic.objects.filter(pk=topic.pk).update(ended_at=timezone.now())
    published.clear()

    requeued = recovery.work_requeue_unpublished(now=_later(6))

    assert requeued.topics == 1
    _run(published)
    topic.refresh_from_db()
    assert topic.embedding is not None and topic.keywords


@pytest.mark.django_db
def test_an_import_whose_task_was_never_published_runs_and_finalizes_its_sessions(
    user, published, django_capture_on_commit_callbacks
):
    started = timezone.now() - timedelta(days=3)
    payload = {"sessions": [{"started_at": started.isoformat(), "messages": [
        {"role": "user", "content": "바이올린 레슨 다시 시작했어.",
         "created_at": started.isoformat(), "external_id": "r1"},
        {"role": "assistant", "content": "어떤 곡을 연습하세요?",
         "created_at": (started + timedelta(minutes=1)).isoformat(), "external_id": "r2"},
    ]}]}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        record = imports.history_import_create(user=user, payload=payload)
    published.clear()

    requeued = recovery.work_requeue_unpublished(now=_later(6))
    assert requeued.imports == 1
    # The import's first step stores it; the publish of its next step is lost as well.
    _run_one(published)
    assert [name for name, _ in published] == ["history_import_run"]
    published.clear()
    record.refresh_from_db()
    assert record.status == HistoryImport.Status.DONE
    imported = ChatSession.objects.get(history_import=record)
    assert imported.status == ChatSession.Status.ACTIVE

    cache.delete(f"recovery:import:{record.pk}")  # the once-per-grace marker expired
    requeued = recovery.work_requeue_unpublished(now=_later(12))
    assert requeued.imports == 1
    _run(published)
    imported.refresh_from_db()
    assert imported.status == ChatSession.Status.ENDED
    assert Message.objects.filter(session=imported).count() == 2
    assert ExtractionRun.objects.filter(source_session_id=imported.pk).count() == 1


def _run_one(sent: list[tuple[str, dict[str, Any]]]) -> None:
    name, kwargs = sent.pop(0)
    TASKS[name](**kwargs)


@pytest.mark.django_db
def test_a_second_copy_of_an_import_task_does_nothing_while_another_worker_holds_it(
    user, monkeypatch
):
    import psycopg

    from tests.conftest import test_database_url

    ran: list[int] = []

    def step(*, import_id: int, user_id: int | None = None) -> bool:
        ran.append(import_id)
        return False

    monkeypatch.setattr(imports, "history_import_step", step)
    with psycopg.connect(test_database_url(), autocommit=True) as other_worker:
        other_worker.execute(
            "SELECT pg_advisory_lock(hashtextextended('history_import_run:77', 0))"
        )
        conversation_tasks.history_import_run(import_id=77)
        other_worker.execute(
            "SELECT pg_advisory_unlock(hashtextextended('history_import_run:77', 0))"
        )
    conversation_tasks.history_import_run(import_id=77)  # the other worker has finished

    assert ran == [77]
    with exclusive("history_import_run:77") as taken:
        assert taken is True
