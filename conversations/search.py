"""Hybrid memory search over one user's messages, topics and sessions (seed 000 Algorithm 3).

Three retrievers, each per user:
- keyword match score: for the query's terms, how many (IDF-weighted, BM25-normalised) each
  message matches, plus half of what its exchange partner matches (the seed counts matches
  across the user message, the reply and the inner monologue of an exchange);
- topic tags: messages of topics whose keywords match ("App Router 설정 완료" is found by
  "마이그레이션" through its topic);
- vectors: cosine with each message's neighbour-mixed search vector (pgvector).
The keyword and vector scores are combined convexly, the topic ranking by reciprocal rank
(see VECTOR_SHARE below); time decay scales the result.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connections, transaction

from conversations.logic import fusion, intent
from conversations.models import ChatSession, Message, Topic
from memories.selectors.retrieval import RetrievedMemory, memory_retrieve
from memoryhub import embeddings
from memoryhub import text as text_analysis
from memoryhub.db_router import read_alias

KINDS = ("message", "topic", "session", "memory")
CANDIDATES = 200
# Fusion (bench_locomo --halves; docs/benchmarks.md has the sweeps): the keyword and vector
# scores are combined convexly (fusion.convex_fusion), the vector side's share depending on
# the query's script: e5's Korean vectors find paraphrases the keyword index cannot (ko_dev
# vector-only 0.856 against keyword-only 0.644 at recall@10), its English vectors lose to
# names and exact words (LoCoMo 0.536 against 0.685). Each share was chosen on the even half
# of the people of its file (LoCoMo for "other", ko_dev for "hangul") and checked on the odd
# half. The topic ranking adds its reciprocal-rank share (topic weight / (FUSION_K + rank));
# then each hit's neighbouring turns receive NEIGHBOUR_SHARE of its score (the answer is
# often the turn next to the one that matches), and a hit gains when its session holds many
# hits.
VECTOR_SHARE = {"hangul": 0.6, "other": 0.2}
TOPIC_WEIGHT = 0.3
FUSION_K = 10
# NEIGHBOUR_SHARE and SESSION_BOOST were 0.2 and 0.3 before BM25_B and COMMON_TERM_SHARE
# below; re-chosen with them on LoCoMo's even half (docs/benchmarks.md, issue 18 line 3).
NEIGHBOUR_SHARE = 0.3
SESSION_BOOST = 0.5
# Age decay per day, relative to the user's newest message (so imported history is not
# penalised for being old as a whole). Seed 002 uses 0.01 for memories; messages are records
# of what was said, and any stronger decay loses old facts: recall@10 on LoCoMo falls from
# 0.716 (none) to 0.709 (0.001), 0.666 (0.003) and 0.470 (0.01).
MESSAGE_DECAY_PER_DAY = 0.0005
EXCHANGE_PARTNER_SHARE = 0.5
# BM25's length normalisation, weak (the usual 0.75 halves a long turn's weight): a message is
# one turn, and a long turn is long because it tells more, not because it repeats a word
# (tokens are distinct per row); the answer to a question is often the long turn.
BM25_B = 0.1
# A term held by more than this share of the user's searchable messages (a speaker's name, the
# current year, "하다") is left out of the keyword query: its low IDF still lets it rank every
# message holding it above the ones holding none, so a message matching only it can take a
# place in the fusion, and it dilutes the query's IDF mass. The vectors still see it.
COMMON_TERM_SHARE = 0.3
# ... and by more than this many: in a short history a share is chance (a word in 2 of 8
# messages is a quarter of them).
COMMON_TERM_MIN_MESSAGES = 10
_STATS_TTL = 600


@dataclass(frozen=True)
class Hit:
    kind: str
    id: str
    score: float
    text: str
    session_id: str | None
    created_at: str | None
    external_id: str | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "score": round(self.score, 6),
            "text": self.text,
            "session_id": self.session_id,
            "created_at": self.created_at,
            "external_id": self.external_id,
        }


# One row per message of the user holding any of the query's terms:
# (id, the message it replies to or 0, how many terms it has, which query terms it holds).
Match = tuple[int, int, int, list[str]]


@dataclass
class Query:
    text: str
    terms: list[str]
    vector: np.ndarray | None
    idf: dict[str, float] = field(default_factory=dict)
    # Read once by analyse(): the IDF counts and the match score come from the same rows.
    matches: list[Match] | None = None
    # Terms too common to weigh in the keyword score (COMMON_TERM_SHARE); a subset of `idf`.
    common: frozenset[str] = frozenset()

    def keyword_idf(self) -> dict[str, float]:
        """The IDF of each term the keyword score weighs: found, and not too common."""
        return {t: weight for t, weight in self.idf.items() if t not in self.common}

    def keyword_mass(self, unseen: float) -> float:
        """The sum of the IDF of the terms the keyword score may weigh, a term no message
        holds counted at `unseen` (the IDF of an unseen term)."""
        return sum(self.idf.get(t, unseen) for t in self.terms if t not in self.common)


def _vector_literal(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector.tolist()) + "]"


def user_stats(user_id: int) -> tuple[int, float]:
    """(searchable messages, mean terms per message) for BM25; cached a few minutes."""
    key = f"search-stats:{user_id}"
    cached = cache.get(key)
    if cached is not None:
        return int(cached[0]), float(cached[1])
    with connections[read_alias()].cursor() as cursor:
        cursor.execute(
            "SELECT count(*), coalesce(avg(cardinality(keywords)), 0) FROM conversations_message "
            "WHERE user_id = %s AND searchable",
            [user_id],
        )
        count, average = cursor.fetchone()
    cache.set(key, (count, float(average)), timeout=_STATS_TTL)
    return int(count), float(average)


def _matches(user_id: int, terms: Sequence[str]) -> list[Match]:
    distinct = list(dict.fromkeys(terms))  # a repeated term counts once
    with connections[read_alias()].cursor() as cursor:
        cursor.execute(
            # The query's terms the row holds, in the query's order: a row's weights are then
            # summed in one order whatever the row. (INTERSECT listed them in its hash order
            # and cost a third more: a hashed set per row, 28.3 -> 18.4 ms per query at 1M.)
            "SELECT id, coalesce(reply_to_id, 0), cardinality(keywords), "
            "ARRAY(SELECT t FROM unnest(%s::text[]) AS t WHERE t = ANY(keywords)) "
            "FROM conversations_message WHERE user_id = %s AND searchable "
            "AND keywords && %s::varchar[]",
            [distinct, user_id, distinct],
        )
        return cursor.fetchall()


def _document_counts(matches: Sequence[Match]) -> Counter[str]:
    """How many of the user's messages hold each query term (keywords are distinct per row)."""
    return Counter(t for _id, _reply_to, _length, matched in matches for t in matched)


