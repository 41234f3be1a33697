"""A Bunco phone's scoring rolls as the captain's form reads them (``captain_form.rolls_check``).

Found by the endpoint fuzzer: a run of digits ending in a letter ("1111…x") made the old
pattern, repeated optional groups of one to three digits, try every way of cutting the run, so
one phone's post held a server worker for minutes. The rolls are read by splitting, as the
report reads them; six digits in a row were also let through and read as one roll of 123,456.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournament.formats.partnership.captain_form import ROLLS_DAMAGED, rolls_check


@pytest.mark.parametrize("rolls", ["", "   ", "1 2 21", "21", " 5  10 \n 21 ", " ".join(["3"] * 200)])
def test_the_rolls_a_phone_writes_are_taken(rolls):
    rolls_check(rolls)


@pytest.mark.parametrize(
    "rolls",
    ["1" * 60 + "x", "1" * 399 + "x", "123456", "1 2 x", "1,2", "١٢", "-1", " ".join(["3"] * 201), "1 2 3 ４"],
)
def test_anything_else_is_refused_as_damaged(rolls):
    with pytest.raises(ValidationError) as refused:
        rolls_check(rolls)
    assert refused.value.messages == [ROLLS_DAMAGED]
