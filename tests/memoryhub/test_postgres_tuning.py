"""The embedded PostgreSQL gets memory settings sized to the machine (docs/benchmarks.md)."""

from __future__ import annotations

import os
from urllib.parse import parse_qs, urlparse

import pytest
from django.db import connection

from memoryhub import launcher
from memoryhub.runtime import pgdata_dir


def test_shared_buffers_default_to_a_quarter_of_memory_at_most_4gb(monkeypatch):
    monkeypatch.delenv("MEMORYHUB_PG_SHARED_BUFFERS", raising=False)
    total_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // (1024 * 1024)
    shared = launcher.memory_settings()["shared_buffers"]
    assert shared == f"{max(128, min(total_mb // 4, 4096))}MB"


def test_shared_buffers_can_be_set(monkeypatch):
    monkeypatch.setenv("MEMORYHUB_PG_SHARED_BUFFERS", "512MB")
    assert launcher.memory_settings()["shared_buffers"] == "512MB"


@pytest.mark.parametrize("value", ["lots", "512", "2 GB", "0MB", "1GB'; DROP TABLE x; --"])
def test_a_shared_buffers_setting_that_is_not_a_size_stops_the_launch(monkeypatch, value):
    monkeypatch.setenv("MEMORYHUB_PG_SHARED_BUFFERS", value)
    with pytest.raises(launcher.LaunchError, match="MEMORYHUB_PG_SHARED_BUFFERS"):
        launcher.memory_settings()


@pytest.mark.django_db
def test_the_embedded_server_runs_with_those_settings():
    host = parse_qs(urlparse(os.environ.get("DATABASE_URL", "")).query).get("host", [""])[0]
    if host != str(pgdata_dir()):
        pytest.skip("the tests run against an external PostgreSQL")
    wanted = launcher.memory_settings()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_size_bytes(current_setting('shared_buffers')) = pg_size_bytes(%s), "
            "pg_size_bytes(current_setting('effective_cache_size')) = pg_size_bytes(%s)",
            [wanted["shared_buffers"], wanted["effective_cache_size"]],
        )
        assert cursor.fetchone() == (True, True)
