"""The guests list and the print page kept per evening version (issue 26 item 3: "fragments
cached by the evening's version where a page is re-drawn unchanged"): drawn again unchanged they
read nothing again, and every kind of change (a guest added, checked in, renamed, removed,
marked as left, the draw, a bell) gives the new page (the corrections page too; the end page
after each final count and step of the ceremony), never a stale one: each page after a
change is the one drawn from nothing (``kept_forget``). Also: the guests list's rows written once
per version (``templatetags.guest_rows._kept_rows``) are what the rows written afresh are,
character for character, for the host and for a door helper, each with its own CSRF field."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.fixtures_ending import count_every_table, ended_evening, reveal
from tests.fixtures_room import played_evening
from tournament.kept import kept_forget
from tournament.models import Bell, Evening, Guest
from tournament.selectors.guests import guest_list
from tournament.services.bell import bell_ring
from tournament.services.corrections import correction_rounds
from tournament.services.draws import draw_digital
from tournament.services.guests import guest_add, guest_remove, guest_rename, guest_set_status, guests_check_in
from tournament.services.helpers import helper_link_create
from tournament.services.results import result_record
from tournament.services.state import evening_state
from tournament.views.guests import Door

pytestmark = pytest.mark.django_db

ROWS = Template("{% load guest_rows %}{% guest_rows %}")
ROOM_AT_FOUR = '{% load format_tags %}\n{# Between bells at tables of four: the clock, every table\'s four players (partners together), find your name, the leaderboard with the format\'s tallies. #}\n{% include "room/_clock_slide.html" %}\n{% if foursome.tables %}\n<section class="slide room-tables" data-slide="tables" data-title="The tables" data-seconds="10" aria-labelledby="room-tables-h">\n  <h2 id="room-tables-h">The tables <small>partners side by side</small></h2>\n  <ul class="pager tables-pager">{% for t in foursome.tables %}<li class="item four {{ t.kind }}"><p class="to"><span class="to-number">{{ t.number }}</span>{% if t.kind == "head" %}<span class="to-kind">head</span>{% elif t.kind == "booby" %}<span class="to-kind">foot</span>{% endif %}</p>\n    <ul class="pairs">{% for pair in t.partnerships %}<li class="pair">{% for s in pair %}<bdi class="name{% if s.is_ghost %} ghost{% endif %}">{{ s.name }}</bdi>{% if not forloop.last %} <span class="amp">&amp;</span> {% endif %}{% endfor %}</li>{% if forloop.first %}<li class="vs" aria-hidden="true">against</li>{% endif %}{% endfor %}</ul></li>{% endfor %}</ul>\n</section>\n{% endif %}\n{% if foursome_seating %}\n<section class="slide room-seating" data-slide="seating" data-title="Find your name" data-seconds="10" aria-labelledby="room-seating-h">\n  <h2 id="room-seating-h">Find your name</h2>\n  <ul class="pager seating-pager">{% for name, player, table, seat in foursome_seating %}<li class="item seat"><bdi class="name">{{ name }}</bdi> {% if table %}<span class="at"><span class="sr-only">table </span>{{ table }}<small class="seat-word"> {{ seat }}</small></span>{% else %}<span class="at out">sits out</span>{% endif %}</li>{% endfor %}</ul>\n</section>\n{% endif %}\n{% if leaders %}\n<section class="slide room-standings" data-slide="standings" data-title="Standings" data-seconds="12" data-max-pages="1" aria-labelledby="room-final-h">\n{% include "partnership/room_leaders.html" with lines=leaders final=False %}\n</section>\n{% endif %}\n'  # partnership/room.html as it stood, its two long lists inline
ROOM_TABLES = '{% if foursome.tables %}\n<section class="slide room-tables" data-slide="tables" data-title="The tables" data-seconds="10" aria-labelledby="room-tables-h">\n  <h2 id="room-tables-h">The tables <small>partners side by side</small></h2>\n  <ul class="pager tables-pager">{% for t in foursome.tables %}<li class="item four {{ t.kind }}"><p class="to"><span class="to-number">{{ t.number }}</span>{% if t.kind == "head" %}<span class="to-kind">head</span>{% elif t.kind == "booby" %}<span class="to-kind">foot</span>{% endif %}</p>\n    <ul class="pairs">{% for pair in t.partnerships %}<li class="pair">{% for s in pair %}<bdi class="name{% if s.is_ghost %} ghost{% endif %}">{{ s.name }}</bdi>{% if not forloop.last %} <span class="amp">&amp;</span> {% endif %}{% endfor %}</li>{% if forloop.first %}<li class="vs" aria-hidden="true">against</li>{% endif %}{% endfor %}</ul></li>{% endfor %}</ul>\n</section>\n{% endif %}'  # partnership/_room_tables.html as it stood
ROOM_SEATING = '{% if foursome_seating %}\n<section class="slide room-seating" data-slide="seating" data-title="Find your name" data-seconds="10" aria-labelledby="room-seating-h">\n  <h2 id="room-seating-h">Find your name</h2>\n  <ul class="pager seating-pager">{% for name, player, table, seat in foursome_seating %}<li class="item seat"><bdi class="name">{{ name }}</bdi> {% if table %}<span class="at"><span class="sr-only">table </span>{{ table }}<small class="seat-word"> {{ seat }}</small></span>{% else %}<span class="at out">sits out</span>{% endif %}</li>{% endfor %}</ul>\n</section>\n{% endif %}'  # partnership/_room_seating.html as it stood
ROUNDS_LOOP = '{% load name_tags %}{% for h in rounds %}\n<section class="history" aria-labelledby="r{{ h.round.number }}-h"><h2 id="r{{ h.round.number }}-h">Round {{ h.round.number }} <small>· bell rung {{ h.rung }} at {{ h.bell.rung_at|time:"H:i" }}</small></h2>\n{% for w in h.warnings %}<p class="warning">{{ w|names_isolated:h.names }}</p>{% endfor %}\n<div class="scroll"><table class="standings"><thead><tr><th>Table</th><th>Who sat there</th><th>Result</th><th><span class="sr-only">Correct</span></th></tr></thead>\n<tbody>{% for number, names, words in h.rows %}<tr>\n<td>{{ number }}</td>\n<td><small>{% for name in names %}<bdi>{{ name }}</bdi>{% if not forloop.last %}, {% endif %}{% endfor %}</small></td>\n<td>{% if words %}{{ words|names_isolated:names }}{% else %}<em>no result</em>{% endif %}</td>\n<td><a class="button small secondary" href="{% url \'host-correction\' evening.pk h.round.number number %}">Correct</a></td>\n</tr>{% endfor %}</tbody></table></div>\n</section>\n{% empty %}<p>No bell has rung yet: results of the round in play are entered on the evening page.</p>\n{% endfor %}'  # host/corrections.html's loop as it stood there
_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')


def _rows(listing, door: Door, token: str) -> str:
    return ROWS.render(Context({"list": listing, "door": door, "evening": door.evening, "csrf_token": token}))


@pytest.fixture
def evening(host):
    """A played evening (drawn, round 1 rung, round 2 running) with every kind of row: a late
    arrival not here yet with a contact and markup in the name, one here but unseated, one
    marked as left, and the rest seated (with history: no *Remove*)."""
    evening = played_evening(host, 12)
    guest_add(evening=evening, name="Zoë \"&' Late", pack="red", contact="+1 555 <0100>")
    guest_add(evening=evening, name="Ulla Unseated", pack="blue", check_in=True)
    gone = evening.guests.filter(seat__isnull=False).order_by("pk").first()
    Guest.objects.filter(pk=gone.pk).update(status=Guest.Status.LEFT)
    Evening.objects.filter(pk=evening.pk).update(version=evening.version + 100)
    return Evening.objects.get(pk=evening.pk)


@pytest.mark.parametrize("who", ["host", "door helper"])
def test_the_kept_rows_are_the_rows_written_afresh(evening, host, who):
    helper = helper_link_create(evening=evening, role="door") if who == "door helper" else None
    evening = Evening.objects.get(pk=evening.pk)
    door = Door(evening=evening, user=host, helper=helper)
    kept_forget()
    listing = guest_list(evening, kept=True)
    afresh = replace(listing, reading=None)  # every row written by ``_row``, nothing kept
    for token in ("first-token", "second-token"):  # the first writes the kept rows, the second reads them
        kept = _rows(listing, door, token)
        assert kept == _rows(afresh, door, token)
        assert f'value="{token}"' in kept and kept.count("<tr ") == len(listing.rows) == evening.guests.count()
    assert listing.reading is not None and len(listing.reading.rows_html) == 1
    assert "Zoë &quot;&amp;&#x27; Late" in kept and ("+1 555 &lt;0100&gt;" in kept) == (who == "host")
    searched = guest_list(evening, q="late", kept=True)  # a search writes its own rows
    assert _rows(searched, door, "t") == _rows(replace(searched, reading=None), door, "t")
    assert _rows(searched, door, "t").count("<tr ") == 1


def _page(client, name: str, evening: Evening) -> str:
    page = client.get(reverse(name, args=[evening.pk])).content.decode()
    return _TOKEN.sub(r'\1"', page)  # each request's own CSRF token left out


def _afresh(client, name: str, evening: Evening) -> str:
    kept_forget()
    return _page(client, name, evening)


def _queries(client, name: str, evening: Evening) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse(name, args=[evening.pk])).status_code == 200
    return len(queries)


@pytest.mark.parametrize("name", ["host-guests", "host-print", "host-corrections"])
def test_every_change_gives_the_new_page_never_a_stale_one(client, host, evening, name):
    client.force_login(host)
    kept_forget()
    before = _page(client, name, evening)
    assert _page(client, name, evening) == before  # drawn again unchanged
    warm = _queries(client, name, evening)
    assert warm < _queries_afresh(client, name, evening)  # kept: only the version is read again
    late = Guest.objects.get(evening=evening, name__endswith="Late")
    state = evening_state(evening)
    changes = [
        lambda: guest_add(evening=evening, name="Nadia New", pack="blue"),
        lambda: guests_check_in(evening=evening, guest_ids=[late.pk]),
        lambda: guest_rename(guest=Guest.objects.get(evening=evening, name="Nadia New"), name="Nadia Renamed"),
        lambda: guest_remove(guest=Guest.objects.get(evening=evening, name="Nadia Renamed")),
        lambda: guest_set_status(guest=Guest.objects.get(pk=late.pk), status="left"),
        lambda: [
            result_record(round=evening.rounds.order_by("-number").first(), table=n, pool_winner=ids[0])
            for n, ids in enumerate(state.tables, 1)
        ],
        lambda: bell_ring(round_id=evening.rounds.order_by("-number").first().pk, cause=Bell.Cause.HOST),
    ]
    for change in changes:
        change()
        now = _page(client, name, evening)
        assert now == _afresh(client, name, evening), change
        if name == "host-guests":  # every change shows on the list (the print page: the draw, below)
            assert now != before, change
        before = now


def _queries_afresh(client, name: str, evening: Evening) -> int:
    kept_forget()
    return _queries(client, name, evening)


def test_the_print_page_before_and_after_the_draw(client, host, make_evening):
    evening = make_evening(6, 6)
    client.force_login(host)
    kept_forget()
    page = _page(client, "host-print", evening)
    assert "No draw yet: run the draw before printing seating cards." in page
    assert _page(client, "host-print", evening) == page
    draw_digital(evening=evening)
    page = _page(client, "host-print", evening)
    assert "No draw yet: run the draw before printing seating cards." not in page
    assert page == _afresh(client, "host-print", evening)


def test_the_kept_corrections_list_is_the_loop_the_page_wrote(client, host, evening):
    client.force_login(host)
    kept_forget()
    rounds = Template(ROUNDS_LOOP).render(Context({"evening": evening, "rounds": correction_rounds(evening)}))
    assert "Round 1" in rounds and reverse("host-correction", args=[evening.pk, 1, 1]) in rounds
    for _ in range(2):  # written, then kept
        page = client.get(reverse("host-corrections", args=[evening.pk])).content.decode()
        assert f"{rounds}\n\n</main>" in page  # the list ends the page's content, as the loop did


def test_the_end_page_follows_the_final_count_and_the_ceremony(client, host):
    evening = ended_evening(host, 12)
    client.force_login(host)
    kept_forget()
    before = _page(client, "host-finish", evening)
    assert _page(client, "host-finish", evening) == before  # drawn again unchanged
    for change in (lambda: count_every_table(evening), lambda: reveal(evening, 1), lambda: reveal(evening, 2)):
        change()
        now = _page(client, "host-finish", evening)
        assert now == _afresh(client, "host-finish", evening) and now != before, change
        before = now


def test_the_room_display_at_tables_of_four_is_what_its_template_wrote_and_follows_a_bell(client, host):
    from tournament.formats.partnership.state import foursome_draw
    from tournament.registry import format_for
    from tournament.services.clock import round_ring, round_start
    from tournament.views.room import _room_context

    evening = Evening.objects.create(host=host, name="Bunco", date="2026-11-30", format="bunco", rounds_planned=3)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", 'O\'Brien "&" Co'):
        guest_add(evening=evening, name=name, pack="red", check_in=True)
    foursome_draw(evening=Evening.objects.get(pk=evening.pk))
    room = reverse("room", args=[evening.public_key])
    kept_forget()
    before = _room(client, room)
    evening = Evening.objects.get(pk=evening.pk)
    for _ in range(2):  # computed, then kept
        context = _room_context(evening, mode="full", asked="full", etag="e")
        inline = Template(ROOM_AT_FOUR).render(Context(context))
        assert Template("{% include 'partnership/room.html' %}").render(Context(context)) == inline
        assert "O&#x27;Brien &quot;&amp;&quot; Co" in inline and "Find your name" in inline and "The tables" in inline
    assert _room(client, room) == before
    rnd = round_start(evening=evening, user=host)
    fmt = format_for(evening)
    for table in range(1, len(fmt.state(evening).tables) + 1):
        fmt.example_result(evening=Evening.objects.get(pk=evening.pk), rnd=rnd, table=table, user=host)
    if evening.rounds.get(pk=rnd.pk).state != "closed":
        round_ring(evening=Evening.objects.get(pk=evening.pk), user=host)
    after = _room(client, room)
    kept_forget()
    assert after == _room(client, room) and after != before


def _room(client, room: str) -> str:
    """The room display in its full mode, each request's CSRF token and clock left out."""
    page = _TOKEN.sub(r'\1"', client.get(room, {"mode": "full"}).content.decode())
    return re.sub(r'data-now="[^"]*"', 'data-now=""', page)


