"""What `make run` says when it cannot start, and its per-run log files (no product start)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import fasteners
import psutil
import pytest

from memoryhub.launcher import rotate_logs, tail
from tests.conftest import ROOT


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(data_dir: Path, port: int, **extra: str) -> subprocess.CompletedProcess[str]:
    outer = ("DATABASE_URL", "CELERY_BROKER_URL", "MEMORYHUB_CACHE_URL")
    env = {k: v for k, v in os.environ.items() if k not in outer}
    env.update(MEMORYHUB_DATA_DIR=str(data_dir), PORT=str(port), **extra)
    return subprocess.run(
        [sys.executable, "-m", "memoryhub.launcher", "run"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def data_dir():
    folder = Path(tempfile.mkdtemp(prefix="mhs", dir="/tmp"))
    yield folder
    subprocess.run(["rm", "-rf", str(folder)], check=False)


@pytest.fixture
def stranger():
    """A process that is no part of memoryhub, listening on a port."""
    port = _free_port()
    code = (
        "import socket, time; s = socket.socket(); "
        f"s.bind(('127.0.0.1', {port})); s.listen(); time.sleep(120)"
    )
    process = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    yield process, port
    process.kill()
    process.wait()


def test_a_taken_port_is_named_with_the_process_that_holds_it_and_what_to_do(data_dir, stranger):
    process, port = stranger

    done = _run(data_dir, port)

    assert done.returncode == 1
    said = done.stdout
    assert f"port {port} is in use by PID {process.pid} (" in said
    assert "import socket" in said  # its command, as ps shows it
    assert f"kill {process.pid}" in said and f"PORT={port + 1}" in said
    assert not (data_dir / "pg").exists()  # refused before anything was started


def test_processes_an_earlier_run_left_behind_are_named_and_nothing_starts(data_dir):
    left = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        record = {
            "launcher": 999999,
            "processes": [{"pid": left.pid, "started": psutil.Process(left.pid).create_time()}],
        }
        (data_dir / "run.json").write_text(json.dumps(record))

        done = _run(data_dir, _free_port())
    finally:
        left.kill()
        left.wait()

    assert done.returncode == 1
    assert "processes of an earlier run with this data folder are still running" in done.stdout
    assert f"PID {left.pid} (" in done.stdout and f"kill {left.pid}" in done.stdout
    assert not (data_dir / "pg").exists()


def test_a_recorded_pid_now_used_by_another_process_is_not_a_leftover(data_dir, stranger):
    process, _ = stranger
    started = psutil.Process(process.pid).create_time() - 100  # the pid was reused since
    record = {"launcher": 999999, "processes": [{"pid": process.pid, "started": started}]}
    (data_dir / "run.json").write_text(json.dumps(record))
    from memoryhub import launcher

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMORYHUB_DATA_DIR", str(data_dir))
        assert launcher.leftover_processes() == []


def test_a_second_run_on_the_same_data_folder_names_the_first(data_dir):
    lock = fasteners.InterProcessLock(str(data_dir / "run.lock"))
    assert lock.acquire(blocking=False)
    try:
        (data_dir / "run.json").write_text(json.dumps({"launcher": os.getpid(), "processes": []}))

        done = _run(data_dir, _free_port())
    finally:
        lock.release()

    assert done.returncode == 1
    assert f"PID {os.getpid()} (" in done.stdout
    assert f"is already running memoryhub with the data folder {data_dir}" in done.stdout
    assert "MEMORYHUB_DATA_DIR=" in done.stdout


def test_a_failed_migration_is_shown_with_the_end_of_its_log_and_where_the_log_is(data_dir):
    done = _run(data_dir, _free_port(), DATABASE_URL="postgresql://nobody@127.0.0.1:1/nothing")

    assert done.returncode == 1
    log = data_dir / "logs" / "migrate.log"
    said = done.stdout
    assert "could not start: `manage.py migrate` exited with code 1" in said
    assert f"the whole log: {log}" in said
    assert "OperationalError" in log.read_text()
    assert "OperationalError" in said  # the lines that say why, not only a pointer
    started = [
        p
        for p in psutil.process_iter(["cmdline"])
        if str(data_dir) in " ".join(p.info["cmdline"] or [])
    ]
    assert started == []  # its broker was stopped too


def test_each_run_starts_new_log_files_and_keeps_the_three_before(tmp_path):
    logs = tmp_path / "logs"
    for run in range(1, 6):
        rotate_logs(logs)
        (logs / "web.log").write_text(f"run {run}\n")

    assert (logs / "web.log").read_text() == "run 5\n"
    assert [(logs / f"web.log.{n}").read_text() for n in (1, 2, 3)] == [
        "run 4\n",
        "run 3\n",
        "run 2\n",
    ]
    assert sorted(p.name for p in logs.iterdir()) == [
        "web.log",
        "web.log.1",
        "web.log.2",
        "web.log.3",
    ]
    assert oct(logs.stat().st_mode & 0o777) == "0o700"


def test_the_end_of_a_log_leaves_out_blank_lines(tmp_path):
    log = tmp_path / "x.log"
    log.write_text("one\n\ntwo\nthree\n\n")

    assert tail(log, lines=2) == ["two", "three"]
    assert tail(tmp_path / "missing.log") == []
