"""The showdown helper (tables/formats/poker/showdown.py): verdicts, ties by seat, settlement, bad input."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.cards import DuplicateCardError, UnknownCardError, full_pack
from tables.errors import RuleError
from tables.formats.poker.showdown import (
    Game,
    HandSizeError,
    MistigrisError,
    Payment,
    SeatError,
    seat_priority,
    showdown,
)


def test_game_values_are_what_django_stores():
    assert [g.value for g in Game] == ["draw_poker", "whiskey_poker", "commerce", "thirty_one", "my_ship_sails"]
    assert Game.parse("My Ship Sails") is Game.MY_SHIP_SAILS and Game.parse("thirty-one") is Game.THIRTY_ONE
    with pytest.raises(RuleError, match="“bridge” is not a game"):
        Game.parse("bridge")


# --- Draw Poker and Whiskey Poker --------------------------------------------------------------


def test_seed_mistigris_example_explained_in_words():
    result = showdown("draw_poker", ["7S 7H 7D 2C MI", "KS KD KC QH QD"], dealer_seat=2, options={"mistigris": True})
    assert result.winners == (1,)
    assert result.hand_at(1).reason.startswith("three sevens with mistigris make fours")
    assert result.verdict.startswith("Seat 1 wins the pool with four sevens, with mistigris")


def test_mistigris_against_a_natural_hand():
    hands = ["KS QS JS 10S MI", "10H JH QH KH AH"]
    tie = showdown("draw_poker", hands, dealer_seat=1, options={"mistigris": True})
    assert tie.winners == (1, 2) and "divide the pool" in tie.verdict
    natural = showdown("draw_poker", hands, dealer_seat=1, options={"mistigris": True, "natural_wins_ties": True})
    assert natural.winners == (2,)


def test_tiger_against_straights_and_flushes():
    hands = ["AC 2D 3H 4S 5C", "10C JD QH KS AD", "2H 6H 8H 9H JH"]
    assert showdown("draw_poker", hands, dealer_seat=1).winners == (3,)
    assert showdown("draw_poker", hands[:2], dealer_seat=1).winners == (2,)
    tiger = showdown("draw_poker", hands[:2], dealer_seat=1, options={"tiger": True})
    assert tiger.winners == (1,) and "the Tiger" in tiger.verdict
    assert showdown("draw_poker", hands, dealer_seat=1, options={"tiger": True}).winners == (3,)


def test_folded_seats_show_nothing():
    result = showdown("draw_poker", [None, "2C 2D 5H 8S JC", None, "3C 3D 5D 8C JD"], dealer_seat=3)
    assert result.winners == (4,) and [h.seat for h in result.hands] == [2, 4]


def test_whiskey_poker_without_money_the_worst_hand_puts_one_counter_in():
    # docs/rules/whiskey-poker.md: no pool; the worst hand shown puts one counter in the middle.
    result = showdown(
        "whiskey_poker",
        ["2C 3D 4H 5S 7C", "AS AD 9C 8C 2H", "KC KD 9D 8D 3H"],
        dealer_seat=3,
        options={"with_money": False},
    )
    assert result.winners == () and result.worst == (1,)  # no pool, so no pool winner
    assert result.payments == (Payment(1, None, 1, "the worst hand shown puts one counter in the middle"),)
    assert result.verdict == (
        "Without money there is no pool: seat 1 has the worst hand (no pair, seven high) "
        "and puts one counter in the middle."
    )
    # Tied worst hands each put one in (house rule).
    tied = showdown(
        "whiskey_poker",
        ["2C 3D 4H 5S 7C", "2D 3C 4S 5H 7D", "AS AD 9C 8C 2H"],
        dealer_seat=1,
        options={"with_money": False},
    )
    assert tied.worst == (1, 2) and len(tied.payments) == 2
    with_money = showdown("whiskey_poker", ["2C 3D 4H 5S 7C", "AS AD 9C 8C 2H"], dealer_seat=1)
    assert with_money.payments == ()


# --- Commerce ------------------------------------------------------------------------------------


def test_seed_dealer_pays_every_player_when_he_holds_the_winning_rank():
    # 003: "a straight flush, Jack high, wins the pool. The dealer has a straight flush, 9 high,
    # and must pay one counter to every player at the table."
    hands = ["9C JC 10C", "2D 7S KH", "7H 8H 9H", "AS 4S 5D"]  # the dealer is seat 3
    result = showdown("commerce", hands, dealer_seat=3)
    assert result.winners == (1,)
    assert sorted((p.payer, p.payee, p.counters) for p in result.payments) == [(3, 1, 1), (3, 2, 1), (3, 4, 1)]


def test_seed_dealer_without_a_sequence_flush_pays_the_winner_only():
    hands = ["9C JC 10C", "2D 7S KH", "7H 8H 2C", "AS 4S 5D"]
    result = showdown("commerce", hands, dealer_seat=3)
    assert result.winners == (1,)
    assert [(p.payer, p.payee, p.counters) for p in result.payments] == [(3, 1, 1)]
    assert "pays one white counter to seat 1" in result.verdict


def test_dealer_who_wins_pays_nothing_and_widow_has_no_payments():
    hands = ["9C JC 10C", "2D 7S KH"]
    assert showdown("commerce", hands, dealer_seat=1).payments == ()
    widow = showdown("commerce", hands, dealer_seat=2, options={"widow": True})
    assert widow.payments == () and "no extra payments" in widow.verdict


def test_point_is_combination_option():
    hands = ["AH KH 2C", "9S 8S 3D", "5C 6C 2D"]  # points 21, 17, 11; dealer seat 3
    literal = showdown("commerce", hands, dealer_seat=3)
    assert len(literal.payments) == 2
    lenient = showdown("commerce", hands, dealer_seat=3, options={"point_is_combination": False})
    assert [(p.payer, p.payee) for p in lenient.payments] == [(3, 1)]


def test_sequence_flushes_a23_and_qka():
    result = showdown("commerce", ["AS 2S 3S", "QH KH AH", "AH KH JH".replace("H", "D")], dealer_seat=1)
    assert result.winners == (2,)
    assert showdown("commerce", ["AS 2S 3S", "AD KD JD"], dealer_seat=2).winners == (1,)


def test_point_ties_three_cards_beat_two_then_dealer_then_his_left():
    assert showdown("commerce", ["KS 10S 2C", "9H 5H 6H"], dealer_seat=1).winners == (2,)
    equal = ["KS 10S 2C", "KH QH 3D", "JD 10D 4C", "QC JC 5S"]  # four points of 20 in two cards
    assert showdown("commerce", equal, dealer_seat=3).winners == (3,)  # the dealer
    result = showdown("commerce", ["KS 10S 2C", "KH QH 3D", "5C 9D 2H", "QC JC 5S"], dealer_seat=3)
    assert result.winners == (4,)  # nearest the dealer's left
    assert "a tie goes to the dealer, or the player nearest him on his left" in result.verdict
    wrap = showdown("commerce", ["KS 10S 2C", "KH QH 3D", "5C 9D 2H", "6D 7S 8C"], dealer_seat=4)
    assert wrap.winners == (1,)  # the left of seat 4 is seat 1


def test_commerce_always_has_one_winner_and_worst_by_seat():
    result = showdown("commerce", ["2C 5D 9H", "3C 6D 10H", "4S 7H 8D"], dealer_seat=2)
    assert result.winners == (2,)  # three hands without a point: the dealer wins the tie
    assert result.worst == (1,)  # the dealer's left is seat 3, so seat 1 loses the tie


# --- Thirty-One and My Ship Sails -----------------------------------------------------------------


def test_thirty_one_and_elder_hand():
    assert showdown("thirty_one", ["AH AD AC", "AS KS QS"], dealer_seat=1).winners == (2,)
    equal = ["KS QS 2D", "KH JH 3C", "10D QD 4H"]
    assert showdown("thirty_one", equal, dealer_seat=1).winners == (2,)
    assert showdown("thirty_one", equal, dealer_seat=3).winners == (1,)
    split = showdown("thirty_one", equal, dealer_seat=3, options={"split_ties": True})
    assert split.winners == (1, 2, 3)


def test_my_ship_sails_elder_hand_wins_ties():
    flushes = ["2H 3H 5H", "KS 10S 9S", "AD 9D 10D"]
    assert showdown("my_ship_sails", flushes, dealer_seat=1).winners == (3,)
    equal = ["KS 10S 2D", "QH JH 3C", "AD 9D 4H"]  # two-card flushes of 20 each
    assert showdown("my_ship_sails", equal, dealer_seat=1).winners == (2,)
    assert showdown("my_ship_sails", equal, dealer_seat=2).winners == (3,)
    assert showdown("my_ship_sails", equal, dealer_seat=3).winners == (1,)
    assert "elder hand" in showdown("my_ship_sails", equal, dealer_seat=3).verdict


def test_seat_priority():
    assert [seat_priority(Game.COMMERCE, s, 5, 5, None) for s in range(1, 6)] == [1, 2, 3, 4, 0]
    assert [seat_priority(Game.MY_SHIP_SAILS, s, 5, 5, None) for s in range(1, 6)] == [0, 1, 2, 3, 4]


# --- bad input ------------------------------------------------------------------------------------


def test_a_card_given_twice_names_card_and_seats():
    with pytest.raises(DuplicateCardError, match=r"AS \(ace of spades\) is shown at seat 1 and seat 3"):
        showdown("commerce", ["AS KS QS", "2D 3D 4D", "AS 5C 6C"], dealer_seat=1)
    with pytest.raises(DuplicateCardError, match="seat 2, twice"):
        showdown("commerce", ["AS KS QS", "2D 2D 4D"], dealer_seat=1)


def test_unknown_card_names_seat_and_text():
    with pytest.raises(UnknownCardError, match="Seat 2: “1H” is not a card"):
        showdown("commerce", ["AS KS QS", "1H 3D 4D"], dealer_seat=1)


def test_wrong_number_of_cards():
    with pytest.raises(HandSizeError, match=r"Seat 2 shows 4 cards \(2D 3D 4D 5D\); a Commerce hand has 3"):
        showdown("commerce", ["AS KS QS", "2D 3D 4D 5D"], dealer_seat=1)
    with pytest.raises(HandSizeError, match="a Draw Poker hand has 5"):
        showdown("draw_poker", ["AS KS QS"], dealer_seat=1)


def test_mistigris_where_it_is_not_played():
    with pytest.raises(MistigrisError, match="Seat 1 shows the mistigris, but Commerce"):
        showdown("commerce", ["AS KS MI", "2D 3D 4D"], dealer_seat=1)
    with pytest.raises(MistigrisError, match="without it"):
        showdown("draw_poker", ["AS KS QS JS MI"], dealer_seat=1)


@pytest.mark.parametrize("seat", [0, 4, -1, "1", None, True])
def test_dealer_seat_outside_the_table(seat):
    with pytest.raises(SeatError, match="seats are 1 to 3"):
        showdown("commerce", ["AS KS QS", "2D 3D 4D", "5C 6C 7C"], dealer_seat=seat)


def test_no_hand_and_wrong_options():
    with pytest.raises(SeatError, match="No hand is shown"):
        showdown("draw_poker", [None, None], dealer_seat=1)
    with pytest.raises(RuleError, match="“tiger” is not an option of Commerce"):
        showdown("commerce", ["AS KS QS"], dealer_seat=1, options={"tiger": True})
    from tables.formats.poker.commerce import CommerceOptions

    with pytest.raises(RuleError, match="Draw Poker takes PokerOptions"):
        showdown("draw_poker", ["AS KS QS JS 9S"], dealer_seat=1, options=CommerceOptions())


# --- properties ---------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    game=st.sampled_from(list(Game)),
    seats=st.integers(min_value=2, max_value=7),
    data=st.data(),
)
def test_winners_hold_the_best_hand(game, seats, data):
    pack = list(full_pack())
    cards = data.draw(st.permutations(pack))
    hands = [cards[i * game.hand_size : (i + 1) * game.hand_size] for i in range(seats)]
    dealer = data.draw(st.integers(min_value=1, max_value=seats))
    result = showdown(game, hands, dealer_seat=dealer)
    best = max(h.strength for h in result.hands)
    assert result.winners and all(result.hand_at(s).strength == best for s in result.winners)
    assert all(result.hand_at(s).strength == min(h.strength for h in result.hands) for s in result.worst)
    if game in (Game.COMMERCE, Game.THIRTY_ONE, Game.MY_SHIP_SAILS):
        assert len(result.winners) == 1 and len(result.worst) == 1
    if game is Game.COMMERCE:
        # The dealer pays nothing when he wins, else one to the winner or one to each other seat.
        paid = sum(p.counters for p in result.payments)
        assert paid in ((0,) if result.winners == (dealer,) else (1, seats - 1))
