"""The short-term layer (seed 002): recent session summaries and the current session state,
cached in the broker's Redis/Valkey with a TTL and read first.

Every write that changes what is cached (a new summary, a compaction, a deletion) calls the
matching `*_forget` here, so nothing stale is served.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.cache import cache

from conversations.models import ChatSession

logger = logging.getLogger(__name__)
_RECENT = 20


def _summaries_key(user_id: int) -> str:
    return f"recent-summaries:{user_id}"


def _state_key(session_id: int) -> str:
    return f"session-state:{session_id}"


def _get(key: str) -> Any:
    try:
        return cache.get(key)
    except Exception:  # the cache is an accelerator; the database stays the source of truth
        logger.warning("short-term cache unavailable for %s", key, exc_info=True)
        return None


def _set(key: str, value: Any) -> None:
    try:
        cache.set(key, value, timeout=settings.MEMORYHUB_SHORT_TERM_TTL_SECONDS)
    except Exception:
        logger.warning("short-term cache unavailable for %s", key, exc_info=True)


def _delete(*keys: str) -> None:
    try:
        cache.delete_many(list(keys))
    except Exception:
        logger.warning("short-term cache unavailable for %s", keys, exc_info=True)


def recent_summaries(*, user_id: int) -> list[dict[str, Any]]:
    """The user's latest ended sessions with a summary, newest first (cached)."""
    cached = _get(_summaries_key(user_id))
    if cached is not None:
        return list(cached)
    rows = [
        {
            "session_id": s.pk,
            "summary": s.summary,
            "stamp": s.summary_stamp,
            "tags": list(s.tags),
            "started_at": s.started_at.isoformat(),
            "last_message_at": (s.last_message_at or s.started_at).isoformat(),
        }
        for s in ChatSession.objects.filter(user_id=user_id, status=ChatSession.Status.ENDED)
        .exclude(summary="")
        .order_by("-started_at", "-id")[:_RECENT]
    ]
    _set(_summaries_key(user_id), rows)
    return rows


def recent_summaries_forget(*, user_id: int) -> None:
    _delete(_summaries_key(user_id))


def session_state(*, session: ChatSession) -> dict[str, Any]:
    cached = _get(_state_key(session.pk))
    if cached is not None:
        return dict(cached)
    stored = (
        ChatSession.objects.filter(user_id=session.user_id, pk=session.pk)
        .values_list("state", flat=True)
        .first()
    )
    state = dict(stored or {})
    _set(_state_key(session.pk), state)
    return state


def session_state_forget(*, session_id: int) -> None:
    _delete(_state_key(session_id))


def user_forget(*, user_id: int, session_ids: list[int]) -> None:
    """Drop everything cached for a user (data erased or sessions deleted)."""
    _delete(_summaries_key(user_id), *(_state_key(sid) for sid in session_ids))
