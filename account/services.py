"""Erasing all of a user's data, across conversations and memories (docs/API.md
`DELETE /me/data/`, the data page). Exporting it is `account.selectors.user_data_export`."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from conversations.models import ChatSession, HistoryImport, TagWeight, TagWeightHistory
from conversations.services import shortterm
from memories.models import DeletionReceipt
from memories.services.agents import agents_erase_for_user
from memories.services.deletion import memories_erase_all_for_user
from memoryhub.models import LLMCall


@transaction.atomic
def user_data_erase(*, user: AbstractBaseUser) -> DeletionReceipt:
    """Delete all the user's sessions, messages, topics, tags, imports, memories and usage.

    The account stays (so the user can sign in and see the receipt); nothing it held does.
    """
    session_ids = list(ChatSession.objects.filter(user_id=user.pk).values_list("pk", flat=True))
    removed: dict[str, int] = {
        "sessions": len(session_ids),
        "messages": 0,
        "topics": 0,
    }
    _total, by_model = ChatSession.objects.filter(user_id=user.pk).delete()
    removed["messages"] = by_model.get("conversations.Message", 0)
    removed["topics"] = by_model.get("conversations.Topic", 0)
    removed["tag_weights"], _ = TagWeight.objects.filter(user_id=user.pk).delete()
    removed["tag_history"], _ = TagWeightHistory.objects.filter(user_id=user.pk).delete()
    removed["imports"], _ = HistoryImport.objects.filter(user_id=user.pk).delete()
    removed["llm_calls"], _ = LLMCall.objects.filter(user_id=user.pk).delete()
    for key, count in memories_erase_all_for_user(user=user, record_receipt=False).items():
        removed[f"memories.{key}"] = count
    removed["agents"] = agents_erase_for_user(user=user)
    receipt = DeletionReceipt.objects.create(
        user_id=user.pk, kind=DeletionReceipt.Kind.ALL, removed=removed
    )
    user_id = user.pk
    transaction.on_commit(lambda: shortterm.user_forget(user_id=user_id, session_ids=session_ids))
    return receipt
