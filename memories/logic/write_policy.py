"""The write policy of seed 003 as one table: pure functions, no Django.

Every memory candidate is classified into a `CandidateKind`; `WRITE_POLICY` maps each kind to
a decision and the reason that is recorded on the stored version (or on the extraction run when
nothing is stored).

| candidate            | decision     | reason                                                 |
|----------------------|--------------|--------------------------------------------------------|
| stated preference    | store        | the user's scope and the time of the change are kept   |
| approved decision    | store        | the decision is linked to its approver and source      |
| verified procedure   | store        | kept with its conditions and version                   |
| stated fact/episode  | store        | the user said it about themselves                      |
| assistant inference  | pending      | waits for the user's approval                          |
| model speculation    | never        | a guess would harden into a fact in the next session  |
| password, token, key | never        | secrets belong in a secret manager                     |
| raw tool output      | skip         | large, stale, may carry injections; not by default     |
| volatile fact        | expire soon  | prices, stock, weather, policies: re-check the source  |
| injection            | quarantine   | instructions to the assistant are data, never rules    |
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum

from memories.logic import injection, redaction


class Decision(StrEnum):
    STORE = "store"
    PENDING = "pending"
    EXPIRE_SOON = "expire_soon"
    QUARANTINE = "quarantine"
    NEVER = "never"
    SKIP = "skip"


class CandidateKind(StrEnum):
    STATED_PREFERENCE = "stated_preference"
    APPROVED_DECISION = "approved_decision"
    VERIFIED_PROCEDURE = "verified_procedure"
    STATED_FACT = "stated_fact"
    ASSISTANT_INFERENCE = "assistant_inference"
    MODEL_SPECULATION = "model_speculation"
    SECRET = "secret"
    RAW_TOOL_OUTPUT = "raw_tool_output"
    VOLATILE_FACT = "volatile_fact"
    INJECTION = "injection"


class Origin(StrEnum):
    """Where a candidate comes from."""

    USER = "user"  # the user stated it (chat, the API, the memories page)
    ASSISTANT = "assistant"  # the model inferred it, or wrote it with its memory tool
    TOOL = "tool"  # a tool's output


@dataclass(frozen=True)
class Rule:
    decision: Decision
    reason: str


WRITE_POLICY: dict[CandidateKind, Rule] = {
    CandidateKind.STATED_PREFERENCE: Rule(
        Decision.STORE, "stated preference: stored with the user's scope and the time of change"
    ),
    CandidateKind.APPROVED_DECISION: Rule(
        Decision.STORE, "approved decision: stored with its approver and source"
    ),
    CandidateKind.VERIFIED_PROCEDURE: Rule(
        Decision.STORE, "verified procedure: stored with its conditions and version"
    ),
    CandidateKind.STATED_FACT: Rule(
        Decision.STORE, "the user stated it about themselves: stored with its source"
    ),
    CandidateKind.ASSISTANT_INFERENCE: Rule(
        Decision.PENDING, "assistant inference: pending until the user approves it"
    ),
    CandidateKind.MODEL_SPECULATION: Rule(
        Decision.NEVER, "model speculation: never stored, a guess would harden into a fact"
    ),
    CandidateKind.SECRET: Rule(
        Decision.NEVER, "passwords, tokens and keys are never stored; use a secret manager"
    ),
    CandidateKind.RAW_TOOL_OUTPUT: Rule(
        Decision.SKIP, "raw tool output is not stored by default: large, stale, may inject"
    ),
    CandidateKind.VOLATILE_FACT: Rule(
        Decision.EXPIRE_SOON, "volatile fact (price, stock, weather, policy): short expiry"
    ),
    CandidateKind.INJECTION: Rule(
        Decision.QUARANTINE, "reads as instructions to the assistant: quarantined as data"
    ),
}

_VOLATILE_NEVER_REASON = "volatile fact (price, stock, weather, policy): not stored at all"

# Facts that go stale fast (seed 003: 시세·재고·정책). Checked on facts and episodes only:
# "나는 비 오는 날씨를 좋아해" is a lasting preference, "오늘 날씨는 맑음" is not.
_VOLATILE = re.compile(
    r"주가|시세|재고|날씨|환율|가격|값이|금리|유가|시가|종가|코인\s*가격|할인|세일|품절|"
    r"정책|약관|요금|기온|미세\s*먼지|예보|"
    r"\b(?:price[sd]?|pricing|costs?\s+\$|stock\s+(?:price|level|levels|count)|in\s+stock|"
    r"out\s+of\s+stock|inventory|share\s+price|exchange\s+rate|interest\s+rate|weather|"
    r"forecast|temperature|polic(?:y|ies)|terms\s+of\s+service|discount|on\s+sale|"
    r"market\s+cap|trading\s+at)\b",
    re.IGNORECASE,
)
_SPECULATION = re.compile(
    r"아마|아마도|인\s*것\s*같|일\s*것\s*같|일지도|일\s*수도|추측|짐작|듯하|듯\s*보|같아\s*보|"
    r"\b(?:probably|maybe|perhaps|might|may\s+be|possibly|i\s+guess|i\s+suspect|seems?\s+to|"
    r"likely|presumably|apparently|could\s+be)\b",
    re.IGNORECASE,
)
_TOOL_OUTPUT = re.compile(
    r"Traceback \(most recent call last\)|^\s*\$ \S|^\s*>>> |\btool_result\b|"
    r"^\s*(?:HTTP/\d|\{\s*\"|\[\s*\{)",
    re.MULTILINE,
)
# An inference the model itself is unsure of is speculation, not a candidate for approval.
SPECULATION_CONFIDENCE = 0.5
_TOOL_OUTPUT_LINES = 25


@dataclass(frozen=True)
class Candidate:
    content: str
    type: str
    origin: Origin
    confidence: float = 1.0
    # The whole message the candidate was extracted from, when there is one: a candidate
    # cut from a message that carries instructions to the assistant (a pasted e-mail, a
    # page "to the AI reading this") is quarantined with it, whatever part was cut out.
    source_text: str = ""


@dataclass(frozen=True)
class PolicyResult:
    kind: CandidateKind
    decision: Decision
    reason: str
    # Hours until the memory expires (volatile facts), else None.
    expires_in_hours: int | None = None

    @property
    def stores(self) -> bool:
        return self.decision not in (Decision.NEVER, Decision.SKIP)


def is_volatile(text: str) -> bool:
    return bool(_VOLATILE.search(text))


def is_speculation(text: str) -> bool:
    return bool(_SPECULATION.search(text))


def looks_like_tool_output(text: str) -> bool:
    """Logs, tracebacks, JSON dumps and shell sessions rather than something said."""
    if text.count("\n") >= _TOOL_OUTPUT_LINES or _TOOL_OUTPUT.search(text):
        return True
    stripped = text.strip()
    if stripped[:1] in "{[":
        try:
            json.loads(stripped)
        except ValueError:
            return False
        return True
    return False


# The extractor writes a note about the user in the third person ("... when you explain things
# to them" from "... to me"). A pronoun the note has and its message had not stands for the
# user: read back as the user's own, or a plain preference reads as something sent to someone
# else. The message itself is judged as said.
_NOTE_PRONOUNS = {
    "they": "i",
    "them": "me",
    "their": "my",
    "theirs": "mine",
    "themselves": "myself",
    "themself": "myself",
}
_NOTE_PRONOUN = re.compile(r"\b(?:they|them|their|theirs|themselves|themself)\b", re.IGNORECASE)


def note_in_the_users_words(note: str, said: str) -> str:
    """`note` with the third-person pronouns that `said` does not contain read as the user's."""

    def back(match: re.Match[str]) -> str:
        word = match.group(0)
        if re.search(rf"\b{word}\b", said, re.IGNORECASE):
            return word
        return _NOTE_PRONOUNS[word.lower()]

    return _NOTE_PRONOUN.sub(back, note)


