"""A number out of a column's bounds is refused in the column's own words on every host form
(the model's validators), never Django's "Ensure this value is greater than or equal to 0."."""

import pytest

from tournament.forms.evening import EveningForm


@pytest.mark.django_db
@pytest.mark.parametrize("minutes, words", [("-5", "A round lasts 1 minute or more."), ("0", "A round lasts")])
def test_minutes_below_one_are_refused_in_the_same_words(minutes, words):
    form = EveningForm(data={"name": "Friday", "date": "2026-12-04", "minutes_per_round": minutes})
    assert not form.is_valid()
    said = " ".join(form.errors["minutes_per_round"])
    assert words in said and "Ensure this value" not in said
