"""REST endpoints for all of the user's data (docs/API.md "Your data"): export and erase."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from account.selectors import user_data_export
from account.services import user_data_erase
from memoryhub.api import request_user


class ErasureReceiptOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    memory_id = serializers.CharField(allow_null=True)
    kind = serializers.CharField()
    deleted_at = serializers.DateTimeField()
    removed = serializers.DictField(child=serializers.IntegerField())


class MyDataEraseOutput(serializers.Serializer[Any]):
    receipt = ErasureReceiptOutput()


class ExportApi(APIView):
    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> Response:
        response = Response(user_data_export(user=request_user(request)))
        response["Content-Disposition"] = 'attachment; filename="memoryhub-export.json"'
        return response


class MyDataApi(APIView):
    @extend_schema(responses={200: MyDataEraseOutput})
    def delete(self, request: Request) -> Response:
        receipt = user_data_erase(user=request_user(request))
        return Response(
            {
                "receipt": {
                    "id": str(receipt.id),
                    "memory_id": None,
                    "kind": receipt.kind,
                    "deleted_at": receipt.deleted_at.isoformat(),
                    "removed": receipt.removed,
                }
            }
        )
