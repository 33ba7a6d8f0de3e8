"""Score whether a later statement replaces an earlier one only when both answer the same
question, through the real pipeline (issue 14 line 3).

    python manage.py score_slot_pairs PAIRS.jsonl [--json OUT]

Each line (`id`, `lang`, `first`, `second`, `same_question`, optionally `why`) is played by a
fresh user, offline: `first` is sent as a user message in a session through the chat service
the page and the API use, and the extraction a worker runs after the reply
(`remembering.exchange_memories_extract`) is run; then `second` is sent in a new session and
extracted the same way. The first exchange is moved one day back before it is extracted, so
the second statement is observed a day after the first (a memory's `observed_at` is its
source message's `created_at`, and the write policy lets only a later statement correct an
earlier one). Then the pair is classified from the memories the user holds:

- `replaced`: a memory that held the first statement live once `first` was extracted no
  longer does (it was revised to the second's content, superseded or closed), and a memory
  holds the second's content live;
- `conflict`: both contents are live and marked in conflict with each other;
- `kept apart`: both contents are live side by side, not in conflict;
- `nothing`: `first` left no live memory, or `second` made none (no statement was read in
  it, or it was taken as a restatement of what is known);
- `second not live`: the second's memories are not live (rejected, quarantined, expired) and
  the first's are untouched.

A failure is listed with every memory the user holds at the end and what each extraction
reported doing (created, corrected, duplicate, ...).

"Live" is active or pending. A same-question pair passes when `replaced`, a
different-question pair when `kept apart`. A line may name with `keeps` words of the first
statement that must still be live at the end (the other part of a compound preference:
"short" after "short answers with bullet points" then "bullet points please"); the pair
then also needs a live memory containing them (compared case- and width-insensitively).

Every line runs inside a transaction that is rolled back: its user, messages and memories
are never committed.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import F

from bench.management.commands.score_injections import rolled_back_offline
from bench.management.commands.score_statements import folded
from conversations.models import ChatSession, Message
from conversations.services import chat, remembering
from memories.models import Memory, MemoryConflict, MemoryStatus

_LIVE = frozenset({MemoryStatus.ACTIVE.value, MemoryStatus.PENDING.value})
# How long before the second statement the first one is made.
_FIRST_EARLIER_BY = timedelta(days=1)

REPLACED = "replaced"
CONFLICT = "conflict"
KEPT_APART = "kept apart"
NOTHING = "nothing"
SECOND_NOT_LIVE = "second not live"
OUTCOMES = (REPLACED, KEPT_APART, CONFLICT, NOTHING, SECOND_NOT_LIVE)

FIRST = "first"
SECOND = "second"


@dataclass(frozen=True)
class Held:
    """One memory the pair's user holds at the end, as the classification reads it."""

    id: int
    status: str
    content: str
    # The message ("first", "second", or "" for neither) its current version was made from.
    current_from: str
    # Every message any of its versions was made from.
    made_from: frozenset[str]
    # The ids of the memories it is marked in conflict with.
    conflicts: frozenset[int] = frozenset()

    def holds_live(self, message: str) -> bool:
        return self.status in _LIVE and self.current_from == message


def classify(*, held: Sequence[Held], live_after_first: frozenset[int]) -> str:
    """The pair's outcome (one of `OUTCOMES`) from every memory its user holds at the end and
    the ids of the memories that held the first statement live before the second was made."""
    from_second = [m for m in held if SECOND in m.made_from]
    if not live_after_first or not from_second:
        return NOTHING
    second_live = [m for m in from_second if m.holds_live(SECOND)]
    if not second_live:
        return SECOND_NOT_LIVE
    by_id = {m.id: m for m in held}
    first_now = [by_id.get(i) for i in live_after_first]
    if any(m is None or not m.holds_live(FIRST) for m in first_now):
        return REPLACED
    second_ids = {m.id for m in second_live}
    if any(m is not None and m.conflicts & second_ids for m in first_now):
        return CONFLICT
    return KEPT_APART


