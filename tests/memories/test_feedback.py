"""Feedback: "this is wrong" takes a memory out of use at once, with undo and correction
(issue 14 line 5)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from memories.logic.write_policy import Origin
from memories.models import AuditEvent, Memory, MemoryStatus
from memories.reasons import ChangeReason
from memories.selectors import memory_retrieve
from memories.services import deletion, revision
from memories.services.feedback import memory_mark_wrong, memory_mark_wrong_undo
from memories.services.memory_tool import memory_tool_execute
from memories.services.receipts import NO_COPIES
from memories.services.revision import InvalidTransition
from tests.anthropic_fake import completed
from tests.memories.conftest import current, version_of

pytestmark = pytest.mark.django_db

# (what the user told it, a question that recalls it), in both languages.
STATEMENTS = [
    ("나는 매일 아침 핸드드립 커피를 마셔", "아침에 마실 커피 추천해줘"),
    ("I drink hand-drip coffee every morning", "recommend a coffee for my morning"),
]


def _recalled(user, query: str) -> list[str]:
    return [m.memory_id for m in memory_retrieve(user=user, reader="assistant", query=query)]


def test_marking_wrong_takes_the_memory_out_of_use_without_a_new_version(user, remember):
    memory = remember("나는 커피를 좋아해", "preference")

    memory_mark_wrong(user=user, memory=memory, message_id=88)

    memory = current(memory)
    assert memory.status == MemoryStatus.DISPUTED
    assert memory.disputed_from == MemoryStatus.ACTIVE
    assert memory.wrong_count == 1
    assert version_of(memory).version == 1  # nothing rewritten: the text waits for a correction
    assert version_of(memory).confidence == 1.0
    assert AuditEvent.objects.get(action="mark_wrong").detail == {"times": 1, "message_id": 88}


@pytest.mark.parametrize(("statement", "question"), STATEMENTS)
def test_a_memory_marked_wrong_leaves_the_assistants_context_at_once(
    user, remember, statement, question
):
    memory = remember(statement, "preference")
    assert _recalled(user, question) == [str(memory.pk)]

    memory_mark_wrong(user=user, memory=memory)

    assert _recalled(user, question) == []
    assert memory_retrieve(user=user, reader="agent", query=question) == []


@pytest.mark.parametrize(("statement", "question"), STATEMENTS)
def test_undo_brings_a_memory_marked_wrong_back_into_the_context(
    user, remember, statement, question
):
    memory = remember(statement, "preference")
    memory_mark_wrong(user=user, memory=memory)

    memory_mark_wrong_undo(user=user, memory=memory)

    memory = current(memory)
    assert memory.status == MemoryStatus.ACTIVE
    assert memory.disputed_from == ""
    assert memory.wrong_count == 0
    assert _recalled(user, question) == [str(memory.pk)]
    assert AuditEvent.objects.filter(action="undo_wrong", target_id=str(memory.pk)).exists()


def test_a_memory_marked_wrong_is_not_in_the_assistants_memory_tool(user, remember):
    memory = remember("I live in Daejeon", "fact")
    path = f"/memories/fact/{memory.pk}.md"
    assert path in memory_tool_execute(user=user, command={"command": "view", "path": "/memories"})

    memory_mark_wrong(user=user, memory=memory)

    tree = memory_tool_execute(user=user, command={"command": "view", "path": "/memories"})
    assert path not in tree


def test_marking_wrong_twice_changes_nothing_the_second_time(user, remember):
    memory = remember("I prefer window seats", "preference")
    memory_mark_wrong(user=user, memory=memory)

    memory_mark_wrong(user=user, memory=memory)

    memory = current(memory)
    assert memory.status == MemoryStatus.DISPUTED
    assert memory.disputed_from == MemoryStatus.ACTIVE
    assert memory.wrong_count == 1
    assert AuditEvent.objects.filter(action="mark_wrong").count() == 1


@pytest.mark.parametrize("status", [MemoryStatus.REJECTED, MemoryStatus.QUARANTINED])
def test_a_memory_out_of_use_already_cannot_be_marked_wrong(user, remember, status):
    memory = remember("I prefer aisle seats", "preference")
    Memory.objects.filter(pk=memory.pk).update(status=status)

    with pytest.raises(InvalidTransition):
        memory_mark_wrong(user=user, memory=memory)

    assert current(memory).status == status


def test_undo_of_a_memory_not_marked_wrong_is_refused(user, remember):
    memory = remember("I prefer aisle seats", "preference")

    with pytest.raises(InvalidTransition):
        memory_mark_wrong_undo(user=user, memory=memory)

    assert current(memory).status == MemoryStatus.ACTIVE


def test_undo_after_the_memory_expired_leaves_it_expired(user, remember):
    soon = timezone.now() + timedelta(minutes=5)
    memory = remember("이번 주는 재택근무 중이야", "episode", expires_at=soon)
    memory_mark_wrong(user=user, memory=memory)
    version = version_of(current(memory))
    type(version).objects.filter(pk=version.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )

    memory_mark_wrong_undo(user=user, memory=memory)

    assert current(memory).status == MemoryStatus.EXPIRED


def test_a_memory_marked_wrong_expires_like_a_live_one(user, remember):
    memory = remember("이번 주는 재택근무 중이야", "episode")
    memory_mark_wrong(user=user, memory=memory)
    later = timezone.now() + timedelta(days=1)
    version = version_of(current(memory))
    type(version).objects.filter(pk=version.pk).update(expires_at=timezone.now())

    assert deletion.memories_expire_due(now=later) == 1

    memory = current(memory)
    assert memory.status == MemoryStatus.EXPIRED
    assert memory.disputed_from == ""


@pytest.mark.parametrize(
    ("wrong", "right", "question"),
    [
        ("나는 서울 강남에 살아", "나는 부산 해운대에 살아", "해운대 근처 맛집 알려줘"),
        ("I live in Gangnam, Seoul", "I live in Haeundae, Busan", "where do I live?"),
    ],
)
def test_correcting_a_memory_marked_wrong_puts_the_new_text_in_use(
    user, remember, wrong, right, question
):
    memory = remember(wrong, "fact")
    memory_mark_wrong(user=user, memory=memory)

    revision.memory_revise(
        memory=current(memory),
        origin=Origin.USER,
        change_reason=ChangeReason.EDITED_BY_USER,
        changes=revision.MemoryChanges(content=right),
    )

    memory = current(memory)
    assert memory.status == MemoryStatus.ACTIVE
    assert memory.disputed_from == ""
    assert version_of(memory).content == right
    recalled = memory_retrieve(user=user, reader="assistant", query=question)
    assert [m.content for m in recalled] == [right]


def test_a_change_of_sensitivity_alone_keeps_a_memory_marked_wrong_out_of_use(user, remember):
    memory = remember("I work at a bakery", "fact")
    memory_mark_wrong(user=user, memory=memory)

    revision.memory_revise(
        memory=current(memory),
        origin=Origin.USER,
        change_reason=ChangeReason.EDITED_BY_USER,
        changes=revision.MemoryChanges(sensitivity="high"),
    )

    assert current(memory).status == MemoryStatus.DISPUTED


def test_a_disputed_memory_can_still_be_rejected(user, remember):
    memory = remember("I work at a bakery", "fact")
    memory_mark_wrong(user=user, memory=memory)

    revision.memory_reject(user=user, memory=memory)

    memory = current(memory)
    assert memory.status == MemoryStatus.REJECTED
    assert memory.disputed_from == ""


def test_an_inference_marked_wrong_goes_back_to_waiting_on_undo(user, anthropic, say):
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
    memory = Memory.objects.get(pk=say("I had a long day at work").memory_ids[0])
    assert memory.status == MemoryStatus.PENDING

    memory_mark_wrong(user=user, memory=memory)
    assert current(memory).disputed_from == MemoryStatus.PENDING
    memory_mark_wrong_undo(user=user, memory=memory)

    memory = current(memory)
    assert memory.status == MemoryStatus.PENDING
    assert version_of(memory).created_by == "assistant"


def test_deleting_a_memory_marked_wrong_removes_it_with_a_receipt(user, remember):
    memory = remember("I live in Daejeon", "fact")
    memory_mark_wrong(user=user, memory=memory)

    receipt = deletion.memory_delete(user=user, memory=current(memory), copies=NO_COPIES)

    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert receipt.removed["memories"] == 1
