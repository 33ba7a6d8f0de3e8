"""REST endpoints for chat sessions and messages (docs/API.md "Chat")."""

from __future__ import annotations

import time
from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations import search, selectors
from conversations.api import schemas
from conversations.models import ChatSession
from conversations.serializers import ImportInput
from conversations.services import chat, deletion, imports, sessions, tag_weights
from conversations.services import context as context_service
from memories.models import Reader
from memories.services.intake import text_intake
from memoryhub.api import Conflict, MessageTextField, PayloadTooLarge, request_user


class TopicOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    keywords = serializers.ListField(child=serializers.CharField())
    message_count = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


class MemoryUpdateOutput(serializers.Serializer[selectors.MemoryUpdate]):
    """What one of the session's turns made of one memory, while that still stands."""

    memory_id = serializers.CharField()
    action = serializers.ChoiceField(choices=["created", "updated", "pending"])
    message_id = serializers.CharField()
    content = serializers.CharField(help_text="The memory's current content (redacted).")


class SessionOutput(serializers.Serializer[ChatSession]):
    id = serializers.CharField()
    status = serializers.CharField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    summary = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    topics = serializers.SerializerMethodField()
    memory_updates = serializers.SerializerMethodField(
        help_text="What the session's user messages made of memory, in message order. A "
        "memory counts for the message its current version came from, while it is active "
        "(`created` when its first version came from that message too, else `updated`) or "
        "waits for approval (`pending`). A memory deleted, rejected, undone, or changed since "
        "by another message is left out."
    )

    def get_topics(self, obj: ChatSession) -> list[dict[str, Any]]:
        return [TopicOutput(t).data for t in selectors.session_topics(session=obj)]

    @extend_schema_field(MemoryUpdateOutput(many=True))
    def get_memory_updates(self, obj: ChatSession) -> list[dict[str, Any]]:
        return [MemoryUpdateOutput(u).data for u in selectors.session_memory_updates(session=obj)]


class SessionCreateApi(APIView):
    class OutputSerializer(serializers.Serializer[ChatSession]):
        class Meta:
            ref_name = "SessionCreateOutput"

        id = serializers.CharField()
        started_at = serializers.DateTimeField()
        status = serializers.CharField()

    class InputSerializer(serializers.Serializer[Any]):
        """No fields yet; the body is empty or a JSON object, anything else is a 400."""

        class Meta:
            ref_name = "SessionCreateInput"

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request) -> Response:
        # Reading the body is what refuses one that is not JSON (400) or not sent as JSON (415).
        self.InputSerializer(data=request.data).is_valid(raise_exception=True)
        session = chat.chat_session_create(user=request_user(request))
        return Response(self.OutputSerializer(session).data, status=status.HTTP_201_CREATED)


class ChatDeletionReceiptOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    kind = serializers.CharField()
    deleted_at = serializers.DateTimeField()
    removed = serializers.DictField(child=serializers.IntegerField())


class ChatDeletionOutput(serializers.Serializer[Any]):
    receipt = ChatDeletionReceiptOutput()


def _deletion_body(receipt: Any) -> dict[str, Any]:
    return ChatDeletionOutput({"receipt": receipt}).data


class SessionDetailApi(APIView):
    @extend_schema(responses={200: SessionOutput})
    def get(self, request: Request, session_id: str) -> Response:
        session = selectors.chat_session_get_for_user(
            user=request_user(request), session_id=session_id
        )
        return Response(SessionOutput(session).data)

    @extend_schema(
        request=None,
        responses={200: ChatDeletionOutput},
        description="Delete the session, its messages and topics, and every copy of their "
        "text (summaries, tags, search indexes, other replies' recall, the cache). Memories "
        "extracted from it stay. Returns a receipt with counts and no content.",
    )
    def delete(self, request: Request, session_id: str) -> Response:
        user = request_user(request)
        session = selectors.chat_session_get_for_user(user=user, session_id=session_id)
        receipt = deletion.chat_session_delete(user=user, session=session)
        return Response(_deletion_body(receipt))


class MessageDetailApi(APIView):
    @extend_schema(
        request=None,
        responses={200: ChatDeletionOutput},
        description="Delete a message; a user message takes the reply to it along. The "
        "session's title, summary, tags and topics are derived again from what is left.",
    )
    def delete(self, request: Request, message_id: str) -> Response:
        user = request_user(request)
        message = selectors.message_get_for_user(user=user, message_id=message_id)
        receipt = deletion.message_delete(user=user, message=message)
        return Response(_deletion_body(receipt))


