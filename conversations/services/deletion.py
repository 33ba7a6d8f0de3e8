"""Deleting a chat session or a single exchange for good, with a receipt.

The text is removed everywhere it was copied: the message rows (content, keywords, vectors),
what was derived from them (title, summary, tags and their weights, topic keywords and vectors,
the compacted session state, the neighbours' search vectors), other replies that recalled or
quoted it (their saved context and their text), and the short-term cache. Memories extracted
from a deleted message keep existing: they are the user's own record and hold only the
message's id as their source, never its text. Celery task results hold no message text
(`result_extended` is off, and tasks return ids and counts), so there is nothing to clean there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q

from conversations.logic.prompt_context import ChatContext
from conversations.models import (
    ChatSession,
    HistoryImport,
    Message,
    TagWeight,
    TagWeightHistory,
    Topic,
)
from conversations.services import indexing, sessions, shortterm
from conversations.services.forgetting import QUOTE_FORGOTTEN
from conversations.services.message_context import message_context_rewrite
from conversations.services.tag_weights import tag_weights_forget_unused
from memories.models import DeletionReceipt
from memories.services.receipts import deletion_receipt_record
from memoryhub.models import rows_delete

# Shorter texts ("ok", "thanks") are not looked for in other replies: replacing them would
# mangle unrelated text, and they say nothing about the user.
_MIN_QUOTE_CHARS = 8


@dataclass
class _Removed:
    """What is being deleted, to find its copies elsewhere."""

    user_id: int
    session_ids: set[str] = field(default_factory=set)
    topic_ids: set[str] = field(default_factory=set)
    message_ids: set[str] = field(default_factory=set)
    texts: list[str] = field(default_factory=list)

    def needles(self) -> list[str]:
        found = {t.strip() for t in self.texts if len(t.strip()) >= _MIN_QUOTE_CHARS}
        return sorted(found, key=len, reverse=True)  # longest first: a quote inside a quote

    def markers(self) -> list[str]:
        """How the memory_search tool labels a hit in a reply ("- [message 12, 2026-...] ...")."""
        return [
            *(f"[message {i}" for i in self.message_ids),
            *(f"[topic {i}" for i in self.topic_ids),
            *(f"[session {i}" for i in self.session_ids),
        ]


def _marker_hit(line: str, markers: Sequence[str]) -> bool:
    head = line.removeprefix("- ")
    return any(head.startswith(m) and head[len(m) : len(m) + 1] in ("]", ",") for m in markers)


def _drop_items(content: str, markers: Sequence[str], lines_gone: set[str]) -> str:
    """Remove the list items ("- [...] text", possibly over several lines) that recalled or
    found deleted text: those labelled with a deleted id, or equal to a dropped recall line."""
    kept: list[str] = []
    dropping = False
    for line in content.split("\n"):
        if line.startswith("- ["):
            dropping = _marker_hit(line, markers) or any(
                line.removeprefix("- ") == gone.split("\n")[0] for gone in lines_gone
            )
        elif not line.strip():
            dropping = False
        if not dropping:
            kept.append(line)
    return "\n".join(kept)


def _split_context(
    context: dict[str, object], removed: _Removed
) -> tuple[dict[str, object] | None, ChatContext]:
    """The saved context without what came from deleted rows (None: nothing came from them),
    and what was taken out."""
    parsed = ChatContext.from_dict(context)
    texts = {t.strip() for t in removed.texts}
    gone = ChatContext()
    kept = ChatContext()
    for recall in parsed.session_recall:
        target = gone if recall.session_id in removed.session_ids else kept
        target.session_recall.append(recall)
    for topic in parsed.topic_recall:
        if topic.topic_id in removed.topic_ids:
            gone.topic_recall.append(topic)
            continue
        messages = [m for m in topic.messages if m.content.strip() not in texts]
        if len(messages) != len(topic.messages):
            gone.topic_recall.append(topic)
        if messages:
            topic.messages = messages
            kept.topic_recall.append(topic)
    if gone.is_empty():
        return None, gone
    as_dict = kept.as_dict()
    return {
        **context,
        "session_recall": as_dict["session_recall"],
        "topic_recall": as_dict["topic_recall"],
    }, gone


def _copies_query(removed: _Removed) -> Q:
    holds = Q()
    for session_id in removed.session_ids:
        holds |= Q(context__session_recall__contains=[{"session_id": session_id}])
    for topic_id in removed.topic_ids:
        holds |= Q(context__topic_recall__contains=[{"topic_id": topic_id}])
    for text in removed.needles():
        holds |= Q(content__contains=text)
        holds |= Q(context__topic_recall__contains=[{"messages": [{"content": text}]}])
    for marker in removed.markers():
        holds |= Q(content__contains=marker)
    return holds


def _scrub_other_replies(removed: _Removed) -> int:
    """Other replies that recalled, found or quoted the deleted text lose it; how many."""
    holds = _copies_query(removed)
    if not holds:
        return 0
    needles = removed.needles()
    markers = removed.markers()
    changed = 0
    replies = (
        Message.objects.filter(user_id=removed.user_id, role=Message.Role.ASSISTANT)
        .exclude(pk__in=[int(i) for i in removed.message_ids])
        .exclude(session_id__in=[int(i) for i in removed.session_ids])
        .filter(holds)
        .select_for_update()
    )
    for reply in replies:
        context, gone = _split_context(reply.context, removed)
        content = _drop_items(reply.content, markers, set(gone.remembered_lines()))
        for needle in needles:
            content = content.replace(needle, QUOTE_FORGOTTEN)
        if context is not None:
            message_context_rewrite(message=reply, context=context)
        fields = []
        if content != reply.content:
            reply.content = content
            reply.keywords = (
                indexing.message_keywords(content, reply.created_at) if reply.searchable else []
            )
            # Both vectors were computed from the old text; the embedding task redoes them.
            reply.embedding = None
            reply.context_embedding = None
            fields += ["content", "keywords", "embedding", "context_embedding"]
        if fields:
            reply.save(update_fields=fields)
        if context is not None or fields:
            changed += 1
    return changed


def _texts_of(messages: Iterable[Message]) -> list[str]:
    texts: list[str] = []
    for message in messages:
        texts.append(message.content)
        texts.append(
            message.content.strip().splitlines()[0][:80] if message.content.strip() else ""
        )
    return texts


def _after_commit(user_id: int, session_ids: list[int], reembed: bool) -> None:
    from conversations.tasks import messages_backfill

    def run() -> None:
        shortterm.user_forget(user_id=user_id, session_ids=session_ids)
        if reembed:
            messages_backfill.delay(user_id=user_id)

    transaction.on_commit(run)


@transaction.atomic
def chat_session_delete(*, user: AbstractBaseUser, session: ChatSession) -> DeletionReceipt:
    """Delete `session` with its messages and topics and every copy of their text."""
    session = ChatSession.objects.select_for_update().get(pk=session.pk, user_id=user.pk)
    messages = list(session.messages.all())
    topic_ids = [str(pk) for pk in session.topics.values_list("pk", flat=True)]
    removed = _Removed(
        user_id=user.pk,
        session_ids={str(session.pk)},
        topic_ids=set(topic_ids),
        message_ids={str(m.pk) for m in messages},
        texts=[*_texts_of(messages), session.summary, session.title],
    )
    tags = set(session.tags)
    counts = {
        "sessions": 1,
        "messages": len(messages),
        "topics": len(topic_ids),
        "embeddings": sum(m.embedding is not None for m in messages),
        "keyword_indexes": sum(bool(m.keywords) for m in messages),
        "summaries": int(bool(session.summary)),
        "session_states": int(bool(session.state)),
    }
    counts["copies_in_other_replies"] = _scrub_other_replies(removed)
    session_id = session.pk
    # Children first, each by owner (Django's cascade would find them by session id alone).
    rows_delete(Message.objects.filter(user_id=user.pk, session_id=session_id))
    rows_delete(Topic.objects.filter(user_id=user.pk, session_id=session_id))
    rows_delete(ChatSession.objects.filter(user_id=user.pk, pk=session_id))
    counts["tags_forgotten"] = tag_weights_forget_unused(user_id=user.pk, tags=tags)
    _after_commit(user.pk, [session_id], reembed=counts["copies_in_other_replies"] > 0)
    return deletion_receipt_record(
        user_id=user.pk, kind=DeletionReceipt.Kind.SESSION, removed=counts
    )


@transaction.atomic
def message_delete(*, user: AbstractBaseUser, message: Message) -> DeletionReceipt:
    """Delete `message` and, for a user message, the reply to it; re-derive the session."""
    session = ChatSession.objects.select_for_update().get(pk=message.session_id, user_id=user.pk)
    rows = [message, *Message.objects.filter(user_id=user.pk, reply_to=message)]
    removed = _Removed(
        user_id=user.pk, message_ids={str(m.pk) for m in rows}, texts=_texts_of(rows)
    )
    counts = {
        "messages": len(rows),
        "embeddings": sum(m.embedding is not None for m in rows),
        "keyword_indexes": sum(bool(m.keywords) for m in rows),
    }
    counts["copies_in_other_replies"] = _scrub_other_replies(removed)
    rows_delete(Message.objects.filter(user_id=user.pk, pk__in=[m.pk for m in rows]))
    rederived = sessions.session_rederive(session=session, retitle=True)
    counts["topics"] = rederived.topics_removed
    counts["tags_forgotten"] = tag_weights_forget_unused(
        user_id=user.pk, tags=rederived.tags_dropped
    )
    _after_commit(user.pk, [session.pk], reembed=True)
    return deletion_receipt_record(
        user_id=user.pk, kind=DeletionReceipt.Kind.MESSAGE, removed=counts
    )


@transaction.atomic
def conversations_erase_for_user(*, user: AbstractBaseUser) -> dict[str, int]:
    """Delete all the user's sessions, messages, topics, tags and imports; the counts.

    Only for erasing all of the user's data (`account.services.user_data_erase`), which
    leaves the receipt. The short-term cache is dropped once the deletion commits."""
    session_ids = list(ChatSession.objects.filter(user_id=user.pk).values_list("pk", flat=True))
    # Children first, each by owner: Django's cascade would find them by id alone
    # (docs/deploy.md, section 10).
    messages = rows_delete(Message.objects.filter(user_id=user.pk))
    removed = {
        "sessions": len(session_ids),
        "messages": messages,
        "topics": rows_delete(Topic.objects.filter(user_id=user.pk)),
    }
    rows_delete(ChatSession.objects.filter(user_id=user.pk))
    removed["tag_weights"], _ = TagWeight.objects.filter(user_id=user.pk).delete()
    removed["tag_history"], _ = TagWeightHistory.objects.filter(user_id=user.pk).delete()
    removed["imports"] = rows_delete(HistoryImport.objects.filter(user_id=user.pk))
    user_id = user.pk
    transaction.on_commit(lambda: shortterm.user_forget(user_id=user_id, session_ids=session_ids))
    return removed
