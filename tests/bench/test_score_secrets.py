"""`manage.py score_secrets` on a tiny corpus written here."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from conversations.models import Message

pytestmark = pytest.mark.django_db(transaction=True)

API_KEY = "sk-ant-api03-Qw7pLm2Zx9Rt4Vb8Nc3Hy6Js1Kd5Fg0A"
CARD = "4012 8888 8888 1881"


def _line(id: str, text: str, secrets: list[str], keep: str) -> dict:
    return {"id": id, "text": text, "secrets": secrets, "keep": [keep]}


def _corpus(tmp_path, lines):
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n")
    return path


def test_score_secrets_reports_no_leak_and_every_keep_intact_for_redacted_lines(tmp_path):
    corpus = _corpus(
        tmp_path,
        [
            _line(
                "t-1", f"Our deploy key is {API_KEY} for the staging box.", [API_KEY], "staging box"
            ),
            _line("t-2", f"회사 카드 {CARD} 로 도메인 갱신 결제해줘", [CARD], "도메인 갱신"),
            _line("t-3", "택배 송장번호 6894 2231 0087 알려줄게", [], "6894 2231 0087"),
        ],
    )
    out = _run(corpus)

    assert "lines: 3 (2 with secrets, 1 benign)" in out
    assert "lines leaking a secret: 0 (target 0)" in out
    assert "all lines: 6/6 = 100.0%" in out
    assert "benign lines: 2/2 = 100.0%" in out
    assert "2/2 lines with secrets refused, 1/1 benign lines stored" in out


def test_score_secrets_names_the_line_and_place_of_a_leak_but_never_the_secret(tmp_path):
    # "hallway" is not a secret redact() knows; listing it makes the line leak everywhere.
    corpus = _corpus(
        tmp_path,
        [_line("t-9", "The spare key is in the hallway drawer.", ["hallway"], "spare key")],
    )
    out = _run(corpus)

    assert "lines leaking a secret: 1 (target 0)" in out
    assert "of which redact() missed the secret (stored by every path): 1" in out
    assert "t-9 (missed by redact()): " in out and "conversations_message.content" in out
    assert "broker:" not in out  # tasks carry ids: even a missed secret never reaches the broker
    assert "cache" in out  # the later session read the summary through the cache
    assert "hallway" not in out


def test_score_secrets_deletes_its_throwaway_users(tmp_path):
    corpus = _corpus(tmp_path, [_line("t-1", "hello there", [], "hello")])
    _run(corpus)

    assert not get_user_model().objects.filter(username__startswith="score-secrets-").exists()
    assert not Message.objects.exists()


def _run(corpus) -> str:
    from io import StringIO

    out = StringIO()
    call_command("score_secrets", str(corpus), stdout=out)
    return out.getvalue()


def test_a_short_numeric_secret_is_not_found_inside_a_hex_task_id():
    from bench.management.commands.score_secrets import secret_pattern

    pattern = secret_pattern("319")

    assert not pattern.search("Task x[8c1e319a-77f0-4b1e] succeeded in 0.0043190s")
    assert pattern.search("CVC 319 이고") and pattern.search("cvc:319.")
