"""Chat sessions, their messages and topics, and the user's session-tag weights."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise
from pgvector.django import HalfVectorField, HnswIndex, VectorField

from memoryhub.models import UserOwnedModel
from memoryhub.relations import UserForeignKey, UserOneToOneField


def _keywords_field(
    *, verbose_name: StrOrPromise, help_text: StrOrPromise = ""
) -> ArrayField[Any, Any]:
    return ArrayField(
        models.CharField(max_length=100),
        default=list,
        blank=True,
        verbose_name=verbose_name,
        help_text=help_text,
    )


class ChatSession(UserOwnedModel):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        ENDING = "ending", _("Ending")
        ENDED = "ended", _("Ended")

    class Source(models.TextChoices):
        LIVE = "live", _("Live chat")
        IMPORT = "import", _("Imported")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_sessions",
        verbose_name=_("user"),
    )
    title = models.CharField(max_length=200, blank=True, verbose_name=_("title"))
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.ACTIVE, verbose_name=_("status")
    )
    source = models.CharField(
        max_length=10, choices=Source.choices, default=Source.LIVE, verbose_name=_("source")
    )
    started_at = models.DateTimeField(default=timezone.now, verbose_name=_("started at"))
    last_message_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last message at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))
    summary = models.TextField(blank=True, verbose_name=_("summary"))
    # The injection detector's verdict on the summary (memories.logic.injection_stamp).
    summary_stamp = models.CharField(
        max_length=32,
        blank=True,
        default="",
        db_default="",
        editable=False,
        verbose_name=_("summary verdict"),
    )
    tags = _keywords_field(verbose_name=_("tags"))
    # Compacted session state (goal, decisions, identifiers, next step); never a memory.
    state = models.JSONField(
        default=dict,
        blank=True,
        verbose_name=_("conversation state"),
        help_text=_("Goal, decisions, identifiers and next step, kept short; never a memory."),
    )
    # The summary's vector, for recall at the start of a later session.
    embedding = VectorField(
        dimensions=settings.MEMORYHUB_EMBEDDING_DIM,
        null=True,
        blank=True,
        verbose_name=_("summary embedding"),
    )
    history_import = UserForeignKey(
        "HistoryImport",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="sessions",
        verbose_name=_("history import"),
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
        return self.title or _("Conversation %(id)s") % {"id": self.pk}


class Topic(UserOwnedModel):
    """A run of consecutive messages about one subject (seed Algorithm 2)."""

    session = UserForeignKey(
        ChatSession, on_delete=models.CASCADE, related_name="topics", verbose_name=_("conversation")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user")
    )
    # Display forms ("Next.js", "마이그레이션") and their normalised forms for matching.
    keywords = _keywords_field(verbose_name=_("keywords"))
    terms = _keywords_field(
        verbose_name=_("normalised keywords"),
        help_text=_("The keywords in the form used for matching."),
    )
    started_at = models.DateTimeField(default=timezone.now, verbose_name=_("started at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))
    message_count = models.PositiveIntegerField(default=0, verbose_name=_("message count"))
    embedding = VectorField(
        dimensions=settings.MEMORYHUB_EMBEDDING_DIM,
        null=True,
        blank=True,
        verbose_name=_("embedding"),
    )

    class Meta:
        verbose_name = _("topic")
        verbose_name_plural = _("topics")
        ordering = ["started_at", "id"]
        indexes = [
            models.Index(fields=["user", "-started_at"]),
            GinIndex(fields=["user", "terms"], name="topic_user_terms_gin"),
        ]

    def __str__(self) -> str:
        return ", ".join(self.keywords) or _("Topic %(id)s") % {"id": self.pk}


class Message(UserOwnedModel):
    class Role(models.TextChoices):
        USER = "user", _("User")
        ASSISTANT = "assistant", _("Assistant")

    session = UserForeignKey(
        ChatSession,
        on_delete=models.CASCADE,
        related_name="messages",
        verbose_name=_("conversation"),
    )
    # Denormalised so every per-user filter is one index lookup.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user")
    )
    role = models.CharField(max_length=10, choices=Role.choices, verbose_name=_("role"))
    content = models.TextField(verbose_name=_("content"))
    speaker = models.CharField(
        max_length=100,
        blank=True,
        verbose_name=_("speaker"),
        help_text=_("The speaker's name in imported history."),
    )
    inner_monologue = models.TextField(
        blank=True,
        verbose_name=_("inner monologue"),
        help_text=_("An imported message's hidden reasoning, when the history had one."),
    )
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    # NULL, not "", for live messages: the per-user unique constraint skips NULLs.
    external_id = models.CharField(  # noqa: DJ001
        max_length=200,
        null=True,
        blank=True,
        verbose_name=_("external ID"),
        help_text=_("The message's id in the imported history."),
    )
    topic = UserForeignKey(
        Topic,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="messages",
        verbose_name=_("topic"),
    )
    reply_to = UserOneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="reply",
        verbose_name=_("reply to"),
    )
    embedding = VectorField(
        dimensions=settings.MEMORYHUB_EMBEDDING_DIM,
        null=True,
        blank=True,
        verbose_name=_("embedding"),
    )
    # The search vector: this message's vector mixed with its neighbours' (a turn's meaning
    # leans on the turns around it); NULL until (re)computed after a neighbour changes.
    context_embedding = VectorField(
        dimensions=settings.MEMORYHUB_EMBEDDING_DIM,
        null=True,
        blank=True,
        verbose_name=_("context embedding"),
        help_text=_("This message's vector mixed with its neighbours', used by search."),
    )
    # The search vector in half precision, kept by the database: the per-user exact scan reads
    # it from a covering index (`message_user_half_cover`) instead of visiting the user's rows
    # one by one across the table (issue 18 line 4; docs/benchmarks.md has the figures).
    context_half = models.GeneratedField(
        expression=Cast(
            "context_embedding", HalfVectorField(dimensions=settings.MEMORYHUB_EMBEDDING_DIM)
        ),
        output_field=HalfVectorField(dimensions=settings.MEMORYHUB_EMBEDDING_DIM, null=True),
        db_persist=True,
        verbose_name=_("search vector, half precision"),
    )
    # The injection detector's verdict on the content, made when the message is embedded
    # (memories.logic.injection_stamp): recall skips the detector while it still holds. A
    # database default: rows written without it (COPY, the release before during an upgrade)
    # are unstamped, and read by the detector.
    instruction_stamp = models.CharField(
        max_length=32,
        blank=True,
        default="",
        db_default="",
        editable=False,
        verbose_name=_("content verdict"),
    )
    # Normalised keyword tokens (memoryhub.text.index_tokens), matched by search.
    keywords = _keywords_field(verbose_name=_("search keywords"))
    token_count = models.PositiveIntegerField(default=0, verbose_name=_("tokens"))
    # False for text that says nothing about the user (offline-mode replies): not searched,
    # not embedded, not used to detect topic shifts.
    searchable = models.BooleanField(
        default=True,
        verbose_name=_("searchable"),
        help_text=_("Off for text that says nothing about the person (offline-mode replies)."),
    )
    # What was put into the prompt for this reply (assistant messages), shown in the panel.
    context = models.JSONField(
        default=dict,
        blank=True,
        verbose_name=_("reply context"),
        help_text=_("What was put into the prompt for this reply."),
    )

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
            # A session's searchable messages in order, read without their rows: search
            # spreads a hit's score to its neighbours (`search._neighbourhood`).
            models.Index(
                fields=["session", "created_at", "id"],
                include=["user"],
                condition=models.Q(searchable=True),
                name="message_session_order_cover",
            ),
            # Every keyword query is per user: with user_id in the GIN index (btree_gin) only
            # the user's matching rows are read (migration 0004 has the figures).
            GinIndex(fields=["user", "keywords"], name="message_user_keywords_gin"),
            # The exact per-user vector scan is an index-only scan of this index: a user's
            # entries lie together, whatever pages their rows are spread over.
            models.Index(
                fields=["user"],
                include=["id", "context_half"],
                condition=models.Q(searchable=True, context_half__isnull=False),
                name="message_user_half_cover",
            ),
            HnswIndex(
                name="message_context_embedding_hnsw",
                fields=["context_embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()}: {self.content[:60]}"


class TagWeight(UserOwnedModel):
    """How much a user talks about a tag; decays daily (seed Algorithm 1)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user")
    )
    tag = models.CharField(max_length=100, verbose_name=_("tag"))
    weight = models.FloatField(
        default=0.0,
        verbose_name=_("weight"),
        help_text=_(
            "As of 'updated at': grows when a conversation ends or a recall brings "
            "the tag up; the weight now is this times MEMORYHUB_TAG_DECAY_FACTOR "
            "(×0.95/day by default) per day since."
        ),
    )
    updated_at = models.DateTimeField(default=timezone.now, verbose_name=_("updated at"))

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

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user")
    )
    tag = models.CharField(max_length=100, verbose_name=_("tag"))
    day = models.DateField(verbose_name=_("day"))
    weight = models.FloatField(
        verbose_name=_("weight"), help_text=_("The tag's weight at the end of the day.")
    )

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

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user")
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED, verbose_name=_("status")
    )
    payload = models.JSONField(
        default=dict,
        blank=True,
        verbose_name=_("payload"),
        help_text=_("Dropped once the import is done."),
    )
    total = models.PositiveIntegerField(default=0, verbose_name=_("messages in all"))
    done = models.PositiveIntegerField(default=0, verbose_name=_("messages done"))
    sessions_done = models.PositiveIntegerField(default=0, verbose_name=_("conversations done"))
    error = models.TextField(blank=True, verbose_name=_("error"))
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("history import")
        verbose_name_plural = _("history imports")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return _("Import %(id)s (%(status)s)") % {
            "id": self.pk,
            "status": self.get_status_display(),
        }

    @property
    def error_message(self) -> str:
        """The failure in the reader's language (rows from before codes keep their text)."""
        if self.error in self.Failure.values:
            return str(self.Failure(self.error).label)
        return self.error
