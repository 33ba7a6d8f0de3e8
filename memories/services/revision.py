"""Creating memories, adding versions and changing status: the only writer of versions.

Every write goes through the write policy (`write_policy.decide`): a secret or speculation is
refused (`MemoryRefused`), an injection is stored quarantined, a volatile fact gets a short
expiry, an assistant's inference waits for approval. A change never edits a version: it adds
one that supersedes the current one.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TypeVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from memories.logic import rules, write_policy
from memories.logic.write_policy import Origin, PolicyResult
from memories.models import (
    DEFAULT_SCOPE,
    LIVE_STATUSES,
    AuditEvent,
    CreatedBy,
    Memory,
    MemoryConflict,
    MemoryStatus,
    MemoryVersion,
    Reader,
    Sensitivity,
    default_readers,
)
from memories.reasons import (
    ChangeReason,
    Params,
    StatusReason,
    policy_reason_for,
    status_reason_for_policy,
)
from memories.services.audit import audit_event_record
from memories.services.intake import terms_intake
from memoryhub import embeddings
from memoryhub import text as text_analysis
from memoryhub.embeddings import Vector
from memoryhub.validation import visible_text

MAX_INDEX_TOKENS = 64


class MemoryRefused(ValueError):
    """The write policy does not store this content; nothing was written."""

    def __init__(self, result: PolicyResult) -> None:
        super().__init__(result.reason)
        self.result = result


class InvalidTransition(ValueError):
    """The memory's status does not allow this change."""


class _Unset(enum.Enum):
    UNSET = "unset"


UNSET = _Unset.UNSET
_T = TypeVar("_T")


@dataclass(frozen=True, kw_only=True)
class MemoryChanges:
    """What an edit of a memory sets; a field left UNSET keeps the current version's value.

    `content` or `type` set to something new is a new statement (see `memory_revise`); the
    others are metadata.
    """

    content: str | _Unset = UNSET
    type: str | _Unset = UNSET
    expires_at: datetime | None | _Unset = UNSET
    sensitivity: str | _Unset = UNSET
    importance: float | _Unset = UNSET
    scope: str | _Unset = UNSET
    effective_from: datetime | None | _Unset = UNSET
    allowed_readers: tuple[str, ...] | _Unset = UNSET
    confidence: float | _Unset = UNSET

    def differ_from(self, version: MemoryVersion) -> bool:
        """Whether any field set here differs from `version`'s."""
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, _Unset):
                continue
            current = getattr(version, name)
            if name == "allowed_readers":
                value, current = tuple(value), tuple(current or ())
            if value != current:
                return True
        return False


@dataclass(frozen=True)
class Indexed:
    """What search needs of a text: keyword tokens, fingerprint, embedding."""

    tokens: list[str]
    fingerprint: str
    embedding: Vector


@dataclass(frozen=True)
class VersionFields:
    """The content and governance fields of one version (seed 003's record)."""

    type: str
    content: str
    scope: str = DEFAULT_SCOPE
    slot: str = ""
    confidence: float = 1.0
    importance: float = 0.5
    sensitivity: str = Sensitivity.NORMAL
    observed_at: datetime | None = None
    effective_from: datetime | None = None
    expires_at: datetime | None = None
    allowed_readers: tuple[str, ...] | None = None
    tags: tuple[str, ...] = ()
    source_message_id: int | None = None
    source_session_id: int | None = None
    source_uri: str = ""


def memory_index(*, content: str) -> Indexed:
    """Tokens, fingerprint and embedding of `content`. Slow (a model call): run it before
    opening a transaction."""
    return Indexed(
        tokens=text_analysis.index_tokens(content)[:MAX_INDEX_TOKENS],
        fingerprint=rules.fingerprint(content),
        embedding=embeddings.embed_passages([content])[0],
    )


def policy_decide(
    *, content: str, type: str, origin: Origin, confidence: float = 1.0, source_text: str = ""
) -> PolicyResult:
    candidate = write_policy.Candidate(
        content=content, type=type, origin=origin, confidence=confidence, source_text=source_text
    )
    return write_policy.decide(
        candidate, volatile_expiry_hours=settings.MEMORYHUB_VOLATILE_EXPIRY_HOURS
    )


def _created_by(origin: Origin) -> str:
    return CreatedBy.USER if origin is Origin.USER else CreatedBy.ASSISTANT


