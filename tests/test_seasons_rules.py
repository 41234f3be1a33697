"""The season's rules (``tables.seasons``): worked examples from ``docs/clubs.md`` and their
properties (the order of the evenings never matters; an evening nobody played changes nothing)."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.errors import RuleError
from tables.seasons import (
    Night,
    SeasonOrder,
    SeasonPrize,
    SeasonRules,
    dates_overlap,
    season_dates_refused,
    season_lines,
    season_prizes,
)

BUNCO_ORDER = SeasonOrder("wins", "Wins, then buncos, then points", ("wins", "buncos", "points"))
BUNCO = SeasonRules(
    columns=(("wins", "wins"), ("buncos", "buncos"), ("points", "points")),
    orders=(BUNCO_ORDER,),
    prizes=(SeasonPrize("most_buncos", "Most buncos of the season", "buncos"),),
)
D = datetime.date


def t(wins: int, buncos: int, points: int) -> dict[str, int]:
    return {"wins": wins, "buncos": buncos, "points": points}


# A Bunco club's spring, worked by hand (docs/clubs.md, "A worked season"): Dan is a sub.
SPRING = (
    Night(1, D(2026, 3, 5), {"ann": t(4, 2, 80), "bea": t(4, 1, 90), "cat": t(2, 0, 60)}),
    Night(2, D(2026, 4, 2), {"ann": t(3, 0, 70), "bea": t(3, 1, 75), "dan": t(5, 3, 100)}),
    Night(3, D(2026, 5, 7), {"ann": t(2, 1, 50), "cat": t(5, 2, 105)}),
)


def test_the_spring_by_hand():
    lines = season_lines(SPRING, BUNCO_ORDER, ("wins", "buncos", "points"))
    got = [(line.place, line.person, line.nights, dict(line.totals)) for line in lines]
    assert got == [
        (1, "ann", 3, t(9, 3, 200)),
        (2, "bea", 2, t(7, 2, 165)),  # bea and cat: 7 wins, 2 buncos, 165 points: one place
        (2, "cat", 2, t(7, 2, 165)),
        (4, "dan", 1, t(5, 3, 100)),
    ]
    assert dict(lines[2].by_evening) == {1: t(2, 0, 60), 3: t(5, 2, 105)}


def test_the_spring_prizes_members_only():
    lines = season_lines(SPRING, BUNCO_ORDER)
    awards = {
        a.key: (a.winners, a.figure) for a in season_prizes(lines, BUNCO, nights=3, eligible={"ann", "bea", "cat"})
    }
    assert awards == {
        "most_buncos": (("ann",), 3),  # Dan's 3 buncos are a sub's: no season prize
        "attendance": (("ann",), 3),
        "booby": (("bea", "cat"), 2),  # the last place of those who played 2 of 3 nights, shared
    }


def test_the_spring_prizes_with_subs_share_most_buncos():
    lines = season_lines(SPRING, BUNCO_ORDER)
    awards = {a.key: a.winners for a in season_prizes(lines, BUNCO, nights=3)}
    assert awards["most_buncos"] == ("ann", "dan")  # tied: shared
    assert awards["booby"] == ("bea", "cat")  # Dan played 1 night of 3: not enough for the booby


def test_no_bunco_all_season_no_prize_and_one_place_no_booby():
    nights = [Night(1, D(2026, 1, 1), {"ann": t(1, 0, 10), "bea": t(1, 0, 10)})]
    awards = {a.key for a in season_prizes(season_lines(nights, BUNCO_ORDER), BUNCO, nights=1)}
    assert awards == {"attendance"}


def test_euchre_stars_or_points_as_the_club_chose():
    rules = SeasonRules(
        columns=(("stars", "stars"), ("points", "points")),
        orders=(
            SeasonOrder("stars", "Stars, then points", ("stars", "points")),
            SeasonOrder("points", "Points, then stars", ("points", "stars")),
        ),
    )
    nights = [Night(1, D(2026, 1, 1), {"ann": {"stars": 5, "points": 40}, "bea": {"stars": 4, "points": 52}})]
    assert [line.person for line in season_lines(nights, rules.order("stars"))] == ["ann", "bea"]
    assert [line.person for line in season_lines(nights, rules.order("points"))] == ["bea", "ann"]
    assert rules.order("") == rules.orders[0]
    with pytest.raises(RuleError, match="Stars, then points; Points, then stars"):
        rules.order("tricks")


def test_a_season_of_a_game_where_the_lowest_score_wins_ranks_the_fewest_points_first():
    """A Hearts-like club's season (worked by hand): fewest points first, then most wins."""
    order = SeasonOrder("points", "Fewest points, then wins", ("points", "wins"), fewest=frozenset({"points"}))
    nights = (
        Night(1, D(2026, 3, 5), {"ann": t(1, 0, 40), "bea": t(3, 0, 20), "cat": t(2, 0, 30)}),
        Night(2, D(2026, 4, 2), {"ann": t(2, 0, 10), "bea": t(0, 0, 40), "cat": t(3, 0, 30)}),
    )
    lines = season_lines(nights, order)
    # ann 50 points (3 wins), bea 60 (3), cat 60 (5): cat's wins break the tie with bea
    assert [(line.place, line.person, line.totals["points"]) for line in lines] == [
        (1, "ann", 50),
        (2, "cat", 60),
        (3, "bea", 60),
    ]


