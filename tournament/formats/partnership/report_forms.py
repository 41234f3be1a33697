"""The host's result forms at tables of four: what a table reports at the bell, per format.

Rules: the formats' pages of ``docs/rules/`` through ``tables.formats.scoring`` (a euchre hand scores 1, 2 or
4; a whist hand has 13 tricks; a bunco roll scores 1, 2, 5 or 21; an exact tie names the
play-off's or roll-off's winner). The forms read only what was typed (whole numbers, hands as
"NS1 EW2"); the service ``foursome_reports.foursome_report`` checks the report against the
format and refuses the impossible with the rules' words. Each form is built for the table's
four players (North, East, South, West) and carries their ids (``seated``), so a form shown
before the seats changed saves nothing (house rule, as Progressive Poker's stale forms).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tables.formats.foursome import Seat, Side
from tables.formats.scoring import ROLL_POINTS, ROLL_WORDS
from tables.formats.table_rules import BUNCO_LIMITS, EUCHRE_LIMITS, WHIST_LIMITS
from tournament.forms.fields import WholeNumberField, WholeNumbersTextField

SIDES = (Side.NORTH_SOUTH, Side.EAST_WEST)
_HAND = re.compile(r"^(NS|EW)([0-9]{1,2})$")


def number_field(label: str, what: str, *, most: int, required: bool = True) -> WholeNumberField:
    """A whole number 0 to ``most`` whose every message names ``what`` ("Ann's buncos")."""
    return WholeNumberField(
        label=label,
        required=required,
        min_value=0,
        max_value=most,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={
            "required": f"Give {what} (0 if none).",
            "invalid": f"{what[0].upper()}{what[1:]}: a whole number in the digits 0 to 9.",
            "min_value": f"{what[0].upper()}{what[1:]} cannot be below 0.",
            "max_value": f"{what[0].upper()}{what[1:]}: at most {most}.",
        },
    )


def side_words(side: Side, names: Sequence[str]) -> SafeString:
    """ "North–South (Ann and Cy)" from the four ``names`` North first, for a field's label:
    escaped, each name in its ``<bdi>`` (house rule: every name isolated,
    ``tournament.templatetags.name_tags``)."""
    first, second = side.seats
    return format_html("{} (<bdi>{}</bdi> and <bdi>{}</bdi>)", side.words, names[first], names[second])


class FoursomeResultForm(forms.Form):
    """The parts every format's form shares: the players' ids as shown and the tie's winner.
    ``limits``: (count, the most it may be) as the format reads them
    (``tables.formats.FoursomeFormat.limits``; default: the form's own game's). Each format's
    plug-in names its form (``PartnershipFormat.result_form``)."""

    seated = WholeNumbersTextField(
        max_count=4,
        error_messages={"invalid": "The list of players this form was shown for was damaged: open the form again."},
    )
    tie_word = "play-off"
    default_limits: Mapping[str, int] = {}

    def __init__(
        self,
        *args: Any,
        players: Sequence[int],
        names: Sequence[str],
        limits: Iterable[tuple[str, int]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players, self.names = list(players), list(names)
        self.limits = dict(self.default_limits if limits is None else limits)
        self.fields["seated"].initial = " ".join(str(p) for p in self.players)
        self.fields["winner"] = forms.ChoiceField(
            choices=[("", "No tie")] + [(s.value, side_words(s, self.names)) for s in SIDES],
            required=False,
            label=f"On a tie, who won the {self.tie_word}",
        )

    def clean(self) -> dict[str, Any]:
        """A damaged ``seated`` (hidden, so shown above the form) is the form's own error."""
        data = super().clean() or {}
        if "seated" in self.errors:
            self.add_error(None, self.errors.pop("seated"))
        return data

    def moved(self) -> list[int]:
        """The players the form was shown for who are no longer at this table (a stale form);
        read once the form is valid (``seated``: ids in the digits 0 to 9, ghosts below 0)."""
        shown = self.cleaned_data.get("seated") or [] if self.is_bound else []
        return [p for p in shown if p not in self.players]

    def report(self) -> dict[str, Any]:
        """The report as ``tables.formats.records`` reads it (each format's form says)."""
        raise NotImplementedError

    def correction(self) -> dict[str, Any]:
        """The report as a correction stores it (``services.corrections.correction_save``):
        ``report()`` read once the form is valid."""
        return self.report()

    def _tie(self, key: str) -> dict[str, Any]:
        winner = self.cleaned_data.get("winner")
        return {key: winner} if winner else {}


