"""Forgetting: deleting a memory for good, erasing all of a user's, expiry and the purge.

Deletion removes the rows (every version's content, embedding and keyword tokens, the usage
log) and asks other apps to drop their copies (`signals.memory_content_removed`), then writes
a receipt with counts and the copies changed (kind, session, date), never content.
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
from memories.signals import ContentCopy, memory_content_removed


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


def _scrub_copies(user_id: int, memory_ids: list[str]) -> tuple[int, list[ContentCopy]]:
    """Ask every app that keeps copies of memory content to drop them; how many were dropped,
    and those named (kind, session, date)."""
    responses = memory_content_removed.send(sender=Memory, user_id=user_id, memory_ids=memory_ids)
    removed = 0
    named: list[ContentCopy] = []
    for _receiver, response in responses:
        if isinstance(response, int):
            removed += response
        elif isinstance(response, list):
            named += [c for c in response if isinstance(c, ContentCopy)]
    return removed + len(named), named


def _delete(memories: QuerySet[Memory], user_id: int) -> tuple[dict[str, int], list[ContentCopy]]:
    ids = [str(pk) for pk in memories.values_list("pk", flat=True)]
    counts = _removal_counts(memories, user_id)
    counts["cached_copies"], named = _scrub_copies(user_id, ids) if ids else (0, [])
    # Lineages point at their current version; clear that first so the delete is one pass.
    memories.update(current_version=None)
    memories.delete()
    return counts, named


def _receipt_copies(named: list[ContentCopy]) -> list[dict[str, str | int]]:
    """One entry per kind, session and date, with how many copies it stands for (the receipt
    says "3 replies in 2 conversations")."""
    entries: dict[tuple[str, ...], dict[str, str | int]] = {}
    for copy in named:
        entry = copy.as_receipt_entry()
        key = tuple(entry.values())
        if key in entries:
            entries[key]["count"] = int(entries[key]["count"]) + 1
        else:
            entries[key] = {**entry, "count": 1}
    return list(entries.values())


def _delete_one_with_receipt(
    *,
    memory: Memory,
    owner_id: int,
    actor: AbstractBaseUser,
    action: str,
    agent_id: int | None = None,
) -> DeletionReceipt:
    """Delete `memory` (only if `owner_id` owns it) and everything derived from it; leave the
    owner a receipt and an audit event naming `actor` and `action`. Callers hold a transaction."""
    memory_id = str(memory.pk)
    removed, named = _delete(Memory.objects.filter(pk=memory.pk, user_id=owner_id), owner_id)
    receipt = DeletionReceipt.objects.create(
        user_id=owner_id,
        kind=DeletionReceipt.Kind.MEMORY,
        memory_id=memory_id,
        removed=removed,
        copies=_receipt_copies(named),
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
    *, user: AbstractBaseUser, memory: Memory, agent_id: int | None = None
) -> DeletionReceipt:
    """Delete `memory` and everything derived from it; return the receipt. `agent_id` names
    the connected agent that asked for it on the user's behalf (kept in the audit event)."""
    return _delete_one_with_receipt(
        memory=memory,
        owner_id=user.pk,
        actor=user,
        action=AuditEvent.Action.USER_DELETE,
        agent_id=agent_id,
    )


@transaction.atomic
def memories_erase_all_for_user(
    *, user: AbstractBaseUser, record_receipt: bool = True
) -> dict[str, int]:
    """Delete every memory of `user` with all versions, uses and extraction records.

    Receipts and audit events stay: they hold ids and counts, no content, and prove the
    erasure. Returns the counts (also stored as a receipt unless `record_receipt` is False).
    """
    removed, _named = _delete(Memory.objects.filter(user_id=user.pk), user.pk)
    removed["extraction_runs"], _ = ExtractionRun.objects.filter(user_id=user.pk).delete()
    if record_receipt:
        receipt = DeletionReceipt.objects.create(
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


def memories_purge_retained(*, now: datetime | None = None, batch: int = 500) -> int:
    """Delete rejected and expired memories untouched for the retention period.

    Each gets a receipt (kind `retention`), so the user sees what was purged and when.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.MEMORYHUB_MEMORY_RETENTION_DAYS)
    purged = 0
    while True:
        due = list(
            Memory.objects.filter(status__in=_PURGED_STATUSES, updated_at__lt=cutoff)
            .order_by("id")
            .values_list("pk", "user_id")[:batch]
        )
        if not due:
            return purged
        for memory_id, user_id in due:
            with transaction.atomic():
                removed, named = _delete(Memory.objects.filter(pk=memory_id), user_id)
                if not removed["memories"]:
                    continue
                receipt = DeletionReceipt.objects.create(
                    user_id=user_id,
                    kind=DeletionReceipt.Kind.RETENTION,
                    memory_id=str(memory_id),
                    removed=removed,
                    copies=_receipt_copies(named),
                )
                audit_event_record(
                    user_id=user_id,
                    action=AuditEvent.Action.PURGE,
                    target_id=str(memory_id),
                    detail={"receipt": str(receipt.id)},
                )
                purged += 1
