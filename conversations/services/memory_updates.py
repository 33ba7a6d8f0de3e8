"""Undoing what a chat turn made of memory (the notice under a reply: "Remembered: ... · Undo").

A memory the turn created is deleted with a receipt (`forgetting.memory_forget`, with every
copy): the person said "do not keep this", so it leaves every list, the context and search
at once, and its text is gone rather than kept until the retention purge as a rejected memory
would be. A memory the turn updated goes back
to the version before the turn through the revision service, so its history shows both the
update and the undo.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from conversations import selectors
from conversations.models import Message
from conversations.services.forgetting import memory_forget
from memories.logic.write_policy import Origin
from memories.models import DeletionReceipt, Memory, MemoryVersion
from memories.reasons import ChangeReason
from memories.services import revision


class NothingToUndo(Exception):
    """The message's change to that memory no longer stands (already undone, deleted,
    rejected, or changed again since)."""


@dataclass(frozen=True)
class MemoryUpdateUndone:
    action: Literal["deleted", "restored"]
    memory_id: int
    receipt: DeletionReceipt | None = None
    version: int | None = None


def _version_before(memory: Memory, *, message_id: int) -> MemoryVersion | None:
    """The newest version that did not come from `message_id`, walking back from the current."""
    version = memory.current_version
    while version is not None and version.source_message_id == message_id:
        version = version.supersedes
    return version


@transaction.atomic
def memory_update_undo(
    *, user: AbstractBaseUser, message: Message, memory: Memory
) -> MemoryUpdateUndone:
    """Undo what the user's `message` made of `memory`.

    Both must be the user's own (ownership-checked reads). Raises NothingToUndo when the
    change is not (or no longer) one of the message's standing memory updates.
    """
    memory_id = memory.pk
    # Lock first: two clicks on Undo must not both restore or delete.
    locked = list(Memory.objects.select_for_update().filter(pk=memory_id, user_id=user.pk))
    if not locked:
        raise NothingToUndo
    updates = selectors.session_memory_updates(session=message.session, message_ids=[message.pk])
    update = next((u for u in updates if u.memory_id == memory_id), None)
    if update is None:
        raise NothingToUndo
    current = update.memory
    if update.action == "updated":
        previous = _version_before(current, message_id=message.pk)
        if previous is None:
            raise NothingToUndo
        revised = revision.memory_revise(
            memory=current,
            changes=revision.MemoryChanges(
                content=previous.content,
                type=previous.type,
                expires_at=previous.expires_at,
                importance=previous.importance,
                confidence=previous.confidence,
            ),
            origin=Origin.USER,
            change_reason=ChangeReason.UNDONE_FROM_CHAT,
            change_params={"version": previous.version},
            observed_at=previous.observed_at,
            source_message_id=previous.source_message_id,
            source_session_id=previous.source_session_id,
        )
        revised.refresh_from_db(fields=["current_version"])
        number = revised.current_version.version if revised.current_version else None
        return MemoryUpdateUndone(action="restored", memory_id=memory_id, version=number)
    receipt = memory_forget(user=user, memory=current)
    return MemoryUpdateUndone(action="deleted", memory_id=memory_id, receipt=receipt)
