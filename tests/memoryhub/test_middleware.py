"""Project middleware (memoryhub/middleware.py): where a button pressed after the session
ended leads once the person has logged in again. (Request ids: test_request_ids.py.)"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from memories.services import revision

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-password-1"  # the `user` fixture's


def _next_of(location: str) -> list[str]:
    parts = urlsplit(location)
    assert parts.path == "/accounts/login/"
    return parse_qs(parts.query).get("next", [])


@pytest.fixture
def memory(user):
    return revision.memory_create(user=user, type="fact", content="Lives in Daejeon")


@pytest.mark.parametrize("button", ["wrong/", "approve/", "reject/", "wrong/undo/"])
def test_a_button_pressed_after_logging_out_sends_back_to_the_page_it_was_on(
    client, memory, button
):
    page = f"/memories/{memory.pk}/"

    response = client.post(f"{page}{button}", HTTP_REFERER=f"http://testserver{page}?tab=1")

    assert response.status_code == 302
    assert _next_of(response["Location"]) == [f"{page}?tab=1"]


def test_logging_in_after_such_a_button_lands_on_a_page_not_an_empty_405(client, memory):
    page = f"/memories/{memory.pk}/"
    to_login = client.post(f"{page}wrong/", HTTP_REFERER=f"http://testserver{page}")

    logged_in = client.post(
        to_login["Location"], {"username": "minji", "password": PASSWORD}, follow=True
    )

    assert logged_in.status_code == 200
    assert logged_in.redirect_chain[-1][0] == page
    memory.refresh_from_db()
    assert memory.status == "active"  # the press is not replayed


def test_a_button_pressed_from_htmx_after_logging_out_reloads_the_whole_page_to_log_in(
    client, memory
):
    page = f"/memories/{memory.pk}/"

    response = client.post(
        f"{page}wrong/",
        HTTP_HX_REQUEST="true",
        HTTP_HX_CURRENT_URL=f"http://testserver{page}",
        HTTP_REFERER="http://testserver/elsewhere/",
    )

    assert response.status_code == 200
    assert response.content == b""
    assert _next_of(response["HX-Redirect"]) == [page]


@pytest.mark.parametrize(
    "referer",
    ["https://evil.example/memories/", "//evil.example/x/", "javascript:alert(1)", ""],
)
def test_a_page_of_another_site_or_none_is_never_the_way_back(client, memory, referer):
    headers = {"HTTP_REFERER": referer} if referer else {}

    response = client.post(f"/memories/{memory.pk}/wrong/", **headers)

    assert response.status_code == 302
    assert _next_of(response["Location"]) == []


def test_a_page_opened_while_logged_out_still_comes_back_after_logging_in(client, memory):
    response = client.get(f"/memories/{memory.pk}/?q=1")

    assert _next_of(response["Location"]) == [f"/memories/{memory.pk}/?q=1"]


def test_the_api_keeps_its_401_for_a_request_without_a_token(client):
    response = client.post("/api/v1/sessions/", HTTP_REFERER="http://testserver/")

    assert response.status_code == 401
