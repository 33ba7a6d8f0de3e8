"""Links from the memory pages into the chat, for the page's own user:
`{% chat_messages_existing ids as live %}` (the ids whose messages still exist) and
`{% chat_conversations_existing changed as rows %}` (a receipt's changed conversations as
(conversation, exists, title)), so a memory page links only into chats that are there."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django import template

from account.links import chat_message_ids_existing, chat_session_titles_existing

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_messages_existing(context: dict[str, Any], ids: Iterable[int | None] | None) -> set[int]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not ids:
        return set()
    return chat_message_ids_existing(user=user, ids=ids)


@register.simple_tag(takes_context=True)
def chat_conversations_existing(
    context: dict[str, Any], changed: Sequence[Any] | None
) -> list[tuple[Any, bool, str]]:
    """Each of `changed` (having `session_id`) with whether its conversation still exists and
    its title ("" for one without)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not changed:
        return [(c, False, "") for c in changed or []]
    titles = chat_session_titles_existing(user=user, ids=[c.session_id for c in changed])
    return [(c, c.session_id in titles, titles.get(c.session_id, "")) for c in changed]
