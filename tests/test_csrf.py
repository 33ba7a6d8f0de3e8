"""CSRF holds on every HTML route that accepts a POST: no token is a 403, the page's token works.

The routes are found by walking the URLconf, so a new page is covered without editing this.
"""

import re
import uuid

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from conversations.services import chat
from memories.models import MemoryType
from memories.services import revision

pytestmark = pytest.mark.django_db

# /mcp/ takes an agent's bearer token only, never the session cookie: nothing for CSRF to ride
# on (tests/conversations/test_mcp.py: a logged-in browser's POST gets 401).
_NOT_HTML = ("admin/", "api/", "healthz", "mcp")
_HX_HEADERS = re.compile(r"""<body[^>]*hx-headers='\{"X-CSRFToken": "([^"]+)"\}'""")
_FORM_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _html_routes(patterns=None, prefix=""):
    """(name, route) of every HTML URL pattern, e.g. ("chat:session-end", "sessions/<int:...>")."""
    routes = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if route.startswith(_NOT_HTML):
            continue
        if isinstance(entry, URLResolver):
            routes += _html_routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            routes.append(route)
    return sorted(set(routes))


ROUTES = _html_routes()


@pytest.fixture
def browser(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


@pytest.fixture
def owned(user):
    session = chat.chat_session_create(user=user)
    exchange = chat.chat_exchange(session=session, content="I prefer tea over coffee.")
    memory = revision.memory_create(
        user=user, type=MemoryType.PREFERENCE, content="Prefers tea over coffee."
    )
    return {
        "session_id": session.pk,
        "message_id": exchange.user_message.pk,
        "memory_id": memory.pk,
        "receipt_id": uuid.uuid4(),
    }


def _url(route, owned):
    def value(match):
        return str(owned.get(match.group(2), 1))

    return "/" + re.sub(r"<(\w+):(\w+)>", value, route)


def _page_token(browser):
    """The token as htmx sends it: from the page's `hx-headers` on <body>."""
    page = browser.get("/")
    assert page.status_code == 200
    match = _HX_HEADERS.search(page.content.decode())
    assert match, "the base template must hand htmx the CSRF token"
    return match.group(1)


def test_the_walk_finds_the_pages_that_write():
    assert "sessions/<int:session_id>/messages/" in ROUTES
    assert "<int:memory_id>/delete/" in [r.removeprefix("memories/") for r in ROUTES]
    assert "accounts/login/" in ROUTES
    assert len(ROUTES) > 15


@pytest.mark.parametrize("route", ROUTES)
def test_a_post_without_a_token_is_refused(browser, route):
    # CSRF is checked before the view runs, so the ids need not exist.
    response = browser.post(_url(route, {"receipt_id": uuid.uuid4()}), {"content": "hello"})

    assert response.status_code == 403


@pytest.mark.parametrize("route", ROUTES)
def test_an_htmx_post_with_the_pages_token_passes_csrf(browser, owned, route):
    token = _page_token(browser)

    response = browser.post(
        _url(route, owned), {"content": "hello"}, HTTP_X_CSRFTOKEN=token, HTTP_HX_REQUEST="true"
    )

    assert response.status_code != 403, response.content[:300]


def test_a_form_post_with_the_forms_token_works(browser, owned):
    page = browser.get(f"/sessions/{owned['session_id']}/")
    token = _FORM_TOKEN.search(page.content.decode()).group(1)

    response = browser.post(
        f"/sessions/{owned['session_id']}/messages/",
        {"content": "And I like green tea.", "csrfmiddlewaretoken": token},
    )

    assert response.status_code in (200, 302)


def test_a_token_from_another_session_is_refused(browser, owned, other_user):
    stranger = Client(enforce_csrf_checks=True)
    stranger.force_login(other_user)
    foreign_token = _page_token(stranger)

    response = browser.post(
        f"/sessions/{owned['session_id']}/messages/",
        {"content": "hello"},
        HTTP_X_CSRFTOKEN=foreign_token,
    )

    assert response.status_code == 403


def test_the_api_with_a_token_needs_no_csrf_but_its_session_use_does(api, browser):
    assert api.post("/api/v1/sessions/").status_code == 201
    # The same endpoint reached with the browser's session cookie is a CSRF target.
    assert browser.post("/api/v1/sessions/").status_code == 403
