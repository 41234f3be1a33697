"""One home for each rule (issue 16): "is this the last round" is ``Round.is_last`` /
``Round.is_last_number``; "do the counters add up" is ``tables.formats.poker.bell.checks.count_off``, which the
bell, the result services and the final count call. Worked examples with real values."""

from __future__ import annotations

import pytest

from tables.errors import RuleError
from tables.formats.poker.bell import EveningState, TableResult, ring_bell
from tables.formats.poker.bell.checks import count_off
from tests.fixtures_bell import seat_by_names
from tournament.models import Evening, Round
from tournament.registry import format_named
from tournament.services.clock import round_start
from tournament.services.ending import evening_end
from tournament.services.results import count_difference

HEAD, BOOBY = ["Ann", "Bob", "Cy", "Di"], ["Eve", "Fay", "Gus", "Hal"]


def test_six_rounds_planned_round_six_is_the_last():
    evening = Evening(rounds_planned=6)
    assert [Round.is_last_number(n, evening=evening) for n in (1, 5, 6, 7)] == [False, False, True, True]
    assert Round(evening=evening, number=6).is_last and not Round(evening=evening, number=5).is_last


def test_an_evening_played_until_the_host_stops_has_no_last_round():
    evening = Evening(rounds_planned=None)
    assert not Round.is_last_number(1, evening=evening)
    assert not Round(evening=evening, number=40).is_last


@pytest.mark.django_db
def test_ending_the_evening_early_makes_the_round_in_play_the_last(make_evening):
    evening = make_evening(0, 0, rounds_planned=6)
    seat_by_names(evening, [HEAD, BOOBY])
    rnd = round_start(evening=evening)
    assert rnd.number == 1 and not rnd.is_last
    assert evening_end(evening=evening, seen_round=1) == "last round"
    rnd.refresh_from_db()
    rnd.evening.refresh_from_db()
    assert rnd.evening.rounds_planned == 1 and rnd.is_last
    with pytest.raises(RuleError, match="Round 1 is the last round already"):
        evening_end(evening=evening, seen_round=1)


def state() -> EveningState:
    return EveningState.start([[1, 2, 3], [4, 5, 6]], stake=50)


def test_a_count_that_adds_up_is_off_by_nothing():
    assert count_off(state(), 1, {1: 100, 2: 50, 3: 0}) == 0


def test_a_short_count_is_off_by_a_negative_number_and_a_high_one_by_a_positive():
    assert count_off(state(), 1, {1: 60, 2: 50, 3: 30}) == -10
    assert count_off(state(), 2, {4: 75, 5: 50, 6: 45}) == 20


def test_a_count_that_misses_someone_cannot_be_checked():
    assert count_off(state(), 1, {1: 60, 2: 50}) is None
    assert count_off(state(), 1, {}) is None
    with pytest.raises(RuleError, match="everyone at the table, or of no one"):
        count_difference(format_named("poker"), state(), 1, {1: 60, 2: 50})
    assert count_difference(format_named("poker"), state(), 1, {}) == 0  # no counts given: nothing to check


def test_the_bell_warns_with_the_same_difference():
    results = [
        TableResult(table=1, pool_winner=1, counters={1: 60, 2: 50, 3: 30}),
        TableResult(table=2, pool_winner=4, counters={4: 75, 5: 50, 6: 45}),
    ]
    record = ring_bell(state(), results, stake=50)
    assert record.warnings == (
        "Counters at table 1 add up to 140, 10 short of 150.",
        "Counters at table 2 add up to 170, 20 more than 150.",
    )
