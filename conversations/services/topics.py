"""Topics within a session (seed Algorithm 2): shift detection, closing, keywords, recall."""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from datetime import datetime

import numpy as np
from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.db.models.expressions import RawSQL

from conversations.logic import segmentation, yesno
from conversations.logic.prompt_context import RecalledMessage, TopicRecall
from conversations.logic.segmentation import Centre, SegTurn
from conversations.models import ChatSession, Message, Topic
from conversations.services.centre import chat_centre
from memories.logic import injection_stamp
from memories.services.intake import terms_intake, text_intake
from memoryhub import embeddings, llm
from memoryhub import text as text_analysis
from memoryhub.models import owned_by, rows_delete

logger = logging.getLogger(__name__)

TOPIC_KEYWORDS = 5
TOPIC_TERMS = 8
RECALL_TOPICS = 3

# The seed's prompts, word for word where it gives them.
SHIFT_PROMPT = """A와 B가 같은 화제인가?
A: {previous}
B: {new}

같으면 Y, 다르면 N. 한글자만:"""
KEYWORDS_PROMPT = """대화 주제를 나타내는 단어를 추출하라.
반드시 띄어쓰기 없는 한 단어. 3~5개. 쉼표 구분.
예시: 다이어트, 체중, 운동, 주식, 날씨

대화:
{conversation}"""


def shift_measure(content: str, centres: dict[str, Centre] | None = None) -> tuple[float, Centre]:
    """(threshold, chat centre) for deciding whether `content` starts a new topic: the
    centre of its language here, and the threshold measured for that model, language and
    centre (or the operator's override). `centres`, when given, keeps each language's centre
    across calls, so a loop over many messages reads the cache once per language."""
    language = text_analysis.detect_language(content)
    if centres is None:
        centre = chat_centre(language)
    else:
        if language not in centres:
            centres[language] = chat_centre(language)
        centre = centres[language]
    measured = segmentation.THRESHOLDS[
        (settings.MEMORYHUB_EMBEDDING_BACKEND, language, centre.source)
    ]
    return settings.MEMORYHUB_TOPIC_SHIFT_THRESHOLD or measured, centre


def topic_window(*, topic: Topic) -> list[Message]:
    """The topic's last two exchanges (searchable messages only), oldest first."""
    recent = list(topic.messages.filter(searchable=True).order_by("-created_at", "-id")[:8])[::-1]
    turns = [_seg_turn(m) for m in recent]
    kept = segmentation.last_exchanges(turns)
    return recent[len(recent) - len(kept) :]


def subject_terms(text: str) -> frozenset[str]:
    """What `text` is about, for keeping a one-message topic with its neighbour: its content
    nouns (Korean) or content words (English), normalised, without verb lemmas and dates."""
    return frozenset(text_analysis.normalise(t) for t in text_analysis.terms(text))


def seg_turn(*, role: str, text: str, vector: np.ndarray | None) -> SegTurn:
    """A message as the offline detector sees it."""
    # The words of the text only (not the date and speaker terms of the index), as measured.
    terms = frozenset(text_analysis.index_tokens(text))
    return SegTurn(role, text, terms, vector, subject_terms(text))


def _seg_turn(message: Message) -> SegTurn:
    vector = None if message.embedding is None else np.asarray(message.embedding, dtype=np.float32)
    return seg_turn(role=message.role, text=message.content, vector=vector)


def ensure_vectors(messages: Sequence[Message]) -> None:
    """Embed (and store) any of `messages` that has no vector yet."""
    missing = [m for m in messages if m.embedding is None]
    if not missing:
        return
    vectors = embeddings.embed_passages([m.content for m in missing])
    for message, vector in zip(missing, vectors, strict=True):
        message.embedding = vector
        # the embedding task, which stamps verdicts, never takes up an embedded message
        message.instruction_stamp = injection_stamp.stamp(message.content)
    Message.objects.bulk_update(missing, ["embedding", "instruction_stamp"])


def detect_shift_offline(*, new: SegTurn, window: Sequence[Message]) -> bool:
    threshold, centre = shift_measure(new.text)
    if not new.subject:
        new = dataclasses.replace(new, subject=subject_terms(new.text))
    return segmentation.is_shift(
        new, [_seg_turn(m) for m in window], threshold=threshold, centre=centre
    )


def detect_shift(*, content: str, new: SegTurn, window: Sequence[Message], user_id: int) -> bool:
    """Is `content` a new topic after `window`? The LLM's Y/N, or the offline detector."""
    if not window:
        return False
    provider = llm.get_provider()
    if provider.offline or segmentation.is_backchannel(new):
        return detect_shift_offline(new=new, window=window)
    previous = " / ".join(m.content[:300] for m in window if m.role == Message.Role.USER)
    try:
        answer = provider.complete(
            task="topic_shift",
            prompt=SHIFT_PROMPT.format(previous=previous, new=content[:500]),
            max_tokens=5,
            user_id=user_id,
        )
    except llm.LLMError:
        logger.warning("topic-shift call failed; using the offline detector")
        return detect_shift_offline(new=new, window=window)
    same = yesno.parse_same_topic(answer)
    if same is None:
        logger.warning(
            "unparseable topic-shift answer %r; treating it as the same topic",
            text_intake(answer[:200]).text,  # a model's words are redacted wherever they go
        )
        return False
    return not same


