"""Forms of the "my memories" pages: the list's filters, editing a memory, erasing all data."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from memories.models import Memory, MemoryStatus, MemoryType, Sensitivity
from memoryhub.validation import InvalidText, clean_message_text

StrOrPromise = str | Promise

TYPE_CHOICES: list[tuple[str, StrOrPromise]] = list(MemoryType.choices)
# The list's filter, in the order a person looks for them (the labels are the model's).
STATUS_CHOICES: list[tuple[str, StrOrPromise]] = [
    (status.value, status.label)
    for status in (
        MemoryStatus.ACTIVE,
        MemoryStatus.PENDING,
        MemoryStatus.DISPUTED,
        MemoryStatus.QUARANTINED,
        MemoryStatus.EXPIRED,
        MemoryStatus.REJECTED,
        MemoryStatus.SUPERSEDED,
    )
]
SENSITIVITY_CHOICES: list[tuple[str, StrOrPromise]] = list(Sensitivity.choices)
_ANY: list[tuple[str, StrOrPromise]] = [("", _("Any"))]
# The HTML datetime-local control sends "2025-03-01T09:30"; seconds are optional.
_LOCAL_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"]


class MemoryFilterForm(forms.Form):
    """The list page's query string; bad values are dropped rather than refused."""

    q = forms.CharField(label=_("Search"), required=False, max_length=500)
    type = forms.ChoiceField(label=_("Type"), choices=_ANY + TYPE_CHOICES, required=False)
    status = forms.ChoiceField(label=_("Status"), choices=_ANY + STATUS_CHOICES, required=False)
    sensitivity = forms.ChoiceField(
        label=_("Sensitivity"), choices=_ANY + SENSITIVITY_CHOICES, required=False
    )
    expiring = forms.BooleanField(label=_("Expiring within a week"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The label is read out, not shown: the box says what it is for.
        self.fields["q"].widget.attrs.update(
            {"type": "search", "autocomplete": "off", "placeholder": _("Search your memories")}
        )

    def filters(self) -> dict[str, Any]:
        """The valid filters, with every invalid one left empty."""
        if self.is_valid():
            return dict(self.cleaned_data)
        data: dict[str, Any] = dict.fromkeys(self.fields, "")
        data["expiring"] = False
        for name, value in getattr(self, "cleaned_data", {}).items():
            data[name] = value
        return data


class MemoryEditForm(forms.Form):
    """A new version of a memory: only the fields that differ from the current one change."""

    content = forms.CharField(
        label=_("What should be remembered"),
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    type = forms.ChoiceField(label=_("Type"), choices=TYPE_CHOICES)
    sensitivity = forms.ChoiceField(
        label=_("Sensitivity"),
        choices=SENSITIVITY_CHOICES,
        help_text=_("Highly sensitive memories are only shown to the assistant, not other agents."),
    )
    expires_at = forms.DateTimeField(
        label=_("Forget it after"),
        required=False,
        input_formats=_LOCAL_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Leave empty to keep it until you delete it."),
    )

    @classmethod
    def for_memory(cls, memory: Memory, data: Any = None) -> MemoryEditForm:
        version = memory.current_version
        assert version is not None
        initial = {
            "content": version.content,
            "type": version.type,
            "sensitivity": version.sensitivity,
            "expires_at": version.expires_at,
        }
        return cls(data=data, initial=initial)

    def clean_content(self) -> str:
        try:
            return clean_message_text(self.cleaned_data["content"]).strip()
        except InvalidText as exc:
            raise forms.ValidationError(
                _("This cannot be saved: it %(reason)s."), params={"reason": str(exc)}
            ) from exc