def _readers(fields: VersionFields) -> list[str]:
    if fields.allowed_readers is not None:
        return list(dict.fromkeys(fields.allowed_readers))
    if fields.sensitivity == Sensitivity.HIGH:
        return [Reader.ASSISTANT.value]  # sensitive memories are not shared with other agents
    return default_readers()


def _expiry(
    policy: PolicyResult, observed_at: datetime, requested: datetime | None
) -> datetime | None:
    if policy.expires_in_hours is None:
        return requested
    cap = observed_at + timedelta(hours=policy.expires_in_hours)
    return cap if requested is None else min(requested, cap)


def _version_write(
    *,
    memory: Memory,
    fields: VersionFields,
    number: int,
    created_by: str,
    policy: PolicyResult,
    indexed: Indexed,
    supersedes: MemoryVersion | None,
    change_reason: str,
    change_params: Params | None,
    now: datetime,
    agent_id: int | None = None,
) -> MemoryVersion:
    if change_reason not in ChangeReason.values:
        raise ValueError(f"not a change reason code: {change_reason!r}")
    observed = fields.observed_at or now
    policy_reason, policy_params = policy_reason_for(policy)
    return MemoryVersion.objects.create(
        memory=memory,
        user_id=memory.user_id,
        version=number,
        scope=fields.scope,
        type=fields.type,
        content=fields.content,
        slot=fields.slot,
        source_message_id=fields.source_message_id,
        source_session_id=fields.source_session_id,
        source_uri=fields.source_uri,
        observed_at=observed,
        effective_from=fields.effective_from or observed,
        expires_at=_expiry(policy, observed, fields.expires_at),
        confidence=fields.confidence,
        sensitivity=fields.sensitivity,
        importance=fields.importance,
        supersedes=supersedes,
        created_by=created_by,
        created_by_agent_id=agent_id,
        allowed_readers=_readers(fields),
        tags=terms_intake(fields.tags),  # a model's tag with a secret or a marker is no tag
        tokens=indexed.tokens,
        fingerprint=indexed.fingerprint,
        embedding=indexed.embedding,
        policy_decision=policy.decision.value,
        policy_reason=policy_reason,
        policy_params=policy_params,
        change_reason=change_reason,
        change_params=change_params or {},
        created_at=now,
    )


def _make_current(
    *,
    memory: Memory,
    version: MemoryVersion,
    status: str,
    reason: tuple[str, Params],
    now: datetime,
) -> None:
    previous = memory.status
    memory.current_version = version
    memory.type = version.type
    memory.slot = version.slot
    memory.status = status
    memory.status_reason, memory.status_params = reason
    if status != MemoryStatus.DISPUTED:
        memory.disputed_from = ""  # a corrected memory has nothing to go back to
    memory.updated_at = now
    memory.save(
        update_fields=[
            "current_version",
            "type",
            "slot",
            "status",
            "status_reason",
            "status_params",
            "disputed_from",
            "updated_at",
        ]
    )
    if status == MemoryStatus.QUARANTINED and previous != MemoryStatus.QUARANTINED:
        audit_event_record(
            user_id=memory.user_id,
            action=AuditEvent.Action.QUARANTINE,
            target_id=str(memory.pk),
            detail={"version": version.version, "reason": reason[0]},
        )


def _reason_for(status: str, policy: PolicyResult) -> tuple[str, Params]:
    return ("", {}) if status == MemoryStatus.ACTIVE else status_reason_for_policy(policy)


@transaction.atomic
def lineage_create(
    *,
    user_id: int,
    fields: VersionFields,
    origin: Origin,
    policy: PolicyResult,
    indexed: Indexed,
    change_reason: str = ChangeReason.CREATED,
    change_params: Params | None = None,
    agent_id: int | None = None,
    trusted: bool = False,
) -> Memory:
    """A new memory with its first version; raises MemoryRefused when the policy says no.

    `agent_id` names the connected agent that wrote it (`created_by` "agent"); `trusted` (an
    agent the user trusts) makes what would wait for approval active at once. A quarantine
    holds either way."""
    if not policy.stores:
        raise MemoryRefused(policy)
    now = timezone.now()
    memory = Memory.objects.create(
        user_id=user_id,
        type=fields.type,
        slot=fields.slot,
        status=MemoryStatus.PENDING,
        created_by_agent_id=agent_id,
        created_at=now,
        updated_at=now,
    )
    version = _version_write(
        memory=memory,
        fields=fields,
        number=1,
        created_by=CreatedBy.AGENT if agent_id is not None else _created_by(origin),
        policy=policy,
        indexed=indexed,
        supersedes=None,
        change_reason=change_reason,
        change_params=change_params,
        now=now,
        agent_id=agent_id,
    )
    status = write_policy.initial_status(policy, origin)
    if trusted and status == MemoryStatus.PENDING:
        status = MemoryStatus.ACTIVE
    _make_current(
        memory=memory, version=version, status=status, reason=_reason_for(status, policy), now=now
    )
    return memory


