"""Long-term memory records (seed 003): lineages, immutable versions, usage, receipts, audit.

A `Memory` is a lineage: what the user sees as one memory, with its status. Its content lives
in `MemoryVersion`s, which are never edited: a correction, an edit or a confidence drop adds a
version that `supersedes` the previous one, so history is always readable. The source of a
memory is stored as plain ids (`source_message_id`, `source_session_id`) or a URI: this app
never imports `conversations`.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from pgvector.django import HnswIndex, VectorField

from memories.reasons import (
    ChangeReason,
    StatusReason,
    change_reason_sentence,
    change_reason_text,
    status_reason_sentence,
    status_reason_text,
)
from memoryhub.models import UserOwnedModel
from memoryhub.relations import UserForeignKey


class MemoryType(models.TextChoices):
    PREFERENCE = "preference", _("Preference")
    DECISION = "decision", _("Decision")
    PROCEDURE = "procedure", _("Procedure")
    FACT = "fact", _("Fact")
    EPISODE = "episode", _("Episode")


class MemoryStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for approval")
    ACTIVE = "active", _("Active")
    SUPERSEDED = "superseded", _("Replaced")
    REJECTED = "rejected", _("Rejected")
    EXPIRED = "expired", _("Expired")
    QUARANTINED = "quarantined", _("Quarantined")
    # The user said "this is wrong": out of use at once, until they undo it or correct it.
    DISPUTED = "disputed", _("Marked wrong")


class CreatedBy(models.TextChoices):
    USER = "user", _("Written by you")
    ASSISTANT = "assistant", _("Proposed by the assistant")
    SYSTEM = "system", _("Written by the system")
    # An outside agent with its own token (`Agent`), named on the version.
    AGENT = "agent", _("Written by a connected agent")


class Sensitivity(models.TextChoices):
    LOW = "low", _("Low sensitivity")
    NORMAL = "normal", _("Normal sensitivity")
    HIGH = "high", _("High sensitivity")


class Reader(models.TextChoices):
    """Who may have a memory put in front of them (`allowed_readers`)."""

    # The chat assistant's prompt and its memory tool.
    ASSISTANT = "assistant", _("The assistant")
    # Other agents through the REST search and context endpoints.
    AGENT = "agent", _("Connected agents")


DEFAULT_SCOPE = "user"
# Statuses of lineages that are still "live": shown as current, considered for duplicates.
LIVE_STATUSES = (MemoryStatus.ACTIVE, MemoryStatus.PENDING)


class AgentScope(models.TextChoices):
    READ = "read", _("Read")
    WRITE = "write", _("Write")


class Agent(UserOwnedModel):
    """An outside agent (an MCP client) the user connected, with its own token.

    Only the token's sha256 is stored; the raw token is shown once, when it is created. A
    revoked agent is kept (its name stays on the memories it wrote and in the access log) but
    its token authenticates nothing; a paused one authenticates and is refused every call.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="agents"
    )
    name = models.CharField(max_length=100)
    scopes = ArrayField(models.CharField(max_length=10, choices=AgentScope.choices), default=list)
    token_hash = models.CharField(max_length=64, unique=True)
    token_prefix = models.CharField(max_length=16)
    # Its writes are active at once instead of waiting for the user's approval.
    trusted = models.BooleanField(default=False)
    # It may read memories of `high` sensitivity (otherwise never put in front of it).
    may_read_sensitive = models.BooleanField(default=False)
    paused_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("connected agent")
        verbose_name_plural = _("connected agents")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return f"Agent {self.pk} ({self.name})"

    @property
    def can_write(self) -> bool:
        return AgentScope.WRITE.value in self.scopes

    @property
    def is_active(self) -> bool:
        return self.paused_at is None and self.revoked_at is None


def default_readers() -> list[str]:
    return [Reader.ASSISTANT.value, Reader.AGENT.value]


def _terms_field() -> ArrayField[Any, Any]:
    return ArrayField(models.CharField(max_length=100), default=list, blank=True)


