"""The one way text from outside enters the system: secrets replaced by markers.

Every path that stores text it did not derive from stored text calls `text_intake` (or
`message_intake`, which also checks the text): chat messages (page, API, stream), replies and
anything else a model writes (summaries, tags, topic keywords, session state), imports (both
formats; message text, speaker names, titles) and the context endpoint's query. Both first
drop the invisible characters that reorder or hide what text says
(`memoryhub.validation.visible_text`). Memory writes (the memories page and API, Claude's
memory tool, agents, extraction) apply `visible_text` in their services and go through the
write policy, which refuses a candidate holding a secret or a marker
(`write_policy.classify`), so a memory is never stored with either.

A marker an earlier redaction left (`[redacted: password]`) is kept exactly as it is: a reply
that quotes a stored message must not have the marker redacted again ("비번은 [redacted:
password]" read as the password "[redacted:" gave "[redacted: password] password]").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memories.logic.redaction import PLACEHOLDER_PATTERN, redact
from memoryhub.text import is_marker_word
from memoryhub.validation import clean_message_text, visible_text


@dataclass(frozen=True)
class Intake:
    """Text as it may be stored, and the kinds of secret that were replaced in it."""

    text: str
    kinds: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        return bool(self.kinds)


def text_intake(text: str) -> Intake:
    """`text` without invisible reordering or hiding characters (`visible_text`) and with
    every secret replaced by a marker; markers already in it stay as they are.

    Idempotent: `text_intake(text_intake(t).text).text == text_intake(t).text`.
    """
    text = visible_text(text)
    if not text:
        return Intake(text=text)
    parts: list[str] = []
    kinds: set[str] = set()
    cursor = 0
    for marker in PLACEHOLDER_PATTERN.finditer(text):
        parts.append(_redacted(text[cursor : marker.start()], kinds))
        parts.append(marker.group(0))
        cursor = marker.end()
    parts.append(_redacted(text[cursor:], kinds))
    return Intake(text="".join(parts), kinds=tuple(sorted(kinds)))


def _redacted(segment: str, kinds: set[str]) -> str:
    if not segment.strip():
        return segment
    result = redact(segment)
    kinds.update(result.kinds)
    return result.text


def message_intake(value: object, *, max_chars: int | None = None) -> str:
    """A message from outside, checked (raises `InvalidText`) and redacted."""
    return text_intake(clean_message_text(value, max_chars=max_chars)).text


def excerpt(text: str, limit: int) -> str:
    """The first line of `text`, at most `limit` characters, never cut inside a marker (a
    broken marker is neither shown in the reader's language nor known as one)."""
    line = text.strip().splitlines()[0] if text.strip() else ""
    if len(line) <= limit:
        return line
    for marker in PLACEHOLDER_PATTERN.finditer(line):
        if marker.start() < limit < marker.end():
            return line[: marker.start()].rstrip()
    return line[:limit]


def has_marker(text: str) -> bool:
    return bool(PLACEHOLDER_PATTERN.search(text))


def terms_intake(terms: Iterable[str]) -> list[str]:
    """Tags or keywords a model gave: one that holds a secret or a marker is dropped, never
    stored as a tag (a marker is not a word of the conversation)."""
    return [
        term
        for term in terms
        if not has_marker(term)
        and not is_marker_word(term)  # "removed", "(삭제됨)": a marker's word in any form
        and not text_intake(term).found
    ]
