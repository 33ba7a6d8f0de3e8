"""Score the capture of natural statements on a JSON Lines corpus (issue 14 line 1).

    python manage.py score_statements ../shared/corpora/natural_statements.jsonl [--json OUT]

Each line (`id`, `lang`, `text`, `memorable`, and for memorable lines `key` and `type`) is sent
as one user message in a fresh session of a fresh user through the chat service the page and
the API use, offline; the extraction a worker runs after the reply
(`remembering.exchange_memories_extract`) is run synchronously. Then:

- a memorable line is captured when an active or pending memory of that user contains `key`
  (compared case- and width-insensitively);
- a not-memorable line is a false capture when any memory was created from it.

It prints recall (captured / memorable), the false-capture rate, precision (true captures /
lines that produced a memory) overall, per language and per type, and lists the failures.
It also counts, per language, how many memories made from statements are clean facts
(`clean_fact`, issue 14 line 2): a request about answers kept as said is left out.

Every line runs inside a transaction that is rolled back: its user, messages and memories are
never committed, and no real user's data is touched.
"""

from __future__ import annotations

import json
import re
import unicodedata
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.management.commands.score_injections import rolled_back_offline
from conversations.services import chat, remembering
from memories.logic import rules
from memories.logic.statements import english
from memories.models import Memory, MemoryStatus

_CAPTURING = (MemoryStatus.ACTIVE, MemoryStatus.PENDING)


def folded(text: str) -> str:
    """Width and case folded: "ＴｈｉｎｋＰａｄ" and "thinkpad" compare equal."""
    return unicodedata.normalize("NFKC", text).casefold()


_EN_FIRST_PERSON = re.compile(
    r"\b(?:I|I'm|I've|I'd|I'll|im|ive|me|my|mine|myself|we|we're|we've|our|ours|us)\b",
    re.IGNORECASE,
)
# A Korean note ends in a noun or a nominal ending ("서울 강남에 삶", "개발자임"), not in a
# sentence ending ("살아", "했어요", "이야"), and does not open with the speaker's pronoun.
_KO_SENTENCE_END = re.compile(r"(?:[어아야요다지네죠래냐니까]|[!?~])\s*$")
_KO_PRONOUN_OPENING = re.compile(r"^(?:나|저|난|전|나는|저는|내가|제가)\s")


def clean_fact(content: str) -> bool:
    """A memory text that is a clean, self-contained fact: no first-person frame, no words
    announcing it ("Big news:", "btw"), no chat ending, no "Is <Name>"."""
    text = content.strip()
    if not text:
        return False
    if re.search(r"[가-힣]", text):
        return not (_KO_SENTENCE_END.search(text) or _KO_PRONOUN_OPENING.match(text))
    return not (
        _EN_FIRST_PERSON.search(text)
        or english.without_opener(text) != text
        or text.endswith(("!", "?"))
        or re.fullmatch(r"Is(?:\s+[A-Z][\w'-]*)+", text)
    )


def kept_as_said(content: str, text: str) -> bool:
    """A request about later answers, stored as the user said it (not a statement)."""
    said = re.sub(r"[\s.!~]+$", "", text.strip())
    return rules.standing_request(content) and (
        folded(content.strip().rstrip(".!~")) in folded(said)
    )


@dataclass
class LineResult:
    id: str
    lang: str
    memorable: bool
    type: str
    key: str
    # What the line's user holds afterwards: (status, type, content) per memory.
    memories: list[tuple[str, str, str]] = field(default_factory=list)
    text: str = ""

    @property
    def statement_memories(self) -> list[str]:
        return [c for _, _, c in self.memories if not kept_as_said(c, self.text)]

    @property
    def produced(self) -> bool:
        return bool(self.memories)

    @property
    def captured(self) -> bool:
        key = folded(self.key)
        return bool(key) and any(
            status in _CAPTURING and key in folded(content) for status, _, content in self.memories
        )

    @property
    def passed(self) -> bool:
        return self.captured if self.memorable else not self.produced

    def failure(self) -> str:
        if self.passed:
            return ""
        if not self.memorable:
            return "false capture: " + " | ".join(c for _, _, c in self.memories)
        if not self.memories:
            return "no memory"
        return "key missing from: " + " | ".join(f"{s} {c}" for s, _, c in self.memories)


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _figures(results: list[LineResult]) -> dict[str, Any]:
    memorable = [r for r in results if r.memorable]
    other = [r for r in results if not r.memorable]
    produced = [r for r in results if r.produced]
    captured = sum(r.captured for r in memorable)
    false = sum(r.produced for r in other)
    return {
        "lines": len(results),
        "memorable": len(memorable),
        "captured": captured,
        "recall": _rate(captured, len(memorable)),
        "not_memorable": len(other),
        "false_captures": false,
        "false_capture_rate": _rate(false, len(other)),
        "produced_a_memory": len(produced),
        "precision": _rate(sum(r.captured for r in produced if r.memorable), len(produced)),
    }


@dataclass
class Score:
    results: list[LineResult]

    def clean_facts(self) -> dict[str, tuple[int, int]]:
        """Per language: (memories from statements that are clean facts, all of them)."""
        out: dict[str, tuple[int, int]] = {}
        for lang in sorted({r.lang for r in self.results}):
            contents = [c for r in self.results if r.lang == lang for c in r.statement_memories]
            out[lang] = (sum(clean_fact(c) for c in contents), len(contents))
        return out

    def counts(self) -> dict[str, Any]:
        by_lang = sorted({r.lang for r in self.results})
        by_type = sorted({r.type for r in self.results if r.memorable})
        return {
            "all": _figures(self.results),
            "lang": {
                lang: _figures([r for r in self.results if r.lang == lang]) for lang in by_lang
            },
            "type": {
                kind: _figures([r for r in self.results if r.memorable and r.type == kind])
                for kind in by_type
            },
        }


