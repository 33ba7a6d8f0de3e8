"""gunicorn settings and hooks for `make run` (`gunicorn -c python:memoryhub.gunicorn_config`).

The master loads the app and Kiwi once (`preload_app`, `when_ready`), and every worker it
forks shares them and is warm; each worker then creates its own embedder (not fork-safe, see
`memoryhub.warmup`), reports itself ready to the launcher, and dies with the master.
On SIGTERM the workers get `graceful_timeout` seconds to finish what they serve (a streaming
reply, an SSE connection), then the master kills them, well inside the launcher's own grace.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

from memoryhub import warmup

preload_app = True
graceful_timeout = 5


def when_ready(server: Any) -> None:
    """In the master, after the app is loaded and before any worker is forked."""
    warmup.before_fork(web=True)


def post_fork(server: Any, worker: Any) -> None:
    warmup.die_with_parent(parent=server.pid)


def post_worker_init(worker: Any) -> None:
    warmup.after_fork()
    warmup.report_ready("web")


def worker_exit(server: Any, worker: Any) -> None:
    """A worker told to stop leaves without the interpreter's teardown: freeing the Kiwi model
    it shares with the master writes to every page of it, copying ~500 MB page by page (4 s
    of a 7 s stop under load). A worker that failed to boot exits as gunicorn has it exit,
    with the code that tells the master why."""
    if worker.booted and not worker.alive:
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