def keyword_scores(user_id: int, query: Query, average_terms: float) -> list[tuple[int, float]]:
    """(message id, Algorithm 3's match score: IDF-weighted, exchange-aware), best first; a
    message holding only common terms (`Query.common`) has none."""
    weights = query.keyword_idf()
    if not weights:
        return []
    rows = query.matches if query.matches is not None else _matches(user_id, list(weights))
    own: dict[int, float] = {}
    partner_of: dict[int, int] = {}
    for message_id, reply_to, length, matched in rows:
        weighed = [t for t in matched if t in weights]
        if not weighed:
            continue
        own[message_id] = sum(
            fusion.bm25_weight(weights[t], length, average_terms, b=BM25_B) for t in weighed
        )
        if reply_to:
            partner_of[message_id] = reply_to
            partner_of.setdefault(reply_to, message_id)
    scored = {
        mid: score + EXCHANGE_PARTNER_SHARE * own.get(partner_of.get(mid, 0), 0.0)
        for mid, score in own.items()
    }
    best = sorted(scored, key=lambda mid: (-scored[mid], -mid))[:CANDIDATES]
    return [(mid, scored[mid]) for mid in best]


def keyword_ranking(user_id: int, query: Query, average_terms: float) -> list[int]:
    """Message ids by Algorithm 3's match score (IDF-weighted, exchange-aware)."""
    return [mid for mid, _score in keyword_scores(user_id, query, average_terms)]


