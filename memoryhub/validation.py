"""Checks on text that comes from outside, shared by forms, the API and imports."""

from __future__ import annotations

import re

from django.conf import settings

# Characters that print as nothing yet change what a person reads or what a word is. Bidi
# embeddings, overrides and isolates (U+202A-202E, U+2066-2069) reorder the letters shown
# ("lives in \u202enodnoL" reads "London"), so an approved text would differ from the stored
# one; zero-width spaces and (non-)joiners, the word joiner, the byte-order mark, the soft
# hyphen, invisible math operators and tag characters show nothing and split or hide words
# (a keyword "부산\u200d", "ignore" spelled in tag letters a model reads). Korean and English
# never need them: the bidi algorithm orders right-to-left scripts without them.
_HIDDEN = (
    "\u00ad\u180e\u200b-\u200d\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f"
)
# The direction marks (LRM, RLM, ALM) reorder no letter; they place punctuation beside
# right-to-left text, so they stay in text that has some and go where they only split words.
_MARKS = "\u061c\u200e\u200f"
# Right-to-left letters (Hebrew, Arabic, Syriac, ...), not ALM (U+061C) itself.
_RIGHT_TO_LEFT = re.compile("[\u0590-\u061b\u061d-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
# Kept where they are part of what is written: a joiner between emoji ("👩\u200d💻" is one
# picture), a (non-)joiner after a letter of a script whose spelling needs it (Persian
# "می\u200cخواهم", Indic conjuncts), and tag letters ending a subdivision flag (🏴 + tags).
_EMOJI = "\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff"
_JOINING_SCRIPTS = "\u0600-\u08ff\u0900-\u0dff\ufb50-\ufdff\ufe70-\ufefc"
_KEPT = (
    f"(?P<kept>(?<=[{_EMOJI}\ufe0f])\u200d(?=[{_EMOJI}])"
    f"|(?<=[{_JOINING_SCRIPTS}])[\u200c\u200d]"
    "|\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f)"
)
_HIDDEN_OR_KEPT = re.compile(f"{_KEPT}|[{_HIDDEN}]+")
_HIDDEN_OR_MARK_OR_KEPT = re.compile(f"{_KEPT}|[{_HIDDEN}{_MARKS}]+")
_ANY_HIDDEN = re.compile(f"[{_HIDDEN}{_MARKS}]")


def visible_text(text: str) -> str:
    """`text` without the invisible format characters that reorder or hide what it says
    (`_HIDDEN`; direction marks too unless it has right-to-left letters), keeping emoji
    joiners, the joiners a script's spelling needs and flag tags.

    Every path by which text enters applies it before anything reads or stores the text
    (`clean_message_text`, `memories.services.intake.text_intake`, the memory write
    services), so what a person is shown is what is stored. Idempotent.
    """
    if not _ANY_HIDDEN.search(text):
        return text
    pattern = _HIDDEN_OR_KEPT if _RIGHT_TO_LEFT.search(text) else _HIDDEN_OR_MARK_OR_KEPT
    return pattern.sub(lambda m: m.group("kept") or "", text)


class InvalidText(ValueError):
    """Text that cannot be stored; `too_large` asks for a 413 rather than a 400. `code` says
    which rule failed (pages say it in the reader's language; the API keeps the English)."""

    def __init__(self, message: str, *, code: str, too_large: bool = False, limit: int = 0) -> None:
        super().__init__(message)
        self.code = code
        self.too_large = too_large
        self.limit = limit


def unstorable(value: str) -> InvalidText | None:
    """Why `value` cannot be stored (PostgreSQL refuses NUL; UTF-8 has no lone surrogates)."""
    if "\x00" in value:
        return InvalidText("must not contain NUL characters", code="nul")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return InvalidText("must be valid Unicode (no lone surrogates)", code="surrogate")
    return None


def clean_message_text(value: object, *, max_chars: int | None = None) -> str:
    """Return storable message text (`visible_text`) or raise InvalidText saying what is
    wrong; text of invisible characters alone is blank."""
    if not isinstance(value, str):
        raise InvalidText("must be a string", code="not_text")
    limit = max_chars if max_chars is not None else settings.MEMORYHUB_MAX_MESSAGE_CHARS
    if len(value) > limit:
        raise InvalidText(
            f"must be at most {limit} characters", code="too_long", too_large=True, limit=limit
        )
    problem = unstorable(value)
    if problem is not None:
        raise problem
    value = visible_text(value)
    if not value.strip():
        raise InvalidText("must not be blank", code="blank")
    return value


def parse_id(raw: str) -> int | None:
    """`raw` as a row id, or None unless it is 1-18 plain ASCII digits.

    `"²".isdigit()` is True and `int("²")` raises; `int("١٢")` is 12; 19 digits can
    overflow PostgreSQL's bigint. A page parameter goes through this, never int() alone.
    """
    if raw.isascii() and raw.isdigit() and len(raw) <= 18:
        return int(raw)
    return None
