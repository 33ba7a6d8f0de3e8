"""Long-term memory retrieval in seed 003's order.

1. scope and `allowed_readers` filter;  2. only active, in effect and not expired;
3. relevance: keyword match fused with vector similarity (per user, exact), or a type-aware
   trigger; x time decay x importance x confidence (seed 002);
4. conflict resolution: a user statement over an inference, then the newer; conflicts flagged;
5. at most `limit`, within the token budget. A question unrelated to every memory gets none.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import numpy as np
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connections
from django.db.models import BooleanField, Case, F, Q, QuerySet, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone
from pgvector.django import CosineDistance

from memories.logic import scoring
from memories.models import (
    DEFAULT_SCOPE,
    CreatedBy,
    MemoryConflict,
    MemoryStatus,
    MemoryVersion,
    Sensitivity,
)
from memoryhub import embeddings
from memoryhub import text as text_analysis
from memoryhub.db_router import read_alias
from memoryhub.embeddings import Vector


@dataclass(frozen=True)
class RetrievedMemory:
    """One memory chosen for a prompt; `as_context_item()` is docs/API.md's context entry."""

    user_id: int
    memory_id: str
    version_id: str
    version: int
    type: str
    content: str
    score: float
    relevance: float
    rank: int
    created_by: str
    observed_at: datetime
    tokens: int
    conflict_with: tuple[str, ...] = ()
    expires_at: datetime | None = None
    source_message_id: int | None = None
    slot: str = ""
    source_session_id: int | None = None
    # The cosine of the query's embedding with this version's (0 when it has none).
    similarity: float = 0.0

    def as_context_item(self) -> dict[str, object]:
        return {
            "id": self.memory_id,
            "version": self.version,
            "type": self.type,
            "content": self.content,
            "score": round(self.score, 4),
        }


_anchors: Vector | None = None
_anchors_lock = threading.Lock()


def _anchor_matrix() -> Vector:
    global _anchors
    if _anchors is None:
        with _anchors_lock:
            if _anchors is None:
                _anchors = embeddings.embed_passages(list(scoring.ANCHOR_SENTENCES))
    return _anchors


def query_baseline(query_embedding: Vector) -> float:
    """The query's mean similarity to neutral sentences (see `scoring`)."""
    return float(np.mean(_anchor_matrix() @ np.asarray(query_embedding, dtype=np.float32)))


def readable_by(reader: str, *, field: str = "allowed_readers") -> Q:
    """Versions (through `field`, their `allowed_readers`) that `reader` may have put in
    front of it: those naming it or everyone (`*`)."""
    return Q(**{f"{field}__overlap": [reader, "*"]})


def live_versions(
    *,
    user: AbstractBaseUser,
    reader: str,
    scope: str | None,
    now: datetime,
    include_sensitive: bool = True,
) -> QuerySet[MemoryVersion]:
    """Current versions of the user's active memories this reader may see, in effect now
    (without `high` sensitivity ones unless `include_sensitive`)."""
    scopes = {DEFAULT_SCOPE, scope} if scope else {DEFAULT_SCOPE}
    versions = MemoryVersion.objects.all()
    if not include_sensitive:
        versions = versions.exclude(sensitivity=Sensitivity.HIGH)
    return (
        versions.filter(
            user_id=user.pk,
            memory__current_version=F("id"),
            memory__status=MemoryStatus.ACTIVE,
            scope__in=scopes,
            effective_from__lte=now,
        )
        .filter(readable_by(reader))
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
    )


