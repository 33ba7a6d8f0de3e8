"""Retrieval math: relevance, decay, triggers, conflict resolution, budget. Pure, no Django.

score = relevance x time decay x importance x confidence (seed 002's similarity x decay x
importance; confidence drops when the user marks a memory wrong).

Relevance fuses the keyword match with the vector similarity. Sentence models give every pair
of texts a similarity well above zero (multilingual-e5: 0.75-0.86 for *unrelated* pairs, 0.79-0.93
for related ones, measured on tests/memories/test_scoring.py's fixtures), so a raw cosine says
little. What separates them is how far a memory stands above the query's similarity to neutral
sentences (`ANCHOR_SENTENCES`): that margin is mapped onto 0..1 by a band measured per model.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum


@dataclass(frozen=True)
class VectorBand:
    """Margins (cosine minus the anchor baseline) mapped to relevance 0 and 1."""

    low: float
    high: float


# Measured on 15 related and 12 unrelated Korean/English questions against 15 memories:
# e5 margins: related 0.065-0.158, unrelated 0.015-0.073; USE: related 0.23-0.69, unrelated
# 0.06-0.21. Either way a question must beat `low` clearly to count as related by meaning.
VECTOR_BANDS = {"e5": VectorBand(low=0.06, high=0.14), "use": VectorBand(low=0.15, high=0.45)}
# Neutral sentences whose mean similarity to a query is that query's baseline.
ANCHOR_SENTENCES = (
    "오늘은 월요일이다.",
    "The meeting starts at three.",
    "사과는 빨간 과일이다.",
    "He walked to the station.",
    "책상 위에 책이 있다.",
    "It rained a lot in the afternoon.",
    "우리는 공원에서 산책했다.",
    "The report is due next week.",
)
# Below this fused relevance a memory has nothing to do with the question and is not injected.
RELEVANCE_FLOOR = 0.35
# What a type-aware trigger ("내 이름", "how should you answer") gives the memories it loads.
TRIGGER_RELEVANCE = 0.5
# Seed 002: decay = exp(-0.01 x days since last access).
DECAY_PER_DAY = 0.01
# Cosine above which two memories may be paraphrases (then checked word by word), measured on
# paraphrase pairs: e5 0.949-0.995 for paraphrases; USE 0.67-0.96.
PARAPHRASE_COSINE = {"e5": 0.94, "use": 0.70}
# Tokens one memory costs in a prompt beyond its text (the <memory ...> wrapper).
MEMORY_OVERHEAD_TOKENS = 12


def vector_relevance(cosine: float, baseline: float, band: VectorBand) -> float:
    margin = cosine - baseline
    return min(1.0, max(0.0, (margin - band.low) / (band.high - band.low)))


def keyword_relevance(query_tokens: Sequence[str], memory_tokens: Iterable[str]) -> float:
    """The share of the query's tokens the memory contains (seed 000's match score)."""
    if not query_tokens:
        return 0.0
    have = set(memory_tokens)
    return sum(1 for token in query_tokens if token in have) / len(query_tokens)


def fuse(vector: float, keyword: float) -> float:
    """Either signal alone can make a memory relevant; both together make it more so."""
    return 1.0 - (1.0 - vector) * (1.0 - keyword)


def time_decay(days: float) -> float:
    return math.exp(-DECAY_PER_DAY * max(0.0, days))


def final_score(*, relevance: float, decay: float, importance: float, confidence: float) -> float:
    return relevance * decay * max(0.05, importance) * max(0.05, confidence)


# --- type-aware triggers (seed 002: 메모리 검색 트리거) -------------------------------------


class Trigger(StrEnum):
    PROFILE = "profile"  # the user's name or profile -> semantic facts
    EPISODES = "episodes"  # an earlier project or conversation -> its episodes
    STYLE = "style"  # how to answer -> preferences and procedures
    SUGGEST = "suggest"  # a request for a suggestion or recommendation -> preferences


TRIGGER_TYPES: dict[Trigger, tuple[str, ...]] = {
    Trigger.PROFILE: ("fact",),
    Trigger.EPISODES: ("episode", "decision"),
    Trigger.STYLE: ("preference", "procedure"),
    Trigger.SUGGEST: ("preference",),
}

_TRIGGER_CUES: dict[Trigger, re.Pattern[str]] = {
    Trigger.PROFILE: re.compile(
        r"내\s*이름|제\s*이름|나에\s*대해|저에\s*대해|나에\s*대한|내\s*정보|내\s*프로필|나는\s*누구|"
        r"내가\s*누구|내\s*직업|어디\s*살|사는\s*곳|내\s*소개|"
        r"\bwho\s+am\s+i\b|\babout\s+me\b|\bmy\s+name\b|\bmy\s+profile\b|\bmy\s+job\b|"
        r"\bwhere\s+do\s+i\s+live\b|\bwhat\s+do\s+you\s+know\s+about\s+me\b|"
        r"\bwhat\s+do\s+i\s+do\s+for\s+(?:a\s+)?(?:living|work)\b|\bwhat(?:'s|\s+is)\s+my\s+"
        r"(?:job|work|occupation|profession)\b|무슨\s*일\s*(?:을\s*)?해|직업이\s*뭐",
        re.IGNORECASE,
    ),
    Trigger.EPISODES: re.compile(
        r"지난번|저번에|예전에|이전\s*프로젝트|그\s*프로젝트|지난\s*프로젝트|전에\s*(?:했던|하던|말한)|"
        r"기억\s*나|\blast\s+time\b|\bearlier\s+project\b|\bprevious\s+project\b|"
        r"\bthat\s+project\b|\bwe\s+worked\s+on\b|\bremember\s+when\b|\bdo\s+you\s+remember\b",
        re.IGNORECASE,
    ),
    Trigger.STYLE: re.compile(
        r"어떻게\s*답|어떻게\s*대답|답변\s*스타일|답변\s*방식|대답\s*방식|말투|답변\s*형식|"
        r"\bhow\s+should\s+you\s+(?:answer|respond|reply)\b|\bhow\s+do\s+i\s+like\b|"
        r"\banswer\s+style\b|\bresponse\s+style\b|\bhow\s+(?:to|should\s+i\s+have\s+you)\s+"
        r"respond\b|\bmy\s+preferences\b",
        re.IGNORECASE,
    ),
    Trigger.SUGGEST: re.compile(
        r"추천|골라\s*줘|뭐\s*먹을까|뭘\s*먹을까|메뉴|\b(?:suggest|recommend)\w*\b|"
        r"\bwhat\s+should\s+i\s+(?:eat|cook|order|buy|get|watch|read|try)\b|\bideas?\s+for\b",
        re.IGNORECASE,
    ),
}


def triggers(query: str) -> set[Trigger]:
    return {trigger for trigger, cue in _TRIGGER_CUES.items() if cue.search(query)}


def triggered_types(query: str) -> set[str]:
    return {kind for trigger in triggers(query) for kind in TRIGGER_TYPES[trigger]}


# --- conflict resolution and the budget ---------------------------------------------------


@dataclass(frozen=True)
class Scored:
    memory_id: str
    slot: str
    by_user: bool
    observed_at: datetime
    version: int
    score: float
    tokens: int
    conflicts: frozenset[str] = frozenset()
    conflict_with: tuple[str, ...] = ()


def _groups(items: Sequence[Scored]) -> list[list[Scored]]:
    """Items linked by a recorded conflict or by filling the same slot."""
    parent = {item.memory_id: item.memory_id for item in items}

    def root(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    by_slot: dict[str, str] = {}
    for item in items:
        for other in item.conflicts:
            if other in parent:
                parent[root(other)] = root(item.memory_id)
        if item.slot:
            first = by_slot.setdefault(item.slot, item.memory_id)
            parent[root(item.memory_id)] = root(first)
    groups: dict[str, list[Scored]] = {}
    for item in items:
        groups.setdefault(root(item.memory_id), []).append(item)
    return list(groups.values())


def resolve_conflicts(items: Sequence[Scored]) -> list[Scored]:
    """Keep the winner of each conflict: a user statement over an inference, then the newer.

    Members that tie (two user statements observed at the same moment) cannot be resolved:
    all of them are kept. Every kept member names the others in `conflict_with`, so the
    conflict is shown, never silently decided.
    """
    kept: list[Scored] = []
    for group in _groups(items):
        group_ids = {item.memory_id for item in group}
        outside = {c for item in group for c in item.conflicts} - group_ids
        if len(group) == 1 and not outside:
            kept.append(group[0])
            continue
        ordered = sorted(group, key=lambda i: (i.by_user, i.observed_at, i.version), reverse=True)
        best = ordered[0]
        winners = [
            i for i in ordered if (i.by_user, i.observed_at) == (best.by_user, best.observed_at)
        ]
        for winner in winners:
            others = sorted((group_ids | outside) - {winner.memory_id})
            kept.append(replace(winner, conflict_with=tuple(others)))
    return kept


def within_budget(items: Sequence[Scored], *, limit: int, token_budget: int) -> list[Scored]:
    """The best items, at most `limit`, whose tokens fit the budget (best first, greedy)."""
    chosen: list[Scored] = []
    spent = 0
    for item in sorted(items, key=lambda i: i.score, reverse=True):
        if len(chosen) >= limit:
            break
        cost = item.tokens + MEMORY_OVERHEAD_TOKENS
        if spent + cost > token_budget:
            continue
        chosen.append(item)
        spent += cost
    return chosen
