"""A form sent again from a phone is recorded once (issue 24 item 1, ``services.sends``): each
form a guest or a helper sends carries a one-time ``request_id``; a resend of one the server
recorded (its answer lost with the Wi-Fi) is answered "recorded already" and changes nothing,
even when the evening moved on meanwhile; a refused one (the bell rang meanwhile, the guest
was removed meanwhile) says why, records nothing and never answers 500. A phone's send
(``X-Headtable-Keep: 1``) is told the outcome in headers (``views.kept``)."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from django.test import Client
from django.urls import reverse

from tests import fixtures_phones
from tests.factories import EveningFactory, GuestFactory
from tests.fixtures_phones import at_table
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest, PhoneSend, Result, ResultVote
from tournament.services.bell import bell_ring
from tournament.services.captains import captain_report
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.guests import guest_remove, guest_set_status
from tournament.services.helpers import helper_link_create

pytestmark = pytest.mark.django_db
clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture: a Progressive Poker evening in play
KEPT = {"HTTP_X_HEADTABLE_KEEP": "1"}
HTMX = {"HTTP_HX_REQUEST": "true"}


def told(response) -> tuple[int, str, str, str]:
    """(status, outcome, words, location) as ``static/keep.js`` reads them."""
    return (
        response.status_code,
        response.get("X-Headtable-Kept", ""),
        unquote(response.get("X-Headtable-Words", "")),
        response.get("X-Headtable-Location", ""),
    )


def bunco_night() -> Evening:
    """8 guests at Bunco, drawn, round 1 running, the round ended by the clock."""
    evening = EveningFactory(format="bunco", round_end=Evening.RoundEnd.CLOCK)
    for n in range(8):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    round_start(evening=evening)
    return evening


def bunco_report(evening: Evening, request_id: str) -> tuple[Guest, dict[str, str]]:
    """Table 1's North and their report: North 21 (a bunco), East 5 (a mini bunco)."""
    n, e, s, w = (Guest.objects.get(pk=p) for p in foursome_state(evening).tables[0])
    data = {"round": "1", "table": "1", "request_id": request_id}
    data |= {f"points_{g.pk}": "0" for g in (n, e, s, w)}
    data |= {f"points_{n.pk}": "21", f"buncos_{n.pk}": "1", f"rolls_{n.pk}": "21"}
    data |= {f"points_{e.pk}": "5", f"minis_{e.pk}": "1", f"rolls_{e.pk}": "5"}
    return n, data


def test_a_resent_bunco_report_is_recorded_once_and_answered_recorded_already():
    evening = bunco_night()
    north, data = bunco_report(evening, "a1b2c3d4e5f6")
    url = reverse("guest-report", args=[north.key])
    first = Client().post(url, data, **KEPT)
    sent = "Table 1's result is sent. The others at the table can confirm or dispute it."
    assert told(first) == (200, "recorded", sent, reverse("guest-page", args=[north.key]))
    rnd = evening.rounds.get()
    foursome_report(round=rnd, table=2, report={"points": {"NS": 3, "EW": 14}})
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)  # the evening moved on before the resend
    again = Client().post(url, data, **KEPT)
    status, outcome, words, to = told(again)
    assert (status, outcome, to) == (200, "already", reverse("guest-page", args=[north.key]))
    assert (
        words
        == "Table 1's result for round 1 was recorded already, when this phone first sent it: nothing was recorded twice."
    )
    assert Result.objects.filter(round=rnd, table=1).count() == 1
    assert Result.objects.get(round=rnd, table=1).report["points"] == {"NS": 21, "EW": 5}
    plain = Client().post(url, data)  # a phone without JavaScript: the redirect it always got
    assert plain.status_code == 302 and Result.objects.filter(round=rnd, table=1).count() == 1
    assert PhoneSend.objects.get().action == "result.report"


def test_a_queued_report_for_a_round_rung_meanwhile_is_refused_with_that_reason():
    evening = bunco_night()
    north, data = bunco_report(evening, "queued0001")
    rnd = evening.rounds.get()
    for table in (1, 2):  # the host enters both tables' scores from the sheets while the phone is offline
        foursome_report(round=rnd, table=table, report={"points": {"NS": 3, "EW": 14}})
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    response = Client().post(reverse("guest-report", args=[north.key]), data, **KEPT)
    status, outcome, words, _ = told(response)
    assert (status, outcome) == (200, "refused")
    assert "Round 1 is closed: its bell has rung, so its result can no longer be sent from a phone." in words
    assert [r.report["points"] for r in Result.objects.filter(round=rnd, table=1)] == [{"NS": 3, "EW": 14}]
    assert not PhoneSend.objects.exists()
    assert "Round 1 is closed" not in Client().get(reverse("guest-page", args=[north.key])).content.decode()


