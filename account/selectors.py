"""The user's own data as a whole, across conversations and memories: export everything
(docs/API.md `GET /export/`). Erasing it all is `account.services.user_data_erase`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from conversations.models import ChatSession, HistoryImport
from conversations.serializers import (
    HistoryImportExportSerializer,
    SessionExportSerializer,
    TagWeightExportSerializer,
)
from conversations.services.tag_weights import tag_weights_effective
from memories.serializers import memories_export_for_user, serialize_many
from memoryhub.models import LLMCall
from memoryhub.serializers import LLMCallExportSerializer


def user_data_export(*, user: AbstractBaseUser) -> dict[str, Any]:
    """Everything of the user's as one JSON-ready document (no vectors: derived data)."""
    chat_sessions = ChatSession.objects.filter(user_id=user.pk).prefetch_related(
        "messages", "topics"
    )
    tag_weights = [
        {"tag": tag, "weight": weight, "updated_at": updated_at}
        for tag, weight, updated_at in tag_weights_effective(user_id=user.pk)
    ]
    return {
        "exported_at": timezone.now().isoformat(),
        "user": {"id": str(user.pk), "username": user.get_username()},
        "sessions": serialize_many(SessionExportSerializer, chat_sessions),
        "tags": serialize_many(TagWeightExportSerializer, tag_weights),
        "imports": serialize_many(
            HistoryImportExportSerializer, HistoryImport.objects.filter(user_id=user.pk)
        ),
        "llm_usage": serialize_many(
            LLMCallExportSerializer, LLMCall.objects.filter(user_id=user.pk)
        ),
        **memories_export_for_user(user=user),
    }
