"""Score fusion for hybrid search, as plain functions (seed 000 Algorithm 3 + seed 002).

Each retriever (keyword match score, topic tags, vectors) gives a ranked list; the keyword
and vector scores are combined convexly (`convex_fusion`), the topic ranking by reciprocal
rank, then time decay and importance scale the fused score (seed 002: similarity x decay x
importance).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

RRF_K = 60


def reciprocal_rank_fusion(
    rankings: Mapping[str, Sequence[K]], weights: Mapping[str, float], k: int = RRF_K
) -> dict[K, float]:
    """Sum of weight / (k + rank) over every ranking an item appears in (rank from 1)."""
    fused: dict[K, float] = {}
    for name, ranked in rankings.items():
        weight = weights.get(name, 1.0)
        if weight <= 0:
            continue
        for rank, item in enumerate(ranked, start=1):
            fused[item] = fused.get(item, 0.0) + weight / (k + rank)
    return fused


def spread_to_neighbours(
    scores: Mapping[K, float], neighbours: Mapping[K, Sequence[K]], share: float
) -> dict[K, float]:
    """Each item gains `share` of its best-scoring neighbour's score.

    The best neighbour, not the sum: an unrelated turn between two weak hits must not
    overtake the strongest hit.
    """
    spread: dict[K, float] = dict(scores)
    if share <= 0:
        return spread
    best: dict[K, float] = {}
    for item, score in scores.items():
        for other in neighbours.get(item, ()):
            best[other] = max(best.get(other, 0.0), score)
    for other, score in best.items():
        spread[other] = spread.get(other, 0.0) + share * score
    return spread


def boost_by_group(
    scores: Mapping[K, float], group_of: Mapping[K, Hashable], boost: float
) -> dict[K, float]:
    """Scale each score by 1 + boost x (its group's total / the best group's total)."""
    totals: dict[Hashable, float] = {}
    for item, score in scores.items():
        if item in group_of:
            totals[group_of[item]] = totals.get(group_of[item], 0.0) + score
    best = max(totals.values(), default=0.0)
    if boost <= 0 or best <= 0:
        return dict(scores)
    return {
        item: score * (1 + boost * totals.get(group_of.get(item), 0.0) / best)
        for item, score in scores.items()
    }


def time_decay(age_days: float, per_day: float) -> float:
    """exp(-rate x age), the seed's forgetting curve; ages below zero count as zero."""
    return math.exp(-per_day * max(0.0, age_days))


def bm25_weight(
    idf: float, doc_terms: int, average_terms: float, k1: float = 1.2, b: float = 0.75
) -> float:
    """BM25's contribution of one matched term (term frequency 1: tokens are distinct)."""
    norm = 1 - b + b * (doc_terms / average_terms if average_terms else 1.0)
    return idf * (k1 + 1) / (1 + k1 * norm)


def idf(documents: int, containing: int) -> float:
    """BM25's inverse document frequency, never negative."""
    return math.log(1 + (documents - containing + 0.5) / (containing + 0.5))


def comparable_text(text: str) -> str:
    """`text` folded for duplicate checks: case, spacing and punctuation ignored."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


# Shorter texts ("ok", "네") repeat by chance, not by quoting.
MIN_REPEAT_CHARS = 8


def repeats(text: str, kept: Sequence[str]) -> bool:
    """True when `text` (folded) is one of `kept` (folded), holds one, or is held by one: a
    message and a reply quoting it, or a memory and the message it came from, verbatim."""
    if len(text) < MIN_REPEAT_CHARS:
        return text in kept
    return any(
        text == other or (len(other) >= MIN_REPEAT_CHARS and (other in text or text in other))
        for other in kept
    )


def convex_fusion(
    keyword: Sequence[tuple[K, float]],
    vector: Sequence[tuple[K, float]],
    *,
    keyword_mass: float,
    vector_share: float,
) -> dict[K, float]:
    """(1 - vector_share) x keyword score / keyword_mass + vector_share x rescaled cosine.

    The keyword score is divided by the query's IDF mass (the sum of its terms' IDF), not by
    the best score found: when few of the query's terms occur in any message, or only the
    common ones, every keyword score is small and the vector side decides, a continuous
    confidence in the keyword evidence rather than a switch by language. The cosines are
    rescaled to the candidates' own range (best 1, worst 0): a model's cosines crowd into a
    narrow band whose place differs by model and language.
    """
    fused: dict[K, float] = {}
    if keyword and keyword_mass > 0:
        for item, score in keyword:
            fused[item] = (1 - vector_share) * score / keyword_mass
    if vector:
        cosines = [cosine for _item, cosine in vector]
        low, high = min(cosines), max(cosines)
        spread = high - low
        for item, cosine in vector:
            scaled = (cosine - low) / spread if spread > 0 else 1.0
            fused[item] = fused.get(item, 0.0) + vector_share * scaled
    return fused


def hangul_share(text: str) -> float:
    """The share of `text`'s letters that are Hangul syllables (0.0 without letters)."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for ch in letters if "\uac00" <= ch <= "\ud7a3") / len(letters)


def vector_share(text: str, *, hangul: float, other: float) -> float:
    """The vector side's share for a query, by its script: `hangul` for a query written in
    Hangul, `other` for one without, in between in proportion for a mixed one."""
    return other + (hangul - other) * hangul_share(text)
