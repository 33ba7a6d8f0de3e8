"""Wallet recovery phrases: pure functions, no Django.

A recovery (seed, mnemonic) phrase is 12 to 24 short words (BIP-39), and whoever reads it owns
the wallet. It is found after a cue that names it (seed phrase, recovery words, 시드 구문,
니모닉 ...) or just before one ("... 이게 내 시드 구문"): a run of at least 12 words of 3 to 8
letters, spaces or commas between them, maybe numbered ("1. ribbon 2. orbit"). Ordinary
sentences have short words (a, to, is, of) that break such a run; one with too many
function words in it is a sentence about the phrase, not the phrase.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from memories.logic.secret_rules import PASSWORD, Span

_CUE = re.compile(
    r"(?i)(?<![A-Za-z])(?:(?:secret )?(?:seed|recovery|mnemonic|backup|wallet)[ \-]?"
    r"(?:phrase|words?|sentence)|mnemonic|"
    r"(?:비밀 ?)?(?:시드|복구|니모닉|백업|지갑) ?(?:문구|구문|단어|phrase)|니모닉|"
    # a bare "seed" or "시드" labelling what follows: "seed: legal winner ..."
    r"(?:seed|시드)(?=[ \t]*[:=：]|[ \t]+(?:is|was)\b|는|은))"
)
_NEEDLES = (
    "seed",
    "recovery",
    "mnemonic",
    "backup",
    "wallet",
    "시드",
    "복구",
    "니모닉",
    "백업",
    "지갑",
)

_WORD = r"(?:[0-9]{1,2}[.):][ \t]*)?[A-Za-z][a-z]{2,7}"
_RUN = re.compile(
    r"(?<![A-Za-z0-9])" + _WORD + r"(?:(?:[ \t]*,[ \t]*|[ \t]+)" + _WORD + r"){11,23}(?![A-Za-z])"
)
# Korean word lists (BIP-39 has one) give words of one to four syllables.
_KO_WORD = r"(?:[0-9]{1,2}[.):][ \t]*)?[가-힣]{1,4}"
_KO_RUN = re.compile(
    r"(?<![가-힣0-9])"
    + _KO_WORD
    + r"(?:(?:[ \t]*,[ \t]*|[ \t]+)"
    + _KO_WORD
    + r"){11,23}(?![가-힣])"
)
# Endings of a sentence's words (particles, verb endings): a run with many is talk.
_KO_SENTENCE_END = re.compile(r"[은는을를에의고서요다했지면게도로와과한할된]$")
_FUNCTION_WORDS = frozenset(
    """the and but for are was were you your our their this that these those with from have has
    had not can will would should could what when where which who how why its his her him she
    they them then than there here into onto about also just only very some any all been being
    does did don""".split()  # noqa: SIM905
)
# The phrase starts this close after the cue ("seed phrase is ...", "시드 구문은:\n...") or
# ends this close before it ("... 이게 내 시드 구문이야").
_AFTER = 48
_BEFORE = 24


def _reads_as_a_phrase(run: str) -> bool:
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", run)]
    if not words:
        korean = re.findall(r"[가-힣]+", run)
        return sum(bool(_KO_SENTENCE_END.search(w)) for w in korean) * 4 <= len(korean)
    return sum(w in _FUNCTION_WORDS for w in words) * 4 <= len(words)


def _any_within(positions: list[int], low: int, high: int) -> bool:
    """True when a position of the ascending list lies in [low, high]."""
    index = bisect_left(positions, low)
    return index < len(positions) and positions[index] <= high


def mnemonic_spans(text: str) -> list[Span]:
    """Spans of the recovery phrases stated next to a cue in `text`."""
    lower = text.lower()
    if not any(needle in lower for needle in _NEEDLES):
        return []
    cues = [m.span() for m in _CUE.finditer(text)]
    starts = [start for start, _ in cues]
    ends = [end for _, end in cues]  # both ascending: cues do not overlap
    spans: list[Span] = []
    runs = [*_RUN.finditer(text), *_KO_RUN.finditer(text)] if cues else []
    for run in runs:
        start, end = run.span()
        after = _any_within(ends, start - _AFTER, start)
        before = _any_within(starts, end, end + _BEFORE)
        if (after or before) and _reads_as_a_phrase(run.group(0)):
            spans.append((start, end, PASSWORD))
    return spans
