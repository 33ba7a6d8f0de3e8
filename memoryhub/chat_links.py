"""What the memory pages need to link into the chat: which messages still exist.

Project-level, so memories never imports conversations (DESIGN.md); the links themselves are
built from the URL name `chat:message-detail` and a message id.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser

from conversations.selectors import message_ids_existing_for_user


def chat_message_ids_existing(*, user: AbstractBaseUser, ids: Iterable[int | None]) -> set[int]:
    """Which of `ids` (None is skipped) are the user's messages that were not deleted."""
    return message_ids_existing_for_user(user=user, ids=[i for i in ids if i is not None])