class MessageCreateApi(APIView):
    throttle_scope = "chat"

    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MessageCreateInput"

        content = MessageTextField()

    @extend_schema(request=InputSerializer, responses={201: schemas.MessageCreateOutput})
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
        return Response(schemas.MessageCreateOutput(exchange).data, status=status.HTTP_201_CREATED)


class SessionEndApi(APIView):
    @extend_schema(request=None, responses={202: SessionOutput})
    def post(self, request: Request, session_id: str) -> Response:
        session = selectors.chat_session_get_for_user(
            user=request_user(request), session_id=session_id
        )
        session = sessions.session_end(session=session)
        return Response(SessionOutput(session).data, status=status.HTTP_202_ACCEPTED)


class TagListApi(APIView):
    @extend_schema(responses={200: schemas.TagListOutput})
    def get(self, request: Request) -> Response:
        rows = tag_weights.tag_weights_effective(user_id=request_user(request).pk)
        results = [
            {"tag": tag, "weight": weight, "updated_at": updated_at}
            for tag, weight, updated_at in rows
        ]
        return Response(schemas.TagListOutput({"results": results}).data)


class ImportCreateApi(APIView):
    throttle_scope = "import"

    @extend_schema(request=ImportInput, responses={202: schemas.ImportCreateOutput})
    def post(self, request: Request) -> Response:
        try:
            record = imports.history_import_create(user=request_user(request), payload=request.data)
        except imports.ImportInvalid as exc:
            if exc.too_large:
                raise PayloadTooLarge(str(exc)) from exc
            raise serializers.ValidationError(exc.fields) from exc
        return Response(schemas.ImportCreateOutput(record).data, status=status.HTTP_202_ACCEPTED)


class ImportDetailApi(APIView):
    @extend_schema(responses={200: schemas.ImportDetailOutput})
    def get(self, request: Request, import_id: str) -> Response:
        record = selectors.history_import_get_for_user(
            user=request_user(request), import_id=import_id
        )
        return Response(schemas.ImportDetailOutput(record).data)


def request_reader(request: Request) -> str:
    """Who memories retrieved for this request are put in front of (`allowed_readers`).

    Every REST caller is an agent (docs/API.md "Retrieval for any agent"): the user's own key is
    typically held by a script or another assistant, so a memory kept from agents (a `high`
    sensitivity one, say) stays out of search and context here while the user's own pages
    still show it. Per-agent tokens will name their agent here.
    """
    return Reader.AGENT


class SearchApi(APIView):
    throttle_scope = "search"

    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "SearchInput"

        query = serializers.CharField(max_length=2000, trim_whitespace=True)
        k = serializers.IntegerField(min_value=1, max_value=100, default=10)
        kinds = serializers.ListField(
            child=serializers.ChoiceField(choices=search.KINDS),
            required=False,
            allow_empty=False,
            max_length=4,
        )

    @extend_schema(request=InputSerializer, responses={200: schemas.SearchOutput})
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        hits, took_ms = search.search(
            user_id=request_user(request).pk,
            query=data["query"],
            k=data["k"],
            kinds=tuple(data.get("kinds") or search.KINDS),
            reader=request_reader(request),
        )
        return Response(schemas.SearchOutput({"results": hits, "took_ms": took_ms}).data)


class ContextApi(APIView):
    throttle_scope = "search"

    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "ContextInput"

        message = MessageTextField()
        session_id = serializers.CharField(required=False, allow_null=True, max_length=40)

    @extend_schema(request=InputSerializer, responses={200: schemas.ContextPreviewOutput})
    def post(self, request: Request) -> Response:
        started = time.monotonic()
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request_user(request)
        session = None
        if serializer.validated_data.get("session_id"):
            session = selectors.chat_session_get_for_user(
                user=user, session_id=serializer.validated_data["session_id"]
            )
        context = context_service.context_preview(
            user=user,
            content=text_intake(serializer.validated_data["message"]).text,
            session=session,
            reader=request_reader(request),
        )
        took_ms = int((time.monotonic() - started) * 1000)
        return Response(schemas.ContextPreviewOutput({**vars(context), "took_ms": took_ms}).data)
