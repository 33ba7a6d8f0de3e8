"""Feedback: a memory marked wrong loses confidence; twice, it is quarantined (line 8)."""

from __future__ import annotations

from typing import Any

import pytest

from memories.models import AuditEvent, Memory
from memories.selectors import memory_retrieve
from memories.services.feedback import memory_mark_wrong
from tests.memories.conftest import current, version_of

pytestmark = pytest.mark.django_db


def test_marking_wrong_halves_confidence_in_a_new_version(user, remember):
    memory = remember("나는 커피를 좋아해", "preference")

    memory_mark_wrong(user=user, memory=memory, message_id=88)

    memory = current(memory)
    assert memory.wrong_count == 1
    assert memory.status == "active"
    assert version_of(memory).confidence == 0.5
    assert version_of(memory).change_reason == "marked wrong by the user (1x)"
    assert memory.versions.get(version=1).confidence == 1.0
    assert AuditEvent.objects.get(action="mark_wrong").detail == {"times": 1, "message_id": 88}


def test_a_memory_marked_wrong_ranks_lower(user, remember):
    right = remember("커피는 아메리카노만 마셔", "preference", importance=0.7)
    wrong = remember("커피는 라떼만 마셔", "preference", importance=0.5)
    before = [
        m.memory_id for m in memory_retrieve(user=user, reader="assistant", query="커피 주문해줘")
    ]

    memory_mark_wrong(user=user, memory=right)

    after = [
        m.memory_id for m in memory_retrieve(user=user, reader="assistant", query="커피 주문해줘")
    ]
    assert before[0] == str(right.pk)
    assert after[0] == str(wrong.pk)


def test_marked_wrong_twice_the_memory_is_quarantined_with_its_reason(user, remember):
    memory = remember("나는 커피를 좋아해", "preference")

    memory_mark_wrong(user=user, memory=memory)
    memory_mark_wrong(user=user, memory=current(memory))

    memory = current(memory)
    assert memory.status == "quarantined"
    assert memory.status_reason == "marked wrong 2 times by the user"
    assert AuditEvent.objects.filter(action="quarantine", target_id=str(memory.pk)).exists()
    assert memory_retrieve(user=user, reader="assistant", query="커피 추천해줘") == []


def test_an_inference_marked_wrong_stays_pending_and_keeps_its_author(user, anthropic, say):
    import json

    from tests.anthropic_fake import completed

    item = {
        "type": "fact",
        "content": "The user works at a bank",
        "importance": 0.5,
        "tags": [],
        "stated_by_user": False,
        "confidence": 0.6,
        "updates": None,
    }
    anthropic([completed(json.dumps([item]))])
    memory = _extract(say)
    assert memory.status == "pending"

    memory_mark_wrong(user=user, memory=memory)

    memory = current(memory)
    assert memory.status == "pending"
    assert version_of(memory).created_by == "assistant"
    assert version_of(memory).confidence == pytest.approx(0.3)


def _extract(say: Any) -> Memory:
    from memories.models import Memory

    return Memory.objects.get(pk=say("I had a long day at work").memory_ids[0])
