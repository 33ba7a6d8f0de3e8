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
    assert version.policy_reason.startswith("approved decision")
