"""A memory's history as people read it: each version with a word diff against the one before.

`text_diff` is plain Python (difflib), tested without a database.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from django.db.models import QuerySet

from memories.models import Memory, MemoryUse, MemoryVersion

# Words and the spaces between them, so a diff re-joins into the original text exactly.
_TOKENS = re.compile(r"\s+|[^\s]+")


@dataclass(frozen=True)
class DiffPart:
    """A run of text that is `equal` in both versions, `removed` from the old or `added`."""

    op: str
    text: str


def text_diff(old: str, new: str) -> list[DiffPart]:
    """Word-level differences from `old` to `new`; joining the `equal` and `added` parts
    gives `new`, the `equal` and `removed` parts give `old`."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    parts: list[DiffPart] = []
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            parts.append(DiffPart("equal", "".join(a[i1:i2])))
            continue
        if tag in ("delete", "replace"):
            parts.append(DiffPart("removed", "".join(a[i1:i2])))
        if tag in ("insert", "replace"):
            parts.append(DiffPart("added", "".join(b[j1:j2])))
    return _merge(parts)


def _merge(parts: list[DiffPart]) -> list[DiffPart]:
    merged: list[DiffPart] = []
    for part in parts:
        if not part.text:
            continue
        if merged and merged[-1].op == part.op:
            merged[-1] = DiffPart(part.op, merged[-1].text + part.text)
        else:
            merged.append(part)
    return merged


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: object
    new: object


# Fields besides the content whose change a person wants to see in the history.
_COMPARED = ("type", "sensitivity", "confidence", "importance", "expires_at", "scope")


@dataclass(frozen=True)
class HistoryEntry:
    version: MemoryVersion
    is_current: bool
    diff: list[DiffPart]
    changes: list[FieldChange]

    @property
    def content_changed(self) -> bool:
        return any(part.op != "equal" for part in self.diff)


def _changes(old: MemoryVersion, new: MemoryVersion) -> list[FieldChange]:
    found = []
    for name in _COMPARED:
        before, after = getattr(old, name), getattr(new, name)
        if before != after:
            found.append(FieldChange(name, before, after))
    return found


def memory_history(*, memory: Memory) -> list[HistoryEntry]:
    """Every version of the memory, newest first, each compared with the one before it."""
    versions = list(memory.versions.select_related("approved_by").order_by("version"))
    entries = []
    previous: MemoryVersion | None = None
    for version in versions:
        if previous is None:
            diff = [DiffPart("equal", version.content)]
            changes: list[FieldChange] = []
        else:
            diff = text_diff(previous.content, version.content)
            changes = _changes(previous, version)
        entries.append(
            HistoryEntry(
                version=version,
                is_current=version.pk == memory.current_version_id,
                diff=diff,
                changes=changes,
            )
        )
        previous = version
    entries.reverse()
    return entries


def memory_uses(*, memory: Memory) -> QuerySet[MemoryUse]:
    """The replies the memory went into, newest first (the usage log)."""
    return memory.uses.select_related("version").order_by("-used_at", "rank")
