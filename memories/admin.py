"""Admin for memories: lineages with their (read-only) versions; logs are read-only.

Staff reading a user's memory is recorded as an AuditEvent the user can see (`staff_view`),
and so is a change (`staff_change`). The list pages show no content, so every read of content
goes through a logged change page. Quarantining and purging go through services that record
who did it; deleting from admin is a purge (a receipt for the user, copies scrubbed), never a
bare row delete. The memory admin is registered by `account.admin`, whose purge reaches the
copies in conversations.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Model, QuerySet
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from memories.models import (
    Agent,
    AgentScope,
    AuditEvent,
    DeletionReceipt,
    ExtractionRun,
    Memory,
    MemoryUse,
    MemoryVersion,
    Reader,
)
from memories.services.audit import audit_event_record
from memories.services.moderation import memory_quarantine

_ModelT = TypeVar("_ModelT", bound=Model)


def _staff_view_record(request: HttpRequest, memory_id: int | None, user_id: int | None) -> None:
    """Record that staff opened a page showing a user's memory content."""
    if memory_id is None or user_id is None or not isinstance(request.user, AbstractBaseUser):
        return
    if request.method == "GET" and request.user.is_staff:
        audit_event_record(
            user_id=user_id,
            actor=request.user,
            action=AuditEvent.Action.STAFF_VIEW,
            target_id=str(memory_id),
        )


class _StaffViewAuditedAdmin(admin.ModelAdmin[_ModelT]):
    """An admin whose change page shows a user's memory content: staff opening it is recorded
    as a `staff_view` audit event its owner sees."""

    def viewed_memory(self, obj: _ModelT) -> tuple[int, int]:
        """The (memory id, owner's user id) whose content the change page of `obj` shows."""
        raise NotImplementedError

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        if request.method == "GET":
            obj = self.get_object(request, object_id)
            # Only a page that will show: a staff member without the permission gets a 403.
            if obj is not None and self.has_view_or_change_permission(request, obj):
                _staff_view_record(request, *self.viewed_memory(obj))
        return super().change_view(request, object_id, form_url, extra_context)


