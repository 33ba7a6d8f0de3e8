"""Forms of the chat pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from memoryhub.validation import InvalidText, clean_message_text


class MessageForm(forms.Form):
    # Not required and not stripped: clean_message_text owns every rule for message text,
    # the same rules the API and imports apply.
    content = forms.CharField(
        label=gettext_lazy("Message"),
        required=False,
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 3, "autocomplete": "off", "aria-describedby": "composer-hint"}
        ),
    )

    def clean_content(self) -> str:
        try:
            return clean_message_text(self.cleaned_data["content"])
        except InvalidText as exc:
            raise forms.ValidationError(_why(exc), code=exc.code) from exc


def _why(exc: InvalidText) -> str:
    if exc.code == "blank":
        return _("Write a message first.")
    if exc.code == "too_long":
        return ngettext(
            "This message is too long: at most %(limit)d character.",
            "This message is too long: at most %(limit)d characters.",
            exc.limit,
        ) % {"limit": exc.limit}
    return _("This message cannot be sent: it holds characters that cannot be stored.")
