"""Expiry and purge beat jobs, account-wide erase and export (issue 5 lines 10 and 11)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from conversations.services.forgetting import memories_purge_retained
from conversations.tasks import memories_purge_retained as purge_task
from memories.models import (
    AuditEvent,
    DeletionReceipt,
    ExtractionRun,
    Memory,
    MemoryUse,
    MemoryVersion,
)
from memories.selectors import memory_retrieve
from memories.serializers import memories_export_for_user
from memories.services.deletion import memories_erase_all_for_user, memories_expire_due
from memories.services.usage import memory_use_record
from memories.tasks import memories_expire_due as expire_task
from tests.memories.conftest import current

pytestmark = pytest.mark.django_db


def test_beat_runs_expiry_and_the_purge():
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}

    assert {
        "memories.tasks.memories_expire_due",
        "conversations.tasks.memories_purge_retained",
    } <= (tasks)


def test_memories_past_their_expiry_are_marked_expired(user, remember):
    soon = remember("USD/KRW 환율은 1380원", "fact")
    lasting = remember("나는 커피를 좋아해", "preference")
    later = timezone.now() + timedelta(hours=settings.MEMORYHUB_VOLATILE_EXPIRY_HOURS + 1)

    assert memories_expire_due(now=later) == 1

    assert current(soon).status == "expired"
    assert current(lasting).status == "active"
    assert memories_expire_due(now=later) == 0


def test_the_expiry_task_runs_the_service(user, remember):
    memory = remember("ok", "fact", expires_at=timezone.now() - timedelta(minutes=1))

    assert expire_task() == 1
    assert current(memory).status == "expired"


def test_the_purge_deletes_old_rejected_and_expired_memories_with_receipts(user, remember, say):
    old_rejected = remember("나는 녹차를 좋아해", "preference")
    old_expired = remember("삼성전자 주가는 7만원", "fact")
    fresh_rejected = remember("나는 홍차를 좋아해", "preference")
    kept = remember("나는 커피를 좋아해", "preference")
    long_ago = timezone.now() - timedelta(days=settings.MEMORYHUB_MEMORY_RETENTION_DAYS + 1)
    Memory.objects.filter(pk=old_rejected.pk).update(status="rejected", updated_at=long_ago)
    Memory.objects.filter(pk=old_expired.pk).update(status="expired", updated_at=long_ago)
    Memory.objects.filter(pk=fresh_rejected.pk).update(status="rejected")

    assert memories_purge_retained() == 2

    remaining = set(Memory.objects.values_list("pk", flat=True))
    assert remaining == {fresh_rejected.pk, kept.pk}
    assert not MemoryVersion.objects.filter(content__contains="녹차").exists()
    receipts = DeletionReceipt.objects.filter(kind="retention")
    assert {r.memory_id for r in receipts} == {str(old_rejected.pk), str(old_expired.pk)}
    assert purge_task() == 0


def test_erasing_everything_removes_every_memory_row_and_leaves_a_receipt(
    user, other_user, remember, say
):
    remember("나 서울 강남에 살아", "fact")
    say("나는 커피를 좋아해", message_id=5)
    found = memory_retrieve(user=user, reader="assistant", query="커피 추천해줘")
    memory_use_record(uses=found, message_id=6)
    theirs = remember("나는 커피를 좋아해", "preference", owner=other_user)

    removed = memories_erase_all_for_user(user=user)

    assert removed["memories"] == 2
    assert removed["versions"] == 2
    assert removed["uses"] == 1
    assert removed["extraction_runs"] == 1
    assert not Memory.objects.filter(user=user).exists()
    assert not MemoryVersion.objects.filter(user=user).exists()
    assert not MemoryUse.objects.filter(user=user).exists()
    assert not ExtractionRun.objects.filter(user=user).exists()
    assert DeletionReceipt.objects.get(user=user, kind="all").removed == removed
    assert AuditEvent.objects.filter(user=user, action="user_erase").exists()
    assert current(theirs).status == "active"


def test_the_export_holds_every_memory_with_history_and_no_other_users_data(
    user, other_user, api, remember
):
    memory = remember("나 서울 강남에 살아", "fact")
    api.patch(f"/api/v1/memories/{memory.pk}/", {"content": "나 부산에 살아"}, format="json")
    remember("상대방의 비밀 블루버드", "fact", owner=other_user)
    api.delete(f"/api/v1/memories/{remember('지울 것', 'fact').pk}/")

    exported = memories_export_for_user(user=user)

    text = json.dumps(exported, ensure_ascii=False)
    assert "블루버드" not in text
    assert "지울 것" not in text
    assert '"embedding":' not in text
    [record] = exported["memories"]
    api_record = api.get(f"/api/v1/memories/{memory.pk}/").json()
    assert {k: v for k, v in record.items() if k != "versions"} == api_record
    assert [v["content"] for v in record["versions"]] == ["나 부산에 살아", "나 서울 강남에 살아"]
    assert len(exported["deletion_receipts"]) == 1
    assert {e["action"] for e in exported["memory_audit_events"]} == {"user_delete"}