class _ReadOnlyAdmin(admin.ModelAdmin[Any]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _version_fieldsets(*, first: list[str], technical: list[str]) -> list[tuple[Any, Any]]:
    """A version's fields in groups: content first, then where it came from and the rules it
    is read under, the technical fields folded last."""
    return [
        (None, {"fields": [*first, "version", "content", "type", "change_reason", "created_at"]}),
        (
            _("Provenance"),
            {
                "fields": [
                    "created_by",
                    "created_by_agent",
                    "approved_by",
                    "approved_at",
                    "source_message_id",
                    "source_session_id",
                    "source_uri",
                    "observed_at",
                ]
            },
        ),
        (
            _("Governance"),
            {
                "fields": [
                    "sensitivity",
                    "readers",
                    "policy_decision",
                    "policy_reason_shown",
                    "effective_from",
                    "expires_at",
                ]
            },
        ),
        (
            _("Technical"),
            {
                "fields": ["scope", "slot", "confidence", "importance", "supersedes", *technical],
                "classes": ["collapse"],
            },
        ),
    ]


def _field_names(fieldsets: list[tuple[Any, Any]]) -> list[str]:
    return [str(name) for _title, options in fieldsets for name in options["fields"]]


class _VersionReaders:
    @admin.display(description=_("allowed readers"))
    def readers(self, obj: MemoryVersion) -> str:
        """Who may be shown the version, in the reader's language (unknown codes as stored)."""
        return ", ".join(
            str(Reader(reader).label) if reader in Reader.values else reader
            for reader in obj.allowed_readers
        )

    @admin.display(description=_("Policy reason"))
    def policy_reason_shown(self, version: MemoryVersion) -> str:
        return version.policy_reason_text


class MemoryVersionInline(_VersionReaders, admin.StackedInline[MemoryVersion, Memory]):
    model = MemoryVersion
    fk_name = "memory"
    extra = 0
    can_delete = False
    ordering = ["-version"]
    fieldsets = _version_fieldsets(first=[], technical=[])
    readonly_fields = _field_names(fieldsets)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MemoryAdmin(_StaffViewAuditedAdmin[Memory]):
    """Lineages. Registered by `account.admin` with `purge`: a purge removes the memory's
    copies in conversations too, which this app never imports."""

    list_display = ["id", "user", "type", "status", "current_version_number", "updated_at"]
    list_filter = [
        "status",
        "type",
        ("current_version__sensitivity", admin.ChoicesFieldListFilter),
        ("current_version__created_by", admin.ChoicesFieldListFilter),
        "created_at",
        "updated_at",
    ]
    search_fields = ["=id", "user__username"]
    list_select_related = ["user", "current_version"]
    actions = ["quarantine_selected", "purge_selected"]
    # Content and its versions (the inline, placed after the first fieldset by
    # templates/admin/memories/memory/change_form.html) first; technical fields last.
    fieldsets = [
        (_("Content"), {"fields": ["current_content", "type", "current_version"]}),
        (_("Provenance"), {"fields": ["user", "source", "created_at"]}),
        (_("Governance"), {"fields": ["status", "status_reason", "wrong_count"]}),
        (
            _("Technical"),
            {
                "fields": ["slot", "access_count", "last_accessed_at", "updated_at"],
                "classes": ["collapse"],
            },
        ),
    ]
    readonly_fields = [
        "current_content",
        "source",
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

    @admin.display(description=_("version"))
    def current_version_number(self, obj: Memory) -> int | None:
        return obj.current_version.version if obj.current_version else None

    @admin.display(description=_("current text"))
    def current_content(self, obj: Memory) -> str:
        return obj.current_version.content if obj.current_version else ""

    @admin.display(description=_("source"))
    def source(self, obj: Memory) -> str:
        """Where the current version came from: who wrote it and the chat turn or URI."""
        version = obj.current_version
        if version is None:
            return ""
        parts = [version.get_created_by_display()]
        if version.source_message_id:
            parts.append(_("message %(id)s") % {"id": version.source_message_id})
        if version.source_session_id:
            parts.append(_("conversation %(id)s") % {"id": version.source_session_id})
        if version.source_uri:
            parts.append(version.source_uri)
        return " · ".join(str(part) for part in parts)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # memories are written through the write policy, not by hand

    def viewed_memory(self, obj: Memory) -> tuple[int, int]:
        return obj.pk, obj.user_id

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # a bare delete leaves no receipt: purge instead
        return actions

    @admin.action(description=_("Quarantine the selected memories"), permissions=["change"])
    def quarantine_selected(self, request: HttpRequest, queryset: QuerySet[Memory]) -> None:
        assert isinstance(request.user, AbstractBaseUser)
        count = 0
        for memory in queryset:
            if memory.status != "quarantined":
                memory_quarantine(actor=request.user, memory=memory)
                count += 1
        self.message_user(
            request,
            ngettext("%(count)d memory quarantined.", "%(count)d memories quarantined.", count)
            % {"count": count},
            messages.SUCCESS,
        )

    @admin.action(
        description=_("Purge the selected memories for good (with receipts)"),
        permissions=["delete"],
    )
    def purge_selected(
        self, request: HttpRequest, queryset: QuerySet[Memory]
    ) -> TemplateResponse | None:
        memories = list(queryset.select_related("user"))
        if request.POST.get("post") != "yes":
            return TemplateResponse(
                request,
                "admin/memories/purge_confirmation.html",
                {
                    **self.admin_site.each_context(request),
                    "title": _("Purge memories for good?"),
                    "opts": self.model._meta,
                    "memories": memories,
                    "action_checkbox_name": ACTION_CHECKBOX_NAME,
                },
            )
        self.delete_queryset(request, queryset)
        self.message_user(
            request,
            ngettext("%(count)d memory purged.", "%(count)d memories purged.", len(memories))
            % {"count": len(memories)},
            messages.SUCCESS,
        )
        return None

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[Any, Any], set[Any], list[Any]]:
        # A purge removes the versions and uses with their memory; they are read-only on
        # their own, which must not block deleting the memory.
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected

    def purge(self, *, actor: AbstractBaseUser, memory: Memory) -> None:
        """Delete `memory` for good, with every copy and a receipt for its owner."""
        raise NotImplementedError

    def delete_model(self, request: HttpRequest, obj: Memory) -> None:
        assert isinstance(request.user, AbstractBaseUser)
        self.purge(actor=request.user, memory=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Memory]) -> None:
        for memory in list(queryset):
            self.delete_model(request, memory)

    def save_model(
        self, request: HttpRequest, obj: Memory, form: ModelForm[Memory], change: bool
    ) -> None:
        if "status_reason" in form.changed_data:
            obj.status_params = {}  # the parameters were the old reason's
        super().save_model(request, obj, form, change)
        if change and isinstance(request.user, AbstractBaseUser):
            audit_event_record(
                user_id=obj.user_id,
                actor=request.user,
                action=AuditEvent.Action.STAFF_CHANGE,
                target_id=str(obj.pk),
                detail={"fields": sorted(form.changed_data)},
            )


