"""Reads of sessions, messages and topics, always scoped to one user."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

import numpy as np
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import Avg, Count, Max, Min, Q, QuerySet, Subquery
from django.http import Http404

from conversations.models import ChatSession, HistoryImport, Message, TagWeightHistory, Topic
from memories.models import LIVE_STATUSES, Memory, MemoryStatus, MemoryVersion
from memoryhub import text as text_analysis
from memoryhub.embeddings import Vector

# Hangul syllables, as `memoryhub.text.has_hangul`: a message holding any counts as Korean.
HANGUL_PATTERN = "[가-힣]"


def chat_session_get_for_user(*, user: AbstractBaseUser, session_id: object) -> ChatSession:
    """The user's session, or Http404 for a missing id or another user's session."""
    try:
        pk = int(str(session_id))
    except (TypeError, ValueError):
        raise Http404("No such session.") from None
    try:
        return ChatSession.objects.get(pk=pk, user_id=user.pk)
    except ChatSession.DoesNotExist:
        raise Http404("No such session.") from None


def message_get_for_user(*, user: AbstractBaseUser, message_id: object) -> Message:
    """The user's message, or Http404 for a missing id or another user's message."""
    try:
        pk = int(str(message_id))
    except (TypeError, ValueError):
        raise Http404("No such message.") from None
    try:
        return Message.objects.get(pk=pk, user_id=user.pk)
    except Message.DoesNotExist:
        raise Http404("No such message.") from None


def message_ids_existing_for_user(*, user: AbstractBaseUser, ids: Iterable[int]) -> set[int]:
    """Which of `ids` are the user's messages that still exist (the rest were deleted)."""
    wanted = {int(i) for i in ids}
    if not wanted:
        return set()
    return set(Message.objects.filter(user_id=user.pk, pk__in=wanted).values_list("pk", flat=True))


def chat_session_list_for_user(*, user: AbstractBaseUser) -> QuerySet[ChatSession]:
    return ChatSession.objects.filter(user_id=user.pk).order_by("-started_at", "-id")


def user_has_written(*, user: AbstractBaseUser) -> bool:
    """Whether the user has sent any message yet (their first use of the chat is before)."""
    return Message.objects.filter(user_id=user.pk, role=Message.Role.USER).exists()


def session_messages(*, session: ChatSession) -> QuerySet[Message]:
    return session.messages.order_by("created_at", "id")


def session_topics(*, session: ChatSession) -> QuerySet[Topic]:
    return session.topics.order_by("started_at", "id")


def session_open_topic(*, session: ChatSession) -> Topic | None:
    return session.topics.filter(ended_at__isnull=True).order_by("-started_at", "-id").first()


# How many of the user's latest messages are read to tell the language they write in.
WRITING_LANGUAGE_LOOKBACK = 20


def user_writing_language(*, message: Message) -> str:
    """The language ("ko"/"en") the user writes in, for a `message` with no letters ("🙏"):
    that of their latest earlier message with letters in the same session, else in any of
    their sessions; "" when none has letters."""
    earlier = Message.objects.filter(
        user_id=message.user_id, role=Message.Role.USER, created_at__lte=message.created_at
    ).exclude(pk=message.pk)
    for rows in (earlier.filter(session_id=message.session_id), earlier):
        latest = rows.order_by("-created_at", "-pk").values_list("content", flat=True)
        for content in latest[:WRITING_LANGUAGE_LOOKBACK]:
            said = text_analysis.without_markers(content).replace(text_analysis.REMOVED_MARKER, " ")
            if text_analysis.has_letters(said):
                return text_analysis.detect_language(said)
    return ""


def message_reply(*, message: Message) -> Message | None:
    return Message.objects.filter(user_id=message.user_id, reply_to=message).first()


def history_import_get_for_user(*, user: AbstractBaseUser, import_id: object) -> HistoryImport:
    try:
        return HistoryImport.objects.get(pk=int(str(import_id)), user_id=user.pk)
    except (ValueError, HistoryImport.DoesNotExist):
        raise Http404("No such import.") from None


def import_session_ids(*, history_import: HistoryImport) -> list[int]:
    return list(
        ChatSession.objects.filter(user_id=history_import.user_id, history_import=history_import)
        .order_by("started_at", "id")
        .values_list("pk", flat=True)
    )


def import_vectors_pending(*, history_import: HistoryImport) -> int:
    """The import's messages still waiting for their embedding."""
    return Message.objects.filter(
        user_id=history_import.user_id,
        session__history_import=history_import,
        searchable=True,
        embedding__isnull=True,
    ).count()


