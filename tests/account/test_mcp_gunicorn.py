"""`/mcp/` under gunicorn as `make run` serves it (gthread, several worker processes): the
official client's calls land on both workers and all succeed (the server keeps no session
between requests), and the server stops at once on SIGTERM (nothing of the SDK lingers)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from django.db import connection
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from memories.services.agents import agent_create
from memories.services.revision import memory_create
from memoryhub.runtime import data_dir
from tests.conftest import ROOT, test_database_url, wait_until

TEA = "I drink green tea every morning instead of coffee."
WORKERS = 2
ACCESS_FORMAT = '%(p)s "%(r)s" %(s)s'  # the worker's pid first


@pytest.fixture
def gunicorn(transactional_db: None) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """gunicorn on a free port against the test database; yields its base URL, process
    and access log (one line per request: the worker's pid, the request line, the status)."""
    port = _free_port()
    name = connection.settings_dict["NAME"]
    access_log = data_dir() / f"test-mcp-gunicorn-{name}-access.log"
    access_log.unlink(missing_ok=True)
    env = dict(os.environ, DATABASE_URL=test_database_url(), PYTHONUNBUFFERED="1")
    with (data_dir() / f"test-mcp-gunicorn-{name}.log").open("wb") as output:
        process = subprocess.Popen(
            [
                sys.executable,
                *f"-m gunicorn memoryhub.wsgi:application --bind 127.0.0.1:{port}".split(),
                *f"--worker-class gthread --workers {WORKERS} --threads 4 --timeout 120".split(),
                *("--access-logfile", str(access_log), "--access-logformat", ACCESS_FORMAT),
            ],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        assert wait_until(lambda: _answers(f"{url}/mcp/"), timeout=120), "gunicorn did not start"
        yield url, process, access_log
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        return httpx2.get(url, timeout=5).status_code == 405
    except httpx2.HTTPError:
        return False


def _workers_serving(access_log: Path) -> set[str]:
    lines = access_log.read_text().splitlines() if access_log.exists() else []
    return {m[1] for line in lines if (m := re.match(r'<(\d+)> "POST /mcp/ \S+" 200', line))}


async def _search(url: str, token: str) -> list[int]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool("search_memory", {"query": "green tea", "k": 5})
        assert not result.is_error, result.content
        assert result.structured_content is not None
        return [m["id"] for m in result.structured_content["memories"]]


def test_gthread_workers_all_serve_mcp_and_stop_at_once_on_sigterm(
    gunicorn: tuple[str, subprocess.Popen[bytes], Path], user: Any
) -> None:
    url, process, access_log = gunicorn
    tea = memory_create(user=user, type="preference", content=TEA)
    _, token = agent_create(user=user, name="desktop", scopes=["read"])
    found: list[list[int]] = []

    async def batch() -> None:
        async def one() -> None:
            found.append(await _search(f"{url}/mcp/", token))

        async with anyio.create_task_group() as group:
            for _ in range(6):
                group.start_soon(one)

    # Batches of concurrent sessions until both workers have answered (a few at most).
    for _ in range(8):
        anyio.run(batch)
        if len(_workers_serving(access_log)) == WORKERS:
            break

    assert len(_workers_serving(access_log)) == WORKERS
    assert found and all(ids == [tea.pk] for ids in found)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
