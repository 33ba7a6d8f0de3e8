"""Links from the memory pages into the chat: which messages still exist.

A memory outlives the message it came from and the replies it was used in. The memory pages
(memories, which never imports conversations) link only those that still exist, through the
template tag `chat_links.chat_messages_existing`, which asks here.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser

from conversations.selectors import chat_session_list_for_user, message_ids_existing_for_user


def chat_message_ids_existing(*, user: AbstractBaseUser, ids: Iterable[int | None]) -> set[int]:
    """Which of `ids` (None is skipped) are the user's messages that were not deleted."""
    return message_ids_existing_for_user(user=user, ids=[i for i in ids if i is not None])


def chat_session_titles_existing(*, user: AbstractBaseUser, ids: Iterable[int]) -> dict[int, str]:
    """Which of `ids` are the user's conversations that still exist, with their titles ("" for
    one without); a deletion receipt links only these."""
    wanted = {int(i) for i in ids}
    if not wanted:
        return {}
    rows = chat_session_list_for_user(user=user).filter(pk__in=wanted).values_list("pk", "title")
    return {pk: title or "" for pk, title in rows}