def topic_ranking(user_id: int, query: Query) -> list[int]:
    """Message ids of topics whose keywords match, best topics first (Algorithm 3, step 2)."""
    if not query.idf:
        return []
    terms = list(query.idf)
    topics = list(
        Topic.objects.filter(user_id=user_id, terms__overlap=terms)
        .values_list("pk", "terms")
        .order_by("-started_at")[:200]
    )
    scored = sorted(
        ((sum(query.idf[t] for t in set(tt) & set(terms)), pk) for pk, tt in topics), reverse=True
    )[:10]
    order = {pk: rank for rank, (_score, pk) in enumerate(scored)}
    rows = Message.objects.filter(
        user_id=user_id, topic_id__in=list(order), searchable=True
    ).values_list("pk", "topic_id", "created_at")
    ranked = [pk for pk, _t, _c in sorted(rows, key=lambda r: (order[r[1]], r[2], r[0]))]
    return ranked[:CANDIDATES]


# Per-user vector search: up to this many messages an exact scan of the user's half-precision
# vectors from the covering index; above it the HNSW index with iterative scan (pgvector
# 0.8), backed by the exact scan when the filtered index scan returns fewer than k rows.
# Chosen with `bench_latency` at 1M messages on 2 cores (docs/benchmarks.md): the filtered
# HNSW scan costs 45-70 ms p50 for users of 19k-50k rows, finds 0.44-0.78 of the exact top
# 200, and for a user holding under ~3% of all rows often returns fewer than 200, so it pays
# for both scans; the exact scan wins at every size measured (up to 50k, 15 ms there).
EXACT_SCAN_MAX = 50000


# Each row with its cosine distance, computed once per row (the sort key is the output
# column); the fusion weighs the cosine (1 - distance).
_NEAREST = (
    "SELECT id, context_embedding <=> %s::vector AS distance FROM conversations_message "
    "WHERE user_id = %s AND searchable AND context_embedding IS NOT NULL "
    "ORDER BY distance LIMIT %s"
)
# The exact scan reads the half-precision copy of the search vector from the covering index
# `message_user_half_cover` (an index-only scan of the user's entries, which lie together)
# instead of visiting each of the user's rows, spread over the table: 50k rows at 1M messages
# 33.5 -> 14.6 ms p50, the same top 10 for 99.5% and top 200 for 99.9% of the full-precision
# ranking (docs/benchmarks.md). No HNSW index is built on it, so nothing else can serve the
# order.
_NEAREST_EXACT = (
    "SELECT id, context_half <=> %s::halfvec AS distance FROM conversations_message "
    "WHERE user_id = %s AND searchable AND context_half IS NOT NULL "
    "ORDER BY distance LIMIT %s"
)

Scored = list[tuple[int, float]]


def nearest_exact_scored(user_id: int, vector: str, limit: int) -> Scored:
    """The user's `limit` nearest messages and their cosines by an exact scan of their
    half-precision vectors.

    One process, no parallel workers: on a 2-core server the workers compete with every other
    request for the cores, and the scan of a 50,000-message user took 29.6 ms with two
    workers against 18.3 ms alone (1M messages, EXPLAIN ANALYZE, load average ~1.5)."""
    alias = read_alias()
    with transaction.atomic(using=alias), connections[alias].cursor() as cursor:
        cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
        cursor.execute(_NEAREST_EXACT, [vector, user_id, limit])
        return [(row[0], 1.0 - float(row[1])) for row in cursor.fetchall()]


