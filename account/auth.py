"""Sign-up with a budget per address, and logging in with a failed-login budget; logging
out is Django's own view.

The login form of the site and of admin refuse an attempt past the budget of its account or
its address, or, from a browser with the account's device cookie (`account.devices`), past
that device's budget (`memoryhub.throttles`), before checking the password, and say how
long to wait. Sign-ups past the address's budget are refused the same way.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.forms.utils import ErrorDict
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from account.devices import device_cookie_set, login_device
from conversations.services import chat
from memoryhub.throttles import (
    login_attempt_begin,
    login_attempt_succeeded,
    signup_attempt_begin,
    signup_attempt_refunded,
)


def login_wait_message(seconds: int) -> str:
    """The wait, in whole minutes rounded up, in the reader's language."""
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed logins. Try again in %(minutes)d minute.",
        "Too many failed logins. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def signup_wait_message(seconds: int) -> str:
    """The wait, in minutes under an hour and in hours (rounded up) after, in the reader's
    language."""
    minutes = max(1, math.ceil(seconds / 60))
    if minutes < 60:
        return ngettext(
            "Too many accounts were created from your network. Try again in %(minutes)d minute.",
            "Too many accounts were created from your network. Try again in %(minutes)d minutes.",
            minutes,
        ) % {"minutes": minutes}
    hours = math.ceil(minutes / 60)
    return ngettext(
        "Too many accounts were created from your network. Try again in %(hours)d hour.",
        "Too many accounts were created from your network. Try again in %(hours)d hours.",
        hours,
    ) % {"hours": hours}


class _ThrottledLogin(AuthenticationForm):
    """Counts failed logins per account and address, or per device from a browser with the
    account's device cookie; past the budget it refuses at once.

    The same message and wait for an account that exists and one that does not: the budget
    is kept per typed username either way.
    """

    throttle_wait: int | None = None

    def clean(self) -> dict[str, Any]:
        username = str(self.cleaned_data.get("username") or "")
        if not (username and self.cleaned_data.get("password")):
            return super().clean()  # a missing field; no password is checked
        assert self.request is not None  # both login views pass it
        device = login_device(request=self.request, username=username)
        self.throttle_wait = login_attempt_begin(
            request=self.request, username=username, device=device
        )
        if self.throttle_wait is not None:
            raise ValidationError(login_wait_message(self.throttle_wait), code="throttled")
        cleaned = super().clean()
        login_attempt_succeeded(request=self.request, username=username, device=device)
        return cleaned


class LoginForm(_ThrottledLogin):
    pass


class AdminLoginForm(_ThrottledLogin, AdminAuthenticationForm):
    pass


class SignupForm(UserCreationForm[User]):
    """Django's sign-up form, counted against the address's sign-up budget before it is
    checked. A form refused for a taken username still counts (or the form would tell an
    attacker which usernames exist without limit); one refused for anything else does not."""

    throttle_wait: int | None = None

    def __init__(self, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def full_clean(self) -> None:
        if not self.is_bound:
            return super().full_clean()
        self.throttle_wait = signup_attempt_begin(request=self.request)
        if self.throttle_wait is not None:
            self._errors = ErrorDict()
            self.cleaned_data = {}
            self.add_error(
                None, ValidationError(signup_wait_message(self.throttle_wait), code="throttled")
            )
            return None
        super().full_clean()
        if self._errors and not self.has_error("username", "unique"):
            signup_attempt_refunded(request=self.request)
        return None


class LoginView(auth_views.LoginView):
    """Django's login view with the budget; a refused attempt is 429 with Retry-After. A
    successful one gives the browser a device cookie for the account."""

    form_class = LoginForm
    redirect_authenticated_user = True

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        device_cookie_set(request=self.request, response=response, user=form.get_user())
        return response

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        wait = getattr(form, "throttle_wait", None)
        if wait is not None:
            response.status_code = 429
            response["Retry-After"] = str(wait)
        return response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account from a username and a password typed twice, log it in and open its
    first conversation."""
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignupForm(request.POST if request.method == "POST" else None, request=request)
    if form.is_valid():
        user = form.save()
        login(request, user)
        # A new person starts chatting at once, where the welcome says what is remembered.
        conversation = chat.chat_session_create(user=user)
        started = redirect("chat:session-detail", session_id=conversation.pk)
        device_cookie_set(request=request, response=started, user=user)
        return started
    response = render(request, "registration/signup.html", {"form": form})
    if form.throttle_wait is not None:
        response.status_code = 429
        response["Retry-After"] = str(form.throttle_wait)
    return response
