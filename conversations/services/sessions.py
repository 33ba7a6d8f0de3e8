"""Session ends (tags and summary) and recall at session start (seed Algorithm 1); the tags'
weights and their decay are `conversations.services.tag_weights`."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from pgvector.django import CosineDistance

from conversations.logic.prompt_context import SessionRecall
from conversations.logic.summarize import (
    Sentence,
    distinct_lines,
    is_filler,
    is_filler_word,
    is_question,
    rank_tags,
    shorten_line,
    split_sentences,
    summary_sentences,
    tag_form,
    topic_lines,
)
from conversations.logic.titles import title_from_messages
from conversations.models import ChatSession, Message, Topic
from conversations.services import shortterm, topics
from conversations.services.tag_weights import tag_weights_add, tag_weights_effective
from memories.logic import injection_stamp
from memories.selectors.retrieval import query_baseline
from memories.services.intake import terms_intake, text_intake
from memoryhub import embeddings, llm
from memoryhub import text as text_analysis
from memoryhub.models import owned_by

logger = logging.getLogger(__name__)

TOP_TAGS = 20
MAX_TAG_CHARS = 40
END_TAG_BOOST = 1.0
RECALL_TAG_BOOST = 0.5
# Cosine of a first message with a past summary (both passages) above which the summary counts
# as related, by model and by the message's language (each has its own band of cosines). Set
# between related and unrelated pairs of a probe set (tests/conversations/test_recall_floor.py).
RECALL_SIMILARITY = {
    ("e5", "ko"): 0.89,
    ("e5", "en"): 0.80,
    ("use", "ko"): 0.45,
    ("use", "en"): 0.45,
}
# e5 also puts unrelated English texts at 0.80-0.84 of each other, so the cosine must also
# clear the message's own baseline (its mean cosine with neutral sentences, as memory
# retrieval measures it) by this margin. Measured on the probe set of
# tests/conversations/test_recall_floor.py: unrelated English -0.022-0.041, related English
# 0.043-0.141 (the bands touch: "What should I cook tonight?" against a nurse's summary is
# 0.041, so it is not in the set); Korean is held by its higher cosine floor.
RECALL_MARGIN = {"e5": 0.035, "use": 0.0}


def recall_floor(vector: np.ndarray, content: str) -> float:
    """The cosine a past summary must reach to count as related to this first message."""
    backend = settings.MEMORYHUB_EMBEDDING_BACKEND
    floor = RECALL_SIMILARITY[(backend, text_analysis.detect_language(content))]
    return max(floor, query_baseline(vector) + RECALL_MARGIN[backend])


TAGS_PROMPT = """다음 대화의 주제를 명사 1단어로 3~5개 뽑고, 대화를 요약하라.
대화는 화제 {topics}개로 나뉘어 있다. 요약은 화제마다 한 줄씩, 화제 순서대로 {topics}줄이다.
한 줄은 한 문장이고, 앞 줄에서 한 말을 되풀이하지 않는다. 요약은 {language}로 쓴다.
JSON만 출력: {{"tags": ["태그1", "태그2", "태그3"], "summary": ["화제 1의 요약", "화제 2의 요약"]}}

대화:
{conversation}"""
# The language a summary is written in, named in the prompt's own language.
LANGUAGE_NAMES = {"ko": "한국어", "en": "영어(English)"}
# Messages of the session shown to the model, shared out between its topics.
PROMPT_MESSAGES = 60
PICK_PROMPT = """다음은 사용자가 자주 이야기한 태그 목록이다: {tags}
사용자의 첫 메시지: {message}