def nearest_hnsw_scored(user_id: int, vector: str, limit: int) -> Scored:
    """The user's nearest messages and their cosines through the HNSW index; may return
    fewer than `limit`."""
    alias = read_alias()
    with transaction.atomic(using=alias), connections[alias].cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cursor.execute("SET LOCAL hnsw.ef_search = 100")
        cursor.execute(_NEAREST, [vector, user_id, limit])
        return [(row[0], 1.0 - float(row[1])) for row in cursor.fetchall()]


def nearest_exact(user_id: int, vector: str, limit: int) -> list[int]:
    """The user's `limit` nearest messages by an exact scan of their half-precision vectors."""
    return [mid for mid, _cosine in nearest_exact_scored(user_id, vector, limit)]


def nearest_hnsw(user_id: int, vector: str, limit: int) -> list[int]:
    """The user's nearest messages through the HNSW index; may return fewer than `limit`."""
    return [mid for mid, _cosine in nearest_hnsw_scored(user_id, vector, limit)]


def vector_scores(user_id: int, query: Query, count: int, limit: int = CANDIDATES) -> Scored:
    """(message id, cosine to the query), best first; never fewer than `limit` rows when the
    user has them."""
    if query.vector is None:
        return []
    vector = _vector_literal(query.vector)
    if count <= EXACT_SCAN_MAX:
        return nearest_exact_scored(user_id, vector, limit)
    found = nearest_hnsw_scored(user_id, vector, limit)
    if len(found) < min(limit, count):  # the filtered index scan ran out: be exact
        found = nearest_exact_scored(user_id, vector, limit)
    return found


def vector_ranking(user_id: int, query: Query, count: int, limit: int = CANDIDATES) -> list[int]:
    """Message ids by cosine to the query; never fewer than `limit` when the user has them."""
    return [mid for mid, _cosine in vector_scores(user_id, query, count, limit)]


def analyse(
    user_id: int,
    text: str,
    documents: int,
    *,
    embed: bool = True,
    vector: embeddings.Vector | None = None,
) -> Query:
    """The query's terms, their matching rows and IDF, and (if `embed`) its vector: `vector`
    when the caller has embedded `text` as a query already (`embeddings.embed_query`)."""
    terms = text_analysis.index_tokens(text)
    if not embed or not text.strip():
        vector = None
    elif vector is None:
        vector = embeddings.embed_query(text)
    query = Query(text=text, terms=terms, vector=vector)
    if terms:
        query.matches = _matches(user_id, terms)
        counts = _document_counts(query.matches)
        query.idf = {t: fusion.idf(documents, counts[t]) for t in terms if counts[t]}
        query.common = frozenset(
            t
            for t in query.idf
            if counts[t] > max(COMMON_TERM_SHARE * documents, COMMON_TERM_MIN_MESSAGES)
        )
    return query


def _newest(user_id: int) -> datetime | None:
    return (
        Message.objects.filter(user_id=user_id)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )


@dataclass(frozen=True)
class Retrieved:
    """What each retriever found for one query, before fusion (`retrieve`)."""

    keyword: Scored
    topic: list[int]
    vector: Scored
    # The query's IDF mass: the sum of its terms' IDF, a term no message holds counted at the
    # IDF of an unseen term; a keyword score divided by it says how much of the query a
    # message matches (fusion.convex_fusion).
    keyword_mass: float


def retrieve(
    *,
    user_id: int,
    query_text: str,
    modes: Sequence[str],
    query_vector: embeddings.Vector | None = None,
) -> Retrieved | None:
    """Each retriever's candidates for the query (None when the user has no messages);
    `query_vector`: the query's embedding when the caller has it (a long message is costly
    to embed twice)."""
    documents, average_terms = user_stats(user_id)
    if documents == 0:
        return None
    query = analyse(user_id, query_text, documents, embed="vector" in modes, vector=query_vector)
    unseen = fusion.idf(documents, 0)
    return Retrieved(
        keyword=keyword_scores(user_id, query, average_terms) if "keyword" in modes else [],
        topic=topic_ranking(user_id, query) if "topic" in modes else [],
        vector=vector_scores(user_id, query, documents) if "vector" in modes else [],
        keyword_mass=query.keyword_mass(unseen),
    )


