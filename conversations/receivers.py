"""Keeping conversations consistent with the memories app's deletions."""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Any

from django.db.models import Q
from django.dispatch import receiver

from conversations.models import Message
from conversations.services import forgetting
from memories.signals import ContentCopy, memory_content_removed, memory_copies_requested


@receiver(memory_content_removed)
def strip_deleted_memories_from_saved_context(
    sender: Any, user_id: int, memory_ids: list[str], **kwargs: Any
) -> int:
    """Remove deleted memories from the context saved with past replies; return the count."""
    ids = {str(i) for i in memory_ids}
    if not ids:
        return 0
    holds = reduce(or_, (Q(context__memories__contains=[{"id": i}]) for i in ids))
    removed = 0
    for message in Message.objects.filter(user_id=user_id).filter(holds).select_for_update():
        memories = message.context.get("memories", [])
        kept = [m for m in memories if str(m.get("id")) not in ids]
        removed += len(memories) - len(kept)
        message.context = {**message.context, "memories": kept}
        message.save(update_fields=["context"])
    return removed


@receiver(memory_content_removed)
def forget_deleted_memories_in_conversations(
    sender: Any, user_id: int, memory_ids: list[str], **kwargs: Any
) -> list[ContentCopy]:
    """The spans of chat turns, replies, titles, summaries and saved context that carried
    the deleted memories are redacted, and what was derived from them is derived again."""
    return forgetting.memory_copies_forget(user_id=user_id, memory_ids=memory_ids)


@receiver(memory_copies_requested)
def copies_deleting_would_change(
    sender: Any, user_id: int, memory_ids: list[str], **kwargs: Any
) -> list[ContentCopy]:
    return forgetting.memory_copies_find(user_id=user_id, memory_ids=memory_ids)
