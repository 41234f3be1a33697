"""The host's board at 84 tables (issue 11, deliver 6): what needs the host first, a jump to
any table, a compact grid, the moves and standings on their own pages; the live poll answers 304
when nothing changed and morphs in place (keyboard focus and alerts stay) when something did."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import HostFactory
from tests.fixtures_room import played_evening
from tournament.models import Evening, Result
from tournament.selectors.board import evening_board
from tournament.services.clock import round_start
from tournament.services.draws import draw_digital
from tournament.services.results import result_record
from tournament.services.state import evening_state
from tournament.views.room import move_groups


def board_url(evening: Evening) -> str:
    return reverse("host-evening", args=[evening.pk])


@pytest.fixture
def running(make_evening, client, host):
    """12 guests drawn (3 tables), round 1 running, the host logged in."""
    evening = make_evening(6, 6)
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    client.force_login(host)
    return evening, rnd


@pytest.mark.django_db
def test_at_500_guests_the_board_puts_what_needs_the_host_first_and_the_rest_elsewhere(client, host):
    evening = played_evening(host, 500)  # 84 tables, round 1 rung, round 2 running
    client.force_login(host)
    board = evening_board(evening)
    assert len(board.tables) == 84
    rnd = board.round
    ids = evening_state(evening).tables
    result_record(round=rnd, table=5, pool_winner=ids[4][0])
    html = client.get(board_url(evening)).content.decode()
    needs = html[html.index('id="needs-h"') : html.index('id="round-h"')]  # first on the board
    assert "No result yet from 83 of 84 tables:" in needs
    assert needs.count('aria-label="Enter the result of table ') == 83 and 'table 5"' not in needs
    assert html.count('class="tile ') == 84 and html.count('class="tile intermediate in"') == 1
    assert 'id="table-84"' in html and "Table 84</a> <small>booby</small>" in html
    # The 500 standings rows and the ~84 moves live on their own pages, not on the board.
    mover = move_groups(board)[3].guests[0]
    assert '<table class="standings"' not in html and mover.name not in html
    assert f'href="{reverse("host-moves", args=[evening.pk])}"' in html
    moves = client.get(reverse("host-moves", args=[evening.pk])).content.decode()
    assert f"<strong>Table {move_groups(board)[3].table}</strong>: <bdi>{mover.name}</bdi>" in moves
    assert len(html) < 60_000, len(html)  # the old board was ~500 kB at this size


@pytest.mark.django_db
def test_go_to_table_opens_that_table_and_a_wrong_number_says_which_tables_there_are(client, running):
    evening, rnd = running
    jump = reverse("host-table-jump", args=[evening.pk])
    response = client.get(jump, {"table": "2"})
    assert response.status_code == 302 and response["Location"] == reverse("host-table", args=[evening.pk, 2])
    page = client.get(response["Location"]).content.decode()
    for guest_id in evening_state(evening).tables[1]:
        assert evening.guests.get(pk=guest_id).name in page
    assert 'role="img" aria-label="Red pack" title="Red pack">R</span>' in page
    assert "Enter the result" in page and "Showdown helper" in page
    version = Evening.objects.get(pk=evening.pk).version
    for bad, said in (
        ("9", "There is no table 9: the tables are 1 to 3."),
        ("0", "Table numbers start at 1."),
        ("two", "Type a table number."),
        ("", "Type a table number."),
    ):
        response = client.get(jump, {"table": bad}, follow=True)
        assert response.redirect_chain[-1][0] == board_url(evening) and said in response.content.decode(), bad
    response = client.get(reverse("host-table", args=[evening.pk, 4]), follow=True)
    assert "There is no table 4: the tables are 1 to 3." in response.content.decode()
    assert Evening.objects.get(pk=evening.pk).version == version  # looking changes nothing
    client.force_login(HostFactory(username="another-host"))
    for name, args in (
        ("host-table", [evening.pk, 1]),
        ("host-moves", [evening.pk]),
        ("host-table-jump", [evening.pk]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 404


@pytest.mark.django_db
def test_a_dispute_is_named_first_on_the_board(client, running):
    evening, rnd = running
    ids = evening_state(evening).tables[1]
    result_record(round=rnd, table=2, pool_winner=ids[0])
    Result.objects.filter(round=rnd, table=2).update(status=Result.Status.DISPUTED)
    html = client.get(board_url(evening)).content.decode()
    needs = html[html.index('id="needs-h"') : html.index('id="round-h"')]
    assert "Table 2: disputed</strong> at the table, you decide." in needs
    assert "No result yet from 2 of 3 tables:" in needs
    assert 'class="tile intermediate disputed"' in html


@pytest.mark.django_db
def test_an_unchanged_board_poll_is_a_304_and_a_change_is_not(client, running):
    evening, rnd = running
    first = client.get(board_url(evening), HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    assert first.status_code == 200 and f'data-etag="{etag.replace(chr(34), "&quot;")}"' in first.content.decode()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(board_url(evening), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert len(queries) <= 3, [q["sql"] for q in queries]  # the session, the host, the evening's version
    result_record(round=rnd, table=3, pool_winner=evening_state(evening).tables[2][0])
    changed = client.get(board_url(evening), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    # A full page always renders (a message after a refused action is never lost to a 304).
    full = client.get(board_url(evening), HTTP_IF_NONE_MATCH=changed["ETag"])
    assert full.status_code == 200 and not full.has_header("ETag")
    # Another host's poll is a 404, never a 304 with someone else's version.
    client.force_login(HostFactory(username="another-host"))
    assert client.get(board_url(evening), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 404


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_chromium_a_live_update_keeps_focus_and_does_not_recreate_alerts(browser, live_server, make_evening, host):
    evening = make_evening(9, 9)  # 4 tables
    draw_digital(evening=evening)
    rnd = round_start(evening=evening)
    tables = evening_state(evening).tables
    result_record(round=rnd, table=2, pool_winner=tables[1][0])
    Result.objects.filter(round=rnd, table=2).update(status=Result.Status.DISPUTED)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", host.username)
    page.fill("#id_password", "pass-word-123")
    page.click("main button[type=submit], main input[type=submit]")
    statuses = []
    page.on(
        "response", lambda r: statuses.append(r.status) if "/host/e/" in r.url and r.request.method == "GET" else None
    )
    page.goto(live_server.url + board_url(evening))
    link = page.locator("#table-3 .tile-state a")
    link.focus()
    # Marks on the DOM nodes themselves (properties, not attributes: a morph syncs attributes).
    page.evaluate("""() => { document.activeElement.mine = 'yes';
                             document.getElementById('dispute-2').mine = 'yes'; }""")
    # Nothing changed: the poll (forced now, as the clock's deadline does) is a 304 and nothing moves.
    with page.expect_response(lambda r: "/host/e/" in r.url and r.status == 304, timeout=8000):
        page.evaluate("document.body.dispatchEvent(new CustomEvent('headtable:deadline'))")
    # Table 4 reports: the next poll brings the change, morphed in place.
    result_record(round=rnd, table=4, pool_winner=tables[3][0])
    page.evaluate("document.body.dispatchEvent(new CustomEvent('headtable:deadline'))")
    page.wait_for_selector("#table-4.in", timeout=8000)
    assert page.evaluate("document.activeElement.mine") == "yes"  # the same link keeps focus
    assert page.evaluate("document.getElementById('dispute-2').mine") == "yes"  # the alert was not re-created
    assert "No result yet from 2 of 4 tables" in page.locator(".needs").inner_text()
    assert 304 in statuses and 200 in statuses
    context.close()
