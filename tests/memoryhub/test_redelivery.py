"""memoryhub.redelivery is for Redis/Valkey brokers; on RabbitMQ (AMQP) it does nothing.

Its work on Redis is tested with real workers in tests/test_worker_faults.py, and RabbitMQ's
own redelivery in tests/conversations/test_queues_rabbitmq.py.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from celery import Celery

from memoryhub import redelivery


@pytest.mark.parametrize(
    "url", ["amqp://guest:guest@127.0.0.1:9//", "pyamqp://guest:guest@127.0.0.1:9/memoryhub"]
)
def test_a_worker_on_an_amqp_broker_records_nothing_and_starts_no_heartbeat(url, monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", url)  # Celery reads it before its own setting
    app = Celery("amqp-worker", broker=url, set_as_current=False)
    consumer = SimpleNamespace(app=app)
    delivery = SimpleNamespace(message=SimpleNamespace(delivery_tag=7))

    # No broker listens on port 9: anything that tried to reach it would raise.
    redelivery._on_worker_ready(sender=consumer)
    redelivery._on_task_received(sender=consumer, request=delivery)
    redelivery._on_worker_shutdown()

    assert redelivery._incarnation(app) is None
    assert redelivery._current is None
