"""The product's Celery worker, writing down each task it runs (RabbitMQ tests only).

Run as `python tests/rabbit_worker.py worker <options>`: the product's app, settings, queues
and routes unchanged, plus
- each task's start and end appended as a JSON line to `$RABBIT_TEST_EVENTS`: which worker
  (`$RABBIT_TEST_WORKER`, and its process id), the routing key it was delivered with, and
  whether the broker delivered it again;
- `tests.hold`, a task that waits until the file `gate` exists or `seconds` pass: bulk work
  of a known length, and a task to kill a worker in. It has no options of its own, so it is
  acknowledged late as the settings say for every task.
Nothing here is importable by the product.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

HOLD = "tests.hold"


def main() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")
    django.setup()
    from celery import Task, signals

    from memoryhub.celery import app

    events = Path(os.environ["RABBIT_TEST_EVENTS"])
    worker = os.environ["RABBIT_TEST_WORKER"]

    def write(event: str, task: Task[Any, Any], **extra: Any) -> None:
        delivery = task.request.delivery_info or {}
        line = {
            "event": event,
            "worker": worker,
            "worker_pid": os.getppid(),  # the worker's main process (tasks run in its pool)
            "hostname": task.request.hostname,
            "task": task.name,
            "id": task.request.id,
            "routing_key": delivery.get("routing_key"),
            "redelivered": bool(delivery.get("redelivered")),
            "time": time.time(),
            **extra,
        }
        with events.open("a") as handle:  # one short line per write: appends do not mix
            handle.write(json.dumps(line) + "\n")

    def started(task: Task[Any, Any], **_: Any) -> None:
        write("start", task)

    def ended(task: Task[Any, Any], state: str | None = None, **_: Any) -> None:
        write("end", task, state=state)

    signals.task_prerun.connect(started, weak=False)
    signals.task_postrun.connect(ended, weak=False)

    def hold(*, seconds: float, gate: str = "") -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not (gate and Path(gate).exists()):
            time.sleep(0.05)

    app.task(name=HOLD)(hold)
    app.worker_main(sys.argv[1:])


if __name__ == "__main__":
    main()
