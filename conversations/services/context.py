"""Context assembly: session recall, topic recall and long-term memories for one message,
in one block under the token budget (docs/DESIGN.md per-message flow, steps 2-4).

Used by the chat reply and by `POST /api/v1/context/` (which previews without writing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from conversations import search
from conversations.logic import fusion, intent, said
from conversations.logic.intent import Intent
from conversations.logic.prompt_context import ChatContext, MemoryItem
from conversations.logic.segmentation import SegTurn
from conversations.models import ChatSession, Message
from conversations.services import sessions, topics
from memories.logic import dates, injection_stamp
from memories.selectors import lineage_source_message_ids, memory_retrieve
from memories.selectors.retrieval import query_baseline
from memoryhub import embeddings, offline_reply
from memoryhub import text as text_analysis

if TYPE_CHECKING:
    from memories.selectors import RetrievedMemory

# Shares of the budget: past sessions first, then earlier topics, memories get what is left
# (at least their own budget, MEMORYHUB_MEMORY_TOKEN_BUDGET, when the others leave room).
SESSION_SHARE = 0.35
TOPIC_SHARE = 0.6
# A recalled text that shares no word with a question is still on its topic when it is this
# close by meaning: the cosine of the question (a query) with the text (a passage) reaches the
# language's floor and clears the question's own baseline (`query_baseline`) by the margin.
# Measured on the probe set of tests/conversations/test_answer_floor.py (e5; cosine / margin):
# Korean related 0.815-0.879 / 0.051-0.111, unrelated 0.770-0.837 / 0.013-0.061; English
# related 0.767-0.874 / 0.034-0.133, unrelated 0.732-0.804 / -0.029-0.044. The bands overlap,
# so the floor sits above the unrelated band (an unrelated memory told as the answer is worse
# than a related one left to its shared words): 14 of 18 related pairs clear it in each
# language. USE was not measured: it never counts as close.
ANSWER_SIMILARITY = {
    ("e5", "ko"): 0.82,
    ("e5", "en"): 0.78,
    ("use", "ko"): 2.0,
    ("use", "en"): 2.0,
}
ANSWER_MARGIN = {("e5", "ko"): 0.063, ("e5", "en"): 0.046, ("use", "ko"): 0.0, ("use", "en"): 0.0}


@dataclass
class Assembled:
    context: ChatContext
    # The memories.RetrievedMemory objects behind context.memories, for the usage log.
    memories: list[object] = field(default_factory=list)
    intent: Intent = field(default_factory=Intent)
    # Of context.memories, those that answer the question's kind (ids).
    answering: set[str] = field(default_factory=set)
    # The times a question about plans names, None when it names none.
    periods: list[dates.Period] | None = None
    # `content` embedded as a query, for the reply's own search (embedding twice costs
    # seconds for a long message).
    query_vector: np.ndarray | None = None
    # A message with nothing to recall ("ㅇㅋ", "thanks!", "👍"): its kind; nothing recalled.
    small_talk: said.SmallTalk = said.SmallTalk.NONE


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
    budget = settings.MEMORYHUB_CONTEXT_TOKEN_BUDGET
    context = ChatContext()
    small_talk = said.small_talk(content)
    if small_talk:
        return Assembled(context=context, small_talk=small_talk)
    if first_message:
        context.session_recall = sessions.session_recall(
            user_id=user.pk,
            content=content,
            vector=vector,
            at=at,
            exclude_session_id=session_id,
            token_budget=int(budget * SESSION_SHARE),
            boost=not preview,
        )
    used = sum(text_analysis.estimate_tokens(s.summary) for s in context.session_recall)
    if new_topic:
        terms = topics.message_topic_terms(content=content, user_id=user.pk)
        context.topic_recall = topics.topic_recall(
            user_id=user.pk,
            terms=terms,
            exclude_topic_id=topic_id,
            token_budget=int((budget - used) * TOPIC_SHARE),
        )
    used += sum(
        text_analysis.estimate_tokens(m.content) for t in context.topic_recall for m in t.messages
    )
    asked = intent.classify(content)
    query_vector = embeddings.embed_query(content)
    retrieved = memory_retrieve(
        user=user,
        query=content,
        query_embedding=query_vector,
        token_budget=max(0, budget - used),
        reader=reader,
        types=asked.memory_types(),
        slots=asked.answer_slots(),
    )
    asked_periods = _asked_periods(asked, content=content, at=at)
    ranks = {
        m.memory_id: intent.answer_rank(
            asked,
            memory_type=m.type,
            slot=m.slot,
            is_plan=_ahead(m, at),
            in_period=_in_periods(_memory_periods(m), asked_periods),
        )
        for m in retrieved
    }
    retrieved = sorted(retrieved, key=lambda m: ranks[m.memory_id])  # stable: score order kept
    context.memories = [
        MemoryItem(
            id=m.memory_id,
            version=m.version,
            type=m.type,
            content=m.content,
            score=round(m.score, 4),
        )
        for m in retrieved
    ]
    used += sum(m.tokens for m in retrieved)
    context.tokens = used
    _withhold_instructions(context)
    _drop_repeats(context, sources=_source_texts(user_id=user.pk, memories=retrieved))
    return Assembled(
        context=context,
        memories=list(retrieved),
        intent=asked,
        answering={m.memory_id for m in retrieved if asked.kind and ranks[m.memory_id] == 0},
        periods=asked_periods,
        query_vector=query_vector,
    )


def _asked_periods(asked: Intent, *, content: str, at: datetime) -> list[dates.Period] | None:
    """The times a question about plans names ("다음 주", "next week"); None for another
    question or one that names no time."""
    if asked.kind != intent.Kind.PLANS:
        return None
    return dates.periods(content, today=timezone.localtime(at).date()) or None


def _memory_periods(memory: RetrievedMemory) -> list[dates.Period]:
    """The times a memory is about: those its text names, read against the day it was
    observed, and the day of the event it expires after."""
    found = dates.periods(memory.content, today=timezone.localtime(memory.observed_at).date())
    if memory.expires_at is not None:
        day = dates.event_day(timezone.localtime(memory.expires_at))
        found.append((day, day))
    return found


def _in_periods(found: list[dates.Period], asked: list[dates.Period] | None) -> bool | None:
    if asked is None:
        return None
    return any(dates.overlaps(a, b) for a in found for b in asked)


def _ahead(memory: RetrievedMemory, at: datetime) -> bool:
    """A plan still ahead: an episode expires once its date has passed (issue 14 line 2)."""
    return memory.expires_at is not None and memory.expires_at > at


def _source_texts(*, user_id: int, memories: list[RetrievedMemory]) -> list[str]:
    """The messages the memories were taken from, folded for duplicate checks: those of their
    replaced versions too ("최애 아이돌은 루나" is not recalled beside "최애 바뀜 ... 세린")."""
    ids = [m.source_message_id for m in memories if m.source_message_id]
    ids += lineage_source_message_ids(user_id=user_id, memory_ids=[m.memory_id for m in memories])
    if not ids:
        return []
    rows = Message.objects.filter(pk__in=ids, user_id=user_id).values_list("content", flat=True)
    return [fusion.comparable_text(text) for text in rows]


def _drop_repeats(context: ChatContext, *, sources: list[str]) -> None:
    """Recalled messages that repeat a memory's source message or an earlier recalled message
    (a reply quoting it) are left out: the same text is never listed twice."""
    kept = [*sources, *(fusion.comparable_text(m.content) for m in context.memories)]
    topics_left = []
    for topic in context.topic_recall:
        messages = []
        for message in topic.messages:
            folded = fusion.comparable_text(message.content)
            if fusion.repeats(folded, kept):
                continue
            kept.append(folded)
            messages.append(message)
        if messages:
            topic.messages = messages
            topics_left.append(topic)
    context.topic_recall = topics_left


def _withhold_instructions(context: ChatContext) -> None:
    """Past messages and summaries that carry instructions to the assistant are replaced by a
    placeholder, and the tags and keywords taken from them are left out: the memory cut from
    such a message is quarantined, and nothing copied from the same text (a link as a
    "keyword") may bring it back into a later prompt. Memories need no check: only active
    ones are retrieved, and the write policy never makes an attack active. The detector's
    verdict stamped when a text was stored is used while it holds for the text as it is."""
    withheld: list[str] = []

    def check(text: str, stamp: str) -> str:
        kept = injection_stamp.withhold(text, stamp)
        if kept != text:
            withheld.append(text.lower())
        return kept

    for recall in context.session_recall:
        recall.summary = check(recall.summary, recall.stamp)
    for topic in context.topic_recall:
        for message in topic.messages:
            message.content = check(message.content, message.stamp)
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
            new_topic = topics.detect_shift(
                content=content, new=new, window=window, user_id=user.pk
            )
            topic_id = open_topic.pk
    return context_assemble(
        user=user,
        content=content,
        vector=vector,
        at=timezone.now(),
        first_message=first,
        new_topic=new_topic,
        session_id=session.pk if session else None,
        topic_id=topic_id,
        reader=reader,
        preview=True,
    ).context


# How many search hits the offline reply reads (it quotes at most
# offline_reply.MAX_ITEMS things in all).
REPLY_SEARCH_HITS = 8


def reply_recollection(
    *,
    user: AbstractBaseUser,
    content: str,
    assembled: Assembled,
    session_id: int,
) -> offline_reply.Recollection:
    """What the offline reply says it recalls for `content`, best first: memories that answer
    the question, earlier statements of the user's that do, the other memories, the other
    statements, then the past sessions' summaries, each marked as answering the question or
    related to what it names (the reply quotes nothing else). Never the current session's own
    messages, never the assistant's, never one text twice (a message and a reply quoting it,
    a memory and the message it came from)."""
    asked = assembled.intent
    if assembled.small_talk:
        return offline_reply.Recollection(question=False, small_talk=str(assembled.small_talk))
    context = assembled.context
    topic = intent.topic_terms(content)

    floor = answer_floor(assembled.query_vector, content)

    def about(text: str, similarity: float = 0.0) -> bool:
        return similarity >= floor or bool(topic & set(text_analysis.index_tokens(text)))

    similarity_of = {
        m.memory_id: m.similarity  # type: ignore[attr-defined]
        for m in assembled.memories
    }

    answering: list[offline_reply.Recalled] = []
    others: list[offline_reply.Recalled] = []
    kept = [fusion.comparable_text(m.content) for m in context.memories]
    kept += _source_texts(user_id=user.pk, memories=assembled.memories)  # type: ignore[arg-type]
    for memory in context.memories:
        of_kind = memory.id in assembled.answering
        on_topic = not topic or about(memory.content, similarity_of.get(memory.id, 0.0))
        answers = (of_kind and asked.asks_current_value()) or (
            on_topic and (of_kind or not asked.kind)
        )
        item = offline_reply.Recalled(
            kind="memory",
            text=memory.content,
            answers=answers,
            related=bool(topic) and on_topic,
        )
        (answering if answers else others).append(item)
    said_answering: list[offline_reply.Recalled] = []
    said_others: list[offline_reply.Recalled] = []
    related = _related_messages(
        user=user,
        content=content,
        session_id=session_id,
        query_vector=assembled.query_vector,
        floor=floor,
    )
    for message, similarity in related:
        if injection_stamp.carries_instructions(message.content, message.instruction_stamp):
            continue  # a person is never told "you said (withheld: ...)"
        text = said.user_statement(role=message.role, text=message.content)
        folded = fusion.comparable_text(text)
        if not folded or fusion.repeats(folded, kept):
            continue
        kept.append(folded)
        said_at = timezone.localtime(message.created_at)
        said_of = dates.periods(text, today=said_at.date())
        # Judged on the whole message: "이사 가는 거 알지? 부산으로 가기로 했어" is about
        # the move though its statement does not name it.
        on_topic = not topic or about(message.content, similarity)
        of_kind = not asked.kind or intent.text_answers(
            asked, text, in_period=_in_periods(said_of, assembled.periods)
        )
        item = offline_reply.Recalled(
            kind="message",
            text=text,
            at=said_at,
            answers=on_topic and of_kind,
            related=bool(topic) and on_topic,
        )
        (said_answering if item.answers else said_others).append(item)
    # Past sessions are recalled by meaning (sessions.recall_floor): related, and answering
    # a question of no particular kind when they name what it asks about.
    summaries = [
        offline_reply.Recalled(
            kind="summary",
            text=s.summary,
            at=_parsed(s.started_at),
            answers=not asked.kind and bool(topic) and about(s.summary),
            related=True,
        )
        for s in context.session_recall
        if s.summary.strip() and not fusion.repeats(fusion.comparable_text(s.summary), kept)
    ]
    return offline_reply.Recollection(
        question=asked.question,
        kind=str(asked.kind),
        items=[*answering, *said_answering, *others, *said_others, *summaries],
    )


def answer_floor(vector: np.ndarray | None, content: str) -> float:
    """The cosine a recalled text must reach with the question `content` (embedded as
    `vector`) to count as on its topic without a shared word; above 1 when there is no vector."""
    if vector is None:
        return 2.0
    key = (settings.MEMORYHUB_EMBEDDING_BACKEND, text_analysis.detect_language(content))
    return max(ANSWER_SIMILARITY[key], query_baseline(vector) + ANSWER_MARGIN[key])


def _cosine(vector: np.ndarray | None, other: object) -> float:
    if vector is None or other is None:
        return 0.0
    return embeddings.cosine(vector, np.asarray(other, dtype=np.float32))


def _parsed(value: str) -> datetime | None:
    try:
        return timezone.localtime(datetime.fromisoformat(value)) if value else None
    except ValueError:
        return None


def _related_messages(
    *,
    user: AbstractBaseUser,
    content: str,
    session_id: int,
    query_vector: np.ndarray | None = None,
    floor: float = 2.0,
) -> list[tuple[Message, float]]:
    """The user's earlier statements (`said.user_statement`) from other sessions that search
    finds for `content` and that share a content word with it or reach `floor` by meaning
    (search always returns its best k, related or not), each with its cosine to the query;
    never the assistant's replies, the user's questions or requests."""
    wanted = set(text_analysis.index_tokens(content)) - set(text_analysis.date_terms(content))
    if not wanted:
        return []
    hits = search.message_hits(
        user_id=user.pk, query_text=content, k=REPLY_SEARCH_HITS, query_vector=query_vector
    )
    ids = [int(hit.id) for hit in hits]
    rows = {
        m.pk: m
        for m in Message.objects.filter(pk__in=ids, user_id=user.pk)
        .exclude(session_id=session_id)
        .only("id", "role", "content", "created_at", "keywords", "instruction_stamp", "embedding")
    }
    found = []
    for i in ids:
        row = rows.get(i)
        if row is None or not said.user_statement(role=row.role, text=row.content):
            continue
        similarity = _cosine(query_vector, row.embedding)
        if wanted & set(row.keywords or ()) or similarity >= floor:
            found.append((row, similarity))
    return found
