"""Offline topic-shift detection (seed Algorithm 2), as plain functions.

A new user message is compared with the current topic's previous two exchanges: for the last
exchange and for the last two, the cosine of its embedding with their mean embedding plus a
share of its keywords found in them. If either similarity is low, the topic has shifted
(measured: this beats the two-exchange window alone, F1 0.78 vs 0.72 on spliced LoCoMo topics).

Every chat message shares one direction, so with e5 two messages on different subjects still
score 0.8-0.9. Once a deployment holds enough messages in a language, embeddings are compared
off their mean, the chat centre (`conversations.services.centre`), and the cosine says
more about the subject (LoCoMo spliced topics: F1 0.82 against 0.78). Until then, and for a
language where it was not shown to help, they are compared raw.
Thresholds depend on the embedding model, the language and the centre, since each has its own
band of cosines; they and the keyword weight come from
`python manage.py bench_segmentation --tune` (see the README), not from a guess.

A topic of one user message is rarely a topic: where embeddings are compared raw (Korean, and
any language before a deployment has its centre) it is kept with a neighbour that shares a
subject word with it, live (`continues_single_exchange`) and once the session ends
(`merge_short_topics`, which also looks back to the topic before it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]

# Chosen by `manage.py bench_segmentation --tune` (README, "Topic segmentation"); per embedding
# model, language and centre ("raw": none; "deployment": the deployment's own mean). Korean
# has no deployment threshold: on ko_dev, centring did not help on marked topics. Korean e5
# is chosen on half of the sessions of docs/bench/ko_dev_topic_labels.json (`--labels`), the
# topics a person marked, and scored on the other half.
THRESHOLDS = {
    ("e5", "en", "raw"): 0.89,
    ("e5", "ko", "raw"): 0.92,
    ("use", "en", "raw"): 0.36,
    ("use", "ko", "raw"): 0.24,
    ("e5", "en", "deployment"): 0.12,
    ("use", "en", "deployment"): 0.10,
}
# The weight of the keyword share beside the cosine, per centre (tuned with the thresholds).
KEYWORD_WEIGHTS = {"raw": 0.2, "deployment": 0.3}
# A deployment's own chat centre needs this many messages in a language: fewer, from a handful
# of people, make a centre of their subjects rather than of chat.
MIN_DEPLOYMENT_MESSAGES = 1000
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
    # What the turn is about: its content nouns (Korean) or content words (English), without
    # verb lemmas or dates, which any two subjects can share ("가다", "2026").
    subject: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Centre:
    vector: Vector | None  # None: embeddings are compared raw
    source: str  # "deployment" (the deployment's own recent messages) | "raw"


RAW = Centre(None, "raw")


def centre_for(mean: Vector | None, count: int, *, model: str, language: str) -> Centre:
    """The deployment's mean of `count` messages in `language`, once there are enough and a
    threshold was measured for it; else none."""
    measured = (model, language, "deployment") in THRESHOLDS
    if mean is not None and count >= MIN_DEPLOYMENT_MESSAGES and measured:
        return Centre(mean, "deployment")
    return RAW


def _unit(vector: Vector) -> Vector:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


def _off(vector: Vector, centre: Vector | None) -> Vector:
    return vector if centre is None else _unit(vector - centre)


def similarity(
    new: SegTurn, window: Sequence[SegTurn], keyword_weight: float, centre: Vector | None
) -> float:
    """How much `new` continues `window` (higher = same topic), its embedding compared with
    the window's mean embedding, both taken off the chat `centre` if there is one."""
    vectors, weights = [], []
    for turn in window:
        if turn.vector is not None:
            vectors.append(_off(turn.vector, centre))
            weights.append(1.0 if turn.role == "user" else ASSISTANT_WEIGHT)
    cosine = 0.0
    if vectors and new.vector is not None:
        mean = np.average(np.vstack(vectors), axis=0, weights=weights)
        cosine = float(np.dot(_off(new.vector, centre), _unit(mean)))
    window_terms: set[str] = set().union(*(t.terms for t in window)) if window else set()
    overlap = len(new.terms & window_terms) / len(new.terms) if new.terms else 0.0
    return cosine + keyword_weight * overlap


def is_backchannel(turn: SegTurn) -> bool:
    return not turn.terms and len(turn.text.strip()) <= BACKCHANNEL_CHARS


