"""Celery tasks of memories: ids in, one service call, idempotent.

Extraction after each exchange is queued by conversations (`conversations.tasks.
exchange_extract`), which reads the text by message id in the worker: no task carries user
text, because the broker's files keep what passes through them.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.utils.dateparse import parse_datetime

from memories.services import deletion, extraction, usage
from memoryhub import llm

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=3,
    default_retry_delay=30,
)
def extract_from_exchange(
    self: Task[Any, Any],
    *,
    user_id: int,
    user_text: str,
    assistant_text: str = "",
    source_message_id: int | None = None,
    source_session_id: int | None = None,
    observed_at: str | None = None,
    offline: bool = False,
) -> dict[str, Any]:
    """Drains tasks queued before extraction moved to `conversations.tasks.exchange_extract`.

    Nothing queues this any more. A broker kept across an upgrade may still hold such tasks;
    running them with the text they carry (already on the broker's disk) removes them from
    the queue and loses no memory, and a message deleted since gives none (the source check).
    `observed_at` is ISO 8601 (None: now).
    """
    observed = parse_datetime(observed_at) if observed_at else None
    if observed_at and observed is None:
        raise ValueError(f"observed_at is not an ISO 8601 time: {observed_at!r}")
    try:
        result = extraction.memory_extract_from_exchange(
            user_id=user_id,
            user_text=user_text,
            assistant_text=assistant_text,
            source_message_id=source_message_id,
            source_session_id=source_session_id,
            observed_at=observed,
            offline=bool(offline),
        )
    except llm.LLMError as exc:
        if self.request.retries < (self.max_retries or 0):
            raise self.retry(exc=exc) from exc
        logger.warning("memory extraction gave up for message %s: %s", source_message_id, exc)
        result = extraction.extraction_failure_record(
            user_id=user_id,
            source_message_id=source_message_id,
            source_session_id=source_session_id,
            error=f"model unreachable: {exc}",
        )
    return {"status": result.status, "memory_ids": list(result.memory_ids)}


@shared_task(acks_late=True, reject_on_worker_lost=True)
def memories_refresh_access(*, memory_ids: list[int]) -> int:
    """Recount access_count and last_accessed_at from the usage log."""
    return usage.memories_access_refresh(memory_ids=memory_ids)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def memories_expire_due() -> int:
    """Beat: mark memories past their expiry as expired."""
    return deletion.memories_expire_due()


@shared_task(acks_late=True, reject_on_worker_lost=True)
def memories_purge_retained() -> int:
    """Beat: delete old rejected and expired memories, with receipts."""
    return deletion.memories_purge_retained()
