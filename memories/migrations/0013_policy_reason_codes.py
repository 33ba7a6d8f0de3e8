"""`MemoryVersion.policy_reason` becomes a code with parameters (`policy_params`), worded on
render, as `status_reason` and `change_reason` did in 0011.

The write policy's reasons were one English sentence per kind of candidate (a volatile fact's
with its hours); each maps to the kind's code. A sentence no code fits becomes `other` with
the text kept as `text`. Reversing writes the sentences back. The table is a frozen copy:
later changes to the write policy must not change what this migration did.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import migrations, models

# Sentence -> code, as the write policy wrote them up to this migration.
_CODES = {
    "stated preference: stored with the user's scope and the time of change": "stated_preference",
    "approved decision: stored with its approver and source": "approved_decision",
    "verified procedure: stored with its conditions and version": "verified_procedure",
    "the user stated it about themselves: stored with its source": "stated_fact",
    "assistant inference: pending until the user approves it": "assistant_inference",
    "model speculation: never stored, a guess would harden into a fact": "model_speculation",
    "passwords, tokens and keys are never stored; use a secret manager": "secret",
    "raw tool output is not stored by default: large, stale, may inject": "raw_tool_output",
    "reads as instructions to the assistant: quarantined as data": "injection",
}
_SENTENCES = {code: sentence for sentence, code in _CODES.items()}
_VOLATILE = "volatile fact (price, stock, weather, policy): short expiry"
_VOLATILE_HOURS = re.compile(re.escape(_VOLATILE) + r"(?: \((\d+) h\))?")


def policy_code_of(sentence: str) -> tuple[str, dict[str, Any]]:
    """The code and parameters of a stored policy reason."""
    if not sentence:
        return "", {}
    if volatile := _VOLATILE_HOURS.fullmatch(sentence):
        hours = volatile.group(1)
        return "volatile_fact", {"hours": int(hours)} if hours else {}
    if sentence in _CODES:
        return _CODES[sentence], {}
    return "other", {"text": sentence}


def policy_sentence_of(code: str, params: dict[str, Any]) -> str:
    """The sentence a code stood for (the reverse of `policy_code_of`)."""
    if not code:
        return ""
    if code == "other":
        return str(params.get("text", ""))[:300]
    if code == "volatile_fact":
        hours = params.get("hours")
        return f"{_VOLATILE} ({hours} h)" if hours else _VOLATILE
    return _SENTENCES.get(code, code)


def _to_codes(apps: Any, schema_editor: Any) -> None:
    # One UPDATE per distinct reason: versions are many, their reasons few.
    MemoryVersion = apps.get_model("memories", "MemoryVersion")
    reasons = MemoryVersion.objects.values_list("policy_reason", flat=True).distinct()
    for sentence in list(reasons):
        code, params = policy_code_of(sentence)
        MemoryVersion.objects.filter(policy_reason=sentence).update(
            policy_reason=code, policy_params=params
        )


def _to_sentences(apps: Any, schema_editor: Any) -> None:
    MemoryVersion = apps.get_model("memories", "MemoryVersion")
    pairs = MemoryVersion.objects.values_list("policy_reason", "policy_params").distinct()
    for code, params in list(pairs):
        MemoryVersion.objects.filter(policy_reason=code, policy_params=params).update(
            policy_reason=policy_sentence_of(code, params), policy_params={}
        )


class Migration(migrations.Migration):
    dependencies = [("memories", "0012_labels_and_names")]

    operations = [
        migrations.AddField(
            model_name="memoryversion",
            name="policy_params",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The values the reason's wording fills in.",
                verbose_name="policy reason details",
            ),
        ),
        migrations.RunPython(_to_codes, _to_sentences),
        migrations.AlterField(
            model_name="memoryversion",
            name="policy_reason",
            field=models.CharField(
                blank=True,
                choices=[
                    (
                        "stated_preference",
                        "a preference you stated: kept with its scope and when it changed",
                    ),
                    (
                        "approved_decision",
                        "a decision: kept with who approved it and where it came from",
                    ),
                    ("verified_procedure", "a procedure: kept with its conditions and version"),
                    ("stated_fact", "you said it about yourself: kept with where you said it"),
                    (
                        "assistant_inference",
                        "the assistant inferred it: it waits for your approval",
                    ),
                    ("model_speculation", "a guess of the model: never kept"),
                    ("secret", "a password, token or key: never kept"),
                    ("raw_tool_output", "a tool's raw output: not kept"),
                    (
                        "volatile_fact",
                        "it changes fast (a price, stock, weather or a policy), so it expires soon",
                    ),
                    (
                        "injection",
                        "it reads like instructions to the assistant, so it is kept only as data",
                    ),
                    ("other", "another reason"),
                ],
                max_length=40,
                verbose_name="policy reason",
            ),
        ),
    ]
