"""Redaction placeholders in the reader's language.

Stored text keeps the stable English code `[redacted: <kind>]` (`memories.logic.redaction`)
`[removed]` where a forgotten memory's content was (`memoryhub.text.REMOVED_MARKER`) and the
marker of recalled text withheld as instructions (`memories.logic.injection.WITHHELD`);
pages show them as words, never as the codes: "[redacted: password]" reads "(password hidden)"
/ "(비밀번호 가림)" and "[removed]" reads "(deleted)" / "(삭제됨)". Exports keep the codes.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from memories.logic import redaction
from memories.logic.injection import WITHHELD
from memoryhub.text import REMOVED_MARKER

KIND_LABELS: dict[str, Promise] = {
    "api key": _("API key"),
    "private key": _("private key"),
    "jwt": _("JWT"),
    "token": _("access token"),
    "card number": _("card number"),
    "card code": _("card security code"),
    "card expiry": _("card expiry date"),
    "password": _("password"),
    "resident registration number": _("resident registration number"),
    "bank account": _("bank account number"),
    "verification code": _("verification code"),
    "id document number": _("ID document number"),
}


def kind_label(kind: str) -> str:
    """The reader's word for a placeholder's kind; an unknown kind is shown as it is."""
    label = KIND_LABELS.get(kind)
    return kind if label is None else str(label)


def render_placeholders(text: str) -> str:
    """`text` with every placeholder and removal marker in the active language, the rest
    unchanged."""
    if not text or "[" not in text:
        return text
    if REMOVED_MARKER in text:
        text = text.replace(REMOVED_MARKER, gettext("(deleted)"))
    if WITHHELD in text:
        text = text.replace(
            WITHHELD, gettext("(withheld: it reads as instructions to the assistant)")
        )
    return redaction.PLACEHOLDER_PATTERN.sub(
        lambda m: gettext("(%(kind)s hidden)") % {"kind": kind_label(m.group("kind"))}, text
    )
