"""Staff views of conversations. Message text is shown read-only; vectors never."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from conversations.models import (
    ChatSession,
    HistoryImport,
    Message,
    TagWeight,
    TagWeightHistory,
    Topic,
)


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class TopicInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Topic
    fields = ["keywords", "started_at", "ended_at", "message_count"]
    readonly_fields = ["keywords", "started_at", "ended_at", "message_count"]
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(ChatSession)
class ChatSessionAdmin(ReadOnlyAdmin):
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
class MessageAdmin(ReadOnlyAdmin):
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
    exclude = ["embedding", "context_embedding"]

    @admin.display(description="content")
    def short_content(self, obj: Message) -> str:
        return obj.content[:80]


@admin.register(Topic)
class TopicAdmin(ReadOnlyAdmin):
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
class TagWeightAdmin(ReadOnlyAdmin):
    list_display = ["user", "tag", "weight", "updated_at"]
    search_fields = ["user__username", "tag"]
    list_filter = ["updated_at"]


@admin.register(TagWeightHistory)
class TagWeightHistoryAdmin(ReadOnlyAdmin):
    list_display = ["user", "tag", "day", "weight"]
    search_fields = ["user__username", "tag"]
    list_filter = ["day"]


@admin.register(HistoryImport)
class HistoryImportAdmin(ReadOnlyAdmin):
    list_display = ["id", "user", "status", "done", "total", "created_at", "finished_at"]
    list_filter = ["status", "created_at"]
    search_fields = ["user__username"]
    exclude = ["payload"]
