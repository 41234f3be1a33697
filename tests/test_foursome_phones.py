"""A guest's phone at tables of four (Progressive Euchre, Drive Whist, Bunco): their table and
seat, partner and opponents by name, their tally and place, where the bell sends them, the
captain's report with its score helper, and the end of the evening. Worked from
``docs/rules/``."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from tests import fixtures_phones
from tests.factories import EveningFactory, GuestFactory
from tournament.formats.partnership.boards import move_words
from tournament.formats.partnership.reports import foursome_report
from tournament.formats.partnership.state import foursome_draw, foursome_state
from tournament.models import Bell, Evening, Guest
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start

pytestmark = pytest.mark.django_db
clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture: a Progressive Poker evening in play
HTMX = {"HTTP_HX_REQUEST": "true"}


def foursome_evening(fmt: str, guests: int, **kw) -> Evening:
    """An evening of ``fmt`` with ``guests`` guests (red, blue, red...), drawn, round 1 running."""
    evening = EveningFactory(format=fmt, round_end=Evening.RoundEnd.CLOCK, **kw)
    for n in range(guests):
        GuestFactory(evening=evening, name=f"Player {n + 1:02}", pack="red" if n % 2 == 0 else "blue")
    foursome_draw(evening=evening)
    round_start(evening=evening)
    evening.refresh_from_db()
    return evening


def seated(evening: Evening, table: int) -> list[Guest | None]:
    """The players at ``table`` now, North, East, South, West (None for a ghost)."""
    ids = foursome_state(evening).tables[table - 1]
    found = Guest.objects.in_bulk([p for p in ids if p > 0])
    return [found.get(p) for p in ids]


def page(client, guest: Guest) -> str:
    response = client.get(reverse("guest-page", args=[guest.key]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_names_the_seat_the_partner_and_the_opponents():
    evening = foursome_evening("euchre", 8)
    north, east, south, west = seated(evening, 1)
    html = page(_client(), north)
    assert '<span class="big">Table 1</span>' in html and "sit North" in html and "The head table" in html
    assert f"Your partner: <strong><bdi>{south.name}</bdi></strong> <small>(South)</small>" in html
    assert f"<bdi>{east.name}</bdi></strong> <small>(East)</small> and" in html
    assert f"<bdi>{west.name}</bdi></strong> <small>(West)</small>" in html
    assert "<strong>0</strong> stars" in html and "<strong>0</strong> points" in html
    assert "Report the result of table 1" in html


def test_a_ghost_is_named_ghost_1():
    evening = foursome_evening("bunco", 7)  # one ghost, at the foot table
    foot = seated(evening, 2)
    ghost_seat = foot.index(None)
    partner = foot[(ghost_seat + 2) % 4]
    html = page(_client(), partner)
    assert "Your partner: <strong><bdi>Ghost 1</bdi></strong>" in html


def test_after_a_bunco_bell_the_page_says_where_to_go_and_counts_wins_buncos_and_place():
    evening = foursome_evening("bunco", 8)
    (n1, e1, s1, w1), (n2, e2, s2, w2) = foursome_state(evening).tables
    rnd = evening.rounds.get()
    foursome_report(round=rnd, table=1, report={"points": {"NS": 23, "EW": 8}, "buncos": {str(n1): 1}})
    foursome_report(round=rnd, table=2, report={"points": {"NS": 4, "EW": 12}, "minis": {str(e2): 1}})
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    client = _client()
    guests = Guest.objects.in_bulk([n1, e1, e2, n2])
    winner = page(client, guests[n1])
    assert "You won at the head table: stay at table 1." in winner
    assert "<strong>1</strong> win · <strong>0</strong> losses · <strong>1</strong> bunco" in winner
    assert "place 1 of 8" in winner
    loser = page(client, guests[e1])
    assert "You lost at the head table: move down to table 2, the foot table." in loser
    climber = page(client, guests[e2])
    assert "You won at table 2: move up to table 1, the head table." in climber and "sit South" in climber
    stayer = page(client, guests[n2])
    assert "You lost at table 2: stay at table 2." in stayer


@pytest.mark.parametrize(
    "played, goes, won, tables, words",
    [
        (3, 2, True, 5, "You won at table 3: move up to table 2."),
        (1, 5, False, 5, "You lost at the head table: go to the foot table, table 5."),
        (1, 1, True, 5, "You won at the head table: stay at table 1."),
        (4, 4, False, 5, "You lost at table 4: stay at table 4."),
        (2, 3, False, 5, "You lost at table 2: move down to table 3."),
        (1, 5, True, 5, "You won at the head table: go to the foot table, table 5."),  # Drive Whist's circle
    ],
)
def test_the_bell_in_plain_words(played, goes, won, tables, words):
    assert move_words(played, goes, won=won, tables=tables) == words


def test_a_reported_euchre_result_shows_in_words_for_the_others_to_confirm():
    evening = foursome_evening("euchre", 8)
    north, east, _south, _west = seated(evening, 1)
    foursome_report(
        round=evening.rounds.get(), table=1, report={"hands": [["NS", 2], ["EW", 1], ["NS", 4]]}, reporter=north
    )
    html = page(_client(), east)
    assert "North–South won, 6 points to 1" in html and f"Sent by <bdi>{north.name}</bdi>" in html
    assert "Confirm: that is right" in html


def test_the_live_part_polls_and_a_poker_evening_keeps_its_page(playing):
    evening = foursome_evening("whist", 8)
    guest = seated(evening, 2)[0]
    client = _client()
    response = client.get(reverse("guest-page", args=[guest.key]), **HTMX)
    assert response.status_code == 200 and 'id="guest-live" class="foursome"' in response.content.decode()
    again = client.get(reverse("guest-page", args=[guest.key]), HTTP_IF_NONE_MATCH=response["ETag"], **HTMX)
    assert again.status_code == 304
    poker = page(client, playing.guests.first())
    assert 'class="foursome"' not in poker and "counters" in poker


def _client():
    from django.test import Client

    return Client()


def report_form(client, guest: Guest) -> dict[str, str]:
    """The hidden fields of the guest's report form (round, table, request id, CSRF token)."""
    import re

    html = client.get(reverse("guest-report", args=[guest.key])).content.decode()
    fields = dict(
        re.findall(r'<input type="hidden" name="(round|table|request_id|csrfmiddlewaretoken)" value="([^"]*)"', html)
    )
    assert set(fields) == {"round", "table", "request_id", "csrfmiddlewaretoken"}, html
    return fields


