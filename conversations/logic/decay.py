"""Tag-weight decay (seed Algorithm 1), as plain functions of time.

Effective weight = weight x factor^(days since updated_at). Storing the last update time
instead of decrementing daily means a missed beat run never loses or doubles decay, and
imported history decays by its own timestamps.
"""

from __future__ import annotations

from datetime import datetime


def days_between(earlier: datetime, later: datetime) -> float:
    return (later - earlier).total_seconds() / 86400.0


def effective_weight(weight: float, updated_at: datetime, now: datetime, factor: float) -> float:
    """The weight decayed from `updated_at` to `now` (never grows if `now` is earlier)."""
    days = max(0.0, days_between(updated_at, now))
    return weight * factor**days


def add_at(
    weight: float, updated_at: datetime, amount: float, at: datetime, factor: float
) -> tuple[float, datetime]:
    """Add `amount` at time `at`; return the new (weight, updated_at).

    An addition dated before `updated_at` (history imported out of order) is decayed
    forward to `updated_at` instead of moving the clock back.
    """
    if at >= updated_at:
        return effective_weight(weight, updated_at, at, factor) + amount, at
    return weight + amount * factor ** days_between(at, updated_at), updated_at
