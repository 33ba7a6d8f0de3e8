"""A real worker logs as the web does: JSON lines carrying the id of the request that queued
the task (issue 7's request ids and JSON logs, in the worker's own log)."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from memoryhub.logs import request_id_var
from memoryhub.tasks import worker_heartbeat
from tests.conftest import wait_until
from tests.workers import worker_log, worker_start, worker_stop

pytestmark = [pytest.mark.worker, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _json_lines(text: str) -> list[dict[str, object]]:
    lines = []
    for line in text.splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def test_a_task_queued_by_a_request_logs_that_requests_id_as_json_in_the_worker():
    name = f"jsonlog-{connection.settings_dict['NAME']}"
    log = worker_log(name)
    log.unlink(missing_ok=True)
    worker = worker_start(name=name, env={"MEMORYHUB_LOG_JSON": "true"})
    try:
        token = request_id_var.set("req-worker-json-1")
        try:
            task_id = worker_heartbeat.delay().id
        finally:
            request_id_var.reset(token)

        def finished() -> bool:
            return log.exists() and f"[{task_id}] succeeded" in log.read_text(errors="replace")

        assert wait_until(finished, timeout=90), log.read_text(errors="replace")[-3000:]
    finally:
        worker_stop(worker)

    lines = _json_lines(log.read_text(errors="replace"))
    done = next(line for line in lines if f"[{task_id}] succeeded" in str(line["message"]))
    assert done["request_id"] == "req-worker-json-1"
    assert done["logger"] == "celery.app.trace"
    assert {"time", "level", "user_id"} <= set(done)
    started = [line for line in lines if "ready" in str(line["message"])]
    assert started, "the worker's own lines are JSON too"
    assert all(line.get("request_id") is None for line in started)
