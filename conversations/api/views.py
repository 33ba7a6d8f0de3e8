"""REST endpoints for chat sessions and messages (API.md "Chat")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations import selectors
from conversations.models import ChatSession, HistoryImport
from conversations.services import chat, imports, sessions
from memoryhub.api import Conflict, MessageTextField, PayloadTooLarge, request_user


def _iso(value: Any) -> str | None:
    return value.isoformat() if value else None


class TopicOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    keywords = serializers.ListField(child=serializers.CharField())
    message_count = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


class SessionOutput(serializers.Serializer[ChatSession]):
    id = serializers.CharField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    summary = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    topics = serializers.SerializerMethodField()

    def get_topics(self, obj: ChatSession) -> list[dict[str, Any]]:
        return [TopicOutput(t).data for t in selectors.session_topics(session=obj)]


class SessionCreateApi(APIView):
    class OutputSerializer(serializers.Serializer[ChatSession]):
        id = serializers.CharField()
        started_at = serializers.DateTimeField()
        status = serializers.CharField()

    @extend_schema(request=None, responses={201: OutputSerializer})
    def post(self, request: Request) -> Response:
        session = chat.chat_session_create(user=request_user(request))
        return Response(self.OutputSerializer(session).data, status=status.HTTP_201_CREATED)


class SessionDetailApi(APIView):
    @extend_schema(responses={200: SessionOutput})
    def get(self, request: Request, session_id: str) -> Response:
        session = selectors.chat_session_get_for_user(
            user=request_user(request), session_id=session_id
        )
        return Response(SessionOutput(session).data)


class MessageCreateApi(APIView):
    class InputSerializer(serializers.Serializer[Any]):
        content = MessageTextField()

    @extend_schema(
        request=InputSerializer,
        responses={
            201: inline_serializer(
                "MessageCreateOutput",
                {
                    "user_message": serializers.DictField(),
                    "assistant_message": serializers.DictField(),
                    "topic": serializers.DictField(),
                    "context": serializers.DictField(),
                },
            )
        },
    )
    def post(self, request: Request, session_id: str) -> Response:
        session = selectors.chat_session_get_for_user(
            user=request_user(request), session_id=session_id
        )
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            exchange = chat.chat_exchange(
                session=session, content=serializer.validated_data["content"]
            )
        except chat.SessionClosed as exc:
            raise Conflict(str(exc)) from exc
        user_message, reply = exchange.user_message, exchange.assistant_message
        body = {
            "user_message": {
                "id": str(user_message.pk),
                "content": user_message.content,
                "created_at": _iso(user_message.created_at),
            },
            "assistant_message": {
                "id": str(reply.pk),
                "content": reply.content,
                "created_at": _iso(reply.created_at),
            },
            "topic": {
                "id": exchange.topic.id,
                "shifted": exchange.topic.shifted,
                "keywords": exchange.topic.keywords,
            },
            "context": exchange.context.as_dict(),
        }
        return Response(body, status=status.HTTP_201_CREATED)


class SessionEndApi(APIView):
    @extend_schema(request=None, responses={202: SessionOutput})
    def post(self, request: Request, session_id: str) -> Response:
        session = selectors.chat_session_get_for_user(
            user=request_user(request), session_id=session_id
        )
        session = sessions.session_end(session=session)
        return Response(SessionOutput(session).data, status=status.HTTP_202_ACCEPTED)


class TagListApi(APIView):
    class OutputSerializer(serializers.Serializer[Any]):
        tag = serializers.CharField()
        weight = serializers.FloatField()
        updated_at = serializers.DateTimeField()

    @extend_schema(responses={200: OutputSerializer(many=True)})
    def get(self, request: Request) -> Response:
        rows = sessions.tag_weights_effective(user_id=request_user(request).pk)
        results = [
            {"tag": tag, "weight": round(weight, 4), "updated_at": updated_at.isoformat()}
            for tag, weight, updated_at in rows
        ]
        return Response({"results": results})


def _import_body(record: HistoryImport) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": str(record.pk),
        "status": record.status,
        "progress": {"done": record.done, "total": record.total},
        "vectors_pending": selectors.import_vectors_pending(history_import=record),
        "sessions_pending": selectors.import_sessions_pending(history_import=record),
        "session_ids": [str(pk) for pk in selectors.import_session_ids(history_import=record)],
    }
    if record.error:
        body["error"] = record.error
    return body


class ImportCreateApi(APIView):
    @extend_schema(
        request=inline_serializer(
            "ImportInput", {"sessions": serializers.ListField(child=serializers.DictField())}
        ),
        responses={202: serializers.DictField()},
    )
    def post(self, request: Request) -> Response:
        try:
            record = imports.history_import_create(user=request_user(request), payload=request.data)
        except imports.ImportInvalid as exc:
            if exc.too_large:
                raise PayloadTooLarge(str(exc)) from exc
            raise serializers.ValidationError(exc.fields) from exc
        return Response({"id": str(record.pk), "status": record.status},
                        status=status.HTTP_202_ACCEPTED)  # fmt: skip


class ImportDetailApi(APIView):
    @extend_schema(responses={200: serializers.DictField()})
    def get(self, request: Request, import_id: str) -> Response:
        record = selectors.history_import_get_for_user(
            user=request_user(request), import_id=import_id
        )
        return Response(_import_body(record))