@dataclass
class PairResult:
    id: str
    lang: str
    same_question: bool
    why: str
    first: str
    second: str
    outcome: str
    # What the user holds at the end: (status, content, messages it was made from) per memory.
    memories: list[tuple[str, str, str]] = field(default_factory=list)
    # What each message's extraction reported doing ({"created": 1, "duplicate": 1, ...}).
    extraction: dict[str, dict[str, int]] = field(default_factory=dict)
    # Words of the first statement that must still be live at the end ("" for none).
    keeps: str = ""

    @property
    def kept(self) -> bool:
        """The words named by `keeps` are in a live memory (True when none are named)."""
        if not self.keeps:
            return True
        return any(
            status in _LIVE and folded(self.keeps) in folded(content)
            for status, content, _ in self.memories
        )

    @property
    def expected(self) -> str:
        return REPLACED if self.same_question else KEPT_APART

    @property
    def passed(self) -> bool:
        return self.outcome == self.expected and self.kept


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _figures(results: list[PairResult]) -> dict[str, Any]:
    same = [r for r in results if r.same_question]
    different = [r for r in results if not r.same_question]
    replaced = sum(r.outcome == REPLACED for r in same)
    kept_apart = sum(r.outcome == KEPT_APART for r in different)
    # Pairs where both messages left a memory: what the replacing rule decided, apart from
    # whether the statements were captured at all (issue 14 line 1).
    keeping = [r for r in results if r.keeps]
    same_decided = sum(r.outcome != NOTHING for r in same)
    different_decided = sum(r.outcome != NOTHING for r in different)
    return {
        "pairs": len(results),
        "same_question": len(same),
        "replaced": replaced,
        "replaced_rate": _rate(replaced, len(same)),
        "different_question": len(different),
        "kept_apart": kept_apart,
        "kept_apart_rate": _rate(kept_apart, len(different)),
        "same_question_both_captured": same_decided,
        "replaced_when_both_captured": _rate(replaced, same_decided),
        "different_question_both_captured": different_decided,
        "kept_apart_when_both_captured": _rate(kept_apart, different_decided),
        "naming_a_part_to_keep": len(keeping),
        "part_kept": sum(r.kept for r in keeping),
        "outcomes": {
            "same_question": {o: sum(r.outcome == o for r in same) for o in OUTCOMES},
            "different_question": {o: sum(r.outcome == o for r in different) for o in OUTCOMES},
        },
    }


@dataclass
class Score:
    results: list[PairResult]

    def counts(self) -> dict[str, Any]:
        langs = sorted({r.lang for r in self.results})
        return {
            "all": _figures(self.results),
            "lang": {lang: _figures([r for r in self.results if r.lang == lang]) for lang in langs},
        }


def _text(line: dict[str, Any], name: str, where: str) -> str:
    value = line.get(name)
    if not isinstance(value, str) or not value.strip():
        raise CommandError(f"{where}: needs a non-empty string `{name}`")
    return value


def _load(path: Path) -> list[dict[str, Any]]:
    """Every line checked before any is run: a bad line stops the command with its place."""
    lines: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        where = f"{path}:{number}"
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{where}: not JSON ({exc})") from exc
        if not isinstance(line, dict):
            raise CommandError(f"{where}: not a JSON object")
        for name in ("id", "lang", "first", "second"):
            _text(line, name, where)
        if not isinstance(line.get("same_question"), bool):
            raise CommandError(f"{where}: needs a boolean `same_question`")
        for name in ("why", "keeps"):
            if name in line and not isinstance(line[name], str):
                raise CommandError(f"{where}: `{name}` must be a string")
        if line.get("keeps") and folded(line["keeps"]) not in folded(line["first"]):
            raise CommandError(f"{where}: `keeps` does not occur in `first`")
        earlier = seen.setdefault(line["id"], number)
        if earlier != number:
            raise CommandError(f"{where}: id {line['id']!r} already used on line {earlier}")
        lines.append(line)
    if not lines:
        raise CommandError(f"{path}: no pairs")
    return lines


def _say(*, user: Any, content: str) -> Message:
    """`content` as the user message of a new session, with its reply."""
    session = chat.chat_session_create(user=user)
    return chat.chat_exchange(session=session, content=content).user_message


def _move_back(*, message: Message, by: timedelta) -> Message:
    """The message's session, moved `by` into the past before anything reads its time.

    The chat service stamps messages with the present and has no time parameter; this bench
    plays two sessions a day apart within one run, so it moves the first one back."""
    Message.objects.filter(session_id=message.session_id).update(created_at=F("created_at") - by)
    ChatSession.objects.filter(pk=message.session_id).update(
        started_at=F("started_at") - by, last_message_at=F("last_message_at") - by
    )
    return Message.objects.get(pk=message.pk)


def _held(*, user_id: int, names: dict[int, str]) -> list[Held]:
    """Every memory of the user; `names` names the messages of interest by id."""
    conflicts: dict[int, set[int]] = {}
    for source, target in MemoryConflict.objects.filter(user_id=user_id).values_list(
        "from_memory_id", "to_memory_id"
    ):
        conflicts.setdefault(source, set()).add(target)
        conflicts.setdefault(target, set()).add(source)
    held = []
    memories = Memory.objects.filter(user_id=user_id).prefetch_related("versions")
    for memory in memories.order_by("created_at", "id"):
        versions = list(memory.versions.all())
        current = next((v for v in versions if v.pk == memory.current_version_id), None)
        if current is None:
            continue
        made_from = {names.get(v.source_message_id or 0, "") for v in versions}
        held.append(
            Held(
                id=memory.pk,
                status=memory.status,
                content=current.content,
                current_from=names.get(current.source_message_id or 0, ""),
                made_from=frozenset(made_from - {""}),
                conflicts=frozenset(conflicts.get(memory.pk, ())),
            )
        )
    return held


