"""How memories' records are shown: the output serializers of the REST API (docs/API.md
"Memories"), shared by the export (`memories_export_for_user`), the MCP server and the
benchmarks.

Every time is written as Python's `isoformat()` writes it in the server's zone, every id as a
string, and a blank text field of the model (no code, no slot) as null: the forms the API had
when its bodies were built by hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from memories.models import (
    Agent,
    AuditEvent,
    DeletionReceipt,
    ExtractionRun,
    Memory,
    MemoryStatus,
    MemoryType,
    MemoryUse,
    MemoryVersion,
)
from memories.reasons import ChangeReason, PolicyReason, StatusReason
from memories.selectors.access import (
    audit_events_for_user,
    deletion_receipts_for_user,
    memory_conflict_ids,
    memory_list_for_user,
    memory_uses_for_user,
)
from memories.selectors.agents import agents_of
from memoryhub.api import IsoDateTimeField

_M = TypeVar("_M")


def serialize_many(
    serializer: type[serializers.Serializer[_M]], instances: Iterable[_M], **kwargs: Any
) -> list[dict[str, Any]]:
    """Every one of `instances` through `serializer`, built once (`many=True`; the stubs
    type a serializer's instance as one object)."""
    return list(serializer(instances, many=True, **kwargs).data)  # type: ignore[arg-type]


def _time(**kwargs: Any) -> IsoDateTimeField:
    return IsoDateTimeField(local=True, **kwargs)


class BlankAsNullCharField(serializers.CharField):
    """A text the model stores blank when there is none, shown as null."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_null=True, **kwargs)

    def to_representation(self, value: Any) -> Any:
        return None if value == "" else str(value)


class BlankAsNullChoiceField(serializers.ChoiceField):
    """A code the model stores blank when there is none, shown as null."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_null=True, **kwargs)

    def to_representation(self, value: Any) -> Any:
        return None if value == "" else super().to_representation(value)


class MemorySourceSerializer(serializers.Serializer[MemoryVersion]):
    """Where a version came from: the message and session it was said in (ids), or a URI."""

    message_id = serializers.CharField(source="source_message_id", allow_null=True)
    session_id = serializers.CharField(source="source_session_id", allow_null=True)
    uri = BlankAsNullCharField(source="source_uri")


@extend_schema_field(MemorySourceSerializer(allow_null=True))
class MemorySourceField(serializers.Field):  # type: ignore[type-arg]
    """A version's source, null when nothing is known of it (`source` names the version)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value: MemoryVersion) -> dict[str, Any] | None:
        known = (value.source_message_id, value.source_session_id, value.source_uri or None)
        if known == (None, None, None):
            return None
        return MemorySourceSerializer(value).data


class PolicySerializer(serializers.Serializer[MemoryVersion]):
    """The write policy's decision for a version, and why: `reason` the English sentence (as
    before codes), `code` the same reason as a code (null when none) and `params` its
    parameters (`{"hours"}` for `volatile_fact`, `{"text"}` for `other`)."""

    decision = serializers.CharField(source="policy_decision")
    # The English sentence, as before codes; the code and its parameters beside it.
    reason = serializers.CharField(source="policy_reason_sentence")
    code = BlankAsNullChoiceField(source="policy_reason", choices=PolicyReason.choices)
    params = serializers.DictField(source="policy_params")


class MemorySerializer(serializers.Serializer[Memory]):
    """docs/API.md's `Memory`: the lineage with its current version's fields. `conflict` is
    `{"with": [ids]}` while a conflict is unresolved; `disputed_from` is the status a
    `disputed` memory returns to on undo, else null.

    Reads `current_version` and the live conflicts: list them with
    `memory_list_for_user`/`memory_get_for_user`, which fetch both with the memory."""

    id = serializers.CharField()
    type = serializers.ChoiceField(choices=MemoryType.choices)
    status = serializers.ChoiceField(choices=MemoryStatus.choices)
    content = serializers.CharField(source="current_version.content")
    version = serializers.IntegerField(source="current_version.version")
    scope = serializers.CharField(source="current_version.scope")
    confidence = serializers.FloatField(source="current_version.confidence")
    sensitivity = serializers.CharField(source="current_version.sensitivity")
    importance = serializers.FloatField(source="current_version.importance")
    observed_at = _time(source="current_version.observed_at")
    effective_from = _time(source="current_version.effective_from")
    expires_at = _time(source="current_version.expires_at", allow_null=True)
    supersedes = serializers.CharField(source="current_version.supersedes_id", allow_null=True)
    created_by = serializers.CharField(source="current_version.created_by")
    approved_by = serializers.CharField(source="current_version.approved_by_id", allow_null=True)
    allowed_readers = serializers.ListField(
        source="current_version.allowed_readers", child=serializers.CharField()
    )
    source = MemorySourceField(source="current_version")  # type: ignore[assignment]
    created_at = _time()
    updated_at = _time()
    # The English sentence, as before codes; the code and its parameters beside it.
    status_reason = serializers.CharField(source="status_reason_sentence")
    status_code = BlankAsNullChoiceField(source="status_reason", choices=StatusReason.choices)
    status_params = serializers.DictField()
    policy = PolicySerializer(source="current_version")
    slot = BlankAsNullCharField()
    tags = serializers.ListField(source="current_version.tags", child=serializers.CharField())
    conflict = serializers.SerializerMethodField()
    access_count = serializers.IntegerField()
    last_accessed_at = _time(allow_null=True)
    wrong_count = serializers.IntegerField()
    disputed_from = BlankAsNullCharField(help_text="A status, as in `status`.")

    @extend_schema_field(
        inline_serializer(
            "MemoryConflict",
            {"with": serializers.ListField(child=serializers.CharField())},
            allow_null=True,
        )
    )
    def get_conflict(self, memory: Memory) -> dict[str, list[str]] | None:
        conflicts = memory_conflict_ids(memory=memory)
        return {"with": conflicts} if conflicts else None


class MemoryVersionSerializer(serializers.Serializer[MemoryVersion]):
    """docs/API.md's `Version`; `status` is `current` or `superseded`, which needs the
    memory's `current_version_id` in the context (the versions of one memory share it)."""

    id = serializers.CharField()
    memory_id = serializers.CharField()
    version = serializers.IntegerField()
    status = serializers.SerializerMethodField()
    type = serializers.ChoiceField(choices=MemoryType.choices)
    content = serializers.CharField()
    scope = serializers.CharField()
    confidence = serializers.FloatField()
    sensitivity = serializers.CharField()
    importance = serializers.FloatField()
    observed_at = _time()
    effective_from = _time()
    expires_at = _time(allow_null=True)
    supersedes = serializers.CharField(source="supersedes_id", allow_null=True)
    created_by = serializers.CharField()
    approved_by = serializers.CharField(source="approved_by_id", allow_null=True)
    approved_at = _time(allow_null=True)
    allowed_readers = serializers.ListField(child=serializers.CharField())
    source = MemorySourceField(source="*")  # type: ignore[assignment]
    policy = PolicySerializer(source="*")
    # The English sentence, as before codes; the code and its parameters beside it.
    change_reason = serializers.CharField(source="change_reason_sentence")
    change_code = BlankAsNullChoiceField(source="change_reason", choices=ChangeReason.choices)
    change_params = serializers.DictField()
    created_at = _time()

    def get_status(self, version: MemoryVersion) -> str:
        current: int | None = self.context["current_version_id"]
        return "current" if version.pk == current else "superseded"


