"""Retrieval benchmark on LoCoMo-shaped data, through the same search the API uses.

    python manage.py bench_locomo ../shared/bench/locomo10.json [--k 5,10,25] [--json OUT]

Each conversation is imported as its own user through the import service (external_id =
dia_id, the first speaker as "user"), then every question is searched in that user's data
only. Recall@k = the share of a question's evidence turns among the top k (LoCoMo paper),
averaged per category and overall, for keyword-only, vector-only and the full hybrid.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta
from pathlib import Path
from statistics import mean
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from bench.benchdata import BenchConversation, load
from conversations import search
from conversations.models import Message
from conversations.services import imports

MODES = {
    "keyword only (BM25)": ("keyword",),
    "vector only": ("vector",),
    "hybrid": ("keyword", "topic", "vector"),
}


def conversation_payload(conv: BenchConversation) -> dict[str, Any]:
    sessions = []
    for session in conv.sessions:
        start = session.date or (timezone.now() - timedelta(days=365)).replace(tzinfo=None)
        start = timezone.make_aware(start, timezone.get_default_timezone())
        sessions.append({
            "started_at": start.isoformat(),
            "messages": [
                {
                    "role": "user" if turn.speaker == conv.speaker_a else "assistant",
                    "content": turn.text, "speaker": turn.speaker, "external_id": turn.dia_id,
                    "created_at": (start + timedelta(seconds=30 * i)).isoformat(),
                }
                for i, turn in enumerate(session.turns)
            ],
        })  # fmt: skip
    return {"sessions": sessions}


class Command(BaseCommand):
    help = "Recall@k of memory search on LoCoMo-shaped conversations (BM25, vector, hybrid)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--k", default="5,10,25")
        parser.add_argument("--json", type=Path, default=None)
        parser.add_argument("--conversations", type=int, default=0, help="first N only")
        parser.add_argument("--keep", action="store_true", help="keep (and reuse) the users")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        if not path.exists():
            raise CommandError(f"{path} does not exist")
        try:
            ks = sorted({int(k) for k in options["k"].split(",")})
        except ValueError as exc:
            raise CommandError("--k takes numbers like 5,10,25") from exc
        conversations = load(path)
        if options["conversations"]:
            conversations = conversations[: options["conversations"]]
        users = []
        started = time.monotonic()
        for conv in conversations:
            users.append(self._import(path.stem, conv))
        import_seconds = time.monotonic() - started
        turns = sum(len(s.turns) for c in conversations for s in c.sessions)
        self.stdout.write(f"{path.name}: {len(conversations)} conversations, {turns} turns "
                          f"imported and indexed in {import_seconds:.0f} s")  # fmt: skip
        results: dict[str, Any] = {"file": path.name, "k": ks, "modes": {}}
        top = max(ks)
        for label, modes in MODES.items():
            per_category: dict[int, dict[int, list[float]]] = {}
            timings: list[float] = []
            for conv, user in zip(conversations, users, strict=True):
                for question in conv.questions:
                    t0 = time.monotonic()
                    hits = search.message_hits(user_id=user.pk, query_text=question.question,
                                               k=top, modes=modes)  # fmt: skip
                    timings.append((time.monotonic() - t0) * 1000)
                    found = [h.external_id for h in hits]
                    for k in ks:
                        share = len(set(found[:k]) & set(question.evidence)) / len(
                            question.evidence
                        )
                        per_category.setdefault(question.category, {}).setdefault(k, []).append(
                            share
                        )
            results["modes"][label] = {
                "ms_per_query": mean(timings) if timings else 0.0,
                "overall": {k: mean(v for c in per_category.values() for v in c[k]) for k in ks},
                "categories": {
                    str(c): {k: mean(vals[k]) for k in ks} | {"n": len(vals[ks[0]])}
                    for c, vals in sorted(per_category.items())
                },
            }
        skipped = sum(c.skipped_questions for c in conversations)
        dropped = sum(c.dropped_evidence_ids for c in conversations)
        results["skipped_questions"] = skipped
        results["dropped_evidence_ids"] = dropped
        self._print(results, ks)
        self.stdout.write(
            f"questions skipped (no usable evidence): {skipped}; "
            f"evidence ids dropped (malformed or missing turn): {dropped}"
        )
        if options["json"]:
            options["json"].write_text(json.dumps(results, indent=2))
        if not options["keep"]:
            for user in users:
                user.delete()

    def _import(self, name: str, conv: BenchConversation) -> Any:
        username = f"bench-{name}-{conv.sample_id}"[:150]
        user, created = get_user_model().objects.get_or_create(username=username)
        expected = sum(len(s.turns) for s in conv.sessions)
        if not created and Message.objects.filter(user=user).count() == expected:
            return user  # kept from an earlier --keep run
        imports.history_import_create_inline(user=user, payload=conversation_payload(conv))
        return user

    def _print(self, results: dict[str, Any], ks: list[int]) -> None:
        header = " ".join(f"R@{k:<5}" for k in ks)
        for label, data in results["modes"].items():
            self.stdout.write(f"\n{label}  ({data['ms_per_query']:.1f} ms/query)")
            self.stdout.write(f"{'category':<14} {'n':>5} {header}")
            for category, row in data["categories"].items():
                values = " ".join(f"{row[k]:.3f} " for k in ks)
                self.stdout.write(f"{category:<14} {row['n']:>5} {values}")
            overall = " ".join(f"{data['overall'][k]:.3f} " for k in ks)
            self.stdout.write(f"{'overall':<14} {'':>5} {overall}")
