"""Erasing all of a user's data, across conversations and memories (docs/API.md
`DELETE /me/data/`, the data page). Exporting it is `account.selectors.user_data_export`."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from conversations.services.deletion import conversations_erase_for_user
from memories.models import DeletionReceipt
from memories.services.agents import agents_erase_for_user
from memories.services.deletion import memories_erase_all_for_user
from memories.services.receipts import deletion_receipt_record
from memoryhub import llm


@transaction.atomic
def user_data_erase(*, user: AbstractBaseUser) -> DeletionReceipt:
    """Delete all the user's sessions, messages, topics, tags, imports, memories and usage.

    The account stays (so the user can sign in and see the receipt); nothing it held does.
    """
    removed = conversations_erase_for_user(user=user)
    removed["llm_calls"] = llm.llm_calls_erase_for_user(user_id=user.pk)
    for key, count in memories_erase_all_for_user(user=user, record_receipt=False).items():
        removed[f"memories.{key}"] = count
    removed["agents"] = agents_erase_for_user(user=user)
    return deletion_receipt_record(user_id=user.pk, kind=DeletionReceipt.Kind.ALL, removed=removed)
