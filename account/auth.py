"""Sign-up, and logging in with a failed-login budget; logging out is Django's own view.

The login form of the site and of admin refuse an attempt past the budget of its account or
its address (`memoryhub.throttles`), before checking the password, and say how long to wait.
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
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from conversations.services import chat
from memoryhub.throttles import login_attempt_begin, login_attempt_succeeded


def login_wait_message(seconds: int) -> str:
    """The wait, in whole minutes rounded up, in the reader's language."""
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed logins. Try again in %(minutes)d minute.",
        "Too many failed logins. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


class _ThrottledLogin(AuthenticationForm):
    """Counts failed logins per account and address; past either budget it refuses at once.

    The same message and wait for an account that exists and one that does not: the budget
    is kept per typed username either way.
    """

    throttle_wait: int | None = None

    def clean(self) -> dict[str, Any]:
        username = str(self.cleaned_data.get("username") or "")
        if not (username and self.cleaned_data.get("password")):
            return super().clean()  # a missing field; no password is checked
        assert self.request is not None  # both login views pass it
        self.throttle_wait = login_attempt_begin(request=self.request, username=username)
        if self.throttle_wait is not None:
            raise ValidationError(login_wait_message(self.throttle_wait), code="throttled")
        cleaned = super().clean()
        login_attempt_succeeded(request=self.request, username=username)
        return cleaned


class LoginForm(_ThrottledLogin):
    pass


class AdminLoginForm(_ThrottledLogin, AdminAuthenticationForm):
    pass


class LoginView(auth_views.LoginView):
    """Django's login view with the budget; a refused attempt is 429 with Retry-After."""

    form_class = LoginForm
    redirect_authenticated_user = True

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
    form: UserCreationForm[User] = UserCreationForm(
        request.POST if request.method == "POST" else None
    )
    if form.is_valid():
        user = form.save()
        login(request, user)
        # A new person starts chatting at once, where the welcome says what is remembered.
        conversation = chat.chat_session_create(user=user)
        return redirect("chat:session-detail", session_id=conversation.pk)
    return render(request, "registration/signup.html", {"form": form})
