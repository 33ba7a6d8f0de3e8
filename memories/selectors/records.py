"""Memories as plain JSON-ready dicts: one representation for the API and the export."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from memories.models import AuditEvent, DeletionReceipt, Memory, MemoryUse, MemoryVersion
from memories.selectors.access import memory_conflict_ids


def iso(value: datetime | None) -> str | None:
    return timezone.localtime(value).isoformat() if value else None


def _source(version: MemoryVersion) -> dict[str, Any] | None:
    if version.source_message_id is None and version.source_session_id is None:
        if version.source_uri:
            return {"message_id": None, "session_id": None, "uri": version.source_uri}
        return None
    return {
        "message_id": _id(version.source_message_id),
        "session_id": _id(version.source_session_id),
        "uri": version.source_uri or None,
    }


def _id(value: int | None) -> str | None:
    return None if value is None else str(value)


def memory_record(memory: Memory) -> dict[str, Any]:
    """docs/API.md's `Memory`, plus `conflict` and governance fields."""
    version = memory.current_version
    assert version is not None, "a memory always has a current version"
    conflicts = memory_conflict_ids(memory=memory)
    return {
        "id": str(memory.pk),
        "type": memory.type,
        "status": memory.status,
        "content": version.content,
        "version": version.version,
        "scope": version.scope,
        "confidence": version.confidence,
        "sensitivity": version.sensitivity,
        "importance": version.importance,
        "observed_at": iso(version.observed_at),
        "effective_from": iso(version.effective_from),
        "expires_at": iso(version.expires_at),
        "supersedes": _id(version.supersedes_id),
        "created_by": version.created_by,
        "approved_by": _id(version.approved_by_id),
        "allowed_readers": list(version.allowed_readers),
        "source": _source(version),
        "created_at": iso(memory.created_at),
        "updated_at": iso(memory.updated_at),
        # The English sentence, as before codes; the code and its parameters beside it.
        "status_reason": memory.status_reason_sentence,
        "status_code": memory.status_reason or None,
        "status_params": dict(memory.status_params),
        "policy": {"decision": version.policy_decision, "reason": version.policy_reason},
        "slot": memory.slot or None,
        "tags": list(version.tags),
        "conflict": {"with": conflicts} if conflicts else None,
        "access_count": memory.access_count,
        "last_accessed_at": iso(memory.last_accessed_at),
        "wrong_count": memory.wrong_count,
        "disputed_from": memory.disputed_from or None,
    }


def version_record(version: MemoryVersion, *, current_version_id: int | None) -> dict[str, Any]:
    """One version; `status` is `current` or `superseded`."""
    is_current = version.pk == current_version_id
    return {
        "id": str(version.pk),
        "memory_id": str(version.memory_id),
        "version": version.version,
        "status": "current" if is_current else "superseded",
        "type": version.type,
        "content": version.content,
        "scope": version.scope,
        "confidence": version.confidence,
        "sensitivity": version.sensitivity,
        "importance": version.importance,
        "observed_at": iso(version.observed_at),
        "effective_from": iso(version.effective_from),
        "expires_at": iso(version.expires_at),
        "supersedes": _id(version.supersedes_id),
        "created_by": version.created_by,
        "approved_by": _id(version.approved_by_id),
        "approved_at": iso(version.approved_at),
        "allowed_readers": list(version.allowed_readers),
        "source": _source(version),
        "policy": {"decision": version.policy_decision, "reason": version.policy_reason},
        # The English sentence, as before codes; the code and its parameters beside it.
        "change_reason": version.change_reason_sentence,
        "change_code": version.change_reason or None,
        "change_params": dict(version.change_params),
        "created_at": iso(version.created_at),
    }


def receipt_record(receipt: DeletionReceipt) -> dict[str, Any]:
    return {
        "id": str(receipt.id),
        "kind": receipt.kind,
        "memory_id": receipt.memory_id or None,
        "deleted_at": iso(receipt.deleted_at),
        "removed": dict(receipt.removed),
        "copies": [dict(copy) for copy in receipt.copies],
    }


def audit_record(event: AuditEvent) -> dict[str, Any]:
    actor = event.actor
    return {
        "id": str(event.pk),
        "action": event.action,
        "actor": None if actor is None else {"id": str(actor.pk), "staff": actor.is_staff},
        "target_type": event.target_type,
        "target_id": event.target_id,
        "detail": dict(event.detail),
        "created_at": iso(event.created_at),
    }


def use_record(use: MemoryUse) -> dict[str, Any]:
    return {
        "memory_id": str(use.memory_id),
        "version": use.version.version,
        "message_id": str(use.message_id),
        "rank": use.rank,
        "score": use.score,
        "used_at": iso(use.used_at),
    }
