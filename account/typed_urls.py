"""Addresses a person might type or keep from an older version, sent where the page lives.

Included last in the root URLconf, so a real page at the same address always wins. The
redirects are temporary (302): pages may move again, and a browser keeps a 301 for good.
Addresses without their final slash need nothing here: CommonMiddleware's APPEND_SLASH adds it.
An address with an id is answered like the page it stands for: 404 unless the row is the
reader's own (the ownership-checked accessors), so no id is confirmed to anyone else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.views.decorators.http import require_GET
from django.views.generic import RedirectView

from conversations.selectors import chat_session_get_for_user
from memories.selectors import memory_get_for_user


def _to(pattern_name: str) -> Callable[..., HttpResponseBase]:
    """A redirect to the named page, with the query string."""
    return RedirectView.as_view(pattern_name=pattern_name, permanent=False, query_string=True)


@login_required
@require_GET
def _conversation(request: HttpRequest, session_id: int) -> HttpResponseBase:
    session = chat_session_get_for_user(
        user=cast(AbstractBaseUser, request.user), session_id=session_id
    )
    return redirect("chat:session-detail", session_id=session.pk)


@login_required
@require_GET
def _memory(request: HttpRequest, memory_id: int) -> HttpResponseBase:
    memory = memory_get_for_user(user=cast(AbstractBaseUser, request.user), memory_id=memory_id)
    return redirect("memories:detail", memory_id=memory.pk)


CONVERSATION_LIST = "chat:session-list"
DATA = "account:data"

urlpatterns: list[URLPattern] = [
    path("sessions/", _to(CONVERSATION_LIST)),
    path("conversations/", _to(CONVERSATION_LIST)),
    path("conversations/<int:session_id>/", _conversation),
    path("chat/", _to(CONVERSATION_LIST)),
    path("chats/", _to(CONVERSATION_LIST)),
    path("chat/<int:session_id>/", _conversation),
    path("memory/", _to("memories:list")),
    path("memory/<int:memory_id>/", _memory),
    path("tag/", _to("chat:tags")),
    path("receipts/", _to("memories:receipts")),
    path("agents/", _to("account:agents")),
    path("data/", _to(DATA)),
    path("account/", _to(DATA)),
    path("accounts/", _to(DATA)),
    path("settings/", _to(DATA)),
    path("profile/", _to(DATA)),
    path("login/", _to("login")),
    path("signin/", _to("login")),
    path("signup/", _to("signup")),
    path("register/", _to("signup")),
]
