"""The user's own data as a whole, across conversations and memories: export everything,
or erase everything (API.md). Project-level, so neither app imports the other for it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from conversations.models import ChatSession, HistoryImport, TagWeight, TagWeightHistory
from conversations.services import sessions, shortterm
from memories.models import DeletionReceipt
from memories.selectors import memories_export_for_user
from memories.services.agents import agents_erase_for_user
from memories.services.deletion import memories_erase_all_for_user
from memoryhub.models import LLMCall


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


def user_data_export(*, user: AbstractBaseUser) -> dict[str, Any]:
    """Everything of the user's as one JSON-ready document (no vectors: derived data)."""
    chat_sessions = []
    for session in ChatSession.objects.filter(user_id=user.pk).prefetch_related(
        "messages", "topics"
    ):
        chat_sessions.append({
            "id": str(session.pk), "title": session.title, "status": session.status,
            "source": session.source, "started_at": _iso(session.started_at),
            "ended_at": _iso(session.ended_at), "summary": session.summary,
            "tags": list(session.tags), "state": session.state,
            "topics": [
                {"id": str(t.pk), "keywords": list(t.keywords), "started_at": _iso(t.started_at),
                 "ended_at": _iso(t.ended_at), "message_count": t.message_count}
                for t in session.topics.all()
            ],
            "messages": [
                {"id": str(m.pk), "role": m.role, "content": m.content, "speaker": m.speaker,
                 "created_at": _iso(m.created_at), "external_id": m.external_id,
                 "topic_id": str(m.topic_id) if m.topic_id else None, "context": m.context}
                for m in session.messages.all()
            ],
        })  # fmt: skip
    return {
        "exported_at": timezone.now().isoformat(),
        "user": {"id": str(user.pk), "username": user.get_username()},
        "sessions": chat_sessions,
        "tags": [
            {"tag": tag, "weight": round(weight, 4), "updated_at": _iso(updated)}
            for tag, weight, updated in sessions.tag_weights_effective(user_id=user.pk)
        ],
        "imports": [
            {
                "id": str(i.pk),
                "status": i.status,
                "total": i.total,
                "created_at": _iso(i.created_at),
            }
            for i in HistoryImport.objects.filter(user_id=user.pk)
        ],  # fmt: skip
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
        ],  # fmt: skip
        **memories_export_for_user(user=user),
    }


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
