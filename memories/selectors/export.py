"""Everything of a user's memories as one JSON document (docs/API.md "The user's own data")."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from memories.models import ExtractionRun, Memory
from memories.selectors.access import (
    audit_events_for_user,
    deletion_receipts_for_user,
    memory_list_for_user,
    memory_uses_for_user,
)
from memories.selectors.agents import agent_record, agents_of
from memories.selectors.records import (
    audit_record,
    iso,
    memory_record,
    receipt_record,
    use_record,
    version_record,
)


def _memory_with_history(memory: Memory) -> dict[str, Any]:
    record = memory_record(memory)
    record["versions"] = [
        version_record(v, current_version_id=memory.current_version_id)
        for v in memory.versions.order_by("-version")
    ]
    return record


def memories_export_for_user(*, user: AbstractBaseUser) -> dict[str, Any]:
    """The user's memories with every version, the usage log, receipts, audit trail and
    connected agents (never their token or its hash).

    Embeddings and keyword tokens are derived data and left out; no other user's rows.
    """
    runs = ExtractionRun.objects.filter(user_id=user.pk).order_by("-created_at")
    return {
        "memories": [_memory_with_history(m) for m in memory_list_for_user(user=user)],
        "memory_uses": [use_record(u) for u in memory_uses_for_user(user=user)],
        "deletion_receipts": [receipt_record(r) for r in deletion_receipts_for_user(user=user)],
        "memory_audit_events": [audit_record(e) for e in audit_events_for_user(user=user)],
        "agents": [agent_record(a) for a in agents_of(user=user)],
        "memory_extractions": [
            {
                "id": str(run.pk),
                "source_message_id": None
                if run.source_message_id is None
                else str(run.source_message_id),
                "status": run.status,
                "outcome": dict(run.outcome),
                "created_at": iso(run.created_at),
            }
            for run in runs
        ],
    }
