"""Live work never waits behind bulk work (issue 15 line 1): which queue each task lands on,
imports run in chunks that take turns, and an import's steps never hang or double (line 5)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from celery import Task
from django.core.cache import cache
from django.utils import timezone

from conversations import tasks
from conversations.models import ChatSession, HistoryImport, Message
from conversations.services import chat, deletion, imports, recovery
from memories import tasks as memory_tasks
from memories.models import ExtractionRun
from memoryhub import tasks as project_tasks
from memoryhub.celery import app

pytestmark = pytest.mark.django_db

LIVE = [
    tasks.exchange_extract,
    tasks.messages_embed,
    tasks.topic_finalize,
    tasks.session_finalize,
    tasks.session_compact,
    tasks.sessions_end_idle,
    tasks.tag_weights_decay,
    tasks.work_requeue_unpublished,
    tasks.chat_centre_refresh,
    memory_tasks.memories_refresh_access,
    memory_tasks.memories_expire_due,
    tasks.memories_purge_retained,
    tasks.memories_purge_retained_queued_before_the_move,
    project_tasks.worker_heartbeat,
]
BULK = [
    tasks.history_import_run,
    tasks.session_import_finalize,
    tasks.messages_backfill,
    tasks.extract_from_exchange,
    # beat's daily re-stamping after a release reads every user's messages: bulk work
    tasks.instruction_stamps_refresh,
]


def _queue_of(task: Task[Any, Any]) -> str:
    """The queue the app's own router sends `task` to."""
    route = app.amqp.router.route({}, task.name, args=(), kwargs={}, task_type=task)
    return str(route["queue"].name)


@pytest.mark.parametrize("task", LIVE, ids=lambda t: t.name)
def test_a_chat_turns_tasks_and_beats_jobs_go_to_the_live_queue(task):
    assert _queue_of(task) == "live"


@pytest.mark.parametrize("task", BULK, ids=lambda t: t.name)
def test_imports_and_re_derivation_go_to_the_bulk_queue(task):
    assert _queue_of(task) == "bulk"


def test_every_task_of_the_apps_has_a_queue_chosen_on_purpose():
    ours = {
        name
        for name in app.tasks
        if name.split(".")[0] in ("conversations", "memories", "memoryhub")
    }
    assert ours == {t.name for t in LIVE + BULK}


