"""Cards as values: parsing, text, names, packs, errors (tables/cards.py)."""

import pytest

from tables.cards import (
    MISTIGRIS,
    Card,
    CardError,
    DuplicateCardError,
    Rank,
    Suit,
    UnknownCardError,
    cards_text,
    check_no_duplicates,
    full_pack,
    parse_cards,
)
from tables.errors import RuleError


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("AS", Rank.ACE, Suit.SPADES),
        ("10H", Rank.TEN, Suit.HEARTS),
        ("TH", Rank.TEN, Suit.HEARTS),
        ("th", Rank.TEN, Suit.HEARTS),
        ("QD", Rank.QUEEN, Suit.DIAMONDS),
        (" 2c ", Rank.TWO, Suit.CLUBS),
        ("7♥", Rank.SEVEN, Suit.HEARTS),
        ("K♠", Rank.KING, Suit.SPADES),
    ],
)
def test_parse(text, rank, suit):
    card = Card.parse(text)
    assert card == Card(rank, suit)
    assert card.rank is rank and card.suit is suit
    assert not card.is_mistigris


@pytest.mark.parametrize("text", ["JK", "MI", "jk", "mi", "Joker", "mistigris"])
def test_parse_mistigris(text):
    card = Card.parse(text)
    assert card is MISTIGRIS or card == MISTIGRIS
    assert card.is_mistigris and card.rank is None and card.suit is None
    assert card == Card.mistigris()
    assert str(card) == "MI" and card.name == "the mistigris" and card.pips == 0


@pytest.mark.parametrize("card", full_pack(with_mistigris=True))
def test_repr_rebuilds_and_str_round_trips(card):
    assert eval(repr(card), {"Card": Card}) == card  # noqa: S307
    assert Card.parse(str(card)) == card


def test_text_and_names():
    assert str(Card.parse("TH")) == "10H"
    assert repr(Card.parse("TH")) == "Card.parse('10H')"
    assert Card.parse("10H").name == "ten of hearts"
    assert Card.parse("AS").name == "ace of spades"
    assert Card.parse("2D").name == "deuce of diamonds"
    assert Card.parse("3C").name == "trey of clubs"
    assert Rank.SIX.plural == "sixes" and Rank.SEVEN.plural == "sevens"


def test_pips():
    # docs/rules/commerce.md: ace eleven, court cards ten.
    assert [Card.parse(t).pips for t in ["AS", "KS", "QS", "JS", "10S", "9S", "2S"]] == [11, 10, 10, 10, 10, 9, 2]


def test_parse_cards():
    assert parse_cards("AS KD 10H") == (Card.parse("AS"), Card.parse("KD"), Card.parse("10H"))
    assert parse_cards("AS, KD,10H") == parse_cards("AS KD 10H")
    assert parse_cards(["AS", Card.parse("KD")]) == parse_cards("AS KD")
    assert parse_cards("") == ()
    assert cards_text(parse_cards("as kd th mi")) == "AS KD 10H MI"


def test_full_pack():
    pack = full_pack()
    assert len(pack) == 52 and len(set(pack)) == 52
    assert pack[0] == Card.parse("2C") and pack[-1] == Card.parse("AS")
    wild = full_pack(with_mistigris=True)
    assert len(wild) == 53 and len(set(wild)) == 53 and wild[-1].is_mistigris
    assert sorted(pack, key=lambda c: c.sort_key) == list(pack)


@pytest.mark.parametrize("text", ["1H", "11S", "ZZ", "A", "", "AX", "10", "KH7"])
def test_unknown_card_names_the_text(text):
    with pytest.raises(UnknownCardError) as info:
        Card.parse(text)
    assert f"“{text}”" in str(info.value)
    assert isinstance(info.value, CardError) and isinstance(info.value, RuleError)


def test_parse_cards_names_the_bad_card():
    with pytest.raises(UnknownCardError, match="“1H”"):
        parse_cards("AS 1H KD")


def test_half_card_is_refused():
    with pytest.raises(UnknownCardError):
        Card(Rank.ACE, None)


def test_duplicates():
    check_no_duplicates(parse_cards("AS KD 10H"))
    with pytest.raises(DuplicateCardError, match="AS .ace of spades. is given twice"):
        check_no_duplicates(parse_cards("AS KD as"))


def test_cards_are_frozen_and_hashable():
    card = Card.parse("AS")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING  # type: ignore[misc]
    assert len({card, Card.parse("AS"), Card.parse("KS")}) == 2
