"""Chat sessions, their messages and topics, and the user's session-tag weights."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from pgvector.django import HnswIndex, VectorField

from memoryhub.models import UserOwnedModel
from memoryhub.relations import UserForeignKey, UserOneToOneField


def _keywords_field() -> ArrayField[Any, Any]:
    return ArrayField(models.CharField(max_length=100), default=list, blank=True)


class ChatSession(UserOwnedModel):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        ENDING = "ending", _("Ending")
        ENDED = "ended", _("Ended")

    class Source(models.TextChoices):
        LIVE = "live", _("Live chat")
        IMPORT = "import", _("Imported")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_sessions"
    )
    title = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.LIVE)
    started_at = models.DateTimeField(default=timezone.now)
    last_message_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    summary = models.TextField(blank=True)
    tags = _keywords_field()
    # Compacted session state (goal, decisions, identifiers, next step); never a memory.
    state = models.JSONField(default=dict, blank=True)
    # The summary's vector, for recall at the start of a later session.
    embedding = VectorField(dimensions=settings.MEMORYHUB_EMBEDDING_DIM, null=True, blank=True)
    history_import = UserForeignKey(
        "HistoryImport", null=True, blank=True, on_delete=models.SET_NULL, related_name="sessions"
    )

    class Meta:
        verbose_name = _("conversation")
        verbose_name_plural = _("conversations")
        ordering = ["-started_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-started_at"]),
            models.Index(fields=["status", "last_message_at"]),
            GinIndex(fields=["user", "tags"], name="chatsession_user_tags_gin"),
        ]

    def __str__(self) -> str:
        return self.title or f"Session {self.pk}"


class Topic(UserOwnedModel):
    """A run of consecutive messages about one subject (seed Algorithm 2)."""

    session = UserForeignKey(ChatSession, on_delete=models.CASCADE, related_name="topics")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    # Display forms ("Next.js", "마이그레이션") and their normalised forms for matching.
    keywords = _keywords_field()
    terms = _keywords_field()
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    message_count = models.PositiveIntegerField(default=0)
    embedding = VectorField(dimensions=settings.MEMORYHUB_EMBEDDING_DIM, null=True, blank=True)

    class Meta:
        verbose_name = _("topic")
        verbose_name_plural = _("topics")
        ordering = ["started_at", "id"]
        indexes = [
            models.Index(fields=["user", "-started_at"]),
            GinIndex(fields=["user", "terms"], name="topic_user_terms_gin"),
        ]

    def __str__(self) -> str:
        return ", ".join(self.keywords) or f"Topic {self.pk}"


class Message(UserOwnedModel):
    class Role(models.TextChoices):
        USER = "user", _("User")
        ASSISTANT = "assistant", _("Assistant")

    session = UserForeignKey(ChatSession, on_delete=models.CASCADE, related_name="messages")
    # Denormalised so every per-user filter is one index lookup.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    role = models.CharField(max_length=10, choices=Role.choices)
    content = models.TextField()
    speaker = models.CharField(max_length=100, blank=True)
    inner_monologue = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # NULL, not "", for live messages: the per-user unique constraint skips NULLs.
    external_id = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    topic = UserForeignKey(
        Topic, null=True, blank=True, on_delete=models.SET_NULL, related_name="messages"
    )
    reply_to = UserOneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="reply"
    )
    embedding = VectorField(dimensions=settings.MEMORYHUB_EMBEDDING_DIM, null=True, blank=True)
    # The search vector: this message's vector mixed with its neighbours' (a turn's meaning
    # leans on the turns around it); NULL until (re)computed after a neighbour changes.
    context_embedding = VectorField(
        dimensions=settings.MEMORYHUB_EMBEDDING_DIM, null=True, blank=True
    )
    # Normalised keyword tokens (memoryhub.text.index_tokens), matched by search.
    keywords = _keywords_field()
    token_count = models.PositiveIntegerField(default=0)
    # False for text that says nothing about the user (offline-mode replies): not searched,
    # not embedded, not used to detect topic shifts.
    searchable = models.BooleanField(default=True)
    # What was put into the prompt for this reply (assistant messages), shown in the panel.
    context = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "external_id"],
                condition=models.Q(external_id__isnull=False),
                name="message_external_id_unique_per_user",
            )
        ]
        indexes = [
            models.Index(fields=["session", "created_at"]),
            models.Index(fields=["user", "created_at"]),
            # Every keyword query is per user: with user_id in the GIN index (btree_gin) only
            # the user's matching rows are read (migration 0004 has the figures).
            GinIndex(fields=["user", "keywords"], name="message_user_keywords_gin"),
            HnswIndex(
                name="message_context_embedding_hnsw",
                fields=["context_embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role}: {self.content[:60]}"


class TagWeight(UserOwnedModel):
    """How much a user talks about a tag; decays daily (seed Algorithm 1)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    tag = models.CharField(max_length=100)
    weight = models.FloatField(default=0.0)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("tag weight")
        verbose_name_plural = _("tag weights")
        ordering = ["-weight"]
        constraints = [
            models.UniqueConstraint(fields=["user", "tag"], name="tagweight_unique_user_tag")
        ]

    def __str__(self) -> str:
        return f"{self.tag} ({self.weight:.2f})"


class TagWeightHistory(UserOwnedModel):
    """A tag's effective weight at the end of a day, for the weights-over-time chart."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    tag = models.CharField(max_length=100)
    day = models.DateField()
    weight = models.FloatField()

    class Meta:
        verbose_name = _("tag weight history")
        verbose_name_plural = _("tag weight histories")
        ordering = ["day"]
        constraints = [
            models.UniqueConstraint(fields=["user", "tag", "day"], name="taghistory_unique_day")
        ]

    def __str__(self) -> str:
        return f"{self.tag} {self.day}: {self.weight:.2f}"


class HistoryImport(UserOwnedModel):
    """One import of history from elsewhere; processed by a task, payload dropped when done."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    class Failure(models.TextChoices):
        """Why an import failed: the code is stored in `error`, the label shown."""

        PAYLOAD_INVALID = "payload_invalid", _("The stored import could not be read again.")
        WORKER_ERROR = (
            "worker_error",
            _("The import stopped on an error; the sessions stored before it remain."),
        )
        WORKER_LOST = (
            "worker_lost",
            _(
                "The import's worker stopped several times before finishing; the sessions stored "
                "before it remain."
            ),
        )

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    payload = models.JSONField(default=dict, blank=True)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    sessions_done = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("history import")
        verbose_name_plural = _("history imports")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Import {self.pk} ({self.status})"

    @property
    def error_message(self) -> str:
        """The failure in the reader's language (rows from before codes keep their text)."""
        if self.error in self.Failure.values:
            return str(self.Failure(self.error).label)
        return self.error
