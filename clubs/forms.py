"""The club pages' forms: they read and check what was typed; the services decide what the rules
allow (``clubs.services``) and raise ``RuleError`` with the message the page shows."""

from __future__ import annotations

import datetime
import json
from typing import Any, cast

from django import forms
from django.core.serializers.json import DjangoJSONEncoder

from clubs.models import Club, Member
from tournament.forms.evening import EveningForm, guest_file_text
from tournament.forms.fields import AsciiDateField, AsciiTimeField, IdField
from tournament.registry import format_choices, format_named, installed_formats

NOT_USUAL = ("name", "date")
"""The evening form's fields that are each evening's own, not a club's usual settings."""


def order_choices(format: str = "") -> list[tuple[str, str]]:
    """The ways the installed formats (or only ``format``) rank a season, for the club form:
    blank (the format's own) first, then each format's choices named with the format
    ("Progressive Euchre: Stars, then points")."""
    out = [("", "The format's own order")]
    for plugin in installed_formats().values():
        if format and plugin.key != format:
            continue
        rules = plugin.season_rules
        if rules is not None and len(rules.orders) > 1:
            out += [(o.key, f"{plugin.title}: {o.words}") for o in rules.orders]
    return out


class ClubForm(forms.Form):
    """A club's name, how its seasons rank, whether subs are shown in them."""

    name = forms.CharField(max_length=120, label="The club's name")
    season_order = forms.ChoiceField(required=False, label="Season standings rank by", choices=order_choices)
    subs_shown = forms.BooleanField(required=False, initial=True, label="Show subs in the season standings")

    def __init__(self, *args, format: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        if format:  # a club's own settings: its format's orders only
            cast(forms.ChoiceField, self.fields["season_order"]).choices = order_choices(format)


class UsualEveningForm(EveningForm):
    """The club's usual format and its options: the evening form (``tournament.forms.evening``)
    without the fields each evening has its own (name, date)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in NOT_USUAL:
            del self.fields[name]
        cast(forms.ChoiceField, self.fields["format"]).choices = format_choices()
        self.fields["format"].required = True

    def usual(self) -> dict[str, Any]:
        """For a valid form: the settings as a club stores them (JSON values), the format's
        options' fields among them, ready to be a new evening form's initial values."""
        data = {k: v for k, v in self.cleaned_data.items() if k in self.fields}
        return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


class ClubEveningForm(EveningForm):
    """A new evening of a club: the evening form started from the club's usual settings, its
    format the club's, with the roster to tick (everyone ticked unless the host unticks) and
    the subs to add ("name, pack" per line)."""

    members = forms.TypedMultipleChoiceField(
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "roster-ticks"}),
        label="Members tonight",
    )
    subs = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label="Subs (guests who are not members)",
        help_text="One per line: name, pack (red or blue).",
    )

    def __init__(self, club: Club, roster: list[Member], *args, **kwargs):
        today = datetime.date.today()
        initial = {**club.evening_settings, "name": f"{club.name}, {today:%d %b %Y}", "date": today}
        initial["members"] = [m.pk for m in roster]
        super().__init__(*args, initial=initial, **kwargs)
        fmt = cast(forms.ChoiceField, self.fields["format"])
        fmt.choices = [(club.format, format_named(club.format).title)]
        fmt.initial = club.format
        cast(forms.TypedMultipleChoiceField, self.fields["members"]).choices = [
            (m.pk, f"{m.name} ({m.get_pack_display()})") for m in roster
        ]

    def groups(self) -> list[tuple[str, str, list]]:
        """The evening form's groups without the roster and the subs (the page shows them apart)."""
        out = super().groups()
        general = [(f, fixed) for f, fixed in out[0][2] if f.name not in ("members", "subs")]
        return [(out[0][0], out[0][1], general), *out[1:]]


class MemberListForm(forms.Form):
    """A pasted roster or a CSV file: one member per line, "name, pack[, contact]"."""

    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 5}), required=False, label="Paste the roster")
    file = forms.FileField(required=False, label="or upload a CSV file")

    MAX_BYTES = 1_000_000

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError("The file is over 1 MB: split it.")
            data["text"] = guest_file_text(upload.read())
        if not (data.get("text") or "").strip():
            raise forms.ValidationError("Paste a list or choose a file.")
        return data


class MemberActionForm(forms.Form):
    """What the host does to a member on the roster: remove, mark as left, back in the club."""

    action = forms.ChoiceField(choices=[("remove", "Remove"), ("left", "Left the club"), ("back", "Back in the club")])


class SeasonForm(forms.Form):
    """A new season: its name, first day and (optional) last day."""

    name = forms.CharField(max_length=120, required=False, label="Season's name")
    starts_on = forms.DateField(label="First day", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    ends_on = forms.DateField(
        required=False,
        label="Last day",
        help_text="Leave empty: the season runs until you close it.",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


class SeasonCloseForm(forms.Form):
    """Close an open season on a day (its last)."""

    on = forms.DateField(label="Last day", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))


class PickForm(forms.Form):
    """One row picked by id on the club's page (a sub to promote, an evening to bring in)."""

    pk = forms.IntegerField(min_value=1, max_value=2**53)


class CalendarForm(forms.Form):
    """Where and when a club evening is: its date, start time, place (an address) and the member
    who hosts it (the club's members; one who left is offered marked so, and refused by the
    service with the reason)."""

    date = AsciiDateField(label="Date", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    starts_at = AsciiTimeField(label="Starts at", widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    place = forms.CharField(
        max_length=200, required=False, label="Place", help_text="The address members will see on their page."
    )
    host_member = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Hosted by")

    def __init__(self, members: list[Member], *args, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.TypedChoiceField, self.fields["host_member"]).choices = [("", "Not decided yet")] + [
            (m.pk, m.name + (" (left the club)" if m.left_on is not None else "")) for m in members
        ]

    def clean_place(self) -> str:
        """The place, refused when it holds a NUL character (no address does)."""
        place = self.cleaned_data["place"]
        if "\x00" in place:
            raise forms.ValidationError("The place holds a character that is not text: type it again.")
        return place


class LinkPickForm(forms.Form):
    """One member's link picked by id on the season's calendar (a new key for it), in the digits
    0 to 9 ("٣" is no id)."""

    pk = IdField()


class SeasonCeremonyForm(forms.Form):
    """One tap of the season ceremony: the step the host's page showed (0 before the first
    prize), so a double tap or a stale tab changes nothing (``clubs.ceremony``)."""

    seen_step = forms.IntegerField(min_value=0, max_value=1000, widget=forms.HiddenInput)
