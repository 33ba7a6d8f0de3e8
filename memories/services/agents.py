"""Writes for connected agents: creating, pausing, trusting and revoking them, and what an
agent may change in its user's memory (add, forget), its access log and its rate budget.

An agent's add goes through the same write policy as every memory write (a secret is refused,
an injection quarantined, a guess or raw tool output refused) and waits for the user's
approval unless the user trusts that agent; `created_by` names the agent. Its forget is the
page's deletion with the page's receipt (`conversations.services.forgetting.
agent_memory_forget`, after `agent_memory_deletable` here). A read-only, paused or revoked
agent changes nothing.

The transport (the MCP server) records each call with `agent_call_record` and asks
`agent_rate_limit` before serving it; these services do not log on their own, so a call is
logged once whatever it did.
"""

from __future__ import annotations

import math
import secrets
import time

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from memories.labels import AgentCallOutcome
from memories.logic import rules
from memories.logic.write_policy import CandidateKind, Origin
from memories.models import (
    LIVE_STATUSES,
    Agent,
    AgentScope,
    AuditEvent,
    Memory,
    MemoryType,
    MemoryVersion,
)
from memories.reasons import ChangeReason
from memories.selectors.agents import (
    AgentError,
    agent_visible_memories,
    agent_visible_memory,
    token_digest,
)
from memories.services import revision
from memories.services.audit import audit_event_record
from memories.services.intake import text_intake
from memories.services.revision import MemoryRefused, VersionFields
from memoryhub.models import rows_delete
from memoryhub.validation import InvalidText, clean_message_text

__all__ = [
    "AgentError",
    "agent_call_record",
    "agent_create",
    "agent_memory_add",
    "agent_memory_deletable",
    "agent_pause",
    "agent_rate_limit",
    "agent_revoke",
    "agent_update",
]

TOKEN_PREFIX = "mh_"
# Enough of the token to tell two apart on the page; far too little to guess the rest.
SHOWN_PREFIX_CHARS = 10
MAX_NAME_CHARS = 100
MAX_TOOL_CHARS = 64
# The ids one access-log entry keeps (a call returns at most MEMORYHUB_AGENT_MAX_RESULTS).
MAX_LOGGED_IDS = 200
SCOPE_SETS = ({AgentScope.READ.value}, {AgentScope.READ.value, AgentScope.WRITE.value})


def _name(name: object) -> str:
    try:
        text = clean_message_text(name, max_chars=MAX_NAME_CHARS).strip()
    except InvalidText as exc:
        raise AgentError("invalid", f"name {exc}", field="name") from exc
    return " ".join(text_intake(text).text.split())[:MAX_NAME_CHARS]


def _scopes(scopes: object) -> list[str]:
    given = scopes if isinstance(scopes, list | tuple) else None
    if given is None or not all(isinstance(s, str) for s in given) or set(given) not in SCOPE_SETS:
        raise AgentError("invalid", 'scopes must be ["read"] or ["read", "write"]', field="scopes")
    return [s.value for s in AgentScope if s.value in given]


def agent_create(*, user: AbstractBaseUser, name: str, scopes: list[str]) -> tuple[Agent, str]:
    """A new agent of `user` and its raw token, which is returned this once and never stored
    (only its sha256). Raises AgentError("invalid") for a bad name or scopes."""
    clean_name = _name(name)
    clean_scopes = _scopes(scopes)
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    agent = Agent.objects.create(
        user_id=user.pk,
        name=clean_name,
        scopes=clean_scopes,
        token_hash=token_digest(token),
        token_prefix=token[:SHOWN_PREFIX_CHARS],
    )
    return agent, token


def agent_revoke(*, agent: Agent) -> Agent:
    """Revoke at once: the token authenticates nothing from now on. Idempotent."""
    if agent.revoked_at is None:
        agent.revoked_at = timezone.now()
        agent.save(update_fields=["revoked_at"])
    return agent


def agents_erase_for_user(*, user: AbstractBaseUser) -> int:
    """Erase-all: every agent the user connected is gone, its token with it (a token left
    behind could write into the emptied account). Returns how many there were."""
    # The memories and versions an agent wrote keep existing without it (SET_NULL, done here
    # per user rather than by Django's cascade, which looks them up by agent id alone).
    Memory.objects.filter(user_id=user.pk, created_by_agent__isnull=False).update(
        created_by_agent=None
    )
    MemoryVersion.objects.filter(user_id=user.pk, created_by_agent__isnull=False).update(
        created_by_agent=None
    )
    return rows_delete(Agent.objects.filter(user_id=user.pk))


def agent_pause(*, agent: Agent, paused: bool) -> Agent:
    """Pause (every call refused, nothing read) or resume the agent."""
    if paused and agent.paused_at is None:
        agent.paused_at = timezone.now()
    elif not paused:
        agent.paused_at = None
    agent.save(update_fields=["paused_at"])
    return agent


def agent_update(
    *, agent: Agent, trusted: bool | None = None, may_read_sensitive: bool | None = None
) -> Agent:
    """Trust the agent's writes (active without approval) or let it read `high` sensitivity
    memories; None leaves a setting as it is."""
    changed = []
    if trusted is not None:
        agent.trusted = bool(trusted)
        changed.append("trusted")
    if may_read_sensitive is not None:
        agent.may_read_sensitive = bool(may_read_sensitive)
        changed.append("may_read_sensitive")
    if changed:
        agent.save(update_fields=changed)
    return agent


