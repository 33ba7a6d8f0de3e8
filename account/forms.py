"""Forms of the account pages: erasing everything, connecting an agent."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from memoryhub.validation import InvalidText, clean_message_text


class EraseConfirmForm(forms.Form):
    """Deleting all of one's data needs the username (or the word "delete") typed out."""

    confirm = forms.CharField(
        label=_('To confirm, type your username or the word "delete"'), max_length=150
    )

    def __init__(self, *args: Any, username: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.username = username
        self.fields["confirm"].widget.attrs.update({"autocomplete": "off", "spellcheck": "false"})

    def clean_confirm(self) -> str:
        typed = self.cleaned_data["confirm"].strip()
        if typed not in (self.username, "delete", _("delete")):
            raise forms.ValidationError(
                _('Type your username "%(username)s" or the word "delete" exactly.'),
                params={"username": self.username},
            )
        return typed


AGENT_ACCESS_CHOICES = [
    ("read", _("Read only: search and list your memories")),
    ("read,write", _("Read and write: also add memories (they wait for your approval) and forget")),
]


class AgentCreateForm(forms.Form):
    """Connecting a new agent: its name and what its token may do."""

    name = forms.CharField(label=_("Name"), max_length=100, strip=True)
    access = forms.ChoiceField(
        label=_("Access"), choices=AGENT_ACCESS_CHOICES, widget=forms.RadioSelect, initial="read"
    )

    def clean_name(self) -> str:
        try:
            return clean_message_text(self.cleaned_data["name"], max_chars=100).strip()
        except InvalidText as exc:
            raise forms.ValidationError(_("Give the agent a name.")) from exc

    def scopes(self) -> list[str]:
        return str(self.cleaned_data["access"]).split(",")