class Memory(UserOwnedModel):
    """One remembered thing as the user sees it; its versions hold the content."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memories"
    )
    # Denormalised from the current version so lists filter on one table.
    type = models.CharField(max_length=20, choices=MemoryType.choices)
    slot = models.CharField(max_length=120, blank=True)
    status = models.CharField(
        max_length=20, choices=MemoryStatus.choices, default=MemoryStatus.PENDING
    )
    # Why it has its status: a code (memories.reasons) with its parameters, worded on render.
    status_reason = models.CharField(max_length=40, choices=StatusReason.choices, blank=True)
    status_params = models.JSONField(default=dict, blank=True)
    # The agent that wrote the memory's first version, when an agent did (`CreatedBy.AGENT`).
    created_by_agent = UserForeignKey(
        Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="memories"
    )
    current_version = UserForeignKey(
        "MemoryVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Unresolved conflicts with other lineages of the same user (symmetrical).
    conflicts = models.ManyToManyField(
        "self", symmetrical=True, blank=True, through="MemoryConflict"
    )
    access_count = models.PositiveIntegerField(default=0)
    last_accessed_at = models.DateTimeField(null=True, blank=True)
    wrong_count = models.PositiveSmallIntegerField(default=0)
    # While `disputed`: the status it had before, which undoing the dispute restores.
    disputed_from = models.CharField(max_length=20, choices=MemoryStatus.choices, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("memory")
        verbose_name_plural = _("memories")
        ordering = ["-updated_at", "-id"]
        indexes = [
            models.Index(fields=["user", "status", "type"]),
            models.Index(fields=["user", "slot"]),
            models.Index(fields=["user", "-updated_at"]),
        ]

    def __str__(self) -> str:
        return f"Memory {self.pk} ({self.type}, {self.status})"

    @property
    def status_reason_text(self) -> str:
        """Why it has its status, in the reader's language ("" when nothing to say)."""
        return status_reason_text(self.status_reason, self.status_params)

    @property
    def status_reason_sentence(self) -> str:
        """Why it has its status, as the API's English sentence."""
        return status_reason_sentence(self.status_reason, self.status_params)


