"""Forgetting a deleted memory exactly: the spans that carry it go, nothing else changes.

A deleted memory must not come back through another door: the statement it was taken from, a
later restatement, a reply that quoted or paraphrased it, a session title, summary, tags or
topic keywords derived from those turns, the context saved with later replies, the search
index or the short-term cache. And forgetting must not take anything else with it: a line that
does not carry the memory's content stays byte for byte as it was.

Which spans carry the content is decided by `conversations.logic.spans` (the rule is there):
the memory's own wording (every version) and the sentence it was taken from (its source
message) are the facts looked for. The carrying spans are replaced by `MARKER`; then the
touched sessions' summaries, tags and topic keywords are derived again from what is left, the
changed rows are re-indexed (keywords now, vectors by the embedding task) and cached copies
are dropped. `memory_copies_find` is the dry run the confirmation page shows.

Deleting a memory is this forgetting and then the memories app's deletion, in one
transaction; the entry points are here, since memories never imports conversations:
`memory_forget` (the owner: the memory page, the API, a connected agent, undo in the chat),
`agent_memory_forget` (a connected agent's checks, then `memory_forget`), `memory_staff_purge`
(staff in admin) and `memories_purge_retained` (the retention purge). Each passes the copies
it changed to the memories service, which names them on the receipt (kind, session, date).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from conversations.logic import spans as span_logic
from conversations.logic.spans import Span
from conversations.models import ChatSession, Message
from conversations.services import indexing, sessions, shortterm
from conversations.services.message_context import (
    message_context_rewrite,
    message_contexts_drop_memories,
)
from conversations.services.tag_weights import tag_weights_forget_unused
from memories.labels import CopyKind
from memories.models import Agent, DeletionReceipt, Memory, MemoryVersion
from memories.services import agents, deletion, moderation
from memories.services.receipts import NO_COPIES, ContentCopy, CopiesRemoved
from memoryhub import text as text_analysis

MARKER = text_analysis.REMOVED_MARKER
QUOTE_FORGOTTEN = MARKER
PREVIEW_CHARS = 120


@lru_cache(maxsize=8192)
def _tokens(text: str) -> frozenset[str]:
    return frozenset(span_logic.match_form(t) for t in text_analysis.index_tokens(text))


def _names(text: str) -> set[str]:
    return {span_logic.match_form(t) for t in text_analysis.name_tokens(text)}


@dataclass(frozen=True)
class _Facts:
    """What to look for: each fact's content words, and the words only the fact held."""

    words: list[frozenset[str]]
    sources: set[int]
    names: frozenset[str] = frozenset()
    distinctive: frozenset[str] = frozenset()

    def spans(self, text: str, *, user_text: bool, source: bool = False) -> list[Span]:
        distinctive = frozenset() if user_text else self.distinctive
        return span_logic.carrying_spans(
            text, self.words, _tokens, source=source, names=self.names, distinctive=distinctive
        )

    def all_words(self) -> set[str]:
        return set().union(*self.words) if self.words else set()


@dataclass
class _Change:
    kind: str
    session: ChatSession
    at: datetime
    text: str
    spans: list[Span]
    message: Message | None = None

    def copy(self, *, preview: bool) -> ContentCopy:
        shown = ""
        if preview:
            shown = " … ".join(self.text[s.start : s.end] for s in self.spans)
            shown = shown if len(shown) <= PREVIEW_CHARS else shown[: PREVIEW_CHARS - 1] + "…"
        return ContentCopy(
            kind=self.kind,
            session_id=str(self.session.pk),
            date=self.at.date().isoformat(),
            preview=shown,
            session_title=(self.session.title or "") if preview else "",
        )


@dataclass
class _Plan:
    facts: _Facts
    changes: list[_Change] = field(default_factory=list)
    contexts: list[tuple[Message, dict[str, Any], set[str]]] = field(default_factory=list)


def _facts(user_id: int, memory_ids: Iterable[str]) -> _Facts:
    versions = list(
        MemoryVersion.objects.filter(user_id=user_id, memory_id__in=list(memory_ids)).values_list(
            "content", "source_message_id"
        )
    )
    words = {_tokens(content) for content, _source in versions}
    sources = {source for _content, source in versions if source}
    names = {n for content, _source in versions for n in _names(content)}
    return _Facts(words=[w for w in words if w], sources=sources, names=frozenset(names))


