"""The context saved with a reply (`Message.context`), rewritten after the reply was stored.

The chat writes it once, with the reply (`chat.reply_stream`). Afterwards it changes only
when something it recalled is deleted: a memory (`forgetting`), or a session or an exchange
(`deletion`). Every such rewrite goes through `message_context_rewrite`.
"""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Any

from django.db.models import Q

from conversations.models import Message


def message_context_rewrite(*, message: Message, context: dict[str, Any]) -> None:
    """Store `context` as what `message` (a reply) was given; saves only that field."""
    message.context = context
    message.save(update_fields=["context"])


def message_contexts_drop_memories(*, user_id: int, memory_ids: list[str]) -> int:
    """Remove the memories `memory_ids` from the contexts saved with the user's replies;
    how many entries went. Runs inside the memories' deletion, before their rows go."""
    ids = {str(i) for i in memory_ids}
    if not ids:
        return 0
    holds = reduce(or_, (Q(context__memories__contains=[{"id": i}]) for i in ids))
    removed = 0
    for message in Message.objects.filter(user_id=user_id).filter(holds).select_for_update():
        memories = message.context.get("memories", [])
        kept = [m for m in memories if str(m.get("id")) not in ids]
        removed += len(memories) - len(kept)
        message_context_rewrite(message=message, context={**message.context, "memories": kept})
    return removed
