"""More evenings worked by hand from ``docs/rules/`` alone (before reading the code), replayed
round by round through the host's own pages with Django's test client: the round's start and the
bell (``host-round``), every table's result form (``host-result``) and a guest who leaves (the
guests list's "Left" button, ``host-guest-status``). After every bell the seats and the tallies are
compared with the hand-worked ones; after the last, the tallies, the standings and the prizes.

Everything expected below was worked out by hand (the working is in the commit's notes) and is
written here literally: the seats after each bell, the winners at each table, the final tallies
and prizes. Rules used, as docs/rules/ reads:

* Seats and partners: when partners change, the two who stayed take North and East in the order of
  the seats they held and the two who arrived take South and West in the order of the seats they
  left; with "losers move down one table" nobody stays at a middle table, and the pair coming up
  from the table below counts as the stayers (house rule, on the rules pages). When partners are
  kept, the stayers keep their seats and the arriving pair takes the empty ones in the order of
  the seats they left.
* The ladder (Euchre, Bunco): winners up one table, the head's winners stay, other losers stay,
  the head's losers to the foot. Drive Whist's circle: winners one table towards the head, the
  head's winners round to the foot table, losers stay.
* A tie at a table is played (rolled) off: the win only, no points.
* A guest who leaves is moved by the bell, then a ghost takes the seat they were moved into; they
  keep their tallies and their place.
* Prizes: ghosts left out first; a "most" prize whose best count is 0 goes to no one; with two
  packs each "most" prize once per pack, the booby once; ties cut (the default) or shared.

Guests: ``A1``… of the red pack (ladies), ``B1``… of the blue (gentlemen); ``G``, ``G1``, ``G2``
are ghosts. A table is written as its players at North, East, South and West.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory, seat_tables_of_four
from tournament.formats.partnership.standings import foursome_standings
from tournament.formats.partnership.state import foursome_state
from tournament.models import Evening, Guest, Round, Seat

pytestmark = pytest.mark.django_db


@dataclass
class Party:
    """An evening seated by hand, played through the host's pages by ``client``."""

    client: object
    evening: Evening
    ids: dict[str, int]
    seats: list[list[str]]
    history: list[set[str]] = field(default_factory=list)
    played: Counter = field(default_factory=Counter)

    @property
    def names(self) -> dict[int, str]:
        return {v: k for k, v in self.ids.items()}


def _party(client, host, fmt: str, layout: list[str], rounds: int, **options) -> Party:
    """An evening of ``fmt`` whose draw seated ``layout`` (one string a table, N E S W; names
    starting with G are ghosts), ``rounds`` planned, the host's format ``options``."""
    evening = EveningFactory(
        host=host,
        format=fmt,
        round_end=Evening.RoundEnd.CLOCK,
        rounds_planned=rounds,
        options={"format": options} if options else {},
    )
    seats = [table.split() for table in layout]
    ids: dict[str, int] = {}
    ghosts = sorted(n for t in seats for n in t if n.startswith("G"))
    for name in (n for t in seats for n in t):
        if name.startswith("G"):
            ids[name] = -(ghosts.index(name) + 1)
        else:
            ids[name] = GuestFactory(evening=evening, name=name, pack="red" if name[0] == "A" else "blue").pk
    tables = [[ids[n] for n in t] for t in seats]
    seat_tables_of_four(evening, tables)
    return Party(client, evening, ids, seats)


def _euchre(table: list[str], result: tuple) -> dict:
    ns, ew, *playoff = result
    return {"points_NS": ns, "points_EW": ew, "winner": playoff[0] if playoff else ""}


def _whist(table: list[str], ns: int) -> dict:
    return {"tricks_NS": ns, "tricks_EW": 13 - ns}


def _bunco(table: list[str], result: tuple) -> dict:
    """(NS points, EW points, "buncos by name", "minis by name"[, roll-off winner]) as the form."""
    ns, ew, buncos, minis, *rolloff = result
    data = {"points_NS": ns, "points_EW": ew, "winner": rolloff[0] if rolloff else ""}
    for seat, name in enumerate(table):
        data |= {
            f"buncos_{seat}": buncos.split().count(name),
            f"minis_{seat}": minis.split().count(name),
            f"rolls_{seat}": "",
        }
    return data


FORMS = {"euchre": _euchre, "whist": _whist, "bunco": _bunco}