def _load(path: Path) -> list[dict[str, Any]]:
    lines = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}:{number}: not JSON ({exc})") from exc
        if not isinstance(line, dict):
            raise CommandError(f"{path}:{number}: not a JSON object")
        if not isinstance(line.get("text"), str) or not line["text"].strip():
            raise CommandError(f"{path}:{number}: needs a non-empty string `text`")
        if not isinstance(line.get("memorable"), bool):
            raise CommandError(f"{path}:{number}: needs a boolean `memorable`")
        if line["memorable"] and (not isinstance(line.get("key"), str) or not line["key"].strip()):
            raise CommandError(f"{path}:{number}: a memorable line needs a string `key`")
        if line["memorable"] and folded(line["key"]) not in folded(line["text"]):
            raise CommandError(f"{path}:{number}: `key` does not occur in `text`")
        lines.append(line)
    return lines


def score_line(*, line: dict[str, Any]) -> LineResult:
    """Run one corpus line for a new user; the caller rolls the transaction back."""
    user = get_user_model().objects.create_user(username=f"score-ns-{uuid.uuid4().hex[:16]}")
    session = chat.chat_session_create(user=user)
    exchange = chat.chat_exchange(session=session, content=line["text"])
    # what the worker runs after the reply (conversations.tasks.exchange_extract)
    remembering.exchange_memories_extract(message_id=exchange.user_message.pk, offline=True)
    # A fresh user: every memory it has came from this line.
    memories = Memory.objects.filter(user_id=user.pk).select_related("current_version")
    return LineResult(
        id=str(line.get("id", "")),
        lang=str(line.get("lang", "")),
        memorable=line["memorable"],
        type=str(line.get("type", "")) if line["memorable"] else "",
        key=str(line.get("key", "")),
        text=line["text"],
        memories=[
            (m.status, m.current_version.type, m.current_version.content)
            for m in memories
            if m.current_version is not None
        ],
    )


def score_corpus(
    *, lines: list[dict[str, Any]], progress: Callable[[str], None] | None = None
) -> Score:
    """Every line in its own rolled-back transaction, with the offline provider."""

    def report(result: LineResult, number: int) -> None:
        if progress is not None:
            progress(f"[{number}/{len(lines)}] {result.id} {result.failure() or 'ok'}")

    return Score(
        rolled_back_offline(lines=lines, score=lambda line: score_line(line=line), progress=report)
    )


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _summary(name: str, figures: dict[str, Any]) -> str:
    parts = [f"{name}:"]
    if figures["memorable"]:
        parts.append(
            f"recall {figures['captured']}/{figures['memorable']} = {_percent(figures['recall'])}"
        )
    if figures["not_memorable"]:
        parts.append(
            f"false captures {figures['false_captures']}/{figures['not_memorable']} = "
            f"{_percent(figures['false_capture_rate'])}"
        )
    if figures["produced_a_memory"]:
        parts.append(f"precision {_percent(figures['precision'])}")
    return "  ".join(parts)


class Command(BaseCommand):
    help = "Score the offline capture of natural statements on a JSON Lines corpus."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "corpus", type=Path, help="JSON Lines: id, lang, text, memorable, key, type"
        )
        parser.add_argument("--json", type=Path, help="also write the figures and lines here")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["corpus"]
        if not path.is_file():
            raise CommandError(f"no such file: {path}")
        score = score_corpus(lines=_load(path), progress=self.stderr.write)
        counts = score.counts()
        overall = counts["all"]
        self.stdout.write(
            f"lines {overall['lines']} ({overall['memorable']} memorable, "
            f"{overall['not_memorable']} not)\n"
            f"recall {overall['captured']}/{overall['memorable']} = "
            f"{_percent(overall['recall'])} (target >= 85%)\n"
            f"false captures {overall['false_captures']}/{overall['not_memorable']} = "
            f"{_percent(overall['false_capture_rate'])} (target <= 5%)\n"
            f"precision {_percent(overall['precision'])} "
            f"({overall['produced_a_memory']} lines produced a memory)"
        )
        for lang, figures in counts["lang"].items():
            self.stdout.write(_summary(f"lang {lang}", figures))
        for kind, figures in counts["type"].items():
            self.stdout.write(_summary(f"type {kind}", figures))
        self.stdout.write("clean facts (memories from statements; requests kept as said left out)")
        self.stdout.write("lang  clean / memories")
        for lang, (clean, total) in score.clean_facts().items():
            self.stdout.write(f"{lang:<5} {clean} / {total} = {_percent(_rate(clean, total))}")
        for result in score.results:
            if not result.passed:
                label = f"memorable {result.type}" if result.memorable else "not memorable"
                self.stdout.write(f"FAIL {result.id} {label}: {result.failure()}")
        if options.get("json"):
            payload = {
                "counts": counts,
                "clean_facts": score.clean_facts(),
                "lines": [asdict(r) for r in score.results],
            }
            options["json"].write_text(json.dumps(payload, ensure_ascii=False, indent=2))