def memory_create(
    *,
    user: AbstractBaseUser,
    type: str,
    content: str,
    expires_at: datetime | None = None,
    sensitivity: str = Sensitivity.NORMAL,
    scope: str = DEFAULT_SCOPE,
    importance: float = 0.5,
    effective_from: datetime | None = None,
    allowed_readers: tuple[str, ...] | None = None,
    tags: tuple[str, ...] = (),
    via: str = "",
) -> Memory:
    """A memory the user wrote themselves: active at once unless the write policy objects
    (a secret raises MemoryRefused; an injection is stored quarantined). `via` (a
    `WrittenVia` value) says how it came, for the memory page's provenance."""
    content = visible_text(content)
    policy = policy_decide(content=content, type=type, origin=Origin.USER)
    if not policy.stores:
        raise MemoryRefused(policy)
    fields = VersionFields(
        type=type,
        content=content,
        scope=scope,
        slot=rules.slot_of(content),
        importance=importance,
        sensitivity=sensitivity,
        expires_at=expires_at,
        effective_from=effective_from,
        allowed_readers=allowed_readers,
        tags=tags,
    )
    indexed = memory_index(content=content)
    with transaction.atomic():
        memory = lineage_create(
            user_id=user.pk,
            fields=fields,
            origin=Origin.USER,
            policy=policy,
            indexed=indexed,
            change_reason=ChangeReason.WRITTEN_BY_USER,
            change_params={"via": via} if via else None,
        )
        _slot_conflicts_link(memory, fingerprint=indexed.fingerprint)
    return memory


def memory_conflicts_link(*, memory: Memory, others: Sequence[Memory]) -> None:
    """Mark `memory` in conflict with each of `others` (the same user's), both ways; links
    already there stay. What `memory.conflicts.add()` does, with the owner in every row and
    no lookup of the links by memory ids alone."""
    links = [
        MemoryConflict(user_id=memory.user_id, from_memory_id=a, to_memory_id=b)
        for other in others
        for a, b in ((memory.pk, other.pk), (other.pk, memory.pk))
    ]
    MemoryConflict.objects.bulk_create(links, ignore_conflicts=True)


def _slot_conflicts_link(memory: Memory, *, fingerprint: str) -> int:
    """A memory typed in by hand that fills the same slot as a live one but says something
    else ("I live in Dallas" beside a chat's "I live in Austin") is linked to it as a
    conflict: both are kept and shown as conflicting, nothing is silently replaced (the
    user edits the old one to replace it)."""
    if not memory.slot or memory.status not in LIVE_STATUSES:
        return 0
    others = [
        other
        for other in Memory.objects.filter(
            user_id=memory.user_id, slot=memory.slot, status__in=LIVE_STATUSES
        )
        .exclude(pk=memory.pk)
        .select_related("current_version")
        if other.current_version is not None and other.current_version.fingerprint != fingerprint
    ]
    if others:
        memory_conflicts_link(memory=memory, others=others)
    return len(others)


