"""Addresses a person might type or keep from an older version, sent where the page lives.

Included last in the root URLconf, so a real page at the same address always wins. The
redirects are temporary (302): pages may move again, and a browser keeps a 301 for good.
Addresses without their final slash need nothing here: CommonMiddleware's APPEND_SLASH adds it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http.response import HttpResponseBase
from django.urls import URLPattern, path
from django.views.generic import RedirectView


def _to(pattern_name: str) -> Callable[..., HttpResponseBase]:
    """A redirect to the named page; an id in the address (`session_id`, `memory_id`) goes
    along under the same name, so it must be the target's name for it too."""
    return RedirectView.as_view(pattern_name=pattern_name, permanent=False, query_string=True)


CONVERSATION_LIST = "chat:session-list"
CONVERSATION = "chat:session-detail"
DATA = "memories:data"

urlpatterns: list[URLPattern] = [
    path("sessions/", _to(CONVERSATION_LIST)),
    path("conversations/", _to(CONVERSATION_LIST)),
    path("conversations/<int:session_id>/", _to(CONVERSATION)),
    path("chat/", _to(CONVERSATION_LIST)),
    path("chats/", _to(CONVERSATION_LIST)),
    path("chat/<int:session_id>/", _to(CONVERSATION)),
    path("memory/", _to("memories:list")),
    path("memory/<int:memory_id>/", _to("memories:detail")),
    path("tag/", _to("chat:tags")),
    path("receipts/", _to("memories:receipts")),
    path("agents/", _to("memories:agents")),
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
