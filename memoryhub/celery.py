"""The Celery app; tasks live in each app's `tasks.py`."""

import contextlib
import os
from collections.abc import Iterable
from logging.config import dictConfig
from typing import Any

from celery import Celery, signals
from django.conf import settings

from memoryhub import warmup
from memoryhub.redelivery import connect_worker_signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")

app = Celery("memoryhub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# A killed worker's unacknowledged tasks are queued again within seconds, not hours.
connect_worker_signals()
# Under `make run` (MEMORYHUB_WARM_UP=1) a worker loads its models before it takes a task.
warmup.connect_worker_signals()


@signals.celeryd_init.connect
def _one_thread_per_slot(**_: Any) -> None:
    """Worker slots are processes already: each runs the embedding model on one OpenMP thread
    (unless OMP_NUM_THREADS says otherwise). With a thread per core in every slot, threads
    spinning for a shared CPU made a one-sentence extraction take 1-6 s instead of 0.2 s on a
    busy 2-core machine (docs/benchmarks.md). Sent before the model is loaded or any fork."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")


# A worker that serves no live queue yields the CPU to those that do, and to the web: on a
# small machine an import must slow down, not the chat.
BULK_NICENESS = 10


def serves_live(queue_names: Iterable[str]) -> bool:
    return "live" in set(queue_names)


def _yield_cpu_unless_live(**_: Any) -> None:
    if serves_live(app.amqp.queues.consume_from or app.amqp.queues):
        return
    with contextlib.suppress(OSError):  # never raise it back, only lower it
        if os.getpriority(os.PRIO_PROCESS, 0) < BULK_NICENESS:
            os.setpriority(os.PRIO_PROCESS, 0, BULK_NICENESS)


# After -Q is applied, in the main process; and in each pool process, whenever it forked.
signals.celeryd_after_setup.connect(_yield_cpu_unless_live, weak=False)
signals.worker_process_init.connect(_yield_cpu_unless_live, weak=False)


@signals.setup_logging.connect
def _log_as_the_web_does(**_: Any) -> None:
    """Workers and beat log through `settings.LOGGING`, as the web does: JSON lines with
    request_id and user_id when MEMORYHUB_LOG_JSON is on. Without this receiver Celery
    replaces the root logger's handlers with its own plain format, and a task's log lines lose
    the id of the request that queued it. The level is MEMORYHUB_LOG_LEVEL, not --loglevel."""
    dictConfig(settings.LOGGING)
