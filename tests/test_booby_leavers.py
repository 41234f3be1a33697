"""A guest who left before the end is out of the running for the booby prize, in every format
(house rule: ``docs/rules/tables-of-four.md``, ``progressive-poker.md`` and
``euchre-tournament.md``, 'Prizes'), worked by hand on each format's rules.

Each example has the guest who left with the lowest count (the fewest stars, tricks, points or
counters won; at Bunco the most losses): without the house rule they would take the booby prize.
"""

from __future__ import annotations

import pytest

from tables.formats import FoursomeOptions
from tables.formats.bell import FoursomeState
from tables.formats.engine import rules_for
from tables.formats.euchre_tournament.scoring import Standing, award
from tables.formats.poker.bell import EveningState
from tables.formats.poker.prizes import PrizeOptions
from tables.formats.poker.rules import POKER_RULES
from tables.packs import Pack

R, B = Pack.RED, Pack.BLUE
LEFT = 9
"""The guest who left after round 1: on record, at no table."""


def _booby(prizes):
    return next(p for p in prizes if p.key == "booby")


@pytest.mark.parametrize(
    ("key", "tally", "left_count", "low"),
    [
        ("euchre", "stars", 0, 1),  # the fewest stars: Ivy left with none, guest 8 stayed with 1
        ("whist", "tricks", 6, 20),  # the fewest tricks
        ("bunco", "losses", 9, 2),  # the most losses (Ivy's 9 from one long night's start)
    ],
)
def test_at_tables_of_four_the_booby_prize_goes_to_a_guest_who_stayed(key, tally, left_count, low):
    others = {p: {tally: low + (p % 4 if key != "bunco" else -(p % 2))} for p in range(1, 9)}
    others[8] = {tally: low}
    tallies = {**others, LEFT: {tally: left_count}}
    state = FoursomeState(tables=((1, 2, 3, 4), (5, 6, 7, 8)), tallies=tallies)
    packs = {p: R if p % 2 else B for p in [*range(1, 9), LEFT]}
    prizes = rules_for(key).prizes(state, packs, options=FoursomeOptions(prize_ties="shared"))
    booby = _booby(prizes)
    assert LEFT not in booby.winners
    assert 8 in booby.winners


def test_at_tables_of_four_the_leaver_keeps_every_other_prize():
    """Ivy left with the most stars of her pack: she keeps that prize (and her place)."""
    tallies = {p: {"stars": 1} for p in range(1, 9)} | {LEFT: {"stars": 3}}
    state = FoursomeState(tables=((1, 2, 3, 4), (5, 6, 7, 8)), tallies=tallies)
    packs = {p: R if p % 2 else B for p in [*range(1, 9), LEFT]}
    prizes = rules_for("euchre").prizes(state, packs, options=FoursomeOptions())
    assert next(p for p in prizes if p.key == "most_stars_red").winners == (LEFT,)


def test_with_nobody_who_stayed_the_booby_prize_is_not_awarded():
    state = FoursomeState(tables=((-1, -2, -3, -4),), tallies={LEFT: {"stars": 0}}, ghosts=4)
    booby = _booby(rules_for("euchre").prizes(state, {LEFT: R}, options=FoursomeOptions()))
    assert booby.winners == () and "stayed" in booby.reason


def test_progressive_poker_the_booby_prize_goes_to_a_guest_who_stayed():
    """Stake 50. Ivy left after round 1 with 5 counters (45 lost); guest 4, who stayed, has the
    fewest counters won of the others (−40). Fewest won: guest 4, not Ivy."""
    counters = {1: 120, 2: 60, 3: 70, 4: 10, 5: 70, 6: 60, 7: 90, 8: 65, LEFT: 5}
    state = EveningState(
        tables=((1, 2, 3, 4), (5, 6, 7, 8)),
        counters=counters,
        yellow=dict.fromkeys(counters, 0),
        stakes=dict.fromkeys(counters, 1),
    )
    packs = {g: R if g % 2 else B for g in counters}
    for rule in ("fewest_won", "fewest_counters"):
        prizes = POKER_RULES.prizes(state, packs, options=PrizeOptions(booby_rule=rule), stake=50)
        assert _booby(prizes).winners == (4,), rule


def test_the_euchre_tournament_booby_prize_goes_to_a_player_who_stayed():
    """Abe (9) left after game 1 with 6 points; the others played five games. The lowest total
    of those who stayed, 25 (player 1), takes the booby prize."""
    rows = [Standing(p, 20 + 5 * p, 2, 0) for p in range(1, 9)] + [Standing(LEFT, 6, 0, 0)]
    rows.sort(key=lambda row: (-row.points, -row.wins, row.player))
    assert _booby(award(rows)).winners == (LEFT,)  # the rule's own answer without leavers
    assert _booby(award(rows, left={LEFT})).winners == (1,)