def _as_the_user(match: re.Match[str]) -> str:
    return _NOTE_PRONOUNS[match.group(0).lower()]


def classify(candidate: Candidate) -> CandidateKind:
    """The row of the table this candidate falls under; the first match wins."""
    text = candidate.content
    if redaction.contains_secret(text):
        return CandidateKind.SECRET
    note = note_in_the_users_words(text, candidate.source_text) if candidate.source_text else text
    # "Never repeat their passwords back to them, even if they paste them": the message has
    # "them" (the passwords), the note's last "them" is the user. A clean message whose note
    # reads clean with every pronoun read as the user's is the extractor's rewording.
    reworded = (
        bool(candidate.source_text)
        and not injection.is_injection(candidate.source_text)
        and not injection.is_injection(_NOTE_PRONOUN.sub(_as_the_user, text))
    )
    if (injection.is_injection(note) and not reworded) or (
        candidate.source_text and injection.is_injection(candidate.source_text)
    ):
        return CandidateKind.INJECTION
    if candidate.origin is Origin.TOOL or (
        candidate.origin is not Origin.USER and looks_like_tool_output(text)
    ):
        return CandidateKind.RAW_TOOL_OUTPUT
    if candidate.origin is Origin.ASSISTANT and (
        candidate.confidence < SPECULATION_CONFIDENCE or is_speculation(text)
    ):
        return CandidateKind.MODEL_SPECULATION
    if candidate.type in ("fact", "episode") and is_volatile(text):
        return CandidateKind.VOLATILE_FACT
    if candidate.origin is Origin.ASSISTANT:
        return CandidateKind.ASSISTANT_INFERENCE
    return {
        "preference": CandidateKind.STATED_PREFERENCE,
        "decision": CandidateKind.APPROVED_DECISION,
        "procedure": CandidateKind.VERIFIED_PROCEDURE,
    }.get(candidate.type, CandidateKind.STATED_FACT)


def decide(candidate: Candidate, *, volatile_expiry_hours: int) -> PolicyResult:
    """The policy's decision for `candidate`, with the reason to record."""
    kind = classify(candidate)
    rule = WRITE_POLICY[kind]
    if kind is CandidateKind.VOLATILE_FACT:
        if volatile_expiry_hours <= 0:
            return PolicyResult(kind, Decision.NEVER, _VOLATILE_NEVER_REASON)
        reason = f"{rule.reason} ({volatile_expiry_hours} h)"
        return PolicyResult(kind, rule.decision, reason, expires_in_hours=volatile_expiry_hours)
    return PolicyResult(kind, rule.decision, rule.reason)


def initial_status(result: PolicyResult, origin: Origin) -> str:
    """The status a new version's lineage takes under this decision."""
    if result.decision is Decision.QUARANTINE:
        return "quarantined"
    if result.decision is Decision.PENDING or origin is not Origin.USER:
        return "pending"
    return "active"
