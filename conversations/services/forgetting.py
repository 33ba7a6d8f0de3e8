"""Forgetting what a deleted memory came from, so it cannot come back.

A deleted memory must not return through another door: the chat turn it was extracted from
(recalled as a topic, found by search), the replies that quoted it, a session title, summary,
tags or topic keywords derived from those turns, or the short-term cache. When the memories
app deletes memories it sends `memory_content_removed` before removing the rows; this module
then redacts the source exchanges, removes the quoted text from replies, re-derives what was
derived from them, and drops cached copies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.db import connection
from django.db.models import Q

from conversations.logic.summarize import tag_form
from conversations.models import ChatSession, Message, TagWeight, TagWeightHistory, Topic
from conversations.services import sessions, shortterm, topics
from memoryhub import text as text_analysis

FORGOTTEN = "[removed: this was part of a memory you deleted]"
QUOTE_FORGOTTEN = "[removed]"


def _redact_exchange(message: Message) -> list[tuple[Message, str]]:
    """Blank a message and the reply to it (or the message it replies to); return each
    with the text it had."""
    pair = [message]
    if message.role == Message.Role.USER:
        pair += list(Message.objects.filter(reply_to=message))
    elif message.reply_to_id:
        pair += list(Message.objects.filter(pk=message.reply_to_id))
    before = [(row, row.content) for row in pair]
    for row in pair:
        row.content = FORGOTTEN
        row.keywords = []
        row.embedding = None
        row.context_embedding = None
        row.searchable = False
        row.save(
            update_fields=["content", "keywords", "embedding", "context_embedding", "searchable"]
        )
    return before


def _strip_quotes(user_id: int, texts: Iterable[str], memory_ids: set[str]) -> int:
    """Remove the memory's text from replies that had it in their context."""
    changed = 0
    quoted = [t for t in {t.strip() for t in texts} if len(t) >= 2]
    if not quoted or not memory_ids:
        return 0
    holds = Q()
    for memory_id in memory_ids:
        holds |= Q(context__memories__contains=[{"id": memory_id}])
    for text in quoted:
        holds |= Q(content__contains=text)
    for reply in Message.objects.filter(user_id=user_id, role=Message.Role.ASSISTANT).filter(holds):
        content = reply.content
        for text in quoted:
            content = content.replace(text, QUOTE_FORGOTTEN)
        if content != reply.content:
            reply.content = content
            reply.save(update_fields=["content"])
            changed += 1
    return changed


def _scrub_saved_contexts(user_id: int, sessions_touched: set[int], texts: list[str]) -> int:
    """Past replies' saved context: drop recalled summaries of the touched sessions and
    recalled turns holding the forgotten text."""
    needles = [t for t in {t.strip() for t in texts} if len(t) >= 2]
    touched = {str(s) for s in sessions_touched}
    changed = 0
    replies = Message.objects.filter(user_id=user_id, role=Message.Role.ASSISTANT).exclude(
        context={}
    )
    for reply in replies:
        context = dict(reply.context)
        recall = [
            s for s in context.get("session_recall", []) if s.get("session_id") not in touched
        ]
        topics_kept = []
        for topic in context.get("topic_recall", []):
            kept = [
                m
                for m in topic.get("messages", [])
                if not any(n in m.get("content", "") for n in needles)
            ]
            if kept:
                topics_kept.append({**topic, "messages": kept})
        if recall != context.get("session_recall", []) or topics_kept != context.get(
            "topic_recall", []
        ):
            reply.context = {**context, "session_recall": recall, "topic_recall": topics_kept}
            reply.save(update_fields=["context"])
            changed += 1
    return changed


def _orphaned_words(user_id: int, texts: Iterable[str]) -> set[str]:
    """Index words of the forgotten texts that none of the user's remaining messages holds:
    a name or a code that only the deleted text had ("Zorblax-91"). Call it once the source
    exchanges are redacted."""
    words = {
        w
        for t in texts
        for w in text_analysis.index_tokens(t)
        if len(w) >= (3 if w.isascii() else 2)
    }
    if not words:
        return set()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT t FROM conversations_message m, unnest(m.keywords) t "
            "WHERE m.user_id = %s AND m.searchable AND m.keywords && %s::varchar[] "
            "AND t = ANY(%s::varchar[])",
            [user_id, sorted(words), sorted(words)],
        )
        kept = {row[0] for row in cursor.fetchall()}
    return words - kept


