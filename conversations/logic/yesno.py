"""Parse a model's answer to "same topic? Y/N" robustly (seed Algorithm 2).

The seed found single-letter Y/N the most stable, but models still answer "n.", "다름",
"Yes, same topic" or prose. None means unparseable; the caller logs it and keeps the topic.
"""

from __future__ import annotations

import re

_SAME = ("y", "yes", "same", "같음", "같다", "같아", "같습니다", "동일", "예", "네", "응", "true")
_DIFFERENT = ("n", "no", "different", "다름", "다르", "달라", "다릅니다", "아니", "아님", "false")
_NEGATIONS = ("not", "isn", "aren", "doesn", "never")
_WORD = re.compile(r"[a-z]+|[\uac00-\ud7a3]+")


def parse_same_topic(answer: str) -> bool | None:
    """True for "same topic", False for "different", None when it cannot be told."""
    text = answer.strip().lower()
    if not text:
        return None
    words = _WORD.findall(text)
    if not words:
        return None
    first = words[0]
    if first in ("y", "yes", "same", "true") or first.startswith(("같", "동일")) or first in _SAME:
        return True
    if first in ("n", "no", "different", "false") or first.startswith(
        ("다르", "다름", "달라", "아니")
    ):
        return False
    if first == "다":  # Gemini-style "다" (다름) — the seed saw exactly this
        return False
    negated = any(w in _NEGATIONS or w.startswith(("아니", "않")) for w in words)
    has_same = any(w in _SAME or w.startswith(("같", "동일")) for w in words)
    if has_same and negated:  # "not the same topic", "같지 않아"
        return False
    has_different = any(
        w in _DIFFERENT or w.startswith(("다르", "다름", "달라", "아니")) for w in words
    )
    if has_same != has_different:
        return has_same
    return None