def agent_require(*, agent: Agent, write: bool = False) -> None:
    """Raise AgentError("forbidden") unless the agent may make this call now."""
    if agent.revoked_at is not None:
        raise AgentError("forbidden", "This agent's token was revoked by its user.")
    if agent.paused_at is not None:
        raise AgentError("forbidden", "This agent is paused by its user; it can read nothing.")
    if write and not agent.can_write:
        raise AgentError("forbidden", "This agent may only read: its token has no write scope.")


def _refusal_message(exc: MemoryRefused) -> str:
    if exc.result.kind is CandidateKind.SECRET:
        return "Not stored: the content holds a password, token or key; secrets are never stored."
    return f"Not stored: {exc.result.reason}."


def agent_memory_add(*, agent: Agent, content: str, type: str | None = None) -> Memory:
    """Store `content` as a memory written by `agent`, under the write policy: pending until
    the user approves it unless the agent is trusted, quarantined when it reads as
    instructions. The same content already readable by the agent is returned, not stored
    twice. Raises AgentError: "forbidden" (read-only, paused, revoked), "invalid" (bad
    content or type), "refused" (a secret, a guess, raw tool output: nothing stored)."""
    agent_require(agent=agent, write=True)
    try:
        text = clean_message_text(content).strip()
    except InvalidText as exc:
        raise AgentError("invalid", f"content {exc}", field="content") from exc
    if type is not None and type not in MemoryType.values:
        raise AgentError(
            "invalid", f"type must be one of {', '.join(MemoryType.values)}", field="type"
        )
    kind = type or rules.guess_type(text)
    policy = revision.policy_decide(content=text, type=kind, origin=Origin.ASSISTANT)
    if not policy.stores:
        raise AgentError("refused", _refusal_message(MemoryRefused(policy)))
    same = (
        agent_visible_memories(agent=agent)
        .filter(status__in=LIVE_STATUSES, current_version__fingerprint=rules.fingerprint(text))
        .first()
    )
    if same is not None:
        return same
    indexed = revision.memory_index(content=text)
    fields = VersionFields(type=kind, content=text, slot=rules.slot_of(text), confidence=0.9)
    try:
        return revision.lineage_create(
            user_id=agent.user_id,
            fields=fields,
            origin=Origin.ASSISTANT,
            policy=policy,
            indexed=indexed,
            change_reason=ChangeReason.WRITTEN_BY_AGENT,
            agent_id=agent.pk,
            trusted=agent.trusted,
        )
    except MemoryRefused as exc:
        raise AgentError("refused", _refusal_message(exc)) from exc


def agent_memory_deletable(*, agent: Agent, memory_id: int) -> Memory:
    """The memory `memory_id` if the agent may delete it (the deletion itself, with every
    copy, is `conversations.services.forgetting.agent_memory_forget`). Raises AgentError
    "forbidden" (read-only, paused, revoked) or "not_found" (unknown, another user's, or not
    readable by it)."""
    agent_require(agent=agent, write=True)
    memory = agent_visible_memory(agent=agent, memory_id=memory_id)
    if memory is None:
        raise AgentError("not_found", f"No memory {memory_id} this agent can see.")
    return memory


@transaction.atomic
def agent_call_record(
    *, agent: Agent, tool: str, memory_ids: list[int], outcome: str = AgentCallOutcome.DONE
) -> None:
    """One access-log entry for an agent call (agent, tool, time, how it ended, the ids it
    returned or changed; never text), shown in the user's access log; marks the agent as
    used. `outcome` is an `AgentCallOutcome` code: a refused call is logged as refused,
    never as the act it asked for."""
    if outcome not in AgentCallOutcome.values:
        raise ValueError(f"not an agent call outcome: {outcome!r}")
    now = timezone.now()
    ids = [int(i) for i in memory_ids[:MAX_LOGGED_IDS]]
    audit_event_record(
        user_id=agent.user_id,
        action=AuditEvent.Action.AGENT_CALL,
        target_type="agent",
        target_id=str(agent.pk),
        detail={
            "agent_id": agent.pk,
            "tool": str(tool)[:MAX_TOOL_CHARS],
            "outcome": str(outcome),
            "ids": ids,
        },
    )
    Agent.objects.filter(user_id=agent.user_id, pk=agent.pk).update(last_used_at=now)
    agent.last_used_at = now


_PERIOD_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def agent_rate_limit(*, agent: Agent) -> float | None:
    """Count one call against the agent's budget (`MEMORYHUB_AGENT_RATE`, a fixed window in
    the shared cache); None when it may go on, else the seconds until the window ends."""
    rate = settings.MEMORYHUB_AGENT_RATE
    if not rate:
        return None
    count, _, period = str(rate).partition("/")
    window = _PERIOD_SECONDS[period[0]]
    now = time.time()
    start = math.floor(now / window) * window
    key = f"agent-rate:{agent.pk}:{start}"
    cache.add(key, 0, timeout=window + 1)
    try:
        used = cache.incr(key)
    except ValueError:  # the key expired between add and incr: a new window began
        cache.add(key, 1, timeout=window + 1)
        used = 1
    if used <= int(count):
        return None
    return max(start + window - now, 0.001)
