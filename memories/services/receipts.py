"""Deletion receipts: the one writer of `DeletionReceipt`, and the copies a receipt names.

Every deletion that leaves the user a receipt (a memory, all of them, the retention purge, a
chat session, one exchange, the whole account's data) records it through
`deletion_receipt_record`. A receipt holds ids, counts and where copies were (kind, session,
date), never content.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from memories.models import DeletionReceipt


@dataclass(frozen=True)
class ContentCopy:
    """A copy of a memory's content kept elsewhere: what kind, in which session, from when.

    `kind` is a code ("statement", "reply", "summary", "title", "tags", "topic_keywords",
    "recalled"), translated on render. `preview` and `session_title` are filled only for the
    confirmation page, never stored.
    """

    kind: str
    session_id: str
    date: str  # ISO date
    preview: str = ""
    session_title: str = ""

    def as_receipt_entry(self) -> dict[str, str]:
        return {"kind": self.kind, "session_id": self.session_id, "date": self.date}


@dataclass(frozen=True)
class CopiesRemoved:
    """What the caller removed elsewhere before the memory rows go: the copies it names
    (kind, session, date) and those it only counts (a memory's entry in a saved context)."""

    named: tuple[ContentCopy, ...] = ()
    counted: int = 0

    @property
    def total(self) -> int:
        return self.counted + len(self.named)


NO_COPIES = CopiesRemoved()


def _entries(copies: Iterable[ContentCopy]) -> list[dict[str, str | int]]:
    """One entry per distinct (kind, session, date), in the order first seen, with how many
    copies it stands for (the receipt says "3 replies in 2 conversations")."""
    entries: dict[tuple[str, ...], dict[str, str | int]] = {}
    for copy in copies:
        entry = copy.as_receipt_entry()
        key = tuple(entry.values())
        if key in entries:
            entries[key]["count"] = int(entries[key]["count"]) + 1
        else:
            entries[key] = {**entry, "count": 1}
    return list(entries.values())


def deletion_receipt_record(
    *,
    user_id: int,
    kind: DeletionReceipt.Kind,
    removed: Mapping[str, int],
    memory_id: str = "",
    copies: Iterable[ContentCopy] = (),
) -> DeletionReceipt:
    """Leave the user a receipt for a deletion of `kind`: the counts removed and the copies
    changed elsewhere (never their text). Callers hold the deleting transaction."""
    return DeletionReceipt.objects.create(
        user_id=user_id,
        kind=kind,
        memory_id=memory_id,
        removed=dict(removed),
        copies=_entries(copies),
    )
