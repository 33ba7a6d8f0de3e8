"""Work that was committed but whose task never ran is queued again (a beat job).

Every service enqueues its task with `transaction.on_commit`, so a task never runs for rows
that were rolled back. The opposite gap remains: the process can die, or the broker be away,
between the commit and the publish. This job finds such work once it is older than
`MEMORYHUB_RECOVERY_GRACE_MINUTES` and queues the same task again:

- exchanges of live sessions with no extraction record (memories never extracted);
- messages still without a vector or search vector;
- closed topics of live sessions with no vector (never finalised);
- sessions seen `ending` for the grace period;
- imports still `queued`; imports whose steps stalled (no worker on one now, none started
  within the grace period: a worker died while the broker lost its task), either still
  `running` (storing) or stored with sessions not finalized. A stalled import gets a new
  chain of steps, which stops the old one if it was only slow; after `IMPORT_REQUEUES` such
  tries a `running` import is marked failed (`worker_lost`), so none stays `running` forever.

Every task it queues is idempotent, so a task that was merely slow runs once more and changes
nothing. Each item is queued at most once per grace period (a marker in the cache), so a long
queue is not flooded with copies.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from conversations.models import ChatSession, HistoryImport, Message, Topic
from conversations.services.imports import (
    history_import_fail,
    history_import_last_step,
    history_import_queue,
)
from memories.models import ExtractionRun
from memoryhub.locks import lock_held

logger = logging.getLogger(__name__)

# Older work is left alone: the product has run without a gap for it long since.
LOOKBACK = timedelta(days=7)
BATCH = 500
IMPORT_REQUEUES = 3


@dataclass(frozen=True)
class Requeued:
    extractions: int = 0
    embeddings: int = 0
    topics: int = 0
    sessions: int = 0
    imports: int = 0

    @property
    def total(self) -> int:
        return self.extractions + self.embeddings + self.topics + self.sessions + self.imports


def _first_time(kind: str, key: object) -> bool:
    """True once per grace period for this item: the marker bounds repeated queueing."""
    grace = settings.MEMORYHUB_RECOVERY_GRACE_MINUTES * 60
    return bool(cache.add(f"recovery:{kind}:{key}", 1, timeout=grace))


def _queue_once(kind: str, keys: Iterable[int], send: Callable[[int], object]) -> int:
    """`send(key)` for each key not queued again within the grace period; how many were sent."""
    count = 0
    for key in keys:
        if _first_time(kind, key):
            send(key)
            count += 1
    return count


def _waiting_since_before(kind: str, key: object, *, now: datetime, cutoff: datetime) -> bool:
    """For rows with no timestamp of their own: first seen waiting before `cutoff`?"""
    first_seen = cache.get_or_set(
        f"recovery:seen:{kind}:{key}", now.timestamp(), LOOKBACK.total_seconds()
    )
    return first_seen is not None and float(first_seen) < cutoff.timestamp()


def _extractions(cutoff: datetime, since: datetime) -> int:
    from conversations.tasks import exchange_extract

    extracted = ExtractionRun.objects.filter(
        user_id=OuterRef("user_id"), source_message_id=OuterRef("reply_to_id")
    )
    replies = (
        Message.objects.filter(
            role=Message.Role.ASSISTANT,
            reply_to__isnull=False,
            session__source=ChatSession.Source.LIVE,
            created_at__lt=cutoff,
            created_at__gte=since,
        )
        .filter(~Exists(extracted))
        .order_by("created_at", "id")
        .values_list("reply_to_id", "user_id")[:BATCH]
    )
    # Each task carries its row's owner, so the worker's lookups name the user.
    owner = dict(replies)
    return _queue_once(
        "extract",
        owner,
        lambda message_id: exchange_extract.delay(message_id=message_id, user_id=owner[message_id]),
    )


def _embeddings(cutoff: datetime, since: datetime) -> int:
    from conversations.tasks import messages_embed

    users = (
        Message.objects.filter(Q(embedding__isnull=True) | Q(context_embedding__isnull=True))
        .filter(
            searchable=True,
            session__source=ChatSession.Source.LIVE,
            created_at__lt=cutoff,
            created_at__gte=since,
        )
        .values_list("user_id", flat=True)
        .distinct()[:BATCH]
    )
    return _queue_once("embed", users, lambda user_id: messages_embed.delay(user_id=user_id))


def _topics(cutoff: datetime, since: datetime) -> int:
    from conversations.tasks import topic_finalize

    searchable = Message.objects.filter(topic_id=OuterRef("pk"), searchable=True)
    pending = (
        Topic.objects.filter(
            session__source=ChatSession.Source.LIVE,
            ended_at__isnull=False,
            ended_at__lt=cutoff,
            ended_at__gte=since,
            embedding__isnull=True,
        )
        .filter(Exists(searchable))
        .values_list("pk", "user_id")[:BATCH]
    )
    owner = dict(pending)
    return _queue_once(
        "topic",
        owner,
        lambda topic_id: topic_finalize.delay(topic_id=topic_id, user_id=owner[topic_id]),
    )


def _sessions(now: datetime, cutoff: datetime) -> int:
    from conversations.tasks import session_finalize

    owner = dict(
        ChatSession.objects.filter(
            status=ChatSession.Status.ENDING, source=ChatSession.Source.LIVE
        ).values_list("pk", "user_id")[:BATCH]
    )
    # A session records no time for the request to end it: it counts from when first seen.
    waited = [s for s in owner if _waiting_since_before("session", s, now=now, cutoff=cutoff)]
    return _queue_once(
        "session",
        waited,
        lambda session_id: session_finalize.delay(session_id=session_id, user_id=owner[session_id]),
    )


def _imports(now: datetime, cutoff: datetime, since: datetime) -> int:

    # Each import's owner (read once): its task carries it, so the worker's lookups name
    # the user.
    queued = dict(
        HistoryImport.objects.filter(
            status=HistoryImport.Status.QUEUED, created_at__lt=cutoff
        ).values_list("pk", "user_id")[:BATCH]
    )
    running = dict(
        HistoryImport.objects.filter(status=HistoryImport.Status.RUNNING).values_list(
            "pk", "user_id"
        )[:BATCH]
    )
    unended = ChatSession.objects.filter(history_import_id=OuterRef("pk")).exclude(
        status=ChatSession.Status.ENDED
    )
    # Stored (`done`) but with sessions whose vectors, topics, memories or end are missing.
    processing = dict(
        HistoryImport.objects.filter(
            status=HistoryImport.Status.DONE, finished_at__lt=cutoff, finished_at__gte=since
        )
        .filter(Exists(unended))
        .values_list("pk", "user_id")[:BATCH]
    )
    owner = {**queued, **running, **processing}
    return (
        _queue_once(
            "import",
            queued,
            lambda import_id: history_import_queue(import_id=import_id, user_id=owner[import_id]),
        )
        + _queue_once(
            "import",
            [i for i in running if _import_stalled(i, now, cutoff)],
            lambda import_id: _import_retry_or_fail(import_id, owner[import_id]),
        )
        + _queue_once(
            "import",
            [i for i in processing if _import_stalled(i, now, cutoff)],
            lambda import_id: _import_resume(import_id, owner[import_id]),
        )
    )


def _import_stalled(import_id: int, now: datetime, cutoff: datetime) -> bool:
    """No worker runs a step of the import now, and none started one within the grace
    period (first seen without a worker then, when the cache lost when its last step ran)."""
    from conversations.tasks import history_import_lock

    if lock_held(history_import_lock(import_id)):
        return False
    last = history_import_last_step(import_id=import_id)
    if last is not None:
        return last < cutoff
    return _waiting_since_before("import-running", import_id, now=now, cutoff=cutoff)


def _tries_exceeded(import_id: int) -> bool:
    tries = f"recovery:import-tries:{import_id}"
    cache.add(tries, 0, timeout=LOOKBACK.total_seconds())
    return bool(cache.incr(tries) > IMPORT_REQUEUES)


def _import_retry_or_fail(import_id: int, user_id: int) -> None:

    if _tries_exceeded(import_id):
        logger.warning(
            "import %s: no worker finished it after %s tries", import_id, IMPORT_REQUEUES
        )
        history_import_fail(
            import_id=import_id, reason=HistoryImport.Failure.WORKER_LOST, user_id=user_id
        )
    else:
        history_import_queue(import_id=import_id, user_id=user_id)


def _import_resume(import_id: int, user_id: int) -> None:
    """Start a stored import's stalled steps again; it stays `done` (its messages are all
    stored and searchable) whatever happens to the rest."""

    if _tries_exceeded(import_id):
        logger.warning(
            "import %s: its sessions were not finalized after %s tries", import_id, IMPORT_REQUEUES
        )
    else:
        history_import_queue(import_id=import_id, user_id=user_id)


def work_requeue_unpublished(*, now: datetime | None = None) -> Requeued:
    """Queue again the tasks of committed work older than the grace period that never ran."""
    now = now or timezone.now()
    cutoff = now - timedelta(minutes=settings.MEMORYHUB_RECOVERY_GRACE_MINUTES)
    since = now - LOOKBACK
    requeued = Requeued(
        extractions=_extractions(cutoff, since),
        embeddings=_embeddings(cutoff, since),
        topics=_topics(cutoff, since),
        sessions=_sessions(now, cutoff),
        imports=_imports(now, cutoff, since),
    )
    if requeued.total:
        logger.warning("queued again work whose task never ran: %s", requeued)
    return requeued
