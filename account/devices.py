"""Device cookies: a browser its owner has logged in from keeps a login budget of its own.

After a successful login the browser gets a signed cookie naming the account and a random
device id. A later login attempt for that same account, from a browser that still carries
the cookie, counts against that device's budget instead of the account's and the address's
(`memoryhub.throttles.login_attempt_begin`), so someone guessing at the account from
elsewhere cannot lock its owner out. A cookie counts as none when its signature is wrong,
it is older than `DEVICE_COOKIE_MAX_AGE`, it names another account than the one typed, or
the account's password has changed since it was given (a stolen cookie dies with the
password).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare, salted_hmac

DEVICE_COOKIE = "memoryhub_device"
DEVICE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60
_SALT = "memoryhub.account.devices"


def _proof(user: AbstractBaseUser, device: str) -> str:
    """Ties a device to the account's current password hash without revealing it."""
    return salted_hmac(_SALT, f"{device}:{user.password}", algorithm="sha256").hexdigest()[:32]


def device_cookie_set(*, request: HttpRequest, response: HttpResponse, user: Any) -> None:
    """Give the browser that just logged in as `user` a new device cookie."""
    device = secrets.token_urlsafe(18)
    value = signing.dumps({"u": user.pk, "d": device, "p": _proof(user, device)}, salt=_SALT)
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_COOKIE_MAX_AGE,
        httponly=True,
        secure=request.is_secure() or settings.SESSION_COOKIE_SECURE,
        samesite="Strict",  # only ever read by a login form posted from this site
    )


def login_device(*, request: HttpRequest, username: str) -> str | None:
    """The device id of the request's device cookie when it is valid for the account
    `username` logs in as (compared as authentication compares it), else None."""
    raw = request.COOKIES.get(DEVICE_COOKIE)
    if not raw:
        return None
    try:
        data = signing.loads(raw, salt=_SALT, max_age=DEVICE_COOKIE_MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    user_id, device, proof = data.get("u"), data.get("d"), data.get("p")
    if not (isinstance(user_id, int) and isinstance(device, str) and isinstance(proof, str)):
        return None
    user_model = get_user_model()
    user = user_model._default_manager.filter(pk=user_id, is_active=True).first()
    if user is None or user.get_username() != username:
        return None
    if not constant_time_compare(proof, _proof(user, device)):
        return None
    return device
