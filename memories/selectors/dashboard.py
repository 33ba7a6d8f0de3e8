"""Numbers for the staff dashboard (the admin index): memories by status and type, the
approval queue, and daily extraction failures, quarantines, deletions and LLM usage.

Counts and ids only: staff reading a memory's content goes through the audited change page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import Count, F, Min, QuerySet, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from memories.models import AuditEvent, DeletionReceipt, ExtractionRun, Memory, MemoryStatus
from memoryhub.llm import OfflineProvider
from memoryhub.models import LLMCall

# The offline provider's calls cost nothing: their tokens are counted locally, apart.
OFFLINE_PROVIDER = OfflineProvider.name
DASHBOARD_DAYS = 30
PENDING_SHOWN = 10


@dataclass(frozen=True)
class DailyValues:
    """One value per day from `start`, oldest first."""

    start: date
    values: list[float]

    @property
    def days(self) -> list[date]:
        return [self.start + timedelta(days=offset) for offset in range(len(self.values))]

    @property
    def total(self) -> float:
        return sum(self.values)


@dataclass(frozen=True)
class MemoryDashboard:
    start: date
    today: date
    by_status: dict[str, int]
    by_type: dict[str, int]
    pending_total: int
    pending: list[Memory]
    oldest_pending_at: datetime | None
    extraction_failures: DailyValues
    quarantines: DailyValues
    deletions: DailyValues
    llm_tokens: DailyValues  # tokens of paid models (every provider but the offline one)
    llm_tokens_local: DailyValues  # tokens the offline provider counted: local, no cost
    llm_cost: DailyValues
    llm_paid_calls: int  # paid-model calls in the period: no cost chart without any


def day_start(day: date) -> datetime:
    """Midnight at the start of `day` in the current time zone, as an aware datetime."""
    return timezone.make_aware(datetime.combine(day, time.min))


def _daily(
    queryset: QuerySet[Any], *, field: str, start: date, days: int, value: Any = None
) -> DailyValues:
    """Per-day totals of `value` (default: the row count) over `field`, zero-filled."""
    rows = (
        queryset.filter(**{f"{field}__gte": day_start(start)})
        .annotate(day=TruncDate(field, tzinfo=timezone.get_current_timezone()))
        .values("day")
        .annotate(total=value if value is not None else Count("pk"))
        .values_list("day", "total")
    )
    found: dict[date, float] = {day: float(total or 0) for day, total in rows}
    return DailyValues(
        start=start,
        values=[found.get(start + timedelta(days=offset), 0.0) for offset in range(days)],
    )


def _count_by(queryset: QuerySet[Memory], field: str) -> dict[str, int]:
    rows = queryset.values(field).annotate(n=Count("pk")).values_list(field, "n")
    return dict(sorted(rows, key=lambda pair: (-pair[1], pair[0])))


def memory_dashboard(*, days: int = DASHBOARD_DAYS, today: date | None = None) -> MemoryDashboard:
    """Everything the staff dashboard shows, for the `days` days up to `today`."""
    today = today or timezone.localdate()
    start = today - timedelta(days=days - 1)
    memories = Memory.objects.filter(current_version__isnull=False)
    pending = memories.filter(status=MemoryStatus.PENDING)
    failures = ExtractionRun.objects.filter(status=ExtractionRun.Status.FAILED)
    quarantines = AuditEvent.objects.filter(action=AuditEvent.Action.QUARANTINE)
    calls = LLMCall.objects.exclude(provider=OFFLINE_PROVIDER)
    local_calls = LLMCall.objects.filter(provider=OFFLINE_PROVIDER)
    tokens: Any = Sum(F("input_tokens") + F("output_tokens"))
    cost: Any = Sum("cost_usd")
    return MemoryDashboard(
        start=start,
        today=today,
        by_status=_count_by(memories, "status"),
        by_type=_count_by(memories, "type"),
        pending_total=pending.count(),
        pending=list(pending.select_related("user").order_by("created_at", "id")[:PENDING_SHOWN]),
        oldest_pending_at=pending.aggregate(oldest=Min("created_at"))["oldest"],
        extraction_failures=_daily(failures, field="created_at", start=start, days=days),
        quarantines=_daily(quarantines, field="created_at", start=start, days=days),
        deletions=_daily(DeletionReceipt.objects.all(), field="deleted_at", start=start, days=days),
        llm_tokens=_daily(calls, field="created_at", value=tokens, start=start, days=days),
        llm_tokens_local=_daily(
            local_calls, field="created_at", value=tokens, start=start, days=days
        ),
        llm_cost=_daily(calls, field="created_at", value=cost, start=start, days=days),
        llm_paid_calls=calls.filter(created_at__gte=day_start(start)).count(),
    )