def _candidates(user_id: int, facts: _Facts) -> list[Message]:
    """The user's messages that could carry a fact: its sources, and any holding one of its
    words (the index holds the same tokens; content is searched as well for rows indexed
    before their text changed, and for replies that are not indexed)."""
    holds = Q(pk__in=facts.sources)
    words = sorted(facts.all_words())
    if words:
        holds |= Q(keywords__overlap=words)
    for word in words:
        if not word.endswith("다"):  # Korean lemmas ("마시다") are not in the surface text
            holds |= Q(content__icontains=word)
    return list(
        Message.objects.filter(user_id=user_id)
        .filter(holds)
        .select_related("session")
        .order_by("created_at", "id")
    )


def _distinctive(facts: _Facts, statements: Sequence[tuple[Message, list[Span]]]) -> frozenset[str]:
    """Fact words the user said only inside the spans that carry the fact."""
    elsewhere: set[str] = set()
    for message, found in statements:
        elsewhere |= _tokens(span_logic.redact(message.content, found, " "))
    return frozenset(facts.all_words() - elsewhere)


def _session_copies(user_id: int, facts: _Facts) -> list[_Change]:
    changes = []
    words = [w for w in facts.all_words() if not w.endswith("다")]
    holds = Q()
    for word in words:
        holds |= Q(title__icontains=word) | Q(summary__icontains=word)
    if not holds:
        return []
    for session in ChatSession.objects.filter(user_id=user_id).filter(holds):
        at = session.ended_at or session.started_at
        for kind, text in (
            (CopyKind.TITLE.value, session.title),
            (CopyKind.SUMMARY.value, session.summary),
        ):
            found = facts.spans(text, user_text=False)
            if found:
                changes.append(_Change(kind=kind, session=session, at=at, text=text, spans=found))
    return changes


def _redacted_context(
    context: dict[str, Any], facts: _Facts
) -> tuple[dict[str, Any], set[str]] | None:
    """The saved context with carrying spans of recalled turns and summaries redacted (None:
    nothing carried), and the sessions whose recalled summary carried."""
    changed = False
    sessions_hit: set[str] = set()
    recalls = []
    for recall in context.get("session_recall", []):
        text = recall.get("summary", "")
        found = facts.spans(text, user_text=False)
        if found:
            changed = True
            sessions_hit.add(str(recall.get("session_id")))
            recall = {**recall, "summary": span_logic.redact(text, found, MARKER)}
        recalls.append(recall)
    topics_kept = []
    for topic in context.get("topic_recall", []):
        messages = []
        topic_changed = False
        for message in topic.get("messages", []):
            text = message.get("content", "")
            found = facts.spans(text, user_text=message.get("role") == Message.Role.USER)
            if found:
                topic_changed = True
                message = {**message, "content": span_logic.redact(text, found, MARKER)}
            messages.append(message)
        if topic_changed:
            changed = True
            words = facts.all_words()
            keywords = [
                k
                for k in topic.get("keywords", [])
                if span_logic.match_form(text_analysis.normalise(k)) not in words
            ]
            topic = {**topic, "messages": messages, "keywords": keywords}
        topics_kept.append(topic)
    if not changed:
        return None
    return {**context, "session_recall": recalls, "topic_recall": topics_kept}, sessions_hit


def _saved_contexts(user_id: int, facts: _Facts) -> list[tuple[Message, dict[str, Any], set[str]]]:
    words = [w for w in facts.all_words() if not w.endswith("다")]
    if not words:
        return []
    holds = Q()
    for word in words:
        holds |= Q(context__icontains=word)
    found = []
    replies = Message.objects.filter(user_id=user_id, role=Message.Role.ASSISTANT).filter(holds)
    for reply in replies.select_related("session"):
        redacted = _redacted_context(reply.context, facts)
        if redacted is not None:
            found.append((reply, *redacted))
    return found


