"""Bad input on the main write endpoints: 400/413/415 in the error shape, nothing written."""

import json

import pytest
from django.db.models import Model

from conversations.models import ChatSession, HistoryImport, Message, Topic
from memories.models import Memory, MemoryVersion

pytestmark = pytest.mark.django_db

EMOJI_RTL = "👩‍💻 짱 🇰🇷 — שלום עולם، مرحبا بالعالم ‏(RTL)‏ ok"
TEN_MB = 10 * 1024 * 1024
_COUNTED: list[type[Model]] = [ChatSession, Message, Topic, HistoryImport, Memory, MemoryVersion]


def _message_body(text):
    return {"content": text}


def _import_body(text):
    return {
        "sessions": [
            {
                "started_at": "2026-01-02T10:00:00+00:00",
                "messages": [
                    {"role": "user", "content": text, "created_at": "2026-01-02T10:00:00+00:00"}
                ],
            }
        ]
    }


def _memory_body(text):
    return {"type": "preference", "content": text}


def _search_body(text):
    return {"query": text}


def _context_body(text):
    return {"message": text}


ENDPOINTS = {
    "messages": ("/api/v1/sessions/{session}/messages/", _message_body),
    "imports": ("/api/v1/imports/", _import_body),
    "memories": ("/api/v1/memories/", _memory_body),
    "search": ("/api/v1/search/", _search_body),
    "context": ("/api/v1/context/", _context_body),
}


@pytest.fixture
def session_id(api):
    return api.post("/api/v1/sessions/").json()["id"]


def _counts():
    return {model.__name__: model.objects.count() for model in _COUNTED}


def _post_raw(api, endpoint, session_id, body: bytes, content_type="application/json"):
    url = ENDPOINTS[endpoint][0].format(session=session_id)
    return api.generic("POST", url, body, content_type=content_type)


def _json_text(endpoint, placeholder_value: str) -> str:
    """The endpoint's JSON body with its text field set to a raw JSON string literal."""
    marker = "@@TEXT@@"
    return json.dumps(ENDPOINTS[endpoint][1](marker)).replace(f'"{marker}"', placeholder_value)


def _assert_error_shape(response, status):
    assert response.status_code == status, response.content[:500]
    body = json.loads(response.content)
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "fields"}
    assert isinstance(body["error"]["code"], str) and body["error"]["code"]
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["fields"], dict)
    return body["error"]


# Raw bodies, each a different way to be unreadable or unstorable.
BAD_BODIES = {
    "invalid utf-8": lambda endpoint: _json_text(endpoint, '"caf\xe9 \xff\xfe"').encode("latin-1"),
    "escaped NUL": lambda endpoint: _json_text(endpoint, '"before\\u0000after"').encode(),
    "raw NUL byte": lambda endpoint: _json_text(endpoint, '"before\x00after"').encode(),
    "lone high surrogate": lambda endpoint: _json_text(endpoint, '"half \\ud83d pair"').encode(),
    "lone low surrogate": lambda endpoint: _json_text(endpoint, '"\\udc00"').encode(),
    "deeply nested JSON": lambda endpoint: b"[" * 100_000 + b"]" * 100_000,
    "deeply nested value": lambda endpoint: _json_text(
        endpoint, "[" * 50_000 + "]" * 50_000
    ).encode(),
    "truncated JSON": lambda endpoint: _json_text(endpoint, '"cut').encode(),
    "not an object": lambda endpoint: b'["a", "list"]',
    "empty body": lambda endpoint: b"",
}


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("case", BAD_BODIES)
def test_bad_bodies_are_400_in_the_error_shape_and_write_nothing(api, session_id, endpoint, case):
    before = _counts()

    response = _post_raw(api, endpoint, session_id, BAD_BODIES[case](endpoint))

    _assert_error_shape(response, 400)
    assert _counts() == before


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_10_mb_body_is_413_in_the_error_shape_and_writes_nothing(api, session_id, endpoint):
    before = _counts()
    body = _json_text(endpoint, json.dumps("x" * TEN_MB)).encode()

    response = _post_raw(api, endpoint, session_id, body)

    error = _assert_error_shape(response, 413)
    assert error["code"] == "too_large"
    assert _counts() == before


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
def test_a_wrong_content_type_is_415_in_the_error_shape_and_writes_nothing(
    api, session_id, endpoint, content_type
):
    before = _counts()
    body = json.dumps(ENDPOINTS[endpoint][1]("hello")).encode()

    response = _post_raw(api, endpoint, session_id, body, content_type=content_type)

    error = _assert_error_shape(response, 415)
    assert error["code"] == "unsupported_media_type"
    assert _counts() == before


