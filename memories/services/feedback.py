"""Feedback on used memories: "this is wrong" takes a memory out of use at once, with undo.

A disputed memory leaves the assistant's context, its memory tool and search the moment it is
marked: every reader keeps only active (or live) memories, and `disputed` is neither. Nothing
is overwritten: the content stays as it was for the user to correct (an edit of its content
makes the new version active again, see `revision._status_after_revision`) or to restore.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from memories.models import LIVE_STATUSES, AuditEvent, Memory, MemoryStatus, MemoryVersion
from memories.reasons import StatusReason
from memories.services.audit import audit_event_record
from memories.services.revision import InvalidTransition

_STATUS_FIELDS = ["disputed_from", "status", "status_reason", "status_params"]


@transaction.atomic
def memory_mark_wrong(
    *, user: AbstractBaseUser, memory: Memory, message_id: int | None = None
) -> Memory:
    """Take `memory` out of use because the user says it is wrong (status `disputed`).

    Only a live (active or pending) memory can be disputed; marking a disputed one again
    changes nothing. Raises InvalidTransition for any other status.
    """
    memory = Memory.objects.select_for_update().get(user_id=memory.user_id, pk=memory.pk)
    if memory.status == MemoryStatus.DISPUTED:
        return memory
    if memory.status not in LIVE_STATUSES:
        raise InvalidTransition(f"a {memory.status} memory cannot be marked wrong")
    if memory.current_version_id is None:
        raise InvalidTransition("memory has no version")
    memory.disputed_from = memory.status
    memory.status = MemoryStatus.DISPUTED
    memory.wrong_count += 1
    memory.status_reason = StatusReason.MARKED_WRONG
    memory.status_params = {"count": memory.wrong_count}
    memory.updated_at = timezone.now()
    memory.save(update_fields=[*_STATUS_FIELDS, "wrong_count", "updated_at"])
    audit_event_record(
        user_id=memory.user_id,
        actor=user,
        action=AuditEvent.Action.MARK_WRONG,
        target_id=str(memory.pk),
        detail={"times": memory.wrong_count, "message_id": message_id},
    )
    return memory


@transaction.atomic
def memory_mark_wrong_undo(*, user: AbstractBaseUser, memory: Memory) -> Memory:
    """Put a disputed memory back as it was before it was marked wrong.

    It returns to its previous status (active or pending), or to `expired` when its version
    expired meanwhile. Raises InvalidTransition when the memory is not disputed.
    """
    memory = Memory.objects.select_for_update().get(user_id=memory.user_id, pk=memory.pk)
    if memory.status != MemoryStatus.DISPUTED:
        raise InvalidTransition(f"a {memory.status} memory is not marked wrong")
    now = timezone.now()
    previous = memory.disputed_from or MemoryStatus.ACTIVE
    expires_at = (
        MemoryVersion.objects.filter(
            user_id=memory.user_id, memory_id=memory.pk, pk=memory.current_version_id or 0
        )
        .values_list("expires_at", flat=True)
        .first()
    )
    if expires_at is not None and expires_at <= now:
        memory.status, memory.status_reason = MemoryStatus.EXPIRED, StatusReason.EXPIRED
    else:
        memory.status, memory.status_reason = previous, StatusReason.WRONG_UNDONE
    memory.status_params = {}
    memory.disputed_from = ""
    memory.wrong_count = max(0, memory.wrong_count - 1)
    memory.updated_at = now
    memory.save(update_fields=[*_STATUS_FIELDS, "wrong_count", "updated_at"])
    audit_event_record(
        user_id=memory.user_id,
        actor=user,
        action=AuditEvent.Action.UNDO_WRONG,
        target_id=str(memory.pk),
        detail={"status": memory.status},
    )
    return memory
