"""Codes the memory pages show that are not a model field's choices, each with its label.

The writers of these codes sit in several apps (receipts' counts in memories, conversations and
account; copy kinds in conversations; tool names in account.mcp): the codes they write are
declared here, where the pages look up their labels (`memory_label` in
memories/templatetags/memory_labels.py), and tests/memories/test_labels.py checks that every
code a writer uses has its label.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class ChangedField(models.TextChoices):
    """A field named by a change: a version's diff (selectors/history.py) or a staff edit."""

    TYPE = "type", _("Type")
    SENSITIVITY = "sensitivity", _("Sensitivity")
    CONFIDENCE = "confidence", _("Confidence")
    IMPORTANCE = "importance", _("Importance")
    EXPIRES_AT = "expires_at", _("Expires")
    SCOPE = "scope", _("Scope")
    CONTENT = "content", _("Content")
    STATUS = "status", _("Status")
    STATUS_REASON = "status_reason", _("Reason for the status")


class RemovedCount(models.TextChoices):
    """A key of `DeletionReceipt.removed`: what was counted as deleted."""

    MEMORIES = "memories", _("Memories")
    VERSIONS = "versions", _("Versions")
    EMBEDDINGS = "embeddings", _("Search vectors")
    KEYWORD_INDEXES = "keyword_indexes", _("Keyword index entries")
    USES = "uses", _("Usage records")
    CONFLICT_LINKS = "conflict_links", _("Conflict links")
    CACHED_COPIES = "cached_copies", _("Copies in chat replies")
    EXTRACTION_RUNS = "extraction_runs", _("Extraction records")
    SESSIONS = "sessions", _("Sessions")
    MESSAGES = "messages", _("Messages")
    TOPICS = "topics", _("Topics")
    TAG_WEIGHTS = "tag_weights", _("Tags")
    TAG_HISTORY = "tag_history", _("Tag history entries")
    IMPORTS = "imports", _("Imports")
    LLM_CALLS = "llm_calls", _("Language model call records")
    AGENTS = "agents", _("Connected agents")
    COPIES_IN_OTHER_REPLIES = "copies_in_other_replies", _("Copies in other replies")
    SUMMARIES = "summaries", _("Session summaries")
    SESSION_STATES = "session_states", _("Session notes the assistant kept")
    TAGS_FORGOTTEN = "tags_forgotten", _("Tags no longer used")


# The erase-all receipt counts the memories app's rows under this prefix ("memories.versions").
REMOVED_COUNT_PREFIX = "memories."


class CopyKind(models.TextChoices):
    """Where a copy of deleted content was (`DeletionReceipt.copies[].kind`, the copies listed
    before a delete): the codes of conversations.services.forgetting.CopyKind."""

    STATEMENT = "statement", _("What you said")
    REPLY = "reply", _("The assistant’s reply")
    TITLE = "title", _("Session title")
    SUMMARY = "summary", _("Session summary (made again)")
    TAGS = "tags", _("Session tags (made again)")
    TOPIC_KEYWORDS = "topic_keywords", _("Topic keywords (made again)")
    RECALLED = "recalled", _("What a later reply recalled")


class AgentTool(models.TextChoices):
    """An MCP tool a connected agent called (`AuditEvent.detail["tool"]`, account/mcp)."""

    SEARCH_MEMORY = "search_memory", _("Searched your memories")
    LIST_MEMORIES = "list_memories", _("Listed your memories")
    ADD_MEMORY = "add_memory", _("Added a memory")
    FORGET_MEMORY = "forget_memory", _("Forgot a memory")
    READ_MEMORY = "read_memory", _("Read a memory")