def test_each_queue_has_an_exchange_and_routing_key_of_its_own():
    """So RabbitMQ's direct exchanges route as Redis's lists do: one queue per message."""
    queues = app.amqp.queues
    assert set(queues) == {"live", "bulk", "celery"}
    keys = [(q.exchange.name, q.routing_key) for q in queues.values()]
    assert keys == [(name, name) for name in queues]
    assert len(set(keys)) == len(keys)


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Every task published, in order, written down instead of sent (a FIFO of our own)."""
    sent: list[tuple[str, dict[str, Any]]] = []

    def apply_async(self: Task, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        sent.append((self.name, dict(kwargs or {})))

    monkeypatch.setattr(Task, "apply_async", apply_async)
    return sent


def _drain(sent: list[tuple[str, dict[str, Any]]], *, only: str) -> list[dict[str, Any]]:
    """Run the queued tasks named `only` first in, first out, as one worker slot would;
    the keyword arguments of each, in the order they ran."""
    ran: list[dict[str, Any]] = []
    while queued := [i for i, (name, _) in enumerate(sent) if name == only]:
        assert len(ran) < 500, "the chain never ends"
        _, kwargs = sent.pop(queued[0])
        ran.append(kwargs)
        app.tasks[only](**kwargs)
    return ran


def _history(prefix: str, *, sessions: int, exchanges: int) -> dict[str, Any]:
    started = timezone.now() - timedelta(days=30)
    out = []
    for s in range(sessions):
        at = started + timedelta(days=s)
        messages: list[dict[str, str]] = []
        for i in range(exchanges):
            for role, text in (
                ("user", f"I prefer {prefix} tea number {s}-{i} in the morning."),
                ("assistant", "Noted, that sounds lovely."),
            ):
                messages.append({
                    "role": role, "content": text, "external_id": f"{prefix}{s}-{i}-{role}",
                    "created_at": (at + timedelta(minutes=len(messages))).isoformat(),
                })  # fmt: skip
        out.append({"started_at": at.isoformat(), "messages": messages})
    return {"sessions": out}


def _create(user: Any, payload: dict[str, Any], capture: Any) -> HistoryImport:
    with capture(execute=True):
        return imports.history_import_create(user=user, payload=payload)


STEP = "conversations.tasks.history_import_run"


def test_an_imports_extraction_runs_in_chunks_not_a_task_per_message(
    user, published, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(imports, "PROCESS_STEP_MESSAGES", 10)
    record = _create(
        user, _history("x", sessions=1, exchanges=30), django_capture_on_commit_callbacks
    )
    extracted = ExtractionRun.objects.filter(user=user)
    growth = []

    while queued := [kw for name, kw in published if name == STEP]:
        published.remove((STEP, queued[0]))
        before = extracted.count()
        tasks.history_import_run(**queued[0])
        growth.append(extracted.count() - before)

    user_messages = Message.objects.filter(user=user, role="user")
    assert user_messages.count() == 30
    assert extracted.count() == 30  # each imported user message, once
    assert max(growth) <= 10  # no step extracts more than its chunk
    assert len(growth) < 20  # 60 messages to embed, 30 to extract: chunks, not messages
    assert {name for name, _ in published} - {STEP} <= {"conversations.tasks.messages_embed"}
    assert not [name for name, _ in published if name.endswith("exchange_extract")]
    assert ChatSession.objects.get(history_import=record).status == ChatSession.Status.ENDED
    assert cache.get(f"import-chain:{record.pk}") is None  # the finished chain is forgotten


def test_two_users_imports_take_turns_on_the_bulk_queue(
    user, other_user, published, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(imports, "STORE_STEP_MESSAGES", 4)
    monkeypatch.setattr(imports, "PROCESS_STEP_MESSAGES", 4)
    first = _create(
        user, _history("x", sessions=4, exchanges=2), django_capture_on_commit_callbacks
    )
    second = _create(
        other_user, _history("y", sessions=4, exchanges=2), django_capture_on_commit_callbacks
    )

    order = [kwargs["import_id"] for kwargs in _drain(published, only=STEP)]

    # One step of each in turn, while both have work left; neither waits for the other's end.
    both = order[: 2 * min(order.count(first.pk), order.count(second.pk))]
    assert both[0::2] == [first.pk] * (len(both) // 2)
    assert both[1::2] == [second.pk] * (len(both) // 2)
    assert len(both) >= 8
    for record in (first, second):
        record.refresh_from_db()
        assert record.status == HistoryImport.Status.DONE
        pending = ChatSession.objects.filter(history_import=record).exclude(status="ended")
        assert not pending.exists()


def test_a_stalled_import_is_restarted_once_and_its_old_chain_stops(
    user, published, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(imports, "PROCESS_STEP_MESSAGES", 4)
    record = _create(
        user, _history("x", sessions=3, exchanges=2), django_capture_on_commit_callbacks
    )
    _, first_step = published.pop(0)
    tasks.history_import_run(**first_step)  # stored; its next step waits in the queue...
    (name, old_next), *_ = published
    assert name == STEP and old_next["chain"] == first_step["chain"]

    # ...longer than the grace period (a slow queue, or a broker that lost it).
    later = timezone.now() + timedelta(minutes=30)
    assert recovery.work_requeue_unpublished(now=later).imports == 1
    cache.delete(f"recovery:import:{record.pk}")
    assert recovery.work_requeue_unpublished(now=later).imports == 1  # no step ran since

    ran = _drain(published, only=STEP)

    chains = [kwargs["chain"] for kwargs in ran]
    newest = chains[-1]
    # The old chain and the first restart each stopped at their next step; one went on.
    assert chains.count(first_step["chain"]) == 1
    assert len(set(chains)) == 3 and chains[3:] == [newest] * (len(chains) - 3)
    assert not ChatSession.objects.filter(history_import=record).exclude(status="ended").exists()
    assert ExtractionRun.objects.filter(user=user).count() == 6


def test_an_import_failing_after_it_is_stored_stays_done_and_recovery_finishes_it(
    user, published, django_capture_on_commit_callbacks, monkeypatch
):
    from celery.exceptions import Retry

    record = _create(
        user, _history("x", sessions=2, exchanges=2), django_capture_on_commit_callbacks
    )
    _, step = published.pop(0)
    tasks.history_import_run(**step)
    published.clear()
    real = imports._session_advance

    def broken(session: ChatSession, *, budget: int | None) -> int:
        raise RuntimeError("the model file is unreadable")

    monkeypatch.setattr(imports, "_session_advance", broken)
    with pytest.raises(Retry):
        tasks.history_import_run.apply(kwargs=step, throw=True)
    tasks.history_import_run.apply(kwargs=step, retries=3).get()

    record.refresh_from_db()
    assert record.status == HistoryImport.Status.DONE and record.error == ""
    assert Message.objects.filter(user=user).count() == 8  # everything stored stays
    assert published == []  # the chain stopped

    monkeypatch.setattr(imports, "_session_advance", real)
    assert recovery.work_requeue_unpublished(now=timezone.now() + timedelta(hours=1)).imports == 1
    _drain(published, only=STEP)
    assert not ChatSession.objects.filter(history_import=record).exclude(status="ended").exists()


def test_an_import_whose_storing_raises_is_failed_with_a_reason_and_keeps_what_was_stored(
    user, published, django_capture_on_commit_callbacks, monkeypatch
):
    monkeypatch.setattr(imports, "STORE_STEP_MESSAGES", 4)
    record = _create(
        user, _history("x", sessions=3, exchanges=2), django_capture_on_commit_callbacks
    )
    real = imports._store_session

    def store(record: HistoryImport, item: imports.ImportSession) -> ChatSession | None:
        if item.messages[0].external_id == "x2-0-user":
            raise RuntimeError("disk full")
        return real(record, item)

    monkeypatch.setattr(imports, "_store_session", store)
    _, step = published.pop(0)
    tasks.history_import_run(**step)  # stores the first session, queues the next step
    _, step = published.pop(0)
    tasks.history_import_run(**step)  # the second
    _, step = published.pop(0)
    tasks.history_import_run.apply(kwargs=step, retries=3).get()  # the third raises, at last

    record.refresh_from_db()
    assert record.status == HistoryImport.Status.FAILED and record.error == "worker_error"
    assert record.sessions_done == 2 and record.payload == {}
    assert Message.objects.filter(user=user).count() == 8
    assert [name for name, _ in published if name == STEP] == []


def test_a_chat_turns_embedding_leaves_an_imports_backlog_to_the_bulk_queue(
    user, published, django_capture_on_commit_callbacks
):
    record = _create(
        user, _history("x", sessions=1, exchanges=3), django_capture_on_commit_callbacks
    )
    _, step = published.pop(0)
    tasks.history_import_run(**step)  # stored, not embedded yet
    session = chat.chat_session_create(user=user)
    chat.chat_exchange(session=session, content="I prefer the aisle seat.")
    imported = Message.objects.filter(session__history_import=record)

    tasks.messages_embed(user_id=user.pk)

    live = Message.objects.filter(session=session, searchable=True)
    assert live.exists() and not live.filter(embedding__isnull=True).exists()
    assert imported.filter(embedding__isnull=True).count() == 6
    tasks.messages_backfill(user_id=user.pk)
    assert not imported.filter(embedding__isnull=True).exists()


def test_deleting_a_message_re_derives_on_the_bulk_queue(
    user, published, django_capture_on_commit_callbacks
):
    session = chat.chat_session_create(user=user)
    with django_capture_on_commit_callbacks(execute=True):
        exchange = chat.chat_exchange(session=session, content="I prefer the window seat.")
    published.clear()

    with django_capture_on_commit_callbacks(execute=True):
        deletion.message_delete(user=user, message=exchange.user_message)

    names = [name for name, _ in published]
    assert "conversations.tasks.messages_backfill" in names
    assert "conversations.tasks.messages_embed" not in names


def test_an_imported_session_left_with_nothing_searchable_still_ends(
    user, published, django_capture_on_commit_callbacks
):
    record = _create(
        user, _history("x", sessions=1, exchanges=2), django_capture_on_commit_callbacks
    )
    _, step = published.pop(0)
    tasks.history_import_run(**step)  # stored
    # Everything in it was forgotten before its pipeline ran.
    Message.objects.filter(session__history_import=record).update(searchable=False)

    _drain(published, only=STEP)

    assert ChatSession.objects.get(history_import=record).status == ChatSession.Status.ENDED
