"""`{% chat_messages_existing ids as live %}`: the ids (of the page's own user) whose
messages still exist, so a memory page links only into chats that are there."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

from account.links import chat_message_ids_existing

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_messages_existing(context: dict[str, Any], ids: Iterable[int | None] | None) -> set[int]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not ids:
        return set()
    return chat_message_ids_existing(user=user, ids=ids)