def query_vector_share(text: str) -> float:
    """The vector side's share in the fusion for this query (VECTOR_SHARE, by script)."""
    return fusion.vector_share(text, **VECTOR_SHARE)


def fused_scores(retrieved: Retrieved, *, vector_share: float) -> dict[int, float]:
    """One score per candidate: the convex combination of the keyword and vector scores
    (fusion.convex_fusion) plus the topic ranking's reciprocal-rank share."""
    fused = fusion.convex_fusion(
        retrieved.keyword,
        retrieved.vector,
        keyword_mass=retrieved.keyword_mass,
        vector_share=vector_share,
    )
    by_topic = fusion.reciprocal_rank_fusion(
        {"topic": retrieved.topic}, {"topic": TOPIC_WEIGHT}, k=FUSION_K
    )
    for mid, score in by_topic.items():
        fused[mid] = fused.get(mid, 0.0) + score
    return fused


def message_hits(
    *,
    user_id: int,
    query_text: str,
    k: int,
    modes: Sequence[str] = ("keyword", "topic", "vector"),
    vector_share: float | None = None,
    decay_per_day: float = MESSAGE_DECAY_PER_DAY,
    retrieved: Retrieved | None = None,
    query_vector: embeddings.Vector | None = None,
) -> list[Hit]:
    """The user's best k messages for the query, fused across `modes`. `vector_share`
    replaces the query's own (`query_vector_share`); `retrieved` (from `retrieve` with the
    same user, query and modes) skips the retrieval, so a benchmark can weigh one retrieval
    several ways; `query_vector` is the query's embedding when the caller has it."""
    if retrieved is None:
        retrieved = retrieve(
            user_id=user_id, query_text=query_text, modes=modes, query_vector=query_vector
        )
    if retrieved is None:
        return []
    if vector_share is None:
        vector_share = query_vector_share(query_text)
    fused = fused_scores(retrieved, vector_share=vector_share)
    if not fused:
        return []
    layout = _neighbourhood(user_id, list(fused))
    fused = fusion.spread_to_neighbours(fused, layout.neighbours, NEIGHBOUR_SHARE)
    fused = fusion.boost_by_group(fused, layout.session_of, SESSION_BOOST)
    candidates = sorted(fused, key=lambda mid: -fused[mid])[: max(k * 4, 40)]
    rows = {
        m.pk: m
        for m in Message.objects.filter(pk__in=candidates, user_id=user_id).only(
            "id", "content", "session_id", "created_at", "external_id"
        )
    }
    newest = _newest(user_id)
    scored = []
    for mid in candidates:
        message = rows.get(mid)
        if message is None:
            continue
        age = (newest - message.created_at).total_seconds() / 86400 if newest else 0.0
        scored.append((fused[mid] * fusion.time_decay(age, decay_per_day), message))
    scored.sort(key=lambda pair: (-pair[0], -pair[1].pk))
    return [
        Hit(
            "message",
            str(m.pk),
            score,
            m.content,
            str(m.session_id),
            m.created_at.isoformat(),
            m.external_id,
        )
        for score, m in scored[:k]
    ]


@dataclass
class _Layout:
    neighbours: dict[int, list[int]]
    session_of: dict[int, int]


