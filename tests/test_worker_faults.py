"""A worker killed in the middle of extraction loses nothing and duplicates nothing (issue 7
line 3): real workers, the real broker, SIGKILL."""

from __future__ import annotations

import base64
import json
import os
import signal
from pathlib import Path
from typing import Any

import psutil
import pytest
import redis
from django.conf import settings

from conversations.models import ChatSession, Message
from conversations.tasks import exchange_extract
from memories.models import ExtractionRun, Memory
from memoryhub.celery import app
from memoryhub.redelivery import REGISTRY_KEY
from tests.conftest import wait_until
from tests.workers import worker_kill, worker_log, worker_start, worker_stop

pytestmark = [pytest.mark.worker, pytest.mark.slow]

STATEMENTS = [
    "I prefer green tea to coffee.",
    "I prefer window seats on long flights.",
    "I prefer dark mode in every editor.",
    "I prefer jazz when I am working.",
]
# Short, so a lost worker is noticed within seconds; the visibility timeout stays 2 h.
FAST_LOSS = {"MEMORYHUB_WORKER_LOST_SECONDS": "3"}


def _broker() -> redis.Redis:
    return redis.Redis.from_url(settings.CELERY_BROKER_URL)


def _unacked() -> int:
    return int(_broker().hlen("unacked"))


def _enqueue_exchanges(user: Any) -> list[Message]:
    session = ChatSession.objects.create(user=user)
    messages = [
        Message.objects.create(session=session, user=user, role="user", content=text)
        for text in STATEMENTS
    ]
    for message in messages:
        exchange_extract.delay(message_id=message.pk)
    return messages


def _assert_each_processed_exactly_once(user: Any, messages: list[Message]) -> None:
    runs = ExtractionRun.objects.filter(user=user)
    assert sorted(runs.values_list("source_message_id", flat=True)) == sorted(  # type: ignore[type-var]
        m.pk for m in messages
    )
    assert set(runs.values_list("status", flat=True)) == {"done"}
    memories = Memory.objects.filter(user=user)
    assert memories.count() == len(messages)
    sources = sorted(m.current_version.source_message_id for m in memories)  # type: ignore[type-var]
    assert sources == sorted(m.pk for m in messages)


@pytest.fixture
def clean_broker(transactional_db: None) -> None:
    app.control.purge()
    _broker().delete("unacked", "unacked_index", REGISTRY_KEY)


def test_a_worker_killed_mid_extraction_is_replaced_and_every_message_is_extracted_once(
    clean_broker, user, tmp_path: Path
):
    marker = tmp_path / "stalled"
    messages = _enqueue_exchanges(user)
    doomed = worker_start(
        name="doomed",
        entry=("tests/fault_worker.py", "worker"),
        env={**FAST_LOSS, "FAULT_MARKER": str(marker)},
    )
    try:
        assert wait_until(marker.exists, timeout=120), worker_log("doomed").read_text()[-3000:]
        stalled_id = int(marker.read_text())
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait(timeout=10)
    finally:
        worker_kill(doomed)

    # The transaction died with the worker; the task is still unacknowledged in the broker,
    # where kombu alone would leave it for the 2 h visibility timeout.
    assert not ExtractionRun.objects.filter(source_message_id=stalled_id).exists()
    assert Memory.objects.filter(user=user).count() == 0
    assert _unacked() == 1
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] >= 3600

    replacement = worker_start(name="replacement", env=FAST_LOSS)
    try:
        done = ExtractionRun.objects.filter(user=user)
        assert wait_until(lambda: done.count() == len(messages), timeout=120), worker_log(
            "replacement"
        ).read_text()[-3000:]
        assert wait_until(lambda: _unacked() == 0, timeout=30)
        _assert_each_processed_exactly_once(user, messages)
        assert replacement.poll() is None
    finally:
        worker_stop(replacement)
    log = worker_log("replacement").read_text()
    assert "restored 1 task(s) of 1 lost worker(s)" in log


def _queued_sources() -> list[int]:
    """The message ids of the extraction tasks waiting in the queue."""
    sources = []
    for raw in _broker().lrange("live", 0, -1):
        payload = json.loads(raw)
        _args, kwargs, _embed = json.loads(base64.b64decode(payload["body"]))
        sources.append(int(kwargs["message_id"]))
    return sources


def test_a_killed_pool_process_hands_its_task_back_to_the_queue_at_once(
    clean_broker, user, tmp_path: Path
):
    """task_reject_on_worker_lost: the prefork parent requeues what its dead child held."""
    marker = tmp_path / "stalled"
    messages = _enqueue_exchanges(user)
    worker = worker_start(
        name="prefork",
        pool="prefork",
        entry=("tests/fault_worker.py", "worker", "--concurrency", "1"),
        env={**FAST_LOSS, "FAULT_MARKER": str(marker)},
    )
    try:
        assert wait_until(marker.exists, timeout=120), worker_log("prefork").read_text()[-3000:]
        stalled_id = int(marker.read_text())
        assert stalled_id not in _queued_sources()
        psutil.Process(worker.pid).children()[0].kill()
        assert wait_until(lambda: stalled_id in _queued_sources(), timeout=30), worker_log(
            "prefork"
        ).read_text()[-3000:]
        assert worker.poll() is None
    finally:
        worker_kill(worker)
    assert "WorkerLostError" in worker_log("prefork").read_text()

    finisher = worker_start(name="finisher", env=FAST_LOSS)
    try:
        done = ExtractionRun.objects.filter(user=user)
        assert wait_until(lambda: done.count() == len(messages), timeout=120), worker_log(
            "finisher"
        ).read_text()[-3000:]
        assert wait_until(lambda: _unacked() == 0, timeout=30)
        _assert_each_processed_exactly_once(user, messages)
    finally:
        worker_stop(finisher)


def test_a_lost_workers_tasks_go_back_to_their_own_queues(clean_broker, user):
    """The Redis-only restore covers every queue: a live and a bulk task a worker took before
    it vanished return to `live` and `bulk`, not to one default queue."""
    from conversations.tasks import messages_backfill
    from memoryhub.redelivery import orphans_restore, tags_key

    client = _broker()
    exchange_extract.delay(message_id=1)
    messages_backfill.delay(user_id=user.pk)
    with app.connection_for_read() as conn:  # takes both as a worker would, unacknowledged
        channel = conn.default_channel
        tags = [channel.basic_get(queue, no_ack=False).delivery_tag for queue in ("live", "bulk")]
        assert client.llen("live") == client.llen("bulk") == 0
        assert _unacked() == 2
        client.sadd(REGISTRY_KEY, "vanished")  # a worker whose liveness key has expired
        client.sadd(tags_key("vanished"), *tags)

        assert orphans_restore(app=app, client=client) == 2

    assert _unacked() == 0
    assert client.llen("live") == client.llen("bulk") == 1
    queued = {queue: json.loads(client.lrange(queue, 0, 0)[0]) for queue in ("live", "bulk")}
    assert queued["live"]["headers"]["task"] == "conversations.tasks.exchange_extract"
    assert queued["bulk"]["headers"]["task"] == "conversations.tasks.messages_backfill"
