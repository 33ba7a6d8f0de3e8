"""`make run` starts everything and leaves nothing behind (slow: a whole product start)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(data_dir: str, port: int, log_path: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
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
