"""``manage.py load_demo --format``: a drawn, seated demo evening of each format (Progressive
Poker by default), each loaded once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournament.formats.partnership.state import foursome_state
from tournament.models import Evening, Seat

pytestmark = pytest.mark.django_db


def _load(*args: str) -> str:
    out = StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("fmt", "title"), [("euchre", "Progressive Euchre"), ("whist", "Drive Whist"), ("bunco", "Bunco")]
)
def test_a_demo_evening_at_tables_of_four_is_drawn_and_seated(fmt, title):
    out = _load("--format", fmt)
    evening = Evening.objects.get(format=fmt)
    assert out == f"Demo evening {evening.pk} loaded ({title}): 32 guests, drawn and seated.\n"
    assert evening.name == f"Demo evening ({title})"
    assert evening.stage == Evening.Stage.SEATED
    tables = foursome_state(evening).tables
    assert len(tables) == 8 and all(len(t) == 4 for t in tables)
    assert sorted(p for t in tables for p in t) == sorted(evening.guests.values_list("pk", flat=True))  # no ghost
    assert Seat.objects.filter(evening=evening).count() == 32
    assert _load("--format", fmt) == f"Demo evening ({title}) is already loaded.\n"
    assert Evening.objects.filter(format=fmt).count() == 1


def test_poker_stays_the_default_and_a_bad_format_is_refused():
    out = _load()
    evening = Evening.objects.get()
    assert (evening.format, evening.name) == ("poker", "Demo evening")
    assert out.startswith(f"Demo evening {evening.pk} loaded (Progressive Poker): 32 guests")
    with pytest.raises(CommandError, match="invalid choice: 'canasta'"):
        _load("--format", "canasta")