def test_an_evening_counted_twice_is_refused():
    with pytest.raises(RuleError, match="counted twice"):
        season_lines([SPRING[0], SPRING[0]], BUNCO_ORDER)


def test_season_dates():
    spring = ("Spring", D(2026, 3, 1), D(2026, 5, 31))
    assert season_dates_refused(D(2026, 6, 1), None, [spring]) is None
    assert "overlap the season “Spring” (01 Mar 2026 to 31 May 2026)" in season_dates_refused(
        D(2026, 5, 31), D(2026, 8, 31), [spring]
    )
    assert "until it is closed" in season_dates_refused(D(2027, 1, 1), None, [("Open", D(2026, 9, 1), None)])
    assert "before it starts" in season_dates_refused(D(2026, 9, 1), D(2026, 8, 1), [])
    assert dates_overlap(D(2026, 1, 1), None, D(2030, 1, 1), None)
    assert not dates_overlap(D(2026, 1, 1), D(2026, 1, 31), D(2026, 2, 1), None)


people = st.sampled_from(["ann", "bea", "cat", "dan", "eve"])
tallies = st.fixed_dictionaries({"wins": st.integers(0, 6), "buncos": st.integers(0, 3), "points": st.integers(0, 150)})
nights = st.lists(st.dictionaries(people, tallies, max_size=4), max_size=5).map(
    lambda rows: [Night(i + 1, D(2026, 1, 1) + datetime.timedelta(days=7 * i), row) for i, row in enumerate(rows)]
)


@given(nights.flatmap(lambda season: st.tuples(st.just(season), st.permutations(season))))
def test_the_order_of_the_evenings_never_matters(pair):
    season, shuffled = pair
    assert season_lines(shuffled, BUNCO_ORDER) == season_lines(season, BUNCO_ORDER)


@given(nights)
def test_an_evening_nobody_played_changes_nothing(season):
    empty = Night(999, D(2027, 1, 1), {})
    with_it = season_lines([*season, empty], BUNCO_ORDER)
    assert with_it == season_lines(season, BUNCO_ORDER)
    assert season_prizes(with_it, BUNCO, nights=len(season)) == season_prizes(
        season_lines(season, BUNCO_ORDER), BUNCO, nights=len(season)
    )


@given(nights)
def test_totals_are_sums_and_places_count_the_better(season):
    lines = season_lines(season, BUNCO_ORDER)
    for line in lines:
        assert line.nights == sum(1 for n in season if line.person in n.tallies)
        assert line.totals["buncos"] == sum(
            n.tallies[line.person]["buncos"] for n in season if line.person in n.tallies
        )
        key = tuple(line.totals[k] for k in BUNCO_ORDER.tallies)
        better = sum(1 for o in lines if tuple(o.totals[k] for k in BUNCO_ORDER.tallies) > key)
        assert line.place == better + 1


@given(nights)
def test_every_prize_winner_holds_the_best_figure(season):
    lines = season_lines(season, BUNCO_ORDER)
    for award in season_prizes(lines, BUNCO, nights=len(season)):
        if award.key == "most_buncos":
            assert award.figure == max(line.totals["buncos"] for line in lines)
            assert {line.person for line in lines if line.totals["buncos"] == award.figure} == set(award.winners)
