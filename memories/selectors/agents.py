"""Reads for connected agents (MCP clients with their own token): who they are, and the
memories each may see.

An agent sees only its user's memories, and of those only what the chat's `allowed_readers`
let agents read (`Reader.AGENT`), never a `high` sensitivity one unless the user allowed that
agent, and only active ones (plus its own writes still waiting for approval). A paused or
revoked agent sees nothing. Results are capped at `MEMORYHUB_AGENT_MAX_RESULTS`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet
from django.utils import timezone

from memories.models import (
    Agent,
    AuditEvent,
    Memory,
    MemoryStatus,
    MemoryType,
    Reader,
    Sensitivity,
)
from memories.selectors.access import memory_list_for_user
from memories.selectors.browse import audit_events_staff_for_user
from memories.selectors.retrieval import memory_retrieve, readable_by
from memoryhub.validation import InvalidText, clean_message_text

# Longer than any token `agent_create` makes; a longer header is not worth hashing.
MAX_TOKEN_CHARS = 200
MAX_QUERY_CHARS = 2000
# What an agent may list by status: the active memories, and its own writes that wait.
LISTABLE_STATUSES = (MemoryStatus.ACTIVE.value, MemoryStatus.PENDING.value)


class AgentError(Exception):
    """An agent call that cannot be done; `code` is one of "forbidden" (read-only or paused
    agent), "invalid" (bad input), "refused" (the write policy said no), "not_found";
    `field` names the input at fault, when one is."""

    def __init__(self, code: str, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


@dataclass(frozen=True)
class AgentMemory:
    """One memory as an agent receives it; `score` is set by search only."""

    id: int
    content: str
    type: str
    status: str
    created_at: datetime
    updated_at: datetime
    score: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "content": self.content,
            "type": self.type,
            "status": self.status,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "score": None if self.score is None else round(self.score, 4),
        }


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def agent_authenticate(*, token: str) -> Agent | None:
    """The agent holding the raw `token`, or None when it is unknown, revoked or its user is
    inactive. A paused agent is returned: callers refuse it with a clear error."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
        return None
    try:
        digest = token_digest(token)
    except UnicodeEncodeError:
        return None
    return (
        Agent.objects.select_related("user")
        .filter(token_hash=digest, revoked_at__isnull=True, user__is_active=True)
        .first()
    )


def agents_of(*, user: AbstractBaseUser) -> QuerySet[Agent]:
    """The user's agents, revoked ones included (their names stay on what they wrote)."""
    return Agent.objects.filter(user_id=user.pk).order_by("-created_at", "-id")


def agent_get_for_user(*, user: AbstractBaseUser, agent_id: object) -> Agent | None:
    """The user's agent by id, or None for a bad id or another user's agent."""
    raw = str(agent_id)
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
        return None
    return Agent.objects.filter(user_id=user.pk, pk=int(raw)).first()


def agent_result_cap(requested: int) -> int:
    """`requested` clamped to 1..MEMORYHUB_AGENT_MAX_RESULTS."""
    return max(1, min(int(requested), settings.MEMORYHUB_AGENT_MAX_RESULTS))


def agent_visible_memories(*, agent: Agent) -> QuerySet[Memory]:
    """The memories of the agent's user that this agent may read (see the module doc)."""
    now = timezone.now()
    memories = Memory.objects.filter(
        user_id=agent.user_id,
        current_version__isnull=False,
        current_version__effective_from__lte=now,
    ).filter(
        readable_by(Reader.AGENT.value, field="current_version__allowed_readers"),
        Q(current_version__expires_at__isnull=True) | Q(current_version__expires_at__gt=now),
        Q(status=MemoryStatus.ACTIVE)
        | Q(status=MemoryStatus.PENDING, created_by_agent_id=agent.pk),
    )
    if not agent.may_read_sensitive:
        memories = memories.exclude(current_version__sensitivity=Sensitivity.HIGH)
    return memories


def _as_agent_memory(memory: Memory, score: float | None = None) -> AgentMemory:
    version = memory.current_version
    assert version is not None  # only memories with a current version are visible
    return AgentMemory(
        id=memory.pk,
        content=version.content,
        type=memory.type,
        status=memory.status,
        created_at=memory.created_at,
        updated_at=memory.updated_at,
        score=score,
    )


def _query(query: object) -> str:
    try:
        return clean_message_text(query, max_chars=MAX_QUERY_CHARS).strip()
    except InvalidText as exc:
        raise AgentError("invalid", f"query {exc}", field="query") from exc


