"""Feedback on used memories: a user marks one wrong, its confidence drops (seed 003 §5)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from memories.models import AuditEvent, Memory, MemoryStatus
from memories.services import revision
from memories.services.audit import audit_event_record
from memories.services.write_policy import Origin

# Each "wrong" halves the confidence; the second one quarantines the memory.
WRONG_CONFIDENCE_FACTOR = 0.5
QUARANTINE_AFTER_WRONG = 2


@transaction.atomic
def memory_mark_wrong(
    *, user: AbstractBaseUser, memory: Memory, message_id: int | None = None
) -> Memory:
    """Record that `memory` was wrong: a new version with lower confidence (the old one stays
    in history); marked wrong twice, it is quarantined. Nothing is overwritten."""
    memory = Memory.objects.select_for_update().get(pk=memory.pk)
    current = memory.current_version
    if current is None:
        raise revision.InvalidTransition("memory has no version")
    wrong = memory.wrong_count + 1
    memory = revision.memory_revise(
        memory=memory,
        origin=Origin.USER,
        change_reason=f"marked wrong by the user ({wrong}x)",
        confidence=round(current.confidence * WRONG_CONFIDENCE_FACTOR, 4),
    )
    memory.wrong_count = wrong
    fields = ["wrong_count"]
    if wrong >= QUARANTINE_AFTER_WRONG and memory.status != MemoryStatus.QUARANTINED:
        memory.status = MemoryStatus.QUARANTINED
        memory.status_reason = f"marked wrong {wrong} times by the user"
        memory.updated_at = timezone.now()
        fields += ["status", "status_reason", "updated_at"]
        audit_event_record(
            user_id=memory.user_id,
            actor=user,
            action=AuditEvent.Action.QUARANTINE,
            target_id=str(memory.pk),
            detail={"reason": memory.status_reason},
        )
    memory.save(update_fields=fields)
    audit_event_record(
        user_id=memory.user_id,
        actor=user,
        action=AuditEvent.Action.MARK_WRONG,
        target_id=str(memory.pk),
        detail={"times": wrong, "message_id": message_id},
    )
    return memory
