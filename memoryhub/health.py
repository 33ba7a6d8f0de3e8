"""`/healthz`: is the database, the broker and a Celery worker alive? No auth, no user data.

The worker's side is a heartbeat: beat enqueues `memoryhub.tasks.worker_heartbeat` every
minute and a worker running it records the time in the cache. Its age tells that beat, the
broker and at least one worker all work.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

import redis
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from memoryhub.celery import app

logger = logging.getLogger(__name__)

HEARTBEAT_KEY = "health:worker-heartbeat"
TIMEOUT_SECONDS = 2.0


@dataclass(frozen=True)
class Check:
    ok: bool
    detail: dict[str, Any]


def worker_heartbeat_record(*, now: float | None = None) -> None:
    """Record that a worker is alive (called by the periodic task)."""
    cache.set(HEARTBEAT_KEY, time.time() if now is None else now, timeout=None)


def check_database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        logger.warning("healthz: database check failed: %s", type(exc).__name__)
        return Check(False, {"error": type(exc).__name__})
    return Check(True, {})


def _amqp_ping(url: str) -> None:
    """Open and close an AMQP connection (RabbitMQ), failing within the timeout."""
    with app.connection_for_read(url, connect_timeout=TIMEOUT_SECONDS) as broker:
        broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0)


def check_broker() -> Check:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://", "unix://")):
        try:
            _amqp_ping(url)
        except Exception as exc:
            logger.warning("healthz: broker check failed: %s", type(exc).__name__)
            return Check(False, {"error": type(exc).__name__})
        return Check(True, {})
    client = redis.Redis.from_url(
        settings.CELERY_BROKER_URL,
        socket_connect_timeout=TIMEOUT_SECONDS,
        socket_timeout=TIMEOUT_SECONDS,
    )
    try:
        client.ping()
    except Exception as exc:
        logger.warning("healthz: broker check failed: %s", type(exc).__name__)
        return Check(False, {"error": type(exc).__name__})
    finally:
        client.close()
    return Check(True, {})


def check_worker(*, now: float | None = None) -> Check:
    max_age = settings.MEMORYHUB_HEALTH_WORKER_MAX_AGE_SECONDS
    try:
        beat = cache.get(HEARTBEAT_KEY)
    except Exception as exc:
        logger.warning("healthz: heartbeat unreadable: %s", type(exc).__name__)
        return Check(False, {"error": type(exc).__name__, "max_age_seconds": max_age})
    if not isinstance(beat, int | float):
        return Check(False, {"error": "no heartbeat yet", "max_age_seconds": max_age})
    age = max(0.0, (time.time() if now is None else now) - float(beat))
    detail = {"heartbeat_age_seconds": round(age, 1), "max_age_seconds": max_age}
    if age > max_age:
        return Check(False, {"error": "heartbeat too old", **detail})
    return Check(True, detail)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when every part is healthy, else 503; the body says which part failed."""
    checks = {"database": check_database(), "broker": check_broker(), "worker": check_worker()}
    healthy = all(check.ok for check in checks.values())
    body = {
        "status": "ok" if healthy else "unhealthy",
        "checks": {
            name: {"status": "ok" if check.ok else "failed", **check.detail}
            for name, check in checks.items()
        },
    }
    return JsonResponse(body, status=200 if healthy else 503)
