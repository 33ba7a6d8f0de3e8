"""Offline session tags and extractive summaries (seed Algorithm 1), as plain functions."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_SENTENCE_END = re.compile(r"(?<=[.!?。？！])\s+|\n+")


def tag_form(term: str) -> str:
    """The stored form of a tag: Latin lower-cased, Hangul as is."""
    return term.lower()


def rank_tags(
    terms: Sequence[str],
    *,
    document_frequency: dict[str, int],
    documents: int,
    generic: Iterable[str],
    limit: int = 5,
) -> list[str]:
    """The session's most telling single-word tags.

    Score = frequency in the session x inverse frequency across the user's earlier sessions,
    so a word that is in every session says nothing. Generic words are never tags.
    """
    banned = {tag_form(g) for g in generic}
    counts = Counter(tag_form(t) for t in terms if len(t) >= 2 and " " not in t)
    scored: list[tuple[float, int, str]] = []
    for tag, count in counts.items():
        if tag in banned or tag.isdigit():
            continue
        df = document_frequency.get(tag, 0)
        idf = math.log((1 + documents) / (1 + df)) + 1.0
        scored.append((count * idf, -len(scored), tag))
    scored.sort(reverse=True)
    return [tag for _score, _order, tag in scored[:limit]]


def split_sentences(text: str) -> list[str]:
    return [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]


@dataclass(frozen=True)
class Sentence:
    text: str
    terms: frozenset[str]


def extractive_summary(
    sentences: Sequence[Sentence], tags: Sequence[str], max_chars: int = 300
) -> str:
    """The sentences that carry the session's tags best, in their original order."""
    weights = {tag: len(tags) - rank for rank, tag in enumerate(tags)}
    scored = []
    for index, sentence in enumerate(sentences):
        hits = sum(weights.get(term, 0) for term in {tag_form(t) for t in sentence.terms})
        if hits:
            scored.append((hits / math.sqrt(max(len(sentence.text), 20)), index))
    scored.sort(reverse=True)
    chosen: list[int] = []
    used = 0
    for _score, index in scored:
        length = len(sentences[index].text)
        if used and used + length > max_chars:
            continue
        chosen.append(index)
        used += length + 1
        if used >= max_chars:
            break
    if not chosen and sentences:
        chosen = [0]
    summary = " ".join(sentences[i].text for i in sorted(chosen))
    return summary if len(summary) <= max_chars else summary[: max_chars - 1] + "…"
