"""Failed logins are budgeted per account and per client address, or per device from a browser
with the account's device cookie (issue 13, line 10)."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from account.devices import DEVICE_COOKIE
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


# --- device cookies -------------------------------------------------------------------------


def _device_cookie(client: Any, username: str, password: str) -> str:
    """Log in from `client`'s browser, log out again, and return the device cookie it kept."""
    assert _login(client, username, password, "10.9.9.9").status_code == 302
    cookie = str(client.cookies[DEVICE_COOKIE].value)
    client.logout()  # the test client forgets every cookie here; a browser keeps this one
    client.cookies[DEVICE_COOKIE] = cookie
    return cookie


def _hammer(client: Any, username: str, addresses: int) -> None:
    for n in range(addresses):
        _login(client, username, f"guess-{n}", f"198.51.100.{n}")


def test_a_login_gives_the_browser_an_httponly_strict_device_cookie(client, clock, minji):
    response = _login(client, "minji", PASSWORD, "10.0.0.1")

    cookie = response.cookies[DEVICE_COOKIE]
    assert cookie.value
    assert cookie["httponly"] and cookie["samesite"] == "Strict"
    assert not cookie["secure"]
    assert int(cookie["max-age"]) > 30 * 24 * 60 * 60


def test_the_device_cookie_is_secure_over_https(client, clock, minji):
    response = client.post(
        reverse("login"),
        {"username": "minji", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
        secure=True,
    )

    assert response.cookies[DEVICE_COOKIE]["secure"]


def test_a_sign_up_gives_the_new_accounts_browser_a_device_cookie(client, clock):
    response = client.post(
        reverse("signup"),
        {"username": "jiwoo", "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
    )

    assert response.status_code == 302
    assert response.cookies[DEVICE_COOKIE].value


def test_an_attacker_hammering_from_many_addresses_does_not_lock_out_the_owners_browser(
    client, clock, minji
):
    owner = Client()
    _device_cookie(owner, "minji", PASSWORD)
    _hammer(client, "minji", addresses=30)
    assert _refused(_login(client, "minji", PASSWORD, "203.0.113.5"))  # no cookie: the old budgets

    from_owners_browser = _login(owner, "minji", PASSWORD, "203.0.113.5")

    assert from_owners_browser.status_code == 302
    assert owner.session["_auth_user_id"] == str(minji.pk)


def test_the_owners_browser_is_not_locked_out_by_its_address_either(client, clock, minji):
    owner = Client()
    _device_cookie(owner, "minji", PASSWORD)
    for name in ("a", "b", "c", "d", "e", "f"):  # a neighbour behind the same NAT
        _login(client, name, "wrong", "10.0.0.1")

    assert _refused(_login(client, "minji", PASSWORD, "10.0.0.1"))
    assert _login(owner, "minji", PASSWORD, "10.0.0.1").status_code == 302


def test_the_owners_own_failures_count_against_the_device_and_show_the_wait(client, clock, minji):
    _device_cookie(client, "minji", PASSWORD)
    for n in range(3):
        assert _login(client, "minji", f"typo{n}", "10.0.0.1").status_code == 200
    clock.now += 60

    english = _login(client, "minji", PASSWORD, "10.0.0.1", **EN)
    korean = _login(client, "minji", PASSWORD, "10.0.0.1", **KO)

    assert _refused(english) and english["Retry-After"] == "540"
    assert _errors(english) == ["Too many failed logins. Try again in 9 minutes."]
    assert _errors(korean) == ["로그인에 너무 여러 번 실패했어요. 9분 뒤에 다시 시도해 주세요."]
    assert _login(Client(), "minji", PASSWORD, "10.0.0.2").status_code == 302  # account untouched


def test_a_success_from_the_device_clears_only_the_devices_failures(client, clock, minji):
    _device_cookie(client, "minji", PASSWORD)
    _login(client, "minji", "typo", "10.0.0.1")
    _hammer(Client(), "minji", addresses=3)
    assert _login(client, "minji", PASSWORD, "10.0.0.1").status_code == 302
    cookie = client.cookies[DEVICE_COOKIE].value
    client.logout()
    client.cookies[DEVICE_COOKIE] = cookie

    assert _refused(_login(Client(), "minji", PASSWORD, "198.51.100.77"))
    attempts = [_login(client, "minji", "typo", "10.0.0.1").status_code for _ in range(4)]
    assert attempts == [200, 200, 200, 429]


def test_a_stolen_cookie_gives_the_thief_only_the_devices_budget(client, clock, minji):
    stolen = _device_cookie(Client(), "minji", PASSWORD)
    thief = Client()
    thief.cookies[DEVICE_COOKIE] = stolen

    statuses = [
        _login(thief, "minji", f"guess{n}", f"198.51.100.{n}").status_code for n in range(6)
    ]

    assert statuses == [200, 200, 200, 429, 429, 429]
    assert _refused(_login(thief, "minji", PASSWORD, "198.51.100.9"))


def test_another_accounts_cookie_counts_as_none(client, clock, minji, django_user_model):
    django_user_model.objects.create_user(username="mallory", password=PASSWORD)
    _device_cookie(client, "mallory", PASSWORD)

    statuses = [
        _login(client, "minji", f"guess{n}", f"198.51.100.{n}").status_code for n in range(5)
    ]

    assert statuses == [200, 200, 200, 429, 429]


def test_a_cookie_counts_only_for_the_exact_account_not_one_spelled_alike(
    client, clock, minji, django_user_model
):
    django_user_model.objects.create_user(username="MINJI", password=PASSWORD)
    _device_cookie(client, "minji", PASSWORD)

    statuses = [
        _login(client, name, "guess", f"198.51.100.{n}").status_code
        for n, name in enumerate(["MINJI", "MINJI", "MINJI", "MINJI", "Minji"])
    ]

    assert statuses == [200, 200, 200, 429, 429]
    assert _login(client, "minji", PASSWORD, "198.51.100.50").status_code == 302


def test_a_tampered_cookie_counts_as_none(client, clock, minji):
    cookie = _device_cookie(client, "minji", PASSWORD)
    _hammer(Client(), "minji", addresses=3)

    for forged in (cookie[:-1] + ("A" if cookie[-1] != "A" else "B"), "x" + cookie, "", "null"):
        client.cookies[DEVICE_COOKIE] = forged
        assert _refused(_login(client, "minji", PASSWORD, "10.0.0.1"))


def test_a_cookie_dies_with_the_password_it_was_given_under(client, clock, minji):
    _device_cookie(client, "minji", PASSWORD)
    minji.set_password("a-new-passphrase-after-a-scare")
    minji.save()
    _hammer(Client(), "minji", addresses=3)

    refused = _login(client, "minji", "a-new-passphrase-after-a-scare", "10.0.0.1")

    assert _refused(refused)


def test_the_admin_login_honours_the_device_cookie(client, clock, django_user_model):
    django_user_model.objects.create_superuser(username="root", password=PASSWORD)
    _device_cookie(client, "root", PASSWORD)
    _hammer(Client(), "root", addresses=3)

    response = client.post(
        reverse("admin:login"), {"username": "root", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )

    assert response.status_code == 302
    assert client.session["_auth_user_id"]


@pytest.mark.parametrize(
    "username",
    [
        "min\x00ji",
        "minji\n",
        "\u202eijnim",
        "민지🙂",
        "m" * 151,
        "ｍｉｎｊｉ" * 40,
        "x" * 20_000,
        "\ufeff",
    ],
)
def test_odd_usernames_are_answered_without_a_server_error(client, clock, minji, username):
    response = _login(client, username, "wrong", "10.0.0.1")

    assert response.status_code in (200, 429)
    assert "_auth_user_id" not in client.session


def test_a_full_width_username_counts_against_the_same_accounts_budget(client, clock, minji):
    for n, name in enumerate(["ｍｉｎｊｉ", "MINJI", "Minji"]):
        assert _login(client, name, "wrong", f"10.0.0.{n}").status_code == 200

    assert _refused(_login(client, "minji", PASSWORD, "10.0.0.9"))


def test_a_username_of_bytes_that_are_not_utf8_is_answered_without_a_server_error(
    client, clock, minji
):
    response = client.post(
        reverse("login"),
        b"username=%ff%fe%00min&password=%c0%af",
        content_type="application/x-www-form-urlencoded",
        REMOTE_ADDR="10.0.0.1",
    )

    assert response.status_code == 200


def test_an_admin_login_gives_the_browser_a_device_cookie_too(client, clock, django_user_model):
    django_user_model.objects.create_superuser(username="root", password=PASSWORD)
    url = reverse("admin:login")

    refused = client.post(url, {"username": "root", "password": "wrong"}, REMOTE_ADDR="10.0.0.1")
    assert DEVICE_COOKIE not in refused.cookies
    response = client.post(url, {"username": "root", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1")

    assert response.status_code == 302
    assert response.cookies[DEVICE_COOKIE]["httponly"]


def test_parallel_guesses_with_one_stolen_cookie_get_no_more_than_the_devices_budget(clock, minji):
    request = RequestFactory().post("/login/", REMOTE_ADDR="198.51.100.1")
    with ThreadPoolExecutor(max_workers=8) as pool:
        waits = list(
            pool.map(
                lambda _: throttles.login_attempt_begin(
                    request=request, username="minji", device="stolen-device"
                ),
                range(40),
            )
        )

    assert sum(wait is None for wait in waits) == 3
