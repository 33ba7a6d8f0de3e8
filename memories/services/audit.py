"""The audit trail of a user's memories: who read or changed what (ids only, no content)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from memories.models import AuditEvent


def audit_event_record(
    *,
    user_id: int,
    action: str,
    actor: AbstractBaseUser | None = None,
    target_type: str = "memory",
    target_id: str = "",
    detail: dict[str, Any] | None = None,
) -> AuditEvent:
    return AuditEvent.objects.create(
        user_id=user_id,
        actor_id=actor.pk if actor is not None else None,
        action=action,
        target_type=target_type,
        target_id=target_id,
        detail=detail or {},
    )
