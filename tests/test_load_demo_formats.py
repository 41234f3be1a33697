"""``manage.py load_demo --format``: a drawn, seated demo evening of each format (Progressive
Poker by default), each loaded once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournament.formats.partnership.state import foursome_state
from tournament.models import Evening, Result, Seat
from tournament.registry import format_for

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


@pytest.mark.parametrize("fmt", ["poker", "euchre", "whist", "bunco"])
def test_a_demo_evening_can_be_played_forward(fmt):
    """``--played 2``: two rounds reported at every table and rung by the host, every guest seated."""
    out = _load("--format", fmt, "--played", "2")
    evening = Evening.objects.get(format=fmt)
    assert "2 rounds played." in out
    assert list(evening.rounds.order_by("number").values_list("number", "state")) == [(1, "closed"), (2, "closed")]
    tables = len(format_for(evening).state(evening).tables)
    assert Result.objects.filter(round__evening=evening, superseded_at__isnull=True).count() == 2 * tables
    assert Seat.objects.filter(evening=evening).count() == 32


def test_a_demo_played_too_far_is_refused_and_nothing_is_loaded():
    with pytest.raises(CommandError, match="--played"):
        _load("--format", "bunco", "--played", "9")
    assert not Evening.objects.exists()


def test_one_round_played_forward_is_said_in_the_singular():
    assert _load("--format", "bunco", "--played", "1").rstrip().endswith("drawn and seated, 1 round played.")
