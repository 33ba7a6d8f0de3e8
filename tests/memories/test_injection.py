"""Prompt-injection detection on the 40+ attack corpus (issue 5 line 6): pure."""

from __future__ import annotations

import pytest

from memories.services.injection import detect
from tests.memories.attack_corpus import ATTACKS, ATTACKS_EN, ATTACKS_KO, BENIGN


def test_the_corpus_has_at_least_forty_attacks_in_both_languages():
    assert len(ATTACKS) >= 40
    assert len(ATTACKS_KO) >= 15
    assert len(ATTACKS_EN) >= 15


@pytest.mark.parametrize("text", ATTACKS)
def test_every_attack_is_detected_with_a_reason(text):
    finding = detect(text)

    assert finding is not None, text
    assert finding.reason


@pytest.mark.parametrize("text", BENIGN)
def test_benign_look_alikes_are_not_flagged(text):
    assert detect(text) is None, text
