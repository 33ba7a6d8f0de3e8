"""A killed worker's tasks are delivered again within seconds, with a long visibility timeout.

With Redis as the broker, a message a worker has taken sits in the broker's `unacked` hash until
the task acknowledges it (acks_late). kombu puts it back in the queue when the worker shuts down
cleanly, when a prefork child dies (`task_reject_on_worker_lost`), or after the visibility
timeout, which must stay longer than the longest task (2 h) so a running task is not started
twice. A worker killed outright (SIGKILL, the OOM killer, a lost machine) would leave its
messages there for those 2 h.

So each worker process records the delivery tags it takes under its own incarnation id and
keeps a liveness key with a short TTL (`MEMORYHUB_WORKER_LOST_SECONDS`). Every live worker
looks for incarnations whose key has expired and puts their still-unacknowledged messages back
in the queue with kombu's own restore (which marks them redelivered). Tasks are idempotent, so
even a message restored while its task was still running changes nothing the second time.
Other brokers (RabbitMQ) redeliver on a lost connection themselves; this does nothing there.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import redis
from celery import Celery, signals
from django.conf import settings

logger = logging.getLogger(__name__)

_PREFIX = "memoryhub:worker"
REGISTRY_KEY = f"{_PREFIX}:incarnations"


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def alive_key(incarnation: str) -> str:
    return f"{_PREFIX}:{incarnation}:alive"


def tags_key(incarnation: str) -> str:
    return f"{_PREFIX}:{incarnation}:tags"


@dataclass
class Incarnation:
    """This worker process's identity in the broker, and its heartbeat thread."""

    app: Celery
    client: redis.Redis
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    @property
    def ttl(self) -> int:
        return int(settings.MEMORYHUB_WORKER_LOST_SECONDS)

    def mark_alive(self, *tags: str) -> None:
        """Refresh the liveness key, then record `tags` (alive first: never orphaned early)."""
        pipe = self.client.pipeline(transaction=True)
        pipe.set(alive_key(self.id), 1, ex=self.ttl)
        pipe.sadd(REGISTRY_KEY, self.id)
        if tags:
            pipe.sadd(tags_key(self.id), *tags)
        pipe.execute()


_current: Incarnation | None = None


def _uses_redis(app: Celery) -> bool:
    url = str(app.conf.broker_url or "")
    return url.startswith(("redis://", "rediss://", "unix://"))


@contextlib.contextmanager
def _broker_qos(app: Celery) -> Iterator[Any]:
    """kombu's Redis QoS (the unacked hash and its restore) on a fresh connection."""
    with app.connection_for_write() as conn:
        yield conn.default_channel.qos


def orphans_restore(*, app: Celery, client: redis.Redis, own: str | None = None) -> int:
    """Put back in the queue the unacknowledged messages of workers that are gone.

    Safe to run from any number of workers at once: kombu's restore moves a message inside a
    WATCH/MULTI transaction, so it is restored once, and an acknowledged one not at all.
    """
    restored = 0
    dead = [
        incarnation
        for incarnation in (_text(raw) for raw in client.smembers(REGISTRY_KEY))
        if incarnation != own and not client.exists(alive_key(incarnation))
    ]
    if not dead:
        return 0
    with _broker_qos(app) as qos:
        for incarnation in dead:
            for tag in client.smembers(tags_key(incarnation)):
                if client.hexists(qos.unacked_key, tag):
                    qos.restore_by_tag(_text(tag))
                    restored += 1
            client.delete(tags_key(incarnation))
            client.srem(REGISTRY_KEY, incarnation)
    if restored:
        logger.warning("restored %d task(s) of %d lost worker(s)", restored, len(dead))
    return restored


def _forget_acknowledged(incarnation: Incarnation) -> None:
    """Drop this worker's recorded tags that are no longer unacknowledged (done)."""
    with _broker_qos(incarnation.app) as qos:
        unacked_key = qos.unacked_key
    client = incarnation.client
    for tag in client.smembers(tags_key(incarnation.id)):
        if not client.hexists(unacked_key, tag):
            client.srem(tags_key(incarnation.id), tag)


def _heartbeat(incarnation: Incarnation) -> None:
    interval = max(1.0, incarnation.ttl / 3)
    while True:
        try:
            incarnation.mark_alive()
            orphans_restore(app=incarnation.app, client=incarnation.client, own=incarnation.id)
            _forget_acknowledged(incarnation)
        except Exception:  # the broker is away; the next beat tries again
            logger.warning("worker heartbeat failed", exc_info=True)
        if incarnation.stop.wait(interval):
            return


def _incarnation(app: Celery) -> Incarnation | None:
    """This worker process's incarnation, made on first use; None off Redis."""
    global _current
    if _current is None and _uses_redis(app):
        _current = Incarnation(app=app, client=redis.Redis.from_url(str(app.conf.broker_url)))
    return _current


def _on_worker_ready(sender: Any = None, **_: Any) -> None:
    incarnation = _incarnation(sender.app)
    if incarnation is None or incarnation.thread is not None:
        return
    incarnation.thread = threading.Thread(
        target=_heartbeat, args=(incarnation,), name="memoryhub-heartbeat", daemon=True
    )
    incarnation.thread.start()


def _on_task_received(sender: Any = None, request: Any = None, **_: Any) -> None:
    incarnation = _incarnation(sender.app)
    tag = getattr(getattr(request, "message", None), "delivery_tag", None)
    if incarnation is None or not tag:
        return
    try:
        incarnation.mark_alive(str(tag))
    except redis.RedisError:  # then only the visibility timeout brings it back
        logger.warning("could not record delivery %s", tag, exc_info=True)


def _on_worker_shutdown(**_: Any) -> None:
    """A clean stop: kombu restores what this worker held; forget this incarnation."""
    global _current
    incarnation, _current = _current, None
    if incarnation is None:
        return
    incarnation.stop.set()
    if incarnation.thread is not None:
        incarnation.thread.join(timeout=5)
    with contextlib.suppress(redis.RedisError):
        incarnation.client.delete(alive_key(incarnation.id), tags_key(incarnation.id))
        incarnation.client.srem(REGISTRY_KEY, incarnation.id)


def connect_worker_signals() -> None:
    """Called once by the Celery app module; the handlers act only in a worker process."""
    signals.worker_ready.connect(_on_worker_ready, weak=False)
    signals.task_received.connect(_on_task_received, weak=False)
    signals.worker_shutdown.connect(_on_worker_shutdown, weak=False)
