"""The report of a table of four, as a captain's phone sends it (Progressive Euchre, Drive
Whist, Bunco): the form reads the numbers; the rules (``tables.formats.records.report_score``
through ``formats.partnership.reports``) decide what is possible and name whoever is wrong.

Fields, per format (``docs/rules/``, the format's page; each format's plug-in names its form,
``PartnershipFormat.phone_form``):

* Progressive Euchre: ``hands`` (what the score helper taps: "NS1 EW2 NS4", a side and the
  hand's points), or ``points_ns`` and ``points_ew`` typed; ``playoff`` on a tie.
* Drive Whist: ``tricks_ns`` and ``tricks_ew``.
* Bunco: per player (ghosts too) ``points_<id>``, ``buncos_<id>``, ``minis_<id>`` and, from the
  tap counter, ``rolls_<id>`` ("1 2 21": each scoring roll's points); a team's points are its
  two players' points; ``rolloff`` on a tie. A count posted for someone not at the table (a
  forged or damaged form) is refused by the rules, naming them (``check_players``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator

from tables.formats.foursome import Seat, Side
from tables.formats.scoring import check_at_table
from tables.formats.table_rules import BUNCO_LIMITS, EUCHRE_LIMITS, WHIST_LIMITS
from tournament.formats.partnership.report_forms import number_field
from tournament.forms.fields import WholeNumberField, plain_words

_HANDS = RegexValidator(r"^\s*((NS|EW)[0-9]{1,2}\s*){0,60}$", "The hands were damaged: tap them again.")
ROLLS_DAMAGED = "The rolls were damaged: tap them again."


def rolls_check(value: str) -> None:
    """A phone's scoring rolls ("1 2 21": each roll's points, space-separated): at most 200 of
    them, each one to three of the digits 0 to 9. Raises ``ValidationError`` saying they were
    damaged (the phone writes them, a person never types them). Read by splitting, as the report
    reads them, never by a pattern that could try every way of cutting a run of digits (a
    regular expression of repeated optional groups took exponential time on "1111…x")."""
    rolls = value.split()
    if len(rolls) > 200 or not all(r.isascii() and r.isdigit() and len(r) <= 3 for r in rolls):
        raise ValidationError(ROLLS_DAMAGED)


_PER_PLAYER = re.compile(r"^(points|buncos|minis|rolls)_(-?[0-9]{1,18})$")
_COUNTED = {"points": "points", "buncos": "buncos", "minis": "mini buncos", "rolls": "rolls"}
SIDES = [("", "No tie"), ("NS", "North–South"), ("EW", "East–West")]


def _count(label: str, *, most: int, required: bool = False) -> WholeNumberField:
    """A count 0 to ``most`` (the format's ``FoursomeFormat.limits``, the limits every report
    form takes) whose messages name what it counts (``formats.partnership.report_forms.number_field``)."""
    return number_field(label, label, most=most, required=required)


def _side(label: str, tiebreak: str) -> forms.ChoiceField:
    """The side that won a tie's ``tiebreak`` ("roll-off"); its message names it, as the page
    shows every message without its field's label."""
    return forms.ChoiceField(
        label=label,
        choices=SIDES,
        required=False,
        widget=forms.RadioSelect,
        error_messages={
            "invalid_choice": f"On a tie, name the side that won the {tiebreak}: North–South or East–West."
        },
    )