def _neighbourhood(user_id: int, ids: list[int]) -> _Layout:
    """Each message's previous and next searchable message in its session, and its session.

    The sessions' searchable messages come in order from the covering index
    `message_session_order_cover` (an index-only scan); the rows asked for are picked out
    here: `WHERE id = ANY(<400 ids>)` over the ~10,000 rows of their sessions compared each
    row with every id (22 of 41 ms at 1M messages)."""
    wanted = set(ids)
    with connections[read_alias()].cursor() as cursor:
        cursor.execute(
            "SELECT id, session_id, lag(id) OVER w AS prev_id, lead(id) OVER w AS next_id"
            " FROM conversations_message WHERE user_id = %s AND searchable AND session_id IN"
            " (SELECT DISTINCT session_id FROM conversations_message"
            "  WHERE user_id = %s AND id = ANY(%s))"
            " WINDOW w AS (PARTITION BY session_id ORDER BY created_at, id)",
            [user_id, user_id, ids],
        )
        rows = [row for row in cursor.fetchall() if row[0] in wanted]
    return _Layout(
        neighbours={mid: [n for n in (prev, nxt) if n] for mid, _s, prev, nxt in rows},
        session_of={mid: session for mid, session, _p, _n in rows},
    )


def topic_hits(*, user_id: int, query_text: str, k: int) -> list[Hit]:
    terms = text_analysis.index_tokens(query_text)
    if not terms:
        return []
    topics = (
        Topic.objects.filter(user_id=user_id, terms__overlap=terms)
        .order_by("-started_at")
        .prefetch_related("messages")[:50]
    )
    scored = sorted(
        ((len(set(t.terms) & set(terms)), t) for t in topics), key=lambda p: (-p[0], -p[1].pk)
    )
    hits = []
    for score, topic in scored[:k]:
        first = next((m.content for m in topic.messages.all() if m.searchable), "")
        hits.append(
            Hit(
                "topic",
                str(topic.pk),
                float(score),
                f"[{', '.join(topic.keywords)}] {first[:300]}",
                str(topic.session_id),
                topic.started_at.isoformat(),
                None,
            )
        )
    return hits


def session_hits(*, user_id: int, query_text: str, k: int) -> list[Hit]:
    terms = {text_analysis.normalise(t) for t in text_analysis.terms(query_text)}
    sessions = ChatSession.objects.filter(user_id=user_id).exclude(summary="")
    if terms:
        sessions = sessions.filter(tags__overlap=list(terms))
    scored = sorted(
        ((len(set(s.tags) & terms), s) for s in sessions.order_by("-started_at")[:100]),
        key=lambda p: (-p[0], -p[1].started_at.timestamp()),
    )
    return [
        Hit(
            "session", str(s.pk), float(score), s.summary, str(s.pk), s.started_at.isoformat(), None
        )
        for score, s in scored[:k]
    ]


def search(
    *, user_id: int, query: str, reader: str, k: int = 10, kinds: Sequence[str] = KINDS
) -> tuple[list[Hit], int]:
    """Hits of every requested kind, best first, and the time taken in ms. Memories are only
    those `reader` may see (`Memory.allowed_readers`). A question about the present value of
    a slot ("지금 어디 살아?") is led by the memories holding that value (their current
    version), before any message that said an older one."""
    started = time.monotonic()
    hits: list[Hit] = []
    if "message" in kinds:
        hits += message_hits(user_id=user_id, query_text=query, k=k)
    if "topic" in kinds:
        hits += topic_hits(user_id=user_id, query_text=query, k=k)
    if "session" in kinds:
        hits += session_hits(user_id=user_id, query_text=query, k=k)
    answering: list[Hit] = []
    # A memory and the message it was taken from say one thing: the memory (the governed,
    # current wording) stands for both, in the better of their two places.
    stands_for: dict[str, list[Hit]] = {}
    if "memory" in kinds:
        asked = intent.classify(query)
        remembered = memories_retrieved(
            user_id=user_id, query_text=query, k=k, reader=reader, asked=asked
        )
        for memory in remembered:
            hit = memory_hit(memory)
            if answers_current_value(asked, memory):
                answering.append(hit)
            else:
                hits.append(hit)
            if memory.source_message_id:
                stands_for.setdefault(str(memory.source_message_id), []).append(hit)
    # Kinds score on different scales: interleave by rank within each kind, memories first
    # (so a message repeating a memory's words is the one `without_repeats` drops).
    by_kind: dict[str, list[Hit]] = {}
    for hit in hits:
        by_kind.setdefault(hit.kind, []).append(hit)
    interleaved: list[Hit] = list(answering)
    for rank in range(k):
        for kind in _MERGE_ORDER:
            if rank < len(by_kind.get(kind, [])):
                interleaved.append(by_kind[kind][rank])
    merged = with_memories_in_place(interleaved, stands_for)
    return without_repeats(merged)[:k], int((time.monotonic() - started) * 1000)


