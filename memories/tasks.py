"""Celery tasks of memories: ids in, one service call, idempotent.

Extraction after each exchange is queued by conversations (`conversations.tasks.
exchange_extract`), which reads the text by message id in the worker: no task carries user
text, because the broker's files keep what passes through them. The retention purge is
conversations' too (`conversations.tasks.memories_purge_retained`): it removes the copies.
Both keep a task under its old name (`memories.tasks.extract_from_exchange`,
`memories.tasks.memories_purge_retained`), defined in conversations, to drain old messages.
"""

from __future__ import annotations

from celery import shared_task

from memories.services import deletion, usage


@shared_task(acks_late=True, reject_on_worker_lost=True)
def memories_refresh_access(*, memory_ids: list[int], user_id: int | None = None) -> int:
    """Recount access_count and last_accessed_at from the usage log."""
    return usage.memories_access_refresh(memory_ids=memory_ids, user_id=user_id)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def memories_expire_due() -> int:
    """Beat: mark memories past their expiry as expired."""
    return deletion.memories_expire_due()
