"""Request throttling of the costly API endpoints (chat, search and context, import), and the
failed-login budget.

A view opts in with `throttle_scope`; the rates are `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`
(`MEMORYHUB_THROTTLE_*`). Counts live in the cache (Valkey/Redis), shared by every web process,
and are kept per user. A throttled request gets 429 in the API's error shape with `Retry-After`.

Logins are budgeted per account and per client address (`MEMORYHUB_LOGIN_*`), or, from a
browser that proved itself with a device cookie, per device: see `login_attempt_begin`.
Sign-ups are budgeted per client address (`MEMORYHUB_SIGNUPS_PER_ADDRESS`): see
`signup_attempt_begin`.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import math
import time
import unicodedata
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
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


# --- logins ---------------------------------------------------------------------------------


def _now() -> float:
    return time.time()


def client_address(request: HttpRequest) -> str:
    """The client's address: the connection's, or with `MEMORYHUB_TRUSTED_PROXIES` proxies in
    front, the one the outermost trusted proxy saw (the last entries of X-Forwarded-For are
    theirs; anything before them is the client's to forge). IPv6 counts per /64, the block one
    host usually holds."""
    address = str(request.META.get("REMOTE_ADDR", ""))
    proxies = settings.MEMORYHUB_TRUSTED_PROXIES
    forwarded = [a.strip() for a in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    forwarded = [a for a in forwarded if a]
    if proxies and forwarded:
        address = forwarded[max(0, len(forwarded) - proxies)]
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class _Budget:
    key: str
    limit: int


def _login_budgets(request: HttpRequest, username: str, device: str | None) -> tuple[_Budget, ...]:
    """(the device's) for an attempt from a known device, else (the account's, the
    address's). Usernames count case- and width-folded, and whether or not such an account
    exists, so the budget tells nothing about accounts."""
    limit = settings.MEMORYHUB_LOGIN_FAILURES_PER_ACCOUNT
    if device is not None:
        return (_Budget(f"login-failures:device:{_digest(device)}", limit),)
    account = unicodedata.normalize("NFKC", username).casefold().strip()
    return (
        _Budget(f"login-failures:account:{_digest(account)}", limit),
        _address_budget(request),
    )


def _address_budget(request: HttpRequest) -> _Budget:
    return _Budget(
        f"login-failures:address:{_digest(client_address(request))}",
        settings.MEMORYHUB_LOGIN_FAILURES_PER_ADDRESS,
    )


def _window_start(budget: _Budget, now: float, window: int) -> float | None:
    """When the budget's window began, or None (and its count cleared) if it has ended."""
    since = cache.get(f"{budget.key}:since")
    if since is not None and now < float(since) + window:
        return float(since)
    cache.delete_many([f"{budget.key}:since", f"{budget.key}:count"])
    return None


def _reserve(budget: _Budget, now: float, window: int) -> int:
    """Count one attempt against the budget; the count after it (atomic in the cache)."""
    ttl = window + 60  # the cache only cleans up; _window_start decides when a window ends
    cache.add(f"{budget.key}:since", now, timeout=ttl)
    cache.add(f"{budget.key}:count", 0, timeout=ttl)
    try:
        return int(cache.incr(f"{budget.key}:count"))
    except ValueError:  # expired between add and incr
        cache.set(f"{budget.key}:count", 1, timeout=ttl)
        return 1


def _refund(budget: _Budget) -> None:
    with contextlib.suppress(ValueError):  # the window ended meanwhile
        cache.decr(f"{budget.key}:count")


def _forget(budget: _Budget) -> None:
    cache.delete_many([f"{budget.key}:since", f"{budget.key}:count"])


def _attempt_begin(budgets: tuple[_Budget, ...], window: int) -> int | None:
    """None when an attempt may go on (and it is counted against every budget at once, so
    parallel attempts cannot all pass a check made before any of them counted), else the
    seconds to wait: past any budget, until the window that began with its first count ends."""
    now = _now()
    waits = []
    for budget in budgets:
        since = _window_start(budget, now, window)
        count = cache.get(f"{budget.key}:count") if since is not None else None
        if since is not None and int(count or 0) >= budget.limit:
            waits.append(since + window - now)
    if not waits:
        for budget in budgets:
            if _reserve(budget, now, window) > budget.limit:  # lost a race to a parallel try
                waits.append(float(cache.get(f"{budget.key}:since") or now) + window - now)
    return max(1, math.ceil(max(waits))) if waits else None


def login_attempt_begin(
    *, request: HttpRequest, username: str, device: str | None = None
) -> int | None:
    """Before checking a password: None when the attempt may go on, else the seconds to wait.

    An attempt that goes on is counted as a failure at once; `login_attempt_succeeded` takes
    it back. Past a budget, nothing is checked until its window has passed, right password
    or not. `device` is the id of a device cookie already checked to belong to `username`'s
    account (`account.devices`): such an attempt counts against that device alone, so
    failures made elsewhere, against the account or from the address, never lock out the
    browser its owner logged in from.
    """
    window = settings.MEMORYHUB_LOGIN_FAILURE_WINDOW_SECONDS
    return _attempt_begin(_login_budgets(request, username, device), window)


def login_attempt_succeeded(
    *, request: HttpRequest, username: str, device: str | None = None
) -> None:
    """The password was right: the failures of the account (or the device) are forgotten,
    and this attempt is not a failure of the address (whose other failures stay, or one
    account of an attacker's own would reset the budget of every guess made from that
    address)."""
    budgets = _login_budgets(request, username, device)
    _forget(budgets[0])
    for budget in budgets[1:]:
        _refund(budget)


# --- sign-ups -------------------------------------------------------------------------------

SIGNUP_WINDOW_SECONDS = 24 * 60 * 60


def _signup_budget(request: HttpRequest) -> _Budget:
    return _Budget(
        f"signups:address:{_digest(client_address(request))}",
        settings.MEMORYHUB_SIGNUPS_PER_ADDRESS,
    )


def signup_attempt_begin(*, request: HttpRequest) -> int | None:
    """Before a sign-up form is checked: None when it may go on (counted at once), else the
    seconds to wait. The window of a day begins with the address's first counted sign-up."""
    return _attempt_begin((_signup_budget(request),), SIGNUP_WINDOW_SECONDS)


def signup_attempt_refunded(*, request: HttpRequest) -> None:
    """The sign-up was refused for a reason that tells nothing (passwords that do not match,
    a weak password): it does not count."""
    _refund(_signup_budget(request))
