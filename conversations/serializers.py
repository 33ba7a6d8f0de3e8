"""The import payloads, validated (docs/API.md "Import"): the one definition of what an import
may hold, used by `POST /api/v1/imports/`, the `import_history` command and the published
schema alike, so the limits the schema shows are the limits enforced. At the end, how the
export (`GET /api/v1/export/`) shows sessions, tag weights and imports.

Errors come back as a flat map from the place (`sessions[1].messages[0].created_at`) to what is
wrong there (`error_paths`); an error whose code is `too_large` asks for a 413, not a 400.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.fields import SkipField, empty
from rest_framework.settings import api_settings

from conversations.models import ChatSession, HistoryImport, Message, Topic
from memoryhub.api import (
    PER_CHARACTER,
    IsoDateTimeField,
    MessageTextField,
    RoundedFloatField,
    storable_text,
)
from memoryhub.validation import unstorable

# Times outside these are a mistake (a year typed wrong, milliseconds read as seconds), and
# near the ends of datetime's range arithmetic and time zones overflow.
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(2100, 1, 1, tzinfo=UTC)
SPEAKER_MAX_CHARS = 100
EXTERNAL_ID_MAX_CHARS = 200
_MAX_REPORTED = 20
_SURROGATE = re.compile("[\ud800-\udfff]")


def error_paths(detail: Any) -> dict[str, ErrorDetail]:
    """DRF's nested errors as one message per place, `sessions[0].messages[2].content` style.

    Each place keeps the code of its error (a `too_large` anywhere there wins), so a caller can
    still tell a 413 from a 400. Keys that already name a place (from a `validate`) are kept.
    """
    found: dict[str, ErrorDetail] = {}

    def walk(node: Any, place: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == api_settings.NON_FIELD_ERRORS_KEY:
                    walk(value, place)
                elif isinstance(key, int):
                    walk(value, f"{place}[{key}]")
                else:
                    walk(value, f"{place}.{key}" if place else str(key))
        elif isinstance(node, list) and node and all(isinstance(i, str) for i in node):
            codes = [getattr(i, "code", None) for i in node]
            code = "too_large" if "too_large" in codes else (codes[0] or "invalid")
            found[place or "(body)"] = ErrorDetail(" ".join(str(i) for i in node), code=code)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                if item:
                    walk(item, f"{place}[{index}]")
        elif isinstance(node, str):
            found[place or "(body)"] = ErrorDetail(node, code=getattr(node, "code", "invalid"))

    walk(detail, "")
    return found


def unstorable_places(payload: Any) -> dict[str, str]:
    """Every key or string anywhere in the payload (extra keys too) that cannot be stored.

    The payload is kept whole on the import until it has run, and PostgreSQL's JSON refuses
    NUL and lone surrogates: without this check such a string was a 500, not a 400.
    """
    if _all_storable(payload):
        return {}
    found: dict[str, str] = {}
    stack: list[tuple[str, Any]] = [("", payload)]
    while stack and len(found) < _MAX_REPORTED:
        place, value = stack.pop()
        if isinstance(value, str):
            if (problem := unstorable(value)) is not None:
                found[place or "(body)"] = str(problem)
        elif isinstance(value, list):
            stack.extend((f"{place}[{i}]", item) for i, item in reversed(list(enumerate(value))))
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                problem = unstorable(key)
                if problem is None:
                    stack.append((f"{place}.{key}".removeprefix("."), item))
                else:  # json.dumps escapes the bad character, so the place can be shown
                    found[f"{place}[{json.dumps(key)}]"] = f"key {problem}"
    return found


def _all_storable(payload: Any) -> bool:
    """True when no string of the payload holds NUL or a lone surrogate, found in one JSON
    text at C speed; False when one may, or the payload is not JSON: then the walk decides.
    A text that spells out a backslash-u0000 is a false alarm the walk clears."""
    try:
        text = json.dumps(payload, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return False
    return "\\u0000" not in text and _SURROGATE.search(text) is None


class ImportTimeField(serializers.DateTimeField):
    """An ISO 8601 date-time with its UTC offset (API.md: "all times ISO 8601 with offset"),
    from 1970 up to 2100. One without an offset is refused: the server's zone would be a
    guess. A payload stored before the offset was required (`naive_times_allowed` in the
    serializer's context, when a worker parses what was queued) reads one in TIME_ZONE."""

    default_error_messages = {
        "not_text": "must be an ISO 8601 date-time string",
        "invalid": "must be an ISO 8601 date-time",
        "no_offset": "must carry its UTC offset (2026-01-02T10:00:00+09:00 or ...Z)",
        "out_of_range": "must be between 1970-01-01 and 2100-01-01",
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault(
            "help_text",
            "With its UTC offset; from 1970-01-01 up to (not including) 2100-01-01.",
        )
        super().__init__(**kwargs)

    def to_internal_value(self, value: Any) -> datetime:
        if not isinstance(value, str):
            self.fail("not_text")
        try:
            parsed = parse_datetime(value)
            naive = parsed is not None and timezone.is_naive(parsed)
            if parsed is not None and naive:
                parsed = timezone.make_aware(parsed, timezone.get_default_timezone())
            in_range = parsed is not None and EARLIEST <= parsed < LATEST
        except (ValueError, OverflowError):
            parsed, in_range, naive = None, False, False
        if parsed is None:
            self.fail("invalid")
        if not in_range:
            self.fail("out_of_range")
        if naive and not self.context.get("naive_times_allowed"):
            self.fail("no_offset")
        return parsed


def _checked_at_c_speed(field: serializers.CharField) -> None:
    """Swap DRF's per-character NUL and surrogate validators of `field` for one check."""
    field.validators = [v for v in field.validators if not isinstance(v, PER_CHARACTER)]
    field.validators.append(storable_text)


class StrictCharField(serializers.CharField):
    """A JSON string only (DRF's CharField would take 7 as "7")."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _checked_at_c_speed(self)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class ExternalIdField(serializers.CharField):
    """The sender's id of a message (a string; a whole number is taken as its digits)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.update(
            min_length=1, max_length=EXTERNAL_ID_MAX_CHARS, trim_whitespace=False, allow_null=True
        )
        super().__init__(**kwargs)
        _checked_at_c_speed(self)

    def to_internal_value(self, data: Any) -> str:
        if isinstance(data, bool) or not isinstance(data, str | int):
            self.fail("invalid")
        return super().to_internal_value(str(data))


class NonEmptyList(serializers.ListSerializer[Any]):
    """A list of one or more items (`many=True` of a serializer whose Meta names this)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_empty"] = False
        kwargs.setdefault("min_length", 1)
        super().__init__(*args, **kwargs)


class NonEmptyListSchema(OpenApiSerializerFieldExtension):  # type: ignore[no-untyped-call]
    target_class = NonEmptyList
    match_subclasses = True

    def map_serializer_field(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_serializer_field(
            self.target, direction, bypass_extensions=True
        )
        schema["minItems"] = 1
        return schema


class ImportMessageInput(serializers.Serializer[Any]):
    """One imported message. An import holds up to 50,000, so a message is validated by its
    fields alone, without the steps DRF runs for every serializer that a message has no use
    for (serializer-level validators, read-only defaults, the form-input lookups): the same
    fields, limits and errors at a third of the cost."""

    class Meta:
        list_serializer_class = NonEmptyList

    role = serializers.ChoiceField(choices=["user", "assistant"])
    content = MessageTextField(
        help_text="Over MEMORYHUB_MAX_MESSAGE_CHARS characters is a 413 for the whole import."
    )
    created_at = ImportTimeField()
    speaker = StrictCharField(
        required=False, allow_blank=True, trim_whitespace=False, max_length=SPEAKER_MAX_CHARS
    )
    external_id = ExternalIdField(
        required=False,
        help_text="Unique within the import; a message already stored under it is skipped.",
    )

    @cached_property
    def _checked_fields(self) -> tuple[tuple[str, serializers.Field[Any, Any, Any, Any]], ...]:
        return tuple(self.fields.items())

    def run_validation(self, data: Any = empty) -> Any:
        is_empty, value = self.validate_empty_values(data)
        if is_empty:
            return value
        return self.to_internal_value(data)

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            message = self.error_messages["invalid"].format(datatype=type(data).__name__)
            raise serializers.ValidationError(
                {api_settings.NON_FIELD_ERRORS_KEY: [message]}, code="invalid"
            )
        validated: dict[str, Any] = {}
        errors: dict[str, Any] = {}
        for name, field in self._checked_fields:
            try:
                validated[name] = field.run_validation(data.get(name, empty))
            except serializers.ValidationError as exc:
                errors[name] = exc.detail
            except SkipField:
                pass
        if errors:
            raise serializers.ValidationError(errors)
        return validated


class ImportSessionInput(serializers.Serializer[Any]):
    class Meta:
        list_serializer_class = NonEmptyList

    started_at = ImportTimeField()
    messages = ImportMessageInput(many=True)


class ImportInput(serializers.Serializer[Any]):
    """A whole import; nothing of it is stored unless all of it is valid."""

    default_error_messages = {"invalid": "must be an object with a list of `sessions`"}

    sessions = ImportSessionInput(
        many=True,
        help_text="At most MEMORYHUB_MAX_IMPORT_MESSAGES messages (default 50000) in all; "
        "more is a 413.",
    )

    def to_internal_value(self, data: Any) -> Any:
        # Checked before the fields: the whole payload is stored as sent (extra keys too),
        # and the count bounds the work of validating it.
        raw_sessions = data.get("sessions") if isinstance(data, dict) else None
        if isinstance(raw_sessions, list):
            if places := unstorable_places(data):
                raise serializers.ValidationError(places)
            total = sum(
                len(s["messages"])
                for s in raw_sessions
                if isinstance(s, dict) and isinstance(s.get("messages"), list)
            )
            limit = settings.MEMORYHUB_MAX_IMPORT_MESSAGES
            if total > limit:
                raise serializers.ValidationError(
                    {
                        "sessions": ErrorDetail(
                            f"holds {total} messages; at most {limit} per import",
                            code="too_large",
                        )
                    }
                )
        return super().to_internal_value(data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        seen: set[str] = set()
        repeated: dict[str, str] = {}
        for i, session in enumerate(attrs["sessions"]):
            for j, message in enumerate(session["messages"]):
                external_id = message.get("external_id")
                if external_id is None:
                    continue
                if external_id in seen:
                    place = f"sessions[{i}].messages[{j}].external_id"
                    repeated[place] = "is repeated within this import"
                seen.add(external_id)
        if repeated:
            raise serializers.ValidationError(repeated)
        return attrs


class UnixTimeField(serializers.FloatField):
    """Seconds since 1970 as a JSON number (ChatGPT's `create_time`), read as a UTC time."""

    default_error_messages = {"invalid": "must be a Unix time"}

    def to_internal_value(self, data: Any) -> datetime:  # type: ignore[override]
        if isinstance(data, bool) or not isinstance(data, int | float) or not math.isfinite(data):
            self.fail("invalid")
        try:
            return datetime.fromtimestamp(data, tz=UTC)
        except (OverflowError, OSError, ValueError):
            self.fail("invalid")


class ChatGPTConversationInput(serializers.Serializer[Any]):
    """One conversation of ChatGPT's conversations.json: a tree of nodes by id (`mapping`),
    read from `current_node` up. Nodes are read leniently: one that is not a message of the
    user or the assistant with text is skipped."""

    default_error_messages = {"invalid": "must be an object with a 'mapping'"}

    create_time = UnixTimeField()
    current_node = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    mapping = serializers.DictField()


class ChatGPTExportInput(serializers.Serializer[Any]):
    conversations = ChatGPTConversationInput(
        many=True,
        error_messages={"not_a_list": "a ChatGPT export is a list of conversations"},
    )


# The export's conversations part. Times as stored (UTC), written by `isoformat()`; ids as
# strings; blank texts stay blank: the forms the export had when it was built by hand.


class TopicExportSerializer(serializers.Serializer[Topic]):
    id = serializers.CharField()
    keywords = serializers.ListField(child=serializers.CharField())
    started_at = IsoDateTimeField()
    ended_at = IsoDateTimeField(allow_null=True)
    message_count = serializers.IntegerField()


class MessageExportSerializer(serializers.Serializer[Message]):
    id = serializers.CharField()
    role = serializers.CharField()
    content = serializers.CharField()
    speaker = serializers.CharField()
    created_at = IsoDateTimeField()
    external_id = serializers.CharField(allow_null=True)
    topic_id = serializers.CharField(allow_null=True)
    # DRF takes declared fields off the class, so `context` and `source` shadow nothing.
    context = serializers.JSONField(allow_null=True)  # type: ignore[assignment]


class SessionExportSerializer(serializers.Serializer[ChatSession]):
    """A session with its topics and messages: fetch both with it (`prefetch_related`)."""

    id = serializers.CharField()
    title = serializers.CharField()
    status = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]
    started_at = IsoDateTimeField()
    ended_at = IsoDateTimeField(allow_null=True)
    summary = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    state = serializers.JSONField()
    topics = TopicExportSerializer(many=True)
    messages = MessageExportSerializer(many=True)


class TagWeightExportSerializer(serializers.Serializer[Any]):
    """One row of `tag_weights_effective` as a mapping (`tag`, `weight`, `updated_at`)."""

    tag = serializers.CharField()
    weight = RoundedFloatField(places=4)
    updated_at = IsoDateTimeField(allow_null=True)


class HistoryImportExportSerializer(serializers.Serializer[HistoryImport]):
    id = serializers.CharField()
    status = serializers.CharField()
    total = serializers.IntegerField()
    created_at = IsoDateTimeField()
