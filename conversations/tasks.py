"""Celery tasks of conversations: take ids, call one service, idempotent.

Every task is acknowledged after it runs (acks_late) and re-queued if its worker dies, so each
is written to change nothing when it runs a second time.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.utils.dateparse import parse_datetime

from conversations.models import HistoryImport
from conversations.services import (
    centre,
    compaction,
    forgetting,
    imports,
    indexing,
    recovery,
    remembering,
    sessions,
    tag_weights,
    topics,
)
from memories.services import extraction
from memoryhub import llm
from memoryhub.locks import exclusive

logger = logging.getLogger(__name__)

_RELIABLE = {"acks_late": True, "reject_on_worker_lost": True}


@shared_task(**_RELIABLE, max_retries=5, default_retry_delay=10)
def messages_embed(*, user_id: int) -> int:
    """Live: embed the user's chat messages that have no vector yet, in batches."""
    done = indexing.messages_embed_pending(user_id=user_id, live_only=True)
    if done >= indexing.MAX_PER_RUN:  # more are waiting: continue in a fresh task
        messages_embed.delay(user_id=user_id)
    return done


@shared_task(**_RELIABLE, max_retries=5, default_retry_delay=10)
def messages_backfill(*, user_id: int) -> int:
    """Bulk: embed every message of the user without a vector, and recompute the search
    vectors a deletion cleared, in batches."""
    done = indexing.messages_embed_pending(user_id=user_id)
    if done >= indexing.MAX_PER_RUN:
        messages_backfill.delay(user_id=user_id)
    return done


@shared_task(bind=True, **_RELIABLE, max_retries=3, default_retry_delay=30)
def exchange_extract(
    self: Task[Any, Any], *, message_id: int, offline: bool = False, user_id: int | None = None
) -> dict[str, Any]:
    """Memories from the exchange a user message starts; its text is read here, not carried.
    `user_id` (the owner; none in tasks queued before it was carried) scopes every lookup."""
    try:
        result = remembering.exchange_memories_extract(
            message_id=message_id, offline=offline, user_id=user_id
        )
    except llm.LLMError as exc:
        if self.request.retries < (self.max_retries or 0):
            raise self.retry(exc=exc) from exc
        logger.warning("memory extraction gave up for message %s: %s", message_id, exc)
        result = remembering.exchange_memories_extract_failed(
            message_id=message_id, error=f"model unreachable: {exc}", user_id=user_id
        )
    return {"status": result.status, "memory_ids": list(result.memory_ids)}


@shared_task(
    bind=True,
    name="memories.tasks.extract_from_exchange",
    **_RELIABLE,
    max_retries=3,
    default_retry_delay=30,
)
def extract_from_exchange(
    self: Task[Any, Any],
    *,
    user_id: int,
    user_text: str,
    assistant_text: str = "",
    source_message_id: int | None = None,
    source_session_id: int | None = None,
    observed_at: str | None = None,
    offline: bool = False,
) -> dict[str, Any]:
    """Drains tasks queued before extraction moved to `exchange_extract` (hence its name).

    Nothing queues this any more. A broker kept across an upgrade may still hold such tasks;
    running them with the text they carry (already on the broker's disk) removes them from
    the queue and loses no memory, and a message deleted since gives none (the source hold).
    `observed_at` is ISO 8601 (None: now).
    """
    observed = parse_datetime(observed_at) if observed_at else None
    if observed_at and observed is None:
        raise ValueError(f"observed_at is not an ISO 8601 time: {observed_at!r}")
    try:
        result = remembering.exchange_text_extract(
            user_id=user_id,
            user_text=user_text,
            assistant_text=assistant_text,
            source_message_id=source_message_id,
            source_session_id=source_session_id,
            observed_at=observed,
            offline=bool(offline),
        )
    except llm.LLMError as exc:
        if self.request.retries < (self.max_retries or 0):
            raise self.retry(exc=exc) from exc
        logger.warning("memory extraction gave up for message %s: %s", source_message_id, exc)
        result = extraction.extraction_failure_record(
            user_id=user_id,
            source_message_id=source_message_id,
            source_session_id=source_session_id,
            error=f"model unreachable: {exc}",
        )
    return {"status": result.status, "memory_ids": list(result.memory_ids)}


