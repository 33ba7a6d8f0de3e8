"""Celery tasks of the project itself."""

from __future__ import annotations

from celery import shared_task

from memoryhub import health


@shared_task(ignore_result=True, expires=120)
def worker_heartbeat() -> None:
    """Beat sends this every minute; a worker running it proves the task pipeline works."""
    health.worker_heartbeat_record()
