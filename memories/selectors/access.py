"""Reads of one user's memories; every accessor is scoped to that user."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404

from memories.models import (
    LIVE_STATUSES,
    AuditEvent,
    DeletionReceipt,
    Memory,
    MemoryUse,
    MemoryVersion,
)
from memoryhub import text as text_analysis


def _with_conflicts(queryset: QuerySet[Memory], user_id: int) -> QuerySet[Memory]:
    live = (
        Memory.objects.filter(user_id=user_id, status__in=LIVE_STATUSES).only("id").order_by("id")
    )
    return queryset.select_related("current_version").prefetch_related(
        Prefetch("conflicts", queryset=live, to_attr="live_conflicts")
    )


def memory_get_for_user(*, user: AbstractBaseUser, memory_id: object) -> Memory:
    """The user's memory, or Http404 for a missing id or another user's memory."""
    try:
        pk = int(str(memory_id))
    except (TypeError, ValueError):
        raise Http404("No such memory.") from None
    try:
        return _with_conflicts(Memory.objects.filter(user_id=user.pk), user.pk).get(pk=pk)
    except Memory.DoesNotExist:
        raise Http404("No such memory.") from None


def memory_list_for_user(
    *,
    user: AbstractBaseUser,
    status: str | None = None,
    type: str | None = None,
    q: str | None = None,
) -> QuerySet[Memory]:
    """The user's memories, newest change first, filtered by status, type and text."""
    queryset = Memory.objects.filter(user_id=user.pk, current_version__isnull=False)
    if status:
        queryset = queryset.filter(status=status)
    if type:
        queryset = queryset.filter(type=type)
    if q and q.strip():
        condition = Q(current_version__content__icontains=q.strip())
        tokens = text_analysis.index_tokens(q)
        if tokens:
            condition |= Q(current_version__tokens__overlap=tokens)
        queryset = queryset.filter(condition)
    return _with_conflicts(queryset, user.pk).order_by("-updated_at", "-id")


def memory_conflict_ids(*, memory: Memory) -> list[str]:
    """Ids of the live memories this one is in unresolved conflict with."""
    prefetched = getattr(memory, "live_conflicts", None)
    if prefetched is not None:
        return [str(m.pk) for m in prefetched]
    ids = memory.conflicts.filter(user_id=memory.user_id, status__in=LIVE_STATUSES).values_list(
        "pk", flat=True
    )
    return [str(pk) for pk in sorted(ids)]


def memory_versions(*, memory: Memory) -> QuerySet[MemoryVersion]:
    """Every version of the memory, newest first."""
    return memory.versions.order_by("-version")


def lineage_source_message_ids(*, user_id: int, memory_ids: list[str]) -> list[int]:
    """The messages every version of these memories was taken from, the replaced ones too:
    a message that stated an answer since replaced is not recalled beside the current one."""
    ids = [int(memory_id) for memory_id in memory_ids if str(memory_id).isdigit()]
    if not ids:
        return []
    rows = (
        MemoryVersion.objects.filter(
            user_id=user_id, memory_id__in=ids, source_message_id__isnull=False
        )
        .values_list("source_message_id", flat=True)
        .distinct()
    )
    return [row for row in rows if row is not None]


def deletion_receipts_for_user(*, user: AbstractBaseUser) -> QuerySet[DeletionReceipt]:
    return DeletionReceipt.objects.filter(user_id=user.pk).order_by("-deleted_at")


def audit_events_for_user(*, user: AbstractBaseUser) -> QuerySet[AuditEvent]:
    """Everything done to the user's memories, staff reads included, newest first."""
    return AuditEvent.objects.filter(user_id=user.pk).select_related("actor")


def memory_uses_for_user(*, user: AbstractBaseUser) -> QuerySet[MemoryUse]:
    return MemoryUse.objects.filter(user_id=user.pk).select_related("version")
