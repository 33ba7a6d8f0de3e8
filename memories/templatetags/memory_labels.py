"""`{{ value|memory_label:"status" }}`: a stored code's label from its TextChoices.

The labels are the choices' own (translated with gettext_lazy), so a page shows what the model
declares; a value no choice has (a row from before a code existed) is shown as it is.
"""

from __future__ import annotations

from django import template
from django.db import models
from django.utils.translation import gettext

from memories.labels import (
    REMOVED_COUNT_PREFIX,
    AgentCallOutcome,
    AgentTool,
    AgentToolTried,
    ChangedField,
    CopyKind,
    RemovedCount,
    chat_read_label,
)
from memories.models import AuditEvent, CreatedBy, DeletionReceipt, MemoryStatus, MemoryType
from memories.models import Sensitivity as SensitivityChoices

register = template.Library()

_KINDS: dict[str, type[models.TextChoices]] = {
    "status": MemoryStatus,
    "type": MemoryType,
    "sensitivity": SensitivityChoices,
    "written-by": CreatedBy,
    "action": AuditEvent.Action,
    "receipt-kind": DeletionReceipt.Kind,
    "field": ChangedField,
    "removed-key": RemovedCount,
    "copy-kind": CopyKind,
    "agent-tool": AgentTool,
}


def choice_label(choices: type[models.TextChoices], value: object) -> str:
    """The label of `value` in `choices`, or `value` itself when it is none of them."""
    text = "" if value is None else str(value)
    return str(choices(text).label) if text in choices.values else text


@register.filter
def memory_label(value: object, kind: str) -> str:
    """The label of `value` among the choices named `kind` (a template error for a bad kind)."""
    try:
        choices = _KINDS[kind]
    except KeyError:
        raise template.TemplateSyntaxError(f"memory_label: no choices named {kind!r}") from None
    if kind == "removed-key" and isinstance(value, str):
        value = value.removeprefix(REMOVED_COUNT_PREFIX)
    if kind == "agent-tool" and value not in choices.values:
        return gettext("Called %(tool)s") % {"tool": value}
    return choice_label(choices, value)


@register.filter
def agent_call(event: AuditEvent) -> str:
    """What an agent's call did, or for a call that was not done, what it tried and how it
    ended ("Tried to forget a memory (no such memory)"): a refused call never reads as the
    act. A row without an outcome is from before outcomes were kept, when only done calls
    had ids."""
    detail = event.detail if isinstance(event.detail, dict) else {}
    tool = detail.get("tool")
    outcome = detail.get("outcome") or AgentCallOutcome.DONE
    if outcome == AgentCallOutcome.DONE:
        return memory_label(tool, "agent-tool")
    if tool in AgentToolTried.values:
        tried = choice_label(AgentToolTried, tool)
    else:
        tried = gettext("Tried to call %(tool)s") % {"tool": tool}
    return gettext("%(tried)s (%(outcome)s)") % {
        "tried": tried,
        "outcome": choice_label(AgentCallOutcome, outcome),
    }


@register.filter
def chat_read(event: AuditEvent) -> str:
    """What of the user's chats a staff read named (an audit event whose `target_type` is a
    chat record, written by conversations' admin): `labels.chat_read_label`."""
    detail = event.detail if isinstance(event.detail, dict) else {}
    return chat_read_label(kind=event.target_type, number=event.target_id, detail=detail)
