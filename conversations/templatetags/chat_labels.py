"""`{{ status|session_status_label }}`: a chat session's status as its TextChoices label."""

from __future__ import annotations

from django import template

from conversations.models import ChatSession
from memories.templatetags.memory_labels import choice_label

register = template.Library()


@register.filter
def session_status_label(value: object) -> str:
    return choice_label(ChatSession.Status, value)
