"""Boundary precision/recall/F1 (with a tolerance) and Pk, for segmentation benchmarks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class BoundaryScore:
    true_positives: int
    predicted: int
    actual: int

    @property
    def precision(self) -> float:
        return self.true_positives / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.actual if self.actual else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def __add__(self, other: BoundaryScore) -> BoundaryScore:
        return BoundaryScore(
            self.true_positives + other.true_positives,
            self.predicted + other.predicted,
            self.actual + other.actual,
        )


def boundary_score(
    predicted: Sequence[int], actual: Sequence[int], tolerance: int = 1
) -> BoundaryScore:
    """Match each predicted boundary to at most one actual boundary within `tolerance`."""
    unmatched = sorted(set(actual))
    hits = 0
    for position in sorted(set(predicted)):
        best = min(unmatched, key=lambda a: abs(a - position), default=None)
        if best is not None and abs(best - position) <= tolerance:
            unmatched.remove(best)
            hits += 1
    return BoundaryScore(hits, len(set(predicted)), len(set(actual)))


def _segment_ids(boundaries: Sequence[int], length: int) -> list[int]:
    starts = set(boundaries)
    ids, current = [], 0
    for index in range(length):
        if index in starts and index != 0:
            current += 1
        ids.append(current)
    return ids


def pk(predicted: Sequence[int], actual: Sequence[int], length: int, k: int | None = None) -> float:
    """Beeferman's Pk: the chance that two items k apart are wrongly judged same/different.

    Boundaries are the indices where a new segment starts. k defaults to half the mean
    actual segment length. Lower is better.
    """
    if length < 2:
        return 0.0
    truth = _segment_ids(actual, length)
    guess = _segment_ids(predicted, length)
    if k is None:
        segments = len(set(truth))
        k = max(1, round(length / segments / 2))
    k = min(k, length - 1)
    errors = sum(
        (truth[i] == truth[i + k]) != (guess[i] == guess[i + k]) for i in range(length - k)
    )
    return errors / (length - k)