def _word_pattern(words: set[str]) -> re.Pattern[str]:
    # Korean words carry their particles ("카나리아야"), so they match inside a word.
    parts = [
        rf"(?<![\w-]){re.escape(w)}(?![\w-])" if w.isascii() else re.escape(w)
        for w in sorted(words, key=len, reverse=True)
    ]
    return re.compile("|".join(parts), re.IGNORECASE)


def _strip_orphaned_words(user_id: int, words: set[str]) -> int:
    """Lines of past replies, and recalled topic keywords in their saved context, that hold a
    word only the deleted text had: the rest of such a line came from it too (a search hit
    listing a topic's keywords beside the quoted turn)."""
    if not words:
        return 0
    pattern = _word_pattern(words)
    holds = Q()
    for word in words:
        holds |= Q(content__icontains=word) | Q(context__icontains=word)
    changed = 0
    for reply in Message.objects.filter(user_id=user_id, role=Message.Role.ASSISTANT).filter(holds):
        fields = []
        lines = reply.content.split("\n")
        kept = [QUOTE_FORGOTTEN if pattern.search(line) else line for line in lines]
        if kept != lines:
            reply.content = "\n".join(kept)
            fields.append("content")
        recalled = reply.context.get("topic_recall") or []
        cleaned = [
            {**t, "keywords": [k for k in t.get("keywords", []) if not pattern.search(k)]}
            for t in recalled
        ]
        if cleaned != recalled:
            reply.context = {**reply.context, "topic_recall": cleaned}
            fields.append("context")
        if fields:
            reply.save(update_fields=fields)
            changed += 1
    return changed


def _rederive_session(session: ChatSession) -> set[str]:
    """Title, summary, tags and topic keywords again from what is left; the dropped tags."""
    remaining = list(session.messages.filter(searchable=True).order_by("created_at", "id"))
    session.title = remaining[0].content.strip().splitlines()[0][:80] if remaining else ""
    dropped: set[str] = set()
    fields = ["title", "state"]
    session.state = {}  # compaction may hold the text; it is rebuilt from the turns
    if session.status == ChatSession.Status.ENDED:
        before = set(session.tags)
        if remaining:
            result = sessions.extract_tags_and_summary(session, remaining)
            session.tags, session.summary = result.tags, result.summary
        else:
            session.tags, session.summary = [], ""
        session.embedding = None
        dropped = before - set(session.tags)
        fields += ["tags", "summary", "embedding"]
    session.save(update_fields=fields)
    for topic in Topic.objects.filter(session=session):
        topics.topic_refresh_keywords(topic=topic)
    return dropped


def _forget_tags(user_id: int, tags: set[str]) -> None:
    """A tag no session has any more is forgotten with its history."""
    for tag in tags:
        if not ChatSession.objects.filter(user_id=user_id, tags__contains=[tag]).exists():
            TagWeight.objects.filter(user_id=user_id, tag=tag_form(tag)).delete()
            TagWeightHistory.objects.filter(user_id=user_id, tag=tag_form(tag)).delete()


def forget_memory_sources(
    *, user_id: int, memory_ids: set[str], texts: Iterable[str], source_message_ids: set[int]
) -> int:
    """Redact every copy the deleted memories left in conversations; return how many."""
    texts = list(texts)
    copies = 0
    touched: set[int] = set()
    removed_texts = list(texts)
    for message in Message.objects.filter(user_id=user_id, pk__in=source_message_ids):
        if message.content == FORGOTTEN:
            continue
        for row, text in _redact_exchange(message):
            touched.add(row.session_id)
            removed_texts.append(text)
            copies += 1
    copies += _strip_quotes(user_id, texts, memory_ids)
    copies += _scrub_saved_contexts(user_id, touched, removed_texts)
    copies += _strip_orphaned_words(user_id, _orphaned_words(user_id, removed_texts))
    dropped: set[str] = set()
    for session in ChatSession.objects.filter(user_id=user_id, pk__in=touched):
        dropped |= _rederive_session(session)
    _forget_tags(user_id, dropped)
    shortterm.user_forget(user_id=user_id, session_ids=sorted(touched))
    return copies
