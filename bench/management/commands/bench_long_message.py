"""Long-message benchmark: one message of the largest allowed size answered offline, through
the chat service as a web request runs it (store, index, topic, context, reply).

    python manage.py bench_long_message                    # 32,000 characters, 3 runs
    python manage.py bench_long_message --chars 8000 --profile 25
    python manage.py bench_long_message --shape all --runs 1     # every shape below

The message is made here from varied Korean and English sentences (a pasted document, as a
person would send one), so every word is not the same word. Each run uses a new user (deleted
after it), so no run recalls another's text. `--shape` sends instead a message an attacker
would: one letter repeated, random syllables with no space, single letters spaced out, a
URL, digits or dots of the same length, where rules that start a match at every letter take
time growing with the square of the length. `--profile N` runs one more time under cProfile
and prints the N functions with the most cumulative time. Models are loaded before the first
timed run.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from conversations.services import chat
from memoryhub import embeddings
from memoryhub import text as text_analysis

_SUBJECTS_KO = ["회의", "보고서", "여행", "예산", "일정", "고객", "디자인", "서버", "계약", "교육"]
_PLACES_KO = ["서울", "부산", "판교", "제주", "대구", "강남", "인천", "수원"]
_VERBS_KO = ["검토했어요", "정리했어요", "준비하고 있어요", "논의했어요", "바꾸기로 했어요"]
_SUBJECTS_EN = ["the budget", "a client call", "the release", "our roadmap", "the onboarding"]
_VERBS_EN = ["was reviewed", "needs another pass", "moved to Thursday", "is almost done"]


def long_message(chars: int, *, seed: int = 7) -> str:
    """A message of exactly `chars` characters of varied sentences in both languages."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    while size < chars:
        if rng.random() < 0.6:
            sentence = (
                f"{rng.choice(_PLACES_KO)} {rng.choice(_SUBJECTS_KO)} 건은 "
                f"{rng.randint(1, 28)}일에 {rng.choice(_VERBS_KO)}."
            )
        else:
            sentence = (
                f"In item {rng.randint(1, 999)}, {rng.choice(_SUBJECTS_EN)} "
                f"{rng.choice(_VERBS_EN)}."
            )
        parts.append(sentence)
        size += len(sentence) + 1
    return " ".join(parts)[:chars]


def _random_syllables(chars: int, rng: random.Random) -> str:
    return "".join(chr(0xAC00 + rng.randrange(11172)) for _ in range(chars))


SHAPES: dict[str, Callable[[int, int], str]] = {
    "varied": lambda chars, seed: long_message(chars, seed=seed),
    # (a letter of its own per seed: no run meets a cache the run before filled)
    "one-letter": lambda chars, seed: ("나는 " + chr(0xC544 + seed) * chars)[:chars],
    "syllables": lambda chars, seed: _random_syllables(chars, random.Random(seed)),
    "latin": lambda chars, seed: chr(ord("a") + seed % 26) * chars,
    "spaced": lambda chars, seed: (chr(0xC544 + seed) + " ") * (chars // 2) + " " * (chars % 2),
    "url": lambda chars, seed: (f"https://{seed}" + "a" * chars)[:chars],
    "digits": lambda chars, seed: str(1 + seed % 9) * chars,
    "dots": lambda chars, seed: ("." * chars)[: chars - 1] + str(seed % 10),
}


class Command(BaseCommand):
    help = "Time one maximum-size chat message answered offline (store + reply)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--chars", type=int, default=settings.MEMORYHUB_MAX_MESSAGE_CHARS)
        parser.add_argument("--runs", type=int, default=3)
        parser.add_argument("--profile", type=int, default=0, metavar="N")
        parser.add_argument("--shape", choices=[*SHAPES, "all"], default="varied")

    def handle(self, *args: object, **options: Any) -> None:
        text_analysis.warm_up()
        embeddings.embed_passages(["준비 ready"])
        chars: int = options["chars"]
        shapes = list(SHAPES) if options["shape"] == "all" else [options["shape"]]
        for shape in shapes:
            make = SHAPES[shape]
            # A new text each run: nothing analysed in one run is remembered for the next.
            timings = [self._exchange(make(chars, run), run) for run in range(options["runs"])]
            self.stdout.write(
                f"{shape}: {chars} characters: median {statistics.median(timings):.2f} s, "
                f"runs {', '.join(f'{t:.2f}' for t in timings)} s",
            )
            self.stdout.flush()
        if options["profile"]:
            content = SHAPES[shapes[-1]](chars, options["runs"])
            profile = cProfile.Profile()
            profile.enable()
            self._exchange(content, options["runs"])
            profile.disable()
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(
                options["profile"]
            )
            self.stdout.write(out.getvalue())

    def _exchange(self, content: str, run: int) -> float:
        user, _created = get_user_model().objects.get_or_create(
            username=f"bench-long-{time.time_ns()}-{run}"
        )
        try:
            session = chat.chat_session_create(user=user)
            started = time.perf_counter()
            message, _topic = chat.message_add_user(session=session, content=content)
            "".join(chat.reply_stream(message=message))
            return time.perf_counter() - started
        finally:
            user.delete()
