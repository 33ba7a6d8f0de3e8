"""The extraction task queued with text before extraction read messages by id
(`memories.tasks.extract_from_exchange`, now defined in conversations) still drains: plain
values in, idempotent, its own retries, and the source message held (issue 5 lines 4 and 10,
issue 16 line 1)."""

from __future__ import annotations

import pytest
from celery.exceptions import Retry

from conversations.services import chat, deletion
from conversations.tasks import extract_from_exchange
from memories.models import ExtractionRun, Memory
from memoryhub import llm
from tests.anthropic_fake import FakeAnthropic, failing
from tests.memories.conftest import version_of

pytestmark = pytest.mark.django_db


def _message(user, text: str):
    session = chat.chat_session_create(user=user)
    message, _ = chat.message_add_user(session=session, content=text)
    return message


def test_the_task_keeps_its_old_name_so_queued_messages_find_it():
    assert extract_from_exchange.name == "memories.tasks.extract_from_exchange"


def test_the_extraction_task_stores_memories_and_a_rerun_changes_nothing(user):
    message = _message(user, "나 서울 강남에 살아")
    kwargs = {
        "user_id": user.pk,
        "user_text": "나 서울 강남에 살아",
        "assistant_text": "좋은 동네네요!",
        "source_message_id": message.pk,
        "source_session_id": message.session_id,
        "observed_at": "2026-01-05T10:00:00+09:00",
    }

    first = extract_from_exchange.apply(kwargs=kwargs).get()
    second = extract_from_exchange.apply(kwargs=kwargs).get()

    assert first["status"] == "done"
    assert second == {"status": "skipped", "memory_ids": []}
    memory = Memory.objects.get(user=user)
    assert version_of(memory).observed_at.isoformat() == "2026-01-05T01:00:00+00:00"
    assert version_of(memory).source_session_id == message.session_id


def test_a_queued_exchange_whose_message_was_deleted_since_gives_no_memory(user):
    message = _message(user, "I live in Busan now.")
    kwargs = {
        "user_id": user.pk,
        "user_text": "I live in Busan now.",
        "source_message_id": message.pk,
        "source_session_id": message.session_id,
    }
    deletion.message_delete(user=user, message=message)

    result = extract_from_exchange.apply(kwargs=kwargs).get()

    assert result == {"status": "source_deleted", "memory_ids": []}
    assert not Memory.objects.filter(user=user).exists()
    assert not ExtractionRun.objects.filter(user=user).exists()


def test_the_extraction_task_is_acknowledged_late_and_requeued_on_worker_loss():
    assert extract_from_exchange.acks_late is True
    assert extract_from_exchange.reject_on_worker_lost is True


def test_an_unreachable_model_is_retried_then_recorded_as_a_failure(user):
    message = _message(user, "나는 커피를 좋아해")
    fake = FakeAnthropic([failing(529)] * 10)
    llm.set_provider(llm.AnthropicProvider(client=fake.client()))
    kwargs = {
        "user_id": user.pk,
        "user_text": "나는 커피를 좋아해",
        "source_message_id": message.pk,
    }

    with pytest.raises(Retry):
        extract_from_exchange.apply(kwargs=kwargs, throw=True)
    final = extract_from_exchange.apply(kwargs=kwargs, retries=3).get()

    assert final["status"] == "failed"
    run = ExtractionRun.objects.get(source_message_id=message.pk)
    assert run.status == "failed"
    assert "unreachable" in run.error
