"""Django forms for the guests list at the door: the filter, one guest's action, checking in
many at once, removing a guest, and the helpers' links.

Every value a door page reads comes through one of these forms (bounded lengths, NUL
refused by Django's ``CharField``, choices checked); the services decide what the rules allow.
"""

from __future__ import annotations

from typing import cast

from django import forms

from tournament.forms.fields import WholeNumberField, plain_words
from tournament.forms.seen import SeenVersionForm
from tournament.models import Guest, HelperLink

SHOW_CHOICES = [
    ("", "Everyone"),
    (Guest.Status.REGISTERED.value, "Not here yet"),
    (Guest.Status.HERE.value, "Here"),
    (Guest.Status.LEFT.value, "Left"),
]


class GuestFilterForm(forms.Form):
    """What part of the guests list to show: a piece of a name (or contact) and a status.

    Read from the query string (``?q=ann&show=registered``); an invalid status shows every
    status. House rule: a search longer than any name (120 characters) cannot be part of one,
    so it finds nobody, rather than being dropped and listing everyone.
    """

    q = forms.CharField(
        max_length=120,
        required=False,
        strip=True,
        label="Find a guest",
        widget=forms.TextInput(
            attrs={"type": "search", "autocomplete": "off", "spellcheck": "false", "placeholder": "Type part of a name"}
        ),
    )
    show = forms.ChoiceField(choices=SHOW_CHOICES, required=False, label="Show")

    def filters(self) -> tuple[str, str]:
        """``(text, status)`` to filter by: the text as typed (stripped), "" for every name; the
        status, "" for every status when it is not one of the page's."""
        if not self.is_bound:
            return "", ""
        self.is_valid()
        text = self.cleaned_data.get("q")
        if text is None:  # too long for any name: kept as typed, so that it matches nobody
            text = str(self.data.get("q") or "").strip()[:1000]
        return text, self.cleaned_data.get("show") or ""


class GuestActionForm(SeenVersionForm, GuestFilterForm):
    """One guest's button on the list: check in, check out, seat now, left, or a new private
    link; ``q`` and ``show`` carry the list's filter so the page comes back as it was."""

    ACTIONS = [
        ("here", "Check in"),
        ("registered", "Check out"),
        ("left", "Left"),
        ("reissue", "New private link"),
    ]
    action = forms.ChoiceField(choices=ACTIONS)


class GuestBulkForm(GuestFilterForm):
    """Check in many guests at once: the ticked ones (``guest``, ids), or everyone the list shows
    now (``everyone`` = "listed", with the list's filter in ``q`` and ``show``)."""

    guest = forms.TypedMultipleChoiceField(coerce=int, required=False)
    everyone = forms.ChoiceField(choices=[("", "the ticked guests"), ("listed", "everyone listed")], required=False)

    def __init__(self, *args, guest_ids: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["guest"]).choices = [(pk, pk) for pk in guest_ids]

    def clean(self):
        data = super().clean()
        if not data.get("everyone") and not data.get("guest") and not self.errors:
            raise forms.ValidationError("Tick the guests to check in first, or check in everyone listed.")
        return data


class GuestRemoveForm(GuestFilterForm):
    """*Remove*, asked first: ``confirm`` = "yes" removes (a POST); ``keep`` = "yes" puts the
    row back as it was (the question's *Keep them*, with htmx)."""

    confirm = forms.ChoiceField(choices=[("", "not yet"), ("yes", "Yes, remove them")], required=False)
    keep = forms.ChoiceField(choices=[("", "no"), ("yes", "Keep them")], required=False)

    def choice(self, name: str) -> bool:
        """Whether ``name`` ("confirm" or "keep") was sent as "yes" in a valid form."""
        return self.is_valid() and self.cleaned_data.get(name) == "yes"


class HelperLinkForm(forms.Form):
    """The host creates a helper's link (``action`` "create": a ``role`` and an optional
    ``label``, for whom) or revokes one (``action`` "revoke": ``link``, its number)."""

    action = forms.ChoiceField(choices=[("create", "Create"), ("revoke", "Revoke")])
    role = forms.ChoiceField(choices=[("", "Choose…")] + HelperLink.Role.choices, required=False, label="A link for")
    label = forms.CharField(max_length=60, required=False, label="For whom (optional)")
    link = forms.TypedChoiceField(coerce=int, required=False, choices=[])

    def __init__(self, *args, link_numbers: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["link"]).choices = [(n, n) for n in link_numbers]

    def clean(self):
        data = super().clean()
        if data.get("action") == "create" and not data.get("role"):
            self.add_error("role", "Choose what the helper does: the door or the scores.")
        if data.get("action") == "revoke" and data.get("link") in (None, ""):
            self.add_error("link", "That is not one of this evening's links: reload the page.")
        return data


class RoundNumberForm(forms.Form):
    """The round a result form was shown for (a hidden field), so that a form sent after the
    bell is refused instead of landing in the next round."""

    round = WholeNumberField(min_value=1, max_value=10_000, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        plain_words(self, damaged="The form was damaged: open it again.")
