"""Tasks take plain values, are idempotent and own their retries (issue 5 lines 4 and 10)."""

from __future__ import annotations

import pytest
from celery.exceptions import Retry

from memories.models import ExtractionRun, Memory
from memories.tasks import extract_from_exchange
from tests.anthropic_fake import failing
from tests.memories.conftest import version_of

pytestmark = pytest.mark.django_db


def test_the_extraction_task_stores_memories_and_a_rerun_changes_nothing(user):
    kwargs = {
        "user_id": user.pk,
        "user_text": "나 서울 강남에 살아",
        "assistant_text": "좋은 동네네요!",
        "source_message_id": 11,
        "source_session_id": 3,
        "observed_at": "2026-01-05T10:00:00+09:00",
    }

    first = extract_from_exchange.apply(kwargs=kwargs).get()
    second = extract_from_exchange.apply(kwargs=kwargs).get()

    assert first["status"] == "done"
    assert second == {"status": "skipped", "memory_ids": []}
    memory = Memory.objects.get(user=user)
    assert version_of(memory).observed_at.isoformat() == "2026-01-05T01:00:00+00:00"
    assert version_of(memory).source_session_id == 3


def test_the_extraction_task_is_acknowledged_late_and_requeued_on_worker_loss():
    assert extract_from_exchange.acks_late is True
    assert extract_from_exchange.reject_on_worker_lost is True


def test_an_unreachable_model_is_retried_then_recorded_as_a_failure(user, anthropic):
    anthropic([failing(529)] * 10)
    kwargs = {"user_id": user.pk, "user_text": "나는 커피를 좋아해", "source_message_id": 12}

    with pytest.raises(Retry):
        extract_from_exchange.apply(kwargs=kwargs, throw=True)
    final = extract_from_exchange.apply(kwargs=kwargs, retries=3).get()

    assert final["status"] == "failed"
    run = ExtractionRun.objects.get(source_message_id=12)
    assert run.status == "failed"
    assert "unreachable" in run.error
