"""REST endpoints for memories (docs/API.md "Memories"): one APIView per operation.

Where two operations share a URL (list and create, read/update/delete) the URL's view class
combines the per-operation classes; each keeps its own input and output serializers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memories.logic.write_policy import CandidateKind, Origin
from memories.models import Memory, MemoryStatus, MemoryType, Reader, Sensitivity, WrittenVia
from memories.reasons import ChangeReason
from memories.selectors import (
    audit_events_for_user,
    deletion_receipts_for_user,
    memory_get_for_user,
    memory_list_for_user,
    memory_versions,
)
from memories.selectors.agents import agent_names_for_user
from memories.serializers import (
    AccessLogEventSerializer,
    DeletionReceiptSerializer,
    MemorySerializer,
    MemoryVersionSerializer,
    memory_versions_data,
    serialize_many,
)
from memories.services import feedback, revision
from memories.services.revision import UNSET, InvalidTransition, MemoryChanges, MemoryRefused
from memoryhub.api import Conflict, MessageTextField, request_user

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
# Far past any real list; bounds the row offset (a huge page number was a database error).
MAX_PAGE = 100_000
_READERS = [Reader.ASSISTANT.value, Reader.AGENT.value, "*"]


def _memory_response(
    user: AbstractBaseUser, memory: Memory, code: int = status.HTTP_200_OK
) -> Response:
    fresh = memory_get_for_user(user=user, memory_id=memory.pk)
    return Response(MemorySerializer(fresh).data, status=code)


def _refusal(exc: MemoryRefused) -> serializers.ValidationError:
    result = exc.result
    if result.kind is CandidateKind.SECRET:
        message = "The content holds a password, token or key; secrets are never stored."
    else:
        message = f"Not stored: {result.reason}."
    return serializers.ValidationError({"content": [message]})


class _MemoryFields(serializers.Serializer[Any]):
    """Fields a user may set when writing a memory."""

    type = serializers.ChoiceField(choices=MemoryType.choices)
    content = MessageTextField()
    expires_at = serializers.DateTimeField(required=False, allow_null=True)
    sensitivity = serializers.ChoiceField(choices=Sensitivity.choices, required=False)
    scope = serializers.RegexField(r"^[\w.:\-]{1,100}$", required=False)
    importance = serializers.FloatField(required=False, min_value=0.0, max_value=1.0)
    effective_from = serializers.DateTimeField(required=False, allow_null=True)
    allowed_readers = serializers.ListField(
        child=serializers.ChoiceField(choices=_READERS), required=False, max_length=10
    )


class MemoryListApi(APIView):
    class FilterSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MemoryListFilter"

        status = serializers.ChoiceField(choices=MemoryStatus.choices, required=False)
        type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
        q = serializers.CharField(required=False, allow_blank=True, max_length=500)
        page = serializers.IntegerField(required=False, min_value=1, max_value=MAX_PAGE, default=1)
        page_size = serializers.IntegerField(
            required=False, min_value=1, max_value=MAX_PAGE_SIZE, default=PAGE_SIZE
        )

    @extend_schema(
        operation_id="memories_list",
        parameters=[FilterSerializer],
        responses={
            200: inline_serializer(
                "MemoryList",
                {
                    "results": MemorySerializer(many=True),
                    "next": serializers.URLField(allow_null=True),
                },
            )
        },
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        data = filters.validated_data
        page, size = data["page"], data["page_size"]
        memories = memory_list_for_user(
            user=request_user(request),
            status=data.get("status"),
            type=data.get("type"),
            q=data.get("q"),
        )
        rows = list(memories[(page - 1) * size : page * size + 1])
        next_url = None
        if len(rows) > size:
            params = request.query_params.copy()
            params["page"] = str(page + 1)
            next_url = request.build_absolute_uri(f"{request.path}?{params.urlencode()}")
        results = serialize_many(MemorySerializer, rows[:size])
        return Response({"results": results, "next": next_url})


class MemoryCreateApi(APIView):
    class InputSerializer(_MemoryFields):
        class Meta:
            ref_name = "MemoryCreateInput"

    @extend_schema(request=InputSerializer, responses={201: MemorySerializer})
    def post(self, request: Request) -> Response:
        user = request_user(request)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        readers = data.get("allowed_readers")
        try:
            memory = revision.memory_create(
                user=user,
                type=data["type"],
                content=data["content"],
                expires_at=data.get("expires_at"),
                sensitivity=data.get("sensitivity", Sensitivity.NORMAL),
                scope=data.get("scope", "user"),
                importance=data.get("importance", 0.5),
                effective_from=data.get("effective_from"),
                allowed_readers=tuple(readers) if readers is not None else None,
                via=WrittenVia.API,
            )
        except MemoryRefused as exc:
            raise _refusal(exc) from exc
        return _memory_response(user, memory, status.HTTP_201_CREATED)


class MemoryCollectionApi(MemoryListApi, MemoryCreateApi):
    """`/memories/`: GET lists (MemoryListApi), POST creates (MemoryCreateApi)."""


class MemoryDetailApi(APIView):
    @extend_schema(operation_id="memories_read", responses={200: MemorySerializer})
    def get(self, request: Request, memory_id: str) -> Response:
        memory = memory_get_for_user(user=request_user(request), memory_id=memory_id)
        return Response(MemorySerializer(memory).data)


class MemoryUpdateApi(APIView):
    class InputSerializer(_MemoryFields):
        class Meta:
            ref_name = "MemoryUpdateInput"

        type = serializers.ChoiceField(choices=MemoryType.choices, required=False)
        content = MessageTextField(required=False)

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if not attrs:
                raise serializers.ValidationError("Nothing to change.")
            return attrs

    @extend_schema(request=InputSerializer, responses={200: MemorySerializer})
    def patch(self, request: Request, memory_id: str) -> Response:
        user = request_user(request)
        memory = memory_get_for_user(user=user, memory_id=memory_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        readers = data.get("allowed_readers")
        try:
            memory = revision.memory_revise(
                memory=memory,
                changes=MemoryChanges(
                    content=data.get("content", UNSET),
                    type=data.get("type", UNSET),
                    expires_at=data.get("expires_at", UNSET),
                    sensitivity=data.get("sensitivity", UNSET),
                    importance=data.get("importance", UNSET),
                    scope=data.get("scope", UNSET),
                    effective_from=data.get("effective_from", UNSET),
                    allowed_readers=tuple(readers) if readers is not None else UNSET,
                ),
                origin=Origin.USER,
                change_reason=ChangeReason.EDITED_BY_USER,
                change_params={"via": WrittenVia.API},
            )
        except MemoryRefused as exc:
            raise _refusal(exc) from exc
        return _memory_response(user, memory)


class MemoryItemApi(MemoryDetailApi, MemoryUpdateApi):
    """`/memories/{id}/`: GET reads, PATCH adds a version. DELETE, which reaches
    conversations, is added by `account.api.memories.MemoryItemApi`, the view on that URL."""


class MemoryVersionListApi(APIView):
    @extend_schema(
        responses={
            200: inline_serializer(
                "MemoryVersions", {"results": MemoryVersionSerializer(many=True)}
            )
        }
    )
    def get(self, request: Request, memory_id: str) -> Response:
        memory = memory_get_for_user(user=request_user(request), memory_id=memory_id)
        versions = memory_versions(memory=memory)
        return Response({"results": memory_versions_data(memory=memory, versions=versions)})


def _transition(request: Request, memory_id: str, change: Callable[..., Memory]) -> Response:
    """Approve, reject or undo a dispute: 409 when the memory's status does not allow it."""
    user = request_user(request)
    memory = memory_get_for_user(user=user, memory_id=memory_id)
    try:
        memory = change(user=user, memory=memory)
    except InvalidTransition as exc:
        raise Conflict(str(exc)) from exc
    return _memory_response(user, memory)