def score_pair(*, line: dict[str, Any]) -> PairResult:
    """Play one pair for a new user; the caller rolls the transaction back."""
    user = get_user_model().objects.create_user(username=f"score-sp-{uuid.uuid4().hex[:16]}")
    first = _move_back(message=_say(user=user, content=line["first"]), by=_FIRST_EARLIER_BY)
    # what the worker runs after each reply (conversations.tasks.exchange_extract)
    first_done = remembering.exchange_memories_extract(message_id=first.pk, offline=True)
    live_after_first = frozenset(
        m.id for m in _held(user_id=user.pk, names={first.pk: FIRST}) if m.holds_live(FIRST)
    )
    second = _say(user=user, content=line["second"])
    if second.created_at <= first.created_at:
        raise CommandError(f"{line['id']}: the second message is not later than the first")
    second_done = remembering.exchange_memories_extract(message_id=second.pk, offline=True)
    # A fresh user: every memory it has came from this pair.
    held = _held(user_id=user.pk, names={first.pk: FIRST, second.pk: SECOND})
    return PairResult(
        id=line["id"],
        lang=line["lang"],
        same_question=line["same_question"],
        why=line.get("why", ""),
        first=line["first"],
        second=line["second"],
        outcome=classify(held=held, live_after_first=live_after_first),
        memories=[(m.status, m.content, "+".join(sorted(m.made_from))) for m in held],
        extraction={FIRST: dict(first_done.outcome), SECOND: dict(second_done.outcome)},
        keeps=line.get("keeps", ""),
    )


def score_pairs(
    *, lines: list[dict[str, Any]], progress: Callable[[str], None] | None = None
) -> Score:
    """Every pair in its own rolled-back transaction, with the offline provider."""

    def report(result: PairResult, number: int) -> None:
        if progress is not None:
            verdict = "ok" if result.passed else f"FAIL ({result.expected} expected)"
            progress(f"[{number}/{len(lines)}] {result.id} {result.outcome} {verdict}")

    return Score(
        rolled_back_offline(lines=lines, score=lambda line: score_pair(line=line), progress=report)
    )


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _summary(figures: dict[str, Any]) -> str:
    return (
        f"same-question pairs replaced {figures['replaced']}/{figures['same_question']} = "
        f"{_percent(figures['replaced_rate'])}; "
        f"different-question pairs kept apart {figures['kept_apart']}/"
        f"{figures['different_question']} = {_percent(figures['kept_apart_rate'])}"
    )


def _outcomes(counts: dict[str, int]) -> str:
    return ", ".join(f"{outcome} {n}" for outcome, n in counts.items() if n) or "none"


class Command(BaseCommand):
    help = "Score, through the offline pipeline, which statement pairs replace one another."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "pairs", type=Path, help="JSON Lines: id, lang, first, second, same_question, why"
        )
        parser.add_argument("--json", type=Path, help="also write the figures and pairs here")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["pairs"]
        if not path.is_file():
            raise CommandError(f"no such file: {path}")
        score = score_pairs(lines=_load(path), progress=self.stderr.write)
        counts = score.counts()
        overall = counts["all"]
        self.stdout.write(
            f"pairs {overall['pairs']} ({overall['same_question']} same question, "
            f"{overall['different_question']} different)\n{_summary(overall)}\n"
            f"outcomes, same question: {_outcomes(overall['outcomes']['same_question'])}\n"
            f"outcomes, different question: "
            f"{_outcomes(overall['outcomes']['different_question'])}\n"
            f"where both messages left a memory: same-question replaced "
            f"{overall['replaced']}/{overall['same_question_both_captured']} = "
            f"{_percent(overall['replaced_when_both_captured'])}; different-question kept apart "
            f"{overall['kept_apart']}/{overall['different_question_both_captured']} = "
            f"{_percent(overall['kept_apart_when_both_captured'])}"
        )
        if overall["naming_a_part_to_keep"]:
            self.stdout.write(
                f"the part named by `keeps` still live: {overall['part_kept']}/"
                f"{overall['naming_a_part_to_keep']}"
            )
        for lang, figures in counts["lang"].items():
            self.stdout.write(f"lang {lang}: {_summary(figures)}")
        for result in score.results:
            if result.passed:
                continue
            kind = "same question" if result.same_question else "different question"
            why = f" ({result.why})" if result.why else ""
            lost = "" if result.kept else f" (lost {result.keeps!r})"
            self.stdout.write(
                f"FAIL {result.id} {result.lang} {kind}{why}: {result.outcome}{lost}, "
                f"{result.expected} expected\n  first:  {result.first}\n  second: {result.second}"
            )
            for status, content, made_from in result.memories:
                self.stdout.write(f"  holds {status} [{made_from or '-'}] {content}")
            if not result.memories:
                self.stdout.write("  holds no memory")
            self.stdout.write(
                "  extraction: "
                + "; ".join(
                    f"{message} {_outcomes(done)}" for message, done in result.extraction.items()
                )
            )
        if options.get("json"):
            payload = {"counts": counts, "lines": [asdict(r) for r in score.results]}
            options["json"].write_text(json.dumps(payload, ensure_ascii=False, indent=2))