def memory_revise(
    *,
    memory: Memory,
    changes: MemoryChanges,
    origin: Origin,
    change_reason: str,
    change_params: Params | None = None,
    observed_at: datetime | None = None,
    source_message_id: int | None = None,
    source_session_id: int | None = None,
    indexed: Indexed | None = None,
) -> Memory:
    """Add a version with `changes` that supersedes the current one; when `changes` sets
    nothing that differs from the current version, add none and return the memory as it is
    (an edit restating the same values, from the API or a page, is no new version).

    A change of content or type is a new statement by `origin` and goes through the write
    policy again (a user's edit becomes active, the assistant's waits for approval). A change
    of other fields only keeps the status. Raises MemoryRefused when the policy says no.
    `change_reason` is a `ChangeReason` code (ValueError otherwise) with `change_params`.
    `observed_at` and the source ids date and place a new statement (a chat turn's).
    """
    current = memory.current_version
    if current is None:
        raise InvalidTransition("memory has no version")
    content = changes.content
    if not isinstance(content, _Unset):
        content = visible_text(content)
        changes = replace(changes, content=content)
    new_content = current.content if isinstance(content, _Unset) else content
    if indexed is None and new_content != current.content:
        indexed = memory_index(content=new_content)
    return _revise(
        user_id=memory.user_id,
        memory_id=memory.pk,
        changes=changes,
        origin=origin,
        change_reason=change_reason,
        change_params=change_params,
        observed_at=observed_at,
        source_message_id=source_message_id,
        source_session_id=source_session_id,
        indexed=indexed,
    )


@transaction.atomic
def _revise(
    *,
    user_id: int,
    memory_id: int,
    changes: MemoryChanges,
    origin: Origin,
    change_reason: str,
    change_params: Params | None,
    observed_at: datetime | None,
    source_message_id: int | None,
    source_session_id: int | None,
    indexed: Indexed | None,
) -> Memory:
    memory = Memory.objects.select_for_update().get(user_id=user_id, pk=memory_id)
    if memory.current_version_id is None:
        raise InvalidTransition("memory has no version")
    current = MemoryVersion.objects.get(user_id=user_id, pk=memory.current_version_id)
    if not changes.differ_from(current):  # read under the lock: a concurrent edit counts
        return memory
    now = timezone.now()
    content = current.content if isinstance(changes.content, _Unset) else changes.content
    new_type = current.type if isinstance(changes.type, _Unset) else changes.type
    restated = content != current.content or new_type != current.type
    # Only a new statement changes who said it; a metadata change keeps its author.
    if restated:
        author = origin
    else:
        author = Origin.ASSISTANT if current.created_by == CreatedBy.ASSISTANT else Origin.USER
    stated_at = observed_at or now
    confidence = changes.confidence
    policy = policy_decide(
        content=content,
        type=new_type,
        origin=author,
        # The model's own doubt makes a new statement speculation; a later drop of confidence
        # (the user marking it wrong) is feedback on a stored memory, not a new statement.
        confidence=confidence if restated and not isinstance(confidence, _Unset) else 1.0,
    )
    if not policy.stores:
        raise MemoryRefused(policy)
    source = _source_of(
        current, restated=restated, message_id=source_message_id, session_id=source_session_id
    )
    fields = VersionFields(
        type=new_type,
        content=content,
        scope=_kept(changes.scope, current.scope),
        slot=(rules.slot_of(content) or current.slot) if restated else current.slot,
        confidence=_kept(confidence, current.confidence),
        importance=_kept(changes.importance, current.importance),
        sensitivity=_kept(changes.sensitivity, current.sensitivity),
        observed_at=stated_at if restated else current.observed_at,
        effective_from=_kept(
            changes.effective_from, stated_at if restated else current.effective_from
        ),
        expires_at=_kept(changes.expires_at, current.expires_at),
        allowed_readers=_kept(changes.allowed_readers, tuple(current.allowed_readers)),
        tags=tuple(current.tags),
        source_message_id=source.message_id,
        source_session_id=source.session_id,
        source_uri=source.uri,
    )
    if indexed is None:
        indexed = Indexed(
            tokens=list(current.tokens),
            fingerprint=current.fingerprint,
            embedding=current.embedding,
        )
    version = _version_write(
        memory=memory,
        fields=fields,
        number=current.version + 1,
        created_by=_created_by(origin) if restated else current.created_by,
        policy=policy,
        indexed=indexed,
        supersedes=current,
        change_reason=change_reason,
        change_params=change_params,
        now=now,
    )
    status, reason = _status_after_revision(
        memory=memory, version=version, policy=policy, origin=origin, restated=restated, now=now
    )
    _make_current(memory=memory, version=version, status=status, reason=reason, now=now)
    return memory


def _kept(value: _T | _Unset, current: _T) -> _T:
    """`value`, or `current` when it is UNSET."""
    return current if isinstance(value, _Unset) else value


@dataclass(frozen=True)
class _Source:
    message_id: int | None
    session_id: int | None
    uri: str


