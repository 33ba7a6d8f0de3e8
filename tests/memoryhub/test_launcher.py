"""`make run` starts everything and leaves nothing behind (slow: a whole product start)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psutil
import pytest
import redis

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(data_dir: str, port: int, log_path: Path) -> subprocess.Popen[bytes]:
    outer = ("DATABASE_URL", "CELERY_BROKER_URL", "MEMORYHUB_CACHE_URL")
    env = {k: v for k, v in os.environ.items() if k not in outer}
    env.update(MEMORYHUB_DATA_DIR=data_dir, PORT=str(port), ANTHROPIC_API_KEY="")
    return subprocess.Popen(
        ["make", "-s", "run"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=log_path.open("wb"),
        stderr=subprocess.STDOUT,
    )


def _wait_for_url(log_path: Path, process: subprocess.Popen[bytes], timeout: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if "memoryhub is running at" in log_path.read_text(errors="replace"):
            return time.monotonic() - started
        assert process.poll() is None, log_path.read_text(errors="replace")[-3000:]
        time.sleep(0.2)
    raise AssertionError("not up in time:\n" + log_path.read_text(errors="replace")[-3000:])


def _everything_started(process: subprocess.Popen[bytes], data_dir: str) -> list[psutil.Process]:
    found = psutil.Process(process.pid).children(recursive=True)
    postmaster = Path(data_dir, "pg", "postmaster.pid")
    if postmaster.exists():
        pid = int(postmaster.read_text().splitlines()[0])
        found.append(psutil.Process(pid))
        found += psutil.Process(pid).children(recursive=True)
    return found


def _stop(process: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    os.kill(process.pid, sig)
    process.wait(timeout=90)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _assert_valkeys_are_private(data_dir: str, runtime: dict[str, str], log_path: Path) -> None:
    """Issue 13 line 8: a password from the data folder, owner-only files, no cache on disk."""
    password_file = Path(data_dir, "valkey.password")
    password = password_file.read_text().strip()
    assert len(password) >= 32 and _mode(password_file) == 0o600
    assert _mode(Path(data_dir, "runtime.json")) == 0o600
    assert password not in log_path.read_text(errors="replace")  # never printed
    broker = redis.Redis.from_url(runtime["broker_url"])
    cache = redis.Redis.from_url(runtime["cache_url"])
    assert broker.connection_pool.connection_kwargs["password"] == password
    for url in (runtime["broker_url"], runtime["cache_url"]):
        port = redis.Redis.from_url(url).connection_pool.connection_kwargs["port"]
        with pytest.raises(redis.exceptions.AuthenticationError):
            redis.Redis(host="127.0.0.1", port=port).ping()
    # The broker keeps an append-only file, so queued tasks survive; the cache writes nothing.
    assert broker.config_get("appendonly") == {"appendonly": "yes"}
    assert broker.config_get("save") == {"save": ""}
    assert cache.config_get("appendonly") == {"appendonly": "no"}
    assert cache.config_get("save") == {"save": ""}
    broker_dir = Path(str(broker.config_get("dir")["dir"]))
    assert broker_dir == Path(data_dir, "valkey")
    assert wait_for(lambda: any(broker_dir.rglob("*.aof")))
    for path in [broker_dir, *broker_dir.rglob("*")]:
        assert _mode(path) == (0o700 if path.is_dir() else 0o600), path
    cache_dir = Path(str(cache.config_get("dir")["dir"]))
    assert [p.name for p in cache_dir.iterdir()] == ["valkey.log"]
    assert _mode(cache_dir) == 0o700


def wait_for(predicate: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def _assert_the_access_log_drops_query_strings(port: int, log_path: Path) -> None:
    page = urllib.request.urlopen(
        f"http://127.0.0.1:{port}/accounts/login/?next=/memories/%3Fq%3Dzqaccesscanary",
        timeout=60,
    )
    assert page.status == 200
    assert wait_for(lambda: '"GET /accounts/login/ HTTP/1.1" 200' in log_path.read_text()), (
        log_path.read_text()[-3000:]
    )
    assert "zqaccesscanary" not in log_path.read_text(errors="replace")


def test_make_run_serves_the_product_and_stops_every_process_it_started(tmp_path):
    data_dir = tempfile.mkdtemp(prefix="mh", dir="/tmp")  # short: the socket path has a limit
    port = _free_port()
    log_path = tmp_path / "run.log"
    try:
        process = _start(data_dir, port, log_path)
        _wait_for_url(log_path, process, timeout=300)
        names = {p.name() for p in _everything_started(process, data_dir)}
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=60)
        assert page.status == 200
        with pytest.raises(urllib.error.HTTPError) as unauthorised:
            urllib.request.urlopen(
                urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/sessions/", method="POST"),
                timeout=60,
            )
        assert unauthorised.value.code == 401
        assert json.loads(unauthorised.value.read())["error"]["code"] == "not_authenticated"
        assert "postgres" in names and "valkey-server" in names
        runtime = json.loads(Path(data_dir, "runtime.json").read_text())
        assert runtime["database_url"].startswith("postgresql://")
        _assert_valkeys_are_private(data_dir, runtime, log_path)
        _assert_the_access_log_drops_query_strings(port, log_path)

        started = _everything_started(process, data_dir)
        _stop(process, signal.SIGTERM)  # what `kill make` sends

        time.sleep(1)
        alive = [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        assert alive == [], f"left behind: {[(p.pid, p.name()) for p in alive]}"
        assert not Path(data_dir, "runtime.json").exists()

        # A second run reuses the data and is up quickly; Ctrl-C (SIGINT to the group) stops it.
        second = _start(data_dir, port, log_path)
        seconds = _wait_for_url(log_path, second, timeout=300)
        print(f"second start: {seconds:.1f} s")
        started = _everything_started(second, data_dir)
        os.killpg(second.pid, signal.SIGINT)
        second.wait(timeout=90)
        time.sleep(1)
        alive = [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        assert alive == [], f"left behind: {[(p.pid, p.name()) for p in alive]}"
    finally:
        for proc in psutil.process_iter(["cmdline"]):
            if data_dir in " ".join(proc.info["cmdline"] or []):
                proc.kill()
        shutil.rmtree(data_dir, ignore_errors=True)
