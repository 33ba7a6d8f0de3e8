"""Context assembly: session recall, topic recall and long-term memories for one message,
in one block under the token budget (DESIGN.md per-message flow, steps 2-4).

Used by the chat reply and by `POST /api/v1/context/` (which previews without writing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from conversations.context import ChatContext, MemoryItem
from conversations.logic.segmentation import SegTurn
from conversations.models import ChatSession
from conversations.services import sessions, topics
from memories.services import injection
from memoryhub import embeddings
from memoryhub import text as text_analysis

# Shares of the budget: past sessions first, then earlier topics, memories get what is left
# (at least their own budget, MEMORYHUB_MEMORY_TOKEN_BUDGET, when the others leave room).
SESSION_SHARE = 0.35
TOPIC_SHARE = 0.6


@dataclass
class Assembled:
    context: ChatContext
    # The memories.RetrievedMemory objects behind context.memories, for the usage log.
    memories: list[object] = field(default_factory=list)


def context_assemble(
    *,
    user: AbstractBaseUser,
    content: str,
    vector: np.ndarray | None,
    at: datetime,
    first_message: bool,
    new_topic: bool,
    session_id: int | None,
    topic_id: int | None,
    reader: str,
    preview: bool = False,
) -> Assembled:
    """Everything recalled for `content`. `preview` changes nothing (no +0.5 tag boosts).

    Memories are those `reader` may see (`Memory.allowed_readers`): the chat assistant for a
    reply, the agent asking for `POST /api/v1/context/`.
    """
    from memories.selectors import memory_retrieve

    budget = settings.MEMORYHUB_CONTEXT_TOKEN_BUDGET
    context = ChatContext()
    if first_message:
        context.session_recall = sessions.session_recall(
            user_id=user.pk, content=content, vector=vector, at=at,
            exclude_session_id=session_id, token_budget=int(budget * SESSION_SHARE),
            boost=not preview,
        )  # fmt: skip
    used = sum(text_analysis.estimate_tokens(s.summary) for s in context.session_recall)
    if new_topic:
        terms = topics.message_topic_terms(content=content, user_id=user.pk)
        context.topic_recall = topics.topic_recall(
            user_id=user.pk, terms=terms, exclude_topic_id=topic_id,
            token_budget=int((budget - used) * TOPIC_SHARE),
        )  # fmt: skip
    used += sum(
        text_analysis.estimate_tokens(m.content) for t in context.topic_recall for m in t.messages
    )
    retrieved = memory_retrieve(
        user=user, query=content, query_embedding=embeddings.embed_query(content),
        token_budget=max(0, budget - used), reader=reader,
    )  # fmt: skip
    context.memories = [
        MemoryItem(id=m.memory_id, version=m.version, type=m.type, content=m.content,
                   score=round(m.score, 4))
        for m in retrieved
    ]  # fmt: skip
    used += sum(m.tokens for m in retrieved)
    context.tokens = used
    _withhold_instructions(context)
    return Assembled(context=context, memories=list(retrieved))


def _withhold_instructions(context: ChatContext) -> None:
    """Past messages and summaries that carry instructions to the assistant are replaced by a
    placeholder, and the tags and keywords taken from them are left out: the memory cut from
    such a message is quarantined, and nothing copied from the same text (a link as a
    "keyword") may bring it back into a later prompt. Memories need no check: only active
    ones are retrieved, and the write policy never makes an attack active."""
    withheld: list[str] = []

    def check(text: str) -> str:
        kept = injection.withhold(text)
        if kept != text:
            withheld.append(text.lower())
        return kept

    for recall in context.session_recall:
        recall.summary = check(recall.summary)
    for topic in context.topic_recall:
        for message in topic.messages:
            message.content = check(message.content)
    if not withheld:
        return

    def clean(words: list[str]) -> list[str]:
        return [w for w in words if not any(w.lower() in text for text in withheld)]

    for recall in context.session_recall:
        recall.tags = clean(recall.tags)
    for topic in context.topic_recall:
        topic.keywords = clean(topic.keywords)


def context_preview(
    *, user: AbstractBaseUser, content: str, session: ChatSession | None, reader: str
) -> ChatContext:
    """The context a message would get now, as `POST /api/v1/context/` returns it to `reader`.

    In a session with messages it is a topic shift or not by the same detector as live chat;
    without a session it is treated as the first message of a new one.
    """
    from django.utils import timezone

    vector = embeddings.embed_passages([content])[0]
    first = session is None or not session.messages.exists()
    new_topic = True
    topic_id = None
    if session is not None and not first:
        open_topic = session.topics.filter(ended_at__isnull=True).order_by("-started_at").first()
        if open_topic is not None:
            window = topics.topic_window(topic=open_topic)
            topics.ensure_vectors(window)
            new = SegTurn("user", content, frozenset(text_analysis.index_tokens(content)), vector)
            new_topic = topics.detect_shift(content=content, new=new, window=window,
                                            user_id=user.pk)  # fmt: skip
            topic_id = open_topic.pk
    return context_assemble(
        user=user, content=content, vector=vector, at=timezone.now(), first_message=first,
        new_topic=new_topic, session_id=session.pk if session else None, topic_id=topic_id,
        reader=reader, preview=True,
    ).context  # fmt: skip
