"""Why a memory has its status: a code with parameters, stored on `Memory`, worded on render.

`Memory.status_reason` holds a `StatusReason` code and `Memory.status_params` its parameters
(JSON: `count`, `hours`, `kind`, `text`). The pages show `status_reason_text` in the reader's
language; the REST API and the assistant's memory tool show `status_reason_sentence`, the
English sentence the services stored before codes (docs/API.md, `status_reason`), beside the
code itself.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from memories.logic.write_policy import WRITE_POLICY, CandidateKind, Decision, PolicyResult

Params = dict[str, Any]


class StatusReason(models.TextChoices):
    # Set by the write policy when a memory is stored.
    INJECTION = (
        "injection",
        _("it reads like instructions to the assistant, so it is kept only as data"),
    )
    ASSISTANT_INFERENCE = (
        "assistant_inference",
        _("the assistant inferred it: it waits for your approval"),
    )
    VOLATILE_FACT = (
        "volatile_fact",
        _("it changes fast (a price, stock, weather or a policy), so it expires soon"),
    )
    # Any other kind of the write policy that left a memory waiting (param `kind`).
    AWAITING_APPROVAL = "awaiting_approval", _("it waits for your approval")
    # Set by a person or a service later on.
    APPROVED = "approved", _("approved by you")
    CONFIRMED = "confirmed", _("confirmed by something you said")
    REJECTED = "rejected", _("rejected by you")
    REMOVED_BY_ASSISTANT = (
        "removed_by_assistant",
        _("removed by the assistant with its memory tool"),
    )
    MARKED_WRONG = "marked_wrong", _("you marked it wrong")
    WRONG_UNDONE = "wrong_undone", _("you took back marking it wrong")
    EXPIRED = "expired", _("past its expiry time")
    STAFF_QUARANTINE = "staff_quarantine", _("a staff member set it aside for review")
    # A reason from before codes that no code fits (param `text`, shown as it was).
    OTHER = "other", _("another reason")


# The English sentences the API and the memory tool show (the text stored before codes).
_SENTENCES: dict[str, str] = {
    StatusReason.INJECTION: WRITE_POLICY[CandidateKind.INJECTION].reason,
    StatusReason.ASSISTANT_INFERENCE: WRITE_POLICY[CandidateKind.ASSISTANT_INFERENCE].reason,
    StatusReason.VOLATILE_FACT: WRITE_POLICY[CandidateKind.VOLATILE_FACT].reason,
    StatusReason.APPROVED: "approved by the user",
    StatusReason.CONFIRMED: "confirmed by the user's own statement",
    StatusReason.REJECTED: "rejected by the user",
    StatusReason.REMOVED_BY_ASSISTANT: "removed by the assistant with its memory tool",
    StatusReason.MARKED_WRONG: "marked wrong by the user",
    StatusReason.WRONG_UNDONE: "the user took back marking it wrong",
    StatusReason.EXPIRED: "past its expiry time",
    StatusReason.STAFF_QUARANTINE: "quarantined by staff",
}


def status_reason_for_policy(policy: PolicyResult) -> tuple[str, Params]:
    """The reason a memory stored under `policy` is not active at once."""
    if policy.decision is Decision.QUARANTINE:
        return StatusReason.INJECTION, {}
    if policy.kind is CandidateKind.VOLATILE_FACT:
        hours = policy.expires_in_hours
        return StatusReason.VOLATILE_FACT, {} if hours is None else {"hours": hours}
    if policy.kind is CandidateKind.ASSISTANT_INFERENCE:
        return StatusReason.ASSISTANT_INFERENCE, {}
    return StatusReason.AWAITING_APPROVAL, {"kind": policy.kind.value}


def status_reason_text(code: str, params: Params) -> str:
    """The reason in the active language ("" for no reason)."""
    if not code:
        return ""
    if code == StatusReason.MARKED_WRONG and isinstance(params.get("count"), int):
        count = params["count"]
        return ngettext(
            "you marked it wrong %(counter)s time", "you marked it wrong %(counter)s times", count
        ) % {"counter": count}
    if code == StatusReason.OTHER and isinstance(params.get("text"), str):
        return str(params["text"])
    if code in StatusReason.values:
        return str(StatusReason(code).label)
    return code


def status_reason_sentence(code: str, params: Params) -> str:
    """The reason as the English sentence of the API ("" for no reason)."""
    if not code:
        return ""
    if code == StatusReason.OTHER:
        return str(params.get("text", ""))
    if code == StatusReason.AWAITING_APPROVAL:
        policy_reasons = {kind.value: rule.reason for kind, rule in WRITE_POLICY.items()}
        return policy_reasons.get(str(params.get("kind")), "waiting for the user's approval")
    sentence = _SENTENCES.get(code, code)
    if code == StatusReason.VOLATILE_FACT and isinstance(params.get("hours"), int):
        return f"{sentence} ({params['hours']} h)"
    return sentence


class ChangeReason(models.TextChoices):
    """Why a memory version was written: `MemoryVersion.change_reason`, params in
    `change_params`."""

    CREATED = "created", _("created")
    WRITTEN_BY_USER = "written_by_user", _("written by you")
    EDITED_BY_USER = "edited_by_user", _("edited by you")
    EXTRACTED = "extracted", _("extracted from the conversation")
    EXTRACTED_CONFLICT = "extracted_conflict", _("extracted; contradicts another memory")
    # A later statement in the chat (param `message_id` when it came from a message).
    CORRECTED = "corrected", _("corrected by something you said later")
    EDITED_BY_ASSISTANT = "edited_by_assistant", _("edited by the assistant with its memory tool")
    WRITTEN_BY_AGENT = "written_by_agent", _("written by a connected agent")
    # An update undone from the chat (param `version`: the version it went back to).
    UNDONE_FROM_CHAT = "undone_from_chat", _("undone from the chat")
    # A confidence drop by a wrong mark, as versions recorded it once (param `count`).
    MARKED_WRONG = "marked_wrong", _("marked wrong by you")
    # A reason from before codes that no code fits (param `text`, shown as it was).
    OTHER = "other", _("another reason")


_CHANGE_SENTENCES: dict[str, str] = {
    ChangeReason.CREATED: "created",
    ChangeReason.WRITTEN_BY_USER: "written by the user",
    ChangeReason.EDITED_BY_USER: "edited by the user",
    ChangeReason.EXTRACTED: "extracted from the conversation",
    ChangeReason.EXTRACTED_CONFLICT: "extracted; conflicts with an existing memory",
    ChangeReason.CORRECTED: "corrected by a later statement",
    ChangeReason.EDITED_BY_ASSISTANT: "edited by the assistant (memory tool)",
    ChangeReason.WRITTEN_BY_AGENT: "written by a connected agent",
    ChangeReason.UNDONE_FROM_CHAT: "undone from the chat",
    ChangeReason.MARKED_WRONG: "marked wrong by the user",
}


def change_reason_text(code: str, params: Params) -> str:
    """Why a version was written, in the active language ("" for no reason)."""
    if not code:
        return ""
    if code == ChangeReason.UNDONE_FROM_CHAT and isinstance(params.get("version"), int):
        return gettext("undone from the chat: back to version %(version)s") % {
            "version": params["version"]
        }
    if code == ChangeReason.OTHER and isinstance(params.get("text"), str):
        return str(params["text"])
    if code in ChangeReason.values:
        return str(ChangeReason(code).label)
    return code


def change_reason_sentence(code: str, params: Params) -> str:
    """Why a version was written, as the English sentence of the API."""
    if code == ChangeReason.OTHER:
        return str(params.get("text", ""))
    sentence = _CHANGE_SENTENCES.get(code, code)
    if code == ChangeReason.CORRECTED and isinstance(params.get("message_id"), int):
        return f"{sentence} (message {params['message_id']})"
    if code == ChangeReason.UNDONE_FROM_CHAT and isinstance(params.get("version"), int):
        return f"{sentence}: back to version {params['version']}"
    if code == ChangeReason.MARKED_WRONG and isinstance(params.get("count"), int):
        return f"{sentence} ({params['count']}x)"
    return sentence


class PolicyReason(models.TextChoices):
    """Why the write policy decided as it did for a version: `MemoryVersion.policy_reason`,
    params in `policy_params`. The codes are the policy's kinds of candidate
    (`memories.logic.write_policy.CandidateKind`); a volatile fact has `hours`."""

    STATED_PREFERENCE = (
        "stated_preference",
        _("a preference you stated: kept with its scope and when it changed"),
    )
    APPROVED_DECISION = (
        "approved_decision",
        _("a decision: kept with who approved it and where it came from"),
    )
    VERIFIED_PROCEDURE = (
        "verified_procedure",
        _("a procedure: kept with its conditions and version"),
    )
    STATED_FACT = "stated_fact", _("you said it about yourself: kept with where you said it")
    ASSISTANT_INFERENCE = (
        "assistant_inference",
        _("the assistant inferred it: it waits for your approval"),
    )
    MODEL_SPECULATION = "model_speculation", _("a guess of the model: never kept")
    SECRET = "secret", _("a password, token or key: never kept")
    RAW_TOOL_OUTPUT = "raw_tool_output", _("a tool's raw output: not kept")
    VOLATILE_FACT = (
        "volatile_fact",
        _("it changes fast (a price, stock, weather or a policy), so it expires soon"),
    )
    INJECTION = (
        "injection",
        _("it reads like instructions to the assistant, so it is kept only as data"),
    )
    # A reason from before codes that no code fits (param `text`, shown as it was).
    OTHER = "other", _("another reason")


def policy_reason_for(policy: PolicyResult) -> tuple[str, Params]:
    """The code and parameters of the reason a version was written under `policy`."""
    if policy.kind is CandidateKind.VOLATILE_FACT and policy.expires_in_hours is not None:
        return PolicyReason.VOLATILE_FACT, {"hours": policy.expires_in_hours}
    return PolicyReason(policy.kind.value), {}


def policy_reason_text(code: str, params: Params) -> str:
    """The write policy's reason in the active language ("" for no reason)."""
    if not code:
        return ""
    if code == PolicyReason.VOLATILE_FACT and isinstance(params.get("hours"), int):
        hours = params["hours"]
        return ngettext(
            "it changes fast (a price, stock, weather or a policy), so it expires in "
            "%(counter)s hour",
            "it changes fast (a price, stock, weather or a policy), so it expires in "
            "%(counter)s hours",
            hours,
        ) % {"counter": hours}
    if code == PolicyReason.OTHER and isinstance(params.get("text"), str):
        return str(params["text"])
    if code in PolicyReason.values:
        return str(PolicyReason(code).label)
    return code


def policy_reason_sentence(code: str, params: Params) -> str:
    """The write policy's reason as the English sentence of the API (the text stored before
    codes: `WRITE_POLICY`'s reason, with the hours of a volatile fact)."""
    if not code:
        return ""
    if code == PolicyReason.OTHER:
        return str(params.get("text", ""))
    kinds = {kind.value: kind for kind in CandidateKind}
    if code not in kinds:
        return code
    sentence = WRITE_POLICY[kinds[code]].reason
    if code == PolicyReason.VOLATILE_FACT and isinstance(params.get("hours"), int):
        return f"{sentence} ({params['hours']} h)"
    return sentence
