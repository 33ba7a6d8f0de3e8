"""Typed readers for environment variables; bad values raise ImproperlyConfigured.

Every variable read here must be listed in `.env.example` (a test checks it).
"""

from __future__ import annotations

import os
from decimal import Decimal, InvalidOperation
from urllib.parse import urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_optional(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from exc
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be >= {minimum}, got {value}")
    return value


def env_float(
    name: str, default: float, *, minimum: float | None = None, maximum: float | None = None
) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}") from exc
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise ImproperlyConfigured(f"{name} must be within [{minimum}, {maximum}], got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default).strip()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def env_prices(name: str) -> dict[str, tuple[Decimal, Decimal]]:
    """Parse "prefix=in/out;prefix=in/out" (USD per million tokens)."""
    raw = os.environ.get(name, "").strip()
    prices: dict[str, tuple[Decimal, Decimal]] = {}
    for item in filter(None, (part.strip() for part in raw.split(";"))):
        try:
            prefix, pair = item.split("=", 1)
            price_in, price_out = (Decimal(p.strip()) for p in pair.split("/", 1))
        except (ValueError, InvalidOperation) as exc:
            raise ImproperlyConfigured(
                f"{name}: {item!r} is not 'model-prefix=input/output'"
            ) from exc
        if price_in < 0 or price_out < 0 or not prefix.strip():
            raise ImproperlyConfigured(f"{name}: {item!r} has a negative price or no model")
        prices[prefix.strip()] = (price_in, price_out)
    return prices


def redis_database(url: str, number: int) -> str:
    """The same Redis server as `url`, database `number` (the cache beside the broker)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{number}"))


_RATE_PERIODS = ("s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day")
_RATE_OFF = {"", "0", "off", "none"}


def env_rate(name: str, default: str) -> str | None:
    """A DRF throttle rate "N/period" (period s, min, hour or day); "off" or "0" is no limit."""
    raw = os.environ.get(name, default).strip()
    if raw.lower() in _RATE_OFF:
        return None
    count, _, period = raw.partition("/")
    if not count.isdigit() or int(count) < 1 or period not in _RATE_PERIODS:
        raise ImproperlyConfigured(
            f"{name} must be a rate like 30/min (per s, min, hour or day) or off, got {raw!r}"
        )
    return f"{int(count)}/{period}"
