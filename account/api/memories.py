"""`/memories/{id}/` (docs/API.md "Memories"): memories' read and edit, and the delete.

Deleting a memory removes its copies in conversations too
(`conversations.services.forgetting.memory_forget`), which memories never imports; so the
view on this URL is memories' item view with DELETE added here.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations.services.forgetting import memory_forget
from memories.api import views as memory_api
from memories.selectors import memory_get_for_user
from memories.serializers import DeletionReceiptSerializer
from memoryhub.api import request_user


class MemoryDeleteApi(APIView):
    class OutputSerializer(serializers.Serializer[Any]):
        class Meta:
            ref_name = "MemoryDeleteOutput"

        receipt = DeletionReceiptSerializer()

    @extend_schema(responses={200: OutputSerializer})
    def delete(self, request: Request, memory_id: str) -> Response:
        user = request_user(request)
        memory = memory_get_for_user(user=user, memory_id=memory_id)
        receipt = memory_forget(user=user, memory=memory)
        return Response(self.OutputSerializer({"receipt": receipt}).data)


class MemoryItemApi(memory_api.MemoryItemApi, MemoryDeleteApi):
    """`/memories/{id}/`: GET reads, PATCH adds a version, DELETE deletes with a receipt."""