def _round(party: Party, results: list, winners: str, after: list[str]) -> None:
    """Play one round through the host's pages: start it, send every table's result form, ring
    the bell; then compare the winners (by their tallies) and the seats with the hand-worked
    ones, and remember who won."""
    client, evening = party.client, party.evening
    number = len(party.history) + 1
    assert client.post(reverse("host-round", args=[evening.pk]), {"action": "start"}).status_code == 302
    assert Round.objects.get(evening=evening, number=number)
    for table, (seats, result) in enumerate(zip(party.seats, results, strict=True), start=1):
        data = FORMS[evening.format](seats, result)
        data |= {"round": number, "seated": " ".join(str(party.ids[n]) for n in seats)}
        response = client.post(reverse("host-result", args=[evening.pk, table]), data)
        assert response.status_code == 302, f"round {number}, table {table}: {response.content.decode()[-3000:]}"
    response = client.post(reverse("host-round", args=[evening.pk]), {"action": "ring", "round": number})
    assert response.status_code == 302 and response["Location"] == reverse("host-evening", args=[evening.pk])
    party.history.append(set(winners.split()))
    party.played.update(n for t in party.seats for n in t)
    party.seats = [t.split() for t in after]
    assert _tables(party) == after, f"seats after round {number}"
    won = Counter(n for rnd in party.history for n in rnd)
    key = "stars" if evening.format == "euchre" else "wins"
    assert _tally(party, key) == {n: won[n] for n in party.ids}, f"{key} after round {number}"
    lost = {n: party.played[n] - won[n] for n in party.ids}
    assert _tally(party, "losses") == lost, f"losses after round {number}"


def _tables(party: Party) -> list[str]:
    """The tables as the product seats them now, each "N E S W" by name; the guests' ``Seat``
    rows must say the same."""
    state = foursome_state(party.evening)
    tables = [" ".join(party.names[p] for p in t) for t in state.tables]
    rows = {party.names[s.guest_id]: (s.table, s.position) for s in Seat.objects.filter(evening=party.evening)}
    seated = {n: (t, s) for t, row in enumerate(tables, 1) for s, n in enumerate(row.split()) if not n.startswith("G")}
    assert rows == seated
    return tables


def _tally(party: Party, name: str) -> dict[str, int]:
    state = foursome_state(party.evening)
    return {n: state.tally(p, name) for n, p in party.ids.items()}


def _totals(text: str) -> dict[str, int]:
    """ "A1 5 B1 0" -> {"A1": 5, "B1": 0}."""
    words = text.split()
    return {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}


def _prizes(party: Party, expected: dict[str, str]) -> None:
    """The prizes as the standings give them: ``expected`` is prize key -> the winner's name,
    "" for no one, or "B3|B4|B8" for a tie cut among those (the cut's winner one of them)."""
    prizes = {p.prize.key: p for p in foursome_standings(party.evening).prizes}
    assert set(prizes) == set(expected)
    for key, who in expected.items():
        won = [g.name for g in prizes[key].winners]
        if "|" in who:
            assert len(won) == 1 and won[0] in who.split("|"), key
            level = who.split("|")
            assert set(prizes[key].prize.tied) == {party.ids[name] for name in level}, key
            assert all(name in prizes[key].reason for name in level) and "won the cut" in prizes[key].reason, key
        else:
            assert won == ([who] if who else []), key


def _ranks(text: str) -> list[tuple[int, str]]:
    """ "1 A1 2 A6 2 B3" -> [(1, "A1"), (2, "A6"), (2, "B3")]: places as the standings give them."""
    words = text.split()
    return [(int(words[i]), words[i + 1]) for i in range(0, len(words), 2)]


def _places(party: Party) -> list[tuple[int, str]]:
    return [(line.place, line.name) for line in foursome_standings(party.evening).lines]


@pytest.fixture
def host_client(client, host):
    client.force_login(host)
    return client


# --- (a) Bunco, 12 guests, 6 rounds, default options; B5 leaves after round 3 ------------------

