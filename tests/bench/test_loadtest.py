"""The load driver (`python -m bench.loadtest.run`) against a live gunicorn served as `make run`
serves it, with a real worker: a tiny run prints its table, has rows and no errors. No timing
is asserted. The driver runs in a process of its own (Locust patches the standard library
with gevent when it is imported)."""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from django.db import connection

from bench.loadtest import people
from bench.loadtest.sampling import group_of
from memoryhub.runtime import data_dir
from tests.conftest import ROOT, test_database_url, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        httpx2.get(url, timeout=5)
    except httpx2.HTTPError:
        return False
    return True


@pytest.fixture
def gunicorn(transactional_db: None) -> Iterator[str]:
    """gunicorn on a free port against the test database, as `make run` starts it."""
    port = _free_port()
    name = connection.settings_dict["NAME"]
    # Warm as under `make run`: the models are loaded before the first request, not by it.
    env = dict(os.environ, DATABASE_URL=test_database_url(), PYTHONUNBUFFERED="1")
    env["MEMORYHUB_WARM_UP"] = "1"
    with (data_dir() / f"test-loadtest-gunicorn-{name}.log").open("wb") as output:
        process = subprocess.Popen(
            [
                sys.executable,
                *f"-m gunicorn memoryhub.wsgi:application --bind 127.0.0.1:{port}".split(),
                *[
                    "--worker-class",
                    "gthread",
                    "--workers",
                    "1",
                    "--threads",
                    "4",
                    "--timeout",
                    "120",
                ],
                *("--config", "python:memoryhub.gunicorn_config"),
            ],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        assert wait_until(lambda: _answers(f"{url}/accounts/login/"), timeout=180), "no gunicorn"
        yield url
    finally:
        process.kill()
        process.wait(timeout=30)


def test_a_tiny_load_run_prints_a_table_with_a_row_and_no_errors(
    gunicorn: str, celery_worker_process: subprocess.Popen[bytes], tmp_path: Path
) -> None:
    report = tmp_path / "load.json"
    plot = tmp_path / "load.png"
    done = subprocess.run(
        [
            sys.executable,
            *("-m", "bench.loadtest.run", "--url", gunicorn, "--steps", "2"),
            *("--step-seconds", "25", "--warmup-seconds", "5", "--spawn-rate", "2"),
            *("--think", "0.5,1.5", "--data-dir", str(tmp_path)),
            *("--database-url", test_database_url()),
            *("--json", str(report), "--plot", str(plot)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert done.returncode == 0, done.stderr[-3000:]
    rows = json.loads(report.read_text())["rows"]
    assert [row["people"] for row in rows] == [2]
    assert rows[0]["failures"] == 0, rows[0]["errors"]
    assert rows[0]["actions"].get("reply", {}).get("count", 0) >= 1, rows[0]["actions"]
    assert rows[0]["server"]["db_connections_max"] >= 1
    assert "\n| 2 | " in done.stdout
    assert "knee: " in done.stdout
    assert plot.stat().st_size > 0


def test_the_driver_refuses_a_url_off_this_machine() -> None:
    from bench.loadtest.options import local_url

    assert local_url("http://127.0.0.1:8000/") == "http://127.0.0.1:8000"
    with pytest.raises(argparse.ArgumentTypeError):
        local_url("http://10.1.2.3:8000")


def test_steps_must_rise() -> None:
    from bench.loadtest.options import parse_steps

    assert parse_steps("10,20,40") == [10, 20, 40]
    for bad in ("40,20", "10,10", "0,5", "ten", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_steps(bad)


def test_a_korean_particle_follows_the_word_before_it() -> None:
    assert people.particle("김치찌개", "을/를") == "를"
    assert people.particle("비빔밥", "을/를") == "을"
    assert people.particle("부산", "으로/로") == "으로"
    assert people.particle("제주도", "으로/로") == "로"
    assert people.particle("서울", "으로/로") == "로"
    assert people.particle("콩이", "이야/야") == "야"
    assert people.particle("별", "이야/야") == "이야"


def test_messages_are_korean_and_english_and_fill_every_slot() -> None:
    rng = random.Random(7)
    written = [people.message(rng) for _ in range(200)]

    assert any(any("가" <= c <= "힣" for c in text) for text in written)
    assert any(text.isascii() for text in written)
    assert not any("{" in text or "}" in text for text in written)
    assert len(set(written)) > 100


def test_processes_are_grouped_by_what_they_run() -> None:
    def group(command: str) -> str | None:
        return group_of(command.split(), driver_pid=1, pid=2)

    assert group("python -m gunicorn memoryhub.wsgi:application") == "web"
    assert group("python -m celery -A memoryhub worker -Q live -n live@host") == "worker live"
    assert group("python -m celery -A memoryhub worker -Q bulk,celery -n bulk@h") == "worker bulk"
    assert group("python -m celery -A memoryhub beat -l INFO") == "beat"
    assert group("postgres: memoryhub memoryhub [local] idle") == "postgres"
    assert group("valkey-server 127.0.0.1:6390") == "broker"
    assert group("python -m pytest") is None
