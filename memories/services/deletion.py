"""Deleting memories for good: one, all of a user's, expiry and the retention purge.

Deletion removes the rows (every version's content, embedding and keyword tokens, the usage
log) and writes a receipt with counts and the copies changed elsewhere (kind, session, date),
never content. The copies live in conversations, which this app never imports: the entry
points that delete a memory are `conversations.services.forgetting` (`memory_forget`,
`memory_staff_purge`, `memories_purge_retained`), which remove the copies in the same
transaction and pass what they changed to the functions here.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from memories.models import (
    LIVE_STATUSES,
    AuditEvent,
    DeletionReceipt,
    ExtractionRun,
    Memory,
    MemoryConflict,
    MemoryStatus,
    MemoryUse,
    MemoryVersion,
)
from memories.reasons import StatusReason
from memories.services.audit import audit_event_record
from memories.services.receipts import NO_COPIES, CopiesRemoved, deletion_receipt_record
from memoryhub.models import rows_delete


def _removal_counts(memories: QuerySet[Memory], user_id: int) -> dict[str, int]:
    # Each count names the user, so it stays on the user's shard (docs/deploy.md).
    versions = MemoryVersion.objects.filter(user_id=user_id, memory__in=memories)
    links = MemoryConflict.objects.filter(
        Q(from_memory__in=memories) | Q(to_memory__in=memories), user_id=user_id
    )
    return {
        "memories": memories.count(),
        "versions": versions.count(),
        "embeddings": versions.filter(embedding__isnull=False).count(),
        "keyword_indexes": versions.exclude(tokens=[]).count(),
        "uses": MemoryUse.objects.filter(user_id=user_id, memory__in=memories).count(),
        "conflict_links": links.count(),
    }


def _delete(memories: QuerySet[Memory], user_id: int, copies: CopiesRemoved) -> dict[str, int]:
    """Delete `memories` (all of `user_id`) and every row that points at them, children
    first, each statement filtered by the owner (Django's cascade would look them up by id
    alone: docs/deploy.md, section 10)."""
    counts = _removal_counts(memories, user_id)
    counts["cached_copies"] = copies.total if counts["memories"] else 0
    versions = MemoryVersion.objects.filter(user_id=user_id, memory__in=memories)
    rows_delete(
        MemoryUse.objects.filter(Q(memory__in=memories) | Q(version__in=versions), user_id=user_id)
    )
    rows_delete(
        MemoryConflict.objects.filter(
            Q(from_memory__in=memories) | Q(to_memory__in=memories), user_id=user_id
        )
    )
    # Lineages point at their current version, and a version at the one it replaced.
    memories.update(current_version=None)
    MemoryVersion.objects.filter(user_id=user_id, supersedes__in=versions).exclude(
        memory__in=memories
    ).update(supersedes=None)
    rows_delete(versions)
    rows_delete(memories)
    return counts


def _delete_one_with_receipt(
    *,
    memory: Memory,
    owner_id: int,
    actor: AbstractBaseUser,
    action: str,
    copies: CopiesRemoved,
    agent_id: int | None = None,
) -> DeletionReceipt:
    """Delete `memory` (only if `owner_id` owns it) and everything derived from it; leave the
    owner a receipt naming `copies` and an audit event naming `actor` and `action`.
    Callers hold a transaction."""
    memory_id = str(memory.pk)
    removed = _delete(Memory.objects.filter(pk=memory.pk, user_id=owner_id), owner_id, copies)
    receipt = deletion_receipt_record(
        user_id=owner_id,
        kind=DeletionReceipt.Kind.MEMORY,
        memory_id=memory_id,
        removed=removed,
        copies=copies.named,
    )
    audit_event_record(
        user_id=owner_id,
        actor=actor,
        action=action,
        target_id=memory_id,
        detail={"receipt": str(receipt.id)}
        | ({"agent_id": agent_id} if agent_id is not None else {}),
    )
    return receipt


@transaction.atomic
def memory_delete(
    *,
    user: AbstractBaseUser,
    memory: Memory,
    copies: CopiesRemoved,
    agent_id: int | None = None,
) -> DeletionReceipt:
    """Delete `memory` and everything derived from it; return the receipt. `copies` are what
    the caller removed elsewhere (`conversations.services.forgetting.memory_forget`, the one
    caller). `agent_id` names the connected agent that asked for it on the user's behalf
    (kept in the audit event)."""
    return _delete_one_with_receipt(
        memory=memory,
        owner_id=user.pk,
        actor=user,
        action=AuditEvent.Action.USER_DELETE,
        copies=copies,
        agent_id=agent_id,
    )


@transaction.atomic
def memories_erase_all_for_user(
    *, user: AbstractBaseUser, record_receipt: bool = True
) -> dict[str, int]:
    """Delete every memory of `user` with all versions, uses and extraction records.

    Only for erasing all of the user's data (`account.services.user_data_erase`), which
    deletes the conversations, and with them every copy, first.

    Receipts and audit events stay: they hold ids and counts, no content, and prove the
    erasure. Returns the counts (also stored as a receipt unless `record_receipt` is False).
    """
    removed = _delete(Memory.objects.filter(user_id=user.pk), user.pk, NO_COPIES)
    removed["extraction_runs"], _ = ExtractionRun.objects.filter(user_id=user.pk).delete()
    if record_receipt:
        receipt = deletion_receipt_record(
            user_id=user.pk, kind=DeletionReceipt.Kind.ALL, removed=removed
        )
        audit_event_record(
            user_id=user.pk,
            actor=user,
            action=AuditEvent.Action.USER_ERASE,
            target_type="user",
            target_id=str(user.pk),
            detail={"receipt": str(receipt.id)},
        )
    return removed


def memories_expire_due(*, now: datetime | None = None) -> int:
    """Mark live and disputed memories whose current version is past `expires_at` as
    expired (a disputed one too: past its time there is nothing left to correct or restore,
    and as expired it is purged after the retention period)."""
    now = now or timezone.now()
    return Memory.objects.filter(
        status__in=(*LIVE_STATUSES, MemoryStatus.DISPUTED), current_version__expires_at__lte=now
    ).update(
        status=MemoryStatus.EXPIRED,
        status_reason=StatusReason.EXPIRED,
        status_params={},
        disputed_from="",
        updated_at=now,
    )


_PURGED_STATUSES = (MemoryStatus.REJECTED, MemoryStatus.EXPIRED)


def memories_retention_due(*, now: datetime | None = None, limit: int = 500) -> list[int]:
    """Ids of rejected and expired memories untouched for the retention period, oldest id
    first (at most `limit`)."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.MEMORYHUB_MEMORY_RETENTION_DAYS)
    due = Memory.objects.filter(status__in=_PURGED_STATUSES, updated_at__lt=cutoff)
    return list(due.order_by("id").values_list("pk", flat=True)[:limit])


