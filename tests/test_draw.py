"""The seating draw (tables/formats/poker/draw.py) against docs/rules/progressive-poker.md and the house rules."""

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.errors import InvariantBroken
from tables.formats.poker.draw import (
    DealtCard,
    PhysicalDraw,
    TableSplit,
    cards_per_pack,
    deal,
    describe_pull_list,
    draws_from_other_pack,
    pull_list,
    seating,
    split_packs,
)
from tables.formats.poker.plan import TablePlan, plan_tables, relaxations
from tables.packs import Pack
from tables.table_cards import DrawError, TableCard, parse_table_card, rank_name, rank_plural

RED, BLUE = Pack.RED, Pack.BLUE
LABELS = {RED: "Ladies", BLUE: "Gentlemen"}


def guests_of(red, blue):
    """Guest ids 0.. with the first ``red`` in the red pack."""
    return [(i, RED if i < red else BLUE) for i in range(red + blue)]


def fewest_from_other_pack(plan, red):
    """Independent count: even tables split evenly, odd ones either way, so the red cards can be
    anything from the sum of halves rounded down to the sum rounded up."""
    low = sum(s // 2 for s in plan.sizes)
    high = sum(-(-s // 2) for s in plan.sizes)
    return max(0, low - red, red - high)


# --- names --------------------------------------------------------------------------------------


def test_rank_names():
    assert [rank_name(r) for r in range(1, 16)] == [
        "ace",
        "deuce",
        "trey",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "jack",
        "queen",
        "king",
        "14",
        "15",
    ]
    assert [rank_plural(r) for r in (1, 2, 3, 6, 14)] == ["aces", "deuces", "treys", "sixes", "14s"]
    with pytest.raises(InvariantBroken):
        rank_name(0)


def test_card_names():
    assert TableCard(BLUE, 3).name == "trey of the blue pack"
    assert str(TableCard(RED, 14)) == "14 of the red pack"
    assert TableCard(BLUE, 3).name_with(LABELS) == "trey of the Gentlemen pack"
    assert TableCard(RED, 1).name_with({RED: "Red pack"}) == "ace of the Red pack"
    assert TableCard(RED, 5).table == 5
    for pack, rank in [(RED, 0), ("red", 1), (BLUE, 1.0)]:
        with pytest.raises(InvariantBroken):
            TableCard(pack, rank)


# --- splitting the packs ------------------------------------------------------------------------


def test_pull_list_of_the_issue():
    splits = split_packs(plan_tables(20), red=10, blue=10)
    assert splits == (TableSplit(1, 2, 2), TableSplit(2, 3, 3), TableSplit(3, 3, 3), TableSplit(4, 2, 2))
    assert pull_list(splits) == {RED: ((1, 2), (2, 3), (3, 3), (4, 2)), BLUE: ((1, 2), (2, 3), (3, 3), (4, 2))}
    assert describe_pull_list(pull_list(splits), LABELS) == (
        "the Ladies pack: 2 aces, 3 deuces, 3 treys, 2 fours\nthe Gentlemen pack: 2 aces, 3 deuces, 3 treys, 2 fours"
    )


def test_odd_seats_go_to_the_larger_pack_from_the_head_table_down():
    plan = plan_tables(23)  # 4, 5, 5, 5, 4
    assert split_packs(plan, red=12, blue=11) == (
        TableSplit(1, 2, 2),
        TableSplit(2, 3, 2),
        TableSplit(3, 3, 2),
        TableSplit(4, 2, 3),
        TableSplit(5, 2, 2),
    )
    assert split_packs(plan, red=11, blue=12) == (
        TableSplit(1, 2, 2),
        TableSplit(2, 2, 3),
        TableSplit(3, 2, 3),
        TableSplit(4, 3, 2),
        TableSplit(5, 2, 2),
    )
    lopsided = split_packs(plan, red=20, blue=3)  # red takes every odd seat
    assert [s.red for s in lopsided] == [2, 3, 3, 3, 2]
    assert cards_per_pack(lopsided) == {RED: 13, BLUE: 10}
    assert draws_from_other_pack(lopsided, red=20, blue=3) == {RED: 7, BLUE: 0}


def test_split_refuses_counts_that_are_not_the_plans():
    with pytest.raises(DrawError, match="The plan seats 20 guests, but 10 red-pack and 9 blue-pack"):
        split_packs(plan_tables(20), red=10, blue=9)


plans = st.one_of(
    st.integers(12, 500).map(plan_tables),
    st.sampled_from([8, 9, 10, 11]).map(lambda n: plan_tables(n, accept_relaxed=True)),
)


@given(plan=plans, data=st.data())
@settings(max_examples=300, deadline=None)
def test_split_is_even_and_the_fewest_draw_from_the_other_pack(plan, data):
    red = data.draw(st.integers(0, plan.guests))
    splits = split_packs(plan, red=red, blue=plan.guests - red)
    assert [s.table for s in splits] == list(plan.table_numbers)
    for split, size in zip(splits, plan.sizes, strict=True):
        assert split.red + split.blue == size
        assert abs(split.red - split.blue) == size % 2
    other = draws_from_other_pack(splits, red=red, blue=plan.guests - red)
    assert sum(other.values()) == fewest_from_other_pack(plan, red)
    assert min(other.values()) == 0


# --- the digital deal ---------------------------------------------------------------------------


@given(plan=plans, data=st.data(), seed=st.integers(0, 2**32))
@settings(max_examples=200, deadline=None)
def test_every_guest_one_card_and_one_seat(plan, data, seed):
    red = data.draw(st.integers(0, plan.guests))
    guests = guests_of(red, plan.guests - red)
    random.Random(seed).shuffle(guests)
    dealt = deal(guests, plan, rng=random.Random(seed))
    assert [d.guest for d in dealt] == [g for g, _ in guests]
    assert all(d.own_pack is pack for d, (_, pack) in zip(dealt, guests, strict=True))
    splits = split_packs(plan, red=red, blue=plan.guests - red)
    assert Counter(d.card for d in dealt) == Counter(
        {TableCard(p, s.table): s.count(p) for s in splits for p in Pack if s.count(p)}
    )
    assert Counter(d.table for d in dealt) == Counter(dict(zip(plan.table_numbers, plan.sizes, strict=True)))
    representers = [d for d in dealt if d.represents_other]
    assert len(representers) == fewest_from_other_pack(plan, red)
    assert len({d.own_pack for d in representers}) <= 1
    tables = seating(dealt, plan)
    assert tuple(map(len, tables)) == plan.sizes
    assert sorted(g for table in tables for g in table) == sorted(g for g, _ in guests)


def test_deal_is_cryptographically_random_by_default(monkeypatch):
    made = []

    class Spy(random.Random):
        def __init__(self):
            made.append(self)
            super().__init__(7)

    monkeypatch.setattr(random, "SystemRandom", Spy)
    dealt = deal(guests_of(10, 10), plan_tables(20))
    assert len(made) == 1 and len(dealt) == 20


def test_same_seed_same_deal_other_seed_other_deal():
    guests, plan = guests_of(14, 9), plan_tables(23)
    assert deal(guests, plan, rng=random.Random(3)) == deal(guests, plan, rng=random.Random(3))
    assert deal(guests, plan, rng=random.Random(3)) != deal(guests, plan, rng=random.Random(4))


def test_representers_are_chosen_at_random_among_the_larger_pack():
    guests, plan = guests_of(15, 5), plan_tables(20)  # 10 red cards: 5 red guests draw blue
    picks = {
        frozenset(d.guest for d in deal(guests, plan, rng=random.Random(s)) if d.represents_other) for s in range(30)
    }
    assert all(len(p) == 5 and p <= set(range(15)) for p in picks)
    assert len(picks) > 20


def test_host_picks_who_represents_the_other_pack():
    guests, plan = guests_of(12, 8), plan_tables(20)  # 10 red cards: 2 red guests draw blue
    dealt = deal(guests, plan, rng=random.Random(1), representing={3, 7})
    assert {d.guest for d in dealt if d.represents_other} == {3, 7}
    assert all(d.card.pack is BLUE for d in dealt if d.guest in (3, 7))


@pytest.mark.parametrize(
    "red, blue, picked, words",
    [
        (12, 8, {3}, "2 guests of the red pack must draw from the blue pack \\(no more, no fewer\\); 1 were picked"),
        (12, 8, {1, 2, 3}, "no more, no fewer\\); 3 were picked"),
        (12, 8, {3, 15}, "Guest 15 belongs to the blue pack"),
        (12, 8, {3, 99}, "Guest 99 is not in this draw"),
        (10, 10, {3}, "nobody needs to draw from the other pack"),
    ],
)
def test_wrong_picks_are_refused(red, blue, picked, words):
    with pytest.raises(DrawError, match=words):
        deal(guests_of(red, blue), plan_tables(20), rng=random.Random(1), representing=picked)


def test_deal_refuses_a_guest_twice_and_a_wrong_count():
    plan = plan_tables(12)
    with pytest.raises(DrawError, match="Guest 3 is listed twice"):
        deal([*guests_of(6, 5), (3, BLUE)], plan)
    with pytest.raises(DrawError, match="The plan seats 12 guests but 11 are to draw"):
        deal(guests_of(6, 5), plan)


def test_seating_refuses_cards_that_do_not_fit_the_plan():
    plan = plan_tables(8)
    good = [DealtCard(i, RED, TableCard(RED, 1 + i // 4)) for i in range(8)]
    assert seating(good, plan) == ((0, 1, 2, 3), (4, 5, 6, 7))
    for bad in (
        [*good[:7], DealtCard(7, RED, TableCard(RED, 1))],  # five at the head table
        [*good[:7], DealtCard(0, RED, TableCard(RED, 2))],  # guest 0 twice
        [*good[:7], DealtCard(7, RED, TableCard(RED, 3))],  # no table 3
        good[:7],
    ):
        with pytest.raises(InvariantBroken):
            seating(bad, plan)


# --- reading a card as the host types it --------------------------------------------------------


@pytest.mark.parametrize(
    "text, pack, rank",
    [
        ("3", BLUE, 3),
        ("trey", BLUE, 3),
        ("tray", BLUE, 3),
        ("three", BLUE, 3),
        ("3 red", RED, 3),
        ("ace blue", BLUE, 1),
        ("A", BLUE, 1),
        ("a", BLUE, 1),
        ("1", BLUE, 1),
        ("K", BLUE, 13),
        ("king of the blue pack", BLUE, 13),
        ("10 b", BLUE, 10),
        ("T", BLUE, 10),
        ("J", BLUE, 11),
        ("jack red", RED, 11),
        ("Q r", RED, 12),
        ("3r", RED, 3),
        ("3R", RED, 3),
        ("kb", BLUE, 13),
        ("10b", BLUE, 10),
        ("red 3", RED, 3),
        ("Blue Deuce", BLUE, 2),
        ("two", BLUE, 2),
        ("  four  ", BLUE, 4),
        ("14", BLUE, 14),
        ("14 red", RED, 14),
        ("23 r", RED, 23),
        ("six of red", RED, 6),
        ("queen of the Ladies pack", RED, 12),
        ("7 gentlemen", BLUE, 7),
        ("trey, red", RED, 3),
        ("ace-of-red", RED, 1),
        ("card 5 blue", BLUE, 5),
    ],
)
def test_parse_table_card(text, pack, rank):
    assert parse_table_card(text, default_pack=BLUE, labels=LABELS) == TableCard(pack, rank)


def test_parse_takes_the_default_pack_and_the_classmethod_agrees():
    assert parse_table_card("9", default_pack=RED) == TableCard(RED, 9)
    assert TableCard.parse("9 b", default_pack=RED) == TableCard(BLUE, 9)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "0",
        "x",
        "3 green",
        "ace ace",
        "3 red blue",
        "red",
        "aces",
        "3.5",
        "three of clubs",
        "3 ladies",
    ],
)
def test_unreadable_cards_are_refused_naming_the_text(text):
    with pytest.raises(DrawError) as caught:
        parse_table_card(text, default_pack=BLUE)
    assert f"“{text}” is not a table card" in str(caught.value)


# --- the physical draw --------------------------------------------------------------------------


def test_physical_draw_refuses_every_wrong_card():
    plan = plan_tables(20)
    draw = PhysicalDraw.start(plan, guests_of(12, 8))  # 2 red guests must draw blue
    draw = draw.take(0, RED, TableCard(RED, 1)).take(1, RED, TableCard(RED, 1))
    before = draw
    refusals = [
        (
            (2, RED, TableCard(RED, 1)),
            "The ace of the red pack is already taken \\(all 2 of them\\): check the card. "
            "Cards left in the red pack: 3 deuces, 3 treys, 2 fours.",
        ),
        ((0, RED, TableCard(RED, 2)), "Guest 0 has already drawn the ace of the red pack"),
        (
            (2, RED, TableCard(RED, 5)),
            "There is no five of the red pack in this draw: the plan has 4 tables, so the cards go up to the four",
        ),
        ((2, RED, TableCard(RED, 14)), "There is no 14 of the red pack"),
        ((12, BLUE, TableCard(RED, 2)), "Guest 12 must draw from the blue pack: it has cards for all its guests"),
        ((2, BLUE, TableCard(BLUE, 2)), "Guest 2 belongs to the red pack, not the blue pack"),
        ((99, RED, TableCard(RED, 2)), "Guest 99 is not in this draw"),
    ]
    for args, words in refusals:
        with pytest.raises(DrawError, match=words):
            draw.take(*args)
    assert draw == before
    draw = draw.take(2, RED, TableCard(BLUE, 2)).take(3, RED, TableCard(BLUE, 2))
    with pytest.raises(DrawError, match="only 2 of its guests draw from the other pack, and they have"):
        draw.take(4, RED, TableCard(BLUE, 3))


def test_physical_draw_with_the_hosts_labels():
    draw = PhysicalDraw.start(plan_tables(8), guests_of(4, 4))
    draw = draw.take(0, RED, TableCard(RED, 1)).take(1, RED, TableCard(RED, 1))
    with pytest.raises(
        DrawError,
        match="The ace of the Ladies pack is already taken \\(all 2 of them\\)"
        ": check the card. Cards left in the Ladies pack: 2 deuces.",
    ):
        draw.take(2, RED, TableCard(RED, 1), labels=LABELS)


def test_a_card_not_in_the_pull_list():
    sizes = (4, 1)  # a relaxed booby table of one
    plan = TablePlan(sizes, relaxations(sizes))
    draw = PhysicalDraw.start(plan, guests_of(2, 3))  # the red pack gives no deuce
    assert draw.remaining_cards() == {RED: ((1, 2),), BLUE: ((1, 2), (2, 1))}
    with pytest.raises(DrawError, match="The deuce of the red pack is not in the pull list"):
        draw.take(0, RED, TableCard(RED, 2))


def test_physical_draw_to_the_end_and_its_corrections():
    plan = plan_tables(12)
    guests = guests_of(6, 6)
    draw = PhysicalDraw.start(plan, guests)
    assert draw.remaining_cards() == pull_list(draw.splits)
    cards = [TableCard(p, r) for p in Pack for r, n in pull_list(draw.splits)[p] for _ in range(n)]
    red_cards = [c for c in cards if c.pack is RED]
    blue_cards = [c for c in cards if c.pack is BLUE]
    for (guest, pack), card in zip(guests, red_cards + blue_cards, strict=True):
        draw = draw.take(guest, pack, card)
    assert draw.complete() and draw.remaining_guests() == ()
    assert draw.remaining_cards() == {RED: (), BLUE: ()}
    assert draw.seating() == ((0, 1, 6, 7), (2, 3, 8, 9), (4, 5, 10, 11))
    fixed = draw.withdraw(5)
    assert not fixed.complete() and fixed.remaining_guests() == (5,)
    assert fixed.remaining_cards() == {RED: ((3, 1),), BLUE: ()}
    with pytest.raises(DrawError, match="guest 5 has not drawn \\(1 cards left\\)"):
        fixed.seating()
    with pytest.raises(DrawError, match="Guest 5 has no card recorded"):
        fixed.withdraw(5)


@given(plan=plans, data=st.data(), seed=st.integers(0, 2**32))
@settings(max_examples=100, deadline=None)
def test_a_physical_draw_never_gets_stuck(plan, data, seed):
    """Guests come up in any order; each reaches into a pack at random and draws any card left
    in it, and tries the other pack when the draw refuses: it always ends complete, with the
    fewest guests drawing from the other pack."""
    rng = random.Random(seed)
    red = data.draw(st.integers(0, plan.guests))
    guests = guests_of(red, plan.guests - red)
    rng.shuffle(guests)
    draw = PhysicalDraw.start(plan, guests)
    for guest, pack in guests:
        for tried in rng.sample(list(Pack), 2):
            left = [TableCard(tried, rank) for rank, n in draw.remaining_cards()[tried] for _ in range(n)]
            if not left:
                continue
            try:
                draw = draw.take(guest, pack, rng.choice(left))
                break
            except DrawError:
                assert tried is not pack
        else:
            pytest.fail(f"guest {guest} of the {pack} pack could draw no card: {draw}")
    assert draw.complete()
    assert sum(d.represents_other for d in draw.taken) == fewest_from_other_pack(plan, red)
    assert tuple(map(len, draw.seating())) == plan.sizes


def test_a_digital_deal_replays_as_a_physical_draw():
    plan, guests = plan_tables(86), guests_of(50, 36)
    draw = PhysicalDraw.start(plan, guests)
    for dealt in deal(guests, plan, rng=random.Random(5)):
        draw = draw.take(dealt.guest, dealt.own_pack, dealt.card)
    assert draw.complete()


# --- the rules page -----------------------------------------------------------------------------


def test_rules_page_is_a_plain_section_naming_the_rules():
    page = (Path(__file__).resolve().parent.parent / "templates/rules/draw.html").read_text()
    assert page.lstrip().startswith("<section") and page.rstrip().endswith("</section>")
    assert "{% extends" not in page
    for words in (
        "head table",
        "booby table",
        "nearest the head table",
        "9, 10 and 11",
        "ace",
        "king",
        "14",
        "pull list",
        "represent",
        "at random",
        "fewest",
    ):
        assert words in page, words