def test_a_resent_poker_report_is_answered_recorded_already(playing):
    captain, winner = at_table(playing, 2)[:2]
    data = {"round": "1", "table": "2", "request_id": "poker-send-1", "pool_winner": str(winner.pk)}
    url = reverse("guest-report", args=[captain.key])
    assert told(Client().post(url, data, **KEPT))[1] == "recorded"
    assert told(Client().post(url, data, **KEPT))[1] == "already"
    assert Result.objects.filter(table=2).count() == 1


def test_a_resent_vote_does_not_undo_the_guests_later_vote(playing):
    captain, winner, voter = at_table(playing, 2)[:3]
    result = captain_report(guest=captain, round_number=1, table=2, pool_winner=winner.pk)
    url = reverse("guest-vote", args=[voter.key])
    confirm = {"result": str(result.pk), "verdict": "confirm", "request_id": "vote-confirm-1"}
    assert told(Client().post(url, confirm, **KEPT))[1] == "recorded"
    dispute = {"result": str(result.pk), "verdict": "dispute", "note": "Bo had 60", "request_id": "vote-dispute-1"}
    assert told(Client().post(url, dispute, **KEPT))[1] == "recorded"
    status, outcome, words, _ = told(Client().post(url, confirm, **KEPT))  # the confirmation's answer was lost
    assert (status, outcome) == (200, "already") and words.startswith("Your confirmation of the result was recorded")
    assert ResultVote.objects.get(guest=voter).verdict == "dispute"
    assert Result.objects.get(pk=result.pk).status == "disputed"


def test_the_page_that_says_recorded_already_is_never_a_304_from_the_phones_cache(playing):
    """A dispute whose answer was lost: the phone has the page since (its ETag), sends the kept
    dispute again and goes to the page the answer names, conditionally (a reload). The version
    did not change (nothing was recorded twice), yet the page is rendered with the words, not
    answered 304 from the phone's cache with the words left unseen; once shown, the next
    reload is a 304 again."""
    captain, winner, voter = at_table(playing, 2)[:3]
    result = captain_report(guest=captain, round_number=1, table=2, pool_winner=winner.pk)
    phone, page = Client(), reverse("guest-page", args=[voter.key])
    dispute = {"result": str(result.pk), "verdict": "dispute", "note": "Bo had 60", "request_id": "vote-dispute-2"}
    Client().post(reverse("guest-vote", args=[voter.key]), dispute, **KEPT)  # recorded; the answer lost
    etag = phone.get(page)["ETag"]  # the phone loads its page again
    assert phone.get(page, HTTP_IF_NONE_MATCH=etag).status_code == 304
    status, outcome, _, location = told(phone.post(reverse("guest-vote", args=[voter.key]), dispute, **KEPT))
    assert (status, outcome, location) == (200, "already", page)
    shown = phone.get(location, HTTP_IF_NONE_MATCH=etag)
    assert shown.status_code == 200 and "Your dispute of the result was recorded already" in shown.content.decode()
    assert phone.get(page, HTTP_IF_NONE_MATCH=etag).status_code == 304  # the words were shown once


def test_a_resent_self_check_in_and_registration(make_evening):
    evening = make_evening(2, 2, self_registration=True)
    url = reverse("door", args=[evening.public_key])
    data = {"name": "Zoë Late", "pack": "red", "here_now": "on", "request_id": "register-1"}
    first = Client().post(url, data, **KEPT)
    guest = Guest.objects.get(name="Zoë Late")
    assert told(first) == (200, "recorded", "", reverse("guest-page", args=[guest.key]))
    status, outcome, words, to = told(Client().post(url, data, **KEPT))  # not "already registered"
    assert (status, outcome, to) == (200, "already", reverse("guest-page", args=[guest.key]))
    assert words.startswith("The registration of Zoë Late was recorded already")
    assert Guest.objects.filter(evening=evening, name="Zoë Late").count() == 1
    other = Client().post(url, {**data, "request_id": "register-2"}, **KEPT)  # another phone, the same name
    assert told(other)[1] == "refused" and "is already registered" in told(other)[2]

    late = Guest.objects.create(evening=evening, name="Ann Late", pack="blue", status="registered")
    check_in = reverse("guest-check-in", args=[late.key])
    assert told(Client().post(check_in, {"request_id": "in-1"}, **KEPT))[1] == "recorded"
    guest_set_status(guest=late, status="registered")  # the host checks her out again
    assert told(Client().post(check_in, {"request_id": "in-1"}, **KEPT))[1] == "already"
    late.refresh_from_db()
    assert late.status == "registered"


