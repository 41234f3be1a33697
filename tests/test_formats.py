"""The formats at tables of four (tables/formats/): hand-worked evenings and property tests.

The evenings below were worked by hand round by round from ``docs/rules/tables-of-four.md`` ('Partners kept or
changed': the two who stayed take North and East in the order of the seats they held, the two
who arrived South and West in the order of the seats they left; partners kept: the arriving
pair takes the empty seats), and the test replays them through the bell.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.cuts import Cutter
from tables.errors import RuleError
from tables.formats import BUNCO, EUCHRE, WHIST, FoursomeFormat, FoursomeOptions, prize_rules
from tables.formats.bell import FoursomeState, guest_arrives, guest_leaves, ring_foursome_bell
from tables.formats.foursome import SEAT_PACKS, Movement, Seat, Side, draw_foursomes, ghost_seats, is_ghost, move, pair
from tables.formats.prizes import award_foursome_prizes, last_bunco
from tables.formats.scoring import (
    ScoreError,
    bunco_roll,
    bunco_score,
    bunco_target,
    euchre_hand_points,
    euchre_score,
    whist_score,
)
from tables.packs import Pack

NS, EW = Side.NORTH_SOUTH, Side.EAST_WEST


def _bell(state, fmt, reports, cuts=None, **kw):
    scores = {n: fmt.score(state.tables[n - 1], **r) for n, r in reports.items()}
    return ring_foursome_bell(
        state,
        scores,
        movement=kw.get("movement", fmt.movement),
        partners_change=kw.get("partners_change", fmt.partners_change),
        cuts=cuts,
    )


# --- a whole 12-player Bunco evening of six rounds, worked by hand ------------------------------

BUNCO_ROUNDS = [
    # (reports per table, tables after the bell)
    (
        {
            1: dict(points={"NS": 21, "EW": 10}, buncos={1: 1}),
            2: dict(points={"NS": 8, "EW": 21}, minis={6: 1}),
            3: dict(points={"NS": 15, "EW": 12}),
        },
        ((1, 3, 6, 8), (5, 7, 9, 11), (10, 12, 2, 4)),
    ),
    (
        {
            1: dict(points={"NS": 12, "EW": 21}),
            2: dict(points={"NS": 21, "EW": 9}, buncos={9: 1}),
            3: dict(points={"NS": 3, "EW": 21}),
        },
        ((3, 8, 5, 9), (7, 11, 12, 4), (10, 2, 1, 6)),
    ),
    (
        {
            1: dict(points={"NS": 21, "EW": 4}),
            2: dict(points={"NS": 21, "EW": 21}, rolloff="EW"),
            3: dict(points={"NS": 22, "EW": 0}, minis={10: 2}),
        },
        ((3, 5, 11, 4), (7, 12, 10, 1), (2, 6, 8, 9)),
    ),
    (
        {
            1: dict(points={"NS": 5, "EW": 21}),
            2: dict(points={"NS": 17, "EW": 21}),
            3: dict(points={"NS": 21, "EW": 20}),
        },
        ((5, 4, 12, 1), (7, 10, 2, 8), (6, 9, 3, 11)),
    ),
    (
        {
            1: dict(points={"NS": 21, "EW": 6}),
            2: dict(points={"NS": 21, "EW": 11}),
            3: dict(points={"NS": 2, "EW": 21}, buncos={11: 1}),
        },
        ((5, 12, 7, 2), (10, 8, 9, 11), (6, 3, 4, 1)),
    ),
    (
        {
            1: dict(points={"NS": 9, "EW": 21}),
            2: dict(points={"NS": 21, "EW": 13}),
            3: dict(points={"NS": 0, "EW": 21}),
        },
        ((12, 2, 10, 9), (8, 11, 3, 1), (6, 4, 5, 7)),
    ),
]


def test_a_twelve_player_bunco_evening_of_six_rounds_by_hand():
    state = FoursomeState.start([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)])
    history = []
    for number, (reports, expected) in enumerate(BUNCO_ROUNDS, start=1):
        record, state = _bell(state, BUNCO, reports)
        assert state.tables == expected, f"round {number}"
        history.append(record.added)
    wins = {1: 4, 2: 3, 3: 4, 4: 3, 5: 4, 6: 1, 7: 1, 8: 3, 9: 4, 10: 2, 11: 3, 12: 4}
    assert {p: state.tally(p, "wins") for p in wins} == wins
    assert {p: state.tally(p, "losses") for p in wins} == {p: 6 - w for p, w in wins.items()}
    assert {p: state.tally(p, "buncos") for p in (1, 9, 11)} == {1: 1, 9: 1, 11: 1}
    assert state.tally(6, "minis") == 1 and state.tally(10, "minis") == 2
    assert state.tally(1, "points") == 21 + 12 + 22 + 21 + 6 + 21
    assert state.tally(7, "points") == 8 + 9 + 21 + 17 + 21 + 9
    packs = dict.fromkeys(range(1, 13), Pack.RED)
    prizes = {p.key: p.winners for p in award_foursome_prizes(state.tallies, packs, BUNCO.prizes, ties="shared")}
    assert prizes == {"most_buncos": (1, 9, 11), "most_wins": (1, 3, 5, 9, 12), "most_minis": (10,), "booby": (6, 7)}
    assert last_bunco(history) == (11,)


# --- a 16-player Progressive Euchre evening, worked by hand ---------------------------------------


def test_a_sixteen_player_euchre_evening_by_hand():
    state = FoursomeState.start([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)])
    record, state = _bell(
        state,
        EUCHRE,
        {
            1: dict(points={"NS": 10, "EW": 6}),
            2: dict(points={"NS": 5, "EW": 10}),
            3: dict(points={"NS": 7, "EW": 7}, playoff="NS"),
            4: dict(hands=[("EW", 2), ("EW", 4), ("NS", 1)]),
        },
    )
    assert state.tables == ((1, 3, 6, 8), (5, 7, 9, 11), (10, 12, 14, 16), (13, 15, 2, 4))
    assert record.words[2] == "North–South won, 7 points to 7 and the play-off"
    # Table 3 sends no result: its sides cut, East–West's cut is the higher.
    record, state = _bell(
        state,
        EUCHRE,
        {1: dict(points={"NS": 4, "EW": 10}), 2: dict(points={"NS": 10, "EW": 2}), 4: dict(points={"NS": 10, "EW": 9})},
        cuts={3: EW},
    )
    assert state.tables == ((3, 8, 5, 9), (7, 11, 12, 16), (10, 14, 13, 2), (15, 4, 1, 6))
    assert record.cuts == {3: EW} and record.words[2] == "no result: East–West won the cut"
    stars = {1: 1, 2: 1, 3: 2, 4: 0, 5: 1, 6: 1, 7: 0, 8: 2, 9: 2, 10: 0, 11: 1, 12: 0, 13: 1, 14: 1, 15: 0, 16: 1}
    assert {p: state.tally(p, "stars") for p in stars} == stars
    points = {
        1: 14,
        2: 16,
        3: 20,
        4: 15,
        5: 15,
        6: 14,
        7: 7,
        8: 20,
        9: 17,
        10: 7,
        11: 9,
        12: 7,
        13: 11,
        14: 6,
        15: 10,
        16: 6,
    }
    assert {p: state.tally(p, "points") for p in points} == points
    packs = {p: Pack.RED if p <= 8 else Pack.BLUE for p in range(1, 17)}
    prizes = {p.key: p.winners for p in award_foursome_prizes(state.tallies, packs, EUCHRE.prizes, ties="shared")}
    # the booby: the five without a star share it (ties cut or shared, docs/rules/; points do not decide)
    assert prizes == {"most_stars_red": (3, 8), "most_stars_blue": (9,), "booby": (4, 7, 10, 12, 15)}


def test_euchre_losers_move_down_one_table_by_option():
    tables = [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)]
    after = move(tables, [NS, NS, NS], movement=Movement.LADDER_DOWN, partners_change=True)
    # Head: winners 1, 3 stay; table 2's winners 5, 7 arrive. Table 2: nobody stays: the pair
    # from below (9, 11) counts as staying, the head's losers (2, 4) arrive. Foot: its losers
    # (10, 12) stay, table 2's losers (6, 8) arrive.
    assert after == ((1, 3, 5, 7), (9, 11, 2, 4), (10, 12, 6, 8))


def test_losers_down_one_table_with_partners_kept_worked_by_hand():
    """Partners kept: the stayers keep their seats and the arriving pair takes the empty ones in
    the order of the seats they left; where nobody stays (a middle table) the pair from below
    sits North–South and the pair from above East–West (house rule, on the rules pages)."""
    tables = [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)]
    after = move(tables, [NS, EW, NS], movement=Movement.LADDER_DOWN, partners_change=False)
    # Head: 1 and 3 stay North and South; table 2's winners 6 (East) and 8 (West) take East and West.
    # Table 2: the foot's winners 9, 11 North–South; the head's losers 2, 4 East–West.
    # Foot: its losers 10, 12 stay East and West; table 2's losers 5 (North), 7 (South) take North, South.
    assert after == ((1, 6, 3, 8), (9, 2, 11, 4), (5, 10, 7, 12))


# --- a 16-player Drive Whist, worked by hand -----------------------------------------------------


def test_a_sixteen_player_whist_drive_by_hand():
    state = FoursomeState.start([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)])
    _, state = _bell(
        state,
        WHIST,
        {
            1: dict(tricks={"NS": 7, "EW": 6}),
            2: dict(tricks={"NS": 4, "EW": 9}),
            3: dict(tricks={"NS": 8, "EW": 5}),
            4: dict(tricks={"NS": 6, "EW": 7}),
        },
    )
    assert state.tables == ((6, 2, 8, 4), (5, 9, 7, 11), (14, 10, 16, 12), (13, 1, 15, 3))
    _, state = _bell(
        state,
        WHIST,
        {
            1: dict(tricks={"NS": 3, "EW": 10}),
            2: dict(tricks={"NS": 7, "EW": 6}),
            3: dict(tricks={"NS": 13, "EW": 0}),
            4: dict(tricks={"NS": 2, "EW": 11}),
        },
    )
    assert state.tables == ((6, 5, 8, 7), (14, 9, 16, 11), (1, 10, 3, 12), (13, 2, 15, 4))
    tricks = {
        1: 18,
        2: 16,
        3: 18,
        4: 16,
        5: 11,
        6: 12,
        7: 11,
        8: 12,
        9: 14,
        10: 5,
        11: 14,
        12: 5,
        13: 8,
        14: 20,
        15: 8,
        16: 20,
    }
    assert {p: state.tally(p, "tricks") for p in tricks} == tricks
    packs = {p: Pack.RED if p <= 8 else Pack.BLUE for p in range(1, 17)}
    prizes = {p.key: p.winners for p in award_foursome_prizes(state.tallies, packs, WHIST.prizes, ties="shared")}
    assert prizes == {"most_tricks_red": (1, 3), "most_tricks_blue": (14, 16), "booby": (10, 12)}


def test_whist_winners_split_up_when_the_host_says_so():
    after = move([(1, 2, 3, 4), (5, 6, 7, 8)], [NS, EW], movement=Movement.CIRCLE, partners_change=True)
    # Table 1: its losers 2, 4 stay (North, East); table 2's winners 6, 8 arrive (South, West).
    assert after == ((2, 4, 6, 8), (5, 7, 1, 3))


# --- scores: what each format makes possible ------------------------------------------------------


def test_euchre_hand_points_foster():
    assert euchre_hand_points(tricks=3) == ("makers", 1)
    assert euchre_hand_points(tricks=4) == ("makers", 1)
    assert euchre_hand_points(tricks=5) == ("makers", 2)
    assert euchre_hand_points(tricks=5, alone=True) == ("makers", 4)
    assert euchre_hand_points(tricks=2) == ("defenders", 2)
    with pytest.raises(ScoreError):
        euchre_hand_points(tricks=6)


@pytest.mark.parametrize(
    "report, message",
    [
        (dict(hands=[("NS", 3)]), "scores 1, 2 or 4"),
        (dict(points={"NS": 5}), "both sides"),
        (dict(points={"NS": -1, "EW": 3}), "0 or more"),
        (dict(points={"NS": 5, "EW": 3}, playoff="NS"), "no tie"),
        (dict(points={"NS": 5, "EW": 3}, hands=[("NS", 1)]), "do not add up"),
    ],
)
def test_impossible_euchre_reports(report, message):
    with pytest.raises(ScoreError, match=message):
        euchre_score((1, 2, 3, 4), **report)


def test_impossible_whist_and_bunco_reports():
    with pytest.raises(ScoreError, match="13 tricks"):
        whist_score((1, 2, 3, 4), tricks={"NS": 7, "EW": 7})
    with pytest.raises(ScoreError, match="not 22"):
        bunco_score((1, 2, 3, 4), points={"NS": 22, "EW": 3}, rolls={1: [22]})
    with pytest.raises(ScoreError, match="not at this table"):
        bunco_score((1, 2, 3, 4), points={"NS": 21, "EW": 3}, buncos={9: 1})
    with pytest.raises(ScoreError, match="fewer than the 21"):
        bunco_score((1, 2, 3, 4), points={"NS": 20, "EW": 3}, buncos={1: 1})
    with pytest.raises(ScoreError, match="do not match"):
        bunco_score((1, 2, 3, 4), points={"NS": 21, "EW": 3}, rolls={1: [1, 2]}, buncos={1: 1})


def test_bunco_rolls():
    assert bunco_roll([4, 4, 4], 4) == (21, "bunco")
    assert bunco_roll([2, 2, 2], 4) == (5, "mini bunco")
    assert bunco_roll([4, 1, 4], 4) == (2, "")
    assert bunco_roll([1, 2, 3], 6) == (0, "")
    with pytest.raises(ScoreError):
        bunco_roll([7, 1, 1], 1)


def test_a_bunco_rounds_target_number_starts_again_after_six_rounds():
    """Six rounds make a set, round n's target is n (docs/rules/bunco.md): round 7 rolls for 1s again."""
    assert [bunco_target(n) for n in (1, 2, 6, 7, 8, 12, 13, 24)] == [1, 2, 6, 1, 2, 6, 1, 6]
    for bad in (0, -1, True, "3"):
        with pytest.raises(ScoreError, match="Rounds are numbered from 1"):
            bunco_target(bad)  # type: ignore[arg-type]


