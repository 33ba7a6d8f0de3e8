"""OpenAPI shapes of the chat API's responses that the views build as plain dicts (docs/API.md).

They serialize nothing: they only tell `/api/schema/` (and so its clients and schemathesis)
what the endpoints return.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers


class RecalledMessageOutput(serializers.Serializer[Any]):
    role = serializers.CharField()
    content = serializers.CharField()
    created_at = serializers.CharField()


class SessionRecallOutput(serializers.Serializer[Any]):
    session_id = serializers.CharField()
    summary = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    started_at = serializers.CharField()


class TopicRecallOutput(serializers.Serializer[Any]):
    topic_id = serializers.CharField()
    keywords = serializers.ListField(child=serializers.CharField())
    messages = RecalledMessageOutput(many=True)


class ContextMemoryOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    version = serializers.IntegerField()
    type = serializers.CharField()
    content = serializers.CharField()
    score = serializers.FloatField()


class ContextOutput(serializers.Serializer[Any]):
    session_recall = SessionRecallOutput(many=True)
    topic_recall = TopicRecallOutput(many=True)
    memories = ContextMemoryOutput(many=True)
    tokens = serializers.IntegerField()


class ContextPreviewOutput(ContextOutput):
    took_ms = serializers.IntegerField()


class ChatMessageOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    content = serializers.CharField()
    created_at = serializers.DateTimeField()


class ExchangeTopicOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    shifted = serializers.BooleanField()
    keywords = serializers.ListField(child=serializers.CharField())


# Inline: a field named `context` cannot be declared on a Serializer class (its attribute).
MessageCreateOutput = inline_serializer(
    "MessageCreateOutput",
    {
        "user_message": ChatMessageOutput(),
        "assistant_message": ChatMessageOutput(),
        "topic": ExchangeTopicOutput(),
        "context": ContextOutput(),
    },
)


class ImportCreateOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    status = serializers.CharField()


class ImportProgressOutput(serializers.Serializer[Any]):
    done = serializers.IntegerField()
    total = serializers.IntegerField()


class ImportDetailOutput(ImportCreateOutput):
    progress = ImportProgressOutput()
    vectors_pending = serializers.IntegerField()
    sessions_pending = serializers.IntegerField()
    session_ids = serializers.ListField(child=serializers.CharField())
    error = serializers.CharField(
        required=False,
        help_text="Why the import failed: payload_invalid, worker_error or worker_lost.",
    )
    error_message = serializers.CharField(
        required=False, help_text="The failure in the request's language."
    )


class SearchHitOutput(serializers.Serializer[Any]):
    kind = serializers.CharField()
    id = serializers.CharField()
    score = serializers.FloatField()
    text = serializers.CharField()
    session_id = serializers.CharField(allow_null=True)
    created_at = serializers.CharField(allow_null=True)
    external_id = serializers.CharField(allow_null=True)


class SearchOutput(serializers.Serializer[Any]):
    results = SearchHitOutput(many=True)
    took_ms = serializers.IntegerField()


class TagOutput(serializers.Serializer[Any]):
    tag = serializers.CharField()
    weight = serializers.FloatField()
    updated_at = serializers.DateTimeField()


class TagListOutput(serializers.Serializer[Any]):
    results = TagOutput(many=True)
