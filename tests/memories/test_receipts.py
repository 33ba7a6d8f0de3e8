"""Deletion receipts: one writer, counts and copies named, never content (issue 16 line 4)."""

from __future__ import annotations

import pytest

from memories.models import DeletionReceipt, Memory
from memories.services.deletion import memory_delete
from memories.services.receipts import (
    NO_COPIES,
    ContentCopy,
    CopiesRemoved,
    deletion_receipt_record,
)

pytestmark = pytest.mark.django_db


def test_a_receipt_names_each_copy_once_by_kind_session_and_date_with_its_count(user):
    reply = ContentCopy(kind="reply", session_id="4", date="2026-11-30", preview="the text")
    copies = [reply, reply, ContentCopy(kind="title", session_id="4", date="2026-11-30")]

    receipt = deletion_receipt_record(
        user_id=user.pk, kind=DeletionReceipt.Kind.MEMORY, removed={"memories": 1}, copies=copies
    )

    stored = DeletionReceipt.objects.get(pk=receipt.pk)
    assert stored.copies == [
        {"kind": "reply", "session_id": "4", "date": "2026-11-30", "count": 2},
        {"kind": "title", "session_id": "4", "date": "2026-11-30", "count": 1},
    ]
    assert "the text" not in str(stored.copies)  # a preview is never stored
    assert stored.removed == {"memories": 1} and stored.memory_id == ""


def test_deleting_a_memory_counts_and_names_the_copies_its_caller_removed(user, remember):
    memory = remember("My sister lives in Daejeon", "fact")
    copies = CopiesRemoved(
        named=(ContentCopy(kind="statement", session_id="9", date="2026-12-01"),), counted=2
    )

    receipt = memory_delete(user=user, memory=memory, copies=copies)

    assert not Memory.objects.filter(pk=memory.pk).exists()
    assert receipt.removed["cached_copies"] == 3
    assert receipt.removed["memories"] == 1 and receipt.removed["versions"] == 1
    assert receipt.copies == [
        {"kind": "statement", "session_id": "9", "date": "2026-12-01", "count": 1}
    ]


def test_deleting_another_users_memory_removes_nothing_and_counts_no_copies(
    user, other_user, remember
):
    theirs = remember("나는 등산을 좋아해", "preference", owner=other_user)
    copies = CopiesRemoved(counted=5)

    receipt = memory_delete(user=user, memory=theirs, copies=copies)

    assert Memory.objects.filter(pk=theirs.pk).exists()
    assert receipt.removed["memories"] == 0 and receipt.removed["cached_copies"] == 0


def test_no_copies_count_nothing():
    assert NO_COPIES.total == 0 and NO_COPIES.named == ()
