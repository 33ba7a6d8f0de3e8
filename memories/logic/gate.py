"""The learned capture gate: how likely a message is to say something worth remembering.

The clause rules (`rules.extract_statements`) find statements about the speaker; on text
nobody wrote rules for (captions, to-do lists, pasted notes, lyrics, sarcasm, complaints about
today) they also find "statements" a person would not keep. The gate is a logistic regression
over the message's sentence embedding (the product's e5 model, 384-d) and, when the weights were
learned with them, a few counts from the clause reading (subject, mood, tense, momentary,
aside, sarcasm). Its weights are learned by
`manage.py bench_train_gate` from labelled corpora kept outside the repository and stored in
`gate_weights.json` beside this module; this module only reads them.

Django-free: the caller embeds the text (`memories.services.gate`).
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memories.logic import statements
from memoryhub.text import has_hangul

WEIGHTS_PATH = Path(__file__).with_name("gate_weights.json")
FORMAT = "memoryhub-capture-gate/1"

_SUBJECTS = ("speaker", "circle", "other", "assistant")
_MOODS = ("statement", "question", "hypothetical", "quotation", "request", "exclamation")
_TENSES = ("past", "present", "future", "plan")

CLAUSE_FEATURES: tuple[str, ...] = (
    "clauses_log",
    "memorable_share",
    "any_memorable",
    *(f"subject_{s}" for s in _SUBJECTS),
    *(f"mood_{m}" for m in _MOODS),
    *(f"tense_{t}" for t in _TENSES),
    "momentary_share",
    "negated_share",
    "verbless_share",
    "aside",
    "sarcasm",
    "serves_a_task",
    "hypothetical",
    "remember_cue",
    "korean",
    "ends_with_question",
    "chars_log",
    "lines_log",
)


def clause_features(text: str) -> list[float]:
    """The clause reading of `text` as numbers, in the order of `CLAUSE_FEATURES`."""
    analysed = [s for sentence in _lines(text) for s in statements.analyse(sentence)]
    n = len(analysed)

    def share(test: Callable[[statements.Statement], bool]) -> float:
        return sum(1 for s in analysed if test(s)) / n if n else 0.0

    cue = any(statements.remember_cue(line)[1] for line in _lines(text))
    values = [
        math.log1p(n),
        share(lambda s: s.memorable),
        1.0 if any(s.memorable for s in analysed) else 0.0,
        *(_share([s.clause.subject == v for s in analysed]) for v in _SUBJECTS),
        *(_share([s.clause.mood == v for s in analysed]) for v in _MOODS),
        *(_share([s.clause.tense == v for s in analysed]) for v in _TENSES),
        share(lambda s: s.clause.momentary),
        share(lambda s: s.clause.negated),
        share(lambda s: s.clause.verbless),
        1.0 if statements.is_aside(text) else 0.0,
        1.0 if statements.is_sarcasm(text) else 0.0,
        1.0 if statements.serves_a_task(text) else 0.0,
        1.0 if statements.is_hypothetical(text) else 0.0,
        1.0 if cue else 0.0,
        1.0 if has_hangul(text) else 0.0,
        1.0 if text.strip().endswith("?") else 0.0,
        math.log1p(len(text)) / 5.0,
        math.log1p(len([line for line in text.splitlines() if line.strip()])),
    ]
    return [float(v) for v in values]


def _share(flags: list[bool]) -> float:
    return sum(flags) / len(flags) if flags else 0.0


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()] or [text]


def features(
    *, embedding: Sequence[float], text: str, clause: bool = True
) -> npt.NDArray[np.float64]:
    """One row: the embedding, then (with `clause`) the clause features."""
    row = np.asarray(embedding, dtype=np.float64)
    if not clause:
        return row
    return np.concatenate([row, np.asarray(clause_features(text))])


@dataclass(frozen=True)
class Gate:
    weights: npt.NDArray[np.float64]
    bias: float
    threshold: float
    dim: int  # embedding dimensions the weights were learned on
    clause: bool  # the clause features follow the embedding

    def row(self, *, embedding: Sequence[float], text: str) -> npt.NDArray[np.float64]:
        return features(embedding=embedding, text=text, clause=self.clause)

    def probability(self, row: npt.NDArray[np.float64]) -> float:
        if row.shape != self.weights.shape:
            raise ValueError(f"gate expects {self.weights.shape[0]} features, got {row.shape[0]}")
        z = float(row @ self.weights) + self.bias
        return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


def gate_from_dict(data: dict[str, object]) -> Gate:
    """Validated: a file of another format or size is an error, never a silent gate."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a capture gate ({FORMAT}) file")
    names = data.get("clause_features")
    if names not in ([], list(CLAUSE_FEATURES)):
        raise ValueError("the gate's clause features differ from this version's")
    clause = bool(names)
    dim = data.get("dim")
    weights = data.get("weights")
    bias = data.get("bias")
    threshold = data.get("threshold")
    if not isinstance(dim, int) or not isinstance(weights, list):
        raise ValueError("the gate needs an integer `dim` and a list `weights`")
    if len(weights) != dim + (len(CLAUSE_FEATURES) if clause else 0):
        raise ValueError("the gate's weights do not match its `dim`")
    if not isinstance(bias, (int, float)) or not isinstance(threshold, (int, float)):
        raise ValueError("the gate needs a number `bias` and `threshold`")
    if not 0.0 <= threshold <= 1.0:
        raise ValueError("the gate's threshold is a probability")
    return Gate(
        weights=np.asarray(weights, dtype=np.float64),
        bias=float(bias),
        threshold=float(threshold),
        dim=dim,
        clause=clause,
    )


_loaded: Gate | None = None
_lock = threading.Lock()


def load(path: Path = WEIGHTS_PATH) -> Gate:
    """The committed gate (read once per process)."""
    global _loaded
    if path != WEIGHTS_PATH:
        return gate_from_dict(json.loads(path.read_text(encoding="utf-8")))
    if _loaded is None:
        with _lock:
            if _loaded is None:
                _loaded = gate_from_dict(json.loads(path.read_text(encoding="utf-8")))
    return _loaded
