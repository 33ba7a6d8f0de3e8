"""`score_redaction`: redact() alone against a secrets corpus (issue 13 line 2)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from bench.evaluation.redaction import check_stored, read_corpus, score_corpus, score_line

SECRET = "Tulip#Garden72"


def _corpus(tmp_path, rows):
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n")
    return path


ROWS = [
    {
        "id": "t-1",
        "lang": "ko",
        "text": f"비번은 {SECRET} 이야 잊지마",
        "secrets": [SECRET],
        "keep": ["잊지마"],
    },
    {
        "id": "t-2",
        "lang": "en",
        "text": "call me at 010-2222-3333",
        "secrets": [],
        "keep": ["010-2222-3333"],
    },
    {
        "id": "t-3",
        "lang": "en",
        "text": "the order 4111 1111 1111 1111 shipped",
        "secrets": [],
        "keep": ["4111 1111 1111 1111"],
    },
]


def test_a_line_reports_leaks_and_lost_keeps_by_index():
    assert score_line(text=f"pw: {SECRET} ok", secrets=[SECRET], keep=["ok"]).passed

    score = check_stored(stored=f"pw: {SECRET}", secrets=["x1", SECRET], keep=["ok", "pw"])

    assert score.leaked == (1,)
    assert score.lost == (0,)
    assert not score.passed


def test_the_command_prints_figures_and_failing_ids_without_secret_values(tmp_path):
    out = StringIO()

    call_command("score_redaction", str(_corpus(tmp_path, ROWS)), stdout=out)

    report = out.getvalue()
    assert "lines: 3 (1 with secrets, 2 benign)" in report
    assert "secrets leaked: 0 of 1" in report
    assert "keep substrings intact: 2 of 3 (66.7%" in report
    assert "benign lines fully intact: 1 of 2 (50.0%)" in report
    assert "t-3 (en): keep lost" in report  # a Luhn-valid test card is redacted, by design
    assert SECRET not in report


def test_a_leak_fails_the_command_and_names_only_the_line(tmp_path):
    rows = [
        {"id": "t-9", "lang": "en", "text": "plain words here", "secrets": ["words"], "keep": []}
    ]
    out = StringIO()

    with pytest.raises(CommandError, match="1 secret"):
        call_command("score_redaction", str(_corpus(tmp_path, rows)), stdout=out)

    assert "t-9 (en): leaked secret #1" in out.getvalue()
    assert "words" not in out.getvalue().split("t-9")[1]


def test_a_missing_corpus_file_is_an_error(tmp_path):
    with pytest.raises(CommandError, match="no such corpus"):
        call_command("score_redaction", str(tmp_path / "nope.jsonl"))


def test_the_developers_own_cases_leak_nothing_and_keep_everything():
    """460 lines written for these tests (not the shared corpus): every kind, Korean and
    English, full-width and zero-width variants, and benign look-alikes."""
    path = Path(__file__).with_name("redaction_cases.jsonl")

    score = score_corpus(read_corpus(path))

    assert score.leaked == 0, score.failures
    assert score.keep_kept == score.keep_total, score.failures
