"""A device cookie is honoured only for the account, password and age it was given under."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core import signing
from django.http import HttpResponse
from django.test import RequestFactory

from account import devices
from account.devices import DEVICE_COOKIE, device_cookie_set, login_device

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-unusual-passphrase-42"


@pytest.fixture
def minji(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(username="minji", password=PASSWORD)


def _cookie_for(user: Any) -> str:
    response = HttpResponse()
    device_cookie_set(request=RequestFactory().get("/"), response=response, user=user)
    return str(response.cookies[DEVICE_COOKIE].value)


def _request(cookie: str) -> Any:
    return RequestFactory().post("/", HTTP_COOKIE=f"{DEVICE_COOKIE}={cookie}")


def test_a_fresh_cookie_names_its_device_for_its_own_account(minji):
    device = login_device(request=_request(_cookie_for(minji)), username="minji")

    assert device and len(device) >= 20


def test_each_login_gives_a_new_device_id(minji):
    first = login_device(request=_request(_cookie_for(minji)), username="minji")
    second = login_device(request=_request(_cookie_for(minji)), username="minji")

    assert first != second


@pytest.mark.parametrize(
    "header",
    [
        f"{DEVICE_COOKIE}=\x00\xff\xfe",
        f"{DEVICE_COOKIE}=" + "A" * 8000,
        f'{DEVICE_COOKIE}="\\"quoted\\";"',
        f"{DEVICE_COOKIE}=e30:1abc:xyz",
        f"{DEVICE_COOKIE}",
        ";;;=;",
    ],
)
def test_garbage_in_the_cookie_header_counts_as_no_device(minji, header):
    request = RequestFactory().post("/", HTTP_COOKIE=header)

    assert login_device(request=request, username="minji") is None


def test_a_signed_value_of_another_shape_counts_as_no_device(minji):
    for payload in (
        [minji.pk, "d", "p"],
        {"u": str(minji.pk), "d": "d", "p": "p"},
        {"u": minji.pk},
    ):
        cookie = signing.dumps(payload, salt=devices._SALT)
        assert login_device(request=_request(cookie), username="minji") is None


def test_a_value_signed_for_another_purpose_counts_as_no_device(minji):
    cookie = signing.dumps({"u": minji.pk, "d": "d", "p": devices._proof(minji, "d")})

    assert login_device(request=_request(cookie), username="minji") is None


def test_a_cookie_older_than_its_max_age_counts_as_no_device(minji, monkeypatch):
    cookie = _cookie_for(minji)
    later = time.time() + devices.DEVICE_COOKIE_MAX_AGE + 60
    monkeypatch.setattr(signing.time, "time", lambda: later)

    assert login_device(request=_request(cookie), username="minji") is None


def test_the_cookie_of_a_deactivated_or_deleted_account_counts_as_no_device(minji):
    cookie = _cookie_for(minji)
    minji.is_active = False
    minji.save()
    assert login_device(request=_request(cookie), username="minji") is None

    minji.delete()
    assert login_device(request=_request(cookie), username="minji") is None