def memory_retrieve(
    *,
    user: AbstractBaseUser,
    query: str,
    query_embedding: Vector | None = None,
    reader: str,
    limit: int = 5,
    token_budget: int | None = None,
    scope: str | None = None,
    types: Collection[str] = (),
    slots: Collection[str] = (),
    include_sensitive: bool = True,
) -> list[RetrievedMemory]:
    """The few memories worth putting in front of `reader` for `query`, best first.

    `reader` (a `Reader` value, or an agent's name once agents have their own) has no
    default: every caller says who will see the result, and no memory whose
    `allowed_readers` exclude it is ever read from the database. `types` and `slots` say
    what kind of memory answers the question (a caller that read the question's intent):
    memories of those types count as triggered, those filling those slots as fully relevant.
    `include_sensitive=False` leaves out memories of `high` sensitivity (a connected agent
    the user has not allowed to read them).
    """
    budget = settings.MEMORYHUB_MEMORY_TOKEN_BUDGET if token_budget is None else token_budget
    if limit <= 0 or budget <= 0 or not query.strip():
        return []
    now = timezone.now()
    vector = query_embedding if query_embedding is not None else embeddings.embed_query(query)
    band = scoring.VECTOR_BANDS[settings.MEMORYHUB_EMBEDDING_BACKEND]
    baseline = query_baseline(vector)
    query_tokens = text_analysis.index_tokens(query)
    triggered = scoring.triggered_types(query) | set(types)
    wanted_slots = set(slots)
    live = live_versions(
        user=user, reader=reader, scope=scope, now=now, include_sensitive=include_sensitive
    )
    rows = _candidates(
        live,
        vector=vector,
        baseline=baseline,
        band=band,
        tokens=query_tokens,
        types=triggered,
        slots=wanted_slots,
    )
    if not rows:
        return []
    conflicts = _live_conflicts(user_id=user.pk, memory_ids=[row["memory_id"] for row in rows])

    scored: list[scoring.Scored] = []
    relevance_of: dict[str, float] = {}
    similarity_of = {str(row["memory_id"]): float(row["similarity"]) for row in rows}
    for row in rows:
        relevance = scoring.fuse(
            scoring.vector_relevance(row["similarity"], baseline, band),
            scoring.keyword_relevance(query_tokens, row["tokens"]),
        )
        if row["type"] in triggered:
            relevance = max(relevance, scoring.TRIGGER_RELEVANCE)
        if row["slot"] and row["slot"] in wanted_slots:
            relevance = 1.0
        if relevance < scoring.RELEVANCE_FLOOR:
            continue
        touched = max(filter(None, (row["last_accessed_at"], row["created_at"])))
        score = scoring.final_score(
            relevance=relevance,
            decay=scoring.time_decay((now - touched).total_seconds() / 86400),
            importance=row["importance"],
            confidence=row["confidence"],
        )
        memory_id = str(row["memory_id"])
        relevance_of[memory_id] = relevance
        scored.append(
            scoring.Scored(
                memory_id=memory_id,
                slot=row["slot"],
                by_user=row["created_by"] == CreatedBy.USER,
                observed_at=row["observed_at"],
                version=row["version"],
                score=score,
                tokens=0,
                conflicts=frozenset(conflicts.get(row["memory_id"], ())),
            )
        )
    resolved = scoring.resolve_conflicts(scored)
    return _materialise(
        resolved,
        relevance_of,
        similarity_of,
        limit=limit,
        budget=budget,
        user_id=user.pk,
    )


# At most this many versions are scored in Python per query. Everything that can reach the
# relevance floor is a candidate (similar enough by meaning, sharing a keyword, or of a
# triggered type); when more qualify, the best by a proxy of the final score are kept.
# Scoring all of a user's 5,000 memories in Python cost ~250 ms per query (bench_latency).
CANDIDATES = 200
_FIELDS = (
    "id",
    "memory_id",
    "slot",
    "type",
    "tokens",
    "importance",
    "confidence",
    "created_by",
    "observed_at",
    "created_at",
    "version",
)


