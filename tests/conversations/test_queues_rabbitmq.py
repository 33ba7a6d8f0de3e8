"""Live work never waits behind bulk work, on a real RabbitMQ (issue 15 line 1).

The module starts a RabbitMQ node of its own (`tests/rabbitmq_node.py`) and, on it, the live
and bulk workers with the options `make run` gives them (`launcher.worker_options`), through
`tests/rabbit_worker.py`, which writes down which worker ran which task. The product's own
enqueueing (a chat turn's `transaction.on_commit`) publishes to that node. Skipped, saying how
to install it, where RabbitMQ is not installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from celery import Task
from django.conf import settings
from kombu import Connection

from conversations import tasks
from conversations.services import chat
from memories.models import Memory
from memoryhub import health, launcher
from memoryhub.celery import BULK_NICENESS, app
from tests import rabbitmq_node
from tests.conftest import ROOT, test_database_url, wait_until
from tests.rabbit_worker import HOLD
from tests.workers import worker_kill, worker_stop

pytestmark = pytest.mark.worker

BACKLOG = 200
LIVE_TASKS = {tasks.exchange_extract.name, tasks.messages_embed.name}
BULK_TASKS = {tasks.messages_backfill.name, HOLD}


@pytest.fixture(scope="module")
def rabbitmq(tmp_path_factory: pytest.TempPathFactory) -> Iterator[rabbitmq_node.RabbitNode]:
    if rabbitmq_node.server_path() is None:
        pytest.skip(rabbitmq_node.INSTALL_HINT)
    node = rabbitmq_node.start(tmp_path_factory.mktemp("rabbitmq"))
    try:
        yield node
    finally:
        node.stop()


class Workers:
    """The module's workers on the node, and what they wrote down."""

    def __init__(self, node: rabbitmq_node.RabbitNode, folder: Path) -> None:
        self.node = node
        self.folder = folder
        self.events = folder / "events.jsonl"
        self.ready = folder / "ready"
        self.ready.mkdir()
        self.started: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, *queues: tuple[str, str], warm: bool = True) -> list[subprocess.Popen[bytes]]:
        """`make run`'s worker of each (queue, name), `name` being what the events call it
        (a worker started under a name in use replaces that one); returns once all have
        loaded their models (`warm`) and consume, as `make run` waits for them. They start
        side by side, as `make run` starts them."""
        processes = [self._spawn(queue, name=name, warm=warm) for queue, name in queues]
        for (_, name), process in zip(queues, processes, strict=True):
            assert wait_until(self._up_or_gone(process), timeout=300)
            assert process.poll() is None, self.tail(name)
        return processes

    def _up_or_gone(self, process: subprocess.Popen[bytes]) -> Callable[[], bool]:
        ready = self.ready / f"worker-{process.pid}"
        return lambda: ready.exists() or process.poll() is not None

    def _spawn(self, queue: str, *, name: str, warm: bool) -> subprocess.Popen[bytes]:
        env = dict(
            os.environ,
            DATABASE_URL=test_database_url(),
            CELERY_BROKER_URL=self.node.url,
            MEMORYHUB_CACHE_URL=str(settings.CACHES["default"]["LOCATION"]),
            ANTHROPIC_API_KEY="",
            MEMORYHUB_WARM_UP="1" if warm else "0",
            MEMORYHUB_READY_DIR=str(self.ready),
            PYTHONUNBUFFERED="1",
            RABBIT_TEST_EVENTS=str(self.events),
            RABBIT_TEST_WORKER=name,
            **launcher.EMBEDDING_THREADS,
        )
        options = launcher.worker_options(queue=queue, env=env)
        with self.log(name).open("ab") as log:
            process = subprocess.Popen(
                [sys.executable, "tests/rabbit_worker.py", "worker", *options],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.started[name] = process
        return process

    def log(self, name: str) -> Path:
        return self.folder / f"{name}.log"

    def tail(self, name: str) -> str:
        return self.log(name).read_text(errors="replace")[-3000:]

    def mark(self) -> int:
        """Where the events written from now on begin (for `ran(since=...)`)."""
        return len(self.events.read_text().splitlines()) if self.events.exists() else 0

    def ran(self, *, since: int = 0, event: str = "start") -> list[dict[str, Any]]:
        if not self.events.exists():
            return []
        lines = self.events.read_text().splitlines()[since:]
        return [e for e in map(json.loads, lines) if e["event"] == event]

    def stop_all(self) -> None:
        """A warm shutdown of all at once (each waits for its running task), then a kill."""
        running = [p for p in self.started.values() if p.poll() is None]
        for process in running:
            process.terminate()
        for process in running:
            worker_stop(process)


def _purge(node: rabbitmq_node.RabbitNode) -> None:
    with Connection(node.url) as connection, connection.channel() as channel:
        for queue in ("live", "bulk", "celery"):
            channel.queue_purge(queue)


@pytest.fixture(scope="module")
def workers(
    rabbitmq: rabbitmq_node.RabbitNode,
    tmp_path_factory: pytest.TempPathFactory,
    django_db_setup: None,
) -> Iterator[Workers]:
    """`make run`'s live and bulk workers, warm, shared by the module's tests (each start
    takes half a minute or more on a busy machine)."""
    running = Workers(rabbitmq, tmp_path_factory.mktemp("workers"))
    try:
        running.start(("live", "live"), ("bulk", "bulk"))
        yield running
    finally:
        running.stop_all()
        _purge(rabbitmq)


@pytest.fixture
def on_rabbitmq(
    workers: Workers, rabbitmq: rabbitmq_node.RabbitNode, transactional_db: None
) -> Iterator[Workers]:
    """The module's workers, for one test that leaves nothing queued behind it."""
    try:
        yield workers
    finally:
        _purge(rabbitmq)


@pytest.fixture
def through_rabbitmq(
    rabbitmq: rabbitmq_node.RabbitNode, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Connection]:
    """Every task this process queues goes to the node, routed by the product's router."""
    publish = Task.apply_async
    with Connection(rabbitmq.url) as connection:

        def apply_async(self: Task, args: Any = None, kwargs: Any = None, **options: Any) -> Any:
            return publish(self, args, kwargs, connection=connection, **options)

        monkeypatch.setattr(Task, "apply_async", apply_async)
        yield connection


def _waiting(connection: Connection, queue: str) -> int:
    """Messages in `queue` not yet delivered to a worker."""
    with connection.channel() as channel:
        return int(channel.queue_declare(queue=queue, passive=True).message_count)


def _hold(connection: Connection, **kwargs: Any) -> str:
    return str(app.send_task(HOLD, kwargs=kwargs, queue="bulk", connection=connection).id)


def test_a_live_extraction_runs_while_the_bulk_queue_holds_a_long_backlog(
    on_rabbitmq, through_rabbitmq, user
):
    workers = on_rabbitmq
    since = workers.mark()
    tasks.messages_backfill.delay(user_id=user.pk)  # routed to bulk by the settings
    for _ in range(BACKLOG):  # each holds the bulk worker's one slot for a second
        _hold(through_rabbitmq, seconds=1.0)
    assert wait_until(lambda: any(e["task"] == HOLD for e in workers.ran(since=since)))

    session = chat.chat_session_create(user=user)
    sent = time.monotonic()
    chat.chat_exchange(session=session, content="Remember that I prefer window seats on trains.")
    memories = Memory.objects.filter(user=user)
    assert wait_until(memories.exists, timeout=180), workers.tail("live")
    took = time.monotonic() - sent
    still_waiting = _waiting(through_rabbitmq, "bulk")
    print(f"live memory after {took:.1f} s; {still_waiting} of {BACKLOG} bulk tasks waiting")

    # The memory came while the backlog still waited: it did not queue behind it.
    assert still_waiting > 0
    ran = workers.ran(since=since)
    live = {e["task"] for e in ran if e["worker"] == "live"}
    bulk = {e["task"] for e in ran if e["worker"] == "bulk"}
    assert tasks.exchange_extract.name in live
    assert tasks.messages_backfill.name in bulk and HOLD in bulk
    # Each worker ran only the tasks of its own queues, delivered with their routing keys.
    assert live <= LIVE_TASKS and bulk <= BULK_TASKS, ran
    for event in ran:
        assert event["hostname"].startswith(f"{event['worker']}@")
        assert event["routing_key"] == event["worker"], event
    # A worker of no live queue yields the CPU, on RabbitMQ as on Redis.
    assert psutil.Process(workers.started["bulk"].pid).nice() == BULK_NICENESS
    # memoryhub.redelivery (for Redis/Valkey) stays out of the way: no warning, no traceback.
    for name in ("live", "bulk"):
        assert "Traceback" not in workers.log(name).read_text(errors="replace"), workers.tail(name)


def test_a_killed_workers_unacknowledged_task_is_delivered_again_to_a_new_worker(
    on_rabbitmq, through_rabbitmq, tmp_path
):
    workers, gate = on_rabbitmq, tmp_path / "gate"
    first = workers.started["bulk"]
    task_id = _hold(through_rabbitmq, seconds=600, gate=str(gate))

    def runs(*, event: str = "start") -> list[dict[str, Any]]:
        return [e for e in workers.ran(event=event) if e["id"] == task_id]

    assert wait_until(runs, timeout=60)
    assert [e["worker_pid"] for e in runs()] == [first.pid]

    worker_kill(first)  # SIGKILL, pool included: no chance to acknowledge or reject
    # RabbitMQ puts it back in the queue as soon as the worker's connection is gone.
    assert wait_until(lambda: _waiting(through_rabbitmq, "bulk") == 1, timeout=30)
    # Its replacement, started without the models: this is about the broker.
    (second,) = workers.start(("bulk", "bulk"), warm=False)

    assert wait_until(lambda: len(runs()) == 2, timeout=60), workers.tail("bulk")
    again = runs()[-1]
    assert again["worker_pid"] == second.pid and again["redelivered"] is True
    gate.touch()
    assert wait_until(lambda: runs(event="end"), timeout=60)
    (end,) = runs(event="end")
    assert (end["worker_pid"], end["state"]) == (second.pid, "SUCCESS")
    # Acknowledged once it ran: it is not delivered a third time.
    assert _waiting(through_rabbitmq, "bulk") == 0
    assert "Traceback" not in workers.log("bulk").read_text(errors="replace")


def test_the_health_check_reaches_a_rabbitmq_broker(rabbitmq, settings, db):
    settings.CELERY_BROKER_URL = rabbitmq.url
    assert health.check_broker().ok

    settings.CELERY_BROKER_URL = rabbitmq.url.replace("guest:guest", "guest:wrong")
    refused = health.check_broker()
    assert not refused.ok and "wrong" not in str(refused.detail)
