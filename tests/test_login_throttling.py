"""Failed logins are budgeted per account and per client address (issue 13, line 10)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import RequestFactory
from django.urls import reverse

from memoryhub import throttles

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-unusual-passphrase-42"
KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


class Clock:
    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    clock = Clock()
    monkeypatch.setattr(throttles, "_now", clock)
    return clock


@pytest.fixture(autouse=True)
def budget(settings: Any) -> None:
    settings.MEMORYHUB_LOGIN_FAILURES_PER_ACCOUNT = 3
    settings.MEMORYHUB_LOGIN_FAILURES_PER_ADDRESS = 5
    settings.MEMORYHUB_LOGIN_FAILURE_WINDOW_SECONDS = 600
    settings.MEMORYHUB_TRUSTED_PROXIES = 0


@pytest.fixture
def minji(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(username="minji", password=PASSWORD)


def _login(client: Any, username: str, password: str, address: str, **headers: Any) -> Any:
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **headers,
    )


def _errors(response: Any) -> list[str]:
    block = re.search(r'<div class="form-errors"[^>]*>(.*?)</div>', response.content.decode(), re.S)
    return re.findall(r"<p>(.*?)</p>", block.group(1)) if block else []


def _refused(response: Any) -> bool:
    return response.status_code == 429 and int(response["Retry-After"]) > 0


def test_the_failure_past_an_accounts_budget_is_refused_from_any_address_with_the_wait(
    client, clock, minji
):
    for n in range(3):
        assert _login(client, "minji", "wrong", f"10.0.0.{n}").status_code == 200
    clock.now += 120

    refused = _login(client, "minji", "wrong", "10.0.0.9", **EN)

    assert _refused(refused)
    assert refused["Retry-After"] == "480"
    assert "Too many failed logins. Try again in 8 minutes." in refused.content.decode()


def test_the_wait_is_shown_in_korean_to_a_korean_browser(client, clock, minji):
    for n in range(3):
        _login(client, "minji", "wrong", f"10.0.0.{n}")

    refused = _login(client, "minji", "wrong", "10.0.0.9", **KO)

    assert _refused(refused)
    assert "10분 뒤에 다시 시도해 주세요" in refused.content.decode()


def test_many_accounts_from_one_address_are_refused_past_the_addresss_budget(client, clock, minji):
    for name in ("a", "b", "c", "d", "e"):
        assert _login(client, name, "wrong", "10.0.0.1").status_code == 200

    refused = _login(client, "minji", PASSWORD, "10.0.0.1")
    elsewhere = _login(client, "minji", PASSWORD, "10.0.0.2")

    assert _refused(refused)
    assert elsewhere.status_code == 302


def test_the_right_password_during_the_wait_is_refused_and_works_after_it(client, clock, minji):
    for n in range(3):
        _login(client, "minji", "wrong", f"10.0.0.{n}")

    during = _login(client, "minji", PASSWORD, "10.0.0.9")
    assert _refused(during)
    assert "_auth_user_id" not in client.session

    clock.now += 601
    after = _login(client, "minji", PASSWORD, "10.0.0.9")
    assert after.status_code == 302
    assert client.session["_auth_user_id"] == str(minji.pk)


def test_a_success_resets_the_accounts_failures(client, clock, minji):
    for n in range(2):
        _login(client, "minji", "wrong", f"10.0.0.{n}")
    assert _login(client, "minji", PASSWORD, "10.0.1.1").status_code == 302
    client.logout()

    later = [_login(client, "minji", "wrong", f"10.0.2.{n}").status_code for n in range(4)]

    assert later == [200, 200, 200, 429]


def test_an_unknown_account_is_refused_exactly_like_a_known_one(client, clock, minji):
    for n in range(3):
        _login(client, "minji", "wrong", f"10.0.0.{n}")
        _login(client, "nobody", "wrong", f"10.0.1.{n}")

    known = _login(client, "minji", "wrong", "10.0.0.9", **EN)
    unknown = _login(client, "nobody", "wrong", "10.0.1.9", **EN)

    assert _refused(known) and _refused(unknown)
    assert known["Retry-After"] == unknown["Retry-After"]
    assert (
        _errors(known) == _errors(unknown) == ["Too many failed logins. Try again in 10 minutes."]
    )


def test_the_admin_login_has_the_same_budget(client, clock, django_user_model):
    django_user_model.objects.create_superuser(username="root", password=PASSWORD)
    url = reverse("admin:login")
    for n in range(3):
        client.post(url, {"username": "root", "password": "wrong"}, REMOTE_ADDR=f"10.0.0.{n}")

    refused = client.post(
        url, {"username": "root", "password": PASSWORD}, REMOTE_ADDR="10.0.0.9", **EN
    )

    assert "Too many failed logins" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_forged_forwarded_for_header_does_not_make_a_new_address(client, clock, minji):
    for n in range(5):
        _login(client, f"user{n}", "wrong", "10.0.0.1", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")

    refused = _login(client, "minji", PASSWORD, "10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.99")

    assert _refused(refused)


def test_behind_trusted_proxies_the_address_is_the_one_the_outermost_proxy_saw(settings):
    settings.MEMORYHUB_TRUSTED_PROXIES = 1
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7"
    )

    assert throttles.client_address(request) == "203.0.113.7"


def test_ipv6_addresses_count_per_64_block():
    one = RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2::1")
    other = RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2:ffff::9")

    assert throttles.client_address(one) == throttles.client_address(other) == "2001:db8:1:2::/64"
