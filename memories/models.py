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
from django_stubs_ext import StrOrPromise
from pgvector.django import HnswIndex, VectorField

from memories.logic.write_policy import Decision
from memories.reasons import (
    ChangeReason,
    PolicyReason,
    StatusReason,
    change_reason_sentence,
    change_reason_text,
    policy_reason_sentence,
    policy_reason_text,
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


class WrittenVia(models.TextChoices):
    """How a person's own write reached memoryhub, kept as `change_params["via"]` on the
    version, so the memory page can say who wrote it ("" on versions from before)."""

    PAGE = "page", _("on this site")
    API = "api", _("through the REST API with your API key")


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


class PolicyDecision(models.TextChoices):
    """The write policy's decisions (`memories.logic.write_policy.Decision`), labelled."""

    STORE = Decision.STORE.value, _("Stored")
    PENDING = Decision.PENDING.value, _("Waiting for approval")
    EXPIRE_SOON = Decision.EXPIRE_SOON.value, _("Stored, expiring soon")
    QUARANTINE = Decision.QUARANTINE.value, _("Quarantined")
    NEVER = Decision.NEVER.value, _("Never stored")
    SKIP = Decision.SKIP.value, _("Skipped")


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
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="agents",
        verbose_name=_("user"),
    )
    name = models.CharField(max_length=100, verbose_name=_("name"))
    scopes = ArrayField(
        models.CharField(max_length=10, choices=AgentScope.choices),
        default=list,
        verbose_name=_("permissions"),
        help_text=_("What the agent may do: read memories, write them, or both."),
    )
    token_hash = models.CharField(
        max_length=64,
        unique=True,
        verbose_name=_("token hash"),
        help_text=_("The token's SHA-256; the token itself is shown once, when it is made."),
    )
    token_prefix = models.CharField(
        max_length=16,
        verbose_name=_("token prefix"),
        help_text=_("The token's first characters, to tell tokens apart."),
    )
    # Its writes are active at once instead of waiting for the user's approval.
    trusted = models.BooleanField(
        default=False,
        verbose_name=_("trusted"),
        help_text=_(
            "What it writes is active at once instead of waiting for the person's approval."
        ),
    )
    # It may read memories of `high` sensitivity (otherwise never put in front of it).
    may_read_sensitive = models.BooleanField(
        default=False,
        verbose_name=_("may read sensitive memories"),
        help_text=_("Otherwise memories of high sensitivity are never shown to it."),
    )
    paused_at = models.DateTimeField(null=True, blank=True, verbose_name=_("paused at"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    last_used_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last used at"))

    class Meta:
        verbose_name = _("connected agent")
        verbose_name_plural = _("connected agents")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return _("Agent %(id)s (%(name)s)") % {"id": self.pk, "name": self.name}

    @property
    def can_write(self) -> bool:
        return AgentScope.WRITE.value in self.scopes

    @property
    def is_active(self) -> bool:
        return self.paused_at is None and self.revoked_at is None


def default_readers() -> list[str]:
    return [Reader.ASSISTANT.value, Reader.AGENT.value]


def _terms_field(
    *, verbose_name: StrOrPromise, help_text: StrOrPromise = ""
) -> ArrayField[Any, Any]:
    return ArrayField(
        models.CharField(max_length=100),
        default=list,
        blank=True,
        verbose_name=verbose_name,
        help_text=help_text,
    )


class Memory(UserOwnedModel):
    """One remembered thing as the user sees it; its versions hold the content."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memories",
        verbose_name=_("user"),
    )
    # Denormalised from the current version so lists filter on one table.
    type = models.CharField(max_length=20, choices=MemoryType.choices, verbose_name=_("type"))
    slot = models.CharField(
        max_length=120,
        blank=True,
        verbose_name=_("slot"),
        help_text=_(
            "What the memory is about (such as where someone lives): a newer memory"
            " in the same slot replaces the older one."
        ),
    )
    status = models.CharField(
        max_length=20,
        choices=MemoryStatus.choices,
        default=MemoryStatus.PENDING,
        verbose_name=_("status"),
    )
    # Why it has its status: a code (memories.reasons) with its parameters, worded on render.
    status_reason = models.CharField(
        max_length=40, choices=StatusReason.choices, blank=True, verbose_name=_("status reason")
    )
    status_params = models.JSONField(
        default=dict,
        blank=True,
        verbose_name=_("status reason details"),
        help_text=_("The values the reason's wording fills in."),
    )
    # The agent that wrote the memory's first version, when an agent did (`CreatedBy.AGENT`).
    created_by_agent = UserForeignKey(
        Agent,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memories",
        verbose_name=_("written by agent"),
    )
    current_version = UserForeignKey(
        "MemoryVersion",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("current version"),
    )
    # Unresolved conflicts with other lineages of the same user (symmetrical).
    conflicts = models.ManyToManyField(
        "self",
        symmetrical=True,
        blank=True,
        through="MemoryConflict",
        verbose_name=_("conflicting memories"),
    )
    access_count = models.PositiveIntegerField(
        default=0,
        verbose_name=_("times used"),
        help_text=_("How many replies this memory went into."),
    )
    last_accessed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last used at"))
    wrong_count = models.PositiveSmallIntegerField(default=0, verbose_name=_("times marked wrong"))
    # While `disputed`: the status it had before, which undoing the dispute restores.
    disputed_from = models.CharField(
        max_length=20,
        choices=MemoryStatus.choices,
        blank=True,
        verbose_name=_("status before marked wrong"),
        help_text=_("Undoing the marking restores this status."),
    )
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))
    updated_at = models.DateTimeField(default=timezone.now, verbose_name=_("updated at"))

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
        return _("Memory %(id)s (%(type)s, %(status)s)") % {
            "id": self.pk,
            "type": self.get_type_display(),
            "status": self.get_status_display(),
        }

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

    from_memory = UserForeignKey(
        Memory, on_delete=models.CASCADE, related_name="+", verbose_name=_("memory")
    )
    to_memory = UserForeignKey(
        Memory, on_delete=models.CASCADE, related_name="+", verbose_name=_("conflicting memory")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )

    class Meta:
        db_table = "memories_memory_conflicts"
        verbose_name = _("memory conflict")
        verbose_name_plural = _("memory conflicts")
        unique_together = [("from_memory", "to_memory")]

    def __str__(self) -> str:
        return _("Conflict of memory %(from)s with memory %(to)s") % {
            "from": self.from_memory_id,
            "to": self.to_memory_id,
        }


class ImmutableVersion(Exception):
    """A memory version was about to be changed in place."""


# The only fields of a stored version that may be filled in later, once: the approval.
_WRITE_ONCE_FIELDS = frozenset({"approved_by", "approved_at"})


class MemoryVersion(UserOwnedModel):
    """One immutable state of a memory, with every field of seed 003."""

    memory = UserForeignKey(
        Memory, on_delete=models.CASCADE, related_name="versions", verbose_name=_("memory")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    version = models.PositiveIntegerField(verbose_name=_("version"))
    scope = models.CharField(max_length=100, default=DEFAULT_SCOPE, verbose_name=_("scope"))
    type = models.CharField(max_length=20, choices=MemoryType.choices, verbose_name=_("type"))
    content = models.TextField(verbose_name=_("content"))
    slot = models.CharField(max_length=120, blank=True, verbose_name=_("slot"))
    source_message_id = models.BigIntegerField(
        null=True, blank=True, verbose_name=_("source message ID")
    )
    source_session_id = models.BigIntegerField(
        null=True, blank=True, verbose_name=_("source conversation ID")
    )
    source_uri = models.CharField(
        max_length=500,
        blank=True,
        verbose_name=_("source URI"),
        help_text=_("Where it came from when not from a chat (an import or an agent)."),
    )
    observed_at = models.DateTimeField(
        default=timezone.now,
        verbose_name=_("observed at"),
        help_text=_("When it was said or seen."),
    )
    effective_from = models.DateTimeField(default=timezone.now, verbose_name=_("effective from"))
    expires_at = models.DateTimeField(null=True, blank=True, verbose_name=_("expires at"))
    confidence = models.FloatField(
        default=1.0,
        verbose_name=_("confidence"),
        help_text=_("From 0 to 1: how sure the assistant was that it is right."),
    )
    sensitivity = models.CharField(
        max_length=10,
        choices=Sensitivity.choices,
        default=Sensitivity.NORMAL,
        verbose_name=_("sensitivity"),
    )
    importance = models.FloatField(
        default=0.5,
        verbose_name=_("importance"),
        help_text=_("From 0 to 1: how much it weighs when memories are chosen for a reply."),
    )
    supersedes = UserForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="superseded_by",
        verbose_name=_("replaces version"),
        help_text=_("The version this one replaced."),
    )
    created_by = models.CharField(
        max_length=20, choices=CreatedBy.choices, verbose_name=_("written by")
    )
    created_by_agent = UserForeignKey(
        Agent,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="versions",
        verbose_name=_("written by agent"),
    )
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("approved by"),
    )
    approved_at = models.DateTimeField(null=True, blank=True, verbose_name=_("approved at"))
    allowed_readers = ArrayField(
        models.CharField(max_length=40),
        default=default_readers,
        blank=True,
        verbose_name=_("allowed readers"),
        help_text=_("Who may have it put in front of them: the assistant, connected agents."),
    )
    tags = _terms_field(verbose_name=_("tags"))
    # Keyword index tokens (memoryhub.text.index_tokens) for the hybrid search.
    tokens = _terms_field(
        verbose_name=_("search tokens"),
        help_text=_("The content's normalised words for the keyword search."),
    )
    # sha256 of the normalised content: exact duplicates without loading texts.
    fingerprint = models.CharField(
        max_length=64,
        verbose_name=_("fingerprint"),
        help_text=_("SHA-256 of the normalised content, to find exact duplicates."),
    )
    embedding = VectorField(
        dimensions=settings.MEMORYHUB_EMBEDDING_DIM,
        null=True,
        blank=True,
        verbose_name=_("embedding"),
    )
    # The write policy's decision for this version and why (seed 003's table): the reason
    # as a code (memories.reasons.PolicyReason) with its parameters, worded on render.
    policy_decision = models.CharField(
        max_length=20,
        choices=PolicyDecision.choices,
        verbose_name=_("policy decision"),
        help_text=_("What the write policy decided for this version."),
    )
    policy_reason = models.CharField(
        max_length=40, choices=PolicyReason.choices, blank=True, verbose_name=_("policy reason")
    )
    policy_params = models.JSONField(
        default=dict,
        blank=True,
        verbose_name=_("policy reason details"),
        help_text=_("The values the reason's wording fills in."),
    )
    # Why it was written: a code (memories.reasons) with its parameters, worded on render.
    change_reason = models.CharField(
        max_length=40, choices=ChangeReason.choices, blank=True, verbose_name=_("change reason")
    )
    change_params = models.JSONField(
        default=dict,
        blank=True,
        verbose_name=_("change reason details"),
        help_text=_("The values the reason's wording fills in."),
    )
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))

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
        return _("Memory %(id)s, version %(version)s") % {
            "id": self.memory_id,
            "version": self.version,
        }

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

    @property
    def policy_reason_text(self) -> str:
        """Why the write policy decided as it did, in the reader's language."""
        return policy_reason_text(self.policy_reason, self.policy_params)

    @property
    def policy_reason_sentence(self) -> str:
        """Why the write policy decided as it did, as the API's English sentence."""
        return policy_reason_sentence(self.policy_reason, self.policy_params)


class MemoryUse(UserOwnedModel):
    """A memory version that was put into an assistant reply (seed 003: log used ids)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    memory = UserForeignKey(
        Memory, on_delete=models.CASCADE, related_name="uses", verbose_name=_("memory")
    )
    version = UserForeignKey(
        MemoryVersion, on_delete=models.CASCADE, related_name="uses", verbose_name=_("version")
    )
    # The assistant message (conversations.Message) the memory went into: a plain id.
    message_id = models.BigIntegerField(
        verbose_name=_("reply message ID"),
        help_text=_("The assistant's reply the memory went into."),
    )
    rank = models.PositiveSmallIntegerField(
        verbose_name=_("rank"),
        help_text=_("Its place among the memories chosen for the reply (1 first)."),
    )
    score = models.FloatField(verbose_name=_("score"))
    used_at = models.DateTimeField(default=timezone.now, verbose_name=_("used at"))

    class Meta:
        verbose_name = _("memory use")
        verbose_name_plural = _("memory uses")
        ordering = ["-used_at", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["message_id", "memory"], name="memoryuse_unique")
        ]
        indexes = [models.Index(fields=["user", "-used_at"])]

    def __str__(self) -> str:
        return _("Memory %(id)s in reply %(message)s (#%(rank)s)") % {
            "id": self.memory_id,
            "message": self.message_id,
            "rank": self.rank,
        }


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

    id = models.UUIDField(
        primary_key=True, default=uuid.uuid4, editable=False, verbose_name=_("receipt ID")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="deletion_receipts",
        verbose_name=_("user"),
    )
    kind = models.CharField(
        max_length=20, choices=Kind.choices, default=Kind.MEMORY, verbose_name=_("kind")
    )
    memory_id = models.CharField(max_length=40, blank=True, verbose_name=_("memory ID"))
    deleted_at = models.DateTimeField(default=timezone.now, verbose_name=_("deleted at"))
    removed = models.JSONField(
        default=dict,
        verbose_name=_("removed"),
        help_text=_("How many of each kind of record were removed (counts only, never content)."),
    )
    # Each copy elsewhere that changed, named by kind, session id and date, never by its text:
    # [{"kind": "reply", "session_id": "12", "date": "2026-11-30"}].
    copies = models.JSONField(
        default=list,
        blank=True,
        verbose_name=_("changed copies"),
        help_text=_(
            "Each copy elsewhere that changed, by kind, conversation and date, never by its text."
        ),
    )

    class Meta:
        verbose_name = _("deletion receipt")
        verbose_name_plural = _("deletion receipts")
        ordering = ["-deleted_at"]
        indexes = [models.Index(fields=["user", "-deleted_at"])]

    def __str__(self) -> str:
        return _("Receipt %(id)s (%(kind)s)") % {"id": self.id, "kind": self.get_kind_display()}


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
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memory_audit_events",
        verbose_name=_("owner"),
        help_text=_("The person whose memories or chats this is about."),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("done by"),
    )
    action = models.CharField(max_length=20, choices=Action.choices, verbose_name=_("action"))
    target_type = models.CharField(max_length=40, default="memory", verbose_name=_("target kind"))
    target_id = models.CharField(max_length=40, blank=True, verbose_name=_("target ID"))
    # Ids and counts only: an audit trail must not keep deleted content alive.
    detail = models.JSONField(
        default=dict,
        blank=True,
        verbose_name=_("details"),
        help_text=_("Ids and counts only, never content."),
    )
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.target_type} {self.target_id}".strip()


class ExtractionRun(UserOwnedModel):
    """One extraction from one exchange: makes reruns no-ops and keeps failures for admin."""

    class Status(models.TextChoices):
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memory_extractions",
        verbose_name=_("user"),
    )
    source_message_id = models.BigIntegerField(
        null=True, blank=True, verbose_name=_("source message ID")
    )
    source_session_id = models.BigIntegerField(
        null=True, blank=True, verbose_name=_("source conversation ID")
    )
    provider = models.CharField(max_length=32, verbose_name=_("provider"))
    status = models.CharField(max_length=10, choices=Status.choices, verbose_name=_("status"))
    attempts = models.PositiveSmallIntegerField(default=1, verbose_name=_("attempts"))
    # Counts per outcome and the write-policy decisions (codes: kind, decision, hours; no
    # content; runs from before codes also keep the policy's English reason).
    outcome = models.JSONField(
        default=dict,
        blank=True,
        verbose_name=_("outcome"),
        help_text=_("How many candidates had each outcome."),
    )
    decisions = models.JSONField(
        default=list,
        blank=True,
        verbose_name=_("policy decisions"),
        help_text=_("The write policy's decision for each candidate (codes, no content)."),
    )
    error = models.CharField(max_length=500, blank=True, verbose_name=_("error"))
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))

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
        return _("Extraction %(id)s (%(status)s)") % {
            "id": self.pk,
            "status": self.get_status_display(),
        }
