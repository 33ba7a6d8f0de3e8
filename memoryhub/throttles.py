"""Request throttling of the costly API endpoints (chat, search and context, import).

A view opts in with `throttle_scope`; the rates are `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`
(`MEMORYHUB_THROTTLE_*`). Counts live in the cache (Valkey/Redis), shared by every web process,
and are kept per user. A throttled request gets 429 in the API's error shape with `Retry-After`.
"""

from __future__ import annotations

import math

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from rest_framework import throttling
from rest_framework.settings import api_settings


class ScopedRateThrottle(throttling.ScopedRateThrottle):
    """DRF's scoped throttle, reading the rate when the request comes rather than at import.

    DRF copies the rates onto the class when it is imported, so a changed setting (tests,
    `override_settings`) would not apply. A rate of None (`off`) means no limit.
    """

    def get_rate(self) -> str | None:
        rates = api_settings.DEFAULT_THROTTLE_RATES
        if self.scope not in rates:
            raise ImproperlyConfigured(f"No throttle rate for scope {self.scope!r}.")
        rate = rates[self.scope]
        return None if rate is None else str(rate)


class _Scope:
    """What DRF's scoped throttle reads from a view: its scope."""

    def __init__(self, scope: str) -> None:
        self.throttle_scope = scope


def page_throttle_wait(request: HttpRequest, scope: str) -> int | None:
    """For plain Django views (the chat page): None when the request may go on, else the
    seconds to wait. The same counters as the API's, so the page and the API share a rate."""
    throttle = ScopedRateThrottle()
    if throttle.allow_request(request, _Scope(scope)):  # type: ignore[arg-type]
        return None
    return max(1, math.ceil(throttle.wait() or 1))
