"""The usage log: which memory versions went into which reply (seed 003: 사용 ID 기록)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Count, Max

from memories.models import Memory, MemoryUse, MemoryVersion
from memories.selectors import RetrievedMemory
from memoryhub.models import owned_by


def memory_use_record(*, uses: Sequence[RetrievedMemory], message_id: int) -> int:
    """Log each retrieved memory put into the reply `message_id`; access counts are updated
    by a task after commit, off the request path. Recording twice adds nothing."""
    from memories.tasks import memories_refresh_access

    if not uses:
        return 0
    wanted = {int(use.version_id) for use in uses}
    existing = set(
        MemoryVersion.objects.filter(
            user_id__in={use.user_id for use in uses}, pk__in=wanted
        ).values_list("pk", flat=True)
    )  # a memory deleted since retrieval is not logged
    rows = [
        MemoryUse(
            user_id=use.user_id,
            memory_id=int(use.memory_id),
            version_id=int(use.version_id),
            message_id=message_id,
            rank=use.rank,
            score=use.score,
        )
        for use in uses
        if int(use.version_id) in existing
    ]
    MemoryUse.objects.bulk_create(rows, ignore_conflicts=True)
    memory_ids = sorted({row.memory_id for row in rows})
    if memory_ids:
        owner_id = rows[0].user_id  # the uses of one reply are its user's
        transaction.on_commit(
            lambda: memories_refresh_access.delay(memory_ids=memory_ids, user_id=owner_id),
            robust=True,
        )
    return len(rows)


def memories_access_refresh(*, memory_ids: Sequence[int], user_id: int | None = None) -> int:
    """Set access_count and last_accessed_at from the usage log (idempotent); `user_id`, the
    owner of the memories, when the caller knows it."""
    stats = (
        MemoryUse.objects.filter(memory_id__in=memory_ids, **owned_by(user_id))
        .values("user_id", "memory_id")
        .annotate(count=Count("id"), last=Max("used_at"))
    )
    updated = 0
    for row in stats:
        updated += Memory.objects.filter(user_id=row["user_id"], pk=row["memory_id"]).update(
            access_count=row["count"], last_accessed_at=row["last"]
        )
    return updated
