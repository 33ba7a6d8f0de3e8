import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from memoryhub import env

ROOT = Path(__file__).resolve().parents[2]


def _variables_read_by_code() -> set[str]:
    names: set[str] = set()
    pattern = re.compile(
        r"""env_\w+\(\s*["']([A-Z0-9_]+)["']|environ(?:\.get\(|\[)\s*["']([A-Z0-9_]+)["']"""
    )
    for path in [
        *ROOT.glob("memoryhub/*.py"),
        *ROOT.glob("conversations/**/*.py"),
        *ROOT.glob("memories/**/*.py"),
    ]:
        if path.name == "env.py":
            continue
        for match in pattern.finditer(path.read_text()):
            names.add(match.group(1) or match.group(2))
    names.discard("DJANGO_SETTINGS_MODULE")
    return names


def _documented() -> set[str]:
    lines = (ROOT / ".env.example").read_text().splitlines()
    return {m.group(1) for line in lines if (m := re.match(r"#?\s*([A-Z0-9_]+)=", line))}


def test_every_environment_variable_read_by_the_code_is_in_env_example():
    read = _variables_read_by_code()

    assert read, "the scan found no variables; the pattern is broken"
    assert read - _documented() == set()


def test_env_example_lists_nothing_the_code_does_not_read():
    launcher_only = {
        "PORT",
        "MEMORYHUB_LIVE_CONCURRENCY",
        "MEMORYHUB_BULK_CONCURRENCY",
        "MEMORYHUB_WEB_WORKERS",
        "MEMORYHUB_PG_SHARED_BUFFERS",
    }
    assert _documented() - _variables_read_by_code() - launcher_only == set()


def test_bad_values_raise_improperly_configured(monkeypatch):
    monkeypatch.setenv("X_INT", "many")
    monkeypatch.setenv("X_BOOL", "maybe")
    monkeypatch.setenv("X_CHOICE", "other")
    monkeypatch.setenv("X_PRICES", "claude=abc")

    with pytest.raises(ImproperlyConfigured):
        env.env_int("X_INT", 1)
    with pytest.raises(ImproperlyConfigured):
        env.env_bool("X_BOOL", False)
    with pytest.raises(ImproperlyConfigured):
        env.env_choice("X_CHOICE", "a", ("a", "b"))
    with pytest.raises(ImproperlyConfigured):
        env.env_prices("X_PRICES")


def test_typed_helpers_parse_good_values(monkeypatch):
    monkeypatch.setenv("X_INT", "42")
    monkeypatch.setenv("X_BOOL", "yes")
    monkeypatch.setenv("X_LIST", "a, b,,c")

    assert env.env_int("X_INT", 1) == 42
    assert env.env_bool("X_BOOL", False) is True
    assert env.env_list("X_LIST", []) == ["a", "b", "c"]


def _settings_in_a_child(env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k != "MEMORYHUB_CACHE_URL"}
    full.update(env, DJANGO_SETTINGS_MODULE="memoryhub.settings")
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_rabbitmq_broker_routes_to_the_same_queues_and_needs_a_cache_url():
    amqp = {"CELERY_BROKER_URL": "amqp://guest:guest@rabbit.internal:5672//"}
    routes = (
        "from memoryhub.celery import app; import conversations.tasks as t; "
        "r = [app.amqp.router.route({}, x.name, (), {}, task_type=x)['queue'] "
        "for x in (t.exchange_extract, t.history_import_run)]; "
        "print([(q.name, q.exchange.name, q.exchange.type, q.routing_key) for q in r])"
    )

    without_cache = _settings_in_a_child(amqp, "")
    with_cache = _settings_in_a_child(
        {**amqp, "MEMORYHUB_CACHE_URL": "redis://cache.internal:6379/1"}, routes
    )

    assert "set MEMORYHUB_CACHE_URL" in without_cache.stderr
    assert with_cache.returncode == 0, with_cache.stderr
    assert with_cache.stdout.strip() == (
        "[('live', 'live', 'direct', 'live'), ('bulk', 'bulk', 'direct', 'bulk')]"
    )