이 메시지와 관련된 태그를 골라라. 목록에 있는 태그만, 쉼표로 구분해 출력하고, 없으면 "없음"."""

_YESTERDAY = re.compile(r"어제|그제|그저께|yesterday", re.IGNORECASE)
_LAST_WEEK = re.compile(r"지난\s?주|저번\s?주|last week", re.IGNORECASE)
_EARLIER = re.compile(
    r"저번에?|지난번|지난 번|아까|이전에|예전에|전에 (?:말|얘기|이야기)|last time|previously|"
    r"earlier|the other day|we (?:talked|discussed|decided)|did we|what was i",
    re.IGNORECASE,
)


# --- ending a session ----------------------------------------------------------------------


def session_end(*, session: ChatSession) -> ChatSession:
    """Ask for the session to end; tags and summary are extracted by a task after commit."""
    from conversations.tasks import session_finalize

    with transaction.atomic():
        locked = ChatSession.objects.select_for_update().get(user_id=session.user_id, pk=session.pk)
        if locked.status != ChatSession.Status.ACTIVE:
            return locked
        locked.status = ChatSession.Status.ENDING
        locked.save(update_fields=["status"])
        session_id, user_id = locked.pk, locked.user_id
        transaction.on_commit(
            lambda: session_finalize.delay(session_id=session_id, user_id=user_id), robust=True
        )
    return locked


def sessions_end_idle(*, now: datetime | None = None) -> int:
    """End every active session idle for longer than the setting (a beat job)."""
    now = now or timezone.now()
    cutoff = now - timedelta(minutes=settings.MEMORYHUB_SESSION_IDLE_MINUTES)
    idle = ChatSession.objects.filter(status=ChatSession.Status.ACTIVE).filter(
        Q(last_message_at__lt=cutoff) | Q(last_message_at__isnull=True, started_at__lt=cutoff)
    )
    count = 0
    for session in idle.only("pk", "user_id")[:500]:
        session_end(session=session)
        count += 1
    return count


@dataclass(frozen=True)
class TagsAndSummary:
    tags: list[str]
    summary: str


def _document_frequency(
    user_id: int, terms: Sequence[str], exclude: int
) -> tuple[dict[str, int], int]:
    """In how many of the user's other sessions each term occurs, and how many there are."""
    normalised = {text_analysis.normalise(t): tag_form(t) for t in terms}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT term, count(DISTINCT session_id) FROM conversations_message, "
            "unnest(keywords) AS term WHERE user_id = %s AND session_id <> %s "
            "AND term = ANY(%s) GROUP BY term",
            [user_id, exclude, list(normalised)],
        )
        counts = {normalised[term]: n for term, n in cursor.fetchall()}
    documents = ChatSession.objects.filter(user_id=user_id).exclude(pk=exclude).count()
    return counts, documents


def topic_groups(messages: Sequence[Message]) -> list[list[Message]]:
    """`messages` (in order) grouped by topic, topics in the order they start; a message
    with no topic goes with the message before it."""
    groups: dict[int | None, list[Message]] = {}
    current: int | None = None
    for message in messages:
        if message.topic_id is not None or current is None:
            current = message.topic_id
        groups.setdefault(current, []).append(message)
    return list(groups.values())


def _topic_sentences(group: Sequence[Message]) -> list[Sentence]:
    """The summarisable sentences of one topic: the user's, or the replies' when the user
    said nothing that can be summarised there. Only sentences that say something count
    (`summarize.says_something`): one with a marker of something taken out (a secret, a
    forgotten memory) is no summary, nor is a question or a bare "기억해줘" / "알겠어요"."""
    user = [m for m in group if m.role == Message.Role.USER]
    for chosen in (user, [m for m in group if m.role != Message.Role.USER]):
        sentences = [
            Sentence(text=sentence, terms=frozenset(text_analysis.terms(sentence)))
            for m in chosen
            for sentence in summary_sentences(m.content)
        ]
        if sentences:
            return sentences
    return []


