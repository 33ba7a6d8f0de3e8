"""The word diff shown between two versions of a memory (pure, no database)."""

from __future__ import annotations

import pytest

from memories.selectors.history import DiffPart, text_diff


def _side(parts: list[DiffPart], keep: str) -> str:
    return "".join(part.text for part in parts if part.op in ("equal", keep))


def test_a_changed_word_is_one_removal_and_one_addition():
    assert text_diff("I live in Seoul", "I live in Busan") == [
        DiffPart("equal", "I live in "),
        DiffPart("removed", "Seoul"),
        DiffPart("added", "Busan", spaced=True),
    ]


def test_korean_words_are_compared_whole():
    parts = text_diff("나는 서울 강남에 살아", "나는 부산에 살아")

    assert DiffPart("removed", "서울 강남에") in parts
    assert DiffPart("added", "부산에", spaced=True) in parts


def test_both_texts_can_be_rebuilt_from_the_diff():
    old, new = "prefers tea in the morning", "prefers green tea, always\nin the evening"

    parts = text_diff(old, new)

    assert _side(parts, "removed") == old
    assert _side(parts, "added") == new


def test_identical_texts_are_one_equal_part():
    assert text_diff("same", "same") == [DiffPart("equal", "same")]


def test_an_empty_old_text_is_all_added():
    assert text_diff("", "new text") == [DiffPart("added", "new text")]


def _shown(parts: list[DiffPart]) -> str:
    """The diff as the history shows it, removals in [-...-] and additions in {+...+}."""
    marks = {"removed": "[-{}-]", "added": "{{+{}+}}", "equal": "{}"}
    return "".join((" " if p.spaced else "") + marks[p.op].format(p.text) for p in parts)


@pytest.mark.parametrize(
    ("old", "new", "shown"),
    [
        # a particle changes
        ("서울에 살아", "서울에서 살아", "[-서울에-] {+서울에서+} 살아"),
        # two words change around a space they share
        ("커피를 매일 마셔", "차를 가끔 마셔", "[-커피를 매일-] {+차를 가끔+} 마셔"),
        # the spacing changes
        ("서울 강남에 살아", "서울강남에 살아", "[-서울 강남에-] {+서울강남에+} 살아"),
        ("서울강남에 살아", "서울 강남에 살아", "[-서울강남에-] {+서울 강남에+} 살아"),
        # a phrase grows, particles and all
        ("나는 서울에 살아", "나는 부산에 살고 있어", "나는 [-서울에 살아-] {+부산에 살고 있어+}"),
        ("I like tea a lot", "I like coffee quite a lot", "I like [-tea-] {+coffee quite+} a lot"),
    ],
)
def test_a_removal_and_the_addition_replacing_it_never_read_as_one_word(old, new, shown):
    parts = text_diff(old, new)

    assert _shown(parts) == shown
    assert _side(parts, "removed") == old
    assert _side(parts, "added") == new


def test_words_only_added_or_only_removed_keep_their_spaces():
    assert text_diff("나는 커피를 좋아해", "나는 진한 커피를 좋아해") == [
        DiffPart("equal", "나는"),
        DiffPart("added", " 진한"),
        DiffPart("equal", " 커피를 좋아해"),
    ]
    assert text_diff("나는 매일 커피를 마셔", "나는 커피를 마셔") == [
        DiffPart("equal", "나는"),
        DiffPart("removed", " 매일"),
        DiffPart("equal", " 커피를 마셔"),
    ]