BUNCO_A = [  # (each table's result, the winners, the tables after the bell)
    (
        [(21, 12, "", "A1"), (15, 15, "", "", "EW"), (8, 30, "B5", "")],
        "A1 A2 B3 B4 B5 B6",
        ["A1 A2 B3 B4", "A3 A4 B5 B6", "A5 A6 B1 B2"],
    ),
    (
        [(14, 21, "", "B4"), (22, 9, "", ""), (10, 24, "A6", "")],
        "A2 B4 A3 B5 A6 B2",
        ["A2 B4 A3 B5", "A4 B6 A6 B2", "A5 B1 A1 B3"],
    ),
    (
        [(21, 18, "", ""), (11, 11, "", "B2", "NS"), (25, 7, "A1", "")],
        "A2 A3 A4 A6 A5 A1",
        ["A2 A3 A4 A6", "B6 B2 A5 A1", "B1 B3 B4 B5"],
    ),
    (
        [(26, 16, "A4", ""), (12, 20, "", "B2"), (9, 23, "G", "")],
        "A2 A4 B2 A1 B3 G",
        ["A2 A4 B2 A1", "B6 A5 B3 G", "B1 B4 A3 A6"],
    ),
    (
        [(13, 22, "", "A1"), (21, 19, "", "G"), (4, 30, "A6", "")],
        "A4 A1 B6 B3 B4 A6",
        ["A4 A1 B6 B3", "A5 G B4 A6", "B1 A3 A2 B2"],
    ),
    (
        [(10, 21, "", ""), (14, 14, "", "", "EW"), (17, 23, "A3", "")],
        "A1 B3 G A6 A3 B2",
        ["A1 B3 G A6", "A5 B4 A3 B2", "B1 A2 A4 B6"],
    ),
]


def test_a_twelve_guest_bunco_evening_with_a_leaver_worked_by_hand(host_client, host):
    party = _party(host_client, host, "bunco", ["A1 B1 A2 B2", "A3 B3 A4 B4", "A5 B5 A6 B6"], rounds=6)
    party.ids["G"] = -1  # the ghost who will take B5's seat
    for number, (results, winners, after) in enumerate(BUNCO_A, start=1):
        _round(party, results, winners, after)
        if number == 3:  # B5 leaves: the bell moved them to table 3, West; a ghost sits there
            b5 = Guest.objects.get(evening=party.evening, name="B5")
            host_client.post(reverse("host-guest-status", args=[party.evening.pk, b5.pk]), {"action": "left"})
            party.seats[2] = ["B1", "B3", "B4", "G"]
            assert _tables(party)[2] == "B1 B3 B4 G"
    assert _tally(party, "wins") == _totals("A1 5 A2 4 A3 3 A4 3 A5 1 A6 4 B1 0 B2 3 B3 4 B4 3 B5 2 B6 2 G 2")
    assert _tally(party, "losses") == _totals("A1 1 A2 2 A3 3 A4 3 A5 5 A6 2 B1 6 B2 3 B3 2 B4 3 B5 1 B6 4 G 1")
    assert _tally(party, "buncos") == _totals("A1 1 A2 0 A3 1 A4 1 A5 0 A6 2 B1 0 B2 0 B3 0 B4 0 B5 1 B6 0 G 1")
    assert _tally(party, "minis") == _totals("A1 2 A2 0 A3 0 A4 0 A5 0 A6 0 B1 0 B2 2 B3 0 B4 1 B5 0 B6 0 G 1")
    points = "A1 123 A2 119 A3 101 A4 93 A5 88 A6 103 B1 59 B2 103 B3 101 B4 107 B5 70 B6 93 G 56"
    assert _tally(party, "points") == _totals(points)
    # the standings (house rule: wins, then buncos, then points); the leaver keeps a place, the ghost has none
    assert _places(party) == _ranks("1 A1 2 A6 3 A2 4 B3 5 A3 6 A4 7 B4 8 B2 9 B5 10 B6 11 A5 12 B1")
    _prizes(
        party,
        {
            "most_buncos_red": "A6",
            "most_buncos_blue": "B5",  # the leaver's bunco of round 1; the ghost's does not count
            "most_wins_red": "A1",
            "most_wins_blue": "B3",
            "most_minis_red": "A1",
            "most_minis_blue": "B2",
            "booby": "B1",
            "last_bunco": "A3",
        },
    )


# --- (b) Progressive Euchre, 16 guests, 4 rounds: the ladder to the foot table, then one table down -