class MemoryConflict(UserOwnedModel):
    """One direction of an unresolved conflict between two memories of one user.

    The table Django made for `Memory.conflicts`, with the owner's id added so it can be
    distributed by user like every table of user data (docs/deploy.md).
    """

    from_memory = UserForeignKey(Memory, on_delete=models.CASCADE, related_name="+")
    to_memory = UserForeignKey(Memory, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        db_table = "memories_memory_conflicts"
        unique_together = [("from_memory", "to_memory")]

    def __str__(self) -> str:
        return f"Conflict {self.from_memory_id} -> {self.to_memory_id}"


class ImmutableVersion(Exception):
    """A memory version was about to be changed in place."""


# The only fields of a stored version that may be filled in later, once: the approval.
_WRITE_ONCE_FIELDS = frozenset({"approved_by", "approved_at"})


class MemoryVersion(UserOwnedModel):
    """One immutable state of a memory, with every field of seed 003."""

    memory = UserForeignKey(Memory, on_delete=models.CASCADE, related_name="versions")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    version = models.PositiveIntegerField()
    scope = models.CharField(max_length=100, default=DEFAULT_SCOPE)
    type = models.CharField(max_length=20, choices=MemoryType.choices)
    content = models.TextField()
    slot = models.CharField(max_length=120, blank=True)
    source_message_id = models.BigIntegerField(null=True, blank=True)
    source_session_id = models.BigIntegerField(null=True, blank=True)
    source_uri = models.CharField(max_length=500, blank=True)
    observed_at = models.DateTimeField(default=timezone.now)
    effective_from = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True)
    confidence = models.FloatField(default=1.0)
    sensitivity = models.CharField(
        max_length=10, choices=Sensitivity.choices, default=Sensitivity.NORMAL
    )
    importance = models.FloatField(default=0.5)
    supersedes = UserForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="superseded_by"
    )
    created_by = models.CharField(max_length=20, choices=CreatedBy.choices)
    created_by_agent = UserForeignKey(
        Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="versions"
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    approved_at = models.DateTimeField(null=True, blank=True)
    allowed_readers = ArrayField(
        models.CharField(max_length=40), default=default_readers, blank=True
    )
    tags = _terms_field()
    # Keyword index tokens (memoryhub.text.index_tokens) for the hybrid search.
    tokens = _terms_field()
    # sha256 of the normalised content: exact duplicates without loading texts.
    fingerprint = models.CharField(max_length=64)
    embedding = VectorField(dimensions=settings.MEMORYHUB_EMBEDDING_DIM, null=True, blank=True)
    # The write policy's decision for this version and why (seed 003's table).
    policy_decision = models.CharField(max_length=20)
    policy_reason = models.CharField(max_length=300)
    # Why it was written: a code (memories.reasons) with its parameters, worded on render.
    change_reason = models.CharField(max_length=40, choices=ChangeReason.choices, blank=True)
    change_params = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("memory version")
        verbose_name_plural = _("memory versions")
        ordering = ["-version"]
        constraints = [
            models.UniqueConstraint(fields=["memory", "version"], name="memoryversion_unique")
        ]
        indexes = [
            models.Index(fields=["user", "fingerprint"]),
            models.Index(fields=["user", "source_message_id"]),
            GinIndex(fields=["tokens"], name="memoryversion_tokens_gin"),
            HnswIndex(
                name="memoryversion_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"Memory {self.memory_id} v{self.version}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Versions are written once; only an approval may be added to a stored one."""
        if not self._state.adding:
            update_fields = kwargs.get("update_fields")
            if update_fields is None or not set(update_fields) <= _WRITE_ONCE_FIELDS:
                raise ImmutableVersion("memory versions are immutable; add a new version")
        super().save(*args, **kwargs)

    @property
    def change_reason_text(self) -> str:
        """Why it was written, in the reader's language."""
        return change_reason_text(self.change_reason, self.change_params)

    @property
    def change_reason_sentence(self) -> str:
        """Why it was written, as the API's English sentence."""
        return change_reason_sentence(self.change_reason, self.change_params)


class MemoryUse(UserOwnedModel):
    """A memory version that was put into an assistant reply (seed 003: log used ids)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    memory = UserForeignKey(Memory, on_delete=models.CASCADE, related_name="uses")
    version = UserForeignKey(MemoryVersion, on_delete=models.CASCADE, related_name="uses")
    # The assistant message (conversations.Message) the memory went into: a plain id.
    message_id = models.BigIntegerField()
    rank = models.PositiveSmallIntegerField()
    score = models.FloatField()
    used_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("memory use")
        verbose_name_plural = _("memory uses")
        ordering = ["-used_at", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["message_id", "memory"], name="memoryuse_unique")
        ]
        indexes = [models.Index(fields=["user", "-used_at"])]

    def __str__(self) -> str:
        return f"memory {self.memory_id} in message {self.message_id} (#{self.rank})"


class DeletionReceipt(UserOwnedModel):
    """Proof that content was deleted: what and how much, never the content itself."""

    class Kind(models.TextChoices):
        # One memory deleted by its owner.
        MEMORY = "memory", _("One memory")
        # Every memory of the user (account-wide erase).
        ALL = "all", _("All your data")
        # The purge of old rejected or expired memories.
        RETENTION = "retention", _("Cleaned up after the retention period")
        # A chat session and everything derived from it.
        SESSION = "session", _("A chat session")
        # One chat message (with its reply).
        MESSAGE = "message", _("A chat message")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deletion_receipts"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.MEMORY)
    memory_id = models.CharField(max_length=40, blank=True)
    deleted_at = models.DateTimeField(default=timezone.now)
    removed = models.JSONField(default=dict)
    # Each copy elsewhere that changed, named by kind, session id and date, never by its text:
    # [{"kind": "reply", "session_id": "12", "date": "2026-11-30"}].
    copies = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = _("deletion receipt")
        verbose_name_plural = _("deletion receipts")
        ordering = ["-deleted_at"]
        indexes = [models.Index(fields=["user", "-deleted_at"])]

    def __str__(self) -> str:
        return f"Receipt {self.id} ({self.kind} {self.memory_id})"


class AuditEvent(UserOwnedModel):
    """Who did what to a user's memories, and staff reads of their chats (`target_type` the
    kind of record: `memory`, or a chat kind from conversations' admin); shown to that user."""

    class Action(models.TextChoices):
        STAFF_VIEW = "staff_view", _("Viewed by staff")
        STAFF_CHANGE = "staff_change", _("Changed by staff")
        USER_DELETE = "user_delete", _("Deleted")
        USER_ERASE = "user_erase", _("All data deleted")
        APPROVE = "approve", _("Approved")
        REJECT = "reject", _("Rejected")
        MARK_WRONG = "mark_wrong", _("Marked wrong")
        UNDO_WRONG = "undo_wrong", _("Marking wrong undone")
        QUARANTINE = "quarantine", _("Quarantined")
        PURGE = "purge", _("Purged")
        # A call of a connected agent: detail {"agent_id", "tool", "ids"} (ids only).
        AGENT_CALL = "agent_call", _("Called by an agent")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_audit_events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    action = models.CharField(max_length=20, choices=Action.choices)
    target_type = models.CharField(max_length=40, default="memory")
    target_id = models.CharField(max_length=40, blank=True)
    # Ids and counts only: an audit trail must not keep deleted content alive.
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.action} {self.target_type} {self.target_id}"


class ExtractionRun(UserOwnedModel):
    """One extraction from one exchange: makes reruns no-ops and keeps failures for admin."""

    class Status(models.TextChoices):
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_extractions"
    )
    source_message_id = models.BigIntegerField(null=True, blank=True)
    source_session_id = models.BigIntegerField(null=True, blank=True)
    provider = models.CharField(max_length=32)
    status = models.CharField(max_length=10, choices=Status.choices)
    attempts = models.PositiveSmallIntegerField(default=1)
    # Counts per outcome and the write-policy decisions (codes: kind, decision, hours; no
    # content; runs from before codes also keep the policy's English reason).
    outcome = models.JSONField(default=dict, blank=True)
    decisions = models.JSONField(default=list, blank=True)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("extraction run")
        verbose_name_plural = _("extraction runs")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "source_message_id"],
                condition=models.Q(source_message_id__isnull=False),
                name="extractionrun_once_per_message",
            )
        ]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"Extraction {self.pk} ({self.status})"
