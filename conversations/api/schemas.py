"""Output serializers of the chat API (docs/API.md): each endpoint's body is one of these
`.data`, and `/api/schema/` (and so its clients and schemathesis) is read from the same
classes. Times the bodies always wrote with `isoformat()` keep that form (IsoDateTimeField).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from conversations import selectors
from conversations.models import HistoryImport
from memoryhub.api import IsoDateTimeField, RoundedFloatField


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
    created_at = IsoDateTimeField()


class ExchangeTopicOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    shifted = serializers.BooleanField()
    keywords = serializers.ListField(child=serializers.CharField())


class MessageCreateOutput(serializers.Serializer[Any]):
    """A chat turn (`chat.Exchange`)."""

    user_message = ChatMessageOutput()
    assistant_message = ChatMessageOutput()
    topic = ExchangeTopicOutput()

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # Added here: a field declared as `context` would shadow the serializer's own
        # `context` attribute in the class body.
        fields = super().get_fields()
        fields["context"] = ContextOutput()
        return fields


class ImportCreateOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    status = serializers.CharField()


class ImportProgressOutput(serializers.Serializer[Any]):
    done = serializers.IntegerField()
    total = serializers.IntegerField()


class ImportDetailOutput(ImportCreateOutput):
    progress = ImportProgressOutput(source="*")
    vectors_pending = serializers.SerializerMethodField()
    sessions_pending = serializers.SerializerMethodField()
    session_ids = serializers.SerializerMethodField()
    error = serializers.CharField(
        required=False,
        help_text="Why the import failed: payload_invalid, worker_error or worker_lost.",
    )
    error_message = serializers.CharField(
        required=False, help_text="The failure in the request's language."
    )

    def get_vectors_pending(self, record: HistoryImport) -> int:
        return selectors.import_vectors_pending(history_import=record)

    def get_sessions_pending(self, record: HistoryImport) -> int:
        return selectors.import_sessions_pending(history_import=record)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_session_ids(self, record: HistoryImport) -> list[str]:
        return [str(pk) for pk in selectors.import_session_ids(history_import=record)]

    def to_representation(self, instance: HistoryImport) -> dict[str, Any]:
        body: dict[str, Any] = super().to_representation(instance)
        if not instance.error:  # present only for a failed import
            del body["error"], body["error_message"]
        return body


class SearchHitOutput(serializers.Serializer[Any]):
    kind = serializers.CharField()
    id = serializers.CharField()
    score = RoundedFloatField(places=6)
    text = serializers.CharField()
    session_id = serializers.CharField(allow_null=True)
    created_at = serializers.CharField(allow_null=True)
    external_id = serializers.CharField(allow_null=True)


class SearchOutput(serializers.Serializer[Any]):
    results = SearchHitOutput(many=True)
    took_ms = serializers.IntegerField()


class TagOutput(serializers.Serializer[Any]):
    tag = serializers.CharField()
    weight = RoundedFloatField(places=4)
    updated_at = IsoDateTimeField()


class TagListOutput(serializers.Serializer[Any]):
    results = TagOutput(many=True)
