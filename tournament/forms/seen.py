"""What a host's page showed when it was drawn: the ``seen`` hidden field every host action form
carries (issue 22 item 7, "a stale button changes nothing and says why").

A page writes ``<input type="hidden" name="seen" value="17.342">`` into each of its action
forms (the template tag ``{% seen_field evening %}``, ``tournament.templatetags.seen_tags``):
the evening's ``version`` when the page was drawn (``tournament.services.versions``) and the id
of the newest entry of its audit log then, so the check can say, from the audit log, what
changed since (``tournament.selectors.stale``). ``SeenVersionForm`` is the one base class (or
mixin) of those forms; a form that cannot inherit it (a result form shared with the phones) is
read beside it as ``SeenVersionForm(request.POST)``.

A form posted without the field (a script, an older page) is not checked; a damaged value is a
form error, and nothing changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError

SEEN_DAMAGED = "This page's mark of when it was drawn was damaged, so nothing was changed: look at the page again."
_SEEN = re.compile(r"([0-9]{1,18})\.([0-9]{0,18})")


@dataclass(frozen=True)
class Seen:
    """When a page was drawn: the evening's ``version`` then and the id of the newest audit
    entry then (0 when the log was empty)."""

    version: int
    entry: int

    def mark(self) -> str:
        """The hidden field's value: "<version>.<entry>" ("17.342")."""
        return f"{self.version}.{self.entry}"


class SeenField(forms.Field):
    """The ``seen`` hidden field: "<version>.<entry id>" in the digits 0 to 9 (at most 18 of
    each), read as a ``Seen``; empty is None (not checked); anything else (NUL, other digits,
    a missing dot) is ``SEEN_DAMAGED``."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value):
        """None for an empty value, else the ``Seen``; ``ValidationError(SEEN_DAMAGED)`` for a
        value not of the form "<version>.<entry>"."""
        if value in self.empty_values:
            return None
        match = _SEEN.fullmatch(str(value)) if len(str(value)) <= 40 else None
        if match is None:
            raise ValidationError(SEEN_DAMAGED, code="damaged")
        return Seen(int(match.group(1)), int(match.group(2) or 0))


class SeenVersionForm(forms.Form):
    """The base class (or mixin, first among the bases) of every host action form: its
    ``seen`` field says when the page with the button was drawn (a ``Seen``, or None when the
    form did not carry it). ``seen_at()`` reads it from a valid form. Works as a form of its own
    for a POST whose other fields another form reads."""

    seen = SeenField()

    def seen_at(self) -> Seen | None:
        """When the posted page was drawn (``Seen``), or None when the form carried no mark.
        Call on a valid form only; raises ``KeyError`` before ``is_valid()``."""
        return self.cleaned_data["seen"]
