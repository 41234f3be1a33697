"""The evening form's format part: which format the evening plays (Progressive Poker, Progressive
Euchre, Drive Whist, Bunco) and the host's options for a format at tables of four.

Rules: ``docs/rules/tables-of-four.md`` through ``tables.formats.FoursomeOptions`` (movement: the ladder
with the head table's losers to the foot table, Foster and the Bunco clubs; the ladder with the
losers one table down, the option both give; the circle, Foster's Drive Whist; partners changed
or kept, Foster gives both for Drive Whist; ties at a table played off, the books' way, or cut;
tied prizes cut or shared; Euchre's prizes by points instead of stars). The options are stored
in ``Evening.options["format"]`` (only what the host chose; a blank choice is the format's own).
House rule: the format and its options of play are fixed once the seats are drawn (a draw deals
seats for one format; every bell is rung by the options the evening was drawn with).
"""

from __future__ import annotations

from typing import Any

from django import forms

from tables.errors import RuleError
from tables.formats import FoursomeFormat, FoursomeOptions

POKER_ONLY = ("game", "counters_per_stake", "counter_value")
"""The evening's fields that only Progressive Poker asks (its game, its counters)."""

FORMAT_OPTIONS = ("movement", "partners_change", "ties", "prize_ties", "prize_by_points")
"""The option fields of a format at tables of four, in the order the form shows them."""

MOVEMENT_CHOICES = [
    ("", "The format's own (Euchre and Bunco: the ladder; Drive Whist: the circle)"),
    ("ladder", "Ladder: winners move up one table, the head table's winners stay, its losers go to the foot table"),
    ("ladder_down", "Ladder one table down: winners move up one table, losers move down one table"),
    ("circle", "Circle: winners move one table towards the head; the head table's winners go to the last table"),
]
PARTNERS_CHOICES = [
    ("", "The format's own (Euchre and Bunco: partners change every round; Drive Whist: kept)"),
    ("change", "Partners change every round: each newcomer partners one who stayed"),
    ("keep", "Partners are kept: the winners move on together"),
]
TIES_CHOICES = [
    ("playoff", "Played off: one more hand (Euchre) or one more roll (Bunco); the result names the winner"),
    ("cut", "Cut for at the bell"),
]
PRIZE_TIES_CHOICES = [("cut", "Cut for (one winner)"), ("shared", "Shared")]


MOVEMENT_WORDS = {"ladder": "the ladder", "ladder_down": "the ladder one table down", "circle": "the circle"}
"""A movement's name in the host's words, for a format's own choice ("Bunco's own: the ladder")."""


def format_fields(fmt: FoursomeFormat | None = None, *, playoff: str = "") -> dict[str, forms.Field]:
    """The option fields of a format at tables of four (labels as the host reads them).

    ``fmt`` None: the words fit every format of the family (a new evening's form, where one
    field serves every format that asks it: "The format's own (Euchre and Bunco: the ladder;
    Drive Whist: the circle)"); a format (``tables.formats.FoursomeFormat``): that format's
    words only, naming no other ("Bunco's own: the ladder"), with ``playoff`` its words for a
    tie played off ("one more roll"). House rule: an evening's settings page names only its
    own format (a host of a Bunco evening is not asked about Euchre's hands)."""
    movement, partners, ties = MOVEMENT_CHOICES, PARTNERS_CHOICES, TIES_CHOICES
    by_points = "Progressive Euchre: the prizes go by total points instead of stars"
    if fmt is not None:
        kept = "partners change every round" if fmt.partners_change else "partners are kept"
        movement = [("", f"{fmt.title}'s own: {MOVEMENT_WORDS[str(fmt.movement)]}"), *MOVEMENT_CHOICES[1:]]
        partners = [("", f"{fmt.title}'s own: {kept}"), *PARTNERS_CHOICES[1:]]
        ties = [("playoff", f"Played off: {playoff}; the result names the winner"), *TIES_CHOICES[1:]]
        by_points = "The prizes go by total points instead of stars"
    return {
        "movement": forms.ChoiceField(choices=movement, required=False, label="Movement at the bell"),
        "partners_change": forms.ChoiceField(choices=partners, required=False, label="Partners"),
        "ties": forms.ChoiceField(choices=ties, required=False, label="A tie at a table"),
        "prize_ties": forms.ChoiceField(choices=PRIZE_TIES_CHOICES, required=False, label="Tied prizes"),
        "prize_by_points": forms.BooleanField(required=False, label=by_points),
    }


def format_initial(options: dict[str, Any] | None) -> dict[str, Any]:
    """The option fields' initial values from stored ``Evening.options`` (None: the defaults)."""
    stored = dict((options or {}).get("format", {}))
    partners = stored.get("partners_change")
    return {
        "movement": stored.get("movement") or "",
        "partners_change": "" if partners is None else ("change" if partners else "keep"),
        "ties": stored.get("ties", "playoff"),
        "prize_ties": stored.get("prize_ties", "cut"),
        "prize_by_points": bool(stored.get("prize_by_points", False)),
    }


def format_options(data: dict[str, Any]) -> dict[str, Any]:
    """The options to store from the form's cleaned ``data``: only what differs from a blank
    choice. Raises ``forms.ValidationError`` with the rules' words for a value they refuse."""
    chosen: dict[str, Any] = {
        "ties": data.get("ties") or "playoff",
        "prize_ties": data.get("prize_ties") or "cut",
        "prize_by_points": bool(data.get("prize_by_points")),
    }
    if data.get("movement"):
        chosen["movement"] = data["movement"]
    if data.get("partners_change"):
        chosen["partners_change"] = data["partners_change"] == "change"
    try:
        FoursomeOptions.from_mapping(chosen)
    except RuleError as error:
        raise forms.ValidationError(str(error)) from None
    return chosen
