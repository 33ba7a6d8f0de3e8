"""Admin for memories: lineages with their (read-only) versions; logs are read-only.

Staff reading a user's memory is recorded as an AuditEvent the user can see (`staff_view`),
and so is a change (`staff_change`). The list pages show no content, so every read of content
goes through a logged change page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse

from memories.models import (
    AuditEvent,
    DeletionReceipt,
    ExtractionRun,
    Memory,
    MemoryUse,
    MemoryVersion,
)
from memories.services.audit import audit_event_record


class _ReadOnlyAdmin(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MemoryVersionInline(admin.StackedInline[MemoryVersion, Memory]):
    model = MemoryVersion
    fk_name = "memory"
    extra = 0
    can_delete = False
    ordering = ["-version"]
    fields = [
        "version",
        "type",
        "content",
        "scope",
        "slot",
        "confidence",
        "importance",
        "sensitivity",
        "observed_at",
        "effective_from",
        "expires_at",
        "supersedes",
        "created_by",
        "approved_by",
        "approved_at",
        "allowed_readers",
        "source_message_id",
        "source_session_id",
        "source_uri",
        "policy_decision",
        "policy_reason",
        "change_reason",
        "created_at",
    ]
    readonly_fields = [str(name) for name in fields]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Memory)
class MemoryAdmin(admin.ModelAdmin[Memory]):
    list_display = ["id", "user", "type", "status", "current_version_number", "updated_at"]
    list_filter = ["status", "type", "updated_at"]
    search_fields = ["=id", "user__username"]
    list_select_related = ["user", "current_version"]
    fields = [
        "user",
        "type",
        "slot",
        "status",
        "status_reason",
        "current_version",
        "access_count",
        "last_accessed_at",
        "wrong_count",
        "created_at",
        "updated_at",
    ]
    readonly_fields = [
        "user",
        "type",
        "slot",
        "current_version",
        "access_count",
        "last_accessed_at",
        "wrong_count",
        "created_at",
        "updated_at",
    ]
    inlines = [MemoryVersionInline]

    @admin.display(description="version")
    def current_version_number(self, obj: Memory) -> int | None:
        return obj.current_version.version if obj.current_version else None

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # memories are written through the write policy, not by hand

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if request.method == "GET" and request.user.is_staff:
            memory = self.get_object(request, object_id)
            if memory is not None:
                audit_event_record(
                    user_id=memory.user_id,
                    actor=request.user,
                    action=AuditEvent.Action.STAFF_VIEW,
                    target_id=str(memory.pk),
                )
        return super().change_view(request, object_id, form_url, extra_context)

    def save_model(
        self, request: HttpRequest, obj: Memory, form: ModelForm[Memory], change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        if change and isinstance(request.user, AbstractBaseUser):
            audit_event_record(
                user_id=obj.user_id,
                actor=request.user,
                action=AuditEvent.Action.STAFF_CHANGE,
                target_id=str(obj.pk),
                detail={"fields": sorted(form.changed_data)},
            )


@admin.register(MemoryUse)
class MemoryUseAdmin(_ReadOnlyAdmin):
    list_display = ["used_at", "user", "memory", "version", "message_id", "rank", "score"]
    list_filter = ["used_at"]
    search_fields = ["user__username", "=message_id", "=memory__id"]


@admin.register(DeletionReceipt)
class DeletionReceiptAdmin(_ReadOnlyAdmin):
    list_display = ["id", "user", "kind", "memory_id", "deleted_at"]
    list_filter = ["kind", "deleted_at"]
    search_fields = ["user__username", "=memory_id"]
    readonly_fields = ["id", "user", "kind", "memory_id", "deleted_at", "removed"]


@admin.register(AuditEvent)
class AuditEventAdmin(_ReadOnlyAdmin):
    list_display = ["created_at", "user", "actor", "action", "target_type", "target_id"]
    list_filter = ["action", "created_at"]
    search_fields = ["user__username", "actor__username", "=target_id"]


@admin.register(ExtractionRun)
class ExtractionRunAdmin(_ReadOnlyAdmin):
    list_display = ["created_at", "user", "status", "provider", "attempts", "source_message_id"]
    list_filter = ["status", "provider", "created_at"]
    search_fields = ["user__username", "=source_message_id"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ExtractionRun]:
        return super().get_queryset(request).select_related("user")
