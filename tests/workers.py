"""Real Celery worker processes for fault tests: started on the test broker and database.

`tests/conftest.py`'s `celery_worker_process` fixture starts the well-behaved one with these;
the fault tests also start a worker whose extraction pauses mid-transaction
(`tests/fault_worker.py`) and workers they kill.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import psutil

from memoryhub.runtime import data_dir
from tests.conftest import ROOT, test_database_url

WORKER_ARGS = ["--loglevel", "INFO", "--without-heartbeat", "--without-gossip", "--without-mingle"]


def worker_start(
    *,
    name: str,
    pool: str = "solo",
    entry: Sequence[str] = ("-m", "celery", "-A", "memoryhub", "worker"),
    env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start a worker named `name`; its output goes to `<data dir>/test-<name>.log`."""
    full_env = dict(os.environ, DATABASE_URL=test_database_url(), PYTHONUNBUFFERED="1")
    full_env.update(env or {})
    log_path = worker_log(name)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("ab") as log:
        return subprocess.Popen(
            [
                sys.executable,
                *entry,
                "--pool",
                pool,
                "-n",
                f"{name}-{os.getpid()}@%h",
                *WORKER_ARGS,
            ],
            cwd=ROOT,
            env=full_env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


def worker_log(name: str) -> Path:
    return data_dir() / f"test-{name}.log"


def worker_kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the worker and then its pool processes (they would hold their transactions)."""
    children = (
        psutil.Process(process.pid).children(recursive=True) if process.poll() is None else []
    )
    process.kill()
    process.wait()
    for child in children:
        with contextlib.suppress(psutil.NoSuchProcess):
            child.kill()
    psutil.wait_procs(children, timeout=10)


def worker_stop(process: subprocess.Popen[bytes]) -> None:
    """A warm shutdown, or a kill when it does not come."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker_kill(process)
