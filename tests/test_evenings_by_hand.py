"""Whole evenings worked by hand from the ``docs/rules/`` pages, replayed through the database
services (``foursome_report`` for every table's report, ``bell_ring`` for the bell) and checked
round by round: a 16-player Progressive Euchre evening, a 16-player Drive Whist drive, and the
12-player Bunco evening of ``tests/test_formats.py`` (worked by hand there for the pure rules).

The expected tables and tallies below were derived by hand, not by running the code: the rules
used are docs/rules/tables-of-four.md's 'Partners kept or changed' (when partners change, the two who stayed take North
and East in the order of the seats they held, the two who arrived South and West in the order of
the seats they left; when partners are kept, the stayers keep their seats and the arriving pair
takes the empty ones in order), Progressive Euchre's ladder (Foster: winners up one table, the
head table's winners stay, other losers stay, the head table's losers to the foot table) and
Drive Whist's circle (Foster: the majority of tricks moves one table towards the head, the head
table's winners go round to the last table, losers stay, partners kept by default).
"""

from __future__ import annotations

import pytest

from tests.factories import EveningFactory, GuestFactory, seat_tables_of_four
from tests.test_formats import BUNCO_ROUNDS
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.standings import foursome_standings
from tournament.formats.partnership.state import foursome_state
from tournament.models import Bell, BellEntry, Evening, Seat
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start

pytestmark = pytest.mark.django_db
RED = set("ABEFIJMN")  # red draws North and East at the start, blue South and West


def _seated(fmt: str, layout: list[str], rounds: int, **options) -> tuple[Evening, dict[str, int]]:
    """An evening of guests named by letters, seated as ``layout`` (one string per table, the
    letters at North, East, South, West) as a draw would seat them."""
    evening = EveningFactory(
        format=fmt,
        round_end=Evening.RoundEnd.CLOCK,
        rounds_planned=rounds,
        options={"format": options} if options else {},
    )
    ids = {}
    for letter in "".join(layout):
        pack = "red" if letter in RED or (fmt == "bunco" and int(letter, 36) % 2) else "blue"
        ids[letter] = GuestFactory(evening=evening, name=letter, pack=pack, status="here").pk
    tables = [[ids[c] for c in table] for table in layout]
    seat_tables_of_four(evening, tables)
    return evening, ids


def _play(evening: Evening, reports: dict[int, dict]) -> Bell:
    rnd = round_start(evening=evening)
    for table, report in reports.items():
        foursome_report(round=rnd, table=table, report=report)
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    assert bell is not None
    return bell


def _tables(evening: Evening, ids: dict[str, int]) -> list[str]:
    letters = {v: k for k, v in ids.items()}
    state = foursome_state(evening)
    seats = {letters[s.guest_id]: (s.table, s.position) for s in Seat.objects.filter(evening=evening)}
    tables = ["".join(letters[p] for p in table) for table in state.tables]
    assert seats == {c: (n, s) for n, t in enumerate(tables, 1) for s, c in enumerate(t)}  # the seats follow
    return tables


def _tally(evening: Evening, ids: dict[str, int], name: str) -> dict[str, int]:
    state = foursome_state(evening)
    return {c: state.tally(p, name) for c, p in ids.items()}


def _letters(text: str, values: str) -> dict[str, int]:
    """ "ABC", "1 2 3" -> {"A": 1, "B": 2, "C": 3}."""
    return dict(zip(text, map(int, values.split()), strict=True))


