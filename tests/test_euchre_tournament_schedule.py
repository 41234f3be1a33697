"""The Euchre tournament's rotation schedule (``tables.formats.euchre_tournament.schedule``).

Rule: ``docs/rules/euchre-tournament.md``: nobody partners the same
player twice while a schedule avoids it, opponents as even as possible, the players over a
multiple of four sitting out in turn; the ideal is E. H. Moore's whist tournament (1896): 4k
players over 4k − 1 games, or 4k + 1 over 4k + 1 games with one sitting out each game, every
pair partnering once and opposing twice. Known answers for 8, 12, 16 and 13 players (whist
tournaments), 9 players (one sitting out each game, each once); property tests for any count
8 to 200; the heuristic's opponent spread and the speed as measured.
"""

from __future__ import annotations

import time
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.errors import RuleError
from tables.formats.euchre_tournament.schedule import (
    Game,
    Place,
    Schedule,
    _partner_rounds,
    most_games,
    rotation_schedule,
)
from tables.formats.euchre_tournament.starters import STARTERS
from tables.formats.euchre_tournament.whist import (
    game_order,
    ghost_order,
    is_whist_starter,
    prime_starter,
    whist_starter,
)
from tables.formats.foursome import Seat


def _assert_whist_tournament(schedule: Schedule) -> None:
    """Every pair partners exactly once and opposes exactly twice."""
    pairs = list(combinations(range(schedule.players), 2))
    assert schedule.partner_counts() == dict.fromkeys(pairs, 1)
    assert schedule.opponent_counts() == dict.fromkeys(pairs, 2)


def _assert_well_formed(schedule: Schedule, games: int) -> None:
    """Each game seats everybody once or sits them out, four to a table, n mod 4 out; sit-outs
    never differ by more than one between two players after any game; no partner twice."""
    n = schedule.players
    assert [game.number for game in schedule.games] == list(range(1, games + 1))
    sat_out = [0] * n
    for game in schedule.games:
        seated = [player for table in game.tables for player in table]
        assert all(len(table) == 4 for table in game.tables)
        assert sorted(seated + list(game.sitting_out)) == list(range(n))
        assert len(game.sitting_out) == n % 4
        for player in game.sitting_out:
            sat_out[player] += 1
        assert max(sat_out) - min(sat_out) <= 1
    assert set(schedule.partner_counts().values()) <= {1}


@pytest.mark.parametrize("players", [8, 12, 16])
def test_4k_players_over_4k_minus_1_games_partner_each_other_once_and_oppose_twice(players: int) -> None:
    schedule = rotation_schedule(players, players - 1)
    _assert_well_formed(schedule, players - 1)
    _assert_whist_tournament(schedule)
    assert schedule.method.startswith("E. H. Moore's whist tournament")


def test_13_players_over_13_games_sit_out_once_each_and_make_a_whist_tournament() -> None:
    schedule = rotation_schedule(13, 13)
    _assert_well_formed(schedule, 13)
    assert schedule.sit_out_counts() == (1,) * 13
    assert sorted(game.sitting_out[0] for game in schedule.games) == list(range(13))
    _assert_whist_tournament(schedule)


def test_9_players_over_9_games_sit_out_once_each_and_make_a_whist_tournament() -> None:
    """Over the field of 9 elements (no cyclic one exists round 9 numbers): game t sits out
    player t."""
    schedule = rotation_schedule(9, 9)
    _assert_well_formed(schedule, 9)
    assert [game.sitting_out for game in schedule.games] == [(g,) for g in range(9)]
    _assert_whist_tournament(schedule)
    assert "over the field of 9 elements" in schedule.method


@pytest.mark.parametrize("players", [81, 121, 125, 169])
def test_the_other_prime_powers_4k_plus_1_make_whist_tournaments_over_their_fields(players: int) -> None:
    schedule = rotation_schedule(players, players)
    _assert_well_formed(schedule, players)
    _assert_whist_tournament(schedule)


