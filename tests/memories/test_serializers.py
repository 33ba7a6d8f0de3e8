"""How memories' records are shown (memories/serializers.py): the API's forms, kept exact."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memories.logic.write_policy import Origin
from memories.models import AuditEvent, DeletionReceipt, Memory, MemoryConflict, MemoryVersion
from memories.reasons import ChangeReason
from memories.selectors import memory_get_for_user, memory_versions
from memories.serializers import (
    AccessLogEventSerializer,
    AgentSerializer,
    AuditEventSerializer,
    DeletionReceiptSerializer,
    MemorySerializer,
    memories_export_for_user,
    memory_versions_data,
)
from memories.services import revision
from memories.services.agents import agent_create, agent_pause

pytestmark = pytest.mark.django_db


def _shown(user: Any, memory: Memory) -> dict[str, Any]:
    return dict(MemorySerializer(memory_get_for_user(user=user, memory_id=memory.pk)).data)


def test_a_memory_has_string_ids_and_times_in_the_servers_zone(user, remember, settings):
    settings.TIME_ZONE = "Asia/Seoul"
    memory = remember("My sister lives in Daegu")

    shown = _shown(user, memory)

    assert shown["id"] == str(memory.pk)
    assert shown["created_at"].endswith("+09:00")
    assert shown["observed_at"].endswith("+09:00")
    assert shown["expires_at"] is None
    assert shown["supersedes"] is None


def test_blank_codes_slots_and_dispute_marks_are_null(user, remember):
    shown = _shown(user, remember("Remember the blue umbrella"))

    assert shown["status_reason"] == ""
    assert shown["status_code"] is None
    assert shown["status_params"] == {}
    assert shown["slot"] is None
    assert shown["disputed_from"] is None
    assert shown["conflict"] is None


def test_the_source_is_null_when_unknown_and_names_what_is_known(user, remember):
    unknown, said, linked = remember("a"), remember("b is 2"), remember("c is 3")
    MemoryVersion.objects.filter(pk=said.current_version_id).update(source_session_id=7)
    MemoryVersion.objects.filter(pk=linked.current_version_id).update(source_uri="https://e.test")

    assert _shown(user, unknown)["source"] is None
    assert _shown(user, said)["source"] == {"message_id": None, "session_id": "7", "uri": None}
    assert _shown(user, linked)["source"] == {
        "message_id": None,
        "session_id": None,
        "uri": "https://e.test",
    }


def test_a_conflict_names_the_other_memory(user, remember):
    first, second = remember("My office is on floor 3"), remember("My office is on floor 5")
    MemoryConflict.objects.create(from_memory=first, to_memory=second, user=user)

    assert _shown(user, first)["conflict"] == {"with": [str(second.pk)]}


def test_only_the_memorys_current_version_is_current(user, remember):
    memory = remember("I drink tea in the morning")
    revision.memory_revise(
        memory=memory,
        changes=revision.MemoryChanges(content="I drink coffee in the morning"),
        origin=Origin.USER,
        change_reason=ChangeReason.EDITED_BY_USER,
    )
    memory.refresh_from_db()

    shown = memory_versions_data(memory=memory, versions=memory_versions(memory=memory))

    assert [(v["version"], v["status"]) for v in shown] == [(2, "current"), (1, "superseded")]
    assert shown[0]["supersedes"] == shown[1]["id"]
    assert shown[0]["change_code"] == "edited_by_user"


def test_a_receipt_shows_its_copies_with_every_key_and_no_memory_as_null(user):
    copy = {"kind": "summary", "session_id": "4", "date": "2026-10-01", "count": 3}
    receipt = DeletionReceipt.objects.create(
        user=user, kind=DeletionReceipt.Kind.ALL, removed={"memories": 2}, copies=[copy]
    )

    shown = DeletionReceiptSerializer(DeletionReceipt.objects.get(pk=receipt.pk)).data

    assert shown["id"] == str(receipt.pk)
    assert shown["memory_id"] is None
    assert shown["removed"] == {"memories": 2}
    assert shown["copies"] == [copy]


def test_an_audit_event_names_its_actor_as_staff_or_nobody(user, django_user_model):
    staff = django_user_model.objects.create_user("reviewer", is_staff=True)
    seen = AuditEvent.objects.create(user=user, actor=staff, action="staff_view", target_id="9")
    purged = AuditEvent.objects.create(user=user, action="purge", detail={"count": 1})

    assert AuditEventSerializer(seen).data["actor"] == {"id": str(staff.pk), "staff": True}
    assert AuditEventSerializer(purged).data["actor"] is None


def test_the_access_log_names_only_the_users_own_agents(user):
    agent, _ = agent_create(user=user, name="notes bot", scopes=["read"])
    called = AuditEvent.objects.create(
        user=user, action="agent_call", detail={"agent_id": agent.pk, "tool": "search_memory"}
    )
    stranger = AuditEvent.objects.create(
        user=user, action="agent_call", detail={"agent_id": agent.pk + 1000}
    )
    context = {"agent_names": {agent.pk: agent.name}}

    assert AccessLogEventSerializer(called, context=context).data["agent"] == {
        "id": str(agent.pk),
        "name": "notes bot",
    }
    assert AccessLogEventSerializer(stranger, context=context).data["agent"] is None


def test_an_agent_is_shown_paused_with_its_token_prefix_only(user):
    agent, token = agent_create(user=user, name="calendar", scopes=["read", "write"])
    agent_pause(agent=agent, paused=True)

    shown = AgentSerializer(agent).data

    assert shown["paused"] is True and shown["revoked"] is False
    assert shown["paused_at"] is not None and shown["revoked_at"] is None
    assert token not in str(shown) and shown["token_prefix"] == agent.token_prefix


def _memories_with_history(remember: Any, count: int) -> None:
    for n in range(count):
        memory = remember(f"Project {n} is due in week {n + 10}")
        revision.memory_revise(
            memory=memory,
            changes=revision.MemoryChanges(content=f"Project {n} is due in week {n + 20}"),
            origin=Origin.USER,
            change_reason=ChangeReason.EDITED_BY_USER,
        )


def _queries(read: Any) -> int:
    with CaptureQueriesContext(connection) as queries:
        read()
    return len(queries)


def test_the_memory_list_reads_as_many_queries_for_many_memories_as_for_one(api, remember):
    _memories_with_history(remember, 1)
    one = _queries(lambda: api.get("/api/v1/memories/"))
    _memories_with_history(remember, 4)
    many = _queries(lambda: api.get("/api/v1/memories/"))

    assert len(api.get("/api/v1/memories/").json()["results"]) == 5
    assert many == one


def test_the_export_reads_as_many_queries_for_many_memories_as_for_one(user, remember):
    _memories_with_history(remember, 1)
    one = _queries(lambda: memories_export_for_user(user=user))
    _memories_with_history(remember, 4)
    many = _queries(lambda: memories_export_for_user(user=user))

    exported = memories_export_for_user(user=user)["memories"]
    assert [len(m["versions"]) for m in exported] == [2] * 5
    assert [v["status"] for v in exported[0]["versions"]] == ["current", "superseded"]
    assert many == one
