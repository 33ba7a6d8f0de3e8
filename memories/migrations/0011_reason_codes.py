"""`Memory.status_reason` and `MemoryVersion.change_reason` become codes with parameters
(`status_params`, `change_params`), worded on render.

Every English sentence the services stored maps to its code; a sentence no code fits (older
wording, a staff member's own words in admin) becomes `other` with the text kept as `text`.
Reversing writes the sentences back. The tables are frozen copies: later changes to
memories.reasons must not change what this migration did.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import migrations, models

# Sentence -> code, as the services wrote them up to this migration.
_CODES = {
    "reads as instructions to the assistant: quarantined as data": "injection",
    "assistant inference: pending until the user approves it": "assistant_inference",
    "approved by the user": "approved",
    "confirmed by the user's own statement": "confirmed",
    "rejected by the user": "rejected",
    "removed by the assistant with its memory tool": "removed_by_assistant",
    "marked wrong by the user": "marked_wrong",
    "the user took back marking it wrong": "wrong_undone",
    "past its expiry time": "expired",
    "quarantined by staff": "staff_quarantine",
}
_SENTENCES = {code: sentence for sentence, code in _CODES.items()}
_VOLATILE = "volatile fact (price, stock, weather, policy): short expiry"
_VOLATILE_HOURS = re.compile(re.escape(_VOLATILE) + r"(?: \((\d+) h\))?")
# An older wording of a wrong mark, with the count in it.
_MARKED_WRONG_TIMES = re.compile(r"marked wrong (\d+) times? by the user")
# The write policy's other reasons, each leaving a memory waiting for approval.
_POLICY_KINDS = {
    "stated preference: stored with the user's scope and the time of change": "stated_preference",
    "approved decision: stored with its approver and source": "approved_decision",
    "verified procedure: stored with its conditions and version": "verified_procedure",
    "the user stated it about themselves: stored with its source": "stated_fact",
    "model speculation: never stored, a guess would harden into a fact": "model_speculation",
    "passwords, tokens and keys are never stored; use a secret manager": "secret",
    "raw tool output is not stored by default: large, stale, may inject": "raw_tool_output",
}
_POLICY_SENTENCES = {kind: sentence for sentence, kind in _POLICY_KINDS.items()}


def code_of(sentence: str, *, wrong_count: int) -> tuple[str, dict[str, Any]]:
    """The code and parameters of a stored sentence."""
    if not sentence:
        return "", {}
    if sentence in _CODES:
        code = _CODES[sentence]
        return code, {"count": wrong_count} if code == "marked_wrong" and wrong_count else {}
    if volatile := _VOLATILE_HOURS.fullmatch(sentence):
        hours = volatile.group(1)
        return "volatile_fact", {"hours": int(hours)} if hours else {}
    if wrong := _MARKED_WRONG_TIMES.fullmatch(sentence):
        return "marked_wrong", {"count": int(wrong.group(1))}
    if sentence in _POLICY_KINDS:
        return "awaiting_approval", {"kind": _POLICY_KINDS[sentence]}
    return "other", {"text": sentence}


def sentence_of(code: str, params: dict[str, Any]) -> str:
    """The sentence a code stood for (the reverse of `code_of`)."""
    if not code:
        return ""
    if code == "other":
        return str(params.get("text", ""))[:300]
    if code == "volatile_fact":
        hours = params.get("hours")
        return f"{_VOLATILE} ({hours} h)" if hours else _VOLATILE
    if code == "awaiting_approval":
        return _POLICY_SENTENCES.get(str(params.get("kind")), "")
    return _SENTENCES.get(code, code)


# Change reasons, as the services wrote them up to this migration.
_CHANGE_CODES = {
    "created": "created",
    "written by the user": "written_by_user",
    "edited by the user": "edited_by_user",
    "extracted from the conversation": "extracted",
    "extracted; conflicts with an existing memory": "extracted_conflict",
    "corrected by a later statement": "corrected",
    "edited by the assistant (memory tool)": "edited_by_assistant",
    "written by a connected agent": "written_by_agent",
    "marked wrong by the user": "marked_wrong",
}
_CHANGE_SENTENCES = {code: sentence for sentence, code in _CHANGE_CODES.items()}
_CORRECTED = re.compile(r"corrected by a later statement \(message (\d+)\)")
_UNDONE = re.compile(r"undone from the chat: back to version (\d+)")
_WRONG_TIMES = re.compile(r"marked wrong by the user \((\d+)x\)")


def change_code_of(sentence: str) -> tuple[str, dict[str, Any]]:
    """The code and parameters of a stored change reason."""
    if not sentence:
        return "", {}
    if sentence in _CHANGE_CODES:
        return _CHANGE_CODES[sentence], {}
    if corrected := _CORRECTED.fullmatch(sentence):
        return "corrected", {"message_id": int(corrected.group(1))}
    if undone := _UNDONE.fullmatch(sentence):
        return "undone_from_chat", {"version": int(undone.group(1))}
    if wrong := _WRONG_TIMES.fullmatch(sentence):
        return "marked_wrong", {"count": int(wrong.group(1))}
    return "other", {"text": sentence}


def change_sentence_of(code: str, params: dict[str, Any]) -> str:
    """The change reason a code stood for (the reverse of `change_code_of`)."""
    if code == "other":
        return str(params.get("text", ""))[:300]
    if code == "corrected" and "message_id" in params:
        return f"corrected by a later statement (message {params['message_id']})"
    if code == "undone_from_chat":
        return f"undone from the chat: back to version {params.get('version')}"
    if code == "marked_wrong" and "count" in params:
        return f"marked wrong by the user ({params['count']}x)"
    return _CHANGE_SENTENCES.get(code, code)


def _change_to_codes(apps: Any, schema_editor: Any) -> None:
    # One UPDATE per distinct reason: versions are many, their reasons few.
    MemoryVersion = apps.get_model("memories", "MemoryVersion")
    reasons = MemoryVersion.objects.values_list("change_reason", flat=True).distinct()
    for sentence in list(reasons):
        code, params = change_code_of(sentence)
        MemoryVersion.objects.filter(change_reason=sentence).update(
            change_reason=code, change_params=params
        )


def _change_to_sentences(apps: Any, schema_editor: Any) -> None:
    MemoryVersion = apps.get_model("memories", "MemoryVersion")
    pairs = MemoryVersion.objects.values_list("change_reason", "change_params").distinct()
    for code, params in list(pairs):
        MemoryVersion.objects.filter(change_reason=code, change_params=params).update(
            change_reason=change_sentence_of(code, params), change_params={}
        )


def _to_codes(apps: Any, schema_editor: Any) -> None:
    Memory = apps.get_model("memories", "Memory")
    changed = []
    for memory in Memory.objects.exclude(status_reason="").only(
        "pk", "status_reason", "wrong_count"
    ):
        code, params = code_of(memory.status_reason, wrong_count=memory.wrong_count)
        memory.status_reason, memory.status_params = code, params
        changed.append(memory)
    Memory.objects.bulk_update(changed, ["status_reason", "status_params"], batch_size=500)


def _to_sentences(apps: Any, schema_editor: Any) -> None:
    Memory = apps.get_model("memories", "Memory")
    changed = []
    for memory in Memory.objects.exclude(status_reason="").only(
        "pk", "status_reason", "status_params"
    ):
        memory.status_reason = sentence_of(memory.status_reason, memory.status_params)
        memory.status_params = {}
        changed.append(memory)
    Memory.objects.bulk_update(changed, ["status_reason", "status_params"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("memories", "0010_memory_conflict_user")]

    operations = [
        migrations.AddField(
            model_name="memory",
            name="status_params",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="memoryversion",
            name="change_params",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(_to_codes, _to_sentences),
        migrations.RunPython(_change_to_codes, _change_to_sentences),
        migrations.AlterField(
            model_name="memoryversion",
            name="change_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("created", "created"),
                    ("written_by_user", "written by you"),
                    ("edited_by_user", "edited by you"),
                    ("extracted", "extracted from the conversation"),
                    ("extracted_conflict", "extracted; contradicts another memory"),
                    ("corrected", "corrected by something you said later"),
                    ("edited_by_assistant", "edited by the assistant with its memory tool"),
                    ("written_by_agent", "written by a connected agent"),
                    ("undone_from_chat", "undone from the chat"),
                    ("marked_wrong", "marked wrong by you"),
                    ("other", "another reason"),
                ],
                max_length=40,
            ),
        ),
        migrations.AlterField(
            model_name="memory",
            name="status_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    ("injection", "it reads like instructions to the assistant, so it is kept only as data"),
                    ("assistant_inference", "the assistant inferred it: it waits for your approval"),
                    ("volatile_fact", "it changes fast (a price, stock, weather or a policy), so it expires soon"),
                    ("awaiting_approval", "it waits for your approval"),
                    ("approved", "approved by you"),
                    ("confirmed", "confirmed by something you said"),
                    ("rejected", "rejected by you"),
                    ("removed_by_assistant", "removed by the assistant with its memory tool"),
                    ("marked_wrong", "you marked it wrong"),
                    ("wrong_undone", "you took back marking it wrong"),
                    ("expired", "past its expiry time"),
                    ("staff_quarantine", "a staff member set it aside for review"),
                    ("other", "another reason"),
                ],
                max_length=40,
            ),
        ),
    ]