def send(client, guest: Guest, **values) -> tuple[int, str]:
    data = report_form(client, guest) | {k: str(v) for k, v in values.items()}
    response = client.post(reverse("guest-report", args=[guest.key]), data)
    return response.status_code, response.content.decode()


def test_a_euchre_captain_taps_hands_and_the_result_is_saved():
    evening = foursome_evening("euchre", 8)
    north = seated(evening, 1)[0]
    client = _client()
    status, _ = send(client, north, hands="NS1 EW2 NS4 NS1", points_ns=6, points_ew=2)
    assert status == 302
    result = evening.rounds.get().results.get()
    assert result.report == {"hands": [["NS", 1], ["EW", 2], ["NS", 4], ["NS", 1]], "points": {"NS": 6, "EW": 2}}
    assert result.reported_by_guest == north


@pytest.mark.parametrize(
    "fmt, values, message",
    [
        ("euchre", {"hands": "NS1 EW3"}, "Hand 2 is worth 3: a hand of euchre scores 1, 2 or 4 points."),
        ("euchre", {"points_ns": 5, "points_ew": 5}, "The points are equal: name the side that won the play-off."),
        ("euchre", {}, "Tap each hand, or give both sides&#x27; points."),
        ("euchre", {"hands": "NS1; DROP"}, "The hands were damaged: tap them again."),
        ("whist", {"tricks_ns": 14, "tricks_ew": 0}, "North–South&#x27;s tricks: at most 13."),
        ("whist", {"tricks_ns": 8, "tricks_ew": 7}, "A hand of whist has 13 tricks; these add up to 15."),
        (
            "whist",
            {"tricks_ns": "٣", "tricks_ew": 10},
            "North–South&#x27;s tricks: a whole number in the digits 0 to 9.",
        ),
        ("euchre", {"points_ns": 500, "points_ew": 2}, "North–South&#x27;s points: at most 32."),
    ],
)
def test_bad_reports_say_what_is_wrong_and_save_nothing(fmt, values, message):
    evening = foursome_evening(fmt, 8)
    status, html = send(_client(), seated(evening, 1)[0], **values)
    assert status == 200 and message in html and "Nothing was saved." in html
    assert not evening.rounds.get().results.exists()