# --- the draw and ghosts ----------------------------------------------------------------------------


def test_ghosts_sit_from_the_foot_table_up_in_the_pack_with_seats_to_spare():
    ghosts = ghost_seats(red=6, blue=7)  # 13 guests: 4 tables, 3 ghosts
    assert [(g.table, g.pack, g.seat) for g in ghosts] == [
        (4, Pack.RED, Seat.EAST),
        (3, Pack.RED, Seat.EAST),
        (2, Pack.BLUE, Seat.WEST),
    ]


def test_the_draw_seats_each_pack_in_its_seats():
    guests = [(g, Pack.RED if g <= 10 else Pack.BLUE) for g in range(1, 21)]
    tables, cards = draw_foursomes(guests, rng=random.Random(4))
    assert len(tables) == 5 and not any(is_ghost(p) for t in tables for p in t)
    for guest, card in cards.items():
        assert tables[card.table - 1][card.seat] == guest and SEAT_PACKS[card.seat] is card.pack
        assert card.pack is Pack.RED if guest <= 10 else card.pack is Pack.BLUE


def test_a_guest_who_leaves_gives_their_seat_to_a_ghost_and_a_latecomer_takes_it():
    state = FoursomeState.start([(1, 2, 3, 4), (5, 6, 7, 8)])
    gone = guest_leaves(state, 6)
    assert gone.tables == ((1, 2, 3, 4), (5, -1, 7, 8))
    back = guest_arrives(gone, 9)
    assert back.tables == ((1, 2, 3, 4), (5, 9, 7, 8))
    full = guest_arrives(back, 10)
    assert full.tables[-1] == (10, -2, -3, -4)
    with pytest.raises(RuleError):
        guest_leaves(gone, -1)


