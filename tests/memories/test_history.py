"""The word diff shown between two versions of a memory (pure, no database)."""

from __future__ import annotations

from memories.selectors.history import DiffPart, text_diff


def _side(parts: list[DiffPart], keep: str) -> str:
    return "".join(part.text for part in parts if part.op in ("equal", keep))


def test_a_changed_word_is_one_removal_and_one_addition():
    assert text_diff("I live in Seoul", "I live in Busan") == [
        DiffPart("equal", "I live in "),
        DiffPart("removed", "Seoul"),
        DiffPart("added", "Busan"),
    ]


def test_korean_words_are_compared_whole():
    parts = text_diff("나는 서울 강남에 살아", "나는 부산에 살아")

    assert DiffPart("removed", "서울 강남에") in parts
    assert DiffPart("added", "부산에") in parts


def test_both_texts_can_be_rebuilt_from_the_diff():
    old, new = "prefers tea in the morning", "prefers green tea, always\nin the evening"

    parts = text_diff(old, new)

    assert _side(parts, "removed") == old
    assert _side(parts, "added") == new


def test_identical_texts_are_one_equal_part():
    assert text_diff("same", "same") == [DiffPart("equal", "same")]


def test_an_empty_old_text_is_all_added():
    assert text_diff("", "new text") == [DiffPart("added", "new text")]
