"""Vectors for messages, computed in batches off the request path."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from conversations.models import ChatSession, Message
from memoryhub import embeddings

MAX_PER_RUN = 2000


def messages_embed_pending(*, user_id: int, limit: int = MAX_PER_RUN) -> int:
    """Embed up to `limit` of the user's unembedded messages; return how many were embedded.

    Rows are locked with SKIP LOCKED, so two workers never embed the same message, and a
    message embedded already is never embedded again: running this twice changes nothing.
    """
    done = 0
    batch = settings.MEMORYHUB_EMBEDDING_BATCH_SIZE
    while done < limit:
        with transaction.atomic():
            rows = list(
                Message.objects.select_for_update(skip_locked=True)
                .filter(user_id=user_id, embedding__isnull=True, searchable=True)
                .order_by("id")
                .only("id", "content")[: min(batch, limit - done)]
            )
            if not rows:
                break
            vectors = embeddings.embed_passages([row.content for row in rows])
            for row, vector in zip(rows, vectors, strict=True):
                row.embedding = vector
            Message.objects.bulk_update(rows, ["embedding"])
        done += len(rows)
    return done


def session_embed(*, session: ChatSession) -> int:
    """Embed every searchable message of one session that has no vector yet."""
    done = 0
    batch = settings.MEMORYHUB_EMBEDDING_BATCH_SIZE
    while True:
        with transaction.atomic():
            rows = list(
                Message.objects.select_for_update(skip_locked=True)
                .filter(session=session, embedding__isnull=True, searchable=True)
                .order_by("id")
                .only("id", "content")[:batch]
            )
            if not rows:
                return done
            vectors = embeddings.embed_passages([row.content for row in rows])
            for row, vector in zip(rows, vectors, strict=True):
                row.embedding = vector
            Message.objects.bulk_update(rows, ["embedding"])
        done += len(rows)