SIXTEEN = ["A1 B1 A2 B2", "A3 B3 A4 B4", "A5 B5 A6 B6", "A7 B7 A8 B8"]
EUCHRE_RESULTS = [  # each table's (North–South, East–West points[, the play-off's winner])
    [(9, 6), (5, 10), (8, 8, "NS"), (7, 4)],
    [(6, 9), (11, 3), (4, 8), (7, 7, "EW")],
    [(10, 2), (5, 8), (9, 6), (3, 12)],
    [(8, 9), (10, 4), (6, 6, "EW"), (4, 11)],
]
EUCHRE_LADDER = [  # (the winners, the tables after the bell)
    ("A1 A2 B3 B4 A5 A6 A7 A8", ["A1 A2 B3 B4", "A3 A4 A5 A6", "B5 B6 A7 A8", "B7 B8 B1 B2"]),
    ("A2 B4 A3 A5 B6 A8 B8 B2", ["A2 B4 A3 A5", "A4 A6 B6 A8", "B5 A7 B8 B2", "B7 B1 A1 B3"]),
    ("A2 A3 A6 A8 B5 B8 B1 B3", ["A2 A3 A6 A8", "A4 B6 B5 B8", "A7 B2 B1 B3", "B7 A1 B4 A5"]),
    ("A3 A8 A4 B5 B2 B3 A1 A5", ["A3 A8 A4 B5", "B6 B8 B2 B3", "A7 B1 A1 A5", "B7 B4 A2 A6"]),
]
EUCHRE_POINTS = "A1 29 A2 36 A3 35 A4 23 A5 32 A6 27 A7 23 A8 32 B1 31 B2 25 B3 34 B4 25 B5 31 B6 25 B7 18 B8 24"


def _euchre_evening(party: Party, rounds: list) -> None:
    for results, (winners, after) in zip(EUCHRE_RESULTS, rounds, strict=True):
        _round(party, results, winners, after)


def test_a_sixteen_guest_euchre_evening_on_the_ladder_worked_by_hand(host_client, host):
    party = _party(host_client, host, "euchre", SIXTEEN, rounds=4)
    _euchre_evening(party, EUCHRE_LADDER)
    stars = "A1 2 A2 3 A3 3 A4 1 A5 3 A6 2 A7 1 A8 4 B1 1 B2 2 B3 3 B4 2 B5 2 B6 1 B7 0 B8 2"
    assert _tally(party, "stars") == _totals(stars)
    assert _tally(party, "points") == _totals(EUCHRE_POINTS)
    # the standings (house rule: stars, then points; equal on both share a place)
    places = "1 A8 2 A2 3 A3 4 B3 5 A5 6 B5 7 A1 8 A6 9 B2 9 B4 11 B8 12 B1 13 B6 14 A4 14 A7 16 B7"
    assert _places(party) == _ranks(places)
    # the booby prize for the fewest stars goes to B7, who has none: "best count zero" is for "most" prizes
    _prizes(party, {"most_stars_red": "A8", "most_stars_blue": "B3", "booby": "B7"})


def test_the_same_euchre_evening_with_prizes_by_points(host_client, host):
    party = _party(host_client, host, "euchre", SIXTEEN, rounds=4, prize_by_points=True)
    _euchre_evening(party, EUCHRE_LADDER)
    assert _tally(party, "points") == _totals(EUCHRE_POINTS)
    _prizes(party, {"most_points_red": "A2", "most_points_blue": "B3", "booby": "B7"})


EUCHRE_DOWN = [  # losers move down one table; at a middle table the pair from below takes North and East
    ("A1 A2 B3 B4 A5 A6 A7 A8", ["A1 A2 B3 B4", "A5 A6 B1 B2", "A7 A8 A3 A4", "B7 B8 B5 B6"]),
    ("A2 B4 A5 B1 A8 A4 B8 B6", ["A2 B4 A5 B1", "A8 A4 A1 B3", "B8 B6 A6 B2", "B7 B5 A7 A3"]),
    ("A2 A5 A4 B3 B8 A6 B5 A3", ["A2 A5 A4 B3", "B8 A6 B4 B1", "B5 A3 A8 A1", "B7 A7 B6 B2"]),
    ("A5 B3 B8 B4 A3 A1 A7 B2", ["A5 B3 B8 B4", "A3 A1 A2 A4", "A7 B2 A6 B1", "B7 B6 B5 A8"]),
]