def topic_open(*, session: ChatSession, started_at: datetime) -> Topic:
    return Topic.objects.create(session=session, user_id=session.user_id, started_at=started_at)


def topic_close(*, topic: Topic, ended_at: datetime) -> None:
    """End the topic; its keywords and vector are finalised in a task after commit."""
    from conversations.tasks import topic_finalize

    Topic.objects.filter(user_id=topic.user_id, pk=topic.pk, ended_at__isnull=True).update(
        ended_at=ended_at
    )
    topic_id, user_id = topic.pk, topic.user_id
    transaction.on_commit(
        lambda: topic_finalize.delay(topic_id=topic_id, user_id=user_id), robust=True
    )


def _ranked_keywords(messages: Sequence[Message]) -> list[str]:
    text = "\n".join(m.content for m in messages if m.searchable)
    return text_analysis.keywords(text, limit=TOPIC_TERMS)


def topic_refresh_keywords(*, topic: Topic) -> None:
    """Running keywords of an open topic: its most frequent content words."""
    ranked = _ranked_keywords(list(topic.messages.order_by("created_at", "id")))
    topic.keywords = ranked[:TOPIC_KEYWORDS]
    topic.terms = list(dict.fromkeys(text_analysis.normalise(k) for k in ranked))
    topic.save(update_fields=["keywords", "terms"])


_WORD = re.compile(r"[^\s,./;:!?\"'()\[\]]+")


def _llm_keywords(messages: Sequence[Message], user_id: int) -> list[str] | None:
    conversation = "\n".join(f"{m.role}: {m.content[:500]}" for m in messages[-20:])
    try:
        answer = llm.get_provider().complete(
            task="topic_keywords",
            prompt=KEYWORDS_PROMPT.format(conversation=conversation),
            max_tokens=60,
            user_id=user_id,
        )
    except llm.LLMError:
        return None
    words = [w.strip() for w in answer.replace("\n", ",").split(",")]
    found = terms_intake(w for w in words if w and _WORD.fullmatch(w) and len(w) <= 40)
    return found[:TOPIC_KEYWORDS] if len(found) >= 1 else None


def topic_finalize(*, topic_id: int, user_id: int | None = None) -> None:
    """Final keywords (the seed's prompt, or Kiwi offline) and the mean vector of a topic
    (of `user_id`, when the caller knows the owner)."""
    topic = Topic.objects.filter(pk=topic_id, **owned_by(user_id)).first()
    if topic is None:
        return
    messages = list(topic.messages.filter(searchable=True).order_by("created_at", "id"))
    if not messages:
        return
    ranked = _ranked_keywords(messages)
    keywords = ranked[:TOPIC_KEYWORDS]
    if not llm.get_provider().offline:
        keywords = _llm_keywords(messages, topic.user_id) or keywords
    ensure_vectors(messages)
    centre = np.mean(np.vstack([np.asarray(m.embedding) for m in messages]), axis=0)
    norm = float(np.linalg.norm(centre)) or 1.0
    topic.keywords = keywords
    topic.terms = list(dict.fromkeys(text_analysis.normalise(k) for k in [*keywords, *ranked]))
    topic.embedding = centre / norm
    topic.message_count = topic.messages.count()
    topic.save(update_fields=["keywords", "terms", "embedding", "message_count"])


def session_topics_rederive(*, session: ChatSession) -> tuple[int, list[int]]:
    """Derive a session's topics again from the messages they hold now, after some were
    deleted or redacted: a topic left with none goes; every other one gets its running
    keywords and count again, and a closed one its final keywords and vector
    (`topic_finalize`). How many went, and the ids of the topics whose keywords changed."""
    emptied, _ = (
        Topic.objects.filter(session=session).annotate(n=Count("messages")).filter(n=0).delete()
    )
    changed = []
    for topic in Topic.objects.filter(session=session):
        before = list(topic.keywords)
        topic_refresh_keywords(topic=topic)
        topic.message_count = topic.messages.count()
        topic.embedding = None  # made from the old text; `topic_finalize` makes it again
        topic.save(update_fields=["message_count", "embedding"])
        if topic.ended_at is not None:
            topic_finalize(topic_id=topic.pk)
            topic.refresh_from_db(fields=["keywords"])
        if list(topic.keywords) != before:
            changed.append(topic.pk)
    return emptied, changed


