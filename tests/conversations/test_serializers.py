"""The import payload's serializers: the limits the schema publishes are the ones enforced."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from conversations.models import HistoryImport, Message
from conversations.serializers import ChatGPTExportInput, ImportInput, error_paths

pytestmark = pytest.mark.django_db


def _message(**fields: Any) -> dict[str, Any]:
    return {
        "role": "user",
        "content": "주말마다 자전거를 타요.",
        "created_at": "2026-03-04T09:00:00+09:00",
        **fields,
    }


def _payload(*messages: Any) -> dict[str, Any]:
    return {"sessions": [{"started_at": "2026-03-04T09:00:00+09:00", "messages": list(messages)}]}


def _errors(payload: Any) -> dict[str, Any]:
    serializer = ImportInput(data=payload)
    assert not serializer.is_valid()
    return error_paths(serializer.errors)


@pytest.fixture(scope="module")
def components() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]


def test_every_bad_place_of_an_import_is_named_by_its_path():
    payload = {
        "sessions": [
            {"started_at": "어제", "messages": [_message()]},
            {
                "started_at": "2026-03-04T09:00:00Z",
                "messages": [_message(), _message(role="system", speaker=7)],
            },
            {"messages": []},
        ]
    }

    errors = _errors(payload)

    assert set(errors) == {
        "sessions[0].started_at",
        "sessions[1].messages[1].role",
        "sessions[1].messages[1].speaker",
        "sessions[2].started_at",
        "sessions[2].messages",
    }
    assert "ISO 8601" in errors["sessions[0].started_at"]


@pytest.mark.parametrize(
    ("component", "field", "make"),
    [
        ("ImportMessageInput", "speaker", lambda n: _message(speaker="가" * n)),
        ("ImportMessageInput", "external_id", lambda n: _message(external_id="x" * n)),
        ("ImportMessageInput", "content", lambda n: _message(content="a" * n)),
    ],
)
def test_the_max_length_the_schema_publishes_is_the_one_enforced(
    components, component, field, make
):
    limit = components[component]["properties"][field]["maxLength"]

    assert ImportInput(data=_payload(make(limit))).is_valid()
    assert f"sessions[0].messages[0].{field}" in _errors(_payload(make(limit + 1)))


def test_the_lists_the_schema_marks_non_empty_are_refused_empty(components):
    assert components["ImportInput"]["properties"]["sessions"]["minItems"] == 1
    assert components["ImportSessionInput"]["properties"]["messages"]["minItems"] == 1

    assert "sessions" in _errors({"sessions": []})
    assert "sessions[0].messages" in _errors(_payload())


def test_the_fields_the_schema_requires_are_required(components):
    required = set(components["ImportMessageInput"]["required"])

    for name in required:
        message = _message()
        del message[name]
        assert f"sessions[0].messages[0].{name}" in _errors(_payload(message))
    assert required == {"role", "content", "created_at"}


def test_a_message_id_repeated_within_an_import_is_named_where_it_repeats():
    errors = _errors(_payload(_message(external_id="17"), _message(external_id=17)))

    assert errors == {"sessions[0].messages[1].external_id": "is repeated within this import"}


def test_a_whole_number_external_id_is_taken_as_its_digits_and_a_fraction_is_refused():
    serializer = ImportInput(data=_payload(_message(external_id=42)))

    assert serializer.is_valid()
    assert serializer.validated_data["sessions"][0]["messages"][0]["external_id"] == "42"
    assert "sessions[0].messages[0].external_id" in _errors(_payload(_message(external_id=4.5)))


def test_more_messages_than_an_import_may_hold_is_an_error_coded_too_large(settings):
    settings.MEMORYHUB_MAX_IMPORT_MESSAGES = 2

    errors = _errors(_payload(_message(), _message(), _message()))

    assert errors["sessions"].code == "too_large"
    assert "at most 2 per import" in errors["sessions"]


def test_a_time_without_an_offset_is_an_error_naming_the_offset():
    errors = _errors(_payload(_message(created_at="2026-03-04T09:00:00")))

    assert "UTC offset" in errors["sessions[0].messages[0].created_at"]


def test_a_stored_payloads_time_without_an_offset_is_read_in_the_servers_time_zone(settings):
    settings.TIME_ZONE = "Asia/Seoul"
    serializer = ImportInput(
        data=_payload(_message(created_at="2026-03-04T09:00:00")),
        context={"naive_times_allowed": True},
    )

    assert serializer.is_valid()
    created = serializer.validated_data["sessions"][0]["messages"][0]["created_at"]
    assert created.utcoffset().total_seconds() == 9 * 3600


def test_the_api_answers_a_bad_import_with_400_naming_the_path_and_stores_nothing(api):
    response = api.post(
        "/api/v1/imports/", _payload(_message(), _message(role="robot")), format="json"
    )

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["sessions[0].messages[1].role"]
    assert not HistoryImport.objects.exists()
    assert not Message.objects.exists()


@pytest.mark.parametrize(
    ("export", "place"),
    [
        ({"conversations": 1}, "conversations"),
        ([7], "conversations[0]"),
        ([{"create_time": "yesterday", "mapping": {}}], "conversations[0].create_time"),
        ([{"create_time": True, "mapping": {}}], "conversations[0].create_time"),
        ([{"create_time": 1.7e9}], "conversations[0].mapping"),
    ],
)
def test_a_malformed_chatgpt_export_is_named_by_its_path(export, place):
    serializer = ChatGPTExportInput(data={"conversations": export})

    assert not serializer.is_valid()
    assert place in error_paths(serializer.errors)


def test_an_import_with_an_oversized_message_and_other_errors_is_413_naming_the_size(api, settings):
    settings.MEMORYHUB_MAX_MESSAGE_CHARS = 20
    payload = _payload(_message(role="robot"), _message(content="긴 " * 30))

    response = api.post("/api/v1/imports/", payload, format="json")

    assert response.status_code == 413
    assert "sessions[0].messages[1].content" in response.json()["error"]["message"]
    assert not HistoryImport.objects.exists()


def test_a_text_that_spells_out_a_nul_escape_is_imported_as_written():
    spelled = r"the escape \u0000 ends a C string"
    serializer = ImportInput(data=_payload(_message(content=spelled, speaker=r"\u0000")))

    assert serializer.is_valid(), serializer.errors
    message = serializer.validated_data["sessions"][0]["messages"][0]
    assert (message["content"], message["speaker"]) == (spelled, r"\u0000")


def test_a_message_that_is_not_an_object_is_named_by_its_place():
    errors = _errors(_payload(_message(), "안녕하세요", None))

    assert set(errors) == {"sessions[0].messages[1]", "sessions[0].messages[2]"}
    assert "Expected a dictionary" in errors["sessions[0].messages[1]"]
    assert "may not be null" in errors["sessions[0].messages[2]"]


def test_every_bad_field_of_one_message_is_named_and_good_ones_are_kept_as_sent():
    errors = _errors(_payload(_message(role="bot", created_at="1969-12-31T00:00:00Z", speaker=1)))

    assert set(errors) == {
        "sessions[0].messages[0].role",
        "sessions[0].messages[0].created_at",
        "sessions[0].messages[0].speaker",
    }
    serializer = ImportInput(data=_payload(_message(speaker="엄마", external_id=" a ")))
    assert serializer.is_valid()
    message = serializer.validated_data["sessions"][0]["messages"][0]
    assert (message["speaker"], message["external_id"]) == ("엄마", " a ")
    bare = ImportInput(data=_payload(_message()))
    assert bare.is_valid()
    assert set(bare.validated_data["sessions"][0]["messages"][0]) == {
        "role",
        "content",
        "created_at",
    }