@admin.register(MemoryVersion)
class MemoryVersionAdmin(_VersionReaders, _StaffViewAuditedAdmin[MemoryVersion], _ReadOnlyAdmin):
    """Versions on their own, read-only; the list shows no content, the page is audited."""

    list_display = ["memory", "version", "user", "type", "created_by", "sensitivity", "created_at"]
    list_filter = ["type", "created_by", "sensitivity", "policy_decision", "created_at"]
    search_fields = ["=memory__id", "user__username"]
    list_select_related = ["memory", "user"]
    # The memory page's groups, with the memory and owner first; the vector and the search
    # tokens never.
    fieldsets = _version_fieldsets(
        first=["memory", "user"],
        technical=["tags", "fingerprint", "change_params"],
    )
    readonly_fields = _field_names(fieldsets)

    def viewed_memory(self, obj: MemoryVersion) -> tuple[int, int]:
        return obj.memory_id, obj.user_id


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
    readonly_fields = ["id", "user", "kind", "memory_id", "deleted_at", "removed", "copies"]


# The kinds of record an audit event names (`AuditEvent.target_type`), in the reader's words.
_TARGET_KINDS = {
    "memory": _("memory"),
    "session": _("conversation"),
    "message": _("message"),
    "topic": _("topic"),
    "import": _("history import"),
    "tag": _("tag weight"),
    "tag_history": _("tag weight history"),
}


@admin.register(AuditEvent)
class AuditEventAdmin(_ReadOnlyAdmin):
    list_display = ["created_at", "user", "actor", "action", "target_kind", "target_id"]
    list_filter = ["action", "created_at"]
    search_fields = ["user__username", "actor__username", "=target_id"]

    @admin.display(description=_("target kind"), ordering="target_type")
    def target_kind(self, obj: AuditEvent) -> str:
        return str(_TARGET_KINDS.get(obj.target_type, obj.target_type))


@admin.register(ExtractionRun)
class ExtractionRunAdmin(_ReadOnlyAdmin):
    list_display = ["created_at", "user", "status", "provider", "attempts", "source_message_id"]
    list_filter = ["status", "provider", "created_at"]
    search_fields = ["user__username", "=source_message_id"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ExtractionRun]:
        return super().get_queryset(request).select_related("user")


@admin.register(Agent)
class AgentAdmin(_ReadOnlyAdmin):
    """Connected agents, read-only: revoking and pausing are the owner's (their agents page).
    The token's hash is not shown; its prefix tells tokens apart."""

    list_display = ["name", "user", "permissions", "trusted", "last_used_at", "revoked_at"]
    list_filter = ["trusted", "may_read_sensitive", "created_at", "last_used_at"]
    search_fields = ["user__username", "name", "token_prefix"]
    list_select_related = ["user"]
    readonly_fields = (
        "name",
        "user",
        "permissions",
        "trusted",
        "may_read_sensitive",
        "token_prefix",
        "created_at",
        "last_used_at",
        "paused_at",
        "revoked_at",
    )
    fields = readonly_fields

    @admin.display(description=_("permissions"))
    def permissions(self, obj: Agent) -> str:
        return ", ".join(str(AgentScope(scope).label) for scope in obj.scopes)
