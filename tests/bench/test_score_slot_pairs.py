"""`manage.py score_slot_pairs` on pairs written here."""

import json
from datetime import datetime
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from bench.management.commands import score_slot_pairs
from bench.management.commands.score_slot_pairs import (
    CONFLICT,
    FIRST,
    KEPT_APART,
    NOTHING,
    REPLACED,
    SECOND,
    SECOND_NOT_LIVE,
    Held,
    classify,
)
from memories.models import Memory, MemoryVersion

pytestmark = pytest.mark.django_db

MOVED_KO = {
    "id": "p-1",
    "lang": "ko",
    "first": "나 대전에 살아",
    "second": "나 지난달에 광주로 이사했어",
    "same_question": True,
    "why": "moved city",
}
MOVED_EN = {
    "id": "p-2",
    "lang": "en",
    "first": "I live in Leeds",
    "second": "I moved to Bristol last month",
    "same_question": True,
}
APART_KO = {
    "id": "p-3",
    "lang": "ko",
    "first": "나는 녹차를 좋아해",
    "second": "대답은 짧게 해줘",
    "same_question": False,
    "why": "a taste and an answer style",
}
APART_EN = {
    "id": "p-4",
    "lang": "en",
    "first": "I like coffee",
    "second": "I prefer short answers",
    "same_question": False,
}


def _pairs(tmp_path, lines) -> str:
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n")
    return str(path)


def _run(*args: str) -> str:
    out = StringIO()
    call_command("score_slot_pairs", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_a_moved_city_is_replaced_and_two_preferences_are_kept_apart(tmp_path):
    report = tmp_path / "report.json"

    text = _run(_pairs(tmp_path, [MOVED_KO, MOVED_EN, APART_KO, APART_EN]), "--json", str(report))

    assert "pairs 4 (2 same question, 2 different)" in text
    assert "same-question pairs replaced 2/2 = 100.0%" in text
    assert "different-question pairs kept apart 2/2 = 100.0%" in text
    assert "lang ko: same-question pairs replaced 1/1" in text
    assert "lang en: same-question pairs replaced 1/1" in text
    assert "FAIL" not in text
    by_id = {line["id"]: line for line in json.loads(report.read_text())["lines"]}
    assert {i: line["outcome"] for i, line in by_id.items()} == {
        "p-1": REPLACED,
        "p-2": REPLACED,
        "p-3": KEPT_APART,
        "p-4": KEPT_APART,
    }
    # The moved city: one live memory, revised from the first message's to the second's.
    assert [(s, made_from) for s, _, made_from in by_id["p-1"]["memories"]] == [
        ("active", "first+second")
    ]
    assert "광주" in by_id["p-1"]["memories"][0][1]
    held = {content: made_from for _, content, made_from in by_id["p-4"]["memories"]}
    assert sorted(held.values()) == ["first", "second"]


def test_a_pair_whose_outcome_is_not_the_expected_one_is_listed_with_what_the_user_holds(
    tmp_path,
):
    wrong = {**MOVED_EN, "id": "p-5", "same_question": False, "why": "labelled wrongly here"}
    silent = {**APART_KO, "id": "p-6", "first": "아 졸리다"}

    text = _run(_pairs(tmp_path, [wrong, silent]))

    assert "different-question pairs kept apart 0/2 = 0.0%" in text
    assert "outcomes, different question: replaced 1, nothing 1" in text
    assert (
        "where both messages left a memory: same-question replaced 0/0 = -; "
        "different-question kept apart 0/1 = 0.0%"
    ) in text
    assert (
        "FAIL p-5 en different question (labelled wrongly here): replaced, kept apart expected"
        in text
    )
    assert "holds active [first+second] Moved to Bristol last month" in text
    assert "extraction: first created 1; second corrected 1" in text
    assert "FAIL p-6 ko different question (a taste and an answer style): nothing" in text
    assert "holds active [second] 대답은 짧게 해줘" in text
    assert "extraction: first none; second created 1" in text


def test_the_second_statement_is_observed_a_day_after_the_first(tmp_path, monkeypatch):
    # Keep what the pair wrote: the command rolls it back, so look just before it does.
    seen: list[tuple[str, str, datetime]] = []
    real = score_slot_pairs.score_pair

    def score_and_look(*, line):
        result = real(line=line)
        seen.extend(
            MemoryVersion.objects.order_by("id").values_list(
                "content", "memory__status", "observed_at"
            )
        )
        return result

    monkeypatch.setattr(score_slot_pairs, "score_pair", score_and_look)

    _run(_pairs(tmp_path, [APART_EN]))

    (first, _, first_at), (second, _, second_at) = seen
    assert (first, second) == ("Likes coffee", "Prefers short answers")
    assert 23 * 3600 < (second_at - first_at).total_seconds() < 25 * 3600


def test_score_slot_pairs_keeps_no_user_or_memory_it_made(tmp_path):
    users = get_user_model().objects.count()

    _run(_pairs(tmp_path, [MOVED_EN]))

    assert get_user_model().objects.count() == users
    assert not Memory.objects.exists()


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ({**MOVED_EN, "same_question": "yes"}, ":2: needs a boolean `same_question`"),
        ({**MOVED_EN, "second": " "}, ":2: needs a non-empty string `second`"),
        (
            {k: v for k, v in MOVED_EN.items() if k != "first"},
            ":2: needs a non-empty string `first`",
        ),
        ({**MOVED_EN, "lang": None}, ":2: needs a non-empty string `lang`"),
        ({**MOVED_EN, "why": 3}, ":2: `why` must be a string"),
        ({**MOVED_EN, "id": "p-3"}, ":2: id 'p-3' already used on line 1"),
    ],
)
def test_a_malformed_line_is_a_clear_error_naming_the_file_and_line(tmp_path, line, error):
    users = get_user_model().objects.count()

    with pytest.raises(CommandError, match=error):
        _run(_pairs(tmp_path, [APART_KO, line]))

    # Checked before any pair is played.
    assert get_user_model().objects.count() == users


