"""Keeping conversations consistent with the memories app's deletions."""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Any

from django.db.models import Q
from django.dispatch import receiver

from conversations.models import Message
from memories.signals import memory_content_removed


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
    return removed + _forget_sources(user_id, ids)


def _forget_sources(user_id: int, memory_ids: set[str]) -> int:
    """The chat turns a deleted memory came from, and the replies quoting it, are redacted."""
    from conversations.services.forgetting import forget_memory_sources
    from memories.models import MemoryVersion

    versions = list(
        MemoryVersion.objects.filter(memory_id__in=list(memory_ids)).values_list(
            "content", "source_message_id"
        )
    )
    return forget_memory_sources(
        user_id=user_id,
        memory_ids=memory_ids,
        texts=[content for content, _source in versions],
        source_message_ids={source for _content, source in versions if source},
    )
