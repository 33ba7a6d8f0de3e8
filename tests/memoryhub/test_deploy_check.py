"""Production settings, checked in a fresh process with the production environment."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_PRODUCTION = {
    "MEMORYHUB_PRODUCTION": "true",
    "MEMORYHUB_SECRET_KEY": secrets.token_urlsafe(60),
    "MEMORYHUB_ALLOWED_HOSTS": "memory.example.com",
    "MEMORYHUB_CSRF_TRUSTED_ORIGINS": "https://memory.example.com",
    "MEMORYHUB_TRUST_PROXY_SSL_HEADER": "true",
}
_SETTINGS_PROBE = """
import json
from django.conf import settings
import django
django.setup()
print(json.dumps({name: getattr(settings, name, None) for name in [
    "DEBUG", "SESSION_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "SESSION_COOKIE_SAMESITE",
    "CSRF_COOKIE_SECURE", "CSRF_COOKIE_SAMESITE", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER",
    "X_FRAME_OPTIONS", "SECURE_REFERRER_POLICY", "MEMORYHUB_LOG_JSON", "MIDDLEWARE",
]}))
"""


def _env(**overrides):
    # A production process has none of the test run's settings; the browser tests' fixture
    # sets DJANGO_ALLOW_ASYNC_UNSAFE in this process, which `check --deploy` rightly refuses.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("MEMORYHUB_") and k != "DJANGO_ALLOW_ASYNC_UNSAFE"
    }
    env["MEMORYHUB_TEST_DATABASE_NAME"] = os.environ.get("MEMORYHUB_TEST_DATABASE_NAME", "")
    env["DJANGO_SETTINGS_MODULE"] = "memoryhub.settings"
    env.update(overrides)
    return {k: v for k, v in env.items() if v is not None}


def _run(args, env):
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_check_deploy_passes_without_warnings_in_production():
    result = _run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], _env(**_PRODUCTION)
    )

    assert result.returncode == 0, result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_check_deploy_warns_in_development_so_the_production_switch_matters():
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], _env())

    assert result.returncode != 0
    assert "security.W012" in result.stderr  # SESSION_COOKIE_SECURE


def test_production_settings_are_secure():
    result = _run(["-c", _SETTINGS_PROBE], _env(**_PRODUCTION))
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)

    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] is True
    assert values["SESSION_COOKIE_HTTPONLY"] is True
    assert values["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert values["CSRF_COOKIE_SECURE"] is True
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_HSTS_SECONDS"] >= 31536000
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["X_FRAME_OPTIONS"] == "DENY"
    assert values["SECURE_REFERRER_POLICY"] == "same-origin"
    assert values["MEMORYHUB_LOG_JSON"] is True
    assert "memoryhub.middleware.ContentSecurityPolicyMiddleware" in values["MIDDLEWARE"]


def test_development_stays_on_plain_http():
    result = _run(["-c", _SETTINGS_PROBE], _env())
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)

    assert values["SESSION_COOKIE_SECURE"] is False
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SECURE_HSTS_SECONDS"] == 0
    assert values["SECURE_PROXY_SSL_HEADER"] is None
    assert values["MEMORYHUB_LOG_JSON"] is False


def test_production_refuses_to_start_without_a_secret_key_from_the_environment():
    result = _run(["-c", _SETTINGS_PROBE], _env(**{**_PRODUCTION, "MEMORYHUB_SECRET_KEY": None}))

    assert result.returncode != 0
    assert "MEMORYHUB_SECRET_KEY is required" in result.stderr


def test_production_refuses_debug():
    result = _run(["-c", _SETTINGS_PROBE], _env(**_PRODUCTION, MEMORYHUB_DEBUG="true"))

    assert result.returncode != 0
    assert "MEMORYHUB_DEBUG must be off" in result.stderr


def test_production_logs_one_json_object_per_line_with_the_request_id():
    script = (
        "import django, logging; django.setup();"
        "from memoryhub.logs import request_id_var; request_id_var.set('req-prod');"
        "logging.getLogger('memoryhub.probe').warning('hello %s', 'world')"
    )
    result = _run(["-c", script], _env(**_PRODUCTION))
    assert result.returncode == 0, result.stderr

    line = [ln for ln in result.stderr.splitlines() if "memoryhub.probe" in ln][-1]
    entry = json.loads(line)
    assert entry["message"] == "hello world"
    assert entry["level"] == "WARNING"
    assert entry["request_id"] == "req-prod"


@pytest.mark.django_db
def test_plain_http_pages_are_not_redirected_in_development(client):
    response = client.get("/accounts/login/")

    assert response.status_code == 200


@pytest.mark.django_db
def test_every_page_carries_the_security_headers(client):
    response = client.get("/accounts/login/")

    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "style-src 'self'" in csp
    assert "'unsafe-inline'" not in csp
    assert "'unsafe-eval'" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_templates_hold_no_inline_scripts_styles_or_handlers():
    """The CSP allows none of these, so a template that has one would break in the browser."""
    import re

    pattern = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in (ROOT / "templates").rglob("*.html")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]

    assert offenders == []


def test_htmx_is_told_not_to_inject_styles_or_eval_code():
    base = (ROOT / "templates" / "_base.html").read_text()

    assert '"includeIndicatorStyles": false' in base
    assert '"allowEval": false' in base
