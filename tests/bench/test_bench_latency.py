"""The latency benchmark command on a tiny data set: it builds, measures and prints every
figure (the numbers themselves are measured at scale, see docs/benchmarks.md)."""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import call_command

from bench import benchgen

FIGURES = [
    "context_preview end to end (embedding incl.)",
    "context_preview SQL only",
    "message_hits end to end (embedding incl.)",
    "message_hits SQL only",
    "full-precision scan of the user's rows",
    "vector_ranking (exact path)",
    "messages/s until keyword-searchable",
    "embeddings/s",
    "embedding only, interleaved baseline/new/baseline/new",
    "vectors identical",
    "database part p95 <= 30 ms",
    "end to end p95 <= 100 ms",
    "keyword-searchable >= 300 messages/s",
    "issue 18: context sql p95 <= 20 ms",
    "issue 18: context e2e p95 <= 50 ms",
    "issue 18: search e2e p95 <= 60 ms",
]


def test_a_tiny_run_builds_its_own_database_and_prints_every_figure(tmp_path):
    out = StringIO()
    report = tmp_path / "latency.json"

    call_command(
        "bench_latency", "--users", "3", "--messages", "300", "--measured-messages", "200",
        "--queries", "5", "--ingest-messages", "60", "--backfill-messages", "8",
        "--database-name", "test_latency_bench", "--drop", "--json", str(report), stdout=out,
    )  # fmt: skip

    printed = out.getvalue()
    for figure in FIGURES:
        assert figure in printed
    run = json.loads(report.read_text())["runs"][0]
    assert run["params"]["messages"] == 300
    assert run["latency"]["user_messages"] == 200
    for key in ("context_e2e", "context_sql", "search_e2e", "search_sql", "exact"):
        assert run["latency"][key]["p95"] > 0
    # The exact path ranks half-precision vectors: the full-precision top 10 but for near ties.
    assert run["latency"]["vector_overlap_at10"] >= 0.9
    assert run["ingest"]["keyword_indexed"] == 60
    assert run["ingest"]["embedded"] == 8
    paths = run["ingest"]["embedding_paths"]
    assert paths["texts"] == 8 and paths["identical_rows"] == 8
    assert paths["per_s"]["baseline"] > 0 and paths["per_s"]["new"] > 0


def test_generated_korean_takes_the_particle_that_fits():
    assert benchgen.attach_particles("여행(을) 호텔(을) 서울(으로) 부산(으로)") == (
        "여행을 호텔을 서울로 부산으로"
    )


def test_generated_queries_are_distinct_and_alternate_languages():
    asked = [text for _topic, text in benchgen.queries(40, seed=1)]

    assert len(set(asked)) == 40
    assert all(benchgen.TOPICS and text for text in asked)
    assert sum(any("\uac00" <= ch <= "\ud7a3" for ch in text) for text in asked) == 20
