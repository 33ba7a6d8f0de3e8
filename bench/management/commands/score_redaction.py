"""Score `redact()` alone on a secrets corpus.

    python manage.py score_redaction ../shared/corpora/secrets.jsonl

Prints the line counts, how many listed secrets survive redaction (target 0), how many `keep`
substrings stay intact (target 98%) and how many benign look-alike lines stay whole, then the
failing ids with the kind of failure. Secret values are never printed. Exits with an error
when any secret leaks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.evaluation.redaction import read_corpus, report_lines, score_corpus


class Command(BaseCommand):
    help = "Score secret redaction on a JSON Lines corpus (id, lang, text, secrets, keep)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("corpus", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["corpus"]
        if not path.is_file():
            raise CommandError(f"no such corpus file: {path}")
        score = score_corpus(read_corpus(path))
        for line in report_lines(score):
            self.stdout.write(line)
        if score.leaked:
            raise CommandError(f"{score.leaked} secret(s) leaked")