def test_the_first_game_of_8_players_is_the_starter_and_the_others_move_round_the_circle() -> None:
    """Worked by hand from the starter ((4, 1, 6, 5), (7, 2, 0, 3)): 4–6 and 1–5 partners, 7–0
    and 2–3; game t adds t to every player but 7 (∞), modulo 7, so in game 2 5–0 and 2–6
    partner, 7–1 and 3–4 (each table then seated so that seats even out)."""
    schedule = rotation_schedule(8, 7)
    assert game_order(8, 7) == (0, 1, 2, 3, 4, 5, 6)
    first, second = schedule.games[0], schedule.games[1]
    assert {frozenset(t) for t in first.tables} == {frozenset({4, 6, 1, 5}), frozenset({7, 0, 2, 3})}
    assert {frozenset(t) for t in second.tables} == {frozenset({5, 0, 2, 6}), frozenset({7, 1, 3, 4})}
    assert schedule.partner_of(4, 1) == 6 and schedule.partner_of(7, 1) == 0
    assert schedule.partner_of(5, 2) == 0 and schedule.partner_of(7, 2) == 1


@pytest.mark.parametrize("players", sorted(STARTERS))
def test_every_checked_in_starter_makes_a_whist_tournament(players: int) -> None:
    assert is_whist_starter(players, STARTERS[players])
    schedule = rotation_schedule(players, most_games(players) if players % 4 == 0 else players)
    _assert_whist_tournament(schedule)


PRIMES_4K_PLUS_1 = [13, 17, 29, 37, 41, 53, 61, 73, 89, 97, 101, 109, 113, 137, 149, 157, 173, 181, 193, 197]


@pytest.mark.parametrize("prime", PRIMES_4K_PLUS_1)
def test_the_prime_construction_makes_a_whist_tournament_for_every_prime_4k_plus_1(prime: int) -> None:
    assert is_whist_starter(prime, prime_starter(prime))
    assert whist_starter(prime) is not None


def test_the_prime_construction_for_13_is_worked_by_hand() -> None:
    """13 = 4·3 + 1, primitive root 2, w = 2³ = 8: tables (1, 8, 12, 5), (2, 3, 11, 10),
    (4, 6, 9, 7); partners 1–12 and 8–5 are 11 and 3 apart, 2–11 and 3–10 9 and 7 apart."""
    assert prime_starter(13) == ((1, 8, 12, 5), (2, 3, 11, 10), (4, 6, 9, 7))
    _assert_whist_tournament(rotation_schedule(97, 97))


@pytest.mark.parametrize(
    ("players", "games", "made_by"), [(197, 12, "round-robin"), (16, 12, "E. H. Moore"), (13, 6, "round-robin")]
)
def test_fewer_games_than_a_whist_tournament_take_the_more_even_schedule(
    players: int, games: int, made_by: str
) -> None:
    """Measured (``spread``: most meetings, sum of squares, neighbours): 12 games of the whist
    tournament for 197 oppose 66 pairs twice, the heuristic's none; 16 over 12 games, whist
    (2, 342, 0) against (3, 362, 32); 13 over 6, whist (2, 102, 15) against (2, 94, 13)."""
    schedule = rotation_schedule(players, games)
    assert made_by in schedule.method
    assert max(schedule.opponent_counts().values()) == (1 if players == 197 else 2)


@pytest.mark.parametrize("players", [15, 27])
def test_4k_plus_3_players_can_play_the_whist_tournament_for_one_more_its_empty_places_table_out(
    players: int,
) -> None:
    """15 and 27 players over 15 and 27 games: the whist tournament for 16 and 28 with one
    place empty, whose table sits out; in turn, no partner twice, nobody opposed more than
    twice (where the round robin opposes some pairs 3 times, measured)."""
    schedule = rotation_schedule(players, players)
    _assert_well_formed(schedule, players)
    assert "with one place empty" in schedule.method
    assert max(schedule.opponent_counts().values()) == 2
    assert schedule.sit_out_counts() == (3,) * players
    assert ghost_order(11) is None and ghost_order(19) is None


def test_a_starter_with_two_players_swapped_is_refused_by_the_check() -> None:
    (a, b, c, d), second = STARTERS[8]
    assert not is_whist_starter(8, ((a, b, second[2], d), (second[0], second[1], c, second[3])))
    assert not is_whist_starter(10, STARTERS[8])


@pytest.mark.parametrize("players", range(8, 201))
def test_the_round_robin_never_repeats_a_partner_and_sits_out_in_turn(players: int) -> None:
    """The heuristic's partners and sit-outs for every count over its whole length: each game
    seats everyone but n mod 4 in partnerships, no partnership twice, and sit-outs balanced
    after every game (the module's guarantee, checked for all 193 counts)."""
    rounds = _partner_rounds(players)
    assert len(rounds) == most_games(players)
    seen: set[frozenset[int]] = set()
    sat_out = [0] * players
    for pairs, out in rounds:
        assert sorted([p for pair in pairs for p in pair] + out) == list(range(players))
        assert len(out) == players % 4 and len(pairs) % 2 == 0
        for pair in pairs:
            assert frozenset(pair) not in seen
            seen.add(frozenset(pair))
        for player in out:
            sat_out[player] += 1
        assert max(sat_out) - min(sat_out) <= 1


