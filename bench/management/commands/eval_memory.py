"""Seed 003's memory evaluation table, with memory and without, on scenarios of its own.

    python manage.py eval_memory [--quick] [--scenarios ID,ROW,...] [--json OUT]
                                 [--readme [FILE]] [--keep]

Every scenario runs through the real product paths (chat, extraction, session end, memory
API services, deletion, context, search, export) for users named `eval-<run>-...`, which are
deleted at the end unless --keep. Works offline and with the Anthropic provider alike.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from dataclasses import asdict
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from bench.evaluation import report
from bench.evaluation.runner import Evaluation, RunResult
from bench.evaluation.scenarios import SCENARIOS, UnknownScenario, select
from memoryhub import llm


def _header(result: RunResult, provider: str) -> str:
    languages = sorted({r.lang for r in result.results})
    return (
        f"Memory evaluation (seed 003 section 7), {timezone.now():%Y-%m-%d}: "
        f"{len(result.results)} scenarios ({', '.join(languages)}), provider {provider}, "
        f"embeddings {settings.MEMORYHUB_EMBEDDING_BACKEND}, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; `python manage.py eval_memory`."
    )


def _json(result: RunResult, table: report.Table, provider: str) -> dict[str, Any]:
    by_id = {s.id: s for s in SCENARIOS}
    return {
        "created_at": timezone.now().isoformat(),
        "provider": provider,
        "embedding_backend": settings.MEMORYHUB_EMBEDDING_BACKEND,
        "table": [asdict(row) for row in table.rows],
        "notes": table.notes,
        "scenarios": [
            {
                "id": r.scenario_id,
                "row": r.row.value,
                "lang": r.lang,
                "about": by_id[r.scenario_id].about,
                "question": by_id[r.scenario_id].question,
                "with_memory": asdict(r.with_memory),
                "without_memory": asdict(r.without_memory),
                "observed": asdict(observed),
                "baseline": asdict(baseline),
            }
            for r, (observed, baseline) in zip(result.results, result.observations, strict=True)
        ],
        "usage": {
            "with_memory": asdict(result.with_memory),
            "without_memory": asdict(result.without_memory),
        },
    }


class Command(BaseCommand):
    help = "Run seed 003's memory evaluation (with and without memory) and print the table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--scenarios", default="", help="comma-separated scenario ids, id prefixes or rows"
        )
        parser.add_argument(
            "--quick", action="store_true", help="one Korean and one English scenario per row"
        )
        parser.add_argument("--json", type=Path, default=None, help="write the results here")
        parser.add_argument(
            "--readme",
            type=Path,
            nargs="?",
            const=settings.BASE_DIR / "README.md",
            default=None,
            help="rewrite the eval_memory block of README.md (or of the given file)",
        )
        parser.add_argument("--keep", action="store_true", help="keep the eval users")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            scenarios = select(only=options["scenarios"], quick=options["quick"])
        except UnknownScenario as exc:
            raise CommandError(str(exc)) from exc
        readme: Path | None = options["readme"]
        if readme is not None and not readme.exists():
            raise CommandError(f"{readme} does not exist")
        provider = llm.get_provider().name
        prefix = f"eval-{uuid.uuid4().hex[:8]}"
        self.stdout.write(f"{len(scenarios)} scenarios, provider {provider}, users {prefix}-*")
        evaluation = Evaluation(prefix=prefix, progress=self.stdout.write)
        started = time.monotonic()
        try:
            result = evaluation.run(scenarios)
        finally:
            if not options["keep"]:
                evaluation.cleanup()
        self.stdout.write(f"done in {time.monotonic() - started:.0f} s")
        table = report.build_table(
            result.results,
            result.with_memory,
            result.without_memory,
            header=_header(result, provider),
        )
        self.stdout.write(report.render_text(table))
        if options["json"]:
            options["json"].write_text(
                json.dumps(_json(result, table, provider), ensure_ascii=False, indent=2)
            )
        if readme is not None:
            text = readme.read_text(encoding="utf-8")
            readme.write_text(
                report.readme_with_block(text, report.render_markdown(table)), encoding="utf-8"
            )
            self.stdout.write(f"wrote the table into {readme}")