def test_a_bunco_captain_counts_each_player_and_the_team_points_follow():
    evening = foursome_evening("bunco", 8)
    n, e, s, w = seated(evening, 1)
    values = {
        f"points_{n.pk}": 24,
        f"rolls_{n.pk}": "1 2 21",
        f"buncos_{n.pk}": 1,
        f"points_{s.pk}": 3,
        f"points_{e.pk}": 8,
        f"minis_{e.pk}": 1,
        f"rolls_{e.pk}": "5 2 1",
        f"points_{w.pk}": 0,
    }
    status, _ = send(_client(), s, **values)
    assert status == 302
    report = evening.rounds.get().results.get().report
    assert report["points"] == {"NS": 27, "EW": 8}
    assert report["buncos"] == {str(n.pk): 1} and report["minis"] == {str(e.pk): 1}
    assert report["rolls"] == {str(n.pk): [1, 2, 21], str(e.pk): [5, 2, 1]}


def test_a_bunco_phone_and_both_report_forms_give_the_rounds_target_number_six_rounds_a_set():
    """Round n's target is n, six rounds a set (docs/rules/bunco.md): round 7 rolls for 1s, round 8 for 2s."""
    evening = foursome_evening("bunco", 8)
    guest = seated(evening, 1)[0]
    client = _client()
    for number in range(1, 9):
        rnd = evening.rounds.get(number=number)
        target = f"The target number this round: <strong>{(number - 1) % 6 + 1}</strong>."
        assert target in page(client, guest)
        assert target in client.get(reverse("guest-report", args=[guest.key])).content.decode()
        if number == 8:
            break
        for table in (1, 2):
            foursome_report(round=rnd, table=table, report={"points": {"NS": 21, "EW": 3}})
        bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
        assert "The target number this round" not in page(client, guest)  # the bell has rung: nobody rolls
        round_start(evening=evening)
        guest = Guest.objects.get(pk=guest.pk)
    client.force_login(evening.host)
    form = client.get(reverse("host-result", args=[evening.pk, 1])).content.decode()
    assert "Round 8's target number is 2: a roll scores 1 for each die showing 2" in form
    assert "round's number" not in form


def test_bad_bunco_reports_name_the_player_and_save_nothing():
    evening = foursome_evening("bunco", 8)
    n, e, s, w = seated(evening, 1)
    stranger = seated(evening, 2)[0]
    client = _client()
    status, html = send(client, n, **{f"points_{n.pk}": 22, f"rolls_{n.pk}": "22"})
    assert (
        status == 200
        and "A roll scores 1 or 2 points (dice showing the target), 5 (a mini bunco) or 21 (a bunco), not 22." in html
    )
    status, html = send(client, n, **{f"points_{n.pk}": 21, f"buncos_{stranger.pk}": 1})
    assert status == 200 and f"Buncos are given for {stranger.name}, who is not at this table." in html
    status, html = send(client, n, **{f"points_{n.pk}": 4, f"points_{e.pk}": 4})
    assert "The points are equal: name the side that won the roll-off." in html
    status, html = send(client, n, **{f"points_{n.pk}": 5, f"buncos_{n.pk}": 1})
    assert "North–South have 5 points, fewer than the 21 their buncos and mini buncos alone make." in html
    assert not evening.rounds.get().results.exists()
    status, _ = send(client, n, **{f"points_{n.pk}": 4, f"points_{e.pk}": 4, "rolloff": "EW"})
    assert status == 302 and evening.rounds.get().results.get().report["rolloff"] == "EW"


