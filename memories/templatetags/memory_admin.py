"""`{% memory_dashboard %}`: the staff dashboard at the top of the admin index.

Every figure links to the admin list it counts, filtered the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any
from urllib.parse import urlencode

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

from memories.forms import STATUS_CHOICES, TYPE_CHOICES
from memories.selectors import dashboard as dashboard_selectors
from memories.selectors.dashboard import DailyValues, day_start
from memoryhub.charts import Bar, BarChart, bar_chart

register = template.Library()


@dataclass(frozen=True)
class Figure:
    label: str
    value: int
    url: str


@dataclass(frozen=True)
class LinkedBar:
    bar: Bar
    day: date
    value: float
    url: str


@dataclass(frozen=True)
class Series:
    key: str
    title: str
    total: float
    decimals: int
    url: str
    chart: BarChart
    bars: list[LinkedBar]


def _changelist(model: str, **params: str) -> str:
    url = reverse(f"admin:{model}_changelist")
    return f"{url}?{urlencode(params)}" if params else url


def _between(field: str, first: date, last: date) -> dict[str, str]:
    """Admin list parameters selecting `first` through `last` (whole days)."""
    return {
        f"{field}__gte": day_start(first).isoformat(),
        f"{field}__lt": day_start(last + timedelta(days=1)).isoformat(),
    }


def _series(
    key: str,
    title: str,
    daily: DailyValues,
    *,
    model: str,
    field: str,
    decimals: int = 0,
    **filters: str,
) -> Series:
    chart = bar_chart(daily.values)
    bars = [
        LinkedBar(
            bar=bar,
            day=day,
            value=value,
            url=_changelist(model, **filters, **_between(field, day, day)),
        )
        for bar, day, value in zip(chart.bars, daily.days, daily.values, strict=True)
    ]
    last = daily.days[-1] if daily.days else daily.start
    return Series(
        key=key,
        title=title,
        total=daily.total,
        decimals=decimals,
        url=_changelist(model, **filters, **_between(field, daily.start, last)),
        chart=chart,
        bars=bars,
    )


@register.inclusion_tag("admin/memories/dashboard.html", takes_context=True)
def memory_dashboard(context: template.Context) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.has_perm("memories.view_memory"):
        return {"show": False}
    data = dashboard_selectors.memory_dashboard()
    memory_list = "memories_memory"
    return {
        "show": True,
        "data": data,
        "days": (data.today - data.start).days + 1,
        "by_status": [
            Figure(
                str(label),
                data.by_status.get(value, 0),
                _changelist(memory_list, status__exact=value),
            )
            for value, label in STATUS_CHOICES
        ],
        "by_type": [
            Figure(
                str(label), data.by_type.get(value, 0), _changelist(memory_list, type__exact=value)
            )
            for value, label in TYPE_CHOICES
        ],
        "pending_url": _changelist(memory_list, status__exact="pending"),
        "pending": [
            (memory, reverse("admin:memories_memory_change", args=[memory.pk]))
            for memory in data.pending
        ],
        "series": [
            _series(
                "failures",
                _("Extraction failures"),
                data.extraction_failures,
                model="memories_extractionrun",
                field="created_at",
                status__exact="failed",
            ),
            _series(
                "quarantines",
                _("Quarantines"),
                data.quarantines,
                model="memories_auditevent",
                field="created_at",
                action__exact="quarantine",
            ),
            _series(
                "deletions",
                _("Deletions"),
                data.deletions,
                model="memories_deletionreceipt",
                field="deleted_at",
            ),
            *_llm_series(data),
        ],
    }


def _llm_series(data: dashboard_selectors.MemoryDashboard) -> list[Series]:
    """Tokens and cost of paid models only where one ran; the offline provider's tokens apart,
    labelled as local (they cost nothing, and a cost chart of zeros says nothing)."""
    calls = "memoryhub_llmcall"
    offline = dashboard_selectors.OFFLINE_PROVIDER
    series = []
    if data.llm_paid_calls:
        tokens = _("LLM tokens (paid models)")
        series.append(_series("tokens", tokens, data.llm_tokens, model=calls, field="created_at"))
        series.append(
            _series(
                "cost",
                _("LLM cost (USD)"),
                data.llm_cost,
                model=calls,
                field="created_at",
                decimals=4,
            )
        )
    if data.llm_tokens_local.total or not data.llm_paid_calls:
        local = _("Local tokens (offline mode, no cost)")
        series.append(
            _series(
                "tokens-local",
                local,
                data.llm_tokens_local,
                model=calls,
                field="created_at",
                provider__exact=offline,
            )
        )
    return series
