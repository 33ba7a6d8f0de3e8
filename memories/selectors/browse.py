"""Reads behind the "my memories" pages: filters, hybrid search, suggestions, receipts, access.

Every function is scoped to one user; nothing here returns another user's rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils import timezone
from pgvector.django import CosineDistance

from memories.logic import scoring
from memories.models import (
    LIVE_STATUSES,
    AuditEvent,
    CreatedBy,
    DeletionReceipt,
    ExtractionRun,
    Memory,
    MemoryStatus,
    MemoryUse,
)
from memories.selectors.access import memory_get_for_user, memory_list_for_user
from memories.selectors.retrieval import query_baseline
from memoryhub import embeddings
from memoryhub import text as text_analysis
from memoryhub.validation import parse_id

# "Expiring soon": a live memory whose current version expires within this many days.
EXPIRING_SOON_DAYS = 7
# A memory whose fused search relevance is below this does not match the query. Lower than
# retrieval's floor: a person searching wants near misses too; the prompt does not.
SEARCH_RELEVANCE_FLOOR = 0.2
STAFF_ACTIONS = (AuditEvent.Action.STAFF_VIEW, AuditEvent.Action.STAFF_CHANGE)
# What became of a suggestion once the user decided.
_DECIDED = (MemoryStatus.ACTIVE, MemoryStatus.REJECTED)


def memory_filter_for_user(
    *,
    user: AbstractBaseUser,
    status: str | None = None,
    type: str | None = None,
    sensitivity: str | None = None,
    expiring_soon: bool = False,
    now: datetime | None = None,
) -> QuerySet[Memory]:
    """The user's memories narrowed by the list page's filters, newest change first, each
    with `use_count` (how many replies it went into)."""
    queryset = _with_use_count(
        memory_list_for_user(user=user, status=status or None, type=type or None)
    )
    if sensitivity:
        queryset = queryset.filter(current_version__sensitivity=sensitivity)
    if expiring_soon:
        now = now or timezone.now()
        queryset = queryset.filter(
            status__in=LIVE_STATUSES,
            current_version__expires_at__gt=now,
            current_version__expires_at__lte=now + timedelta(days=EXPIRING_SOON_DAYS),
        )
    return queryset


def _with_use_count(queryset: QuerySet[Memory]) -> QuerySet[Memory]:
    # A subquery, not Count("uses"): a join would multiply rows with the other annotations.
    uses = (
        MemoryUse.objects.filter(user_id=OuterRef("user_id"), memory=OuterRef("pk"))
        .order_by()
        .values("memory")
        .annotate(n=Count("id"))
        .values("n")
    )
    return queryset.annotate(use_count=Coalesce(Subquery(uses, output_field=IntegerField()), 0))


def memory_row_get_for_user(*, user: AbstractBaseUser, memory_id: object) -> Memory:
    """One of the user's memories as a list row shows it (with `use_count`), or Http404."""
    memory = memory_get_for_user(user=user, memory_id=memory_id)
    memory.use_count = memory.uses.count()  # type: ignore[attr-defined]
    return memory


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    relevance: float


def memory_search_for_user(
    *, user: AbstractBaseUser, query: str, memories: QuerySet[Memory] | None = None
) -> list[SearchHit]:
    """Hybrid search over the user's memories (within `memories` when given), best first.

    Keyword match (index tokens, plus a plain substring match) fused with vector similarity
    measured against the query's neutral baseline, as retrieval does; the vector side finds
    paraphrases and other languages ("녹차" for "green tea"). An exact scan over the user's
    rows, so every match is found.
    """
    query = query.strip()
    base = memory_list_for_user(user=user) if memories is None else memories
    if not query:
        return [SearchHit(memory=m, relevance=0.0) for m in base]
    vector = embeddings.embed_query(query)
    rows = list(base.annotate(distance=CosineDistance("current_version__embedding", vector)))
    if not rows:
        return []
    baseline = query_baseline(vector)
    band = scoring.VECTOR_BANDS[settings.MEMORYHUB_EMBEDDING_BACKEND]
    terms = text_analysis.index_tokens(query)
    needle = query.casefold()
    hits = []
    for memory in rows:
        version = memory.current_version
        assert version is not None  # memory_list_for_user keeps only memories with one
        distance = getattr(memory, "distance", None)
        vector_part = (
            0.0
            if distance is None
            else scoring.vector_relevance(1.0 - float(distance), baseline, band)
        )
        keyword_part = scoring.keyword_relevance(terms, version.tokens)
        if needle in version.content.casefold():
            keyword_part = 1.0
        relevance = scoring.fuse(vector_part, keyword_part)
        if relevance >= SEARCH_RELEVANCE_FLOOR:
            hits.append(SearchHit(memory=memory, relevance=relevance))
    hits.sort(key=lambda hit: (-hit.relevance, -hit.memory.updated_at.timestamp()))
    return hits


def memory_pending_count_for_user(*, user: AbstractBaseUser) -> int:
    """How many suggestions wait for the user's approval."""
    return Memory.objects.filter(
        user_id=user.pk, status=MemoryStatus.PENDING, current_version__isnull=False
    ).count()


def memory_suggestions_for_message(*, user: AbstractBaseUser, message_id: int) -> QuerySet[Memory]:
    """Memories the assistant proposed from the exchange of user message `message_id`.

    Includes the ones already approved or rejected from the same exchange, so a page that
    shows them keeps showing what became of them.
    """
    return (
        memory_list_for_user(user=user)
        .filter(current_version__source_message_id=message_id)
        .filter(
            Q(status=MemoryStatus.PENDING)
            | Q(current_version__created_by=CreatedBy.ASSISTANT, status__in=_DECIDED)
        )
        .order_by("id")
    )


def memory_extraction_finished(*, user: AbstractBaseUser, message_id: int) -> bool:
    """Whether extraction has run (or failed for good) for the exchange of `message_id`."""
    return ExtractionRun.objects.filter(user_id=user.pk, source_message_id=message_id).exists()


def deletion_receipt_get_for_user(*, user: AbstractBaseUser, receipt_id: object) -> DeletionReceipt:
    """The user's receipt, or Http404 for a malformed id or another user's receipt."""
    try:
        return DeletionReceipt.objects.get(user_id=user.pk, pk=str(receipt_id))
    except (DeletionReceipt.DoesNotExist, ValidationError):
        raise Http404("No such receipt.") from None


def audit_events_staff_for_user(*, user: AbstractBaseUser) -> QuerySet[AuditEvent]:
    """Every staff read or change of the user's memories (admin views, edits, quarantines,
    purges) and staff read of their chats (admin list and change pages, `target_type` the
    kind of chat record), newest first."""
    by_staff = Q(actor__is_staff=True) & ~Q(actor_id=user.pk)
    return (
        AuditEvent.objects.filter(user_id=user.pk)
        .filter(Q(action__in=STAFF_ACTIONS) | by_staff)
        .select_related("actor")
        .order_by("-created_at", "-id")
    )


def memory_ids_existing_for_user(*, user: AbstractBaseUser, ids: Sequence[str]) -> set[str]:
    """Which of `ids` are still memories of the user (for linking from logs and receipts)."""
    numeric = [n for n in map(parse_id, ids) if n is not None]
    found = Memory.objects.filter(user_id=user.pk, pk__in=numeric).values_list("pk", flat=True)
    return {str(pk) for pk in found}