def memory_versions_data(
    *, memory: Memory, versions: Iterable[MemoryVersion]
) -> list[dict[str, Any]]:
    """`versions` of `memory` as the API lists them."""
    context = {"current_version_id": memory.current_version_id}
    return serialize_many(MemoryVersionSerializer, versions, context=context)


class ReceiptCopySerializer(serializers.Serializer[Any]):
    """A copy of the deleted content elsewhere: its kind, session and day, never its text."""

    kind = serializers.CharField()
    session_id = serializers.CharField()
    date = serializers.DateField()
    # How many copies of that kind, in that session, on that day.
    count = serializers.IntegerField(required=False)


@extend_schema_field(ReceiptCopySerializer(many=True))
class ReceiptCopiesField(serializers.ListField):
    """The copies a receipt names, as stored (every key kept)."""

    child = serializers.DictField()


class DeletionReceiptSerializer(serializers.Serializer[DeletionReceipt]):
    """What a deletion removed: counts and the copies' kinds, sessions and days."""

    id = serializers.CharField()
    kind = serializers.ChoiceField(choices=DeletionReceipt.Kind.choices)
    memory_id = BlankAsNullCharField()
    deleted_at = _time()
    removed = serializers.DictField(child=serializers.IntegerField())
    copies = ReceiptCopiesField()


