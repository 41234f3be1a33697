"""Forms for the bell's host pages: the cards cut at a bell and the board's round buttons; and
the house rules' explanations in words (``BELL_HELP``, ``PRIZE_HELP``), which every page that
names a house rule reads (``rule_in_words``, the audit's sentences).

The explanations here are what the host reads when choosing; the rules page
(``templates/rules/progressive.html``) says the same at more length. The form that chooses them
is Progressive Poker's (``tournament.formats.poker.house_rules_form.HouseRulesForm``).
"""

from __future__ import annotations

import re

from django import forms

from tables.sources import source_in_words
from tournament.forms.fields import ID_MAX, WholeNumberField
from tournament.forms.seen import SeenVersionForm

# option name -> (the question, {choice: what it means}); the first choice is the default.
BELL_HELP: dict[str, tuple[str, dict[str, str]]] = {
    "no_result": (
        "A table has no pool winner at the bell",
        {
            "stay": "That table sits out this bell: nobody there moves; the winner below moves past it.",
            "hold": "The bell waits until every table has reported.",
            "lot": "Everyone at that table cuts; whoever cuts the highest card moves up as if they had won.",
        },
    ),
    "pool_tie": (
        "Two or more players split a pool",
        {
            "cut": "They cut; whoever cuts the highest card counts as the winner.",
            "reported": "The winner the table reported counts.",
        },
    ),
    "tie_yellow": (
        "A split pool at the head table",
        {
            "one": "One yellow counter, to the player who counts as the winner.",
            "each": "Every player who split it gets a yellow counter.",
        },
    ),
    "all_in_call": (
        "Everyone at the head table was in the call",
        {
            "fewest": "The player with the fewest counters, other than the winner, goes down.",
            "cut": "Everyone but the winner cuts; whoever cuts the highest card goes down.",
        },
    ),
    "head_bust": (
        "A head-table player who lost all counters and goes down anyway",
        {
            "once": "Going down is their seat change: a fresh stake, and they stay at the booby table.",
            "twice": "The bust changes seats with the booby table's best player; the next-fewest goes down.",
        },
    ),
    "many_busts": (
        "Two or more players lose all counters in one round",
        {
            "in_turn": "Each, head table first, changes seats with the booby table's best player left.",
            "first_only": "Only the first changes seats; the others take a fresh stake and stay.",
        },
    ),
    "swap_with": (
        "Who counts as a player at the booby table, for a seat change",
        {
            "played_there": "Only those who played the deal there.",
            "seated_now": "Also the player who has just come down from the head table.",
        },
    ),
    "booby_unknown": (
        "A bust needs a seat change but the booby table gave no counts",
        {
            "refuse": "The bell waits for the booby table's counts.",
            "cut": "The booby-table players cut; whoever cuts the highest card changes seats.",
        },
    ),
    "last_round_counts": (
        "The final count, after the last bell",
        {
            "require": "Every table is counted before the first prize is given.",
            "optional": "The prizes may start with tables not counted; their last count stands.",
        },
    ),
    "leave_fill": (
        "A guest leaves mid-evening",
        {
            "below_three": "Their table plays one short, unless it would fall below 3 players.",
            "always": "A player from the largest table fills the seat, if that table can spare one.",
        },
    ),
    "arrive_at": (
        "Where a late guest sits",
        {
            "booby": "At the booby table (unless it is full).",
            "smallest": "At the smallest table, nearest the booby table.",
        },
    ),
}

PRIZE_HELP: dict[str, tuple[str, dict[str, str]]] = {
    "booby_rule": (
        "The booby prize",
        {
            "fewest_won": "The fewest counters won, fresh stakes charged.",
            "fewest_counters": "The fewest counters held at the end.",
            "most_stakes": "The most fresh stakes taken (ties: fewest counters won).",
            "none": "No booby prize.",
        },
    ),
    "ties": (
        "A tie for a prize",
        {
            "shared": "The tied guests share it.",
            "cut": "The tied guests cut; whoever cuts the highest card takes it.",
        },
    ),
}


_HOUSE_RULE_KEY = re.compile(r"house rule: (\w+)=(\w+)")


def rule_in_words(rule: str) -> str:
    """A bell entry's or a prize's ``rule`` as a reader sees it: "house rule: no_result=stay"
    (how the rules engine names the house rule it followed) becomes "house rule: a table has no
    pool winner at the bell: that table sits out this bell: ..." from the words above; a
    source file name stored by an earlier version becomes the book and section
    (``tables.sources``); anything else is already words and stays as it is."""

    def words(match: re.Match) -> str:
        name, value = match.groups()
        question, help_ = BELL_HELP.get(name) or PRIZE_HELP.get(name) or (None, {})
        if question is None or value not in help_:
            return match.group(0)
        meaning = help_[value]
        return f"house rule: {question[0].lower()}{question[1:]}: {meaning[0].lower()}{meaning[1:].rstrip('.')}"

    return _HOUSE_RULE_KEY.sub(words, source_in_words(rule))


RANKS = [
    ("", "let the app cut"),
    ("1", "Ace"),
    *[(str(r), str(r)) for r in range(2, 11)],
    ("11", "Jack"),
    ("12", "Queen"),
    ("13", "King"),
]


class CutsForm(SeenVersionForm):
    """The card each guest cut, for the guests who may have to cut at this bell (blank: the app
    cuts for them). ``cuts()`` gives guest id -> rank (ace 1 .. king 13)."""

    def __init__(self, *args, guests, **kwargs):
        super().__init__(*args, **kwargs)
        self.guests = list(guests)
        for guest in self.guests:
            self.fields[f"cut_{guest.pk}"] = forms.TypedChoiceField(
                label=guest.name, choices=RANKS, required=False, coerce=int, empty_value=None
            )

    def cuts(self) -> dict[int, int]:
        """Guest id -> the rank the host entered (blank ones left out)."""
        return {
            g.pk: self.cleaned_data[f"cut_{g.pk}"]
            for g in self.guests
            if self.cleaned_data.get(f"cut_{g.pk}") is not None
        }


class RoundActionForm(SeenVersionForm):
    """The board's round buttons (``tournament.views.host.round_action``): ``action`` is what
    to do; ``round`` the round the page showed (a stale tab's ring is refused, not applied to
    a later round); ``bell`` the bell an undo button showed (two undo taps never undo two
    bells); ``confirmed`` the host's "ring anyway" when results are missing; ``by`` who rings
    a reopened round's bell ("host" or "head_pool")."""

    ACTIONS = ("start", "undo", "ring", "pause", "resume", "plus", "minus", "reopened")

    action = forms.ChoiceField(
        choices=[(a, a) for a in ACTIONS],
        error_messages={
            "invalid_choice": "That button is not one the board knows: reload the page.",
            "required": "That button is not one the board knows: reload the page.",
        },
    )
    round = WholeNumberField(required=False, min_value=1, max_value=10_000, widget=forms.HiddenInput)
    bell = WholeNumberField(required=False, min_value=1, max_value=ID_MAX, widget=forms.HiddenInput)
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)
    by = forms.ChoiceField(required=False, choices=[("host", "the host"), ("head_pool", "the head table's pool")])