def test_a_second_report_is_refused_and_the_others_confirm():
    evening = foursome_evening("whist", 8)
    n, e, s, w = seated(evening, 1)
    client = _client()
    assert send(client, n, tricks_ns=8, tricks_ew=5)[0] == 302
    response = client.get(reverse("guest-report", args=[e.key]))
    assert response.status_code == 302  # the result is in: back to the page, to confirm or dispute
    html = page(client, e)
    assert "North–South won, 8 tricks to 5" in html
    result = evening.rounds.get().results.get()
    voted = client.post(reverse("guest-vote", args=[e.key]), {"result": result.pk, "verdict": "confirm"})
    assert voted.status_code == 302
    assert result.votes.get().guest == e


def room(client, evening: Evening, mode: str = "full") -> str:
    response = client.get(reverse("room", args=[evening.public_key]) + f"?mode={mode}")
    assert response.status_code == 200
    return response.content.decode()


def test_the_room_shows_each_table_with_partners_together_and_the_leaderboard():
    evening = foursome_evening("euchre", 8)
    n, e, s, w = seated(evening, 1)
    html = room(_client(), evening)
    assert f'<bdi class="name">{n.name}</bdi> <span class="amp">&amp;</span> <bdi class="name">{s.name}</bdi>' in html
    assert f'<bdi class="name">{e.name}</bdi> <span class="amp">&amp;</span> <bdi class="name">{w.name}</bdi>' in html
    assert "stars · points · wins · losses" in html and "Find your name" in html


def test_after_a_euchre_bell_the_room_says_who_goes_where_and_why():
    evening = foursome_evening("euchre", 8)
    (n1, e1, s1, w1), (n2, e2, s2, w2) = foursome_state(evening).tables
    rnd = evening.rounds.get()
    foursome_report(round=rnd, table=1, report={"points": {"NS": 7, "EW": 3}})
    foursome_report(round=rnd, table=2, report={"points": {"NS": 2, "EW": 8}})
    bell_ring(round_id=rnd.pk, cause=Bell.Cause.HOST)
    html = room(_client(), evening, "moves")
    guests = Guest.objects.in_bulk([e2, e1])
    assert f'<bdi>{guests[e2].name}</bdi> <small class="move-note">won at table 2</small>' in html
    assert f'<bdi>{guests[e1].name}</bdi> <small class="move-note">lost at the head table</small>' in html
    standings = room(_client(), evening)
    assert "Standings" in standings and 'class="tally first" title="stars">1</span>' in standings


@pytest.mark.parametrize(
    "words, count, said",
    [
        ("wins", 1, "win"),
        ("losses", 1, "loss"),
        ("mini buncos", 1, "mini bunco"),
        ("stars", 0, "stars"),
        ("points", 2, "points"),
        ("tricks", 1, "trick"),
        ("games won", 1, "game won"),  # the Euchre tournament's tallies
        ("games sat out", 1, "game sat out"),
        ("games won", 4, "games won"),
    ],
)
def test_a_tally_of_one_is_said_in_the_singular(words, count, said):
    from tournament.templatetags.format_tags import tally_word

    assert tally_word(words, count) == said


def test_a_bad_bunco_report_names_each_field_once_and_never_its_code_name():
    evening = foursome_evening("bunco", 8)
    n, e, _, _ = seated(evening, 1)
    status, html = send(_client(), n, **{f"points_{n.pk}": -5, f"rolls_{e.pk}": "x", "rolloff": "XX"})
    said = html[html.index('role="alert"') : html.index("Nothing was saved.")]
    assert status == 200
    assert f"<p>{escape(n.name)}&#x27;s points cannot be below 0.</p>" in said
    assert "<p>The rolls were damaged: tap them again.</p>" in said
    assert "<p>On a tie, name the side that won the roll-off: North–South or East–West.</p>" in said
    assert f"Rolls {e.pk}" not in said and "rolls_" not in said