def with_memories_in_place(hits: Sequence[Hit], stands_for: dict[str, list[Hit]]) -> list[Hit]:
    """`hits` with each message that a listed memory was taken from (`stands_for`: message
    id -> the memory hits taken from it, best first) replaced by that memory, where the
    message ranks above it; the memory is listed once, in the better of the two places."""
    merged: list[Hit] = []
    placed: set[str] = set()
    for hit in hits:
        stand_in: Hit | None = hit
        if hit.kind == "message" and hit.id in stands_for:
            stand_in = next((m for m in stands_for[hit.id] if m.id not in placed), None)
        if stand_in is None or (stand_in.kind == "memory" and stand_in.id in placed):
            continue
        if stand_in.kind == "memory":
            placed.add(stand_in.id)
        merged.append(stand_in)
    return merged


_MERGE_ORDER = ("memory", "message", "topic", "session")


def without_repeats(hits: Sequence[Hit]) -> list[Hit]:
    """`hits` without those whose text repeats a better one's: a reply quoting a message, a
    topic opened by a message already listed, a summary that is one message."""
    kept: list[Hit] = []
    seen: list[str] = []
    for hit in hits:
        text = hit.text
        if hit.kind == "topic" and text.startswith("[") and "] " in text:
            text = text.split("] ", 1)[1]  # topic hits lead with their keywords
        folded = fusion.comparable_text(text)
        if folded and fusion.repeats(folded, seen):
            continue
        seen.append(folded)
        kept.append(hit)
    return kept


def memories_retrieved(
    *, user_id: int, query_text: str, k: int, reader: str, asked: intent.Intent | None = None
) -> list[RetrievedMemory]:
    """The user's active memories `reader` may see, best first by the memories app's
    retrieval (relevance x time decay x importance x confidence); none for an unrelated
    query. Only `k` bounds the result: search has no prompt budget. For a question about
    the present value of a slot (`asked`), the memories filling it count as fully relevant."""
    user = get_user_model().objects.filter(pk=user_id).only("pk").first()
    if user is None or k <= 0:
        return []
    slots = asked.answer_slots() if asked is not None and asked.asks_current_value() else ()
    return memory_retrieve(
        user=user,
        query=query_text,
        reader=reader,
        limit=k,
        token_budget=MEMORY_HIT_BUDGET,
        slots=slots,
    )


def answers_current_value(asked: intent.Intent, memory: RetrievedMemory) -> bool:
    """Whether `memory` (its current version) holds the value a question about the present
    value of a slot asks for."""
    return asked.asks_current_value() and memory.slot in asked.answer_slots()


# Far above what k <= 100 memories hold: the count, not a token budget, bounds search.
MEMORY_HIT_BUDGET = 10**9


def memory_hit(memory: RetrievedMemory) -> Hit:
    """A memory as a search hit: its session is the one it was taken from, if any."""
    session = memory.source_session_id
    return Hit(
        kind="memory",
        id=memory.memory_id,
        score=memory.score,
        text=memory.content,
        session_id=str(session) if session else None,
        created_at=memory.observed_at.isoformat(),
        external_id=None,
    )
