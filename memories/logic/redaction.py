"""Secret redaction: pure functions, no Django.

`redact(text)` replaces each secret with a placeholder `[redacted: <kind>]`: vendor API keys
and tokens, private keys, JWTs, passwords in connection strings and Wi-Fi QR codes, card
numbers (Luhn) with their CVC and, beside them, their expiry, 주민등록번호 (check digit, or
either half stated as one), passport and driver's licence numbers, bank accounts and one-time
codes (a list of backup codes too, a code in dotted or spaced groups) stated as such, a bank
security card's cells after its name or listed below it, a door's entry code given after the door,
passwords, passphrases, PINs and lock combinations after a cue, passwords given to a command
by its flag (`mysql -pS3cret`), and wallet recovery phrases,
in Korean and English. Full-width
forms and zero-width characters inside a secret do not hide it; text outside the secrets is
returned unchanged, character for character.

The placeholder is a stable English code; `memories.redaction_labels` shows it in the
reader's language. Redaction is idempotent: `redact(redact(x).text) == redact(x)`, and the
findings are exactly the placeholders in the returned text. A memory candidate with any
finding is never stored (write policy).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memories.logic import secret_rules
from memories.logic.secret_commands import command_password_spans
from memories.logic.secret_documents import ID_DOCUMENT, document_spans
from memories.logic.secret_entry_codes import entry_code_spans
from memories.logic.secret_mnemonics import mnemonic_spans
from memories.logic.secret_passwords import password_spans
from memories.logic.secret_rules import luhn_valid, rrn_valid
from memories.logic.secret_security_cards import security_card_spans

__all__ = [
    "KINDS",
    "PLACEHOLDER",
    "PLACEHOLDER_PATTERN",
    "Finding",
    "RedactionResult",
    "contains_secret",
    "is_placeholder_token",
    "luhn_valid",
    "placeholder_kinds",
    "redact",
    "rrn_valid",
    "without_placeholders",
]

KINDS = (
    secret_rules.API_KEY,
    secret_rules.PRIVATE_KEY,
    secret_rules.JWT,
    secret_rules.TOKEN,
    secret_rules.CARD_NUMBER,
    secret_rules.CARD_CODE,
    secret_rules.CARD_EXPIRY,
    secret_rules.PASSWORD,
    secret_rules.RESIDENT_NUMBER,
    secret_rules.BANK_ACCOUNT,
    secret_rules.VERIFICATION_CODE,
    ID_DOCUMENT,
)
PLACEHOLDER = "[redacted: {kind}]"
# A placeholder left by a redaction: text that carried a secret. Only known kinds count, so
# "[redacted: anything]" typed by hand is ordinary text.
PLACEHOLDER_PATTERN = re.compile(
    r"\[redacted: (?P<kind>" + "|".join(re.escape(k) for k in KINDS) + r")\]"
)


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


# Characters that hide a secret without changing how it reads.
_INVISIBLE = "\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
_INVISIBLE_RUN = re.compile("[" + _INVISIBLE + "]+")
# One character for one: full-width ASCII, odd spaces and hyphens (NFKC, for what matters here).
_FOLD = str.maketrans(
    {
        **{chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)},
        **dict.fromkeys("\u00a0\u202f\u205f\u3000" + "".join(map(chr, range(0x2000, 0x200B))), " "),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2212\ufe63", "-"),
    }
)
_FOLDABLE = re.compile("[" + "".join(re.escape(c) for c in map(chr, _FOLD)) + "]")


def _fold(text: str) -> tuple[str, list[int] | None]:
    """The text as the detectors read it, and for each of its characters the index in `text`
    (None when nothing was removed, so indexes are the same)."""
    folded = text.translate(_FOLD) if _FOLDABLE.search(text) else text
    if not _INVISIBLE_RUN.search(folded):
        return folded, None
    kept: list[str] = []
    index: list[int] = []
    cursor = 0
    for run in _INVISIBLE_RUN.finditer(folded):
        kept.append(folded[cursor : run.start()])
        index.extend(range(cursor, run.start()))
        cursor = run.end()
    kept.append(folded[cursor:])
    index.extend(range(cursor, len(folded)))
    return "".join(kept), index


def _mask_placeholders(text: str) -> str:
    """Earlier placeholders become line breaks: no detector reads into or across them."""
    return PLACEHOLDER_PATTERN.sub(lambda m: "\n" * len(m.group(0)), text)


_CARD_MARK = PLACEHOLDER.format(kind=secret_rules.CARD_NUMBER)


def _spans(text: str) -> list[tuple[int, int, str]]:
    folded, index = _fold(text)
    masked = _mask_placeholders(folded)
    spans = [
        *secret_rules.shape_spans(masked),
        # a door's code before the numbers: a tie with a one-time code keeps "password"
        *entry_code_spans(masked),
        *secret_rules.number_spans(masked, card_placeholder=_CARD_MARK in folded),
        *password_spans(masked),
        *command_password_spans(masked),
        *mnemonic_spans(masked),
        *document_spans(masked),
        *security_card_spans(masked),
    ]
    spans = [(s, e, k) for s, e, k in spans if e > s and masked[s:e].strip()]
    if index is None:
        return spans
    return [(index[s], index[e - 1] + 1, k) for s, e, k in spans]


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


def _replace(text: str, spans: list[tuple[int, int, str]]) -> str:
    parts: list[str] = []
    cursor = 0
    for start, end, kind in spans:
        parts.append(text[cursor:start])
        parts.append(PLACEHOLDER.format(kind=kind))
        cursor = end
    parts.append(text[cursor:])
    return "".join(parts)


def redact(text: str) -> RedactionResult:
    """`text` with every secret replaced by a placeholder, and the placeholders in it."""
    # A replacement can bring together text that reads as a secret only now (a cue before
    # a placeholder, digits on both sides of one): redact until nothing new is found. Each
    # round replaces at least one character outside placeholders, so this ends, and the
    # result is a fixed point: redacting it again changes nothing.
    while spans := _merge(_spans(text)):
        text = _replace(text, spans)
    findings = tuple(
        Finding(kind=m.group("kind"), start=m.start(), end=m.end())
        for m in PLACEHOLDER_PATTERN.finditer(text)
    )
    return RedactionResult(text=text, findings=findings)


def contains_secret(text: str) -> bool:
    """True for text with a secret or with the placeholder an earlier redaction left."""
    return redact(text).found


def is_placeholder_token(token: str) -> bool:
    """True for a word that is, or is part of, a placeholder: "[redacted:", "password]"."""
    token = token.strip()
    if not token:
        return False
    if PLACEHOLDER_PATTERN.fullmatch(token) or token.startswith("[redacted:"):
        return True
    return token.endswith("]") and token[:-1] in {w for k in KINDS for w in k.split()}


_SPACES = re.compile(r"[ \t]{2,}")


def without_placeholders(text: str) -> str:
    """`text` with every placeholder removed, for keyword, tag, topic and summary extraction."""
    return _SPACES.sub(" ", PLACEHOLDER_PATTERN.sub(" ", text)).strip()


def placeholder_kinds(text: str) -> list[str]:
    """The kinds of the placeholders in `text`, in order."""
    return [m.group("kind") for m in PLACEHOLDER_PATTERN.finditer(text)]