def test_the_same_euchre_scores_with_losers_moving_down_one_table(host_client, host):
    party = _party(host_client, host, "euchre", SIXTEEN, rounds=4, movement="ladder_down")
    _euchre_evening(party, EUCHRE_DOWN)
    stars = "A1 2 A2 3 A3 2 A4 2 A5 4 A6 2 A7 2 A8 2 B1 1 B2 1 B3 3 B4 3 B5 1 B6 1 B7 0 B8 3"
    assert _tally(party, "stars") == _totals(stars)
    points = "A1 26 A2 36 A3 27 A4 29 A5 38 A6 24 A7 25 A8 26 B1 23 B2 26 B3 33 B4 31 B5 33 B6 25 B7 18 B8 30"
    assert _tally(party, "points") == _totals(points)
    # three blue guests have 3 stars: docs/rules/ cuts the tie (or plays it off), points do not decide it
    _prizes(party, {"most_stars_red": "A5", "most_stars_blue": "B3|B4|B8", "booby": "B7"})


# --- (c) Drive Whist, 16 guests, 4 hands: partners kept (the default), then split ----------------

WHIST_START = ["A1 A2 B1 B2", "A3 A4 B3 B4", "A5 A6 B5 B6", "A7 A8 B7 B8"]
WHIST_TRICKS = [[7, 4, 8, 6], [5, 10, 6, 9], [8, 3, 7, 2], [6, 8, 4, 8]]  # North–South's tricks a table
WHIST_KEPT = [
    ("A1 B1 A4 B4 A5 B5 A8 B8", ["A4 A2 B4 B2", "A3 A5 B3 B5", "A8 A6 B8 B6", "A7 A1 B7 B1"]),
    ("A2 B2 A3 B3 A6 B6 A7 B7", ["A4 A3 B4 B3", "A6 A5 B6 B5", "A8 A7 B8 B7", "A2 A1 B2 B1"]),
    ("A4 B4 A5 B5 A8 B8 A1 B1", ["A5 A3 B5 B3", "A6 A8 B6 B8", "A1 A7 B1 B7", "A2 A4 B2 B4"]),
    ("A3 B3 A6 B6 A7 B7 A2 B2", ["A5 A6 B5 B6", "A7 A8 B7 B8", "A1 A2 B1 B2", "A3 A4 B3 B4"]),
]
WHIST_SPLIT = [
    ("A1 B1 A4 B4 A5 B5 A8 B8", ["A2 B2 A4 B4", "A3 B3 A5 B5", "A6 B6 A8 B8", "A7 B7 A1 B1"]),
    ("B2 B4 A3 A5 B6 B8 A7 A1", ["A2 A4 A3 A5", "B3 B5 B6 B8", "A6 A8 A7 A1", "B7 B1 B2 B4"]),
    ("A2 A3 B5 B8 A6 A7 B1 B4", ["A4 A5 B5 B8", "B3 B6 A6 A7", "A8 A1 B1 B4", "B7 B2 A2 A3"]),
    ("A5 B8 B3 A6 A1 B4 B7 A2", ["A4 B5 B3 A6", "B6 A7 A1 B4", "A8 B1 B7 A2", "B2 A3 A5 B8"]),
]


def _whist_evening(party: Party, rounds: list) -> None:
    for tricks, (winners, after) in zip(WHIST_TRICKS, rounds, strict=True):
        _round(party, tricks, winners, after)


def test_a_sixteen_guest_whist_drive_with_partners_kept_worked_by_hand(host_client, host):
    party = _party(host_client, host, "whist", WHIST_START, rounds=4)
    _whist_evening(party, WHIST_KEPT)
    pairs = {"1": 26, "2": 24, "3": 26, "4": 27, "5": 27, "6": 23, "7": 30, "8": 25}
    assert _tally(party, "tricks") == {n: pairs[n[1]] for n in party.ids}
    assert _tally(party, "wins") == dict.fromkeys(party.ids, 2)
    # A6 and B6 (partners all evening) share the lowest total: the booby is cut between them
    _prizes(party, {"most_tricks_red": "A7", "most_tricks_blue": "B7", "booby": "A6|B6"})


