"""The segmentation benchmark's measures: boundary F1 within a tolerance, and Pk."""

import pytest

from bench import segment_metrics


def test_boundary_score_counts_a_boundary_within_one_message():
    score = segment_metrics.boundary_score([5, 11, 20], [4, 12, 30], tolerance=1)

    assert (score.true_positives, score.predicted, score.actual) == (2, 3, 3)
    assert score.f1 == pytest.approx(2 / 3)


def test_pk_is_zero_for_a_perfect_segmentation_and_positive_otherwise():
    assert segment_metrics.pk([10, 20], [10, 20], 30) == 0.0
    assert segment_metrics.pk([], [10, 20], 30) > 0.2