def continuation(
    new: SegTurn, topic: Sequence[SegTurn], keyword_weight: float, centre: Vector | None
) -> float:
    """The lower of `new`'s similarity to the topic's last exchange and to its last two."""
    return min(
        similarity(new, last_exchanges(topic, 1), keyword_weight, centre),
        similarity(new, last_exchanges(topic, 2), keyword_weight, centre),
    )


def is_shift(
    new: SegTurn,
    topic: Sequence[SegTurn],
    *,
    threshold: float,
    centre: Centre,
    keyword_weight: float | None = None,
) -> bool:
    """True when `new` starts a new topic after the current topic's recent turns `topic`."""
    if not topic or is_backchannel(new):
        return False
    if merges_short_topics(centre) and continues_single_exchange(new, topic):
        return False
    weight = KEYWORD_WEIGHTS[centre.source] if keyword_weight is None else keyword_weight
    return continuation(new, topic, weight, centre.vector) < threshold


def last_exchanges(turns: Sequence[SegTurn], exchanges: int = 2) -> list[SegTurn]:
    """The tail of `turns` holding the last `exchanges` user messages and what followed."""
    users = 0
    for index in range(len(turns) - 1, -1, -1):
        if turns[index].role == "user":
            users += 1
            if users == exchanges:
                return list(turns[index:])
    return list(turns)


def merges_short_topics(centre: Centre) -> bool:
    """Whether topics of one message are kept with a neighbour for embeddings compared this
    way. Raw, the threshold sits at the edge of a narrow band of cosines and everyday chat
    splits message by message (six Korean messages on three subjects made six topics); off
    a deployment's centre it does not, and merging there cost LoCoMo spliced topics F1 0.820
    -> 0.808 (README, "Topic segmentation")."""
    return centre.source == "raw"


def continues_single_exchange(new: SegTurn, topic: Sequence[SegTurn]) -> bool:
    """True when `topic` (its recent turns) holds one user message and `new` shares a subject
    word with it: a topic of one message is not left for a neighbour that speaks of the
    same thing, whatever the cosine says (Korean everyday sentences all score alike)."""
    users = [turn for turn in topic if turn.role == "user"]
    return len(users) == 1 and bool(new.subject & users[0].subject)


@dataclass(frozen=True)
class Span:
    """A topic as merging sees it: how many user messages it holds and their subject words."""

    user_messages: int
    subject: frozenset[str]


def merge_short_topics(spans: Sequence[Span]) -> list[list[int]]:
    """Consecutive topics grouped so that no topic of one user message stands alone beside a
    neighbour it shares a subject word with: it joins the neighbour it shares most words
    with (the earlier one on a tie), and the group may take in further such topics.

    The groups are runs of consecutive indices, in order, and hold every index once."""
    groups = [[index] for index in range(len(spans))]
    users = [span.user_messages for span in spans]
    subjects = [set(span.subject) for span in spans]
    merged = True
    while merged:
        merged = False
        for g in range(len(groups)):
            if users[g] > 1:
                continue
            before = len(subjects[g] & subjects[g - 1]) if g > 0 else 0
            after = len(subjects[g] & subjects[g + 1]) if g + 1 < len(groups) else 0
            if not (before or after):
                continue
            low = g - 1 if before >= after else g
            groups[low] += groups.pop(low + 1)
            users[low] += users.pop(low + 1)
            subjects[low] |= subjects.pop(low + 1)
            merged = True
            break
    return groups


def spans_of(turns: Sequence[SegTurn], boundaries: Sequence[int]) -> list[Span]:
    """The topics that `boundaries` (indices of the turns that start one) cut `turns` into."""
    starts = [0, *boundaries]
    ends = [*boundaries, len(turns)]
    spans = []
    for start, end in zip(starts, ends, strict=True):
        users = [turn for turn in turns[start:end] if turn.role == "user"]
        subject = frozenset().union(*(turn.subject for turn in users)) if users else frozenset()
        spans.append(Span(len(users), subject))
    return spans


def merged_boundaries(turns: Sequence[SegTurn], boundaries: Sequence[int]) -> list[int]:
    """`boundaries` less those that `merge_short_topics` removes."""
    starts = [0, *boundaries]
    groups = merge_short_topics(spans_of(turns, boundaries))
    return [starts[group[0]] for group in groups[1:]]
