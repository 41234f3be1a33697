"""The guest's phone page over HTTP (issue 6): what it shows, conditional polling with no
database query, the end of polling, and the headers every guest page sends."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import fixtures_phones
from tests.fixtures_phones import at_table
from tournament.models import Evening, Guest
from tournament.selectors.guest_boards import shared_board
from tournament.services.bell import bell_ring
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.results import result_record
from tournament.services.state import current_round, evening_state

HTMX = {"HTTP_HX_REQUEST": "true"}

clean_cache = fixtures_phones.clean_cache  # a pytest fixture
playing = fixtures_phones.playing  # a pytest fixture


def url(guest: Guest) -> str:
    return reverse("guest-page", args=[guest.key])


def ring_with_head_result(evening) -> None:
    """Report the head table (the first guest wins, taking 10 from the last) and ring."""
    rnd = current_round(evening)
    state = evening_state(evening)
    head = state.tables[0]
    counters = {g: state.counters[g] for g in head}
    counters[head[0]] += 10
    counters[head[-1]] -= 10
    result_record(round=rnd, table=1, pool_winner=head[0], counters=counters)
    bell_ring(round_id=rnd.pk, cause="host")


def test_the_page_shows_table_kind_people_clock_counters_standings(client, playing):
    head = at_table(playing, 1)
    response = client.get(url(head[0]))
    html = response.content.decode()
    assert response.status_code == 200
    assert '<span class="big">Table 1</span>' in html and "The head table" in html
    for other in head:
        assert other.name in html
    assert 'class="clock"' in html and "Round 1" in html and 'role="timer"' in html
    assert "50</strong> counters" in html and "yellow counter" in html
    assert "Standings" in html and reverse("rules") in html
    assert "Report the result of table 1" in html
    assert response["Referrer-Policy"] == "no-referrer" and "noindex" in response["X-Robots-Tag"]
    assert "private" in response["Cache-Control"]


def test_the_page_says_what_the_last_bell_did_and_why(client, playing):
    ring_with_head_result(playing)
    loser = at_table(playing, len(evening_state(playing).tables))  # the booby table after the bell
    html = "".join(client.get(url(g)).content.decode() for g in loser)
    assert "At the last bell (round 1)" in html and "Why:" in html


def test_an_unchanged_poll_is_a_304_without_any_database_query(client, playing):
    guest = at_table(playing, 2)[0]
    first = client.get(url(guest), **HTMX)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url(guest), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert again.status_code == 304 and again["ETag"] == etag
    assert len(queries) == 0, [q["sql"] for q in queries]
    assert again["Referrer-Policy"] == "no-referrer"


def test_a_bell_changes_the_etag_and_the_page(client, playing):
    guest = at_table(playing, 1)[-1]
    etag = client.get(url(guest), **HTMX)["ETag"]
    ring_with_head_result(playing)
    after = client.get(url(guest), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert after.status_code == 200 and after["ETag"] != etag
    assert "At the last bell" in after.content.decode()


def test_the_full_page_and_the_partial_have_different_etags(client, playing):
    guest = at_table(playing, 2)[0]
    full = client.get(url(guest))
    partial = client.get(url(guest), **HTMX)
    assert full["ETag"] != partial["ETag"]
    assert "<html" in full.content.decode() and "<html" not in partial.content.decode()
    assert client.get(url(guest), HTTP_IF_NONE_MATCH=full["ETag"], **HTMX).status_code == 200


def test_polling_goes_on_through_the_prizes_and_stops_with_the_final_standings(client, playing):
    from tournament.services.ending import ceremony
    from tournament.services.versions import evening_touch

    Evening.objects.filter(pk=playing.pk).update(stage=Evening.Stage.ENDED, version=playing.version + 5)
    guest = at_table(playing, 2)[0]
    response = client.get(url(guest), **HTMX)
    assert response.status_code == 200 and "hx-trigger" in response.content.decode()  # the prizes are to come
    steps = ceremony(Evening.objects.get(pk=playing.pk)).steps
    Evening.objects.filter(pk=playing.pk).update(ceremony_step=steps)
    evening_touch(evening=Evening.objects.get(pk=playing.pk))  # as every service does: the cached version goes
    response = client.get(url(guest), **HTMX)
    # Every prize given: the phone still polls, so a correction that re-opens the ceremony
    # reaches it (house rule, tournament/views/guest.py; tests/test_night_browser.py).
    assert response.status_code == 200 and "hx-trigger" in response.content.decode()
    assert client.get(url(guest)).status_code == 200  # the plain page still shows


def test_without_javascript_the_page_refreshes_itself_and_forms_are_plain(client, playing):
    html = client.get(url(at_table(playing, 1)[0])).content.decode()
    assert '<noscript><meta http-equiv="refresh"' in html
    assert f'href="{reverse("guest-report", args=[at_table(playing, 1)[0].key])}"' in html


def test_a_registered_guest_sees_the_check_in_button(client, make_evening):
    evening = make_evening(4, 4)
    guest = evening.guests.first()
    Guest.objects.filter(pk=guest.pk).update(status=Guest.Status.REGISTERED)
    html = client.get(url(guest)).content.decode()
    assert "I am here: check me in" in html and "Not seated yet" in html


@pytest.mark.parametrize("heading", ["Standings", "You"])
def test_screen_reader_labels_are_present(client, playing, heading):
    html = client.get(url(at_table(playing, 2)[0])).content.decode()
    assert 'aria-labelledby="now-h"' in html and f">{heading}</h2>" in html
    assert 'role="img" aria-label=' in html  # the pack squares are named


@pytest.mark.parametrize("per_pack", [8, 40])
def test_a_changed_poll_costs_the_same_few_queries_for_16_or_80_guests(client, make_evening, per_pack):
    """After a bell every phone fetches its page: the board is computed once per process and
    version, so each further phone costs only its key's lookup (one query, then cached)."""
    from tournament.services.clock import round_start
    from tournament.services.draws import draw_digital

    evening = make_evening(per_pack, per_pack)
    draw_digital(evening=evening, accept_relaxed=True)
    round_start(evening=evening)
    first, second = at_table(evening, 2)[:2]
    client.get(url(first), **HTMX)  # computes the board for this version
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url(second), **HTMX)
    assert page.status_code == 200 and second.name in page.content.decode()
    assert len(queries) == 1, [q["sql"] for q in queries]  # the key -> guest lookup, then cached
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url(second), **HTMX).status_code == 200
    assert len(queries) == 0


def test_the_standings_list_drawn_once_per_board_marks_only_the_guests_own_row(client, make_evening):
    """The standings' list is drawn once per board for every phone whose guest is not in it and
    once for each guest who is (``views.guest._standing_list``): each page marks its own row and
    no other, and a guest below the top ten gets the unmarked list and their own line."""
    import re

    evening = make_evening(12, 12)  # 24 guests: 14 below the top ten
    draw_digital(evening=evening)
    round_start(evening=evening)
    ring_with_head_result(evening)
    standing = list(shared_board(Evening.objects.get(pk=evening.pk)).standing)
    top, below = standing[:10], standing[10:]
    for place, guest, _ in [top[0], top[-1], below[0], below[-1], top[3]]:
        html = client.get(url(guest), **HTMX).content.decode()
        listed = re.search(r'<section aria-labelledby="st-h".*?</ol>', html, re.S).group(0)
        marked = re.findall(r'<li value="\d+" class="me"><bdi>([^<]*)</bdi>', listed)
        if any(g.pk == guest.pk for _, g, _ in top):
            assert marked == [guest.name]
        else:
            assert marked == [] and f"You: place {place}," in html
        assert listed.count("<li ") == 10