def _plan(user_id: int, memory_ids: Iterable[str]) -> _Plan:
    facts = _facts(user_id, memory_ids)
    if not facts.words:
        return _Plan(facts=facts)
    candidates = _candidates(user_id, facts)
    # The source statements first: their carrying sentences, in the user's own words, are
    # looked for too (a reply may quote the statement rather than the memory).
    source_words = []
    names = set(facts.names)
    for message in candidates:
        if message.pk in facts.sources:
            for span in facts.spans(message.content, user_text=True, source=True):
                stated = message.content[span.start : span.end]
                source_words.append(_tokens(stated))
                names |= _names(stated)
    facts = _Facts(
        words=[*facts.words, *[w for w in source_words if w]],
        sources=facts.sources,
        names=frozenset(names),
    )
    users = []
    for message in candidates:
        if message.role == Message.Role.USER:
            found = facts.spans(message.content, user_text=True, source=message.pk in facts.sources)
            users.append((message, found))
    distinctive = _distinctive(facts, users)
    facts = _Facts(
        words=facts.words, sources=facts.sources, names=facts.names, distinctive=distinctive
    )
    plan = _Plan(facts=facts)
    user_spans = {message.pk: found for message, found in users}
    for message in candidates:
        if message.role == Message.Role.USER:
            found = user_spans[message.pk]
        else:
            source = message.pk in facts.sources
            found = facts.spans(message.content, user_text=False, source=source)
        if found:
            kind = (
                CopyKind.STATEMENT if message.role == Message.Role.USER else CopyKind.REPLY
            ).value
            change = _Change(
                kind=kind,
                session=message.session,
                at=message.created_at,
                text=message.content,
                spans=found,
                message=message,
            )
            plan.changes.append(change)
    plan.changes += _session_copies(user_id, facts)
    plan.contexts = _saved_contexts(user_id, facts)
    return plan


def memory_copies_find(*, user_id: int, memory_ids: Iterable[str]) -> list[ContentCopy]:
    """What deleting the memories would change in conversations, with a preview of each span;
    by date, session and kind."""
    plan = _plan(user_id, memory_ids)
    copies = [change.copy(preview=True) for change in plan.changes]
    for reply, _context, _sessions in plan.contexts:
        copy = ContentCopy(
            kind=CopyKind.RECALLED.value,
            session_id=str(reply.session_id),
            date=reply.created_at.date().isoformat(),
            session_title=reply.session.title or "",
        )
        copies.append(copy)
    return sorted(copies, key=lambda c: (c.date, c.session_id, c.kind))


def _redact_message(message: Message, found: Sequence[Span]) -> None:
    message.content = span_logic.redact(message.content, found, MARKER)
    if message.keywords:
        message.keywords = indexing.message_keywords(message.content, message.created_at)
    # Both vectors were computed from the old text; the embedding task redoes them.
    message.embedding = None
    message.context_embedding = None
    message.save(update_fields=["content", "keywords", "embedding", "context_embedding"])


def _rederive(session: ChatSession, facts: _Facts) -> tuple[list[str], frozenset[str]]:
    """What was derived from a redacted session, derived again (`sessions.session_rederive`;
    its title keeps its words, less the carrying spans); the kinds of copy that changed and
    the tags it no longer has."""

    def redact(text: str) -> str:
        return span_logic.redact(text, facts.spans(text, user_text=False), MARKER)

    rederived = sessions.session_rederive(session=session, redact=redact)
    kinds = []
    if rederived.summary_changed:
        kinds.append(CopyKind.SUMMARY.value)
    if rederived.tags_changed:
        kinds.append(CopyKind.TAGS.value)
    if rederived.topics_changed:
        kinds.append(CopyKind.TOPIC_KEYWORDS.value)
    return kinds, rederived.tags_dropped


def _after_commit(user_id: int, session_ids: list[int]) -> None:
    from conversations.tasks import messages_backfill  # tasks import the services

    def run() -> None:
        shortterm.user_forget(user_id=user_id, session_ids=session_ids)
        messages_backfill.delay(user_id=user_id)

    transaction.on_commit(run)