EUCHRE = [  # (reports, tables after the bell, stars after, points after)
    (
        {
            1: {"points": {"NS": 10, "EW": 6}},
            2: {"hands": [["EW", 1], ["EW", 2], ["NS", 1], ["EW", 4]]},  # E-W 7, N-S 1
            3: {"points": {"NS": 5, "EW": 5}, "playoff": "EW"},  # a tie played off: the win only
            4: {"points": {"NS": 4, "EW": 8}},
        },
        ["ACFH", "EGJL", "IKNP", "MOBD"],
        ("ABCDEFGHIJKLMNOP", "1 0 1 0 0 1 0 1 0 1 0 1 0 1 0 1"),
        ("ABCDEFGHIJKLMNOP", "10 6 10 6 1 7 1 7 5 5 5 5 4 8 4 8"),
    ),
    (
        {
            1: {"points": {"NS": 8, "EW": 4}},
            2: {"points": {"NS": 3, "EW": 9}},
            3: {"hands": [["NS", 2], ["NS", 1], ["EW", 2], ["NS", 4]]},  # N-S 7, E-W 2
            4: {"points": {"NS": 6, "EW": 7}},
        },
        ["AFGL", "EJIN", "KPOD", "MBCH"],
        ("ABCDEFGHIJKLMNOP", "2 0 1 1 0 2 1 1 1 1 0 2 0 2 1 1"),
        ("ABCDEFGHIJKLMNOP", "18 12 14 13 4 15 10 11 12 8 7 14 10 15 11 10"),
    ),
    (
        {
            1: {"points": {"NS": 5, "EW": 7}},
            2: {"points": {"NS": 9, "EW": 3}},
            3: {"points": {"NS": 6, "EW": 6}, "playoff": "NS"},
            4: {"points": {"NS": 2, "EW": 10}},
        },
        ["FLEI", "JNKO", "PDBH", "MCAG"],
        ("ABCDEFGHIJKLMNOP", "2 1 1 1 1 3 1 2 2 1 1 3 0 2 2 1"),
        ("ABCDEFGHIJKLMNOP", "23 22 16 19 13 22 15 21 21 11 13 21 12 18 17 16"),
    ),
]


def test_a_sixteen_player_euchre_evening_replayed_through_the_database_round_by_round():
    evening, ids = _seated("euchre", ["ABCD", "EFGH", "IJKL", "MNOP"], rounds=3)
    for number, (reports, tables, stars, points) in enumerate(EUCHRE, start=1):
        bell = _play(evening, reports)
        assert _tables(evening, ids) == tables, f"round {number}"
        assert _tally(evening, ids, "stars") == _letters(*stars), f"round {number}"
        assert _tally(evening, ids, "wins") == _letters(*stars), f"round {number}"
        assert _tally(evening, ids, "points") == _letters(*points), f"round {number}"
        assert BellEntry.objects.filter(bell=bell, kind="move").count() == 8  # 3 tables' winners up, 2 down
    losses = _tally(evening, ids, "losses")
    assert losses == {c: 3 - s for c, s in _letters(*EUCHRE[-1][2]).items()}
    standings = foursome_standings(evening)
    prizes = {p.prize.key: [g.name for g in p.winners] for p in standings.prizes}
    # most stars: red F (3), blue L (3); booby: M, the only one without a star
    assert prizes == {"most_stars_red": ["F"], "most_stars_blue": ["L"], "booby": ["M"]}
    # the standings: stars, then points (F 3 and 22, L 3 and 21, A 2 and 23, H and I 2 and 21)
    assert [(line.place, line.name) for line in standings.lines[:3]] == [(1, "F"), (2, "L"), (3, "A")]
    assert {(line.place, line.name) for line in standings.lines[3:5]} == {(4, "H"), (4, "I")}
    evening.refresh_from_db()
    assert evening.stage == Evening.Stage.ENDED


WHIST = [  # (tricks N-S per table, tables after the bell, tricks after)
    ([8, 4, 7, 6], ["FBHD", "EIGK", "NJPL", "MAOC"], ("ABCDEFGHIJKLMNOP", "8 5 8 5 4 9 4 9 7 6 7 6 6 7 6 7")),
    (
        [6, 10, 5, 7],
        ["FEHG", "JILK", "NMPO", "BADC"],
        ("ABCDEFGHIJKLMNOP", "14 12 14 12 14 15 14 15 10 14 10 14 13 12 13 12"),
    ),
    (
        [9, 2, 7, 3],
        ["IEKG", "JNLP", "AMCO", "BFDH"],
        ("ABCDEFGHIJKLMNOP", "24 15 24 15 18 24 18 24 21 16 21 16 19 19 19 19"),
    ),
]


