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
from memories.models import DeletionReceipt
from memoryhub.api import IsoDateTimeField, request_user


class ErasureReceiptOutput(serializers.Serializer[DeletionReceipt]):
    id = serializers.CharField()
    memory_id = serializers.SerializerMethodField()
    kind = serializers.CharField()
    deleted_at = IsoDateTimeField()
    removed = serializers.DictField(child=serializers.IntegerField())

    def get_memory_id(self, receipt: DeletionReceipt) -> str | None:
        return receipt.memory_id or None  # an erasure of everything names no memory


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
        return Response(MyDataEraseOutput({"receipt": receipt}).data)
