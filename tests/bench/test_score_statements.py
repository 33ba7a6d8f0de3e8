"""`manage.py score_statements` on a tiny corpus written here."""

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from bench.management.commands.score_statements import clean_fact, folded
from memories.models import Memory

pytestmark = pytest.mark.django_db

LINES = [
    {
        "id": "t-1",
        "lang": "ko",
        "text": "나는 청주에 살고 주말마다 탁구를 쳐",
        "memorable": True,
        "key": "탁구",
        "type": "procedure",
    },
    {
        "id": "t-2",
        "lang": "en",
        "text": "My sister Dana is a pilot — remember that",
        "memorable": True,
        "key": "DANA",  # compared without case
        "type": "fact",
    },
    {"id": "t-3", "lang": "ko", "text": "아 배고프다", "memorable": False},
    {"id": "t-4", "lang": "en", "text": "Can you list three soup recipes?", "memorable": False},
    # A line the offline reading misses: the score must say so.
    {
        "id": "t-5",
        "lang": "en",
        "text": "Saturdays: pottery class.",
        "memorable": True,
        "key": "pottery",
        "type": "procedure",
    },
]


def _corpus(tmp_path, lines) -> str:
    path = tmp_path / "statements.jsonl"
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n")
    return str(path)


def _run(*args: str) -> str:
    out = StringIO()
    call_command("score_statements", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_score_statements_reports_recall_false_captures_and_precision(tmp_path):
    report = tmp_path / "report.json"

    text = _run(_corpus(tmp_path, LINES), "--json", str(report))

    assert "lines 5 (3 memorable, 2 not)" in text
    assert "recall 2/3 = 66.7% (target >= 85%)" in text
    assert "false captures 0/2 = 0.0% (target <= 5%)" in text
    assert "precision 100.0%" in text
    assert "lang ko:" in text and "lang en:" in text
    assert "type procedure:  recall 1/2 = 50.0%" in text
    assert "FAIL t-5 memorable procedure: no memory" in text
    payload = json.loads(report.read_text())
    assert payload["counts"]["all"]["captured"] == 2
    by_id = {line["id"]: line for line in payload["lines"]}
    assert any("탁구" in content for _, _, content in by_id["t-1"]["memories"])


def test_score_statements_counts_a_memory_from_a_not_memorable_line_as_a_false_capture(tmp_path):
    line = {"id": "t-9", "lang": "ko", "text": "나는 매일 아침 조깅해", "memorable": False}

    text = _run(_corpus(tmp_path, [line]))

    assert "false captures 1/1 = 100.0%" in text
    assert "FAIL t-9 not memorable: false capture: 매일 아침 조깅함" in text


def test_score_statements_keeps_no_user_or_memory_it_made(tmp_path):
    users = get_user_model().objects.count()

    _run(_corpus(tmp_path, LINES[:2]))

    assert get_user_model().objects.count() == users
    assert not Memory.objects.exists()


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ({"id": "x", "text": "hi"}, "boolean `memorable`"),
        ({"id": "x", "text": "", "memorable": False}, "non-empty string `text`"),
        ({"id": "x", "text": "I swim", "memorable": True}, "needs a string `key`"),
        ({"id": "x", "text": "I swim", "memorable": True, "key": "run"}, "does not occur"),
    ],
)
def test_a_malformed_line_is_a_clear_error_naming_the_line(tmp_path, line, error):
    with pytest.raises(CommandError, match=error):
        _run(_corpus(tmp_path, [line]))


def test_keys_are_compared_without_case_or_width():
    assert folded("ＴｈｉｎｋＰａｄ") == folded("thinkpad")


def test_score_statements_counts_the_clean_facts_per_language(tmp_path):
    report = tmp_path / "report.json"

    text = _run(_corpus(tmp_path, LINES), "--json", str(report))

    assert "clean facts" in text
    clean = json.loads(report.read_text())["clean_facts"]
    assert clean["ko"][1] >= 1
    assert clean["en"][0] == clean["en"][1]


@pytest.mark.parametrize(
    ("content", "clean"),
    [
        ("Lives in Leeds", True),
        ("청주에 삶", True),
        ("Big news: we moved to Leeds", False),
        ("I live in Leeds", False),
        ("Is Priya Natarajan", False),
        ("나 청주에 살아", False),
    ],
)
def test_a_clean_fact_has_no_first_person_frame_opener_or_sentence_ending(content, clean):
    assert clean_fact(content) is clean
