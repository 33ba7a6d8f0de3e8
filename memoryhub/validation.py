"""Checks on text that comes from outside, shared by forms, the API and imports."""

from __future__ import annotations

from django.conf import settings


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
    """Return storable message text or raise InvalidText saying what is wrong."""
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
