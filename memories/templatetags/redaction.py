"""`{{ text|redaction_labels }}`: redaction placeholders in the reader's language."""

from __future__ import annotations

from django import template

from memories.redaction_labels import render_placeholders

register = template.Library()


# is_safe: the labels add no HTML, so safe input stays safe and other input is escaped.
@register.filter(is_safe=True)
def redaction_labels(value: object) -> object:
    return render_placeholders(value) if isinstance(value, str) else value
