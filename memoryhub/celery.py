"""The Celery app; tasks live in each app's `tasks.py`."""

import os
from logging.config import dictConfig
from typing import Any

from celery import Celery, signals

from memoryhub import warmup
from memoryhub.recovery import connect_worker_signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")

app = Celery("memoryhub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# A killed worker's unacknowledged tasks are queued again within seconds, not hours.
connect_worker_signals()
# Under `make run` (MEMORYHUB_WARM_UP=1) a worker loads its models before it takes a task.
warmup.connect_worker_signals()


@signals.setup_logging.connect
def _log_as_the_web_does(**_: Any) -> None:
    """Workers and beat log through `settings.LOGGING`, as the web does: JSON lines with
    request_id and user_id when MEMORYHUB_LOG_JSON is on. Without this receiver Celery
    replaces the root logger's handlers with its own plain format, and a task's log lines lose
    the id of the request that queued it. The level is MEMORYHUB_LOG_LEVEL, not --loglevel."""
    from django.conf import settings

    dictConfig(settings.LOGGING)