def _source_of(
    current: MemoryVersion, *, restated: bool, message_id: int | None, session_id: int | None
) -> _Source:
    """Where a new version comes from: a restatement from a chat turn takes that turn as its
    source; any other change (a person's edit, a metadata change) keeps the lineage's source,
    so an edited memory still links to the message it was first made from."""
    if restated and (message_id is not None or session_id is not None):
        return _Source(message_id=message_id, session_id=session_id, uri="")
    return _Source(
        message_id=current.source_message_id,
        session_id=current.source_session_id,
        uri=current.source_uri,
    )


def _status_after_revision(
    *,
    memory: Memory,
    version: MemoryVersion,
    policy: PolicyResult,
    origin: Origin,
    restated: bool,
    now: datetime,
) -> tuple[str, tuple[str, Params]]:
    if policy.decision is write_policy.Decision.QUARANTINE:
        return MemoryStatus.QUARANTINED, status_reason_for_policy(policy)
    if restated:
        status = write_policy.initial_status(policy, origin)
        return status, _reason_for(status, policy)
    if memory.status == MemoryStatus.EXPIRED and (
        version.expires_at is None or version.expires_at > now
    ):
        return MemoryStatus.ACTIVE, ("", {})
    return memory.status, (memory.status_reason, memory.status_params)


@transaction.atomic
def memory_approve(
    *, user: AbstractBaseUser, memory: Memory, reason: StatusReason = StatusReason.APPROVED
) -> Memory:
    """Approve a pending memory: it becomes active, approved by `user`. The one way a memory
    is approved: by the user's button or API call, or by their own restatement in a chat
    (`reason` `confirmed`, from extraction)."""
    memory = Memory.objects.select_for_update().get(user_id=memory.user_id, pk=memory.pk)
    if memory.status == MemoryStatus.ACTIVE:
        return memory
    if memory.status != MemoryStatus.PENDING:
        raise InvalidTransition(f"a {memory.status} memory cannot be approved")
    now = timezone.now()
    if memory.current_version_id is None:
        raise InvalidTransition("memory has no version")
    version = MemoryVersion.objects.get(user_id=memory.user_id, pk=memory.current_version_id)
    if version.approved_by_id is None:
        version.approved_by_id = user.pk
        version.approved_at = now
        version.save(update_fields=["approved_by", "approved_at"])
    memory.status = MemoryStatus.ACTIVE
    memory.status_reason, memory.status_params = reason, {}
    memory.updated_at = now
    memory.save(update_fields=["status", "status_reason", "status_params", "updated_at"])
    audit_event_record(
        user_id=memory.user_id,
        actor=user,
        action=AuditEvent.Action.APPROVE,
        target_id=str(memory.pk),
        detail={"version": version.version, "reason": reason.value},
    )
    return memory


_REJECTABLE = (
    MemoryStatus.PENDING,
    MemoryStatus.ACTIVE,
    MemoryStatus.QUARANTINED,
    MemoryStatus.DISPUTED,
)


@transaction.atomic
def memory_reject(
    *, user: AbstractBaseUser, memory: Memory, reason: StatusReason = StatusReason.REJECTED
) -> Memory:
    """Reject a memory: it is never used again and its content is purged after retention.

    `reason` is the code of who rejected it (the user, or the assistant's memory tool)."""
    memory = Memory.objects.select_for_update().get(user_id=memory.user_id, pk=memory.pk)
    if memory.status == MemoryStatus.REJECTED:
        return memory
    if memory.status not in _REJECTABLE:
        raise InvalidTransition(f"a {memory.status} memory cannot be rejected")
    memory.status = MemoryStatus.REJECTED
    memory.status_reason, memory.status_params = reason, {}
    memory.disputed_from = ""
    memory.updated_at = timezone.now()
    memory.save(
        update_fields=["status", "status_reason", "status_params", "disputed_from", "updated_at"]
    )
    # A rejected memory no longer contradicts anything (both directions, by owner).
    MemoryConflict.objects.filter(
        Q(from_memory=memory) | Q(to_memory=memory), user_id=memory.user_id
    ).delete()
    audit_event_record(
        user_id=memory.user_id,
        actor=user,
        action=AuditEvent.Action.REJECT,
        target_id=str(memory.pk),
        detail={"reason": reason.value},
    )
    return memory