def test_the_same_whist_drive_with_the_winners_splitting_up(host_client, host):
    party = _party(host_client, host, "whist", WHIST_START, rounds=4, partners_change=True)
    _whist_evening(party, WHIST_SPLIT)
    tricks = "A1 31 A2 27 A3 27 A4 25 A5 30 A6 26 A7 27 A8 23 B1 26 B2 21 B3 18 B4 37 B5 27 B6 20 B7 20 B8 31"
    assert _tally(party, "tricks") == _totals(tricks)
    _prizes(party, {"most_tricks_red": "A1", "most_tricks_blue": "B4", "booby": "B3"})


# --- (d) Bunco with 10 guests (two ghosts), Euchre with 14 (two ghosts) --------------------------

BUNCO_TEN = [
    (
        [(21, 10, "", ""), (7, 22, "G1", ""), (12, 12, "", "", "NS")],
        "A1 A2 B3 G1 A5 B5",
        ["A1 A2 B3 G1", "A3 A4 A5 B5", "B4 G2 B1 B2"],
    ),
    (
        [(9, 21, "", "G1"), (26, 5, "A5", ""), (6, 15, "", "G2")],
        "A2 G1 A3 A5 G2 B2",
        ["A2 G1 A3 A5", "A4 B5 G2 B2", "B4 B1 A1 B3"],
    ),
    (
        [(18, 21, "", "A5"), (14, 14, "", "", "EW"), (23, 8, "", "")],
        "G1 A5 B5 B2 B4 A1",
        ["G1 A5 B5 B2", "A4 G2 B4 A1", "B1 B3 A2 A3"],
    ),
    (
        [(11, 21, "", ""), (10, 16, "", "G2"), (24, 3, "B1", "")],
        "A5 B2 G2 A1 B1 A2",
        ["A5 B2 G2 A1", "A4 B4 B1 A2", "B3 A3 G1 B5"],
    ),
]


def test_ten_guests_at_bunco_with_two_ghosts_worked_by_hand(host_client, host):
    party = _party(host_client, host, "bunco", ["A1 B1 A2 B2", "A3 B3 A4 G1", "A5 B4 B5 G2"], rounds=4)
    for results, winners, after in BUNCO_TEN:
        _round(party, results, winners, after)
    assert _tally(party, "wins") == _totals("A1 3 A2 3 A3 1 A4 0 A5 4 B1 1 B2 3 B3 1 B4 1 B5 2 G1 3 G2 2")
    assert _tally(party, "buncos") == _totals("A1 0 A2 0 A3 0 A4 0 A5 1 B1 1 B2 0 B3 0 B4 0 B5 0 G1 1 G2 0")
    assert _tally(party, "minis") == _totals("A1 0 A2 0 A3 0 A4 0 A5 1 B1 0 B2 0 B3 0 B4 0 B5 0 G1 1 G2 2")
    _prizes(
        party,
        {
            "most_buncos_red": "A5",
            "most_buncos_blue": "B1",
            "most_wins_red": "A5",
            "most_wins_blue": "B2",
            "most_minis_red": "A5",  # G2's two mini buncos do not count: ghosts are left out first
            "most_minis_blue": "",  # no blue guest rolled one: a best count of 0 goes to no one
            "booby": "A4",
            "last_bunco": "B1",
        },
    )


FOURTEEN = ["A1 B1 A2 B2", "A3 B3 A4 B4", "A5 B5 A6 G1", "A7 G2 A8 B8"]  # ghosts in B6's and B7's seats


def test_fourteen_guests_at_euchre_with_two_ghosts_worked_by_hand(host_client, host):
    party = _party(host_client, host, "euchre", FOURTEEN, rounds=4)
    ghosts = [
        (w.replace("B6", "G1").replace("B7", "G2"), [t.replace("B6", "G1").replace("B7", "G2") for t in a])
        for w, a in EUCHRE_LADDER
    ]
    _euchre_evening(party, ghosts)
    stars = "A1 2 A2 3 A3 3 A4 1 A5 3 A6 2 A7 1 A8 4 B1 1 B2 2 B3 3 B4 2 B5 2 G1 1 G2 0 B8 2"
    assert _tally(party, "stars") == _totals(stars)
    # G2 has the fewest stars (none) but a ghost wins nothing: A4, A7 and B1 (1 star) cut for the booby
    _prizes(party, {"most_stars_red": "A8", "most_stars_blue": "B3", "booby": "A4|A7|B1"})