def test_a_sixteen_player_whist_drive_replayed_through_the_database_round_by_round():
    evening, ids = _seated("whist", ["ABCD", "EFGH", "IJKL", "MNOP"], rounds=3, prize_ties="shared")
    for number, (north_south, tables, tricks) in enumerate(WHIST, start=1):
        _play(evening, {n: {"tricks": {"NS": ns, "EW": 13 - ns}} for n, ns in enumerate(north_south, 1)})
        assert _tables(evening, ids) == tables, f"hand {number}"
        assert _tally(evening, ids, "tricks") == _letters(*tricks), f"hand {number}"
        if number == 2:  # every partnership has won one hand and lost one
            assert set(_tally(evening, ids, "wins").values()) == {1}
    wins = _tally(evening, ids, "wins")
    assert wins == _letters("ABCDEFGHIJKLMNOP", "2 1 2 1 1 2 1 2 2 1 2 1 1 2 1 2")
    prizes = {p.prize.key: sorted(g.name for g in p.winners) for p in foursome_standings(evening).prizes}
    # red: A and F 24 tricks; blue: C and H 24; booby: B and D 15 (shared, the host's option)
    assert prizes == {"most_tricks_red": ["A", "F"], "most_tricks_blue": ["C", "H"], "booby": ["B", "D"]}


def test_the_twelve_player_bunco_evening_of_test_formats_replayed_through_the_database():
    letters = "ABCDEFGHIJKL"  # player n of test_formats is the n-th letter
    evening, ids = _seated("bunco", ["ABCD", "EFGH", "IJKL"], rounds=6, prize_ties="shared")
    player = {n: ids[letters[n - 1]] for n in range(1, 13)}
    for number, (reports, expected) in enumerate(BUNCO_ROUNDS, start=1):
        stored = {}
        for table, report in reports.items():
            stored[table] = (
                {"points": report["points"]}
                | {
                    key: {str(player[p]): count for p, count in report[key].items()}
                    for key in ("buncos", "minis")
                    if key in report
                }
                | ({"rolloff": report["rolloff"]} if "rolloff" in report else {})
            )
        _play(evening, stored)
        assert _tables(evening, ids) == ["".join(letters[p - 1] for p in t) for t in expected], f"round {number}"
    wins = _tally(evening, ids, "wins")
    assert wins == dict(zip(letters, (4, 3, 4, 3, 4, 1, 1, 3, 4, 2, 3, 4), strict=True))
    assert _tally(evening, ids, "losses") == {c: 6 - w for c, w in wins.items()}
    assert {c: n for c, n in _tally(evening, ids, "buncos").items() if n} == {"A": 1, "I": 1, "K": 1}
    assert {c: n for c, n in _tally(evening, ids, "minis").items() if n} == {"F": 1, "J": 2}
    assert _tally(evening, ids, "points")["A"] == 21 + 12 + 22 + 21 + 6 + 21
    prizes = {p.prize.key: sorted(g.name for g in p.winners) for p in foursome_standings(evening).prizes}
    # two packs (red A B D E F H I J L, blue C G K): each "most" prize once per pack, the booby once
    assert prizes == {
        "most_buncos_red": ["A", "I"],
        "most_buncos_blue": ["K"],
        "most_wins_red": ["A", "E", "I", "L"],
        "most_wins_blue": ["C"],
        "most_minis_red": ["J"],
        "most_minis_blue": [],  # no blue guest rolled a mini bunco: a best count of 0 goes to no one
        "booby": ["F", "G"],
        "last_bunco": ["K"],
    }