class ActorSerializer(serializers.Serializer[Any]):
    """Who did it: a user's id, and whether they are staff."""

    id = serializers.CharField(source="pk")
    staff = serializers.BooleanField(source="is_staff")


class AuditEventSerializer(serializers.Serializer[AuditEvent]):
    """One entry of the audit trail: ids and counts in `detail`, never content."""

    id = serializers.CharField()
    action = serializers.ChoiceField(choices=AuditEvent.Action.choices)
    actor = ActorSerializer(allow_null=True)
    target_type = serializers.CharField()
    target_id = serializers.CharField()
    detail = serializers.DictField()
    created_at = _time()


class AgentNameSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()


class AccessLogEventSerializer(AuditEventSerializer):
    """An audit event that also names the agent that called or deleted (null on other
    events); the context's `agent_names` maps the user's agent ids to their names."""

    agent = serializers.SerializerMethodField()

    @extend_schema_field(AgentNameSerializer(allow_null=True))
    def get_agent(self, event: AuditEvent) -> dict[str, str] | None:
        names: dict[int, str] = self.context["agent_names"]
        agent_id = event.detail.get("agent_id")
        if agent_id not in names:
            return None
        return {"id": str(agent_id), "name": names[agent_id]}


class MemoryUseSerializer(serializers.Serializer[MemoryUse]):
    """A memory version put into an assistant reply (select the version with it)."""

    memory_id = serializers.CharField()
    version = serializers.IntegerField(source="version.version")
    message_id = serializers.CharField()
    rank = serializers.IntegerField()
    score = serializers.FloatField()
    used_at = _time()


class AgentSerializer(serializers.Serializer[Agent]):
    """A connected agent as the API lists it: never its token, only its first characters."""

    id = serializers.CharField()
    name = serializers.CharField()
    scopes = serializers.ListField(child=serializers.CharField())
    token_prefix = serializers.CharField()
    trusted = serializers.BooleanField()
    may_read_sensitive = serializers.BooleanField()
    paused = serializers.SerializerMethodField()
    revoked = serializers.SerializerMethodField()
    created_at = _time()
    last_used_at = _time(allow_null=True)
    paused_at = _time(allow_null=True)
    revoked_at = _time(allow_null=True)

    def get_paused(self, agent: Agent) -> bool:
        return agent.paused_at is not None

    def get_revoked(self, agent: Agent) -> bool:
        return agent.revoked_at is not None


class ExtractionRunSerializer(serializers.Serializer[ExtractionRun]):
    """One extraction from one exchange: counts per outcome, no content."""

    id = serializers.CharField()
    source_message_id = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=ExtractionRun.Status.choices)
    outcome = serializers.DictField()
    created_at = _time()


def _memory_with_history(memory: Memory) -> dict[str, Any]:
    data = dict(MemorySerializer(memory).data)
    data["versions"] = memory_versions_data(memory=memory, versions=memory.versions.all())
    return data


def memories_export_for_user(*, user: AbstractBaseUser) -> dict[str, Any]:
    """The user's memories with every version, the usage log, receipts, audit trail,
    extractions and connected agents (never their token or its hash), JSON-ready.

    Embeddings and keyword tokens are derived data and left out; no other user's rows.
    """
    newest_first = MemoryVersion.objects.order_by("-version")
    memories = memory_list_for_user(user=user).prefetch_related(
        Prefetch("versions", queryset=newest_first)
    )
    runs = ExtractionRun.objects.filter(user_id=user.pk).order_by("-created_at")
    receipts = deletion_receipts_for_user(user=user)
    return {
        "memories": [_memory_with_history(m) for m in memories],
        "memory_uses": serialize_many(MemoryUseSerializer, memory_uses_for_user(user=user)),
        "deletion_receipts": serialize_many(DeletionReceiptSerializer, receipts),
        "memory_audit_events": serialize_many(
            AuditEventSerializer, audit_events_for_user(user=user)
        ),
        "agents": serialize_many(AgentSerializer, agents_of(user=user)),
        "memory_extractions": serialize_many(ExtractionRunSerializer, runs),
    }