def agent_memory_search(*, agent: Agent, query: str, k: int = 10) -> list[AgentMemory]:
    """The memories best matching `query`, ranked by the memories app's retrieval
    (similarity x decay x importance x confidence), at most `k` (clamped to the cap).
    Raises AgentError("invalid") for an empty or oversized query."""
    text = _query(query)
    if not agent.is_active:
        return []
    found = memory_retrieve(
        user=agent.user,
        query=text,
        reader=Reader.AGENT.value,
        limit=agent_result_cap(k),
        token_budget=10**9,  # the count cap bounds the result, not the prompt budget
        include_sensitive=agent.may_read_sensitive,
    )
    rows = {
        m.pk: m
        for m in agent_visible_memories(agent=agent)
        .filter(pk__in=[int(item.memory_id) for item in found])
        .select_related("current_version")
    }
    return [
        _as_agent_memory(rows[int(item.memory_id)], score=item.score)
        for item in found
        if int(item.memory_id) in rows
    ]


def agent_memory_list(
    *,
    agent: Agent,
    type: str | None = None,
    status: str | None = None,
    q: str | None = None,
    limit: int = 50,
) -> list[AgentMemory]:
    """The agent's readable memories, newest change first, filtered by type, status
    ("active", or "pending" for its own writes awaiting approval) and text."""
    if type is not None and type not in MemoryType.values:
        raise AgentError(
            "invalid", f"type must be one of {', '.join(MemoryType.values)}", field="type"
        )
    if status is not None and status not in LISTABLE_STATUSES:
        raise AgentError(
            "invalid", f"status must be one of {', '.join(LISTABLE_STATUSES)}", field="status"
        )
    text = _query(q) if q is not None and q.strip() else None
    if not agent.is_active:
        return []
    memories = memory_list_for_user(user=agent.user, status=status, type=type, q=text)
    visible = memories.filter(pk__in=agent_visible_memories(agent=agent).values("pk"))
    return [_as_agent_memory(m) for m in visible[: agent_result_cap(limit)]]


def _row_id(memory_id: object) -> int | None:
    """`memory_id` when it can name a row (a positive int within bigint), else None."""
    if isinstance(memory_id, bool) or not isinstance(memory_id, int):
        return None
    return memory_id if 0 < memory_id < 2**63 else None


def agent_memory_get(*, agent: Agent, memory_id: int) -> AgentMemory | None:
    """One memory the agent may read, or None (unknown, another user's, unreadable)."""
    pk = _row_id(memory_id)
    if not agent.is_active or pk is None:
        return None
    visible = agent_visible_memories(agent=agent).select_related("current_version")
    memory = visible.filter(pk=pk).first()
    return None if memory is None else _as_agent_memory(memory)


def agent_visible_memory(*, agent: Agent, memory_id: int) -> Memory | None:
    """The memory row behind `agent_memory_get` (for services that change it)."""
    pk = _row_id(memory_id)
    return None if pk is None else agent_visible_memories(agent=agent).filter(pk=pk).first()


def agent_activity(*, agent: Agent) -> QuerySet[AuditEvent]:
    """The agent's calls from the access log (tool, time, ids), newest first."""
    return AuditEvent.objects.filter(
        user_id=agent.user_id,
        action=AuditEvent.Action.AGENT_CALL,
        target_type="agent",
        target_id=str(agent.pk),
    ).order_by("-created_at", "-id")


def agent_memories_written(*, agent: Agent) -> QuerySet[Memory]:
    """The memories the agent wrote that still exist, newest first."""
    return (
        Memory.objects.filter(user_id=agent.user_id, created_by_agent_id=agent.pk)
        .select_related("current_version")
        .order_by("-created_at", "-id")
    )


def access_log_for_user(*, user: AbstractBaseUser) -> QuerySet[AuditEvent]:
    """The user's access log: every staff read or change of their memories and chats
    (`audit_events_staff_for_user`) and every call of one of their agents, and what an agent
    deleted for them, newest first."""
    by_agent = Q(action=AuditEvent.Action.AGENT_CALL) | Q(detail__has_key="agent_id")
    staff = audit_events_staff_for_user(user=user)
    return staff | AuditEvent.objects.filter(user_id=user.pk).filter(by_agent)


def agent_names_for_user(*, user: AbstractBaseUser, ids: list[object]) -> dict[int, str]:
    """The names of the user's agents among `ids` (revoked ones too)."""
    wanted = [i for i in ids if isinstance(i, int) and not isinstance(i, bool)]
    return dict(Agent.objects.filter(user_id=user.pk, pk__in=wanted).values_list("pk", "name"))
