"""Memory extraction for a stored exchange, read by message id.

A task's arguments sit in the broker, whose files outlive a deletion, so the extraction task
carries the user message's id and the text is read here, in the worker. memories' extraction
service takes the text by value (memories never reads conversations' tables) and the hold
on the message from here (`message_hold`): a message deleted before the task runs leaves
nothing to extract, and one deleted while the model runs gives no memory either.
"""

from __future__ import annotations

from datetime import datetime

from conversations.models import Message
from conversations.selectors import message_hold
from memories.services import extraction
from memoryhub.models import owned_by


def _hold(*, user_id: int, message_id: int | None) -> extraction.SourceHold | None:
    """The extraction's hold on its source message (None: there is none)."""
    if message_id is None:
        return None
    return lambda: message_hold(user_id=user_id, message_id=message_id)


def _exchange(message_id: int, user_id: int | None) -> tuple[Message, str] | None:
    """The user message and the searchable text of its reply ("" when there is none)."""
    message = Message.objects.filter(
        pk=message_id, role=Message.Role.USER, **owned_by(user_id)
    ).first()
    if message is None:
        return None
    reply = (
        Message.objects.filter(user_id=message.user_id, reply_to_id=message_id)
        .only("content", "searchable")
        .first()
    )
    # An unsearchable reply (an offline notice, a spent budget) says nothing about the user.
    return message, reply.content if reply is not None and reply.searchable else ""


def exchange_memories_extract(
    *, message_id: int, offline: bool = False, user_id: int | None = None
) -> extraction.ExtractionResult:
    """Extract memories from the exchange that `message_id` (a user message) starts.

    Idempotent per message. Raises `llm.LLMError` when the model cannot be reached.
    """
    found = _exchange(message_id, user_id)
    if found is None:
        return extraction.ExtractionResult(status="source_deleted")
    message, reply_text = found
    return extraction.memory_extract_from_exchange(
        user_id=message.user_id,
        user_text=message.content,
        assistant_text=reply_text,
        source_message_id=message.pk,
        source_session_id=message.session_id,
        observed_at=message.created_at,
        offline=offline,
        source_hold=_hold(user_id=message.user_id, message_id=message.pk),
    )


def exchange_text_extract(
    *,
    user_id: int,
    user_text: str,
    assistant_text: str,
    source_message_id: int | None,
    source_session_id: int | None,
    observed_at: datetime | None,
    offline: bool,
) -> extraction.ExtractionResult:
    """Extract memories from an exchange given by value (tasks queued before extraction read
    the message by id), holding its source message as `exchange_memories_extract` does: a
    message deleted since gives no memory."""
    return extraction.memory_extract_from_exchange(
        user_id=user_id,
        user_text=user_text,
        assistant_text=assistant_text,
        source_message_id=source_message_id,
        source_session_id=source_session_id,
        observed_at=observed_at,
        offline=offline,
        source_hold=_hold(user_id=user_id, message_id=source_message_id),
    )


def exchange_memories_extract_failed(
    *, message_id: int, error: str, user_id: int | None = None
) -> extraction.ExtractionResult:
    """Record that extraction for this exchange gave up (shown in admin)."""
    message = (
        Message.objects.filter(pk=message_id, **owned_by(user_id))
        .only("user_id", "session_id")
        .first()
    )
    if message is None:
        return extraction.ExtractionResult(status="source_deleted")
    return extraction.extraction_failure_record(
        user_id=message.user_id,
        source_message_id=message.pk,
        source_session_id=message.session_id,
        error=error,
    )