def memory_copies_forget(*, user_id: int, memory_ids: Iterable[str]) -> list[ContentCopy]:
    """Redact every span that carries the memories' content, re-derive what was derived from
    it, and return the copies changed (kind, session, date; no text). Runs inside the
    memory deletion's transaction, before the memory rows go."""
    plan = _plan(user_id, memory_ids)
    copies: list[ContentCopy] = []
    touched: dict[int, ChatSession] = {}
    for change in plan.changes:
        touched[change.session.pk] = change.session
        if change.message is not None:
            _redact_message(change.message, change.spans)
        if change.kind in (CopyKind.STATEMENT, CopyKind.REPLY, CopyKind.TITLE):
            copies.append(change.copy(preview=False))
    dropped: set[str] = set()
    for pk, session in touched.items():
        kinds, tags_dropped = _rederive(session, plan.facts)
        at = session.ended_at or session.started_at
        for kind in kinds:
            copies.append(ContentCopy(kind=kind, session_id=str(pk), date=at.date().isoformat()))
        dropped |= tags_dropped
    tag_weights_forget_unused(user_id=user_id, tags=dropped)
    for reply, context, sessions_hit in plan.contexts:
        for recall in context.get("session_recall", []):
            recalled = touched.get(int(recall.get("session_id") or 0))
            if recalled is not None and str(recalled.pk) in sessions_hit:
                recall.update(summary=recalled.summary, tags=list(recalled.tags))
        message_context_rewrite(message=reply, context=context)
        date = reply.created_at.date().isoformat()
        copies.append(
            ContentCopy(kind=CopyKind.RECALLED.value, session_id=str(reply.session_id), date=date)
        )
    if copies:
        _after_commit(user_id, sorted(touched))
    return copies


def _copies_forget(*, user_id: int, memory_id: int) -> CopiesRemoved:
    """Remove every copy of the memory in the user's conversations (its entries in saved
    contexts, counted; the carrying spans, named). Inside the deleting transaction."""
    ids = [str(memory_id)]
    counted = message_contexts_drop_memories(user_id=user_id, memory_ids=ids)
    named = memory_copies_forget(user_id=user_id, memory_ids=ids)
    return CopiesRemoved(named=tuple(named), counted=counted)


def _owned_lock(*, user_id: int, memory_id: int) -> bool:
    """Lock the memory if `user_id` owns it (two deletes of it run one after the other)."""
    return Memory.objects.select_for_update().filter(pk=memory_id, user_id=user_id).exists()


@transaction.atomic
def memory_forget(
    *, user: AbstractBaseUser, memory: Memory, agent_id: int | None = None
) -> DeletionReceipt:
    """Delete the user's `memory` for good, with every copy of it in conversations; return
    the receipt (counts and the copies changed, no content). `agent_id` names the connected
    agent that asked for it on the user's behalf (kept in the audit event).

    The one way an owner's delete runs: the memory page, the API, a connected agent, undo in
    the chat. A memory the user does not own (or no longer exists) changes nothing and gets
    a receipt that says so."""
    owned = _owned_lock(user_id=user.pk, memory_id=memory.pk)
    copies = _copies_forget(user_id=user.pk, memory_id=memory.pk) if owned else NO_COPIES
    return deletion.memory_delete(user=user, memory=memory, copies=copies, agent_id=agent_id)


def agent_memory_forget(*, agent: Agent, memory_id: int) -> DeletionReceipt:
    """Delete a memory the agent can see, exactly as its user's page does (every copy, a
    receipt, an audit event naming the agent). Raises AgentError "forbidden" (read-only,
    paused, revoked) or "not_found" (unknown, another user's, or not readable by it)."""
    memory = agents.agent_memory_deletable(agent=agent, memory_id=memory_id)
    return memory_forget(user=agent.user, memory=memory, agent_id=agent.pk)


@transaction.atomic
def memory_staff_purge(*, actor: AbstractBaseUser, memory: Memory) -> DeletionReceipt:
    """Staff delete `memory` for good from admin, with every copy of it in its owner's
    conversations; the owner gets the receipt and an audit event naming `actor`."""
    owned = _owned_lock(user_id=memory.user_id, memory_id=memory.pk)
    copies = _copies_forget(user_id=memory.user_id, memory_id=memory.pk) if owned else NO_COPIES
    return moderation.memory_purge(actor=actor, memory=memory, copies=copies)


def memories_purge_retained(*, now: datetime | None = None, batch: int = 500) -> int:
    """Delete rejected and expired memories untouched for the retention period, with every
    copy in conversations; each gets a receipt (kind `retention`). How many went."""
    now = now or timezone.now()
    purged = 0
    while due := deletion.memories_retention_due(now=now, limit=batch):
        for memory_id in due:
            with transaction.atomic():
                memory = deletion.memory_retention_lock(memory_id=memory_id, now=now)
                if memory is None:  # restored or deleted since it was listed
                    continue
                copies = _copies_forget(user_id=memory.user_id, memory_id=memory.pk)
                deletion.memory_purge_retained(memory=memory, copies=copies)
                purged += 1
    return purged
