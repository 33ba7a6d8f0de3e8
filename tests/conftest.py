"""Shared fixtures. The suite runs against the embedded PostgreSQL that `make test` starts."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from memoryhub import llm

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def offline_provider() -> Iterator[llm.OfflineProvider]:
    """Every test starts with the offline provider; a test may install another."""
    provider = llm.OfflineProvider()
    llm.set_provider(provider)
    yield provider
    llm.set_provider(None)


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    """The short-term layer lives in the test broker's Valkey; start every test empty."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def unthrottled(settings: Any) -> None:
    """No request rates by default, so no test depends on how fast the suite runs;
    tests/test_throttling.py sets low rates explicitly."""
    rates = dict.fromkeys(settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}))
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


@pytest.fixture
def user(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(username="minji", password="a-long-password-1")


@pytest.fixture
def other_user(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(username="other", password="a-long-password-2")


def _api_client_for(user: Any) -> APIClient:
    token, _ = Token.objects.get_or_create(user=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def api(user: Any) -> APIClient:
    return _api_client_for(user)


@pytest.fixture
def other_api(other_user: Any) -> APIClient:
    return _api_client_for(other_user)


def test_database_url() -> str:
    """DATABASE_URL pointed at the database this test run uses, for processes tests start."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


test_database_url.__test__ = False


@pytest.fixture
def celery_worker_process(transactional_db: None) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker process on the test broker and the test database; its log is
    `.data/test-worker-<test database>.log`, so runs side by side keep their own."""
    from tests.workers import worker_start, worker_stop

    process = worker_start(name=f"worker-{connection.settings_dict['NAME']}")
    try:
        yield process
    finally:
        worker_stop(process)


def wait_until(predicate: Any, *, timeout: float = 60.0, interval: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's sync API keeps an event loop running in the main
    thread for the rest of the session, and tests after it that run an event loop of their
    own (the MCP client, the Django test client on `/mcp/`) could not."""
    browser = Path(__file__).parent / "browser"
    items.sort(key=lambda item: browser in Path(str(item.fspath)).parents)
