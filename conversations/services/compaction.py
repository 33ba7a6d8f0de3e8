"""Compaction: turns that no longer fit the prompt are folded into a structured session
state (goal, done-condition, completed actions, decisions, constraints, identifiers,
blockers, next step) kept on the session and put in the prompt instead of those turns.

It is session state, never a long-term memory, and never the only copy: the turns stay stored.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

from conversations.logic.compaction import SessionState, fold
from conversations.models import ChatSession, Message
from conversations.services import shortterm
from memories.services.intake import text_intake
from memoryhub import llm
from memoryhub.models import owned_by

logger = logging.getLogger(__name__)

COMPACT_PROMPT = """You maintain the working state of a long conversation so it can continue
after older turns are dropped from the context. Update the state with the turns below.
Keep exact identifiers (files, records, ids, versions). Return only JSON with the keys
goal, done_condition, completed, decisions, constraints, identifiers, blockers, next_step
(lists of short strings for completed, decisions, constraints, identifiers, blockers).

Current state:
{state}

Turns:
{turns}"""


def split_history(messages: Sequence[Message], budget: int) -> tuple[list[Message], list[Message]]:
    """(older turns that do not fit, newest turns that fit `budget` tokens), oldest first."""
    kept: list[Message] = []
    left = budget
    for message in reversed(messages):
        left -= message.token_count
        if left < 0:
            break
        kept.append(message)
    kept.reverse()
    older = list(messages[: len(messages) - len(kept)])
    return older, kept


def needs_compaction(*, session: ChatSession, older: Sequence[Message]) -> bool:
    covered = int((session.state or {}).get("covers_until", 0))
    return any(m.pk > covered for m in older)


def _llm_fold(
    state: SessionState, turns: list[tuple[str, str]], user_id: int
) -> SessionState | None:
    text = "\n".join(f"{role}: {content[:800]}" for role, content in turns)
    try:
        answer = llm.get_provider().complete(
            task="compaction",
            prompt=COMPACT_PROMPT.format(
                state=json.dumps(state.as_dict(), ensure_ascii=False), turns=text
            ),
            max_tokens=800,
            user_id=user_id,
        )
    except llm.LLMError:
        return None
    match = re.search(r"\{.*\}", answer, re.S)
    try:
        data = json.loads(match.group(0)) if match else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        logger.warning("invalid compaction JSON; using the offline rules")
        return None
    return SessionState.from_dict({key: _redacted(value) for key, value in data.items()})


def _redacted(value: Any) -> Any:
    """The model's state with secrets in its strings redacted, as every model output is."""
    if isinstance(value, str):
        return text_intake(value).text
    if isinstance(value, list):
        return [_redacted(item) for item in value]
    return value


def session_compact(*, session_id: int, user_id: int | None = None) -> None:
    """Fold every turn that no longer fits the history budget into the session state
    (`user_id`: the owner, when the caller knows it)."""
    with transaction.atomic():
        session = (
            ChatSession.objects.select_for_update()
            .filter(pk=session_id, **owned_by(user_id))
            .first()
        )
        if session is None:
            return
        messages = list(session.messages.order_by("created_at", "id"))
        older, _kept = split_history(messages, settings.MEMORYHUB_HISTORY_TOKEN_BUDGET)
        covered = int((session.state or {}).get("covers_until", 0))
        to_fold = [m for m in older if m.pk > covered]
        if not to_fold:
            return
        state = SessionState.from_dict(session.state or {})
        turns = [(m.role, m.content) for m in to_fold]
        folded = None
        if not llm.get_provider().offline:
            folded = _llm_fold(state, turns, session.user_id)
        folded = folded or fold(state, turns)
        session.state = {**folded.as_dict(), "covers_until": to_fold[-1].pk}
        session.save(update_fields=["state"])
        transaction.on_commit(lambda: shortterm.session_state_forget(session_id=session_id))
