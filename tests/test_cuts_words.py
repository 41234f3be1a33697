"""The cut cards in words: the article as the rank is said ("an ace", "an 8", "a 7")."""

import pytest

from tables.cuts import rank_name


@pytest.mark.parametrize(
    "rank, words",
    [
        (1, "an ace"),
        (2, "a deuce"),
        (3, "a trey"),
        (7, "a 7"),
        (8, "an 8"),
        (10, "a 10"),
        (11, "a jack"),
        (13, "a king"),
    ],
)
def test_a_cut_card_is_named_with_its_article(rank, words):
    assert rank_name(rank) == words