def test_ghosts_win_no_prize_and_a_prize_of_zero_goes_to_no_one():
    tallies = {-1: {"buncos": 3, "wins": 6}, 1: {"wins": 2}, 2: {"wins": 1}}
    packs = {1: Pack.RED, 2: Pack.BLUE}
    prizes = {
        p.key: p
        for p in award_foursome_prizes(tallies, packs, BUNCO.prizes, ties="cut", cutter=Cutter(None, random.Random(1)))
    }
    for pack in ("red", "blue"):  # two packs: each "most" prize once per pack
        assert prizes[f"most_buncos_{pack}"].winners == () and "Not awarded" in prizes[f"most_buncos_{pack}"].reason
    assert prizes["most_wins_red"].winners == (1,) and prizes["most_wins_blue"].winners == (2,)


def test_options():
    assert prize_rules(EUCHRE, FoursomeOptions(prize_by_points=True))[0].tally == "points"
    with pytest.raises(RuleError):
        FoursomeOptions.from_mapping({"movement": "sideways"})
    with pytest.raises(RuleError):
        FoursomeOptions.from_mapping({"bogus": True})


# --- property tests ---------------------------------------------------------------------------------


def _random_report(fmt, rng):
    if fmt is WHIST:
        ns = rng.randint(0, 13)
        return dict(tricks={"NS": ns, "EW": 13 - ns})
    a, b = rng.randint(0, 12), rng.randint(0, 12)
    report = dict(points={"NS": a, "EW": b})
    if a == b:
        report["playoff" if fmt is EUCHRE else "rolloff"] = rng.choice(["NS", "EW"])
    return report


