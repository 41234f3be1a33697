"""The kitty's arithmetic (``tables.kitty``, issue 25 item 3): worked examples by hand, the bad
kitties refused, and the pot conserved to the cent whatever the fees, payouts, ties and table
money (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.errors import RuleError
from tables.kitty import Award, KittyRules, Payout, kitty_refused, kitty_settle, money_words, share_words

BUNCO = (
    Payout("most_buncos", "Most buncos", share=4000),
    Payout("most_wins", "Most wins", share=3000),
    Payout("last_bunco", "Last bunco", share=1000),
    Payout("booby", "Booby prize", share=1000),
)


def test_a_worked_bunco_night_with_a_shared_tie_and_a_remainder():
    # Eleven guests at 5.00: a pot of 55.00. Most buncos (40 %, 22.00) tied three ways and
    # shared: 7.33 each, 0.01 left by the split. Most wins (30 %, 16.50) to Bea. Last bunco
    # (10 %, 5.50) nobody won tonight: carried. Booby (10 %, 5.50) shared by two: 2.75 each.
    # The rest (10 %, 5.50) carried. Carried: 0.01 + 5.50 + 5.50 = 11.01; paid out 43.99.
    players = [f"g{i}" for i in range(11)]
    awards = [
        Award("most_buncos", "Most buncos", ("g1", "g2", "g3")),
        Award("most_wins", "Most wins", ("g2",)),
        Award("last_bunco", "Last bunco", ()),
        Award("booby", "Booby prize", ("g9", "g10")),
    ]
    sheet = kitty_settle(KittyRules(500, BUNCO), players=players, awards=awards)
    assert (sheet.pot, sheet.collected, sheet.paid_out, sheet.carried, sheet.remainder) == (5500, 5500, 4399, 1101, 1)
    assert [sheet.received(p) for p in ("g1", "g2", "g3", "g9", "g10", "g0")] == [733, 733 + 1650, 733, 275, 275, 0]
    assert sheet.paid("g0") == 500
    carried = [(e.words, e.cents) for e in sheet.entries if e.kind == "carried"]
    assert carried == [
        ("Most buncos: 0.01 left by the split", 1),
        ("Last bunco: not awarded tonight", 550),
        ("the rest of the pot, to the season pot", 550),
    ]


def test_a_prize_given_per_pack_splits_its_payout_between_the_packs():
    # Most buncos 40 % of 12 x 3.00 = 14.40, per pack: 7.20 to the red pack's winner, 7.20 to the
    # blue pack's two (tied, shared): 3.60 each.
    awards = [
        Award("most_buncos_red", "Most buncos, red pack", ("a",)),
        Award("most_buncos_blue", "Most buncos, blue pack", ("b", "c")),
    ]
    rules = KittyRules(300, (Payout("most_buncos", "Most buncos", share=4000),))
    sheet = kitty_settle(rules, players=[*"abcdefghijkl"], awards=awards)
    assert [sheet.received(p) for p in "abc"] == [720, 360, 360]
    assert sheet.carried == 3600 - 1440


def test_a_cut_tie_pays_its_one_winner_whole_and_an_amount_is_an_amount():
    rules = KittyRules(200, (Payout("head_table", "Head table", cents=1000),))
    sheet = kitty_settle(
        rules, players=["a", "b", "c", "d", "e", "f"], awards=[Award("head_table", "Head table", ("d",))]
    )
    assert (sheet.received("d"), sheet.carried, sheet.remainder) == (1000, 200, 0)


def test_dues_go_whole_to_the_season_pot():
    sheet = kitty_settle(KittyRules(500), players=["a", "b"], dues={"a": 2000})
    assert (sheet.collected, sheet.paid_out, sheet.carried) == (3000, 0, 3000)
    assert sheet.paid("a") == 2500


def test_poker_money_at_the_tables_goes_through_the_kitty():
    # Fresh stakes charged: Ann won 4.50, Bob lost 3.00, Cy lost 2.00: a surplus of 0.50 carried.
    sheet = kitty_settle(KittyRules(0), players=["ann", "bob", "cy"], table={"ann": 450, "bob": -300, "cy": -200})
    assert (sheet.collected, sheet.paid_out, sheet.carried) == (500, 450, 50)
    assert (sheet.received("ann"), sheet.paid("bob"), sheet.paid("cy")) == (450, 300, 200)


def test_table_winnings_the_pot_cannot_pay_are_refused():
    with pytest.raises(RuleError, match="cannot pay the difference"):
        kitty_settle(KittyRules(100), players=["a", "b"], table={"a": 500, "b": -200})


@pytest.mark.parametrize(
    ("rules", "pot", "words"),
    [
        (KittyRules(-100), None, "The entry fee cannot be negative (got -1.00)."),
        (
            KittyRules(500, (Payout("a", "Most wins", share=6000), Payout("b", "Most buncos", share=5000))),
            None,
            "The shares add up to 110 % of the pot: they may add up to 100 % at most.",
        ),
        (
            KittyRules(500, (Payout("a", "Most wins", cents=3000), Payout("b", "Booby", share=5000))),
            5000,
            "The payouts add up to 55.00, more than the pot of 50.00: lower an amount or a share.",
        ),
        (KittyRules(500, (Payout("a", "Most wins", cents=-1),)), None, "Most wins: a payout cannot be negative."),
        (
            KittyRules(500, (Payout("a", "Most wins"),)),
            None,
            "Most wins: give an amount or a share of the pot, one of the two.",
        ),
        (
            KittyRules(500, (Payout("a", "Most wins", cents=1), Payout("a", "Most wins", share=1))),
            None,
            "Most wins is paid twice: give each prize one payout.",
        ),
    ],
)
def test_bad_kitties_are_refused_in_words(rules, pot, words):
    assert kitty_refused(rules, pot=pot) == words


def test_payouts_over_the_pot_are_refused_at_the_settlement():
    rules = KittyRules(500, (Payout("a", "Most wins", cents=1100),))
    with pytest.raises(RuleError, match="more than the pot of 10.00"):
        kitty_settle(rules, players=["x", "y"])


def test_money_and_share_words():
    assert [money_words(1205), money_words(-340, "USD"), money_words(7)] == ["12.05", "USD -3.40", "0.07"]
    assert [share_words(4000), share_words(1250), share_words(5)] == ["40 %", "12.5 %", "0.05 %"]


@st.composite
def evenings(draw):
    """A random evening's kitty: players, fee, shares within 100 %, amounts, awards with ties."""
    players = [f"p{i}" for i in range(draw(st.integers(0, 30)))]
    fee = draw(st.integers(0, 2000))
    count = draw(st.integers(0, 5))
    shares = draw(st.lists(st.integers(0, 4000), min_size=count, max_size=count))
    while sum(shares) > 10_000:
        shares = [s // 2 for s in shares]
    payouts = tuple(Payout(f"k{i}", f"Prize {i}", share=s) for i, s in enumerate(shares))
    awards = [
        Award(
            f"k{i}" + draw(st.sampled_from(["", "_red", "_blue"])),
            f"Prize {i}",
            tuple(draw(st.lists(st.sampled_from(players), max_size=4, unique=True)) if players else ()),
        )
        for i in range(count)
        for _ in range(draw(st.integers(0, 2)))
    ]
    lost = draw(st.lists(st.integers(-500, 0), max_size=len(players)))
    table = {p: c for p, c in zip(players, lost, strict=False) if c}
    if players and lost:
        table[players[-1]] = table.get(players[-1], 0) + draw(st.integers(0, -sum(lost)))
    dues = {p: draw(st.integers(0, 3000)) for p in players[:3]}
    return KittyRules(fee, payouts), players, awards, table, dues


@given(evenings())
def test_the_pot_is_conserved_to_the_cent(evening):
    rules, players, awards, table, dues = evening
    sheet = kitty_settle(rules, players=players, awards=awards, table=table, dues=dues)
    assert sheet.paid_out + sheet.carried == sheet.collected
    assert sheet.collected == rules.fee * len(players) + sum(dues.values()) + sum(-c for c in table.values() if c < 0)
    assert all(e.cents >= 0 for e in sheet.entries)
    assert sum(sheet.paid(p) for p in players) == sheet.collected - 0  # every cent collected is someone's
    assert sheet.remainder <= sum(max(len(a.winners) - 1, 0) for a in awards) + len(awards) * 2


def test_amounts_and_shares_as_the_host_types_them():
    from tables.kitty import parse_money, parse_share

    assert [parse_money(t) for t in ("5", "5.5", "$5.50", "5,05", "0", ".75")] == [500, 550, 550, 505, 0, 75]
    assert [parse_share(t) for t in ("40 %", "40%", "12.5 %", "100")] == [4000, 4000, 1250, 10_000]
    for bad, words in (
        ("-5", "cannot be negative"),
        ("5.555", "not an amount"),
        ("five", "not an amount"),
        ("", "not an amount"),
    ):
        with pytest.raises(RuleError, match=words):
            parse_money(bad, what="The entry fee")
    for bad, words in (("-1 %", "cannot be negative"), ("120 %", "100 % at most"), ("lots", "not a share")):
        with pytest.raises(RuleError, match=words):
            parse_share(bad)
