"""Scoring secret redaction against a corpus (`python manage.py score_redaction FILE`).

Pure. A corpus line is a JSON object with `id`, `lang`, `text`, `secrets` (substrings that
must never be stored) and `keep` (substrings that must survive), as in
`shared/corpora/secrets.jsonl`. `check_stored` judges one stored text against a line;
`score_line` judges what `redact` alone makes of the line's text. Scores name secrets by their
index in the line, never by value, so a report can be printed and shared.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from memories.logic.redaction import redact


@dataclass(frozen=True)
class CorpusLine:
    id: str
    lang: str
    text: str
    secrets: tuple[str, ...]
    keep: tuple[str, ...]


@dataclass(frozen=True)
class LineScore:
    leaked: tuple[int, ...]  # indexes into the line's secrets found in the stored text
    lost: tuple[int, ...]  # indexes into the line's keep substrings missing from it
    secrets: int
    keep: int

    @property
    def passed(self) -> bool:
        return not self.leaked and not self.lost


def check_stored(*, stored: str, secrets: Sequence[str], keep: Sequence[str]) -> LineScore:
    """How one stored text (a message, a memory, a log line ...) fares against a corpus line."""
    return LineScore(
        leaked=tuple(i for i, secret in enumerate(secrets) if secret in stored),
        lost=tuple(i for i, item in enumerate(keep) if item not in stored),
        secrets=len(secrets),
        keep=len(keep),
    )


def score_line(*, text: str, secrets: Sequence[str], keep: Sequence[str]) -> LineScore:
    """How `redact(text)` fares: no secret left in it, every keep substring intact."""
    return check_stored(stored=redact(text).text, secrets=secrets, keep=keep)


def read_corpus(path: Path) -> list[CorpusLine]:
    lines: list[CorpusLine] = []
    with path.open(encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            row = json.loads(raw)
            lines.append(
                CorpusLine(
                    id=str(row.get("id", f"line-{number}")),
                    lang=str(row.get("lang", "")),
                    text=row["text"],
                    secrets=tuple(row.get("secrets", ())),
                    keep=tuple(row.get("keep", ())),
                )
            )
    return lines


@dataclass(frozen=True)
class Failure:
    id: str
    lang: str
    leaked: tuple[int, ...]
    lost: tuple[str, ...]  # keep substrings are not secret; they may be shown


@dataclass(frozen=True)
class CorpusScore:
    lines: int
    secret_lines: int
    secrets: int
    leaked: int
    keep_kept: int
    keep_total: int
    benign_lines: int
    benign_intact: int
    failures: tuple[Failure, ...]

    @property
    def keep_rate(self) -> float:
        return self.keep_kept / self.keep_total if self.keep_total else 1.0

    @property
    def benign_rate(self) -> float:
        return self.benign_intact / self.benign_lines if self.benign_lines else 1.0


def score_corpus(lines: Iterable[CorpusLine]) -> CorpusScore:
    counts = {"lines": 0, "secret_lines": 0, "secrets": 0, "leaked": 0}
    keep_kept = keep_total = benign_lines = benign_intact = 0
    failures: list[Failure] = []
    for line in lines:
        score = score_line(text=line.text, secrets=line.secrets, keep=line.keep)
        counts["lines"] += 1
        counts["secret_lines"] += bool(line.secrets)
        counts["secrets"] += score.secrets
        counts["leaked"] += len(score.leaked)
        keep_kept += score.keep - len(score.lost)
        keep_total += score.keep
        if not line.secrets:
            benign_lines += 1
            benign_intact += not score.lost
        if not score.passed:
            lost = tuple(line.keep[i] for i in score.lost)
            failures.append(Failure(id=line.id, lang=line.lang, leaked=score.leaked, lost=lost))
    return CorpusScore(
        **counts,
        keep_kept=keep_kept,
        keep_total=keep_total,
        benign_lines=benign_lines,
        benign_intact=benign_intact,
        failures=tuple(failures),
    )


def report_lines(score: CorpusScore) -> list[str]:
    """The score as text: figures first, then each failing line by id (no secret values)."""
    out = [
        f"lines: {score.lines} ({score.secret_lines} with secrets, {score.benign_lines} benign)",
        f"secrets leaked: {score.leaked} of {score.secrets} (target 0)",
        f"keep substrings intact: {score.keep_kept} of {score.keep_total} "
        f"({score.keep_rate:.1%}, target 98%)",
        f"benign lines fully intact: {score.benign_intact} of {score.benign_lines} "
        f"({score.benign_rate:.1%})",
    ]
    for failure in score.failures:
        parts = []
        if failure.leaked:
            numbers = ", ".join(f"#{i + 1}" for i in failure.leaked)
            parts.append(f"leaked secret {numbers}")
        if failure.lost:
            parts.append(
                "keep lost: " + ", ".join(json.dumps(k, ensure_ascii=False) for k in failure.lost)
            )
        out.append(f"  {failure.id} ({failure.lang}): {'; '.join(parts)}")
    return out
