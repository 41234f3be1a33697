"""How the bell settles the cases the rules leave open: every house rule in one place.

The rules (``docs/rules/progressive-poker.md``, 'The bell') say what the bell does when every table has
a clear result. They are silent on the cases below; each field is the product's choice
(the default) and the other choices a host may pick instead. The rules page
(``templates/rules/progressive.html``) explains each in plain words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from tables.errors import RuleError
from tables.game_options import options_from_mapping

CHOICES: dict[str, tuple[str, ...]] = {
    "no_result": ("stay", "hold", "lot"),
    "pool_tie": ("cut", "reported"),
    "tie_yellow": ("one", "each"),
    "all_in_call": ("fewest", "cut"),
    "head_bust": ("once", "twice"),
    "many_busts": ("in_turn", "first_only"),
    "swap_with": ("played_there", "seated_now"),
    "booby_unknown": ("refuse", "cut"),
    "last_round_counts": ("require", "optional"),
    "leave_fill": ("below_three", "always"),
    "arrive_at": ("booby", "smallest"),
}


@dataclass(frozen=True, slots=True)
class BellOptions:
    """The house rules for the cases the seeds leave open (the first choice is the default).

    no_result: a table with no pool winner at the bell.
        "stay": that table sits out the bell: nobody there moves, nobody joins it; the winner
        from the table below moves past it to the next table up that played. "hold": the bell
        is refused until every table has reported. "lot": everyone at that table cuts a card
        and the highest cut moves up as if they had won the pool.
    pool_tie: two or more guests split a pool (``TableResult.tied``). "cut": they cut, the
        highest cut counts as the winner (moves up, or takes the yellow counter); the lowest
        cut stays. "reported": the guest the table reported as ``pool_winner`` counts.
    tie_yellow: a split pool at the head table. "one": one yellow counter, to the guest who
        counts as the winner; "each": every guest who split it gets one.
    all_in_call: everyone at the head table was in the call. "fewest": the guest with the
        fewest counters other than the pool winner goes down; "cut": everyone but the pool
        winner cuts and the highest cut goes down.
    head_bust: a guest at the head table who lost all counters and goes down anyway.
        "once": going down is the seat change; they take a fresh stake and stay at the booby
        table. "twice": the bust changes seats with the booby table's best player, and the
        next-fewest player not in the call goes down as usual.
    many_busts: two or more busts in one round. "in_turn": head table first, then down the
        tables; each changes seats with the booby-table player holding the most counters among
        those not yet moved. "first_only": only the first bust changes seats; the others take a
        fresh stake and keep their seats.
    swap_with: who counts as "the player at the booby table". "played_there": those who played
        the deal at the booby table and are still there; "seated_now": also the guest who has
        just come down from the head table.
    booby_unknown: a bust needs a seat change but the booby table did not report counters.
        "refuse": the bell is refused until the counts are in; "cut": the booby-table players
        cut and the highest cut changes seats.
    last_round_counts: "require": the last bell needs every seated guest's final counters;
        "optional": counts not reported keep the last known number.
    leave_fill: a guest leaves mid-evening. "below_three": the table plays one short unless it
        would fall below 3; "always": the seat is filled from the largest table if that table
        has at least two more players.
    arrive_at: a late guest with no table asked for. "booby": the booby table (unless it has
        ``max_table`` players); "smallest": the smallest table, nearest the booby table on ties.
    max_table: the most players a table takes when a late guest is seated (7, from the seed's
        "from four to seven").
    """

    no_result: str = "stay"
    pool_tie: str = "cut"
    tie_yellow: str = "one"
    all_in_call: str = "fewest"
    head_bust: str = "once"
    many_busts: str = "in_turn"
    swap_with: str = "played_there"
    booby_unknown: str = "refuse"
    last_round_counts: str = "require"
    leave_fill: str = "below_three"
    arrive_at: str = "booby"
    max_table: int = 7

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                choices = ", ".join(f"“{choice}”" for choice in allowed)
                raise RuleError(f"“{value}” is not a choice for the bell's house rule “{name}”: use one of {choices}.")
        if isinstance(self.max_table, bool) or not isinstance(self.max_table, int) or self.max_table < 3:
            raise RuleError("The most players at a table (“max_table”) must be a whole number, 3 or more.")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None) -> BellOptions:
        """Build options from a dict such as ``{"no_result": "lot"}``; missing keys keep their
        default. Raises ``RuleError`` naming an unknown key or a value that is not a choice."""
        return options_from_mapping(cls, data, "the bell")

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: every option and its value."""
        return asdict(self)

    def house(self, name: str) -> str:
        """The ``rule`` text for a house rule: ``"house rule: no_result=stay"``."""
        return f"house rule: {name}={getattr(self, name)}"
