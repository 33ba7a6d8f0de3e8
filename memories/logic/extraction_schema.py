"""The shape of an extracted memory candidate, and validation of the model's JSON: pure.

The light model answers with seed 002's list, extended:
`[{"type", "content", "importance", "tags", "stated_by_user", "confidence", "updates",
"happens_on", "expires_at"}]` where `updates` names the slot the item changes (e.g.
"residence") or is null, `happens_on` is the day of a dated event (YYYY-MM-DD) or null and
`expires_at` when the memory stops being useful (ISO 8601) or null. Output that does not
match is rejected as a whole: a half-valid answer is never half-stored. A slot name outside
`slots.valid` is only a hint gone wrong: it is dropped and extraction works out the slot from
the content itself (`slots.question_of`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Any

from memories.logic import slots

TYPES = ("preference", "decision", "procedure", "fact", "episode")
# Seed 002 names the types by memory kind; map them onto ours.
TYPE_ALIASES = {
    "episodic": "episode",
    "semantic": "fact",
    "procedural": "procedure",
    "preferences": "preference",
    "facts": "fact",
    "episodes": "episode",
    "decisions": "decision",
    "procedures": "procedure",
}
# Slots the model may name in `updates` (one per question about the user, memories.services.
# slots); keyed ones are `likes:<subject>`, `prefers:<thing>:<dimension>`, `favourite:<category>`,
# `allergy:<subject>` and `name:<relation>`.
SLOT_NAMES = slots.SINGLE_SLOTS
SLOT_PREFIXES = slots.KEYED_PREFIXES
MAX_ITEMS = 10
MAX_CONTENT_CHARS = 500
MAX_TAGS = 8

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


class InvalidExtraction(ValueError):
    """The model's output is not the JSON the prompt asked for."""


@dataclass(frozen=True)
class ExtractedItem:
    type: str
    content: str
    importance: float = 0.5
    tags: tuple[str, ...] = field(default_factory=tuple)
    stated_by_user: bool = True
    confidence: float = 0.9
    slot: str = ""
    # The day an episode happens (a plan's date, resolved against the message's date).
    happens_on: date | None = None
    # When the memory stops being useful (a plan: after its day), else None.
    expires_at: datetime | None = None


def _number(item: dict[str, Any], key: str, default: float, index: int) -> float:
    value = item.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidExtraction(f"item {index}: {key} must be a number")
    if not 0.0 <= float(value) <= 1.0:
        raise InvalidExtraction(f"item {index}: {key} must be within 0..1")
    return float(value)


def valid_slot(slot: str) -> bool:
    return slots.valid(slot)


def _item(raw: Any, index: int) -> ExtractedItem:
    if not isinstance(raw, dict):
        raise InvalidExtraction(f"item {index} is not an object")
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise InvalidExtraction(f"item {index}: type must be a string")
    kind = TYPE_ALIASES.get(kind.strip().lower(), kind.strip().lower())
    if kind not in TYPES:
        raise InvalidExtraction(f"item {index}: unknown type {kind!r}")
    content = raw.get("content")
    if not isinstance(content, str) or not content.strip():
        raise InvalidExtraction(f"item {index}: content must be a non-empty string")
    if len(content) > MAX_CONTENT_CHARS:
        raise InvalidExtraction(f"item {index}: content longer than {MAX_CONTENT_CHARS}")
    tags = raw.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise InvalidExtraction(f"item {index}: tags must be a list of strings")
    stated = raw.get("stated_by_user", False)
    if not isinstance(stated, bool):
        raise InvalidExtraction(f"item {index}: stated_by_user must be true or false")
    updates = raw.get("updates")
    if updates is not None and not isinstance(updates, str):
        raise InvalidExtraction(f"item {index}: updates must be a slot name or null")
    slot = (updates or "").strip().lower()
    if not valid_slot(slot):
        slot = ""
    return ExtractedItem(
        type=kind,
        content=content.strip(),
        importance=_number(raw, "importance", 0.5, index),
        tags=tuple(t.strip()[:100] for t in tags[:MAX_TAGS] if t.strip()),
        stated_by_user=stated,
        confidence=_number(raw, "confidence", 0.8, index),
        slot=slot,
        happens_on=_day(raw, index),
        expires_at=_moment(raw, index),
    )


def _day(raw: dict[str, Any], index: int) -> date | None:
    value = raw.get("happens_on")
    if value is None:
        return None
    if not isinstance(value, str) or not _ISO_DAY.fullmatch(value.strip()):
        raise InvalidExtraction(f"item {index}: happens_on must be a YYYY-MM-DD date or null")
    try:
        return date.fromisoformat(value.strip())
    except ValueError as exc:
        raise InvalidExtraction(f"item {index}: happens_on is no real date") from exc


def _moment(raw: dict[str, Any], index: int) -> datetime | None:
    value = raw.get("expires_at")
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise InvalidExtraction(f"item {index}: expires_at must be an ISO 8601 time or null")
    text = value.strip().replace("Z", "+00:00")
    try:
        moment = datetime.fromisoformat(text) if "T" in text else None
    except ValueError as exc:
        raise InvalidExtraction(f"item {index}: expires_at is no ISO 8601 time") from exc
    if moment is None:
        day = _day({"happens_on": text}, index)  # a bare date: the end of that day, UTC
        assert day is not None
        return datetime.combine(day, time.max, tzinfo=UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)  # the prompt asks for an offset; UTC when missing
    return moment


def parse_extraction(text: str) -> list[ExtractedItem]:
    """Validate the model's answer; raise InvalidExtraction for anything off-schema."""
    fenced = _FENCE.match(text)
    body = fenced.group(1) if fenced else text.strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise InvalidExtraction(f"not JSON: {exc.msg} at {exc.pos}") from exc
    if isinstance(data, dict) and isinstance(data.get("memories"), list):
        data = data["memories"]
    if not isinstance(data, list):
        raise InvalidExtraction("expected a JSON array of memories")
    if len(data) > MAX_ITEMS:
        raise InvalidExtraction(f"more than {MAX_ITEMS} memories")
    return [_item(raw, index) for index, raw in enumerate(data)]
