"""The driver's command-line values, checked (importable without Locust, which patches the
standard library with gevent on import)."""

from __future__ import annotations

import argparse
import ipaddress
import socket
from urllib.parse import urlsplit


def parse_steps(raw: str) -> list[int]:
    try:
        steps = [int(part) for part in raw.split(",") if part.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--steps must be numbers like 10,20,40: {raw!r}") from exc
    if not steps or any(n < 1 or n > 1000 for n in steps) or steps != sorted(set(steps)):
        raise argparse.ArgumentTypeError(f"--steps must rise, each from 1 to 1000: {raw!r}")
    return steps


def local_url(raw: str) -> str:
    """Only this machine is a target: the URL's host must resolve to a loopback address."""
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(f"--url must be an http(s) URL: {raw!r}")
    try:
        addresses = {
            str(info[4][0]) for info in socket.getaddrinfo(parts.hostname, parts.port or 80)
        }
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"--url's host does not resolve: {exc}") from exc
    if not all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses):
        raise argparse.ArgumentTypeError(f"--url must be on this machine (loopback): {raw!r}")
    return raw.rstrip("/")


def think_range(raw: str) -> tuple[float, float]:
    try:
        low, high = (float(part) for part in raw.split(","))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--think must be MIN,MAX seconds: {raw!r}") from exc
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError(f"--think must be 0 <= MIN <= MAX: {raw!r}")
    return low, high


def positive(raw: str) -> float:
    value = float(raw)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {raw!r}")
    return value