@transaction.atomic
def session_topics_merge(*, session: ChatSession) -> list[int]:
    """Fold each topic of one user message into the neighbouring topic it shares a subject
    word with (`segmentation.merge_short_topics`), where its language's embeddings are
    compared raw (`segmentation.merges_short_topics`); the ids of the topics that took messages
    in, whose keywords and vector are then out of date. A folded topic is deleted."""
    topics = list(session.topics.order_by("started_at", "id"))
    if len(topics) < 2:
        return []
    messages = list(session.messages.filter(searchable=True).order_by("created_at", "id"))
    spans = []
    centres: dict[str, Centre] = {}
    for topic in topics:
        users = [m for m in messages if m.topic_id == topic.pk and m.role == Message.Role.USER]
        subject = frozenset().union(*(subject_terms(m.content) for m in users))
        said = " ".join(m.content for m in users)
        # Kept apart where its language is compared off a deployment's centre: no words to share.
        if not segmentation.merges_short_topics(shift_measure(said, centres)[1]):
            subject = frozenset()
        spans.append(segmentation.Span(len(users), subject))
    grown = []
    for group in segmentation.merge_short_topics(spans):
        if len(group) == 1:
            continue
        kept, folded = topics[group[0]], [topics[i] for i in group[1:]]
        folded_ids = [topic.pk for topic in folded]
        Message.objects.filter(user_id=session.user_id, topic_id__in=folded_ids).update(topic=kept)
        ends = [topic.ended_at for topic in [kept, *folded]]
        kept.ended_at = None if None in ends else max(e for e in ends if e is not None)
        kept.message_count = kept.messages.count()
        kept.save(update_fields=["ended_at", "message_count"])
        # No message points at them any more: one DELETE by owner, not Django's cascade.
        rows_delete(Topic.objects.filter(user_id=session.user_id, pk__in=folded_ids))
        grown.append(kept.pk)
    return grown


# What a recalled turn needs; the rest of a message row (two vectors) is not read.
_RECALLED_FIELDS = (
    "id",
    "topic_id",
    "role",
    "content",
    "created_at",
    "token_count",
    "instruction_stamp",
)


def topic_recall(
    *, user_id: int, terms: Sequence[str], exclude_topic_id: int | None, token_budget: int
) -> list[TopicRecall]:
    """The user's earlier topics ranked by keyword match score, with their real messages.

    The seed's SQL: score = how many of the new message's keywords the topic has; only
    topics with a score; ties by recency; at most three.
    """
    query_terms = list(dict.fromkeys(t for t in terms if t))
    if not query_terms or token_budget <= 0:
        return []
    candidates = Topic.objects.filter(user_id=user_id, terms__overlap=query_terms)
    if exclude_topic_id is not None:
        candidates = candidates.exclude(pk=exclude_topic_id)
    topics = list(
        candidates.annotate(
            score=RawSQL(
                "cardinality(ARRAY(SELECT unnest(conversations_topic.terms) "
                "INTERSECT SELECT unnest(%s::text[])))",
                (query_terms,),
            )
        ).order_by("-score", "-started_at", "-id")[:RECALL_TOPICS]
    )
    recalled = []
    share = token_budget // max(1, len(topics))
    for topic in topics:
        messages = []
        left = share
        rows = topic.messages.filter(searchable=True).only(*_RECALLED_FIELDS)
        for m in rows.order_by("created_at", "id")[:40]:
            if m.token_count > left:
                break
            left -= m.token_count
            messages.append(
                RecalledMessage(
                    role=m.role,
                    content=m.content,
                    created_at=m.created_at.isoformat(),
                    stamp=m.instruction_stamp,
                )
            )
        if messages:
            recalled.append(
                TopicRecall(
                    topic_id=str(topic.pk), keywords=list(topic.keywords), messages=messages
                )
            )
    return recalled


def message_topic_terms(*, content: str, user_id: int) -> list[str]:
    """Keywords of a new message for topic recall (Kiwi, plus the LLM's for Claude); the
    generic words that are never tags ("how it works" is not about work) are left out."""
    generic = {text_analysis.normalise(g) for g in settings.MEMORYHUB_GENERIC_TAGS}
    terms = [t for t in text_analysis.index_tokens(content) if t not in generic]
    provider = llm.get_provider()
    if not provider.offline:
        try:
            answer = provider.complete(
                task="message_keywords",
                prompt=KEYWORDS_PROMPT.format(conversation=content[:1000]),
                max_tokens=60,
                user_id=user_id,
            )
        except llm.LLMError:
            return terms
        extra = [w.strip() for w in answer.replace("\n", ",").split(",") if w.strip()]
        terms += [text_analysis.normalise(w) for w in terms_intake(extra) if _WORD.fullmatch(w)]
    return list(dict.fromkeys(terms))