def import_sessions_pending(*, history_import: HistoryImport) -> int:
    """The import's sessions whose topics, tags and summary are still being made."""
    return (
        ChatSession.objects.filter(user_id=history_import.user_id, history_import=history_import)
        .exclude(status=ChatSession.Status.ENDED)
        .count()
    )


def session_topics_with_ranges(*, session: ChatSession) -> QuerySet[Topic]:
    """The session's topics in order, each with `first_message_at` and `last_message_at`.

    Both are None for a topic with no messages left (they can be deleted).
    """
    return session.topics.annotate(
        first_message_at=Min("messages__created_at"),
        last_message_at=Max("messages__created_at"),
    ).order_by("started_at", "id")


def tag_weight_history_for_user(
    *, user: AbstractBaseUser, since: date, tags: Sequence[str]
) -> QuerySet[TagWeightHistory]:
    """The user's daily weights of `tags` from `since` on, by tag then day."""
    return TagWeightHistory.objects.filter(
        user_id=user.pk, tag__in=list(tags), day__gte=since
    ).order_by("tag", "day")


def message_hold(*, user_id: int, message_id: int) -> bool:
    """Whether the user's message exists; if so it is locked against deletion (FOR KEY SHARE)
    until the current transaction ends. Memory extraction holds its source with this."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM conversations_message WHERE id = %s AND user_id = %s FOR KEY SHARE",
            [message_id, user_id],
        )
        return cursor.fetchone() is not None


def recent_messages_mean_embeddings(*, limit: int) -> dict[str, tuple[Vector, int]]:
    """Per language ("ko": the message holds Hangul; "en": any other), the mean embedding and
    count of the deployment's `limit` most recent searchable messages. The one read here that
    spans all users, on purpose: a mean of thousands says what chat here looks like, not what
    anyone said, and only `services.centre` keeps it."""
    if limit <= 0:
        return {}
    recent = (
        Message.objects.filter(searchable=True, embedding__isnull=False)
        .order_by("-id")
        .values("id")[:limit]
    )
    hangul = Q(content__regex=HANGUL_PATTERN)
    found = Message.objects.filter(id__in=Subquery(recent)).aggregate(
        ko=Avg("embedding", filter=hangul),
        ko_count=Count("id", filter=hangul),
        en=Avg("embedding", filter=~hangul),
        en_count=Count("id", filter=~hangul),
    )
    return {
        language: (np.asarray(found[language], dtype=np.float32), int(found[f"{language}_count"]))
        for language in ("ko", "en")
        if found[f"{language}_count"]
    }


MemoryAction = Literal["created", "updated", "pending"]


@dataclass(frozen=True)
class MemoryUpdate:
    """What one user message made of one memory, as long as that still stands.

    `memory` carries its `current_version`; `content` is that version's (redacted) text.
    """

    memory: Memory
    action: MemoryAction
    message_id: int
    content: str

    @property
    def memory_id(self) -> int:
        return self.memory.pk


def session_memory_updates(
    *, session: ChatSession, message_ids: Collection[int] | None = None
) -> list[MemoryUpdate]:
    """The memories the session's user messages (or only `message_ids` of them) wrote and that
    are still in use, in message order.

    A memory counts for the message its current version came from while it is active or
    pending: `pending` while it waits for approval, `created` when its first version came
    from that message too, else `updated`. A memory deleted, rejected or taken out of use,
    or given a later version from elsewhere (an undo, a later statement), is no longer the
    message's doing and is left out.
    """
    messages = Message.objects.filter(
        user_id=session.user_id, session_id=session.pk, role=Message.Role.USER
    )
    if message_ids is not None:
        messages = messages.filter(pk__in=list(message_ids))
    memories = list(
        Memory.objects.filter(
            user_id=session.user_id,
            status__in=LIVE_STATUSES,
            current_version__source_message_id__in=Subquery(messages.values("pk")),
        )
        .select_related("current_version")
        .order_by("current_version__source_message_id", "pk")
    )
    first_sources = dict(
        MemoryVersion.objects.filter(memory__in=[m.pk for m in memories], version=1).values_list(
            "memory_id", "source_message_id"
        )
    )
    updates = []
    for memory in memories:
        version = memory.current_version
        assert version is not None and version.source_message_id is not None
        action: MemoryAction
        if memory.status == MemoryStatus.PENDING:
            action = "pending"
        elif first_sources.get(memory.pk) == version.source_message_id:
            action = "created"
        else:
            action = "updated"
        updates.append(
            MemoryUpdate(
                memory=memory,
                action=action,
                message_id=version.source_message_id,
                content=version.content,
            )
        )
    return updates