@pytest.mark.parametrize("guests", [7, 8])
def test_the_room_slides_at_tables_of_four_are_what_their_templates_wrote(host, guests):
    """Ghosts, a sit-out with no table and names with markup: the slides written in Python
    (``formats.partnership.room_slides``) are the templates' text, character for character."""
    from tournament.formats.partnership.room_slides import seating_slide, tables_slide
    from tournament.formats.partnership.state import foursome_draw
    from tournament.selectors.guest_boards import shared_board

    evening = Evening.objects.create(host=host, name="Bunco", date="2026-11-30", format="bunco", rounds_planned=3)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", 'O\'Brien "&" Co', 'Hal "the" & Co')[:guests]:
        guest_add(evening=evening, name=name, pack="red", check_in=True)
    foursome_draw(evening=Evening.objects.get(pk=evening.pk))
    four = shared_board(Evening.objects.get(pk=evening.pk)).family
    assert any(s.is_ghost for t in four.tables for s in t.seats) == (guests == 7)
    assert tables_slide(four) == Template(ROOM_TABLES).render(Context({"foursome": four}))
    assert "O&#x27;Brien &quot;&amp;&quot; Co" in tables_slide(four)
    seating = [(s.name, s.player, t.number, s.seat_word[:1]) for t in four.tables for s in t.seats if not s.is_ghost]
    seating.append(("<i>Out</i> & 'co'", 99, None, ""))  # a schedule's sit-out
    assert seating_slide(seating) == Template(ROOM_SEATING).render(Context({"foursome_seating": seating}))
    assert (
        tables_slide(replace(four, tables=()))
        == Template(ROOM_TABLES).render(Context({"foursome": replace(four, tables=())}))
        == ""
    )
    assert seating_slide([]) == Template(ROOM_SEATING).render(Context({"foursome_seating": []})) == ""


