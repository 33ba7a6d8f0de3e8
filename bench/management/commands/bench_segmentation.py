"""Topic-segmentation benchmark: conversations with known boundaries, built from LoCoMo-shaped
files, scored for the offline detector and two naive baselines in the same run.

    python manage.py bench_segmentation ../shared/bench/locomo10.json ../shared/bench/ko_dev.json

"spliced": sessions of different conversations joined (boundaries at the joins).
"same-conversation": consecutive sessions of one conversation (harder: people and themes
carry over). "labelled-topics" (with `--labels FILE`): each session of a file on its own,
against topic boundaries a person marked in it (docs/bench/ko_dev_topic_labels.json).
A predicted boundary within one message of a true one counts. The offline detector is scored
as the product runs it: shifts decided turn by turn, then (where embeddings are compared raw)
topics of one user message folded into a neighbour they share a subject word with.
`--tune` picks the threshold on even-numbered sequences and reports odd-numbered ones.
With labels, the threshold is also chosen on every other labelled session and scored on the
rest, both ways round (how the Korean threshold is set), and each file's F1 on spliced and on
labelled topics is printed side by side.
`--held-out-conversations N` checks the threshold on people it was never tuned on: N times,
a file's conversations are split in two halves, the threshold is tuned on spliced topics of
one half and scored on spliced topics of the other.
Each file is segmented with the chat centre a deployment holding its conversations would use
(`conversations.services.centre`); `--centre raw|deployment` forces one.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from bench.benchdata import BenchConversation, EmbeddingCache, load
from bench.segment_metrics import BoundaryScore, boundary_score, pk
from conversations.logic import segmentation
from conversations.logic.segmentation import Centre, SegTurn
from conversations.services import topics
from memoryhub import text as text_analysis

Decide = Callable[[SegTurn, Sequence[SegTurn]], bool]


@dataclass
class Sequence_:
    kind: str
    turns: list[SegTurn]
    boundaries: list[int]
    centre: Centre  # the chat centre of the deployment these turns would be stored in


Piece = tuple[BenchConversation, int, int, int]  # conversation, session, first turn, end
KINDS = ("spliced-topics", "spliced-sessions", "same-conversation", "labelled-topics")


def _different_conversations(conversations: list[BenchConversation], n: int,
                             rng: random.Random) -> list[BenchConversation]:  # fmt: skip
    """n conversations, no two neighbours the same (repeats allowed when there are few)."""
    picked: list[BenchConversation] = []
    while len(picked) < n:
        choices = [c for c in conversations if not picked or c is not picked[-1]]
        picked.append(rng.choice(choices))
    return picked


def _chunk(conv: BenchConversation, rng: random.Random, low: int, high: int) -> Piece:
    """A run of low..high turns of one session, starting at a turn of the first speaker."""
    session = rng.randrange(len(conv.sessions))
    turns = conv.sessions[session].turns
    starts = [i for i, t in enumerate(turns) if t.speaker == conv.speaker_a] or [0]
    first = rng.choice(starts)
    return conv, session, first, min(len(turns), first + rng.randint(low, high))


def _build(
    conversations: list[BenchConversation], *, count: int, per: int, rng: random.Random
) -> list[tuple[str, list[Piece]]]:
    """(kind, pieces) plans.

    spliced-sessions: whole sessions of different conversations.
    spliced-topics: topic-sized runs (2-4 exchanges) of different conversations.
    same-conversation: consecutive whole sessions of one conversation.
    """
    plans: list[tuple[str, list[Piece]]] = []
    if len(conversations) >= 2:
        for _ in range(count):
            picked = _different_conversations(conversations, per, rng)
            plans.append(("spliced-sessions", [
                (c, s, 0, len(c.sessions[s].turns))
                for c in picked for s in [rng.randrange(len(c.sessions))]
            ]))  # fmt: skip
        for _ in range(count):
            picked = _different_conversations(conversations, per + 2, rng)
            plans.append(("spliced-topics", [_chunk(c, rng, 4, 8) for c in picked]))
    usable = [c for c in conversations if len(c.sessions) >= per]
    for _ in range(count):
        if not usable:
            break
        conv = rng.choice(usable)
        start = rng.randrange(len(conv.sessions) - per + 1)
        plans.append(("same-conversation", [
            (conv, start + i, 0, len(conv.sessions[start + i].turns)) for i in range(per)
        ]))  # fmt: skip
    return plans


def _file_centre(conversations: list[BenchConversation], cache: EmbeddingCache, source: str
                 ) -> Centre:  # fmt: skip
    """The chat centre of a deployment holding just these conversations: with `source`
    "auto", the one the product would pick (`services.centre.chat_centre`: their mean once they hold
    enough turns in a language measured for it, else none); "deployment" or "raw" force one."""
    texts = [t.text for c in conversations for s in c.sessions for t in s.turns]
    if source == "raw" or not texts:
        return segmentation.RAW
    mean = cache.get_many(texts).mean(axis=0)
    if source == "deployment":
        return Centre(mean, "deployment")
    return segmentation.centre_for(
        mean,
        len(texts),
        model=settings.MEMORYHUB_EMBEDDING_BACKEND,
        language=text_analysis.detect_language(" ".join(texts[:50])),
    )


def _materialise(plans: Any, cache: EmbeddingCache, centre: Centre) -> list[Sequence_]:
    texts = [
        t.text
        for _kind, plan in plans
        for conv, s, a, b in plan
        for t in conv.sessions[s].turns[a:b]
    ]
    vectors = iter(cache.get_many(texts))
    sequences = []
    for kind, plan in plans:
        turns: list[SegTurn] = []
        boundaries: list[int] = []
        for conv, s, first, end in plan:
            if turns:
                boundaries.append(len(turns))
            for t in conv.sessions[s].turns[first:end]:
                role = "user" if t.speaker == conv.speaker_a else "assistant"
                turns.append(topics.seg_turn(role=role, text=t.text, vector=next(vectors)))
        sequences.append(Sequence_(kind, turns, boundaries, centre))
    return sequences


def _labelled(path: Path, files: dict[str, list[BenchConversation]]
              ) -> tuple[str, list[tuple[BenchConversation, int, list[int]]]]:  # fmt: skip
    """(the file's stem, [(conversation, session index, labelled boundary turn indices)]).

    The labels file names the benchmark file it labels and, per conversation and session,
    the dia_ids of the turns that start a new topic; anything it names must exist."""
    try:
        raw = json.loads(path.read_text())
        name, boundaries = str(raw["file"]), raw["boundaries"]
        if not isinstance(boundaries, dict):
            raise TypeError("boundaries must be an object")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CommandError(f"{path}: not a labels file ({exc})") from exc
    stem = Path(name).stem
    if stem not in files:
        raise CommandError(f"{path}: labels {name}, which is not among the files given")
    by_id = {c.sample_id: c for c in files[stem]}
    found = []
    for sample_id, sessions in boundaries.items():
        conv = by_id.get(str(sample_id))
        if conv is None or not isinstance(sessions, dict):
            raise CommandError(f"{path}: boundaries.{sample_id}: no such conversation in {name}")
        numbers = {s.number: i for i, s in enumerate(conv.sessions)}
        for key, ids in sessions.items():
            match = re.fullmatch(r"session_(\d+)", str(key))
            index = numbers.get(int(match.group(1))) if match else None
            if index is None or not isinstance(ids, list):
                raise CommandError(f"{path}: boundaries.{sample_id}.{key}: no such session")
            position = {t.dia_id: i for i, t in enumerate(conv.sessions[index].turns)}
            marked = []
            for dia_id in ids:
                if position.get(str(dia_id), 0) == 0:
                    raise CommandError(f"{path}: boundaries.{sample_id}.{key}: {dia_id} is not "
                                       "a turn of that session after its first")  # fmt: skip
                marked.append(position[str(dia_id)])
            found.append((conv, index, sorted(set(marked))))
    return stem, found


def _materialise_labelled(found: list[tuple[BenchConversation, int, list[int]]],
                          cache: EmbeddingCache, centre: Centre) -> list[Sequence_]:  # fmt: skip
    plans = [("labelled-topics", [(c, s, 0, len(c.sessions[s].turns))]) for c, s, _b in found]
    sequences = _materialise(plans, cache, centre)
    for sequence, (_c, _s, marked) in zip(sequences, found, strict=True):
        sequence.boundaries = marked
    return sequences


def _run(turns: list[SegTurn], decide: Decide) -> list[int]:
    boundaries: list[int] = []
    current: list[SegTurn] = []
    for index, turn in enumerate(turns):
        if turn.role == "user" and current and decide(turn, segmentation.last_exchanges(current)):
            boundaries.append(index)
            current = []
        current.append(turn)
    return boundaries


def _fixed_interval(turns: list[SegTurn], every: int) -> list[int]:
    return list(range(every, len(turns), every))


def _score(
    sequences: list[Sequence_], predict: Callable[[Sequence_], list[int]]
) -> dict[str, float]:
    total = BoundaryScore(0, 0, 0)
    pks = []
    for seq in sequences:
        predicted = predict(seq)
        total = total + boundary_score(predicted, seq.boundaries, tolerance=1)
        pks.append(pk(predicted, seq.boundaries, len(seq.turns)))
    return {
        "precision": total.precision,
        "recall": total.recall,
        "f1": total.f1,
        "pk": sum(pks) / len(pks) if pks else 0.0,
        "sequences": len(sequences),
    }


def _setting(sequences: list[Sequence_]) -> tuple[str, str]:
    """(language, centre source): what the thresholds are chosen by."""
    return _language(sequences), sequences[0].centre.source


def _language(sequences: list[Sequence_]) -> str:
    sample = " ".join(t.text for seq in sequences[:3] for t in seq.turns[:10])
    return text_analysis.detect_language(sample)


def _offline(threshold: float, weight: float) -> Callable[[Sequence_], list[int]]:
    """The product's offline segmentation: shifts as live chat decides them, then the topics
    of one user message folded into a neighbour as the end of a session does."""

    def predict(seq: Sequence_) -> list[int]:
        def decide(new: SegTurn, window: Sequence[SegTurn]) -> bool:
            return segmentation.is_shift(
                new, window, threshold=threshold, centre=seq.centre, keyword_weight=weight
            )

        boundaries = _run(seq.turns, decide)
        if segmentation.merges_short_topics(seq.centre):
            return segmentation.merged_boundaries(seq.turns, boundaries)
        return boundaries

    return predict


def _candidates() -> list[float]:
    """Thresholds worth trying: cosine plus keyword share, raw or off a chat centre (each
    model, language and centre keeps its own band within this range)."""
    return [round(-0.2 + 0.01 * i, 3) for i in range(119)]


def _best_threshold(dev: list[Sequence_], weight: float) -> tuple[float, float]:
    """(F1, threshold) of the threshold with the best F1 on `dev`."""
    return max((_score(dev, _offline(v, weight))["f1"], round(v, 3)) for v in _candidates())


def _halves(conversations: list[BenchConversation], splits: int, rng: random.Random
            ) -> list[tuple[list[BenchConversation], list[BenchConversation]]]:  # fmt: skip
    """`splits` random splits of the conversations into two halves."""
    halves = []
    for _ in range(splits):
        shuffled = rng.sample(conversations, len(conversations))
        middle = len(shuffled) // 2
        halves.append((shuffled[:middle], shuffled[middle:]))
    return halves


def _detectors(sequences: list[Sequence_], threshold: float, weight: float) -> dict[str, Any]:
    mean_len = max(1, round(sum(len(s.turns) / (len(s.boundaries) + 1) for s in sequences)
                            / max(1, len(sequences))))  # fmt: skip

    def keywords_only(seq: Sequence_) -> list[int]:
        def decide(new: SegTurn, window: Sequence[SegTurn]) -> bool:
            seen = set().union(*(t.terms for t in window))
            return bool(new.terms) and not (new.terms & seen)

        return _run(seq.turns, decide)

    return {
        "offline detector": _offline(threshold, weight),
        f"baseline: every {mean_len} turns": lambda seq: _fixed_interval(seq.turns, mean_len),
        "baseline: no shared keyword": keywords_only,
    }


class Command(BaseCommand):
    help = "Score topic-shift detection on conversations with known boundaries."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--sequences", type=int, default=200, help="per kind and file")
        parser.add_argument("--sessions-per-sequence", type=int, default=4)
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--threshold", type=float, default=None)
        parser.add_argument("--tune", action="store_true")
        parser.add_argument("--json", type=Path, default=None)
        parser.add_argument(
            "--centre", choices=("auto", "deployment", "raw"), default="auto",
            help="the chat centre: as the product would pick it for a deployment holding a "
            "file's conversations (auto), their own mean (deployment), or none (raw)",
        )  # fmt: skip
        parser.add_argument(
            "--held-out-conversations", type=int, default=0, metavar="N",
            help="also tune on half of each file's conversations and score the other half, N times",
        )  # fmt: skip
        parser.add_argument(
            "--labels", type=Path, action="append", default=[],
            help="topic boundaries marked in a file's sessions (repeatable)",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        backend = settings.MEMORYHUB_EMBEDDING_BACKEND
        weights = dict(segmentation.KEYWORD_WEIGHTS)
        rng = random.Random(options["seed"])
        if options["held_out_conversations"] < 0:
            raise CommandError("--held-out-conversations must be 0 (off) or a number of splits")
        loaded: dict[str, list[BenchConversation]] = {}
        for path in options["files"]:
            if not path.exists():
                raise CommandError(f"{path} does not exist")
            loaded[path.stem] = load(path)
        # Labels are checked before anything is embedded.
        labelled = [(labels.name, *_labelled(labels, loaded)) for labels in options["labels"]]
        all_sequences: dict[str, list[Sequence_]] = {}
        centres: dict[str, Centre] = {}
        for stem, conversations in loaded.items():
            started = time.monotonic()
            plans = _build(conversations, count=options["sequences"],
                           per=options["sessions_per_sequence"], rng=rng)  # fmt: skip
            cache = EmbeddingCache(stem)
            centres[stem] = _file_centre(conversations, cache, options["centre"])
            all_sequences[stem] = _materialise(plans, cache, centres[stem])
            self.stdout.write(f"{stem}: {len(plans)} sequences built and embedded in "
                              f"{time.monotonic() - started:.0f} s")  # fmt: skip
        for label_file, stem, found in labelled:
            all_sequences[stem] += _materialise_labelled(found, EmbeddingCache(stem), centres[stem])
            marked = sum(len(b) for _c, _s, b in found)
            self.stdout.write(f"{label_file}: {len(found)} sessions, {marked} topic boundaries")
        thresholds = {
            (lang, source): options["threshold"] or value
            for (model, lang, source), value in segmentation.THRESHOLDS.items() if model == backend
        }  # fmt: skip
        if options["tune"]:
            tuned, tuned_weights = self._tune(all_sequences)
            thresholds.update(tuned)
            weights.update(tuned_weights)
        results: dict[str, Any] = {
            "backend": backend, "keyword_weights": weights, "files": {},
            "thresholds": {f"{lang}/{source}": v for (lang, source), v in thresholds.items()},
        }  # fmt: skip
        for name, sequences in all_sequences.items():
            threshold = thresholds[_setting(sequences)]
            weight = weights[sequences[0].centre.source]
            results["files"][name] = {"threshold": threshold,
                                      "centre": sequences[0].centre.source}  # fmt: skip
            for kind in KINDS:
                subset = [s for s in sequences if s.kind == kind]
                if not subset:
                    continue
                rows = {label: _score(subset, fn)
                        for label, fn in _detectors(subset, threshold, weight).items()}  # fmt: skip
                results["files"][name][kind] = rows
                self._table(f"{name} — {kind} ({len(subset)} sequences)", rows)
        chosen = {
            name: self._labelled_halves(name, sequences, thresholds, weights)
            for name, sequences in all_sequences.items()
            if sum(s.kind == "labelled-topics" for s in sequences) >= 2
        }
        if chosen:
            results["labelled_halves"] = chosen
            self._beside(results["files"], chosen)
        if options["held_out_conversations"] > 0:
            results["held_out_conversations"] = {
                stem: self._held_out(stem, conversations, options, rng, thresholds, weights)
                for stem, conversations in loaded.items()
            }
        self.stdout.write(f"embedding model: {backend}; thresholds {thresholds}; "
                          f"keyword weights {weights}")  # fmt: skip
        if options["json"]:
            options["json"].write_text(json.dumps(results, indent=2))

    def _table(self, title: str, rows: dict[str, dict[str, float]]) -> None:
        self.stdout.write(f"\n{title}")
        self.stdout.write(f"{'detector':<34} {'P':>6} {'R':>6} {'F1':>6} {'Pk':>6}")
        for label, row in rows.items():
            self.stdout.write(f"{label:<34} {row['precision']:6.3f} {row['recall']:6.3f} "
                              f"{row['f1']:6.3f} {row['pk']:6.3f}")  # fmt: skip

    def _labelled_halves(self, name: str, sequences: list[Sequence_],
                         thresholds: dict[tuple[str, str], float], weights: dict[str, float]
                         ) -> dict[str, Any]:  # fmt: skip
        """The threshold chosen on one half of a file's labelled sessions (every other one,
        so each person is in both) and scored on the other half, both ways round."""
        labelled = [s for s in sequences if s.kind == "labelled-topics"]
        weight = weights[labelled[0].centre.source]
        in_use = thresholds[_setting(labelled)]
        self.stdout.write(f"\n{name} — labelled topics, threshold chosen on one half of the "
                          "sessions and scored on the other")  # fmt: skip
        found: dict[str, Any] = {"threshold_in_use": in_use, "keyword_weight": weight}
        halves = {"even": labelled[::2], "odd": labelled[1::2]}
        for tuned_on, scored_on in (("even", "odd"), ("odd", "even")):
            tune_f1, threshold = _best_threshold(halves[tuned_on], weight)
            scored = _score(halves[scored_on], _offline(threshold, weight))
            found[f"chosen_on_{tuned_on}"] = {
                "threshold": threshold, "f1_chosen_on": tune_f1, "f1_other_half": scored["f1"],
                "f1_other_half_threshold_in_use":
                    _score(halves[scored_on], _offline(in_use, weight))["f1"],
                "sessions": [len(halves[tuned_on]), len(halves[scored_on])],
            }  # fmt: skip
            self.stdout.write(
                f"chosen on the {tuned_on} sessions ({len(halves[tuned_on])}): threshold "
                f"{threshold}, F1 {tune_f1:.3f} there; F1 {scored['f1']:.3f} on the {scored_on} "
                f"sessions ({len(halves[scored_on])}); the threshold in use ({in_use}) scores "
                f"{found[f'chosen_on_{tuned_on}']['f1_other_half_threshold_in_use']:.3f} there"
            )
        return found

    def _beside(self, files: dict[str, Any], chosen: dict[str, Any]) -> None:
        """Each file's offline F1 side by side: spliced topics and, where marked, labelled
        topics, with the threshold in use."""
        self.stdout.write(f"\n{'file':<12} {'threshold':>9} {'spliced topics F1':>18} "
                          f"{'labelled topics F1':>19} {'held-out half F1':>17}")  # fmt: skip
        for name, found in files.items():
            spliced = found.get("spliced-topics", {}).get("offline detector", {}).get("f1")
            labelled = found.get("labelled-topics", {}).get("offline detector", {}).get("f1")
            half = chosen.get(name, {}).get("chosen_on_even", {}).get("f1_other_half")
            cells = [f"{v:.3f}" if v is not None else "-" for v in (spliced, labelled, half)]
            self.stdout.write(f"{name:<12} {found['threshold']:>9} {cells[0]:>18} "
                              f"{cells[1]:>19} {cells[2]:>17}")  # fmt: skip

    def _held_out(self, stem: str, conversations: list[BenchConversation], options: Any,
                  rng: random.Random, thresholds: dict[tuple[str, str], float],
                  weights: dict[str, float]
                  ) -> dict[str, Any] | None:  # fmt: skip
        """Spliced-topics F1 on conversations the threshold was not tuned on, beside the F1 of
        the threshold in use on the same sequences."""
        if len(conversations) < 4:
            self.stdout.write(f"\n{stem}: held-out conversations need at least 4 conversations "
                              f"(it has {len(conversations)}); skipped")  # fmt: skip
            return None
        cache = EmbeddingCache(stem)
        self.stdout.write(f"\n{stem} — spliced topics on held-out conversations (the chat "
                          "centre, too, from the conversations tuned on)")  # fmt: skip
        splits: list[dict[str, Any]] = []
        for tuned_on, held in _halves(conversations, options["held_out_conversations"], rng):
            centre = _file_centre(tuned_on, cache, options["centre"])
            tune, test = (
                _materialise([plan for plan in _build(half, count=options["sequences"],
                                                      per=options["sessions_per_sequence"],
                                                      rng=rng)
                              if plan[0] == "spliced-topics"], cache, centre)
                for half in (tuned_on, held)
            )  # fmt: skip
            weight = weights[centre.source]
            _f1, threshold = _best_threshold(tune, weight)
            in_use = thresholds[_setting(test)]
            split: dict[str, Any] = {
                "tuned_on": [c.sample_id for c in tuned_on],
                "scored_on": [c.sample_id for c in held],
                "threshold": threshold,
                "f1": _score(test, _offline(threshold, weight))["f1"],
                "f1_threshold_in_use": _score(test, _offline(in_use, weight))["f1"],
                "sequences": len(test),
            }
            splits.append(split)
            self.stdout.write(
                f"tuned on {len(tuned_on)} conversations: threshold {threshold}, F1 "
                f"{split['f1']:.3f} on the other {len(held)} ({len(test)} sequences); the "
                f"threshold in use ({in_use}) scores {split['f1_threshold_in_use']:.3f} there"
            )
        mean = sum(split["f1"] for split in splits) / len(splits)
        self.stdout.write(f"mean held-out F1 {mean:.3f}")
        return {"splits": splits, "mean_f1": mean}

    def _tune(self, all_sequences: dict[str, list[Sequence_]]
              ) -> tuple[dict[tuple[str, str], float], dict[str, float]]:  # fmt: skip
        """Per language and centre, the threshold with the best F1 on the even-numbered
        spliced-topics sequences, with one keyword weight per centre; the odd-numbered
        sequences are held out.

        Only topic-sized splices are tuned on: whole sessions hold topic changes of their own
        that no label marks, so there a correct shift counts as a false positive."""
        by_setting: dict[tuple[str, str], tuple[list[Sequence_], list[Sequence_]]] = {}
        for sequences in all_sequences.values():
            spliced = [s for s in sequences if s.kind == "spliced-topics"]
            if not spliced:
                continue
            dev, held = by_setting.setdefault(_setting(spliced), ([], []))
            dev += spliced[::2]
            held += spliced[1::2]
        thresholds: dict[tuple[str, str], float] = {}
        weights: dict[str, float] = {}
        for source in sorted({source for _language, source in by_setting}):
            settings_ = [key for key in by_setting if key[1] == source]
            best_total = -1.0
            for weight in (0.0, 0.1, 0.2, 0.3):
                chosen = {key: _best_threshold(by_setting[key][0], weight) for key in settings_}
                total = sum(f1 for f1, _t in chosen.values())
                if total > best_total:
                    best_total, weights[source] = total, weight
                    thresholds.update({key: t for key, (_f1, t) in chosen.items()})
        for (language, source), (dev, held) in by_setting.items():
            t, weight = thresholds[(language, source)], weights[source]
            self.stdout.write(
                f"tuned {language}, {source} centre: threshold {t}, keyword weight {weight}; "
                f"dev F1 {_score(dev, _offline(t, weight))['f1']:.3f} ({len(dev)} sequences), "
                f"held-out F1 {_score(held, _offline(t, weight))['f1']:.3f} ({len(held)})"
            )
        return thresholds, weights