@pytest.mark.parametrize("endpoint", ["messages", "memories"])
def test_emoji_and_right_to_left_text_round_trip(api, session_id, endpoint):
    response = _post_raw(
        api, endpoint, session_id, json.dumps(ENDPOINTS[endpoint][1](EMOJI_RTL)).encode()
    )

    assert response.status_code == 201, response.content[:500]
    body = response.json()
    stored = body["user_message"]["content"] if endpoint == "messages" else body["content"]
    assert stored == EMOJI_RTL
    if endpoint == "messages":
        fetched = Message.objects.get(pk=body["user_message"]["id"]).content
    else:
        fetched = api.get(f"/api/v1/memories/{body['id']}/").json()["content"]
    assert fetched == EMOJI_RTL


def test_emoji_and_right_to_left_text_round_trip_through_an_import(api):
    response = api.post("/api/v1/imports/", _import_body(EMOJI_RTL), format="json")

    assert response.status_code == 202, response.content[:500]
    record = HistoryImport.objects.get(pk=response.json()["id"])
    assert EMOJI_RTL in json.dumps(record.payload, ensure_ascii=False)


@pytest.mark.parametrize("endpoint", ["search", "context"])
def test_emoji_and_right_to_left_queries_are_answered(api, endpoint):
    response = api.post(ENDPOINTS[endpoint][0], ENDPOINTS[endpoint][1](EMOJI_RTL), format="json")

    assert response.status_code == 200, response.content[:500]


def test_a_message_over_the_character_limit_is_413(api, session_id, settings):
    settings.MEMORYHUB_MAX_MESSAGE_CHARS = 100
    before = _counts()

    response = api.post(
        f"/api/v1/sessions/{session_id}/messages/", {"content": "가" * 101}, format="json"
    )

    assert _assert_error_shape(response, 413)["code"] == "too_large"
    assert _counts() == before


@pytest.mark.parametrize(
    "params",
    ["status=%ED%A0%80", "q=%00", "q=%FF%FE", "page=-1", "page_size=10000", "type=%F0%9F%98%80"],
)
def test_bad_query_strings_on_the_memory_list_are_400_or_ignored_never_500(api, params):
    response = api.get(f"/api/v1/memories/?{params}")

    assert response.status_code in (200, 400)
    if response.status_code == 400:
        _assert_error_shape(response, 400)


def test_a_huge_page_number_is_400_not_a_database_error(api):
    """Found by schemathesis: the row offset overflowed PostgreSQL's bigint (a 500)."""
    response = api.get("/api/v1/memories/?page=670123788539777113018055757135872")

    error = _assert_error_shape(response, 400)
    assert "page" in error["fields"]


@pytest.mark.parametrize("messages", [7937, "text", {"role": "user"}, True])
def test_an_import_whose_messages_is_not_a_list_is_400(api, messages):
    """Found by schemathesis: counting the messages called len() on a number (a 500)."""
    before = _counts()
    body = {"sessions": [{"started_at": "2026-01-02T10:00:00+00:00", "messages": messages}]}

    response = api.post("/api/v1/imports/", body, format="json")

    error = _assert_error_shape(response, 400)
    assert "sessions[0].messages" in error["fields"]
    assert _counts() == before


def _import_with(**extra):
    """An import of one message whose message object also carries `extra`."""
    body = _import_body("hello")
    body["sessions"][0]["messages"][0].update(extra)
    return body


UNSTORABLE_IMPORTS = {
    "NUL in speaker": (
        _import_with(speaker="a\x00b"),
        "sessions[0].messages[0].speaker",
    ),
    "lone surrogate in speaker": (
        _import_with(speaker="\ud83d"),
        "sessions[0].messages[0].speaker",
    ),
    "NUL in external_id": (
        _import_with(external_id="id\x00"),
        "sessions[0].messages[0].external_id",
    ),
    "lone surrogate in external_id": (
        _import_with(external_id="\udc00x"),
        "sessions[0].messages[0].external_id",
    ),
    "NUL in an extra value": (
        _import_with(meta={"note": ["fine", "bad\x00"]}),
        "sessions[0].messages[0].meta.note[1]",
    ),
    "NUL in an extra key": (
        _import_with(**{"ke\x00y": "value"}),
        'sessions[0].messages[0]["ke\\u0000y"]',
    ),
    "lone surrogate in a nested extra key": (
        _import_with(meta={"\ud800": 1}),
        'sessions[0].messages[0].meta["\\ud800"]',
    ),
}


