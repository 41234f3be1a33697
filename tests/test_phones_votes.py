"""After a guest has confirmed or disputed their table's result, their phone says what they said
in words ("You confirmed it.") and offers only the other choice (the service lets them change
their vote while the round is open); the others' votes read as sentences, never as raw values
("Alice: confirm"). For Progressive Poker and the formats at tables of four alike."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests import fixtures_phones
from tests.factories import EveningFactory, GuestFactory
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Evening, Guest, Result
from tournament.services.captains import captain_report, captain_vote
from tournament.services.clock import round_start

pytestmark = pytest.mark.django_db
clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture: a Progressive Poker evening in play
CONFIRM, DISPUTE = "Confirm: that is right", "Dispute: the host decides"


def words(guest: Guest) -> str:
    response = Client().get(reverse("guest-page", args=[guest.key]))
    assert response.status_code == 200
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def euchre_table() -> list[Guest]:
    """Table 1 of an 8-guest euchre evening in round 1, North first; North sent its result."""
    evening = EveningFactory(format="euchre", round_end=Evening.RoundEnd.CLOCK)
    for n, name in enumerate(["Cara", "Alice", "Bea", "Dan", "Eve", "Fay", "Gil", "Hank"]):
        GuestFactory(evening=evening, name=name, pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    round_start(evening=evening)
    ids = foursome_state(evening).tables[0]
    table = [Guest.objects.get(pk=p) for p in ids]
    foursome_report(round=evening.rounds.get(), table=1, report={"points": {"NS": 7, "EW": 5}}, reporter=table[0])
    return table


def test_a_guest_who_confirmed_sees_it_in_words_and_may_only_dispute_instead():
    north, east, south, west = euchre_table()
    result = Result.objects.get()
    before = words(east)
    assert CONFIRM in before and DISPUTE in before and "You confirmed it" not in before
    captain_vote(guest=east, result_id=result.pk, verdict="confirm")
    after = words(east)
    assert "You confirmed it." in after and CONFIRM not in after
    assert "Changed your mind?" in after and DISPUTE in after
    assert f"{east.name}: confirm" not in after
    # the others read the vote as a sentence
    others = words(west)
    assert f"Sent by {north.name} · Confirmed · {east.name} confirmed it" in others
    assert f"{east.name}: confirm" not in others and CONFIRM in others
    # the reporter sees the same, and no buttons
    mine = words(north)
    assert f"Sent by you · Confirmed · {east.name} confirmed it" in mine and CONFIRM not in mine
    # changing their mind is allowed, and the page follows
    captain_vote(guest=east, result_id=result.pk, verdict="dispute", note="It was 7 to 6")
    again = words(east)
    assert "You disputed it: the host decides." in again and DISPUTE not in again and CONFIRM in again
    assert f"{east.name} disputed it" in words(south)


def test_the_poker_phone_says_the_vote_in_words_too(playing):
    from tests.fixtures_phones import at_table

    one, two, three = at_table(playing, 2)[:3]
    captain_report(guest=one, round_number=1, table=2, pool_winner=two.pk, request_id="r-1")
    result = Result.objects.get()
    captain_vote(guest=two, result_id=result.pk, verdict="dispute")
    mine = words(two)
    assert "You disputed it: the host decides." in mine and DISPUTE not in mine and CONFIRM in mine
    theirs = words(three)
    assert f"{two.name} disputed it" in theirs and f"{two.name}: dispute" not in theirs
