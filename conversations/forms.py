"""Forms of the chat pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from memoryhub.validation import InvalidText, clean_message_text


class MessageForm(forms.Form):
    # Not required and not stripped: clean_message_text owns every rule for message text,
    # the same rules the API and imports apply.
    content = forms.CharField(
        label=_("Message"),
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
            raise forms.ValidationError(
                _("This message cannot be sent: it %(reason)s."), params={"reason": str(exc)}
            ) from exc