class EuchreResultForm(FoursomeResultForm):
    """Progressive Euchre: each side's points, or the hands one by one ("NS1 EW2 NS4": the side
    that scored and its 1, 2 or 4 points), and the play-off's winner on a tie (Foster)."""

    default_limits = EUCHRE_LIMITS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for side in SIDES:
            self.fields[f"points_{side.value}"] = number_field(
                format_html("{}: points", side_words(side, self.names)),
                f"{side.words}'s points",
                most=self.limits["points"],
                required=False,
            )
        self.fields["hands"] = forms.CharField(
            required=False,
            max_length=400,
            label="Or the hands, one at a time (NS1 EW2 NS4 …)",
            help_text="Each hand: the side that scored (NS or EW) and its points, 1, 2 or 4.",
        )

    def clean_hands(self) -> list[list[Any]]:
        hands = []
        for number, token in enumerate(self.cleaned_data["hands"].upper().split(), start=1):
            match = _HAND.match(token.strip(","))
            if match is None:
                raise forms.ValidationError(
                    f"Hand {number} (“{token}”) is not a side and points: write NS or EW and 1, 2 or 4, e.g. NS1."
                )
            hands.append([match.group(1), int(match.group(2))])
        return hands

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        given = [data.get(f"points_{s.value}") for s in SIDES]
        if not data.get("hands") and None in given and not self.errors:
            raise forms.ValidationError("Give both sides' points, or the hands.")
        return data

    def report(self) -> dict[str, Any]:
        """The report as ``tables.formats.records`` reads it."""
        data = self.cleaned_data
        out: dict[str, Any] = {}
        if data.get("hands"):
            out["hands"] = data["hands"]
        if None not in (data.get(f"points_{s.value}") for s in SIDES):
            out["points"] = {s.value: data[f"points_{s.value}"] for s in SIDES}
        return out | self._tie("playoff")


class WhistResultForm(FoursomeResultForm):
    """Drive Whist: the tricks each side took (13 in all: Foster; no tie is possible)."""

    default_limits = WHIST_LIMITS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["winner"]
        for side in SIDES:
            self.fields[f"tricks_{side.value}"] = number_field(
                format_html("{}: tricks", side_words(side, self.names)),
                f"{side.words}'s tricks",
                most=self.limits["tricks"],
            )

    def report(self) -> dict[str, Any]:
        """The report as ``tables.formats.records`` reads it."""
        return {"tricks": {s.value: self.cleaned_data[f"tricks_{s.value}"] for s in SIDES}}


class BuncoResultForm(FoursomeResultForm):
    """Bunco: each team's points, each player's buncos and mini buncos (a ghost's too: the
    dice rolled for it), optionally each player's scoring rolls ("1 2 21"), and the roll-off's
    winner on a tie (club rules)."""

    tie_word = "roll-off"
    default_limits = BUNCO_LIMITS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for side in SIDES:
            self.fields[f"points_{side.value}"] = number_field(
                format_html("{}: points", side_words(side, self.names)),
                f"{side.words}'s points",
                most=self.limits["points"],
            )
        for seat, name in enumerate(self.names):
            where = format_html("<bdi>{}</bdi> ({})", name, Seat(seat).word)
            self.fields[f"buncos_{seat}"] = number_field(
                format_html("{}: buncos", where), f"{name}'s buncos", most=self.limits["buncos"]
            )
            self.fields[f"minis_{seat}"] = number_field(
                format_html("{}: mini buncos", where), f"{name}'s mini buncos", most=self.limits["minis"]
            )
            self.fields[f"rolls_{seat}"] = forms.CharField(
                required=False, max_length=400, label=format_html("{}: points of each scoring roll (optional)", where)
            )
            self.fields[f"buncos_{seat}"].initial = self.fields[f"minis_{seat}"].initial = 0

    def seat_rows(self) -> list[tuple[str, list[Any]]]:
        """(name, its bound fields) for each seat, North first (for the template)."""
        return [
            (name, [self[f"{kind}_{seat}"] for kind in ("buncos", "minis", "rolls")])
            for seat, name in enumerate(self.names)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for seat, name in enumerate(self.names):
            text = data.get(f"rolls_{seat}") or ""
            if text and not re.fullmatch(r"[0-9\s,+]+", text):
                self.add_error(f"rolls_{seat}", f"{name}'s rolls: the points of each roll, e.g. 1 2 21.")
            else:
                rolls = [int(n) for n in re.findall(r"[0-9]{1,3}", text)]
                bad = [r for r in rolls if r not in ROLL_POINTS]
                if bad:
                    self.add_error(
                        f"rolls_{seat}",
                        f"{name}'s rolls: a roll scores {ROLL_WORDS}, not {bad[0]}.",
                    )
                data[f"rolls_{seat}"] = rolls
        return data

    def report(self) -> dict[str, Any]:
        """The report as ``tables.formats.records`` reads it."""
        data = self.cleaned_data
        out: dict[str, Any] = {
            "points": {s.value: data[f"points_{s.value}"] for s in SIDES},
            "buncos": {str(p): data[f"buncos_{i}"] for i, p in enumerate(self.players) if data[f"buncos_{i}"]},
            "minis": {str(p): data[f"minis_{i}"] for i, p in enumerate(self.players) if data[f"minis_{i}"]},
        }
        rolls = {str(p): data[f"rolls_{i}"] for i, p in enumerate(self.players) if data.get(f"rolls_{i}")}
        if rolls:
            out["rolls"] = rolls
        return out | self._tie("rolloff")