def _candidates(
    live: QuerySet[MemoryVersion],
    *,
    vector: Vector,
    baseline: float,
    band: scoring.VectorBand,
    tokens: list[str],
    types: set[str],
    slots: set[str],
) -> list[dict[str, Any]]:
    """The live versions that may be relevant to the query, with their cosine similarity.

    The cosine is computed once per live version of the user (an exact scan, never the HNSW
    index, whose filtered scan may return fewer rows than exist; MATERIALIZED keeps PostgreSQL
    from computing it again for the filter and the order). Candidates are ordered by a proxy
    of the final score: vector relevance (1 for a keyword or trigger hit) x importance x
    confidence.
    """
    hit = Q(tokens__overlap=tokens) if tokens else Q(pk__in=[])
    if types:
        hit |= Q(type__in=types)
    if slots:
        hit |= Q(slot__in=slots)
    scored = (
        live.annotate(
            similarity=Coalesce(1.0 - CosineDistance("embedding", vector), Value(0.0)),
            hit=Case(
                When(hit, then=Value(True)), default=Value(False), output_field=BooleanField()
            ),
            last_accessed_at=F("memory__last_accessed_at"),
        )
        .order_by()
        .values(*_FIELDS, "similarity", "hit", "last_accessed_at")
    )
    inner, params = scored.query.sql_with_params()
    floor = baseline + band.low
    with connections[read_alias()].cursor() as cursor:
        cursor.execute(
            f"WITH live AS MATERIALIZED ({inner}) SELECT * FROM live "
            "WHERE similarity > %s OR hit ORDER BY GREATEST(LEAST((similarity - %s) / %s, 1.0), "
            "CASE WHEN hit THEN 1.0 ELSE 0.0 END) * importance * confidence DESC, id DESC "
            "LIMIT %s",
            [*params, floor, floor, band.high - band.low, CANDIDATES],
        )
        names = [column.name for column in cursor.description or ()]
        rows = [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]
    # Versions filling the same slot as a candidate are compared with it (the newer user
    # statement wins), so they are scored too even when the cap left them out.
    slots = {row["slot"] for row in rows if row["slot"]}
    seen = {row["id"] for row in rows}
    if slots:
        rows.extend(row for row in scored.filter(slot__in=slots) if row["id"] not in seen)
    return rows


def _live_conflicts(*, user_id: int, memory_ids: list[int]) -> dict[int, list[str]]:
    through = MemoryConflict.objects.filter(
        user_id=user_id,
        from_memory_id__in=memory_ids,
        to_memory__user_id=user_id,
        to_memory__status__in=(MemoryStatus.ACTIVE, MemoryStatus.PENDING),
    ).values_list("from_memory_id", "to_memory_id")
    found: dict[int, list[str]] = {}
    for source, target in through:
        found.setdefault(source, []).append(str(target))
    return found


def _materialise(
    resolved: list[scoring.Scored],
    relevance_of: dict[str, float],
    similarity_of: dict[str, float],
    *,
    limit: int,
    budget: int,
    user_id: int,
) -> list[RetrievedMemory]:
    # Only the best few need their text; read it to count tokens, then apply the budget.
    best = sorted(resolved, key=lambda s: s.score, reverse=True)[: max(limit * 4, 20)]
    versions = {
        str(v.memory_id): v
        for v in MemoryVersion.objects.filter(
            memory_id__in=[int(s.memory_id) for s in best], memory__current_version=F("id")
        ).defer("embedding", "tokens", "tags")
    }
    costed = [
        replace(s, tokens=text_analysis.estimate_tokens(v.content))
        for s in best
        if (v := versions.get(s.memory_id)) is not None
    ]
    chosen = scoring.within_budget(costed, limit=limit, token_budget=budget)
    results = []
    for rank, item in enumerate(chosen, start=1):
        version = versions[item.memory_id]
        results.append(
            RetrievedMemory(
                user_id=user_id,
                memory_id=item.memory_id,
                version_id=str(version.pk),
                version=version.version,
                type=version.type,
                content=version.content,
                score=item.score,
                relevance=relevance_of[item.memory_id],
                rank=rank,
                created_by=version.created_by,
                observed_at=version.observed_at,
                tokens=item.tokens,
                conflict_with=item.conflict_with,
                expires_at=version.expires_at,
                source_message_id=version.source_message_id,
                slot=version.slot,
                source_session_id=version.source_session_id,
                similarity=similarity_of.get(item.memory_id, 0.0),
            )
        )
    return results
