"""Codes the memory pages show that are not a model field's choices, each with its label.

The writers of these codes sit in several apps (receipts' counts in memories, conversations and
account; copy kinds in conversations; tool names in account.mcp; the kinds of chat record
staff read in conversations' admin): the codes they write are
declared here, where the pages look up their labels (`memory_label` in
memories/templatetags/memory_labels.py), and tests/memories/test_labels.py checks that every
code a writer uses has its label.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import models
from django.utils.translation import gettext, gettext_noop, ngettext
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
    before a delete); written by conversations.services.forgetting. A session is a
    "conversation" to the people who read these."""

    STATEMENT = "statement", _("What you said")
    REPLY = "reply", _("The assistant’s reply")
    TITLE = "title", _("Conversation title")
    SUMMARY = "summary", _("Conversation summary (made again)")
    TAGS = "tags", _("Conversation tags (made again)")
    TOPIC_KEYWORDS = "topic_keywords", _("Topic keywords (made again)")
    RECALLED = "recalled", _("What a later reply recalled")


class AgentTool(models.TextChoices):
    """An MCP tool a connected agent called (`AuditEvent.detail["tool"]`, account/mcp)."""

    SEARCH_MEMORY = "search_memory", _("Searched your memories")
    LIST_MEMORIES = "list_memories", _("Listed your memories")
    ADD_MEMORY = "add_memory", _("Added a memory")
    FORGET_MEMORY = "forget_memory", _("Forgot a memory")
    READ_MEMORY = "read_memory", _("Read a memory")


class AgentToolTried(models.TextChoices):
    """An MCP tool call that was not done (`AuditEvent.detail["outcome"]` other than "done"):
    the same codes as `AgentTool`, said as an attempt, so a refused call never reads as the
    act."""

    SEARCH_MEMORY = "search_memory", _("Tried to search your memories")
    LIST_MEMORIES = "list_memories", _("Tried to list your memories")
    ADD_MEMORY = "add_memory", _("Tried to add a memory")
    FORGET_MEMORY = "forget_memory", _("Tried to forget a memory")
    READ_MEMORY = "read_memory", _("Tried to read a memory")


class AgentCallOutcome(models.TextChoices):
    """How an agent's call ended (`AuditEvent.detail["outcome"]`; a row from before the
    outcome was kept has none and was done). The codes are `AgentError.code`s."""

    DONE = "done", _("done")
    REFUSED = "refused", _("refused: nothing was stored")
    NOT_FOUND = "not_found", _("no such memory")
    FORBIDDEN = "forbidden", _("not allowed")
    INVALID = "invalid", _("bad request")


class ChatRecord(models.TextChoices):
    """A kind of chat record staff read in admin: `AuditEvent.target_type` other than
    `memory` (conversations/admin.py `read_kind`), shown in the user's access log."""

    MESSAGE = "message", _("Chat messages")
    SESSION = "session", _("Conversations")
    TOPIC = "topic", _("Chat topics")
    IMPORT = "import", _("History imports")
    TAG = "tag", _("Chat tags")
    TAG_HISTORY = "tag_history", _("Chat tag history")


# One record read ("Chat message 12"), and the rows of a list page read ("3 chat messages in
# a list"), by kind; translated when shown (`chat_read_label`).
_ONE_READ: dict[str, str] = {
    ChatRecord.MESSAGE: gettext_noop("Chat message %(number)s"),
    ChatRecord.SESSION: gettext_noop("Chat session %(number)s"),
    ChatRecord.TOPIC: gettext_noop("Chat topic %(number)s"),
    ChatRecord.IMPORT: gettext_noop("History import %(number)s"),
    ChatRecord.TAG: gettext_noop("Chat tag %(number)s"),
    ChatRecord.TAG_HISTORY: gettext_noop("Chat tag history entry %(number)s"),
}
_LIST_READ: dict[str, tuple[str, str]] = {
    ChatRecord.MESSAGE: (
        gettext_noop("%(counter)s chat message in a list"),
        gettext_noop("%(counter)s chat messages in a list"),
    ),
    ChatRecord.SESSION: (
        gettext_noop("%(counter)s chat session in a list"),
        gettext_noop("%(counter)s chat sessions in a list"),
    ),
    ChatRecord.TOPIC: (
        gettext_noop("%(counter)s chat topic in a list"),
        gettext_noop("%(counter)s chat topics in a list"),
    ),
    ChatRecord.IMPORT: (
        gettext_noop("%(counter)s history import in a list"),
        gettext_noop("%(counter)s history imports in a list"),
    ),
    ChatRecord.TAG: (
        gettext_noop("%(counter)s chat tag in a list"),
        gettext_noop("%(counter)s chat tags in a list"),
    ),
    ChatRecord.TAG_HISTORY: (
        gettext_noop("%(counter)s chat tag history entry in a list"),
        gettext_noop("%(counter)s chat tag history entries in a list"),
    ),
}


def chat_read_label(*, kind: str, number: str, detail: Mapping[str, Any]) -> str:
    """What of the user's chats a staff member read, in the active language: one record of
    `kind` by its `number`, or (no number) the rows of a list page, `detail["listed"]` of them,
    "found by a search" when `detail["searched"]`. A kind without a label is shown as it is."""
    if number:
        one = _ONE_READ.get(kind)
        return gettext(one) % {"number": number} if one else f"{kind} {number}"
    forms = _LIST_READ.get(kind)
    listed = detail.get("listed")
    count = listed if isinstance(listed, int) and not isinstance(listed, bool) else 0
    shown = ngettext(forms[0], forms[1], count) % {"counter": count} if forms else kind
    if detail.get("searched"):
        shown = f"{shown} ({gettext('found by a search')})"
    return shown
