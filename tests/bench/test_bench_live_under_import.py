"""The plumbing of `bench_live_under_import` on a tiny size (timings are printed, never
asserted here)."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from bench.management.commands import bench_live_under_import as bench
from conversations.services import imports


def test_the_payload_is_a_valid_import_of_exactly_the_size_asked():
    payload = bench.import_payload(137, seed=3)

    parsed = imports.parse_payload(payload)

    assert sum(len(s.messages) for s in parsed) == 137
    assert {m.role for s in parsed for m in s.messages} == {"user", "assistant"}


def test_the_live_sentences_are_distinct_requests_to_remember():
    sentences = bench.live_sentences(40, seed=1)

    assert len(set(sentences)) == 40
    assert all(s.startswith("Remember that ") for s in sentences)


def test_the_nearest_rank_p95():
    assert bench.p95([1.0]) == 1.0
    assert bench.p95([float(i) for i in range(1, 21)]) == 19.0
    assert bench.p95([float(i) for i in range(1, 101)]) == 95.0


@pytest.mark.django_db
@pytest.mark.parametrize("argv", [["--messages", "0"], ["--messages", "50001"], ["--live", "0"]])
def test_bad_sizes_are_a_command_error(argv):
    with pytest.raises(CommandError):
        call_command("bench_live_under_import", *argv)


@pytest.mark.worker
def test_a_tiny_run_starts_real_workers_and_prints_both_rows_and_the_import(transactional_db):
    out = io.StringIO()

    call_command(
        "bench_live_under_import",
        "--messages",
        "40",
        "--live",
        "2",
        "--baseline",
        "1",
        "--interval",
        "0.2",
        stdout=out,
    )

    text = out.getvalue()
    assert "-Q live --concurrency" in text and "-Q bulk,celery --concurrency" in text
    assert re.search(r"^baseline +n=1 +send->memory p50=", text, re.M), text
    assert re.search(r"^under import +n=2 +send->memory p50=.*timeouts=0$", text, re.M), text
    assert re.search(r"^import of X after \d+ s: \w+; stored \d+/40;", text, re.M), text
    assert "target: p95 under import at most 5 s:" in text
    assert not get_user_model().objects.filter(username__startswith="bench-").exists()
