"""REST endpoints for connected agents (docs/API.md "Agents (MCP)"): create (the token once), list,
change (pause, trust, sensitive reads), revoke.

They authenticate the user (their API key or session), never an agent: an agent's token is
no DRF credential, so it cannot create or free agents.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memories.models import Agent, AgentScope
from memories.selectors.agents import agent_get_for_user, agents_of
from memories.serializers import AgentSerializer, serialize_many
from memories.services.agents import (
    MAX_NAME_CHARS,
    AgentError,
    agent_create,
    agent_pause,
    agent_revoke,
    agent_update,
)
from memoryhub.api import Conflict, IsoDateTimeField, request_user


def _agent_of(request: Request, agent_id: str) -> Agent:
    agent = agent_get_for_user(user=request_user(request), agent_id=agent_id)
    if agent is None:
        raise Http404("No such agent.")
    return agent


def _invalid(exc: AgentError) -> serializers.ValidationError:
    return serializers.ValidationError({exc.field or "non_field_errors": [exc.message]})


class AgentListApi(APIView):
    @extend_schema(
        operation_id="agents_list",
        responses={200: inline_serializer("AgentList", {"results": AgentSerializer(many=True)})},
    )
    def get(self, request: Request) -> Response:
        agents = agents_of(user=request_user(request))[:500]
        return Response({"results": serialize_many(AgentSerializer, agents)})


class AgentCreateApi(APIView):
    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "AgentCreateInput"

        name = serializers.CharField(max_length=MAX_NAME_CHARS)
        scopes = serializers.ListField(
            child=serializers.ChoiceField(choices=AgentScope.choices), max_length=2
        )

    class OutputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "AgentCreateOutput"

        id = serializers.CharField()
        name = serializers.CharField()
        scopes = serializers.ListField(child=serializers.CharField())
        token = serializers.SerializerMethodField(
            help_text="Shown this once; only its hash is stored."
        )
        created_at = IsoDateTimeField(local=True)

        def get_token(self, agent: Agent) -> str:
            token: str = self.context["token"]
            return token

    @extend_schema(request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            agent, token = agent_create(
                user=request_user(request), name=data["name"], scopes=data["scopes"]
            )
        except AgentError as exc:
            raise _invalid(exc) from exc
        body = self.OutputSerializer(agent, context={"token": token}).data
        return Response(body, status=status.HTTP_201_CREATED)


class AgentCollectionApi(AgentListApi, AgentCreateApi):
    """`/agents/`: GET lists (AgentListApi), POST creates (AgentCreateApi)."""


class AgentDetailApi(APIView):
    @extend_schema(operation_id="agents_read", responses={200: AgentSerializer})
    def get(self, request: Request, agent_id: str) -> Response:
        return Response(AgentSerializer(_agent_of(request, agent_id)).data)


class AgentUpdateApi(APIView):
    class InputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "AgentUpdateInput"

        paused = serializers.BooleanField(required=False)
        trusted = serializers.BooleanField(required=False)
        may_read_sensitive = serializers.BooleanField(required=False)

        def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
            if not attrs:
                raise serializers.ValidationError(
                    "Nothing to change: give paused, trusted or may_read_sensitive."
                )
            return attrs

    @extend_schema(request=InputSerializer, responses={200: AgentSerializer})
    def patch(self, request: Request, agent_id: str) -> Response:
        agent = _agent_of(request, agent_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if agent.revoked_at is not None:
            raise Conflict("A revoked agent cannot be changed; create a new one.")
        if "paused" in data:
            agent_pause(agent=agent, paused=data["paused"])
        agent_update(
            agent=agent,
            trusted=data.get("trusted"),
            may_read_sensitive=data.get("may_read_sensitive"),
        )
        return Response(AgentSerializer(agent).data)


class AgentRevokeApi(APIView):
    @extend_schema(responses={200: AgentSerializer})
    def delete(self, request: Request, agent_id: str) -> Response:
        agent = agent_revoke(agent=_agent_of(request, agent_id))
        return Response(AgentSerializer(agent).data)


class AgentItemApi(AgentDetailApi, AgentUpdateApi, AgentRevokeApi):
    """`/agents/{id}/`: GET reads, PATCH pauses/trusts, DELETE revokes at once."""
