"""The injection detector's verdict on a stored text, decided once and kept beside it.

Recalled messages and session summaries go into later prompts only after the detector has
read them (`injection.withhold`): at ~1.3 ms a text and ~30 texts a context, that check was a
fifth of the context's time at 1M messages (issue 18 line 4). The verdict depends only on the
text and on the detector, so it is decided when the text is stored (when a message is
embedded, when a summary is written) and kept as a stamp:

    <detector version, 8 hex><verdict: "c" clean | "x" withheld><digest of version + text, 12 hex>

A stamp holds only for the exact text and the detector version that made it. Text changed
afterwards (forgetting redacts spans of it) or a detector changed by a release (its rules,
the allowlist, the Korean analyser they use) no longer matches its stamp, and the text is
read by the detector again, as if it had none: a stale stamp costs time, never safety.
`manage.py instruction_stamps_refresh` stamps again what a release made stale. Pure
functions, no Django.
"""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

from memories.logic import injection, standing
from memoryhub import text as text_analysis

CLEAN = "c"
WITHHELD = "x"
# Every module whose code decides a verdict, and the analyser's packages.
_DETECTOR_MODULES = (injection, standing, text_analysis)
_DETECTOR_PACKAGES = ("kiwipiepy", "kiwipiepy_model")


def _detector_version() -> str:
    digest = hashlib.blake2b(digest_size=4)
    for module in _DETECTOR_MODULES:
        digest.update(Path(str(module.__file__)).read_bytes())
    for package in _DETECTOR_PACKAGES:
        digest.update(f"{package}=={metadata.version(package)}".encode())
    return digest.hexdigest()


VERSION = _detector_version()
STAMP_LENGTH = len(VERSION) + 1 + 12


def _digest(text: str) -> str:
    return hashlib.blake2b((VERSION + text).encode(), digest_size=6).hexdigest()


def stamp(text: str) -> str:
    """Run the detector on `text` and return its verdict as a stamp to store beside it."""
    verdict = WITHHELD if injection.is_injection(text) else CLEAN
    return f"{VERSION}{verdict}{_digest(text)}"


def is_current(value: str) -> bool:
    """Whether a stored stamp was made by this detector version (its text may still differ)."""
    return value.startswith(VERSION) and len(value) == STAMP_LENGTH


def carries_instructions(text: str, stamped: str) -> bool:
    """`injection.is_injection(text)`, read from `stamped` when it is this detector's verdict
    on this exact text, else decided again by the detector."""
    if is_current(stamped) and stamped[len(VERSION) + 1 :] == _digest(text):
        return stamped[len(VERSION)] == WITHHELD
    return injection.is_injection(text)


def withhold(text: str, stamped: str) -> str:
    """`injection.withhold(text)` with the verdict read as `carries_instructions` reads it."""
    return injection.WITHHELD if carries_instructions(text, stamped) else text
