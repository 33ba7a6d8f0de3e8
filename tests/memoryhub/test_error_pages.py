"""Error pages: HTML in the browser's language (English or Korean) for pages, the JSON error
shape for /api/ (memoryhub/views.py)."""

from __future__ import annotations

import pytest
from django.http import HttpRequest, HttpResponse
from django.urls import path

from memories.services import revision
from memoryhub import urls as project_urls

pytestmark = pytest.mark.django_db

KO = {"HTTP_ACCEPT_LANGUAGE": "ko"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug in a view")


# This module is also the URLconf of the 500 tests: the project's routes plus two that fail.
urlpatterns = [
    path("boom/", _boom),
    path("api/v1/boom/", _boom),
    *project_urls.urlpatterns,
]
handler400 = project_urls.handler400
handler404 = project_urls.handler404
handler500 = project_urls.handler500


@pytest.fixture
def crashing_client(client):
    client.raise_request_exception = False
    return client


def test_missing_page_is_an_english_404_page_in_the_site_layout(client):
    response = client.get("/no-such-page/", **EN)

    content = response.content.decode()
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert '<html lang="en">' in content
    assert '<h1 id="error-heading">Page not found</h1>' in content
    assert 'href="/memories/"' in content
    assert "Skip to content" in content  # the base layout


def test_missing_page_is_a_korean_404_page_when_the_browser_asks_for_korean(client):
    response = client.get("/no-such-page/", **KO)

    content = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="ko">' in content
    assert "페이지를 찾을 수 없어요" in content
    assert "Page not found" not in content


def test_another_users_memory_shows_the_404_page_without_its_content(client, user, other_user):
    theirs = revision.memory_create(user=other_user, type="fact", content="their secret plan")
    client.force_login(user)

    response = client.get(f"/memories/{theirs.pk}/", **KO)

    content = response.content.decode()
    assert response.status_code == 404
    assert "페이지를 찾을 수 없어요" in content
    assert "their secret plan" not in content
    assert "minji" in content  # signed in: the layout shows who


def test_missing_api_path_keeps_the_json_error_shape(client):
    response = client.get("/api/v1/no-such-endpoint/", **KO)

    assert response.status_code == 404
    assert response.json() == {
        "error": {"code": "not_found", "message": "Not found.", "fields": {}}
    }


@pytest.mark.urls(__name__)
@pytest.mark.parametrize(
    ("headers", "lang", "heading"),
    [(EN, "en", "Something went wrong"), (KO, "ko", "문제가 생겼어요")],
)
def test_server_error_is_a_500_page_in_the_browsers_language(
    crashing_client, headers, lang, heading
):
    response = crashing_client.get("/boom/", **headers)

    content = response.content.decode()
    assert response.status_code == 500
    assert f'<html lang="{lang}">' in content
    assert heading in content
    assert "a bug in a view" not in content
    assert "Traceback" not in content


@pytest.mark.urls(__name__)
def test_server_error_under_the_api_keeps_the_json_error_shape(crashing_client):
    response = crashing_client.get("/api/v1/boom/", **KO)

    assert response.status_code == 500
    assert response.json()["error"]["code"] == "server_error"
