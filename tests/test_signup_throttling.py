"""Sign-ups are budgeted per client address (issue 13, line 10)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
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
    settings.MEMORYHUB_SIGNUPS_PER_ADDRESS = 3
    settings.MEMORYHUB_TRUSTED_PROXIES = 0


def _signup(username: str, address: str, password2: str = PASSWORD, **headers: Any) -> Any:
    """A sign-up from a fresh browser (a signed-up browser is logged in and sent on)."""
    return Client().post(
        reverse("signup"),
        {"username": username, "password1": PASSWORD, "password2": password2},
        REMOTE_ADDR=address,
        **headers,
    )


def _errors(response: Any) -> list[str]:
    block = re.search(r'<div class="form-errors"[^>]*>(.*?)</div>', response.content.decode(), re.S)
    return re.findall(r"<p>(.*?)</p>", block.group(1)) if block else []


def _refused(response: Any) -> bool:
    return response.status_code == 429 and int(response["Retry-After"]) > 0


def test_sign_ups_past_the_addresss_budget_are_refused_with_the_wait(clock, django_user_model):
    for name in ("ana", "bo", "chul"):
        assert _signup(name, "10.0.0.1").status_code == 302

    english = _signup("dami", "10.0.0.1", **EN)
    korean = _signup("dami", "10.0.0.1", **KO)

    assert _refused(english) and english["Retry-After"] == str(24 * 60 * 60)
    assert _errors(english) == [
        "Too many accounts were created from your network. Try again in 24 hours."
    ]
    assert _errors(korean) == [
        "이 네트워크에서 계정이 너무 많이 만들어졌어요. 24시간 뒤에 다시 시도해 주세요."
    ]
    assert not django_user_model.objects.filter(username="dami").exists()


def test_the_wait_under_an_hour_is_told_in_minutes_and_ends_with_the_day(clock):
    for name in ("ana", "bo", "chul"):
        _signup(name, "10.0.0.1")
    clock.now += 24 * 60 * 60 - 30 * 60

    near_the_end = _signup("dami", "10.0.0.1", **EN)
    clock.now += 30 * 60 + 1
    after = _signup("dami", "10.0.0.1")

    assert _errors(near_the_end) == [
        "Too many accounts were created from your network. Try again in 30 minutes."
    ]
    assert after.status_code == 302


def test_another_address_has_its_own_budget(clock):
    for name in ("ana", "bo", "chul"):
        _signup(name, "10.0.0.1")

    assert _signup("dami", "10.0.0.2").status_code == 302


def test_forms_refused_for_a_typo_or_a_weak_password_do_not_count(clock):
    for n in range(5):
        assert _signup(f"user{n}", "10.0.0.1", password2="different!").status_code == 200
    weak = Client().post(
        reverse("signup"),
        {"username": "weak", "password1": "1234", "password2": "1234"},
        REMOTE_ADDR="10.0.0.1",
    )
    assert weak.status_code == 200

    assert [_signup(n, "10.0.0.1").status_code for n in ("ana", "bo", "chul")] == [302] * 3


def test_tries_at_a_taken_username_count_so_names_cannot_be_probed_without_limit(
    clock, django_user_model
):
    django_user_model.objects.create_user(username="minji", password=PASSWORD)
    for taken in ("minji", "MINJI", "ｍｉｎｊｉ"):
        assert _signup(taken, "10.0.0.1").status_code == 200

    probe = _signup("minji", "10.0.0.1")

    assert _refused(probe)
    assert "already exists" not in probe.content.decode()


def test_a_forged_forwarded_for_header_and_other_hosts_of_one_v6_block_share_a_budget(clock):
    addresses = ["10.0.0.1", "10.0.0.1", "10.0.0.1"]
    for n, address in enumerate(addresses):
        forged = {"HTTP_X_FORWARDED_FOR": f"192.0.2.{n}"}
        assert _signup(f"user{n}", address, **forged).status_code == 302
    for n in range(3):
        assert _signup(f"six{n}", f"2001:db8:1:2::{n + 1}").status_code == 302

    assert _refused(_signup("more", "10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.99"))
    assert _refused(_signup("more", "2001:db8:1:2:abcd::7"))


def test_opening_the_sign_up_page_does_not_count(clock):
    for _ in range(5):
        assert Client().get(reverse("signup"), REMOTE_ADDR="10.0.0.1").status_code == 200

    assert _signup("ana", "10.0.0.1").status_code == 302


@pytest.mark.parametrize(
    "body",
    [
        b"username=%ff%fe&password1=x&password2=x",
        b"username=mi%00nji&password1=a-long-unusual-passphrase-42&password2=a-long-unusual-passphrase-42",
        b"username=" + b"x" * 20_000 + b"&password1=p&password2=p",
        b"username=%F0%9F%99%82&password1=%00&password2=%00",
    ],
)
def test_odd_bytes_in_a_sign_up_are_answered_without_a_server_error_or_a_count(clock, body):
    response = Client().post(
        reverse("signup"),
        body,
        content_type="application/x-www-form-urlencoded",
        REMOTE_ADDR="10.0.0.1",
    )

    assert response.status_code == 200
    assert [_signup(n, "10.0.0.1").status_code for n in ("ana", "bo", "chul")] == [302] * 3