@settings(max_examples=60, deadline=None)
@given(
    st.integers(8, 80),
    st.integers(1, 12),
    st.sampled_from([EUCHRE, WHIST, BUNCO]),
    st.sampled_from(list(Movement)),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_random_evenings_keep_everyone_seated_and_tallies_add_up(guests, rounds, fmt, movement, change, seed):
    rng = random.Random(seed)
    tables, _ = draw_foursomes([(g, rng.choice(list(Pack))) for g in range(1, guests + 1)], rng=rng)
    state = FoursomeState.start(tables)
    everyone = sorted(p for t in tables for p in t)
    records = []
    for _ in range(rounds):
        reports = {n: _random_report(fmt, rng) for n in range(1, len(tables) + 1) if rng.random() > 0.1}
        record, after = _bell(state, fmt, reports, movement=movement, partners_change=change)
        assert sorted(p for t in after.tables for p in t) == everyone
        assert all(len(set(t)) == 4 for t in after.tables)
        scored = len(reports)
        assert sum(t.get("wins", 0) for t in record.added.values()) == 2 * scored
        assert sum(t.get("losses", 0) for t in record.added.values()) == 2 * scored
        for before, now in zip(state.tables, after.tables, strict=True):
            partners = {frozenset(pair(now, s)) for s in Side}
            stayed = [p for p in before if p in now]
            if len(stayed) == 2 and not change:
                assert frozenset(stayed) in partners  # partners kept: the stayers still sit together
            if len(stayed) == 2 and change:
                assert frozenset(stayed) not in partners  # partners change: each stayer gets a newcomer
        records.append((reports, record))
        state = after
    replay = FoursomeState.start(tables)
    for reports, record in records:
        again, replay = _bell(replay, fmt, reports, cuts=record.cuts, movement=movement, partners_change=change)
        assert again == record
    assert replay == state


def test_points_do_not_decide_a_tie_on_stars_the_guests_level_cut_or_share():
    """docs/rules/progressive-euchre.md, 'Prizes': "ties cut or played off". Four red guests with 1
    star each tie for most stars whatever their points (16, 13, 13, 13), as do the two blue
    guests with none for the booby (5 and 8 points); worked by hand."""
    red = {1: (1, 16), 2: (1, 13), 3: (1, 13), 4: (1, 13)}
    blue = {5: (2, 17), 6: (2, 17), 7: (0, 5), 8: (0, 8)}
    tallies = {p: {"stars": s, "points": pts} for p, (s, pts) in (red | blue).items()}
    packs = {p: Pack.RED for p in red} | {p: Pack.BLUE for p in blue}
    prizes = {p.key: p for p in award_foursome_prizes(tallies, packs, EUCHRE.prizes, ties="shared")}
    assert prizes["most_stars_red"].winners == (1, 2, 3, 4)
    assert prizes["most_stars_red"].reason == "1 star; 4 guests tied and share it."
    assert prizes["most_stars_blue"].reason == "2 stars; 2 guests tied and share it."
    assert prizes["booby"].winners == (7, 8)
    assert prizes["booby"].reason == "0 stars; 2 guests tied and share it."
    cut = {p.key: p for p in award_foursome_prizes(tallies, packs, EUCHRE.prizes, ties="cut")}
    assert len(cut["most_stars_red"].winners) == 1 and cut["most_stars_red"].winners[0] in red
    assert cut["most_stars_red"].reason == "1 star; 4 guests tied and cut for it."


def test_a_bunco_tie_is_settled_by_the_roll_off_in_its_words():
    tied = bunco_score((1, 2, 3, 4), points={"NS": 7, "EW": 7}, rolloff="EW")
    assert tied.words == "East–West won, 7 points to 7 and the roll-off"
    with pytest.raises(ScoreError, match="leave the roll-off out"):
        bunco_score((1, 2, 3, 4), points={"NS": 8, "EW": 7}, rolloff="EW")
    assert euchre_score((1, 2, 3, 4), points={"NS": 7, "EW": 7}, playoff="NS").words.endswith("and the play-off")


def test_the_standings_order_is_the_formats_own_most_or_fewest_first():
    """``rank_players`` follows the format's ranks (issue 23): Euchre's stars, then points, most
    first; a rank of the fewest first (a game whose lowest score wins) puts the fewest on top,
    the next rank breaking a tie, and players level on every rank share a place."""
    from tables.formats import Rank
    from tables.formats.prizes import rank_players

    tallies = {1: {"points": 30, "wins": 1}, 2: {"points": 12, "wins": 0}, 3: {"points": 12, "wins": 2}, 4: {}}
    assert rank_players(tallies, EUCHRE.ranks()) == ((1, 1), (2, 2), (2, 3), (4, 4))  # no stars: points decide
    assert rank_players(tallies, (Rank("points"), Rank("wins"))) == ((1, 1), (2, 3), (3, 2), (4, 4))
    fewest = (Rank("points", most=False), Rank("wins"))
    assert rank_players(tallies, fewest) == ((1, 4), (2, 3), (3, 2), (4, 1))
    assert EUCHRE.ranks(prize_by_points=True) == (Rank("points"), Rank("stars"))
    assert WHIST.ranks(prize_by_points=True) == WHIST.standing  # no prizes by points: the option changes nothing
    assert BUNCO.standing_words() == "wins, then buncos, then points"
    assert FoursomeFormat.standing_words(replace(WHIST, standing=fewest)) == "points (the fewest first), then wins"