def test_the_rows_put_in_as_bytes_are_the_rows_the_template_writes(client, host, evening, monkeypatch):
    """The guests list's rows put into the response once, as bytes (``guest_rows.RowsSplice``),
    make the page the template alone writes, character for character: for the rows' template
    and for the whole page, the host's and (htmx) the list's body."""
    from django.http import HttpResponse

    from tournament.templatetags.guest_rows import ROWS_SLOT, RowsSplice

    door = Door(evening=evening, user=host)
    listing = guest_list(evening, kept=True)
    page = Template("{% load guest_rows %}<p>Zoë →</p>{% guest_rows %}<p>the end</p>")
    context = {"list": listing, "door": door, "evening": evening, "csrf_token": "the-token"}
    splice = RowsSplice()
    drawn = page.render(Context({**context, "rows_splice": splice}))
    assert ROWS_SLOT in drawn and splice.rows is not None and "<tr " not in drawn
    assert splice.splice(HttpResponse(drawn)).content.decode() == page.render(Context(context))

    class InPlace:  # no splice: every template writes the rows in place
        def splice(self, response):
            return response

    client.force_login(host)
    url = reverse("host-guests", args=[evening.pk])
    for headers in ({}, {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "guest-rows"}):
        spliced = _TOKEN.sub(r'\1"', client.get(url, **headers).content.decode())
        assert ROWS_SLOT not in spliced and spliced.count('<tr id="guest-') == evening.guests.count()
        with monkeypatch.context() as patched:
            patched.setattr("tournament.views.guests.RowsSplice", InPlace)
            assert _TOKEN.sub(r'\1"', client.get(url, **headers).content.decode()) == spliced


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Chatham"])
def test_the_corrections_rounds_written_in_python_are_the_templates_loop(host, zone):
    """At tables of four with a ghost, names with markup, a table with no result and a bell
    whose counts do not add up (poker), in a time zone of its own: ``views.correction_rounds``
    writes what the loop wrote; before any bell, its one line."""
    from django.utils import timezone

    from tournament.formats.partnership.state import foursome_draw
    from tournament.registry import format_for
    from tournament.services.clock import round_ring, round_start
    from tournament.views.correction_rounds import rounds_html

    evening = Evening.objects.create(host=host, name="Bunco", date="2026-11-30", format="bunco", rounds_planned=3)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", 'O\'Brien "&" Co'):
        guest_add(evening=evening, name=name, pack="red", check_in=True)
    foursome_draw(evening=Evening.objects.get(pk=evening.pk))
    with timezone.override(zone):
        assert rounds_html(evening, []) == Template(ROUNDS_LOOP).render(Context({"evening": evening, "rounds": []}))
    rnd = round_start(evening=Evening.objects.get(pk=evening.pk), user=host)
    fmt = format_for(evening)
    fmt.example_result(evening=Evening.objects.get(pk=evening.pk), rnd=rnd, table=1, user=host)
    if evening.rounds.get(pk=rnd.pk).state != "closed":
        round_ring(evening=Evening.objects.get(pk=evening.pk), user=host)
    poker = played_evening(host, 12)
    for each in (evening, poker):
        rounds = correction_rounds(Evening.objects.get(pk=each.pk))
        assert rounds
        with timezone.override(zone):
            written = rounds_html(each, rounds)
            assert written == Template(ROUNDS_LOOP).render(Context({"evening": each, "rounds": rounds}))
    assert "Ghost" in rounds_html(evening, correction_rounds(evening)) and "O&#x27;Brien" in written + rounds_html(
        evening, correction_rounds(evening)
    )