@st.composite
def _counts(draw: st.DrawFn) -> tuple[int, int]:
    players = draw(st.integers(8, 200))
    return players, draw(st.integers(1, min(most_games(players), 30)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_counts())
def test_any_count_is_well_formed_and_the_same_twice(counts: tuple[int, int]) -> None:
    players, games = counts
    schedule = rotation_schedule(players, games)
    _assert_well_formed(schedule, games)
    assert rotation_schedule(players, games) == schedule


@settings(max_examples=8, deadline=None)
@given(st.integers(8, 40).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, most_games(n)))))
def test_long_schedules_are_well_formed_to_the_last_game(counts: tuple[int, int]) -> None:
    players, games = counts
    _assert_well_formed(rotation_schedule(players, games), games)


@pytest.mark.parametrize(
    ("players", "games", "most"),
    [(200, 12, 1), (199, 12, 1), (197, 12, 1), (150, 12, 1), (10, 9, 3), (11, 11, 3), (30, 29, 3)],
)
def test_opponents_are_spread_as_measured(players: int, games: int, most: int) -> None:
    """Measured, as a guard against a worse heuristic: 12 games of a large room never oppose
    anyone twice; a full round robin of a small one opposes a pair at most 3 times (11 players:
    4 times with one run of the heuristic, 3 with the best of 12)."""
    assert max(rotation_schedule(players, games).opponent_counts().values()) == most


def test_200_players_over_12_games_are_scheduled_well_under_a_second() -> None:
    start = time.perf_counter()
    rotation_schedule(200, 12)
    assert time.perf_counter() - start < 1.0


def test_a_players_card_lists_table_seat_partner_and_opponents_or_the_game_out() -> None:
    schedule = rotation_schedule(13, 13)
    card = schedule.card(5)
    assert [place.game for place in card] == list(range(1, 14))
    out = [place for place in card if place.sits_out]
    assert len(out) == 1 and out[0] == Place(out[0].game)
    for place in card:
        if place.sits_out:
            assert schedule.table_of(5, place.game) is None and schedule.opponents_of(5, place.game) == ()
            continue
        assert place.table is not None and place.seat is not None
        table = schedule.game(place.game).tables[place.table - 1]
        assert table[place.seat] == 5 and table[place.seat.partner] == place.partner
        assert set(place.opponents) == set(table) - {5, place.partner}
        assert schedule.seat_of(5, place.game) is place.seat


def test_seats_even_out_over_a_whist_tournament() -> None:
    """House rule: every player's seats are evened out game by game (16 players over 15 games:
    each seat 3 to 5 times, measured; with the starter's seats only, player 15, ∞, would sit
    North all 15 games)."""
    schedule = rotation_schedule(16, 15)
    for player in range(16):
        seats = [schedule.seat_of(player, game.number) for game in schedule.games]
        assert all(3 <= seats.count(seat) <= 5 for seat in Seat)


@pytest.mark.parametrize(
    ("players", "games", "words"),
    [
        (7, 6, "8 to 200 players (two tables at least), not 7"),
        (201, 12, "8 to 200 players (two tables at least), not 201"),
        (12, 0, "With 12 players the schedule has 1 to 11 games"),
        (
            12,
            12,
            "With 12 players the schedule has 1 to 11 games (one round of partners: nobody partners anyone twice), not 12",
        ),
        (13, 14, "With 13 players the schedule has 1 to 13 games"),
        (True, 8, "The number of players must be a whole number, not True"),
        (12, 2.0, "The number of games must be a whole number, not 2.0"),
    ],
)
def test_bad_counts_are_refused_with_what_to_change(players: int, games: int, words: str) -> None:
    with pytest.raises(RuleError, match=words.replace("(", r"\(").replace(")", r"\)")):
        rotation_schedule(players, games)


def test_helpers_refuse_a_game_or_a_player_not_scheduled() -> None:
    schedule = rotation_schedule(8, 3)
    with pytest.raises(RuleError, match="games 1 to 3, not 4"):
        schedule.game(4)
    with pytest.raises(RuleError, match="numbered 0 to 7, not 8"):
        schedule.partner_of(8, 1)
    assert isinstance(schedule.game(3), Game)