class FoursomeReportForm(forms.Form):
    """A table's report from a captain's phone; ``seats``: (player id, name) at North, East,
    South and West; ``limits``: (count, the most it may be) as the format reads them
    (``tables.formats.FoursomeFormat.limits``; default: the form's own game's). ``report()``
    gives what ``foursome_captain_report`` takes. Each format's plug-in names its form
    (``PartnershipFormat.phone_form``): ``EuchreReportForm``, ``WhistReportForm``,
    ``BuncoReportForm``, or a new game's own; ``helper`` names the phone's score helper that
    fills it in (``static/score.js``: "euchre" taps hands, "bunco" counts rolls, "whist"
    completes the 13 tricks)."""

    helper = ""
    default_limits: Mapping[str, int] = {}

    def __init__(
        self,
        *args: Any,
        seats: Sequence[tuple[int, str]],
        limits: Iterable[tuple[str, int]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        self.limits = dict(self.default_limits if limits is None else limits)
        self.add_fields()
        plain_words(self)

    def add_fields(self) -> None:
        """Add the game's fields (each form says)."""
        raise NotImplementedError

    def players(self) -> list[dict[str, Any]]:
        """Bunco's fields per player, North first, with their seat and side, for the template."""
        return []

    def check_players(self) -> None:
        """Refuse a count posted for someone not at this table (a form kept by player says);
        returns None for a form kept by side."""

    def report(self) -> dict[str, Any]:
        """The report as ``tables.formats.records`` reads it (only once the form is valid)."""
        raise NotImplementedError


class EuchreReportForm(FoursomeReportForm):
    """Progressive Euchre: ``hands`` (what the score helper taps: "NS1 EW2 NS4", a side and the
    hand's points), or ``points_ns`` and ``points_ew`` typed; ``playoff`` on a tie."""

    helper = "euchre"
    default_limits = EUCHRE_LIMITS

    def add_fields(self) -> None:
        """The hands (hidden, from the score helper), each side's points and the play-off."""
        self.fields["hands"] = forms.CharField(
            required=False,
            max_length=400,
            validators=[_HANDS],
            widget=forms.HiddenInput,
            error_messages=dict.fromkeys(("max_length", "null_characters_not_allowed"), _HANDS.message),
        )
        self.fields["points_ns"] = _count("North–South's points", most=self.limits["points"])
        self.fields["points_ew"] = _count("East–West's points", most=self.limits["points"])
        self.fields["playoff"] = _side("On a tie, who won the play-off hand?", "play-off hand")

    def clean(self) -> dict[str, Any]:
        """Euchre needs the hands or both sides' points."""
        data = super().clean() or {}
        typed = data.get("points_ns") is not None and data.get("points_ew") is not None
        if not (data.get("hands") or "").strip() and not typed:
            raise forms.ValidationError("Tap each hand, or give both sides' points.")
        return data

    def report(self) -> dict[str, Any]:
        """The hands and/or the points, and the play-off's winner."""
        data = self.cleaned_data
        out: dict[str, Any] = {}
        hands = (data.get("hands") or "").split()
        if hands:
            out["hands"] = [[token[:2], int(token[2:])] for token in hands]
        if data.get("points_ns") is not None and data.get("points_ew") is not None:
            out["points"] = {"NS": data["points_ns"], "EW": data["points_ew"]}
        if data.get("playoff"):
            out["playoff"] = data["playoff"]
        return out


class WhistReportForm(FoursomeReportForm):
    """Drive Whist: ``tricks_ns`` and ``tricks_ew``."""

    helper = "whist"
    default_limits = WHIST_LIMITS

    def add_fields(self) -> None:
        """Each side's tricks."""
        self.fields["tricks_ns"] = _count("North–South's tricks", most=self.limits["tricks"], required=True)
        self.fields["tricks_ew"] = _count("East–West's tricks", most=self.limits["tricks"], required=True)

    def report(self) -> dict[str, Any]:
        """Each side's tricks."""
        data = self.cleaned_data
        return {"tricks": {"NS": data["tricks_ns"], "EW": data["tricks_ew"]}}


class BuncoReportForm(FoursomeReportForm):
    """Bunco: per player (ghosts too) ``points_<id>``, ``buncos_<id>``, ``minis_<id>`` and, from
    the tap counter, ``rolls_<id>``; a team's points are its two players' points; ``rolloff``
    on a tie."""

    helper = "bunco"
    default_limits = BUNCO_LIMITS

    def add_fields(self) -> None:
        """Each player's points, buncos, mini buncos and rolls, and the roll-off."""
        for player, name in self.seats:
            self.fields[f"points_{player}"] = _count(f"{name}'s points", most=self.limits["points"])
            self.fields[f"buncos_{player}"] = _count(f"{name}'s buncos", most=self.limits["buncos"])
            self.fields[f"minis_{player}"] = _count(f"{name}'s mini buncos", most=self.limits["minis"])
            self.fields[f"rolls_{player}"] = forms.CharField(
                required=False,
                max_length=800,
                validators=[rolls_check],
                widget=forms.HiddenInput,
                error_messages=dict.fromkeys(("max_length", "null_characters_not_allowed"), ROLLS_DAMAGED),
            )
        self.fields["rolloff"] = _side("On a tie, who won the roll-off?", "roll-off")

    def players(self) -> list[dict[str, Any]]:
        """Bunco's fields per player, North first, with their seat and side, for the template."""
        out = []
        for index, (player, name) in enumerate(self.seats):
            seat = Seat(index)
            out.append(
                {
                    "player": player,
                    "name": name,
                    "seat": seat.word,
                    "side": Side.of(seat).value,
                    "points": self[f"points_{player}"],
                    "buncos": self[f"buncos_{player}"],
                    "minis": self[f"minis_{player}"],
                    "rolls": self[f"rolls_{player}"],
                }
            )
        return out

    def check_players(self) -> None:
        """Refuse a Bunco count (points, buncos, mini buncos, rolls) posted for someone not at
        this table: a field no page shows, from a forged or damaged form. Raises the rules'
        ``ScoreError`` naming the first of them (``tables.formats.scoring.check_at_table``);
        returns None when every count posted is for a player seated here."""
        named: dict[str, list[int]] = {}
        for key in self.data:
            match = _PER_PLAYER.match(key)
            if match and str(self.data.get(key, "")).strip():
                named.setdefault(_COUNTED[match[1]], []).append(int(match[2]))
        player = [p for p, _ in self.seats]
        check_at_table((player[0], player[1], player[2], player[3]), named)

    def report(self) -> dict[str, Any]:
        """Each team's points (its players' added up), every player's buncos, mini buncos and
        rolls, and the roll-off's winner."""
        data = self.cleaned_data
        points = {"NS": 0, "EW": 0}
        buncos: dict[str, int] = {}
        minis: dict[str, int] = {}
        rolls: dict[str, list[int]] = {}
        for index, (player, _name) in enumerate(self.seats):
            points[Side.of(Seat(index)).value] += data.get(f"points_{player}") or 0
            buncos[str(player)] = data.get(f"buncos_{player}") or 0
            minis[str(player)] = data.get(f"minis_{player}") or 0
            if (data.get(f"rolls_{player}") or "").strip():
                rolls[str(player)] = [int(r) for r in data[f"rolls_{player}"].split()]
        out: dict[str, Any] = {"points": points, "buncos": buncos, "minis": minis}
        if rolls:
            out["rolls"] = rolls
        if data.get("rolloff"):
            out["rolloff"] = data["rolloff"]
        return out