@pytest.mark.parametrize("who", ["host", "door helper"])
def test_the_kept_registration_forms_are_the_forms_written_afresh(client, host, evening, monkeypatch, who):
    """The guests page's unbound registration forms written once per version
    (``guest_rows.KeptFormsNode``) make the page written afresh, each request's own CSRF token
    in each form; a form sent back with a mistake is written afresh, with its reasons, and the
    search box under a search with the words searched."""
    from tournament.templatetags.guest_rows import KeptFormsNode

    if who == "host":
        client.force_login(host)
        url = reverse("host-guests", args=[evening.pk])
    else:
        url = reverse("helper-page", args=[helper_link_create(evening=evening, role="door").key])
    kept_forget()
    pages = [client.get(url).content.decode() for _ in range(2)]  # written, then kept
    with monkeypatch.context() as patched:
        patched.setattr(KeptFormsNode, "render", lambda self, context: self.nodelist.render(context))
        afresh = client.get(url).content.decode()
    for page in pages:
        assert _TOKEN.sub(r'\1"', page) == _TOKEN.sub(r'\1"', afresh)
        tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', page))
        assert len(tokens) == 1 and "csrfslot" not in page  # the request's own token in every form
    refused = client.post(url, {"one-name": "", "one-pack": "red"}).content.decode()
    assert "This field is required" in refused or "errorlist" in refused
    searched = client.get(url, {"q": "zo"}).content.decode()  # the search box written afresh, with the search
    assert 'name="q" value="zo"' in searched and 'name="q" value="zo"' not in pages[1]
