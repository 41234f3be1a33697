"""What the phones and the room display say while a round's bell is not simply rung: after the
host undid it (``services.bell.bell_undo``: the round waits for the host), and at tables of four
while it waits for every table's score so far (``formats.partnership.bell``; ``docs/rules/tables-of-four.md``:
"A table whose game is unfinished is decided by the score so far")."""

from __future__ import annotations

import html
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.factories import EveningFactory, GuestFactory
from tests.fixtures_bell import play, seat_by_names
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest
from tournament.services.bell import bell_reopened_rings, bell_ring, bell_undo
from tournament.services.clock import round_start

pytestmark = pytest.mark.django_db
UNDONE = "Round 1 · the bell was undone: the round waits for the host to ring it again"


@pytest.fixture(autouse=True)
def clean_cache():
    cache.clear()
    yield
    cache.clear()


def text(path: str) -> str:
    """The page at ``path`` as its words (tags dropped, spaces squeezed)."""
    response = Client().get(path)
    assert response.status_code == 200
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def phone(guest: Guest) -> str:
    return text(reverse("guest-page", args=[guest.key]))


def room(evening: Evening) -> str:
    return text(reverse("room", args=[evening.public_key]) + "?mode=full")


def euchre(round_end: str, guests: int = 12) -> tuple[Evening, list[list[Guest]]]:
    """A euchre evening of ``guests``, drawn, round 1 running; its tables' guests, North first."""
    evening = EveningFactory(format="euchre", round_end=round_end)
    for n in range(guests):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    round_start(evening=evening)
    evening.refresh_from_db()
    tables = foursome_state(evening).tables
    found = Guest.objects.in_bulk([p for t in tables for p in t])
    return evening, [[found[p] for p in t] for t in tables]


def test_after_an_undone_euchre_bell_the_phones_and_the_room_say_the_round_waits_for_the_host():
    evening, tables = euchre(Evening.RoundEnd.CLOCK, 8)
    rnd = evening.rounds.get()
    foursome_report(round=rnd, table=1, report={"points": {"NS": 7, "EW": 5}})
    foursome_report(round=rnd, table=2, report={"points": {"NS": 3, "EW": 8}})
    bell = bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    bell_undo(evening=evening, bell_id=bell.pk)
    words = phone(tables[1][0])
    assert UNDONE in words and "the bell has rung" not in words
    assert "Bell undone" in room(evening) and UNDONE.replace(" ·", ":") + "." in room(evening)


def test_after_an_undone_poker_bell_the_phone_says_so_too(host):
    evening = EveningFactory(host=host, round_end=Evening.RoundEnd.CLOCK)
    heads, middles, boobies = ["Ann", "Bob", "Cy", "Di"], ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jo", "Kim", "Lu"]
    ids = seat_by_names(evening, [heads, middles, boobies])
    first = play(evening, ids, {1: ("Ann", [], {n: 50 for n in heads}), 2: ("Eve", [], {}), 3: ("Ivy", [], {})})
    bell_undo(evening=evening, bell_id=first.pk)
    words = phone(Guest.objects.get(pk=ids["Eve"]))
    assert UNDONE in words and "the bell has rung" not in words
    Evening.objects.filter(pk=evening.pk).update(round_end=Evening.RoundEnd.HEAD_POOL)
    evening.refresh_from_db()
    bell_reopened_rings(evening=evening, round_number=1, by="head_pool")
    words = phone(Guest.objects.get(pk=ids["Eve"]))
    assert "Round 1 · the bell was undone: the head table's next result rings it again" in words


def test_while_the_bell_waits_a_table_that_has_not_reported_is_told_to_send_its_score_so_far():
    evening, tables = euchre(Evening.RoundEnd.HEAD_POOL)
    rnd = evening.rounds.get()
    foursome_report(round=rnd, table=1, report={"points": {"NS": 7, "EW": 6}})  # the head table is done
    foursome_report(round=rnd, table=3, report={"points": {"NS": 1, "EW": 3}})
    late = phone(tables[1][2])  # table 2 has not reported
    assert "The head table has finished: the bell has rung. Send your table's score so far." in late
    assert "Report the result of table 2" in late
    done = phone(tables[2][0])  # table 3 has
    assert "Send your table's score so far" not in done
    assert "Round 1 · the bell has rung and waits for every table's score so far: table 2 has not reported yet" in done
    shown = room(evening)
    assert "The bell!" in shown and "The head table has finished. Table 2: send your table's score so far." in shown


def test_when_the_clock_rang_the_bell_the_words_say_time_is_up():
    evening, tables = euchre(Evening.RoundEnd.CLOCK)
    rnd = evening.rounds.get()
    foursome_report(round=rnd, table=2, report={"points": {"NS": 7, "EW": 6}})
    assert bell_ring(round_id=rnd.pk, cause=Bell.Cause.CLOCK) is None  # waits for tables 1 and 3
    assert "Time is up: the bell has rung. Send your table's score so far." in phone(tables[0][0])
    assert "Send your table's score so far" not in phone(tables[1][0])
    assert "Time is up. Tables 1 and 3: send your table's score so far." in room(evening)


def test_the_rooms_where_to_go_slide_lists_everyone_the_bell_played_stayers_too():
    evening, tables = euchre(Evening.RoundEnd.CLOCK, 8)
    rnd = evening.rounds.get()
    (n1, e1, s1, w1), (n2, e2, s2, w2) = tables
    foursome_report(round=rnd, table=1, report={"points": {"NS": 7, "EW": 3}})  # n1, s1 stay
    foursome_report(round=rnd, table=2, report={"points": {"NS": 2, "EW": 8}})  # n2, s2 stay
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    shown = text(reverse("room", args=[evening.public_key]) + "?mode=moves")
    for guest in (n1, s1):
        assert f"{guest.name} stays at table 1" in shown
    for guest in (n2, s2):
        assert f"{guest.name} stays at table 2" in shown
    assert f"{e2.name} won at table 2" in shown and f"{e1.name} lost at the head table" in shown
    for guest in (n1, e1, s1, w1, n2, e2, s2, w2):
        assert shown.count(guest.name) >= 1
