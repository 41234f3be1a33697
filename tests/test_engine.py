"""The format engine (``tables.formats.engine``): every format, Progressive Poker included, behind
one interface, and ``tournament/`` reaching the rules' draw, bell and prizes only through it."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from tables.errors import RuleError
from tables.formats import FoursomeOptions
from tables.formats.bell import FoursomeState
from tables.formats.engine import ENGINE, FormatRules, FoursomeRules, rules_for
from tables.formats.poker.bell import BellOptions, EveningState, TableResult, ring_bell
from tables.formats.poker.prizes import PrizeOptions
from tables.formats.poker.rules import POKER_RULES, PokerRules
from tables.formats.scoring import euchre_score
from tables.packs import Pack
from tests.source_trees import parse_file

RULE_CALLS = {"ring_bell", "ring_foursome_bell", "deal", "draw_foursomes", "award_prizes", "award_foursome_prizes"}
"""The formats' draw, bell and prizes: ``tournament/`` calls them through ``rules_for`` only."""


def test_every_format_has_its_rules_behind_the_one_interface():
    assert list(ENGINE) == ["euchre", "whist", "bunco"]
    for key in ENGINE:
        rules = rules_for(key)
        assert isinstance(rules, FormatRules) and rules.entry.key == key
        assert isinstance(rules, FoursomeRules)
    assert isinstance(POKER_RULES, PokerRules) and isinstance(POKER_RULES, FormatRules)
    assert POKER_RULES.entry.key == "poker"
    with pytest.raises(RuleError, match="“bridge” is not a format: choose euchre, whist, bunco"):
        rules_for("bridge")


@pytest.mark.django_db
def test_every_registered_format_answers_with_its_own_rules():
    from tournament.registry import installed_formats

    for plugin in installed_formats().values():
        assert isinstance(plugin.rules, FormatRules) and plugin.rules.entry.key == plugin.key
    assert installed_formats()["poker"].rules is POKER_RULES


def test_tournament_reaches_the_draw_the_bell_and_the_prizes_only_through_the_engine():
    root = Path(__file__).resolve().parent.parent / "tournament"
    direct = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(parse_file(path)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in RULE_CALLS:
                direct.append(f"{path.relative_to(root)}:{node.lineno} {node.func.id}")
    assert direct == []


@pytest.mark.parametrize("players, sizes", [(8, (4, 4)), (13, (4, 5, 4)), (16, (4, 4, 4, 4)), (20, (4, 6, 6, 4))])
def test_progressive_poker_plans_and_draws_as_its_own_rules_say(players, sizes):
    poker = POKER_RULES
    assert poker.plan(players).sizes == sizes
    guests = [(n, Pack.RED if n % 2 else Pack.BLUE) for n in range(1, players + 1)]
    seating = poker.draw(guests, rng=random.Random(7))
    assert tuple(len(t) for t in seating.tables) == sizes
    assert sorted(c.guest for c in seating.cards) == list(range(1, players + 1))
    assert all(c.seat is None and c.guest in seating.tables[c.table - 1] for c in seating.cards)


def test_tables_of_four_plan_fours_and_seat_ghosts():
    bunco = rules_for("bunco")
    assert bunco.plan(10).sizes == (4, 4, 4)
    seating = bunco.draw([(n, Pack.RED if n % 2 else Pack.BLUE) for n in range(1, 11)], rng=random.Random(3))
    assert seating.plan.sizes == (4, 4, 4) and sum(1 for t in seating.tables for p in t if p < 0) == 2
    red = [c for c in seating.cards if c.pack is Pack.RED]
    assert all(c.seat in (0, 1) for c in red)  # red draws North and East


def test_progressive_poker_rings_through_the_engine_exactly_as_ring_bell_does():
    state = EveningState.start([[1, 2, 3, 4], [5, 6, 7, 8]], stake=50)
    results = [
        TableResult(table=1, pool_winner=1, counters={1: 80, 2: 40, 3: 40, 4: 40}),
        TableResult(table=2, pool_winner=6, counters={}),
    ]
    options = BellOptions()
    cuts = {2: 3, 3: 9, 4: 2}
    rung = POKER_RULES.ring(state, results, options=options, stake=50, cuts=cuts)
    direct = ring_bell(state, results, stake=50, options=options, cuts=cuts)
    assert rung.record == direct and rung.after == direct.after
    # By hand: 2, 3 and 4 hold the fewest counters (40) at the head table and cut; 3's nine is
    # the highest, so 3 goes down to the booby table; table 2's winner 6 takes 3's seat.
    assert rung.after.tables == ((1, 2, 6, 4), (5, 3, 7, 8))
    prizes = POKER_RULES.prizes(rung.after, {g: Pack.RED for g in range(1, 9)}, options=PrizeOptions(), stake=50)
    assert prizes[0].winners == (1,)  # the yellow counter (head table's pool) and the most counters


def test_euchre_rings_through_the_engine_with_the_hosts_movement():
    state = FoursomeState.start([(1, 2, 3, 4), (5, 6, 7, 8)])
    scores = {
        1: euchre_score(state.tables[0], points={"NS": 7, "EW": 3}),
        2: euchre_score(state.tables[1], points={"NS": 2, "EW": 9}),
    }
    ladder = rules_for("euchre").ring(state, scores, options=FoursomeOptions())
    # Head: N-S (1, 3) won and stay at North and East; table 2's winners (6, 8) arrive. Foot: its
    # losers (5, 7) stay; the head table's losers (2, 4) arrive.
    assert ladder.after.tables == ((1, 3, 6, 8), (5, 7, 2, 4))
    down = rules_for("euchre").ring(state, scores, options=FoursomeOptions(movement="circle"))
    # The circle: table 2's winners move up; the head table's winners go round to the foot.
    assert down.after.tables == ((2, 4, 6, 8), (5, 7, 1, 3))
    assert ladder.after.tally(1, "stars") == 1 and ladder.after.tally(2, "points") == 3
