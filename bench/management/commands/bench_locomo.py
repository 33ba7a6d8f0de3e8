"""Retrieval benchmark on LoCoMo-shaped data, through the same search the API uses.

    python manage.py bench_locomo ../shared/bench/locomo10.json [--k 5,10,25] [--json OUT]
        [--halves] [--tokens] [--memories]

Each conversation is imported as its own user through the import service (external_id =
dia_id, the first speaker as "user"), then every question is searched in that user's data
only. Recall@k = the share of a question's evidence turns among the top k (LoCoMo paper),
averaged per category and overall, for keyword-only, vector-only and the full hybrid.

`--halves` splits the people (conversations) into two halves (even and odd positions in the
file) and prints the hybrid per half; then, for each half, it picks the fusion's vector share
(`search.VECTOR_SHARE`, by the query's script: one file is one language) that gives that
half the best recall@10 and prints what that share scores on the other half, so a setting is
always reported on people it was not chosen on.
`--tokens` prints the mean and p95 of `context.tokens` of the context the product assembles
for each question (`context_preview`, as `POST /api/v1/context/` does) and of the hybrid's
top 10 hits (the text behind the recall@10 printed).
`--memories` runs the product's memory extraction (the offline rules, as an import's worker
does, speaker_a's turns being the user's) over every user turn the import has not extracted
yet, prints how many memories there are, and scores one more mode, "hybrid+memories": the
search behind `POST /api/v1/search/` over messages and memories (`search.search`), where a
memory hit counts as the turn its current version was taken from (for a replaced memory,
the turn that said the latest value). With `--halves` it is printed per half too.
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
from conversations.models import ChatSession, Message
from conversations.services import imports
from conversations.services.context import context_preview
from memories.models import Memory, MemoryStatus, MemoryVersion, Reader
from memoryhub.text import estimate_tokens

MODES = {
    "keyword only (BM25)": ("keyword",),
    "vector only": ("vector",),
    "hybrid": ("keyword", "topic", "vector"),
}
HYBRID = "hybrid"
# Search over messages and memories (`--memories`), as `POST /api/v1/search/` with these kinds.
WITH_MEMORIES = "hybrid+memories"
MEMORY_SEARCH_KINDS = ("message", "memory")
# The vector shares `--halves` chooses from (search.VECTOR_SHARE's are among them).
VECTOR_SHARES = tuple(round(0.1 + 0.05 * i, 2) for i in range(15))
TOKENS_AT = 10

# One scored question: (its conversation's position, its category, recall at each k).
Scored = tuple[int, int, dict[int, float]]


def recall(found: list[str | None], evidence: list[str], k: int) -> float:
    return len(set(found[:k]) & set(evidence)) / len(evidence)


def summary(scored: list[Scored], ks: list[int]) -> dict[str, Any]:
    """Recall@k per category and overall (the mean over questions)."""
    per_category: dict[int, list[dict[int, float]]] = {}
    for _conv, category, shares in scored:
        per_category.setdefault(category, []).append(shares)
    return {
        "overall": {k: mean(s[k] for _c, _cat, s in scored) for k in ks} if scored else {},
        "categories": {
            str(c): {k: mean(r[k] for r in rows) for k in ks} | {"n": len(rows)}
            for c, rows in sorted(per_category.items())
        },
    }


def percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(share * len(ordered)))]) if ordered else 0.0


def memory_source_turns(*, user_id: int) -> dict[str, str | None]:
    """Each of the user's memories (id as search gives it) to the external id of the message
    its current version was taken from."""
    sources = dict(
        Memory.objects.filter(user_id=user_id).values_list(
            "pk", "current_version__source_message_id"
        )
    )
    external = dict(
        Message.objects.filter(
            user_id=user_id, pk__in=[s for s in sources.values() if s is not None]
        ).values_list("pk", "external_id")
    )
    return {
        str(memory): external.get(source) if source is not None else None
        for memory, source in sources.items()
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
        parser.add_argument(
            "--halves",
            action="store_true",
            help="choose the vector share on half of the people, score the other",
        )
        parser.add_argument(
            "--tokens",
            action="store_true",
            help="print mean and p95 of the assembled context's tokens",
        )
        parser.add_argument(
            "--memories",
            action="store_true",
            help="extract memories from the user turns, score search over messages and memories",
        )

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
        if options["memories"]:
            results["memories"] = self._extract(users)
        top = max(ks)
        retrieved: list[tuple[int, Any, search.Retrieved | None, Any]] = []
        hybrid_hits: list[list[search.Hit]] = []
        for label, modes in MODES.items():
            scored: list[Scored] = []
            timings: list[float] = []
            for position, (conv, user) in enumerate(zip(conversations, users, strict=True)):
                for question in conv.questions:
                    t0 = time.monotonic()
                    found = search.retrieve(user_id=user.pk, query_text=question.question,
                                            modes=modes)  # fmt: skip
                    hits = search.message_hits(user_id=user.pk, query_text=question.question,
                                               k=top, modes=modes, retrieved=found)  # fmt: skip
                    timings.append((time.monotonic() - t0) * 1000)
                    ids = [h.external_id for h in hits]
                    scored.append((position, question.category,
                                   {k: recall(ids, question.evidence, k) for k in ks}))  # fmt: skip
                    if label == HYBRID:
                        retrieved.append((position, question, found, user))
                        hybrid_hits.append(hits)
            results["modes"][label] = {
                "ms_per_query": mean(timings) if timings else 0.0,
                **summary(scored, ks),
            }
            if label == HYBRID:
                results["hybrid_scored"] = scored
        memory_scored: list[Scored] = []
        if options["memories"]:
            memory_scored, results["modes"][WITH_MEMORIES] = self._with_memories(
                conversations, users, ks
            )
        self._print(results, ks)
        if options["halves"]:
            results["halves"] = self._halves(results.pop("hybrid_scored"), retrieved, ks)
            if options["memories"]:
                results["halves"] |= self._memory_halves(memory_scored, ks)
        results.pop("hybrid_scored", None)
        if options["tokens"]:
            results["tokens"] = self._tokens(retrieved, hybrid_hits)
        skipped = sum(c.skipped_questions for c in conversations)
        dropped = sum(c.dropped_evidence_ids for c in conversations)
        results["skipped_questions"] = skipped
        results["dropped_evidence_ids"] = dropped
        self.stdout.write(
            f"questions skipped (no usable evidence): {skipped}; "
            f"evidence ids dropped (malformed or missing turn): {dropped}"
        )
        if options["json"]:
            options["json"].write_text(json.dumps(results, indent=2))
        if not options["keep"]:
            for user in users:
                user.delete()

    def _extract(self, users: list[Any]) -> dict[str, Any]:
        """Memories from every user turn the import left unextracted, session by session in
        order as the import's worker does (none when the import extracted them already,
        MEMORYHUB_IMPORT_EXTRACTION=offline); what the users' memories now are."""
        started = time.monotonic()
        tried = 0
        for user in users:
            for session in ChatSession.objects.filter(user_id=user.pk).order_by("started_at", "id"):
                tried += imports.session_memories_extract(session=session, mode="offline")
        seconds = time.monotonic() - started
        ids = [user.pk for user in users]
        out = {
            "memories": Memory.objects.filter(user_id__in=ids).count(),
            "active": Memory.objects.filter(user_id__in=ids, status=MemoryStatus.ACTIVE).count(),
            "replaced": Memory.objects.filter(
                user_id__in=ids, current_version__version__gt=1
            ).count(),
            "versions": MemoryVersion.objects.filter(user_id__in=ids).count(),
            "user_turns": Message.objects.filter(user_id__in=ids, role=Message.Role.USER).count(),
            "extracted_after_import": tried,
        }
        self.stdout.write(
            f"memories made: {out['memories']} ({out['active']} active, {out['replaced']} "
            f"replaced by a later version; {out['versions']} versions) from "
            f"{out['user_turns']} user turns; {tried} turns extracted after the import "
            f"in {seconds:.0f} s"
        )
        return out

    def _with_memories(
        self, conversations: list[BenchConversation], users: list[Any], ks: list[int]
    ) -> tuple[list[Scored], dict[str, Any]]:
        """Recall@k of search over messages and memories; a memory hit is the turn its
        current version was taken from."""
        scored: list[Scored] = []
        timings: list[float] = []
        for position, (conv, user) in enumerate(zip(conversations, users, strict=True)):
            turn_of = memory_source_turns(user_id=user.pk)
            for question in conv.questions:
                t0 = time.monotonic()
                hits, _took = search.search(user_id=user.pk, query=question.question,
                                            reader=Reader.ASSISTANT, k=max(ks),
                                            kinds=MEMORY_SEARCH_KINDS)  # fmt: skip
                timings.append((time.monotonic() - t0) * 1000)
                ids = [turn_of.get(h.id) if h.kind == "memory" else h.external_id for h in hits]
                scored.append((position, question.category,
                               {k: recall(ids, question.evidence, k) for k in ks}))  # fmt: skip
        return scored, {"ms_per_query": mean(timings) if timings else 0.0, **summary(scored, ks)}

    def _memory_halves(self, scored: list[Scored], ks: list[int]) -> dict[str, Any]:
        header = " ".join(f"R@{k:<5}" for k in ks)
        out: dict[str, Any] = {}
        for name, parity in (("even", 0), ("odd", 1)):
            out[f"memories_on_{name}"] = summary([r for r in scored if r[0] % 2 == parity], ks)
            self.stdout.write(f"\n{WITH_MEMORIES} on the {name} half of the people")
            self._print_table(out[f"memories_on_{name}"], ks, header)
        return out

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
            self._print_table(data, ks, header)

    def _halves(self, scored: list[Scored], retrieved: list[Any], ks: list[int]) -> dict[str, Any]:
        """The hybrid per half of the people, and each half's chosen vector share scored on
        the other half."""
        halves = {"even": 0, "odd": 1}
        by_share: dict[float, list[Scored]] = {}
        for share in VECTOR_SHARES:
            rows: list[Scored] = []
            for position, question, found, user in retrieved:
                hits = search.message_hits(
                    user_id=user.pk,
                    query_text=question.question,
                    k=max(ks),
                    vector_share=share,
                    retrieved=found,
                )
                ids = [h.external_id for h in hits]
                rows.append((position, question.category,
                             {k: recall(ids, question.evidence, k) for k in ks}))  # fmt: skip
            by_share[share] = rows
        # The share the product gives this file's questions (the mean, as a mixed-script
        # question gets one in between).
        product = round(
            mean(search.query_vector_share(q.question) for _p, q, _f, _u in retrieved), 3
        )
        out: dict[str, Any] = {"shares": list(VECTOR_SHARES), "product_share": product}
        for name, parity in halves.items():
            mine = [row for row in scored if row[0] % 2 == parity]
            out[f"product_on_{name}"] = summary(mine, ks)
        curve: dict[str, dict[float, float]] = {name: {} for name in halves}
        for name, parity in halves.items():
            for share, rows in by_share.items():
                at = [r[2][10 if 10 in ks else max(ks)] for r in rows if r[0] % 2 == parity]
                curve[name][share] = mean(at) if at else 0.0
        out["recall_at_10_by_share"] = curve
        for name, parity in halves.items():
            # Ties go to the share nearer the product's, then the smaller.
            chosen = max(
                VECTOR_SHARES,
                key=lambda s: (round(curve[name][s], 6), -abs(s - product), -s),
            )
            other = [row for row in by_share[chosen] if row[0] % 2 != parity]
            out[f"chosen_on_{name}"] = {"share": chosen, "other_half": summary(other, ks)}
        self._print_halves(out, ks)
        return out

    def _print_halves(self, out: dict[str, Any], ks: list[int]) -> None:
        header = " ".join(f"R@{k:<5}" for k in ks)
        for name in ("even", "odd"):
            share = out["product_share"]
            self.stdout.write(f"\nhybrid (the product's vector share, {share} on average) "
                              f"on the {name} half of the people")  # fmt: skip
            self._print_table(out[f"product_on_{name}"], ks, header)
        self.stdout.write("\nrecall@10 by vector share: "
                          + "; ".join(f"{s}: " + " / ".join(
                              f"{out['recall_at_10_by_share'][n][s]:.3f}" for n in ("even", "odd"))
                              for s in out["shares"]) + " (even / odd half)")  # fmt: skip
        for name, other in (("even", "odd"), ("odd", "even")):
            chosen = out[f"chosen_on_{name}"]
            self.stdout.write(f"\nvector share chosen on the {name} half: {chosen['share']}; "
                              f"scored on the {other} half")  # fmt: skip
            self._print_table(chosen["other_half"], ks, header)

    def _print_table(self, data: dict[str, Any], ks: list[int], header: str) -> None:
        self.stdout.write(f"{'category':<14} {'n':>5} {header}")
        for category, row in data["categories"].items():
            values = " ".join(f"{row[k]:.3f} " for k in ks)
            self.stdout.write(f"{category:<14} {row['n']:>5} {values}")
        overall = " ".join(f"{data['overall'][k]:.3f} " for k in ks)
        self.stdout.write(f"{'overall':<14} {'':>5} {overall}")

    def _tokens(self, retrieved: list[Any], hybrid_hits: list[list[search.Hit]]) -> dict[str, Any]:
        """Tokens of the context the product assembles per question, and of the top hits."""
        context_tokens: list[int] = []
        hit_tokens: list[int] = []
        for (_position, question, _found, user), hits in zip(retrieved, hybrid_hits, strict=True):
            context = context_preview(user=user, content=question.question, session=None,
                                      reader=Reader.ASSISTANT)  # fmt: skip
            context_tokens.append(context.tokens)
            hit_tokens.append(sum(estimate_tokens(h.text) for h in hits[:TOKENS_AT]))
        out = {
            "context_tokens": {"mean": mean(context_tokens) if context_tokens else 0.0,
                               "p95": percentile(context_tokens, 0.95)},
            f"top_{TOKENS_AT}_hit_tokens": {"mean": mean(hit_tokens) if hit_tokens else 0.0,
                                            "p95": percentile(hit_tokens, 0.95)},
        }  # fmt: skip
        self.stdout.write(
            f"\ncontext.tokens (context_preview, {len(context_tokens)} questions): mean "
            f"{out['context_tokens']['mean']:.0f}, p95 {out['context_tokens']['p95']:.0f}; "
            f"the hybrid's top {TOKENS_AT} hits: mean "
            f"{out[f'top_{TOKENS_AT}_hit_tokens']['mean']:.0f}, p95 "
            f"{out[f'top_{TOKENS_AT}_hit_tokens']['p95']:.0f}"
        )
        return out
