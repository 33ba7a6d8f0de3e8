"""What the memory pages need to link into the chat: which messages still exist.

Project-level, so memories never imports conversations (DESIGN.md); the links themselves are
built from the URL name `chat:message-detail` and a message id.
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
