"""An evening in the database for the printing tests: 40 guests with names in many scripts,
checked in, drawn, two rounds played and rung, a third in play with the head table's result in.

Names: Latin with accents, Greek, Cyrillic, Arabic, Hebrew, Chinese, Japanese, Korean, one with
an emoji (printed in Noto Emoji) and one very long name without spaces: 300 characters where the
database keeps them (SQLite does not enforce ``Guest.name``'s 120), else 120, the longest a
guest's name may be.
"""

from __future__ import annotations

from decimal import Decimal

from tests.factories import EveningFactory, GuestFactory
from tournament.models import Evening, Guest
from tournament.printing.samples import NAMES
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.results import result_record
from tournament.services.state import evening_state

EMOJI_NAME = ("Ann 🎉 Lee", "Ann 🎉 Lee")  # (as typed, as printed: Noto Emoji)


def long_name() -> str:
    """A name without spaces of the longest length a guest's name may have: 120 characters
    (40 Ä, 40 ж, 40 王); every database refuses longer (CHECK ``guest_name_length``)."""
    return "Ä" * 40 + "ж" * 40 + "王" * 40


def guest_names() -> list[str]:
    """The 40 names as typed: 38 of the printing samples' names (``printing.samples.NAMES``,
    the one list of names in many scripts), a name with an emoji and the longest name there
    may be."""
    return [*NAMES[:35], NAMES[39], NAMES[37], NAMES[38], EMOJI_NAME[0], long_name()]


def printed_name(name: str) -> str:
    """How a name prints: as typed (emoji too, in Noto Emoji)."""
    return EMOJI_NAME[1] if name == EMOJI_NAME[0] else name


def play_round(evening: Evening, *, ring: bool = True, only_head: bool = False):
    """Start a round; every table's first guest wins the pool; at the head table the second is
    in the call and the winner takes 10 counters from the last guest. Rings the bell (host)."""
    rnd = round_start(evening=evening)
    state = evening_state(evening)
    for number, ids in enumerate(state.tables, 1):
        if number == 1:
            counters = {g: state.counters[g] for g in ids}
            counters[ids[0]] += 10
            counters[ids[-1]] -= 10
            result_record(round=rnd, table=1, pool_winner=ids[0], in_call=[ids[1]], counters=counters)
        elif not only_head:
            result_record(round=rnd, table=number, pool_winner=ids[0])
    if ring:
        bell_ring(round_id=rnd.pk, cause="host")
    return rnd


def printing_evening(
    host,
    *,
    guests: int = 40,
    rounds_played: int = 2,
    in_play: bool = True,
    counter_value: Decimal | None = Decimal("0.10"),
) -> Evening:
    """The evening described in the module docstring (``guests`` of the 40 names, repeated
    with a number past 40), drawn, ``rounds_played`` rounds rung, and one more in play."""
    evening = EveningFactory(
        host=host,
        name="Spring Progressive · Ελλάδα · 春",
        rounds_planned=5,
        counter_value=counter_value,
        red_label="Ladies",
        blue_label="Gentlemen",
    )
    names = guest_names()
    for i in range(guests):
        name = names[i % len(names)] + ("" if i < len(names) else f" {i}")
        GuestFactory(
            evening=evening, name=name, pack="red" if i % 2 or i in (0, 2) else "blue", status=Guest.Status.HERE
        )
    draw_digital(evening=evening)
    for _ in range(rounds_played):
        play_round(evening)
    if in_play:
        play_round(evening, ring=False, only_head=True)
    evening.refresh_from_db()
    return evening
