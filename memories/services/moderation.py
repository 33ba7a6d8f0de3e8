"""What staff may do to a user's memory from admin: quarantine it, or purge it for good.

Both are recorded as audit events with the staff member as actor, so the user sees them on
their access log; a purge also leaves the user a deletion receipt (counts, no content).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from memories.models import AuditEvent, DeletionReceipt, Memory, MemoryStatus
from memories.reasons import StatusReason
from memories.services.audit import audit_event_record
from memories.services.deletion import _delete_one_with_receipt
from memories.services.receipts import CopiesRemoved


@transaction.atomic
def memory_quarantine(*, actor: AbstractBaseUser, memory: Memory) -> Memory:
    """Stop `memory` from being used (it stays visible to its owner); no-op when it already is."""
    memory = Memory.objects.select_for_update().get(user_id=memory.user_id, pk=memory.pk)
    if memory.status == MemoryStatus.QUARANTINED:
        return memory
    previous = memory.status
    memory.status = MemoryStatus.QUARANTINED
    memory.status_reason, memory.status_params = StatusReason.STAFF_QUARANTINE, {}
    memory.updated_at = timezone.now()
    memory.save(update_fields=["status", "status_reason", "status_params", "updated_at"])
    audit_event_record(
        user_id=memory.user_id,
        actor=actor,
        action=AuditEvent.Action.QUARANTINE,
        target_id=str(memory.pk),
        detail={"reason": StatusReason.STAFF_QUARANTINE.value, "previous_status": previous},
    )
    return memory


@transaction.atomic
def memory_purge(
    *, actor: AbstractBaseUser, memory: Memory, copies: CopiesRemoved
) -> DeletionReceipt:
    """Delete `memory` with every version and use, as its owner's delete does; the owner gets
    the receipt (naming `copies`, what the caller removed elsewhere:
    `conversations.services.forgetting.memory_staff_purge`, the one caller) and an audit
    event naming `actor`."""
    return _delete_one_with_receipt(
        memory=memory,
        owner_id=memory.user_id,
        actor=actor,
        action=AuditEvent.Action.PURGE,
        copies=copies,
    )
