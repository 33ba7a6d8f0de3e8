"""The per-user daily budget of LLM tokens (`MEMORYHUB_DAILY_TOKEN_BUDGET`, 0 = no limit).

A day is the calendar day of `TIME_ZONE` (UTC unless `MEMORYHUB_TIME_ZONE` says otherwise),
so the budget resets at local midnight. Only calls to a paid model count, input plus output
tokens as `LLMCall` records them; the offline provider costs nothing and is never limited.
When the budget is spent, chat replies are refused (`TokenBudgetExhausted`) and background
steps fall back to the offline provider (`llm.provider_for`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.conf import settings
from django.db.models import F, Sum
from django.utils import timezone

from memoryhub.llm import OFFLINE_MODEL, LLMError
from memoryhub.models import LLMCall


class TokenBudgetExhausted(LLMError):
    """The user has spent today's LLM tokens; `resets_at` is the next local midnight."""

    def __init__(self, *, budget: int, used: int, resets_at: datetime) -> None:
        super().__init__(
            f"Today's language-model budget of {budget:,} tokens is spent ({used:,} used). "
            f"Replies resume at {resets_at.isoformat()}; memory keeps working offline meanwhile."
        )
        self.budget = budget
        self.used = used
        self.resets_at = resets_at

    @property
    def retry_after_seconds(self) -> int:
        return max(1, int((self.resets_at - timezone.now()).total_seconds()) + 1)


@dataclass(frozen=True)
class BudgetDay:
    start: datetime
    end: datetime


def budget_day(at: datetime | None = None) -> BudgetDay:
    """The budget day containing `at` (default now): local midnight to local midnight."""
    local = timezone.localtime(at or timezone.now())
    start = timezone.make_aware(datetime.combine(local.date(), time.min), local.tzinfo)
    end_date = local.date() + timedelta(days=1)
    end = timezone.make_aware(datetime.combine(end_date, time.min), local.tzinfo)
    return BudgetDay(start=start, end=end)


def tokens_used_today(*, user_id: int) -> int:
    """Input plus output tokens of the user's paid LLM calls since local midnight."""
    day = budget_day()
    total = (
        LLMCall.objects.filter(user_id=user_id, created_at__gte=day.start)
        .exclude(model=OFFLINE_MODEL)
        .aggregate(total=Sum(F("input_tokens") + F("output_tokens")))["total"]
    )
    return int(total or 0)


def token_budget_check(*, user_id: int | None) -> None:
    """Raise TokenBudgetExhausted when the user has no tokens left today.

    Calls made for no user (system tasks) are not budgeted.
    """
    budget = settings.MEMORYHUB_DAILY_TOKEN_BUDGET
    if not budget or user_id is None:
        return
    used = tokens_used_today(user_id=user_id)
    if used >= budget:
        raise TokenBudgetExhausted(budget=budget, used=used, resets_at=budget_day().end)


def token_budget_exhausted(*, user_id: int | None) -> bool:
    try:
        token_budget_check(user_id=user_id)
    except TokenBudgetExhausted:
        return True
    return False