def test_a_line_that_is_not_json_is_named(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text(json.dumps(MOVED_EN) + "\n{not json\n")

    with pytest.raises(CommandError, match=r"pairs.jsonl:2: not JSON"):
        _run(str(path))


def _memory(id, status, current_from, made_from, conflicts=()):
    return Held(
        id=id,
        status=status,
        content=f"memory {id}",
        current_from=current_from,
        made_from=frozenset(made_from),
        conflicts=frozenset(conflicts),
    )


def test_a_first_memory_revised_by_the_second_is_replaced():
    held = [_memory(1, "active", SECOND, {FIRST, SECOND})]

    assert classify(held=held, live_after_first=frozenset({1})) == REPLACED


def test_a_first_memory_superseded_by_a_new_one_is_replaced():
    held = [_memory(1, "superseded", FIRST, {FIRST}), _memory(2, "active", SECOND, {SECOND})]

    assert classify(held=held, live_after_first=frozenset({1})) == REPLACED


def test_a_first_memory_that_is_gone_counts_as_replaced():
    held = [_memory(2, "pending", SECOND, {SECOND})]

    assert classify(held=held, live_after_first=frozenset({1})) == REPLACED


def test_two_live_memories_side_by_side_are_kept_apart():
    held = [_memory(1, "active", FIRST, {FIRST}), _memory(2, "pending", SECOND, {SECOND})]

    assert classify(held=held, live_after_first=frozenset({1})) == KEPT_APART


def test_two_live_memories_marked_in_conflict_are_a_conflict():
    held = [
        _memory(1, "active", FIRST, {FIRST}, conflicts={2}),
        _memory(2, "active", SECOND, {SECOND}, conflicts={1}),
    ]

    assert classify(held=held, live_after_first=frozenset({1})) == CONFLICT


@pytest.mark.parametrize(
    ("held", "live_after_first"),
    [
        ([_memory(2, "active", SECOND, {SECOND})], frozenset()),
        ([_memory(1, "active", FIRST, {FIRST})], frozenset({1})),
    ],
)
def test_a_message_that_left_no_memory_is_nothing(held, live_after_first):
    assert classify(held=held, live_after_first=live_after_first) == NOTHING


def test_a_second_memory_that_is_not_live_leaves_the_first_untouched():
    held = [_memory(1, "active", FIRST, {FIRST}), _memory(2, "quarantined", SECOND, {SECOND})]

    assert classify(held=held, live_after_first=frozenset({1})) == SECOND_NOT_LIVE


COMPOUND = {
    "id": "c-1",
    "lang": "en",
    "first": "Brief answers and a casual tone, please.",
    "second": "Use a formal tone please.",
    "same_question": True,
    "keeps": "brief",
}


def test_a_pair_naming_a_part_to_keep_passes_only_while_that_part_is_live(tmp_path):
    text = _run(_pairs(tmp_path, [COMPOUND]))

    assert "same-question pairs replaced 1/1" in text
    assert "the part named by `keeps` still live: 1/1" in text
    assert "FAIL" not in text


def test_a_part_to_keep_lost_is_a_failure_naming_it():
    result = score_slot_pairs.PairResult(
        id="c-2",
        lang="en",
        same_question=True,
        why="",
        first="short answers with bullet points please",
        second="bullet points please",
        outcome=REPLACED,
        memories=[("superseded", "short answers with bullet points please", "first")],
        keeps="short",
    )

    assert not result.kept
    assert not result.passed


def test_a_part_to_keep_must_occur_in_the_first_statement(tmp_path):
    with pytest.raises(CommandError, match="`keeps` does not occur in `first`"):
        _run(_pairs(tmp_path, [{**COMPOUND, "keeps": "tables"}]))
