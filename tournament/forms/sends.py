"""The one-time id a phone's kept form carries (``static/keep.js``; ``services.sends``).

A phone without JavaScript sends none: the form is then recorded as it always was. An id is
at most 64 letters, digits, "-" or "_"; anything else (NUL, markup, a longer text) is read as
no id at all, so a damaged id never refuses the guest's form, it only loses the protection
against a double record.
"""

from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator

REQUEST_ID = RegexValidator(r"^[A-Za-z0-9_-]{1,64}$")


class RequestIdForm(forms.Form):
    """``request_id``: the one-time id of a form sent from a phone (optional)."""

    request_id = forms.CharField(max_length=64, required=False, validators=[REQUEST_ID])

    def request_id_or_blank(self) -> str:
        """The posted id when it is well formed, else "" (none)."""
        return self.cleaned_data["request_id"] if self.is_valid() else ""
