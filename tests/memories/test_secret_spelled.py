"""Codes read out digit by digit (blind set 13, issue 13 line 2): pure, no database."""

from __future__ import annotations

import pytest

from memories.logic.secret_spelled import spelled_digits


@pytest.mark.parametrize(
    ("after_cue", "run"),
    [
        (" 3 0 9 1 7 6 인데", "3 0 9 1 7 6"),
        (": 8-1-4-4-0-2", "8-1-4-4-0-2"),
        (" is 2 · 7 · 7 · 1", "2 · 7 · 7 · 1"),
        ("는 육 공 삼 구 팔 일 맞아", "육 공 삼 구 팔 일"),
        (" 사칠공삼구팔요", "사칠공삼구팔"),
        (" was seven seven oh one two", "seven seven oh one two"),
    ],
)
def test_a_run_of_single_digits_after_a_cue_is_found(after_cue: str, run: str) -> None:
    match = spelled_digits(after_cue, 0, len(after_cue))

    assert match is not None
    assert match.group("value") == run


@pytest.mark.parametrize(
    "after_cue",
    [
        " 010 4417 2290 으로 보내줘",  # a phone number: digits in groups
        " 12-05-24 까지",  # a date
        " 3 4 5",  # three digits are no code
        " 6자리, 3 분 안에",  # a count, then another number
        " 오면 이사 가는 날",  # Korean words that hold digit syllables
        " arrives in one or two minutes",
        " v1.2.3.4 release",  # a version
    ],
)
def test_groups_short_runs_and_words_are_no_code(after_cue: str) -> None:
    assert spelled_digits(after_cue, 0, len(after_cue)) is None


def test_a_run_far_from_the_cue_or_after_another_number_is_not_taken() -> None:
    far = " " + "말이 길어지는데 " * 5 + "5 8 2 7 1 4"
    after_number = " 2개 중에 5 8 2 7 1 4"

    assert spelled_digits(far, 0, len(far)) is None
    assert spelled_digits(after_number, 0, len(after_number)) is None
