"""Staff views of conversations. Message text is shown read-only; vectors never.

Every page here shows a user's chats, so staff reading one is recorded as a `staff_view` audit
event its user sees in their access log, with the kind of record as its `target_type`
(`message`, `session`, `topic`, `import`, `tag`, `tag_history`):
- a change page (and an object's history or delete page): one event for the object's user,
  `target_id` the object's id;
- a list page, searched or not: one event per user with rows on the page shown, `target_id`
  empty, `detail` `{"listed": n, "ids": [...], "searched": bool}`. The search term itself is
  not kept: it is often a phrase from someone's chat, and an audit trail must not hold copies
  of content its owner may delete.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.contrib import admin
from django.contrib.admin.views.main import SEARCH_VAR
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from conversations.models import (
    ChatSession,
    HistoryImport,
    Message,
    TagWeight,
    TagWeightHistory,
    Topic,
)
from memories.models import AuditEvent
from memories.services.audit import audit_event_record

_ModelT = TypeVar("_ModelT", bound=Model)


def _staff(request: HttpRequest) -> AbstractBaseUser | None:
    """The staff member reading, for a GET by staff; None when nothing is to be recorded."""
    user = request.user
    if request.method != "GET" or not isinstance(user, AbstractBaseUser):
        return None
    return user if getattr(user, "is_staff", False) else None


def _owner_id(obj: Model) -> int:
    user_id = getattr(obj, "user_id", None)
    assert isinstance(user_id, int), f"{type(obj).__name__} has no user"
    return user_id


class _StaffReadAuditedAdmin(admin.ModelAdmin[_ModelT]):
    """Read-only admin of one kind of chat record whose pages record staff reads (see the
    module's docstring)."""

    read_kind: str

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def _record_object_read(
        self,
        request: HttpRequest,
        object_id: str,
        *,
        shown: Callable[[HttpRequest, Any], bool],
    ) -> None:
        """Record a read of the object's page if `shown` (the page's permission check) lets
        the staff member see it; otherwise they get a 403 and nothing was read."""
        staff = _staff(request)
        obj = self.get_object(request, object_id) if staff is not None else None
        if staff is not None and obj is not None and shown(request, obj):
            audit_event_record(
                user_id=_owner_id(obj),
                actor=staff,
                action=AuditEvent.Action.STAFF_VIEW,
                target_type=self.read_kind,
                target_id=str(obj.pk),
            )

    def _record_list_read(self, request: HttpRequest, rows: Iterable[Model]) -> None:
        staff = _staff(request)
        if staff is None:
            return
        ids_by_user: dict[int, list[str]] = {}
        for row in rows:
            ids_by_user.setdefault(_owner_id(row), []).append(str(row.pk))
        searched = bool(request.GET.get(SEARCH_VAR, "").strip())
        for user_id, ids in ids_by_user.items():
            audit_event_record(
                user_id=user_id,
                actor=staff,
                action=AuditEvent.Action.STAFF_VIEW,
                target_type=self.read_kind,
                detail={"listed": len(ids), "ids": ids, "searched": searched},
            )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        self._record_object_read(request, object_id, shown=self.has_view_permission)
        return super().change_view(request, object_id, form_url, extra_context)

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        self._record_object_read(request, object_id, shown=self.has_view_permission)
        return super().history_view(request, object_id, extra_context)

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # The confirmation lists the object and what goes with it: a read too.
        self._record_object_read(request, object_id, shown=self.has_delete_permission)
        return super().delete_view(request, object_id, extra_context)

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        response = super().changelist_view(request, extra_context)
        changelist = (
            response.context_data.get("cl")
            if isinstance(response, TemplateResponse) and response.context_data
            else None
        )
        if changelist is not None:
            self._record_list_read(request, changelist.result_list)
        return response


class TopicInline(admin.TabularInline[Topic, ChatSession]):
    model = Topic
    fields = ["keywords", "started_at", "ended_at", "message_count"]
    readonly_fields = ["keywords", "started_at", "ended_at", "message_count"]
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(ChatSession)
class ChatSessionAdmin(_StaffReadAuditedAdmin[ChatSession]):
    read_kind = "session"
    list_display = ["id", "user", "title", "status", "source", "started_at", "last_message_at"]
    list_filter = ["status", "source", "started_at"]
    search_fields = ["user__username", "title", "summary", "tags"]
    date_hierarchy = "started_at"
    readonly_fields = [
        "user",
        "title",
        "status",
        "source",
        "started_at",
        "last_message_at",
        "ended_at",
        "summary",
        "tags",
        "state",
        "history_import",
    ]
    exclude = ["embedding"]
    inlines = [TopicInline]


@admin.register(Message)
class MessageAdmin(_StaffReadAuditedAdmin[Message]):
    read_kind = "message"
    list_display = ["id", "user", "session", "role", "short_content", "created_at", "searchable"]
    list_filter = ["role", "searchable", "created_at"]
    search_fields = ["user__username", "content", "external_id"]
    date_hierarchy = "created_at"
    readonly_fields = [
        "session",
        "user",
        "role",
        "speaker",
        "content",
        "inner_monologue",
        "created_at",
        "external_id",
        "topic",
        "reply_to",
        "keywords",
        "token_count",
        "searchable",
        "context",
    ]
    exclude = ["embedding", "context_embedding", "context_half"]

    @admin.display(description=_("content"))
    def short_content(self, obj: Message) -> str:
        return obj.content[:80]


@admin.register(Topic)
class TopicAdmin(_StaffReadAuditedAdmin[Topic]):
    read_kind = "topic"
    list_display = ["id", "user", "session", "keywords", "started_at", "ended_at", "message_count"]
    list_filter = ["started_at"]
    search_fields = ["user__username", "keywords"]
    readonly_fields = [
        "session",
        "user",
        "keywords",
        "terms",
        "started_at",
        "ended_at",
        "message_count",
    ]
    exclude = ["embedding"]


@admin.register(TagWeight)
class TagWeightAdmin(_StaffReadAuditedAdmin[TagWeight]):
    read_kind = "tag"
    list_display = ["user", "tag", "weight", "updated_at"]
    search_fields = ["user__username", "tag"]
    list_filter = ["updated_at"]


@admin.register(TagWeightHistory)
class TagWeightHistoryAdmin(_StaffReadAuditedAdmin[TagWeightHistory]):
    read_kind = "tag_history"
    list_display = ["user", "tag", "day", "weight"]
    search_fields = ["user__username", "tag"]
    list_filter = ["day"]


@admin.register(HistoryImport)
class HistoryImportAdmin(_StaffReadAuditedAdmin[HistoryImport]):
    read_kind = "import"
    list_display = ["id", "user", "status", "done", "total", "created_at", "finished_at"]
    list_filter = ["status", "created_at"]
    search_fields = ["user__username"]
    exclude = ["payload"]