class MemoryApproveApi(APIView):
    @extend_schema(request=None, responses={200: MemorySerializer})
    def post(self, request: Request, memory_id: str) -> Response:
        return _transition(request, memory_id, revision.memory_approve)


class MemoryRejectApi(APIView):
    @extend_schema(request=None, responses={200: MemorySerializer})
    def post(self, request: Request, memory_id: str) -> Response:
        return _transition(request, memory_id, revision.memory_reject)


class MemoryMarkWrongApi(APIView):
    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MemoryMarkWrongInput"

        message_id = serializers.IntegerField(required=False, allow_null=True, min_value=1)

    @extend_schema(request=InputSerializer, responses={200: MemorySerializer})
    def post(self, request: Request, memory_id: str) -> Response:
        user = request_user(request)
        memory = memory_get_for_user(user=user, memory_id=memory_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            memory = feedback.memory_mark_wrong(
                user=user, memory=memory, message_id=serializer.validated_data.get("message_id")
            )
        except InvalidTransition as exc:
            raise Conflict(str(exc)) from exc
        return _memory_response(user, memory)


class MemoryMarkWrongUndoApi(APIView):
    @extend_schema(request=None, responses={200: MemorySerializer})
    def post(self, request: Request, memory_id: str) -> Response:
        return _transition(request, memory_id, feedback.memory_mark_wrong_undo)


class ReceiptListApi(APIView):
    @extend_schema(
        responses={
            200: inline_serializer("ReceiptList", {"results": DeletionReceiptSerializer(many=True)})
        }
    )
    def get(self, request: Request) -> Response:
        receipts = deletion_receipts_for_user(user=request_user(request))[:500]
        return Response({"results": serialize_many(DeletionReceiptSerializer, receipts)})


class AuditEventListApi(APIView):
    @extend_schema(
        responses={
            200: inline_serializer(
                "AuditEventList", {"results": AccessLogEventSerializer(many=True)}
            )
        }
    )
    def get(self, request: Request) -> Response:
        """Agent calls and what an agent deleted also name the agent: `"agent": {"id",
        "name"}` (null on other events)."""
        user = request_user(request)
        events = list(audit_events_for_user(user=user)[:500])
        names = agent_names_for_user(user=user, ids=[e.detail.get("agent_id") for e in events])
        context = {"agent_names": names}
        results = serialize_many(AccessLogEventSerializer, events, context=context)
        return Response({"results": results})
