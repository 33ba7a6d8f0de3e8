"""The user's own data as a whole, across conversations and memories: export everything
(docs/API.md `GET /export/`). Erasing it all is `account.services.user_data_erase`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from conversations.models import ChatSession, HistoryImport
from conversations.services.tag_weights import tag_weights_effective
from memories.serializers import memories_export_for_user
from memoryhub.models import LLMCall


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def user_data_export(*, user: AbstractBaseUser) -> dict[str, Any]:
    """Everything of the user's as one JSON-ready document (no vectors: derived data)."""
    chat_sessions = []
    for session in ChatSession.objects.filter(user_id=user.pk).prefetch_related(
        "messages", "topics"
    ):
        chat_sessions.append(
            {
                "id": str(session.pk),
                "title": session.title,
                "status": session.status,
                "source": session.source,
                "started_at": _iso(session.started_at),
                "ended_at": _iso(session.ended_at),
                "summary": session.summary,
                "tags": list(session.tags),
                "state": session.state,
                "topics": [
                    {
                        "id": str(t.pk),
                        "keywords": list(t.keywords),
                        "started_at": _iso(t.started_at),
                        "ended_at": _iso(t.ended_at),
                        "message_count": t.message_count,
                    }
                    for t in session.topics.all()
                ],
                "messages": [
                    {
                        "id": str(m.pk),
                        "role": m.role,
                        "content": m.content,
                        "speaker": m.speaker,
                        "created_at": _iso(m.created_at),
                        "external_id": m.external_id,
                        "topic_id": str(m.topic_id) if m.topic_id else None,
                        "context": m.context,
                    }
                    for m in session.messages.all()
                ],
            }
        )
    return {
        "exported_at": timezone.now().isoformat(),
        "user": {"id": str(user.pk), "username": user.get_username()},
        "sessions": chat_sessions,
        "tags": [
            {"tag": tag, "weight": round(weight, 4), "updated_at": _iso(updated)}
            for tag, weight, updated in tag_weights_effective(user_id=user.pk)
        ],
        "imports": [
            {
                "id": str(i.pk),
                "status": i.status,
                "total": i.total,
                "created_at": _iso(i.created_at),
            }
            for i in HistoryImport.objects.filter(user_id=user.pk)
        ],
        "llm_usage": [
            {
                "task": c.task,
                "model": c.model,
                "input_tokens": c.input_tokens,
                "output_tokens": c.output_tokens,
                "cost_usd": str(c.cost_usd),
                "created_at": _iso(c.created_at),
            }
            for c in LLMCall.objects.filter(user_id=user.pk)
        ],
        **memories_export_for_user(user=user),
    }
