"""How the core's own records are shown in the API: the LLM calls of the export's
`llm_usage` (docs/API.md `GET /export/`)."""

from __future__ import annotations

from rest_framework import serializers

from memoryhub.api import IsoDateTimeField
from memoryhub.models import LLMCall


class LLMCallExportSerializer(serializers.Serializer[LLMCall]):
    task = serializers.CharField()
    model = serializers.CharField()
    input_tokens = serializers.IntegerField()
    output_tokens = serializers.IntegerField()
    cost_usd = serializers.CharField(help_text='The stored decimal as text ("0.001250").')
    created_at = IsoDateTimeField()
