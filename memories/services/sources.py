"""Whether the message a memory would be extracted from still exists.

Messages belong to conversations, which this app never imports; conversations registers the
check when it is ready (`source_check_register`). Extraction holds the source message for the
length of its write: a message deleted before extraction ran gives no memory, and one being
deleted meanwhile waits until the memories are written (then they stay, as any memory made
from a deleted message does, holding only its id).
"""

from __future__ import annotations

from collections.abc import Callable

# (user_id, message_id) -> the message exists (and is now locked against deletion until
# the current transaction ends).
SourceCheck = Callable[[int, int], bool]

_check: SourceCheck | None = None


def source_check_register(check: SourceCheck) -> None:
    global _check
    _check = check


def source_hold(*, user_id: int, message_id: int | None) -> bool:
    """True when there is no source message to hold, or it exists and is now held."""
    if message_id is None or _check is None:
        return True
    return _check(user_id, message_id)