def _tag_terms(messages: Sequence[Message]) -> list[str]:
    """The words a session's tags are chosen from: those of its sentences that are neither
    filler ("기억해줘") nor questions ("지난번에 뭐 하기로 했지?" asks about another session);
    a session of questions only takes its questions' words; a filler word ("기억") is no tag.
    Markers are never words. A tag is one word, as the model's tags are (at most 40
    characters): a pasted base64 or hex blob is one "foreign word" to Kiwi and would not fit
    the tag column."""
    said = [s for m in messages for s in split_sentences(m.content) if not is_filler(s)]
    stated = [s for s in said if not is_question(s)]
    for chosen in (stated, said):
        terms = [t for s in chosen for t in text_analysis.terms(s) if len(t) <= MAX_TAG_CHARS]
        terms = [t for t in terms if not text_analysis.is_marker_word(t) and not is_filler_word(t)]
        if terms:
            return terms
    return []


def _offline_tags_and_summary(session: ChatSession, messages: Sequence[Message]) -> TagsAndSummary:
    terms = _tag_terms(messages)
    df, documents = _document_frequency(session.user_id, terms, session.pk)
    tags = rank_tags(
        terms,
        document_frequency=df,
        documents=documents,
        generic=settings.MEMORYHUB_GENERIC_TAGS,
    )
    lines = topic_lines([_topic_sentences(group) for group in topic_groups(messages)])
    return TagsAndSummary(tags=tags, summary="\n".join(lines))


def _summary_intake(summary: str) -> str:
    """A model's summary as it may be stored: secrets redacted, and sentences that carry a
    marker of something taken out, in any form, left out (the summary says what the session
    was about, not that a secret or a forgotten memory was in it), as are filler sentences."""
    sentences = split_sentences(text_intake(summary).text)
    return " ".join(
        s for s in sentences if not text_analysis.carries_marker(s) and not is_filler(s)
    )


def summary_without_markers(summary: str) -> str:
    """`summary` less every sentence that carries a marker (a redaction left it), line by
    line; a line left empty goes."""
    lines = []
    for line in summary.splitlines():
        kept = [s for s in split_sentences(line) if not text_analysis.carries_marker(s)]
        if kept:
            lines.append(" ".join(kept))
    return "\n".join(lines)


def _valid_llm_tags(answer: str, offline_lines: Sequence[str]) -> TagsAndSummary | None:
    """The model's tags and summary as they may be stored, or None when the answer is not
    the JSON asked for. The summary keeps one line per topic: a topic the model left out
    (it answered with fewer lines than topics) gets its offline line."""
    match = re.search(r"\{.*\}", answer, re.S)
    if not match:
        return None
    try:
        data = json.loads(match.group(0))
    except ValueError:
        return None
    tags, summary = data.get("tags"), data.get("summary")
    if isinstance(summary, str):
        summary = split_sentences(summary)
    if not isinstance(tags, list) or not isinstance(summary, list):
        return None
    clean = [tag_form(t.strip()) for t in tags if isinstance(t, str) and t.strip()]
    clean = terms_intake(t for t in clean if " " not in t and len(t) <= MAX_TAG_CHARS)
    clean = [t for t in clean if not text_analysis.is_marker_word(t)]
    said = [line for line in summary if isinstance(line, str)]
    lines = distinct_lines(shorten_line(_summary_intake(line)) for line in said)
    if not clean or not lines:
        return None
    lines = distinct_lines([*lines, *offline_lines[len(lines) :]])
    return TagsAndSummary(tags=clean[:5], summary="\n".join(lines))


