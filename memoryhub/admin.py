from django.contrib import admin
from django.db.models import QuerySet, Sum
from django.http import HttpRequest
from django.template.response import TemplateResponse

from memoryhub.models import LLMCall


@admin.register(LLMCall)
class LLMCallAdmin(admin.ModelAdmin[LLMCall]):
    list_display = [
        "created_at",
        "user",
        "task",
        "provider",
        "model",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "latency_ms",
        "ok",
    ]
    list_filter = ["task", "provider", "model", "ok", "created_at"]
    search_fields = ["user__username", "task", "model"]
    date_hierarchy = "created_at"
    readonly_fields = [f.name for f in LLMCall._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: LLMCall | None = None) -> bool:
        return False

    def changelist_view(self, request, extra_context=None):  # type: ignore[no-untyped-def]
        response = super().changelist_view(request, extra_context)
        if not isinstance(response, TemplateResponse) or not response.context_data:
            return response
        try:
            queryset: QuerySet[LLMCall] = response.context_data["cl"].queryset
        except KeyError:
            return response
        response.context_data["totals"] = queryset.aggregate(
            input_tokens=Sum("input_tokens"),
            output_tokens=Sum("output_tokens"),
            cost_usd=Sum("cost_usd"),
        )
        return response
