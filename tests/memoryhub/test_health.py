import json
import time

import pytest
from django.db.utils import OperationalError
from django.test import override_settings

from memoryhub import health, tasks

pytestmark = pytest.mark.django_db


def _checks(response):
    return json.loads(response.content)["checks"]


def test_healthz_is_200_when_database_broker_and_worker_are_alive(client):
    health.worker_heartbeat_record()

    response = client.get("/healthz")

    assert response.status_code == 200
    body = json.loads(response.content)
    assert body["status"] == "ok"
    assert {name: check["status"] for name, check in body["checks"].items()} == {
        "database": "ok",
        "broker": "ok",
        "worker": "ok",
    }
    assert body["checks"]["worker"]["heartbeat_age_seconds"] < 5


def test_healthz_needs_no_login_and_shows_no_user_data(client, user):
    health.worker_heartbeat_record()

    response = client.get("/healthz")

    assert response.status_code == 200
    assert user.username.encode() not in response.content
    assert response["Cache-Control"].startswith("max-age=0")


def test_healthz_is_503_naming_the_database_when_it_fails(client, monkeypatch):
    health.worker_heartbeat_record()

    def broken_cursor(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(health.connection, "cursor", broken_cursor)

    response = client.get("/healthz")

    assert response.status_code == 503
    checks = _checks(response)
    assert checks["database"] == {"status": "failed", "error": "OperationalError"}
    assert checks["broker"]["status"] == "ok"
    assert checks["worker"]["status"] == "ok"


def test_healthz_is_503_naming_the_broker_when_it_does_not_answer(client):
    health.worker_heartbeat_record()

    # A port nothing listens on: the check gives up within its short timeout.
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:9/0"):
        started = time.monotonic()
        response = client.get("/healthz")
        elapsed = time.monotonic() - started

    assert response.status_code == 503
    checks = _checks(response)
    assert checks["broker"]["status"] == "failed"
    assert checks["database"]["status"] == "ok"
    assert elapsed < 10


def test_healthz_is_503_naming_the_broker_when_a_rabbitmq_broker_does_not_answer(client):
    """An AMQP URL is checked with an AMQP connection (tests/conversations/
    test_queues_rabbitmq.py checks one that answers)."""
    health.worker_heartbeat_record()

    with override_settings(CELERY_BROKER_URL="amqp://guest:guest@127.0.0.1:9//"):
        started = time.monotonic()
        response = client.get("/healthz")
        elapsed = time.monotonic() - started

    assert response.status_code == 503
    assert _checks(response)["broker"] == {"status": "failed", "error": "OperationalError"}
    assert elapsed < 10


def test_healthz_is_503_when_no_worker_ever_sent_a_heartbeat(client):
    response = client.get("/healthz")

    assert response.status_code == 503
    assert _checks(response)["worker"] == {
        "status": "failed",
        "error": "no heartbeat yet",
        "max_age_seconds": 300,
    }


@override_settings(MEMORYHUB_HEALTH_WORKER_MAX_AGE_SECONDS=60)
def test_healthz_is_503_when_the_worker_heartbeat_is_older_than_the_threshold(client):
    health.worker_heartbeat_record(now=time.time() - 61)

    response = client.get("/healthz")

    assert response.status_code == 503
    worker = _checks(response)["worker"]
    assert worker["status"] == "failed"
    assert worker["error"] == "heartbeat too old"
    assert worker["heartbeat_age_seconds"] >= 61


def test_the_heartbeat_task_records_a_fresh_heartbeat():
    tasks.worker_heartbeat()

    assert health.check_worker().ok


def test_beat_sends_the_heartbeat_task_more_often_than_the_threshold(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["worker-heartbeat"]

    assert entry["task"] == tasks.worker_heartbeat.name
    assert entry["schedule"] < settings.MEMORYHUB_HEALTH_WORKER_MAX_AGE_SECONDS


def test_healthz_refuses_writes(client):
    assert client.post("/healthz").status_code == 405
