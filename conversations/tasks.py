"""Celery tasks of conversations: take ids, call one service, idempotent."""

from __future__ import annotations

from celery import shared_task

from conversations.services import indexing


@shared_task(acks_late=True, reject_on_worker_lost=True, max_retries=5, default_retry_delay=10)
def messages_embed(*, user_id: int) -> int:
    """Embed the user's messages that have no vector yet, in batches."""
    return indexing.messages_embed_pending(user_id=user_id)
