"""Learning the capture gate (`memories.logic.gate`) from labelled corpora.

Statement corpora (`text`, `memorable`, and `key` for memorable lines) give the labels; an
injection corpus (`text`, `attack`) adds its benign standing preferences as lines to keep (its
attacks are left to the injection detector and not used). A logistic regression (numpy, L2,
Newton's method) is fitted on the e5 embedding and the clause features.

The threshold is chosen honestly: leave one file out (train on the other files, score the left
out one), then the threshold that keeps the pooled recall of the whole offline reading
(rules, then the gate) at the target with the fewest false captures.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from memories.logic import gate, rules

Matrix = npt.NDArray[np.float64]


class CorpusError(ValueError):
    pass


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


@dataclass(frozen=True)
class Line:
    source: str  # the file's name: the group left out together
    text: str
    memorable: bool
    key: str
    lang: str
    scored: bool  # a statement line (counted in recall and false captures)


def load_lines(paths: Sequence[Path]) -> list[Line]:
    """Every line of every file, validated; a bad line is an error naming file and line."""
    lines: list[Line] = []
    for path in paths:
        if not path.is_file():
            raise CorpusError(f"{path}: no such file")
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not raw.strip():
                continue
            where = f"{path}:{number}"
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise CorpusError(f"{where}: not JSON ({exc})") from exc
            if not isinstance(data, dict):
                raise CorpusError(f"{where}: not a JSON object")
            text = data.get("text")
            if not isinstance(text, str) or not text.strip():
                raise CorpusError(f"{where}: needs a non-empty string `text`")
            lang = str(data.get("lang", ""))
            if isinstance(data.get("memorable"), bool):
                key = data.get("key", "")
                if data["memorable"] and (not isinstance(key, str) or not key.strip()):
                    raise CorpusError(f"{where}: a memorable line needs a string `key`")
                lines.append(Line(str(path), text, data["memorable"], str(key), lang, True))
            elif isinstance(data.get("attack"), bool):
                if not data["attack"]:
                    lines.append(Line(str(path), text, True, "", lang, False))
            else:
                raise CorpusError(f"{where}: needs a boolean `memorable` or `attack`")
    if not lines:
        raise CorpusError("no lines to learn from")
    return lines


@dataclass(frozen=True)
class Reading:
    """What the rules make of a line, and what the rules make of it once the gate vetoes."""

    captured: bool  # an item contains the key (memorable lines)
    produced: bool  # any item
    captured_vetoed: bool
    produced_vetoed: bool


def _reading(line: Line) -> Reading:
    def run(allowed: bool) -> tuple[bool, bool]:
        items = rules.extract_statements(line.text, statements_allowed=allowed)
        key = _folded(line.key)
        captured = bool(key) and any(key in _folded(i.content) for i in items)
        return captured, bool(items)

    captured, produced = run(True)
    captured_v, produced_v = run(False)
    return Reading(captured, produced, captured_v, produced_v)


def fit(x: Matrix, y: npt.NDArray[np.float64], *, l2: float) -> tuple[Matrix, float]:
    """L2-regularised logistic regression (bias not penalised), Newton's method."""
    n, d = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(xb @ w, -40, 40)))
        grad = xb.T @ (p - y) + penalty * w
        hessian = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-7:
            break
    return w[:-1], float(w[-1])


def _predict(x: Matrix, w: Matrix, b: float) -> Matrix:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(x @ w + b, -40, 40))), dtype=np.float64)


@dataclass
class Training:
    lines: list[Line]
    readings: list[Reading]
    x: Matrix
    out_of_fold: Matrix  # leave-one-file-out probability per line
    clause: bool

    def figures(self, threshold: float, *, only: str | None = None) -> dict[str, Any]:
        """Recall and false captures of rules + gate at `threshold` (LOFO probabilities)."""
        caught = memorable = false = other = 0
        before_caught = before_false = 0
        for line, reading, p in zip(self.lines, self.readings, self.out_of_fold, strict=True):
            if not line.scored or (only is not None and line.source != only):
                continue
            keep = p >= threshold
            if line.memorable:
                memorable += 1
                before_caught += reading.captured
                caught += reading.captured if keep else reading.captured_vetoed
            else:
                other += 1
                before_false += reading.produced
                false += reading.produced if keep else reading.produced_vetoed
        return {
            "memorable": memorable,
            "not_memorable": other,
            "recall_rules": before_caught / memorable if memorable else None,
            "recall": caught / memorable if memorable else None,
            "false_rules": before_false / other if other else None,
            "false": false / other if other else None,
        }


def fit_scaled(x: Matrix, y: npt.NDArray[np.float64], *, l2: float) -> tuple[Matrix, float]:
    """`fit` on standardised columns (the penalty then weighs every feature alike), returned
    as weights on the raw columns."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    w, b = fit((x - mean) / scale, y, l2=l2)
    return w / scale, b - float(np.sum(w * mean / scale))


def prepare(
    lines: list[Line], *, embed: Callable[[list[str]], Matrix], l2: float, clause: bool
) -> Training:
    embeddings = embed([line.text for line in lines])
    x = np.vstack(
        [
            gate.features(embedding=e, text=line.text, clause=clause)
            for e, line in zip(embeddings, lines, strict=True)
        ]
    )
    y = np.array([1.0 if line.memorable else 0.0 for line in lines])
    readings = [_reading(line) for line in lines]
    sources = sorted({line.source for line in lines})
    out = np.zeros(len(lines))
    for source in sources:
        held = np.array([line.source == source for line in lines])
        if held.all():  # one file: no honest estimate; fall back to the fit itself
            w, b = fit_scaled(x, y, l2=l2)
        else:
            w, b = fit_scaled(x[~held], y[~held], l2=l2)
        out[held] = _predict(x[held], w, b)
    return Training(lines=lines, readings=readings, x=x, out_of_fold=out, clause=clause)


def choose_threshold(training: Training, *, recall: float, max_loss: float) -> float:
    """The highest threshold (higher thresholds veto more: fewer false captures) whose pooled
    leave-one-file-out recall stays >= `recall` and loses at most `max_loss` of the rules'
    own recall (the rules were written while reading the older files, so their recall there
    flatters; the loss the gate adds is the honest part)."""
    best = 0.0
    for threshold in np.round(np.arange(0.0, 1.0, 0.01), 2):
        figures = training.figures(float(threshold))
        if figures["recall"] is None:
            continue
        if figures["recall"] >= recall and figures["recall_rules"] - figures["recall"] <= max_loss:
            best = float(threshold)
    return best


def weights_document(
    training: Training, *, threshold: float, l2: float, dim: int
) -> dict[str, Any]:
    y = np.array([1.0 if line.memorable else 0.0 for line in training.lines])
    w, b = fit_scaled(training.x, y, l2=l2)
    return {
        "format": gate.FORMAT,
        "dim": dim,
        "clause_features": list(gate.CLAUSE_FEATURES) if training.clause else [],
        "l2": l2,
        "threshold": threshold,
        "bias": float(f"{b:.8g}"),
        "weights": [float(f"{v:.6g}") for v in w],
        "trained_on": {
            "lines": len(training.lines),
            "files": sorted({line.source for line in training.lines}),
        },
    }