@pytest.mark.parametrize("case", UNSTORABLE_IMPORTS)
def test_nul_or_lone_surrogates_anywhere_in_an_import_are_400_naming_the_place(api, case):
    body, place = UNSTORABLE_IMPORTS[case]
    before = _counts()

    # Sent as JSON escapes, as a client would: json.dumps writes \u0000 and \ud83d.
    response = api.generic("POST", "/api/v1/imports/", json.dumps(body), "application/json")

    error = _assert_error_shape(response, 400)
    assert place in error["fields"], error
    assert _counts() == before


@pytest.mark.parametrize(
    ("created_at", "message"),
    [
        ("1969-12-31T23:59:59+00:00", "between 1970-01-01 and 2100-01-01"),
        ("2100-01-01T00:00:00+00:00", "between 1970-01-01 and 2100-01-01"),
        ("0001-01-01T00:00:00", "between 1970-01-01 and 2100-01-01"),
        ("9999-12-31T23:59:59-10:00", "between 1970-01-01 and 2100-01-01"),
        ("0000-01-01T00:00:00+00:00", "ISO 8601"),
    ],
)
def test_an_import_timestamp_outside_1970_to_2100_is_400_naming_the_field(api, created_at, message):
    body = _import_body("hello")
    body["sessions"][0]["messages"][0]["created_at"] = created_at
    before = _counts()

    response = api.post("/api/v1/imports/", body, format="json")

    error = _assert_error_shape(response, 400)
    assert message in error["fields"]["sessions[0].messages[0].created_at"]
    assert _counts() == before


@pytest.mark.parametrize("field", ["started_at", "created_at"])
@pytest.mark.parametrize(
    "naive", ["2026-03-04T09:30:00", "2026-03-04 09:30", "2026-03-04T09:30:00.250"]
)
def test_an_import_time_without_its_offset_is_400_naming_the_field(api, field, naive):
    body = _import_body("hello")
    session = body["sessions"][0]
    place = "sessions[0].started_at"
    if field == "started_at":
        session["started_at"] = naive
    else:
        session["messages"][0]["created_at"] = naive
        place = "sessions[0].messages[0].created_at"
    before = _counts()

    response = api.post("/api/v1/imports/", body, format="json")

    error = _assert_error_shape(response, 400)
    assert "UTC offset" in error["fields"][place]
    assert _counts() == before


@pytest.mark.parametrize("aware", ["2026-03-04T09:30:00Z", "2026-03-04T09:30:00+09:00"])
def test_an_import_time_with_z_or_a_numeric_offset_is_accepted(api, aware):
    body = _import_body("hello")
    body["sessions"][0]["started_at"] = aware
    body["sessions"][0]["messages"][0]["created_at"] = aware

    response = api.post("/api/v1/imports/", body, format="json")

    assert response.status_code == 202, response.content[:500]


def test_the_edges_of_the_import_time_range_are_accepted(api):
    body = _import_body("hello")
    body["sessions"][0]["started_at"] = "1970-01-01T00:00:00+00:00"
    body["sessions"][0]["messages"][0]["created_at"] = "2099-12-31T23:59:59+00:00"

    assert api.post("/api/v1/imports/", body, format="json").status_code == 202


@pytest.mark.parametrize("params", ["message=²", "message=١٢", "tries=²", "message=" + "1" * 30])
def test_non_ascii_digits_in_page_parameters_are_400_not_500(client, user, params):
    client.force_login(user)

    response = client.get(f"/memories/suggestions/?{params}")

    assert response.status_code == 400


def test_plain_page_parameters_still_work(client, user):
    client.force_login(user)

    assert client.get("/memories/suggestions/?message=12&tries=1").status_code == 200


def test_a_non_ascii_message_id_on_marking_a_memory_wrong_is_400(client, user):
    from memories.services import revision

    memory = revision.memory_create(user=user, type="fact", content="I like green tea.")
    client.force_login(user)

    response = client.post(f"/memories/{memory.pk}/wrong/", {"message_id": "²"})

    assert response.status_code == 400
