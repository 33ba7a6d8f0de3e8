from __future__ import annotations

import pytest

from conversations.models import ChatSession, Message

pytestmark = pytest.mark.django_db


def _new_session(api) -> str:
    response = api.post("/api/v1/sessions/", format="json")
    assert response.status_code == 201
    return response.json()["id"]


def test_creating_a_session_returns_its_id_start_and_active_status(api):
    response = api.post("/api/v1/sessions/", format="json")

    assert response.status_code == 201
    body = response.json()
    assert isinstance(body["id"], str)
    assert body["status"] == "active"
    assert "+" in body["started_at"] or body["started_at"].endswith("Z")


def test_session_detail_has_the_documented_fields(api):
    session_id = _new_session(api)
    api.post(f"/api/v1/sessions/{session_id}/messages/", {"content": "안녕"}, format="json")

    body = api.get(f"/api/v1/sessions/{session_id}/").json()

    assert set(body) >= {"id", "status", "started_at", "ended_at", "summary", "tags", "topics"}
    assert body["id"] == session_id
    assert body["ended_at"] is None
    topic = body["topics"][0]
    assert set(topic) >= {"id", "keywords", "message_count", "started_at", "ended_at"}
    assert topic["message_count"] == 2


def test_posting_a_message_stores_it_and_returns_the_reply_and_context(api):
    session_id = _new_session(api)

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/",
        {"content": "React 프로젝트 Next.js로 마이그레이션하려고 해."},
        format="json",
    )

    assert response.status_code == 201
    body = response.json()
    assert body["user_message"]["content"] == "React 프로젝트 Next.js로 마이그레이션하려고 해."
    assert body["assistant_message"]["content"]
    assert isinstance(body["assistant_message"]["id"], str)
    assert body["topic"]["shifted"] is False
    assert "마이그레이션" in body["topic"]["keywords"]
    context = body["context"]
    assert set(context) >= {"session_recall", "topic_recall", "memories", "tokens"}
    assert Message.objects.filter(session_id=int(session_id)).count() == 2


def test_offline_reply_says_it_is_offline_in_the_users_language(api):
    session_id = _new_session(api)

    korean = api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": "오늘 날씨 어때?"}, format="json"
    ).json()
    english = api.post(
        f"/api/v1/sessions/{session_id}/messages/",
        {"content": "What's the weather like?"},
        format="json",
    ).json()

    assert "언어 모델 없이" in korean["assistant_message"]["content"]
    assert "without a language model" in english["assistant_message"]["content"]


def test_another_users_session_is_404_with_no_data(api, other_api):
    session_id = _new_session(api)

    detail = other_api.get(f"/api/v1/sessions/{session_id}/")
    post = other_api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": "hi"}, format="json"
    )

    assert detail.status_code == 404
    assert post.status_code == 404
    assert detail.json()["error"]["code"] == "not_found"
    assert session_id not in detail.content.decode()
    assert Message.objects.count() == 0


def test_unknown_and_malformed_session_ids_are_404(api):
    assert api.get("/api/v1/sessions/999999/").status_code == 404
    assert api.get("/api/v1/sessions/not-a-number/").status_code == 404


def test_missing_or_bad_token_is_401(client):
    assert client.post("/api/v1/sessions/").status_code == 401
    bad = client.post("/api/v1/sessions/", HTTP_AUTHORIZATION="Token nope")
    assert bad.status_code == 401
    assert bad.json()["error"]["code"] in {"not_authenticated", "authentication_failed"}


@pytest.mark.parametrize(
    "payload, field",
    [
        ({}, "content"),
        ({"content": ""}, "content"),
        ({"content": "   "}, "content"),
        ({"content": 42}, "content"),
        ({"content": "nul \u0000 byte"}, "content"),
        ('{"content": "lone \\ud800 surrogate"}', "content"),
    ],
)
def test_invalid_message_is_400_in_the_error_shape_and_writes_nothing(api, payload, field):
    session_id = _new_session(api)
    url = f"/api/v1/sessions/{session_id}/messages/"

    if isinstance(payload, str):  # raw JSON the test client could not encode itself
        response = api.post(url, payload, content_type="application/json")
    else:
        response = api.post(url, payload, format="json")

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert error["message"]
    assert field in error["fields"]
    assert Message.objects.count() == 0


def test_oversized_message_is_413_and_writes_nothing(api, settings):
    settings.MEMORYHUB_MAX_MESSAGE_CHARS = 100
    session_id = _new_session(api)

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": "가" * 101}, format="json"
    )

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert "content" in response.json()["error"]["fields"]
    assert Message.objects.count() == 0


def test_malformed_json_is_400_in_the_error_shape(api):
    session_id = _new_session(api)

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/", "{not json", content_type="application/json"
    )

    assert response.status_code == 400
    assert set(response.json()["error"]) == {"code", "message", "fields"}


@pytest.mark.parametrize(
    "body", [b"not json at all", b'{"title": ', b"[1, 2]", b'"a string"', b"42"]
)
def test_a_session_body_that_is_not_a_json_object_is_400_and_starts_nothing(api, body):
    response = api.generic("POST", "/api/v1/sessions/", body, content_type="application/json")

    assert response.status_code == 400
    assert set(response.json()["error"]) == {"code", "message", "fields"}
    assert not ChatSession.objects.exists()


def test_a_session_body_sent_as_text_is_415_and_starts_nothing(api):
    response = api.generic("POST", "/api/v1/sessions/", b"hello", content_type="text/plain")

    assert response.status_code == 415
    assert not ChatSession.objects.exists()


@pytest.mark.parametrize(
    ("body", "content_type"),
    [(b"", "application/json"), (b"{}", "application/json"), (b"", None)],
)
def test_a_session_starts_with_an_empty_body_or_an_empty_object(api, body, content_type):
    if content_type is None:
        response = api.post("/api/v1/sessions/")
    else:
        response = api.generic("POST", "/api/v1/sessions/", body, content_type=content_type)

    assert response.status_code == 201, response.content
    assert ChatSession.objects.count() == 1


def test_wrong_content_type_is_415_in_the_error_shape(api):
    session_id = _new_session(api)

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/", "content=hi", content_type="text/plain"
    )

    assert response.status_code == 415
    assert "error" in response.json()


def test_message_to_an_ended_session_is_409(api, user):
    session_id = _new_session(api)
    ChatSession.objects.filter(pk=session_id).update(status=ChatSession.Status.ENDED)

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": "hi"}, format="json"
    )

    assert response.status_code == 409
    assert Message.objects.count() == 0


def test_unknown_api_path_is_a_json_404(api):
    response = api.get("/api/v1/nothing-here/")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_openapi_schema_is_served(api):
    response = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    assert b"/api/v1/sessions/" in response.content
