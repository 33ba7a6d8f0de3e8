"""Hooks other apps connect to; memories never imports them.

`memory_content_removed` is sent inside the deleting transaction with `user_id` and
`memory_ids` (strings), before the rows go. A receiver that keeps copies of memory content
removes them there and returns either how many copies it removed (an int) or the copies it
changed (a list of `ContentCopy`, without their text); both go into the deletion receipt.

`memory_copies_requested` is sent with the same arguments before anything is deleted, for
the confirmation page: a receiver returns the copies that deleting would change (a list of
`ContentCopy`, with a preview of each, since the owner is about to delete it anyway).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.dispatch import Signal

memory_content_removed = Signal()
memory_copies_requested = Signal()


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