def test_a_door_helpers_resent_check_in_and_a_check_in_for_a_guest_removed_meanwhile(make_evening):
    evening = make_evening(2, 2)
    anne = Guest.objects.create(evening=evening, name="Anne Arrival", pack="red", status="registered")
    bob = Guest.objects.create(evening=evening, name="Bob Arrival", pack="blue", status="registered")
    link = helper_link_create(evening=evening, role="door")
    anne_url = reverse("helper-guest", args=[link.key, anne.pk])
    send = {"action": "here", "request_id": "door-anne-1"}
    row = Client().post(anne_url, send, **KEPT, **HTMX)
    assert told(row)[:3] == (200, "recorded", "Anne Arrival is checked in.") and 'class="here"' in row.content.decode()
    guest_set_status(guest=anne, status="registered")  # checked out at the host's laptop meanwhile
    status, outcome, words, _ = told(Client().post(anne_url, send, **KEPT, **HTMX))
    assert (status, outcome) == (200, "already") and words.startswith("Anne Arrival's check-in was recorded already")
    anne.refresh_from_db()
    assert anne.status == "registered"

    bob_url = reverse("helper-guest", args=[link.key, bob.pk])
    guest_remove(guest=bob)
    for extra in ({**KEPT, **HTMX}, KEPT, HTMX):
        response = Client().post(bob_url, {"action": "here", "request_id": "door-bob-1"}, **extra)
        assert response.status_code in (200, 302), extra
        if "HTTP_X_HEADTABLE_KEEP" in extra:
            assert told(response)[1:3] == (
                "refused",
                "That guest is no longer on the list (the host removed them), so nothing was changed. Ask the host.",
            )
    html = Client().post(bob_url, {"action": "here"}, **HTMX).content.decode()
    assert "no longer on the list" in html
    assert not PhoneSend.objects.filter(action="guest.here", guest__isnull=True).exists()

    added = {"one-name": "Cecilia Late", "one-pack": "red", "one-check_in": "on", "request_id": "door-add-1"}
    for _ in range(2):
        Client().post(reverse("helper-page", args=[link.key]), added, **KEPT)
    assert Guest.objects.filter(evening=evening, name="Cecilia Late").count() == 1


def test_a_scorers_resent_result_records_one_row(make_evening):
    evening = make_evening(6, 6)
    scorer = helper_link_create(evening=evening, role="scorer")
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    head = foursome_free_head(evening)
    data = {"round": "1", "pool_winner": str(head[0]), "request_id": "scorer-1"}
    data |= {f"counters_{g}": "50" for g in head}
    url = reverse("helper-result", args=[scorer.key, 1])
    assert told(Client().post(url, data, **KEPT))[1] == "recorded"
    assert told(Client().post(url, data, **KEPT))[1] == "already"
    assert Result.objects.filter(round=rnd, table=1).count() == 1  # a resend supersedes nothing


def foursome_free_head(evening: Evening) -> list[int]:
    """The guests at a poker evening's head table now."""
    from tournament.services.state import evening_state

    return list(evening_state(evening).tables[0])


@pytest.mark.parametrize("request_id", ["", "x" * 65, "bad\x00id", "<b>", "ok but spaced"])
def test_a_damaged_or_missing_request_id_is_read_as_none_and_the_form_still_counts(playing, request_id):
    late = Guest.objects.create(evening=playing, name="Ann Late", pack="blue", status="registered")
    response = Client().post(reverse("guest-check-in", args=[late.key]), {"request_id": request_id}, **KEPT)
    assert told(response)[:2] == (200, "recorded")
    late.refresh_from_db()
    assert late.status == "here" and not PhoneSend.objects.exists()
