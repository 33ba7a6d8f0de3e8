"""Reads of memories, always scoped to one user. Import from here or from the submodule."""

from memories.selectors.access import (
    audit_events_for_user,
    deletion_receipts_for_user,
    lineage_source_message_ids,
    memory_conflict_ids,
    memory_get_for_user,
    memory_list_for_user,
    memory_uses_for_user,
    memory_versions,
)
from memories.selectors.retrieval import RetrievedMemory, memory_retrieve

__all__ = [
    "RetrievedMemory",
    "audit_events_for_user",
    "deletion_receipts_for_user",
    "lineage_source_message_ids",
    "memory_conflict_ids",
    "memory_get_for_user",
    "memory_list_for_user",
    "memory_retrieve",
    "memory_uses_for_user",
    "memory_versions",
]
