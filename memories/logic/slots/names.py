"""Slot names: which are valid, and a model's slot put in the shared vocabulary."""

from __future__ import annotations

from memories.logic.slots.statement import fold
from memories.logic.slots.vocab import (
    DIMENSIONS,
    MAX_KEY_CHARS,
    RELATION_OF,
    canon,
    subject_key,
)
from memoryhub.text import stem_english

SINGLE_SLOTS = (
    "residence",
    "hometown",
    "household",
    "name",
    "job",
    "workplace",
    "work_mode",
    "school",
    "major",
    "age",
    "birthday",
    "diet",
    "relationship",
    "weight",
    "answer_formality",
    "answer_format",
    "answer_length",
    "answer_language",
    "units",
    "emoji",
    # one current answer about the user's things and routine (slots/current.py)
    "car",
    "phone",
    "timezone",
    "wake_time",
    "bed_time",
    "work_start",
    "work_shift",
    "exercise",
    "commute",
    # the number to reach the user on: their own, and their work line
    "phone_number",
    "work_phone_number",
)

KEYED_PREFIXES = ("likes:", "prefers:", "favourite:", "allergy:", "name:", "pets:")


def relation_slot(word: str) -> str:
    relation = RELATION_OF.get(word) or RELATION_OF.get(stem_english(word))
    return f"name:{relation}" if relation else ""


def valid(slot: str) -> bool:
    """True for a slot name `question_of` can give (what a model may name in `updates`)."""
    if slot in SINGLE_SLOTS:
        return True
    for prefix in KEYED_PREFIXES:
        if slot.startswith(prefix):
            key = slot[len(prefix) :]
            if not 0 < len(key) <= MAX_KEY_CHARS or key != key.strip():
                return False
            if prefix == "prefers:":
                thing, _, dimension = key.rpartition(":")
                return bool(thing.strip()) and dimension in DIMENSIONS
            return ":" not in key
    return False


def normalise_slot(slot: str) -> str:
    """A valid slot with its subject words in the shared vocabulary: a model's
    "likes:커피" and an offline "likes:coffee" are one slot. "" for an invalid slot."""
    slot = fold(slot)
    if not valid(slot):
        return ""
    for prefix in ("likes:", "allergy:"):
        if slot.startswith(prefix):
            key = subject_key([canon(w) for w in slot[len(prefix) :].split()])
            return f"{prefix}{key}" if key else ""
    if slot.startswith("prefers:"):
        thing, _, dimension = slot[len("prefers:") :].rpartition(":")
        words = [canon(w) for w in thing.split()]
        return f"prefers:{words[-1]}:{dimension}"
    if slot.startswith("favourite:"):
        key = subject_key([canon(w) for w in slot[len("favourite:") :].split()], ordered=True)
        return f"favourite:{key}"
    if slot.startswith("name:"):
        return relation_slot(slot[len("name:") :]) or ""
    if slot.startswith("pets:"):
        animal = canon(slot[len("pets:") :].split()[-1])
        return f"pets:{animal}"
    return slot
