"""Secret redaction: pure functions, no Django.

`redact(text)` replaces API keys and tokens of common providers, private keys, JWTs, card
numbers that pass the Luhn check and "password is X" statements (Korean and English) with a
placeholder such as `[redacted: api key]`. Findings carry the kind and position, never the
secret. Chat messages are redacted before they are stored or sent to a model; a memory
candidate with any finding is never stored (write policy).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PLACEHOLDER = "[redacted: {kind}]"
# A placeholder left by an earlier redaction: text that carried a secret.
PLACEHOLDER_PATTERN = re.compile(r"\[redacted: [a-z ]+\]")


@dataclass(frozen=True)
class Finding:
    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class RedactionResult:
    text: str
    findings: tuple[Finding, ...]

    @property
    def found(self) -> bool:
        return bool(self.findings)

    @property
    def kinds(self) -> list[str]:
        return sorted({f.kind for f in self.findings})


_B = r"(?<![A-Za-z0-9_\-])"  # start of a token
_E = r"(?![A-Za-z0-9_\-])"  # end of a token

# (kind, pattern) in order: more specific first, so sk-ant- is not taken for an OpenAI key.
_TOKEN_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    (
        "private key",
        re.compile(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|.*\Z)",
            re.DOTALL,
        ),
    ),
    ("api key", re.compile(_B + r"sk-ant-[A-Za-z0-9_\-]{16,}" + _E)),
    ("api key", re.compile(_B + r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}" + _E)),
    (
        "api key",
        re.compile(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}(?![A-Z0-9])"),
    ),
    (
        "api key",
        re.compile(
            r"(?i)aws_?secret_?access_?key[\"'\s]*[:=][\"'\s]*[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])"
        ),
    ),
    ("api key", re.compile(_B + r"gh[pousr]_[A-Za-z0-9]{30,}" + _E)),
    ("api key", re.compile(_B + r"github_pat_[A-Za-z0-9_]{22,}" + _E)),
    ("api key", re.compile(_B + r"glpat-[A-Za-z0-9_\-]{20,}" + _E)),
    ("api key", re.compile(_B + r"xox[abposre]-[A-Za-z0-9\-]{10,}" + _E)),
    ("api key", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]+")),
    ("api key", re.compile(_B + r"AIza[0-9A-Za-z_\-]{35}" + _E)),
    ("api key", re.compile(_B + r"(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}" + _E)),
    ("api key", re.compile(_B + r"whsec_[0-9A-Za-z]{24,}" + _E)),
    ("api key", re.compile(_B + r"hf_[A-Za-z0-9]{30,}" + _E)),
    ("api key", re.compile(_B + r"npm_[A-Za-z0-9]{36}" + _E)),
    (
        "jwt",
        re.compile(_B + r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}" + _E),
    ),
    ("token", re.compile(r"(?i)(?<=bearer )[A-Za-z0-9._\-+/=]{20,}")),
]

# "api_key = value" and the like; the value must look like a key (see _spans).
_ASSIGNMENT = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:api[_\-]?key|access[_\-]?token|auth[_\-]?token|secret[_\-]?key|"
    r"client[_\-]?secret|private[_\-]?token|token|secret)[\"']?\s*[:=]\s*[\"']?"
    r"(?P<value>[A-Za-z0-9._\-+/=]{12,})"
)

# Card numbers: 13 to 19 digits, optionally grouped by single spaces or dashes.
_CARD = re.compile(r"(?<![\d\-])\d(?:[ \-]?\d){12,18}(?![\d\-])")

# "password is X" statements. The value is a single token; Korean copulas after it are kept.
_KO_PASSWORD = re.compile(
    r"(?P<label>비밀\s?번호|비번|패스워드|암호|PIN\s?번호|핀\s?번호)"
    r"\s*(?:는|은|이|가|:|=|：)\s*(?:바로\s*)?[\"'“‘]?"
    r"(?P<value>[^\s\"'”’,]+?)"
    r"(?P<tail>(?:이야|야|이에요|예요|에요|입니다|이고|이며|라고|이라고|이다|임)?[\"'”’]?(?=[\s,.!?]|$))"
)
_EN_PASSWORD = re.compile(
    r"(?i)\b(?P<label>password|passwd|passcode|passphrase|pwd|pw|pin)"
    r"\s*(?:is|was|=|:|is:|-)\s*[\"'“‘]?(?P<value>[^\s\"'”’,]+)"
)
# Words that follow "password is" without being a password ("the password is too short").
_NOT_A_PASSWORD = frozenset(
    """is too not the a an very strong weak wrong correct incorrect required expired reset
    changed set same different ok okay fine secure long short empty missing invalid valid
    unknown forgotten lost new old mine yours his hers ours theirs below above here there
    this that it""".split()  # noqa: SIM905
)


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum card numbers carry."""
    if not digits.isdigit() or not 13 <= len(digits) <= 19:
        return False
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _spans(text: str) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    for kind, pattern in _TOKEN_PATTERNS:
        spans += [(m.start(), m.end(), kind) for m in pattern.finditer(text)]
    for match in _ASSIGNMENT.finditer(text):
        value = match.group("value")
        if any(c.isdigit() for c in value) or len(value) >= 24:
            spans.append((match.start("value"), match.end("value"), "token"))
    for match in _CARD.finditer(text):
        digits = re.sub(r"[ \-]", "", match.group(0))
        separators = set(re.findall(r"[ \-]", match.group(0)))
        if len(separators) <= 1 and luhn_valid(digits):
            spans.append((match.start(), match.end(), "card number"))
    for match in _KO_PASSWORD.finditer(text):
        value = match.group("value")
        if value and re.search(r"[A-Za-z0-9!@#$%^&*]", value):
            spans.append((match.start("value"), match.end("value"), "password"))
    for match in _EN_PASSWORD.finditer(text):
        value = match.group("value").rstrip(".")  # a sentence's full stop is not part of it
        if len(value) >= 3 and value.lower() not in _NOT_A_PASSWORD:
            start = match.start("value")
            spans.append((start, start + len(value), "password"))
    return spans


def _merge(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Overlapping findings become one, keeping the kind of the earliest, longest span."""
    merged: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(spans, key=lambda s: (s[0], -s[1])):
        if merged and start < merged[-1][1]:
            last_start, last_end, last_kind = merged[-1]
            merged[-1] = (last_start, max(last_end, end), last_kind)
        else:
            merged.append((start, end, kind))
    return merged


def redact(text: str) -> RedactionResult:
    """`text` with every secret replaced by a placeholder, and what was found."""
    if not text:
        return RedactionResult(text=text, findings=())
    spans = _merge(_spans(text))
    if not spans:
        return RedactionResult(text=text, findings=())
    parts: list[str] = []
    findings: list[Finding] = []
    cursor = 0
    for start, end, kind in spans:
        parts.append(text[cursor:start])
        placeholder = PLACEHOLDER.format(kind=kind)
        position = sum(len(p) for p in parts)
        findings.append(Finding(kind=kind, start=position, end=position + len(placeholder)))
        parts.append(placeholder)
        cursor = end
    parts.append(text[cursor:])
    return RedactionResult(text="".join(parts), findings=tuple(findings))


def contains_secret(text: str) -> bool:
    """True for text with a secret or with the placeholder an earlier redaction left."""
    return bool(PLACEHOLDER_PATTERN.search(text)) or redact(text).found
