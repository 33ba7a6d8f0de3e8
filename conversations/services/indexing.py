"""Vectors for messages, computed in batches off the request path.

Each message has two vectors: its own (`embedding`, used for topic shifts) and a search vector
(`context_embedding`) mixed with its neighbours' in the session, normalise(e_i + 0.5 (e_prev +
e_next)): a reply such as "Yes, the blue one" means little alone. A new message clears its
previous neighbour's search vector, which the next run recomputes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from conversations.models import ChatSession, Message
from memories.logic import injection_stamp
from memoryhub import embeddings
from memoryhub import text as text_analysis

MAX_PER_RUN = 2000
NEIGHBOUR_WEIGHT = 0.5


def message_keywords(content: str, created_at: datetime, speaker: str = "") -> list[str]:
    """A message's index terms: its words, the month and year it was said, its speaker."""
    local = timezone.localtime(created_at)
    extra = [text_analysis.year_term(local.year), text_analysis.month_term(local.month)]
    speaker = text_analysis.without_markers(speaker).strip()
    if speaker:
        extra.append(speaker.lower())
    return list(dict.fromkeys([*text_analysis.index_tokens(content), *extra]))


def _embed_rows(rows: list[Message], *, user_id: int) -> None:
    """Embed the rows, and stamp the injection detector's verdict on each while its text is at
    hand: recall reads the verdict instead of running the detector again."""
    vectors = embeddings.embed_passages([row.content for row in rows])
    for row, vector in zip(rows, vectors, strict=True):
        row.embedding = vector
        row.instruction_stamp = injection_stamp.stamp(row.content)
    Message.objects.filter(user_id=user_id).bulk_update(rows, ["embedding", "instruction_stamp"])


def messages_embed_pending(
    *, user_id: int, limit: int = MAX_PER_RUN, live_only: bool = False
) -> int:
    """Embed up to `limit` of the user's unembedded messages, then refresh search vectors.

    `live_only` leaves imported sessions alone: a chat turn's task must not take on the
    backlog of an import running for the same user (the import embeds its own sessions).
    Rows are locked with SKIP LOCKED, so two workers never embed the same message, and a
    message embedded already is never embedded again: running this twice changes nothing.
    """
    done = 0
    batch = settings.MEMORYHUB_EMBEDDING_BATCH_SIZE
    sessions: set[int] = set()
    mine = Message.objects.filter(user_id=user_id, searchable=True)
    if live_only:
        mine = mine.filter(session__source=ChatSession.Source.LIVE)
    while done < limit:
        with transaction.atomic():
            rows = list(
                mine.select_for_update(skip_locked=True, of=("self",))
                .filter(embedding__isnull=True)
                .order_by("id")
                .only("id", "content", "session_id")[: min(batch, limit - done)]
            )
            if not rows:
                break
            _embed_rows(rows, user_id=user_id)
        sessions.update(row.session_id for row in rows)
        done += len(rows)
    stale = (
        mine.filter(embedding__isnull=False, context_embedding__isnull=True)
        .values_list("session_id", flat=True)
        .distinct()
    )
    for session_id in {*sessions, *stale}:
        session_context_vectors(user_id=user_id, session_id=session_id)
    return done


def session_embed(*, session: ChatSession, limit: int | None = None) -> int:
    """Embed up to `limit` (None: all) of one session's unembedded searchable messages, and
    once none is left its search vectors; how many were embedded."""
    done = 0
    batch = settings.MEMORYHUB_EMBEDDING_BATCH_SIZE
    while limit is None or done < limit:
        size = batch if limit is None else min(batch, limit - done)
        with transaction.atomic():
            rows = list(
                Message.objects.select_for_update(skip_locked=True)
                .filter(user_id=session.user_id, session=session, embedding__isnull=True)
                .filter(searchable=True)
                .order_by("id")
                .only("id", "content")[:size]
            )
            if not rows:
                break
            _embed_rows(rows, user_id=session.user_id)
        done += len(rows)
    if limit is None or done < limit:
        session_context_vectors(user_id=session.user_id, session_id=session.pk)
    return done


def mix_with_neighbours(vectors: np.ndarray) -> np.ndarray:
    """normalise(e_i + w (e_prev + e_next)) for each row, in order."""
    mixed = vectors.copy()
    mixed[1:] += NEIGHBOUR_WEIGHT * vectors[:-1]
    mixed[:-1] += NEIGHBOUR_WEIGHT * vectors[1:]
    norms = np.linalg.norm(mixed, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (mixed / norms).astype(np.float32)


@transaction.atomic
def session_context_vectors(*, user_id: int, session_id: int) -> int:
    """Recompute the search vectors of a session's messages that have none. Idempotent."""
    rows = list(
        Message.objects.select_for_update(skip_locked=True)
        .filter(user_id=user_id, session_id=session_id, searchable=True, embedding__isnull=False)
        .order_by("created_at", "id")
        .only("id", "embedding", "context_embedding")
    )
    stale = [i for i, row in enumerate(rows) if row.context_embedding is None]
    if not stale:
        return 0
    mixed = mix_with_neighbours(np.vstack([np.asarray(row.embedding) for row in rows]))
    changed = []
    for i in stale:
        rows[i].context_embedding = mixed[i]
        changed.append(rows[i])
    Message.objects.filter(user_id=user_id).bulk_update(changed, ["context_embedding"])
    return len(changed)


def instruction_stamps_refresh(*, user_id: int | None = None, batch: int = 1000) -> tuple[int, int]:
    """Stamp the injection detector's verdict again on searchable messages and summaries
    whose stamp this detector version did not make (never stamped, or made by an earlier
    release's rules), one user at a time (`user_id`, or every user), in batches by id;
    (messages, summaries) stamped. A stamp is bound to its text, so a row changed meanwhile
    only keeps being read by the detector: safe to run beside live traffic, and running it
    twice changes nothing the second time."""
    users = [user_id] if user_id is not None else _user_ids()
    messages = summaries = 0
    for owner in users:
        stale = Message.objects.filter(user_id=owner, searchable=True)
        messages += _restamp(
            stale.exclude(instruction_stamp__startswith=injection_stamp.VERSION),
            owner=owner,
            text="content",
            field="instruction_stamp",
            batch=batch,
        )
        ended = ChatSession.objects.filter(user_id=owner).exclude(summary="")
        summaries += _restamp(
            ended.exclude(summary_stamp__startswith=injection_stamp.VERSION),
            owner=owner,
            text="summary",
            field="summary_stamp",
            batch=batch,
        )
    return messages, summaries


def _user_ids() -> list[int]:
    return list(get_user_model().objects.order_by("pk").values_list("pk", flat=True))


def _restamp(rows: QuerySet[Any], *, owner: int, text: str, field: str, batch: int) -> int:
    done = last = 0
    rows = rows.order_by("pk").only("pk", "user_id", text)
    while chunk := list(rows.filter(pk__gt=last)[:batch]):
        for row in chunk:
            setattr(row, field, injection_stamp.stamp(getattr(row, text)))
        rows.model._default_manager.filter(user_id=owner).bulk_update(chunk, [field])
        done += len(chunk)
        last = chunk[-1].pk
    return done
