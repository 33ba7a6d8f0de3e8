"""Learn the capture gate's weights (`memories/logic/gate_weights.json`).

    python manage.py bench_train_gate FILE [FILE ...] [--recall 0.85] [--max-loss 0.005]
        [--l2 300] [--clause-features] [--threshold T] [--out PATH]

FILEs are statement corpora (`text`, `memorable`, `key`) and injection corpora (`text`,
`attack`: their benign preferences count as lines to keep). It prints, per file left out
(trained on the others), the recall and false captures of the offline reading before and after
the gate at the chosen threshold, then writes the weights learned on every line. The corpora
stay where they are; only the weights are written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.gate_training import (
    CorpusError,
    Matrix,
    choose_threshold,
    load_lines,
    prepare,
    weights_document,
)
from memories.logic import gate
from memoryhub.embeddings import embed_passages, get_embedder


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _row(name: str, figures: dict[str, Any]) -> str:
    return (
        f"{name:<34} recall {_percent(figures['recall_rules'])} -> {_percent(figures['recall'])}"
        f" ({figures['memorable']})   false {_percent(figures['false_rules'])} -> "
        f"{_percent(figures['false'])} ({figures['not_memorable']})"
    )


class Command(BaseCommand):
    help = "Learn the capture gate from labelled corpora, leave-one-file-out figures printed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--recall", type=float, default=0.85)
        parser.add_argument(
            "--max-loss", type=float, default=0.005, help="recall the gate may cost (share)"
        )
        parser.add_argument("--l2", type=float, default=300.0)
        parser.add_argument(
            "--clause-features",
            action="store_true",
            help="add the clause reading's counts to the embedding (left out by default: "
            "leave-one-file-out they cost more false captures than they save)",
        )
        parser.add_argument("--threshold", type=float, default=None, help="instead of choosing")
        parser.add_argument("--out", type=Path, default=gate.WEIGHTS_PATH)

    def handle(self, *args: Any, **options: Any) -> None:
        recall = options["recall"]
        l2 = options["l2"]
        if not 0.0 < recall <= 1.0:
            raise CommandError("--recall is a share between 0 and 1")
        if not 0.0 <= options["max_loss"] <= 1.0:
            raise CommandError("--max-loss is a share between 0 and 1")
        if l2 <= 0:
            raise CommandError("--l2 must be positive")
        try:
            lines = load_lines(options["files"])
        except CorpusError as exc:
            raise CommandError(str(exc)) from exc

        def embed(texts: list[str]) -> Matrix:
            return np.asarray(embed_passages(texts), dtype=np.float64)

        training = prepare(lines, embed=embed, l2=l2, clause=options["clause_features"])
        threshold = options["threshold"]
        if threshold is None:
            threshold = choose_threshold(training, recall=recall, max_loss=options["max_loss"])
        elif not 0.0 <= threshold <= 1.0:
            raise CommandError("--threshold is a probability")
        self.stdout.write(f"leave-one-file-out, threshold {threshold:.2f}:")
        for source in sorted({line.source for line in lines if line.scored}):
            self.stdout.write(_row(source, training.figures(threshold, only=source)))
        self.stdout.write(_row("all (pooled)", training.figures(threshold)))
        document = weights_document(training, threshold=threshold, l2=l2, dim=get_embedder().dim)
        out: Path = options["out"]
        out.write_text(json.dumps(document, ensure_ascii=False) + "\n", encoding="utf-8")
        self.stdout.write(f"wrote {out} ({len(lines)} lines)")
