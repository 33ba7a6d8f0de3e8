"""Records (issue 5 line 1): versions are immutable; every seed 003 field is there."""

from __future__ import annotations

import pytest

from memories.models import ImmutableVersion, MemoryVersion

pytestmark = pytest.mark.django_db

SEED_003_FIELDS = {
    "scope",
    "type",
    "content",
    "source_message_id",
    "source_session_id",
    "source_uri",
    "observed_at",
    "effective_from",
    "expires_at",
    "confidence",
    "sensitivity",
    "version",
    "supersedes",
    "created_by",
    "approved_by",
    "allowed_readers",
    "importance",
    "embedding",
    "tokens",
    "policy_decision",
    "policy_reason",
}


def test_a_version_has_every_field_of_seed_003():
    names = {f.name for f in MemoryVersion._meta.get_fields()}

    assert names >= SEED_003_FIELDS


def test_a_stored_version_cannot_be_edited(remember):
    version = remember("I live in Boston").current_version
    version.content = "I live in Denver"

    with pytest.raises(ImmutableVersion):
        version.save()
    with pytest.raises(ImmutableVersion):
        version.save(update_fields=["content"])
    assert MemoryVersion.objects.get(pk=version.pk).content == "I live in Boston"


def test_a_version_stores_its_tokens_embedding_and_policy_reason(remember):
    version = remember("Next.js로 마이그레이션하기로 결정했어", "decision").current_version

    assert "마이그레이션" in version.tokens
    assert version.embedding is not None
    assert version.policy_decision == "store"
    assert version.policy_reason == "approved_decision"
    assert version.policy_reason_sentence.startswith("approved decision")


def test_stored_like_slots_are_rewritten_in_the_order_new_statements_use(user, remember):
    import importlib

    from django.db import connection

    from memories.logic.rules import slot_of
    from memories.models import Memory, MemoryVersion

    migration = importlib.import_module("memories.migrations.0005_like_slots_order_free")
    memory = remember("I like spicy food", "preference")
    Memory.objects.filter(pk=memory.pk).update(slot="likes:spicy food")  # as stored before
    MemoryVersion.objects.filter(memory=memory).update(slot="likes:spicy food")

    with connection.cursor() as cursor:
        for table in ("memories_memory", "memories_memoryversion"):
            cursor.execute(migration._SQL.format(table=table))

    assert Memory.objects.get(pk=memory.pk).slot == slot_of("I like spicy food")
    assert set(MemoryVersion.objects.filter(memory=memory).values_list("slot", flat=True)) == {
        "likes:food spicy"
    }
