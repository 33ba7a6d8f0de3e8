"""The Celery app; tasks live in each app's `tasks.py`."""

import os

from celery import Celery

from memoryhub.recovery import connect_worker_signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryhub.settings")

app = Celery("memoryhub")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# A killed worker's unacknowledged tasks are queued again within seconds, not hours.
connect_worker_signals()