@shared_task(**_RELIABLE)
def memories_purge_retained() -> int:
    """Beat: delete old rejected and expired memories with their copies, with receipts."""
    return forgetting.memories_purge_retained()


@shared_task(name="memories.tasks.memories_purge_retained", **_RELIABLE)
def memories_purge_retained_queued_before_the_move() -> int:
    """Drains beat messages queued under the task's old name (memories' tasks, before the
    purge had to reach conversations); runs the same purge, so a second run changes nothing."""
    return forgetting.memories_purge_retained()


@shared_task(**_RELIABLE)
def topic_finalize(*, topic_id: int, user_id: int | None = None) -> None:
    topics.topic_finalize(topic_id=topic_id, user_id=user_id)


@shared_task(**_RELIABLE)
def session_finalize(*, session_id: int, user_id: int | None = None) -> None:
    sessions.session_finalize(session_id=session_id, user_id=user_id)


@shared_task(**_RELIABLE)
def sessions_end_idle() -> int:
    return sessions.sessions_end_idle()


@shared_task(**_RELIABLE)
def tag_weights_decay() -> int:
    return tag_weights.tag_weights_decay()


@shared_task(**_RELIABLE)
def instruction_stamps_refresh() -> list[int]:
    """Beat, daily: stamp again the verdicts a release's detector made stale."""
    return list(indexing.instruction_stamps_refresh())


def history_import_lock(import_id: int) -> str:
    """The advisory lock a running import holds (recovery asks whether anyone holds it)."""
    return f"history_import_run:{import_id}"


@shared_task(bind=True, **_RELIABLE, max_retries=3, default_retry_delay=30)
def history_import_run(
    self: Task[Any, Any], *, import_id: int, chain: int = 0, user_id: int | None = None
) -> None:
    """One step of an import (a chunk of its messages), then the next step is queued behind
    whatever else waits on the bulk queue, so the imports of several users take turns.

    An import that keeps failing while its sessions are stored ends `failed`, never left
    `running`; one failing later (stored, `done`) stops, and recovery starts it again.
    """
    # A copy queued again by recovery must not store the same sessions beside a running one.
    with exclusive(history_import_lock(import_id)) as mine:
        if not mine or not imports.history_import_chain_current(import_id=import_id, chain=chain):
            return
        try:
            more = imports.history_import_step(import_id=import_id, user_id=user_id)
        except Exception as exc:
            # Only the class is logged or kept: a database error's text can quote the row
            # ("Failing row contains ..."), and logs and task results outlive a deletion.
            logger.error("import %s stopped on %s", import_id, type(exc).__name__)
            if self.request.retries < (self.max_retries or 0):
                raise self.retry() from None
            imports.history_import_fail(
                import_id=import_id, reason=HistoryImport.Failure.WORKER_ERROR, user_id=user_id
            )
            return
    if more:
        history_import_run.delay(import_id=import_id, chain=chain, user_id=user_id)
    else:
        imports.history_import_chain_end(import_id=import_id)


@shared_task(**_RELIABLE)
def session_import_finalize(*, session_id: int) -> None:
    """Drains tasks queued before imports ran in steps (`history_import_run`)."""
    with exclusive(f"session_import_finalize:{session_id}") as mine:
        if mine:
            imports.session_import_finalize(session_id=session_id)


@shared_task(**_RELIABLE)
def session_compact(*, session_id: int, user_id: int | None = None) -> None:
    compaction.session_compact(session_id=session_id, user_id=user_id)


@shared_task(**_RELIABLE)
def work_requeue_unpublished() -> int:
    """Beat: queue again committed work whose task never ran (lost before the publish)."""
    return recovery.work_requeue_unpublished().total


@shared_task(**_RELIABLE)
def chat_centre_refresh() -> dict[str, int]:
    return centre.chat_centre_refresh()