def memory_retention_lock(*, memory_id: int, now: datetime | None = None) -> Memory | None:
    """Lock the memory `memory_id` for its retention purge; None when it is gone or no longer
    due (restored or touched since it was listed). Callers hold a transaction."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.MEMORYHUB_MEMORY_RETENTION_DAYS)
    return (
        Memory.objects.select_for_update()
        .filter(pk=memory_id, status__in=_PURGED_STATUSES, updated_at__lt=cutoff)
        .first()
    )


def memory_purge_retained(*, memory: Memory, copies: CopiesRemoved) -> DeletionReceipt:
    """Delete a memory `memory_retention_lock` returned, with a receipt (kind `retention`)
    naming `copies`, so the user sees what was purged and when. Callers hold the transaction
    that locked it (`conversations.services.forgetting.memories_purge_retained`)."""
    memory_id = str(memory.pk)
    removed = _delete(
        Memory.objects.filter(pk=memory.pk, user_id=memory.user_id), memory.user_id, copies
    )
    receipt = deletion_receipt_record(
        user_id=memory.user_id,
        kind=DeletionReceipt.Kind.RETENTION,
        memory_id=memory_id,
        removed=removed,
        copies=copies.named,
    )
    audit_event_record(
        user_id=memory.user_id,
        action=AuditEvent.Action.PURGE,
        target_id=memory_id,
        detail={"receipt": str(receipt.id)},
    )
    return receipt
