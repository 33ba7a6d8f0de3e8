"""Offline topic-shift detection (seed Algorithm 2), as plain functions.

A new user message is compared with the current topic's previous two exchanges: for the last
exchange and for the last two, the cosine of its embedding with their mean embedding plus a
share of its keywords found in them. If either similarity is low, the topic has shifted
(measured: this beats the two-exchange window alone, F1 0.78 vs 0.72 on spliced LoCoMo topics).
Thresholds depend on the embedding model and the message's language, since each model gives
each language its own band of cosines; they and the keyword weight come from
`python manage.py bench_segmentation --tune` (see the README), not from a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]

# Chosen by `manage.py bench_segmentation` (README, "Topic segmentation"); per embedding model,
# because each model has its own band of cosine values.
THRESHOLDS = {
    ("e5", "en"): 0.89,
    ("e5", "ko"): 0.91,
    ("use", "en"): 0.36,
    ("use", "ko"): 0.24,
}
KEYWORD_WEIGHT = 0.2
# Assistant turns count half: they follow the user's lead and repeat its words.
ASSISTANT_WEIGHT = 0.5
# A short message with no content words ("응", "ok", "ㅋㅋ") never starts a topic.
BACKCHANNEL_CHARS = 24


@dataclass(frozen=True)
class SegTurn:
    role: str  # "user" | "assistant"
    text: str
    terms: frozenset[str]
    vector: Vector | None


def similarity(new: SegTurn, window: Sequence[SegTurn], keyword_weight: float) -> float:
    """How much `new` continues `window` (higher = same topic)."""
    vectors, weights = [], []
    for turn in window:
        if turn.vector is not None:
            vectors.append(turn.vector)
            weights.append(1.0 if turn.role == "user" else ASSISTANT_WEIGHT)
    cosine = 0.0
    if vectors and new.vector is not None:
        centre = np.average(np.vstack(vectors), axis=0, weights=weights)
        norm = float(np.linalg.norm(centre))
        if norm > 0:
            cosine = float(np.dot(new.vector, centre / norm))
    window_terms: set[str] = set().union(*(t.terms for t in window)) if window else set()
    overlap = len(new.terms & window_terms) / len(new.terms) if new.terms else 0.0
    return cosine + keyword_weight * overlap


def is_backchannel(turn: SegTurn) -> bool:
    return not turn.terms and len(turn.text.strip()) <= BACKCHANNEL_CHARS


def continuation(new: SegTurn, topic: Sequence[SegTurn], keyword_weight: float) -> float:
    """The lower of `new`'s similarity to the topic's last exchange and to its last two."""
    return min(
        similarity(new, last_exchanges(topic, 1), keyword_weight),
        similarity(new, last_exchanges(topic, 2), keyword_weight),
    )


def is_shift(
    new: SegTurn,
    topic: Sequence[SegTurn],
    *,
    threshold: float,
    keyword_weight: float = KEYWORD_WEIGHT,
) -> bool:
    """True when `new` starts a new topic after the current topic's recent turns `topic`."""
    if not topic or is_backchannel(new):
        return False
    return continuation(new, topic, keyword_weight) < threshold


def last_exchanges(turns: Sequence[SegTurn], exchanges: int = 2) -> list[SegTurn]:
    """The tail of `turns` holding the last `exchanges` user messages and what followed."""
    users = 0
    for index in range(len(turns) - 1, -1, -1):
        if turns[index].role == "user":
            users += 1
            if users == exchanges:
                return list(turns[index:])
    return list(turns)