def _prompt_conversation(groups: Sequence[Sequence[Message]]) -> str:
    """The session's messages under a heading per topic; each topic shows its first
    messages, so a long topic does not crowd the others out of the prompt."""
    per_topic = max(2, PROMPT_MESSAGES // max(1, len(groups)))
    parts = []
    for number, group in enumerate(groups, start=1):
        parts.append(f"[화제 {number}]")
        parts += [f"{m.role}: {m.content[:600]}" for m in group[:per_topic]]
    return "\n".join(parts)


def extract_tags_and_summary(session: ChatSession, messages: Sequence[Message]) -> TagsAndSummary:
    """3-5 single-word tags (generic ones removed) and a summary of one line per topic, in
    the language the user wrote in."""
    offline = _offline_tags_and_summary(session, messages)
    provider = llm.get_provider()
    if provider.offline:
        return offline
    groups = topic_groups(messages)
    said = " ".join(m.content for m in messages if m.role == Message.Role.USER)[:2000]
    prompt = TAGS_PROMPT.format(
        topics=len(groups),
        language=LANGUAGE_NAMES[text_analysis.detect_language(said)],
        conversation=_prompt_conversation(groups),
    )
    try:
        answer = provider.complete(
            task="session_tags",
            prompt=prompt,
            max_tokens=150 + 80 * len(groups),
            user_id=session.user_id,
        )
    except llm.LLMError:
        return offline
    parsed = _valid_llm_tags(answer, offline.summary.splitlines())
    if parsed is None:
        logger.warning("invalid tags JSON for session %s; using offline tags", session.pk)
        return offline
    generic = {tag_form(g) for g in settings.MEMORYHUB_GENERIC_TAGS}
    return TagsAndSummary([t for t in parsed.tags if t not in generic], parsed.summary)


def _summarised(messages: Sequence[Message]) -> list[Message]:
    """The messages a session's tags and summary are made from. A message that carries
    instructions to the assistant (its memory is quarantined) gives the session no summary
    sentence and no tag: both go into later prompts."""
    return [
        m
        for m in messages
        if not injection_stamp.carries_instructions(m.content, m.instruction_stamp)
    ]


def session_finalize(*, session_id: int, user_id: int | None = None) -> None:
    """Close the last topic, fold one-message topics into their neighbours, store tags and a
    summary of one line per topic, add +1.0 per tag. Idempotent. `user_id`: the owner, when
    the caller knows it."""
    with transaction.atomic():
        session = (
            ChatSession.objects.select_for_update()
            .filter(pk=session_id, **owned_by(user_id))
            .first()
        )
        if session is None or session.status == ChatSession.Status.ENDED:
            return
        messages = list(session.messages.filter(searchable=True).order_by("created_at", "id"))
        last_at = messages[-1].created_at if messages else session.started_at
        open_topics = list(session.topics.filter(ended_at__isnull=True))
        for topic in open_topics:
            Topic.objects.filter(user_id=topic.user_id, pk=topic.pk).update(ended_at=last_at)
        grown = topics.session_topics_merge(session=session)
        if grown:  # the summary below reads each message's topic as it is now
            messages = list(session.messages.filter(searchable=True).order_by("created_at", "id"))
        ended_at = last_at if session.source == ChatSession.Source.IMPORT else timezone.now()
        session.status = ChatSession.Status.ENDED
        session.ended_at = ended_at
        fields = ["status", "ended_at"]
        summarised = _summarised(messages)
        if summarised:
            result = extract_tags_and_summary(session, summarised)
            session.tags = result.tags
            session.summary = result.summary
            session.summary_stamp = injection_stamp.stamp(result.summary)
            session.embedding = embeddings.embed_passages([result.summary])[0]
            fields += ["tags", "summary", "summary_stamp", "embedding"]
            tag_weights_add(
                user_id=session.user_id, tags=result.tags, amount=END_TAG_BOOST, at=last_at
            )
        session.save(update_fields=fields)
        user_id = session.user_id
        transaction.on_commit(lambda: shortterm.recent_summaries_forget(user_id=user_id))
    for topic_id in dict.fromkeys([*(t.pk for t in open_topics), *grown]):
        topics.topic_finalize(topic_id=topic_id, user_id=session.user_id)


@dataclass(frozen=True)
class SessionRederived:
    """What deriving a session again changed."""

    summary_changed: bool
    tags_changed: bool
    tags_dropped: frozenset[str]
    topics_removed: int  # left with no message
    topics_changed: tuple[int, ...]  # their keywords changed


def session_rederive(
    *, session: ChatSession, retitle: bool = False, redact: Callable[[str], str] | None = None
) -> SessionRederived:
    """Derive again what a session's messages gave it, from the messages it has now (after
    some were deleted or redacted): the title (made anew with `retitle`, else passed through
    `redact`), the compacted state (dropped: it is rebuilt from the turns), an ended
    session's tags, summary (through `redact`: a model may word a forgotten fact anew) and
    vector, its messages' search vectors (they mix in the neighbours'; the embedding task
    makes them again) and its topics (`topics.session_topics_rederive`). The tags' weights
    are the caller's (`tag_weights_forget_unused` with `tags_dropped`)."""
    session.refresh_from_db()
    remaining = list(session.messages.filter(searchable=True).order_by("created_at", "id"))
    fields = ["state"]
    session.state = {}
    title = session.title
    if retitle or (redact is not None and redact(title) != title):
        # A title that carried what went is made again from what is left, as a new one
        # would be: never "[removed]" or what is left around it.
        title = title_from_messages(m.content for m in remaining)
    if title != session.title:
        session.title = title
        fields.append("title")
    tags_before, summary_before = list(session.tags), session.summary
    if session.status == ChatSession.Status.ENDED:
        summarised = _summarised(remaining)
        if summarised:
            result = extract_tags_and_summary(session, summarised)
            session.tags = result.tags
            summary = redact(result.summary) if redact is not None else result.summary
            # A model may word a forgotten fact anew: its sentence goes, never a marker.
            session.summary = summary_without_markers(summary)
        else:
            session.tags, session.summary = [], ""
        session.summary_stamp = injection_stamp.stamp(session.summary) if session.summary else ""
        session.embedding = (
            embeddings.embed_passages([session.summary])[0] if session.summary else None
        )
        fields += ["tags", "summary", "summary_stamp", "embedding"]
    session.save(update_fields=fields)
    session.messages.update(context_embedding=None)
    topics_removed, topics_changed = topics.session_topics_rederive(session=session)
    # The cached state and recent summaries held the old text.
    user_id, session_id = session.user_id, session.pk
    transaction.on_commit(lambda: shortterm.user_forget(user_id=user_id, session_ids=[session_id]))
    return SessionRederived(
        summary_changed=session.summary != summary_before,
        tags_changed=list(session.tags) != tags_before,
        tags_dropped=frozenset(tags_before) - frozenset(session.tags),
        topics_removed=topics_removed,
        topics_changed=tuple(topics_changed),
    )


# --- recall at session start ---------------------------------------------------------------


def _time_referenced_sessions(
    user_id: int, content: str, now: datetime, exclude: int
) -> list[ChatSession]:
    ended = ChatSession.objects.filter(user_id=user_id, status=ChatSession.Status.ENDED).exclude(
        pk=exclude
    )
    today = timezone.localdate(now)
    if _YESTERDAY.search(content):
        day = today - timedelta(days=1)
        found = list(ended.filter(last_message_at__date=day).order_by("-last_message_at"))
        if found:
            return found
    if _LAST_WEEK.search(content):
        start = today - timedelta(days=today.weekday() + 7)
        found = list(
            ended.filter(
                last_message_at__date__gte=start,
                last_message_at__date__lt=start + timedelta(days=7),
            ).order_by("-last_message_at")
        )
        if found:
            return found
    if _YESTERDAY.search(content) or _LAST_WEEK.search(content) or _EARLIER.search(content):
        return list(ended.order_by("-last_message_at", "-id")[:1])
    return []


def _pick_tags_llm(candidates: list[str], content: str, user_id: int) -> list[str] | None:
    try:
        answer = llm.get_provider().complete(
            task="recall_tags",
            prompt=PICK_PROMPT.format(tags=", ".join(candidates), message=content[:500]),
            max_tokens=60,
            user_id=user_id,
        )
    except llm.LLMError:
        return None
    said = {tag_form(w.strip()) for w in re.split(r"[,\n]", answer) if w.strip()}
    return [tag for tag in candidates if tag in said]


def _pick_tags_offline(
    candidates: list[str], content: str, vector: np.ndarray | None, user_id: int, exclude: int
) -> list[str]:
    terms = {text_analysis.normalise(t) for t in text_analysis.terms(content)}
    picked = [tag for tag in candidates if text_analysis.normalise(tag) in terms]
    if vector is not None:
        floor = recall_floor(vector, content)
        close = (
            ChatSession.objects.filter(
                user_id=user_id, tags__overlap=candidates, embedding__isnull=False
            )
            .exclude(pk=exclude)
            .annotate(distance=CosineDistance("embedding", vector))
            .filter(distance__lte=1 - floor)
            .only("id", "tags")
            .order_by("distance")[:3]
        )
        for session in close:
            picked += [t for t in session.tags if t in candidates]
    return list(dict.fromkeys(picked))


def session_recall(
    *,
    user_id: int,
    content: str,
    vector: np.ndarray | None,
    at: datetime,
    exclude_session_id: int | None,
    token_budget: int,
    boost: bool = True,
) -> list[SessionRecall]:
    """Summaries of past sessions relevant to a session's first message, newest first.

    The top tags by effective weight are matched against the message (Claude picks them,
    offline keywords and vectors do), a reference to time ("어제", "last time") picks the
    latest sessions, and each picked tag gains +0.5 (`boost`; off for read-only previews).
    """
    if token_budget <= 0:
        return []
    exclude = exclude_session_id or 0
    ranked = tag_weights_effective(user_id=user_id, now=at, limit=TOP_TAGS)
    candidates = [tag for tag, _weight, _updated in ranked]
    picked: list[str] = []
    if candidates:
        provider = llm.get_provider()
        chosen = None if provider.offline else _pick_tags_llm(candidates, content, user_id)
        if chosen is None:
            chosen = _pick_tags_offline(candidates, content, vector, user_id, exclude)
        picked = chosen
    by_time = _time_referenced_sessions(user_id, content, at, exclude)
    found: dict[int, dict[str, object]] = {}
    for row in shortterm.recent_summaries(user_id=user_id):
        if row["session_id"] != exclude and set(row["tags"]) & set(picked):
            found[int(row["session_id"])] = row
    if picked and len(found) < settings.MEMORYHUB_RECALL_SESSIONS:
        older = (
            ChatSession.objects.filter(
                user_id=user_id, status=ChatSession.Status.ENDED, tags__overlap=picked
            )
            .exclude(pk=exclude)
            .exclude(summary="")
            .only("id", "summary", "summary_stamp", "tags", "started_at")
            .order_by("-started_at")[: settings.MEMORYHUB_RECALL_SESSIONS]
        )
        for s in older:
            found.setdefault(s.pk, _row(s))
    for s in by_time:
        found.setdefault(s.pk, _row(s))
        picked += [t for t in s.tags if t not in picked]
    ordered = sorted(found.values(), key=lambda r: str(r["started_at"]), reverse=True)
    recalled: list[SessionRecall] = []
    left = token_budget
    for row in ordered[: settings.MEMORYHUB_RECALL_SESSIONS]:
        cost = text_analysis.estimate_tokens(str(row["summary"]))
        if cost > left:
            continue
        left -= cost
        tags = row["tags"]
        recalled.append(
            SessionRecall(
                session_id=str(row["session_id"]),
                summary=str(row["summary"]),
                tags=[str(t) for t in tags] if isinstance(tags, list) else [],
                started_at=str(row["started_at"]),
                stamp=str(row.get("stamp", "")),
            )
        )
    if picked and boost:  # the seed: a tag mentioned again gains +0.5 and lives on
        tag_weights_add(user_id=user_id, tags=picked, amount=RECALL_TAG_BOOST, at=at)
    return recalled


def _row(session: ChatSession) -> dict[str, object]:
    return {
        "session_id": session.pk,
        "summary": session.summary,
        "stamp": session.summary_stamp,
        "tags": list(session.tags),
        "started_at": session.started_at.isoformat(),
    }
