"""Reading LoCoMo-shaped benchmark files (LoCoMo, ko_dev) and caching their embeddings.

Used only by the benchmark commands; nothing here is on the product's request path.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from memoryhub import embeddings
from memoryhub.runtime import data_dir

_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y")


@dataclass(frozen=True)
class BenchTurn:
    dia_id: str
    speaker: str
    text: str


@dataclass(frozen=True)
class BenchSession:
    number: int
    date: datetime | None
    date_text: str
    turns: list[BenchTurn]


@dataclass(frozen=True)
class BenchQuestion:
    question: str
    evidence: list[str]
    category: int


@dataclass(frozen=True)
class BenchConversation:
    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: list[BenchSession]
    questions: list[BenchQuestion]
    skipped_questions: int
    dropped_evidence_ids: int


def parse_date(text: str) -> datetime | None:
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
    return None


def _turn_text(turn: dict[str, Any]) -> str:
    text = str(turn.get("text", "")).strip()
    caption = turn.get("blip_caption")
    if caption:
        text = f"{text} [shares a photo: {caption}]".strip()
    return text


_EVIDENCE = re.compile(r"D(\d+):(\d+)")


def normalise_evidence(raw: list[Any], known: set[str]) -> tuple[list[str], int]:
    """Evidence ids as "D<session>:<turn>", split and repaired; count what was dropped."""
    found, dropped = [], 0
    for item in raw:
        pieces = _EVIDENCE.findall(str(item).replace(" ", ""))
        if not pieces:
            dropped += 1
            continue
        for session, turn in pieces:
            dia_id = f"D{int(session)}:{int(turn)}"
            if dia_id in known:
                found.append(dia_id)
            else:
                dropped += 1
    return list(dict.fromkeys(found)), dropped


def load(path: Path) -> list[BenchConversation]:
    raw = json.loads(path.read_text())
    conversations = []
    for index, item in enumerate(raw):
        conv = item["conversation"]
        sessions = []
        for key, value in conv.items():
            match = _SESSION_KEY.match(key)
            if not match or not isinstance(value, list):
                continue
            number = int(match.group(1))
            date_text = str(conv.get(f"{key}_date_time", ""))
            turns = [
                BenchTurn(dia_id=str(t["dia_id"]), speaker=str(t["speaker"]), text=_turn_text(t))
                for t in value
                if _turn_text(t)
            ]
            if turns:
                sessions.append(BenchSession(number, parse_date(date_text), date_text, turns))
        sessions.sort(key=lambda s: s.number)
        known = {t.dia_id for s in sessions for t in s.turns}
        questions, skipped, dropped_ids = [], 0, 0
        for qa in item.get("qa", []):
            evidence, dropped = normalise_evidence(list(qa.get("evidence", [])), known)
            dropped_ids += dropped
            if evidence:
                questions.append(BenchQuestion(str(qa["question"]), evidence, int(qa["category"])))
            else:
                skipped += 1
        conversations.append(
            BenchConversation(
                sample_id=str(item.get("sample_id", index)),
                speaker_a=str(conv.get("speaker_a", "")),
                speaker_b=str(conv.get("speaker_b", "")),
                sessions=sessions,
                questions=questions,
                skipped_questions=skipped,
                dropped_evidence_ids=dropped_ids,
            )
        )
    return conversations


class EmbeddingCache:
    """Passage embeddings of benchmark texts, kept on disk between runs."""

    def __init__(self, name: str) -> None:
        from django.conf import settings

        folder = data_dir() / "bench-cache"
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"{name}-{settings.MEMORYHUB_EMBEDDING_BACKEND}.npz"
        self.vectors: dict[str, np.ndarray] = {}
        if self.path.exists():
            with np.load(self.path) as stored:
                self.vectors = {key: stored[key] for key in stored.files}

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha1(text.encode()).hexdigest()

    def get_many(self, texts: list[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if self.key(t) not in self.vectors))
        if missing:
            computed = embeddings.embed_passages(missing)
            for text, vector in zip(missing, computed, strict=True):
                self.vectors[self.key(text)] = vector
            np.savez(self.path, **self.vectors)  # type: ignore[arg-type]
        return np.vstack([self.vectors[self.key(t)] for t in texts])
