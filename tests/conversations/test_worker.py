from datetime import timedelta

import psutil
import pytest
from django.utils import timezone

from conversations.models import ChatSession
from tests.conftest import wait_until

pytestmark = pytest.mark.worker


def test_a_real_worker_ends_sessions_and_runs_imports_through_the_broker(
    celery_worker_process, api
):
    session_id = api.post("/api/v1/sessions/", format="json").json()["id"]
    for text in ["React 프로젝트 Next.js로 마이그레이션하려고 해.", "Next.js App Router 설정했어."]:
        response = api.post(
            f"/api/v1/sessions/{session_id}/messages/", {"content": text}, format="json"
        )
        assert response.status_code == 201
    started = timezone.now() - timedelta(days=2)
    payload = {"sessions": [{"started_at": started.isoformat(), "messages": [
        {"role": "user", "content": "바이올린 레슨 다시 시작했어.",
         "created_at": started.isoformat(), "external_id": "w1"},
        {"role": "assistant", "content": "어떤 곡을 연습하세요?",
         "created_at": (started + timedelta(minutes=1)).isoformat(), "external_id": "w2"},
    ]}]}  # fmt: skip

    assert api.post(f"/api/v1/sessions/{session_id}/end/").status_code == 202
    import_id = api.post("/api/v1/imports/", payload, format="json").json()["id"]

    session = ChatSession.objects.filter(pk=session_id)
    assert wait_until(lambda: session.get().status == "ended", timeout=120), (
        "the worker did not end the session; see .data/test-worker-<test database>.log"
    )
    assert "마이그레이션" in session.get().tags

    def imported() -> bool:
        body = api.get(f"/api/v1/imports/{import_id}/").json()
        return body["status"] == "done" and body["sessions_pending"] == 0

    assert wait_until(imported, timeout=120), "the worker did not finish the import"
    body = api.get(f"/api/v1/imports/{import_id}/").json()
    assert body["vectors_pending"] == 0 and len(body["session_ids"]) == 1
    assert celery_worker_process.poll() is None


def _celery(*queues: str) -> tuple[str, ...]:
    return ("-m", "celery", "-A", "memoryhub", "worker", "-Q", ",".join(queues))


def test_a_live_worker_stores_a_chat_memory_while_an_import_waits_on_the_bulk_queue(
    transactional_db, api, user
):
    import redis
    from django.conf import settings
    from django.db import connection

    from memoryhub.celery import BULK_NICENESS, app
    from tests.workers import worker_log, worker_start, worker_stop

    app.control.purge()
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    name = connection.settings_dict["NAME"]
    started = timezone.now() - timedelta(days=2)
    payload = {"sessions": [{"started_at": started.isoformat(), "messages": [
        {"role": "user", "content": "I prefer hiking on Sundays.",
         "created_at": started.isoformat(), "external_id": "q1"},
    ]}]}  # fmt: skip
    import_id = api.post("/api/v1/imports/", payload, format="json").json()["id"]
    assert broker.llen("bulk") == 1

    live = worker_start(name=f"live-{name}", entry=_celery("live"))
    try:
        session_id = api.post("/api/v1/sessions/", format="json").json()["id"]
        response = api.post(
            f"/api/v1/sessions/{session_id}/messages/",
            {"content": "Remember that I prefer window seats on trains."},
            format="json",
        )
        assert response.status_code == 201
        memories = lambda: api.get("/api/v1/memories/").json()["results"]  # noqa: E731
        assert wait_until(lambda: len(memories()) == 1, timeout=120), worker_log(
            f"live-{name}"
        ).read_text()[-3000:]
        # The live worker never took the import: it waits for a worker of the bulk queue.
        assert api.get(f"/api/v1/imports/{import_id}/").json()["status"] == "queued"
        assert broker.llen("bulk") == 1
        assert psutil.Process(live.pid).nice() == 0
    finally:
        worker_stop(live)

    bulk = worker_start(name=f"bulk-{name}", entry=_celery("bulk", "celery"))
    try:

        def imported() -> bool:
            body = api.get(f"/api/v1/imports/{import_id}/").json()
            return body["status"] == "done" and body["sessions_pending"] == 0

        assert wait_until(imported, timeout=120), worker_log(f"bulk-{name}").read_text()[-3000:]
        # A worker of no live queue yields the CPU to those of the live one.
        assert psutil.Process(bulk.pid).nice() == BULK_NICENESS
    finally:
        worker_stop(bulk)
